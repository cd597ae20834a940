// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "wizardpage.h"

namespace Trainyard {

/// 4. Output: the job dir (writable or creatable; a warning when it already holds checkpoints).
class WizardOutputPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardOutputPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;

    void initializePage() override;

    QLineEdit* jobDirEdit() const { return m_jobDir; }
    QLabel* jobDirProblems() const { return m_problems; }
    QLabel* checkpointWarning() const { return m_warning; }
    /// Shown with the checkpoint warning: switches to a fresh folder (proposeFreshJobDir()).
    QPushButton* freshJobDirButton() const { return m_fresh; }
    /// The proposed job dir of a job: $XDG_DATA_HOME/trainyard/job-dirs/JOB_ID.
    static QString defaultJobDir(const QString& jobId);
    /// Proposes a folder named after the current job ID beside the current job dir (defaultJobDir() when there
    /// is none; with a _2, _3 … suffix when that folder is already used or is the current one), and keeps
    /// following the job ID until the user types or browses a folder of their own. Used when the page opens on
    /// an empty job dir, by "Use a new folder" and by "Submit similar…", so a new job never silently resumes an
    /// old run's checkpoints, and a folder the user chose keeps its parent.
    void proposeFreshJobDir();
    /// Why `dir` cannot be a job dir ("" when it can: a writable folder, or missing with a writable
    /// nearest existing parent).
    static QString jobDirProblem(const QString& dir);
    /// jobDirProblem(), then the executor's own rule for where job dirs may lie (JobDirPolicy with the roots its
    /// `…/host` answer names, the message it would give at Submit), when the executor runs on this machine.
    QString problem() const;
    /// Checkpoint-like files under `dir` (*.pt, *.pth, *.index, *.safetensors, "checkpoint"), at most
    /// `limit`, paths relative to `dir`.
    static QStringList checkpointFiles(const QString& dir, int limit = 5);

private:
    void onChanged();
    static constexpr int MaxCheckpointsCounted = 1000;

    QLineEdit* m_jobDir;
    QPushButton* m_browse;
    QLabel* m_problems;
    QLabel* m_warning;
    QPushButton* m_fresh;
    bool m_proposed = false; ///< the job dir is our proposal, renamed with the job ID
    QString m_loadedDir;
    QString m_serverError;
};

} // namespace Trainyard
