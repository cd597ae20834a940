// SPDX-License-Identifier: GPL-2.0-or-later
// JobListModel under QAbstractItemModelTester: incremental updates (no reset), roles, replica and GPU counts.

#include "joblistmodel.h"
#include "statenames.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

using namespace Trainyard;

namespace {
Job makeJob(const QString& id, JobState state, const QString& created)
{
    Job job;
    job.jobId = id;
    job.state = state;
    job.createTime = created;
    job.trainingInput.scaleTier = QStringLiteral("BASIC");
    job.trainingInput.pythonModule = QStringLiteral("trainer.task");
    return job;
}
} // namespace

class TestJobListModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void incrementalUpdates()
    {
        JobListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

        const Job a = makeJob(QStringLiteral("job_a"), JobState::Queued, QStringLiteral("2026-11-22T05:00:00.000Z"));
        const Job b = makeJob(QStringLiteral("job_b"), JobState::Succeeded, QStringLiteral("2026-11-22T05:01:00.000Z"));
        model.setJobs({ a, b });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(inserted.count(), 1);

        // Same listing again: nothing changes.
        changed.clear();
        model.setJobs({ b, a });
        QCOMPARE(changed.count(), 0);
        QCOMPARE(model.rowOf(QStringLiteral("job_a")), 0);

        // A changed job: one dataChanged for its row, rows stay.
        Job a2 = a;
        a2.state = JobState::Running;
        a2.startTime = QStringLiteral("2026-11-22T05:00:05.000Z");
        model.setJobs({ a2, b });
        QVERIFY(changed.count() >= 1);
        QCOMPARE(changed.first().at(0).value<QModelIndex>().row(), 0);
        QCOMPARE(model.index(0, JobListModel::StateColumn).data().toString(), QStringLiteral("RUNNING"));
        QCOMPARE(model.index(0, 0).data(JobListModel::StateRole).value<JobState>(), JobState::Running);

        // A new job is inserted, a vanished one removed.
        const Job c = makeJob(QStringLiteral("job_c"), JobState::Failed, QStringLiteral("2026-11-22T05:02:00.000Z"));
        model.setJobs({ c, a2 });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(model.rowOf(QStringLiteral("job_b")), -1);
        QCOMPARE(model.jobAt(model.rowOf(QStringLiteral("job_c")))->state, JobState::Failed);

        model.updateJob(b);
        QCOMPARE(model.rowCount(), 3);
        model.removeJob(QStringLiteral("job_a"));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(QStringLiteral("job_b")), 1);
        QCOMPARE(resets.count(), 0);
    }

    void batchedEvents()
    {
        // The job list stream's batches: changed rows get dataChanged, new jobs one insert, never a reset;
        // a job that appears twice in a batch is one row with its last value.
        JobListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

        const Job a = makeJob(QStringLiteral("job_a"), JobState::Queued, QStringLiteral("2026-11-22T05:00:00.000Z"));
        const Job b = makeJob(QStringLiteral("job_b"), JobState::Queued, QStringLiteral("2026-11-22T05:01:00.000Z"));
        Job b2 = b;
        b2.state = JobState::Running;
        b2.startTime = QStringLiteral("2026-11-22T05:01:05.000Z");
        model.updateJobs({ a, b, b2 });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.jobAt(model.rowOf(QStringLiteral("job_b")))->state, JobState::Running);

        changed.clear();
        Job a2 = a;
        a2.state = JobState::Cancelled;
        const Job c = makeJob(QStringLiteral("job_c"), JobState::Queued, QStringLiteral("2026-11-22T05:02:00.000Z"));
        model.updateJobs({ a2, c, b2 });
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(changed.count(), 1); // b2 is unchanged
        QCOMPARE(changed.first().at(0).value<QModelIndex>().row(), model.rowOf(QStringLiteral("job_a")));
        QCOMPARE(model.index(model.rowOf(QStringLiteral("job_a")), 0).data(JobListModel::StateRole).value<JobState>(),
            JobState::Cancelled);
        QCOMPARE(resets.count(), 0);

        // A running job's duration ticks without a change.
        changed.clear();
        QTRY_VERIFY_WITH_TIMEOUT(changed.count() >= 1, 5000);
        QCOMPARE(changed.first().at(0).value<QModelIndex>().column(), int(JobListModel::DurationColumn));
    }

    void roles()
    {
        JobListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Job job = makeJob(QStringLiteral("fmnist_1"), JobState::Succeeded, QStringLiteral("2026-11-22T05:00:00.000Z"));
        job.startTime = QStringLiteral("2026-11-22T05:00:10.000Z");
        job.endTime = QStringLiteral("2026-11-22T05:02:15.500Z");
        job.labels.insert(QStringLiteral("owner"), QStringLiteral("alice"));
        job.trainingInput.jobDir = QStringLiteral("/tmp/fmnist");
        model.setJobs({ job });
        const QModelIndex row = model.index(0, 0);
        QCOMPARE(row.data(JobListModel::JobIdRole).toString(), QStringLiteral("fmnist_1"));
        QCOMPARE(row.data(JobListModel::DurationRole).toLongLong(), 125);
        QCOMPARE(model.index(0, JobListModel::DurationColumn).data().toString(), QStringLiteral("2:05"));
        QCOMPARE(model.index(0, JobListModel::LabelsColumn).data().toString(), QStringLiteral("owner=alice"));
        QCOMPARE(model.index(0, JobListModel::TypeColumn).data().toString(), QStringLiteral("Training"));
        // Issue 46 item 14: each job kind says what it is; a batch prediction has no scale tier (it read "Batch
        // predict…" under Scale tier, and its progress under Replicas).
        Job batch = makeJob(QStringLiteral("score_1"), JobState::Succeeded, QStringLiteral("2026-11-22T06:00:00.000Z"));
        batch.predictionInput = PredictionInput {};
        batch.predictionInput->modelName = QStringLiteral("projects/local/models/m");
        Job tuning = makeJob(QStringLiteral("tune_1"), JobState::Running, QStringLiteral("2026-11-22T07:00:00.000Z"));
        tuning.trainingInput.hyperparameters = HyperparameterSpec {};
        Job builtIn = makeJob(QStringLiteral("xgb_1"), JobState::Running, QStringLiteral("2026-11-22T08:00:00.000Z"));
        builtIn.trainingInput.masterConfig = ReplicaConfig {};
        builtIn.trainingInput.masterConfig->imageUri = QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest");
        model.setJobs({ job, batch, tuning, builtIn });
        const auto type = [&model](const char* id) {
            return model.index(model.rowOf(QString::fromLatin1(id)), JobListModel::TypeColumn).data().toString();
        };
        QCOMPARE(type("score_1"), QStringLiteral("Batch prediction"));
        QCOMPARE(type("tune_1"), QStringLiteral("Hyperparameter tuning"));
        QCOMPARE(type("xgb_1"), QStringLiteral("Built-in algorithm"));
        QCOMPARE(model.index(model.rowOf(QStringLiteral("score_1")), JobListModel::ScaleTierColumn).data().toString(),
            QString());
        QCOMPARE(model.headerData(JobListModel::TypeColumn, Qt::Horizontal).toString(), QStringLiteral("Type"));
        model.setJobs({ job });
        QCOMPARE(row.data(JobListModel::JobDirRole).toString(), QStringLiteral("/tmp/fmnist"));
        QCOMPARE(row.data(JobListModel::CreateTimeRole).toDateTime(),
            QDateTime(QDate(2026, 11, 22), QTime(5, 0), QTimeZone::utc()));
        QCOMPARE(model.index(0, JobListModel::CreatedColumn).data(JobListModel::SortRole).toLongLong(),
            QDateTime(QDate(2026, 11, 22), QTime(5, 0), QTimeZone::utc()).toMSecsSinceEpoch());
    }

    void counts_data()
    {
        QTest::addColumn<QString>("tier");
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("ps");
        QTest::addColumn<int>("evaluators");
        QTest::addColumn<int>("gpusPerWorker");
        QTest::addColumn<QString>("replicasText");
        QTest::addColumn<int>("gpus");
        QTest::addRow("BASIC") << QStringLiteral("BASIC") << 0 << 0 << 0 << 0 << QStringLiteral("1 + 0 + 0") << 0;
        QTest::addRow("CUSTOM 1+2+1") << QStringLiteral("CUSTOM") << 2 << 1 << 0 << 0 << QStringLiteral("1 + 2 + 1")
                                      << 0;
        QTest::addRow("CUSTOM with evaluators and GPUs")
            << QStringLiteral("CUSTOM") << 4 << 0 << 2 << 1 << QStringLiteral("1 + 4 + 0 (+2 eval)") << 4;
    }
    void counts()
    {
        QFETCH(QString, tier);
        QFETCH(int, workers);
        QFETCH(int, ps);
        QFETCH(int, evaluators);
        QFETCH(int, gpusPerWorker);
        QFETCH(QString, replicasText);
        QFETCH(int, gpus);
        Job job = makeJob(QStringLiteral("j"), JobState::Queued, {});
        TrainingInput& in = job.trainingInput;
        in.scaleTier = tier;
        if (tier == QLatin1String("CUSTOM")) {
            in.masterType = QStringLiteral("n1-standard-4");
            in.workerType = QStringLiteral("n1-standard-4");
            in.workerCount = workers;
            if (ps) {
                in.parameterServerType = QStringLiteral("n1-standard-4");
                in.parameterServerCount = ps;
            }
            if (evaluators) {
                in.evaluatorType = QStringLiteral("n1-standard-4");
                in.evaluatorCount = evaluators;
            }
            if (gpusPerWorker) {
                ReplicaConfig config;
                config.acceleratorConfig = AcceleratorConfig { gpusPerWorker, QStringLiteral("NVIDIA_TESLA_T4") };
                in.workerConfig = config;
            }
        }
        JobListModel model;
        model.setJobs({ job });
        QCOMPARE(model.index(0, JobListModel::ReplicasColumn).data().toString(), replicasText);
        QCOMPARE(model.index(0, JobListModel::GpusColumn).data().toInt(), gpus);
        QCOMPARE(model.index(0, 0).data(JobListModel::ReplicaCountRole).toInt(), 1 + workers + ps + evaluators);
    }
};

QTEST_GUILESS_MAIN(TestJobListModel)
#include "tst_joblistmodel.moc"
