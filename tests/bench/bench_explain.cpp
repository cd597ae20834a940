// SPDX-License-Identifier: GPL-2.0-or-later
// bench_explain: explanations through the executor (issue 47, "Benchmarks"). Each figure is the median of BENCH_RUNS
// (default 5) runs of BENCH_SECONDS (default 2) s, ours and the baseline alternating run by run (README.md "What every
// bench prints").
//
// 1. explain_sampled_shapley_<model>_p50 for a 30-feature scikit-learn model (prediction_models.py's
//    explain/linear) and a built-in XGBoost model (trained here on the breast cancer table: 30 numeric columns
//    through its preprocessing): sampled Shapley with 10 paths, one instance per `:explain` request back to back
//    through a real trainyard-executor (authentication, routing, the version's node over its pipes), against the same
//    explanations.explain() call in one Python process with the model loaded once (explain_baseline.py inprocess:
//    the floor). Goal: ratio (ours / floor) ≤ 1.25.
// 2. explain_integrated_gradients_batched: integrated gradients with 50 steps on the Fashion-MNIST sample's
//    TorchScript model (trained here for one epoch on 5,000 images), per instance: one batched forward/backward over
//    the 51 points of the path (what the nodes run) against a loop of 51 forward/backward passes (the same integral;
//    the script checks they agree). Goal: ratio (loop / batched) ≥ 5. Skipped with a message when the dataset is not
//    installed (dataset-fashion-mnist).
#include "benchreport.h"
#include "executorprocess.h"
#include "keepaliveclient.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

namespace {

using Trainyard::Test::Connection;
using Trainyard::Test::HttpResponse;

double seconds()
{
    bool ok = false;
    const double v = qEnvironmentVariable("BENCH_SECONDS").toDouble(&ok);
    return ok && v > 0 ? v : 2.0;
}

QJsonObject call(Trainyard::Test::ExecutorProcess& executor, const QByteArray& verb, const QByteArray& path,
    const QJsonObject& body = {})
{
    Connection c(quint16(executor.url().port()));
    HttpResponse r;
    c.request(verb, path, executor.token(), verb == "GET" ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact), &r);
    return QJsonDocument::fromJson(r.body).object();
}

/// Deploys `folder` as version `name` of model "bench" with sampled Shapley of `paths` paths; false unless READY.
bool deploy(Trainyard::Test::ExecutorProcess& executor, const QString& name, const QString& folder, int paths)
{
    call(executor, "POST", "/v1/projects/local/models/bench/versions",
        { { QStringLiteral("name"), name }, { QStringLiteral("deploymentUri"), folder },
            { QStringLiteral("explanationConfig"),
                QJsonObject { { QStringLiteral("sampledShapleyAttribution"),
                    QJsonObject { { QStringLiteral("numPaths"), paths } } } } } });
    const QByteArray path = "/v1/projects/local/models/bench/versions/" + name.toLatin1();
    (void)QTest::qWaitFor(
        [&] {
            const QString state = call(executor, "GET", path).value(QStringLiteral("state")).toString();
            return state == QLatin1String("READY") || state == QLatin1String("FAILED");
        },
        120000);
    const QJsonObject v = call(executor, "GET", path);
    if (v.value(QStringLiteral("state")).toString() != QLatin1String("READY"))
        std::fprintf(stderr, "bench_explain: version %s: %s\n", qPrintable(name),
            QJsonDocument(v).toJson(QJsonDocument::Compact).constData());
    return v.value(QStringLiteral("state")).toString() == QLatin1String("READY");
}

/// One client's back-to-back `:explain` requests of one instance each for `duration` s: their p50 (ms); -1 when one
/// fails.
double explainP50(quint16 port, const QByteArray& target, const QByteArray& token, const QList<QByteArray>& bodies,
    double duration)
{
    Connection c(port);
    HttpResponse r;
    std::vector<double> samples;
    const double end = BenchReport::wallSeconds() + duration;
    for (qsizetype k = 0; BenchReport::wallSeconds() < end; ++k) {
        const double t0 = BenchReport::wallSeconds();
        if (!c.request("POST", target, token, bodies[k % bodies.size()], &r) || r.status != 200) {
            std::fprintf(stderr, "bench_explain: %s answered %d: %s\n", target.constData(), r.status, r.body.left(300).constData());
            return -1;
        }
        samples.push_back((BenchReport::wallSeconds() - t0) * 1000.0);
    }
    return BenchReport::median(samples);
}

QJsonObject runPython(const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(QStringLiteral("/usr/bin/python3"), args);
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
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
    const QString script = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/bench/explain_baseline.py");
    const QString table = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/data/builtin/breast_cancer.csv");
    QProcess make;
    make.setProcessChannelMode(QProcess::ForwardedChannels);
    make.start(QStringLiteral("/usr/bin/python3"),
        { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/prediction_models.py"), models });
    if (!make.waitForFinished(300000) || make.exitCode() != 0) {
        std::fprintf(stderr, "bench_explain: cannot make the models (prediction_models.py)\n");
        return 1;
    }
    const QString builtinDir = root.filePath(QStringLiteral("builtin_job"));
    QProcess train;
    train.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    train.start(QStringLiteral("/usr/bin/python3"), { script, QStringLiteral("builtin"), table, builtinDir });
    if (!train.waitForFinished(300000) || train.exitCode() != 0) {
        std::fprintf(stderr, "bench_explain: the built-in XGBoost job failed\n");
        return 1;
    }

    // Instances: the table's first rows, as numbers (the scikit-learn model) and as raw rows (the built-in model).
    QFile expected(models + QStringLiteral("/expected.json"));
    expected.open(QIODevice::ReadOnly);
    const QJsonArray numbers
        = QJsonDocument::fromJson(expected.readAll()).object().value(QStringLiteral("instances")).toArray();
    const QString numbersFile = root.filePath(QStringLiteral("instances.json"));
    {
        QFile f(numbersFile);
        f.open(QIODevice::WriteOnly);
        f.write(QJsonDocument(numbers).toJson(QJsonDocument::Compact));
    }
    QList<QByteArray> bodies;
    for (const QJsonValue& instance : numbers)
        bodies << QJsonDocument(QJsonObject { { QStringLiteral("instances"), QJsonArray { instance } } })
                      .toJson(QJsonDocument::Compact);

    BenchReport::printHost();
    const int runs = BenchReport::runs(5);
    const double duration = seconds();
    Trainyard::Test::ExecutorProcess executor(root.path());
    QString error;
    if (!executor.start(&error)) {
        std::fprintf(stderr, "bench_explain: the executor did not start: %s\n", qPrintable(error));
        return 1;
    }
    call(executor, "POST", "/v1/projects/local/models", { { QStringLiteral("name"), QStringLiteral("bench") } });
    const int paths = 10;
    if (!deploy(executor, QStringLiteral("sklearn"), models + QStringLiteral("/explain/linear"), paths)
        || !deploy(executor, QStringLiteral("builtin_xgb"), builtinDir + QStringLiteral("/model"), paths)) {
        std::fprintf(stderr, "bench_explain: the versions did not become READY\n");
        return 1;
    }
    const quint16 port = quint16(executor.url().port());
    std::vector<BenchReport::Goal> goals;
    struct Line {
        const char* name;
        QByteArray version;
        QString dir;
        QString framework;
    };
    for (const Line& line : { Line { "explain_sampled_shapley_sklearn_30_features_p50", "sklearn",
                                  models + QStringLiteral("/explain/linear"), QStringLiteral("SCIKIT_LEARN") },
             Line { "explain_sampled_shapley_builtin_xgboost_p50", "builtin_xgb", builtinDir + QStringLiteral("/model"),
                 QStringLiteral("XGBOOST") } }) {
        const QByteArray target = "/v1/projects/local/models/bench/versions/" + line.version + ":explain";
        const BenchReport::Samples s = BenchReport::alternate(
            1, runs, [&] { return explainP50(port, target, executor.token(), bodies, duration); },
            [&] {
                const QJsonObject r = runPython({ script, QStringLiteral("inprocess"), line.dir, line.framework,
                                                    numbersFile, QString::number(paths), QString::number(duration) },
                    int(duration * 1000) + 120000);
                return r.contains(QLatin1String("p50Ms")) ? r.value(QStringLiteral("p50Ms")).toDouble() : -1.0;
            });
        const double ratio = BenchReport::median(s.ours) / BenchReport::median(s.baseline);
        BenchReport::printLine(line.name, s, "ms", ratio, 1,
            "p50 of one instance's sampled Shapley (10 paths) per :explain request through the executor vs "
            "explanations.explain() in one Python process");
        goals.push_back({ line.name, "ratio", ratio, false, 1.25 });
    }
    executor.stop();

    // 2. Integrated gradients on the sample's model: batched against a per-step loop.
    if (!QFile::exists(QStringLiteral("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"))) {
        std::printf("explain_integrated_gradients_batched: skipped: the Fashion-MNIST dataset is not installed "
                    "(dataset-fashion-mnist)\n");
    } else {
        const QString jobDir = root.filePath(QStringLiteral("fmnist"));
        QProcess sample;
        sample.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        sample.setWorkingDirectory(QStringLiteral(TRAINYARD_SOURCE_DIR "/resources/trainers/fmnist"));
        sample.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-m"), QStringLiteral("trainer.task"), QStringLiteral("--job-dir"), jobDir,
                QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--train-examples"),
                QStringLiteral("5000") });
        if (!sample.waitForFinished(600000) || sample.exitCode() != 0) {
            std::fprintf(stderr, "bench_explain: the Fashion-MNIST sample did not train\n");
            return 1;
        }
        std::vector<double> batched, looped;
        for (int i = 0; i < runs; ++i) {
            const QJsonObject r = runPython({ script, QStringLiteral("gradients"), jobDir + QStringLiteral("/model"),
                                                QStringLiteral("fashion-mnist"), QStringLiteral("50"), QString::number(duration) },
                int(duration * 1000) + 120000);
            if (r.isEmpty()) {
                std::fprintf(stderr, "bench_explain: the integrated gradients run failed\n");
                return 1;
            }
            batched.push_back(r.value(QStringLiteral("batchedP50Ms")).toDouble());
            looped.push_back(r.value(QStringLiteral("loopP50Ms")).toDouble());
        }
        const double ratio = BenchReport::median(looped) / BenchReport::median(batched);
        BenchReport::printLine("explain_integrated_gradients_batched", BenchReport::spread(batched),
            BenchReport::spread(looped), "ms", ratio, runs, 0,
            "integrated gradients, 50 steps, one Fashion-MNIST image: one batched forward/backward of 51 points vs "
            "51 forward/backward passes (ratio: loop / batched)");
        goals.push_back({ "explain_integrated_gradients_batched", "ratio", ratio, true, 5.0 });
    }
    for (const BenchReport::Goal& g : goals)
        BenchReport::printGoal(g);
    return 0;
}
