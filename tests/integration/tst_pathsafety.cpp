// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 26, item 1: no value of a request reaches the file system as a path outside the executor's data folder and
// the job dirs' roots. The project ID is checked on every route before anything is built from it (the service's
// rule, plus "local"); every folder name made from a request value goes through PathName; a route walker sends
// hostile values in every path segment of every route of the route table and then looks for any file made outside
// the two places; and a data folder left by the bug (a job folder written through a project ID of "..") no longer
// stops the executor from starting.
#include "executorenvironment.h"
#include "executorprocess.h"
#include "httpapi.h"
#include "jobstore.h"
#include "logstore.h"
#include "metricsstore.h"
#include "modelstore.h"
#include "pathname.h"
#include "predictionservice.h"
#include "scheduler.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace Trainyard;

namespace {

const QByteArray Token = "path-safety-token";

struct Answer {
    bool done = false;
    int status = 0;
    QByteArray body;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QString errorStatus() const
    {
        return json().value(QStringLiteral("error")).toObject().value(QStringLiteral("status")).toString();
    }
    QJsonArray violations() const
    {
        const QJsonArray details
            = json().value(QStringLiteral("error")).toObject().value(QStringLiteral("details")).toArray();
        return details.isEmpty() ? QJsonArray()
                                 : details.first().toObject().value(QStringLiteral("fieldViolations")).toArray();
    }
};

/// Every file and folder under `root` that is not `root` itself, nor under one of `allowed` (absolute paths).
QStringList strayPaths(const QString& root, const QStringList& allowed)
{
    QStringList stray;
    QDirIterator it(
        root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        bool inside = false;
        for (const QString& a : allowed)
            inside
                = inside || path == a || path.startsWith(a + QLatin1Char('/')) || a.startsWith(path + QLatin1Char('/'));
        if (!inside)
            stray << path;
    }
    return stray;
}

} // namespace

class TestPathSafety : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_dataDir; ///< nested, so that "../.." from a project folder still lands inside m_root, where it is seen
    QString m_jobsRoot;
    QString m_package;
    QString m_escapeName; ///< a folder name no run of this test shares, looked for in /tmp too
    std::unique_ptr<JobStore> m_store;
    std::unique_ptr<LogStore> m_logs;
    std::unique_ptr<MetricsStore> m_metrics;
    std::unique_ptr<Scheduler> m_scheduler;
    std::unique_ptr<ModelStore> m_models;
    std::unique_ptr<PredictionService> m_prediction;
    std::unique_ptr<HttpApi> m_api;

    Answer call(const QByteArray& method, const QByteArray& target, const QByteArray& body = {})
    {
        auto answer = std::make_shared<Answer>();
        HttpHeaderList headers { qMakePair(QByteArray("Authorization"), QByteArray("Bearer " + Token)) };
        if (!body.isEmpty())
            headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        m_api->serve(ApiRequest(method, QUrl::fromEncoded(target), headers, body),
            [answer](int status, const HttpHeaderList&, const QByteArray& b) {
                answer->done = true;
                answer->status = status;
                answer->body = b;
            });
        // Deferred answers come from the pool; a stream is ended after a moment and handed over whole.
        if (!QTest::qWaitFor([&] { return answer->done; }, 300))
            m_api->closeStreams();
        if (!QTest::qWaitFor([&] { return answer->done; }, 30000))
            qWarning() << "no answer to" << method << target.left(200);
        return *answer;
    }

    QByteArray jobBody(const QString& jobId, const QString& jobDir) const
    {
        return QJsonDocument(QJsonObject {
                                 { QStringLiteral("jobId"), jobId },
                                 { QStringLiteral("trainingInput"),
                                     QJsonObject {
                                         { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
                                         { QStringLiteral("region"), QStringLiteral("local") },
                                         { QStringLiteral("pythonModule"), QStringLiteral("trainer.task") },
                                         { QStringLiteral("packageUris"), QJsonArray { m_package } },
                                         { QStringLiteral("jobDir"), jobDir },
                                     } },
                             })
            .toJson(QJsonDocument::Compact);
    }

    QStringList stray() const
    {
        // The XDG folders of isolateExecutorEnvironment() are this test's too.
        QStringList found = strayPaths(m_root.path(),
            { m_dataDir, m_jobsRoot, m_package, m_root.filePath(QStringLiteral("run")),
                m_root.filePath(QStringLiteral("data")), m_root.filePath(QStringLiteral("config")) });
        const QString tmpEscape = QDir::tempPath() + QLatin1Char('/') + m_escapeName;
        if (QFileInfo::exists(tmpEscape))
            found << tmpEscape;
        return found;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(Test::isolateExecutorEnvironment(m_root));
        m_dataDir = m_root.filePath(QStringLiteral("d1/d2/d3/d4/data"));
        m_jobsRoot = m_root.filePath(QStringLiteral("jobs"));
        m_package = m_root.filePath(QStringLiteral("pkg"));
        m_escapeName = QStringLiteral("trainyard-escape-") + QUuid::createUuid().toString(QUuid::Id128).left(12);
        for (const QString& dir : { m_dataDir, m_jobsRoot, m_package })
            QVERIFY(QDir().mkpath(dir));
        // A package that pip cannot install: the job fails in staging, after its folders were made.
        QFile setup(m_package + QStringLiteral("/setup.py"));
        QVERIFY(setup.open(QIODevice::WriteOnly));
        setup.write("raise SystemExit('not a package')\n");
        setup.close();

        m_store = std::make_unique<JobStore>();
        QString error;
        QVERIFY2(m_store->open(m_dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        m_logs = std::make_unique<LogStore>(m_dataDir);
        m_metrics = std::make_unique<MetricsStore>();
        QVERIFY2(m_metrics->open(m_dataDir + QStringLiteral("/metrics.sqlite"), &error), qPrintable(error));
        HostInventory host; // can hold a job: accepted jobs go on to staging, where folders are made
        host.cpus = 8;
        host.memoryBytes = 1LL << 35;
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), host, m_dataDir);
        m_api = std::make_unique<HttpApi>(m_store.get(), m_logs.get(), m_scheduler.get(), host, Token);
        m_api->setMetricsStore(m_metrics.get());
        m_api->setPathPolicy(PathPolicy({ m_jobsRoot }));
        // Models and versions too: a model's and a version's name reach the store and, once created, a folder.
        m_models = std::make_unique<ModelStore>();
        QVERIFY2(m_models->open(m_dataDir + QStringLiteral("/models.sqlite"), &error), qPrintable(error));
        m_prediction = std::make_unique<PredictionService>(m_models.get(), m_dataDir);
        m_api->setPredictionService(m_prediction.get());
        // A job of project "local" whose log a traversal once wrote into.
        const Answer made = call(
            "POST", "/v1/projects/local/jobs", jobBody(QStringLiteral("kept"), m_jobsRoot + QStringLiteral("/kept")));
        QVERIFY2(made.status == 200, made.body.constData());
    }

    void projectIds_data()
    {
        QTest::addColumn<QByteArray>("project");
        QTest::addColumn<bool>("valid");
        QTest::addRow("local") << QByteArray("local") << true;
        QTest::addRow("a project ID") << QByteArray("my-project-42") << true;
        QTest::addRow("traversal") << QByteArray("..%2F..%2F..%2F..%2F..%2F..%2Ftmp%2Fx%2Fescape") << false;
        QTest::addRow("into another project") << QByteArray("x%2F..%2Flocal") << false;
        QTest::addRow("dot dot") << QByteArray("%2E%2E") << false;
        QTest::addRow("dot") << QByteArray(".") << false;
        QTest::addRow("NUL") << QByteArray("abcdef%00gh") << false;
        QTest::addRow("upper case") << QByteArray("My-Project") << false;
        QTest::addRow("too short") << QByteArray("p1") << false;
        QTest::addRow("too long") << QByteArray("a").repeated(31) << false;
        QTest::addRow("trailing hyphen") << QByteArray("project-") << false;
        QTest::addRow("starts with a digit") << QByteArray("1project") << false;
        QTest::addRow("5,000 characters") << QByteArray("a").repeated(5000) << false;
    }

    void projectIds()
    {
        QFETCH(QByteArray, project);
        QFETCH(bool, valid);
        static int n = 0;
        const QString jobId = QStringLiteral("p%1").arg(++n);
        const QByteArray logBefore = QByteArray::number(
            m_logs->read(JobKey(QStringLiteral("local"), QStringLiteral("kept")), QString(), QString(), 0, 100000)
                .size());
        const Answer created
            = call("POST", "/v1/projects/" + project + "/jobs", jobBody(jobId, m_jobsRoot + QLatin1Char('/') + jobId));
        if (valid) {
            QVERIFY2(created.status == 200, created.body.constData());
        } else {
            QVERIFY2(created.status == 400, created.body.constData());
            QCOMPARE(created.errorStatus(), QStringLiteral("INVALID_ARGUMENT"));
            QCOMPARE(created.violations().size(), 1);
            QCOMPARE(created.violations().first().toObject().value(QStringLiteral("field")).toString(),
                QStringLiteral("parent"));
            QVERIFY2(created.violations()
                         .first()
                         .toObject()
                         .value(QStringLiteral("description"))
                         .toString()
                         .contains(QLatin1String("project ID")),
                created.body.constData());
            // The same for a read of the project's jobs.
            QCOMPARE(call("GET", "/v1/projects/" + project + "/jobs").status, 400);
        }
        // Another project's job was not touched (a traversal into "local" appended to its log).
        QCOMPARE(
            QByteArray::number(
                m_logs->read(JobKey(QStringLiteral("local"), QStringLiteral("kept")), QString(), QString(), 0, 100000)
                    .size()),
            logBefore);
        QTRY_VERIFY2_WITH_TIMEOUT(stray().isEmpty(), qPrintable(stray().join(QLatin1Char('\n'))), 5000);
    }

    /// Every route of the route table, with hostile values in every path segment it captures (one segment at a
    /// time, the others valid), and the jobs created along the way left to stage: afterwards no file or folder
    /// exists outside the data folder and the job dirs' root.
    void everyRouteWithHostileSegments()
    {
        const QList<QByteArray> hostile {
            "..",
            "%2E%2E",
            ".",
            "..%2F..%2F..%2F..%2F..%2F..%2F" + QDir::tempPath().mid(1).toUtf8().replace('/', "%2F") + "%2F"
                + m_escapeName.toUtf8(),
            "..%2F..%2F..%2F..%2F..%2F" + m_escapeName.toUtf8(),
            "x%2F..%2Flocal",
            "%2Fetc%2Fpasswd",
            "a%00b",
            "%0A",
            QByteArray("z").repeated(300),
            "..%2F..%2Fjobs%2Fkept",
            "%25",
            "~root",
            "local%2F..%2F..",
        };
        const QList<HttpApi::RouteInfo> routes = HttpApi::routes();
        QVERIFY(routes.size() > 20);
        int calls = 0;
        int fiveHundreds = 0;
        static const QRegularExpression capture(QStringLiteral("\\{([a-z]+)(=\\*\\*)?\\}"));
        for (const HttpApi::RouteInfo& route : routes) {
            QStringList names;
            for (auto m = capture.globalMatch(route.pattern); m.hasNext();)
                names << m.next().captured(1);
            for (const QString& target : std::as_const(names)) {
                for (const QByteArray& bad : hostile) {
                    QString path = route.pattern;
                    for (const QString& name : std::as_const(names)) {
                        QByteArray value;
                        if (name == target)
                            value = bad;
                        else if (name == QLatin1String("project"))
                            value = "local";
                        else if (name == QLatin1String("job"))
                            value = "kept";
                        else
                            value = "x";
                        path.replace(QRegularExpression(QStringLiteral("\\{") + name + QStringLiteral("(=\\*\\*)?\\}")),
                            QString::fromLatin1(value));
                    }
                    static int n = 0;
                    const QString jobId = QStringLiteral("walk%1").arg(++n);
                    const QByteArray body = route.method == "GET" ? QByteArray()
                        : route.pattern.endsWith(QLatin1String("/jobs"))
                        ? jobBody(jobId, m_jobsRoot + QLatin1Char('/') + jobId)
                        : QByteArray("{}");
                    const Answer a = call(route.method, path.toLatin1(), body);
                    ++calls;
                    // 501 UNIMPLEMENTED is a deliberate answer (a method of the service's this executor does not
                    // serve, which says so); any other 5xx, or none, is a fault.
                    const bool unimplemented = a.status == 501 && a.body.contains("\"UNIMPLEMENTED\"");
                    if (!a.done || (a.status >= 500 && !unimplemented)) {
                        ++fiveHundreds;
                        qWarning() << route.method << path << a.status << a.body.left(300);
                    }
                }
            }
        }
        qInfo("%d calls over %lld routes", calls, qlonglong(routes.size()));
        QCOMPARE(fiveHundreds, 0);
        // Whatever was accepted has staged (and failed) by now: its folders exist if they ever will.
        QTRY_VERIFY_WITH_TIMEOUT(m_store->liveJobs().isEmpty(), 60000);
        QVERIFY2(stray().isEmpty(), qPrintable(stray().join(QLatin1Char('\n'))));
    }

    void pathNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("safe");
        QTest::addRow("plain") << QStringLiteral("job_1") << true;
        QTest::addRow("empty") << QString() << false;
        QTest::addRow(".") << QStringLiteral(".") << false;
        QTest::addRow("..") << QStringLiteral("..") << false;
        QTest::addRow("slash") << QStringLiteral("a/b") << false;
        QTest::addRow("NUL") << QStringLiteral("a") + QChar(0) << false;
        QTest::addRow("255 bytes") << QString(255, QLatin1Char('a')) << true;
        QTest::addRow("256 bytes") << QString(256, QLatin1Char('a')) << false;
        QTest::addRow("128 two-byte characters") << QString(128, QChar(0xe9)) << false;
        QTest::addRow("dots in a name") << QStringLiteral("...") << true;
    }

    void pathNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, safe);
        QCOMPARE(PathName::isSafe(name), safe);
        const QString child = PathName::child(QStringLiteral("/data"), { QStringLiteral("projects"), name });
        QCOMPARE(child.isEmpty(), !safe);
        if (safe)
            QCOMPARE(child, QStringLiteral("/data/projects/") + name);
        QCOMPARE(JobKey(name, QStringLiteral("j")).folder(QStringLiteral("/data")).isEmpty(), !safe);
    }

    /// A data folder as the bug left it: job "j3" of project "quebec", and a job "j3" of project ".." whose folder
    /// went to `<data>/jobs/j3`, where the old layout's folders were. Every start exited 1 ("cannot move the data
    /// folder to the per-project layout: … exists already"); now the folder is set aside, the executor says so and
    /// starts, and the ".." job fails instead of running outside its folder.
    void startsDespiteABadFolder()
    {
        QTemporaryDir root;
        QVERIFY(Test::isolateExecutorEnvironment(root));
        const QString dataDir = root.filePath(QStringLiteral("data/trainyard"));
        {
            JobStore store;
            QString error;
            QVERIFY(QDir().mkpath(dataDir));
            QVERIFY2(store.open(dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
            for (const QString& project : { QStringLiteral("quebec"), QStringLiteral("..") }) {
                Job job;
                job.jobId = QStringLiteral("j3");
                job.trainingInput.scaleTier = QStringLiteral("BASIC");
                job.trainingInput.pythonModule = QStringLiteral("trainer.task");
                job.trainingInput.packageUris = { QStringLiteral("/nonexistent") };
                QVERIFY2(store.insert(project, job, &error), qPrintable(error));
            }
        }
        QVERIFY(QDir().mkpath(dataDir + QStringLiteral("/projects/quebec/jobs/j3/logs")));
        QVERIFY(QDir().mkpath(dataDir + QStringLiteral("/jobs/j3/logs"))); // "projects/../jobs/j3"
        QFile log(dataDir + QStringLiteral("/jobs/j3/logs/service.jsonl"));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write("{}\n");
        log.close();

        Test::ExecutorProcess executor(root.path());
        const QString logFile = root.filePath(QStringLiteral("executor.log"));
        executor.setLogFile(logFile);
        QString error;
        QVERIFY2(executor.start(&error), qPrintable(error));
        QVERIFY(QFileInfo::exists(dataDir + QStringLiteral("/jobs.set-aside/j3/logs/service.jsonl")));
        QVERIFY(!QFileInfo::exists(dataDir + QStringLiteral("/jobs")));
        QFile said(logFile);
        QVERIFY(said.open(QIODevice::ReadOnly));
        QVERIFY2(said.readAll().contains("was set aside in"), "the executor's log does not say so");
        executor.stop();
        JobStore store;
        QVERIFY2(store.open(dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        const std::optional<Job> bad = store.job(QStringLiteral(".."), QStringLiteral("j3"));
        QVERIFY(bad);
        QCOMPARE(bad->state, JobState::Failed);
        QVERIFY2(bad->errorMessage.contains(QLatin1String("folder name")), qPrintable(bad->errorMessage));
    }
};

QTEST_GUILESS_MAIN(TestPathSafety)
#include "tst_pathsafety.moc"
