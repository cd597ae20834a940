// SPDX-License-Identifier: GPL-2.0-or-later
// Metrics collection end to end: the real trainyard-executor (isolated in temporary XDG folders) runs the
// test trainer tytest.metrics, which writes event files (one record with a broken CRC), hypertune reports
// and burns a little CPU. Checked through the API (ApiClient) while it runs, across an executor restart
// that restarts the trainer "from a checkpoint" (TensorBoard's restart rule, no duplicates from re-read
// files or rewritten hypertune files), after a second restart when the job is final, and through
// `trainyardctl jobs metrics`.
#include "apiclient.h"
#include "executorprocess.h"
#include "statenames.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <unistd.h>

using namespace Trainyard;

namespace {
const QString JobId = QStringLiteral("metrics_job");
const QString Loss = QStringLiteral("scalar/./train/loss");
const QString EvalAccuracy = QStringLiteral("scalar/eval/accuracy");
const QString Hypertune = QStringLiteral("hypertune/master-replica-0/accuracy");
const QString Rss = QStringLiteral("resource/master-replica-0/rss_bytes");
const QString Cpu = QStringLiteral("resource/master-replica-0/cpu_percent");
constexpr double Base = 1700000000.0;

double float32(double v)
{
    return double(float(v));
}
} // namespace

class TestMetricsApi : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    Trainyard::Test::ExecutorProcess m_executor { m_root.path() };
    std::unique_ptr<ApiClient> m_client;

    QString path(const QString& rel) const { return m_root.filePath(rel); }
    QString jobDir() const { return path(QStringLiteral("jobs/") + JobId); }

    QProcessEnvironment isolatedEnvironment() const { return m_executor.environment(); }

    /// Starts the executor binary and connects a client to it (callers return when QTest::currentTestFailed()).
    void startExecutor()
    {
        QString error;
        QVERIFY2(m_executor.start(&error), qPrintable(error));
        m_client = std::make_unique<ApiClient>(m_executor.url(), m_executor.token());
    }

    /// SIGTERM; true when it exited by itself with status 0 within 60 s.
    bool stopExecutor()
    {
        m_client.reset();
        return m_executor.stop();
    }

    QList<SeriesInfo> series()
    {
        const ApiResult<QList<SeriesInfo>> r = m_client->metricSeriesBlocking(JobId);
        return r.ok() ? r.value : QList<SeriesInfo> {};
    }

    qint64 pointCount(const QString& name)
    {
        for (const SeriesInfo& s : series()) {
            if (s.name == name)
                return s.pointCount;
        }
        return -1;
    }

    QList<SeriesPoint> points(const QString& name)
    {
        const ApiResult<SeriesPage> r = m_client->metricPointsBlocking(JobId, name);
        return r.ok() ? r.value.points : QList<SeriesPoint> {};
    }

    JobState state()
    {
        const ApiResult<Job> r = m_client->getJobBlocking(JobId);
        return r.ok() ? r.value.state : JobState::StateUnspecified;
    }

    int crcWarnings()
    {
        int count = 0;
        QString token;
        do {
            const ApiResult<LogPage> page = m_client->logsBlocking(JobId, QStringLiteral("service"), {}, 10000, token);
            if (!page.ok())
                return -1;
            for (const LogEntry& l : page.value.entries) {
                if (l.severity == QLatin1String("WARNING") && l.message.startsWith(QLatin1String("Metrics: "))
                    && l.message.contains(QLatin1String("CRC-32C of the data does not match")))
                    ++count;
            }
            token = page.value.nextPageToken;
        } while (!token.isEmpty());
        return count;
    }

    /// Steps of a resource series are sample numbers: 0, 1, 2 … without gaps or repeats.
    void verifySampleSteps(const QString& name)
    {
        const QList<SeriesPoint> list = points(name);
        QVERIFY(!list.isEmpty());
        for (qsizetype i = 0; i < list.size(); ++i)
            QCOMPARE(list.at(i).step, qint64(i));
    }

    QByteArray runCtl(const QStringList& args, int* exitCode)
    {
        QProcess ctl;
        ctl.setProcessEnvironment(isolatedEnvironment());
        ctl.start(QStringLiteral(TRAINYARD_CTL_BIN), args);
        if (!ctl.waitForFinished(60000))
            return {};
        *exitCode = ctl.exitStatus() == QProcess::NormalExit ? ctl.exitCode() : -1;
        return ctl.readAllStandardOutput();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char* d : { "run", "data", "config", "jobs" })
            QVERIFY(QDir().mkpath(path(QLatin1String(d))));
        QFile::setPermissions(
            path(QStringLiteral("run")), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        startExecutor();
        if (QTest::currentTestFailed())
            return;
    }

    void cleanupTestCase()
    {
        if (m_executor.running()) {
            QFile release(jobDir() + QStringLiteral("/release2"));
            if (release.open(QIODevice::WriteOnly))
                release.close();
            stopExecutor();
        }
    }

    void whileRunning()
    {
        Job job;
        job.jobId = JobId;
        job.trainingInput.scaleTier = QStringLiteral("BASIC");
        job.trainingInput.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest") };
        job.trainingInput.pythonModule = QStringLiteral("tytest.metrics");
        job.trainingInput.region = QStringLiteral("us-central1");
        job.trainingInput.jobDir = jobDir();
        // An event file outside the job dir, reached by a symlink and by a hard link from inside it: neither is
        // read (API.md, "Metrics"), so no series of runs "leak" or "hardleak" may appear.
        const QString outside = path(QStringLiteral("outside/events.out.tfevents.1795317519.vm.24511.0"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("outside"))));
        QVERIFY(QFile::copy(
            QStringLiteral(TRAINYARD_FIXTURES_DIR "/tfevents/torch_run/events.out.tfevents.1795317519.vm.24511.0"),
            outside));
        QVERIFY(QDir().mkpath(jobDir() + QStringLiteral("/leak")));
        QVERIFY(QDir().mkpath(jobDir() + QStringLiteral("/hardleak")));
        QVERIFY(QFile::link(outside, jobDir() + QStringLiteral("/leak/events.out.tfevents.1.symlink")));
        QCOMPARE(::link(QFile::encodeName(outside).constData(),
                     QFile::encodeName(jobDir() + QStringLiteral("/hardleak/events.out.tfevents.2.hard")).constData()),
            0);
        const ApiResult<Job> created = m_client->createJobBlocking(job);
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));

        // A stream opened before anything was collected sees the series appear and their points arrive.
        std::unique_ptr<ApiStream> stream(m_client->followMetrics(JobId));
        QStringList announced;
        QHash<QString, QList<SeriesPoint>> streamed;
        connect(stream.get(), &ApiStream::metricSeriesAdded, this,
            [&announced](const SeriesInfo& s) { announced.append(s.name); });
        connect(stream.get(), &ApiStream::metricPoints, this,
            [&streamed](const QString& name, const QList<SeriesPoint>& list) { streamed[name] += list; });

        QTRY_COMPARE_WITH_TIMEOUT(pointCount(Loss), qint64(10), 40000);
        QTRY_COMPARE_WITH_TIMEOUT(pointCount(EvalAccuracy), qint64(2), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(pointCount(Hypertune), qint64(2), 10000);
        // Two samples at least: the first CPU sample needs an interval.
        QTRY_VERIFY_WITH_TIMEOUT(pointCount(Cpu) >= 2, 10000);
        QVERIFY(pointCount(Rss) >= 2);
        QCOMPARE(state(), JobState::Running);

        const QList<SeriesInfo> all = series();
        for (const SeriesInfo& s : all)
            QVERIFY2(!s.run.startsWith(QLatin1String("leak")) && !s.run.startsWith(QLatin1String("hardleak")),
                qPrintable(s.name));
        const auto find = [&](const QString& name) {
            return *std::find_if(all.cbegin(), all.cend(), [&](const SeriesInfo& s) { return s.name == name; });
        };
        QCOMPARE(find(Loss).kind, QStringLiteral("scalar"));
        QCOMPARE(find(Loss).run, QStringLiteral("."));
        QCOMPARE(find(Loss).tag, QStringLiteral("train/loss"));
        QCOMPARE(find(EvalAccuracy).run, QStringLiteral("eval"));
        QCOMPARE(find(EvalAccuracy).tag, QStringLiteral("accuracy"));
        QCOMPARE(find(Hypertune).kind, QStringLiteral("hypertune"));
        QCOMPARE(find(Hypertune).taskName, QStringLiteral("master-replica-0"));
        QCOMPARE(find(Hypertune).trialId, QStringLiteral("0"));
        QCOMPARE(find(Cpu).kind, QStringLiteral("resource"));
        QCOMPARE(find(Cpu).taskName, QStringLiteral("master-replica-0"));

        // The damaged record (step 3, value 99) is skipped; everything around it is there.
        const QList<SeriesPoint> loss = points(Loss);
        QCOMPARE(loss.size(), 10);
        for (int step = 1; step <= 10; ++step) {
            QCOMPARE(loss.at(step - 1).step, qint64(step));
            QCOMPARE(loss.at(step - 1).value, float32(1.0 / step));
            QCOMPARE(loss.at(step - 1).wallTime, Base + step);
        }
        QTRY_COMPARE_WITH_TIMEOUT(crcWarnings(), 1, 10000);
        const QList<SeriesPoint> hp = points(Hypertune);
        QCOMPARE(hp.size(), 2);
        QCOMPARE(hp.at(0).step, qint64(5));
        QCOMPARE(hp.at(0).value, 0.5);
        QCOMPARE(hp.at(0).wallTime, Base + 5);
        QCOMPARE(hp.at(1).step, qint64(10));
        QCOMPARE(hp.at(1).value, 0.75);
        for (const SeriesPoint& p : points(Rss))
            QVERIFY(p.value > 0);
        for (const SeriesPoint& p : points(Cpu))
            QVERIFY(p.value >= 0);
        verifySampleSteps(Rss);

        // Paging and the seq cursor.
        const ApiResult<SeriesPage> first = [&] {
            ApiResult<SeriesPage> r;
            QEventLoop loop;
            m_client->metricPoints(JobId, Loss, 0, 4, {}, &loop, [&](const SeriesPage& page, const ApiError& e) {
                r.value = page;
                r.error = e;
                loop.quit();
            });
            loop.exec();
            return r;
        }();
        QVERIFY(first.ok());
        QCOMPARE(first.value.points.size(), 4);
        QVERIFY(!first.value.nextPageToken.isEmpty());
        const ApiResult<SeriesPage> rest = m_client->metricPointsBlocking(JobId, Loss, first.value.lastSeq);
        QVERIFY(rest.ok());
        QCOMPARE(rest.value.points.size(), 6);
        QCOMPARE(rest.value.points.first().step, qint64(5));
        QVERIFY(m_client->metricPointsBlocking(JobId, Loss, rest.value.lastSeq).value.points.isEmpty());

        // Errors.
        const ApiResult<SeriesPage> unknown = m_client->metricPointsBlocking(JobId, QStringLiteral("scalar/./nope"));
        QCOMPARE(unknown.error.httpStatus, 404);
        QCOMPARE(unknown.error.status, QStringLiteral("NOT_FOUND"));
        QCOMPARE(m_client->metricSeriesBlocking(QStringLiteral("no_such_job")).error.httpStatus, 404);

        // The stream saw the same.
        QTRY_COMPARE_WITH_TIMEOUT(streamed.value(Loss).size(), 10, 10000);
        QCOMPARE(streamed.value(Loss), loss);
        QCOMPARE(streamed.value(Hypertune), hp);
        for (const QString& name : { Loss, EvalAccuracy, Hypertune, Rss, Cpu })
            QVERIFY2(announced.contains(name), qPrintable(name));
        QVERIFY(!stream->isFinished());
    }

    void acrossExecutorRestart()
    {
        const qsizetype rssBefore = points(Rss).size();
        QVERIFY(stopExecutor());
        startExecutor();
        if (QTest::currentTestFailed())
            return;
        // The restarted executor restarts the job; the trainer "resumes from step 5".
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(jobDir() + QStringLiteral("/second-run-done")), 40000);
        QTRY_COMPARE_WITH_TIMEOUT(pointCount(Hypertune), qint64(3), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(points(Loss).value(11).step, qint64(12), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(points(Rss).size() > rssBefore, 10000);

        std::unique_ptr<ApiStream> stream(m_client->followMetrics(JobId, Loss));
        QSignalSpy ended(stream.get(), &ApiStream::ended);
        QFile release(jobDir() + QStringLiteral("/release2"));
        QVERIFY(release.open(QIODevice::WriteOnly));
        release.close();
        QTRY_COMPARE_WITH_TIMEOUT(state(), JobState::Succeeded, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 10000);
        QCOMPARE(ended.first().first().value<JobState>(), JobState::Succeeded);

        // Steps 1..5 of the first run, 6..12 of the second (its steps 6..10 replace the first run's); the
        // first file, read again from its start, added nothing twice.
        const QList<SeriesPoint> loss = points(Loss);
        QCOMPARE(loss.size(), 12);
        for (int step = 1; step <= 12; ++step) {
            QCOMPARE(loss.at(step - 1).step, qint64(step));
            QCOMPARE(loss.at(step - 1).value, step <= 5 ? float32(1.0 / step) : float32(2.0 / step));
        }
        QCOMPARE(pointCount(EvalAccuracy), qint64(2));
        // The rewritten hypertune file repeated the first run's reports: stored once.
        const QList<SeriesPoint> hp = points(Hypertune);
        QCOMPARE(hp.size(), 3);
        QCOMPARE(hp.at(2).step, qint64(12));
        QCOMPARE(hp.at(2).value, 0.875);
        QCOMPARE(hp.at(2).wallTime, Base + 112);
        verifySampleSteps(Rss);
        verifySampleSteps(Cpu);
        QCOMPARE(crcWarnings(), 1);
    }

    void finalJobAfterRestart()
    {
        const QList<SeriesInfo> before = series();
        const QList<SeriesPoint> lossBefore = points(Loss);
        QVERIFY(stopExecutor());
        startExecutor();
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(series(), before);
        QCOMPARE(points(Loss), lossBefore);

        // Following a final job: the backlog, then `end` at once.
        std::unique_ptr<ApiStream> stream(m_client->followMetrics(JobId, Hypertune));
        QList<SeriesPoint> streamed;
        connect(stream.get(), &ApiStream::metricPoints, this,
            [&streamed](const QString&, const QList<SeriesPoint>& list) { streamed += list; });
        QSignalSpy ended(stream.get(), &ApiStream::ended);
        QVERIFY(ended.wait(10000));
        QCOMPARE(streamed, points(Hypertune));
    }

    void ctl()
    {
        int code = -1;
        const QByteArray csv = runCtl({ QStringLiteral("jobs"), QStringLiteral("metrics"), JobId }, &code);
        QCOMPARE(code, 0);
        const QList<QByteArray> lines = csv.split('\n');
        QCOMPARE(lines.first(), QByteArray("run,tag,step,wall_time,value"));
        QVERIFY(lines.contains(".,train/loss,1,1700000001.0,1.0"));
        QVERIFY(lines.contains(".,train/loss,6,1700000106.0,0.3333333432674408"));
        QVERIFY(lines.contains("eval,accuracy,5,1700000005.0,0.5"));
        QVERIFY(lines.contains("hypertune/master-replica-0,accuracy,12,1700000112.0,0.875"));
        QVERIFY(std::any_of(lines.cbegin(), lines.cend(),
            [](const QByteArray& l) { return l.startsWith("resource/master-replica-0,cpu_percent,1,"); }));
        // Scalars first (TensorBoard's run order), then hypertune, then resources.
        QVERIFY(lines.indexOf("eval,accuracy,10,1700000010.0,0.75")
            < lines.indexOf("hypertune/master-replica-0,accuracy,5,1700000005.0,0.5"));

        const QByteArray json
            = runCtl({ QStringLiteral("jobs"), QStringLiteral("metrics"), JobId, QStringLiteral("--series"), Loss,
                         QStringLiteral("--format"), QStringLiteral("json") },
                &code);
        QCOMPARE(code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(json).array();
        QCOMPARE(rows.size(), 12);
        const QJsonObject last = rows.last().toObject();
        QCOMPARE(last.value(QStringLiteral("kind")).toString(), QStringLiteral("scalar"));
        QCOMPARE(last.value(QStringLiteral("run")).toString(), QStringLiteral("."));
        QCOMPARE(last.value(QStringLiteral("tag")).toString(), QStringLiteral("train/loss"));
        QCOMPARE(last.value(QStringLiteral("step")).toInteger(), 12);
        QCOMPARE(last.value(QStringLiteral("value")).toDouble(), float32(2.0 / 12));

        runCtl({ QStringLiteral("jobs"), QStringLiteral("metrics"), QStringLiteral("no_such_job") }, &code);
        QCOMPARE(code, 1);
        runCtl({ QStringLiteral("jobs"), QStringLiteral("metrics"), JobId, QStringLiteral("--format"),
                   QStringLiteral("yaml") },
            &code);
        QCOMPARE(code, 2);
    }
};

QTEST_MAIN(TestMetricsApi)
#include "tst_metricsapi.moc"
