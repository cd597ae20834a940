// SPDX-License-Identifier: GPL-2.0-or-later
// SlurmRestClient against a fake slurmrestd (tests/support/fakehttpserver.h) answering with the replies recorded
// from slurmrestd 22.05.8 (tests/data/slurm/replies/) or with what a newer one, a crashed one or a hung one gives:
// version discovery, the token's life, and how every failure reads. integration/tst_slurmrest runs the same client
// against the real test cluster.
#include "fakehttpserver.h"
#include "slurmreplies.h"
#include "slurmrestclient.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Slurm;
using Trainyard::Test::FakeHttpServer;
using Trainyard::Test::answer;
using Trainyard::Test::recorded;

namespace {


FakeHttpServer::Response action(FakeHttpServer::Response::Action a)
{
    FakeHttpServer::Response r;
    r.action = a;
    return r;
}

QByteArray openapi(const QStringList& versions)
{
    QJsonObject paths;
    for (const QString& v : versions) {
        paths.insert(QStringLiteral("/slurm/%1/ping").arg(v), QJsonObject());
        paths.insert(QStringLiteral("/slurm/%1/job/submit").arg(v), QJsonObject());
    }
    paths.insert(QStringLiteral("/openapi/v3"), QJsonObject());
    return QJsonDocument(QJsonObject { { QStringLiteral("paths"), paths } }).toJson();
}

// A plain slurmrestd 22.05 with v0.0.38: the recorded replies.
FakeHttpServer::Response slurm2205(const FakeHttpServer::Request& r)
{
    if (r.path == QLatin1String("/openapi/v3"))
        return answer(200, recorded("openapi-v3"));
    if (r.path.endsWith(QLatin1String("/ping")))
        return answer(200, recorded("ping"));
    if (r.path.endsWith(QLatin1String("/nodes")))
        return answer(200, recorded("nodes-idle"));
    if (r.path.endsWith(QLatin1String("/job/submit")))
        return answer(200, recorded("submit-simple"));
    if (r.path.endsWith(QLatin1String("/job/999999")))
        return answer(500, r.method == "DELETE" ? recorded("cancel-unknown") : recorded("job-unknown"));
    if (r.path.contains(QLatin1String("/job/")))
        return answer(200, r.method == "DELETE" ? recorded("cancel-running") : recorded("job-het-completed"));
    return answer(404, "not here");
}

ClusterConfig config(const QUrl& url)
{
    ClusterConfig c;
    c.name = QStringLiteral("fake");
    c.restUrl = url;
    c.user = QStringLiteral("slurmci");
    c.token = QStringLiteral("static-token");
    c.sharedDir = QStringLiteral("/tmp");
    return c;
}

JobComponentRequest component(int nodes)
{
    JobComponentRequest c;
    c.name = QStringLiteral("ty");
    c.nodes = nodes;
    c.tasks = nodes;
    c.gpusPerNode = 1;
    c.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
    return c;
}

// A JWT with this expiry (the signature is not checked by the client).
QString jwt(const QDateTime& expiry)
{
    const QByteArray claims = QJsonDocument(QJsonObject { { QStringLiteral("exp"), expiry.toSecsSinceEpoch() },
                                                { QStringLiteral("sun"), QStringLiteral("slurmci") } })
                                  .toJson(QJsonDocument::Compact)
                                  .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    return QStringLiteral("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.") + QString::fromLatin1(claims)
        + QStringLiteral(".c2ln");
}

// A tokenCommand that counts its runs in `dir`/runs and prints SLURM_JWT=<prefix><run> (or `fixed` when given).
QString countingCommand(const QTemporaryDir& dir, const QString& fixed = {})
{
    const QString runs = dir.filePath(QStringLiteral("runs"));
    return QStringLiteral("n=$(( $(cat '%1' 2>/dev/null || echo 0) + 1 )); echo $n > '%1'; echo \"SLURM_JWT=%2\"")
        .arg(runs, fixed.isEmpty() ? QStringLiteral("token-$n") : fixed);
}

int runsOf(const QTemporaryDir& dir)
{
    QFile file(dir.filePath(QStringLiteral("runs")));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toInt() : 0;
}

// Waits for one callback of a client call.
template <typename T> struct Waiter {
    std::optional<Result<T>> result;
    int calls = 0;
    typename SlurmRestClient::Callback<T> callback()
    {
        return [this](const Result<T>& r) {
            ++calls;
            result.emplace(r);
        };
    }
};

} // namespace

class TestSlurmRestClient : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void discoversTheNewestVersionAndSpeaksIt()
    {
        FakeHttpServer server([](const FakeHttpServer::Request& r) {
            if (r.path == QLatin1String("/openapi/v3"))
                return answer(
                    200, openapi({ QStringLiteral("v0.0.38"), QStringLiteral("v0.0.39"), QStringLiteral("v0.0.40") }));
            if (r.path == QLatin1String("/slurm/v0.0.40/ping"))
                return answer(200, R"({"pings":[{"hostname":"head","pinged":"UP","mode":"primary"}],"errors":[]})");
            if (r.path == QLatin1String("/slurm/v0.0.40/job/submit"))
                return answer(200, R"({"job_id":5,"step_id":"batch","errors":[],"warnings":[]})");
            return answer(404, "no");
        });
        SlurmRestClient client(config(server.url()));
        QCOMPARE(client.apiVersion(), std::nullopt);
        Waiter<QList<ControllerPing>> ping;
        Waiter<SubmitResult> submit;
        // two calls before the version is known: one discovery serves both
        client.ping(this, ping.callback());
        client.submitHetJob(
            QStringLiteral("#!/bin/bash\ntrue\n"), { component(1), component(2) }, this, submit.callback());
        QTRY_VERIFY(ping.result && submit.result);
        QVERIFY2(ping.result->ok(), qPrintable(ping.result->error().message));
        QVERIFY(ping.result->value().first().isUp());
        QVERIFY2(submit.result->ok(), qPrintable(submit.result->error().message));
        QCOMPARE(submit.result->value().jobId, 5);
        QCOMPARE(client.apiVersion(), std::optional(ApiVersion::V0_0_40));
        QCOMPARE(server.requestsFor(QStringLiteral("/openapi/v3")).size(), 1);

        const QList<FakeHttpServer::Request> posts = server.requestsFor(QStringLiteral("/slurm/v0.0.40/job/submit"));
        QCOMPARE(posts.size(), 1);
        const FakeHttpServer::Request& post = posts.first();
        QCOMPARE(post.method, QByteArray("POST"));
        QCOMPARE(post.headers.value("x-slurm-user-name"), QByteArray("slurmci"));
        QCOMPARE(post.headers.value("x-slurm-user-token"), QByteArray("static-token"));
        QCOMPARE(post.headers.value("content-type"), QByteArray("application/json"));
        // the v0.0.40 shapes, and no argv
        const QJsonObject body = QJsonDocument::fromJson(post.body).object();
        const QJsonArray jobs = body.value(QLatin1String("jobs")).toArray();
        QCOMPARE(jobs.size(), 2);
        QCOMPARE(jobs.at(0).toObject().value(QLatin1String("environment")).toArray(),
            QJsonArray { QStringLiteral("PATH=/usr/bin:/bin") });
        QCOMPARE(jobs.at(1).toObject().value(QLatin1String("tres_per_node")).toString(), QStringLiteral("gres/gpu:1"));
        QCOMPARE(jobs.at(1).toObject().value(QLatin1String("nodes")).toString(), QStringLiteral("2"));
        QVERIFY(!post.body.contains("argv"));
    }

    void pinnedVersionSkipsDiscovery()
    {
        FakeHttpServer server([](const FakeHttpServer::Request& r) {
            if (r.path == QLatin1String("/slurm/v0.0.39/ping"))
                return answer(200, R"({"pings":[{"hostname":"head","pinged":"UP"}]})");
            return answer(404, "no");
        });
        ClusterConfig c = config(server.url());
        c.restVersion = ApiVersion::V0_0_39;
        SlurmRestClient client(c);
        QCOMPARE(client.apiVersion(), std::optional(ApiVersion::V0_0_39));
        Waiter<QList<ControllerPing>> ping;
        client.ping(this, ping.callback());
        QTRY_VERIFY(ping.result);
        QVERIFY2(ping.result->ok(), qPrintable(ping.result->error().message));
        QCOMPARE(server.requests().size(), 1);
        Waiter<ApiVersion> version;
        client.discoverVersion(this, version.callback());
        QTRY_VERIFY(version.result);
        QCOMPARE(version.result->value(), ApiVersion::V0_0_39);
        QCOMPARE(server.requests().size(), 1);
    }

    void unsupportedVersions()
    {
        FakeHttpServer server([](const FakeHttpServer::Request&) {
            return answer(200, openapi({ QStringLiteral("v0.0.36"), QStringLiteral("v0.0.37") }));
        });
        SlurmRestClient client(config(server.url()));
        Waiter<ApiVersion> version;
        client.discoverVersion(this, version.callback());
        QTRY_VERIFY(version.result);
        QVERIFY(!version.result->ok());
        QCOMPARE(version.result->error().kind, ClientError::Kind::UnsupportedVersion);
        QCOMPARE(version.result->error().message,
            server.url().toString().prepend(QStringLiteral("slurmrestd at "))
                + QStringLiteral(" offers the Slurm REST API versions v0.0.36, v0.0.37, none of which this client "
                                 "speaks (v0.0.38, v0.0.39, v0.0.40); load one with slurmrestd -s openapi/v0.0.38"));
    }

    void failedDiscoveryIsAskedAgain()
    {
        bool down = true;
        FakeHttpServer server([&down](const FakeHttpServer::Request& r) {
            return down ? action(FakeHttpServer::Response::Action::Close) : slurm2205(r);
        });
        SlurmRestClient client(config(server.url()));
        Waiter<QList<ControllerPing>> first;
        client.ping(this, first.callback());
        QTRY_VERIFY(first.result);
        QCOMPARE(first.result->error().kind, ClientError::Kind::ConnectionClosed);
        down = false;
        Waiter<QList<ControllerPing>> second;
        client.ping(this, second.callback());
        QTRY_VERIFY(second.result);
        QVERIFY2(second.result->ok(), qPrintable(second.result->error().message));
        QCOMPARE(client.apiVersion(), std::optional(ApiVersion::V0_0_38));
    }

    void refusedStaticToken()
    {
        FakeHttpServer server([](const FakeHttpServer::Request& r) {
            return r.path == QLatin1String("/openapi/v3") ? answer(200, recorded("openapi-v3"))
                                                          : answer(500, recorded("bad-token-ping"));
        });
        SlurmRestClient client(config(server.url()));
        Waiter<QList<ControllerPing>> ping;
        client.ping(this, ping.callback());
        QTRY_VERIFY(ping.result);
        const ClientError& e = ping.result->error();
        QCOMPARE(e.kind, ClientError::Kind::Authentication);
        QCOMPARE(e.httpStatus, 500);
        QCOMPARE(e.message,
            QStringLiteral("slurmrestd at %1 refused user 'slurmci''s token: slurmctld config is unable to load "
                           "(a wrong or expired token, or slurmctld is not answering)")
                .arg(server.url().toString()));
        QCOMPARE(server.requestsFor(QStringLiteral("/slurm/v0.0.38/ping")).size(), 1); // nothing to refresh
    }

    void missingAuthenticationIs401()
    {
        FakeHttpServer server([](const FakeHttpServer::Request&) {
            FakeHttpServer::Response r = answer(401, recorded("no-token-ping"));
            r.contentType = "text/plain";
            return r;
        });
        ClusterConfig c = config(server.url());
        c.restVersion = ApiVersion::V0_0_38;
        SlurmRestClient client(c);
        Waiter<QList<Node>> nodes;
        client.nodes(this, nodes.callback());
        QTRY_VERIFY(nodes.result);
        QCOMPARE(nodes.result->error().kind, ClientError::Kind::Authentication);
        QVERIFY2(nodes.result->error().message.contains(QLatin1String("HTTP 401 Authentication failure")),
            qPrintable(nodes.result->error().message));
    }

    void tokenCommandMintsAgainAfterARefusal()
    {
        QTemporaryDir dir;
        FakeHttpServer server([](const FakeHttpServer::Request& r) {
            if (r.headers.value("x-slurm-user-token") == "token-1")
                return answer(500, recorded("bad-token-ping"));
            return slurm2205(r);
        });
        ClusterConfig c = config(server.url());
        c.token.clear();
        c.tokenCommand = countingCommand(dir);
        SlurmRestClient client(c);
        Waiter<QList<Node>> nodes;
        client.nodes(this, nodes.callback());
        QTRY_VERIFY(nodes.result);
        QVERIFY2(nodes.result->ok(), qPrintable(nodes.result->error().message));
        QCOMPARE(nodes.result->value().size(), 4);
        QCOMPARE(runsOf(dir), 2);
        // discovery went with token-1, was refused, and went again with token-2; nodes with token-2 at once
        QList<QByteArray> tokens;
        for (const FakeHttpServer::Request& r : server.requests())
            tokens.append(r.path.toUtf8() + ' ' + r.headers.value("x-slurm-user-token"));
        QCOMPARE(tokens,
            (QList<QByteArray> { "/openapi/v3 token-1", "/openapi/v3 token-2", "/slurm/v0.0.38/nodes token-2" }));
    }

    void refusedAgainAfterMinting()
    {
        QTemporaryDir dir;
        FakeHttpServer server([](const FakeHttpServer::Request& r) {
            return r.path.endsWith(QLatin1String("/job/submit")) ? answer(500, recorded("bad-token-submit"))
                                                                 : slurm2205(r);
        });
        ClusterConfig c = config(server.url());
        c.token.clear();
        c.tokenCommand = countingCommand(dir, jwt(QDateTime::currentDateTimeUtc().addSecs(-120)));
        c.restVersion = ApiVersion::V0_0_38;
        SlurmRestClient client(c);
        Waiter<SubmitResult> submit;
        client.submitHetJob(QStringLiteral("#!/bin/sh\n"), { component(1) }, this, submit.callback());
        QTRY_VERIFY(submit.result);
        const ClientError& e = submit.result->error();
        QCOMPARE(e.kind, ClientError::Kind::Authentication);
        QVERIFY2(
            e.message.startsWith(QStringLiteral("slurmrestd at %1 refused user 'slurmci''s token, which expired at ")
                                     .arg(server.url().toString())),
            qPrintable(e.message));
        QVERIFY2(
            e.message.contains(QLatin1String(" (also a freshly minted one): Zero Bytes were transmitted or received "
                                             "[5005] (a wrong or expired token, or slurmctld is not answering)")),
            qPrintable(e.message));
        QCOMPARE(runsOf(dir), 2);
        QCOMPARE(server.requests().size(), 2);
    }

    void tokenIsKeptUntilShortlyBeforeItExpires()
    {
        QTemporaryDir longDir;
        QTemporaryDir shortDir;
        FakeHttpServer server(slurm2205);
        ClusterConfig c = config(server.url());
        c.token.clear();
        c.restVersion = ApiVersion::V0_0_38;
        c.tokenCommand = countingCommand(longDir, jwt(QDateTime::currentDateTimeUtc().addSecs(3600)));
        SlurmRestClient longLived(c);
        c.tokenCommand = countingCommand(shortDir, jwt(QDateTime::currentDateTimeUtc().addSecs(30)));
        SlurmRestClient shortLived(c);
        for (int i = 0; i < 3; ++i) {
            Waiter<QList<ControllerPing>> a;
            Waiter<QList<ControllerPing>> b;
            longLived.ping(this, a.callback());
            shortLived.ping(this, b.callback());
            QTRY_VERIFY(a.result && b.result);
            QVERIFY(a.result->ok() && b.result->ok());
        }
        QCOMPARE(runsOf(longDir), 1);
        QCOMPARE(runsOf(shortDir), 3); // 30 s left is within the margin: minted for every call
    }

    void concurrentCallsShareOneTokenRun()
    {
        QTemporaryDir dir;
        FakeHttpServer server(slurm2205);
        ClusterConfig c = config(server.url());
        c.token.clear();
        c.tokenCommand = countingCommand(dir);
        SlurmRestClient client(c);
        QList<Waiter<QList<ControllerPing>>> waiters(5);
        for (auto& w : waiters)
            client.ping(this, w.callback());
        QTRY_VERIFY(std::all_of(waiters.begin(), waiters.end(), [](const auto& w) { return w.result.has_value(); }));
        QCOMPARE(runsOf(dir), 1);
        QCOMPARE(server.requestsFor(QStringLiteral("/openapi/v3")).size(), 1);
    }

    void slurmConfReachesTheTokenCommand()
    {
        FakeHttpServer server(slurm2205);
        ClusterConfig c = config(server.url());
        c.token.clear();
        c.tokenCommand = QStringLiteral("echo \"SLURM_JWT=conf:$SLURM_CONF\"");
        c.slurmConf = QStringLiteral("/tmp/slurm-test/etc/slurm.conf");
        SlurmRestClient client(c);
        Waiter<QList<ControllerPing>> ping;
        client.ping(this, ping.callback());
        QTRY_VERIFY(ping.result);
        QCOMPARE(server.requests().first().headers.value("x-slurm-user-token"),
            QByteArray("conf:/tmp/slurm-test/etc/slurm.conf"));
    }

    void tokenCommandFailures_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("says");
        // The timeout is short only where it is the point: a loaded machine may take more than 0.3 s to start sh.
        QTest::addColumn<int>("timeoutMs");
        QTest::addRow("exit 3") << QStringLiteral("echo 'scontrol: error: boom' >&2; exit 3")
                                << QStringLiteral("failed (exit code 3): scontrol: error: boom") << 30000;
        QTest::addRow("no token") << QStringLiteral("echo two words") << QStringLiteral("printed no token") << 30000;
        QTest::addRow("too slow") << QStringLiteral("sleep 30") << QStringLiteral("did not finish within 0.3 s") << 300;
    }

    void tokenCommandFailures()
    {
        QFETCH(QString, command);
        QFETCH(QString, says);
        QFETCH(int, timeoutMs);
        FakeHttpServer server(slurm2205);
        ClusterConfig c = config(server.url());
        c.token.clear();
        c.tokenCommand = command;
        SlurmRestClient client(c);
        client.setTokenCommandTimeout(std::chrono::milliseconds(timeoutMs));
        Waiter<QList<Node>> nodes;
        client.nodes(this, nodes.callback());
        QTRY_VERIFY_WITH_TIMEOUT(nodes.result, 60000);
        const ClientError& e = nodes.result->error();
        QCOMPARE(e.kind, ClientError::Kind::TokenCommand);
        QVERIFY2(e.message.startsWith(QStringLiteral("tokenCommand of cluster 'fake' (%1) ").arg(command)),
            qPrintable(e.message));
        QVERIFY2(e.message.contains(says), qPrintable(e.message));
        QVERIFY(server.requests().isEmpty());
    }

    void transportFailures_data()
    {
        QTest::addColumn<int>("what");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("says");
        // Short only for the hang: a close must not meet the timeout first on a loaded machine.
        QTest::addColumn<int>("timeoutMs");
        QTest::addRow("crash") << int(FakeHttpServer::Response::Action::Close)
                               << int(ClientError::Kind::ConnectionClosed)
                               << QStringLiteral(" closed the connection (it may have crashed) while listing the nodes")
                               << 30000;
        QTest::addRow("hang") << int(FakeHttpServer::Response::Action::Hang) << int(ClientError::Kind::Timeout)
                              << QStringLiteral(" did not answer within 0.3 s (listing the nodes)") << 300;
    }

    void transportFailures()
    {
        QFETCH(int, what);
        QFETCH(int, kind);
        QFETCH(QString, says);
        QFETCH(int, timeoutMs);
        FakeHttpServer server(
            [what](const FakeHttpServer::Request&) { return action(FakeHttpServer::Response::Action(what)); });
        ClusterConfig c = config(server.url());
        c.restVersion = ApiVersion::V0_0_38;
        SlurmRestClient client(c);
        client.setRequestTimeout(std::chrono::milliseconds(timeoutMs));
        Waiter<QList<Node>> nodes;
        client.nodes(this, nodes.callback());
        QTRY_VERIFY_WITH_TIMEOUT(nodes.result, 60000);
        QCOMPARE(int(nodes.result->error().kind), kind);
        QCOMPARE(nodes.result->error().message, QStringLiteral("slurmrestd at ") + server.url().toString() + says);
        QCOMPARE(nodes.result->error().httpStatus, 0);
    }

    // Qt sends a request again when the connection closes before the answer; a submission must not be (the job
    // may exist already), a GET may
    void droppedSubmissionIsNotSentAgain()
    {
        FakeHttpServer server(
            [](const FakeHttpServer::Request&) { return action(FakeHttpServer::Response::Action::Close); });
        ClusterConfig c = config(server.url());
        c.restVersion = ApiVersion::V0_0_38;
        SlurmRestClient client(c);
        Waiter<SubmitResult> submit;
        client.submitHetJob(QStringLiteral("#!/bin/sh\n"), { component(1) }, this, submit.callback());
        QTRY_VERIFY(submit.result);
        QCOMPARE(submit.result->error().kind, ClientError::Kind::ConnectionClosed);
        QCOMPARE(submit.result->error().message,
            QStringLiteral("slurmrestd at %1 closed the connection (it may have crashed) while submitting a job; the "
                           "request was not sent again, as slurmrestd may have acted on it")
                .arg(server.url().toString()));
        QCOMPARE(server.requests().size(), 1);
        QVERIFY(server.requests().first().body.contains("\"script\""));
    }

    void nothingListening()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        ClusterConfig c = config(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)));
        SlurmRestClient client(c);
        Waiter<QList<ControllerPing>> ping;
        client.ping(this, ping.callback());
        QTRY_VERIFY(ping.result);
        QCOMPARE(ping.result->error().kind, ClientError::Kind::Unreachable);
        QCOMPARE(ping.result->error().message,
            QStringLiteral("slurmrestd at http://127.0.0.1:%1 refused the connection (is slurmrestd running, on that "
                           "port?)")
                .arg(port));
    }

    void vanishedJobs()
    {
        FakeHttpServer server(slurm2205);
        SlurmRestClient client(config(server.url()));
        Waiter<QList<JobComponent>> job;
        Waiter<Acknowledged> cancel;
        client.job(999999, this, job.callback());
        client.cancel(999999, this, cancel.callback());
        QTRY_VERIFY(job.result && cancel.result);
        QCOMPARE(job.result->error().kind, ClientError::Kind::NoSuchJob);
        QCOMPARE(job.result->error().message,
            QStringLiteral("slurmrestd at %1 does not know job 999999 (it never existed, or ended more than MinJobAge "
                           "ago): Unable to find JobId=999999: Invalid job id specified [2017]")
                .arg(server.url().toString()));
        QCOMPARE(cancel.result->error().kind, ClientError::Kind::NoSuchJob);
        QCOMPARE(cancel.result->error().errors.first().number, 2017);
    }

    void jobAndCancel()
    {
        FakeHttpServer server(slurm2205);
        SlurmRestClient client(config(server.url()));
        Waiter<QList<JobComponent>> job;
        Waiter<Acknowledged> signal;
        client.job(10, this, job.callback());
        client.cancel(10, this, signal.callback(), 10);
        QTRY_VERIFY(job.result && signal.result);
        QVERIFY(job.result->ok());
        QCOMPARE(job.result->value().size(), 3);
        QCOMPARE(job.result->value().at(1).nodes, QStringLiteral("node[2-3]"));
        QVERIFY(signal.result->ok());
        const QList<FakeHttpServer::Request> deletes = server.requestsFor(QStringLiteral("/slurm/v0.0.38/job/10"));
        QCOMPARE(deletes.size(), 2);
        const FakeHttpServer::Request& del = deletes.at(0).method == "DELETE" ? deletes.at(0) : deletes.at(1);
        QCOMPARE(del.method, QByteArray("DELETE"));
        QCOMPARE(del.query.queryItemValue(QStringLiteral("signal")), QStringLiteral("10"));
    }

    void errorsArrayDecidesNotTheStatus()
    {
        FakeHttpServer server([](const FakeHttpServer::Request& r) {
            if (r.path.endsWith(QLatin1String("/job/1")) && r.method == "GET")
                return answer(200, R"({"errors":[{"error_number":1,"error":"Unexpected"}],"jobs":[{"job_id":1}]})");
            if (r.path.endsWith(QLatin1String("/job/1")))
                return answer(200, R"({"errors":[{"error_code":9001,"error":"Failure during parsing"}]})");
            if (r.path.endsWith(QLatin1String("/job/submit")) && r.body.contains("held"))
                return answer(200, recorded("submit-held"));
            if (r.path.endsWith(QLatin1String("/job/submit")) && r.body.contains("nosuch"))
                return answer(500, recorded("submit-bad-partition"));
            if (r.path.endsWith(QLatin1String("/job/submit"))) {
                FakeHttpServer::Response plain = answer(400, recorded("submit-not-json"));
                plain.contentType = "text/plain";
                return plain;
            }
            return answer(200, R"({"nodes":"not a list","errors":[]})");
        });
        ClusterConfig c = config(server.url());
        c.restVersion = ApiVersion::V0_0_38;
        SlurmRestClient client(c);
        Waiter<QList<JobComponent>> job;
        Waiter<Acknowledged> cancel;
        Waiter<SubmitResult> held;
        Waiter<SubmitResult> badPartition;
        Waiter<SubmitResult> notParsed;
        Waiter<QList<Node>> nodes;
        JobComponentRequest heldComponent = component(1);
        heldComponent.name = QStringLiteral("held");
        JobComponentRequest badComponent = component(1);
        badComponent.partition = QStringLiteral("nosuch");
        client.job(1, this, job.callback());
        client.cancel(1, this, cancel.callback());
        client.submitHetJob(QStringLiteral("#!/bin/sh\n"), { heldComponent }, this, held.callback());
        client.submitHetJob(QStringLiteral("#!/bin/sh\n"), { badComponent }, this, badPartition.callback());
        client.submitHetJob(QStringLiteral("#!/bin/sh\n"), { component(1) }, this, notParsed.callback());
        client.nodes(this, nodes.callback());
        QTRY_VERIFY(
            job.result && cancel.result && held.result && badPartition.result && notParsed.result && nodes.result);
        const QString where = QStringLiteral("slurmrestd at ") + server.url().toString();

        QCOMPARE(job.result->error().kind, ClientError::Kind::SlurmError);
        QCOMPARE(
            job.result->error().message, where + QStringLiteral(": reading job 1 failed (HTTP 200): Unexpected [1]"));
        QCOMPARE(cancel.result->error().message,
            where + QStringLiteral(": cancelling job 1 failed (HTTP 200): Failure during parsing [9001]"));
        QVERIFY(held.result->ok()); // created, with its error kept
        QCOMPARE(held.result->value().jobId, 15);
        QCOMPARE(held.result->value().errors.first().number, 2042);
        QCOMPARE(badPartition.result->error().kind, ClientError::Kind::SlurmError);
        QCOMPARE(badPartition.result->error().message,
            where + QStringLiteral(": submitting a job failed (HTTP 500): Invalid partition name specified [2000]"));
        QCOMPARE(notParsed.result->error().message,
            where + QStringLiteral(": submitting a job failed (HTTP 400): Unable to parse query."));
        QCOMPARE(nodes.result->error().kind, ClientError::Kind::BadReply);
        QCOMPARE(nodes.result->error().message,
            where
                + QStringLiteral(" sent a reply this client cannot read while listing the nodes: the reply has no "
                                 "\"nodes\" array"));
    }

    void invalidRequestsAreNotSent_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("components");
        QTest::addColumn<bool>("environment");
        QTest::addColumn<QString>("says");
        QTest::addRow("no components") << QStringLiteral("#!/bin/sh\n") << 0 << true
                                       << QStringLiteral("a job needs at least one component");
        QTest::addRow("no #!") << QStringLiteral("echo hi\n") << 1 << true
                               << QStringLiteral("the batch script must start with \"#!\"");
        QTest::addRow("no environment") << QStringLiteral("#!/bin/sh\n") << 2 << false
                                        << QStringLiteral("component 0 needs an environment");
    }

    void invalidRequestsAreNotSent()
    {
        QFETCH(QString, script);
        QFETCH(int, components);
        QFETCH(bool, environment);
        QFETCH(QString, says);
        FakeHttpServer server(slurm2205);
        SlurmRestClient client(config(server.url()));
        QList<JobComponentRequest> list;
        for (int i = 0; i < components; ++i) {
            list.append(component(1));
            if (!environment)
                list.last().environment.clear();
        }
        Waiter<SubmitResult> submit;
        client.submitHetJob(script, list, this, submit.callback());
        QCOMPARE(submit.calls, 0); // never inside the call
        QTRY_COMPARE(submit.calls, 1);
        QCOMPARE(submit.result->error().kind, ClientError::Kind::InvalidRequest);
        QVERIFY2(submit.result->error().message.contains(says), qPrintable(submit.result->error().message));
        QVERIFY(server.requests().isEmpty());
    }

    void destroyedContextDropsTheCallback()
    {
        FakeHttpServer server([](const FakeHttpServer::Request& r) {
            return r.path.endsWith(QLatin1String("/nodes")) ? action(FakeHttpServer::Response::Action::Hold)
                                                            : slurm2205(r);
        });
        ClusterConfig c = config(server.url());
        c.restVersion = ApiVersion::V0_0_38;
        SlurmRestClient client(c);
        auto* context = new QObject;
        Waiter<QList<Node>> dropped;
        client.nodes(context, dropped.callback());
        QTRY_COMPARE(server.requests().size(), 1);
        delete context;
        server.answerHeld(answer(200, recorded("nodes-idle")));
        // a later call's answer comes after the held one was written
        Waiter<QList<ControllerPing>> later;
        client.ping(this, later.callback());
        QTRY_VERIFY(later.result);
        QCOMPARE(dropped.calls, 0);
    }

    void destroyedClientAbortsItsRequests()
    {
        FakeHttpServer server(
            [](const FakeHttpServer::Request&) { return action(FakeHttpServer::Response::Action::Hold); });
        ClusterConfig c = config(server.url());
        c.restVersion = ApiVersion::V0_0_38;
        auto* client = new SlurmRestClient(c);
        Waiter<QList<Node>> nodes;
        client->nodes(this, nodes.callback());
        QTRY_COMPARE(server.requests().size(), 1);
        delete client;
        server.answerHeld(answer(200, recorded("nodes-idle")));
        QCOMPARE(nodes.calls, 0);
    }
};

QTEST_GUILESS_MAIN(TestSlurmRestClient)
#include "tst_slurmrestclient.moc"
