// SPDX-License-Identifier: GPL-2.0-or-later
// Batch prediction jobs through a real executor: `projects.jobs.create` with `predictionInput`, run by real worker
// processes (trainyard_algorithms.batch_prediction) over JSON-lines, CSV and TEXT input, with real models made by
// scikit-learn and XGBoost in the test. What is checked: the service's output files (prediction.results-NNNNN-of-
// NNNNN, prediction.errors_stats-…) hold exactly one line per good instance, with the library's own prediction, and
// one per bad line with its reason; predictionOutput counts them (int64 strings) with nodeHours; each bad job is
// refused at create with its field; and an executor SIGKILLed while the workers run restarts the job, which ends with
// every instance predicted exactly once.
#include "apirequest.h"
#include "predictionmodels.h"
#include "ctlrun.h"
#include "executorprocess.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Trainyard::Test::ApiResponse;

QByteArray json(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray compact(const QJsonValue& v)
{
    return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
}

/// The lines of a file, without their newline (an empty list when it cannot be read).
QList<QByteArray> fileLines(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = file.readAll().split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

} // namespace

class TestBatchPrediction : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<Trainyard::Test::ExecutorProcess> m_executor;
    QNetworkAccessManager m_nam;
    QJsonObject m_expected;
    QString m_models;
    QString m_work; ///< inputs and outputs

    ApiResponse send(const QByteArray& verb, const QString& path, const QByteArray& body = {})
    {
        return Trainyard::Test::sendApiRequest(m_nam, verb, Trainyard::Test::apiUrl(m_executor->url(), path), body,
            { { "Authorization", "Bearer " + m_executor->token() } }, 120000);
    }

    ApiResponse createJob(const QString& id, const QJsonObject& predictionInput)
    {
        return send("POST", QStringLiteral("/v1/projects/local/jobs"),
            json({ { QStringLiteral("jobId"), id }, { QStringLiteral("predictionInput"), predictionInput } }));
    }

    /// Waits until the job is final; returns it.
    QJsonObject waitFinal(const QString& id, int timeoutMs = 240000)
    {
        QJsonObject job;
        (void)QTest::qWaitFor(
            [&] {
                job = send("GET", QStringLiteral("/v1/projects/local/jobs/") + id).json;
                const QString state = job.value(QStringLiteral("state")).toString();
                return state == QLatin1String("SUCCEEDED") || state == QLatin1String("FAILED")
                    || state == QLatin1String("CANCELLED");
            },
            timeoutMs);
        return job;
    }

    /// Writes `count` JSON instances (the table's rows, in turn) to `path`, one a line; with `unique`, each row's first
    /// value is shifted by its line number · 1e-7 so that every line differs (and still predicts). Returns the lines.
    QList<QByteArray> writeInstances(const QString& path, int count, int first = 0, bool unique = false)
    {
        const QJsonArray all = m_expected.value(QStringLiteral("allInstances")).toArray();
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        QList<QByteArray> lines;
        for (int i = first; i < first + count; ++i) {
            QJsonArray row = all.at(i % all.size()).toArray();
            if (unique)
                row[0] = row.at(0).toDouble() + i * 1e-7;
            const QByteArray line = compact(row);
            lines << line;
            file.write(line + '\n');
        }
        return lines;
    }

    /// The row of the table an instance line is (its first values; -1 when none).
    QHash<QByteArray, int> rowIndex() const
    {
        QHash<QByteArray, int> index;
        const QJsonArray all = m_expected.value(QStringLiteral("allInstances")).toArray();
        for (int i = 0; i < all.size(); ++i)
            index.insert(compact(all.at(i)), i);
        return index;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        m_root.setAutoRemove(qEnvironmentVariableIsEmpty("TRAINYARD_KEEP_TEST_FILES"));
        QVERIFY(Trainyard::Test::makeAccountFolders(m_root, { QStringLiteral("models"), QStringLiteral("work") }));
        m_models = m_root.filePath(QStringLiteral("models"));
        m_work = m_root.filePath(QStringLiteral("work"));
        const std::optional<QJsonObject> expected = Trainyard::Test::trainPredictionModels(m_models);
        QVERIFY(expected);
        m_expected = *expected;
        QVERIFY(m_expected.value(QStringLiteral("allInstances")).toArray().size() > 500);

        m_executor = std::make_unique<Trainyard::Test::ExecutorProcess>(m_root.path());
        m_executor->setLogFile(m_root.filePath(QStringLiteral("executor.log")));
        QString error;
        QVERIFY2(m_executor->start(&error), qPrintable(error));
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/local/models"),
                     json({ { QStringLiteral("name"), QStringLiteral("scoring") } }))
                     .status,
            200);
        const ApiResponse created = send("POST", QStringLiteral("/v1/projects/local/models/scoring/versions"),
            json({ { QStringLiteral("name"), QStringLiteral("batch_sk") },
                { QStringLiteral("deploymentUri"), QString(m_models + QStringLiteral("/sklearn")) },
                { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") },
                { QStringLiteral("autoScaling"), QJsonObject { { QStringLiteral("minNodes"), 0 } } } }));
        QCOMPARE(created.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(send("GET", QStringLiteral("/v1/projects/local/models/scoring/versions/batch_sk"))
                                      .json.value(QStringLiteral("state"))
                                      .toString(),
            QStringLiteral("READY"), 120000);
    }

    void cleanupTestCase()
    {
        if (m_executor)
            m_executor->stop();
    }

    /// JSON lines from two files (a wildcard), the model's default version, two workers: every good line predicted
    /// once, as scikit-learn predicts it; each bad line in the errors files with its reason; the counts in
    /// predictionOutput.
    void jsonLinesWithTwoWorkers()
    {
        const QString in = m_work + QStringLiteral("/json");
        const QString out = m_work + QStringLiteral("/json-out");
        QVERIFY(QDir().mkpath(in));
        // 2 × 600 rows of ~600 bytes: more than two shards' minimum (64 KiB), so two workers share them.
        QList<QByteArray> lines = writeInstances(in + QStringLiteral("/part-a.json"), 600);
        lines += writeInstances(in + QStringLiteral("/part-b.json"), 600, 600);
        // Bad lines: not JSON, and an instance of the wrong width; a blank line is no instance.
        QFile bad(in + QStringLiteral("/part-b.json"));
        QVERIFY(bad.open(QIODevice::Append));
        bad.write("{not json\n\n[1.0, 2.0]\n");
        bad.close();
        // Not matched by the pattern: never read.
        QFile other(in + QStringLiteral("/notes.txt"));
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("[1]\n");
        other.close();

        const ApiResponse created = createJob(QStringLiteral("batch_json"),
            { { QStringLiteral("modelName"), QStringLiteral("projects/local/models/scoring") },
                { QStringLiteral("dataFormat"), QStringLiteral("JSON") },
                { QStringLiteral("inputPaths"), QJsonArray { QString(in + QStringLiteral("/part-*.json")) } },
                { QStringLiteral("outputPath"), out }, { QStringLiteral("region"), QStringLiteral("local") },
                { QStringLiteral("maxWorkerCount"), 2 }, { QStringLiteral("batchSize"), 50 } });
        QVERIFY2(created.status == 200, created.body.constData());
        QCOMPARE(
            created.json.value(QStringLiteral("predictionInput")).toObject().value(QStringLiteral("maxWorkerCount")),
            QJsonValue(QStringLiteral("2")));
        QVERIFY(!created.json.contains(QLatin1String("trainingInput")));
        const QJsonObject job = waitFinal(QStringLiteral("batch_json"));
        QVERIFY2(job.value(QStringLiteral("state")).toString() == QLatin1String("SUCCEEDED"),
            QJsonDocument(job).toJson().constData());

        const QJsonObject output = job.value(QStringLiteral("predictionOutput")).toObject();
        QCOMPARE(output.value(QStringLiteral("outputPath")).toString(), out);
        QCOMPARE(output.value(QStringLiteral("predictionCount")), QJsonValue(QStringLiteral("1200")));
        QCOMPARE(output.value(QStringLiteral("errorCount")), QJsonValue(QStringLiteral("2")));
        QCOMPARE(output.value(QStringLiteral("inputInstanceCount")), QJsonValue(QStringLiteral("1202")));
        QVERIFY(output.value(QStringLiteral("nodeHours")).toDouble() > 0);

        const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files,
            QStringList({ QStringLiteral("prediction.errors_stats-00000-of-00002"),
                QStringLiteral("prediction.errors_stats-00001-of-00002"),
                QStringLiteral("prediction.results-00000-of-00002"),
                QStringLiteral("prediction.results-00001-of-00002") }));
        const QHash<QByteArray, int> rows = rowIndex();
        const QJsonArray labels = m_expected.value(QStringLiteral("sklearnAll")).toArray();
        QList<QByteArray> seen;
        for (const char* shard : { "00000", "00001" }) {
            const QList<QByteArray> results
                = fileLines(out + QStringLiteral("/prediction.results-%1-of-00002").arg(QLatin1String(shard)));
            QVERIFY(!results.isEmpty()); // both workers had a share
            for (const QByteArray& line : results) {
                const QJsonObject record = QJsonDocument::fromJson(line).object();
                const QByteArray instance = compact(record.value(QStringLiteral("instance")));
                QVERIFY2(rows.contains(instance), line.constData());
                QCOMPARE(record.value(QStringLiteral("prediction")), labels.at(rows.value(instance)));
                seen << instance;
            }
        }
        // Exactly the input's good lines, in the input's order (shard 0's lines come first).
        QCOMPARE(seen, lines);

        QList<QByteArray> errors;
        for (const char* shard : { "00000", "00001" })
            errors += fileLines(out + QStringLiteral("/prediction.errors_stats-%1-of-00002").arg(QLatin1String(shard)));
        QCOMPARE(errors.size(), 2);
        const QJsonObject notJson = QJsonDocument::fromJson(errors.at(0)).object();
        QVERIFY2(notJson.value(QStringLiteral("error")).toString().startsWith(QLatin1String("not a JSON instance")),
            errors.at(0).constData());
        QCOMPARE(notJson.value(QStringLiteral("line")).toString(), QStringLiteral("{not json"));
        QCOMPARE(notJson.value(QStringLiteral("file")).toString(), in + QStringLiteral("/part-b.json"));
        const QJsonObject narrow = QJsonDocument::fromJson(errors.at(1)).object();
        QVERIFY2(narrow.value(QStringLiteral("error")).toString().contains(QLatin1String("2 values, expected 30")),
            errors.at(1).constData());

        // A batch prediction job is a job like any: listed, its replicas (two workers) and its log.
        const ApiResponse replicas = send("GET", QStringLiteral("/v1/projects/local/jobs/batch_json/replicas"));
        QCOMPARE(replicas.status, 200);
        const ApiResponse list = send("GET", QStringLiteral("/v1/projects/local/jobs?filter=state%3DSUCCEEDED"));
        QVERIFY(list.body.contains("batch_json"));
        // Issue 46 item 15: the log says how many workers and why, and not a training job's line.
        const ApiResponse log = send("GET", QStringLiteral("/v1/projects/local/jobs/batch_json/logs?pageSize=1000"));
        QCOMPARE(log.status, 200);
        QVERIFY2(log.body.contains("Waiting for the batch prediction workers to start. 2 workers: the input (")
                && log.body.contains("would take 4 at 64 KiB each; predictionInput.maxWorkerCount"),
            log.body.constData());
        QVERIFY(!log.body.contains("training program"));
    }

    /// CSV input and CSV output, the model given as a folder (uri: an XGBoost booster, detected from its files).
    void csvFromAFolder()
    {
        const QString in = m_work + QStringLiteral("/rows.csv");
        const QString out = m_work + QStringLiteral("/csv-out");
        const QJsonArray all = m_expected.value(QStringLiteral("allInstances")).toArray();
        QFile file(in);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 100; ++i) {
            QStringList cells;
            for (const QJsonValue& v : all.at(i).toArray())
                cells << QString::number(v.toDouble(), 'g', 17);
            file.write(cells.join(QLatin1Char(',')).toUtf8() + '\n');
        }
        file.write("a,b,c\n"); // not numbers: the booster refuses it
        file.close();
        const ApiResponse created = createJob(QStringLiteral("batch_csv"),
            { { QStringLiteral("uri"), QString(m_models + QStringLiteral("/xgboost")) },
                { QStringLiteral("dataFormat"), QStringLiteral("CSV") },
                { QStringLiteral("outputDataFormat"), QStringLiteral("CSV") },
                { QStringLiteral("inputPaths"), QJsonArray { in } }, { QStringLiteral("outputPath"), out },
                { QStringLiteral("region"), QStringLiteral("local") } });
        QVERIFY2(created.status == 200, created.body.constData());
        const QJsonObject job = waitFinal(QStringLiteral("batch_csv"));
        QVERIFY2(job.value(QStringLiteral("state")).toString() == QLatin1String("SUCCEEDED"),
            QJsonDocument(job).toJson().constData());
        QCOMPARE(job.value(QStringLiteral("predictionOutput")).toObject().value(QStringLiteral("errorCount")),
            QJsonValue(QStringLiteral("1")));
        // A small input is one worker's.
        const QList<QByteArray> results = fileLines(out + QStringLiteral("/prediction.results-00000-of-00001"));
        QCOMPARE(results.size(), 100);
        const QJsonArray expected = m_expected.value(QStringLiteral("xgboostAll")).toArray();
        for (int i = 0; i < 100; ++i)
            QVERIFY2(std::abs(results.at(i).toDouble() - expected.at(i).toDouble()) < 1e-6, results.at(i).constData());
    }

    /// predictionInput.explanationConfig (issue 47, ours as Vertex AI's generateExplanation): every result line
    /// carries its explanation (sampled Shapley over the folder's explanation_metadata.json, complete per line); a
    /// method the model cannot give is refused at create on the field.
    void explanationsInResults()
    {
        const QString in = m_work + QStringLiteral("/explain-rows.json");
        const QString out = m_work + QStringLiteral("/explain-out");
        const QList<QByteArray> lines = writeInstances(in, 20);
        QFile append(in);
        QVERIFY(append.open(QIODevice::Append));
        append.write("[1, 2]\n"); // the wrong width: an error line, neither predicted nor explained
        append.close();
        const QJsonObject input { { QStringLiteral("uri"), QString(m_models + QStringLiteral("/explain/linear")) },
            { QStringLiteral("dataFormat"), QStringLiteral("JSON") }, { QStringLiteral("inputPaths"), QJsonArray { in } },
            { QStringLiteral("outputPath"), out }, { QStringLiteral("region"), QStringLiteral("local") },
            { QStringLiteral("explanationConfig"),
                QJsonObject { { QStringLiteral("sampledShapleyAttribution"), QJsonObject { { QStringLiteral("numPaths"), 3 } } } } } };
        const ApiResponse created = createJob(QStringLiteral("batch_explain"), input);
        QVERIFY2(created.status == 200, created.body.constData());
        const QJsonObject job = waitFinal(QStringLiteral("batch_explain"));
        QVERIFY2(job.value(QStringLiteral("state")).toString() == QLatin1String("SUCCEEDED"),
            QJsonDocument(job).toJson().constData());
        QCOMPARE(job.value(QStringLiteral("predictionOutput")).toObject().value(QStringLiteral("errorCount")),
            QJsonValue(QStringLiteral("1")));
        const QList<QByteArray> results = fileLines(out + QStringLiteral("/prediction.results-00000-of-00001"));
        QCOMPARE(results.size(), lines.size());
        for (const QByteArray& line : results) {
            const QJsonObject record = QJsonDocument::fromJson(line).object();
            const QJsonObject entry = record.value(QStringLiteral("explanation"))
                                          .toObject()
                                          .value(QStringLiteral("attributions_by_label"))
                                          .toArray()
                                          .at(0)
                                          .toObject();
            double sum = 0;
            const QJsonObject a = entry.value(QStringLiteral("attributions")).toObject();
            for (auto it = a.begin(); it != a.end(); ++it)
                sum += it->toDouble();
            QCOMPARE(a.size(), 30);
            QVERIFY2(std::abs(sum - (entry.value(QStringLiteral("example_score")).toDouble()
                                  - entry.value(QStringLiteral("baseline_score")).toDouble()))
                    < 1e-6,
                line.constData());
            QVERIFY2(std::abs(entry.value(QStringLiteral("example_score")).toDouble()
                             - record.value(QStringLiteral("prediction")).toDouble())
                    < 1e-9,
                line.constData());
        }
        // Integrated gradients of a scikit-learn model: refused at create, naming the batch job's field.
        QJsonObject gradients = input;
        gradients.insert(QStringLiteral("explanationConfig"),
            QJsonObject { { QStringLiteral("integratedGradientsAttribution"), QJsonObject() } });
        gradients.insert(QStringLiteral("outputPath"), QString(out + QStringLiteral("-2")));
        const ApiResponse refused = createJob(QStringLiteral("batch_explain_ig"), gradients);
        QCOMPARE(refused.status, 400);
        QVERIFY2(refused.body.contains("predictionInput.explanationConfig.integratedGradientsAttribution"),
            refused.body.constData());
    }

    /// Each bad job is refused at create, its field named, and nothing is stored or run.
    void badJobsAreRefused()
    {
        const QString in = m_work + QStringLiteral("/json/part-a.json");
        const QJsonObject good { { QStringLiteral("modelName"), QStringLiteral("projects/local/models/scoring") },
            { QStringLiteral("dataFormat"), QStringLiteral("JSON") },
            { QStringLiteral("inputPaths"), QJsonArray { in } },
            { QStringLiteral("outputPath"), QString(m_work + QStringLiteral("/never")) },
            { QStringLiteral("region"), QStringLiteral("local") } };
        struct Case {
            const char* name;
            QJsonObject change;
            QStringList remove;
            QString field;
        };
        const QList<Case> cases {
            { "unknown model", { { QStringLiteral("modelName"), QStringLiteral("projects/local/models/nope") } }, {},
                QStringLiteral("predictionInput.modelName") },
            { "unknown version",
                { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/scoring/versions/v9") } },
                { QStringLiteral("modelName") }, QStringLiteral("predictionInput.versionName") },
            { "two models", { { QStringLiteral("uri"), QString(m_models + QStringLiteral("/xgboost")) } }, {},
                QStringLiteral("predictionInput.modelName") },
            { "TFRecord", { { QStringLiteral("dataFormat"), QStringLiteral("TF_RECORD") } }, {},
                QStringLiteral("predictionInput.dataFormat") },
            { "no data format", {}, { QStringLiteral("dataFormat") }, QStringLiteral("predictionInput.dataFormat") },
            { "no file matches",
                { { QStringLiteral("inputPaths"), QJsonArray { QString(m_work + QStringLiteral("/none-*.json")) } } },
                {}, QStringLiteral("predictionInput.inputPaths[0]") },
            { "wildcard in a folder",
                { { QStringLiteral("inputPaths"), QJsonArray { QString(m_work + QStringLiteral("/*/part-a.json")) } } },
                {}, QStringLiteral("predictionInput.inputPaths[0]") },
            { "cloud storage", { { QStringLiteral("outputPath"), QStringLiteral("gs://bucket/out") } }, {},
                QStringLiteral("predictionInput.outputPath") },
            { "batch size", { { QStringLiteral("batchSize"), 0 } }, {}, QStringLiteral("predictionInput.batchSize") },
            { "a folder with no model", { { QStringLiteral("uri"), m_work } }, { QStringLiteral("modelName") },
                QStringLiteral("predictionInput.uri") },
        };
        for (const Case& c : cases) {
            QJsonObject input = good;
            for (const QString& key : c.remove)
                input.remove(key);
            for (auto it = c.change.begin(); it != c.change.end(); ++it)
                input.insert(it.key(), it.value());
            const ApiResponse r = createJob(QStringLiteral("refused"), input);
            QVERIFY2(r.status == 400, c.name);
            const QJsonArray details
                = r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("details")).toArray();
            QStringList fields;
            for (const QJsonValue& d : details)
                for (const QJsonValue& v : d.toObject().value(QStringLiteral("fieldViolations")).toArray())
                    fields << v.toObject().value(QStringLiteral("field")).toString();
            QVERIFY2(fields.contains(c.field),
                qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(c.name), QString::fromUtf8(r.body))));
        }
        QCOMPARE(send("GET", QStringLiteral("/v1/projects/local/jobs/refused")).status, 404);
        QVERIFY(!QFileInfo::exists(m_work + QStringLiteral("/never")));
    }

    /// The executor SIGKILLed while two workers predict: the next executor restarts the job, each worker goes on from
    /// its last commit, and every instance is in the results exactly once.
    void executorKilledMidJob()
    {
        const QString in = m_work + QStringLiteral("/many.json");
        const QString out = m_work + QStringLiteral("/many-out");
        // Every line differs, so that a duplicate or a loss shows; 150,000 instances, one a batch, keep two workers
        // busy for several seconds (about 1.4 s per 15,000 on a 2-core VM).
        const int count = 150000;
        const QList<QByteArray> lines = writeInstances(in, count, 0, true);
        const ApiResponse created = createJob(QStringLiteral("batch_killed"),
            { { QStringLiteral("versionName"), QStringLiteral("projects/local/models/scoring/versions/batch_sk") },
                { QStringLiteral("dataFormat"), QStringLiteral("JSON") },
                { QStringLiteral("inputPaths"), QJsonArray { in } }, { QStringLiteral("outputPath"), out },
                { QStringLiteral("region"), QStringLiteral("local") }, { QStringLiteral("maxWorkerCount"), 2 },
                { QStringLiteral("batchSize"), 1 } });
        QVERIFY2(created.status == 200, created.body.constData());
        // Killed once the workers committed part of their shares.
        qint64 before = 0;
        QTRY_VERIFY_WITH_TIMEOUT((before = send("GET", QStringLiteral("/v1/projects/local/jobs/batch_killed"))
                                               .json.value(QStringLiteral("predictionOutput"))
                                               .toObject()
                                               .value(QStringLiteral("predictionCount"))
                                               .toString()
                                               .toLongLong())
                > 0,
            120000);
        QVERIFY2(before < count, "the job ended before the executor could be killed: give it more instances");
        m_executor->kill();
        QString error;
        QVERIFY2(m_executor->start(&error), qPrintable(error));
        const QJsonObject job = waitFinal(QStringLiteral("batch_killed"), 600000);
        QVERIFY2(job.value(QStringLiteral("state")).toString() == QLatin1String("SUCCEEDED"),
            QJsonDocument(job).toJson().constData());
        QCOMPARE(job.value(QStringLiteral("predictionOutput")).toObject().value(QStringLiteral("predictionCount")),
            QJsonValue(QString::number(count)));
        QList<QByteArray> seen;
        for (const char* shard : { "00000", "00001" }) {
            for (const QByteArray& line :
                fileLines(out + QStringLiteral("/prediction.results-%1-of-00002").arg(QLatin1String(shard))))
                seen << compact(QJsonDocument::fromJson(line).object().value(QStringLiteral("instance")));
        }
        QCOMPARE(seen.size(), lines.size());
        QCOMPARE(seen, lines);
        // It went on, not over: a worker's log says where it resumed.
        const ApiResponse log = send("GET", QStringLiteral("/v1/projects/local/jobs/batch_killed/logs?pageSize=1000"));
        QVERIFY2(log.body.contains("resuming after"), "no worker resumed from its committed progress");
        // The version the job used serves after the restart too.
        const QJsonArray instances { m_expected.value(QStringLiteral("allInstances")).toArray().at(0) };
        QTRY_COMPARE_WITH_TIMEOUT(
            send("POST", QStringLiteral("/v1/projects/local/models/scoring/versions/batch_sk:predict"),
                json({ { QStringLiteral("instances"), instances } }))
                .status,
            200, 60000);
        qInfo("killed after %lld committed predictions; finished with %d, none twice", before, count);
    }
};

QTEST_GUILESS_MAIN(TestBatchPrediction)
#include "tst_batchprediction.moc"
