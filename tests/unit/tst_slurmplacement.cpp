// SPDX-License-Identifier: GPL-2.0-or-later
// SlurmBackend's placement and stop against a fake slurmrestd 22.05 (tests/support/fakehttpserver.h, the replies
// recorded in tests/data/slurm/replies): the het job it submits, the pending addresses it answers as soon as Slurm
// took the job and the hosts once Slurm runs it, the replicas' scripts that fill the hosts in, the placement
// failures, and stop before and after placement. The real cluster: integration/tst_slurmbackend.
#include "fakehttpserver.h"
#include "slurmreplies.h"
#include "slurmbackend.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Slurm;
using Trainyard::Test::answer;
using Trainyard::Test::FakeHttpServer;
using Trainyard::Test::fakeSlurmrestd;
using Trainyard::Test::recorded;
using Reply = FakeHttpServer::Response;

namespace {


ClusterConfig config(const QUrl& url, const QString& sharedDir)
{
    ClusterConfig c;
    c.name = QStringLiteral("fake");
    c.restUrl = url;
    c.user = QStringLiteral("slurmci");
    c.token = QStringLiteral("static-token");
    c.partition = QStringLiteral("debug");
    c.sharedDir = sharedDir;
    return c;
}

/// master + `workers` workers + `ps` parameter servers, n1-standard-4 each.
Launch::ReplicaSet replicaSet(const QString& root, int workers, int ps)
{
    Launch::ReplicaSet set;
    set.jobId = QStringLiteral("j");
    set.replicaRoot = root + QStringLiteral("/projects/local/jobs/j/replicas");
    auto add = [&set](const QString& role, const QString& prefix, int index) {
        set.replicas << Launch::ReplicaSlot { role, index, prefix + QString::number(index),
            QStringLiteral("n1-standard-4"), 4, {} };
    };
    add(QStringLiteral("master"), QStringLiteral("master-replica-"), 0);
    for (int i = 0; i < workers; ++i)
        add(QStringLiteral("worker"), QStringLiteral("worker-replica-"), i);
    for (int i = 0; i < ps; ++i)
        add(QStringLiteral("ps"), QStringLiteral("ps-replica-"), i);
    return set;
}

const RunId Run { JobKey { QStringLiteral("local"), QStringLiteral("j") }, QString() };

/// Slurm job 10, pending for ever.
std::optional<Reply> pendingJob(const FakeHttpServer::Request& r)
{
    if (r.path.endsWith(QLatin1String("/job/10")))
        return answer(200, recorded("job-het-pending"));
    return std::nullopt;
}

} // namespace

class TestSlurmPlacement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<Launch::Placement>(); }

    /// 1 master + 2 workers + 1 ps: one het job of three components; placed with pending hosts as soon as Slurm took
    /// it, the hosts told once RUNNING; stop() cancels the leader and says stopped() once the job is final.
    void placesHetJobAndStops()
    {
        QTemporaryDir shared;
        bool running = false;
        bool finished = false;
        FakeHttpServer server(fakeSlurmrestd([&](const FakeHttpServer::Request& r) -> std::optional<Reply> {
            if (r.path.endsWith(QLatin1String("/job/10")) && r.method == "DELETE") {
                finished = true;
                return answer(200, recorded("cancel-running"));
            }
            if (r.path.endsWith(QLatin1String("/job/10")))
                return answer(200,
                    recorded(finished ? "job-het-completed"
                            : running ? "job-het-running"
                                      : "job-het-pending"));
            return std::nullopt;
        }));
        SlurmBackend backend(config(server.url(), shared.path()));
        backend.setPollInterval(std::chrono::milliseconds(20));
        QSignalSpy placed(&backend, &Backend::placed);
        QSignalSpy failed(&backend, &Backend::placementFailed);
        QSignalSpy stopped(&backend, &Backend::stopped);
        QSignalSpy hosts(&backend, &Backend::hostsKnown);
        backend.place(Run, replicaSet(shared.path(), 2, 1));
        QCOMPARE(placed.size(), 0); // never from inside place()

        QTRY_COMPARE(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/submit")).size(), 1);
        const QJsonObject body
            = QJsonDocument::fromJson(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/submit")).first().body)
                  .object();
        const QJsonArray jobs = body.value(QLatin1String("jobs")).toArray();
        QCOMPARE(jobs.size(), 3);
        QList<int> nodes;
        for (const QJsonValue& j : jobs) {
            nodes << j.toObject().value(QLatin1String("nodes")).toInt();
            // n1-standard-4 asks for 4 vCPUs; the fake cluster's nodes have 1
            QCOMPARE(j.toObject().value(QLatin1String("cpus_per_task")).toInt(), 1);
            QCOMPARE(j.toObject().value(QLatin1String("partition")).toString(), QStringLiteral("debug"));
        }
        QCOMPARE(nodes, (QList<int> { 1, 2, 1 }));
        const QString script = body.value(QLatin1String("script")).toString();
        QVERIFY2(script.contains(QLatin1String("srun --het-group=1 --nodes=2 --ntasks=2")), qPrintable(script));
        QVERIFY2(script.contains(QLatin1String("launch.ready")), qPrintable(script));
        // Replica 2 (worker 1) is the second task of component 1: the second node of its node list.
        QVERIFY2(script.contains(
                     QLatin1String("mapfile -t H1 < <(scontrol show hostnames \"$SLURM_JOB_NODELIST_HET_GROUP_1\")")),
            qPrintable(script));
        QVERIFY2(script.contains(QLatin1String("export TRAINYARD_HOST_2=\"${H1[1]}\"")), qPrintable(script));
        QVERIFY2(script.contains(QLatin1String("export TRAINYARD_HOST_3=\"${H2[0]}\"")), qPrintable(script));

        // Placed as soon as Slurm took the job: the ports are the job's, the hosts placeholders.
        QTRY_COMPARE(placed.size(), 1);
        const Launch::Placement pending = placed.first().at(1).value<Launch::Placement>();
        const int base = 20000 + 10 * 32; // job 10
        QVERIFY(pending.hostsPending);
        QCOMPARE(pending.addresses.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(pending.addresses.at(i).port, base + i);
            QVERIFY2(pending.addresses.at(i).host.startsWith(QLatin1String("@trainyard-host-")),
                qPrintable(pending.addresses.at(i).host));
        }
        QStringList placeholders;
        for (const Launch::Address& a : pending.addresses)
            placeholders << a.host;
        placeholders.removeDuplicates();
        QCOMPARE(placeholders.size(), 4);
        // Pending in Slurm: polled, no hosts yet.
        QTRY_VERIFY(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/10")).size() >= 3);
        QCOMPARE(hosts.size(), 0);
        running = true;
        QTRY_COMPARE(hosts.size(), 1);
        const Launch::Placement placement = hosts.first().at(1).value<Launch::Placement>();
        QVERIFY(!placement.hostsPending);
        QCOMPARE(placement.addresses,
            (QList<Launch::Address> { { QStringLiteral("node1"), base }, { QStringLiteral("node2"), base + 1 },
                { QStringLiteral("node3"), base + 2 }, { QStringLiteral("node4"), base + 3 } }));
        QCOMPARE(placed.size(), 1);
        QCOMPARE(backend.slurmJobId(Run), 10);
        QFile id(shared.path() + QStringLiteral("/projects/local/jobs/j/slurm/slurm-job-id"));
        QVERIFY(id.open(QIODevice::ReadOnly));
        QCOMPARE(id.readAll(), QByteArray("10\n"));

        backend.stop(Run, std::chrono::seconds(1));
        QTRY_COMPARE(stopped.size(), 1);
        QCOMPARE(failed.size(), 0);
        QVERIFY(QFile::exists(shared.path() + QStringLiteral("/projects/local/jobs/j/slurm/launch.cancel")));
        QCOMPARE(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/10")).last().method, QByteArray("GET"));
        bool cancelled = false;
        for (const FakeHttpServer::Request& r : server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/10")))
            cancelled = cancelled || r.method == "DELETE";
        QVERIFY(cancelled);
    }

    /// The replicas' scripts, written while the job is still queued, put each replica's node (the batch script's
    /// TRAINYARD_HOST_<i>) where the placeholders were: TF_CONFIG, CLUSTER_SPEC and MASTER_ADDR, as bash runs them.
    void replicaScriptsFillInHosts()
    {
        QTemporaryDir shared;
        FakeHttpServer server(fakeSlurmrestd(pendingJob));
        SlurmBackend backend(config(server.url(), shared.path()));
        backend.setPollInterval(std::chrono::milliseconds(20));
        QSignalSpy placed(&backend, &Backend::placed);
        const Launch::ReplicaSet set = replicaSet(shared.path(), 2, 1);
        backend.place(Run, set);
        QTRY_COMPARE(placed.size(), 1);
        const Launch::Placement placement = placed.first().at(1).value<Launch::Placement>();
        Launch::LaunchContext context;
        context.input.pythonModule = QStringLiteral("trainer.task");
        // A user's argument that looks like a placeholder (of another run) is passed on as it is.
        const QString note = QStringLiteral("--note=@trainyard-host-0000000000000000-1@ 'quoted'");
        context.input.args = { note };
        context.interpreter = QStringLiteral("/usr/bin/python3");
        QString error;
        const QList<Launch::ReplicaLaunch> launches = Launch::buildLaunch(context, set, placement, &error);
        QVERIFY2(!launches.isEmpty(), qPrintable(error));
        backend.launch(Run, launches);
        const QString dir = shared.path() + QStringLiteral("/projects/local/jobs/j/slurm");
        QVERIFY(QFile::exists(dir + QStringLiteral("/launch.ready")));

        QFile script(dir + QStringLiteral("/tasks/1-1.sh")); // worker 1: component 1, its second task
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QByteArray text = script.readAll();
        const QByteArray token = placement.addresses.first().host.chopped(2).toUtf8(); // "@trainyard-host-<hex>-"
        QVERIFY2(!text.contains(token), text.constData());
        // The exports, then the trainer's arguments as the script passes them (its command line, echoed).
        QByteArray commands;
        for (const QByteArray& line : text.split('\n')) {
            if (line.startsWith("export "))
                commands += line + '\n';
        }
        commands += "printf '%s\\n%s\\n%s\\n' \"$TF_CONFIG\" \"$CLUSTER_SPEC\" \"$MASTER_ADDR\"\n";
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QStringList nodes { QStringLiteral("node1"), QStringLiteral("node2"), QStringLiteral("node3"),
            QStringLiteral("node4") };
        for (int i = 0; i < 4; ++i)
            env.insert(QStringLiteral("TRAINYARD_HOST_%1").arg(i), nodes.at(i));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), QString::fromUtf8(commands) });
        QVERIFY(bash.waitForFinished(10000));
        QCOMPARE(bash.exitCode(), 0);
        const QList<QByteArray> out = bash.readAllStandardOutput().split('\n');
        QCOMPARE(out.size(), 4);
        const QJsonObject tfConfig = QJsonDocument::fromJson(out.at(0)).object();
        const int base = 20000 + 10 * 32;
        const QJsonObject cluster = tfConfig.value(QLatin1String("cluster")).toObject();
        QCOMPARE(
            cluster.value(QLatin1String("master")).toArray(), QJsonArray({ QStringLiteral("node1:%1").arg(base) }));
        QCOMPARE(cluster.value(QLatin1String("worker")).toArray(),
            QJsonArray({ QStringLiteral("node2:%1").arg(base + 1), QStringLiteral("node3:%1").arg(base + 2) }));
        QCOMPARE(
            cluster.value(QLatin1String("ps")).toArray(), QJsonArray({ QStringLiteral("node4:%1").arg(base + 3) }));
        const QJsonObject task = tfConfig.value(QLatin1String("task")).toObject();
        QCOMPARE(task.value(QLatin1String("type")).toString(), QStringLiteral("worker"));
        QCOMPARE(task.value(QLatin1String("index")).toInt(), 1);
        QCOMPARE(tfConfig.value(QLatin1String("job")).toObject().value(QLatin1String("args")).toArray(),
            QJsonArray({ note }));
        QCOMPARE(out.at(1), out.at(0));
        QCOMPARE(out.at(2), QByteArray("node1"));

        // The command line: every argument one word, the user's as given.
        const qsizetype at = text.indexOf("'/usr/bin/python3' ");
        QVERIFY2(at >= 0, text.constData());
        const QByteArray commandLine = text.mid(at, text.indexOf(" >>", at) - at);
        QProcess words;
        words.setProcessEnvironment(env);
        words.start(QStringLiteral("/bin/bash"),
            { QStringLiteral("-c"),
                QStringLiteral("set -- %1; shift; printf '%s\\n' \"$@\"").arg(QString::fromUtf8(commandLine)) });
        QVERIFY(words.waitForFinished(10000));
        const QList<QByteArray> argv = words.readAllStandardOutput().split('\n');
        QVERIFY2(argv.contains(note.toUtf8()), commandLine.constData());
    }

    /// A job over before a poll saw it RUNNING (its replicas start without the executor): the nodes come from the
    /// replicas' started files, told before any replica's exit, and every replica's exit is read.
    void shortJobKnowsHostsFromStartedFiles()
    {
        QTemporaryDir shared;
        bool completed = false;
        FakeHttpServer server(fakeSlurmrestd([&](const FakeHttpServer::Request& r) -> std::optional<Reply> {
            if (r.path.endsWith(QLatin1String("/job/10")))
                return answer(200, recorded(completed ? "job-het-completed" : "job-het-pending"));
            return std::nullopt;
        }));
        SlurmBackend backend(config(server.url(), shared.path()));
        backend.setPollInterval(std::chrono::milliseconds(20));
        QStringList events;
        QList<Launch::Placement> known;
        QObject::connect(&backend, &Backend::hostsKnown, [&](const RunId&, const Launch::Placement& p) {
            events << QStringLiteral("hosts");
            known << p;
        });
        QObject::connect(&backend, &Backend::exited, [&](const RunId&, const QString& task, const ReplicaExit& e) {
            events << task + QStringLiteral(" exited ") + QString::number(e.code);
        });
        QSignalSpy placed(&backend, &Backend::placed);
        const Launch::ReplicaSet set = replicaSet(shared.path(), 2, 1);
        backend.place(Run, set);
        QTRY_COMPARE(placed.size(), 1);
        Launch::LaunchContext context;
        context.input.pythonModule = QStringLiteral("trainer.task");
        context.interpreter = QStringLiteral("/usr/bin/python3");
        QString error;
        const QList<Launch::ReplicaLaunch> launches
            = Launch::buildLaunch(context, set, placed.first().at(1).value<Launch::Placement>(), &error);
        QVERIFY2(!launches.isEmpty(), qPrintable(error));
        backend.launch(Run, launches);
        // What the replicas' scripts leave when the job runs whole between two polls.
        const QString dir = shared.path() + QStringLiteral("/projects/local/jobs/j/slurm");
        for (int i = 0; i < set.replicas.size(); ++i) {
            const QString task = set.replicas.at(i).taskName;
            QFile started(dir + QStringLiteral("/started/") + task);
            QVERIFY(started.open(QIODevice::WriteOnly));
            started.write("node" + QByteArray::number(4 - i) + " 4242\n");
            started.close();
            QFile exit(dir + QStringLiteral("/exit/") + task);
            QVERIFY(exit.open(QIODevice::WriteOnly));
            exit.write("0\n");
        }
        completed = true;
        QTRY_COMPARE(events.size(), 5);
        QCOMPARE(events.first(), QStringLiteral("hosts"));
        QCOMPARE(known.first().addresses.size(), 4);
        QCOMPARE(known.first().addresses.at(0).host, QStringLiteral("node4"));
        QCOMPARE(known.first().addresses.at(3).host, QStringLiteral("node1"));
        QVERIFY(!known.first().hostsPending);
        for (const QString& e : events.mid(1))
            QVERIFY2(e.endsWith(QLatin1String(" exited 0")), qPrintable(e));
    }

    /// A job that Slurm keeps pending for a reason that never passes fails placement after it was placed (pending
    /// hosts), while no replica ran, and is cancelled.
    void pendingForEverFailsAfterPlaced()
    {
        QTemporaryDir shared;
        QByteArray pending = recorded("job-het-pending");
        const QByteArray none = "\"state_reason\": \"None\"";
        const qsizetype reason = pending.indexOf(none);
        QVERIFY(reason >= 0);
        pending.replace(reason, none.size(), "\"state_reason\": \"PartitionNodeLimit\"");
        bool cancelled = false;
        FakeHttpServer server(fakeSlurmrestd([&](const FakeHttpServer::Request& r) -> std::optional<Reply> {
            if (r.path.endsWith(QLatin1String("/job/10")) && r.method == "DELETE") {
                cancelled = true;
                return answer(200, recorded("cancel-pending"));
            }
            if (r.path.endsWith(QLatin1String("/job/10")))
                return answer(200, pending);
            return std::nullopt;
        }));
        SlurmBackend backend(config(server.url(), shared.path()));
        backend.setPollInterval(std::chrono::milliseconds(20));
        QSignalSpy placed(&backend, &Backend::placed);
        QSignalSpy failed(&backend, &Backend::placementFailed);
        backend.place(Run, replicaSet(shared.path(), 2, 1));
        QTRY_COMPARE(failed.size(), 1);
        QCOMPARE(placed.size(), 1);
        QCOMPARE(failed.first().at(1).toString(),
            QStringLiteral(
                "Slurm cluster 'fake' cannot ever run the job (Slurm job 10 is pending: PartitionNodeLimit)."));
        QTRY_VERIFY(cancelled);
    }

    /// The Slurm time limit: what is left of scheduling.maxRunningTime, rounded up to minutes plus one (the
    /// executor cancels first), or the cluster's timeLimitMinutes when shorter; neither: none sent.
    void timeLimitFromMaxRunningTime_data()
    {
        QTest::addColumn<qint64>("runLimitMs");
        QTest::addColumn<int>("clusterMinutes");
        QTest::addColumn<int>("expected"); // 0: no time_limit in the submission
        QTest::addRow("none") << qint64(-1) << 0 << 0;
        QTest::addRow("cluster's only") << qint64(-1) << 30 << 30;
        QTest::addRow("90 s") << qint64(90000) << 0 << 3;
        QTest::addRow("exactly 2 min") << qint64(120000) << 0 << 3;
        QTest::addRow("0 left") << qint64(0) << 0 << 1;
        QTest::addRow("cluster's is shorter") << qint64(3600000) << 30 << 30;
        QTest::addRow("job's is shorter") << qint64(600000) << 30 << 11;
    }

    void timeLimitFromMaxRunningTime()
    {
        QFETCH(qint64, runLimitMs);
        QFETCH(int, clusterMinutes);
        QFETCH(int, expected);
        QTemporaryDir shared;
        FakeHttpServer server(fakeSlurmrestd(pendingJob));
        ClusterConfig c = config(server.url(), shared.path());
        c.timeLimitMinutes = clusterMinutes;
        SlurmBackend backend(c);
        Launch::ReplicaSet set = replicaSet(shared.path(), 1, 0);
        set.runLimitMs = runLimitMs;
        backend.place(Run, set);
        QTRY_COMPARE(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/submit")).size(), 1);
        const QJsonArray jobs
            = QJsonDocument::fromJson(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/submit")).first().body)
                  .object()
                  .value(QLatin1String("jobs"))
                  .toArray();
        QCOMPARE(jobs.size(), 2);
        for (const QJsonValue& j : jobs) {
            if (expected == 0)
                QVERIFY(!j.toObject().contains(QLatin1String("time_limit")));
            else
                QCOMPARE(j.toObject().value(QLatin1String("time_limit")).toInt(), expected);
        }
    }

    void placementFails_data()
    {
        QTest::addColumn<QByteArray>("submitReply");
        QTest::addColumn<int>("workers");
        QTest::addColumn<QString>("message");
        QTest::addRow("refused") << QByteArray("submit-impossible-gres") << 2
                                 << QStringLiteral("Slurm cluster 'fake' refused the job: ");
        QTest::addRow("more replicas than nodes") << QByteArray("submit-het") << 4
                                                  << QStringLiteral("Slurm cluster 'fake' has 4 nodes in partition "
                                                                    "'debug', but the job needs 5");
        QTest::addRow("more than 32 replicas")
            << QByteArray("submit-het") << 32 << QStringLiteral("Slurm cluster 'fake' cannot place 33 replicas");
    }

    void placementFails()
    {
        QFETCH(QByteArray, submitReply);
        QFETCH(int, workers);
        QFETCH(QString, message);
        QTemporaryDir shared;
        FakeHttpServer server(fakeSlurmrestd([&](const FakeHttpServer::Request& r) -> std::optional<Reply> {
            if (r.path.endsWith(QLatin1String("/job/submit")))
                return answer(submitReply == "submit-het" ? 200 : 500, recorded(submitReply.constData()));
            return std::nullopt;
        }));
        SlurmBackend backend(config(server.url(), shared.path()));
        QSignalSpy placed(&backend, &Backend::placed);
        QSignalSpy failed(&backend, &Backend::placementFailed);
        backend.place(Run, replicaSet(shared.path(), workers, 0));
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.first().at(1).toString().startsWith(message), qPrintable(failed.first().at(1).toString()));
        QCOMPARE(placed.size(), 0);
        QCOMPARE(backend.slurmJobId(Run), 0);
    }

    void unreachableClusterFailsPlacement()
    {
        QTemporaryDir shared;
        quint16 port = 0;
        {
            FakeHttpServer closed([](const FakeHttpServer::Request&) { return answer(404, ""); });
            port = quint16(closed.url().port());
        }
        SlurmBackend backend(config(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), shared.path()));
        QSignalSpy failed(&backend, &Backend::placementFailed);
        backend.place(Run, replicaSet(shared.path(), 1, 0));
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.first().at(1).toString().startsWith(QLatin1String("Slurm cluster 'fake' is not available: ")),
            qPrintable(failed.first().at(1).toString()));
    }

    /// stop() while the cluster is still being asked: no job is submitted, stopped() follows.
    void stopBeforeSubmit()
    {
        QTemporaryDir shared;
        FakeHttpServer server(fakeSlurmrestd());
        SlurmBackend backend(config(server.url(), shared.path()));
        QSignalSpy placed(&backend, &Backend::placed);
        QSignalSpy stopped(&backend, &Backend::stopped);
        backend.place(Run, replicaSet(shared.path(), 1, 0));
        backend.stop(Run, std::chrono::seconds(1));
        QCOMPARE(stopped.size(), 0); // never from inside stop()
        QTRY_COMPARE(stopped.size(), 1);
        QCOMPARE(placed.size(), 0);
        QCOMPARE(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/submit")).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSlurmPlacement)
#include "tst_slurmplacement.moc"
