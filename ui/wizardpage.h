// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The base of the SubmitWizard's pages (submitwizard.h; one header and one file per page: wizardjobpage.h,
// wizardapppage.h, wizardcomputepage.h, wizardoutputpage.h, wizardtuningpage.h, wizardreviewpage.h). Each page loads
// its fields from a Job, writes back only the fields whose widgets the user changed since the last load (apply),
// validates before Next (isComplete: what blocks Next, with the reason in a label under the field) and shows an
// executor violation next to its field (showFieldError).

#include "apiclient.h"
#include "job.h"
#include "regioninfo.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWizardPage>

#include <optional>
#include <utility>

class QAbstractButton;
class QButtonGroup;
class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QFormLayout;
class QSpinBox;
class QTableWidget;
class QToolButton;

namespace Trainyard {

class BuiltInAlgorithmForm;
class SubmitWizard;

/// A base for the pages: a wizard pointer and a place for an executor error that names no field.
class WizardPage : public QWizardPage {
    Q_OBJECT
public:
    explicit WizardPage(SubmitWizard* wizard);
    virtual void load(const Job& job) = 0;
    virtual void apply(Job& job) const = 0;
    /// Shows `message` next to the widget for `field`; returns that widget (to focus), or nullptr.
    virtual QWidget* showFieldError(const QString& field, const QString& message) = 0;
    /// Clears what showFieldError showed.
    virtual void clearFieldErrors() { }

protected:
    /// A label for problems under a field: red, word-wrapped, hidden while empty.
    static QLabel* problemLabel(const QString& objectName, QWidget* parent);
    static void setProblem(QLabel* label, const QString& text);
    /// Emits completeChanged() when isComplete() differs from what the wizard was last told. QWizard answers
    /// every completeChanged() by hiding and showing the whole page (QWizardPrivate::disableUpdates() hides its
    /// anti-flicker widget), which closes any open drop-down list: a host or image refresh that changed nothing
    /// closed the Module, Runtime version and Machine type lists within a second (issue 27).
    void updateComplete();
    SubmitWizard* m_wizard;

private:
    std::optional<bool> m_completeShown;
};

} // namespace Trainyard
