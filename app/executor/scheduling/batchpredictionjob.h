// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "batchplan.h"
#include "trainingjob.h"

namespace Trainyard {

/// A batch prediction job (`predictionInput`): its plan (BatchPlan: the model, the input files, the workers) is made
/// once, by the API when the job is created, and travels with the job to here, where it is written to the job's
/// folder (JobFolder::batchPlanFile()) so that a restarted executor, or a restarted worker, splits the input the same
/// way; after an executor restart the kept plan is read and what it names is held to the path rule again. Its workers
/// are one cluster (a master and workers) running the bundled `trainyard_algorithms.batch_prediction` (copied, not
/// pip-installed: it is pure Python), each with its share; the job succeeds when every worker did. Its sandbox: the
/// plan's input files and model (read), the output folder and the job's batch folder (written), no network. Its
/// `predictionOutput` is stored from the workers' progress files every 2 s while it runs (poll()) and when it ends.
class BatchPredictionJob final : public ClusterJob {
public:
    /// Sets `job`'s launch input (JobRun::input): the plan's workers as a cluster. `plan`: the API's; nullopt after an
    /// executor restart (the kept plan is read). A job without a usable plan is driven but fails at prepare
    /// (setupError()).
    BatchPredictionJob(Host* host, JobRun* job, const Job& stored, std::optional<BatchPlan> plan);

    QString setupError() const override { return m_setupError; }
    StagingMode stagingMode() const override { return StagingMode::CopyBundled; }
    SandboxView launchView(const ReplicaSetRun& run) override;
    /// "Waiting for the batch prediction workers to start: 1 worker: the input is …" (not a training program's line).
    QString startingMessage(const ReplicaSetRun& run) const override;
    void poll() override;
    void ending(JobState state) override;

private:
    /// The plan the job's folder keeps, checked again; nullopt with *error when it is missing or refused.
    std::optional<BatchPlan> keptPlan(const PredictionInput& in, QString* error) const;
    /// Stores the job's predictionOutput from its workers' progress files when it changed.
    void storeProgress();

    int m_workers = 1;
    QString m_workersText; ///< BatchPlan::workersText() of the job's plan
    QString m_outputPath;
    SandboxView m_view;
    std::optional<PredictionOutput> m_output; ///< as last stored
    QString m_setupError;
};

} // namespace Trainyard
