// SPDX-License-Identifier: GPL-2.0-or-later
// `GET …/jobs/{id}/logs` in one process: HttpApi with a real JobStore, LogStore and files, asked through
// HttpApi::serve() (the router and the handler without a socket, as bench_executor measures them) and over a
// loopback socket. The two must give the same bytes; every page must hold exactly the entries LogStore::read()
// gives, each as LogEntry::toJsonLine() writes it (lines copied as stored, foreign ones encoded again), with a
// nextPageToken exactly when more follow; filters and the follow stream must give the same entries.
#include "executorenvironment.h"
#include "httpapi.h"
#include "jobkeys.h"
#include "jobstore.h"
#include "logstore.h"
#include "loopbackhttp.h"
#include "scheduler.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <QScopeGuard>

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace Trainyard;

namespace {

const QByteArray Token = "logsapi-token";
const QString JobId = QStringLiteral("logsapi");

struct Answer {
    bool done = false;
    int status = 0;
    QByteArray body;
};

} // namespace

class TestLogsApi : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_dataDir;
    std::unique_ptr<JobStore> m_store;
    std::unique_ptr<LogStore> m_logs;
    std::unique_ptr<Scheduler> m_scheduler;
    std::unique_ptr<HttpApi> m_api;
    QTcpServer* m_server = nullptr;
    QList<LogEntry> m_entries; ///< every entry of the job, in the merged order

    /// The request through HttpApi::serve(), waiting for a deferred answer.
    Answer serve(const QByteArray& target)
    {
        auto answer = std::make_shared<Answer>();
        m_api->serve(ApiRequest("GET", QUrl::fromEncoded(target), { { "Authorization", "Bearer " + Token } }),
            [answer](int status, const HttpHeaderList&, const QByteArray& body) {
                answer->done = true;
                answer->status = status;
                answer->body = body;
            });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(answer->done, 20000); }();
        return *answer;
    }

    /// The same request over a loopback socket (a blocking client on its own thread; the API's event loop
    /// runs here).
    Answer overHttp(const QByteArray& target)
    {
        Answer answer;
        std::atomic<bool> done { false };
        std::thread client([&] {
            answer.body = Test::httpGet(m_server->serverPort(), target, Token, &answer.status);
            done = true;
        });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(done.load(), 20000); }();
        // Failed or not, the client needs this thread's event loop until it ends (httpGet gives up after 60 s).
        (void)QTest::qWaitFor([&] { return done.load(); }, 120000);
        client.join();
        answer.done = true;
        return answer;
    }

    static QByteArray logsTarget(const QByteArray& query)
    {
        QByteArray target = "/v1/projects/local/jobs/" + JobId.toLatin1() + "/logs";
        if (!query.isEmpty())
            target += '?' + query;
        return target;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(Test::isolateExecutorEnvironment(m_dir));
        m_dataDir = m_dir.filePath(QStringLiteral("data/trainyard"));
        QVERIFY(QDir().mkpath(m_dataDir));
        m_store = std::make_unique<JobStore>();
        QString error;
        QVERIFY2(m_store->open(m_dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        Job job = Test::customJob(JobId, QStringLiteral("tytest.trivial"));
        job.state = JobState::Succeeded; // a follow stream ends after its backlog
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        m_logs = std::make_unique<LogStore>(m_dataDir);
        HostInventory host;
        host.cpus = 4;
        host.memoryBytes = 1LL << 34;
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), host, m_dataDir);
        m_api = std::make_unique<HttpApi>(m_store.get(), m_logs.get(), m_scheduler.get(), host, Token);
        m_server = new QTcpServer(m_api.get());
        QVERIFY(m_server->listen(QHostAddress::LocalHost, 0));
        m_api->bind(m_server);

        // Three replicas with interleaved and equal timestamps, every severity the filters split on, a trial,
        // non-ASCII text, escapes; and lines the store did not write (another key order, an escape the encoder
        // does not use), which the page encodes again.
        const QString logsDir = Test::localJob(JobId).folder(m_dataDir) + QStringLiteral("/logs");
        QVERIFY(QDir().mkpath(logsDir));
        const QStringList tasks { QStringLiteral("master-replica-0"), QStringLiteral("service"),
            QStringLiteral("worker-replica-0") };
        const QStringList severities { QStringLiteral("DEBUG"), QStringLiteral("INFO"), QStringLiteral("WARNING"),
            QStringLiteral("ERROR") };
        for (int t = 0; t < tasks.size(); ++t) {
            QFile f(logsDir + QLatin1Char('/') + tasks.at(t) + QStringLiteral(".jsonl"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int i = 0; i < 400; ++i) {
                LogEntry e;
                e.timestampUs = 1795323883000000LL + qint64(i / 2) * 10 + (i % 2 ? t : 0);
                e.severity = severities.at((i + t) % severities.size());
                e.taskName = tasks.at(t);
                e.trialId = i % 5 == 0 ? QStringLiteral("2") : QString();
                e.message = i % 9 == 0 ? QStringLiteral("epoch %1 ▇▇▇ 100%% \"done\"\t✓").arg(i)
                                       : QStringLiteral("step %1 loss=0.5").arg(i);
                e.stream = t == 1 ? QString() : QStringLiteral("stderr");
                QByteArray line = e.toJsonLine();
                if (i % 50 == 7) // the same entry, not in the store's layout
                    line = QJsonDocument(
                        QJsonObject { { QStringLiteral("message"), e.message },
                            { QStringLiteral("timestamp"), QString::fromLatin1(line.mid(14, 27)) },
                            { QStringLiteral("severity"), e.severity }, { QStringLiteral("taskName"), e.taskName },
                            { QStringLiteral("trialId"), e.trialId }, { QStringLiteral("stream"), e.stream } })
                               .toJson(QJsonDocument::Compact);
                else if (i % 50 == 17) // the store's layout, but an escape the encoder does not write
                    line.replace("\"message\":\"s", "\"message\":\"\\u0073");
                QVERIFY(f.write(line + '\n') == line.size() + 1);
            }
        }
        m_entries = m_logs->read(Test::localJob(JobId), QString(), QString(), 0, 100000);
        QCOMPARE(m_entries.size(), 1200);
    }

    void pages_data()
    {
        QTest::addColumn<QByteArray>("query");
        QTest::addColumn<int>("pageSize");
        QTest::addRow("all, default size") << QByteArray() << 1000;
        QTest::addRow("all, 7 a page") << QByteArray("pageSize=7") << 7;
        QTest::addRow("all, 250 a page") << QByteArray("pageSize=250") << 250;
        QTest::addRow("one replica") << QByteArray("taskName=worker-replica-0&pageSize=64") << 64;
        QTest::addRow("WARNING and up") << QByteArray("severity=warning&pageSize=100") << 100;
        QTest::addRow("one trial") << QByteArray("trialId=2&pageSize=33") << 33;
        QTest::addRow("contains") << QByteArray("contains=%E2%96%87&pageSize=10") << 10;
    }
    void pages()
    {
        // Walks every page with its nextPageToken; both transports give the same bytes, the entries are
        // those of the filter in the merged order, each as the encoder writes it.
        QFETCH(QByteArray, query);
        QFETCH(int, pageSize);
        const QUrlQuery q(QString::fromLatin1(query));
        const QString task = q.queryItemValue(QStringLiteral("taskName"), QUrl::FullyDecoded);
        const LogSeverity minSeverity = logSeverityFromName(q.queryItemValue(QStringLiteral("severity")));
        const QString trial = q.queryItemValue(QStringLiteral("trialId"));
        const QString contains = q.queryItemValue(QStringLiteral("contains"), QUrl::FullyDecoded);
        QList<QByteArray> expected;
        for (const LogEntry& e : std::as_const(m_entries)) {
            if ((task.isEmpty() || e.taskName == task) && e.severityLevel() >= minSeverity
                && (trial.isEmpty() || e.trialId == trial) && (contains.isEmpty() || e.message.contains(contains)))
                expected << e.toJsonLine();
        }
        QVERIFY(!expected.isEmpty());

        QList<QByteArray> served;
        QByteArray token;
        int pages = 0;
        do {
            QByteArray withToken = query;
            if (!token.isEmpty())
                withToken += QByteArray(query.isEmpty() ? "" : "&") + "pageToken=" + token;
            const QByteArray target = logsTarget(withToken);
            const Answer inProcess = serve(target);
            const Answer http = overHttp(target);
            QCOMPARE(inProcess.status, 200);
            QCOMPARE(http.status, 200);
            QCOMPARE(inProcess.body, http.body);
            const QJsonObject page = QJsonDocument::fromJson(inProcess.body).object();
            QVERIFY2(!page.isEmpty(), inProcess.body.left(200).constData());
            const QJsonArray entries = page.value(QStringLiteral("entries")).toArray();
            QVERIFY(entries.size() <= pageSize);
            // The body is the entries' lines joined as they are, with nothing added between them.
            QByteArray joined;
            for (qsizetype i = served.size(); i < served.size() + entries.size() && i < expected.size(); ++i)
                joined += (joined.isEmpty() ? "" : ",") + expected.at(i);
            const QByteArray start = "{\"entries\":[" + joined + ']';
            QVERIFY(inProcess.body.startsWith(start));
            for (const QJsonValue& entry : entries)
                served << LogEntry::fromJson(entry.toObject()).toJsonLine();
            token = page.value(QStringLiteral("nextPageToken")).toString().toLatin1();
            // A token exactly when more entries follow.
            QCOMPARE(token.isEmpty(), served.size() == expected.size());
            ++pages;
        } while (!token.isEmpty() && pages < 1000);
        QCOMPARE(served, expected);
    }

    void follow()
    {
        // The job is final: the stream sends the backlog (one event per entry, in order) and ends.
        const Answer answer = serve(logsTarget("follow=true&severity=ERROR"));
        QCOMPARE(answer.status, 200);
        QByteArray events;
        for (const LogEntry& e : std::as_const(m_entries)) {
            if (e.severityLevel() >= LogSeverity::Error)
                events += "data: " + e.toJsonLine() + "\n\n";
        }
        QVERIFY(answer.body.contains(events));
        QVERIFY(answer.body.contains("event: end\ndata: {\"state\":\"SUCCEEDED\"}"));
    }

    void followSlowClient()
    {
        // A client that reads nothing while a running job prints more than SseStream drops a stream at (64 MiB):
        // past 1 MiB unread the stream reads from the files instead of holding entries, so when the client reads
        // at last it gets every entry once, in order, and the end (API.md, "Logs": a client that falls behind).
        const QString jobId = QStringLiteral("slowclient");
        Job job = Test::customJob(jobId, QStringLiteral("tytest.trivial"));
        job.state = JobState::Running;
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        const JobKey key = Test::localJob(jobId);
        std::atomic<bool> read { false }, done { false };
        std::atomic<int> clientFd { -1 };
        QByteArray received;
        const quint16 port = m_server->serverPort();
        std::thread client([&] {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            clientFd = fd;
            sockaddr_in addr {};
            addr.sin_family = AF_INET;
            addr.sin_port = htons(port);
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
                const QByteArray request = "GET /v1/projects/local/jobs/" + jobId.toLatin1()
                    + "/logs?follow=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + Token + "\r\n\r\n";
                if (::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL) == request.size()) {
                    while (!read.load())
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                    char buffer[1 << 16];
                    for (ssize_t got; (got = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
                        received.append(buffer, got);
                }
            }
            clientFd = -1;
            if (fd >= 0)
                ::close(fd);
            done = true;
        });
        auto joinClient = qScopeGuard([&] {
            // A failed check before the end: the follow stream would never end while this thread waits in join(),
            // so the socket is shut down under the client's recv().
            read = true;
            if (const int fd = clientFd.load(); fd >= 0)
                ::shutdown(fd, SHUT_RDWR);
            client.join();
        });
        QTRY_COMPARE(m_api->openStreams(), 1);
        constexpr int Lines = 600000; // ~80 MB of events
        constexpr int Batch = 5000;
        for (int first = 0; first < Lines; first += Batch) {
            QByteArray bytes;
            for (int i = first; i < first + Batch; ++i)
                bytes += "step " + QByteArray::number(i) + '\n';
            m_logs->appendOutput(key, QStringLiteral("master-replica-0"), QString(), bytes, false);
            m_logs->flush(); // delivered batch by batch, as a running job's output is
            QCoreApplication::processEvents();
        }
        job.state = JobState::Succeeded;
        QVERIFY2(m_store->update(JobStore::defaultProject(), job, &error), qPrintable(error));
        read = true;
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 120000);
        QVERIFY(received.startsWith("HTTP/1.1 200"));
        QVERIFY(received.contains("event: end\ndata: {\"state\":\"SUCCEEDED\"}"));
        // Every line once, in order (the events' "message" fields).
        static const QByteArray Field = "\"message\":\"step ";
        int next = 0;
        bool inOrder = true;
        for (qsizetype at = received.indexOf(Field); at >= 0; at = received.indexOf(Field, at + Field.size())) {
            const qsizetype start = at + Field.size();
            const int n = received.mid(start, received.indexOf('"', start) - start).toInt();
            if (n != next) {
                inOrder = false;
                qWarning() << "expected step" << next << "got" << n;
                break;
            }
            ++next;
        }
        QVERIFY(inOrder);
        QCOMPARE(next, Lines);
    }

    void errors()
    {
        QCOMPARE(serve(logsTarget("severity=LOUD")).status, 400);
        QCOMPARE(serve(logsTarget("pageToken=%21%21")).status, 400);
        QCOMPARE(serve("/v1/projects/local/jobs/nope/logs").status, 404);
        // No token: refused before routing, in process as over HTTP.
        auto answer = std::make_shared<Answer>();
        m_api->serve(ApiRequest("GET", QUrl::fromEncoded(logsTarget({}))),
            [answer](int status, const HttpHeaderList&, const QByteArray&) { answer->status = status; });
        QCOMPARE(answer->status, 401);
    }

    void cleanupTestCase()
    {
        m_api.reset();
        m_scheduler.reset();
        m_logs.reset();
        m_store.reset();
    }
};

QTEST_GUILESS_MAIN(TestLogsApi)
#include "tst_logsapi.moc"
