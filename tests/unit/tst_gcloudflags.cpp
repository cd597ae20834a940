// SPDX-License-Identifier: GPL-2.0-or-later
// GcloudFlags (models/gcloudflags.h): the tables of `jobs submit training` and `jobs submit prediction` flags ↔ Job
// fields that trainyardctl parses with and the console's equivalent command is written from. A job that sets every
// flag's field goes to words and back whole, every flag of the table takes part, and bad values get gcloud's
// argparse errors.
#include "gcloudflags.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestGcloudFlags : public QObject {
    Q_OBJECT
private slots:
    void everyFlagRoundTrips()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("my trainer"))));
        QFile sdist(tmp.filePath(QStringLiteral("extra-1.0.tar.gz")));
        QVERIFY(sdist.open(QIODevice::WriteOnly));
        sdist.close();

        Job job;
        job.jobId = QStringLiteral("census_1");
        TrainingInput& in = job.trainingInput;
        in.packageUris = { tmp.filePath(QStringLiteral("my trainer")), sdist.fileName() };
        in.pythonModule = QStringLiteral("trainer.task");
        in.jobDir = tmp.filePath(QStringLiteral("job dir"));
        in.scaleTier = QStringLiteral("CUSTOM");
        in.masterType = QStringLiteral("n1-standard-8");
        in.masterConfig = ReplicaConfig {};
        in.masterConfig->imageUri = QStringLiteral("localhost/trainer:1");
        in.masterConfig->acceleratorConfig = AcceleratorConfig { 2, QStringLiteral("NVIDIA_TESLA_T4") };
        in.workerCount = 3;
        in.workerType = QStringLiteral("n1-standard-4");
        in.workerConfig = ReplicaConfig {};
        in.workerConfig->imageUri = QStringLiteral("localhost/worker:1");
        in.workerConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_K80") };
        in.parameterServerCount = 0;
        in.parameterServerType = QStringLiteral("n1-highmem-2");
        in.parameterServerConfig = ReplicaConfig {};
        in.parameterServerConfig->imageUri = QStringLiteral("localhost/ps:1");
        in.parameterServerConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_P100") };
        in.evaluatorCount = 1;
        in.evaluatorType = QStringLiteral("n1-standard-4");
        in.evaluatorConfig = ReplicaConfig {};
        in.evaluatorConfig->imageUri = QStringLiteral("localhost/evaluator:1");
        in.evaluatorConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
        in.network = QStringLiteral("projects/12345/global/networks/default");
        in.serviceAccount = QStringLiteral("trainer@p.iam.gserviceaccount.com");
        in.enableWebAccess = true;
        in.region = QStringLiteral("testcluster");
        in.runtimeVersion = QStringLiteral("2.11");
        in.pythonVersion = QStringLiteral("3.7");
        in.useChiefInTfConfig = true;
        job.labels
            = { { QStringLiteral("team"), QStringLiteral("vision") }, { QStringLiteral("run"), QStringLiteral("a1") } };

        const QStringList words = GcloudFlags::flagsFor(job);
        // Every flag of the table says something about this job: the round trip covers the whole table.
        QSet<QString> named;
        for (const QString& w : words)
            named.insert(w.mid(2, w.indexOf(QLatin1Char('=')) < 0 ? -1 : w.indexOf(QLatin1Char('=')) - 2));
        for (const GcloudFlags::Flag& f : GcloudFlags::trainingFlags())
            QVERIFY2(named.contains(f.name), qPrintable(f.name));
        QCOMPARE(words.size(), GcloudFlags::trainingFlags().size());
        QVERIFY(words.contains(QStringLiteral("--scale-tier=custom")));
        QVERIFY(words.contains(QStringLiteral("--master-accelerator=count=2,type=nvidia-tesla-t4")));
        QVERIFY(words.contains(QStringLiteral("--use-chief-in-tf-config")));
        QVERIFY(words.contains(QStringLiteral("--labels=run=a1,team=vision")));

        Job back;
        back.jobId = job.jobId;
        QString error;
        QVERIFY2(GcloudFlags::applyWords(back, words, &error), qPrintable(error));
        QVERIFY(back.trainingInput == job.trainingInput);
        QCOMPARE(back.labels, job.labels);
        QVERIFY(!GcloudFlags::needsConfigFile(job));
    }

    void everyPredictionFlagRoundTrips_data()
    {
        QTest::addColumn<bool>("byFolder");
        QTest::addRow("a deployed model's version") << false;
        QTest::addRow("a model folder") << true;
    }
    void everyPredictionFlagRoundTrips()
    {
        QFETCH(bool, byFolder);
        Job job;
        job.jobId = QStringLiteral("score_1");
        PredictionInput in;
        if (byFolder)
            in.uri = QStringLiteral("/srv/models/census");
        else
            in.versionName = QStringLiteral("projects/lab/models/census/versions/v2");
        in.dataFormat = QStringLiteral("TF_RECORD_GZIP");
        in.outputDataFormat = QStringLiteral("CSV");
        in.inputPaths = { QStringLiteral("/data/rows-*.json"), QStringLiteral("/data/more.json") };
        in.outputPath = QStringLiteral("/data/out");
        in.region = QStringLiteral("us-central1");
        in.maxWorkerCount = 3;
        in.batchSize = 128;
        in.runtimeVersion = QStringLiteral("2.11");
        in.signatureName = QStringLiteral("serving_default");
        job.predictionInput = in;
        job.labels = { { QStringLiteral("team"), QStringLiteral("risk") } };

        const QList<GcloudFlags::Flag> table = GcloudFlags::predictionFlags(QStringLiteral("lab"));
        const QStringList words = GcloudFlags::flagsFor(job, table);
        // Every flag but the model's other form says something about this job.
        QCOMPARE(words.size(), table.size() - (byFolder ? 2 : 1));
        QVERIFY(words.contains(QStringLiteral("--data-format=tf-record-gzip")));
        QVERIFY(words.contains(QStringLiteral("--output-data-format=csv")));
        QVERIFY(words.contains(QStringLiteral("--input-paths=/data/rows-*.json,/data/more.json")));
        if (!byFolder) {
            QCOMPARE(words.mid(0, 2),
                QStringList({ QStringLiteral("--model=census"), QStringLiteral("--version=v2") }));
        }

        Job back;
        back.jobId = job.jobId;
        QString error;
        QVERIFY2(GcloudFlags::applyWords(back, words, &error, table), qPrintable(error));
        QVERIFY(back.predictionInput == job.predictionInput);
        QCOMPARE(back.labels, job.labels);
        QCOMPARE(GcloudFlags::flagsFor(Job {}, table), QStringList());
    }

    void predictionFlagErrors_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QString>("error");
        QTest::addRow("no such format") << QStringList { QStringLiteral("--data-format=parquet") }
                                        << QStringLiteral("argument --data-format: Invalid choice: 'parquet'. Valid "
                                                          "choices are [text, json, csv, tf-record, tf-record-gzip].");
        QTest::addRow("version without model") << QStringList { QStringLiteral("--version=v1") }
                                               << QStringLiteral("argument --version: --model must be specified too.");
        QTest::addRow("zero batch") << QStringList { QStringLiteral("--batch-size=0") }
                                    << QStringLiteral("argument --batch-size: Value must be greater than or equal to "
                                                      "1; received: 0");
        QTest::addRow("workers not a number") << QStringList { QStringLiteral("--max-worker-count=many") }
                                              << QStringLiteral("argument --max-worker-count: Invalid integer value "
                                                                "[many]");
        QTest::addRow("a training flag") << QStringList { QStringLiteral("--scale-tier=basic") }
                                         << QStringLiteral("unrecognized arguments: --scale-tier");
    }
    void predictionFlagErrors()
    {
        QFETCH(QStringList, words);
        QFETCH(QString, error);
        Job job;
        QString got;
        QVERIFY(!GcloudFlags::applyWords(job, words, &got, GcloudFlags::predictionFlags(QStringLiteral("p"))));
        QCOMPARE(got, error);
    }

    void predictionPathsAreAbsolute()
    {
        Job job;
        QString error;
        QVERIFY2(GcloudFlags::applyWords(job,
                     { QStringLiteral("--model-dir=m/../model"), QStringLiteral("--input-paths=a.json,/b/c.json"),
                         QStringLiteral("--output-path=out/") },
                     &error, GcloudFlags::predictionFlags(QStringLiteral("p"))),
            qPrintable(error));
        QCOMPARE(job.predictionInput->uri, QDir::current().absoluteFilePath(QStringLiteral("model")));
        QCOMPARE(job.predictionInput->inputPaths,
            QStringList({ QDir::current().absoluteFilePath(QStringLiteral("a.json")), QStringLiteral("/b/c.json") }));
        QCOMPARE(job.predictionInput->outputPath, QDir::current().absoluteFilePath(QStringLiteral("out")));
    }

    void defaultsWriteNoFlag()
    {
        QCOMPARE(GcloudFlags::flagsFor(Job {}), QStringList());
        Job job;
        job.trainingInput.useChiefInTfConfig = false;
        job.trainingInput.workerConfig = ReplicaConfig {}; // no image, no accelerator
        QCOMPARE(GcloudFlags::flagsFor(job), QStringList());
    }

    void needsConfig()
    {
        Job job;
        job.trainingInput.scheduling = Scheduling {};
        QVERIFY(GcloudFlags::needsConfigFile(job));
        Job other;
        other.trainingInput.masterConfig = ReplicaConfig {};
        other.trainingInput.masterConfig->containerCommand = { QStringLiteral("python") };
        QVERIFY(GcloudFlags::needsConfigFile(other));
    }

    void badValues_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("error");
        QTest::addRow("count") << QStringLiteral("--worker-count=x")
                               << QStringLiteral("argument --worker-count: Invalid integer value [x]");
        QTest::addRow("negative count") << QStringLiteral("--evaluator-count=-1")
                                        << QStringLiteral("argument --evaluator-count: Value must be greater than or "
                                                          "equal to 0; received: -1");
        QTest::addRow("tier") << QStringLiteral("--scale-tier=huge")
                              << QStringLiteral("argument --scale-tier: Invalid choice: 'huge'. Valid choices are "
                                                "[basic, basic-gpu, basic-tpu, custom, premium-1, standard-1].");
        QTest::addRow("accelerator key") << QStringLiteral("--master-accelerator=type=t4,size=2")
                                         << QStringLiteral("argument --master-accelerator: valid keys are [count, "
                                                           "type]; received: size");
        QTest::addRow("accelerator type") << QStringLiteral("--worker-accelerator=count=2")
                                          << QStringLiteral("argument --worker-accelerator: Key [type] required in "
                                                            "dict arg but not provided");
        QTest::addRow("labels") << QStringLiteral("--labels=team")
                                << QStringLiteral("argument --labels: Bad syntax for dict arg: [team]. Please see "
                                                  "`--help` for the expected KEY=VALUE format.");
        QTest::addRow("package folder") << QStringLiteral("--package-path=/nonexistent/trainer")
                                        << QStringLiteral("argument --package-path: [/nonexistent/trainer] is not a "
                                                          "directory.");
        QTest::addRow("sdist") << QStringLiteral("--packages=/nonexistent/a.tar.gz")
                               << QStringLiteral("argument --packages: [/nonexistent/a.tar.gz] does not exist.");
    }

    void badValues()
    {
        QFETCH(QString, word);
        QFETCH(QString, error);
        Job job;
        QString got;
        QVERIFY(!GcloudFlags::applyWords(job, { word }, &got));
        QCOMPARE(got, error);
    }

    void notFlags()
    {
        Job job;
        QString error;
        QVERIFY(!GcloudFlags::applyWords(job, { QStringLiteral("--stream-logs") }, &error));
        QCOMPARE(error, QStringLiteral("unrecognized arguments: --stream-logs"));
        QVERIFY(!GcloudFlags::applyWords(job, { QStringLiteral("--use-chief-in-tf-config=yes") }, &error));
        QCOMPARE(error, QStringLiteral("argument --use-chief-in-tf-config: ignored explicit argument 'yes'"));
        QVERIFY(!GcloudFlags::applyWords(job, { QStringLiteral("--region") }, &error));
        QCOMPARE(error, QStringLiteral("argument --region: expected one argument"));
    }

    void scaleTiers()
    {
        QCOMPARE(GcloudFlags::scaleTierFlag(QStringLiteral("BASIC_GPU")), QStringLiteral("basic-gpu"));
        QCOMPARE(GcloudFlags::scaleTierFromFlag(QStringLiteral("standard-1")),
            std::optional<QString>(QStringLiteral("STANDARD_1")));
        QCOMPARE(GcloudFlags::scaleTierFromFlag(QStringLiteral("PREMIUM_1")),
            std::optional<QString>(QStringLiteral("PREMIUM_1")));
        QVERIFY(!GcloudFlags::scaleTierFromFlag(QStringLiteral("gigantic")));
    }
};

QTEST_GUILESS_MAIN(TestGcloudFlags)
#include "tst_gcloudflags.moc"
