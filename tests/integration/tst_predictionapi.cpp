// SPDX-License-Identifier: GPL-2.0-or-later
// Deploy and predict through a real executor: models, versions and operations over the REST API, with real
// models made in the test by scikit-learn, XGBoost and PyTorch (TorchScript), served by real prediction nodes. What
// is checked: every framework reaches READY and answers what the library itself answers, and so does a custom
// prediction routine staged from its packageUris; the first version becomes
// the default and :predict on the model uses it; each bad input gives its error (TENSORFLOW, a framework that does
// not match the files, a bad instance, an oversized payload, an unknown model, a model with versions deleted) and
// leaves no node running; a node that is killed is restarted; an executor that is SIGKILLed leaves no node behind and
// the next one serves the versions again; a model user may predict and change nothing; deleting a version stops
// its nodes; and, with trainyardctl as a user runs it, a built-in algorithm's job → its model deployed → raw CSV rows
// predicted with the training table's own labels.
#include "apiclient.h"
#include "predictionmodels.h"
#include "apirequest.h"
#include "apistream.h"
#include "ctlrun.h"
#include "executorprocess.h"
#include "predictionclient.h"
#include "trainingpackage.h"
#include "versionlog.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace {

using Trainyard::Test::ApiResponse;

QByteArray json(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// The process IDs whose command line holds `needle` (the prediction nodes of one version: their --model-dir).
QList<qint64> processesWith(const QString& needle, bool withSandbox = false)
{
    QList<qint64> pids;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray raw = cmdline.readAll();
        // A node is its Python process: the bubblewrap processes around it (the sandbox) carry its command line too.
        // `withSandbox` counts them as well: a node whose sandbox was still being set up when its executor died
        // execs its Python later (a fresh-clone run saw the tree empty of Pythons, then one appeared).
        if (!withSandbox && raw.left(raw.indexOf('\0')).endsWith("bwrap"))
            continue;
        const QByteArray text = QByteArray(raw).replace('\0', ' ');
        if (text.contains("prediction_server") && text.contains(needle.toUtf8()))
            pids << pid;
    }
    return pids;
}

/// "pid ppid state: command line" of each process processesWith() finds: what outlived an executor, for a
/// failure message.
QString describeProcesses(const QList<qint64>& pids)
{
    QStringList lines;
    for (const qint64 pid : pids) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!stat.open(QIODevice::ReadOnly) || !cmdline.open(QIODevice::ReadOnly))
            continue;
        // stat(5): "pid (comm) state ppid …"; comm may hold spaces, so read after its closing parenthesis.
        const QByteArray s = stat.readAll();
        const QList<QByteArray> after = s.mid(s.lastIndexOf(')') + 2).split(' ');
        lines << QStringLiteral("%1 ppid %2 %3: %4")
                     .arg(pid)
                     .arg(QString::fromLatin1(after.value(1)), QString::fromLatin1(after.value(0)),
                         QString::fromLocal8Bit(cmdline.readAll().replace('\0', ' ')));
    }
    return lines.join(QLatin1Char('\n'));
}

/// Fuzzy equality of two JSON prediction lists (floats from two runs of one library may differ in the last bits).
bool samePredictions(const QJsonValue& a, const QJsonValue& b)
{
    if (a.isArray() && b.isArray()) {
        const QJsonArray x = a.toArray(), y = b.toArray();
        if (x.size() != y.size())
            return false;
        for (qsizetype i = 0; i < x.size(); ++i) {
            if (!samePredictions(x.at(i), y.at(i)))
                return false;
        }
        return true;
    }
    if (a.isDouble() && b.isDouble())
        return std::abs(a.toDouble() - b.toDouble()) <= 1e-6 * std::max(1.0, std::abs(b.toDouble()));
    return a == b;
}

} // namespace

class TestPredictionApi : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<Trainyard::Test::ExecutorProcess> m_executor;
    QNetworkAccessManager m_nam;
    QJsonObject m_expected; ///< what the libraries answered in the test's own process, by model
    QString m_models; ///< where the model folders are written

    ApiResponse send(
        const QByteArray& verb, const QString& path, const QByteArray& body = {}, const QByteArray& token = {})
    {
        return Trainyard::Test::sendApiRequest(m_nam, verb, Trainyard::Test::apiUrl(m_executor->url(), path), body,
            { { "Authorization", "Bearer " + (token.isEmpty() ? m_executor->token() : token) } }, 120000);
    }

    QString modelPath(const char* name) const { return m_models + QLatin1Char('/') + QLatin1String(name); }

    /// Creates version `version` of `model` from `folder` and waits for its operation; returns the version.
    QJsonObject deploy(const QString& model, const QString& version, const QString& folder, const QString& framework,
        QJsonObject extra = {})
    {
        extra.insert(QStringLiteral("name"), version);
        extra.insert(QStringLiteral("deploymentUri"), folder);
        if (!framework.isEmpty())
            extra.insert(QStringLiteral("framework"), framework);
        const ApiResponse created
            = send("POST", QStringLiteral("/v1/projects/local/models/%1/versions").arg(model), json(extra));
        if (created.status != 200) {
            qWarning() << created.body;
            return {};
        }
        const QString op = created.json.value(QStringLiteral("name")).toString();
        [&] {
            QVERIFY2(op.startsWith(QLatin1String("projects/local/operations/create_")), qPrintable(op));
            QCOMPARE(created.json.value(QStringLiteral("metadata"))
                         .toObject()
                         .value(QStringLiteral("operationType"))
                         .toString(),
                QStringLiteral("CREATE_VERSION"));
        }();
        QJsonObject done;
        const bool finished = QTest::qWaitFor(
            [&] {
                done = send("GET", QStringLiteral("/v1/") + op).json;
                return done.value(QStringLiteral("done")).toBool();
            },
            120000);
        if (!finished)
            qWarning() << "operation" << op << "not done:" << done;
        return send("GET", QStringLiteral("/v1/projects/local/models/%1/versions/%2").arg(model, version)).json;
    }

    Trainyard::Test::CtlRun ctl(const QStringList& args, int timeoutMs = 300000)
    {
        return Trainyard::Test::runCtl(m_executor->environment(), args, timeoutMs, m_root.path());
    }

    ApiResponse predict(const QString& path, const QJsonArray& instances, const QByteArray& token = {})
    {
        return send("POST", QStringLiteral("/v1/projects/local/models/") + path + QStringLiteral(":predict"),
            json({ { QStringLiteral("instances"), instances } }), token);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Trainyard::Test::makeAccountFolders(m_root, { QStringLiteral("models") }));
        m_models = m_root.filePath(QStringLiteral("models"));
        // The models, trained here by the libraries themselves, and what each answers for the first instances.
        const std::optional<QJsonObject> expected = Trainyard::Test::trainPredictionModels(m_models);
        QVERIFY(expected);
        m_expected = *expected;

        m_executor = std::make_unique<Trainyard::Test::ExecutorProcess>(m_root.path());
        QString error;
        QVERIFY2(m_executor->start(&error), qPrintable(error));
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("cancer") },
                         { QStringLiteral("description"), QStringLiteral("breast cancer, three frameworks") } }))
                     .status,
            200);
    }

    void cleanupTestCase()
    {
        if (m_executor)
            m_executor->stop();
    }

    /// scikit-learn: READY, the default version, predictions equal to the library's own.
    void scikitLearnServes()
    {
        const QJsonObject v = deploy(QStringLiteral("cancer"), QStringLiteral("sk"), modelPath("sklearn"),
            QStringLiteral("SCIKIT_LEARN"),
            { { QStringLiteral("manualScaling"), QJsonObject { { QStringLiteral("nodes"), 2 } } } });
        QCOMPARE(v.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        QVERIFY(v.value(QStringLiteral("isDefault")).toBool());
        QCOMPARE(processesWith(QStringLiteral("/versions/sk/model")).size(), 2);
        // Each node reserves its machine type (mls1-c1-m2: 1 vCPU, 2 GB) on the host, beside the jobs' replicas.
        const QJsonObject host = send("GET", QStringLiteral("/v1/projects/local/host")).json;
        QVERIFY2(host.value(QStringLiteral("predictionNodes")).toInt() >= 2, QJsonDocument(host).toJson().constData());
        QVERIFY(host.value(QStringLiteral("vcpusInUse")).toInt() >= 2);
        QVERIFY(host.value(QStringLiteral("memoryGbInUse")).toDouble() >= 4.0);
        const QJsonObject model = send("GET", QStringLiteral("/v1/projects/local/models/cancer")).json;
        QCOMPARE(model.value(QStringLiteral("defaultVersion")).toObject().value(QStringLiteral("name")).toString(),
            QStringLiteral("projects/local/models/cancer/versions/sk"));

        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        const ApiResponse byVersion = predict(QStringLiteral("cancer/versions/sk"), instances);
        QCOMPARE(byVersion.status, 200);
        QCOMPARE(byVersion.json.value(QStringLiteral("predictions")), m_expected.value(QStringLiteral("sklearn")));
        // The model's :predict goes to its default version.
        const ApiResponse byModel = predict(QStringLiteral("cancer"), instances);
        QCOMPARE(byModel.status, 200);
        QCOMPARE(byModel.json.value(QStringLiteral("predictions")), m_expected.value(QStringLiteral("sklearn")));
        QVERIFY(!send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/sk"))
                     .json.value(QStringLiteral("lastUseTime"))
                     .toString()
                     .isEmpty());
    }

    /// The models stream (`GET …/models?follow=true`, PredictionClient::followModels()): every model with its
    /// versions, `synced`, then each model as it or a version changes, its deletion, and the READY versions' request
    /// rates; a filter is refused with it. The console's Models view follows it instead of asking every 5 s.
    void modelsStreamFollowsChanges()
    {
        Trainyard::ApiClient client(m_executor->url(), m_executor->token());
        std::unique_ptr<Trainyard::ApiStream> stream(Trainyard::PredictionClient(&client).followModels());
        QSignalSpy changed(stream.get(), &Trainyard::ApiStream::modelChanged);
        QSignalSpy synced(stream.get(), &Trainyard::ApiStream::synced);
        QSignalSpy deleted(stream.get(), &Trainyard::ApiStream::modelDeleted);
        QSignalSpy rates(stream.get(), &Trainyard::ApiStream::versionRates);
        QTRY_COMPARE_WITH_TIMEOUT(synced.count(), 1, 15000);
        // Streams do not take the connections ordinary calls need: with more streams open than the 6 connections
        // QNetworkAccessManager opens to a host (the console holds 6 with a job and the Models view open), a get is
        // still answered at once. With one pool for both, it waited until a stream ended (seen in the console).
        std::vector<std::unique_ptr<Trainyard::ApiStream>> more;
        for (int i = 0; i < 7; ++i)
            more.emplace_back(Trainyard::PredictionClient(&client).followModels());
        bool answered = false;
        Trainyard::PredictionClient(&client).getModel(QStringLiteral("cancer"), this,
            [&answered](const Trainyard::ModelResource& m, const Trainyard::ApiError& error) {
                answered = error.isNull() && m.name == QLatin1String("cancer");
            });
        QTRY_VERIFY_WITH_TIMEOUT(answered, 10000);
        more.clear();
        // The listing: cancer with its READY version sk, as get answers them.
        QVERIFY(changed.count() >= 1);
        const auto cancer = changed.first().first().value<Trainyard::ModelChange>();
        QCOMPARE(cancer.model.name, QStringLiteral("cancer"));
        QCOMPARE(cancer.model.defaultVersion, QStringLiteral("sk"));
        QCOMPARE(cancer.versions.size(), 1);
        QCOMPARE(cancer.versions.first().name, QStringLiteral("sk"));
        QCOMPARE(cancer.versions.first().state, Trainyard::VersionState::Ready);
        // A new model is sent as it is created, with its labels, and its deletion.
        changed.clear();
        QCOMPARE(
            send("POST", QStringLiteral("/v1/projects/local/models"),
                json({ { QStringLiteral("name"), QStringLiteral("streamed") },
                    { QStringLiteral("labels"), QJsonObject { { QStringLiteral("team"), QStringLiteral("risk") } } } }))
                .status,
            200);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 15000);
        const auto streamed = changed.first().first().value<Trainyard::ModelChange>();
        QCOMPARE(streamed.model.name, QStringLiteral("streamed"));
        QCOMPARE(streamed.model.labels.value(QStringLiteral("team")), QStringLiteral("risk"));
        QVERIFY(streamed.versions.isEmpty());
        const ApiResponse removal = send("DELETE", QStringLiteral("/v1/projects/local/models/streamed"));
        QCOMPARE(removal.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(deleted.count(), 1, 15000);
        QCOMPARE(deleted.first().first().toString(), QStringLiteral("streamed"));
        // Requests to sk show in its rate within the stream's 5 s.
        for (int i = 0; i < 5; ++i)
            QCOMPARE(
                predict(QStringLiteral("cancer/versions/sk"), m_expected.value(QStringLiteral("instances")).toArray())
                    .status,
                200);
        QTRY_VERIFY_WITH_TIMEOUT(!rates.isEmpty()
                && rates.last().first().value<Trainyard::VersionRates>().perSecond.value(
                       QStringLiteral("projects/local/models/cancer/versions/sk"))
                    > 0,
            15000);
        QVERIFY(!stream->isFinished());
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models?follow=true&filter=name:c*")).status, 400);
    }

    /// XGBoost (a booster's model.bst) and PyTorch (TorchScript): READY, and the libraries' own answers.
    void xgboostAndPyTorchServe()
    {
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        // No framework given: detected from the folder's files, as the service does, and the version says from which.
        const QJsonObject xgb
            = deploy(QStringLiteral("cancer"), QStringLiteral("xgb"), modelPath("xgboost"), QString());
        QCOMPARE(xgb.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        QCOMPARE(xgb.value(QStringLiteral("framework")).toString(), QStringLiteral("XGBOOST"));
        QCOMPARE(xgb.value(QStringLiteral("frameworkDetectedFrom")).toString(), QStringLiteral("model.bst"));
        QVERIFY(!xgb.value(QStringLiteral("isDefault")).toBool());
        const ApiResponse x = predict(QStringLiteral("cancer/versions/xgb"), instances);
        QCOMPARE(x.status, 200);
        QVERIFY2(
            samePredictions(x.json.value(QStringLiteral("predictions")), m_expected.value(QStringLiteral("xgboost"))),
            x.body.constData());

        const QJsonObject torch
            = deploy(QStringLiteral("cancer"), QStringLiteral("torch"), modelPath("torch"), QStringLiteral("PYTORCH"));
        QCOMPARE(torch.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        QVERIFY(!torch.contains(QStringLiteral("frameworkDetectedFrom"))); // named by the caller

        // Nothing to detect from: refused at create, naming the field and what the folder holds.
        const QString empty = m_root.filePath(QStringLiteral("no_model_here"));
        QVERIFY(QDir().mkpath(empty));
        const ApiResponse undetected = send("POST", QStringLiteral("/v1/projects/local/models/cancer/versions"),
            json({ { QStringLiteral("name"), QStringLiteral("undetected") },
                { QStringLiteral("deploymentUri"), empty } }));
        QCOMPARE(undetected.status, 400);
        QVERIFY2(undetected.body.contains("version.framework") && undetected.body.contains("No model file"),
            undetected.body.constData());
        const ApiResponse t = predict(QStringLiteral("cancer/versions/torch"), instances);
        QCOMPARE(t.status, 200);
        QVERIFY2(
            samePredictions(t.json.value(QStringLiteral("predictions")), m_expected.value(QStringLiteral("torch"))),
            t.body.constData());

        // The deployed copy is the executor's: changing the folder afterwards changes nothing.
        QVERIFY(QFile::remove(modelPath("xgboost") + QStringLiteral("/model.bst")));
        QCOMPARE(predict(QStringLiteral("cancer/versions/xgb"), instances).status, 200);
    }

    /// projects.explain (issue 47): a version created with an explanationConfig answers the service's shape; on a
    /// linear model sampled Shapley equals w_i · (x_i − b_i) through the executor; TreeSHAP and integrated gradients
    /// are complete in their own space; what a model cannot give is refused at create naming the field, and explain
    /// on a version without a config is FAILED_PRECONDITION.
    void explanations()
    {
        const QJsonObject facts = m_expected.value(QStringLiteral("explain")).toObject();
        const QJsonArray names = facts.value(QStringLiteral("names")).toArray();
        const QJsonArray baseline = facts.value(QStringLiteral("baseline")).toArray();
        const QJsonArray weights = facts.value(QStringLiteral("linearWeights")).toArray();
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        const QString explain = m_models + QStringLiteral("/explain/");
        const auto config = [](const char* method, const char* count = nullptr, int n = 0) {
            QJsonObject params;
            if (count)
                params.insert(QLatin1String(count), n);
            return QJsonObject { { QStringLiteral("explanationConfig"), QJsonObject { { QLatin1String(method), params } } } };
        };
        const auto post = [&](const QString& path, const QJsonObject& body) {
            return send("POST", QStringLiteral("/v1/projects/local/models/") + path + QStringLiteral(":explain"),
                json(body));
        };
        // The completeness of one attributions_by_label entry: Σ attributions = example_score − baseline_score.
        const auto complete = [](const QJsonObject& entry, double tolerance) {
            double sum = 0;
            const QJsonObject a = entry.value(QStringLiteral("attributions")).toObject();
            for (auto it = a.begin(); it != a.end(); ++it)
                sum += it->toDouble();
            const double gap = entry.value(QStringLiteral("example_score")).toDouble()
                - entry.value(QStringLiteral("baseline_score")).toDouble();
            return std::abs(sum - gap) <= tolerance * std::max(1.0, std::abs(gap));
        };

        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("explained") } }))
                     .status,
            200);
        const QJsonObject linear = deploy(QStringLiteral("explained"), QStringLiteral("linear"),
            explain + QStringLiteral("linear"), QString(), config("sampledShapleyAttribution", "numPaths", 5));
        QCOMPARE(linear.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        QCOMPARE(linear.value(QStringLiteral("explanationConfig")).toObject(),
            config("sampledShapleyAttribution", "numPaths", 5).value(QStringLiteral("explanationConfig")).toObject());
        const ApiResponse answered = post(QStringLiteral("explained/versions/linear"),
            { { QStringLiteral("instances"), QJsonArray { instances.at(0), instances.at(3) } } });
        QCOMPARE(answered.status, 200);
        const QJsonArray explanations = answered.json.value(QStringLiteral("explanations")).toArray();
        QCOMPARE(explanations.size(), 2);
        for (qsizetype i = 0; i < explanations.size(); ++i) {
            const QJsonArray byLabel
                = explanations.at(i).toObject().value(QStringLiteral("attributions_by_label")).toArray();
            QCOMPARE(byLabel.size(), 1);
            const QJsonObject entry = byLabel.at(0).toObject();
            QCOMPARE(entry.value(QStringLiteral("label_index")).toInt(-1), 0);
            QVERIFY(entry.contains(QStringLiteral("approx_error")));
            QVERIFY(complete(entry, 1e-9));
            const QJsonObject attributions = entry.value(QStringLiteral("attributions")).toObject();
            QCOMPARE(attributions.size(), names.size());
            const QJsonArray x = instances.at(i == 0 ? 0 : 3).toArray();
            for (qsizetype j = 0; j < names.size(); ++j) {
                const double expected
                    = weights.at(j).toDouble() * (x.at(j).toDouble() - baseline.at(j).toDouble());
                const double got = attributions.value(names.at(j).toString()).toDouble();
                QVERIFY2(std::abs(got - expected) <= 1e-6 * std::max(1.0, std::abs(expected)),
                    qPrintable(QStringLiteral("%1: %2, expected %3").arg(names.at(j).toString()).arg(got).arg(expected)));
            }
        }

        // TreeSHAP: complete in margin space. Integrated gradients on the TorchScript module: complete within its
        // approx_error (relative), the predicted logit explained.
        QCOMPARE(deploy(QStringLiteral("explained"), QStringLiteral("trees"), explain + QStringLiteral("xgboost"),
                     QString(), config("treeShapAttribution"))
                     .value(QStringLiteral("state"))
                     .toString(),
            QStringLiteral("READY"));
        const ApiResponse trees = post(QStringLiteral("explained/versions/trees"), { { QStringLiteral("instances"), instances } });
        QCOMPARE(trees.status, 200);
        for (const QJsonValue& e : trees.json.value(QStringLiteral("explanations")).toArray())
            QVERIFY2(complete(e.toObject().value(QStringLiteral("attributions_by_label")).toArray().at(0).toObject(), 1e-4),
                trees.body.constData());
        QCOMPARE(deploy(QStringLiteral("explained"), QStringLiteral("gradients"), explain + QStringLiteral("torch"),
                     QString(), config("integratedGradientsAttribution", "numIntegralSteps", 20))
                     .value(QStringLiteral("state"))
                     .toString(),
            QStringLiteral("READY"));
        const ApiResponse gradients = post(QStringLiteral("explained/versions/gradients"),
            { { QStringLiteral("instances"), QJsonArray { instances.at(0) } },
                { QStringLiteral("outputIndices"), QJsonArray { 0, 1 } } });
        QCOMPARE(gradients.status, 200);
        // The first instance's attributions_by_label of an answer.
        const auto firstByLabel = [](const ApiResponse& answer) {
            return answer.json.value(QStringLiteral("explanations"))
                .toArray()
                .at(0)
                .toObject()
                .value(QStringLiteral("attributions_by_label"))
                .toArray();
        };
        const QJsonArray both = firstByLabel(gradients);
        QCOMPARE(both.size(), 2);
        for (const QJsonValue& e : both) {
            const QJsonObject entry = e.toObject();
            QVERIFY2(entry.value(QStringLiteral("approx_error")).toDouble() < 1e-4, gradients.body.constData());
            QVERIFY(complete(entry, 1e-4));
        }

        // XRAI on an image model through the executor: its answer is the image's saliency (784 numbers), the top
        // regions' mask (28 × 28), and they cover the corner the model sums.
        QCOMPARE(deploy(QStringLiteral("explained"), QStringLiteral("regions"), explain + QStringLiteral("image"),
                     QString(), config("xraiAttribution", "numIntegralSteps", 10))
                     .value(QStringLiteral("state"))
                     .toString(),
            QStringLiteral("READY"));
        QJsonArray pixels;
        for (int i = 0; i < 784; ++i)
            pixels.append(0.4 + 0.2 * double((i * 37) % 101) / 101.0);
        const ApiResponse regions
            = post(QStringLiteral("explained/versions/regions"), { { QStringLiteral("instances"), QJsonArray { pixels } } });
        QCOMPARE(regions.status, 200);
        const QJsonObject region = firstByLabel(regions).at(0).toObject();
        QCOMPARE(region.value(QStringLiteral("method")).toString(), QStringLiteral("xrai"));
        QVERIFY2(region.value(QStringLiteral("approx_error")).toDouble() < 1e-4, regions.body.left(400).constData());
        QCOMPARE(region.value(QStringLiteral("attributions")).toObject().value(QStringLiteral("pixels")).toArray().size(),
            784);
        const QJsonArray top = region.value(QStringLiteral("xrai_top_regions")).toArray();
        QCOMPARE(top.size(), 28);
        int cornerCovered = 0;
        for (int row = 0; row < 10; ++row) {
            for (int column = 0; column < 10; ++column)
                cornerCovered += top.at(row).toArray().at(column).toInt();
        }
        QVERIFY2(cornerCovered >= 90, qPrintable(QString::number(cornerCovered)));

        const auto refused = [&](const QString& version, const QString& folder, const QJsonObject& body) {
            QJsonObject b = body;
            b.insert(QStringLiteral("name"), version);
            b.insert(QStringLiteral("deploymentUri"), folder);
            return send("POST", QStringLiteral("/v1/projects/local/models/explained/versions"), json(b));
        };

        // Integrated gradients on a built-in wide & deep's raw rows (text categories, blanks): complete within
        // approx_error, one attribution per column, and a categorical column at its baseline category (the
        // metadata the job wrote: "south", "male") gets exactly 0 while one that differs moves the score.
        const QString wideDeep = explain + QStringLiteral("widedeep/model");
        QCOMPARE(deploy(QStringLiteral("explained"), QStringLiteral("builtin"), wideDeep, QStringLiteral("PYTORCH"),
                     config("integratedGradientsAttribution", "numIntegralSteps", 50))
                     .value(QStringLiteral("state"))
                     .toString(),
            QStringLiteral("READY"));
        const QJsonArray wideRows = facts.value(QStringLiteral("wideDeepRows")).toArray();
        const ApiResponse builtin
            = post(QStringLiteral("explained/versions/builtin"), { { QStringLiteral("instances"), wideRows } });
        QCOMPARE(builtin.status, 200);
        const QJsonArray builtinAnswers = builtin.json.value(QStringLiteral("explanations")).toArray();
        QCOMPARE(builtinAnswers.size(), wideRows.size());
        for (qsizetype i = 0; i < wideRows.size(); ++i) {
            const QJsonArray row = wideRows.at(i).toArray();
            const QJsonObject entry
                = builtinAnswers.at(i).toObject().value(QStringLiteral("attributions_by_label")).toArray().at(0).toObject();
            const QJsonObject a = entry.value(QStringLiteral("attributions")).toObject();
            QCOMPARE(a.size(), row.size());
            const double error = entry.value(QStringLiteral("approx_error")).toDouble();
            QVERIFY2(error < 0.05 && complete(entry, error + 1e-6), builtin.body.constData());
            QCOMPARE(entry.value(QStringLiteral("input_values")).toObject().value(QStringLiteral("column 2")), row.at(0));
            const auto atBaseline = [&](int column, const char* category) {
                const double v = a.value(QStringLiteral("column %1").arg(column)).toDouble();
                return row.at(column - 2).toString() == QLatin1String(category) ? v == 0.0 : v != 0.0;
            };
            QVERIFY2(atBaseline(2, "south") && atBaseline(7, "male"), builtin.body.constData());
        }
        const ApiResponse noRegions = refused(QStringLiteral("builtinxrai"), wideDeep,
            config("xraiAttribution", "numIntegralSteps", 10));
        QCOMPARE(noRegions.status, 400);
        QVERIFY2(noRegions.body.contains("version.explanationConfig.xraiAttribution")
                && noRegions.body.contains("table rows"),
            noRegions.body.constData());

        // Refused at create, naming the field and the rule: gradients of a scikit-learn model, and a folder without a
        // baseline.
        const ApiResponse noGradients = refused(QStringLiteral("nograd"), explain + QStringLiteral("linear"),
            config("integratedGradientsAttribution", "numIntegralSteps", 20));
        QCOMPARE(noGradients.status, 400);
        QVERIFY2(noGradients.body.contains("version.explanationConfig.integratedGradientsAttribution")
                && noGradients.body.contains("PYTORCH"),
            noGradients.body.constData());
        const ApiResponse noBaseline = refused(QStringLiteral("nobaseline"), modelPath("sklearn"),
            config("sampledShapleyAttribution", "numPaths", 5));
        QCOMPARE(noBaseline.status, 400);
        QVERIFY2(noBaseline.body.contains("explanation_metadata.json"), noBaseline.body.constData());
        const ApiResponse badPaths = refused(QStringLiteral("badpaths"), explain + QStringLiteral("linear"),
            config("sampledShapleyAttribution", "numPaths", 500));
        QCOMPARE(badPaths.status, 400);
        QVERIFY2(badPaths.body.contains("sampledShapleyAttribution.numPaths"), badPaths.body.constData());

        // Exact Shapley over 30 features is refused when asked (2^30 rows), with the limit.
        deploy(QStringLiteral("explained"), QStringLiteral("exact"), explain + QStringLiteral("linear"), QString(),
            config("exactShapleyAttribution"));
        const ApiResponse exact = post(QStringLiteral("explained/versions/exact"), { { QStringLiteral("instances"), instances } });
        QCOMPARE(exact.status, 400);
        QVERIFY2(exact.body.contains("FAILED_PRECONDITION") && exact.body.contains("up to 12"), exact.body.constData());

        // A version without a config, and a field explain does not take.
        deploy(QStringLiteral("explained"), QStringLiteral("plain"), explain + QStringLiteral("linear"), QString());
        const ApiResponse plain = post(QStringLiteral("explained/versions/plain"), { { QStringLiteral("instances"), instances } });
        QCOMPARE(plain.status, 400);
        QVERIFY2(plain.body.contains("FAILED_PRECONDITION") && plain.body.contains("explanationConfig"), plain.body.constData());
        const ApiResponse unknown = post(QStringLiteral("explained/versions/linear"),
            { { QStringLiteral("instances"), instances }, { QStringLiteral("signature_name"), QStringLiteral("x") } });
        QCOMPARE(unknown.status, 400);
        QVERIFY2(unknown.body.contains("outputIndices"), unknown.body.constData());

        // The CLI, as gcloud beta writes it: versions create --explanation-method, then explain.
        const Trainyard::Test::CtlRun created = ctl({ QStringLiteral("versions"), QStringLiteral("create"),
            QStringLiteral("bycli"), QStringLiteral("--model=explained"), QStringLiteral("--origin=") + explain + QStringLiteral("linear"),
            QStringLiteral("--explanation-method=sampled-shapley"), QStringLiteral("--num-paths=4"), QStringLiteral("--quiet") });
        QVERIFY2(created.code == 0, qPrintable(created.text()));
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models/explained/versions/bycli"))
                     .json.value(QStringLiteral("explanationConfig"))
                     .toObject(),
            config("sampledShapleyAttribution", "numPaths", 4).value(QStringLiteral("explanationConfig")).toObject());
        QFile rows(m_root.filePath(QStringLiteral("explain-rows.json")));
        QVERIFY(rows.open(QIODevice::WriteOnly));
        rows.write(QJsonDocument(instances.at(0).toArray()).toJson(QJsonDocument::Compact) + '\n');
        rows.close();
        const Trainyard::Test::CtlRun shown = ctl({ QStringLiteral("explain"), QStringLiteral("--model=explained"),
            QStringLiteral("--version=bycli"), QStringLiteral("--json-instances=") + rows.fileName() });
        QVERIFY2(shown.code == 0 && shown.out.contains(QLatin1String("instance 0, output 0: score"))
                && shown.out.contains(QLatin1String("feature_1 ")) && shown.out.contains(QLatin1String("sampledShapley")),
            qPrintable(shown.text()));
        const Trainyard::Test::CtlRun asJson = ctl({ QStringLiteral("explain"), QStringLiteral("--model=explained"),
            QStringLiteral("--version=bycli"), QStringLiteral("--json-instances=") + rows.fileName(),
            QStringLiteral("--format=json") });
        QVERIFY2(asJson.code == 0, qPrintable(asJson.text()));
        QCOMPARE(QJsonDocument::fromJson(asJson.out.toUtf8()).object().value(QStringLiteral("explanations")).toArray().size(), 1);
        const Trainyard::Test::CtlRun badMethod = ctl({ QStringLiteral("versions"), QStringLiteral("create"),
            QStringLiteral("bad"), QStringLiteral("--model=explained"), QStringLiteral("--origin=") + explain + QStringLiteral("linear"),
            QStringLiteral("--explanation-method=lime") });
        QVERIFY2(badMethod.code != 0 && badMethod.err.contains(QLatin1String("sampled-shapley")), qPrintable(badMethod.text()));

        // Their nodes stop with them: the cases after this one run beside no more nodes than before it. The default
        // version (the first, linear) last, as the service requires.
        for (const char* version : { "trees", "gradients", "regions", "builtin", "exact", "plain", "bycli" })
            QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/explained/versions/") + QLatin1String(version))
                         .status,
                200);
        QTRY_COMPARE_WITH_TIMEOUT(send("GET", QStringLiteral("/v1/projects/local/models/explained/versions"))
                                      .json.value(QStringLiteral("versions"))
                                      .toArray()
                                      .size(),
            1, 30000);
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/explained/versions/linear")).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(processesWith(QStringLiteral("/models/explained/")).isEmpty(), 30000);
    }

    /// A custom prediction routine, the service's way: packageUris staged with pip, predictionClass's from_path() given
    /// the version's folder, predict() answering what it likes (here the label with its probability, from the same
    /// scikit-learn pipeline); a class whose from_path() raises leaves the version FAILED with its message.
    void customPredictionRoutine()
    {
        const QString package = m_root.filePath(QStringLiteral("models/routine_pkg"));
        QVERIFY(Trainyard::Test::writeTrainingPackage(package, QStringLiteral("routine"),
            "import os\n"
            "import joblib\n"
            "import numpy as np\n"
            "\n"
            "class Predictor:\n"
            "    def __init__(self, model):\n"
            "        self.model = model\n"
            "\n"
            "    @classmethod\n"
            "    def from_path(cls, model_dir):\n"
            "        return cls(joblib.load(os.path.join(model_dir, 'model.joblib')))\n"
            "\n"
            "    def predict(self, instances, **kwargs):\n"
            "        x = np.asarray(instances)\n"
            "        labels = self.model.predict(x)\n"
            "        proba = self.model.predict_proba(x).max(axis=1)\n"
            "        return [{'label': str(l), 'probability': float(p)} for l, p in zip(labels, proba)]\n"
            "\n"
            "class Broken:\n"
            "    @classmethod\n"
            "    def from_path(cls, model_dir):\n"
            "        raise RuntimeError('the routine cannot find its vocabulary')\n",
            QStringLiteral("trainyard-test-routine")));
        const QJsonObject v
            = deploy(QStringLiteral("cancer"), QStringLiteral("routine"), modelPath("sklearn"), QString(),
                { { QStringLiteral("predictionClass"), QStringLiteral("routine.task.Predictor") },
                    { QStringLiteral("packageUris"), QJsonArray { package } } });
        QVERIFY2(v.value(QStringLiteral("state")).toString() == QLatin1String("READY"),
            qPrintable(v.value(QStringLiteral("errorMessage")).toString()));
        const ApiResponse r = predict(
            QStringLiteral("cancer/versions/routine"), m_expected.value(QStringLiteral("instances")).toArray());
        QCOMPARE(r.status, 200);
        const QJsonArray predictions = r.json.value(QStringLiteral("predictions")).toArray();
        const QJsonArray expected = m_expected.value(QStringLiteral("sklearn")).toArray();
        QCOMPARE(predictions.size(), expected.size());
        for (qsizetype i = 0; i < predictions.size(); ++i) {
            QCOMPARE(predictions.at(i).toObject().value(QStringLiteral("label")).toString(), expected.at(i).toString());
            QVERIFY(predictions.at(i).toObject().value(QStringLiteral("probability")).toDouble() >= 0.5);
        }
        const QJsonObject broken
            = deploy(QStringLiteral("cancer"), QStringLiteral("broken"), modelPath("sklearn"), QString(),
                { { QStringLiteral("predictionClass"), QStringLiteral("routine.task.Broken") },
                    { QStringLiteral("packageUris"), QJsonArray { package } } });
        QCOMPARE(broken.value(QStringLiteral("state")).toString(), QStringLiteral("FAILED"));
        QVERIFY2(broken.value(QStringLiteral("errorMessage"))
                     .toString()
                     .contains(QLatin1String("RuntimeError: the routine cannot find its vocabulary")),
            qPrintable(broken.value(QStringLiteral("errorMessage")).toString()));
        QVERIFY(processesWith(QStringLiteral("/versions/broken/model")).isEmpty());
        // The failed one first: run alone, this test's first version is the model's default, deleted last.
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/broken")).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(
            send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/broken")).status, 404, 10000);
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/routine")).status, 200);
    }

    /// Each bad input gives its error, and nothing is left running.
    void badInputs()
    {
        // TENSORFLOW is refused on the field, with the reason.
        ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/models/cancer/versions"),
            json({ { QStringLiteral("name"), QStringLiteral("tf") },
                { QStringLiteral("deploymentUri"), modelPath("sklearn") },
                { QStringLiteral("framework"), QStringLiteral("TENSORFLOW") } }));
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("version.framework") && r.body.contains("TensorFlow runtime"), r.body.constData());
        // A bad version name, on the field.
        r = send("POST", QStringLiteral("/v1/projects/local/models/cancer/versions"),
            json({ { QStringLiteral("name"), QStringLiteral("1st") },
                { QStringLiteral("deploymentUri"), modelPath("sklearn") },
                { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } }));
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("version.name") && r.body.contains("start with a letter"), r.body.constData());

        // A framework that does not match the files: FAILED with the loader's message, never READY, no node left.
        const QJsonObject wrong = deploy(
            QStringLiteral("cancer"), QStringLiteral("wrong"), modelPath("torch"), QStringLiteral("SCIKIT_LEARN"));
        QCOMPARE(wrong.value(QStringLiteral("state")).toString(), QStringLiteral("FAILED"));
        const QString message = wrong.value(QStringLiteral("errorMessage")).toString();
        QVERIFY2(message.contains(QLatin1String("model.joblib")) && message.contains(QLatin1String("model.pt")),
            qPrintable(message));
        QTRY_VERIFY_WITH_TIMEOUT(processesWith(QStringLiteral("/versions/wrong/model")).isEmpty(), 10000);
        r = predict(QStringLiteral("cancer/versions/wrong"), { QJsonArray { 1 } });
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorStatus(), QStringLiteral("FAILED_PRECONDITION"));
        // A folder that does not exist: FAILED too.
        const QJsonObject missing = deploy(QStringLiteral("cancer"), QStringLiteral("missing"),
            m_models + QStringLiteral("/nothing_here"), QStringLiteral("SCIKIT_LEARN"));
        QCOMPARE(missing.value(QStringLiteral("state")).toString(), QStringLiteral("FAILED"));
        QVERIFY2(missing.value(QStringLiteral("errorMessage")).toString().contains(QLatin1String("does not exist")),
            qPrintable(missing.value(QStringLiteral("errorMessage")).toString()));

        // A bad instance: the service's error naming the instance, and the runtime's message.
        QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        instances.replace(1, QJsonArray { 1.0, 2.0 });
        r = predict(QStringLiteral("cancer/versions/sk"), instances);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorStatus(), QStringLiteral("INVALID_ARGUMENT"));
        QVERIFY2(r.errorMessage().startsWith(QLatin1String("Prediction failed: instance 1: ")), r.body.constData());
        QVERIFY2(r.body.contains("instances[1]"), r.body.constData());
        // The node survived it.
        QCOMPARE(predict(QStringLiteral("cancer/versions/sk"), m_expected.value(QStringLiteral("instances")).toArray())
                     .status,
            200);

        // The service's payload limit (1.5 MB).
        QJsonArray big;
        const QJsonArray row = m_expected.value(QStringLiteral("instances")).toArray().first().toArray();
        const qsizetype rowBytes = QJsonDocument(row).toJson(QJsonDocument::Compact).size() + 1;
        for (qsizetype bytes = 0; bytes < 1600000; bytes += rowBytes)
            big.append(row);
        QVERIFY(json({ { QStringLiteral("instances"), big } }).size() > 1572864);
        r = predict(QStringLiteral("cancer/versions/sk"), big);
        QCOMPARE(r.status, 400);
        QVERIFY2(r.errorMessage().contains(QLatin1String("exceeds the limit: 1572864 bytes")), r.body.constData());

        // Unknown model and version; a model with versions cannot be deleted; the default version cannot go first.
        QCOMPARE(predict(QStringLiteral("nosuch"), instances).status, 404);
        QCOMPARE(predict(QStringLiteral("cancer/versions/nosuch"), instances).status, 404);
        r = send("DELETE", QStringLiteral("/v1/projects/local/models/cancer"));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorStatus(), QStringLiteral("FAILED_PRECONDITION"));
        r = send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/sk"));
        QCOMPARE(r.status, 400);
        QVERIFY2(r.errorMessage().contains(QLatin1String("default version")), r.body.constData());
        // A model of the same name.
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("cancer") } }))
                     .status,
            409);
    }

    /// A node that dies is restarted, and the version answers again.
    void killedNodeRestarts()
    {
        const QList<qint64> before = processesWith(QStringLiteral("/versions/xgb/model"));
        QCOMPARE(before.size(), 1);
        QCOMPARE(::kill(pid_t(before.first()), SIGKILL), 0);
        // One scan per try: the list may change between two scans (the killed node goes, its successor comes).
        auto restarted = [&before] {
            const QList<qint64> now = processesWith(QStringLiteral("/versions/xgb/model"));
            return now.size() == 1 && now.first() != before.first();
        };
        QTRY_VERIFY_WITH_TIMEOUT(restarted(), 30000);
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        QTRY_COMPARE_WITH_TIMEOUT(predict(QStringLiteral("cancer/versions/xgb"), instances).status, 200, 60000);
        QFile log(
            m_root.filePath(QStringLiteral("data/trainyard/projects/local/models/cancer/versions/xgb/nodes.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY(log.readAll().contains("while serving; restarting it"));
    }

    /// An executor that is SIGKILLed leaves no node behind; the next one serves every READY version again.
    void executorKilledServesAgain()
    {
        QVERIFY(!processesWith(m_root.path()).isEmpty());
        // A version being created when the executor dies (its copy and load take a while; the kill follows the
        // create's answer at once): the next executor finishes it, and its operation.
        const ApiResponse midway = send("POST", QStringLiteral("/v1/projects/local/models/cancer/versions"),
            json({ { QStringLiteral("name"), QStringLiteral("midway") },
                { QStringLiteral("deploymentUri"), modelPath("sklearn") },
                { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } }));
        QCOMPARE(midway.status, 200);
        const QString midwayOp = midway.json.value(QStringLiteral("name")).toString();
        // The kill comes once the version's node runs its Python (still loading the model: the version is CREATING).
        // Not earlier: bubblewrap's setup child waits for its parent's go-ahead before it sets its own death signal,
        // so a parent killed in that interval leaves it blocked for ever (bubblewrap's known startup race, outside
        // what the executor controls; under ctest's load two runs of this session hit it).
        QTRY_VERIFY_WITH_TIMEOUT(!processesWith(QStringLiteral("/versions/midway/model")).isEmpty(), 30000);
        m_executor->kill();
        // Every node goes with the executor; how long a SIGKILLed tree takes to be torn down is the machine's (a
        // fresh-clone run under ctest's three at a time and the disk's load needed 10.15 s once).
        QTRY_VERIFY2_WITH_TIMEOUT(processesWith(m_root.path(), true).isEmpty(),
            qPrintable(describeProcesses(processesWith(m_root.path(), true))), 30000);
        QString error;
        QVERIFY2(m_executor->start(&error), qPrintable(error));
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        QTRY_COMPARE_WITH_TIMEOUT(predict(QStringLiteral("cancer"), instances).status, 200, 60000);
        QCOMPARE(predict(QStringLiteral("cancer"), instances).json.value(QStringLiteral("predictions")),
            m_expected.value(QStringLiteral("sklearn")));
        QTRY_COMPARE_WITH_TIMEOUT(predict(QStringLiteral("cancer/versions/torch"), instances).status, 200, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(
            send("GET", QStringLiteral("/v1/") + midwayOp).json.value(QStringLiteral("done")).toBool(), 60000);
        QVERIFY(!send("GET", QStringLiteral("/v1/") + midwayOp).json.contains(QLatin1String("error")));
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/midway"))
                     .json.value(QStringLiteral("state"))
                     .toString(),
            QStringLiteral("READY"));
        QCOMPARE(predict(QStringLiteral("cancer/versions/midway"), instances).json.value(QStringLiteral("predictions")),
            m_expected.value(QStringLiteral("sklearn")));
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/midway")).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(
            send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/midway")).status, 404, 10000);
        const QJsonObject failed = send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/wrong")).json;
        QCOMPARE(failed.value(QStringLiteral("state")).toString(), QStringLiteral("FAILED"));
        QVERIFY(processesWith(QStringLiteral("/versions/wrong/model")).isEmpty());
    }

    /// The lists' filter, as the service's: name (":" with a trailing * is a prefix) and labels.KEY; a field the
    /// lists do not have is refused naming the filter.
    void listFilters()
    {
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("vision_a") },
                         { QStringLiteral("labels"),
                             QJsonObject { { QStringLiteral("team"), QStringLiteral("vision") } } } }))
                     .status,
            200);
        const auto names = [this](const QString& path, const QString& field) {
            QStringList out;
            for (const QJsonValue& v : send("GET", path).json.value(field).toArray())
                out << v.toObject().value(QStringLiteral("name")).toString().section(QLatin1Char('/'), -1);
            return out;
        };
        QCOMPARE(
            names(QStringLiteral("/v1/projects/local/models?filter=labels.team%3Dvision"), QStringLiteral("models")),
            QStringList { QStringLiteral("vision_a") });
        QCOMPARE(names(QStringLiteral("/v1/projects/local/models?filter=name%3Acanc*"), QStringLiteral("models")),
            QStringList { QStringLiteral("cancer") });
        QCOMPARE(names(QStringLiteral("/v1/projects/local/models/cancer/versions?filter=name%3Dxgb"),
                     QStringLiteral("versions")),
            QStringList { QStringLiteral("xgb") });
        const ApiResponse refused = send("GET", QStringLiteral("/v1/projects/local/models?filter=state%3DREADY"));
        QCOMPARE(refused.status, 400);
        QVERIFY2(refused.body.contains("\"filter\""), refused.body.constData());
        // trainyardctl's --filter, as gcloud's.
        const Trainyard::Test::CtlRun listed = ctl({ QStringLiteral("models"), QStringLiteral("list"),
            QStringLiteral("--filter=labels.team=vision"), QStringLiteral("--format=json") });
        QVERIFY2(listed.code == 0 && listed.out.contains(QStringLiteral("vision_a"))
                && !listed.out.contains(QStringLiteral("cancer")),
            qPrintable(listed.out + listed.err));
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/vision_a")).status, 200);
    }

    /// A model's own IAM policy (trainyardctl models add-iam-policy-binding, as gcloud's): a viewer of the project
    /// granted roles/ml.modelUser on one model predicts with it and its versions, and with no other model; removing
    /// the binding takes it back.
    void modelPolicyGrantsOneModel()
    {
        const ApiResponse made = send("POST", QStringLiteral("/v1/tokens"),
            json({ { QStringLiteral("member"), QStringLiteral("user:noah@example.org") },
                { QStringLiteral("role"), QStringLiteral("roles/ml.viewer") } }));
        QCOMPARE(made.status, 200);
        const QByteArray token = made.json.value(QStringLiteral("token")).toString().toLatin1();
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("other") } }))
                     .status,
            200);
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        QCOMPARE(predict(QStringLiteral("cancer"), instances, token).status, 403);

        const Trainyard::Test::CtlRun add
            = ctl({ QStringLiteral("models"), QStringLiteral("add-iam-policy-binding"), QStringLiteral("cancer"),
                QStringLiteral("--member=user:noah@example.org"), QStringLiteral("--role=roles/ml.modelUser") });
        QVERIFY2(add.code == 0, qPrintable(add.err));
        QVERIFY2(
            add.out.contains(QStringLiteral("roles/ml.modelUser")) && add.out.contains(QStringLiteral("user:noah")),
            qPrintable(add.out));
        QCOMPARE(predict(QStringLiteral("cancer"), instances, token).status, 200);
        QCOMPARE(predict(QStringLiteral("cancer/versions/xgb"), instances, token).status, 200);
        // Nothing else: another model, and no change to this one.
        const ApiResponse elsewhere = predict(QStringLiteral("other"), instances, token);
        QCOMPARE(elsewhere.status, 403);
        QVERIFY2(elsewhere.body.contains("projects/local/models/other"), elsewhere.body.constData());
        QCOMPARE(
            send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/xgb"), {}, token).status, 403);
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models/cancer:setIamPolicy"),
                     json({ { QStringLiteral("policy"), QJsonObject {} } }), token)
                     .status,
            403);
        const ApiResponse held = send("POST", QStringLiteral("/v1/projects/local/models/cancer:testIamPermissions"),
            json({ { QStringLiteral("permissions"),
                QJsonArray { QStringLiteral("ml.models.predict"), QStringLiteral("ml.versions.delete") } } }),
            token);
        QCOMPARE(held.json.value(QStringLiteral("permissions")).toArray(),
            QJsonArray { QStringLiteral("ml.models.predict") });

        const Trainyard::Test::CtlRun remove
            = ctl({ QStringLiteral("models"), QStringLiteral("remove-iam-policy-binding"), QStringLiteral("cancer"),
                QStringLiteral("--member=user:noah@example.org"), QStringLiteral("--role=roles/ml.modelUser") });
        QVERIFY2(remove.code == 0, qPrintable(remove.err));
        QCOMPARE(predict(QStringLiteral("cancer"), instances, token).status, 403);
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/other")).status, 200);
    }

    /// roles/ml.modelUser predicts and reads, and changes nothing.
    void modelUserPredictsOnly()
    {
        const ApiResponse made = send("POST", QStringLiteral("/v1/tokens"),
            json({ { QStringLiteral("member"), QStringLiteral("user:mia@example.org") },
                { QStringLiteral("role"), QStringLiteral("roles/ml.modelUser") } }));
        QCOMPARE(made.status, 200);
        const QByteArray token = made.json.value(QStringLiteral("token")).toString().toLatin1();
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        QCOMPARE(predict(QStringLiteral("cancer"), instances, token).status, 200);
        QCOMPARE(predict(QStringLiteral("cancer/versions/xgb"), instances, token).status, 200);
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions"), {}, token).status, 200);
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models/cancer/versions"),
                     json({ { QStringLiteral("name"), QStringLiteral("mine") },
                         { QStringLiteral("deploymentUri"), modelPath("sklearn") },
                         { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") } }),
                     token)
                     .status,
            403);
        QCOMPARE(
            send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/xgb"), {}, token).status, 403);
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("m2") } }), token)
                     .status,
            403);
        QCOMPARE(
            send("POST", QStringLiteral("/v1/projects/local/models/cancer/versions/xgb:setDefault"), {}, token).status,
            403);
    }

    /// The whole path with trainyardctl, as a user of gcloud runs it: a built-in algorithm's job (XGBoost on the
    /// breast-cancer table, its labels as text), its model folder deployed, raw CSV rows predicted through the
    /// preprocessing the job recorded, answered with the table's own labels; a row of the wrong width named.
    void builtInModelFromRawRows()
    {
        const QString table = QStringLiteral(TRAINYARD_FIXTURES_DIR "/builtin/breast_cancer.csv");
        const QString jobDir = m_root.filePath(QStringLiteral("models/job_xgb"));
        Trainyard::Test::CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"),
            QStringLiteral("cancer_xgb"), QStringLiteral("--master-image-uri"),
            QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest"), QStringLiteral("--region"),
            QStringLiteral("local"), QStringLiteral("--job-dir"), jobDir, QStringLiteral("--stream-logs"),
            QStringLiteral("--"), QStringLiteral("--preprocess"), QStringLiteral("--objective"),
            QStringLiteral("binary:logistic"), QStringLiteral("--training_data_path"), table });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = ctl({ QStringLiteral("models"), QStringLiteral("create"), QStringLiteral("cancer_builtin") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("Created ai platform model [projects/local/models/cancer_builtin]")),
            qPrintable(r.err));
        r = ctl({ QStringLiteral("versions"), QStringLiteral("create"), QStringLiteral("v1"), QStringLiteral("--model"),
            QStringLiteral("cancer_builtin"), QStringLiteral("--origin"), jobDir + QStringLiteral("/model"),
            QStringLiteral("--framework"), QStringLiteral("xgboost") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("Creating version (this might take a few minutes)")), qPrintable(r.err));
        r = ctl({ QStringLiteral("versions"), QStringLiteral("list"), QStringLiteral("--model"),
            QStringLiteral("cancer_builtin") });
        QVERIFY2(r.code == 0 && r.out.contains(QLatin1String("READY")), qPrintable(r.out + r.err));

        // Rows 1-3 (malignant) and 300 (benign) of the table, without their label, as CSV text.
        QFile csv(table);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().split('\n');
        QFile instances(m_root.filePath(QStringLiteral("models/rows.csv")));
        QVERIFY(instances.open(QIODevice::WriteOnly));
        QStringList expected;
        for (int i : { 0, 1, 2, 299 }) {
            const QByteArray row = rows.at(i).trimmed();
            expected << QString::fromUtf8(row.left(row.indexOf(',')));
            instances.write(row.mid(row.indexOf(',') + 1) + '\n');
        }
        instances.close();
        QCOMPARE(expected,
            (QStringList { QStringLiteral("malignant"), QStringLiteral("malignant"), QStringLiteral("malignant"),
                QStringLiteral("benign") }));
        r = ctl({ QStringLiteral("predict"), QStringLiteral("--model"), QStringLiteral("cancer_builtin"),
            QStringLiteral("--text-instances"), instances.fileName(), QStringLiteral("--format=json") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray predictions
            = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("predictions")).toArray();
        QCOMPARE(predictions.size(), 4);
        for (qsizetype i = 0; i < predictions.size(); ++i) {
            const QJsonObject answer = predictions.at(i).toObject();
            QCOMPARE(answer.value(QStringLiteral("predicted_label")).toString(), expected.at(i));
            QCOMPARE(answer.value(QStringLiteral("classes")).toArray(),
                (QJsonArray { QStringLiteral("benign"), QStringLiteral("malignant") }));
            const QJsonArray scores = answer.value(QStringLiteral("scores")).toArray();
            QCOMPARE(scores.size(), 2);
            QVERIFY(std::abs(scores.at(0).toDouble() + scores.at(1).toDouble() - 1.0) < 1e-6);
        }
        // Without --format, gcloud's table of the predictions' keys (predict_utilities.GetDefaultFormat): a column
        // per key, a row per instance.
        r = ctl({ QStringLiteral("predict"), QStringLiteral("--model"), QStringLiteral("cancer_builtin"),
            QStringLiteral("--text-instances"), instances.fileName() });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        static const QRegularExpression heading(QStringLiteral("^CLASSES +PREDICTED_LABEL +SCORES$"));
        QVERIFY2(heading.match(lines.first()).hasMatch(), qPrintable(r.out));
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QVERIFY2(lines.at(i + 1).startsWith(QLatin1String("['benign', 'malignant']  ") + expected.at(i)),
                qPrintable(r.out));
        }
        // value(): what a script takes, one field of the answer.
        r = ctl({ QStringLiteral("predict"), QStringLiteral("--model"), QStringLiteral("cancer_builtin"),
            QStringLiteral("--text-instances"), instances.fileName(),
            QStringLiteral("--format=value(predictions[].predicted_label)") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out, expected.join(QLatin1Char(';')) + QLatin1Char('\n'));
        // A row of the wrong width: the instance and the rule, in gcloud's error form.
        QFile bad(m_root.filePath(QStringLiteral("models/bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[17.99, 10.38]\n");
        bad.close();
        r = ctl({ QStringLiteral("predict"), QStringLiteral("--model"), QStringLiteral("cancer_builtin"),
            QStringLiteral("--json-instances"), bad.fileName() });
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.contains(QLatin1String("Prediction failed: instance 0: 2 values, expected 30")), qPrintable(r.err));
        // Delete through the CLI: the version, then the model.
        r = ctl({ QStringLiteral("versions"), QStringLiteral("delete"), QStringLiteral("v1"), QStringLiteral("--model"),
            QStringLiteral("cancer_builtin") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = ctl({ QStringLiteral("models"), QStringLiteral("delete"), QStringLiteral("cancer_builtin") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models/cancer_builtin")).status, 404);
    }

    /// "Run the sample" → Deploy → Predict: the Fashion-MNIST sample (one short epoch) leaves <job-dir>/model, which
    /// deploys as PYTORCH and answers ten class probabilities per raw image of the test set.
    void sampleModelDeploys()
    {
        const QString jobDir = m_root.filePath(QStringLiteral("models/fmnist_job"));
        Trainyard::Test::CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"),
            QStringLiteral("fmnist_sample"), QStringLiteral("--package-path"), QStringLiteral(TRAINYARD_SAMPLE_TRAINER),
            QStringLiteral("--module-name"), QStringLiteral("trainer.task"), QStringLiteral("--region"),
            QStringLiteral("local"), QStringLiteral("--job-dir"), jobDir, QStringLiteral("--stream-logs"),
            QStringLiteral("--"), QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--train-examples"),
            QStringLiteral("5000") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("fmnist") } }))
                     .status,
            200);
        const QJsonObject v = deploy(QStringLiteral("fmnist"), QStringLiteral("v1"), jobDir + QStringLiteral("/model"),
            QStringLiteral("PYTORCH"));
        QCOMPARE(v.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        // The test set's first images (an ankle boot, a pullover, a trouser), raw, from the dataset's own file.
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-c"),
                QStringLiteral(
                    "import gzip, json, numpy as np\n"
                    "raw = gzip.open('/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz').read()\n"
                    "print(json.dumps(np.frombuffer(raw, np.uint8, offset=16).reshape(-1, 784)[:3].tolist()))") });
        QVERIFY(python.waitForFinished(60000));
        const QJsonArray images = QJsonDocument::fromJson(python.readAllStandardOutput()).array();
        QCOMPARE(images.size(), 3);
        const ApiResponse p = predict(QStringLiteral("fmnist"), images);
        QCOMPARE(p.status, 200);
        const QJsonArray predictions = p.json.value(QStringLiteral("predictions")).toArray();
        QCOMPARE(predictions.size(), 3);
        for (const QJsonValue& row : predictions) {
            const QJsonArray probabilities = row.toArray();
            QCOMPARE(probabilities.size(), 10);
            double sum = 0;
            for (const QJsonValue& q : probabilities)
                sum += q.toDouble();
            QVERIFY(std::abs(sum - 1.0) < 1e-4);
        }
        // A trouser is the easiest class: even one short epoch gets it.
        const QJsonArray trouser = predictions.at(2).toArray();
        int best = 0;
        for (int c = 1; c < 10; ++c)
            best = trouser.at(c).toDouble() > trouser.at(best).toDouble() ? c : best;
        QCOMPARE(best, 1);
    }

    /// autoScaling with minNodes 0: READY once a node loaded the model, down to zero nodes after the idle time, a
    /// request then starts a node (cold start) and is answered; concurrent requests start a second node (maxNodes 2),
    /// which stops again when idle. The version's log says each step. While the version lives a warm spare of its
    /// runtime waits (issue 48), in a sandbox that binds no version's folder, and the cold start takes it: the log
    /// says so; deleting the version lets the spare go.
    void scalesToZeroAndBack()
    {
        // An executor whose idle nodes stop after 1 s (the default is 60), its log kept to see the spare's readiness.
        m_executor->stop();
        const QString executorLog = m_root.filePath(QStringLiteral("executor-scaling.log"));
        m_executor->setLogFile(executorLog);
        QString error;
        QVERIFY2(m_executor->start(Trainyard::Test::ExecutorProcess::defaultArguments()
                         + QStringList { QStringLiteral("--prediction-idle-seconds"), QStringLiteral("1") },
                     &error),
            qPrintable(error));
        const QJsonObject v = deploy(QStringLiteral("cancer"), QStringLiteral("auto"), modelPath("sklearn"),
            QStringLiteral("SCIKIT_LEARN"),
            { { QStringLiteral("autoScaling"),
                QJsonObject { { QStringLiteral("minNodes"), 0 }, { QStringLiteral("maxNodes"), 2 } } } });
        QCOMPARE(v.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        const QString versionLog
            = m_root.filePath(QStringLiteral("data/trainyard/projects/local/models/cancer/versions/auto/nodes.log"));
        const auto logText = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        QTRY_COMPARE_WITH_TIMEOUT(Trainyard::Test::nodesUpByLog(versionLog), 0, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(logText(executorLog).contains("warm spare for SCIKIT_LEARN models ready"), 60000);
        // The spare's sandbox (the bwrap processes around it carry its command line) binds no version's folder.
        const QList<qint64> spares = processesWith(QStringLiteral("--spare"), true);
        QVERIFY(!spares.isEmpty());
        for (qint64 pid : spares) {
            QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
            QVERIFY(!cmdline.open(QIODevice::ReadOnly) || !cmdline.readAll().contains("/versions/"));
        }

        // Cold start: the request waits for a node and gets the library's answer; the warm spare took it.
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        ApiResponse r = predict(QStringLiteral("cancer/versions/auto"), instances);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QStringLiteral("predictions")), m_expected.value(QStringLiteral("sklearn")));
        QCOMPARE(Trainyard::Test::nodesUpByLog(versionLog), 1);
        QVERIFY2(logText(versionLog).contains("starting: a warm spare (SCIKIT_LEARN imported) takes the model folder"),
            logText(versionLog).constData());
        QVERIFY2(logText(versionLog).contains("(a warm spare: model copy "), logText(versionLog).constData());

        // Load: 6 connections at a time, 300 requests; a second node starts.
        QNetworkAccessManager nam;
        int answered = 0;
        int ok = 0;
        int peak = 0;
        const QUrl url = Trainyard::Test::apiUrl(
            m_executor->url(), QStringLiteral("/v1/projects/local/models/cancer/versions/auto:predict"));
        for (int i = 0; i < 300; ++i) {
            QNetworkRequest request(url);
            request.setRawHeader("Authorization", "Bearer " + m_executor->token());
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
            QNetworkReply* reply = nam.post(
                request, json({ { QStringLiteral("instances"), QJsonArray { instances.at(i % instances.size()) } } }));
            connect(reply, &QNetworkReply::finished, this, [reply, &answered, &ok, &peak, versionLog] {
                ++answered;
                ok += reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200 ? 1 : 0;
                peak = std::max(peak, Trainyard::Test::nodesUpByLog(versionLog));
                reply->deleteLater();
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(answered, 300, 60000);
        QCOMPARE(ok, 300);
        QCOMPARE(peak, 2);
        QTRY_COMPARE_WITH_TIMEOUT(Trainyard::Test::nodesUpByLog(versionLog), 0, 20000);
        const QByteArray text = logText(versionLog);
        QVERIFY2(text.contains("scaling up: a request arrived while no node ran (cold start)"), text.constData());
        QVERIFY2(text.contains("scaling up: every node has requests waiting"), text.constData());
        QVERIFY2(text.contains("scaling down: idle for"), text.constData());
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/auto")).status, 200);
        // No version that scales to zero is left: no spare waits.
        QTRY_VERIFY2_WITH_TIMEOUT(processesWith(QStringLiteral("--spare"), true).isEmpty(),
            qPrintable(describeProcesses(processesWith(QStringLiteral("--spare"), true)) + QString::fromUtf8(logText(executorLog))),
            20000);
    }

    /// onlinePredictionLogging: each request's record (instances, sizes, latency, status; never the instances
    /// themselves) in the version's log, read through …/versions/{v}/logs with its nodes' lines; a model without it
    /// logs no request.
    void requestLogging()
    {
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("logged") },
                         { QStringLiteral("onlinePredictionLogging"), true } }))
                     .status,
            200);
        const QJsonObject v = deploy(
            QStringLiteral("logged"), QStringLiteral("v1"), modelPath("sklearn"), QStringLiteral("SCIKIT_LEARN"));
        QCOMPARE(v.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        QCOMPARE(predict(QStringLiteral("logged"), instances).status, 200);
        instances.replace(0, QJsonArray { 1 });
        QCOMPARE(predict(QStringLiteral("logged"), instances).status, 400);
        const ApiResponse logs = send("GET", QStringLiteral("/v1/projects/local/models/logged/versions/v1/logs"));
        QCOMPARE(logs.status, 200);
        QStringList texts;
        for (const QJsonValue& e : logs.json.value(QStringLiteral("entries")).toArray()) {
            QVERIFY(!e.toObject().value(QStringLiteral("timestamp")).toString().isEmpty());
            texts << e.toObject().value(QStringLiteral("text")).toString();
        }
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("ready in")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("request: 5 instance(s)")) && all.contains(QLatin1String("HTTP 200"))
                && all.contains(QLatin1String("HTTP 400")),
            qPrintable(all));
        QVERIFY2(!all.contains(QLatin1String("17.99")), qPrintable(all)); // no instance's values
        // pageSize: the last lines only.
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models/logged/versions/v1/logs?pageSize=1"))
                     .json.value(QStringLiteral("entries"))
                     .toArray()
                     .size(),
            1);
        const ApiResponse quiet = send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/xgb/logs"));
        QCOMPARE(quiet.status, 200);
        QVERIFY(!quiet.body.contains("request:"));
        QCOMPARE(send("DELETE", QStringLiteral("/v1/projects/local/models/logged/versions/v1")).status, 200);
    }

    /// A version's update, as gcloud's `versions update`: a description or labels change at once (an UPDATE_VERSION
    /// operation, done); new scaling starts its nodes again with the new numbers, UPDATING then READY, and it answers
    /// as before; an update of a field that cannot change is refused naming updateMask.
    void versionUpdates()
    {
        const Trainyard::Test::CtlRun described = ctl({ QStringLiteral("versions"), QStringLiteral("update"),
            QStringLiteral("sk"), QStringLiteral("--model=cancer"), QStringLiteral("--description=the pipeline"),
            QStringLiteral("--update-labels=stage=prod") });
        QVERIFY2(described.code == 0, qPrintable(described.err));
        QJsonObject v = send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/sk")).json;
        QCOMPARE(v.value(QStringLiteral("description")).toString(), QStringLiteral("the pipeline"));
        QCOMPARE(v.value(QStringLiteral("labels")).toObject().value(QStringLiteral("stage")).toString(),
            QStringLiteral("prod"));
        QCOMPARE(processesWith(QStringLiteral("/versions/sk/model")).size(), 2);

        const Trainyard::Test::CtlRun scaled = ctl({ QStringLiteral("versions"), QStringLiteral("update"),
            QStringLiteral("sk"), QStringLiteral("--model=cancer"), QStringLiteral("--nodes=1") });
        QVERIFY2(scaled.code == 0, qPrintable(scaled.err));
        QVERIFY2(scaled.err.contains(QStringLiteral("Updating version [sk]")), qPrintable(scaled.err));
        v = send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/sk")).json;
        QCOMPARE(v.value(QStringLiteral("state")).toString(), QStringLiteral("READY"));
        QCOMPARE(v.value(QStringLiteral("manualScaling")).toObject().value(QStringLiteral("nodes")).toInt(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(processesWith(QStringLiteral("/versions/sk/model")).size(), 1, 10000);
        const QJsonArray instances = m_expected.value(QStringLiteral("instances")).toArray();
        const ApiResponse answer = predict(QStringLiteral("cancer/versions/sk"), instances);
        QCOMPARE(answer.json.value(QStringLiteral("predictions")), m_expected.value(QStringLiteral("sklearn")));
        const ApiResponse ops
            = send("GET", QStringLiteral("/v1/projects/local/operations?filter=name%3Aupdate_cancer_sk*"));
        QCOMPARE(ops.json.value(QStringLiteral("operations")).toArray().size(), 2);

        const ApiResponse refused
            = send("PATCH", QStringLiteral("/v1/projects/local/models/cancer/versions/sk?updateMask=deploymentUri"),
                json({ { QStringLiteral("deploymentUri"), modelPath("xgboost") } }));
        QCOMPARE(refused.status, 400);
        QVERIFY2(refused.body.contains("updateMask"), refused.body.constData());
    }

    /// A model's update (`projects.models.patch`, gcloud's `models update`): description and labels change at once,
    /// answered with a done UPDATE_MODEL operation; the mask's paths may carry spaces; a stale etag, a missing mask
    /// and a field that cannot change are refused, naming what is wrong, and change nothing.
    void modelUpdates()
    {
        const QString path = QStringLiteral("/v1/projects/local/models/cancer");
        const QString etag = send("GET", path).json.value(QStringLiteral("etag")).toString();
        ApiResponse r = send("PATCH", path + QStringLiteral("?updateMask=description,%20labels"),
            json({ { QStringLiteral("description"), QStringLiteral("breast cancer, three frameworks") },
                { QStringLiteral("labels"), QJsonObject { { QStringLiteral("team"), QStringLiteral("oncology") } } },
                { QStringLiteral("etag"), etag } }));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("operationType")).toString(),
            QStringLiteral("UPDATE_MODEL"));
        QVERIFY(r.json.value(QStringLiteral("done")).toBool());
        QJsonObject m = send("GET", path).json;
        QCOMPARE(m.value(QStringLiteral("description")).toString(), QStringLiteral("breast cancer, three frameworks"));
        QCOMPARE(m.value(QStringLiteral("labels")).toObject().value(QStringLiteral("team")).toString(),
            QStringLiteral("oncology"));
        QVERIFY(m.value(QStringLiteral("etag")).toString() != etag);

        // A stale etag: 409 ABORTED (AIP-154), as a job's; `etag` in the mask asks for the check.
        r = send("PATCH", path + QStringLiteral("?updateMask=description"),
            json({ { QStringLiteral("description"), QStringLiteral("stale") }, { QStringLiteral("etag"), etag } }));
        QCOMPARE(r.status, 409);
        QCOMPARE(r.errorStatus(), QStringLiteral("ABORTED"));
        QVERIFY2(r.body.contains("etag"), r.body.constData());
        r = send("PATCH", path + QStringLiteral("?updateMask=description,etag"),
            json({ { QStringLiteral("description"), QStringLiteral("breast cancer, three frameworks") },
                { QStringLiteral("etag"), m.value(QStringLiteral("etag")).toString() } }));
        QVERIFY2(r.status == 200, r.body.constData());
        r = send("PATCH", path, json({ { QStringLiteral("description"), QStringLiteral("no mask") } }));
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("updateMask") && r.body.contains("description and labels"), r.body.constData());
        r = send("PATCH", path + QStringLiteral("?updateMask=defaultVersion"),
            json({ { QStringLiteral("defaultVersion"),
                QJsonObject { { QStringLiteral("name"), QStringLiteral("xgb") } } } }));
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("cannot be updated"), r.body.constData());
        QCOMPARE(send("GET", path).json.value(QStringLiteral("description")).toString(),
            QStringLiteral("breast cancer, three frameworks"));
    }

    /// setDefault moves the default; deleting a version stops its nodes and removes its files and record.
    void setDefaultAndDelete()
    {
        ApiResponse r = send("POST", QStringLiteral("/v1/projects/local/models/cancer/versions/xgb:setDefault"));
        QCOMPARE(r.status, 200);
        QVERIFY(r.json.value(QStringLiteral("isDefault")).toBool());
        QVERIFY(!send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/sk"))
                     .json.value(QStringLiteral("isDefault"))
                     .toBool());
        r = send("DELETE", QStringLiteral("/v1/projects/local/models/cancer/versions/sk"));
        QCOMPARE(r.status, 200);
        const QString op = r.json.value(QStringLiteral("name")).toString();
        QTRY_VERIFY_WITH_TIMEOUT(
            send("GET", QStringLiteral("/v1/") + op).json.value(QStringLiteral("done")).toBool(), 30000);
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions/sk")).status, 404);
        QTRY_VERIFY_WITH_TIMEOUT(processesWith(QStringLiteral("/versions/sk/model")).isEmpty(), 10000);
        QVERIFY(!QFileInfo::exists(
            m_root.filePath(QStringLiteral("data/trainyard/projects/local/models/cancer/versions/sk"))));
        const QJsonArray versions = send("GET", QStringLiteral("/v1/projects/local/models/cancer/versions"))
                                        .json.value(QStringLiteral("versions"))
                                        .toArray();
        QStringList names;
        for (const QJsonValue& v : versions)
            names << v.toObject().value(QStringLiteral("name")).toString().section(QLatin1Char('/'), -1);
        QCOMPARE(names,
            (QStringList {
                QStringLiteral("xgb"), QStringLiteral("torch"), QStringLiteral("wrong"), QStringLiteral("missing") }));
        // The operations list has every create and the delete, newest first.
        const QJsonArray ops = send("GET", QStringLiteral("/v1/projects/local/operations?pageSize=100"))
                                   .json.value(QStringLiteral("operations"))
                                   .toArray();
        QVERIFY(ops.size() >= 6);
        QCOMPARE(ops.first().toObject().value(QStringLiteral("name")).toString(), op);

        // A model without versions is deleted by an operation too.
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("short_lived") } }))
                     .status,
            200);
        r = send("DELETE", QStringLiteral("/v1/projects/local/models/short_lived"));
        QCOMPARE(r.status, 200);
        const QString deleteModel = r.json.value(QStringLiteral("name")).toString();
        QTRY_VERIFY_WITH_TIMEOUT(
            send("GET", QStringLiteral("/v1/") + deleteModel).json.value(QStringLiteral("done")).toBool(), 30000);

        // A done operation carries exactly one of `response` and `error` (google.longrunning.Operation's `result`
        // oneof), and a response is an Any with its @type: a created or updated version a Version, an updated model a
        // Model, a delete google.protobuf.Empty.
        const QHash<QString, QString> responseTypes {
            { QStringLiteral("CREATE_VERSION"), QStringLiteral("type.googleapis.com/google.cloud.ml.v1.Version") },
            { QStringLiteral("UPDATE_VERSION"), QStringLiteral("type.googleapis.com/google.cloud.ml.v1.Version") },
            { QStringLiteral("UPDATE_MODEL"), QStringLiteral("type.googleapis.com/google.cloud.ml.v1.Model") },
            { QStringLiteral("DELETE_VERSION"), QStringLiteral("type.googleapis.com/google.protobuf.Empty") },
            { QStringLiteral("DELETE_MODEL"), QStringLiteral("type.googleapis.com/google.protobuf.Empty") },
        };
        QSet<QString> seen;
        for (const QJsonValue& value : send("GET", QStringLiteral("/v1/projects/local/operations?pageSize=100"))
                                           .json.value(QStringLiteral("operations"))
                                           .toArray()) {
            const QJsonObject o = value.toObject();
            if (!o.value(QStringLiteral("done")).toBool())
                continue;
            const QString type
                = o.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("operationType")).toString();
            const bool hasResponse = o.contains(QStringLiteral("response"));
            QVERIFY2(hasResponse != o.contains(QStringLiteral("error")), QJsonDocument(o).toJson().constData());
            if (hasResponse) {
                QCOMPARE(o.value(QStringLiteral("response")).toObject().value(QStringLiteral("@type")).toString(),
                    responseTypes.value(type));
                seen.insert(type);
            }
        }
        QCOMPARE(seen.size(), responseTypes.size());
    }
};

QTEST_GUILESS_MAIN(TestPredictionApi)
#include "tst_predictionapi.moc"
