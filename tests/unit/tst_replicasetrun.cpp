// SPDX-License-Identifier: GPL-2.0-or-later
// One ReplicaSetRun (app/executor/scheduling/replicasetrun.h) alone, above a scripted fake backend and a recording
// owner, without the Scheduler: its slots and placement, the launch built from the placed addresses, how it judges
// each kind of exit (the master's 0, a status of 1–127 with the stderr tail, a signal or ≥ 128, a lost replica), the
// whole-cluster restarts and their restarts file, a cancel beating the first stop reason, a placement failure after
// placed(), attach, and its replicas as `…/replicas` reports them. No process is started.
#include "executorenvironment.h"
#include "fakebackend.h"
#include "jobfolder.h"
#include "jobdriver.h"
#include "replicasetrun.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using Trainyard::Test::FakeBackend;

namespace {

using StopReason = ReplicaSetRun::StopReason;
using Phase = ReplicaSetRun::Phase;

/// Records what the run tells its job, and answers what it asks.
class RecordingOwner : public ReplicaSetRun::Owner {
public:
    TrainingInput input;
    QStringList lines; ///< "INFO Waiting for training program to start.", "ACTION RestartJob …"
    int contexts = 0;
    int changes = 0;
    int launching = 0;
    int allStarted = 0;
    int ended = 0;
    bool down = false;

    void runLog(const ReplicaSetRun&, const QString& message, LogSeverity severity) override
    {
        lines << logSeverityString(severity) + QLatin1Char(' ') + message;
    }
    void runAction(const ReplicaSetRun&, const char* method, const QString& message, LogSeverity) override
    {
        lines << QStringLiteral("ACTION ") + QLatin1String(method) + QLatin1Char(' ') + message;
    }
    Launch::LaunchContext launchContext(const ReplicaSetRun&) override
    {
        ++contexts;
        Launch::LaunchContext context;
        context.input = input;
        context.interpreter = QStringLiteral("/usr/bin/python3");
        context.cloud = QStringLiteral("trainyard-test");
        return context;
    }
    qint64 runLimitLeft(const ReplicaSetRun&) const override { return 60000; }
    bool shuttingDown() const override { return down; }
    std::chrono::seconds gracePeriod() const override { return std::chrono::seconds(7); }
    void runReplicasChanged(const ReplicaSetRun&) override { ++changes; }
    QString runStartingMessage(const ReplicaSetRun& run) const override
    {
        return JobDriver::trainingStartingMessage(run);
    }
    void runLaunching(ReplicaSetRun&) override { ++launching; }
    void runAllStarted(ReplicaSetRun&) override { ++allStarted; }
    void runEnded(ReplicaSetRun&) override { ++ended; }
};

ReplicaExit exitedWith(int code)
{
    return ReplicaExit { ReplicaExit::Kind::Exited, code, 0, QString() };
}

ReplicaExit killedBy(int signal)
{
    return ReplicaExit { ReplicaExit::Kind::Signalled, 0, signal, QString() };
}

} // namespace

class TestReplicaSetRun : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    RecordingOwner m_owner;
    std::unique_ptr<FakeBackend> m_backend;
    ClusterPlan m_plan;

    /// A run of job `jobId` (a master and one worker; trial `trialId` when given) in its own folder, admitted with
    /// GPU 3.
    std::unique_ptr<ReplicaSetRun> makeRun(const QString& jobId, const QString& trialId = QString())
    {
        const QString folder = m_tmp.path() + QLatin1Char('/') + jobId
            + (trialId.isEmpty() ? QString() : QStringLiteral("/trials/") + trialId);
        QDir().mkpath(folder);
        auto run = std::make_unique<ReplicaSetRun>(
            &m_owner, m_backend.get(), RunId { Test::localJob(jobId), trialId }, RunFolder(folder));
        run->setReservation(Reservation { { 3 } });
        return run;
    }

    /// Starts `run` and brings it to Running: placed on node0/node1, every replica started.
    void bringUp(ReplicaSetRun* run, int basePort)
    {
        run->start(m_plan);
        QCOMPARE(run->phase(), Phase::Placing);
        Launch::Placement placement;
        placement.addresses << Launch::Address { QStringLiteral("node0"), basePort }
                            << Launch::Address { QStringLiteral("node1"), basePort + 1 };
        run->placed(placement);
        QCOMPARE(run->phase(), Phase::Running);
        qint64 pid = 100;
        for (const ReplicaSetRun::Replica& r : run->replicas())
            run->started(r.slot.taskName, pid++, QDateTime());
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void init()
    {
        m_owner = RecordingOwner();
        m_owner.input = Test::customJob(QStringLiteral("x"), QStringLiteral("trainer.task"), 1).trainingInput;
        m_owner.input.jobDir = m_tmp.path() + QStringLiteral("/jobdir");
        m_plan = planCluster(m_owner.input, MachineCatalog::builtin());
        m_backend = std::make_unique<FakeBackend>();
    }

    void placesThenLaunchesFromThePlacement()
    {
        auto run = makeRun(QStringLiteral("p1"));
        run->start(m_plan);
        QCOMPARE(m_backend->calls, QStringList { QStringLiteral("place p1") });
        const Launch::ReplicaSet& set = m_backend->placedSets.value(QStringLiteral("p1"));
        QCOMPARE(set.replicas.size(), 2);
        QCOMPARE(set.replicaRoot, m_tmp.path() + QStringLiteral("/p1/replicas"));
        QCOMPARE(set.runLimitMs, qint64(60000));
        QCOMPARE(run->replicas().front().state, ReplicaState::Pending);

        bringUp(run.get(), 7000);
        QCOMPARE(m_owner.contexts, 1);
        QCOMPARE(m_owner.launching, 1);
        QCOMPARE(m_backend->calls.last(), QStringLiteral("launch p1"));
        const QList<Launch::ReplicaLaunch> launched = m_backend->launched.value(QStringLiteral("p1"));
        QCOMPARE(launched.size(), 2);
        // TF_CONFIG is built from the placed addresses, and every replica carries the run's folder as its marker.
        const QJsonObject cluster = launched.front().tfConfig.value(QStringLiteral("cluster")).toObject();
        QCOMPARE(cluster.value(QStringLiteral("master")).toArray().first().toString(), QStringLiteral("node0:7000"));
        QCOMPARE(cluster.value(QStringLiteral("worker")).toArray().first().toString(), QStringLiteral("node1:7001"));
        QCOMPARE(
            launched.front().set.value(QStringLiteral("TRAINYARD_JOB_FOLDER")), m_tmp.path() + QStringLiteral("/p1"));
        QVERIFY(m_owner.lines.contains(QStringLiteral("INFO Waiting for training program to start.")));
        // runAllStarted() once every replica has run.
        QCOMPARE(m_owner.allStarted, 1);

        const QList<ReplicaInfo> infos = run->replicaInfos(true);
        QCOMPARE(infos.size(), 2);
        QCOMPARE(infos.at(0).state, ReplicaState::Running);
        QCOMPARE(infos.at(0).pid, qint64(100));
        QCOMPARE(infos.at(0).address, QStringLiteral("node0:7000"));
        QCOMPARE(infos.at(0).node, QStringLiteral("node0"));
        QCOMPARE(infos.at(0).gpus, run->replicaSet().replicas.front().gpus);
        QVERIFY(run->replicaInfos(false).at(0).node.isEmpty());
    }

    void mastersZeroSucceeds()
    {
        auto run = makeRun(QStringLiteral("s1"));
        bringUp(run.get(), 7100);
        const QString worker = run->replicas().at(1).slot.taskName;
        const QString master = run->replicas().at(0).slot.taskName;
        // A worker's 0 ends nothing; the master's does.
        QVERIFY(run->awaitsExit(worker));
        run->exited(worker, exitedWith(0));
        QVERIFY(!run->awaitsExit(worker));
        QCOMPARE(run->phase(), Phase::Running);
        run->exited(master, exitedWith(0));
        QCOMPARE(run->phase(), Phase::Stopping);
        QCOMPARE(run->stopReason(), StopReason::Succeeded);
        QCOMPARE(m_backend->calls.last(), QStringLiteral("stop s1"));
        // A success tears nothing down in the log.
        QVERIFY(!m_owner.lines.contains(QStringLiteral("INFO Tearing down training program.")));
        QCOMPARE(m_owner.ended, 0);
        run->stopped();
        QCOMPARE(run->phase(), Phase::Done);
        QCOMPARE(m_owner.ended, 1);
        QCOMPARE(run->replicas().at(0).state, ReplicaState::Succeeded);
    }

    void nonZeroStatusFailsWithTheStderrTail()
    {
        auto run = makeRun(QStringLiteral("f1"), QStringLiteral("4"));
        bringUp(run.get(), 7200);
        const QString worker = run->replicas().at(1).slot.taskName;
        run->output(worker, QByteArray(3000, 'x') + "\nline one\n", true);
        run->output(worker, "ValueError: bad shape\n", true);
        run->exited(worker, exitedWith(3));
        QCOMPARE(run->stopReason(), StopReason::Failed);
        const QString message = run->stopMessage();
        QVERIFY2(
            message.startsWith(QStringLiteral("The replica worker 0 exited with a non-zero status of 3. Termination "
                                              "reason: Error.\nline one\nValueError: bad shape\n")),
            qPrintable(message));
        // The tail was cut at StderrTailBytes: its partial first line is dropped.
        QVERIFY(!message.contains(QStringLiteral("xxx")));
        QVERIFY(message.endsWith(QStringLiteral("trainyardctl jobs stream-logs f1 --trial 4")));
        QVERIFY(
            m_owner.lines.contains(QStringLiteral("ERROR The replica worker 0 exited with a non-zero status of 3.")));
        QVERIFY(m_owner.lines.contains(QStringLiteral("INFO Trial 4: tearing down training program.")));
        run->stopped();
        QCOMPARE(m_owner.ended, 1);
        QCOMPARE(run->replicas().at(1).state, ReplicaState::Failed);
        // The master, never seen exiting, was stopped.
        QCOMPARE(run->replicas().at(0).state, ReplicaState::Stopped);
        QCOMPARE(run->replicaInfos(false).at(0).pid, qint64(0));
    }

    void signalRestartsTheClusterThreeTimes()
    {
        auto run = makeRun(QStringLiteral("r1"));
        bringUp(run.get(), 7300);
        for (int restart = 1; restart <= ReplicaSetRun::MaxRestarts; ++restart) {
            run->exited(run->replicas().at(1).slot.taskName, killedBy(9));
            QCOMPARE(run->stopReason(), StopReason::Retry);
            run->stopped();
            QCOMPARE(run->restarts(), restart);
            QCOMPARE(run->folder().readRestarts(), restart);
            QCOMPARE(run->phase(), Phase::Placing);
            QCOMPARE(run->replicas().at(0).state, ReplicaState::Restarting);
            QCOMPARE(m_backend->calls.last(), QStringLiteral("place r1"));
            QVERIFY(m_owner.lines.contains(
                QStringLiteral("ACTION RestartJob Restarting the cluster (restart %1 of 3).").arg(restart)));
            Launch::Placement placement;
            placement.addresses << Launch::Address { QStringLiteral("node0"), 7400 + 2 * restart }
                                << Launch::Address { QStringLiteral("node1"), 7401 + 2 * restart };
            run->placed(placement);
            QCOMPARE(run->replicaInfos(false).at(0).address, QStringLiteral("node0:%1").arg(7400 + 2 * restart));
            QCOMPARE(run->replicaInfos(false).at(0).restarts, restart);
        }
        QCOMPARE(m_owner.ended, 0);
        // A status ≥ 128 is a signal too; with the restarts used up, the run ends.
        run->exited(run->replicas().at(0).slot.taskName, exitedWith(137));
        QCOMPARE(run->stopMessage(),
            QStringLiteral("The replica master 0 exited with a non-zero status of 137 (signal 9, SIGKILL)."));
        run->stopped();
        QCOMPARE(m_owner.ended, 1);
        QCOMPARE(run->stopReason(), StopReason::Retry);
        QCOMPARE(run->phase(), Phase::Done);
        // A new run of the same folder counts on from the restarts file.
        QCOMPARE(makeRun(QStringLiteral("r1"))->restarts(), 3);
    }

    void lostReplicaFails()
    {
        auto run = makeRun(QStringLiteral("l1"));
        bringUp(run.get(), 7500);
        run->exited(run->replicas().at(1).slot.taskName,
            ReplicaExit { ReplicaExit::Kind::Lost, 0, 0, QStringLiteral("the node went down") });
        QCOMPARE(run->stopReason(), StopReason::Failed);
        QCOMPARE(run->stopMessage(), QStringLiteral("The replica worker 0 was lost: the node went down"));
        QCOMPARE(run->replicas().at(1).state, ReplicaState::Failed);
    }

    void cancelBeatsTheFirstReasonNothingElseDoes()
    {
        auto run = makeRun(QStringLiteral("c1"));
        bringUp(run.get(), 7600);
        run->exited(run->replicas().at(1).slot.taskName, exitedWith(2));
        QCOMPARE(run->stopReason(), StopReason::Failed);
        run->stop(StopReason::StoppedEarly, QString());
        QCOMPARE(run->stopReason(), StopReason::Failed);
        run->stop(StopReason::Cancelled, QStringLiteral("cancelled by the test"));
        QCOMPARE(run->stopReason(), StopReason::Cancelled);
        QCOMPARE(run->stopMessage(), QStringLiteral("cancelled by the test"));
        // One stop was asked of the backend.
        QCOMPARE(m_backend->calls.count(QStringLiteral("stop c1")), 1);
        // Exits while stopping are not judged.
        run->exited(run->replicas().at(0).slot.taskName, killedBy(15));
        QCOMPARE(run->replicas().at(0).state, ReplicaState::Stopped);
        run->stopped();
        QCOMPARE(run->restarts(), 0);
        QCOMPARE(m_owner.ended, 1);
    }

    void placementFailureAfterPlacedEndsTheRun()
    {
        auto run = makeRun(QStringLiteral("pf"));
        run->start(m_plan);
        Launch::Placement placement;
        placement.hostsPending = true;
        placement.addresses << Launch::Address { QStringLiteral("node0"), 7700 }
                            << Launch::Address { QStringLiteral("node1"), 7701 };
        run->placed(placement);
        // A pending host is not shown.
        QVERIFY(run->replicaInfos(true).at(0).address.isEmpty());
        run->placementFailed(QStringLiteral("the partition has no such GPU"));
        QCOMPARE(run->phase(), Phase::Done);
        QCOMPARE(run->stopReason(), StopReason::Failed);
        QCOMPARE(run->stopMessage(), QStringLiteral("the partition has no such GPU"));
        QCOMPARE(m_owner.ended, 1);
        QVERIFY(m_owner.lines.contains(QStringLiteral("ERROR the partition has no such GPU")));
        // Once a replica has run, a late placement failure is not the run's end.
        auto later = makeRun(QStringLiteral("pg"));
        bringUp(later.get(), 7800);
        later->placementFailed(QStringLiteral("too late"));
        QCOMPARE(later->phase(), Phase::Running);
    }

    void badLaunchFails()
    {
        // A backend whose placement does not fit the set: Launch::buildLaunch() refuses it, nothing is launched.
        auto run = makeRun(QStringLiteral("b1"));
        run->start(m_plan);
        Launch::Placement placement;
        placement.addresses << Launch::Address { QStringLiteral("node0"), 7900 };
        run->placed(placement);
        QCOMPARE(run->phase(), Phase::Done);
        QCOMPARE(run->stopReason(), StopReason::Failed);
        QCOMPARE(run->stopMessage(), QStringLiteral("placement has 1 addresses for 2 replicas"));
        QCOMPARE(m_owner.ended, 1);
        QCOMPARE(m_owner.launching, 0);
        QVERIFY(!m_backend->calls.contains(QStringLiteral("launch b1")));
    }

    void nothingIsJudgedWhileShuttingDown()
    {
        auto run = makeRun(QStringLiteral("d1"));
        bringUp(run.get(), 8000);
        m_owner.down = true;
        run->exited(run->replicas().at(0).slot.taskName, killedBy(15));
        QCOMPARE(run->phase(), Phase::Running);
        QCOMPARE(run->replicas().at(0).state, ReplicaState::Stopped);
        run->markAllStopped();
        QCOMPARE(run->replicas().at(1).state, ReplicaState::Stopped);
        QVERIFY(!run->awaitsExit(run->replicas().at(1).slot.taskName));
        QCOMPARE(m_owner.ended, 0);
    }

    void attachNeedsABackendThatAnswers()
    {
        // The fake backend has nothing to attach to (Backend::attach()'s default, as a local backend).
        auto run = makeRun(QStringLiteral("a1"));
        run->setReservation(std::nullopt);
        QVERIFY(!run->attach(m_plan, {}));
        QVERIFY(run->replicas().empty());
        QVERIFY(!run->reservation());
        QVERIFY(!run->attached());
    }

    void recoveryReclaimsThenRestartsUntilTheLimit()
    {
        // The one recovery rule of a job's cluster and a trial's (ReplicaSetRun::recover()), for a trial here: with
        // nothing to take over, what the previous executor left is reclaimed and the restart counted in the run's
        // restarts file, which the next executor's run reads; at the limit the run is exhausted, not restarted.
        for (int restart = 1; restart <= ReplicaSetRun::MaxRestarts; ++restart) {
            m_backend->calls.clear();
            auto run = makeRun(QStringLiteral("r1"), QStringLiteral("2"));
            QCOMPARE(run->restarts(), restart - 1);
            QCOMPARE(run->recover(m_plan, {}, restart % 2 == 1), ReplicaSetRun::Recovery::Restart);
            QCOMPARE(run->restarts(), restart);
            QCOMPARE(m_backend->calls, QStringList { QStringLiteral("reclaim r1/2") });
            QVERIFY(!run->attached());
        }
        m_backend->calls.clear();
        auto spent = makeRun(QStringLiteral("r1"), QStringLiteral("2"));
        QCOMPARE(spent->recover(m_plan, {}, true), ReplicaSetRun::Recovery::Exhausted);
        QCOMPARE(spent->restarts(), ReplicaSetRun::MaxRestarts);
        QCOMPARE(m_backend->calls, QStringList { QStringLiteral("reclaim r1/2") });
        // Another set of the same job keeps its own count.
        auto other = makeRun(QStringLiteral("r1"), QStringLiteral("3"));
        QCOMPARE(other->restarts(), 0);
    }
};

QTEST_GUILESS_MAIN(TestReplicaSetRun)
#include "tst_replicasetrun.moc"
