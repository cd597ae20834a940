// SPDX-License-Identifier: GPL-2.0-or-later
// The Backend seam (app/executor/backends/backend.h) driven by a scripted fake backend under the real
// Scheduler, JobStore and LogStore: admission, placement before TF_CONFIG, the replica contract built
// from the placed addresses, a job final only after stopped(), restarts with new addresses, permanent
// failures, cancel while placing, FIFO admission, placing before the cluster allocates (pending hosts, a
// placement failure after placed()). No process is started.
#include "backend.h"
#include "executorenvironment.h"
#include "fakebackend.h"
#include "jobkeys.h"
#include "jobstore.h"
#include "logstore.h"
#include "scheduler.h"
#include "statenames.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Trainyard;
using Trainyard::Test::FakeBackend;

class TestBackendContract : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    std::unique_ptr<JobStore> m_store;
    std::unique_ptr<LogStore> m_logs;
    std::unique_ptr<Scheduler> m_scheduler;
    FakeBackend* m_backend = nullptr;

    Job makeJob(const QString& id, int workers) const
    {
        Job job = Test::customJob(id, QStringLiteral("trainer.task"), workers);
        job.trainingInput.jobDir = m_tmp.path() + QStringLiteral("/jobdirs/") + id;
        return job;
    }

    void submit(const Job& job)
    {
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        m_scheduler->submit(JobStore::defaultProject(), *m_store->job(Test::localJob(job.jobId)));
    }

    JobState state(const QString& id) const { return m_store->job(Test::localJob(id))->state; }
    Job job(const QString& id) const { return *m_store->job(Test::localJob(id)); }

    /// Brings `id` (1 master + `workers`) to RUNNING on the fake backend.
    void startJob(const QString& id, int workers, int basePort)
    {
        submit(makeJob(id, workers));
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("place ") + id));
        m_backend->emitPlaced(id, basePort);
        QTRY_VERIFY(m_backend->launched.contains(id));
        m_backend->emitAllStarted(id);
        QTRY_COMPARE(state(id), JobState::Running);
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_tmp.isValid());
        const QString dataDir
            = m_tmp.path() + QStringLiteral("/data-") + QString::fromLatin1(QTest::currentTestFunction());
        QVERIFY(QDir().mkpath(dataDir));
        m_store = std::make_unique<JobStore>();
        QString error;
        QVERIFY2(m_store->open(dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        m_logs = std::make_unique<LogStore>(dataDir);
        auto backend = std::make_unique<FakeBackend>();
        m_backend = backend.get();
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), std::move(backend), dataDir);
    }

    void cleanup()
    {
        m_scheduler.reset();
        m_logs.reset();
        m_store.reset();
        m_backend = nullptr;
    }

    void placementComesBeforeTheContract()
    {
        startJob(QStringLiteral("j1"), 2, 7000);
        QCOMPARE(m_backend->calls.mid(0, 3),
            (QStringList { QStringLiteral("admit j1"), QStringLiteral("place j1"), QStringLiteral("launch j1") }));
        const Launch::ReplicaSet set = m_backend->placedSets.value(QStringLiteral("j1"));
        QCOMPARE(set.replicas.size(), 3);
        QCOMPARE(set.replicas.first().gpus, QList<int>()); // n1-standard-4 without accelerators
        // TF_CONFIG names the addresses the backend placed, not loopback ports chosen beforehand.
        const QList<Launch::ReplicaLaunch> launches = m_backend->launched.value(QStringLiteral("j1"));
        QCOMPARE(launches.size(), 3);
        const QJsonObject tf
            = QJsonDocument::fromJson(launches.at(1).set.value(QStringLiteral("TF_CONFIG")).toUtf8()).object();
        const QJsonObject cluster = tf.value(QStringLiteral("cluster")).toObject();
        QCOMPARE(cluster.value(QStringLiteral("master")).toArray(), QJsonArray { QStringLiteral("node0:7000") });
        QCOMPARE(cluster.value(QStringLiteral("worker")).toArray(),
            (QJsonArray { QStringLiteral("node1:7001"), QStringLiteral("node2:7002") }));
        QCOMPARE(launches.first().set.value(QStringLiteral("MASTER_ADDR")), QStringLiteral("node0"));
        // The replicas API reports what the backend said.
        const QList<ReplicaInfo> replicas = m_scheduler->replicas(Test::localJob(QStringLiteral("j1")));
        QCOMPARE(replicas.size(), 3);
        QCOMPARE(replicas.at(2).address, QStringLiteral("node2:7002"));
        QCOMPARE(replicas.at(2).pid, qint64(1002));
        QCOMPARE(replicas.at(2).state, ReplicaState::Running);
        QCOMPARE(m_scheduler->usage().vcpusInUse, 4);
        QCOMPARE(m_scheduler->usage().runningJobs, 1);
    }

    void finalOnlyAfterStopped()
    {
        startJob(QStringLiteral("j2"), 1, 7100);
        const RunId run { Test::localJob(QStringLiteral("j2")), QString() };
        // The master succeeds: the run is stopped, but the job is not final while the backend still has
        // processes of it (the worker, or a child of a replica).
        Q_EMIT m_backend->exited(run, QStringLiteral("master-replica-0"), ReplicaExit {});
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("stop j2")));
        QCOMPARE(state(QStringLiteral("j2")), JobState::Running);
        Q_EMIT m_backend->exited(
            run, QStringLiteral("worker-replica-0"), ReplicaExit { ReplicaExit::Kind::Signalled, 0, 15, {} });
        QCOMPARE(state(QStringLiteral("j2")), JobState::Running);
        Q_EMIT m_backend->stopped(run);
        QTRY_COMPARE(state(QStringLiteral("j2")), JobState::Succeeded);
        QVERIFY(m_backend->calls.contains(QStringLiteral("release j2")));
        const QList<ReplicaInfo> replicas = m_scheduler->replicas(Test::localJob(QStringLiteral("j2")));
        QCOMPARE(replicas.at(0).state, ReplicaState::Succeeded);
        QCOMPARE(replicas.at(1).state, ReplicaState::Stopped);
        QCOMPARE(replicas.at(1).exitSignal, std::optional<int>(15));
    }

    void retryableFailureRestartsWithNewPlacement()
    {
        startJob(QStringLiteral("j3"), 1, 7200);
        const RunId run { Test::localJob(QStringLiteral("j3")), QString() };
        Q_EMIT m_backend->exited(
            run, QStringLiteral("worker-replica-0"), ReplicaExit { ReplicaExit::Kind::Signalled, 0, 9, {} });
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("stop j3")));
        m_backend->calls.clear();
        Q_EMIT m_backend->stopped(run);
        // Placed again (a cluster backend may choose other nodes), then launched with the new addresses.
        QTRY_COMPARE(m_backend->calls, QStringList { QStringLiteral("place j3") });
        QCOMPARE(m_scheduler->replicas(Test::localJob(QStringLiteral("j3"))).first().state, ReplicaState::Restarting);
        m_backend->emitPlaced(QStringLiteral("j3"), 7300);
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("launch j3")));
        const QJsonObject tf = QJsonDocument::fromJson(
            m_backend->launched.value(QStringLiteral("j3")).first().set.value(QStringLiteral("TF_CONFIG")).toUtf8())
                                   .object();
        QCOMPARE(tf.value(QStringLiteral("cluster")).toObject().value(QStringLiteral("master")).toArray(),
            QJsonArray { QStringLiteral("node0:7300") });
        m_backend->emitAllStarted(QStringLiteral("j3"));
        QTRY_COMPARE(m_scheduler->replicas(Test::localJob(QStringLiteral("j3"))).first().restarts, 1);
        QCOMPARE(state(QStringLiteral("j3")), JobState::Running);
    }

    void permanentFailureNamesTheReplica()
    {
        startJob(QStringLiteral("j4"), 2, 7400);
        const RunId run { Test::localJob(QStringLiteral("j4")), QString() };
        Q_EMIT m_backend->output(run, QStringLiteral("worker-replica-1"), QByteArray("ValueError: bad shard\n"), true);
        Q_EMIT m_backend->exited(
            run, QStringLiteral("worker-replica-1"), ReplicaExit { ReplicaExit::Kind::Exited, 3, 0, {} });
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("stop j4")));
        Q_EMIT m_backend->stopped(run);
        QTRY_COMPARE(state(QStringLiteral("j4")), JobState::Failed);
        const QString message = job(QStringLiteral("j4")).errorMessage;
        QVERIFY2(message.startsWith(QLatin1String(
                     "The replica worker 1 exited with a non-zero status of 3. Termination reason: Error.")),
            qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("ValueError: bad shard")), qPrintable(message));
    }

    void failedToStartIsPermanent()
    {
        startJob(QStringLiteral("j5"), 0, 7500);
        const RunId run { Test::localJob(QStringLiteral("j5")), QString() };
        Q_EMIT m_backend->exited(run, QStringLiteral("master-replica-0"),
            ReplicaExit { ReplicaExit::Kind::FailedToStart, 0, 0, QStringLiteral("No such file or directory") });
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("stop j5")));
        Q_EMIT m_backend->stopped(run);
        QTRY_COMPARE(state(QStringLiteral("j5")), JobState::Failed);
        QVERIFY(job(QStringLiteral("j5")).errorMessage.contains(QLatin1String("status of 127")));
    }

    void cancelWhilePlacing()
    {
        submit(makeJob(QStringLiteral("j6"), 0));
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("place j6")));
        QVERIFY(m_scheduler->cancel(Test::localJob(QStringLiteral("j6"))));
        QCOMPARE(state(QStringLiteral("j6")), JobState::Cancelling);
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("stop j6")));
        // A placement that arrives after the cancel launches nothing.
        m_backend->emitPlaced(QStringLiteral("j6"), 7600);
        Q_EMIT m_backend->stopped(RunId { Test::localJob(QStringLiteral("j6")), QString() });
        QTRY_COMPARE(state(QStringLiteral("j6")), JobState::Cancelled);
        QVERIFY(!m_backend->calls.contains(QStringLiteral("launch j6")));
    }

    /// A backend that places before its cluster allocates (Launch::Placement::hostsPending): the replicas are
    /// launched with its placeholders, the API shows no address until hostsKnown(), and started() may say when a
    /// replica really started.
    void pendingHostsAreShownOnceKnown()
    {
        const QString id = QStringLiteral("j8");
        submit(makeJob(id, 1));
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("place ") + id));
        const RunId run { Test::localJob(id), QString() };
        Launch::Placement pending;
        pending.hostsPending = true;
        pending.addresses = { { QStringLiteral("@ph-0@"), 7800 }, { QStringLiteral("@ph-1@"), 7801 } };
        Q_EMIT m_backend->placed(run, pending);
        QTRY_VERIFY(m_backend->launched.contains(id));
        // The specs carry the placeholders for the backend to fill in.
        const QJsonObject tf = QJsonDocument::fromJson(
            m_backend->launched.value(id).at(1).set.value(QStringLiteral("TF_CONFIG")).toUtf8())
                                   .object();
        QCOMPARE(tf.value(QStringLiteral("cluster")).toObject().value(QStringLiteral("worker")).toArray(),
            QJsonArray { QStringLiteral("@ph-1@:7801") });
        for (const ReplicaInfo& r : m_scheduler->replicas(Test::localJob(id))) {
            QVERIFY2(r.address.isEmpty(), qPrintable(r.address));
            QCOMPARE(r.state, ReplicaState::Starting);
        }
        Launch::Placement known;
        known.addresses = { { QStringLiteral("node0"), 7800 }, { QStringLiteral("node1"), 7801 } };
        Q_EMIT m_backend->hostsKnown(run, known);
        QCOMPARE(m_scheduler->replicas(Test::localJob(id)).at(1).address, QStringLiteral("node1:7801"));
        const QDateTime startedAt = QDateTime::currentDateTimeUtc().addSecs(-30);
        Q_EMIT m_backend->started(run, QStringLiteral("master-replica-0"), 1000, startedAt);
        Q_EMIT m_backend->started(run, QStringLiteral("worker-replica-0"), 1001);
        QTRY_COMPARE(state(id), JobState::Running);
        const QList<ReplicaInfo> replicas = m_scheduler->replicas(Test::localJob(id));
        QCOMPARE(replicas.at(0).startTime, startedAt);
        QVERIFY(replicas.at(1).startTime.isValid() && replicas.at(1).startTime > startedAt);
    }

    /// The backend gets the job dir once the scheduler has made it, before the replicas launch; its warning (it
    /// could not hand the folder to the replicas' user) is in the job's log.
    void jobDirIsAdopted()
    {
        const QString id = QStringLiteral("j10");
        m_backend->adopted.clear();
        m_backend->adoptWarning = QStringLiteral("The job dir cannot be handed over.");
        submit(makeJob(id, 0));
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("place ") + id));
        const RunId run { Test::localJob(id), QString() };
        Launch::Placement placement;
        placement.addresses = { { QStringLiteral("127.0.0.1"), 7900 } };
        Q_EMIT m_backend->placed(run, placement);
        QTRY_VERIFY(m_backend->launched.contains(id));
        QCOMPARE(m_backend->adopted, QStringList { makeJob(id, 0).trainingInput.jobDir + QStringLiteral(" (exists)") });
        QStringList service;
        for (const LogEntry& e : m_logs->read(Test::localJob(id), QStringLiteral("service"), QString(), 0, 1000)) {
            if (e.severity == QLatin1String("WARNING"))
                service << e.message;
        }
        QVERIFY2(service.contains(m_backend->adoptWarning), qPrintable(service.join(QLatin1Char('\n'))));
        m_backend->adoptWarning.clear();
    }

    /// placementFailed() after placed(), while no replica has started (the cluster says later that the job can never
    /// run): the job fails with the backend's message at once, as before placed(), since a backend that reports it
    /// holds nothing of the run any more. After a replica started, it is not a placement failure and is ignored.
    void placementFailsAfterPlacedUntilAReplicaStarts()
    {
        const QString id = QStringLiteral("j9");
        submit(makeJob(id, 0));
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("place ") + id));
        const RunId run { Test::localJob(id), QString() };
        m_backend->emitPlaced(id, 7900);
        QTRY_VERIFY(m_backend->launched.contains(id));
        Q_EMIT m_backend->placementFailed(run, QStringLiteral("the cluster can never run it"));
        QTRY_COMPARE(state(id), JobState::Failed);
        QCOMPARE(job(id).errorMessage, QStringLiteral("the cluster can never run it"));
        QVERIFY(m_backend->calls.contains(QStringLiteral("release ") + id));
        QVERIFY(!m_backend->calls.contains(QStringLiteral("stop ") + id));

        startJob(QStringLiteral("j10"), 0, 8000);
        Q_EMIT m_backend->placementFailed(
            RunId { Test::localJob(QStringLiteral("j10")), QString() }, QStringLiteral("too late"));
        QCOMPARE(state(QStringLiteral("j10")), JobState::Running);
        QVERIFY(!m_backend->calls.contains(QStringLiteral("stop j10")));
    }

    void admissionIsFifo()
    {
        m_backend->refuse = { QStringLiteral("big") };
        submit(makeJob(QStringLiteral("big"), 0));
        submit(makeJob(QStringLiteral("small"), 0));
        // The head does not fit: nothing behind it slips past (strict FIFO).
        QTRY_COMPARE(job(QStringLiteral("big")).jobPosition, std::optional<qint64>(1));
        QCOMPARE(job(QStringLiteral("small")).jobPosition, std::optional<qint64>(2));
        QVERIFY(!m_backend->calls.contains(QStringLiteral("admit small")));
        QCOMPARE(m_scheduler->usage().queuedJobs, 2);
        QVERIFY(m_scheduler->cancel(Test::localJob(QStringLiteral("big"))));
        QTRY_VERIFY(m_backend->calls.contains(QStringLiteral("place small")));
        QCOMPARE(state(QStringLiteral("big")), JobState::Cancelled);
    }

    void shutdownStopsEverything()
    {
        startJob(QStringLiteral("j7"), 0, 7700);
        m_scheduler->shutdown();
        QVERIFY(m_backend->calls.contains(QStringLiteral("stopAll")));
        // The job stays RUNNING in the store, so that the next executor restarts it.
        QCOMPARE(state(QStringLiteral("j7")), JobState::Running);
        QCOMPARE(m_scheduler->replicas(Test::localJob(QStringLiteral("j7"))).first().state, ReplicaState::Stopped);
    }
};

QTEST_GUILESS_MAIN(TestBackendContract)
#include "tst_backendcontract.moc"
