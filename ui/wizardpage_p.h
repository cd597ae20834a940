// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the wizard's page files (ui/wizard*page.cpp): what more than one page uses.

#include <QString>
#include <QStringList>

class QComboBox;

namespace Trainyard::WizardUi {

/// `items` as one line when there is one, else one "• item" line each: the text of a page's problem label.
QString bulletList(const QStringList& items);

/// Selects the item of `box` whose data is `value`; when there is none, adds one labelled `unknownLabel` (its %1 is
/// `value`: a stored job's value that this build does not offer, kept rather than lost) and selects it.
void selectData(QComboBox* box, const QString& value, const QString& unknownLabel);

} // namespace Trainyard::WizardUi
