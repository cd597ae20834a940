// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "wizardpage.h"

namespace Trainyard {

/// 2. Batch prediction (the Job page's third choice, issue 30): the job's predictionInput. The model is a deployed
/// model (its default version, or one of its versions, listed from the executor) or a model folder (its framework
/// detected from its files, as the Deploy dialog does); the input files are paths or patterns (a `*` in the file name,
/// as the service allows), their matches counted and the first instances previewed, JSON highlighted; the format is
/// guessed from the first file's extension; then the output folder and format, the workers (at most maxWorkerCount)
/// and the batch size. Next goes to the Review page.
class WizardBatchPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardBatchPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;
    int nextId() const override;
    void initializePage() override;

    QRadioButton* deployedMode() const { return m_deployedMode; }
    QRadioButton* folderMode() const { return m_folderMode; }
    QComboBox* modelBox() const { return m_model; }
    QComboBox* versionBox() const { return m_version; }
    QLineEdit* folderEdit() const { return m_folder; }
    QLabel* frameworkLabel() const { return m_framework; }
    QLineEdit* inputsEdit() const { return m_inputs; }
    QLabel* inputSummary() const { return m_inputSummary; }
    QPlainTextEdit* preview() const { return m_preview; }
    QComboBox* formatBox() const { return m_format; }
    QLineEdit* outputEdit() const { return m_output; }
    QComboBox* outputFormatBox() const { return m_outputFormat; }
    QSpinBox* workersBox() const { return m_workers; }
    QSpinBox* batchSizeBox() const { return m_batchSize; }

private:
    /// What the input patterns name, found on a worker thread (BatchInputs::expand() for each absolute pattern).
    struct InputScan {
        QStringList patterns;
        QStringList files; ///< every match, in pattern order
        QStringList unmatched; ///< the absolute patterns that match no readable file
        qint64 bytes = 0; ///< the files' sizes, summed
        QStringList preview; ///< the first file's first instances (each line cut to 400 characters)
    };
    void showInputs(const InputScan& scan);

    void fetchModels();
    void fetchVersions();
    void onFolderChanged();
    void onInputsChanged();
    QStringList inputPatterns() const;

    QRadioButton* m_deployedMode;
    QRadioButton* m_folderMode;
    QComboBox* m_model;
    QComboBox* m_version;
    QLineEdit* m_folder;
    QLabel* m_framework;
    QLabel* m_modelProblems;
    QLineEdit* m_inputs;
    QLabel* m_inputSummary;
    QLabel* m_inputProblems;
    QPlainTextEdit* m_preview;
    QComboBox* m_format;
    QLineEdit* m_output;
    QLabel* m_outputProblems;
    QComboBox* m_outputFormat;
    QSpinBox* m_workers;
    QSpinBox* m_batchSize;
    bool m_frameworkFound = false;
    int m_matched = 0;
    int m_inputScans = 0; ///< input scans started; only the newest one's answer is shown
    QString m_loadedModel; ///< "model" or "model/version" of a loaded job, chosen once the lists arrive
};

} // namespace Trainyard
