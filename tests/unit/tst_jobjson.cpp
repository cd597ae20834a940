// SPDX-License-Identifier: GPL-2.0-or-later
// JobJson: REST v1 / proto3 JSON mapping of the job schema.
#include "job.h"
#include "statenames.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <limits>

using namespace Trainyard;

namespace {

QJsonObject parse(const char* json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(json), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

QStringList fields(const FieldViolations& v)
{
    QStringList out;
    for (const FieldViolation& f : v)
        out.append(f.field);
    out.sort();
    return out;
}

// A job with every field of every type set, output-only ones included.
Job fullJob()
{
    Job job;
    job.jobId = QStringLiteral("census_42");
    job.createTime = QStringLiteral("2026-11-22T05:04:43.123Z");
    job.startTime = QStringLiteral("2026-11-22T05:05:00Z");
    job.endTime = QStringLiteral("2026-11-22T06:00:00.5Z");
    job.state = JobState::Succeeded;
    job.errorMessage = QStringLiteral("none, really");
    job.labels = { { QStringLiteral("owner"), QStringLiteral("alice") }, { QStringLiteral("empty"), QString() } };
    job.etag = QStringLiteral("AbCd==");
    job.jobPosition = 7;
    TrainingInput& in = job.trainingInput;
    in.scaleTier = QStringLiteral("CUSTOM");
    in.masterType = QStringLiteral("n1-standard-8");
    ReplicaConfig master;
    master.acceleratorConfig = AcceleratorConfig { 2, QStringLiteral("NVIDIA_TESLA_T4") };
    master.imageUri = QStringLiteral("gcr.io/p/image:1");
    master.tpuTfVersion = QStringLiteral("2.11");
    master.containerCommand = { QStringLiteral("python"), QStringLiteral("-m") };
    master.containerArgs = { QStringLiteral("--x"), QStringLiteral("1") };
    master.diskConfig = DiskConfig { QStringLiteral("pd-ssd"), 100 };
    in.masterConfig = master;
    in.workerType = QStringLiteral("n1-standard-4");
    in.workerConfig = ReplicaConfig {};
    in.parameterServerType = QStringLiteral("n1-highmem-2");
    in.parameterServerConfig = ReplicaConfig { AcceleratorConfig { std::nullopt, QString() }, {}, {}, {}, {}, {} };
    in.evaluatorType = QStringLiteral("n1-standard-4");
    in.evaluatorConfig = ReplicaConfig { std::nullopt, {}, {}, {}, {}, DiskConfig {} };
    in.workerCount = 9000000000LL; // beyond 2^32: must survive as an int64 string
    in.parameterServerCount = 0;
    in.evaluatorCount = 1;
    in.packageUris = { QStringLiteral("/tmp/trainer-0.1.tar.gz") };
    in.pythonModule = QStringLiteral("trainer.task");
    in.args = { QStringLiteral("--epochs"), QStringLiteral("2") };
    HyperparameterSpec hp;
    hp.goal = QStringLiteral("MAXIMIZE");
    ParameterSpec p1;
    p1.parameterName = QStringLiteral("lr");
    p1.type = QStringLiteral("DOUBLE");
    p1.minValue = 0.0001;
    p1.maxValue = 0.1;
    p1.scaleType = QStringLiteral("UNIT_LOG_SCALE");
    ParameterSpec p2;
    p2.parameterName = QStringLiteral("layers");
    p2.type = QStringLiteral("DISCRETE");
    p2.discreteValues = { 2, 3, 4.5 };
    ParameterSpec p3;
    p3.parameterName = QStringLiteral("criterion");
    p3.type = QStringLiteral("CATEGORICAL");
    p3.categoricalValues = { QStringLiteral("gini"), QStringLiteral("entropy") };
    hp.params = { p1, p2, p3 };
    hp.maxTrials = 10;
    hp.maxParallelTrials = 2;
    hp.maxFailedTrials = 3;
    hp.hyperparameterMetricTag = QStringLiteral("accuracy");
    hp.resumePreviousJobId = QStringLiteral("census_41");
    hp.enableTrialEarlyStopping = false;
    hp.algorithm = QStringLiteral("RANDOM_SEARCH");
    in.hyperparameters = hp;
    in.region = QStringLiteral("us-central1");
    in.jobDir = QStringLiteral("/tmp/census_42");
    in.runtimeVersion = QStringLiteral("2.11");
    in.pythonVersion = QStringLiteral("3.7");
    in.scheduling = Scheduling { ProtoDuration(QStringLiteral("7200s")), ProtoDuration(QStringLiteral("1.5s")), 500 };
    in.network = QStringLiteral("projects/1/global/networks/default");
    in.serviceAccount = QStringLiteral("sa@example.com");
    in.useChiefInTfConfig = true;
    in.enableWebAccess = false;
    in.encryptionConfig = parse(R"({"kmsKeyName":"k"})");
    TrainingOutput out;
    out.completedTrialCount = 2;
    HyperparameterOutput t;
    t.trialId = QStringLiteral("1");
    t.hyperparameters = { { QStringLiteral("lr"), QStringLiteral("0.01") } };
    t.startTime = QStringLiteral("2026-11-22T05:05:00Z");
    t.endTime = QStringLiteral("2026-11-22T05:15:00Z");
    t.state = JobState::Succeeded;
    t.finalMetric = HyperparameterMetric { 1000, 0.87 };
    t.allMetrics = { HyperparameterMetric { 500, 0.8 }, HyperparameterMetric { 1000, 0.87 } };
    t.isTrialStoppedEarly = false;
    out.trials = { t, HyperparameterOutput { QStringLiteral("2"), {}, {}, {}, JobState::Failed, {}, {}, true, {} } };
    out.consumedMLUnits = 1.25;
    out.isHyperparameterTuningJob = true;
    out.hyperparameterMetricTag = QStringLiteral("accuracy");
    job.trainingOutput = out;
    return job;
}

} // namespace

class TestJobJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripStruct()
    {
        const Job job = fullJob();
        const QJsonObject json = JobJson::toJson(job);
        // Through text, as the API sends it.
        const QJsonObject reparsed = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
        FieldViolations v;
        const Job back = JobJson::fromJson(reparsed, &v);
        QVERIFY2(v.isEmpty(), qPrintable(fields(v).join(QLatin1Char(' '))));
        QCOMPARE(back, job);
        QCOMPARE(JobJson::toJson(back), json);
    }

    void encodesAsService()
    {
        const QJsonObject json = JobJson::toJson(fullJob());
        const QJsonObject in = json.value(QLatin1String("trainingInput")).toObject();
        // int64 → strings; int32 and doubles → numbers; bools → bools; enums → names.
        QCOMPARE(in.value(QLatin1String("workerCount")), QJsonValue(QStringLiteral("9000000000")));
        QCOMPARE(in.value(QLatin1String("parameterServerCount")), QJsonValue(QStringLiteral("0")));
        QCOMPARE(json.value(QLatin1String("jobPosition")), QJsonValue(QStringLiteral("7")));
        QCOMPARE(in.value(QLatin1String("masterConfig"))
                     .toObject()
                     .value(QLatin1String("acceleratorConfig"))
                     .toObject()
                     .value(QLatin1String("count")),
            QJsonValue(QStringLiteral("2")));
        const QJsonObject hp = in.value(QLatin1String("hyperparameters")).toObject();
        QCOMPARE(hp.value(QLatin1String("maxTrials")), QJsonValue(10));
        QCOMPARE(hp.value(QLatin1String("enableTrialEarlyStopping")), QJsonValue(false));
        QCOMPARE(hp.value(QLatin1String("params")).toArray().at(0).toObject().value(QLatin1String("minValue")),
            QJsonValue(0.0001));
        QCOMPARE(in.value(QLatin1String("scheduling")).toObject().value(QLatin1String("priority")), QJsonValue(500));
        QCOMPARE(json.value(QLatin1String("state")), QJsonValue(QStringLiteral("SUCCEEDED")));
        // Absent stays absent.
        const QJsonObject minimal = JobJson::toJson(Job {});
        QCOMPARE(minimal, parse(R"({"trainingInput":{}})"));
    }

    void nonFiniteDoubles()
    {
        Job job;
        job.trainingOutput = TrainingOutput {};
        job.trainingOutput->consumedMLUnits = std::numeric_limits<double>::infinity();
        const QJsonObject json = JobJson::toJson(job);
        QCOMPARE(json.value(QLatin1String("trainingOutput")).toObject().value(QLatin1String("consumedMLUnits")),
            QJsonValue(QStringLiteral("Infinity")));
        FieldViolations v;
        QCOMPARE(JobJson::fromJson(json, &v), job);
        QVERIFY(v.isEmpty());
    }

    void decode_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("violations");
        QTest::addColumn<QByteArray>("canonical"); // expected toJson(fromJson(json)), empty = skip

        auto row = [](const char* name, const char* json, QStringList v, const char* canonical = "") {
            QTest::addRow("%s", name) << QByteArray(json) << v << QByteArray(canonical);
        };
        row("minimal", R"({"jobId":"a","trainingInput":{"pythonModule":"m"}})", {},
            R"({"jobId":"a","trainingInput":{"pythonModule":"m"}})");
        row("int64 as number", R"({"trainingInput":{"workerCount":9}})", {},
            R"({"trainingInput":{"workerCount":"9"}})");
        row("int64 as string", R"({"trainingInput":{"workerCount":"9"}})", {},
            R"({"trainingInput":{"workerCount":"9"}})");
        row("int32 as string", R"({"trainingInput":{"hyperparameters":{"maxTrials":"4"}}})", {},
            R"({"trainingInput":{"hyperparameters":{"maxTrials":4}}})");
        row("double as string", R"({"trainingInput":{"hyperparameters":{"params":[{"minValue":"0.5"}]}}})", {},
            R"({"trainingInput":{"hyperparameters":{"params":[{"minValue":0.5}]}}})");
        row("enum as integer", R"({"state":3,"trainingInput":{"hyperparameters":{"goal":2}}})", {},
            R"({"state":"RUNNING","trainingInput":{"hyperparameters":{"goal":"MINIMIZE"}}})");
        row("snake_case names", R"({"job_id":"a","training_input":{"python_module":"m","worker_count":"2"}})", {},
            R"({"jobId":"a","trainingInput":{"pythonModule":"m","workerCount":"2"}})");
        row("null is absent", R"({"jobId":null,"trainingInput":{"workerCount":null,"masterConfig":null}})", {},
            R"({"trainingInput":{}})");
        row("unknown top-level field", R"({"jobID":"a"})", { QStringLiteral("jobID") });
        row("unknown nested field", R"({"trainingInput":{"masterConfig":{"foo":1}}})",
            { QStringLiteral("trainingInput.masterConfig.foo") });
        row("unknown in params", R"({"trainingInput":{"hyperparameters":{"params":[{},{"min":1}]}}})",
            { QStringLiteral("trainingInput.hyperparameters.params[1].min") });
        row("prediction job",
            R"({"jobId":"b","predictionInput":{"modelName":"projects/local/models/m","dataFormat":"JSON",)"
            R"("inputPaths":["/d/in*"],"outputPath":"/d/out","maxWorkerCount":2,"batchSize":"8","region":"local"},)"
            R"("predictionOutput":{"predictionCount":"7","errorCount":1,"nodeHours":0.5}})",
            {},
            R"({"jobId":"b","predictionInput":{"modelName":"projects/local/models/m","dataFormat":"JSON",)"
            R"("inputPaths":["/d/in*"],"outputPath":"/d/out","maxWorkerCount":"2","batchSize":"8","region":"local"},)"
            R"("predictionOutput":{"predictionCount":"7","errorCount":"1","nodeHours":0.5}})");
        row("prediction job: unknown field", R"({"predictionInput":{"model":"m"}})",
            { QStringLiteral("predictionInput.model") });
        row("prediction job: data format", R"({"predictionInput":{"dataFormat":"PARQUET"}})",
            { QStringLiteral("predictionInput.dataFormat") });
        row("string expected", R"({"jobId":5})", { QStringLiteral("jobId") });
        row("int64 garbage", R"({"trainingInput":{"workerCount":"nine"}})",
            { QStringLiteral("trainingInput.workerCount") });
        row("int64 fraction", R"({"trainingInput":{"workerCount":1.5}})",
            { QStringLiteral("trainingInput.workerCount") });
        row("int64 bool", R"({"trainingInput":{"evaluatorCount":true}})",
            { QStringLiteral("trainingInput.evaluatorCount") });
        row("int32 overflow", R"({"trainingInput":{"hyperparameters":{"maxTrials":"99999999999"}}})",
            { QStringLiteral("trainingInput.hyperparameters.maxTrials") });
        row("bool as string", R"({"trainingInput":{"useChiefInTfConfig":"TRUE"}})",
            { QStringLiteral("trainingInput.useChiefInTfConfig") });
        row("bad enum", R"({"trainingInput":{"hyperparameters":{"goal":"MAX","algorithm":9}}})",
            { QStringLiteral("trainingInput.hyperparameters.algorithm"),
                QStringLiteral("trainingInput.hyperparameters.goal") });
        row("bad param type",
            R"({"trainingInput":{"hyperparameters":{"params":[{"type":"FLOAT","scaleType":"LOG"}]}}})",
            { QStringLiteral("trainingInput.hyperparameters.params[0].scaleType"),
                QStringLiteral("trainingInput.hyperparameters.params[0].type") });
        row("object expected", R"({"trainingInput":{"scheduling":"7200s"}})",
            { QStringLiteral("trainingInput.scheduling") });
        row("array expected", R"({"trainingInput":{"args":"--epochs 2"}})", { QStringLiteral("trainingInput.args") });
        row("array item type", R"({"trainingInput":{"args":["--epochs",2]}})",
            { QStringLiteral("trainingInput.args[1]") });
        row("discrete value type",
            R"({"trainingInput":{"hyperparameters":{"params":[{"discreteValues":[1,"x",null]}]}}})",
            { QStringLiteral("trainingInput.hyperparameters.params[0].discreteValues[1]"),
                QStringLiteral("trainingInput.hyperparameters.params[0].discreteValues[2]") });
        row("label value type", R"({"labels":{"owner":1}})", { QStringLiteral("labels.owner") });
        row("bad timestamp", R"({"createTime":"yesterday"})", { QStringLiteral("createTime") });
        row("unknown state", R"({"state":"PAUSED"})", { QStringLiteral("state") });
        row("state in lower case", R"({"state":"running"})", { QStringLiteral("state") });
        row("state number out of range", R"({"state":8})", { QStringLiteral("state") });
        row("state of another type", R"({"state":true})", { QStringLiteral("state") });
        row("unknown trial state", R"({"trainingOutput":{"trials":[{"trialId":"1","state":"DONE"}]}})",
            { QStringLiteral("trainingOutput.trials[0].state") });
        // proto3 writes no enum zero value: an explicit STATE_UNSPECIFIED reads fine and is not written back.
        row("explicit unspecified", R"({"state":"STATE_UNSPECIFIED"})", {}, R"({"trainingInput":{}})");
        row("trial state", R"({"trainingOutput":{"trials":[{"trialId":"1","state":"FAILED"}]}})", {},
            R"({"trainingInput":{},"trainingOutput":{"trials":[{"trialId":"1","state":"FAILED"}]}})");
        row("output-only decode",
            R"({"state":"QUEUED","jobPosition":3,"etag":"e","trainingOutput":{"trials":[{"trialId":"1","finalMetric":{"trainingStep":"5","objectiveValue":0.5}}]}})",
            {},
            R"({"state":"QUEUED","jobPosition":"3","etag":"e","trainingInput":{},"trainingOutput":{"trials":[{"trialId":"1","finalMetric":{"trainingStep":"5","objectiveValue":0.5}}]}})");
        row("unknown in trial", R"({"trainingOutput":{"trials":[{"webAccessUris":{}}]}})",
            { QStringLiteral("trainingOutput.trials[0].webAccessUris") });
        row("several at once",
            R"({"jobId":1,"trainingInput":{"foo":1,"workerCount":"x","workerConfig":{"acceleratorConfig":{"count":"two"}}}})",
            { QStringLiteral("jobId"), QStringLiteral("trainingInput.foo"),
                QStringLiteral("trainingInput.workerConfig.acceleratorConfig.count"),
                QStringLiteral("trainingInput.workerCount") });
    }

    void decode()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, violations);
        QFETCH(QByteArray, canonical);
        FieldViolations v;
        const Job job = JobJson::fromJson(parse(json.constData()), &v);
        QStringList expected = violations;
        expected.sort();
        QCOMPARE(fields(v), expected);
        for (const FieldViolation& f : v)
            QVERIFY2(!f.description.isEmpty(), qPrintable(f.field));
        if (!canonical.isEmpty()) {
            QCOMPARE(JobJson::toJson(job), parse(canonical.constData()));
            FieldViolations again;
            QCOMPARE(JobJson::fromJson(JobJson::toJson(job), &again), job);
            QVERIFY(again.isEmpty());
        }
    }

    void unknownFieldDescription()
    {
        FieldViolations v;
        JobJson::fromJson(parse(R"({"trainingInput":{"masterConfig":{"foo":1}}})"), &v);
        QCOMPARE(v.size(), 1);
        QCOMPARE(v.first(),
            (FieldViolation { QStringLiteral("trainingInput.masterConfig.foo"), QStringLiteral("Unknown field.") }));
    }

    void trainingInputWithPath()
    {
        FieldViolations v;
        const TrainingInput in = JobJson::trainingInputFromJson(
            parse(R"({"workerCount":"3","bogus":true})"), QStringLiteral("job.trainingInput"), &v);
        QCOMPARE(in.workerCount, std::optional<qint64>(3));
        QCOMPARE(fields(v), QStringList { QStringLiteral("job.trainingInput.bogus") });
        FieldViolations none;
        QCOMPARE(JobJson::trainingInputFromJson(JobJson::toJson(fullJob().trainingInput), QString(), &none),
            fullJob().trainingInput);
        QVERIFY(none.isEmpty());
    }

    void states_data()
    {
        // Every state, with the service's name for it (Job.State in the REST reference) and its index there.
        QTest::addColumn<JobState>("state");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("number");
        QTest::addColumn<bool>("final");
        QTest::addRow("unspecified") << JobState::StateUnspecified << QStringLiteral("STATE_UNSPECIFIED") << 0 << false;
        QTest::addRow("queued") << JobState::Queued << QStringLiteral("QUEUED") << 1 << false;
        QTest::addRow("preparing") << JobState::Preparing << QStringLiteral("PREPARING") << 2 << false;
        QTest::addRow("running") << JobState::Running << QStringLiteral("RUNNING") << 3 << false;
        QTest::addRow("succeeded") << JobState::Succeeded << QStringLiteral("SUCCEEDED") << 4 << true;
        QTest::addRow("failed") << JobState::Failed << QStringLiteral("FAILED") << 5 << true;
        QTest::addRow("cancelling") << JobState::Cancelling << QStringLiteral("CANCELLING") << 6 << false;
        QTest::addRow("cancelled") << JobState::Cancelled << QStringLiteral("CANCELLED") << 7 << true;
    }

    void states()
    {
        QFETCH(JobState, state);
        QFETCH(QString, name);
        QFETCH(int, number);
        QFETCH(bool, final);
        QCOMPARE(isFinal(state), final);
        QCOMPARE(jobStateName(state), name);
        QCOMPARE(jobStateFromName(name), std::optional<JobState>(state));

        // On the wire: by name or by number in, by name out; the zero value is left out.
        Job job;
        job.state = state;
        const QJsonObject json = JobJson::toJson(job);
        QCOMPARE(json.value(QLatin1String("state")),
            state == JobState::StateUnspecified ? QJsonValue(QJsonValue::Undefined) : QJsonValue(name));
        for (const QJsonValue& wire : { QJsonValue(name), QJsonValue(number) }) {
            FieldViolations v;
            const Job decoded = JobJson::fromJson(QJsonObject { { QStringLiteral("state"), wire } }, &v);
            QVERIFY2(v.isEmpty(), v.isEmpty() ? "" : qPrintable(v.first().description));
            QCOMPARE(decoded.state, state);
        }
        HyperparameterOutput trial;
        trial.trialId = QStringLiteral("1");
        trial.state = state;
        job.trainingOutput = TrainingOutput {};
        job.trainingOutput->trials = { trial };
        FieldViolations v;
        QCOMPARE(JobJson::fromJson(JobJson::toJson(job), &v), job);
        QVERIFY(v.isEmpty());
    }

    void unknownStateNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addRow("not a state") << QStringLiteral("PAUSED");
        QTest::addRow("a replica state") << QStringLiteral("STOPPED");
        QTest::addRow("lower case") << QStringLiteral("running");
        QTest::addRow("padded") << QStringLiteral(" RUNNING");
        QTest::addRow("empty") << QString();
    }

    void unknownStateNames()
    {
        // A name the service does not have is no state at all: it reads as StateUnspecified and is a
        // violation that names it, so that a client reports it rather than showing a job without a state.
        QFETCH(QString, name);
        QVERIFY(!jobStateFromName(name));
        FieldViolations v;
        const Job job = JobJson::fromJson(QJsonObject { { QStringLiteral("state"), name } }, &v);
        QCOMPARE(job.state, JobState::StateUnspecified);
        QCOMPARE(fields(v), QStringList { QStringLiteral("state") });
        QVERIFY2(v.first().description.contains(QLatin1Char('"') + name + QLatin1Char('"'))
                && v.first().description.contains(QLatin1String("CANCELLED")),
            qPrintable(v.first().description));
    }
};

QTEST_GUILESS_MAIN(TestJobJson)
#include "tst_jobjson.moc"
