// SPDX-License-Identifier: GPL-2.0-or-later
// bench_api: the executor's HTTP API under load, with access control on and off (issue 15, "Trust").
//
// 1. Requests. Three trainyard-executor processes of this build run at once, each with its own data folder and a
//    live job (tytest.steady at BENCH_API_LIVE_RATE lines/s, default 1,000) and 5 finished jobs:
//      off: `--access-control=off`: the token file's token alone, no route's IAM permission checked;
//      on:  access control as shipped, requests with a roles/ml.viewer access token (`tyk_…`: looked up by its
//           SHA-256, the role's permissions checked by the router on every request), and `--audit-data-access`
//           when the executor's --help offers it (a Data Access audit entry per read; the mode line says which);
//      static: a minimal static-file server (this program, `--serve-static DIR`, its own process): the same
//           bodies the executor answered, canned in memory, over keep-alive HTTP/1.1 on one Qt event loop, as the
//           executor's transport. It does what any HTTP server must (read the request head, find the body, write
//           the answer) and nothing an API does, so it is the floor for this request pattern on this machine.
//      nginx (issue 48): Debian's nginx-light serving the same bodies as files, started by this bench on a free
//           port with a configuration it writes (worker_processes 1, access_log off, sendfile on, keep-alive without
//           a request limit; one exact `location` per target, aliased to its file): the static server users know,
//           the floor of any GET on this machine. Skipped with a message when /usr/sbin/nginx is missing.
//    50 clients (threads, blocking keep-alive sockets: not QNetworkAccessManager, which opens 6 connections per
//    host) each cycle `GET …/jobs/live`, `GET …/jobs` (the first page: 6 jobs) and `GET …/jobs/live/logs?pageSize=100`
//    for BENCH_API_SECONDS (default 3) per run; runs alternate static, off, on and nginx (the order rotating), so a
//    neighbour's build slows all alike; 1 warm-up round, then BENCH_RUNS (default 5) rounds.
//    Lines: requests/s, p50 and p99 latency (ms, per request, the client's wall time from send to the whole answer)
//    of each executor mode against the static server and against nginx (ratio = ours / baseline), on against off
//    (ratio = on / off), and each server's CPU per request. Goals: access control costs ≤ 10 % of the requests/s
//    (issue 15: ratio ≥ 0.9); with access control on, half the static server's requests/s or more and at most 2.5×
//    its CPU per request (issue 48).
// 2. Streams. One executor (access control on, audit as above) runs a job printing BENCH_SSE_RATE lines/s (default
//    10,000); BENCH_SSE_FOLLOWERS (default 500) clients follow its logs (`GET …/logs?follow=true`, SSE) on
//    non-blocking sockets read by one epoll thread. The per-principal stream limit (500 by default,
//    TransportOptions::maxStreamsPerPrincipal; there is no option to raise it) and the per-address connection limit
//    (500) are met as real clients would: 5 viewer tokens of 5 members, each follower binding the source address
//    127.0.0.(10 + member). After a settling period, BENCH_RUNS windows of BENCH_SSE_WINDOW seconds (default 2):
//    the slowest follower's delivered lines/s against the lines the trainer wrote in the same window (its own count,
//    tytest.steady --progress); ratio = ours / baseline (1: it keeps up). At the end: how many lines the slowest
//    follower was behind the trainer, and how long until every follower had all of them. The executor's RSS
//    (/proc/PID/status VmRSS) is sampled every 100 ms: before the followers connected (baseline) against the end of
//    each window; its growth over the windows is reported and bounded by a goal.
// 3. Followers that never read (issue 26). One executor with a job list of 10 MB (80 cancelled jobs with 125 KB of
//    args); 50 clients do valid requests (a job, a page of one job, the host) for BENCH_RUNS runs, then
//    BENCH_SLOW_FOLLOWERS (default 100) clients follow the job list (`GET jobs?follow=true`) and never read, and the
//    50 clients run again. Lines: the executor's RSS with the followers against without (goal: growth ≤ 64 MiB), and
//    the clients' p99 with the followers against without (goal: ratio ≤ 2).
//
// Prints `NAME: ours X unit, baseline Y unit, ratio R` lines (benchreport.h: medians of runs after a warm-up, a
// `_detail` line with min / median / max), `_context` lines, and `goal:` lines. Wall time throughout: the work
// spans processes. Nothing asserts on time; the exit status is non-zero only when the bench could not run.
#include "benchreport.h"
#include "childprocess.h"
#include "keepaliveclient.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QUrl>

#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
const QByteArray Project = "local";

double envNumber(const char* name, double fallback)
{
    bool ok = false;
    const double v = qEnvironmentVariable(name).toDouble(&ok);
    return ok && v > 0 ? v : fallback;
}

using Trainyard::Test::Connection;
using Trainyard::Test::HttpResponse;

/// One request on a fresh connection.
HttpResponse oneRequest(quint16 port, const QByteArray& method, const QByteArray& target, const QByteArray& token,
    const QByteArray& body = {})
{
    Connection c(port);
    HttpResponse r;
    if (!c.request(method, target, token, body, &r))
        r.status = 0;
    return r;
}

// ---------------------------------------------------------------------------------------------------------------
// The executor under test.

/// RSS of process `pid` in MiB (VmRSS of /proc/PID/status), NaN when unreadable.
double rssMiB(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return NAN;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return NAN;
}

/// CPU seconds process `pid` has run so far, summed over its threads (the first field of each thread's
/// /proc/PID/task/TID/schedstat: ns on a CPU); NaN when it cannot be read. Threads that ended are not counted.
double processCpuSeconds(qint64 pid)
{
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    const QStringList ids = tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    if (pid <= 0 || ids.isEmpty())
        return NAN;
    double ns = 0;
    for (const QString& id : ids) {
        QFile f(tasks.filePath(id + QStringLiteral("/schedstat")));
        if (f.open(QIODevice::ReadOnly))
            ns += f.readAll().split(' ').value(0).toDouble();
    }
    return ns * 1e-9;
}

/// CPU seconds of `pid`'s children that run now (processCpuSeconds of each pid in /proc/PID/task/*/children), 0 when
/// it has none: nginx's worker, which does its serving.
double childrenCpuSeconds(qint64 pid)
{
    double seconds = 0;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString& id : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(tasks.filePath(id + QStringLiteral("/children")));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray& child : f.readAll().simplified().split(' ')) {
            if (const qint64 c = child.toLongLong(); c > 0)
                seconds += processCpuSeconds(c);
        }
    }
    return seconds;
}

/// Seconds the machine's CPUs were busy so far, all of them together (/proc/stat's "cpu" line: every field but idle
/// and iowait, in USER_HZ ticks); NaN when it cannot be read.
double machineBusySeconds()
{
    QFile f(QStringLiteral("/proc/stat"));
    if (!f.open(QIODevice::ReadOnly))
        return NAN;
    const QList<QByteArray> fields = f.readLine().simplified().split(' ');
    if (fields.size() < 8 || fields.first() != "cpu")
        return NAN;
    double busy = 0;
    for (int i = 1; i < fields.size() && i <= 8; ++i) {
        if (i != 4 && i != 5) // idle, iowait
            busy += fields.at(i).toDouble();
    }
    return busy / double(sysconf(_SC_CLK_TCK));
}

class Executor {
public:
    ~Executor() { stop(); }

    /// Starts the executor with `args` in `dir` (data, run and job folders beneath it); false with *error.
    bool start(const QString& dir, const QStringList& args, QString* error)
    {
        m_dir = dir;
        QDir().mkpath(dir + QStringLiteral("/data"));
        QDir().mkpath(dir + QStringLiteral("/run"));
        QDir().mkpath(dir + QStringLiteral("/jobs"));
        QFile::setPermissions(dir + QStringLiteral("/run"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), TrainerDir);
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("*.debug=false;trainyard.*.info=false"));
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.setStandardOutputFile(QProcess::nullDevice());
        Trainyard::Test::dieWithParent(&m_process);
        m_process.start(QStringLiteral(TRAINYARD_EXECUTOR_BIN),
            QStringList { QStringLiteral("--data-dir"), dir + QStringLiteral("/data"), QStringLiteral("--runtime-dir"),
                dir + QStringLiteral("/run"), QStringLiteral("--job-dir-root"), dir + QStringLiteral("/jobs"),
                QStringLiteral("--grace-period"), QStringLiteral("1") }
                + args);
        if (!m_process.waitForStarted(10000)) {
            *error = QStringLiteral("cannot start %1: %2")
                         .arg(QStringLiteral(TRAINYARD_EXECUTOR_BIN), m_process.errorString());
            return false;
        }
        QElapsedTimer t;
        t.start();
        const QString runtimeFile = dir + QStringLiteral("/run/executor.json");
        while (!QFile::exists(runtimeFile)) {
            if (t.elapsed() > 30000 || m_process.state() != QProcess::Running) {
                *error = QStringLiteral("the executor did not write %1").arg(runtimeFile);
                return false;
            }
            QThread::msleep(20);
        }
        QFile f(runtimeFile);
        QJsonObject runtime;
        for (int attempt = 0; attempt < 100 && runtime.isEmpty(); ++attempt) {
            if (f.open(QIODevice::ReadOnly)) {
                runtime = QJsonDocument::fromJson(f.readAll()).object();
                f.close();
            }
            if (runtime.isEmpty())
                QThread::msleep(20);
        }
        m_port = quint16(QUrl(runtime.value(QStringLiteral("url")).toString()).port());
        QFile tokenFile(runtime.value(QStringLiteral("tokenFile")).toString());
        if (!tokenFile.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read the executor's token file");
            return false;
        }
        m_adminToken = tokenFile.readAll().trimmed();
        return m_port != 0;
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(30000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    /// Creates job `id` running `module` of the tests' trainer package (tests/integration/trainers/tytest) with
    /// `args`; false with *error.
    bool createJob(const QString& id, const QString& module, const QStringList& args, QString* error)
    {
        const QJsonObject job {
            { QStringLiteral("jobId"), id },
            { QStringLiteral("trainingInput"),
                QJsonObject {
                    { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
                    { QStringLiteral("pythonModule"), module },
                    { QStringLiteral("packageUris"), QJsonArray { TrainerDir } },
                    { QStringLiteral("region"), QStringLiteral("us-central1") },
                    { QStringLiteral("args"), QJsonArray::fromStringList(args) },
                    { QStringLiteral("jobDir"), QString(m_dir + QStringLiteral("/jobs/") + id) },
                } },
        };
        const HttpResponse r = oneRequest(m_port, "POST", "/v1/projects/" + Project + "/jobs", m_adminToken,
            QJsonDocument(job).toJson(QJsonDocument::Compact));
        if (r.status != 200) {
            *error = QStringLiteral("creating job %1: HTTP %2 %3").arg(id).arg(r.status).arg(QString::fromUtf8(r.body));
            return false;
        }
        return true;
    }

    /// The job's state ("RUNNING", …), empty when it cannot be read.
    QString jobState(const QString& id)
    {
        const HttpResponse r
            = oneRequest(m_port, "GET", "/v1/projects/" + Project + "/jobs/" + id.toUtf8(), m_adminToken);
        const QJsonObject job = QJsonDocument::fromJson(r.body).object();
        const QString message = job.value(QStringLiteral("errorMessage")).toString();
        return job.value(QStringLiteral("state")).toString() + (message.isEmpty() ? QString() : QStringLiteral(": ") + message);
    }

    /// A new access token of `member` with `role` (empty on failure, with *error).
    QByteArray createToken(const QString& member, const QString& role, QString* error)
    {
        const QJsonObject body { { QStringLiteral("member"), member }, { QStringLiteral("role"), role } };
        const HttpResponse r = oneRequest(
            m_port, "POST", "/v1/tokens", m_adminToken, QJsonDocument(body).toJson(QJsonDocument::Compact));
        const QByteArray token
            = QJsonDocument::fromJson(r.body).object().value(QStringLiteral("token")).toString().toLatin1();
        if (token.isEmpty())
            *error = QStringLiteral("creating a token: HTTP %1 %2").arg(r.status).arg(QString::fromUtf8(r.body));
        return token;
    }

    quint16 port() const { return m_port; }
    qint64 pid() const { return m_process.processId(); }
    const QByteArray& adminToken() const { return m_adminToken; }
    const QString& dir() const { return m_dir; }

private:
    QProcess m_process;
    QString m_dir;
    quint16 m_port = 0;
    QByteArray m_adminToken;
};

/// Whether this build's executor offers `flag` (its --help names it).
bool executorOffers(const QString& flag)
{
    QProcess help;
    help.start(QStringLiteral(TRAINYARD_EXECUTOR_BIN), { QStringLiteral("--help") });
    help.waitForFinished(10000);
    return help.readAllStandardOutput().contains(flag.toUtf8());
}

/// Lines written so far by tytest.steady (its --progress file), -1 when unreadable.
qint64 trainerProgress(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const qint64 n = f.read(20).toLongLong(&ok);
    return ok ? n : -1;
}

/// Waits until `done()` or `timeoutMs`.
template <typename F> bool waitFor(F done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QThread::msleep(20);
    }
    return true;
}

// ---------------------------------------------------------------------------------------------------------------
// The static-file server (`bench_api --serve-static DIR`): DIR/index lists "TARGET<TAB>FILE<TAB>CONTENT-TYPE" lines.

class StaticServer : public QObject {
public:
    bool load(const QString& dir)
    {
        QFile index(dir + QStringLiteral("/index"));
        if (!index.open(QIODevice::ReadOnly))
            return false;
        for (const QByteArray& line : index.readAll().split('\n')) {
            const QList<QByteArray> parts = line.split('\t');
            if (parts.size() != 3)
                continue;
            QFile file(dir + QLatin1Char('/') + QString::fromUtf8(parts[1]));
            if (!file.open(QIODevice::ReadOnly))
                return false;
            const QByteArray body = file.readAll();
            // What the executor's transport writes for a JSON answer (httpchannel.cpp), so that the bytes on the
            // wire are the same.
            m_answers.insert(parts[0],
                "HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(body.size())
                    + "\r\nContent-Type: " + parts[2] + "\r\nCache-Control: no-store\r\n\r\n" + body);
        }
        return !m_answers.isEmpty();
    }

    quint16 listen()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                auto buffer = std::make_shared<QByteArray>();
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                    *buffer += socket->readAll();
                    for (qsizetype end; (end = buffer->indexOf("\r\n\r\n")) >= 0;) {
                        // "GET /target HTTP/1.1": requests without bodies only.
                        const qsizetype lineEnd = buffer->indexOf("\r\n");
                        const QList<QByteArray> requestLine = buffer->left(lineEnd).split(' ');
                        const QByteArray target = requestLine.value(1);
                        buffer->remove(0, end + 4);
                        const auto it = m_answers.constFind(target);
                        socket->write(it != m_answers.cend()
                                ? *it
                                : QByteArray("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"));
                    }
                });
            }
        });
        return m_server.listen(QHostAddress::LocalHost, 0) ? m_server.serverPort() : 0;
    }

private:
    QTcpServer m_server;
    QHash<QByteArray, QByteArray> m_answers;
};

/// Debian's nginx (nginx-light) serving `dir`'s canned answers (its `index`: target, file, Content-Type per line) on
/// 127.0.0.1:`port`, one worker, from a configuration written into `dir`. The process runs in the foreground
/// (`daemon off`) and dies with this one.
bool startNginx(QProcess* nginx, const QString& dir, quint16 port)
{
    QFile index(dir + QStringLiteral("/index"));
    if (!index.open(QIODevice::ReadOnly))
        return false;
    QByteArray locations;
    for (const QByteArray& line : index.readAll().split('\n')) {
        const QList<QByteArray> parts = line.split('\t');
        if (parts.size() != 3)
            continue;
        // The query (…/logs?pageSize=100) is not part of the location nginx matches; the file is that page's bytes.
        const QByteArray path = parts[0].left(parts[0].indexOf('?') < 0 ? parts[0].size() : parts[0].indexOf('?'));
        locations += "        location = " + path + " { default_type \"" + parts[2] + "\"; alias "
            + QFile::encodeName(dir) + '/' + parts[1] + "; add_header Cache-Control no-store; }\n";
    }
    const QByteArray temp = QFile::encodeName(dir) + "/nginx-temp";
    QDir().mkpath(QString::fromUtf8(temp));
    QByteArray conf = "daemon off;\nworker_processes 1;\npid " + QFile::encodeName(dir) + "/nginx.pid;\n"
        + "error_log stderr warn;\n";
    // As root, the worker would switch to an account that cannot read this bench's private temporary folder.
    if (::geteuid() == 0)
        conf += "user root;\n";
    conf += "events { worker_connections 1024; }\nhttp {\n    access_log off;\n    sendfile on;\n    tcp_nopush on;\n"
            "    tcp_nodelay on;\n    keepalive_timeout 300s;\n    keepalive_requests 1000000000;\n"
            "    client_body_temp_path "
        + temp + ";\n    proxy_temp_path " + temp + ";\n    fastcgi_temp_path " + temp + ";\n    uwsgi_temp_path "
        + temp + ";\n    scgi_temp_path " + temp + ";\n    server {\n        listen 127.0.0.1:"
        + QByteArray::number(port) + ";\n" + locations + "    }\n}\n";
    QFile file(dir + QStringLiteral("/nginx.conf"));
    if (!file.open(QIODevice::WriteOnly) || file.write(conf) != conf.size())
        return false;
    file.close();
    nginx->setProcessChannelMode(QProcess::ForwardedChannels);
    Trainyard::Test::dieWithParent(nginx);
    nginx->start(QStringLiteral("/usr/sbin/nginx"),
        { QStringLiteral("-p"), dir, QStringLiteral("-e"), QStringLiteral("stderr"), QStringLiteral("-c"),
            file.fileName() });
    return nginx->waitForStarted(10000)
        && waitFor(
            [&] {
                Connection probe(port);
                return probe.isOpen() || nginx->state() == QProcess::NotRunning;
            },
            10000)
        && nginx->state() == QProcess::Running;
}

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice), for a baseline server to bind.
quint16 freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

int serveStatic(const QString& dir)
{
    StaticServer server;
    if (!server.load(dir))
        return 1;
    const quint16 port = server.listen();
    if (!port)
        return 1;
    std::printf("%u\n", unsigned(port));
    std::fflush(stdout);
    return QCoreApplication::exec();
}

// ---------------------------------------------------------------------------------------------------------------
// Part 1: 50 clients.

struct LoadResult {
    double requestsPerSecond = NAN;
    double p50Ms = NAN;
    double p99Ms = NAN;
    qint64 requests = 0;
    qint64 failures = 0; ///< non-200 answers and broken connections
};

double percentile(std::vector<double>& v, double p)
{
    if (v.empty())
        return NAN;
    const std::size_t k = std::min(v.size() - 1, std::size_t(p * double(v.size())));
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

LoadResult runLoad(quint16 port, const QByteArray& token, const QList<QByteArray>& targets, int clients, double seconds)
{
    std::atomic<int> ready { 0 };
    std::atomic<bool> go { false }, stop { false };
    std::vector<std::vector<double>> latencies(static_cast<std::size_t>(clients));
    std::vector<qint64> failures(static_cast<std::size_t>(clients), 0);
    std::vector<std::thread> threads;
    for (int i = 0; i < clients; ++i) {
        threads.emplace_back([&, i] {
            auto conn = std::make_unique<Connection>(port);
            std::vector<double>& mine = latencies[std::size_t(i)];
            mine.reserve(100000);
            ready.fetch_add(1);
            while (!go.load())
                std::this_thread::yield();
            HttpResponse r;
            for (qsizetype k = i; !stop.load(std::memory_order_relaxed); ++k) {
                const QByteArray& target = targets[k % targets.size()];
                const auto t0 = std::chrono::steady_clock::now();
                const bool ok = conn->request("GET", target, token, {}, &r);
                const auto t1 = std::chrono::steady_clock::now();
                if (stop.load(std::memory_order_relaxed))
                    break; // answered after the window: not counted
                if (!ok || r.status != 200) {
                    ++failures[std::size_t(i)];
                    if (!ok)
                        conn = std::make_unique<Connection>(port);
                    continue;
                }
                mine.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
        });
    }
    while (ready.load() < clients)
        std::this_thread::yield();
    const double start = BenchReport::wallSeconds();
    go.store(true);
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop.store(true);
    const double elapsed = BenchReport::wallSeconds() - start;
    for (std::thread& t : threads)
        t.join();
    LoadResult result;
    std::vector<double> all;
    for (std::size_t i = 0; i < latencies.size(); ++i) {
        all.insert(all.end(), latencies[i].begin(), latencies[i].end());
        result.failures += failures[i];
    }
    result.requests = qint64(all.size());
    result.requestsPerSecond = double(all.size()) / elapsed;
    result.p50Ms = percentile(all, 0.50);
    result.p99Ms = percentile(all, 0.99);
    return result;
}

struct ModeSamples {
    std::vector<double> rps, p50, p99;
    std::vector<double> serverCpuUs, machineCpuUs; ///< per request: the server process's CPU, the machine's busy CPU
    qint64 requests = 0, failures = 0;
    void add(const LoadResult& r, double serverCpuSeconds, double machineCpuSeconds)
    {
        rps.push_back(r.requestsPerSecond);
        p50.push_back(r.p50Ms);
        p99.push_back(r.p99Ms);
        if (r.requests > 0) {
            serverCpuUs.push_back(serverCpuSeconds * 1e6 / double(r.requests));
            machineCpuUs.push_back(machineCpuSeconds * 1e6 / double(r.requests));
        }
        requests += r.requests;
        failures += r.failures;
    }
};

std::vector<BenchReport::Goal>& goals()
{
    static std::vector<BenchReport::Goal> all;
    return all;
}

void printPair(const std::string& name, const std::vector<double>& ours, const std::vector<double>& baseline,
    const char* unit, int warmups, const std::string& note)
{
    const BenchReport::Spread o = BenchReport::spread(ours), b = BenchReport::spread(baseline);
    BenchReport::printLine(name, o, b, unit, o.median / b.median, ours.size(), warmups, note);
}

/// Starts an executor for part 1 with its jobs: 5 that finish at once and `live`, printing `rate` lines/s.
bool prepareExecutor(Executor& e, const QString& dir, const QStringList& args, double rate, QString* error)
{
    if (!e.start(dir, args, error))
        return false;
    for (int i = 0; i < 5; ++i) {
        if (!e.createJob(QStringLiteral("done_%1").arg(i), QStringLiteral("tytest.trivial"), {}, error))
            return false;
    }
    if (!e.createJob(QStringLiteral("live"), QStringLiteral("tytest.steady"),
            { QStringLiteral("--rate"), QString::number(rate), QStringLiteral("--progress"),
                dir + QStringLiteral("/jobs/live/progress") },
            error))
        return false;
    // Running, and with more than a page of logs.
    if (!waitFor([&] { return trainerProgress(dir + QStringLiteral("/jobs/live/progress")) > 2000; }, 60000)) {
        *error
            = QStringLiteral("the live job did not start printing (state %1)").arg(e.jobState(QStringLiteral("live")));
        return false;
    }
    return true;
}

int benchRequests(const QString& root, const QStringList& onArgs, const QString& onMode)
{
    const int clients = int(envNumber("BENCH_API_CLIENTS", 50));
    const double seconds = envNumber("BENCH_API_SECONDS", 3);
    const double liveRate = envNumber("BENCH_API_LIVE_RATE", 1000);
    const int timed = BenchReport::runs(5);
    constexpr int Warmups = 1;

    Executor off, on;
    QString error;
    if (!prepareExecutor(
            off, root + QStringLiteral("/off"), { QStringLiteral("--access-control=off") }, liveRate, &error)
        || !prepareExecutor(on, root + QStringLiteral("/on"), onArgs, liveRate, &error)) {
        std::fprintf(stderr, "bench_api: %s\n", qPrintable(error));
        return 1;
    }
    const QByteArray viewer
        = on.createToken(QStringLiteral("user:viewer@bench.example"), QStringLiteral("roles/ml.viewer"), &error);
    if (viewer.isEmpty()) {
        std::fprintf(stderr, "bench_api: %s\n", qPrintable(error));
        return 1;
    }
    const QByteArray jobs = "/v1/projects/" + Project + "/jobs";
    const QList<QByteArray> targets { jobs + "/live", jobs, jobs + "/live/logs?pageSize=100" };

    // The static server's files: what the "off" executor answers now to the same requests.
    const QString staticDir = root + QStringLiteral("/static");
    QDir().mkpath(staticDir);
    QFile index(staticDir + QStringLiteral("/index"));
    if (!index.open(QIODevice::WriteOnly)) {
        std::fprintf(stderr, "bench_api: cannot write %s\n", qPrintable(index.fileName()));
        return 1;
    }
    qint64 cannedBytes = 0;
    for (int i = 0; i < targets.size(); ++i) {
        const HttpResponse r = oneRequest(off.port(), "GET", targets[i], off.adminToken());
        const HttpResponse check = oneRequest(on.port(), "GET", targets[i], viewer);
        if (r.status != 200 || check.status != 200) {
            std::fprintf(stderr, "bench_api: GET %s answered %d (off) and %d (on)\n", targets[i].constData(), r.status,
                check.status);
            return 1;
        }
        QFile file(staticDir + QStringLiteral("/%1.json").arg(i));
        if (!file.open(QIODevice::WriteOnly) || file.write(r.body) != r.body.size())
            return 1;
        index.write(targets[i] + '\t' + QByteArray::number(i) + ".json\t" + r.contentType + '\n');
        cannedBytes += r.body.size();
    }
    index.close();
    QProcess staticServer;
    staticServer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    Trainyard::Test::dieWithParent(&staticServer);
    staticServer.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--serve-static"), staticDir });
    if (!staticServer.waitForReadyRead(10000)) {
        std::fprintf(stderr, "bench_api: the static server did not start\n");
        return 1;
    }
    const quint16 staticPort = quint16(staticServer.readLine().trimmed().toUInt());
    QProcess nginx;
    const quint16 nginxPort = freePort();
    bool withNginx = QFileInfo::exists(QStringLiteral("/usr/sbin/nginx"));
    if (!withNginx)
        std::printf("api_nginx: skipped: /usr/sbin/nginx is missing (apt install nginx-light)\n");
    else if (!(withNginx = startNginx(&nginx, staticDir, nginxPort)))
        std::printf("api_nginx: skipped: nginx did not start (its messages are above)\n");
    if (withNginx) {
        for (const QByteArray& target : targets) {
            const HttpResponse fromFile = oneRequest(nginxPort, "GET", target, {});
            const HttpResponse fromStatic = oneRequest(staticPort, "GET", target, {});
            if (fromFile.status != 200 || fromFile.body != fromStatic.body) {
                std::fprintf(stderr, "bench_api: nginx answered GET %s with %d and other bytes\n", target.constData(),
                    fromFile.status);
                return 1;
            }
        }
    }

    std::printf(
        "api_mode: off = --access-control=off, the token file's token; on = %s, a roles/ml.viewer access token; "
        "static = bench_api --serve-static (%lld bytes canned in memory, Qt event loop, keep-alive)\n",
        qPrintable(onMode), static_cast<long long>(cannedBytes));
    std::printf("api_context: %d clients, keep-alive, each cycling GET jobs/live, GET jobs (6 jobs), "
                "GET jobs/live/logs?pageSize=100; %.3g s a run; live jobs at %.0f lines/s in both executors\n",
        clients, seconds, liveRate);
    std::fflush(stdout);

    ModeSamples sOff, sOn, sStatic, sNginx;
    const int modes = withNginx ? 4 : 3;
    for (int round = 0; round < Warmups + timed; ++round) {
        // The order rotates, so that none of them always runs right after another.
        for (int k = 0; k < modes; ++k) {
            const int which = (round + k) % modes;
            const qint64 serverPid = which == 0 ? staticServer.processId()
                : which == 3                    ? nginx.processId()
                                                : (which == 1 ? off : on).pid();
            // nginx's work is done in its worker, a child of the process started here.
            const double serverCpu = processCpuSeconds(serverPid) + (which == 3 ? childrenCpuSeconds(serverPid) : 0);
            const double machineCpu = machineBusySeconds();
            LoadResult r;
            if (which == 0)
                r = runLoad(staticPort, {}, targets, clients, seconds);
            else if (which == 1)
                r = runLoad(off.port(), off.adminToken(), targets, clients, seconds);
            else if (which == 2)
                r = runLoad(on.port(), viewer, targets, clients, seconds);
            else
                r = runLoad(nginxPort, {}, targets, clients, seconds);
            const double used
                = processCpuSeconds(serverPid) + (which == 3 ? childrenCpuSeconds(serverPid) : 0) - serverCpu;
            if (round >= Warmups)
                (which == 0 ? sStatic : which == 1 ? sOff : which == 2 ? sOn : sNginx)
                    .add(r, used, machineBusySeconds() - machineCpu);
        }
    }
    staticServer.terminate();
    staticServer.waitForFinished(5000);
    if (withNginx) {
        nginx.terminate();
        if (!nginx.waitForFinished(5000))
            nginx.kill();
        nginx.waitForFinished(5000);
    }

    auto note = [&](const ModeSamples& a, const ModeSamples& b) {
        char text[200];
        std::snprintf(text, sizeof text, "%lld and %lld requests, %lld and %lld failed",
            static_cast<long long>(a.requests), static_cast<long long>(b.requests), static_cast<long long>(a.failures),
            static_cast<long long>(b.failures));
        return std::string(text);
    };
    const std::string onName = onArgs.contains(QStringLiteral("--audit-data-access")) ? "acl_audit_on" : "acl_on";
    printPair("api_requests_per_s_acl_off", sOff.rps, sStatic.rps, "req/s", Warmups, note(sOff, sStatic));
    printPair("api_p50_ms_acl_off", sOff.p50, sStatic.p50, "ms", Warmups, {});
    printPair("api_p99_ms_acl_off", sOff.p99, sStatic.p99, "ms", Warmups, {});
    printPair("api_requests_per_s_" + onName, sOn.rps, sStatic.rps, "req/s", Warmups, note(sOn, sStatic));
    printPair("api_p50_ms_" + onName, sOn.p50, sStatic.p50, "ms", Warmups, {});
    printPair("api_p99_ms_" + onName, sOn.p99, sStatic.p99, "ms", Warmups, {});
    printPair("api_" + onName + "_vs_off_requests_per_s", sOn.rps, sOff.rps, "req/s", Warmups, note(sOn, sOff));
    printPair("api_" + onName + "_vs_off_p50_ms", sOn.p50, sOff.p50, "ms", Warmups, {});
    printPair("api_" + onName + "_vs_off_p99_ms", sOn.p99, sOff.p99, "ms", Warmups, {});
    // Where the requests/s go on a machine whose cores the clients share: the server's CPU per request (all its
    // threads: the audit writer's too) and the whole machine's (clients, kernel, the live jobs' trainers).
    printPair("api_" + onName + "_vs_off_server_cpu_us_per_request", sOn.serverCpuUs, sOff.serverCpuUs, "us", Warmups,
        "the executor process, all threads");
    printPair("api_" + onName + "_vs_off_machine_cpu_us_per_request", sOn.machineCpuUs, sOff.machineCpuUs, "us",
        Warmups, "every CPU's busy time over the run, clients and kernel included");
    printPair("api_static_server_cpu_us_per_request", sStatic.serverCpuUs, sOff.serverCpuUs, "us", Warmups,
        "static server against the executor with access control off");
    if (withNginx) {
        printPair("api_requests_per_s_" + onName + "_vs_nginx", sOn.rps, sNginx.rps, "req/s", Warmups,
            note(sOn, sNginx));
        printPair("api_p50_ms_" + onName + "_vs_nginx", sOn.p50, sNginx.p50, "ms", Warmups, {});
        printPair("api_server_cpu_us_per_request_" + onName + "_vs_nginx", sOn.serverCpuUs, sNginx.serverCpuUs, "us",
            Warmups, "the executor process against nginx's master and worker");
        printPair("api_static_server_vs_nginx_requests_per_s", sStatic.rps, sNginx.rps, "req/s", Warmups,
            "this bench's Qt static server against nginx: what Qt's event loop and sockets cost before any API work");
    }
    printPair("api_server_cpu_us_per_request_" + onName + "_vs_static", sOn.serverCpuUs, sStatic.serverCpuUs, "us",
        Warmups, "the executor process, all threads, against the static server");
    goals().push_back({ "api_" + onName + "_vs_off_requests_per_s", "ratio",
        BenchReport::median(sOn.rps) / BenchReport::median(sOff.rps), true, 0.9 });
    goals().push_back({ "api_requests_per_s_" + onName, "ratio to the static server",
        BenchReport::median(sOn.rps) / BenchReport::median(sStatic.rps), true, 0.5 });
    goals().push_back({ "api_server_cpu_us_per_request_" + onName + "_vs_static", "ratio",
        BenchReport::median(sOn.serverCpuUs) / BenchReport::median(sStatic.serverCpuUs), false, 2.5 });
    return sOff.failures + sOn.failures + sStatic.failures + sNginx.failures > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Part 2: SSE followers.

struct Follower {
    int fd = -1;
    std::atomic<qint64> lines { 0 };
    std::atomic<int> status { 0 };
    std::atomic<bool> closed { false };
    char tail[8] = {};
    int tailSize = 0;
    bool headSeen = false;
    QByteArray head;
};

/// Counts "data: {" (one per log entry: the entries are compact JSON objects) in what arrives, across reads: the
/// previous read's last 6 bytes are kept, so that a pattern split between two reads is counted once.
void countEvents(Follower& f, const char* data, ssize_t size)
{
    static constexpr char Pattern[] = "data: {";
    constexpr std::size_t P = sizeof Pattern - 1;
    std::string joined(f.tail, std::size_t(f.tailSize));
    joined.append(data, std::size_t(std::min<ssize_t>(size, P - 1)));
    qint64 found = 0;
    for (std::size_t i = 0; i < std::size_t(f.tailSize) && i + P <= joined.size(); ++i)
        found += std::memcmp(joined.data() + i, Pattern, P) == 0;
    for (const char* p = data; (p = static_cast<const char*>(memmem(p, std::size_t(data + size - p), Pattern, P)));
         p += P)
        ++found;
    std::string last(f.tail, std::size_t(f.tailSize));
    last.append(data + size - std::min<ssize_t>(size, P - 1), std::size_t(std::min<ssize_t>(size, P - 1)));
    const std::size_t keep = std::min(last.size(), P - 1);
    std::memcpy(f.tail, last.data() + last.size() - keep, keep);
    f.tailSize = int(keep);
    f.lines.fetch_add(found, std::memory_order_relaxed);
}

int benchStreams(const QString& root, const QStringList& onArgs, const QString& onMode)
{
    const int followers = int(envNumber("BENCH_SSE_FOLLOWERS", 500));
    const double rate = envNumber("BENCH_SSE_RATE", 10000);
    const double window = envNumber("BENCH_SSE_WINDOW", 2);
    const int windows = BenchReport::runs(5);
    constexpr int Members = 5;
    const QString dir = root + QStringLiteral("/sse");
    // In the job's own folder: the sandbox user (user code runs as it when the executor is root) may write there.
    const QString progress = dir + QStringLiteral("/jobs/loud/progress");

    Executor e;
    QString error;
    if (!e.start(dir, onArgs, &error)) {
        std::fprintf(stderr, "bench_api: %s\n", qPrintable(error));
        return 1;
    }
    std::vector<QByteArray> tokens;
    for (int m = 0; m < Members; ++m) {
        tokens.push_back(e.createToken(
            QStringLiteral("user:follower%1@bench.example").arg(m), QStringLiteral("roles/ml.viewer"), &error));
        if (tokens.back().isEmpty()) {
            std::fprintf(stderr, "bench_api: %s\n", qPrintable(error));
            return 1;
        }
    }
    // RSS sampled every 100 ms from before the followers connect to the end.
    std::atomic<bool> sampling { true };
    std::mutex rssLock;
    std::vector<std::pair<double, double>> rss; // (wall s, MiB)
    const qint64 pid = e.pid();
    // A guard for the shared development machine: an executor past BENCH_SSE_MAX_RSS_MIB (default 4096) is killed
    // and the run reported as stopped.
    const double maxRss = envNumber("BENCH_SSE_MAX_RSS_MIB", 4096);
    std::atomic<bool> overLimit { false };
    std::thread sampler([&] {
        while (sampling.load()) {
            const double v = rssMiB(pid);
            if (v > maxRss && !overLimit.exchange(true))
                ::kill(pid_t(pid), SIGKILL);
            {
                std::lock_guard<std::mutex> lock(rssLock);
                rss.emplace_back(BenchReport::wallSeconds(), v);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    auto rssBetween = [&](double from, double to) {
        std::lock_guard<std::mutex> lock(rssLock);
        std::vector<double> v;
        for (const auto& [t, m] : rss) {
            if (t >= from && t <= to && m == m)
                v.push_back(m);
        }
        return v;
    };
    auto stopAll = [&] {
        sampling.store(false);
        if (sampler.joinable())
            sampler.join();
    };

    if (!e.createJob(QStringLiteral("loud"), QStringLiteral("tytest.steady"),
            { QStringLiteral("--rate"), QString::number(rate), QStringLiteral("--progress"), progress }, &error)
        || !waitFor([&] { return trainerProgress(progress) > 0; }, 60000)) {
        std::fprintf(
            stderr, "bench_api: %s\n", qPrintable(error.isEmpty() ? QStringLiteral("the job did not start") : error));
        stopAll();
        return 1;
    }
    const double beforeStart = BenchReport::wallSeconds();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const std::vector<double> before = rssBetween(beforeStart, BenchReport::wallSeconds());

    // Connect the followers (blocking connect and request, then non-blocking reads on one epoll thread).
    std::vector<std::unique_ptr<Follower>> all;
    std::vector<std::unique_ptr<Connection>> connections;
    const int ep = ::epoll_create1(EPOLL_CLOEXEC);
    const QByteArray target = "/v1/projects/" + Project + "/jobs/loud/logs?follow=true";
    int connectRetries = 0;
    for (int i = 0; i < followers; ++i) {
        const int member = i % Members;
        auto f = std::make_unique<Follower>();
        const QByteArray request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + tokens[std::size_t(member)] + "\r\nAccept: text/event-stream\r\n\r\n";
        // A refused connection is tried again after a pause, as a client would: while the executor's event loop
        // is busy with the streams already open, its listen queue can overflow.
        std::unique_ptr<Connection> c;
        for (int attempt = 0; attempt < 50; ++attempt) {
            c = std::make_unique<Connection>(e.port(), (127u << 24) | quint32(10 + member));
            if (c->isOpen())
                break;
            ++connectRetries;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (!c->isOpen() || !c->sendAll(request)) {
            std::fprintf(stderr, "bench_api: follower %d could not connect: %s (executor %s, RSS %.0f MiB%s)\n", i,
                std::strerror(errno), ::kill(pid_t(pid), 0) == 0 ? "running" : "gone", rssMiB(pid),
                overLimit.load() ? ", killed by the RSS guard" : "");
            stopAll();
            return 1;
        }
        f->fd = c->fd();
        ::fcntl(f->fd, F_SETFL, ::fcntl(f->fd, F_GETFL) | O_NONBLOCK);
        epoll_event ev {};
        ev.events = EPOLLIN;
        ev.data.ptr = f.get();
        ::epoll_ctl(ep, EPOLL_CTL_ADD, f->fd, &ev);
        all.push_back(std::move(f));
        connections.push_back(std::move(c));
    }
    std::atomic<bool> reading { true };
    std::thread reader([&] {
        std::vector<char> buffer(1 << 18);
        epoll_event events[64];
        while (reading.load()) {
            const int n = ::epoll_wait(ep, events, 64, 100);
            for (int k = 0; k < n; ++k) {
                Follower& f = *static_cast<Follower*>(events[k].data.ptr);
                for (;;) {
                    const ssize_t got = ::recv(f.fd, buffer.data(), buffer.size(), 0);
                    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                        break;
                    if (got <= 0) {
                        f.closed.store(true);
                        ::epoll_ctl(ep, EPOLL_CTL_DEL, f.fd, nullptr);
                        break;
                    }
                    if (!f.headSeen) {
                        f.head.append(buffer.data(), std::min<ssize_t>(got, 16));
                        if (f.head.size() >= 12) {
                            f.status.store(f.head.mid(9, 3).toInt());
                            f.headSeen = true;
                        }
                    }
                    countEvents(f, buffer.data(), got);
                }
            }
        }
    });
    auto finish = [&] {
        reading.store(false);
        if (reader.joinable())
            reader.join();
        ::close(ep);
        connections.clear();
        stopAll();
    };

    // Settle: every follower answered 200 and has had entries.
    const bool settled = waitFor(
        [&] {
            if (overLimit.load())
                return true;
            for (const auto& f : all) {
                if (f->closed.load() || f->status.load() != 200 || f->lines.load() < 1000)
                    return false;
            }
            return true;
        },
        60000);
    int refused = 0, closed = 0;
    for (const auto& f : all) {
        refused += f->status.load() != 200;
        closed += f->closed.load();
    }
    if (!settled)
        std::printf("sse_context: not settled after 60 s: %d followers without a 200, %d closed\n", refused, closed);
    std::this_thread::sleep_for(std::chrono::seconds(2));

    std::vector<double> slowest, median, trainer, rssEnd;
    std::vector<qint64> counts(all.size());
    auto snapshot = [&] {
        for (std::size_t i = 0; i < all.size(); ++i)
            counts[i] = all[i]->lines.load();
    };
    snapshot();
    qint64 written = trainerProgress(progress);
    double t = BenchReport::wallSeconds();
    const double firstWindow = t;
    for (int w = 0; w < windows && !overLimit.load(); ++w) {
        std::this_thread::sleep_for(std::chrono::duration<double>(window));
        const std::vector<qint64> previous = counts;
        const qint64 previousWritten = written;
        const double previousT = t;
        snapshot();
        written = trainerProgress(progress);
        t = BenchReport::wallSeconds();
        std::vector<double> rates;
        for (std::size_t i = 0; i < all.size(); ++i)
            rates.push_back(double(counts[i] - previous[i]) / (t - previousT));
        slowest.push_back(*std::min_element(rates.begin(), rates.end()));
        median.push_back(BenchReport::median(rates));
        trainer.push_back(double(written - previousWritten) / (t - previousT));
        const std::vector<double> r = rssBetween(t - 0.5, t);
        rssEnd.push_back(r.empty() ? NAN : r.back());
    }
    // The end: how far the slowest follower was behind, and how long until all had what was written by then.
    const qint64 finalCount = written;
    qint64 behind = 0;
    for (qint64 c : counts)
        behind = std::max(behind, finalCount - c);
    const double endT = t;
    const bool caughtUp = waitFor(
        [&] {
            if (overLimit.load())
                return false;
            for (const auto& f : all) {
                if (f->lines.load() < finalCount && !f->closed.load())
                    return false;
            }
            return true;
        },
        overLimit.load() ? 0 : 30000);
    const double catchUp = BenchReport::wallSeconds() - endT;
    const std::vector<double> during = rssBetween(firstWindow, endT);
    closed = 0;
    for (const auto& f : all)
        closed += f->closed.load();
    finish();
    e.stop();

    if (overLimit.load())
        std::printf("sse_context: STOPPED: the executor's RSS passed %.0f MiB (BENCH_SSE_MAX_RSS_MIB) and it was "
                    "killed; the figures below are of the windows before\n",
            maxRss);
    std::printf("sse_mode: %s; %d followers as %d viewer tokens' members (each from its own 127.0.0.x), one job at "
                "%.0f lines/s, %d windows of %.3g s after settling\n",
        qPrintable(onMode), followers, Members, rate, windows, window);
    {
        const BenchReport::Spread o = BenchReport::spread(slowest), b = BenchReport::spread(trainer);
        BenchReport::printLine("sse_" + std::to_string(followers) + "_followers_slowest_lines_per_s", o, b, "lines/s",
            o.median / b.median, slowest.size(), 0,
            "ours: the slowest follower's delivered lines/s in each window; baseline: the trainer's lines/s in the "
            "same window");
        const BenchReport::Spread m = BenchReport::spread(median);
        BenchReport::printLine("sse_" + std::to_string(followers) + "_followers_median_lines_per_s", m, b, "lines/s",
            m.median / b.median, median.size(), 0, "ours: the median follower's");
        goals().push_back({ "sse_" + std::to_string(followers) + "_followers_slowest_lines_per_s", "ratio",
            o.median / b.median, true, 0.95 });
    }
    std::printf("sse_lag_context: at the end the slowest follower was %lld lines behind the trainer (%.3g s at its "
                "rate); all %s the trainer's %lld lines %.3g s later; %d of %d streams closed early, %d refused; %d "
                "connections tried again\n",
        static_cast<long long>(behind), double(behind) / rate, caughtUp ? "had" : "did NOT have",
        static_cast<long long>(finalCount), catchUp, closed, followers, refused, connectRetries);
    {
        const BenchReport::Spread r = BenchReport::spread(rssEnd), b = BenchReport::spread(before);
        BenchReport::printLine("sse_executor_rss_mib", r, b, "MiB", r.median / b.median, rssEnd.size(), 0,
            "ours: the executor's VmRSS at the end of each window with the followers; baseline: before they connected");
        const double growth = rssEnd.empty() ? NAN : rssEnd.back() / rssEnd.front();
        const double maxDuring = during.empty() ? NAN : *std::max_element(during.begin(), during.end());
        std::printf("sse_rss_context: first window %.4g MiB, last %.4g MiB (x %.3g over %.3g s), max %.4g MiB during "
                    "the windows\n",
            rssEnd.empty() ? NAN : rssEnd.front(), rssEnd.empty() ? NAN : rssEnd.back(), growth, endT - firstWindow,
            maxDuring);
        goals().push_back({ "sse_executor_rss_mib", "last / first window", growth, false, 1.1 });
    }
    std::fflush(stdout);
    return 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Part 3: followers of the job list that never read (issue 26, item 2).

/// Creates `count` jobs whose arguments are `argBytes` long and cancels each at once (a big list, nothing running),
/// waiting out the write quota's 429s as a client would (Retry-After). False with *error.
bool fillJobList(Executor& e, int count, int argBytes, QString* error)
{
    auto send = [&](const QByteArray& method, const QByteArray& path, const QByteArray& body) {
        for (int attempt = 0; attempt < 200; ++attempt) {
            const HttpResponse r = oneRequest(e.port(), method, path, e.adminToken(), body);
            if (r.status != 429)
                return r;
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
        return HttpResponse {};
    };
    for (int i = 0; i < count; ++i) {
        const QString id = QStringLiteral("listed_%1").arg(i);
        const QJsonObject job {
            { QStringLiteral("jobId"), id },
            { QStringLiteral("trainingInput"),
                QJsonObject {
                    { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
                    { QStringLiteral("pythonModule"), QStringLiteral("tytest.trivial") },
                    { QStringLiteral("packageUris"), QJsonArray { TrainerDir } },
                    { QStringLiteral("region"), QStringLiteral("us-central1") },
                    { QStringLiteral("args"), QJsonArray { QString(argBytes, QLatin1Char('a')) } },
                } },
        };
        const HttpResponse created
            = send("POST", "/v1/projects/" + Project + "/jobs", QJsonDocument(job).toJson(QJsonDocument::Compact));
        const HttpResponse cancelled
            = send("POST", "/v1/projects/" + Project + "/jobs/" + id.toUtf8() + ":cancel", "{}");
        if (created.status != 200 || (cancelled.status != 200 && cancelled.status != 400)) {
            *error = QStringLiteral("job %1: create %2, cancel %3: %4")
                         .arg(id)
                         .arg(created.status)
                         .arg(cancelled.status)
                         .arg(QString::fromUtf8(created.body.left(300)));
            return false;
        }
    }
    return true;
}

int benchSlowFollowers(const QString& root)
{
    const int followers = int(envNumber("BENCH_SLOW_FOLLOWERS", 100));
    const int clients = int(envNumber("BENCH_API_CLIENTS", 50));
    const double seconds = envNumber("BENCH_API_SECONDS", 3);
    const int runs = BenchReport::runs(5);
    constexpr int Jobs = 80;
    constexpr int ArgBytes = 125000; // 80 jobs of about 125 KB: a job list of 10 MB
    Executor e;
    QString error;
    if (!e.start(root + QStringLiteral("/slow"), {}, &error) || !fillJobList(e, Jobs, ArgBytes, &error)) {
        std::fprintf(stderr, "bench_api: %s\n", qPrintable(error));
        return 1;
    }
    const QByteArray jobs = "/v1/projects/" + Project + "/jobs";
    const QList<QByteArray> targets { jobs + "/listed_0", jobs + "?pageSize=1", "/v1/projects/" + Project + "/host" };
    std::printf("slow_followers_context: %d jobs of %d-byte args (a %.1f MB job list); %d followers of the list "
                "(GET jobs?follow=true) that never read; %d clients cycling GET a job, GET jobs?pageSize=1, GET host "
                "for %.3g s a run\n",
        Jobs, ArgBytes, Jobs * ArgBytes / 1e6, followers, clients, seconds);
    std::fflush(stdout);
    // Without the followers: the baseline latency and RSS (warm-up first).
    runLoad(e.port(), e.adminToken(), targets, clients, seconds);
    std::vector<double> p99Without, p99With, rssWithout, rssWith;
    for (int i = 0; i < runs; ++i) {
        LoadResult r = runLoad(e.port(), e.adminToken(), targets, clients, seconds);
        p99Without.push_back(r.p99Ms);
        rssWithout.push_back(rssMiB(e.pid()));
    }
    std::vector<std::unique_ptr<Connection>> held;
    const QByteArray request = "GET " + jobs + "?follow=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + e.adminToken() + "\r\nAccept: text/event-stream\r\n\r\n";
    for (int i = 0; i < followers; ++i) {
        auto c = std::make_unique<Connection>(e.port(), (127u << 24) | 1u);
        if (!c->isOpen() || !c->sendAll(request)) {
            std::fprintf(stderr, "bench_api: follower %d could not connect\n", i);
            return 1;
        }
        held.push_back(std::move(c));
    }
    // Settle: every follower's stream has been written to as far as it will go.
    std::this_thread::sleep_for(std::chrono::seconds(3));
    for (int i = 0; i < runs; ++i) {
        LoadResult r = runLoad(e.port(), e.adminToken(), targets, clients, seconds);
        p99With.push_back(r.p99Ms);
        rssWith.push_back(rssMiB(e.pid()));
    }
    held.clear();
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const double rssAfter = rssMiB(e.pid());
    const BenchReport::Spread rw = BenchReport::spread(rssWith), rb = BenchReport::spread(rssWithout);
    BenchReport::printLine("api_" + std::to_string(followers) + "_nonreading_list_followers_rss_mib", rw, rb, "MiB",
        rw.median / rb.median, rssWith.size(), 1, "after they closed: " + std::to_string(int(rssAfter)) + " MiB");
    const BenchReport::Spread pw = BenchReport::spread(p99With), pb = BenchReport::spread(p99Without);
    BenchReport::printLine("api_p99_ms_with_" + std::to_string(followers) + "_nonreading_list_followers", pw, pb, "ms",
        pw.median / pb.median, p99With.size(), 1, "baseline: the same load without the followers");
    goals().push_back({ "api_" + std::to_string(followers) + "_nonreading_list_followers_rss_mib", "growth (MiB)",
        rw.median - rb.median, false, 64 });
    goals().push_back({ "api_p99_ms_with_" + std::to_string(followers) + "_nonreading_list_followers", "ratio",
        pw.median / pb.median, false, 2 });
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 3 && args[1] == QLatin1String("--serve-static"))
        return serveStatic(args[2]);
    const bool only = args.contains(QStringLiteral("--streams-only"))
        || args.contains(QStringLiteral("--requests-only")) || args.contains(QStringLiteral("--slow-followers-only"));
    const bool requests = !only || args.contains(QStringLiteral("--requests-only"));
    const bool streams = !only || args.contains(QStringLiteral("--streams-only"));
    const bool slowFollowers = !only || args.contains(QStringLiteral("--slow-followers-only"));

    BenchReport::printHost();
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return 1;
    // The "on" mode with Data Access audit entries when this build's executor writes them (another branch adds
    // the flag); the mode lines say which was measured.
    QStringList onArgs;
    QString onMode = QStringLiteral("access control on");
    if (executorOffers(QStringLiteral("--audit-data-access"))) {
        onArgs << QStringLiteral("--audit-data-access");
        onMode += QStringLiteral(" with --audit-data-access");
    } else {
        onMode += QStringLiteral(" (this executor has no --audit-data-access: no audit entries)");
    }
    int rc = 0;
    if (requests)
        rc |= benchRequests(tmp.path(), onArgs, onMode);
    if (streams)
        rc |= benchStreams(tmp.path(), onArgs, onMode);
    if (slowFollowers)
        rc |= benchSlowFollowers(tmp.path());
    for (const BenchReport::Goal& g : goals())
        BenchReport::printGoal(g);
    return rc;
}
