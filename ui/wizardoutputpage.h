// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "checkpointindex.h"
#include "wizardpage.h"

#include <QFutureWatcher>

namespace Trainyard {

/// 4. Output: the job dir (writable or creatable; a warning when it already holds checkpoints).
///
/// The checkpoint warning uses the executor's rule (CheckpointIndex, what the job's Checkpoints tab lists and a
/// trainer would resume from), counts checkpoints rather than files, and walks the folder on the thread pool: a
/// job dir can hold a data set, and typing a path must not freeze the wizard.
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
    /// The proposed job dir of a job: $XDG_DATA_HOME/trainyard-jobs/JOB_ID, beside the executor's data folder (a job
    /// dir may not lie in it; before issue 42 the proposal was $XDG_DATA_HOME/trainyard/job-dirs/JOB_ID).
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
    /// jobDirProblem(), then the executor's own rule for where job dirs may lie (PathPolicy with the roots its
    /// `…/host` answer names, the message it would give at Submit), when the executor runs on this machine.
    QString problem() const;
    /// True while the checkpoint warning does not yet speak of the job dir now typed (its scan runs).
    bool checkpointScanPending() const;

private:
    /// One scan's answer: the checkpoints under `dir`, newest first; `truncated` when the walk stopped at
    /// CheckpointIndex::MaxEntries.
    struct CheckpointScan {
        QString dir;
        QList<CheckpointEntry> checkpoints;
        bool truncated = false;
    };
    void onChanged();
    /// Starts a scan of `dir` (as typed; "" for none), or queues it behind the one running.
    void scanCheckpoints(const QString& dir);
    void onCheckpointScanFinished();
    void showCheckpoints(const CheckpointScan& scan);

    QLineEdit* m_jobDir;
    QPushButton* m_browse;
    QLabel* m_problems;
    QLabel* m_warning;
    QPushButton* m_fresh;
    bool m_proposed = false; ///< the job dir is our proposal, renamed with the job ID
    QString m_loadedDir;
    QString m_serverError;
    QFutureWatcher<CheckpointScan> m_checkpointScan;
    QString m_checkpointsWanted; ///< the folder the warning should speak of
    QString m_checkpointsShownFor; ///< the folder it speaks of now
};

} // namespace Trainyard
