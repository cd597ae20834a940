// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "wizardpage.h"

namespace Trainyard {

/// 1. Job: ID (rules checked as typed; uniqueness against the executor, debounced), "Suggest", labels,
/// and "Import config…".
class WizardJobPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardJobPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;
    /// Puts the keyboard focus in the job ID field (QWizard would give it to the Import button).
    void initializePage() override;

    QLineEdit* jobIdEdit() const { return m_jobId; }
    QLabel* jobIdProblems() const { return m_jobIdProblems; }
    QTableWidget* labelsTable() const { return m_labels; }
    QLabel* labelProblems() const { return m_labelProblems; }
    QPushButton* suggestButton() const { return m_suggest; }
    QPushButton* importButton() const { return m_import; }
    /// What the job trains, as the Cloud Console asked first: the user's training application (a package or a
    /// container image) or one of the service's built-in algorithms. The Training application page follows it.
    QRadioButton* trainApplication() const { return m_trainApp; }
    QRadioButton* trainBuiltIn() const { return m_trainBuiltIn; }
    /// "Batch prediction": a job that predicts files' instances with a model (predictionInput), no training.
    QRadioButton* batchPrediction() const { return m_batchPredict; }
    int nextId() const override;
    /// Shows `builtIn` without telling the Training application page (which told this page).
    void showBuiltIn(bool builtIn);
    /// Beside Import config…: what the last import filled in, or why it failed.
    QLabel* importStatus() const { return m_importStatus; }
    /// The labels in the table (rows with an empty key are skipped).
    QMap<QString, QString> labels() const;
    /// `<base>_<YYYYMMDD_HHMMSS>` from the current ID (sanitized) or the module name; `now` local time.
    QString suggestedId(const QDateTime& now) const;
    /// True while a uniqueness check is pending or the last one found the ID taken.
    bool idTaken() const { return m_idTaken; }
    bool uniquenessChecked() const;

private:
    void onIdChanged();
    void checkUniqueness();
    void validateLabels();
    void addLabelRow(const QString& key, const QString& value);

    QLineEdit* m_jobId;
    QPushButton* m_suggest;
    QLabel* m_jobIdProblems;
    QLabel* m_jobIdStatus;
    QTableWidget* m_labels;
    QPushButton* m_addLabel;
    QPushButton* m_removeLabel;
    QLabel* m_labelProblems;
    QPushButton* m_import;
    QLabel* m_importStatus;
    QRadioButton* m_trainApp;
    QRadioButton* m_trainBuiltIn;
    QRadioButton* m_batchPredict;
    QTimer m_debounce;
    QString m_checkedId;
    bool m_idTaken = false;
    int m_checkSerial = 0;
    QString m_serverIdError;
    QString m_loadedId;
    bool m_idEdited = false; ///< the user typed in the ID field: "required" may show
    QMap<QString, QString> m_loadedLabels;
};

} // namespace Trainyard
