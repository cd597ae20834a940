// SPDX-License-Identifier: GPL-2.0-or-later
// BatchPlan (app/executor/scheduling/batchplan.h) alone, on real files: the input patterns expanded once (sorted, each
// file held to the path rules), the workers chosen (min of maxWorkerCount, the host's limit and one per 64 KiB), the
// plan written and read back whole with each worker's output names (BatchOutput), and the workers' committed
// progress summed. Until issue 43 only end-to-end tests that need scikit-learn covered it.
#include "batchplan.h"
#include "pathpolicy.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

void writeFile(const QString& path, qint64 bytes)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    QByteArray line("[1.0, 2.0]\n");
    QByteArray data;
    while (data.size() < bytes)
        data += line;
    data.truncate(bytes);
    QCOMPARE(f.write(data), bytes);
}

void writeProgress(const QString& stateDir, int shard, const QJsonObject& o)
{
    QFile f(QStringLiteral("%1/progress-%2.json").arg(stateDir).arg(shard));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(o).toJson());
}

} // namespace

class TestBatchPlan : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_data;
    PredictionInput input(const QStringList& paths) const
    {
        PredictionInput in;
        in.inputPaths = paths;
        in.dataFormat = QStringLiteral("JSON");
        in.outputPath = m_root.filePath(QStringLiteral("out"));
        return in;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        m_data = m_root.filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(m_data));
        // Three shards of 100 KiB, 50 KiB and 10 KiB written out of name order, and a file the pattern must not take.
        writeFile(m_data + QStringLiteral("/rows-2.json"), 10 * 1024);
        writeFile(m_data + QStringLiteral("/rows-0.json"), 100 * 1024);
        writeFile(m_data + QStringLiteral("/rows-1.json"), 50 * 1024);
        writeFile(m_data + QStringLiteral("/other.csv"), 1024);
    }

    void expandsPatternsSorted()
    {
        FieldViolation error;
        const PathPolicy paths({ m_root.path() });
        const std::optional<BatchPlan> plan = BatchPlan::make(
            input({ m_data + QStringLiteral("/rows-*.json"), m_data + QStringLiteral("/other.csv") }), BatchModel {},
            16, m_root.filePath(QStringLiteral("state")), paths, &error);
        QVERIFY2(plan, qPrintable(error.message()));
        QStringList names;
        for (const BatchPlan::File& f : plan->files)
            names << QFileInfo(f.path).fileName();
        QCOMPARE(names,
            QStringList({ QStringLiteral("rows-0.json"), QStringLiteral("rows-1.json"), QStringLiteral("rows-2.json"),
                QStringLiteral("other.csv") }));
        QCOMPARE(plan->totalBytes(), qint64((100 + 50 + 10 + 1) * 1024));
        // The service's defaults where the input says nothing.
        QCOMPARE(plan->outputDataFormat, QStringLiteral("JSON"));
        QCOMPARE(plan->batchSize, DefaultBatchSize);
    }

    void chooseWorkers_data()
    {
        QTest::addColumn<int>("maxWorkerCount"); // 0: absent
        QTest::addColumn<int>("workerLimit");
        QTest::addColumn<int>("workers");
        // 160 KiB of input: at most ⌈160 / 64⌉ = 3 workers whatever else allows more.
        QTest::addRow("bytes decide") << 0 << 16 << 3;
        QTest::addRow("maxWorkerCount decides") << 2 << 16 << 2;
        QTest::addRow("the host decides") << 10 << 1 << 1;
        QTest::addRow("a limit below one is one") << 10 << 0 << 1;
    }
    void chooseWorkers()
    {
        QFETCH(int, maxWorkerCount);
        QFETCH(int, workerLimit);
        QFETCH(int, workers);
        PredictionInput in = input({ m_data + QStringLiteral("/rows-*.json") });
        if (maxWorkerCount > 0)
            in.maxWorkerCount = maxWorkerCount;
        FieldViolation error;
        const std::optional<BatchPlan> plan
            = BatchPlan::make(in, BatchModel {}, workerLimit, QString(), PathPolicy({ m_root.path() }), &error);
        QVERIFY2(plan, qPrintable(error.message()));
        QCOMPARE(plan->workers, workers);
    }

    void refusesWhatCannotBeRead_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("error");
        QTest::addRow("no match") << QStringLiteral("/rows-9*.json")
                                  << QStringLiteral("predictionInput.inputPaths[1]: no readable file matches");
        QTest::addRow("missing file") << QStringLiteral("/missing.json")
                                      << QStringLiteral("predictionInput.inputPaths[1]: no readable file matches");
        QTest::addRow("a folder") << QString() << QStringLiteral("predictionInput.inputPaths[1]: ");
    }
    void refusesWhatCannotBeRead()
    {
        QFETCH(QString, path);
        QFETCH(QString, error);
        FieldViolation violation;
        const std::optional<BatchPlan> plan
            = BatchPlan::make(input({ m_data + QStringLiteral("/rows-0.json"), m_data + path }), BatchModel {}, 4,
                QString(), PathPolicy({ m_root.path() }), &violation);
        QVERIFY(!plan);
        const QString got = violation.message();
        QVERIFY2(got.startsWith(error), qPrintable(got));
        if (path.isEmpty())
            QVERIFY2(got.contains(QLatin1String("is a folder")), qPrintable(got));
    }

    void holdsEachMatchToThePathRules()
    {
        // A link in the data folder to a file outside the roots: the pattern matches it, and the plan refuses it.
        QTemporaryDir outside;
        QVERIFY(outside.isValid());
        writeFile(outside.filePath(QStringLiteral("secret.json")), 100);
        const QString link = m_data + QStringLiteral("/rows-link.json");
        QVERIFY(QFile::link(outside.filePath(QStringLiteral("secret.json")), link));
        FieldViolation error;
        const std::optional<BatchPlan> plan = BatchPlan::make(input({ m_data + QStringLiteral("/rows-*.json") }),
            BatchModel {}, 4, QString(), PathPolicy({ m_root.path() }), &error);
        QFile::remove(link);
        QVERIFY(!plan);
        QVERIFY2(error.message().startsWith(QLatin1String("predictionInput.inputPaths[0]: ")), qPrintable(error.message()));
    }

    void writesAndReadsBack()
    {
        PredictionInput in = input({ m_data + QStringLiteral("/rows-*.json") });
        in.outputDataFormat = QStringLiteral("CSV");
        in.batchSize = 7;
        in.signatureName = QStringLiteral("serving_default");
        BatchModel model;
        model.modelDir = QStringLiteral("/srv/models/census");
        model.predictionClass = QStringLiteral("predictor.Census");
        model.pythonPath = { QStringLiteral("/srv/staging/a"), QStringLiteral("/srv/staging/b") };
        model.runtimeVersion = QStringLiteral("2.11");
        const QString state = m_root.filePath(QStringLiteral("state"));
        QVERIFY(QDir().mkpath(state));
        QString error;
        FieldViolation violation;
        const std::optional<BatchPlan> plan
            = BatchPlan::make(in, model, 16, state, PathPolicy({ m_root.path() }), &violation);
        QVERIFY2(plan, qPrintable(violation.message()));
        const QString file = state + QStringLiteral("/plan.json");
        QVERIFY2(plan->write(file, &error), qPrintable(error));
        const std::optional<BatchPlan> back = BatchPlan::read(file, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->toJson(), plan->toJson());

        // Each worker is told its output files' names: the service's, from their one definition.
        const QJsonArray outputs = plan->toJson().value(QStringLiteral("outputFiles")).toArray();
        QCOMPARE(outputs.size(), plan->workers);
        QCOMPARE(outputs.at(1).toObject().value(QStringLiteral("results")).toString(),
            QStringLiteral("prediction.results-00001-of-00003"));
        QCOMPARE(outputs.at(2).toObject().value(QStringLiteral("errors")).toString(),
            QStringLiteral("prediction.errors_stats-00002-of-00003"));
        QVERIFY(QDir::match(BatchOutput::filePattern(), QStringLiteral("prediction.errors_stats-00002-of-00003")));
        QVERIFY(!QDir::match(BatchOutput::filePattern(), QStringLiteral("plan.json")));

        // A plan that says nothing to run is refused, not run.
        QFile broken(state + QStringLiteral("/broken.json"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"workers\": 0}");
        broken.close();
        QVERIFY(!BatchPlan::read(broken.fileName(), &error));
        QVERIFY2(error.contains(QLatin1String("malformed")), qPrintable(error));
    }

    void sumsCommittedProgress()
    {
        QTemporaryDir state;
        QVERIFY(state.isValid());
        // Nothing committed yet: no counts at all (absent, not zero).
        PredictionOutput out = readBatchProgress(state.path(), QStringLiteral("/out"), 2);
        QCOMPARE(out.outputPath, QStringLiteral("/out"));
        QVERIFY(!out.predictionCount && !out.errorCount && !out.nodeHours && !out.inputInstanceCount);

        writeProgress(state.path(), 0,
            { { QStringLiteral("predictionCount"), 90 }, { QStringLiteral("errorCount"), 2 },
                { QStringLiteral("seconds"), 1800.0 }, { QStringLiteral("totalInstances"), 100 } });
        out = readBatchProgress(state.path(), QStringLiteral("/out"), 2);
        QCOMPARE(out.predictionCount, qint64(90));
        QCOMPARE(out.errorCount, qint64(2));
        QCOMPARE(out.nodeHours, 0.5);
        QVERIFY(!out.inputInstanceCount); // worker 1 has not counted its share

        writeProgress(state.path(), 1,
            { { QStringLiteral("predictionCount"), 10 }, { QStringLiteral("errorCount"), 0 },
                { QStringLiteral("seconds"), 1800.0 }, { QStringLiteral("totalInstances"), 12 } });
        out = readBatchProgress(state.path(), QStringLiteral("/out"), 2);
        QCOMPARE(out.predictionCount, qint64(100));
        QCOMPARE(out.nodeHours, 1.0);
        QCOMPARE(out.inputInstanceCount, qint64(112));
    }
};

QTEST_GUILESS_MAIN(TestBatchPlan)
#include "tst_batchplan.moc"
