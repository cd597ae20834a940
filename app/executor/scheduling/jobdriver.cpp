// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobdriver.h"

#include "batchplan.h"
#include "batchpredictionjob.h"
#include "jobrun.h"
#include "pathpolicy.h"
#include "studyrun.h"
#include "trainingjob.h"

#include <QDir>
#include <QFileInfo>

namespace Trainyard {

// JobRun owns its driver: both are defined where JobDriver is complete.
JobRun::JobRun() = default;
JobRun::~JobRun() = default;

namespace {

/// A job that cannot be driven (JobDriver::create()'s error): it has no runs, and the scheduler fails it at once.
class UndrivableJob final : public JobDriver {
public:
    UndrivableJob(Host* host, JobRun* job)
        : JobDriver(host, job)
    {
    }
    bool entryStands(const QString&) const override { return false; }
    ReplicaSetRun* queuedRun(const QString&, RunId*) override { return nullptr; }
    void runRunning(ReplicaSetRun&, JobState) override { }
    void runEnded(ReplicaSetRun&) override { }
    QList<ReplicaSetRun*> runsToRecover(const Job&, const QStringList&) override { return {}; }
    RunWords words(const ReplicaSetRun&, JobState) const override { return {}; }
    void runExhausted(ReplicaSetRun&, const QString&) override { }
};

} // namespace

std::unique_ptr<JobDriver> JobDriver::create(
    Host* host, JobStore* store, JobRun* run, const Job& stored, std::optional<BatchPlan> batchPlan, QString* error)
{
    if (stored.predictionInput)
        return std::make_unique<BatchPredictionJob>(host, run, stored, std::move(batchPlan));
    if (stored.trainingInput.hyperparameters) {
        QString why;
        if (std::unique_ptr<StudyRun> study = StudyRun::open(host, store, run, stored, &why))
            return study;
        *error = QStringLiteral("The hyperparameter spec cannot be searched: %1").arg(why);
        return std::make_unique<UndrivableJob>(host, run);
    }
    return std::make_unique<TrainingJob>(host, run, stored);
}

JobDriver::JobDriver(Host* host, JobRun* job)
    : m_host(host)
    , m_job(job)
{
}

JobDriver::~JobDriver() = default;

ReplicaSetRun* JobDriver::findRun(const RunId& id) const
{
    for (const auto& run : m_runs) {
        if (run->id() == id)
            return run.get();
    }
    return nullptr;
}

ReplicaSetRun* JobDriver::makeRun(const RunId& id)
{
    Q_UNUSED(id)
    return nullptr;
}

ReplicaSetRun* JobDriver::addRun(std::unique_ptr<ReplicaSetRun> run)
{
    m_runs.push_back(std::move(run));
    return m_runs.back().get();
}

void JobDriver::log(const QString& message, LogSeverity severity, const QString& trialId)
{
    m_host->jobLog(m_job->key, message, severity, trialId);
}

QString JobDriver::trainingStartingMessage(const ReplicaSetRun& run)
{
    return run.id().trialId.isEmpty()
        ? QStringLiteral("Waiting for training program to start.")
        : QStringLiteral("Trial %1: waiting for training program to start.").arg(run.id().trialId);
}

SandboxView JobDriver::launchView(const ReplicaSetRun& run)
{
    Q_UNUSED(run)
    return argumentPaths(m_job->input.args, m_host->pathPolicy());
}

SandboxView JobDriver::argumentPaths(const QStringList& args, const PathPolicy& paths)
{
    SandboxView view;
    for (const QString& arg : args) {
        // "/data/x", "--train_files=/data/a.csv,/data/b.csv": the full paths an argument holds.
        const qsizetype equals = arg.indexOf(QLatin1Char('='));
        const QString value = arg.startsWith(QLatin1Char('/')) ? arg : equals > 0 ? arg.mid(equals + 1) : QString();
        if (!value.startsWith(QLatin1Char('/')))
            continue;
        for (const QString& part : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString clean = QDir::cleanPath(part);
            // A file or folder that exists, else the folder it would be made in (an output the trainer creates).
            const QFileInfo info(clean);
            const QString path = info.exists() ? clean : info.absolutePath();
            if (!QFileInfo::exists(path) || view.writable.contains(path) || view.readable.contains(path))
                continue;
            // Inside the roots, the job dir's rule: written as the job dir is. Elsewhere (a data set in /data), read
            // only, as a package is: the account reads what it may read anyway. Never the executor's own folders or
            // /proc; what the system folders hold every sandbox sees anyway.
            if (paths.allows(path, nullptr, PathUse::JobDir))
                view.writable << path;
            else if (paths.allows(path, nullptr, PathUse::Package))
                view.readable << path;
        }
    }
    return view;
}

} // namespace Trainyard
