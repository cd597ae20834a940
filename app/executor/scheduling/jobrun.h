// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "backend.h"
#include "job.h"
#include "jobfolder.h"
#include "jobkey.h"
#include "machinecatalog.h"
#include "replicasetrun.h"

#include <QString>

#include <algorithm>
#include <memory>
#include <vector>

class QTimer;

namespace Trainyard {

class Staging;
class StudyRun;

/// A job as the Scheduler drives it, from submit() (or recover()) until it is final: its one phase, its staging and
/// timers, and the replica-set runs it owns — one (its cluster) for a plain job, one per trial for a tuning job,
/// whose study (StudyRun) decides which. Internal to the scheduling library.
struct JobRun {
    /// Where the job stands as the scheduler drives it, the one state it has here; the stored JobState follows:
    /// Queued (QUEUED: waiting for admission), Staging (PREPARING: its packages are installed), Starting (PREPARING:
    /// staged, its runs are placed and launched), Running (RUNNING: every replica of a run has run), Done (final).
    /// A cancel keeps the phase and sets cancelRequested (CANCELLING) until no process is left.
    enum class Phase { Queued, Staging, Starting, Running, Done };

    JobRun();
    ~JobRun();

    JobKey key;
    JobFolder folder; ///< JobKey::folder(): <backend's runFolderRoot>/projects/<project>/jobs/<jobId>
    Backend* backend = nullptr; ///< where its replicas run: the backend its trainingInput.region names
    ClusterPlan plan;
    TrainingInput input; ///< as submitted (a built-in algorithm's: its bundled package); it never changes after create
    Phase phase = Phase::Queued;
    bool jobDirMade = false; ///< the job dir was made for the first run (trials share it)
    bool cancelRequested = false;
    QString cancelMessage;
    bool recovered = false; ///< restarted after an executor restart: staging may be reused
    Staging* staging = nullptr;
    /// The job's cluster (one run, trialId empty), or its trials (a tuning job), in trial order.
    std::vector<std::unique_ptr<ReplicaSetRun>> sets;
    QTimer* waitTimer = nullptr;
    QTimer* runTimer = nullptr;
    QString interpreter;
    /// A tuning job's study (trainingInput.hyperparameters); null for a plain job.
    std::unique_ptr<StudyRun> study;
    /// A batch prediction job (predictionInput): its workers (BatchPlan::workers; `input` runs them), 0 for any other.
    int batchWorkers = 0;
    QString batchOutputPath;
    /// What a batch prediction job's workers see besides their own folders (Sandbox): the plan's input files and model
    /// (read), the output folder and the job's batch folder (written); no network.
    SandboxView batchView;
    /// Its predictionOutput as last stored, so that progress is stored only when it changed.
    std::optional<PredictionOutput> batchOutput;
    /// Why the job cannot run, found before it was queued (a batch prediction job whose model or input is gone):
    /// prepare() fails it with this.
    QString setupError;

    /// Staging is done: its runs start as soon as they are admitted.
    bool isStaged() const { return phase == Phase::Starting || phase == Phase::Running; }

    /// A run of it holds what admission set aside.
    bool holdsReservation() const
    {
        return std::any_of(sets.begin(), sets.end(), [](const auto& s) { return s->reservation().has_value(); });
    }
};

} // namespace Trainyard
