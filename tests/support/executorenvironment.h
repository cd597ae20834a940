// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the tests that run a real executor share (tests/support/, on every test's include path): XDG
// folders of their own, so that the executor the console's ExecutorConnection starts has its own runtime
// dir (URL, token, lock), database and settings and never meets the user's; fixture files placed in a job
// dir; the console-test trainer's jobs and releasing them; and stopping the executors a test started.

#include "job.h"
#include "machinecatalog.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>

#include <csignal>

namespace Trainyard::Test {

/// Makes `root`/run (owner-only, as the XDG base directory spec requires of XDG_RUNTIME_DIR), `root`/data,
/// `root`/config and each of `extraDirs` (relative to `root`), points XDG_RUNTIME_DIR, XDG_DATA_HOME and
/// XDG_CONFIG_HOME at the first three, has clients start this build's executor (TRAINYARD_EXECUTOR_BIN,
/// from the build) and forgets any TRAINYARD_EXECUTOR URL of the environment. Returns false when a folder
/// cannot be made.
inline bool isolateExecutorEnvironment(const QTemporaryDir& root, const QStringList& extraDirs = {})
{
    if (!root.isValid())
        return false;
    const QStringList dirs = QStringList { QStringLiteral("run"), QStringLiteral("data"), QStringLiteral("config") }
        + extraDirs;
    for (const QString& dir : dirs) {
        if (!QDir().mkpath(root.filePath(dir)))
            return false;
    }
    const QString run = root.filePath(QStringLiteral("run"));
    if (!QFile::setPermissions(run, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        return false;
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(run));
    qputenv("XDG_DATA_HOME", QFile::encodeName(root.filePath(QStringLiteral("data"))));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(root.filePath(QStringLiteral("config"))));
    qputenv("TRAINYARD_EXECUTOR_BIN", TRAINYARD_EXECUTOR_BIN);
    qunsetenv("TRAINYARD_EXECUTOR");
    return true;
}

/// Copies `fixture` (a path under ../shared/fixtures) to `target`, making its folders, leaves the copy
/// writable by its owner (the fixtures may be read-only) and, when `mtime` is valid, gives it that
/// modification time (checkpoint lists sort by it). Returns false when any step fails.
inline bool placeFixture(const QString& fixture, const QString& target, const QDateTime& mtime = {})
{
    if (!QDir().mkpath(QFileInfo(target).absolutePath())
        || !QFile::copy(QStringLiteral(TRAINYARD_FIXTURES_DIR "/") + fixture, target))
        return false;
    QFile file(target);
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return false;
    return !mtime.isValid()
        || (file.open(QIODevice::ReadWrite) && file.setFileTime(mtime, QFileDevice::FileModificationTime));
}

/// Writes `jobDir`/release, the file the test trainers' long-running modules (consoletest.chatty) wait for
/// before they exit. The job dir is created when the job has not reached RUNNING yet (the executor creates
/// it only when the replicas start, which may be later than a test wants to release them). Returns false
/// when it cannot be written.
inline bool releaseJob(const QString& jobDir)
{
    QDir().mkpath(jobDir);
    QFile file(jobDir + QStringLiteral("/release"));
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.close();
    return true;
}

/// A host with 256 CPUs and 1 TiB of memory and no GPU: what a test gives the scheduler so that admission never
/// makes its jobs or trials wait for each other.
inline HostInventory bigHost()
{
    HostInventory h;
    h.cpus = 256;
    h.memoryBytes = 1024LL << 30;
    return h;
}

/// A CUSTOM cluster of n1-standard-4 replicas: a master, `workers` workers, `ps` parameter servers and
/// `evaluators` evaluators, running `module`, in region us-central1, in state QUEUED (what a store insert
/// expects; the API ignores it on create). Callers add packageUris, args and jobDir.
inline Job customJob(const QString& jobId, const QString& module, int workers = 0, int ps = 0, int evaluators = 0)
{
    Job job;
    job.jobId = jobId;
    job.state = JobState::Queued;
    TrainingInput& in = job.trainingInput;
    in.scaleTier = QStringLiteral("CUSTOM");
    in.masterType = QStringLiteral("n1-standard-4");
    if (workers > 0) {
        in.workerType = QStringLiteral("n1-standard-4");
        in.workerCount = workers;
    }
    if (ps > 0) {
        in.parameterServerType = QStringLiteral("n1-standard-4");
        in.parameterServerCount = ps;
    }
    if (evaluators > 0) {
        in.evaluatorType = QStringLiteral("n1-standard-4");
        in.evaluatorCount = evaluators;
    }
    in.pythonModule = module;
    in.region = QStringLiteral("us-central1");
    return job;
}

/// A BASIC job of the console tests' trainer package (tests/gui/trainers/consoletest): `module` with `args`,
/// job dir `jobDir`.
inline Job consoleTestJob(const QString& jobId, const QString& module, const QStringList& args, const QString& jobDir)
{
    Job job;
    job.jobId = jobId;
    TrainingInput& in = job.trainingInput;
    in.scaleTier = QStringLiteral("BASIC");
    in.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/gui/trainers/consoletest") };
    in.pythonModule = module;
    in.args = args;
    in.region = QStringLiteral("us-central1");
    in.jobDir = jobDir;
    return job;
}

/// Sends SIGTERM to each executor a test started (their pids from ExecutorConnection::endpoint()); an
/// executor stops its jobs' replicas before it exits. Then waits (at most 30 s each) until they have exited: what
/// an executor writes on its way out must not land in the test's temporary folder after it was removed (it left
/// empty data folders in /tmp). The executors are detached (ExecutorLocator), so an exited one is gone at once.
inline void stopExecutors(const QList<qint64>& pids)
{
    for (const qint64 pid : pids)
        ::kill(pid_t(pid), SIGTERM);
    // (No event loop is needed for another process's exit: this header also serves benches without Qt Test.)
    for (const qint64 pid : pids) {
        const QDeadlineTimer deadline(30000);
        while (::kill(pid_t(pid), 0) == 0 && !deadline.hasExpired())
            QThread::msleep(20);
    }
}

} // namespace Trainyard::Test
