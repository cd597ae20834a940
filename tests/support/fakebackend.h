// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "backend.h"
#include "jobkeys.h"

#include <QFileInfo>
#include <QMap>
#include <QSet>
#include <QStringList>

namespace Trainyard::Test {

/// A scripted Backend for the seam's tests (tst_backendcontract under the Scheduler, tst_replicasetrun under one
/// ReplicaSetRun): it records every command and answers only when the test says so (emitX()), as a cluster backend
/// would, later. No process is started.
class FakeBackend : public Backend {
public:
    QStringList calls; ///< "admit j1", "place j1", "launch j1", "stop j1", "release j1"
    QSet<QString> refuse; ///< job IDs admit() says "not now" to
    QMap<QString, QList<Launch::ReplicaLaunch>> launched; ///< last launch per job
    QMap<QString, Launch::ReplicaSet> placedSets;
    int hostCpus = 8;
    QSet<QString> holding; ///< runs with a reservation

    /// The run as calls and holding name it: "<jobId>" or "<jobId>/<trialId>" (the tests use one project).
    static QString label(const RunId& run)
    {
        return run.trialId.isEmpty() ? run.job.jobId : run.job.jobId + QLatin1Char('/') + run.trialId;
    }

    QString name() const override { return QStringLiteral("fake"); }
    QString adoptWarning; ///< what adoptJobDir() answers
    QStringList adopted; ///< the job dirs adoptJobDir() was given, each with whether it existed then
    QString adoptJobDir(const QString& path) override
    {
        adopted << path + (QFileInfo(path).isDir() ? QStringLiteral(" (exists)") : QStringLiteral(" (missing)"));
        return adoptWarning;
    }
    std::optional<Reservation> admit(const RunId& run, const ClusterPlan&) override
    {
        calls << QStringLiteral("admit ") + label(run);
        if (refuse.contains(run.job.jobId))
            return std::nullopt;
        holding.insert(label(run));
        return Reservation { { 3 } };
    }
    void release(const RunId& run) override
    {
        calls << QStringLiteral("release ") + label(run);
        holding.remove(label(run));
    }
    void place(const RunId& run, const Launch::ReplicaSet& set) override
    {
        calls << QStringLiteral("place ") + label(run);
        placedSets[run.job.jobId] = set;
    }
    void launch(const RunId& run, const QList<Launch::ReplicaLaunch>& replicas) override
    {
        calls << QStringLiteral("launch ") + label(run);
        launched[run.job.jobId] = replicas;
    }
    void stop(const RunId& run, std::chrono::milliseconds) override { calls << QStringLiteral("stop ") + label(run); }
    void stopAll(std::chrono::milliseconds) override { calls << QStringLiteral("stopAll"); }
    void reclaim(const RunId& run, const QString&) override { calls << QStringLiteral("reclaim ") + label(run); }
    BackendUsage usage() const override
    {
        BackendUsage u;
        u.host.cpus = hostCpus;
        u.vcpusInUse = 4 * int(holding.size());
        u.runsHolding = int(holding.size());
        return u;
    }

    /// Places the job's replicas on "node<i>:<port>", one node per replica.
    void emitPlaced(const QString& jobId, int basePort)
    {
        Launch::Placement p;
        for (int i = 0; i < placedSets.value(jobId).replicas.size(); ++i)
            p.addresses << Launch::Address { QStringLiteral("node%1").arg(i), basePort + i };
        Q_EMIT placed(RunId { localJob(jobId), QString() }, p);
    }
    void emitAllStarted(const QString& jobId)
    {
        qint64 pid = 1000;
        for (const Launch::ReplicaLaunch& l : launched.value(jobId))
            Q_EMIT started(RunId { localJob(jobId), QString() }, l.taskName, pid++);
    }
};

} // namespace Trainyard::Test
