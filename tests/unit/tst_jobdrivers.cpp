// SPDX-License-Identifier: GPL-2.0-or-later
// The job drivers (app/executor/scheduling/jobdriver.h) alone, without the Scheduler: a recording host stands in for
// it (a real JobStore on a temporary SQLite file, a queue of entries, the finished jobs), runs go to the scripted fake
// backend. Per kind: what the queue entries stand for, the launch input a kind makes (a built-in algorithm's bundled
// package, a batch job's workers), what its replicas' sandbox sees, what a run's end means for the job, what it stores
// while it runs and when it ends, and how its runs are recovered. No process is started.
#include "batchplan.h"
#include "batchpredictionjob.h"
#include "builtinalgorithm.h"
#include "executorenvironment.h"
#include "fakebackend.h"
#include "jobdriver.h"
#include "jobkeys.h"
#include "jobrun.h"
#include "jobstore.h"
#include "pathpolicy.h"
#include "tuningjobs.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using Trainyard::Test::FakeBackend;

namespace {

using StopReason = ReplicaSetRun::StopReason;

/// The scheduler as a driver sees it (JobDriver::Host) and as a run sees it (ReplicaSetRun::Owner), recording.
class RecordingHost : public JobDriver::Host, public ReplicaSetRun::Owner {
public:
    JobStore* store = nullptr;
    JobRun* job = nullptr;
    PathPolicy paths;
    QStringList lines; ///< "INFO message", "ACTION RecoverJob message"
    QList<QString> queue; ///< trial IDs of the job's entries (empty: a new run)
    std::optional<std::pair<JobState, QString>> finished;
    int updates = 0;
    int soon = 0;

    // JobDriver::Host
    void jobLog(const JobKey&, const QString& message, LogSeverity severity, const QString&) override
    {
        lines << logSeverityString(severity) + QLatin1Char(' ') + message;
    }
    void jobAction(const JobKey&, const char* method, const QString& message, LogSeverity, const QString&) override
    {
        lines << QStringLiteral("ACTION ") + QLatin1String(method) + QLatin1Char(' ') + message;
    }
    std::optional<Job> updateJob(const JobKey& key, const std::function<void(Job&)>& change) override
    {
        std::optional<Job> j = store->job(key);
        if (!j)
            return j;
        change(*j);
        QString error;
        if (!store->update(key.project, *j, &error))
            qWarning("%s", qPrintable(error));
        ++updates;
        return j;
    }
    int queuedFor(const JobKey&, bool newRunsOnly) const override
    {
        return int(
            std::count_if(queue.begin(), queue.end(), [&](const QString& t) { return !newRunsOnly || t.isEmpty(); }));
    }
    void queueNewRun(const JobKey&) override { queue << QString(); }
    void dropQueued(const JobKey&, bool newRunsOnly) override
    {
        queue.removeIf([&](const QString& t) { return !newRunsOnly || t.isEmpty(); });
    }
    void finishJob(JobRun* run, JobState state, const QString& message) override
    {
        finished = std::make_pair(state, message);
        run->phase = JobRun::Phase::Done; // as the scheduler's finish() does
        run->driver->ending(state);
    }
    void scheduleSoon() override { ++soon; }
    void jobReplicasChanged(const JobRun&) override { }
    ReplicaSetRun::Owner* runOwner() override { return this; }
    const PathPolicy& pathPolicy() const override { return paths; }

    // ReplicaSetRun::Owner
    void runLog(const ReplicaSetRun&, const QString& message, LogSeverity severity) override
    {
        lines << logSeverityString(severity) + QLatin1Char(' ') + message;
    }
    void runAction(const ReplicaSetRun&, const char* method, const QString& message, LogSeverity) override
    {
        lines << QStringLiteral("ACTION ") + QLatin1String(method) + QLatin1Char(' ') + message;
    }
    Launch::LaunchContext launchContext(const ReplicaSetRun& run) override
    {
        Launch::LaunchContext context;
        context.input = job->input;
        context.interpreter = QStringLiteral("/usr/bin/python3");
        context.cloud = QStringLiteral("trainyard-test");
        context.sandbox = job->driver->launchView(run);
        return context;
    }
    qint64 runLimitLeft(const ReplicaSetRun&) const override { return -1; }
    bool shuttingDown() const override { return false; }
    std::chrono::seconds gracePeriod() const override { return std::chrono::seconds(1); }
    void runReplicasChanged(const ReplicaSetRun&) override { }
    QString runStartingMessage(const ReplicaSetRun& run) const override { return job->driver->startingMessage(run); }
    void runLaunching(ReplicaSetRun& run) override { job->driver->launching(run); }
    void runAllStarted(ReplicaSetRun& run) override { job->driver->runRunning(run, JobState::Running); }
    void runEnded(ReplicaSetRun& run) override { job->driver->runEnded(run); }
};

ReplicaExit exitedWith(int code)
{
    return ReplicaExit { ReplicaExit::Kind::Exited, code, 0, QString() };
}

} // namespace

class TestJobDrivers : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    JobStore m_store;
    RecordingHost m_host;
    std::unique_ptr<FakeBackend> m_backend;
    std::unique_ptr<JobRun> m_run;
    int m_jobs = 0;

    /// Stores `job` (QUEUED, under a fresh ID) and makes its run and driver as the scheduler's createRun() does.
    /// *error: JobDriver::create()'s.
    JobRun* drive(Job job, std::optional<BatchPlan> plan = std::nullopt, QString* error = nullptr)
    {
        job.jobId = QStringLiteral("job_%1").arg(++m_jobs);
        job.state = JobState::Queued;
        QString storeError;
        if (!m_store.insert(job, &storeError))
            qFatal("%s", qPrintable(storeError));
        m_run = std::make_unique<JobRun>();
        m_run->key = Test::localJob(job.jobId);
        m_run->backend = m_backend.get();
        m_run->folder = JobFolder(m_tmp.path() + QStringLiteral("/jobs/") + job.jobId);
        QDir().mkpath(m_run->folder.path());
        m_run->input = job.trainingInput;
        m_host.job = m_run.get();
        QString ignored;
        m_run->driver = JobDriver::create(
            &m_host, &m_store, m_run.get(), *m_store.job(m_run->key), std::move(plan), error ? error : &ignored);
        m_run->plan = planCluster(m_run->input, MachineCatalog::builtin());
        return m_run.get();
    }

    /// Brings `set` up (admitted, placed, every replica started), as the scheduler and a backend would.
    void bringUp(ReplicaSetRun* set)
    {
        set->setReservation(Reservation { {} });
        set->start(m_run->plan);
        Launch::Placement placement;
        for (int i = 0; i < set->replicaSet().replicas.size(); ++i)
            placement.addresses << Launch::Address { QStringLiteral("node0"), 7000 + i };
        set->placed(placement);
        qint64 pid = 100;
        for (const ReplicaSetRun::Replica& r : set->replicas())
            set->started(r.slot.taskName, pid++, QDateTime());
    }

    /// A model folder, input files and an output folder inside the test's root, and the API's plan for them.
    BatchPlan batchPlan(PredictionInput* in)
    {
        const QString root = m_tmp.path() + QStringLiteral("/batch%1").arg(m_jobs + 1);
        QDir().mkpath(root + QStringLiteral("/model"));
        QFile(root + QStringLiteral("/model/model.joblib")).open(QIODevice::WriteOnly);
        for (int i = 0; i < 3; ++i) {
            QFile f(root + QStringLiteral("/in-%1.json").arg(i));
            f.open(QIODevice::WriteOnly);
            f.write(QByteArray(100 * 1024, 'x'));
        }
        in->dataFormat = QStringLiteral("JSON");
        in->inputPaths = { root + QStringLiteral("/in-*") };
        in->outputPath = root + QStringLiteral("/out");
        in->uri = root + QStringLiteral("/model");
        in->region = QStringLiteral("local");
        BatchModel model;
        model.modelDir = in->uri;
        model.framework = QStringLiteral("SCIKIT_LEARN");
        FieldViolation error;
        const std::optional<BatchPlan> plan = BatchPlan::make(*in, model, 2, QString(), m_host.paths, &error);
        if (!plan)
            qFatal("%s", qPrintable(error.message()));
        return *plan;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        QString error;
        QVERIFY2(m_store.open(m_tmp.filePath(QStringLiteral("jobs.sqlite")), &error), qPrintable(error));
    }

    void init()
    {
        m_host = RecordingHost();
        m_host.store = &m_store;
        m_host.paths = PathPolicy({ m_tmp.path() });
        m_backend = std::make_unique<FakeBackend>();
    }

    void trainingJobIsOneCluster()
    {
        Job job = Test::customJob(QStringLiteral("x"), QStringLiteral("trainer.task"), 1);
        const QString data = m_tmp.filePath(QStringLiteral("train.csv"));
        QFile(data).open(QIODevice::WriteOnly);
        job.trainingInput.args = { QStringLiteral("--train_files=") + data, QStringLiteral("--out=/no/such/dir/x") };
        JobRun* run = drive(job);
        JobDriver* driver = run->driver.get();
        QCOMPARE(driver->runs().size(), size_t(1));
        ReplicaSetRun* cluster = driver->runs().front().get();
        QVERIFY(cluster->trialId().isEmpty());
        QCOMPARE(driver->firstSlots(), 1);
        QVERIFY(driver->entryStands(QString()));
        QVERIFY(!driver->entryStands(QStringLiteral("2")));
        RunId next;
        QCOMPARE(driver->queuedRun(QString(), &next), cluster);
        QVERIFY(driver->setupError().isEmpty());
        QCOMPARE(driver->stagingMode(), JobDriver::StagingMode::Pip);
        QCOMPARE(run->input, job.trainingInput);
        // The sandbox binds what the arguments name inside the roots (written, as the job dir), nothing else.
        const SandboxView view = driver->launchView(*cluster);
        QCOMPARE(view.writable, QStringList { data });
        QVERIFY(view.readable.isEmpty());

        // The master's 0 ends the cluster, and the cluster's end is the job's.
        bringUp(cluster);
        cluster->exited(cluster->replicas().front().slot.taskName, exitedWith(0));
        cluster->stopped();
        QVERIFY(m_host.finished);
        QCOMPARE(m_host.finished->first, JobState::Succeeded);
    }

    void clusterEndsAreTheJobs_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("state");
        QTest::addRow("a permanent failure") << 1 << int(JobState::Failed);
        QTest::addRow("success") << 0 << int(JobState::Succeeded);
    }

    void clusterEndsAreTheJobs()
    {
        QFETCH(int, code);
        QFETCH(int, state);
        JobRun* run = drive(Test::customJob(QStringLiteral("x"), QStringLiteral("trainer.task"), 0));
        ReplicaSetRun* cluster = run->driver->runs().front().get();
        bringUp(cluster);
        cluster->exited(cluster->replicas().front().slot.taskName, exitedWith(code));
        cluster->stopped();
        QVERIFY(m_host.finished);
        QCOMPARE(int(m_host.finished->first), state);

        // A cancel: the run's message is the job's.
        JobRun* cancelled = drive(Test::customJob(QStringLiteral("x"), QStringLiteral("trainer.task"), 0));
        ReplicaSetRun* set = cancelled->driver->runs().front().get();
        bringUp(set);
        set->stop(StopReason::Cancelled, QStringLiteral("asked to"));
        set->stopped();
        QCOMPARE(m_host.finished->first, JobState::Cancelled);
        QCOMPARE(m_host.finished->second, QStringLiteral("asked to"));
    }

    void clusterRecovery()
    {
        JobRun* run = drive(Test::customJob(QStringLiteral("x"), QStringLiteral("trainer.task"), 1));
        JobDriver* driver = run->driver.get();
        Job stored = *m_store.job(run->key);
        QVERIFY(!driver->recoversWhenQueued(stored));
        const QList<ReplicaSetRun*> runs = driver->runsToRecover(stored, {});
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.front(), driver->runs().front().get());
        const JobDriver::RunWords words = driver->words(*runs.front(), JobState::Preparing);
        QCOMPARE(words.was, QStringLiteral("the job was preparing"));
        QCOMPARE(words.whose, QStringLiteral("the job's"));
        QVERIFY(driver->recovered(1).isEmpty());
        // Spent restarts fail the job, with the scheduler's message.
        driver->runExhausted(*runs.front(), QStringLiteral("restarted 3 times, the limit."));
        QVERIFY(m_host.finished);
        QCOMPARE(m_host.finished->first, JobState::Failed);
        QCOMPARE(m_host.finished->second, QStringLiteral("restarted 3 times, the limit. The job failed."));
    }

    void builtInAlgorithmIsALaunchDetail()
    {
        const QString package = BuiltInAlgorithms::packageDir();
        QVERIFY2(!package.isEmpty(), "the build tree holds share/trainyard/algorithms");
        Job job = Test::customJob(QStringLiteral("x"), QStringLiteral("trainer.task"), 0);
        job.trainingInput.packageUris.clear();
        job.trainingInput.pythonModule.clear();
        job.trainingInput.masterConfig = ReplicaConfig {};
        job.trainingInput.masterConfig->imageUri = QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest");
        JobRun* run = drive(job);
        // The bundled package runs as the trainer; the stored job keeps its image.
        QCOMPARE(run->input.packageUris, QStringList { package });
        QCOMPARE(run->input.pythonModule, QStringLiteral("trainyard_algorithms.xgboost"));
        QVERIFY(run->driver->setupError().isEmpty());
        QVERIFY(m_store.job(run->key)->trainingInput.packageUris.isEmpty());
        // A succeeded job without a model folder stores no built-in output.
        run->driver->ending(JobState::Succeeded);
        QVERIFY(!m_store.job(run->key)->trainingOutput.has_value());
    }

    void batchJobRunsThePlanItWasGiven()
    {
        PredictionInput in;
        const BatchPlan plan = batchPlan(&in);
        QCOMPARE(plan.workers, 2);
        Job job;
        job.predictionInput = in;
        job.predictionOutput = PredictionOutput { in.outputPath, {}, {}, {}, {} };
        JobRun* run = drive(job, plan);
        JobDriver* driver = run->driver.get();
        QVERIFY2(driver->setupError().isEmpty(), qPrintable(driver->setupError()));
        QCOMPARE(driver->stagingMode(), JobDriver::StagingMode::CopyBundled);
        // The plan is kept in the job's folder, its progress there too.
        QString error;
        const std::optional<BatchPlan> kept = BatchPlan::read(run->folder.batchPlanFile(), &error);
        QVERIFY2(kept, qPrintable(error));
        QCOMPARE(kept->workers, 2);
        QCOMPARE(kept->stateDir, run->folder.batchDir());
        QCOMPARE(kept->files.size(), 3);
        // Its workers are one cluster: a master and a worker.
        QCOMPARE(run->plan.totalReplicas(), 2);
        // What the workers see: the inputs and the model (read), the output and the batch folder (written, made now).
        ReplicaSetRun* cluster = driver->runs().front().get();
        const SandboxView view = driver->launchView(*cluster);
        QVERIFY(view.writable.contains(in.outputPath));
        QVERIFY(QFileInfo(in.outputPath).isDir());
        QVERIFY(view.readable.contains(in.uri));
        QVERIFY(!view.network);
        QVERIFY(m_backend->adopted.contains(in.outputPath + QStringLiteral(" (exists)")));

        // Progress is stored when it changed, not before.
        driver->poll();
        QCOMPARE(m_host.updates, 0);
        QDir().mkpath(run->folder.batchDir());
        QFile progress(run->folder.batchDir() + QStringLiteral("/progress-0.json"));
        QVERIFY(progress.open(QIODevice::WriteOnly));
        progress.write(QJsonDocument(QJsonObject { { QStringLiteral("predictionCount"), 40 },
                                         { QStringLiteral("errorCount"), 2 }, { QStringLiteral("seconds"), 36.0 } })
                           .toJson());
        progress.close();
        driver->poll();
        QCOMPARE(m_host.updates, 1);
        driver->poll();
        QCOMPARE(m_host.updates, 1);
        const PredictionOutput out = *m_store.job(run->key)->predictionOutput;
        QCOMPARE(out.predictionCount, qint64(40));
        QCOMPARE(out.errorCount, qint64(2));

        // Every worker's 0 is the job's success, not the master's alone.
        bringUp(cluster);
        cluster->exited(cluster->replicas().front().slot.taskName, exitedWith(0));
        QVERIFY(!m_host.finished);
        cluster->exited(cluster->replicas().at(1).slot.taskName, exitedWith(0));
        cluster->stopped();
        QVERIFY(m_host.finished);
        QCOMPARE(m_host.finished->first, JobState::Succeeded);
    }

    void batchJobAfterARestartReadsItsKeptPlan()
    {
        PredictionInput in;
        const BatchPlan plan = batchPlan(&in);
        Job job;
        job.predictionInput = in;
        JobRun* first = drive(job, plan);
        const JobKey key = first->key;
        const JobFolder folder = first->folder;
        const TrainingInput launched = first->input;
        // The executor restarts: the same job, no plan from the API.
        m_run = std::make_unique<JobRun>();
        m_run->key = key;
        m_run->backend = m_backend.get();
        m_run->folder = folder;
        m_host.job = m_run.get();
        QString error;
        m_run->driver = JobDriver::create(&m_host, &m_store, m_run.get(), *m_store.job(key), std::nullopt, &error);
        QVERIFY(error.isEmpty());
        QVERIFY2(m_run->driver->setupError().isEmpty(), qPrintable(m_run->driver->setupError()));
        QCOMPARE(m_run->input, launched);

        // Without the plan file (the executor stopped before it was written), the job fails at prepare, saying so.
        QVERIFY(QFile::remove(folder.batchPlanFile()));
        m_run->driver = JobDriver::create(&m_host, &m_store, m_run.get(), *m_store.job(key), std::nullopt, &error);
        QVERIFY2(
            m_run->driver->setupError().contains(QLatin1String("is missing")), qPrintable(m_run->driver->setupError()));
    }

    void studyMakesATrialOnlyWhenAdmitted()
    {
        Job job = Test::tuningJob(QStringLiteral("t"));
        job.trainingOutput.reset();
        job.trainingInput.jobDir = m_tmp.filePath(QStringLiteral("tuning-dir"));
        job.trainingInput.hyperparameters->maxFailedTrials = 5;
        JobRun* run = drive(job);
        JobDriver* driver = run->driver.get();
        QCOMPARE(driver->firstSlots(), 2);
        QVERIFY(driver->runs().empty());
        RunId next;
        QCOMPARE(driver->queuedRun(QString(), &next), nullptr);
        QCOMPARE(next.trialId, QStringLiteral("1"));
        QVERIFY(!driver->entryStands(QStringLiteral("1")));
        // Admitted: its values are chosen and recorded now.
        ReplicaSetRun* trial = driver->makeRun(next);
        QVERIFY(trial);
        QCOMPARE(trial->trialId(), QStringLiteral("1"));
        QVERIFY(driver->entryStands(QStringLiteral("1")));
        const Job stored = *m_store.job(run->key);
        QVERIFY(stored.trainingOutput && stored.trainingOutput->isHyperparameterTuningJob);
        QCOMPARE(stored.trainingOutput->trials.size(), 1);
        QCOMPARE(stored.trainingOutput->trials.front().state, JobState::Preparing);
        QCOMPARE(stored.trainingOutput->trials.front().hyperparameters.size(), 4);
        const JobDriver::RunWords words = driver->words(*trial, JobState::Running);
        QCOMPARE(words.was, QStringLiteral("trial 1 was running"));
        QCOMPARE(words.whose, QStringLiteral("the trial's"));

        // Staged: more trials are queued, up to maxParallelTrials.
        run->phase = JobRun::Phase::Starting;
        bringUp(trial);
        driver->staged();
        QCOMPARE(m_host.queuedFor(run->key, true), 1);
        // The trial ends well but never reported the metric: it failed, and the study goes on.
        trial->exited(trial->replicas().front().slot.taskName, exitedWith(0));
        trial->stopped();
        QVERIFY(!m_host.finished);
        const HyperparameterOutput t = m_store.job(run->key)->trainingOutput->trials.front();
        QCOMPARE(t.state, JobState::Failed);
        QVERIFY(m_host.soon > 0);

        // A cancel: the job's entries go, and with no trial running the job ends.
        run->cancelRequested = true;
        driver->cancelling();
        QVERIFY(m_host.queue.isEmpty());
        QVERIFY(m_host.finished);
        QCOMPARE(m_host.finished->first, JobState::Cancelled);
    }

    void studyRecoversItsTrials()
    {
        Job job = Test::tuningJob(QStringLiteral("t"));
        job.trainingOutput.reset();
        JobRun* run = drive(job);
        const JobKey key = run->key;
        for (int i = 0; i < 2; ++i) {
            RunId next;
            run->driver->queuedRun(QString(), &next);
            QVERIFY(run->driver->makeRun(next));
        }
        // Trial 1 ended before the restart; trial 2 was running.
        m_host.updateJob(key, [](Job& j) {
            for (HyperparameterOutput& t : j.trainingOutput->trials) {
                if (t.trialId == QLatin1String("1"))
                    t.state = JobState::Succeeded;
            }
        });
        const Job stored = *m_store.job(key);
        m_run = std::make_unique<JobRun>();
        m_run->key = key;
        m_run->backend = m_backend.get();
        m_run->folder = JobFolder(m_tmp.path() + QStringLiteral("/jobs/") + key.jobId);
        m_host.job = m_run.get();
        QString error;
        m_run->driver = JobDriver::create(&m_host, &m_store, m_run.get(), stored, std::nullopt, &error);
        JobDriver* driver = m_run->driver.get();
        QVERIFY(driver->recoversWhenQueued(stored));
        m_backend->calls.clear();
        const QList<ReplicaSetRun*> live = driver->runsToRecover(stored, { QStringLiteral("1"), QStringLiteral("7") });
        // Both trials are runs again; only the running one is recovered. What the ended trial and a trial folder
        // without a record left is reclaimed, and the study's own (it runs no set of its own).
        QCOMPARE(driver->runs().size(), size_t(2));
        QCOMPARE(live.size(), 1);
        QCOMPARE(live.front()->trialId(), QStringLiteral("2"));
        QVERIFY(m_backend->calls.contains(QStringLiteral("reclaim ") + key.jobId));
        QVERIFY(m_backend->calls.contains(QStringLiteral("reclaim ") + key.jobId + QStringLiteral("/1")));
        QVERIFY(m_backend->calls.contains(QStringLiteral("reclaim ") + key.jobId + QStringLiteral("/7")));
        // Spent restarts fail the trial, not the job; a slot is queued for the next trial.
        live.front()->markDone();
        driver->runExhausted(*live.front(), QStringLiteral("its cluster was already restarted 3 times, the limit."));
        QCOMPARE(m_store.job(key)->trainingOutput->trials.size(), 2);
        for (const HyperparameterOutput& t : m_store.job(key)->trainingOutput->trials) {
            if (t.trialId == QLatin1String("2"))
                QCOMPARE(t.state, JobState::Failed);
        }
        QCOMPARE(driver->recovered(0), (QStringList { QString(), QString() }));
        QVERIFY(!m_host.finished);
    }

    void aSpecThatCannotBeSearchedIsNotDriven()
    {
        Job job = Test::tuningJob(QStringLiteral("t"));
        job.trainingInput.hyperparameters->params.clear();
        QString error;
        JobRun* run = drive(job, std::nullopt, &error);
        QVERIFY2(error.startsWith(QLatin1String("The hyperparameter spec cannot be searched: ")), qPrintable(error));
        QVERIFY(run->driver);
        QVERIFY(run->driver->runs().empty());
        QVERIFY(!run->driver->entryStands(QString()));
    }
};

QTEST_GUILESS_MAIN(TestJobDrivers)
#include "tst_jobdrivers.moc"
