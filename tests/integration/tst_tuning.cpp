// SPDX-License-Identifier: GPL-2.0-or-later
// Hyperparameter tuning jobs end to end in process (Scheduler + JobStore + LogStore, no HTTP), with the real
// test trainer tytest.objective as each trial: trials as replica-set runs with their own arguments and
// contract, GRID_SEARCH enumeration and stop, trainingOutput (trials best first, completedTrialCount),
// maxParallelTrials, maxFailedTrials and the rule for 0, trials that never report the metric or report
// garbage, the median stopping rule, cancel mid-study, an executor restart mid-study, and resuming a study.
#include "executorenvironment.h"
#include "jobkeys.h"
#include "jobstore.h"
#include "logstore.h"
#include "metricscollector.h"
#include "metricsstore.h"
#include "processgroup.h"
#include "scheduler.h"
#include "statenames.h"
#include "tuningjobs.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Trainyard;

namespace {

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
constexpr int StudyTimeoutMs = 120000;

} // namespace

class TestTuning : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_dataDir;
    std::unique_ptr<JobStore> m_store;
    std::unique_ptr<LogStore> m_logs;
    std::unique_ptr<MetricsStore> m_metrics;
    std::unique_ptr<Scheduler> m_scheduler;
    std::unique_ptr<MetricsCollector> m_collector;

    void startScheduler()
    {
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), Test::bigHost(), m_dataDir);
        m_scheduler->setGracePeriodSeconds(3);
        m_collector = std::make_unique<MetricsCollector>(
            m_metrics.get(), m_store.get(), m_logs.get(), m_scheduler.get(), m_dataDir, false);
        m_collector->setInterval(200);
        m_collector->start();
    }

    void stopScheduler()
    {
        m_collector->shutdown();
        m_collector.reset();
        m_scheduler->shutdown();
        m_scheduler.reset();
    }

    QString jobDir(const QString& id) const { return m_tmp.path() + QStringLiteral("/jobdirs/") + id; }

    /// A single-replica tuning job of tytest.objective (importable through PYTHONPATH: no staging).
    Job tuningJob(const QString& id, const HyperparameterSpec& spec, const QStringList& args = {}) const
    {
        Job job = Test::customJob(id, QStringLiteral("tytest.objective"));
        TrainingInput& in = job.trainingInput;
        in.runtimeVersion = QStringLiteral("2.11");
        in.pythonVersion = QStringLiteral("3.7");
        in.jobDir = jobDir(id);
        in.args = args;
        in.hyperparameters = spec;
        return job;
    }

    static HyperparameterSpec spec(const QList<ParameterSpec>& params, int maxTrials, int parallel,
        const QString& algorithm = QString(), const QString& goal = QStringLiteral("MAXIMIZE"))
    {
        HyperparameterSpec s;
        s.goal = goal;
        s.params = params;
        s.maxTrials = maxTrials;
        s.maxParallelTrials = parallel;
        s.algorithm = algorithm;
        s.hyperparameterMetricTag = QStringLiteral("score");
        return s;
    }

    void submit(const Job& job)
    {
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        m_scheduler->submit(JobStore::defaultProject(), *m_store->job(Test::localJob(job.jobId)));
    }

    Job stored(const QString& id) const { return m_store->job(Test::localJob(id)).value_or(Job()); }
    JobState state(const QString& id) const { return stored(id).state; }

    QList<HyperparameterOutput> trials(const QString& id) const
    {
        const Job job = stored(id);
        return job.trainingOutput ? job.trainingOutput->trials : QList<HyperparameterOutput>();
    }

    HyperparameterOutput trial(const QString& id, const QString& trialId) const
    {
        for (const HyperparameterOutput& t : trials(id)) {
            if (t.trialId == trialId)
                return t;
        }
        return {};
    }

    QStringList serviceLines(const QString& id) const
    {
        QStringList list;
        for (const LogEntry& e : m_logs->read(Test::localJob(id), QStringLiteral("service"), QString(), 0, 100000))
            list << e.message;
        return list;
    }

    /// The trials' runs as the trainer logged them: trial ID → argv of each run.
    QMap<QString, QList<QStringList>> runs(const QString& id) const
    {
        QMap<QString, QList<QStringList>> map;
        QFile f(jobDir(id) + QStringLiteral("/runs.log"));
        if (!f.open(QIODevice::ReadOnly))
            return map;
        for (const QByteArray& line : f.readAll().split('\n')) {
            const qsizetype space = line.indexOf(' ');
            if (space < 0)
                continue;
            QStringList argv;
            for (const QJsonValue& v : QJsonDocument::fromJson(line.mid(space + 1)).array())
                argv << v.toString();
            map[QString::fromUtf8(line.left(space))].append(argv);
        }
        return map;
    }

    /// No process of the job (or of any of its trials) is left.
    bool nothingLeft(const QString& id) const
    {
        const QString folder = Test::localJob(id).folder(m_dataDir);
        if (!jobProcesses(folder).isEmpty())
            return false;
        for (const QString& t : QDir(folder + QStringLiteral("/trials")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (!jobProcesses(folder + QStringLiteral("/trials/") + t).isEmpty())
                return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_tmp.path() + QStringLiteral("/run")));
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_tmp.path() + QStringLiteral("/data")));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.path() + QStringLiteral("/config")));
        // The jobs have no packageUris: the trainer is importable as it is.
        qputenv("PYTHONPATH", QFile::encodeName(TrainerDir));
        m_dataDir = m_tmp.path() + QStringLiteral("/data/trainyard");
        QVERIFY(QDir().mkpath(m_dataDir));
        m_store = std::make_unique<JobStore>();
        QString error;
        QVERIFY2(m_store->open(m_dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        m_logs = std::make_unique<LogStore>(m_dataDir);
        m_metrics = std::make_unique<MetricsStore>();
        QVERIFY2(m_metrics->open(m_dataDir + QStringLiteral("/metrics.sqlite"), &error), qPrintable(error));
    }

    void init() { startScheduler(); }

    void cleanup()
    {
        if (m_scheduler) {
            for (const StoredJob& stored : m_store->liveJobs())
                m_scheduler->cancel(stored.key());
            QTRY_VERIFY_WITH_TIMEOUT(m_store->liveJobs().isEmpty(), 30000);
            stopScheduler();
        }
    }

    void cleanupTestCase()
    {
        m_collector.reset();
        m_scheduler.reset();
        m_metrics.reset();
        m_logs.reset();
        m_store.reset();
    }

    /// GRID_SEARCH tries every combination once and stops at the grid's size although maxTrials is larger;
    /// each trial gets the job's args, then --name=value, then --job-dir, and its own contract.
    void gridSearch()
    {
        const QString id = QStringLiteral("grid");
        submit(tuningJob(id,
            spec({ Test::integerParameter(QStringLiteral("n"), 2, 4), Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b") }) }, 10, 2,
                QStringLiteral("GRID_SEARCH")),
            { QStringLiteral("--steps"), QStringLiteral("2") }));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, StudyTimeoutMs);
        const Job job = stored(id);
        QVERIFY(job.trainingOutput);
        QCOMPARE(job.trainingOutput->isHyperparameterTuningJob, std::optional<bool>(true));
        QCOMPARE(job.trainingOutput->hyperparameterMetricTag, QStringLiteral("score"));
        QCOMPARE(job.trainingOutput->completedTrialCount, std::optional<qint64>(6));
        const QList<HyperparameterOutput> list = job.trainingOutput->trials;
        QCOMPARE(list.size(), 6);
        QSet<QString> ids;
        QSet<QString> points;
        for (const HyperparameterOutput& t : list) {
            ids.insert(t.trialId);
            points.insert(t.hyperparameters.value(QStringLiteral("n")) + QLatin1Char('/') + t.hyperparameters.value(QStringLiteral("opt")));
            QCOMPARE(t.state, JobState::Succeeded);
            QVERIFY(t.finalMetric && t.finalMetric->objectiveValue);
            QCOMPARE(t.finalMetric->trainingStep, std::optional<qint64>(2));
            QCOMPARE(t.allMetrics.size(), 2);
            QVERIFY(!t.startTime.isEmpty() && !t.endTime.isEmpty());
        }
        QCOMPARE(ids, (QSet<QString> { QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("4"), QStringLiteral("5"), QStringLiteral("6") }));
        QCOMPARE(points.size(), 6);
        // Best first: n=3, opt=a has f = 1 - 0.09 = 0.91.
        QCOMPARE(list.first().hyperparameters.value(QStringLiteral("n")), QStringLiteral("3"));
        QCOMPARE(list.first().hyperparameters.value(QStringLiteral("opt")), QStringLiteral("a"));
        QVERIFY(qAbs(*list.first().finalMetric->objectiveValue - 0.91) < 1e-9);
        for (qsizetype i = 1; i < list.size(); ++i)
            QVERIFY(*list.at(i - 1).finalMetric->objectiveValue >= *list.at(i).finalMetric->objectiveValue);

        // The trial's command line: the job's args, its values in the spec's order, the job dir unchanged.
        const QMap<QString, QList<QStringList>> r = runs(id);
        QCOMPARE(r.size(), 6);
        const HyperparameterOutput one = trial(id, QStringLiteral("1"));
        QCOMPARE(r.value(QStringLiteral("1")).size(), 1);
        QCOMPARE(r.value(QStringLiteral("1")).first(),
            (QStringList { QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--n=") + one.hyperparameters.value(QStringLiteral("n")),
                QStringLiteral("--opt=") + one.hyperparameters.value(QStringLiteral("opt")), QStringLiteral("--job-dir"), jobDir(id) }));
        // The trial's own log lines carry its trial ID.
        bool trialLines = false;
        for (const LogEntry& e :
            m_logs->read(Test::localJob(id), QStringLiteral("master-replica-0"), QStringLiteral("4"), 0, 1000))
            trialLines |= e.trialId == QLatin1String("4") && e.message.startsWith(QLatin1String("step 2 score="));
        QVERIFY(trialLines);
        // The logs API's trialId filter: that trial's replica output and the executor's lines about it.
        const QList<QByteArray> lines = LogStore::readLines(
            m_logs->prepareRead(Test::localJob(id), LogQuery { {}, {}, {}, 0, 100000, QStringLiteral("4") }));
        QVERIFY(!lines.isEmpty());
        bool running = false;
        for (const QByteArray& line : lines) {
            const std::optional<LogEntry> e = LogEntry::fromJsonLine(line);
            QVERIFY(e);
            QCOMPARE(e->trialId, QStringLiteral("4"));
            running |= e->taskName == QLatin1String("service") && e->message == QLatin1String("Trial 4 is running.");
        }
        QVERIFY(running);
        QVERIFY(nothingLeft(id));
        // Each trial's reports are a series of their own, named by trial, for the console's Metrics tab.
        QMap<QString, qint64> series;
        QTRY_COMPARE(m_metrics->series(Test::localJob(id)).size() >= 6, true);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                series.clear();
                for (const MetricSeriesInfo& info : m_metrics->series(Test::localJob(id))) {
                    if (info.key.kind == QLatin1String("hypertune"))
                        series.insert(info.name, info.pointCount);
                }
                return series.size() == 6 && std::all_of(series.cbegin(), series.cend(), [](qint64 n) { return n == 2; });
            }(),
            10000);
        QVERIFY2(series.contains(QStringLiteral("hypertune/master-replica-0@4/score")), qPrintable(series.keys().join(QLatin1Char(' '))));
    }

    /// Bayesian optimisation (ALGORITHM_UNSPECIFIED): trial 1 at the centre of the space, parallel trials with
    /// different values, and the job SUCCEEDED.
    void bayesianStudy()
    {
        const QString id = QStringLiteral("bayes");
        submit(tuningJob(id, spec({ Test::doubleParameter(QStringLiteral("x"), 0, 1), Test::integerParameter(QStringLiteral("n"), 0, 6) }, 5, 2)));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, StudyTimeoutMs);
        const QList<HyperparameterOutput> list = trials(id);
        QCOMPARE(list.size(), 5);
        const HyperparameterOutput one = trial(id, QStringLiteral("1"));
        QCOMPARE(one.hyperparameters.value(QStringLiteral("x")), QStringLiteral("0.5"));
        QCOMPARE(one.hyperparameters.value(QStringLiteral("n")), QStringLiteral("3"));
        QSet<QString> points;
        for (const HyperparameterOutput& t : list)
            points.insert(t.hyperparameters.value(QStringLiteral("x")) + QLatin1Char('/') + t.hyperparameters.value(QStringLiteral("n")));
        QCOMPARE(points.size(), 5);
    }

    /// maxFailedTrials: reaching it cancels the running trials and fails the job with a message naming the
    /// count and the last trial's error.
    void maxFailedTrials()
    {
        const QString id = QStringLiteral("maxfailed");
        HyperparameterSpec s = spec({ Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }) }, 3, 1,
            QStringLiteral("GRID_SEARCH"));
        s.maxFailedTrials = 1;
        submit(tuningJob(id, s, { QStringLiteral("--fail-when"), QStringLiteral("opt=b") }));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Failed, StudyTimeoutMs);
        const Job job = stored(id);
        QVERIFY2(job.errorMessage.contains(QLatin1String("1 of the job's trials failed, the limit set by maxFailedTrials (1)")),
            qPrintable(job.errorMessage));
        QVERIFY2(job.errorMessage.contains(QLatin1String("trial 2:")) && job.errorMessage.contains(QLatin1String("status of 3")),
            qPrintable(job.errorMessage));
        QCOMPARE(trial(id, QStringLiteral("1")).state, JobState::Succeeded);
        QCOMPARE(trial(id, QStringLiteral("2")).state, JobState::Failed);
        QCOMPARE(trials(id).size(), 2); // trial 3 never started
        QCOMPARE(job.trainingOutput->completedTrialCount, std::optional<qint64>(1));
        QVERIFY(nothingLeft(id));
    }

    /// maxFailedTrials 0 (the service decides): the first trial to end failing fails the job.
    void firstTrialFailing()
    {
        const QString id = QStringLiteral("firstfails");
        submit(tuningJob(id, spec({ Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b") }) }, 2, 1, QStringLiteral("GRID_SEARCH")),
            { QStringLiteral("--fail-when"), QStringLiteral("opt=a") }));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Failed, StudyTimeoutMs);
        QVERIFY2(stored(id).errorMessage.contains(QLatin1String("The first trial to end (trial 1) failed")),
            qPrintable(stored(id).errorMessage));
        QCOMPARE(trials(id).size(), 1);
    }

    /// A trial that exits 0 without reporting the metric tag (it reports another), or that writes garbage to
    /// its metric file, is a failed trial with a message that says so; only that trial fails.
    void trialWithoutMetric_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addRow("other tag") << QStringList { QStringLiteral("--tag"), QStringLiteral("loss") }
                                   << QStringLiteral("It reported: loss; set hyperparameterMetricTag");
        QTest::addRow("garbage") << QStringList { QStringLiteral("--garbage") }
                                 << QStringLiteral("Its reports had problems: ");
    }
    void trialWithoutMetric()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString id = QStringLiteral("nometric_") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_'));
        HyperparameterSpec s = spec({ Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a") }) }, 1, 1, QStringLiteral("GRID_SEARCH"));
        submit(tuningJob(id, s, args));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Failed, StudyTimeoutMs);
        const HyperparameterOutput one = trial(id, QStringLiteral("1"));
        QCOMPARE(one.state, JobState::Failed);
        QVERIFY(!one.finalMetric);
        bool said = false;
        for (const QString& line : serviceLines(id))
            said |= line.startsWith(QLatin1String("Trial 1 failed: Trial 1 ended without reporting")) && line.contains(message);
        QVERIFY2(said, qPrintable(serviceLines(id).join(QLatin1Char('\n'))));
        if (qstrcmp(QTest::currentDataTag(), "garbage") == 0) {
            bool warned = false;
            for (const QString& line : serviceLines(id))
                warned |= line.startsWith(QLatin1String("Trial 1: ")) && line.contains(QLatin1String("output.metrics:1: not JSON"));
            QVERIFY2(warned, qPrintable(serviceLines(id).join(QLatin1Char('\n'))));
        }
    }

    /// The median stopping rule on scripted curves: opt=c's curve is 1 below a's at every step, so once a and b
    /// completed, c is stopped at its first report; it is SUCCEEDED, isTrialStoppedEarly, keeps its finalMetric.
    void earlyStopping()
    {
        const QString id = QStringLiteral("earlystop");
        HyperparameterSpec s = spec({ Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }) }, 3, 1,
            QStringLiteral("GRID_SEARCH"));
        s.enableTrialEarlyStopping = true;
        // c would take 8 steps of 1 s; stopping it leaves it at its first steps.
        submit(tuningJob(id, s, { QStringLiteral("--steps"), QStringLiteral("8"), QStringLiteral("--step-seconds"), QStringLiteral("0.6") }));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, StudyTimeoutMs);
        const HyperparameterOutput c = trial(id, QStringLiteral("3"));
        QCOMPARE(c.hyperparameters.value(QStringLiteral("opt")), QStringLiteral("c"));
        QCOMPARE(c.state, JobState::Succeeded);
        QCOMPARE(c.isTrialStoppedEarly, std::optional<bool>(true));
        QVERIFY(c.finalMetric && c.finalMetric->trainingStep);
        QVERIFY2(*c.finalMetric->trainingStep < 8, qPrintable(QString::number(*c.finalMetric->trainingStep)));
        QVERIFY(!trial(id, QStringLiteral("1")).isTrialStoppedEarly.value_or(false));
        QCOMPARE(stored(id).trainingOutput->completedTrialCount, std::optional<qint64>(3));
    }

    /// Cancel mid-study: every running trial stops, the job and its trials are CANCELLED, no process is left.
    void cancelMidStudy()
    {
        const QString id = QStringLiteral("cancelstudy");
        submit(tuningJob(id, spec({ Test::doubleParameter(QStringLiteral("x"), 0, 1) }, 6, 2, QStringLiteral("RANDOM_SEARCH")),
            { QStringLiteral("--hold"), QStringLiteral("never") }));
        QTRY_COMPARE_WITH_TIMEOUT(runs(id).size(), 2, StudyTimeoutMs);
        QTRY_COMPARE(trial(id, QStringLiteral("2")).state, JobState::Running);
        QVERIFY(m_scheduler->cancel(Test::localJob(id)));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Cancelled, 30000);
        QCOMPARE(trials(id).size(), 2);
        for (const HyperparameterOutput& t : trials(id))
            QCOMPARE(t.state, JobState::Cancelled);
        QVERIFY(nothingLeft(id));
        QCOMPARE(m_scheduler->usage().vcpusInUse, 0);
    }

    /// The executor goes away mid-study (its replicas die with it) and starts again: ended trials stay as they
    /// were, the running trial restarts with its own values, later trials continue the numbering; no trial is
    /// lost and none that ended runs again.
    void restartMidStudy()
    {
        const QString id = QStringLiteral("restartstudy");
        submit(tuningJob(id, spec({ Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }) }, 3, 1,
            QStringLiteral("GRID_SEARCH")), { QStringLiteral("--hold"), QStringLiteral("release-{trial}") }));
        // Each trial holds before its last report until released: release trial 1, then stop at trial 2.
        QTRY_COMPARE_WITH_TIMEOUT(runs(id).size(), 1, StudyTimeoutMs);
        auto release = [&](const char* trialId) {
            QFile f(jobDir(id) + QStringLiteral("/release-") + QLatin1String(trialId));
            return f.open(QIODevice::WriteOnly);
        };
        QVERIFY(release("1"));
        QTRY_COMPARE_WITH_TIMEOUT(trial(id, QStringLiteral("1")).state, JobState::Succeeded, StudyTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(runs(id).size(), 2, StudyTimeoutMs);
        QTRY_COMPARE(trial(id, QStringLiteral("2")).state, JobState::Running);
        const HyperparameterOutput twoBefore = trial(id, QStringLiteral("2"));

        stopScheduler();
        QTRY_VERIFY(nothingLeft(id));
        QCOMPARE(state(id), JobState::Running);

        startScheduler();
        m_scheduler->recover();
        QTRY_COMPARE_WITH_TIMEOUT(runs(id).value(QStringLiteral("2")).size(), 2, StudyTimeoutMs);
        QVERIFY(release("2"));
        QVERIFY(release("3"));
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, StudyTimeoutMs);
        const QMap<QString, QList<QStringList>> r = runs(id);
        QCOMPARE(r.keys(), (QStringList { QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3") }));
        QCOMPARE(r.value(QStringLiteral("1")).size(), 1); // ended before: not run again
        QCOMPARE(r.value(QStringLiteral("2")).size(), 2); // running: restarted once, same values
        QCOMPARE(r.value(QStringLiteral("2")).at(0), r.value(QStringLiteral("2")).at(1));
        QCOMPARE(r.value(QStringLiteral("3")).size(), 1);
        QCOMPARE(trial(id, QStringLiteral("2")).hyperparameters, twoBefore.hyperparameters);
        QCOMPARE(trial(id, QStringLiteral("2")).startTime, twoBefore.startTime);
        QCOMPARE(stored(id).trainingOutput->completedTrialCount, std::optional<qint64>(3));
        bool said = false;
        for (const QString& line : serviceLines(id))
            said |= line.startsWith(QLatin1String("The executor restarted while trial 2 was running; restarting it (restart 1 of 3)."));
        QVERIFY(said);
    }

    /// The executor died after a queued tuning job's first trial was chosen and recorded, before the job moved
    /// on: recovery runs that trial with its recorded values and gives the next trial the next ID.
    void recoverQueuedWithTrial()
    {
        const QString id = QStringLiteral("queuedtrial");
        Job job = tuningJob(id,
            spec({ Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b") }) }, 2,
                1, QStringLiteral("GRID_SEARCH")));
        HyperparameterOutput one;
        one.trialId = QStringLiteral("1");
        one.hyperparameters.insert(QStringLiteral("opt"), QStringLiteral("b")); // not the grid's first point
        one.state = JobState::Preparing;
        one.startTime = QStringLiteral("2026-11-24T00:00:00.000Z");
        TrainingOutput out;
        out.isHyperparameterTuningJob = true;
        out.trials = { one };
        job.trainingOutput = out;
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        m_scheduler->recover();
        QTRY_COMPARE_WITH_TIMEOUT(state(id), JobState::Succeeded, StudyTimeoutMs);
        const QMap<QString, QList<QStringList>> r = runs(id);
        QCOMPARE(r.keys(), (QStringList { QStringLiteral("1"), QStringLiteral("2") }));
        QVERIFY(r.value(QStringLiteral("1")).first().contains(QStringLiteral("--opt=b")));
        QVERIFY(r.value(QStringLiteral("2")).first().contains(QStringLiteral("--opt=a")));
        QCOMPARE(trials(id).size(), 2);
    }

    /// resumePreviousJobId: the previous job's trials are prior observations (a grid goes on where it stopped),
    /// trial IDs continue after its last one, and maxTrials more run.
    void resumeStudy()
    {
        const QString first = QStringLiteral("resume_a");
        const HyperparameterSpec s
            = spec({ Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }) }, 2, 1, QStringLiteral("GRID_SEARCH"));
        submit(tuningJob(first, s));
        QTRY_COMPARE_WITH_TIMEOUT(state(first), JobState::Succeeded, StudyTimeoutMs);
        QCOMPARE(trials(first).size(), 2);

        const QString second = QStringLiteral("resume_b");
        HyperparameterSpec resumed = s;
        resumed.resumePreviousJobId = first;
        submit(tuningJob(second, resumed));
        QTRY_COMPARE_WITH_TIMEOUT(state(second), JobState::Succeeded, StudyTimeoutMs);
        // The grid had one point left: trial 3 takes it, and the study ends there.
        const QList<HyperparameterOutput> list = trials(second);
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().trialId, QStringLiteral("3"));
        QSet<QString> tried;
        for (const HyperparameterOutput& t : trials(first) + list)
            tried.insert(t.hyperparameters.value(QStringLiteral("opt")));
        QCOMPARE(tried, (QSet<QString> { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") }));
    }
};

QTEST_GUILESS_MAIN(TestTuning)
#include "tst_tuning.moc"
