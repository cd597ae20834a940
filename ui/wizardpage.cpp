// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardpage.h"

#include "submitwizard.h"
#include "wizardpage_p.h"

#include <QComboBox>
#include <QLabel>

namespace Trainyard {

namespace WizardUi {

QString bulletList(const QStringList& items)
{
    if (items.size() == 1)
        return items.first();
    QStringList lines;
    for (const QString& item : items)
        lines << QStringLiteral("• ") + item;
    return lines.join(QLatin1Char('\n'));
}

void selectData(QComboBox* box, const QString& value, const QString& unknownLabel)
{
    int i = box->findData(value);
    if (i < 0) {
        box->addItem(unknownLabel.arg(value), value);
        i = box->count() - 1;
    }
    box->setCurrentIndex(i);
}

} // namespace WizardUi

WizardPage::WizardPage(SubmitWizard* wizard)
    : QWizardPage(wizard)
    , m_wizard(wizard)
{
}

QLabel* WizardPage::problemLabel(const QString& objectName, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(QStringLiteral("color: #c01c28;"));
    label->setVisible(false);
    return label;
}

void WizardPage::setProblem(QLabel* label, const QString& text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

void WizardPage::updateComplete()
{
    const bool complete = isComplete();
    if (m_completeShown == complete)
        return;
    m_completeShown = complete;
    emit completeChanged();
}

} // namespace Trainyard
