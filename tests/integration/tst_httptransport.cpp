// SPDX-License-Identifier: GPL-2.0-or-later
// The executor's HTTP transport (HttpApi::bind(), app/executor/api/httpconnection.h) over real loopback sockets,
// spoken to as an attacker would (tests/support/rawhttp.h): timeouts of heads, bodies and idle connections,
// `Connection: close`, pipelining in order, Content-Length + Transfer-Encoding smuggling, malformed heads, the
// limits on connections and streams with 429 RESOURCE_EXHAUSTED, and a thousand hostile requests mixed with valid
// traffic. The timeouts are set short (TransportOptions) so that nothing waits the real ones; every wait is for a
// condition with a bound, and no assertion is on time.
#include "executorenvironment.h"
#include "httpapi.h"
#include "httpchannel.h"
#include "jobstore.h"
#include "logstore.h"
#include "machinecatalog.h"
#include "rawhttp.h"
#include "scheduler.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

using namespace Trainyard;
using Test::RawAnswer;
using Test::RawHttpConnection;

namespace {

const QByteArray Token = "transport-token";
/// The short timeouts of these tests (ms): long enough for a loaded machine to read a head sent at once.
constexpr int ShortTimeoutMs = 500;
/// The bound on every wait for an answer or a close (ms).
constexpr int WaitMs = 15000;

QByteArray get(const QByteArray& target, const QByteArray& extra = {})
{
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + Token + "\r\n" + extra + "\r\n";
}

/// The google.rpc status name of an error answer ("RESOURCE_EXHAUSTED"); empty when it is not one.
QString errorStatus(const RawAnswer& answer)
{
    return QJsonDocument::fromJson(answer.body)
        .object()
        .value(QStringLiteral("error"))
        .toObject()
        .value(QStringLiteral("status"))
        .toString();
}

} // namespace

class TestHttpTransport : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<JobStore> m_store;
    std::unique_ptr<LogStore> m_logs;
    std::unique_ptr<Scheduler> m_scheduler;
    std::unique_ptr<HttpApi> m_api;
    QTcpServer* m_server = nullptr;

    quint16 port() const { return m_server->serverPort(); }

    /// Runs `client` (blocking socket code) on its own thread while this thread's event loop serves it.
    void runClient(const std::function<void()>& client, int timeoutMs = 120000)
    {
        std::atomic<bool> done { false };
        std::thread thread([&] {
            client();
            done = true;
        });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(done.load(), timeoutMs); }();
        if (!done.load()) {
            // The client's waits are all bounded: it ends; the event loop must keep serving until then.
            QTRY_VERIFY_WITH_TIMEOUT(done.load(), 600000);
        }
        thread.join();
    }

    static HttpApi::TransportOptions shortTimeouts()
    {
        HttpApi::TransportOptions options;
        options.headerTimeoutMs = ShortTimeoutMs;
        options.bodyTimeoutMs = ShortTimeoutMs;
        options.idleTimeoutMs = ShortTimeoutMs;
        options.lingerMs = ShortTimeoutMs;
        return options;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(Test::isolateExecutorEnvironment(m_dir));
        const QString dataDir = m_dir.filePath(QStringLiteral("data/trainyard"));
        QVERIFY(QDir().mkpath(dataDir));
        m_store = std::make_unique<JobStore>();
        QString error;
        QVERIFY2(m_store->open(dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        m_logs = std::make_unique<LogStore>(dataDir);
        HostInventory host;
        host.cpus = 4;
        host.memoryBytes = 1LL << 34;
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), host, dataDir);
        m_api = std::make_unique<HttpApi>(m_store.get(), m_logs.get(), m_scheduler.get(), host, Token);
        m_server = new QTcpServer(m_api.get());
        QVERIFY(m_server->listen(QHostAddress::LocalHost, 0));
        m_api->bind(m_server);
    }

    void init() { m_api->setTransportOptions(shortTimeouts()); }

    void cleanup()
    {
        // Whatever a test left open is closed by its timeouts: no connection outlives them.
        m_api->closeStreams();
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openConnections(), 0, WaitMs);
    }

    /// A chunk built in place (HttpChannel::chunkHead(), finishChunk()) frames its payload as chunk() does: the size
    /// zero-padded to eight hex digits; an empty one is empty (a zero-size chunk would end the answer).
    void chunkFraming()
    {
        const QByteArray payload = QByteArray("data: {\"x\":1}\n\n").repeated(1000);
        QByteArray built = HttpChannel::chunkHead();
        built += payload;
        const HttpChannel::Chunk inPlace = HttpChannel::finishChunk(built);
        QCOMPARE(payload.size(), 15000); // 0x3a98
        QCOMPARE(inPlace.framed, QByteArray("00003a98\r\n") + payload + "\r\n");
        QCOMPARE(inPlace.payload(), payload);
        QCOMPARE(inPlace.payloadSize, payload.size());
        QCOMPARE(HttpChannel::chunk(payload).payload(), payload);
        QCOMPARE(HttpChannel::chunk(payload).framed, inPlace.framed);
        QVERIFY(HttpChannel::finishChunk(HttpChannel::chunkHead()).isEmpty());
        QVERIFY(HttpChannel::chunk(QByteArray()).isEmpty());
    }

    void defaultsAreDocumented()
    {
        // API.md ("Connections, timeouts and limits") gives these numbers.
        const HttpApi::TransportOptions defaults;
        QCOMPARE(defaults.headerTimeoutMs, 10000);
        QCOMPARE(defaults.bodyTimeoutMs, 30000);
        QCOMPARE(defaults.idleTimeoutMs, 30000);
        QCOMPARE(defaults.maxHeaderBytes, 64 * 1024);
        QCOMPARE(defaults.maxConnectionsPerAddress, 500);
        QCOMPARE(defaults.maxConnections, 1000);
        QCOMPARE(defaults.maxStreamsPerPrincipal, 500);
    }

    void timeouts_data()
    {
        QTest::addColumn<QByteArray>("sent");
        QTest::addColumn<bool>("answered"); // a 408 comes before the close
        QTest::addRow("silent connection") << QByteArray() << false;
        QTest::addRow("half a request line") << QByteArray("GET /v1/projects/local/ho") << true;
        QTest::addRow("head without its end")
            << QByteArray("GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\n") << true;
        QTest::addRow("unfinished body") << QByteArray(
            "POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + Token
            + "\r\nContent-Length: 100\r\n\r\n{\"jobId\":")
                                         << true;
    }

    void timeouts()
    {
        QFETCH(QByteArray, sent);
        QFETCH(bool, answered);
        std::optional<RawAnswer> answer;
        bool closed = false;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(sent);
            answer = c.readAnswer(WaitMs);
            closed = c.waitClosed(WaitMs);
        });
        QVERIFY(closed);
        QCOMPARE(answer.has_value(), answered);
        if (answered) {
            QCOMPARE(answer->status, 408);
            QCOMPARE(errorStatus(*answer), QStringLiteral("DEADLINE_EXCEEDED"));
            QCOMPARE(answer->header("connection"), QByteArray("close"));
        }
    }

    void slowlorisCannotExtendTheHead()
    {
        // A byte at a time, each well within the header timeout: the head's deadline is not moved by them.
        std::optional<RawAnswer> answer;
        bool closed = false;
        int bytes = 0;
        runClient([&] {
            RawHttpConnection c(port());
            c.send("GET /v1/projects/local/host HTTP/1.1\r\n");
            while (!c.isClosedNow() && bytes < 100000) {
                if (!c.send("X"))
                    break;
                ++bytes;
                if (c.waitClosed(ShortTimeoutMs / 10))
                    break;
            }
            closed = c.waitClosed(WaitMs);
            answer = c.readAnswer(0);
        });
        QVERIFY(closed);
        QVERIFY2(bytes < 100000, "the drip was never cut off");
        // The 408 may be lost when the server's close overtakes it while the client still writes; when it came,
        // it is the timeout's.
        if (answer)
            QCOMPARE(answer->status, 408);
    }

    void idleKeepAliveIsClosed()
    {
        std::optional<RawAnswer> first;
        bool closed = false;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(get("/v1/projects/local/host"));
            first = c.readAnswer(WaitMs);
            closed = c.waitClosed(WaitMs);
        });
        QVERIFY(first);
        QCOMPARE(first->status, 200);
        QVERIFY(first->header("connection").isEmpty()); // kept alive…
        QVERIFY(closed); // …until idle for the idle timeout
    }

    void connectionCloseIsHonoured_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addRow("Connection: close") << get("/v1/projects/local/host", "Connection: close\r\n");
        QTest::addRow("Connection: TE, Close") << get("/v1/projects/local/host", "Connection: TE, Close\r\n");
        QTest::addRow("HTTP/1.0") << QByteArray(
            "GET /v1/projects/local/host HTTP/1.0\r\nAuthorization: Bearer " + Token + "\r\n\r\n");
    }

    void connectionCloseIsHonoured()
    {
        QFETCH(QByteArray, request);
        m_api->setTransportOptions({}); // the real timeouts: only the answer may close it
        std::optional<RawAnswer> answer;
        std::optional<RawAnswer> second;
        bool closed = false;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(request + request);
            answer = c.readAnswer(WaitMs);
            closed = c.waitClosed(WaitMs);
            second = c.readAnswer(0);
        });
        QVERIFY(answer);
        QCOMPARE(answer->status, 200);
        QCOMPARE(answer->header("connection"), QByteArray("close"));
        QVERIFY(closed);
        QVERIFY(!second); // the request behind it is not read
    }

    void pipelinedRequestsAreAnsweredInOrder()
    {
        // Fifty requests in one write: answers found and not found, with and without a token, each naming its own
        // request, in order, on the one connection.
        constexpr int Count = 50;
        QByteArray burst;
        for (int i = 0; i < Count; ++i) {
            const QByteArray target = "/v1/projects/local/jobs/piped_" + QByteArray::number(i);
            burst += i % 5 == 4 ? "GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n" : get(target);
        }
        burst += get("/v1/projects/local/host", "Connection: close\r\n");
        QList<RawAnswer> answers;
        bool closed = false;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(burst);
            while (std::optional<RawAnswer> answer = c.readAnswer(WaitMs))
                answers.append(*answer);
            closed = c.waitClosed(WaitMs);
        });
        QCOMPARE(answers.size(), Count + 1);
        for (int i = 0; i < Count; ++i) {
            if (i % 5 == 4) {
                QCOMPARE(answers.at(i).status, 401);
            } else {
                QCOMPARE(answers.at(i).status, 404);
                const QByteArray name = "/jobs/piped_" + QByteArray::number(i) + '.';
                QVERIFY2(answers.at(i).body.contains(name), answers.at(i).body.constData());
            }
        }
        QCOMPARE(answers.last().status, 200);
        QVERIFY(closed);
    }

    void smugglingIsRefused_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("status");
        const QByteArray post
            = "POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + Token + "\r\n";
        QTest::addRow("Content-Length then Transfer-Encoding")
            << post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            << 400;
        QTest::addRow("Transfer-Encoding then Content-Length")
            << post + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"
            << 400;
        QTest::addRow("Transfer-Encoding alone") << post + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" << 411;
        QTest::addRow("two Content-Lengths") << post + "Content-Length: 5\r\nContent-Length: 0\r\n\r\n" << 400;
        QTest::addRow("a Content-Length list") << post + "Content-Length: 0, 5\r\n\r\n" << 400;
    }

    void smugglingIsRefused()
    {
        // The smuggled request behind the first must never be answered: the connection is closed after the 400.
        QFETCH(QByteArray, head);
        QFETCH(int, status);
        m_api->setTransportOptions({});
        QList<RawAnswer> answers;
        bool closed = false;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(head + get("/v1/projects/local/host"));
            while (std::optional<RawAnswer> answer = c.readAnswer(WaitMs))
                answers.append(*answer);
            closed = c.waitClosed(WaitMs);
        });
        QCOMPARE(answers.size(), 1);
        QCOMPARE(answers.first().status, status);
        QCOMPARE(errorStatus(answers.first()), QStringLiteral("INVALID_ARGUMENT"));
        QCOMPARE(answers.first().header("connection"), QByteArray("close"));
        QVERIFY(closed);
    }

    void malformedHeads_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        const QByteArray auth = "Authorization: Bearer " + Token + "\r\n";
        QTest::addRow("garbage") << QByteArray("GARBAGE\r\n\r\n") << 400;
        QTest::addRow("unknown version") << QByteArray("GET / HTTP/9.9\r\nHost: a\r\n\r\n") << 400;
        QTest::addRow("lower-case version") << QByteArray("GET / http/1.1\r\nHost: a\r\n\r\n") << 400;
        QTest::addRow("two spaces") << QByteArray("GET  / HTTP/1.1\r\nHost: a\r\n\r\n") << 400;
        QTest::addRow("absolute form") << QByteArray("GET http://a/v1 HTTP/1.1\r\nHost: a\r\n\r\n") << 400;
        QTest::addRow("asterisk form") << QByteArray("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n") << 400;
        QTest::addRow("non-ASCII target") << QByteArray("GET /v1/\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n") << 400;
        QTest::addRow("NUL in the line") << QByteArray("GET /v1\0/x HTTP/1.1\r\nHost: a\r\n\r\n", 36) << 400;
        QTest::addRow("no Host") << QByteArray("GET /v1/projects/local/host HTTP/1.1\r\n" + auth + "\r\n") << 400;
        QTest::addRow("two Hosts") << QByteArray("GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
                                   << 400;
        QTest::addRow("space before colon") << QByteArray("GET / HTTP/1.1\r\nHost : a\r\n\r\n") << 400;
        QTest::addRow("folded header") << QByteArray("GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n") << 400;
        QTest::addRow("control character") << QByteArray("GET / HTTP/1.1\r\nHost: a\r\nX-A: \x01\r\n\r\n") << 400;
        QTest::addRow("bare CR") << QByteArray("GET / HTTP/1.1\r\nHost: a\rX-A: b\r\n\r\n") << 400;
        QTest::addRow("empty header name") << QByteArray("GET / HTTP/1.1\r\nHost: a\r\n: b\r\n\r\n") << 400;
        QTest::addRow("head too large") << QByteArray(
            "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + QByteArray(70 * 1024, 'a') + "\r\n\r\n")
                                        << 431;
        QByteArray many = "GET / HTTP/1.1\r\nHost: a\r\n";
        for (int i = 0; i < 150; ++i)
            many += "X-" + QByteArray::number(i) + ": v\r\n";
        QTest::addRow("too many headers") << many + "\r\n" << 431;
        QTest::addRow("body too large") << QByteArray(
            "POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\n" + auth + "Content-Length: 5000000\r\n\r\n{}")
                                        << 413;
        QTest::addRow("Content-Length overflow") << QByteArray("POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\n"
            + auth + "Content-Length: 99999999999999999999999\r\n\r\n{}")
                                                 << 413;
        QTest::addRow("Content-Length not a number")
            << QByteArray("POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n") << 400;
        QTest::addRow("unknown expectation") << QByteArray(
            "POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n"
            "Content-Length: 2\r\n\r\n{}") << 417;
    }

    void malformedHeads()
    {
        // Every malformed request gets its 4xx in Google's error shape, and the connection is closed.
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        m_api->setTransportOptions({});
        std::optional<RawAnswer> answer;
        bool closed = false;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(request);
            answer = c.readAnswer(WaitMs);
            closed = c.waitClosed(WaitMs);
        });
        QVERIFY(answer);
        QCOMPARE(answer->status, status);
        QVERIFY2(!errorStatus(*answer).isEmpty(), answer->body.constData());
        QVERIFY(closed);
    }

    void expectContinue()
    {
        // curl sends "Expect: 100-continue" before bodies over 1 KiB and waits for the interim answer.
        const QByteArray body(2000, ' ');
        std::optional<RawAnswer> answer;
        runClient([&] {
            RawHttpConnection c(port());
            c.send("POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + Token
                + "\r\nExpect: 100-continue\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n");
            // The interim answer comes first (readAnswer skips 1xx, so look at the raw bytes).
            const QByteArray interim = "HTTP/1.1 100 Continue\r\n\r\n";
            if (!c.waitForBytes(interim.size(), WaitMs) || !c.pending().startsWith(interim))
                return;
            c.send(body);
            answer = c.readAnswer(WaitMs);
        });
        QVERIFY(answer);
        QCOMPARE(answer->status, 400); // an empty document is not a Job
    }

    void connectionLimits()
    {
        HttpApi::TransportOptions options = shortTimeouts();
        options.idleTimeoutMs = 60000; // the held connections stay until closed here
        options.maxConnectionsPerAddress = 4;
        m_api->setTransportOptions(options);
        int served = 0;
        std::optional<RawAnswer> refused;
        bool refusedClosed = false;
        std::vector<std::unique_ptr<RawHttpConnection>> held;
        runClient([&] {
            for (int i = 0; i < 4; ++i) {
                held.push_back(std::make_unique<RawHttpConnection>(port()));
                held.back()->send(get("/v1/projects/local/host"));
                if (std::optional<RawAnswer> a = held.back()->readAnswer(WaitMs); a && a->status == 200)
                    ++served;
            }
            RawHttpConnection over(port());
            over.send(get("/v1/projects/local/host"));
            refused = over.readAnswer(WaitMs);
            refusedClosed = over.waitClosed(WaitMs);
        });
        QCOMPARE(served, 4);
        QVERIFY(refused);
        QCOMPARE(refused->status, 429);
        QCOMPARE(errorStatus(*refused), QStringLiteral("RESOURCE_EXHAUSTED"));
        QVERIFY(refusedClosed);
        // One closed: the next one is served.
        held.pop_back();
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openConnections(), 3, WaitMs);
        std::optional<RawAnswer> afterOneClosed;
        runClient([&] {
            RawHttpConnection again(port());
            again.send(get("/v1/projects/local/host"));
            afterOneClosed = again.readAnswer(WaitMs);
        });
        QVERIFY(afterOneClosed);
        QCOMPARE(afterOneClosed->status, 200);
        held.clear();

        options.maxConnectionsPerAddress = 500;
        options.maxConnections = 2;
        m_api->setTransportOptions(options);
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openConnections(), 0, WaitMs);
        std::optional<RawAnswer> overTotal;
        runClient([&] {
            RawHttpConnection a(port());
            RawHttpConnection b(port());
            a.send(get("/v1/projects/local/host"));
            b.send(get("/v1/projects/local/host"));
            if (!a.readAnswer(WaitMs) || !b.readAnswer(WaitMs))
                return;
            RawHttpConnection c(port());
            c.send(get("/v1/projects/local/host"));
            overTotal = c.readAnswer(WaitMs);
        });
        QVERIFY(overTotal);
        QCOMPARE(overTotal->status, 429);
        QCOMPARE(errorStatus(*overTotal), QStringLiteral("RESOURCE_EXHAUSTED"));
    }

    void streamsPerPrincipalAndNoTimeoutWhileStreaming()
    {
        HttpApi::TransportOptions options = shortTimeouts();
        options.maxStreamsPerPrincipal = 2;
        m_api->setTransportOptions(options);
        std::atomic<bool> streamsOpen { false };
        std::atomic<bool> release { false };
        std::atomic<bool> abandon { false }; // a failed check below returns early: the client must end first
        std::optional<RawAnswer> third;
        bool silentClosed = false;
        bool streamsSurvived = false;
        QByteArray streamHead;
        std::thread client([&] {
            RawHttpConnection s1(port());
            RawHttpConnection s2(port());
            s1.send(get("/v1/projects/local/jobs?follow=true"));
            s2.send(get("/v1/projects/local/jobs?follow=true"));
            streamsOpen = true;
            while (!release.load() && !abandon.load())
                s1.waitForBytes(1 << 30, 10);
            RawHttpConnection s3(port());
            s3.send(get("/v1/projects/local/jobs?follow=true"));
            third = s3.readAnswer(WaitMs);
            // A connection opened now and never used is closed by the header timeout; the streams, older than
            // it, are still open then: streams have no timeout while they are written to.
            RawHttpConnection silent(port());
            silentClosed = silent.waitClosed(WaitMs);
            streamsSurvived = !s1.isClosedNow() && !s2.isClosedNow();
            streamHead = s1.pending().left(s1.pending().indexOf("\r\n\r\n"));
            release = false;
            while (!release.load() && !abandon.load())
                s1.waitForBytes(1 << 30, 10);
        });
        auto joinClient = qScopeGuard([&] {
            abandon = true;
            if (client.joinable())
                client.join();
        });
        QTRY_VERIFY_WITH_TIMEOUT(streamsOpen.load(), WaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openStreams(), 2, WaitMs);
        // Streams count per principal: the token file's holder here (API.md, "Access control").
        QCOMPARE(m_api->openStreams(m_api->adminMember()), 2);
        release = true;
        QTRY_VERIFY_WITH_TIMEOUT(!release.load(), WaitMs * 3);
        QCOMPARE(m_api->openStreams(), 2);
        release = true;
        client.join();
        joinClient.dismiss();
        QVERIFY(third);
        QCOMPARE(third->status, 429);
        QCOMPARE(errorStatus(*third), QStringLiteral("RESOURCE_EXHAUSTED"));
        QVERIFY(silentClosed);
        QVERIFY(streamsSurvived);
        QVERIFY2(streamHead.startsWith("HTTP/1.1 200"), streamHead.constData());
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openStreams(), 0, WaitMs);
    }

    /// Issue 26, item 9: idle connections without a token (from loopback, where every local client shares one
    /// address) no longer lock the console and trainyardctl out with 429: the oldest of them is closed to make room,
    /// and a connection that carried a valid token is never closed for another.
    void idleConnectionsWithoutATokenMakeRoom()
    {
        HttpApi::TransportOptions options = shortTimeouts();
        options.headerTimeoutMs = 60000; // the idle connections stay until closed to make room
        options.idleTimeoutMs = 60000;
        options.maxConnectionsPerAddress = 20;
        m_api->setTransportOptions(options);
        std::unique_ptr<RawHttpConnection> trusted;
        std::vector<std::unique_ptr<RawHttpConnection>> idle;
        std::optional<RawAnswer> first;
        runClient([&] {
            trusted = std::make_unique<RawHttpConnection>(port());
            trusted->send(get("/v1/projects/local/host"));
            first = trusted->readAnswer(WaitMs);
            for (int i = 0; i < 19; ++i)
                idle.push_back(std::make_unique<RawHttpConnection>(port()));
        });
        QVERIFY(first);
        QCOMPARE(first->status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openConnections(), 20, WaitMs);
        std::optional<RawAnswer> valid;
        std::optional<RawAnswer> again;
        bool oldestClosed = false;
        int othersOpen = 0;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(get("/v1/projects/local/host"));
            valid = c.readAnswer(WaitMs);
            trusted->send(get("/v1/projects/local/host"));
            again = trusted->readAnswer(WaitMs);
            oldestClosed = idle.front()->waitClosed(WaitMs);
            for (size_t i = 1; i < idle.size(); ++i)
                othersOpen += idle.at(i)->isClosedNow() ? 0 : 1;
        });
        QVERIFY(valid);
        QCOMPARE(valid->status, 200); // 429 before: the 20 connections were the address's limit
        QVERIFY(again);
        QCOMPARE(again->status, 200);
        QVERIFY(oldestClosed);
        QCOMPARE(othersOpen, 18);
        idle.clear();
        trusted.reset();
    }

    /// Issue 26, item 2: followers of the job list that never read hold little memory in the executor however
    /// large the list (before: each held the whole list, 40 of a 12.6 MB list took 336 MB), a valid request is
    /// answered meanwhile, a follower that reads gets every job then `synced` and the changes, and the memory is
    /// given back when they close.
    void nonReadingFollowersHoldLittle()
    {
        constexpr int Jobs = 200;
        constexpr int Followers = 10;
        for (int i = 0; i < Jobs; ++i) {
            Job job;
            job.jobId = QStringLiteral("big_%1").arg(i);
            job.trainingInput.scaleTier = QStringLiteral("BASIC");
            job.trainingInput.pythonModule = QStringLiteral("trainer.task");
            job.trainingInput.packageUris = { QStringLiteral("/nonexistent/pkg") };
            job.trainingInput.args = { QString(MaxJobArgsBytes - 64, QLatin1Char('a')) };
            job.state = JobState::Cancelled;
            QString error;
            QVERIFY2(m_store->insert(QStringLiteral("local"), job, &error), qPrintable(error));
        }
        const qint64 listBytes = qint64(Jobs) * MaxJobArgsBytes; // about 25 MiB: more than the kernel buffers
        HttpApi::TransportOptions options = shortTimeouts();
        options.idleTimeoutMs = 60000;
        m_api->setTransportOptions(options);
        std::vector<std::unique_ptr<RawHttpConnection>> followers;
        runClient([&] {
            for (int i = 0; i < Followers; ++i) {
                followers.push_back(std::make_unique<RawHttpConnection>(port()));
                followers.back()->send(get("/v1/projects/local/jobs?follow=true"));
            }
        });
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openStreams(), Followers, WaitMs);
        // Every follower has been written to until the kernel's buffers and then the executor's hold some of it.
        QTRY_VERIFY_WITH_TIMEOUT(m_api->bufferedBytes() >= Followers * 64 * 1024, WaitMs);
        // A valid request is answered meanwhile.
        std::optional<RawAnswer> valid;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(get("/v1/projects/local/jobs?pageSize=5"));
            valid = c.readAnswer(WaitMs);
        });
        QVERIFY(valid);
        QCOMPARE(valid->status, 200);
        // What the executor holds for them: a bounded amount each (256 KiB unread plus a job), not the list.
        const qint64 bound = Followers * (256 * 1024 + 2 * MaxJobArgsBytes);
        qInfo("%lld bytes held for %d followers of a %lld-byte job list that never read", m_api->bufferedBytes(),
            Followers, listBytes);
        QVERIFY2(m_api->bufferedBytes() <= bound,
            qPrintable(QStringLiteral("%1 bytes held for %2 followers of a %3-byte list; at most %4 expected")
                           .arg(m_api->bufferedBytes())
                           .arg(Followers)
                           .arg(listBytes)
                           .arg(bound)));
        // A follower that reads gets every job, then `synced`, then a change as it happens.
        int jobEvents = -1;
        QByteArray synced;
        std::atomic<bool> changeSeen { false };
        std::atomic<bool> snapshotRead { false };
        std::atomic<bool> changed { false };
        std::thread reader([&] {
            RawHttpConnection c(port());
            c.send(get("/v1/projects/local/jobs?follow=true"));
            while (!c.pending().contains("event: synced") && c.waitForBytes(c.pending().size() + 1, WaitMs)) { }
            const QByteArray text = c.pending();
            jobEvents = int(text.count("event: job\n"));
            synced = text.mid(text.indexOf("event: synced"), 200);
            snapshotRead = true;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(WaitMs);
            while (!changed.load() && std::chrono::steady_clock::now() < deadline)
                c.waitForBytes(c.pending().size() + 1, 10);
            while (!c.pending().contains("big_new") && c.waitForBytes(c.pending().size() + 1, WaitMs)) { }
            changeSeen = c.pending().contains("big_new");
        });
        auto joinReader = qScopeGuard([&] {
            changed = true;
            if (reader.joinable())
                reader.join();
        });
        QTRY_VERIFY_WITH_TIMEOUT(snapshotRead.load(), WaitMs * 8);
        Job added;
        added.jobId = QStringLiteral("big_new");
        added.trainingInput.scaleTier = QStringLiteral("BASIC");
        added.state = JobState::Cancelled;
        QString error;
        QVERIFY2(m_store->insert(QStringLiteral("local"), added, &error), qPrintable(error));
        changed = true;
        QTRY_VERIFY_WITH_TIMEOUT(changeSeen.load(), WaitMs);
        reader.join();
        QCOMPARE(jobEvents, Jobs);
        const QByteArray count = QByteArray("\"jobs\":\"") + QByteArray::number(Jobs) + QByteArray("\"");
        QVERIFY2(synced.contains(count), synced.constData());
        // Closed: what was held for them is given back.
        followers.clear();
        QTRY_COMPARE_WITH_TIMEOUT(m_api->openStreams(), 0, WaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_api->bufferedBytes(), qint64(0), WaitMs);
    }

    /// Issue 26, item 3: calls that change something are rationed per principal (429 with Retry-After past the
    /// burst), the refused ones included, so that no caller can grow the audit log without bound.
    void writesAreRationed()
    {
        HttpApi::TransportOptions options = shortTimeouts();
        options.writeBurst = 5;
        options.writesPerMinute = 1;
        m_api->setTransportOptions(options);
        QList<int> statuses;
        QByteArray retryAfter;
        runClient([&] {
            for (int i = 0; i < 7; ++i) {
                RawHttpConnection c(port());
                // Not a Job: refused with 400 — and still counted.
                c.send("POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + Token
                    + "\r\nContent-Length: 2\r\n\r\n{}");
                const std::optional<RawAnswer> a = c.readAnswer(WaitMs);
                statuses << (a ? a->status : 0);
                if (a && a->status == 429)
                    retryAfter = a->header("retry-after");
            }
        });
        QCOMPARE(statuses, (QList<int> { 400, 400, 400, 400, 400, 429, 429 }));
        QVERIFY(retryAfter.toInt() > 0);
        // Reads are not rationed.
        std::optional<RawAnswer> read;
        runClient([&] {
            RawHttpConnection c(port());
            c.send(get("/v1/projects/local/host"));
            read = c.readAnswer(WaitMs);
        });
        QVERIFY(read);
        QCOMPARE(read->status, 200);
        m_api->setTransportOptions(shortTimeouts());
    }

    void thousandHostileRequestsWithValidTraffic();
};

namespace {

/// One kind of hostile request: its bytes, and the answer it must get (a 4xx status; 0 = closed without one is
/// also right, for the slow ones that time out).
struct Hostile {
    const char* name;
    QByteArray bytes;
    int status; ///< the 4xx it must get
    int count = 1; ///< requests in `bytes` (a pipelined burst)
    bool held = false; ///< left open: the server must time it out
    bool closes = true; ///< the transport refuses it and closes the connection (else the API answers it)
};

QList<Hostile> hostileKinds()
{
    const QByteArray auth = "Authorization: Bearer " + Token + "\r\n";
    const QByteArray post = "POST /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\n" + auth;
    QByteArray many = "GET / HTTP/1.1\r\nHost: a\r\n";
    for (int i = 0; i < 120; ++i)
        many += "X-" + QByteArray::number(i) + ": v\r\n";
    QByteArray burst;
    for (int i = 0; i < 10; ++i)
        burst += "GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer wrong\r\n\r\n";
    return {
        { "garbage", "\x16\x03\x01\x02\x10\x01\x10\x01\xfc\x03\x03\r\n\r\n", 400 },
        { "bad version", "GET / HTTP/1.x\r\nHost: a\r\n\r\n", 400 },
        { "no Host", "GET /v1/projects/local/host HTTP/1.1\r\n" + auth + "\r\n", 400 },
        { "two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400 },
        { "space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400 },
        { "folded header", "GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n\tc\r\n\r\n", 400 },
        { "control character", "GET / HTTP/1.1\r\nHost: a\r\nX: \x7f\r\n\r\n", 400 },
        { "bare CR", "GET / HTTP/1.1\rHost: a\r\n\r\n", 400 },
        { "absolute form", "GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n", 400 },
        { "non-ASCII target", "GET /\xff\xfe HTTP/1.1\r\nHost: a\r\n\r\n", 400 },
        { "NUL", QByteArray("GET /\0 HTTP/1.1\r\nHost: a\r\n\r\n", 30), 400 },
        { "oversized head", "GET / HTTP/1.1\r\nHost: a\r\nX: " + QByteArray(70000, 'x') + "\r\n\r\n", 431 },
        { "too many headers", many + "\r\n", 431 },
        { "oversized body", post + "Content-Length: 4194305\r\n\r\n{", 413 },
        { "bad Content-Length", post + "Content-Length: 0x10\r\n\r\n", 400 },
        { "conflicting Content-Length", post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400 },
        { "CL+TE smuggling",
            post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + "GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n",
            400 },
        { "chunked body", post + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 411 },
        { "no token", "GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\n\r\n", 401, 1, false, false },
        { "wrong token", "GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer x\r\n\r\n", 401, 1,
            false, false },
        { "wrong scheme", "GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\nAuthorization: Basic eDp5\r\n\r\n", 401,
            1, false, false },
        { "traversal", "GET /v1/projects/local/jobs/..%2F..%2Fetc HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", 404, 1,
            false, false },
        { "unknown method", "BREW /v1/projects/local/jobs HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", 405, 1, false,
            false },
        { "bad expectation", post + "Expect: nothing\r\nContent-Length: 2\r\n\r\n{}", 417 },
        { "bad JSON", post + "Content-Length: 9\r\n\r\n{\"jobId\":", 400, 1, false, false },
        { "pipelined wrong tokens", burst, 401, 10, false, false },
        { "slowloris", "GET /v1/projects/local/host HTTP/1.1\r\nHost: a\r\nX-Slow: ", 408, 1, true },
        { "idle", QByteArray(), 0, 1, true },
        { "half-sent body", post + "Content-Length: 500\r\n\r\n{\"jobId\":\"x", 408, 1, true },
    };
}

} // namespace

void TestHttpTransport::thousandHostileRequestsWithValidTraffic()
{
    // About a thousand hostile requests, one connection each (a pipelined burst is ten), while a second client sends
    // valid requests all along. Every hostile request gets its 4xx or, for the slow ones, its 408 or a close; none
    // gets a 5xx; every valid request is answered 200; every held connection is closed by the server.
    // The valid client keeps its connections alive between requests: on a loaded machine a pause between two of
    // them must not meet the idle timeout (a keep-alive race that clients answer by retrying). The held connections
    // meet the header and body timeouts.
    HttpApi::TransportOptions options = shortTimeouts();
    options.idleTimeoutMs = 60000;
    m_api->setTransportOptions(options);
    const QList<Hostile> kinds = hostileKinds();
    std::atomic<bool> hostileDone { false };
    int hostileSent = 0;
    int hostileRight = 0;
    int fiveHundreds = 0;
    int unanswered = 0; ///< neither an answer nor a close
    QStringList wrong;
    QMap<int, int> byStatus;
    int heldClosed = 0;
    int heldTotal = 0;
    std::vector<std::unique_ptr<RawHttpConnection>> held;

    std::thread hostile([&] {
        for (int i = 0; hostileSent < 1000; ++i) {
            const Hostile& kind = kinds.at(i % kinds.size());
            auto c = std::make_unique<RawHttpConnection>(port());
            c->send(kind.bytes);
            hostileSent += kind.count;
            if (kind.held) {
                held.push_back(std::move(c));
                continue;
            }
            for (int r = 0; r < kind.count; ++r) {
                const std::optional<RawAnswer> answer = c->readAnswer(WaitMs);
                if (!answer) {
                    ++unanswered;
                    wrong << QString::fromLatin1(kind.name) + QStringLiteral(": no answer");
                    break;
                }
                ++byStatus[answer->status];
                if (answer->status >= 500)
                    ++fiveHundreds;
                if (answer->status == kind.status)
                    ++hostileRight;
                else
                    wrong << QStringLiteral("%1: %2").arg(QString::fromLatin1(kind.name)).arg(answer->status);
            }
            // What the transport refuses closes its connection after the answer; the API's own 4xx (401, 404, 405,
            // a body that is not a Job) keep it alive, and the client drops it.
            if (kind.closes && !c->waitClosed(WaitMs))
                wrong << QString::fromLatin1(kind.name) + QStringLiteral(": not closed");
        }
        for (const auto& c : held) {
            ++heldTotal;
            const std::optional<RawAnswer> answer = c->readAnswer(WaitMs);
            if (c->waitClosed(WaitMs))
                ++heldClosed;
            if (answer) {
                ++byStatus[answer->status];
                if (answer->status >= 500)
                    ++fiveHundreds;
            }
        }
        held.clear();
        hostileDone = true;
    });

    std::atomic<bool> validDone { false };
    int validSent = 0;
    int validOk = 0;
    QStringList validWrong;
    std::vector<double> latenciesMs;
    std::thread valid([&] {
        std::unique_ptr<RawHttpConnection> c;
        while (!hostileDone.load() || validSent < 50) {
            if (!c || c->isClosedNow() || validSent % 10 == 0)
                c = std::make_unique<RawHttpConnection>(port());
            const auto start = std::chrono::steady_clock::now();
            c->send(get(validSent % 2 ? "/v1/projects/local/host" : "/v1/projects/local/jobs?pageSize=5"));
            const std::optional<RawAnswer> answer = c->readAnswer(WaitMs);
            latenciesMs.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            ++validSent;
            if (answer && answer->status == 200) {
                ++validOk;
            } else {
                validWrong << QStringLiteral("request %1: %2 after %3 ms")
                                  .arg(validSent - 1)
                                  .arg(answer ? QString::number(answer->status) : QStringLiteral("no answer"))
                                  .arg(latenciesMs.back(), 0, 'f', 0);
                c.reset();
            }
        }
        validDone = true;
    });

    // Both threads' last requests need this thread's event loop to be answered: it serves until both have ended.
    // (Waiting on the hostile thread alone left the valid client's last request, sent just before the hostile
    // thread ended, unanswered until its 15 s bound: CI failed on it once.)
    QTRY_VERIFY_WITH_TIMEOUT(hostileDone.load() && validDone.load(), 600000);
    hostile.join();
    valid.join();

    std::sort(latenciesMs.begin(), latenciesMs.end());
    const auto percentile = [&](double p) {
        return latenciesMs.empty() ? 0.0 : latenciesMs.at(size_t(p * double(latenciesMs.size() - 1)));
    };
    qInfo().noquote() << QStringLiteral("hostile: %1 requests, %2 with the expected 4xx, held %3 of which %4 closed "
                                        "by the server, answers by status %5; valid: %6 of %7 answered 200, latency "
                                        "p50 %8 ms p99 %9 ms")
                             .arg(hostileSent)
                             .arg(hostileRight)
                             .arg(heldTotal)
                             .arg(heldClosed)
                             .arg([&] {
                                 QStringList parts;
                                 for (auto it = byStatus.cbegin(); it != byStatus.cend(); ++it)
                                     parts << QStringLiteral("%1: %2").arg(it.key()).arg(it.value());
                                 return parts.join(QStringLiteral(", "));
                             }())
                             .arg(validOk)
                             .arg(validSent)
                             .arg(percentile(0.5), 0, 'f', 2)
                             .arg(percentile(0.99), 0, 'f', 2);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.mid(0, 20).join(QStringLiteral("; "))));
    QCOMPARE(fiveHundreds, 0);
    QCOMPARE(unanswered, 0);
    QVERIFY(hostileSent >= 1000);
    QCOMPARE(heldClosed, heldTotal);
    QVERIFY2(validWrong.isEmpty(), qPrintable(validWrong.mid(0, 20).join(QStringLiteral(", "))));
    QCOMPARE(validOk, validSent);
    // Still up, and nothing outlives its timeout.
    QTRY_COMPARE_WITH_TIMEOUT(m_api->openConnections(), 0, WaitMs);
}

QTEST_GUILESS_MAIN(TestHttpTransport)
#include "tst_httptransport.moc"
