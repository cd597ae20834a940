// SPDX-License-Identifier: GPL-2.0-or-later
#include "trainingjob.h"

#include "builtinalgorithm.h"
#include "jobrun.h"

namespace Trainyard {

ClusterJob::ClusterJob(Host* host, JobRun* job)
    : JobDriver(host, job)
{
    addRun(std::make_unique<ReplicaSetRun>(host->runOwner(), job->backend, RunId { job->key, QString() }, job->folder));
}

bool ClusterJob::entryStands(const QString& trialId) const
{
    return trialId.isEmpty();
}

ReplicaSetRun* ClusterJob::queuedRun(const QString& trialId, RunId* next)
{
    Q_UNUSED(trialId)
    Q_UNUSED(next)
    return &cluster();
}

void ClusterJob::runRunning(ReplicaSetRun& run, JobState stored)
{
    // The cluster runs again after a retryable failure (the job stays RUNNING meanwhile).
    if (stored == JobState::Running && run.restarts() > 0 && !run.attached())
        log(QStringLiteral("Job is running (restart %1 of %2).").arg(run.restarts()).arg(ReplicaSetRun::MaxRestarts));
}

void ClusterJob::runEnded(ReplicaSetRun& run)
{
    using StopReason = ReplicaSetRun::StopReason;
    switch (run.stopReason()) {
    case StopReason::Succeeded:
    case StopReason::StoppedEarly:
        m_host->finishJob(m_job, JobState::Succeeded, QString());
        break;
    case StopReason::Failed:
        m_host->finishJob(m_job, JobState::Failed, run.stopMessage());
        break;
    case StopReason::Cancelled:
        m_host->finishJob(m_job, JobState::Cancelled, run.stopMessage());
        break;
    case StopReason::Retry:
        m_host->finishJob(m_job, JobState::Failed,
            run.stopMessage()
                + QStringLiteral(" The cluster was restarted %1 times, the limit; the job failed.")
                      .arg(ReplicaSetRun::MaxRestarts));
        break;
    case StopReason::Shutdown:
    case StopReason::None:
        break;
    }
}

QList<ReplicaSetRun*> ClusterJob::runsToRecover(const Job& stored, const QStringList& trialFolders)
{
    Q_UNUSED(stored)
    Q_UNUSED(trialFolders)
    return { &cluster() };
}

JobDriver::RunWords ClusterJob::words(const ReplicaSetRun& run, JobState stored) const
{
    Q_UNUSED(run)
    return { QStringLiteral("the job was %1").arg(jobStateName(stored).toLower()), QStringLiteral("the job's") };
}

void ClusterJob::runExhausted(ReplicaSetRun& run, const QString& message)
{
    Q_UNUSED(run)
    m_host->finishJob(m_job, JobState::Failed, message + QStringLiteral(" The job failed."));
}

TrainingJob::TrainingJob(Host* host, JobRun* job, const Job& stored)
    : ClusterJob(host, job)
{
    job->input = launchInput(stored.trainingInput);
}

TrainingInput TrainingJob::launchInput(const TrainingInput& stored)
{
    TrainingInput input = stored;
    if (const BuiltInAlgorithm* algorithm = BuiltInAlgorithms::forJob(stored)) {
        // A built-in algorithm's image runs the bundled package as the job's trainer (no container); the stored job
        // keeps the image it was given. Uninstalled since create: launchProblem() says so.
        const QString package = BuiltInAlgorithms::packageDir();
        input.packageUris = package.isEmpty() ? QStringList() : QStringList { package };
        input.pythonModule = algorithm->module;
    }
    return input;
}

QString TrainingJob::launchProblem(const TrainingInput& input)
{
    if (BuiltInAlgorithms::forJob(input) && input.packageUris.isEmpty())
        return BuiltInAlgorithms::notInstalledMessage(input.masterConfig->imageUri);
    return {};
}

QString TrainingJob::setupError() const
{
    return launchProblem(m_job->input);
}

void TrainingJob::ending(JobState state)
{
    const TrainingInput& input = m_job->input;
    if (state != JobState::Succeeded || !BuiltInAlgorithms::forJob(input) || input.jobDir.isEmpty())
        return;
    // What the algorithm trained (framework, versions, the model folder), as the service reports it.
    if (const auto builtIn = BuiltInAlgorithms::readOutput(input.jobDir + QStringLiteral("/model"))) {
        m_host->updateJob(m_job->key, [&builtIn](Job& j) {
            TrainingOutput out = j.trainingOutput.value_or(TrainingOutput());
            out.isBuiltInAlgorithmJob = true;
            out.builtInAlgorithmOutput = builtIn;
            j.trainingOutput = out;
        });
    }
}

} // namespace Trainyard
