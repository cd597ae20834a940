// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "backend.h"
#include "job.h"
#include "jobdriver.h"
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

/// A job as the Scheduler drives it, from submit() (or recover()) until it is final: its one phase (written by the
/// Scheduler only), its staging and timers, and its driver (JobDriver: what its kind decides), which owns its
/// replica-set runs — one (its cluster) for a training or batch prediction job, one per trial for a tuning job.
/// Internal to the scheduling library.
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
    /// What its replicas launch, as its driver made it: a training job's input as submitted (a built-in algorithm's:
    /// its bundled package), a batch prediction job's workers (BatchPlan::trainingInput()). It never changes after
    /// create.
    TrainingInput input;
    Phase phase = Phase::Queued;
    bool jobDirMade = false; ///< the job dir was made for the first run (trials share it)
    bool cancelRequested = false;
    QString cancelMessage;
    bool recovered = false; ///< restarted after an executor restart: staging may be reused
    Staging* staging = nullptr;
    QTimer* waitTimer = nullptr;
    QTimer* runTimer = nullptr;
    QString interpreter;
    /// What its kind decides (JobDriver): a training job's cluster, a tuning job's study and trials, a batch
    /// prediction job's plan and workers. It owns the job's replica-set runs.
    std::unique_ptr<JobDriver> driver;

    /// Staging is done: its runs start as soon as they are admitted.
    bool isStaged() const { return phase == Phase::Starting || phase == Phase::Running; }

    /// A run of it holds what admission set aside.
    bool holdsReservation() const
    {
        const auto& runs = driver->runs();
        return std::any_of(runs.begin(), runs.end(), [](const auto& s) { return s->reservation().has_value(); });
    }
};

} // namespace Trainyard
