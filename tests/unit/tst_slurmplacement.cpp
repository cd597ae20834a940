// SPDX-License-Identifier: GPL-2.0-or-later
// SlurmBackend's placement and stop against a fake slurmrestd 22.05 (tests/support/fakehttpserver.h, the replies
// recorded in tests/data/slurm/replies): the het job it submits, the addresses it answers once Slurm runs the job,
// the placement failures, and stop before and after placement. The real cluster: integration/tst_slurmbackend.
#include "fakehttpserver.h"
#include "slurmreplies.h"
#include "slurmbackend.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Slurm;
using Trainyard::Test::FakeHttpServer;
using Trainyard::Test::answer;
using Trainyard::Test::recorded;

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

} // namespace

class TestSlurmPlacement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<Launch::Placement>(); }

    /// 1 master + 2 workers + 1 ps: one het job of three components; placed on their nodes once RUNNING; stop()
    /// cancels the leader and says stopped() once the job is final.
    void placesHetJobAndStops()
    {
        QTemporaryDir shared;
        bool running = false;
        bool finished = false;
        FakeHttpServer server([&](const FakeHttpServer::Request& r) {
            if (r.path == QLatin1String("/openapi/v3"))
                return answer(200, recorded("openapi-v3"));
            if (r.path.endsWith(QLatin1String("/nodes")))
                return answer(200, recorded("nodes-idle"));
            if (r.path.endsWith(QLatin1String("/job/submit")))
                return answer(200, recorded("submit-het"));
            if (r.path.endsWith(QLatin1String("/job/10")) && r.method == "DELETE") {
                finished = true;
                return answer(200, recorded("cancel-running"));
            }
            if (r.path.endsWith(QLatin1String("/job/10")))
                return answer(200,
                    recorded(finished ? "job-het-completed"
                            : running ? "job-het-running"
                                      : "job-het-pending"));
            return answer(404, "not here");
        });
        SlurmBackend backend(config(server.url(), shared.path()));
        backend.setPollInterval(std::chrono::milliseconds(20));
        QSignalSpy placed(&backend, &Backend::placed);
        QSignalSpy failed(&backend, &Backend::placementFailed);
        QSignalSpy stopped(&backend, &Backend::stopped);
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

        // Pending: polled, not placed.
        QTRY_VERIFY(server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/10")).size() >= 3);
        QCOMPARE(placed.size(), 0);
        running = true;
        QTRY_COMPARE(placed.size(), 1);
        const Launch::Placement placement = placed.first().at(1).value<Launch::Placement>();
        const int base = 20000 + 10 * 32; // job 10
        QCOMPARE(placement.addresses,
            (QList<Launch::Address> { { QStringLiteral("node1"), base }, { QStringLiteral("node2"), base + 1 },
                { QStringLiteral("node3"), base + 2 }, { QStringLiteral("node4"), base + 3 } }));
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
        FakeHttpServer server([&](const FakeHttpServer::Request& r) {
            if (r.path == QLatin1String("/openapi/v3"))
                return answer(200, recorded("openapi-v3"));
            if (r.path.endsWith(QLatin1String("/nodes")))
                return answer(200, recorded("nodes-idle"));
            if (r.path.endsWith(QLatin1String("/job/submit")))
                return answer(submitReply == "submit-het" ? 200 : 500, recorded(submitReply.constData()));
            return answer(404, "not here");
        });
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
        FakeHttpServer server([&](const FakeHttpServer::Request& r) {
            if (r.path == QLatin1String("/openapi/v3"))
                return answer(200, recorded("openapi-v3"));
            if (r.path.endsWith(QLatin1String("/nodes")))
                return answer(200, recorded("nodes-idle"));
            return answer(200, recorded("submit-het"));
        });
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
