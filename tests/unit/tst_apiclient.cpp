// SPDX-License-Identifier: GPL-2.0-or-later
// ApiClient against a scripted HTTP server on the loopback address: the bearer token and paths it sends,
// Google's error shape, and the incremental Server-Sent Events parser with events split at every
// possible place across network reads.
#include "apiclient.h"
#include "fakehttpserver.h"
#include "statenames.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

using namespace Trainyard;

namespace {

/// Answers every request with `response`, written in pieces of `chunk` bytes, one piece per event-loop
/// turn (so that the client sees many reads). A response framed by Content-Length is left for the client
/// to close (its "Connection: close" says so), as the executor's framed answers are; only an unframed one
/// (a Server-Sent Events stream) ends by the server closing the connection.
///
/// Closing right after a framed answer would race Qt's HTTP client: server and client share this thread,
/// and when the answer and the close arrive before the client has moved from writing its request to
/// waiting for the reply, QNetworkAccessManager treats the close as a dropped connection and sends an
/// idempotent GET again (QHttpNetworkConnectionChannel::_q_error, RemoteHostClosedError while writing).
class ScriptedServer : public QObject {
    Q_OBJECT
public:
    QByteArray response;
    int chunk = 0; ///< 0 = all at once
    QList<QByteArray> requests;

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }

    ScriptedServer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this]() {
            QTcpSocket* socket = m_server.nextPendingConnection();
            auto buffer = std::make_shared<QByteArray>();
            connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer]() {
                buffer->append(socket->readAll());
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0 || socket->property("answered").toBool())
                    return;
                socket->setProperty("answered", true);
                requests.append(buffer->left(end));
                writeFrom(socket, 0);
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        });
    }

private:
    void writeFrom(QTcpSocket* socket, qsizetype offset)
    {
        const qsizetype n = chunk > 0 ? chunk : response.size();
        socket->write(response.mid(offset, n));
        socket->flush();
        if (offset + n >= response.size()) {
            const qsizetype headerEnd = response.indexOf("\r\n\r\n");
            if (!response.left(headerEnd).contains("\r\nContent-Length: "))
                socket->disconnectFromHost();
            return;
        }
        QTimer::singleShot(1, socket, [this, socket, offset, n]() { writeFrom(socket, offset + n); });
    }

    QTcpServer m_server;
};

/// An HTTP/1.1 response; framed by Content-Length unless it is an event stream, which, like the executor's,
/// runs until the connection closes.
QByteArray httpResponse(int status, const QByteArray& reason, const QByteArray& contentType, const QByteArray& body)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\nContent-Type: " + contentType
        + "\r\nConnection: close\r\n";
    if (contentType != "text/event-stream")
        head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    return head + "\r\n" + body;
}

} // namespace

class TestApiClient : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void requestCarriesTokenAndPath()
    {
        ScriptedServer server;
        QVERIFY(server.listen());
        server.response = httpResponse(200, "OK", "application/json",
            R"({"jobId":"j1","state":"RUNNING","trainingInput":{"workerCount":"2"},"etag":"e1"})");
        ApiClient client(server.url(), "secret-token");
        client.setProject(QStringLiteral("proj"));
        const ApiResult<Job> r = client.getJobBlocking(QStringLiteral("j1"));
        QVERIFY2(r.ok(), qPrintable(r.error.summary()));
        QCOMPARE(r.value.jobId, QStringLiteral("j1"));
        QVERIFY(r.value.trainingInput.workerCount == std::optional<qint64>(2));
        QCOMPARE(server.requests.size(), 1);
        QVERIFY(server.requests.first().startsWith("GET /v1/projects/proj/jobs/j1 HTTP/1.1"));
        QVERIFY(server.requests.first().contains("Authorization: Bearer secret-token"));
    }

    void listQuery()
    {
        ScriptedServer server;
        QVERIFY(server.listen());
        server.response = httpResponse(200, "OK", "application/json",
            R"({"jobs":[{"jobId":"a","trainingInput":{}},{"jobId":"b","trainingInput":{}}],"nextPageToken":"t2"})");
        ApiClient client(server.url(), "t");
        const ApiResult<JobPage> r
            = client.listJobsBlocking(QStringLiteral("jobId:a* AND state:FAILED"), 5, QStringLiteral("t1"));
        QVERIFY(r.ok());
        QCOMPARE(r.value.jobs.size(), 2);
        QCOMPARE(r.value.nextPageToken, QStringLiteral("t2"));
        const QByteArray line = server.requests.first().left(server.requests.first().indexOf("\r\n"));
        QVERIFY2(line.contains("filter=jobId%3Aa*%20AND%20state%3AFAILED")
                || line.contains("filter=jobId%3Aa%2A%20AND%20state%3AFAILED"),
            line.constData());
        QVERIFY(line.contains("pageSize=5"));
        QVERIFY(line.contains("pageToken=t1"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<int>("http");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QStringList>("fields");
        QTest::addRow("bad request with violations") << httpResponse(400, "Bad Request", "application/json",
            R"({"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT",)"
            R"("details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[)"
            R"({"field":"trainingInput.masterType","description":"required for CUSTOM"},)"
            R"({"field":"labels.Owner","description":"keys start with a lowercase letter"}]}]}})")
                                                     << 400 << QStringLiteral("INVALID_ARGUMENT")
                                                     << QStringLiteral("Request contains an invalid argument.")
                                                     << QStringList { QStringLiteral("trainingInput.masterType"),
                                                            QStringLiteral("labels.Owner") };
        QTest::addRow("not found") << httpResponse(404, "Not Found", "application/json",
            R"({"error":{"code":404,"message":"Field: name Error: The specified job does not exist","status":"NOT_FOUND"}})")
                                   << 404 << QStringLiteral("NOT_FOUND")
                                   << QStringLiteral("Field: name Error: The specified job does not exist")
                                   << QStringList {};
        QTest::addRow("plain text from a proxy")
            << httpResponse(502, "Bad Gateway", "text/plain", "upstream down") << 502 << QStringLiteral("INTERNAL")
            << QStringLiteral("Bad Gateway") << QStringList {};
        QTest::addRow("conflict without body")
            << httpResponse(409, "Conflict", "application/json", "") << 409 << QStringLiteral("ABORTED")
            << QStringLiteral("Conflict") << QStringList {};
    }

    void errors()
    {
        QFETCH(QByteArray, response);
        QFETCH(int, http);
        QFETCH(QString, status);
        QFETCH(QString, message);
        QFETCH(QStringList, fields);
        ScriptedServer server;
        QVERIFY(server.listen());
        server.response = response;
        ApiClient client(server.url(), "t");
        const ApiResult<Job> r = client.createJobBlocking(Job {});
        QVERIFY(!r.ok());
        QCOMPARE(r.error.httpStatus, http);
        QCOMPARE(r.error.status, status);
        QCOMPARE(r.error.message, message);
        QStringList got;
        for (const FieldViolation& v : r.error.violations)
            got << v.field;
        QCOMPARE(got, fields);
        QVERIFY(server.requests.first().startsWith("POST /v1/projects/local/jobs "));
    }

    void unreachable()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        const quint16 port = closed.serverPort();
        closed.close();
        ApiClient client(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), "t");
        const ApiResult<HostStatus> r = client.hostBlocking();
        QCOMPARE(r.error.httpStatus, 0);
        QCOMPARE(r.error.status, QStringLiteral("UNAVAILABLE"));
    }

    void logStream_data()
    {
        QTest::addColumn<int>("chunk");
        QTest::addColumn<QByteArray>("newline");
        for (int chunk : { 0, 1, 2, 3, 5, 7, 13, 64 }) {
            QTest::addRow("lf, %d-byte reads", chunk) << chunk << QByteArray("\n");
            QTest::addRow("crlf, %d-byte reads", chunk) << chunk << QByteArray("\r\n");
        }
    }

    void logStream()
    {
        QFETCH(int, chunk);
        QFETCH(QByteArray, newline);
        QByteArray body = ": following j1" + newline + newline;
        for (int i = 0; i < 5; ++i) {
            body += "data: {\"timestamp\":\"2026-11-22T05:04:43.00012" + QByteArray::number(i)
                + "Z\",\"severity\":\"INFO\",\"taskName\":\"worker-replica-" + QByteArray::number(i % 2)
                + "\",\"trialId\":\"\",\"message\":\"line " + QByteArray::number(i) + " \\u00e9\"}" + newline + newline;
            if (i == 2)
                body += ": keepalive" + newline + newline;
        }
        body += "event: end" + newline + "data: {\"state\":\"SUCCEEDED\"}" + newline + newline;
        ScriptedServer server;
        QVERIFY(server.listen());
        server.chunk = chunk;
        server.response = httpResponse(200, "OK", "text/event-stream", body);
        ApiClient client(server.url(), "t");
        std::unique_ptr<ApiStream> stream(client.followLogs(QStringLiteral("j1"), QStringLiteral("worker-replica-0")));
        QList<LogEntry> lines;
        connect(stream.get(), &ApiStream::logEntries, this, [&](const QList<LogEntry>& batch) { lines += batch; });
        QSignalSpy ended(stream.get(), &ApiStream::ended);
        QSignalSpy failed(stream.get(), &ApiStream::failed);
        QSignalSpy finished(stream.get(), &ApiStream::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(failed.size(), 0);
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended.first().first().value<JobState>(), JobState::Succeeded);
        QCOMPARE(lines.size(), 5);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(lines.at(i).message, QStringLiteral("line %1 \u00e9").arg(i));
            QCOMPARE(lines.at(i).taskName, QStringLiteral("worker-replica-%1").arg(i % 2));
            // Microseconds survive (QDateTime alone keeps milliseconds).
            QCOMPARE(lines.at(i).timestampUs % 1000000, qint64(120 + i));
        }
        QVERIFY(server.requests.first().contains("follow=true"));
        QVERIFY(server.requests.first().contains("taskName=worker-replica-0"));
        QVERIFY(server.requests.first().contains("Accept: text/event-stream"));
    }

    void eventStream()
    {
        const QByteArray body
            = ": following j1\n\n"
              "event: job\ndata: {\"jobId\":\"j1\",\"state\":\"RUNNING\",\"trainingInput\":{}}\n\n"
              "event: replicas\ndata: {\"replicas\":[{\"taskName\":\"master-replica-0\",\"role\":\"master\","
              "\"index\":0,\"state\":\"RUNNING\",\"pid\":\"4242\",\"gpus\":[0,1],\"restarts\":1,"
              "\"exitSignal\":9}]}\n\n"
              "event: job\ndata: {\"jobId\":\"j1\",\"state\":\"SUCCEEDED\",\"trainingInput\":{}}\n\n"
              "event: end\ndata: {\"state\":\"SUCCEEDED\"}\n\n";
        ScriptedServer server;
        QVERIFY(server.listen());
        server.chunk = 9;
        server.response = httpResponse(200, "OK", "text/event-stream", body);
        ApiClient client(server.url(), "t");
        std::unique_ptr<ApiStream> stream(client.followEvents(QStringLiteral("j1")));
        QSignalSpy jobs(stream.get(), &ApiStream::jobChanged);
        QSignalSpy replicas(stream.get(), &ApiStream::replicasChanged);
        QSignalSpy finished(stream.get(), &ApiStream::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(jobs.size(), 2);
        QCOMPARE(jobs.last().first().value<Job>().state, JobState::Succeeded);
        QCOMPARE(replicas.size(), 1);
        QCOMPARE(replicas.first().at(0).toString(), QStringLiteral("j1"));
        const auto list = replicas.first().at(1).value<QList<ReplicaInfo>>();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().state, ReplicaState::Running);
        QCOMPARE(list.first().pid, qint64(4242));
        QCOMPARE(list.first().gpus, (QList<int> { 0, 1 }));
        QVERIFY(list.first().exitSignal == std::optional<int>(9));
        QVERIFY(!list.first().exitCode.has_value());
        QVERIFY(server.requests.first().startsWith("GET /v1/projects/local/jobs/j1:events?follow=true "));
    }

    void replicaStates_data()
    {
        QTest::addColumn<ReplicaState>("state");
        QTest::addColumn<QString>("name");
        QTest::addRow("unspecified") << ReplicaState::Unspecified << QStringLiteral("STATE_UNSPECIFIED");
        QTest::addRow("pending") << ReplicaState::Pending << QStringLiteral("PENDING");
        QTest::addRow("starting") << ReplicaState::Starting << QStringLiteral("STARTING");
        QTest::addRow("running") << ReplicaState::Running << QStringLiteral("RUNNING");
        QTest::addRow("restarting") << ReplicaState::Restarting << QStringLiteral("RESTARTING");
        QTest::addRow("succeeded") << ReplicaState::Succeeded << QStringLiteral("SUCCEEDED");
        QTest::addRow("failed") << ReplicaState::Failed << QStringLiteral("FAILED");
        QTest::addRow("stopped") << ReplicaState::Stopped << QStringLiteral("STOPPED");
    }

    void replicaStates()
    {
        // The replica codec is the executor's and the client's: the state travels by name, both ways.
        QFETCH(ReplicaState, state);
        QFETCH(QString, name);
        QCOMPARE(replicaStateName(state), name);
        QCOMPARE(replicaStateFromName(name), std::optional<ReplicaState>(state));
        ReplicaInfo r;
        r.taskName = QStringLiteral("worker-replica-1");
        r.role = QStringLiteral("worker");
        r.index = 1;
        r.state = state;
        QVERIFY(!r.toJson().contains(QLatin1String("startTime")));
        r.startTime = QDateTime::fromString(QStringLiteral("2026-11-24T20:58:40.123Z"), Qt::ISODateWithMs);
        const QJsonObject json = r.toJson();
        QCOMPARE(json.value(QLatin1String("state")), QJsonValue(name));
        QCOMPARE(json.value(QLatin1String("startTime")), QJsonValue(QStringLiteral("2026-11-24T20:58:40.123Z")));
        FieldViolations violations;
        QCOMPARE(ReplicaInfo::fromJson(json, &violations), r);
        QVERIFY(violations.isEmpty());
    }

    void unknownReplicaStateIsReported_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addRow("newer") << QStringLiteral("HIBERNATING");
        QTest::addRow("a job state") << QStringLiteral("CANCELLED");
        QTest::addRow("lower case") << QStringLiteral("running");
        QTest::addRow("absent") << QString();
    }

    void unknownReplicaStateIsReported()
    {
        // A state this client does not know (a newer executor's) keeps the replica, as Unspecified, and says so:
        // a violation from the codec, a warning from the client.
        QFETCH(QString, name);
        QVERIFY(!replicaStateFromName(name));
        QJsonObject replica { { QStringLiteral("taskName"), QStringLiteral("master-replica-0") },
            { QStringLiteral("role"), QStringLiteral("master") } };
        if (!name.isNull())
            replica.insert(QStringLiteral("state"), name);
        FieldViolations violations;
        QCOMPARE(ReplicaInfo::fromJson(replica, &violations).state, ReplicaState::Unspecified);
        QCOMPARE(violations.size(), 1);
        QCOMPARE(violations.first().field, QStringLiteral("state"));
        QVERIFY2(violations.first().description.contains(QLatin1Char('"') + name + QLatin1Char('"')),
            qPrintable(violations.first().description));

        const QByteArray body = ": following j1\n\n"
                                "event: replicas\ndata: "
            + QJsonDocument(QJsonObject { { QStringLiteral("replicas"), QJsonArray { replica } } })
                  .toJson(QJsonDocument::Compact)
            + "\n\nevent: end\ndata: {\"state\":\"SHELVED\"}\n\n";
        ScriptedServer server;
        QVERIFY(server.listen());
        server.response = httpResponse(200, "OK", "text/event-stream", body);
        ApiClient client(server.url(), "t");
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^replicas\\[0\\]\\.state: ")));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("unknown job state.*SHELVED")));
        std::unique_ptr<ApiStream> stream(client.followEvents(QStringLiteral("j1")));
        QSignalSpy replicas(stream.get(), &ApiStream::replicasChanged);
        QSignalSpy ended(stream.get(), &ApiStream::ended);
        QSignalSpy finished(stream.get(), &ApiStream::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(replicas.size(), 1);
        const auto list = replicas.first().at(1).value<QList<ReplicaInfo>>();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().taskName, QStringLiteral("master-replica-0"));
        QCOMPARE(list.first().state, ReplicaState::Unspecified);
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended.first().first().value<JobState>(), JobState::StateUnspecified);
    }

    void streamClosedEarlyFails()
    {
        ScriptedServer server;
        QVERIFY(server.listen());
        server.response = httpResponse(200, "OK", "text/event-stream", "data: {\"message\":\"x\"}\n\n");
        ApiClient client(server.url(), "t");
        std::unique_ptr<ApiStream> stream(client.followLogs(QStringLiteral("j1")));
        QSignalSpy failed(stream.get(), &ApiStream::failed);
        QSignalSpy finished(stream.get(), &ApiStream::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.first().first().value<ApiError>().status, QStringLiteral("UNAVAILABLE"));
    }

    void streamHttpError()
    {
        ScriptedServer server;
        QVERIFY(server.listen());
        server.response = httpResponse(401, "Unauthorized", "application/json",
            R"({"error":{"code":401,"message":"missing token","status":"UNAUTHENTICATED"}})");
        ApiClient client(server.url(), "t");
        std::unique_ptr<ApiStream> stream(client.followLogs(QStringLiteral("j1")));
        QSignalSpy failed(stream.get(), &ApiStream::failed);
        QSignalSpy logs(stream.get(), &ApiStream::logEntries);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 20000);
        QCOMPARE(failed.first().first().value<ApiError>().status, QStringLiteral("UNAUTHENTICATED"));
        QCOMPARE(failed.first().first().value<ApiError>().message, QStringLiteral("missing token"));
        QCOMPARE(logs.size(), 0);
    }

    /// Streams hold their connections for as long as they live: more than one manager's 6 open at once (the console's
    /// job list, a job's events, logs, resume lines and metrics, the runs compared with it, the models), and an
    /// ordinary request still goes through.
    void manyStreamsDoNotQueue()
    {
        using Server = Test::FakeHttpServer;
        Server server([](const Server::Request& r) {
            Server::Response response;
            if (r.query.queryItemValue(QStringLiteral("follow")) == QLatin1String("true"))
                response.action = Server::Response::Action::Hang; // a stream that is open and quiet
            else
                response.body = "{\"jobId\":\"j1\",\"state\":\"RUNNING\"}";
            return response;
        });
        ApiClient client(server.url(), "t");
        std::vector<std::unique_ptr<ApiStream>> streams;
        for (int i = 0; i < 9; ++i)
            streams.emplace_back(client.followLogs(QStringLiteral("j%1").arg(i)));
        // Every stream reached the server (with one manager the last three waited for a free connection).
        QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 9, 10000);
        const ApiResult<Job> job = client.getJobBlocking(QStringLiteral("j1"));
        QVERIFY2(job.ok(), qPrintable(job.error.message));
        QCOMPARE(job.value.state, JobState::Running);
        // Closed streams free their connections for the next ones.
        streams.clear();
        for (int i = 0; i < 6; ++i)
            streams.emplace_back(client.followLogs(QStringLiteral("k%1").arg(i)));
        QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 16, 10000);
    }

    void contextDestroyedDropsCallback()
    {
        ScriptedServer server;
        QVERIFY(server.listen());
        server.chunk = 4;
        server.response = httpResponse(200, "OK", "application/json", R"({"cpus":4})");
        ApiClient client(server.url(), "t");
        auto context = std::make_unique<QObject>();
        bool called = false;
        client.host(context.get(), [&](const HostStatus&, const ApiError&) { called = true; });
        context.reset();
        bool secondCalled = false;
        QObject other;
        client.host(&other, [&](const HostStatus& h, const ApiError&) { secondCalled = h.cpus == 4; });
        QTRY_VERIFY_WITH_TIMEOUT(secondCalled, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(server.requests.size(), 2, 20000);
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(TestApiClient)
#include "tst_apiclient.moc"
