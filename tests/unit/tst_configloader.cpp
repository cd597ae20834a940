// SPDX-License-Identifier: GPL-2.0-or-later
// ConfigLoader: gcloud --config files (YAML/JSON) and jobToYaml().
#include "configloader.h"

#include <QDir>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

QStringList fields(const FieldViolations& v)
{
    QStringList out;
    for (const FieldViolation& f : v)
        out.append(f.field);
    out.sort();
    return out;
}

Job inputPart(const Job& job)
{
    Job out;
    out.labels = job.labels;
    out.trainingInput = job.trainingInput;
    return out;
}

} // namespace

class TestConfigLoader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(TRAINYARD_FIXTURES_DIR "/configs"));
        const QStringList files = dir.entryList(
            { QStringLiteral("*.yaml"), QStringLiteral("*.yml"), QStringLiteral("*.json") }, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 12, qPrintable(dir.absolutePath()));
        for (const QString& f : files)
            QTest::addRow("%s", qPrintable(f)) << dir.filePath(f);
    }

    // Every real config loads, and survives jobToYaml → loadText and JSON unchanged.
    void fixtures()
    {
        QFETCH(QString, path);
        QString error;
        FieldViolations v;
        const std::optional<Job> job = ConfigLoader::loadFile(path, &error, &v);
        QVERIFY2(job, qPrintable(error));
        QVERIFY(v.isEmpty());
        const QString yaml = jobToYaml(*job);
        const std::optional<Job> back = ConfigLoader::loadText(yaml.toUtf8(), ConfigLoader::Format::Yaml, &error);
        QVERIFY2(back, qPrintable(error + QLatin1Char('\n') + yaml));
        QCOMPARE(*back, inputPart(*job));
        const QByteArray json = QJsonDocument(JobJson::toJson(*job)).toJson();
        const std::optional<Job> fromJson = ConfigLoader::loadText(json, ConfigLoader::Format::Json, &error);
        QVERIFY2(fromJson, qPrintable(error));
        QCOMPARE(*fromJson, *job);
    }

    void fixtureValues()
    {
        QString error;
        const QString dir = QStringLiteral(TRAINYARD_FIXTURES_DIR "/configs/");
        auto load = [&](const char* name) {
            const std::optional<Job> job = ConfigLoader::loadFile(dir + QLatin1String(name), &error);
            if (!job)
                qWarning("%s", qPrintable(error));
            return job.value_or(Job {});
        };
        const Job large = load("tensorflow_standard_legacy_criteo_tft_config-large.yaml");
        QCOMPARE(large.trainingInput.scaleTier, QStringLiteral("CUSTOM"));
        QCOMPARE(large.trainingInput.workerCount, std::optional<qint64>(60));
        QCOMPARE(large.trainingInput.parameterServerCount, std::optional<qint64>(29));
        QCOMPARE(large.trainingInput.workerType, QStringLiteral("complex_model_m"));

        const Job pytorch = load("pytorch_containers_hp_tuning_hptuning_config.yaml");
        QVERIFY(pytorch.trainingInput.hyperparameters);
        const HyperparameterSpec& hp = *pytorch.trainingInput.hyperparameters;
        QCOMPARE(hp.enableTrialEarlyStopping, std::optional<bool>(true)); // `TRUE`
        QCOMPARE(hp.maxTrials, std::optional<int>(10));
        QCOMPARE(hp.params.size(), 3);
        QCOMPARE(hp.params.at(1).minValue, std::optional<double>(0.0001));
        QCOMPARE(hp.params.at(2).minValue, std::optional<double>(0.0));
        QCOMPARE(hp.params.at(0).type, QStringLiteral("INTEGER"));

        const Job sklearn = load("sklearn_sklearn-template_template_config_hptuning_config.yaml");
        QCOMPARE(sklearn.trainingInput.runtimeVersion, QStringLiteral("1.13"));
        QCOMPARE(sklearn.trainingInput.pythonVersion, QStringLiteral("3.5"));
        QCOMPARE(sklearn.trainingInput.hyperparameters->params.at(3).categoricalValues,
            (QStringList { QStringLiteral("gini"), QStringLiteral("entropy") }));

        const Job tpu = load("tpu_templates_config.yaml");
        QCOMPARE(tpu.trainingInput.workerType, QStringLiteral("cloud_tpu"));
        QCOMPARE(tpu.trainingInput.workerCount, std::optional<qint64>(1));
    }

    void text_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("loads");
        QTest::addColumn<QStringList>("violations");
        const int yaml = int(ConfigLoader::Format::Yaml);
        const int json = int(ConfigLoader::Format::Json);
        QTest::addRow("quoted numbers") << QByteArray("trainingInput:\n  workerCount: \"9\"\n  hyperparameters:\n"
                                                      "    maxTrials: '4'\n    params:\n    - minValue: \"0.5\"\n")
                                        << yaml << true << QStringList();
        QTest::addRow("version stays text")
            << QByteArray("trainingInput:\n  runtimeVersion: 1.10\n") << yaml << true << QStringList();
        QTest::addRow("yaml 1.1 booleans")
            << QByteArray("trainingInput:\n  useChiefInTfConfig: yes\n  enableWebAccess: Off\n") << yaml << true
            << QStringList();
        QTest::addRow("job resource") << QByteArray(
            "jobId: j1\nlabels:\n  owner: alice\n  n: 3\ntrainingInput:\n  scaleTier: BASIC\n")
                                      << yaml << true << QStringList();
        QTest::addRow("snake case") << QByteArray("training_input:\n  scale_tier: BASIC\n  worker_count: 2\n") << yaml
                                    << true << QStringList();
        QTest::addRow("discrete values") << QByteArray("trainingInput:\n  hyperparameters:\n    params:\n"
                                                       "    - discreteValues: [1, 2.5, 1e3]\n")
                                         << yaml << true << QStringList();
        QTest::addRow("json") << QByteArray(R"({"trainingInput":{"workerCount":2,"masterType":"n1-standard-4"}})")
                              << json << true << QStringList();
        QTest::addRow("unknown field") << QByteArray("trainingInput:\n  masterConfig:\n    foo: 1\n") << yaml << false
                                       << QStringList { QStringLiteral("trainingInput.masterConfig.foo") };
        QTest::addRow("typo at top") << QByteArray("traininginput:\n  scaleTier: BASIC\n") << yaml << false
                                     << QStringList { QStringLiteral("traininginput") };
        QTest::addRow("bad count") << QByteArray("trainingInput:\n  workerCount: many\n") << yaml << false
                                   << QStringList { QStringLiteral("trainingInput.workerCount") };
        QTest::addRow("bad bool")
            << QByteArray("trainingInput:\n  hyperparameters:\n    enableTrialEarlyStopping: maybe\n") << yaml << false
            << QStringList { QStringLiteral("trainingInput.hyperparameters.enableTrialEarlyStopping") };
        QTest::addRow("bad double")
            << QByteArray("trainingInput:\n  hyperparameters:\n    params:\n    - maxValue: big\n") << yaml << false
            << QStringList { QStringLiteral("trainingInput.hyperparameters.params[0].maxValue") };
        QTest::addRow("list for string") << QByteArray("trainingInput:\n  pythonModule: [a, b]\n") << yaml << false
                                         << QStringList { QStringLiteral("trainingInput.pythonModule") };
        QTest::addRow("syntax error") << QByteArray("trainingInput:\n  scaleTier: [BASIC\n") << yaml << false
                                      << QStringList();
        QTest::addRow("not a mapping") << QByteArray("- trainingInput\n") << yaml << false << QStringList();
        QTest::addRow("empty") << QByteArray("# nothing\n") << yaml << false << QStringList();
        QTest::addRow("alias bomb") << QByteArray(
            "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
            "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
            "g: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n")
                                    << yaml << false << QStringList();
        QTest::addRow("json syntax") << QByteArray(R"({"trainingInput":)") << json << false << QStringList();
    }

    void text()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, format);
        QFETCH(bool, loads);
        QFETCH(QStringList, violations);
        QString error;
        FieldViolations v;
        const std::optional<Job> job = ConfigLoader::loadText(text, ConfigLoader::Format(format), &error, &v);
        QCOMPARE(bool(job), loads);
        QCOMPARE(fields(v), violations);
        if (!loads)
            QVERIFY(!error.isEmpty());
        if (job) {
            const std::optional<Job> back
                = ConfigLoader::loadText(jobToYaml(*job).toUtf8(), ConfigLoader::Format::Yaml, &error);
            QVERIFY2(back, qPrintable(error));
            QCOMPARE(*back, inputPart(*job));
        }
    }

    void convertsBySchema()
    {
        QString error;
        const std::optional<Job> job = ConfigLoader::loadText(
            "labels:\n  n: 3\n  b: true\ntrainingInput:\n  runtimeVersion: 1.10\n  workerCount: '9'\n"
            "  useChiefInTfConfig: TRUE\n  hyperparameters:\n    maxTrials: '4'\n    params:\n"
            "    - minValue: 0.0001\n      discreteValues: [1, 2.5]\n      categoricalValues: [1, true]\n",
            ConfigLoader::Format::Yaml, &error);
        QVERIFY2(job, qPrintable(error));
        QCOMPARE(job->labels.value(QStringLiteral("n")), QStringLiteral("3"));
        QCOMPARE(job->labels.value(QStringLiteral("b")), QStringLiteral("true"));
        QCOMPARE(job->trainingInput.runtimeVersion, QStringLiteral("1.10"));
        QCOMPARE(job->trainingInput.workerCount, std::optional<qint64>(9));
        QCOMPARE(job->trainingInput.useChiefInTfConfig, std::optional<bool>(true));
        QCOMPARE(job->trainingInput.hyperparameters->maxTrials, std::optional<int>(4));
        const ParameterSpec& p = job->trainingInput.hyperparameters->params.at(0);
        QCOMPARE(p.minValue, std::optional<double>(0.0001));
        QCOMPARE(p.discreteValues, (QList<double> { 1, 2.5 }));
        QCOMPARE(p.categoricalValues, (QStringList { QStringLiteral("1"), QStringLiteral("true") }));
    }

    void yamlOutput()
    {
        Job job;
        job.jobId = QStringLiteral("not_in_yaml");
        job.state = JobState::Running;
        job.labels = { { QStringLiteral("owner"), QStringLiteral("alice") },
            { QStringLiteral("flag"), QStringLiteral("yes") }, { QStringLiteral("n"), QStringLiteral("007") } };
        job.trainingInput.scaleTier = QStringLiteral("CUSTOM");
        job.trainingInput.masterType = QStringLiteral("n1-standard-4");
        job.trainingInput.workerCount = 2;
        job.trainingInput.runtimeVersion = QStringLiteral("2.11");
        job.trainingInput.args = { QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("a: b") };
        const QString yaml = jobToYaml(job);
        QVERIFY2(yaml.contains(QLatin1String("workerCount: 2\n")), qPrintable(yaml));
        QVERIFY2(yaml.contains(QLatin1String("runtimeVersion: \"2.11\"")), qPrintable(yaml));
        QVERIFY2(yaml.contains(QLatin1String("flag: \"yes\"")), qPrintable(yaml));
        QVERIFY2(yaml.startsWith(QLatin1String("labels:\n")), qPrintable(yaml));
        QVERIFY(!yaml.contains(QLatin1String("not_in_yaml")));
        QVERIFY(!yaml.contains(QLatin1String("RUNNING")));
        QString error;
        const std::optional<Job> back = ConfigLoader::loadText(yaml.toUtf8(), ConfigLoader::Format::Yaml, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, inputPart(job));
    }

    void loadFileErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        QVERIFY(!ConfigLoader::loadFile(dir.filePath(QStringLiteral("missing.yaml")), &error));
        QVERIFY(error.contains(QLatin1String("missing.yaml")));
        // A .json file is read as strict JSON: YAML syntax in it is an error.
        QFile f(dir.filePath(QStringLiteral("c.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("trainingInput:\n  scaleTier: BASIC\n");
        f.close();
        QVERIFY(!ConfigLoader::loadFile(f.fileName(), &error));
        QVERIFY(error.contains(QLatin1String("JSON")));
        QVERIFY(ConfigLoader::loadFile(f.fileName(), &error, nullptr, ConfigLoader::Format::Yaml));
    }
};

QTEST_GUILESS_MAIN(TestConfigLoader)
#include "tst_configloader.moc"
