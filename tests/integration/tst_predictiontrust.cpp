// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 42, items 2-15: the prediction surface holds as the job surface does. Against a real executor (sandboxed, as
// it runs by default): the executor's own folders never pass a path rule; input paths, links in a model folder,
// /proc paths and a version's packages are refused at once, naming the field; a CREATING version can be cancelled and
// deleted; one request cannot take a version down (a deep instance, a node that hangs, an answer too large); node
// counts a host can never hold, oversized records and type gaps are refused; a full disk leaves no partial copy, lets
// deletes through, and ends a batch job with the reason. The sandbox itself is integration/tst_sandbox.
#include "apirequest.h"
#include "executorenvironment.h"
#include "executorprocess.h"
#include "requireddependencies.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QStorageInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <unistd.h>

using namespace Trainyard;
using Trainyard::Test::ApiResponse;

namespace {

QByteArray json(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// The Python processes of prediction nodes whose command line holds `needle` (not the bubblewrap processes around
/// them, which carry the same command line).
QList<qint64> nodesWith(const QString& needle)
{
    QList<qint64> pids;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (!isPid || !cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray raw = cmdline.readAll();
        if (raw.left(raw.indexOf('\0')).endsWith("bwrap"))
            continue;
        if (raw.contains("prediction_server") && raw.contains(needle.toUtf8()))
            pids << pid;
    }
    return pids;
}

/// Processes whose command line holds `needle`, any program.
int processesWith(const QString& needle)
{
    int n = 0;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(needle.toUtf8()))
            ++n;
    }
    return n;
}

/// A process's resident memory (VmRSS, bytes); 0 when it cannot be read.
qint64 residentBytes(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    }
    return 0;
}

} // namespace

class TestPredictionTrust : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    std::unique_ptr<Test::ExecutorProcess> m_executor;
    QNetworkAccessManager m_nam;
    QString m_models;

    QString path(const QString& relative) const { return m_root.filePath(relative); }
    QString dataDir() const { return path(QStringLiteral("data/trainyard")); }

    ApiResponse send(const QByteArray& verb, const QString& apiPath, const QByteArray& body = {})
    {
        return Test::sendApiRequest(m_nam, verb, Test::apiUrl(m_executor->url(), apiPath), body,
            { { "Authorization", "Bearer " + m_executor->token() } }, 120000);
    }

    /// The first field violation of an error answer.
    static QString violatedField(const ApiResponse& r)
    {
        const QJsonArray details = r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("details")).toArray();
        for (const QJsonValue& d : details) {
            const QJsonArray v = d.toObject().value(QStringLiteral("fieldViolations")).toArray();
            if (!v.isEmpty())
                return v.first().toObject().value(QStringLiteral("field")).toString();
        }
        return {};
    }

    QJsonObject waitForOperation(const QString& name)
    {
        return Test::pollUntil([&] { return send("GET", QStringLiteral("/v1/") + name).json; },
            [](const QJsonObject& op) { return op.value(QStringLiteral("done")).toBool(); }, 180000);
    }

    /// POSTs a version of model m; the create's answer (an operation, or an error).
    ApiResponse createVersion(QJsonObject version)
    {
        return send("POST", QStringLiteral("/v1/projects/local/models/m/versions"), json(version));
    }

    /// Creates a version and waits for its operation; the finished operation.
    QJsonObject deploy(const QJsonObject& version)
    {
        const ApiResponse r = createVersion(version);
        if (r.status != 200) {
            qWarning() << r.body;
            return {};
        }
        return waitForOperation(r.json.value(QStringLiteral("name")).toString());
    }

    ApiResponse predict(const QString& version, const QByteArray& body)
    {
        return send("POST", QStringLiteral("/v1/projects/local/models/m/versions/%1:predict").arg(version), body);
    }

    QJsonObject batchJob(const QString& id, const QJsonObject& input)
    {
        QJsonObject in = input;
        if (!in.contains(QLatin1String("dataFormat")))
            in.insert(QStringLiteral("dataFormat"), QStringLiteral("JSON"));
        return { { QStringLiteral("jobId"), id }, { QStringLiteral("predictionInput"), in } };
    }

    QString waitForJob(const QString& jobId, QJsonObject* job = nullptr)
    {
        const QJsonObject j = Test::pollUntil(
            [&] { return send("GET", QStringLiteral("/v1/projects/local/jobs/") + jobId).json; }, Test::jobStateIsFinal,
            180000);
        if (job)
            *job = j;
        return j.value(QStringLiteral("state")).toString();
    }

    QByteArray nodesLog(const QString& version) const
    {
        QFile log(QString(dataDir() + QStringLiteral("/projects/local/models/m/versions/%1/nodes.log")).arg(version));
        return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobs"), QStringLiteral("jobs/models") }));
        qunsetenv("TRAINYARD_TOKEN");
        m_models = path(QStringLiteral("jobs/models"));
        QProcess python;
        python.setProcessChannelMode(QProcess::ForwardedChannels);
        python.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trust_models.py"), m_models });
        QVERIFY(python.waitForFinished(120000));
        QCOMPARE(python.exitCode(), 0);
        m_executor = std::make_unique<Test::ExecutorProcess>(m_root.path());
        // The executor works in a job-dir root, as it does from $HOME: /proc/self/cwd then leads into the roots.
        m_executor->process().setWorkingDirectory(m_root.path());
        QString error;
        QVERIFY2(m_executor->start(Test::ExecutorProcess::defaultArguments()
                         + QStringList { QStringLiteral("--job-dir-root"), path(QStringLiteral("jobs")),
                             QStringLiteral("--job-dir-root"), m_root.path() },
                     &error),
            qPrintable(error));
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"), json({ { QStringLiteral("name"), QStringLiteral("m") } }))
                     .status,
            200);
        const QJsonObject op = deploy({ { QStringLiteral("name"), QStringLiteral("lr") },
            { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/lr")) },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } });
        QVERIFY2(op.value(QStringLiteral("done")).toBool() && !op.contains(QLatin1String("error")), json(op).constData());
    }

    void cleanupTestCase()
    {
        if (m_executor)
            m_executor->stop();
    }

    /// Item 2: the data, runtime and config folders (and what holds them) pass no path rule, whatever the roots: the
    /// data folder lies in the default root ($HOME), here in a root given to the executor.
    void executorFoldersRefused()
    {
        for (const QString& folder : { path(QStringLiteral("run/trainyard")), dataDir(), path(QStringLiteral("config")),
                 QString(m_root.path() + QStringLiteral("/data")) }) {
            const ApiResponse r = createVersion(
                { { QStringLiteral("name"), QStringLiteral("own") }, { QStringLiteral("deploymentUri"), folder },
                    { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } });
            QCOMPARE(r.status, 400);
            QCOMPARE(violatedField(r), QStringLiteral("version.deploymentUri"));
            QVERIFY2(r.body.contains("executor's own folders"), r.body.constData());
        }
        for (const QString& output : { QString(dataDir() + QStringLiteral("/projects/local/jobs/other")),
                 path(QStringLiteral("run/trainyard/out")) }) {
            const ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/jobs"),
                json(batchJob(QStringLiteral("own_out"),
                    { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/m/versions/lr") },
                        { QStringLiteral("inputPaths"), QJsonArray { QString(m_models + QStringLiteral("/input-deep.json")) } },
                        { QStringLiteral("outputPath"), output } })));
            QCOMPARE(r.status, 400);
            QCOMPARE(violatedField(r), QStringLiteral("predictionInput.outputPath"));
        }
    }

    /// Item 3: every input path and every file a pattern matches follows the rule (roots, no link out, no "..").
    void inputPathsRule()
    {
        QVERIFY(QDir().mkpath(path(QStringLiteral("jobs/in"))));
        QFile good(path(QStringLiteral("jobs/in/a.json")));
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write("[1.0]\n");
        good.close();
        QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), path(QStringLiteral("jobs/in/b.json"))));
        for (const QString& input : { QStringLiteral("/etc/shadow"), QStringLiteral("/etc/*"),
                 path(QStringLiteral("jobs/in/b.json")), path(QStringLiteral("jobs/in/*.json")),
                 path(QStringLiteral("jobs/in/../in/a.json")) }) {
            const ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/jobs"),
                json(batchJob(QStringLiteral("inputs"),
                    { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/m/versions/lr") },
                        { QStringLiteral("inputPaths"), QJsonArray { input } },
                        { QStringLiteral("outputPath"), path(QStringLiteral("jobs/in-out")) } })));
            QVERIFY2(r.status == 400, qPrintable(QString(input + QStringLiteral(": ")) + QString::fromUtf8(r.body)));
            QVERIFY2(violatedField(r).startsWith(QLatin1String("predictionInput.inputPaths")), r.body.constData());
        }
        QVERIFY(!QFile::exists(path(QStringLiteral("jobs/in-out"))));
    }

    /// Item 4: links that leave a model folder, multi-link files and a linked model file are refused by name; nothing
    /// of theirs is copied.
    void deploymentLinks_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind"); // "link" or "hardlink"
        QTest::addColumn<QString>("words");
        QTest::addRow("a link to /etc/hostname") << QStringLiteral("secret.txt") << QStringLiteral("link")
                                                 << QStringLiteral("secret.txt is a link to /etc/hostname");
        QTest::addRow("model.bst as a link") << QStringLiteral("model.bst") << QStringLiteral("link")
                                             << QStringLiteral("model.bst is a link");
        QTest::addRow("a hard link") << QStringLiteral("weights.bin") << QStringLiteral("hardlink")
                                     << QStringLiteral("weights.bin has 2 names");
    }

    void deploymentLinks()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, words);
        static int n = 0;
        const QString folder = path(QStringLiteral("jobs/linked%1").arg(++n));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::copy(QString(m_models + QStringLiteral("/lr/model.pkl")), QString(folder + QStringLiteral("/model.pkl"))));
        if (kind == QLatin1String("link")) {
            QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), folder + QLatin1Char('/') + file));
        } else {
            const QString other = path(QStringLiteral("jobs/elsewhere%1.bin").arg(n));
            QFile f(other);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.close();
            QCOMPARE(::link(QFile::encodeName(other).constData(), QFile::encodeName(folder + QLatin1Char('/') + file).constData()), 0);
        }
        const QString name = QStringLiteral("linked%1").arg(n);
        const QJsonObject op = deploy({ { QStringLiteral("name"), name }, { QStringLiteral("deploymentUri"), folder },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } });
        const QString message = op.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(words), qPrintable(message));
        const QString copy = QString(dataDir() + QStringLiteral("/projects/local/models/m/versions/")) + name;
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral("/model")));
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral("/model.partial")));
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/m/versions/") + name).status, 200);
    }

    /// Item 5: /proc paths are refused for every field (checked against the executor's cwd, used in the worker's).
    void procPaths()
    {
        ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/jobs"),
            json(batchJob(QStringLiteral("proc_out"),
                { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/m/versions/lr") },
                    { QStringLiteral("inputPaths"), QJsonArray { QString(m_models + QStringLiteral("/input-deep.json")) } },
                    { QStringLiteral("outputPath"), QStringLiteral("/proc/self/cwd/x") } })));
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("predictionInput.outputPath"));
        r = createVersion({ { QStringLiteral("name"), QStringLiteral("proc") },
            { QStringLiteral("deploymentUri"), QStringLiteral("/proc/self/cwd") },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } });
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("version.deploymentUri"));
    }

    /// Item 6: a version's packageUris are checked at create as a training job's; a CREATING version can be deleted
    /// and its creation cancelled, and pip stops.
    void packageUris()
    {
        QJsonArray hundredOne;
        for (int i = 0; i < 101; ++i)
            hundredOne.append(QString(m_models + QStringLiteral("/routine-package")));
        for (const QJsonValue& packages : { QJsonValue(QJsonArray { QStringLiteral("/etc") }),
                 QJsonValue(QJsonArray { QStringLiteral("routine-package") }),
                 QJsonValue(QJsonArray { QString(m_models + QStringLiteral("/routine/../routine-package")) }),
                 QJsonValue(QJsonArray { QString(m_models + QStringLiteral("/x") + QChar(0)) }), QJsonValue(hundredOne),
                 QJsonValue(QJsonArray { 5 }) }) {
            const ApiResponse r = createVersion({ { QStringLiteral("name"), QStringLiteral("pkgs") },
                { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/routine")) },
                { QStringLiteral("predictionClass"), QStringLiteral("trustroutine.Predictor") },
                { QStringLiteral("packageUris"), packages } });
            QVERIFY2(r.status == 400, r.body.constData());
            QVERIFY2(violatedField(r).startsWith(QLatin1String("version.packageUris")), r.body.constData());
        }
        // pip runs for ten minutes in setup.py: the version stays CREATING. A delete stops it.
        for (const bool byCancel : { false, true }) {
            const QString name = byCancel ? QStringLiteral("slow_cancel") : QStringLiteral("slow_delete");
            const ApiResponse created = createVersion({ { QStringLiteral("name"), name },
                { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/routine")) },
                { QStringLiteral("predictionClass"), QStringLiteral("slowpkg.Predictor") },
                { QStringLiteral("packageUris"), QJsonArray { QString(m_models + QStringLiteral("/slow-package")) } } });
            QCOMPARE(created.status, 200);
            const QString versionFolder = QString(dataDir() + QStringLiteral("/projects/local/models/m/versions/")) + name;
            QTRY_VERIFY_WITH_TIMEOUT(processesWith(versionFolder + QStringLiteral("/build")) > 0, 60000);
            const QString createOp = created.json.value(QStringLiteral("name")).toString();
            const ApiResponse stop = byCancel
                ? send("POST", QStringLiteral("/v1/") + createOp + QStringLiteral(":cancel"))
                : send("DELETE", QStringLiteral("/v1/projects/local/models/m/versions/") + name);
            QVERIFY2(stop.status == 200, stop.body.constData());
            const QJsonObject op = waitForOperation(createOp);
            QCOMPARE(op.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), 1); // CANCELLED
            QTRY_COMPARE_WITH_TIMEOUT(send("GET", QStringLiteral("/v1/projects/local/models/m/versions/") + name).status, 404, 30000);
            QTRY_COMPARE_WITH_TIMEOUT(processesWith(versionFolder), 0, 30000);
            QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(versionFolder), 30000);
        }
    }

    /// Items 7 and 15: a deeply nested instance is that request's error, the node keeps serving; the executor's
    /// limit and the node's agree. Type gaps of a request are refused naming the field.
    void deepInstancesAndTypeGaps()
    {
        const QByteArray deep1000 = "{\"instances\":[" + QByteArray(1000, '[') + QByteArray(1000, ']') + "]}";
        ApiResponse r = predict(QStringLiteral("lr"), deep1000);
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("levels deep"), r.body.constData());
        // Under the executor's limit: the node refuses it itself, and serves the next request.
        const QByteArray deep60 = "{\"instances\":[" + QByteArray(60, '[') + "1" + QByteArray(60, ']') + "]}";
        for (int i = 0; i < 5; ++i) {
            r = predict(QStringLiteral("lr"), deep60);
            QCOMPARE(r.status, 400);
            QCOMPARE(violatedField(r), QStringLiteral("instances[0]"));
        }
        r = predict(QStringLiteral("lr"), "{\"instances\":[[0.5],[2.5]]}");
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.json.value(QStringLiteral("predictions")).toArray(), (QJsonArray { 0, 1 }));
        QVERIFY2(!nodesLog(QStringLiteral("lr")).contains("restarting"), nodesLog(QStringLiteral("lr")).constData());

        r = predict(QStringLiteral("lr"), "{\"instances\":[[0.5]],\"instances\":[[2.5]]}");
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("instances"));
        r = predict(QStringLiteral("lr"), "{\"instances\":[[0.5]],\"signature_name\":5}");
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("signature_name"));
        r = predict(QStringLiteral("lr"),
            "{\"instances\":[[0.5]],\"signature_name\":\"" + QByteArray(1 << 20, 's') + "\"}");
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("signature_name"));
        r = send("POST", QStringLiteral("/v1/projects/local/models"),
            json({ { QStringLiteral("name"), QStringLiteral("yes") }, { QStringLiteral("onlinePredictionLogging"), QStringLiteral("yes") } }));
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("model.onlinePredictionLogging"));
        // Words for what the field is, not "the job dir".
        r = createVersion({ { QStringLiteral("name"), QStringLiteral("words") }, { QStringLiteral("deploymentUri"), QStringLiteral("model") },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } });
        QVERIFY2(r.body.contains("the model folder") && !r.body.contains("job dir"), r.body.constData());
        r = send("POST", QStringLiteral("/v1/projects/local/jobs"),
            json(batchJob(QStringLiteral("words"),
                { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/m/versions/lr") },
                    { QStringLiteral("inputPaths"), QJsonArray { QString(m_models + QStringLiteral("/input-deep.json")) } },
                    { QStringLiteral("outputPath"), QStringLiteral("out") } })));
        QVERIFY2(r.body.contains("the output folder") && !r.body.contains("job dir"), r.body.constData());
    }

    /// Item 8: a deeply nested line of a batch job is counted in the errors file; the job succeeds.
    void batchDeepLine()
    {
        const QString out = path(QStringLiteral("jobs/deep_out"));
        const ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/jobs"),
            json(batchJob(QStringLiteral("deep_batch"),
                { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/m/versions/lr") },
                    { QStringLiteral("inputPaths"), QJsonArray { QString(m_models + QStringLiteral("/input-deep.json")) } },
                    { QStringLiteral("outputPath"), out } })));
        QVERIFY2(r.status == 200, r.body.constData());
        QJsonObject job;
        QCOMPARE(waitForJob(QStringLiteral("deep_batch"), &job), QStringLiteral("SUCCEEDED"));
        const QJsonObject output = job.value(QStringLiteral("predictionOutput")).toObject();
        QCOMPARE(output.value(QStringLiteral("predictionCount")).toString(), QStringLiteral("2"));
        QCOMPARE(output.value(QStringLiteral("errorCount")).toString(), QStringLiteral("1"));
        QFile errors(QString(out + QStringLiteral("/prediction.errors_stats-00000-of-00001")));
        QVERIFY(errors.open(QIODevice::ReadOnly));
        QVERIFY(errors.readAll().contains("levels deep"));
    }

    /// Item 9: a stopped node holds requests no longer than the version's deadline (504 DEADLINE_EXCEEDED), and a
    /// node that misses several in a row is restarted.
    void deadlines()
    {
        const QJsonObject op = deploy({ { QStringLiteral("name"), QStringLiteral("hang") },
            { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/lr")) }, { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") },
            { QStringLiteral("predictionTimeout"), QStringLiteral("2s") } });
        QVERIFY2(!op.contains(QLatin1String("error")), json(op).constData());
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models/m/versions/hang")).json.value(QStringLiteral("predictionTimeout")).toString(),
            QStringLiteral("2s"));
        const QList<qint64> nodes = nodesWith(QStringLiteral("/versions/hang/model"));
        QCOMPARE(nodes.size(), 1);
        QCOMPARE(::kill(pid_t(nodes.first()), SIGSTOP), 0);
        for (int i = 0; i < 3; ++i) {
            const ApiResponse r = predict(QStringLiteral("hang"), "{\"instances\":[[0.5]]}");
            QCOMPARE(r.status, 504);
            QCOMPARE(r.errorStatus(), QStringLiteral("DEADLINE_EXCEEDED"));
        }
        QTRY_VERIFY_WITH_TIMEOUT(nodesLog(QStringLiteral("hang")).contains("missed 3 deadlines"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(predict(QStringLiteral("hang"), "{\"instances\":[[2.5]]}").status, 200, 60000);
    }

    /// Item 10: an answer over the cap is an error, the executor never holds it, and the node serves on.
    void answerCap()
    {
        const QJsonObject op = deploy({ { QStringLiteral("name"), QStringLiteral("big") },
            { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/routine")) },
            { QStringLiteral("predictionClass"), QStringLiteral("trustroutine.Predictor") },
            { QStringLiteral("packageUris"), QJsonArray { QString(m_models + QStringLiteral("/routine-package")) } } });
        QVERIFY2(!op.contains(QLatin1String("error")), json(op).constData());
        const qint64 before = residentBytes(m_executor->pid());
        for (int i = 0; i < 3; ++i) {
            const ApiResponse r = predict(QStringLiteral("big"), "{\"instances\":[{\"big\": 40000000}]}");
            QCOMPARE(r.status, 400);
            QVERIFY2(r.body.contains("16777216"), r.body.left(500).constData());
        }
        const qint64 after = residentBytes(m_executor->pid());
        QVERIFY2(after < before + (64 << 20), qPrintable(QStringLiteral("%1 → %2 bytes").arg(before).arg(after)));
        const ApiResponse r = predict(QStringLiteral("big"), "{\"instances\":[1, 2]}");
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.json.value(QStringLiteral("predictions")).toArray(), (QJsonArray { 2, 4 }));
    }

    /// Item 11: node counts this host can never hold are refused, with the reason; unknown machine types too.
    void nodeCounts()
    {
        ApiResponse r = createVersion({ { QStringLiteral("name"), QStringLiteral("many") },
            { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/lr")) }, { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") },
            { QStringLiteral("manualScaling"), QJsonObject { { QStringLiteral("nodes"), 1000 } } } });
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("version.manualScaling.nodes"));
        QVERIFY2(r.body.contains("this host"), r.body.constData());
        r = createVersion({ { QStringLiteral("name"), QStringLiteral("odd") }, { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/lr")) },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") }, { QStringLiteral("machineType"), QStringLiteral("n9-huge-1") } });
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("version.machineType"));
        r = send("PATCH", QStringLiteral("/v1/projects/local/models/m/versions/lr?updateMask=manualScaling.nodes"),
            json({ { QStringLiteral("manualScaling"), QJsonObject { { QStringLiteral("nodes"), 1000 } } } }));
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("version.manualScaling.nodes"));
    }

    /// Item 12: models and versions have the jobs' limits (record size, field lengths), and a list is paged by bytes.
    void recordLimits()
    {
        const QString long20k(20000, QLatin1Char('d'));
        ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/models"),
            json({ { QStringLiteral("name"), QStringLiteral("wordy") }, { QStringLiteral("description"), long20k } }));
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("model.description"));
        r = createVersion({ { QStringLiteral("name"), QStringLiteral("wordy") }, { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/lr")) },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") }, { QStringLiteral("description"), long20k } });
        QCOMPARE(r.status, 400);
        QCOMPARE(violatedField(r), QStringLiteral("version.description"));
        // A list is bounded by bytes: operations keep the version they create or delete, and a version may hold 100
        // package paths of 3,900 bytes (a deep real folder); ten such versions, created and deleted at once, leave 20
        // operations of about 400 KB: one page of 100 would be 8 MB.
        QString deep = m_models + QStringLiteral("/deep");
        while (deep.toUtf8().size() < 3700)
            deep += QLatin1Char('/') + QString(250, QLatin1Char('p'));
        QVERIFY(QDir().mkpath(deep));
        QFile setup(deep + QStringLiteral("/setup.py"));
        QVERIFY(setup.open(QIODevice::WriteOnly));
        setup.close();
        QJsonArray packages;
        for (int i = 0; i < 100; ++i)
            packages.append(deep);
        for (int i = 0; i < 10; ++i) {
            const QString name = QStringLiteral("paged%1").arg(i);
            r = createVersion({ { QStringLiteral("name"), name }, { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/routine")) },
                { QStringLiteral("predictionClass"), QStringLiteral("nothing.Here") }, { QStringLiteral("packageUris"), packages } });
            QVERIFY2(r.status == 200, r.body.left(500).constData());
            QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/m/versions/") + name).status, 200);
        }
        qsizetype seen = 0;
        int pages = 0;
        QString token;
        do {
            r = send("GET", QStringLiteral("/v1/projects/local/operations?pageSize=100&pageToken=") + token);
            QCOMPARE(r.status, 200);
            QVERIFY2(r.body.size() < 4 * 1024 * 1024 + 600 * 1024, qPrintable(QString::number(r.body.size())));
            seen += r.json.value(QStringLiteral("operations")).toArray().size();
            token = r.json.value(QStringLiteral("nextPageToken")).toString();
            ++pages;
        } while (!token.isEmpty());
        QVERIFY(seen >= 20);
        QVERIFY2(pages >= 2, "a list of 8 MB answered in one page");
    }

    /// Items 13 and 14: the data folder on a small filesystem. A copy that fills it leaves no partial copy; a delete
    /// goes through on a full disk; a version over its machine type's quota is refused with the reason; a batch job
    /// whose output folder fills ends FAILED with the reason in errorMessage.
    void fullDisk()
    {
        if (::geteuid() != 0)
            TRAINYARD_SKIP_OR_FAIL("mounting the small filesystems needs root");
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString small = root.filePath(QStringLiteral("small"));
        const QString jobs = root.filePath(QStringLiteral("jobs"));
        const QString tiny = QString(jobs + QStringLiteral("/tiny-out"));
        for (const QString& d : { small, jobs, tiny, root.filePath(QStringLiteral("run/trainyard")) })
            QVERIFY(QDir().mkpath(d));
        QCOMPARE(QProcess::execute(QStringLiteral("mount"), { QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                                              QStringLiteral("size=16m"), QStringLiteral("tmpfs"), small }),
            0);
        QCOMPARE(QProcess::execute(QStringLiteral("mount"), { QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                                              QStringLiteral("size=256k"), QStringLiteral("tmpfs"), tiny }),
            0);
        auto unmount = qScopeGuard([&] {
            QProcess::execute(QStringLiteral("umount"), { tiny });
            QProcess::execute(QStringLiteral("umount"), { small });
        });
        Test::ExecutorProcess executor(root.path());
        QString error;
        QVERIFY2(executor.start({ QStringLiteral("--grace-period"), QStringLiteral("2"), QStringLiteral("--data-dir"),
                                     QString(small + QStringLiteral("/data")), QStringLiteral("--runtime-dir"),
                                     root.filePath(QStringLiteral("run/trainyard")), QStringLiteral("--job-dir-root"), jobs },
                     &error),
            qPrintable(error));
        auto call = [&](const QByteArray& verb, const QString& apiPath, const QByteArray& body = {}) {
            return Test::sendApiRequest(m_nam, verb, Test::apiUrl(executor.url(), apiPath), body,
                { { "Authorization", "Bearer " + executor.token() } }, 120000);
        };
        auto operation = [&](const QString& name) {
            return Test::pollUntil([&] { return call("GET", QStringLiteral("/v1/") + name).json; },
                [](const QJsonObject& op) { return op.value(QStringLiteral("done")).toBool(); }, 120000);
        };
        QCOMPARE(call("POST", QStringLiteral("/v1/projects/local/models"), json({ { QStringLiteral("name"), QStringLiteral("d") } })).status, 200);
        // A model of 20 MB (incompressible) on a 16 MB disk.
        const QString big = QString(jobs + QStringLiteral("/bigmodel"));
        QVERIFY(QDir().mkpath(big));
        QVERIFY(QFile::copy(QString(m_models + QStringLiteral("/lr/model.pkl")), QString(big + QStringLiteral("/model.pkl"))));
        {
            QFile ballast(QString(big + QStringLiteral("/weights.bin")));
            QVERIFY(ballast.open(QIODevice::WriteOnly));
            QFile random(QStringLiteral("/dev/urandom"));
            QVERIFY(random.open(QIODevice::ReadOnly));
            for (int i = 0; i < 20; ++i)
                ballast.write(random.read(1 << 20));
        }
        ApiResponse r = call("POST", QStringLiteral("/v1/projects/local/models/d/versions"),
            json({ { QStringLiteral("name"), QStringLiteral("toobig") }, { QStringLiteral("deploymentUri"), big },
                { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } }));
        QCOMPARE(r.status, 200);
        QJsonObject op = operation(r.json.value(QStringLiteral("name")).toString());
        QVERIFY2(op.contains(QLatin1String("error")), json(op).constData());
        // Nothing of the copy is left on the disk it filled.
        QDirIterator it(small, QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext())
            QVERIFY2(!it.next().endsWith(QLatin1String(".partial")), qPrintable(it.filePath()));
        QVERIFY2(op.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString().contains(QLatin1String("disk is full")),
            json(op).constData());
        // The disk full to the last block: a change is refused (429), a delete goes through.
        {
            QFile ballast(QString(small + QStringLiteral("/ballast")));
            QVERIFY(ballast.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
            const QByteArray block(4096, 'x');
            while (ballast.write(block) == block.size()) { }
        }
        r = call("POST", QStringLiteral("/v1/projects/local/models"), json({ { QStringLiteral("name"), QStringLiteral("e") } }));
        QCOMPARE(r.status, 429);
        r = call("DELETE", QStringLiteral("/v1/projects/local/models/d/versions/toobig"));
        QVERIFY2(r.status == 200, r.body.constData());
        op = operation(r.json.value(QStringLiteral("name")).toString());
        QVERIFY2(!op.contains(QLatin1String("error")), json(op).constData());
        QCOMPARE(call("GET", QStringLiteral("/v1/projects/local/models/d/versions/toobig")).status, 404);
        QFile::remove(QString(small + QStringLiteral("/ballast")));

        // Item 14: the output folder fills while a batch job writes its results.
        QVERIFY(QDir().mkpath(QString(jobs + QStringLiteral("/lr"))));
        QVERIFY(QFile::copy(QString(m_models + QStringLiteral("/lr/model.pkl")), QString(jobs + QStringLiteral("/lr/model.pkl"))));
        r = call("POST", QStringLiteral("/v1/projects/local/models/d/versions"),
            json({ { QStringLiteral("name"), QStringLiteral("lr") }, { QStringLiteral("deploymentUri"), QString(jobs + QStringLiteral("/lr")) },
                { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } }));
        QCOMPARE(r.status, 200);
        op = operation(r.json.value(QStringLiteral("name")).toString());
        QVERIFY2(!op.contains(QLatin1String("error")), json(op).constData());
        const QString input = QString(jobs + QStringLiteral("/many.json"));
        {
            QFile f(input);
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int i = 0; i < 20000; ++i)
                f.write("[0.5]\n");
        }
        r = call("POST", QStringLiteral("/v1/projects/local/jobs"),
            json(batchJob(QStringLiteral("fills"),
                { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/d/versions/lr") },
                    { QStringLiteral("inputPaths"), QJsonArray { input } }, { QStringLiteral("outputPath"), tiny } })));
        QVERIFY2(r.status == 200, r.body.constData());
        const QJsonObject job = Test::pollUntil(
            [&] { return call("GET", QStringLiteral("/v1/projects/local/jobs/fills")).json; }, Test::jobStateIsFinal, 120000);
        QCOMPARE(job.value(QStringLiteral("state")).toString(), QStringLiteral("FAILED"));
        const QString message = job.value(QStringLiteral("errorMessage")).toString();
        QVERIFY2(message.contains(QLatin1String("the output folder ") + tiny + QLatin1String(" is full")), qPrintable(message));
        executor.stop();
    }
};

QTEST_GUILESS_MAIN(TestPredictionTrust)
#include "tst_predictiontrust.moc"
