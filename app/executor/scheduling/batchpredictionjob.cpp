// SPDX-License-Identifier: GPL-2.0-or-later
#include "batchpredictionjob.h"

#include "builtinalgorithm.h"
#include "jobrun.h"
#include "pathpolicy.h"

#include <QDir>
#include <QFile>

namespace Trainyard {

BatchPredictionJob::BatchPredictionJob(Host* host, JobRun* job, const Job& stored, std::optional<BatchPlan> plan)
    : ClusterJob(host, job)
{
    const PredictionInput& in = *stored.predictionInput;
    const QString planFile = job->folder.batchPlanFile();
    QString error;
    if (plan) {
        // The API's plan, made at create for this job: its progress lives in the job's folder.
        plan->stateDir = job->folder.batchDir();
        if (!plan->write(planFile, &error))
            plan.reset();
    } else {
        plan = keptPlan(in, &error);
    }
    m_outputPath = in.outputPath;
    // Each worker predicts a share of its own: the job is done when all are.
    cluster().setSucceedsWithEveryReplica(true);
    if (!plan) {
        m_setupError = error;
        job->input = BatchPlan().trainingInput(QString(), planFile, in.region, in.runtimeVersion);
        return;
    }
    const QString package = BuiltInAlgorithms::packageDir();
    if (package.isEmpty())
        m_setupError = BuiltInAlgorithms::notInstalledMessage(QStringLiteral("Batch prediction"));
    m_workers = plan->workers;
    m_workersText = plan->workersText();
    m_view = plan->sandboxView();
    job->input = plan->trainingInput(
        package, planFile, in.region, in.runtimeVersion.isEmpty() ? plan->model.runtimeVersion : in.runtimeVersion);
    m_output = stored.predictionOutput;
}

std::optional<BatchPlan> BatchPredictionJob::keptPlan(const PredictionInput& in, QString* error) const
{
    const QString planFile = m_job->folder.batchPlanFile();
    if (!QFile::exists(planFile)) {
        // Written right after the job was stored: the executor stopped between the two.
        *error = QStringLiteral("the job's batch plan %1 is missing (the executor stopped before it was written); "
                                "submit the job again")
                     .arg(planFile);
        return std::nullopt;
    }
    // A plan made before a restart: what it names is held to the rule again (it lies in the job's folder).
    std::optional<BatchPlan> plan = BatchPlan::read(planFile, error);
    if (plan && plan->outputPath != in.outputPath) {
        *error = QStringLiteral("the batch plan %1 names another output folder than the job").arg(planFile);
        return std::nullopt;
    }
    for (qsizetype i = 0; plan && i < plan->files.size(); ++i) {
        if (const QString why = m_host->pathPolicy().problem(plan->files.at(i).path, PathUse::InputFile);
            !why.isEmpty()) {
            *error = QStringLiteral("predictionInput.inputPaths: %1").arg(why);
            return std::nullopt;
        }
    }
    return plan;
}

QString BatchPredictionJob::startingMessage(const ReplicaSetRun& run) const
{
    Q_UNUSED(run)
    return QStringLiteral("Waiting for the batch prediction workers to start. ") + m_workersText + QLatin1Char('.');
}

SandboxView BatchPredictionJob::launchView(const ReplicaSetRun& run)
{
    // The workers write these as the sandbox's account: they exist before the first worker starts.
    for (const QString& folder : std::as_const(m_view.writable)) {
        QDir().mkpath(folder);
        if (const QString warning = run.backend()->adoptJobDir(folder); !warning.isEmpty())
            log(warning, LogSeverity::Warning);
    }
    return m_view;
}

void BatchPredictionJob::poll()
{
    storeProgress();
}

void BatchPredictionJob::ending(JobState state)
{
    Q_UNUSED(state)
    storeProgress(); // what the workers committed, however the job ended
}

void BatchPredictionJob::storeProgress()
{
    const PredictionOutput now = readBatchProgress(m_job->folder.batchDir(), m_outputPath, m_workers);
    if (m_output && *m_output == now)
        return;
    m_output = now;
    m_host->updateJob(m_job->key, [&now](Job& j) { j.predictionOutput = now; });
}

} // namespace Trainyard
