// SPDX-License-Identifier: GPL-2.0-or-later
// SlurmRestClient against the real thing: the 4-node Slurm 22.05 cluster of packaging/slurm-testcluster.sh (found
// running, or started and stopped again), configured through the clusters.yaml its `clusters-yaml` prints.
// Without root or without the Slurm packages the test skips, saying so; under TRAINYARD_REQUIRE_ALL=1 it fails.
#include "clusterconfig.h"
#include "hostlist.h"
#include "requireddependencies.h"
#include "slurmrestclient.h"
#include "slurmtestcluster.h"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QScopeGuard>
#include <QSet>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

#include <sys/stat.h>

using namespace Trainyard;
using namespace Trainyard::Slurm;

namespace {

template <typename T> struct Waiter {
    std::optional<Result<T>> result;
    typename SlurmRestClient::Callback<T> callback()
    {
        return [this](const Result<T>& r) { result.emplace(r); };
    }
};

// Each component's states in the order they were first seen, polled every 100 ms until every component finished.
// The polling stops with the watch (its timer is the calls' context), also when a test fails half-way.
struct JobWatch {
    QList<QStringList> states; ///< per component
    QList<JobComponent> last;
    std::optional<ClientError> error;
    bool done = false;
    QPointer<QTimer> timer;
    ~JobWatch() { delete timer; }
};

} // namespace

class TestSlurmRest : public QObject {
    Q_OBJECT

    Test::SlurmTestCluster m_cluster;
    std::unique_ptr<QTemporaryDir> m_config; ///< XDG_CONFIG_HOME; made in initTestCase, not when only listing tests
    ClusterConfig m_testcluster;
    SlurmRestClient* m_client = nullptr;
    QString m_jobDir;
    QList<qint64> m_submitted;

    JobComponentRequest component(const QString& name, int nodes) const
    {
        JobComponentRequest c;
        c.name = name;
        c.partition = m_testcluster.partition;
        c.nodes = nodes;
        c.tasks = nodes;
        c.tasksPerNode = 1;
        c.timeLimitMinutes = 5;
        c.currentWorkingDirectory = m_jobDir;
        c.standardOutput = m_jobDir + QLatin1Char('/') + name + QStringLiteral("-%j.out");
        c.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        return c;
    }

    // Submits and returns the leader's ID (0 after a failed QVERIFY).
    qint64 submit(const QString& script, const QList<JobComponentRequest>& components)
    {
        Waiter<SubmitResult> submitted;
        m_client->submitHetJob(script, components, this, submitted.callback());
        [&] { QTRY_VERIFY_WITH_TIMEOUT(submitted.result, 30000); }();
        if (!submitted.result || !submitted.result->ok()) {
            qWarning(
                "submit failed: %s", submitted.result ? qPrintable(submitted.result->error().message) : "no answer");
            return 0;
        }
        m_submitted.append(submitted.result->value().jobId);
        return submitted.result->value().jobId;
    }

    // Polls the job every 100 ms until each component finished (or `until` says stop), recording states.
    void watch(qint64 leader, JobWatch* watch, const std::function<bool(const QList<JobComponent>&)>& until = {})
    {
        auto* timer = new QTimer(this);
        watch->timer = timer;
        timer->setInterval(100);
        auto poll = [this, leader, watch, until, timer] {
            m_client->job(leader, timer, [watch, until, timer](const Result<QList<JobComponent>>& r) {
                if (watch->done)
                    return;
                if (!r.ok()) {
                    watch->error = r.error();
                    watch->done = true;
                    timer->deleteLater();
                    return;
                }
                const QList<JobComponent>& components = r.value();
                watch->last = components;
                watch->states.resize(components.size());
                bool finished = !components.isEmpty();
                for (qsizetype i = 0; i < components.size(); ++i) {
                    const QString state = components.at(i).state;
                    if (watch->states[i].isEmpty() || watch->states[i].last() != state)
                        watch->states[i].append(state);
                    finished = finished && components.at(i).isFinished();
                }
                if (finished || (until && until(components))) {
                    watch->done = true;
                    timer->deleteLater();
                }
            });
        };
        connect(timer, &QTimer::timeout, this, poll);
        poll(); // at once: a het job waits up to bf_interval (1 s) for backfill, so this sees it PENDING
        timer->start();
    }

    QString where() const { return QStringLiteral("slurmrestd at ") + m_testcluster.restUrl.toString(); }

    QString readOutput(const QString& name, qint64 jobId) const
    {
        QFile file(
            m_jobDir + QLatin1Char('/') + name + QLatin1Char('-') + QString::number(jobId) + QStringLiteral(".out"));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!m_cluster.acquire())
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(m_cluster.reason());
        qInfo("Slurm test cluster: %s", m_cluster.startedHere() ? "started by this test" : "already running");

        // the clusters.yaml the script prints, read as the executor reads it
        m_config = std::make_unique<QTemporaryDir>();
        QVERIFY(m_config->isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config->path()));
        QVERIFY(QDir().mkpath(m_config->filePath(QStringLiteral("trainyard"))));
        const QByteArray yaml = m_cluster.clustersYaml();
        QVERIFY(!yaml.isEmpty());
        QFile file(ClusterConfig::defaultPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(yaml);
        file.close();
        QStringList errors;
        const std::optional<QList<ClusterConfig>> clusters
            = ClusterConfig::loadFile(ClusterConfig::defaultPath(), &errors);
        QVERIFY2(clusters, qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(clusters->size(), 1);
        m_testcluster = clusters->first();
        if (!Test::SlurmTestCluster::isElsewhere()) {
            QCOMPARE(m_testcluster.name, QStringLiteral("testcluster"));
            QCOMPARE(m_testcluster.restUrl, QUrl(QStringLiteral("http://127.0.0.1:16880")));
        }
        QVERIFY(!m_testcluster.tokenCommand.isEmpty());

        // jobs run as the cluster's user: their folder must be writable by it
        m_jobDir
            = m_testcluster.sharedDir + QStringLiteral("/tst_slurmrest-%1").arg(QCoreApplication::applicationPid());
        QVERIFY(QDir().mkpath(m_jobDir));
        QVERIFY(::chmod(QFile::encodeName(m_jobDir).constData(), 01777) == 0);
        m_client = new SlurmRestClient(m_testcluster, this);
    }

    void cleanupTestCase()
    {
        // cancel what is left of this test's jobs, so that stopping (or the next test) finds the nodes free
        if (m_client) {
            int pending = 0;
            for (qint64 id : std::as_const(m_submitted)) {
                ++pending;
                m_client->cancel(id, this, [&pending](const Result<Acknowledged>&) { --pending; });
            }
            QTRY_COMPARE_WITH_TIMEOUT(pending, 0, 30000);
        }
        if (!m_jobDir.isEmpty())
            QDir(m_jobDir).removeRecursively();
        m_cluster.release();
    }

    void discoversVersion()
    {
        Waiter<ApiVersion> version;
        m_client->discoverVersion(this, version.callback());
        QTRY_VERIFY_WITH_TIMEOUT(version.result, 30000);
        QVERIFY2(version.result->ok(), qPrintable(version.result->error().message));
        // the test cluster's slurmrestd runs with -s openapi/v0.0.38 only (22.05); another cluster says which it
        // should be in TRAINYARD_SLURM_EXPECT_API (Slurm 24.11 offers v0.0.40 to v0.0.42: v0.0.40)
        const QString expected = qEnvironmentVariable("TRAINYARD_SLURM_EXPECT_API", QStringLiteral("v0.0.38"));
        QCOMPARE(apiVersionName(version.result->value()), expected);
        QCOMPARE(m_client->apiVersion(), std::optional(version.result->value()));
        qInfo("slurmrestd speaks %s", qPrintable(expected));
    }

    void ping()
    {
        Waiter<QList<ControllerPing>> ping;
        m_client->ping(this, ping.callback());
        QTRY_VERIFY_WITH_TIMEOUT(ping.result, 30000);
        QVERIFY2(ping.result->ok(), qPrintable(ping.result->error().message));
        QCOMPARE(ping.result->value().size(), 1);
        QVERIFY(ping.result->value().first().isUp());
        QCOMPARE(ping.result->value().first().mode, QStringLiteral("primary"));
    }

    void nodesAndPartitions()
    {
        // a job of an earlier test process may still be finishing: wait for four idle nodes
        std::optional<Result<QList<Node>>> nodes;
        auto allIdle = [&nodes] {
            return nodes && nodes->ok() && nodes->value().size() == 4
                && std::all_of(nodes->value().begin(), nodes->value().end(), [](const Node& n) { return n.isIdle(); });
        };
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                Waiter<QList<Node>> w;
                m_client->nodes(this, w.callback());
                if (!QTest::qWaitFor([&w] { return w.result.has_value(); }, 10000))
                    return false;
                nodes = w.result;
                return allIdle();
            }(),
            60000);
        QStringList names;
        for (const Node& n : nodes->value()) {
            names.append(n.name);
            QCOMPARE(n.gres, QStringLiteral("gpu:t4:1"));
            QCOMPARE(n.cpus, 1);
            QCOMPARE(n.allocatedCpus, 0);
            QCOMPARE(n.partitions, QStringList { QStringLiteral("debug") });
        }
        QCOMPARE(names,
            (QStringList {
                QStringLiteral("node1"), QStringLiteral("node2"), QStringLiteral("node3"), QStringLiteral("node4") }));

        Waiter<QList<Partition>> partitions;
        m_client->partitions(this, partitions.callback());
        QTRY_VERIFY_WITH_TIMEOUT(partitions.result, 30000);
        QVERIFY2(partitions.result->ok(), qPrintable(partitions.result->error().message));
        QCOMPARE(partitions.result->value().size(), 1);
        const Partition& debug = partitions.result->value().first();
        QCOMPARE(debug.name, QStringLiteral("debug"));
        QCOMPARE(*expandHostlist(debug.nodes), names);
        QCOMPARE(debug.totalNodes, 4);
        QCOMPARE(debug.state, QStringList { QStringLiteral("UP") });
    }

    // master (1 node) + 2 workers (2 nodes, a GPU each) + ps (1 node): the replicas find each other through the
    // het groups' node lists and meet over TCP
    void hetJobRunsToCompletion()
    {
        // A job on every node holds the het job PENDING until the test lets it go: without it backfill may start
        // the het job before the first poll (seen about once in ten runs).
        const QString release = m_jobDir + QStringLiteral("/release-blocker");
        // released however this test ends, so that a failure here does not hold the nodes for the next tests
        const auto releaseBlocker = qScopeGuard([release] {
            QFile file(release);
            file.open(QIODevice::WriteOnly);
        });
        JobComponentRequest blocker = component(QStringLiteral("ty-blocker"), 4);
        const qint64 blockerId = submit(
            QStringLiteral("#!/bin/bash\nwhile [ ! -e '%1' ]; do sleep 0.1; done\n").arg(release), { blocker });
        QVERIFY(blockerId > 0);
        JobWatch blocking;
        watch(blockerId, &blocking,
            [](const QList<JobComponent>& cs) { return cs.value(0).state == QLatin1String("RUNNING"); });
        QTRY_VERIFY_WITH_TIMEOUT(blocking.done, 60000);

        QFile scriptFile(QStringLiteral(TRAINYARD_FIXTURES_DIR "/slurm/tcp-job.sh"));
        QVERIFY(scriptFile.open(QIODevice::ReadOnly));
        const QString script = QString::fromUtf8(scriptFile.readAll());
        JobComponentRequest master = component(QStringLiteral("ty-het"), 1);
        JobComponentRequest workers = component(QStringLiteral("ty-het"), 2);
        workers.gpusPerNode = 1;
        workers.gpuType = QStringLiteral("t4");
        JobComponentRequest ps = component(QStringLiteral("ty-het"), 1);
        workers.environment.clear(); // Slurm wants one per component; the client sends component 0's
        const qint64 leader = submit(script, { master, workers, ps });
        QVERIFY(leader > 0);

        JobWatch pending;
        watch(leader, &pending, [](const QList<JobComponent>&) { return true; });
        QTRY_VERIFY_WITH_TIMEOUT(pending.done, 30000);
        QVERIFY2(!pending.error, pending.error ? qPrintable(pending.error->message) : "");
        QCOMPARE(pending.last.size(), 3);
        for (const JobComponent& c : std::as_const(pending.last)) {
            QCOMPARE(c.state, QStringLiteral("PENDING"));
            QVERIFY(c.nodes.isEmpty());
            // (startTime may be set already: backfill's estimate of when it will start)
        }
        QFile releaseFile(release);
        QVERIFY(releaseFile.open(QIODevice::WriteOnly));
        releaseFile.close();

        JobWatch w;
        watch(leader, &w);
        QTRY_VERIFY_WITH_TIMEOUT(w.done, 90000);
        QVERIFY2(!w.error, w.error ? qPrintable(w.error->message) : "");
        QCOMPARE(w.last.size(), 3);
        QSet<QString> allNodes;
        const QList<int> nodeCounts = { 1, 2, 1 };
        for (int i = 0; i < 3; ++i) {
            const JobComponent& c = w.last.at(i);
            QCOMPARE(c.jobId, leader + i);
            QCOMPARE(c.hetJobId, leader);
            QCOMPARE(c.hetJobOffset, i);
            QVERIFY2(c.state == QLatin1String("COMPLETED"), qPrintable(w.states.at(i).join(QLatin1String(" → "))));
            QCOMPARE(c.exitStatus(), (WaitStatus { false, 0, 0 }));
            // PENDING while the blocker runs, RUNNING, maybe COMPLETING, COMPLETED
            const QStringList seen = w.states.at(i);
            QCOMPARE(seen.first(), QStringLiteral("PENDING"));
            QVERIFY2(seen.contains(QLatin1String("RUNNING")), qPrintable(seen.join(QLatin1String(" → "))));
            QCOMPARE(seen.last(), QStringLiteral("COMPLETED"));
            const QStringList hosts = *expandHostlist(c.nodes);
            QCOMPARE(hosts.size(), nodeCounts.at(i));
            for (const QString& h : hosts) {
                QVERIFY2(!allNodes.contains(h), "het components never share a node");
                allNodes.insert(h);
            }
            QCOMPARE(c.batchHost, hosts.first());
            QVERIFY(c.startTime.isValid() && c.endTime >= c.startTime);
        }
        const QString output = readOutput(QStringLiteral("ty-het"), leader);
        QVERIFY2(output.contains(QLatin1String("all 3 peers connected")), qPrintable(output));
        QVERIFY2(output.contains(QLatin1String("batch: done rc=0")), qPrintable(output));
    }

    void failingJobsExitCodes_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<WaitStatus>("status");
        QTest::addColumn<QString>("reason");
        QTest::addRow("exit 3") << QStringLiteral("exit 3") << WaitStatus { false, 3, 0 }
                                << QStringLiteral("NonZeroExitCode");
        QTest::addRow("killed") << QStringLiteral("kill -9 $$") << WaitStatus { true, 0, 9 }
                                << QStringLiteral("JobLaunchFailure");
    }

    void failingJobsExitCodes()
    {
        QFETCH(QString, body);
        QFETCH(WaitStatus, status);
        QFETCH(QString, reason);
        const qint64 id = submit(
            QStringLiteral("#!/bin/bash\n") + body + QLatin1Char('\n'), { component(QStringLiteral("ty-fail"), 1) });
        QVERIFY(id > 0);
        JobWatch w;
        watch(id, &w);
        QTRY_VERIFY_WITH_TIMEOUT(w.done, 60000);
        QVERIFY2(!w.error, w.error ? qPrintable(w.error->message) : "");
        const JobComponent& c = w.last.first();
        QCOMPARE(c.state, QStringLiteral("FAILED"));
        QCOMPARE(c.exitStatus(), status);
        QCOMPARE(c.hetJobId, 0);
        // 22.05's reasons (24.11 says RaisedSignal for the killed one)
        if (m_client->apiVersion() == ApiVersion::V0_0_38)
            QCOMPARE(c.stateReason, reason);
    }

    void cancelByHetLeader()
    {
        // RUNNING comes before slurmd has started the batch script; a job cancelled in between ends with status 0,
        // so wait for the script's own sign of life
        const QString started = m_jobDir + QStringLiteral("/cancel-started");
        const qint64 leader = submit(QStringLiteral("#!/bin/bash\nsrun --het-group=1 --nodes=1 --ntasks=1 sleep 300 &\n"
                                                    "touch '%1'\nsleep 300\n")
                                         .arg(started),
            { component(QStringLiteral("ty-cancel"), 1), component(QStringLiteral("ty-cancel"), 1) });
        QVERIFY(leader > 0);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(started), 60000);

        Waiter<Acknowledged> cancelled;
        m_client->cancel(leader, this, cancelled.callback());
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.result, 30000);
        QVERIFY2(cancelled.result->ok(), qPrintable(cancelled.result->error().message));
        JobWatch w;
        watch(leader, &w);
        QTRY_VERIFY_WITH_TIMEOUT(w.done, 60000);
        QCOMPARE(w.last.size(), 2);
        // SIGTERM reaches the batch shell and its `sleep` together: the shell dies of it (15), or sees its child
        // die first and exits 128 + 15 (seen about once in eight runs)
        for (const JobComponent& c : std::as_const(w.last)) {
            QCOMPARE(c.state, QStringLiteral("CANCELLED"));
            QVERIFY2(c.exitStatus() == (WaitStatus { true, 0, 15 }) || c.exitStatus() == (WaitStatus { false, 143, 0 }),
                qPrintable(QStringLiteral("component %1: exit_code %2, reason %3")
                               .arg(c.hetJobOffset)
                               .arg(c.exitCode)
                               .arg(c.stateReason)));
        }
        // cancelling it again succeeds again
        Waiter<Acknowledged> again;
        m_client->cancel(leader, this, again.callback());
        QTRY_VERIFY_WITH_TIMEOUT(again.result, 30000);
        QVERIFY(again.result->ok());
    }

    void submitErrors()
    {
        JobComponentRequest bad = component(QStringLiteral("ty-bad"), 1);
        bad.partition = QStringLiteral("nosuch");
        Waiter<SubmitResult> submitted;
        m_client->submitHetJob(QStringLiteral("#!/bin/bash\ntrue\n"), { bad }, this, submitted.callback());
        QTRY_VERIFY_WITH_TIMEOUT(submitted.result, 30000);
        QCOMPARE(submitted.result->error().kind, ClientError::Kind::SlurmError);
        const QString message = submitted.result->error().message;
        QVERIFY2(
            message.startsWith(QStringLiteral("%1: submitting a job failed (HTTP ").arg(where())), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("Invalid partition name specified [2000]")), qPrintable(message));
    }

    void vanishedJob()
    {
        Waiter<QList<JobComponent>> job;
        Waiter<Acknowledged> cancel;
        m_client->job(999999, this, job.callback());
        m_client->cancel(999999, this, cancel.callback());
        QTRY_VERIFY_WITH_TIMEOUT(job.result && cancel.result, 30000);
        QCOMPARE(job.result->error().kind, ClientError::Kind::NoSuchJob);
        // 22.05 refuses to cancel it (2017); 24.11 says it did
        if (m_client->apiVersion() == ApiVersion::V0_0_38)
            QCOMPARE(cancel.result->error().kind, ClientError::Kind::NoSuchJob);
        else
            QVERIFY2(cancel.result->ok(), qPrintable(cancel.result->error().message));
    }

    void wrongToken()
    {
        ClusterConfig wrong = m_testcluster;
        wrong.tokenCommand.clear();
        wrong.token
            = QStringLiteral("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjQxMDI0NDQ4MDAsInN1biI6InNsdXJtY2kifQ.bad");
        SlurmRestClient client(wrong);
        // (not ping: 24.11 answers it with the controller DOWN instead)
        Waiter<QList<Node>> nodes;
        client.nodes(this, nodes.callback());
        QTRY_VERIFY_WITH_TIMEOUT(nodes.result, 30000);
        QCOMPARE(nodes.result->error().kind, ClientError::Kind::Authentication);
        const QString message = nodes.result->error().message;
        QVERIFY2(message.startsWith(QStringLiteral("%1 refused user '%2''s token: ").arg(where(), wrong.user)),
            qPrintable(message));
        // 22.05.8's answer to a bad token (newer versions word it otherwise)
        if (m_client->apiVersion() == ApiVersion::V0_0_38) {
            QVERIFY2(message.endsWith(QLatin1String("token: Unspecified error (a wrong or expired token, or slurmctld "
                                                    "is not answering)")),
                qPrintable(message));
        }
    }

    void refusedTokenIsMintedAgain()
    {
        // the first run prints a token slurmctld refuses, the next ones a real one
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first-done"));
        ClusterConfig c = m_testcluster;
        c.tokenCommand = QStringLiteral("if [ -e '%1' ]; then %2; else touch '%1'; echo SLURM_JWT=not.a.token; fi")
                             .arg(first, m_testcluster.tokenCommand);
        SlurmRestClient client(c);
        Waiter<QList<Node>> nodes;
        client.nodes(this, nodes.callback());
        QTRY_VERIFY_WITH_TIMEOUT(nodes.result, 30000);
        QVERIFY2(nodes.result->ok(), qPrintable(nodes.result->error().message));
        QCOMPARE(nodes.result->value().size(), 4);
        QVERIFY(QFile::exists(first));
    }

    void stoppedSlurmrestd()
    {
        // nothing listens on this port, as after `slurm-testcluster.sh stop` or with a wrong port
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        ClusterConfig c = m_testcluster;
        c.restUrl.setPort(port);
        SlurmRestClient client(c);
        Waiter<QList<ControllerPing>> ping;
        client.ping(this, ping.callback());
        QTRY_VERIFY_WITH_TIMEOUT(ping.result, 30000);
        QCOMPARE(ping.result->error().kind, ClientError::Kind::Unreachable);
        QCOMPARE(ping.result->error().message,
            QStringLiteral("slurmrestd at http://127.0.0.1:%1 refused the connection (is slurmrestd running, on that "
                           "port?)")
                .arg(port));
    }
};

QTEST_GUILESS_MAIN(TestSlurmRest)
#include "tst_slurmrest.moc"
