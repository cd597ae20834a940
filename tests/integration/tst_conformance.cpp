// SPDX-License-Identifier: GPL-2.0-or-later
// The executor driven from the service's own API description (issue 45, item 12): the `ml` v1 discovery document
// (tests/data/discovery/ml.v1.json; tests/data/README.md says where it comes from). Every method the description has
// is either called here — its URL built from the method's flatPath, its HTTP method the description's, its request
// body checked against the request schema before it is sent — and its answer validated against the response schema
// (field names, JSON types, enums, int64 as strings, RFC 3339 times, @type on every Any), or it is one of the methods
// this executor does not serve, which must answer 501 UNIMPLEMENTED in google.rpc.Status's shape. Every error answer
// is validated as a google.rpc.Status too. What the executor adds to the service's shapes is the short allow-list
// below, each entry with its reason; an extension that is not on it, or an entry no answer used, fails the test.
#include "apirequest.h"
#include "predictionmodels.h"
#include "discoverydocument.h"
#include "executorprocess.h"
#include "trainingpackage.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <memory>

using namespace Trainyard::Test;

namespace {

/// What the executor's answers hold beyond the description, and why (app/executor/API.md says each).
const QStringList kExtensions {
    // PyTorch models are served (TorchScript, as Vertex AI serves them); the service has no such framework.
    QStringLiteral("GoogleCloudMlV1__Version.framework=PYTORCH"),
    // Which file a framework left out of versions.create was detected from (issue 45, item 2).
    QStringLiteral("GoogleCloudMlV1__Version.frameworkDetectedFrom"),
    // A batch prediction job's instances read, beside the service's predictionCount and errorCount.
    QStringLiteral("GoogleCloudMlV1__PredictionOutput.inputInstanceCount"),
};

/// The methods the description has and this executor does not serve: each answers 501 UNIMPLEMENTED saying why.
const QStringList kUnserved {
    // The AI Platform Vizier API: tuning runs inside training jobs (trainingInput.hyperparameters).
    QStringLiteral("ml.projects.locations.studies.create"), QStringLiteral("ml.projects.locations.studies.delete"),
    QStringLiteral("ml.projects.locations.studies.get"), QStringLiteral("ml.projects.locations.studies.list"),
    QStringLiteral("ml.projects.locations.studies.trials.addMeasurement"),
    QStringLiteral("ml.projects.locations.studies.trials.checkEarlyStoppingState"),
    QStringLiteral("ml.projects.locations.studies.trials.complete"),
    QStringLiteral("ml.projects.locations.studies.trials.create"),
    QStringLiteral("ml.projects.locations.studies.trials.delete"),
    QStringLiteral("ml.projects.locations.studies.trials.get"),
    QStringLiteral("ml.projects.locations.studies.trials.list"),
    QStringLiteral("ml.projects.locations.studies.trials.listOptimalTrials"),
    QStringLiteral("ml.projects.locations.studies.trials.stop"),
    QStringLiteral("ml.projects.locations.studies.trials.suggest"),
};

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestConformance : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    std::unique_ptr<ExecutorProcess> m_executor;
    QNetworkAccessManager m_nam;
    std::unique_ptr<DiscoveryDocument> m_api;
    QSet<QString> m_called;
    /// What call() and validateAnswer() found wrong, checked at the end of each test function (a failed QTest check
    /// would end the event loops the rest of the function waits in).
    QStringList m_failures;

    void takeFailures()
    {
        const QStringList failures = m_failures;
        m_failures.clear();
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n"))));
    }
    QString m_models;
    QString m_package;

    /// Calls `id` with its path parameters `path` (in flatPath order), `query` and `body`; checks the body against
    /// the request schema, the answer against the response schema (or google.rpc.Status when it is an error), and
    /// returns it. A check that fails records its message and the answer is still returned.
    /// A body the description wraps (predict's HttpBody): sent as it is, not checked against the request schema.
    enum BodyKind { Message, RawBody };

    ApiResponse call(const QString& id, const QStringList& path, const QJsonObject& body = {}, const QUrlQuery& query = {},
        int expectedStatus = 200, BodyKind kind = Message)
    {
        ApiResponse answer;
        const auto methodIt = m_api->methods().constFind(id);
        if (methodIt == m_api->methods().cend()) {
            m_failures << QStringLiteral("the description has no method %1").arg(id);
            return answer;
        }
        const DiscoveryDocument::Method& method = *methodIt;
        for (const auto& [key, value] : query.queryItems()) {
            static const QStringList standard { QStringLiteral("fields"), QStringLiteral("alt"), QStringLiteral("prettyPrint") };
            if (!method.queryParameters.contains(key) && !standard.contains(key))
                m_failures << QStringLiteral("%1 has no query parameter %2").arg(id, key);
        }
        if (!method.request.isEmpty() && kind == Message) {
            const QStringList problems = m_api->validate(body, method.request, QStringLiteral("request"));
            if (!problems.isEmpty())
                m_failures << id + QStringLiteral(" request: ") + problems.join(QStringLiteral("; "));
        }
        QString url = m_api->path(method, path);
        if (url.isEmpty()) {
            m_failures << QStringLiteral("%1 takes other path parameters than %2").arg(id, path.join(QLatin1Char(',')));
            return answer;
        }
        if (!query.isEmpty())
            url += QLatin1Char('?') + query.toString(QUrl::FullyEncoded);
        answer = sendApiRequest(m_nam, method.httpMethod.toLatin1(), apiUrl(m_executor->url(), url),
            method.request.isEmpty() && method.httpMethod != QLatin1String("POST") ? QByteArray() : compact(body),
            { { "Authorization", "Bearer " + m_executor->token() } }, 120000);
        m_called.insert(id);
        if (answer.status != expectedStatus)
            m_failures << QStringLiteral("%1 %2: HTTP %3, %4 expected: %5")
                                        .arg(method.httpMethod, url)
                                        .arg(answer.status)
                                        .arg(expectedStatus)
                                        .arg(QString::fromUtf8(answer.body.left(600)));
        validateAnswer(id, method, answer);
        return answer;
    }

    void validateAnswer(const QString& id, const DiscoveryDocument::Method& method, const ApiResponse& answer)
    {
        QStringList problems;
        const QJsonDocument doc = QJsonDocument::fromJson(answer.body);
        if (!doc.isObject()) {
            problems << QStringLiteral("the answer is not a JSON object");
        } else if (answer.status >= 400) {
            // google.rpc.Status under "error", as the service's JSON errors: code, message, status, details.
            const QJsonObject o = doc.object();
            if (o.keys() != QStringList { QStringLiteral("error") })
                problems << QStringLiteral("an error is {\"error\": google.rpc.Status}");
            QJsonObject status = o.value(QStringLiteral("error")).toObject();
            if (status.value(QStringLiteral("code")).toInt() != answer.status)
                problems << QStringLiteral("error.code is the HTTP status");
            static const QStringList codes { QStringLiteral("CANCELLED"), QStringLiteral("UNKNOWN"),
                QStringLiteral("INVALID_ARGUMENT"), QStringLiteral("DEADLINE_EXCEEDED"), QStringLiteral("NOT_FOUND"),
                QStringLiteral("ALREADY_EXISTS"), QStringLiteral("PERMISSION_DENIED"), QStringLiteral("RESOURCE_EXHAUSTED"),
                QStringLiteral("FAILED_PRECONDITION"), QStringLiteral("ABORTED"), QStringLiteral("OUT_OF_RANGE"),
                QStringLiteral("UNIMPLEMENTED"), QStringLiteral("INTERNAL"), QStringLiteral("UNAVAILABLE"),
                QStringLiteral("DATA_LOSS"), QStringLiteral("UNAUTHENTICATED") };
            if (!codes.contains(status.value(QStringLiteral("status")).toString()))
                problems << QStringLiteral("error.status is a google.rpc.Code name");
            // The HTTP mapping of google.rpc.Status adds "status"; the rest is the message itself.
            status.remove(QStringLiteral("status"));
            problems << m_api->validate(status, QStringLiteral("GoogleRpc__Status"), QStringLiteral("$.error"));
        } else if (method.response == QLatin1String("GoogleApi__HttpBody")) {
            // predict and explain answer the raw body the description wraps in HttpBody: {"predictions": […]},
            // {"explanations": […]}.
            const QString key = id == QLatin1String("ml.projects.explain") ? QStringLiteral("explanations")
                                                                           : QStringLiteral("predictions");
            if (!doc.object().value(key).isArray())
                problems << QStringLiteral("the answer is {\"%1\": [...]}").arg(key);
        } else if (method.response == QLatin1String("GoogleProtobuf__Empty")) {
            if (!doc.object().isEmpty())
                problems << QStringLiteral("google.protobuf.Empty is {}");
        } else {
            problems << m_api->validate(doc.object(), method.response);
        }
        if (!problems.isEmpty())
            m_failures << id + QStringLiteral(": ") + problems.join(QStringLiteral("\n  "));
    }

    /// operations.get until the operation is done; the last answer.
    QJsonObject waitOperation(const QString& name)
    {
        const QString id = name.section(QLatin1Char('/'), -1);
        QJsonObject op;
        if (id.isEmpty())
            return op; // the call that should have made it failed, and says so
        (void)QTest::qWaitFor(
            [&] {
                op = call(QStringLiteral("ml.projects.operations.get"), { QStringLiteral("local"), id }).json;
                return op.value(QStringLiteral("done")).toBool();
            },
            120000);
        return op;
    }

    QJsonObject waitJob(const QString& jobId)
    {
        QJsonObject job;
        (void)QTest::qWaitFor(
            [&] {
                job = call(QStringLiteral("ml.projects.jobs.get"), { QStringLiteral("local"), jobId }).json;
                return jobStateIsFinal(job);
            },
            180000);
        return job;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QFile description(QStringLiteral(TRAINYARD_FIXTURES_DIR "/discovery/ml.v1.json"));
        QVERIFY(description.open(QIODevice::ReadOnly));
        const QJsonObject document = QJsonDocument::fromJson(description.readAll()).object();
        QCOMPARE(document.value(QStringLiteral("id")).toString(), QStringLiteral("ml:v1"));
        m_api = std::make_unique<DiscoveryDocument>(document);
        m_api->allow(kExtensions);
        QVERIFY(m_api->methods().size() >= 40);

        QVERIFY(m_root.isValid());
        QVERIFY(makeAccountFolders(m_root, { QStringLiteral("models") }));
        m_models = m_root.filePath(QStringLiteral("models"));
        QVERIFY(trainPredictionModels(m_models));
        // A trainer that reports a hypertune metric (a tuning job's trials), or sleeps when asked (a job to cancel).
        m_package = m_root.filePath(QStringLiteral("package"));
        QVERIFY(writeTrainingPackage(m_package, QStringLiteral("conformance"),
            "import argparse, json, os, time\n"
            "p = argparse.ArgumentParser()\n"
            "p.add_argument('--lr', type=float, default=0.1)\n"
            "p.add_argument('--sleep', type=float, default=0)\n"
            "p.add_argument('--job-dir')\n"
            "a = p.parse_args()\n"
            "time.sleep(a.sleep)\n"
            "path = os.environ.get('CLOUD_ML_HP_METRIC_FILE', '/tmp/hypertune/output.metrics')\n"
            "os.makedirs(os.path.dirname(path), exist_ok=True)\n"
            "open(path, 'a').write(json.dumps({'timestamp': time.time(), 'global_step': '1', 'accuracy': str(1 - a.lr)}) + '\\n')\n"));
        m_executor = std::make_unique<ExecutorProcess>(m_root.path());
        QString error;
        QVERIFY2(m_executor->start(&error), qPrintable(error));
    }

    void cleanupTestCase() { m_executor.reset(); }

    void init() { m_failures.clear(); }
    /// Whatever call() found in the function that just ran.
    void cleanup() { takeFailures(); }

    /// The checker itself: each kind of departure it exists to catch is caught (so that a clean run means something).
    void validatorCatchesMismatches()
    {
        DiscoveryDocument& api = *m_api;
        const auto problems = [&](const char* json, const char* schema) {
            return api.validate(QJsonDocument::fromJson(json).object(), QLatin1String(schema));
        };
        QVERIFY(problems(R"({"jobId": "a", "state": "SUCCEEDED"})", "GoogleCloudMlV1__Job").isEmpty());
        QVERIFY(problems(R"({"jobId": "a", "state": "DONE"})", "GoogleCloudMlV1__Job").first().contains(QLatin1String("not a value")));
        QVERIFY(problems(R"({"jobId": "a", "colour": "red"})", "GoogleCloudMlV1__Job").first().contains(QLatin1String("does not have")));
        QVERIFY(problems(R"({"trainingOutput": {"completedTrialCount": 2}})", "GoogleCloudMlV1__Job")
                    .first().contains(QLatin1String("int64 must be a JSON string")));
        QVERIFY(problems(R"({"createTime": "yesterday"})", "GoogleCloudMlV1__Job").first().contains(QLatin1String("RFC 3339")));
        QVERIFY(problems(R"({"name": "o", "done": true, "response": {"name": "v"}})", "GoogleLongrunning__Operation")
                    .first().contains(QLatin1String("without @type")));
        QVERIFY(problems(R"({"name": "o", "done": true, "response": {"@type": "type.googleapis.com/google.cloud.ml.v1.Version", "state": "GONE"}})",
            "GoogleLongrunning__Operation").first().contains(QLatin1String("not a value")));
        QVERIFY(problems(R"({"trainingInput": {"args": "--epochs 2"}})", "GoogleCloudMlV1__Job").first().contains(QLatin1String("an array")));
    }

    void projectAndLocations()
    {
        call(QStringLiteral("ml.projects.getConfig"), { QStringLiteral("local") });
        const QJsonArray locations
            = call(QStringLiteral("ml.projects.locations.list"), { QStringLiteral("local") }).json.value(QStringLiteral("locations")).toArray();
        QVERIFY(!locations.isEmpty());
        const QString name = locations.first()[QLatin1String("name")].toString();
        call(QStringLiteral("ml.projects.locations.get"), { QStringLiteral("local"), name.section(QLatin1Char('/'), -1) });
        call(QStringLiteral("ml.projects.locations.get"), { QStringLiteral("local"), QStringLiteral("nowhere") }, {}, {}, 404);
    }

    /// A training job, a tuning job (trainingOutput.trials), labels patched with the etag, a cancelled job, IAM.
    void jobs()
    {
        const QJsonObject input { { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
            { QStringLiteral("packageUris"), QJsonArray { m_package } },
            { QStringLiteral("pythonModule"), QStringLiteral("conformance.task") },
            { QStringLiteral("region"), QStringLiteral("us-central1") } };
        QJsonObject training { { QStringLiteral("jobId"), QStringLiteral("conformance_1") },
            { QStringLiteral("trainingInput"), input },
            { QStringLiteral("labels"), QJsonObject { { QStringLiteral("team"), QStringLiteral("ads") } } } };
        call(QStringLiteral("ml.projects.jobs.create"), { QStringLiteral("local") }, training);
        // The same again: 409 ALREADY_EXISTS. A field the description does not have: 400 with its violation.
        call(QStringLiteral("ml.projects.jobs.create"), { QStringLiteral("local") }, training, {}, 409);
        QJsonObject tuningInput = input;
        tuningInput.insert(QStringLiteral("hyperparameters"),
            QJsonObject { { QStringLiteral("goal"), QStringLiteral("MAXIMIZE") },
                { QStringLiteral("hyperparameterMetricTag"), QStringLiteral("accuracy") },
                { QStringLiteral("maxTrials"), 2 }, { QStringLiteral("maxParallelTrials"), 1 },
                { QStringLiteral("params"),
                    QJsonArray { QJsonObject { { QStringLiteral("parameterName"), QStringLiteral("lr") },
                        { QStringLiteral("type"), QStringLiteral("DOUBLE") }, { QStringLiteral("minValue"), 0.01 },
                        { QStringLiteral("maxValue"), 0.5 }, { QStringLiteral("scaleType"), QStringLiteral("UNIT_LOG_SCALE") } } } } });
        call(QStringLiteral("ml.projects.jobs.create"), { QStringLiteral("local") },
            QJsonObject { { QStringLiteral("jobId"), QStringLiteral("conformance_tuning") },
                { QStringLiteral("trainingInput"), tuningInput } });
        QJsonObject sleeper = input;
        sleeper.insert(QStringLiteral("args"), QJsonArray { QStringLiteral("--sleep"), QStringLiteral("600") });
        call(QStringLiteral("ml.projects.jobs.create"), { QStringLiteral("local") },
            QJsonObject { { QStringLiteral("jobId"), QStringLiteral("conformance_cancel") },
                { QStringLiteral("trainingInput"), sleeper } });
        call(QStringLiteral("ml.projects.jobs.cancel"), { QStringLiteral("local"), QStringLiteral("conformance_cancel") });

        QCOMPARE(waitJob(QStringLiteral("conformance_1")).value(QStringLiteral("state")).toString(), QStringLiteral("SUCCEEDED"));
        const QJsonObject tuning = waitJob(QStringLiteral("conformance_tuning"));
        QCOMPARE(tuning.value(QStringLiteral("state")).toString(), QStringLiteral("SUCCEEDED"));
        QCOMPARE(tuning[QLatin1String("trainingOutput")][QLatin1String("trials")].toArray().size(), 2);
        QCOMPARE(waitJob(QStringLiteral("conformance_cancel")).value(QStringLiteral("state")).toString(), QStringLiteral("CANCELLED"));

        QUrlQuery page;
        page.addQueryItem(QStringLiteral("pageSize"), QStringLiteral("1"));
        const QJsonObject first = call(QStringLiteral("ml.projects.jobs.list"), { QStringLiteral("local") }, {}, page).json;
        QVERIFY(!first.value(QStringLiteral("nextPageToken")).toString().isEmpty());
        page.addQueryItem(QStringLiteral("pageToken"), first.value(QStringLiteral("nextPageToken")).toString());
        call(QStringLiteral("ml.projects.jobs.list"), { QStringLiteral("local") }, {}, page);
        QUrlQuery filter;
        filter.addQueryItem(QStringLiteral("filter"), QStringLiteral("state=SUCCEEDED AND labels.team=ads"));
        QCOMPARE(call(QStringLiteral("ml.projects.jobs.list"), { QStringLiteral("local") }, {}, filter)
                     .json.value(QStringLiteral("jobs")).toArray().size(), 1);

        // patch with the description's own example mask: labels and etag.
        const QJsonObject job = call(QStringLiteral("ml.projects.jobs.get"), { QStringLiteral("local"), QStringLiteral("conformance_1") }).json;
        QUrlQuery mask;
        mask.addQueryItem(QStringLiteral("updateMask"), QStringLiteral("labels,etag"));
        call(QStringLiteral("ml.projects.jobs.patch"), { QStringLiteral("local"), QStringLiteral("conformance_1") },
            QJsonObject { { QStringLiteral("labels"), QJsonObject { { QStringLiteral("team"), QStringLiteral("search") } } },
                { QStringLiteral("etag"), job.value(QStringLiteral("etag")) } },
            mask);
        call(QStringLiteral("ml.projects.jobs.get"), { QStringLiteral("local"), QStringLiteral("nothing") }, {}, {}, 404);

        const QJsonObject policy
            = call(QStringLiteral("ml.projects.jobs.getIamPolicy"), { QStringLiteral("local"), QStringLiteral("conformance_1") }).json;
        QJsonObject set = policy;
        set.insert(QStringLiteral("bindings"),
            QJsonArray { QJsonObject { { QStringLiteral("role"), QStringLiteral("roles/ml.viewer") },
                { QStringLiteral("members"), QJsonArray { QStringLiteral("user:ana@example.org") } } } });
        call(QStringLiteral("ml.projects.jobs.setIamPolicy"), { QStringLiteral("local"), QStringLiteral("conformance_1") },
            QJsonObject { { QStringLiteral("policy"), set } });
        call(QStringLiteral("ml.projects.jobs.testIamPermissions"), { QStringLiteral("local"), QStringLiteral("conformance_1") },
            QJsonObject { { QStringLiteral("permissions"), QJsonArray { QStringLiteral("ml.jobs.get") } } });
    }

    /// A model, a version from its files, online prediction, a batch prediction job, the operations, the deletes.
    void modelsVersionsOperations()
    {
        call(QStringLiteral("ml.projects.models.create"), { QStringLiteral("local") },
            QJsonObject { { QStringLiteral("name"), QStringLiteral("census") },
                { QStringLiteral("description"), QStringLiteral("conformance") },
                { QStringLiteral("onlinePredictionLogging"), true } });
        call(QStringLiteral("ml.projects.models.get"), { QStringLiteral("local"), QStringLiteral("census") });
        call(QStringLiteral("ml.projects.models.get"), { QStringLiteral("local"), QStringLiteral("nothing") }, {}, {}, 404);
        QUrlQuery describe;
        describe.addQueryItem(QStringLiteral("updateMask"), QStringLiteral("description"));
        const QJsonObject update = call(QStringLiteral("ml.projects.models.patch"), { QStringLiteral("local"), QStringLiteral("census") },
            QJsonObject { { QStringLiteral("description"), QStringLiteral("patched") } }, describe).json;
        waitOperation(update.value(QStringLiteral("name")).toString());

        // Without a framework, as a generated client may send it: detected from the files.
        const QJsonObject created = call(QStringLiteral("ml.projects.models.versions.create"),
            { QStringLiteral("local"), QStringLiteral("census") },
            QJsonObject { { QStringLiteral("name"), QStringLiteral("v1") },
                { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/sklearn")) },
                { QStringLiteral("runtimeVersion"), QStringLiteral("2.11") }, { QStringLiteral("pythonVersion"), QStringLiteral("3.7") } })
                                        .json;
        const QJsonObject done = waitOperation(created.value(QStringLiteral("name")).toString());
        QVERIFY2(!done.contains(QLatin1String("error")), compact(done).constData());
        waitOperation(call(QStringLiteral("ml.projects.models.versions.create"), { QStringLiteral("local"), QStringLiteral("census") },
            QJsonObject { { QStringLiteral("name"), QStringLiteral("v2") },
                { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/xgboost")) },
                { QStringLiteral("framework"), QStringLiteral("XGBOOST") } })
                          .json.value(QStringLiteral("name")).toString());
        // A TorchScript model, its framework detected (PYTORCH and frameworkDetectedFrom: the allowed extensions).
        waitOperation(call(QStringLiteral("ml.projects.models.versions.create"), { QStringLiteral("local"), QStringLiteral("census") },
            QJsonObject { { QStringLiteral("name"), QStringLiteral("v3") },
                { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/torch")) } })
                          .json.value(QStringLiteral("name")).toString());
        QCOMPARE(call(QStringLiteral("ml.projects.models.versions.get"), { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v3") })
                     .json.value(QStringLiteral("framework")).toString(),
            QStringLiteral("PYTORCH"));
        call(QStringLiteral("ml.projects.models.versions.get"), { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v1") });
        call(QStringLiteral("ml.projects.models.versions.list"), { QStringLiteral("local"), QStringLiteral("census") });
        QUrlQuery versionMask;
        versionMask.addQueryItem(QStringLiteral("updateMask"), QStringLiteral("description"));
        waitOperation(call(QStringLiteral("ml.projects.models.versions.patch"),
            { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v1") },
            QJsonObject { { QStringLiteral("description"), QStringLiteral("first") } }, versionMask)
                          .json.value(QStringLiteral("name")).toString());
        call(QStringLiteral("ml.projects.models.list"), { QStringLiteral("local") });

        QFile expected(m_models + QStringLiteral("/expected.json"));
        QVERIFY(expected.open(QIODevice::ReadOnly));
        const QJsonArray instances = QJsonDocument::fromJson(expected.readAll()).object().value(QStringLiteral("instances")).toArray();
        // The raw body, as every client sends it ({"instances": […]}; the description wraps it in an HttpBody), to the
        // model (its default version) and to a version.
        const QJsonObject request { { QStringLiteral("instances"), instances } };
        const ApiResponse predicted = call(QStringLiteral("ml.projects.predict"), { QStringLiteral("local/models/census") },
            request, {}, 200, RawBody);
        QCOMPARE(predicted.json.value(QStringLiteral("predictions")).toArray().size(), instances.size());
        call(QStringLiteral("ml.projects.predict"), { QStringLiteral("local/models/census/versions/v2") }, request, {}, 200,
            RawBody);
        // A version with an explanationConfig (the service's sampledShapleyAttribution) answers projects.explain.
        waitOperation(call(QStringLiteral("ml.projects.models.versions.create"), { QStringLiteral("local"), QStringLiteral("census") },
            QJsonObject { { QStringLiteral("name"), QStringLiteral("v4") },
                { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/explain/linear")) },
                { QStringLiteral("explanationConfig"),
                    QJsonObject { { QStringLiteral("sampledShapleyAttribution"),
                        QJsonObject { { QStringLiteral("numPaths"), 3 } } } } } })
                          .json.value(QStringLiteral("name")).toString());
        const ApiResponse explained = call(QStringLiteral("ml.projects.explain"),
            { QStringLiteral("local/models/census/versions/v4") }, request, {}, 200, RawBody);
        QCOMPARE(explained.json.value(QStringLiteral("explanations")).toArray().size(), instances.size());

        // A batch prediction job: predictionInput and predictionOutput.
        QByteArray rows;
        for (const QJsonValue& row : instances)
            rows += QJsonDocument(row.toArray()).toJson(QJsonDocument::Compact) + '\n';
        QFile input(m_root.filePath(QStringLiteral("batch-rows.json")));
        QVERIFY(input.open(QIODevice::WriteOnly));
        input.write(rows);
        input.close();
        call(QStringLiteral("ml.projects.jobs.create"), { QStringLiteral("local") },
            QJsonObject { { QStringLiteral("jobId"), QStringLiteral("conformance_batch") },
                { QStringLiteral("predictionInput"),
                    QJsonObject { { QStringLiteral("dataFormat"), QStringLiteral("JSON") },
                        { QStringLiteral("inputPaths"), QJsonArray { input.fileName() } },
                        { QStringLiteral("outputPath"), m_root.filePath(QStringLiteral("batch-out")) },
                        { QStringLiteral("region"), QStringLiteral("us-central1") },
                        { QStringLiteral("modelName"), QStringLiteral("projects/local/models/census") } } } });
        QCOMPARE(waitJob(QStringLiteral("conformance_batch")).value(QStringLiteral("state")).toString(), QStringLiteral("SUCCEEDED"));

        const QJsonObject setDefault = call(QStringLiteral("ml.projects.models.versions.setDefault"),
            { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v2") }, QJsonObject()).json;
        QVERIFY(setDefault.value(QStringLiteral("isDefault")).toBool());

        // Model IAM.
        const QJsonObject policy
            = call(QStringLiteral("ml.projects.models.getIamPolicy"), { QStringLiteral("local"), QStringLiteral("census") }).json;
        call(QStringLiteral("ml.projects.models.setIamPolicy"), { QStringLiteral("local"), QStringLiteral("census") },
            QJsonObject { { QStringLiteral("policy"), policy } });
        call(QStringLiteral("ml.projects.models.testIamPermissions"), { QStringLiteral("local"), QStringLiteral("census") },
            QJsonObject { { QStringLiteral("permissions"), QJsonArray { QStringLiteral("ml.models.predict") } } });

        // Operations: the project's list, one by name, by its location-scoped name, a cancel of a done one.
        const QJsonArray operations
            = call(QStringLiteral("ml.projects.operations.list"), { QStringLiteral("local") }).json.value(QStringLiteral("operations")).toArray();
        QVERIFY(operations.size() >= 3);
        const QString opId = operations.first()[QLatin1String("name")].toString().section(QLatin1Char('/'), -1);
        call(QStringLiteral("ml.projects.locations.operations.get"), { QStringLiteral("local"), QStringLiteral("us-central1"), opId });
        const ApiResponse cancelled
            = call(QStringLiteral("ml.projects.operations.cancel"), { QStringLiteral("local"), opId }, {}, {}, 200);
        Q_UNUSED(cancelled)
        call(QStringLiteral("ml.projects.locations.operations.cancel"), { QStringLiteral("local"), QStringLiteral("us-central1"), opId });

        // The deletes, the default version last: each an operation whose end is google.protobuf.Empty.
        const QJsonObject deleted = call(QStringLiteral("ml.projects.models.versions.delete"),
            { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v1") }).json;
        QCOMPARE(waitOperation(deleted.value(QStringLiteral("name")).toString())[QLatin1String("response")][QLatin1String("@type")].toString(),
            QStringLiteral("type.googleapis.com/google.protobuf.Empty"));
        waitOperation(call(QStringLiteral("ml.projects.models.versions.delete"),
            { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v3") }).json.value(QStringLiteral("name")).toString());
        waitOperation(call(QStringLiteral("ml.projects.models.versions.delete"),
            { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v4") }).json.value(QStringLiteral("name")).toString());
        waitOperation(call(QStringLiteral("ml.projects.models.versions.delete"),
            { QStringLiteral("local"), QStringLiteral("census"), QStringLiteral("v2") }).json.value(QStringLiteral("name")).toString());
        waitOperation(call(QStringLiteral("ml.projects.models.delete"), { QStringLiteral("local"), QStringLiteral("census") })
                          .json.value(QStringLiteral("name")).toString());
    }

    /// What the executor does not serve answers 501 UNIMPLEMENTED, in google.rpc.Status's shape.
    void unservedMethods()
    {
        for (const QString& id : kUnserved) {
            const DiscoveryDocument::Method method = m_api->methods().value(id);
            QVERIFY2(!method.id.isEmpty(), qPrintable(id));
            // Each path parameter a plausible value: a location, a study, a trial.
            QStringList values;
            static const QRegularExpression parameter(QStringLiteral("\\{([^}]+)\\}"));
            for (auto it = parameter.globalMatch(method.flatPath); it.hasNext();) {
                const QString name = it.next().captured(1);
                values << (name == QLatin1String("projectsId") ? QStringLiteral("local") : name.chopped(3));
            }
            call(id, values, QJsonObject(), {}, 501);
        }
    }

    /// Every method of the description was called (served) or is on the unserved list, and every allowed extension
    /// was met: the allow-list stays short and true.
    void everyMethodCovered()
    {
        QStringList missing;
        for (const QString& id : m_api->methods().keys()) {
            if (!m_called.contains(id))
                missing << id;
        }
        missing.sort();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not exercised: ") + missing.join(QStringLiteral(", "))));
        QStringList unused;
        for (const QString& e : kExtensions) {
            if (!m_api->usedExtensions().contains(e))
                unused << e;
        }
        QVERIFY2(unused.isEmpty(), qPrintable(QStringLiteral("allowed but never met: ") + unused.join(QStringLiteral(", "))));
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
