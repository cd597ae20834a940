// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "wizardpage.h"

namespace Trainyard {

/// 6. Review: YAML (gcloud --config form), the trainyardctl line, copy and export.
class WizardReviewPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardReviewPage(SubmitWizard* wizard);
    void load(const Job&) override { }
    void apply(Job&) const override { }
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    void initializePage() override;
    /// The last page of both flows (QWizard would go on to the higher-numbered Batch page).
    int nextId() const override { return -1; }

    QPlainTextEdit* yamlView() const { return m_yaml; }
    QPlainTextEdit* commandView() const { return m_command; }
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* exportButton() const { return m_export; }
    QLabel* submitProblems() const { return m_problems; }
    /// Writes the YAML to `path`; false and *error on failure (nothing half-written: QSaveFile).
    bool exportTo(const QString& path, QString* error) const;
    /// Export config…'s work: writes the YAML to `path`, and the command line then reads that file
    /// (`--config=PATH`); a failure is shown under the buttons.
    bool exportConfig(const QString& path);
    /// Under the command line when it needs a config file (fields no flag says, e.g. hyperparameters): which
    /// file it reads and whether Export config… has written it. Hidden otherwise.
    QLabel* commandNote() const { return m_commandNote; }

private:
    void updateCommand();
    QPlainTextEdit* m_yaml;
    QPlainTextEdit* m_command;
    QLabel* m_commandNote = nullptr;
    QPushButton* m_copy;
    QPushButton* m_export;
    QLabel* m_problems;
    QString m_exported; ///< where Export config… last wrote this job's YAML
    QString m_exportedYaml; ///< what it wrote: the command reads that file only while the job is the same
};

} // namespace Trainyard
