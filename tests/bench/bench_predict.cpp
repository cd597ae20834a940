// SPDX-License-Identifier: GPL-2.0-or-later
// bench_predict: online prediction through the executor (issue 30, "Figures"). A scikit-learn pipeline (made by
// tests/integration/prediction_models.py) is deployed as a version of a real trainyard-executor and asked for one
// instance per request over keep-alive HTTP/1.1:
//
// Each figure is the median of BENCH_RUNS (default 5) runs of BENCH_SECONDS (default 2) s after a warm-up, ours and the
// baseline alternating run by run (README.md "What every bench prints").
// 1. online_predict_p50: one client, requests back to back: the p50 latency through
//    the executor's API (authentication, routing, the version's node over its pipes) against the p50 of
//    model.predict called in one Python process (predict_baseline.py inprocess: the physical floor). Goal: the
//    overhead (ours − baseline) ≤ 1 ms.
// 2. online_predict_8_clients_<N>_node: 8 clients against a version of N nodes (1 and 2), against
//    the minimal Python HTTP server a user would write around the same model (predict_baseline.py server).
//    Goal: ratio ≥ 1.
// 2b. online_predict_8_clients_<N>_node_vs_fastapi: the same load against FastAPI on uvicorn (uvloop, httptools) with
//    N workers around the same model (predict_fastapi.py; FastAPI+uvicorn is what MLServer, KServe's model servers and
//    BentoML stand on, issue 48), our N nodes against its N workers. Goal: ratio ≥ 1.5. Skipped with a message when
//    Debian's python3-fastapi, python3-uvicorn, python3-uvloop or python3-httptools is missing.
//    online_predict_8_clients_<N>_node_vs_fastapi_cpu: in the same runs, the servers' CPU per request (the executor
//    and its nodes; uvicorn and its workers; /proc of each process tree), which does not depend on how many of the
//    machine's cores each side was given: ratio = FastAPI's over ours (reported).
//
// 3. online_predict_cold_start: a version with autoScaling.minNodes 0 on an executor whose idle nodes stop after 1 s
//    (--prediction-idle-seconds 1): once it has scaled to zero, one request's time (a node starts from the runtime's
//    warm spare, which has its framework imported, and loads the model first; serving/sparenodes.h) against a warm
//    request's p50 (line 1's). Goal (issue 48): ≤ 500 ms. online_predict_cold_start_split gives its parts from the
//    version's log (the model folder's copy to the spare, model load, the rest).
//    online_predict_cold_start_without_spare: the same on the executor restarted with --no-warm-spares (a node
//    process starts), with its split (process and interpreter start, imports, model load, the rest).
//
// 4. batch_predict_<N>_instances: a batch prediction job (projects.jobs with predictionInput, maxWorkerCount 2,
// batchSize
//    64, the version of line 1) over N JSON-lines instances (BENCH_BATCH_INSTANCES, default 1,000,000: the table's
//    rows in turn), timed from its createTime to its endTime (queueing, staging, the workers' start and the model's
//    load included), against one Python loop reading the same file, calling model.predict on batches of 64 and
//    writing the same output lines (predict_baseline.py loop), timed from outside its process. Instances/s, the median
//    of BENCH_BATCH_RUNS (default 3) runs each; goal: ratio ≥ 1.6, with predictionCount = N and errorCount 0 in every
//    run.
#include "benchreport.h"
#include "executorprocess.h"
#include "keepaliveclient.h"
#include "versionlog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

using Trainyard::Test::Connection;
using Trainyard::Test::HttpResponse;

double seconds()
{
    bool ok = false;
    const double v = qEnvironmentVariable("BENCH_SECONDS").toDouble(&ok);
    return ok && v > 0 ? v : 2.0;
}

struct Load {
    double perSecond = 0;
    double p50Ms = 0;
    qint64 failures = 0;
    qint64 requests = 0; ///< answered with 200
};

/// CPU time (user + system) of process `root` and of every process below it, in seconds: utime and stime of
/// /proc/<pid>/stat (proc(5), fields 14 and 15, clock ticks; a process's ended threads are in its own figures).
double treeCpuSeconds(qint64 root)
{
    struct Entry {
        qint64 parent = 0;
        qint64 ticks = 0;
    };
    QHash<qint64, Entry> processes;
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        bool isPid = false;
        const qint64 pid = it.next().section(QLatin1Char('/'), -1).toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        // "pid (comm) S ppid …": comm may hold spaces, so the fields are counted from the last ')'.
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 13)
            continue;
        processes.insert(pid, Entry { fields.at(1).toLongLong(), fields.at(11).toLongLong() + fields.at(12).toLongLong() });
    }
    qint64 ticks = 0;
    QList<qint64> tree { root };
    for (qsizetype i = 0; i < tree.size(); ++i) {
        ticks += processes.value(tree.at(i)).ticks;
        for (auto p = processes.cbegin(); p != processes.cend(); ++p) {
            if (p->parent == tree.at(i))
                tree << p.key();
        }
    }
    return double(ticks) / double(sysconf(_SC_CLK_TCK));
}

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice), for a baseline server to bind.
quint16 freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof addr;
    quint16 port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

/// `clients` threads, each on its own keep-alive connection, POST `bodies` (round robin) to `target` for `duration` s.
Load load(quint16 port, const QByteArray& target, const QByteArray& token, const QList<QByteArray>& bodies, int clients,
    double duration)
{
    std::atomic<int> ready { 0 };
    std::atomic<bool> go { false }, stop { false };
    std::vector<std::vector<double>> latencies { std::size_t(clients) };
    std::vector<qint64> failures(static_cast<std::size_t>(clients), 0);
    std::vector<std::thread> threads;
    for (int i = 0; i < clients; ++i) {
        threads.emplace_back([&, i] {
            auto conn = std::make_unique<Connection>(port);
            ready.fetch_add(1);
            while (!go.load())
                std::this_thread::yield();
            HttpResponse r;
            for (qsizetype k = i; !stop.load(std::memory_order_relaxed); ++k) {
                const auto t0 = std::chrono::steady_clock::now();
                const bool ok = conn->request("POST", target, token, bodies[k % bodies.size()], &r);
                const auto t1 = std::chrono::steady_clock::now();
                if (stop.load(std::memory_order_relaxed))
                    break;
                if (!ok || r.status != 200) {
                    ++failures[std::size_t(i)];
                    if (!ok)
                        conn = std::make_unique<Connection>(port);
                    continue;
                }
                latencies[std::size_t(i)].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
        });
    }
    while (ready.load() < clients)
        std::this_thread::yield();
    const double start = BenchReport::wallSeconds();
    go.store(true);
    std::this_thread::sleep_for(std::chrono::duration<double>(duration));
    stop.store(true);
    const double elapsed = BenchReport::wallSeconds() - start;
    for (std::thread& t : threads)
        t.join();
    Load result;
    std::vector<double> all;
    for (std::size_t i = 0; i < latencies.size(); ++i) {
        all.insert(all.end(), latencies[i].begin(), latencies[i].end());
        result.failures += failures[i];
    }
    result.perSecond = double(all.size()) / elapsed;
    result.requests = qint64(all.size());
    result.p50Ms = BenchReport::median(all);
    return result;
}

QJsonObject post(Trainyard::Test::ExecutorProcess& executor, const QByteArray& path, const QJsonObject& body)
{
    Connection c(quint16(executor.url().port()));
    HttpResponse r;
    c.request("POST", path, executor.token(), QJsonDocument(body).toJson(QJsonDocument::Compact), &r);
    return QJsonDocument::fromJson(r.body).object();
}

QJsonObject get(Trainyard::Test::ExecutorProcess& executor, const QByteArray& path)
{
    Connection c(quint16(executor.url().port()));
    HttpResponse r;
    c.request("GET", path, executor.token(), {}, &r);
    return QJsonDocument::fromJson(r.body).object();
}

/// Deploys `folder` as version `name` with `nodes` nodes and waits until it is READY; false when it is not.
bool deploy(Trainyard::Test::ExecutorProcess& executor, const QString& name, const QString& folder, int nodes)
{
    post(executor, "/v1/projects/local/models/bench/versions",
        { { QStringLiteral("name"), name }, { QStringLiteral("deploymentUri"), folder },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") },
            nodes > 0 ? qMakePair(
                QStringLiteral("manualScaling"), QJsonValue(QJsonObject { { QStringLiteral("nodes"), nodes } }))
                      : qMakePair(QStringLiteral("autoScaling"),
                          QJsonValue(
                              QJsonObject { { QStringLiteral("minNodes"), 0 }, { QStringLiteral("maxNodes"), 1 } })) });
    return QTest::qWaitFor(
               [&] {
                   const QString state = get(executor, "/v1/projects/local/models/bench/versions/" + name.toLatin1())
                                             .value(QStringLiteral("state"))
                                             .toString();
                   return state == QLatin1String("READY") || state == QLatin1String("FAILED");
               },
               120000)
        && get(executor, "/v1/projects/local/models/bench/versions/" + name.toLatin1())
               .value(QStringLiteral("state"))
               .toString()
        == QLatin1String("READY");
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir root;
    for (const char* d : { "run", "data", "config", "models" })
        QDir().mkpath(root.filePath(QLatin1String(d)));
    QFile::setPermissions(
        root.filePath(QStringLiteral("run")), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const QString models = root.filePath(QStringLiteral("models"));
    const QString python = QStringLiteral("/usr/bin/python3");
    QProcess make;
    make.setProcessChannelMode(QProcess::ForwardedChannels);
    make.start(python, { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/prediction_models.py"), models });
    if (!make.waitForFinished(300000) || make.exitCode() != 0) {
        std::fprintf(stderr, "bench_predict: cannot make the models (prediction_models.py)\n");
        return 1;
    }
    QFile expected(models + QStringLiteral("/expected.json"));
    expected.open(QIODevice::ReadOnly);
    const QJsonArray instances
        = QJsonDocument::fromJson(expected.readAll()).object().value(QStringLiteral("instances")).toArray();
    QList<QByteArray> bodies;
    for (const QJsonValue& instance : instances)
        bodies << QJsonDocument(QJsonObject { { QStringLiteral("instances"), QJsonArray { instance } } })
                      .toJson(QJsonDocument::Compact);
    QFile instancesFile(models + QStringLiteral("/instances.json"));
    instancesFile.open(QIODevice::WriteOnly);
    instancesFile.write(QJsonDocument(instances).toJson(QJsonDocument::Compact));
    instancesFile.close();
    const QString modelFile = models + QStringLiteral("/sklearn/model.joblib");
    const QString baseline = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/bench/predict_baseline.py");
    const double duration = seconds();
    BenchReport::printHost();
    const int runs = BenchReport::runs(5);

    // The floor, one run: model.predict in one Python process for `duration` seconds; its p50 (ms).
    auto floorRun = [&]() -> double {
        QProcess floor;
        floor.start(python,
            { baseline, QStringLiteral("inprocess"), modelFile, instancesFile.fileName(), QString::number(duration) });
        floor.waitForFinished(int(duration * 1000) + 120000);
        const QJsonObject result = QJsonDocument::fromJson(floor.readAllStandardOutput()).object();
        return result.contains(QLatin1String("p50Ms")) ? result.value(QStringLiteral("p50Ms")).toDouble() : -1.0;
    };

    Trainyard::Test::ExecutorProcess executor(root.path());
    // Its log says when a warm spare is ready (3. cold start).
    const QString executorLog = root.filePath(QStringLiteral("executor.log"));
    executor.setLogFile(executorLog);
    QString error;
    if (!executor.start(Trainyard::Test::ExecutorProcess::defaultArguments()
                + QStringList { QStringLiteral("--prediction-idle-seconds"), QStringLiteral("1") },
            &error)) {
        std::fprintf(stderr, "bench_predict: the executor did not start: %s\n", qPrintable(error));
        return 1;
    }
    post(executor, "/v1/projects/local/models", { { QStringLiteral("name"), QStringLiteral("bench") } });
    if (!deploy(executor, QStringLiteral("one"), models + QStringLiteral("/sklearn"), 1)
        || !deploy(executor, QStringLiteral("two"), models + QStringLiteral("/sklearn"), 2)
        || !deploy(executor, QStringLiteral("zero"), models + QStringLiteral("/sklearn"), 0)) {
        std::fprintf(stderr, "bench_predict: the versions did not become READY\n");
        return 1;
    }
    quint16 port = quint16(executor.url().port());
    QByteArray token = executor.token();
    const QByteArray one = "/v1/projects/local/models/bench/versions/one:predict";
    const QByteArray two = "/v1/projects/local/models/bench/versions/two:predict";
    qint64 failures = 0;
    auto failed = [&failures](const Load& l) {
        failures += l.failures;
        return l;
    };

    // 1. Latency: one client, back to back, against the floor, alternating run by run.
    const BenchReport::Samples latency = BenchReport::alternate(
        1, runs, [&] { return failed(load(port, one, token, bodies, 1, duration)).p50Ms; }, floorRun);
    const double oursP50 = BenchReport::median(latency.ours);
    const double floorP50 = BenchReport::median(latency.baseline);
    BenchReport::printLine("online_predict_p50", latency, "ms", oursP50 / floorP50, 1,
        "p50 of one client's back-to-back requests through the executor (1 node) vs model.predict in one Python "
        "process, one instance each");

    // 2. Throughput: 8 clients against the minimal server a user would write, alternating run by run.
    QProcess server;
    server.start(python, { baseline, QStringLiteral("server"), modelFile });
    server.waitForReadyRead(60000);
    const quint16 serverPort = quint16(server.readLine().trimmed().toUInt());
    if (serverPort == 0) {
        std::fprintf(stderr, "bench_predict: the baseline server did not start\n");
        return 1;
    }
    std::vector<BenchReport::Goal> goals { { "online_predict_p50", "overhead (ms)", oursP50 - floorP50, false, 1.0 } };
    for (int nodes : { 1, 2 }) {
        const QByteArray& target = nodes == 1 ? one : two;
        const BenchReport::Samples s = BenchReport::alternate(
            1, runs, [&] { return failed(load(port, target, token, bodies, 8, duration)).perSecond; },
            [&] { return failed(load(serverPort, "/predict", {}, bodies, 8, duration)).perSecond; });
        const std::string name = "online_predict_8_clients_" + std::to_string(nodes) + "_node";
        const double ratio = BenchReport::median(s.ours) / BenchReport::median(s.baseline);
        BenchReport::printLine(name, s, "requests/s", ratio, 1,
            "8 keep-alive clients, one instance a request, " + std::to_string(nodes)
                + " node(s) vs http.server's ThreadingHTTPServer around the same model");
        goals.push_back({ name, "ratio", ratio, true, 1.0 });
    }
    server.closeWriteChannel();
    server.waitForFinished(10000);

    // 2b. The serving anchor: FastAPI on uvicorn, N workers against our N nodes.
    for (int workers : { 1, 2 }) {
        const quint16 fastPort = freePort();
        QProcess fast;
        fast.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        fast.start(python,
            { baseline, QStringLiteral("fastapi"), modelFile, QString::number(fastPort), QString::number(workers) });
        bool up = false;
        (void)QTest::qWaitFor(
            [&] {
                if (fast.state() == QProcess::NotRunning)
                    return true;
                Connection probe(fastPort);
                HttpResponse r;
                up = probe.request("POST", "/predict", {}, bodies.first(), &r) && r.status == 200;
                return up;
            },
            60000);
        if (!up) {
            std::printf("online_predict_vs_fastapi: skipped: FastAPI on uvicorn did not serve (%s)\n",
                fast.exitCode() == 2 ? "its packages are missing, see the message above" : "it did not start");
            fast.kill();
            fast.waitForFinished(10000);
            break;
        }
        const QByteArray& target = workers == 1 ? one : two;
        // Each run's requests/s, and the servers' CPU per request in the same run (µs).
        BenchReport::Samples cpu;
        auto measured = [&](qint64 serverPid, auto&& run, std::vector<double>* cpuSamples) {
            const double before = treeCpuSeconds(serverPid);
            const Load l = failed(run());
            cpuSamples->push_back(l.requests > 0 ? (treeCpuSeconds(serverPid) - before) * 1e6 / double(l.requests) : 0);
            return l.perSecond;
        };
        const BenchReport::Samples s = BenchReport::alternate(
            1, runs,
            [&] {
                return measured(executor.pid(), [&] { return load(port, target, token, bodies, 8, duration); }, &cpu.ours);
            },
            [&] {
                return measured(fast.processId(), [&] { return load(fastPort, "/predict", {}, bodies, 8, duration); },
                    &cpu.baseline);
            });
        const std::string name = "online_predict_8_clients_" + std::to_string(workers) + "_node_vs_fastapi";
        const double ratio = BenchReport::median(s.ours) / BenchReport::median(s.baseline);
        BenchReport::printLine(name, s, "requests/s", ratio, 1,
            "8 keep-alive clients, one instance a request, " + std::to_string(workers)
                + " node(s) vs FastAPI on uvicorn (uvloop, httptools) with as many workers, around the same model");
        goals.push_back({ name, "ratio", ratio, true, 1.5 });
        // The warm-up round's figures go, as alternate() drops its requests/s.
        cpu.ours.erase(cpu.ours.begin(), cpu.ours.end() - std::min<std::ptrdiff_t>(cpu.ours.size(), runs));
        cpu.baseline.erase(
            cpu.baseline.begin(), cpu.baseline.end() - std::min<std::ptrdiff_t>(cpu.baseline.size(), runs));
        BenchReport::printLine(name + "_cpu", cpu, "us a request",
            BenchReport::median(cpu.baseline) / BenchReport::median(cpu.ours), 1,
            "CPU time of the servers' processes (the executor and its nodes; uvicorn and its workers) per request in "
            "the same runs; ratio = FastAPI's over ours");
        fast.terminate();
        if (!fast.waitForFinished(15000)) {
            fast.kill();
            fast.waitForFinished(5000);
        }
    }

    // 3. Cold start: wait until version "zero" has no node (by its log: a node that took a warm spare runs under the
    // spare's command line, versionlog.h), then time one request. First with the executor's warm spare of the
    // runtime (the default: the cold start takes it, and is waited for to be ready before each request), then with
    // --no-warm-spares, where a node process starts and imports the framework (the split says what that costs).
    const QByteArray zero = "/v1/projects/local/models/bench/versions/zero:predict";
    QString zeroLog;
    for (QDirIterator it(root.path(), { QStringLiteral("nodes.log") }, QDir::Files, QDirIterator::Subdirectories);
         it.hasNext();) {
        const QString path = it.next();
        if (path.contains(QLatin1String("/versions/zero/")))
            zeroLog = path;
    }
    const auto textOf = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    };
    // One cold request per run; `split` (the version log's "ready in" line of that start) gives its parts.
    qint64 logFrom = 0; // where this executor's part of the version's log begins
    const auto coldStarts = [&](bool spare, const QRegularExpression& split, std::vector<std::vector<double>>* parts) {
        return BenchReport::repeat(0, runs, [&]() -> double {
            if (!QTest::qWaitFor([&] { return Trainyard::Test::nodesUpByLog(zeroLog, logFrom) == 0; }, 60000))
                return -1;
            const qsizetype sparesReady = textOf(executorLog).count(QLatin1String("warm spare for SCIKIT_LEARN models ready"));
            const qsizetype sparesTaken = textOf(zeroLog).count(QLatin1String("a warm spare (SCIKIT_LEARN imported) takes"));
            if (spare && sparesReady <= sparesTaken
                && !QTest::qWaitFor(
                    [&] {
                        return textOf(executorLog).count(QLatin1String("warm spare for SCIKIT_LEARN models ready"))
                            > sparesTaken;
                    },
                    60000))
                return -1;
            Connection c(port);
            HttpResponse r;
            const double t0 = BenchReport::wallSeconds();
            const bool ok = c.request("POST", zero, token, bodies.first(), &r);
            const double ms = (BenchReport::wallSeconds() - t0) * 1000.0;
            QRegularExpressionMatch last;
            for (auto m = split.globalMatch(textOf(zeroLog)); m.hasNext();)
                last = m.next();
            if (ok && last.hasMatch()) {
                parts->resize(size_t(split.captureCount()));
                (*parts)[0].push_back(ms - last.captured(1).toDouble() * 1000); // the request and the rest
                for (int i = 2; i <= split.captureCount(); ++i)
                    (*parts)[size_t(i - 1)].push_back(last.captured(i).toDouble() * 1000);
            }
            return ok && r.status == 200 ? ms : -1.0;
        });
    };
    std::vector<std::vector<double>> spareParts;
    const std::vector<double> cold = coldStarts(true,
        QRegularExpression(
            QStringLiteral("ready in ([0-9.]+) s: .*\\(a warm spare: model copy ([0-9.]+) s, model load ([0-9.]+) s\\)")),
        &spareParts);
    BenchReport::printLine("online_predict_cold_start", BenchReport::spread(cold), BenchReport::spread(latency.ours),
        "ms", BenchReport::median(cold) / oursP50, cold.size(), 0,
        "one request to a version scaled to zero (a node starts from the runtime's warm spare and loads the model) vs a "
        "warm request's p50");
    goals.push_back({ "online_predict_cold_start", "ours (ms)", BenchReport::median(cold), false, 500.0 });
    if (spareParts.size() == 3)
        std::printf("online_predict_cold_start_split: medians of %zu cold starts from a warm spare: the model folder "
                    "sent to the spare %.1f ms, the model's load %.0f ms, the rest (the request, the first predict, "
                    "the executor's hand-over) %.0f ms\n",
            spareParts[0].size(), BenchReport::median(spareParts[1]), BenchReport::median(spareParts[2]),
            BenchReport::median(spareParts[0]));

    // The same without a spare: the executor again, with --no-warm-spares (its versions come back READY).
    executor.stop();
    logFrom = QFileInfo(zeroLog).size();
    if (!executor.start(Trainyard::Test::ExecutorProcess::defaultArguments()
                + QStringList { QStringLiteral("--prediction-idle-seconds"), QStringLiteral("1"),
                    QStringLiteral("--no-warm-spares") },
            &error)) {
        std::fprintf(stderr, "bench_predict: the executor did not start again: %s\n", qPrintable(error));
        return 1;
    }
    port = quint16(executor.url().port());
    token = executor.token();
    std::vector<std::vector<double>> processParts;
    const std::vector<double> coldProcess = coldStarts(false,
        QRegularExpression(QStringLiteral("ready in ([0-9.]+) s: .*process and interpreter start ([0-9.]+) s, imports "
                                          "([0-9.]+) s, model load ([0-9.]+) s")),
        &processParts);
    BenchReport::printLine("online_predict_cold_start_without_spare", BenchReport::spread(coldProcess),
        BenchReport::spread(latency.ours), "ms", BenchReport::median(coldProcess) / oursP50, coldProcess.size(), 0,
        "the same with --no-warm-spares: a node process starts and imports the framework first");
    if (processParts.size() == 4)
        std::printf("online_predict_cold_start_without_spare_split: medians of %zu cold starts: process and "
                    "interpreter start (the sandbox's included) %.0f ms, the framework's imports %.0f ms, the model's "
                    "load %.0f ms, the rest (the request, the first predict, the executor's start of the node) %.0f ms\n",
            processParts[0].size(), BenchReport::median(processParts[1]), BenchReport::median(processParts[2]),
            BenchReport::median(processParts[3]), BenchReport::median(processParts[0]));
    std::printf(
        "online_predict_context: %lld failed requests in all runs; each run %.1f s\n", qlonglong(failures), duration);

    // 4. Batch: the same input for the job and for the loop.
    const qint64 batchInstances = qEnvironmentVariableIsSet("BENCH_BATCH_INSTANCES")
        ? qEnvironmentVariable("BENCH_BATCH_INSTANCES").toLongLong()
        : 1000000;
    if (batchInstances > 0) {
        const QJsonArray all = QJsonDocument::fromJson([&] {
            QFile f(models + QStringLiteral("/expected.json"));
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }())
                                   .object()
                                   .value(QStringLiteral("allInstances"))
                                   .toArray();
        const QString input = root.filePath(QStringLiteral("batch-input.json"));
        {
            QFile f(input);
            f.open(QIODevice::WriteOnly);
            QList<QByteArray> rows;
            for (const QJsonValue& v : all)
                rows << QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact) + '\n';
            for (qint64 i = 0; i < batchInstances; ++i)
                f.write(rows.at(int(i % rows.size())));
        }
        const qint64 inputBytes = QFileInfo(input).size();
        int jobNumber = 0;
        bool countsRight = true;
        const auto job = [&]() -> double {
            const QString id = QStringLiteral("batch_%1").arg(++jobNumber);
            const QString out = root.filePath(QStringLiteral("batch-out/") + id);
            const QJsonObject created = post(executor, "/v1/projects/local/jobs",
                { { QStringLiteral("jobId"), id },
                    { QStringLiteral("predictionInput"),
                        QJsonObject { { QStringLiteral("versionName"),
                                          QStringLiteral("projects/local/models/bench/versions/one") },
                            { QStringLiteral("dataFormat"), QStringLiteral("JSON") },
                            { QStringLiteral("inputPaths"), QJsonArray { input } },
                            { QStringLiteral("outputPath"), out },
                            { QStringLiteral("region"), QStringLiteral("local") },
                            { QStringLiteral("maxWorkerCount"), 2 }, { QStringLiteral("batchSize"), 64 } } } });
            if (created.value(QStringLiteral("jobId")).toString() != id)
                return -1;
            QJsonObject final;
            const QByteArray path = "/v1/projects/local/jobs/" + id.toUtf8();
            (void)QTest::qWaitFor(
                [&] {
                    final = get(executor, path);
                    const QString state = final.value(QStringLiteral("state")).toString();
                    return state == QLatin1String("SUCCEEDED") || state == QLatin1String("FAILED")
                        || state == QLatin1String("CANCELLED");
                },
                1800000);
            const QJsonObject output = final.value(QStringLiteral("predictionOutput")).toObject();
            if (final.value(QStringLiteral("state")).toString() != QLatin1String("SUCCEEDED")
                || output.value(QStringLiteral("predictionCount")).toString().toLongLong() != batchInstances
                || output.value(QStringLiteral("errorCount")).toString().toLongLong() != 0) {
                countsRight = false;
                std::fprintf(stderr, "bench_predict: batch job %s: %s\n", qPrintable(id),
                    QJsonDocument(final).toJson(QJsonDocument::Compact).constData());
                return -1;
            }
            QDir(out).removeRecursively();
            const QDateTime created0
                = QDateTime::fromString(final.value(QStringLiteral("createTime")).toString(), Qt::ISODateWithMs);
            const QDateTime ended
                = QDateTime::fromString(final.value(QStringLiteral("endTime")).toString(), Qt::ISODateWithMs);
            return double(batchInstances) / (created0.msecsTo(ended) / 1000.0);
        };
        const auto loop = [&]() -> double {
            QProcess p;
            const QString out = root.filePath(QStringLiteral("batch-loop.json"));
            const double t0 = BenchReport::wallSeconds();
            p.start(python, { baseline, QStringLiteral("loop"), modelFile, input, out, QStringLiteral("64") });
            p.waitForFinished(1800000);
            const double wall = BenchReport::wallSeconds() - t0;
            const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
            QFile::remove(out);
            if (qint64(r.value(QStringLiteral("instances")).toDouble()) != batchInstances) {
                countsRight = false;
                return -1;
            }
            return double(batchInstances) / wall;
        };
        const int batchRuns
            = qEnvironmentVariableIsSet("BENCH_BATCH_RUNS") ? qEnvironmentVariable("BENCH_BATCH_RUNS").toInt() : 3;
        const BenchReport::Samples batch = BenchReport::alternate(0, batchRuns, job, loop);
        const double ratio = BenchReport::median(batch.ours) / BenchReport::median(batch.baseline);
        const std::string name = "batch_predict_" + std::to_string(batchInstances) + "_instances";
        BenchReport::printLine(name, batch, "instances/s", ratio, 0,
            "a batch prediction job, 2 workers, batchSize 64, createTime to endTime, vs one Python loop calling "
            "model.predict on batches of 64 (same input, same output lines)");
        std::printf("batch_predict_context: %.0f MB of JSON lines; counts %s in every run\n", inputBytes / 1e6,
            countsRight ? "right (predictionCount = instances, errorCount 0)" : "WRONG");
        goals.push_back({ name, "ratio", countsRight ? ratio : 0.0, true, 1.6 });
        QFile::remove(input);
    }
    for (const BenchReport::Goal& g : goals)
        BenchReport::printGoal(g);
    executor.stop();
    return 0;
}
