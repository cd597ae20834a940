// SPDX-License-Identifier: GPL-2.0-or-later
// Audit logs end to end (app/executor/API.md, "Audit logs"): a real trainyard-executor records create, cancel,
// setIamPolicy, a denied call, token create and revoke, and a job that maxRunningTime ends (principal `system`);
// `…/auditLogs` filters and pages them newest first; Data Access entries appear only with --audit-data-access;
// `trainyardctl audit verify` passes on the log as written and fails, naming the entry, once a row of audit.sqlite
// is changed, removed or two are swapped; a change is refused (503) while the audit file cannot be written.
#include "apirequest.h"
#include "auditlog.h"
#include "executorprocess.h"
#include "trainingpackage.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace Trainyard;

namespace {

using Response = Trainyard::Test::ApiResponse;

QByteArray json(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QString methodOf(const QJsonObject& entry)
{
    return entry.value(QLatin1String("protoPayload")).toObject().value(QLatin1String("methodName")).toString();
}

QString principalOf(const QJsonObject& entry)
{
    return entry.value(QLatin1String("protoPayload"))
        .toObject()
        .value(QLatin1String("authenticationInfo"))
        .toObject()
        .value(QLatin1String("principalEmail"))
        .toString();
}

} // namespace

class TestAudit : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_packageDir;
    Trainyard::Test::ExecutorProcess m_executor { m_root.path() };
    QUrl m_url;
    QNetworkAccessManager m_nam;
    QByteArray m_admin;
    QString m_adminEmail;

    QProcessEnvironment environment() const { return m_executor.environment(); }
    QString auditFile() const { return m_root.filePath(QStringLiteral("data/trainyard/audit.sqlite")); }
    /// Where the executor keeps the log's head outside it (Audit::headAnchorPath()).
    QString headAnchor() const
    {
        return Audit::headAnchorPath(
            m_root.filePath(QStringLiteral("run/trainyard")), QFileInfo(auditFile()).absolutePath());
    }

    bool startExecutor(const QStringList& extra)
    {
        QString error;
        if (!m_executor.start(QStringList { QStringLiteral("--grace-period"), QStringLiteral("1") } + extra, &error)) {
            qWarning().noquote() << error;
            return false;
        }
        m_url = m_executor.url();
        m_admin = m_executor.token();
        return true;
    }

    void stopExecutor() { m_executor.stop(); }

    Response send(const QByteArray& token, const QByteArray& verb, const QString& path, const QByteArray& body = {},
        const QUrlQuery& query = {})
    {
        QUrl url = m_url;
        url.setPath(path);
        url.setQuery(query);
        return Trainyard::Test::sendApiRequest(
            m_nam, verb, url, body, { { "Authorization", "Bearer " + token }, { "User-Agent", "tst_audit/1" } });
    }

    /// Entries of `…/auditLogs` with `filter`, every page of `pageSize`.
    QList<QJsonObject> entries(
        const QString& filter, int pageSize = 0, int* pages = nullptr, const QString& project = QStringLiteral("local"))
    {
        QList<QJsonObject> all;
        QString token;
        int count = 0;
        do {
            QUrlQuery q;
            if (!filter.isEmpty())
                q.addQueryItem(QStringLiteral("filter"), QString::fromLatin1(QUrl::toPercentEncoding(filter)));
            if (pageSize > 0)
                q.addQueryItem(QStringLiteral("pageSize"), QString::number(pageSize));
            if (!token.isEmpty())
                q.addQueryItem(QStringLiteral("pageToken"), token);
            const Response r = send(m_admin, "GET", QStringLiteral("/v1/projects/%1/auditLogs").arg(project), {}, q);
            if (r.status != 200) {
                qWarning() << r.body;
                return {};
            }
            for (const QJsonValue& v : r.json.value(QLatin1String("entries")).toArray())
                all.append(v.toObject());
            token = r.json.value(QLatin1String("nextPageToken")).toString();
            ++count;
        } while (!token.isEmpty());
        if (pages)
            *pages = count;
        return all;
    }

    QByteArray jobBody(const QString& jobId, const QString& maxRunningTime = {}) const
    {
        QJsonObject input {
            { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
            { QStringLiteral("packageUris"), QJsonArray { m_packageDir } },
            { QStringLiteral("pythonModule"), QStringLiteral("audittest.task") },
            { QStringLiteral("region"), QStringLiteral("us-central1") },
            { QStringLiteral("args"), QJsonArray { QStringLiteral("--sleep"), QStringLiteral("600") } },
        };
        if (!maxRunningTime.isEmpty())
            input.insert(
                QStringLiteral("scheduling"), QJsonObject { { QStringLiteral("maxRunningTime"), maxRunningTime } });
        return json(QJsonObject { { QStringLiteral("jobId"), jobId }, { QStringLiteral("trainingInput"), input } });
    }

    /// `trainyardctl audit verify` against the running executor: its exit code and what it printed.
    /// `dataDir`: with --data-dir (the file itself, read-only) instead of the executor's API.
    int verify(QString* output, const QString& dataDir = QString(), const QStringList& more = {})
    {
        QProcess ctl;
        ctl.setProcessEnvironment(environment());
        QStringList args { QStringLiteral("audit"), QStringLiteral("verify") };
        if (!dataDir.isEmpty())
            args << QStringLiteral("--data-dir=") + dataDir;
        args << more;
        ctl.start(QStringLiteral(TRAINYARD_CTL_BIN), args);
        if (!ctl.waitForFinished(60000))
            return -1;
        *output = QString::fromUtf8(ctl.readAllStandardOutput() + ctl.readAllStandardError());
        return ctl.exitCode();
    }

    /// Runs `statements` on audit.sqlite while no executor runs.
    bool tamper(const QStringList& statements)
    {
        bool ok = true;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tamper"));
            db.setDatabaseName(auditFile());
            ok = db.open();
            QSqlQuery query(db);
            for (const QString& statement : statements)
                ok = ok && query.exec(statement);
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("tamper"));
        return ok;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char* sub : { "run", "data", "config", "pkg/audittest" })
            QVERIFY(QDir().mkpath(m_root.filePath(QString::fromLatin1(sub))));
        QVERIFY(QFile::setPermissions(
            m_root.filePath(QStringLiteral("run")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        m_packageDir = m_root.filePath(QStringLiteral("pkg"));
        QVERIFY(Trainyard::Test::writeTrainingPackage(m_packageDir, QStringLiteral("audittest"),
            "import sys, time\n"
            "if '--sleep' in sys.argv:\n"
            "    time.sleep(float(sys.argv[sys.argv.index('--sleep') + 1]))\n",
            QStringLiteral("trainyard-audittest")));
        QVERIFY(startExecutor({}));
    }

    void adminActivity()
    {
        const QString jobs = QStringLiteral("/v1/projects/local/jobs");
        QCOMPARE(send(m_admin, "POST", jobs, jobBody(QStringLiteral("kept"))).status, 200);
        QCOMPARE(send(m_admin, "POST", jobs, jobBody(QStringLiteral("expiring"), QStringLiteral("2s"))).status, 200);
        QCOMPARE(send(m_admin, "POST", jobs + QStringLiteral("/kept:cancel")).status, 200);
        const Response token = send(m_admin, "POST", QStringLiteral("/v1/tokens"),
            json({ { QStringLiteral("member"), QStringLiteral("user:carol@example.org") },
                { QStringLiteral("role"), QStringLiteral("roles/ml.viewer") } }));
        QCOMPARE(token.status, 200);
        const QByteArray carol = token.json.value(QLatin1String("token")).toString().toLatin1();
        const QString tokenName = token.json.value(QLatin1String("name")).toString();
        // Denied: a viewer cancels.
        QCOMPARE(send(carol, "POST", jobs + QStringLiteral("/expiring:cancel")).status, 403);
        const Response policy = send(m_admin, "POST", QStringLiteral("/v1/projects/local:setIamPolicy"),
            json({ { QStringLiteral("policy"),
                QJsonObject { { QStringLiteral("bindings"),
                    QJsonArray { QJsonObject { { QStringLiteral("role"), QStringLiteral("roles/ml.viewer") },
                        { QStringLiteral("members"),
                            QJsonArray { QStringLiteral("user:dave@example.org") } } } } } } } }));
        QCOMPARE(policy.status, 200);
        QCOMPARE(send(m_admin, "POST", QStringLiteral("/v1/") + tokenName + QStringLiteral(":revoke")).status, 200);
        // A read: no Data Access entry without the flag.
        QCOMPARE(send(m_admin, "GET", jobs + QStringLiteral("/kept")).status, 200);

        // The job with maxRunningTime 2s ends by the executor's own hand.
        QTRY_VERIFY_WITH_TIMEOUT(
            !entries(QStringLiteral("protoPayload.methodName=trainyard.v1.JobLifecycle.ExpireJob")).isEmpty(), 60000);

        const QList<QJsonObject> all = entries(QString());
        QStringList methods;
        for (const QJsonObject& e : all)
            methods << methodOf(e);
        for (const char* m : { "trainyard.v1.Executor.Start", "google.cloud.ml.v1.JobService.CreateJob",
                 "google.cloud.ml.v1.JobService.CancelJob", "trainyard.v1.TokenService.CreateToken",
                 "trainyard.v1.TokenService.RevokeToken", "SetIamPolicy", "trainyard.v1.JobLifecycle.ExpireJob" })
            QVERIFY2(methods.contains(QLatin1String(m)), m);
        QVERIFY(!methods.contains(QStringLiteral("google.cloud.ml.v1.JobService.GetJob")));
        // Newest first.
        for (qsizetype i = 1; i < all.size(); ++i)
            QVERIFY(Audit::sequenceOf(all.at(i - 1).value(QLatin1String("insertId")).toString())
                > Audit::sequenceOf(all.at(i).value(QLatin1String("insertId")).toString()));

        const QJsonObject created
            = entries(QStringLiteral("protoPayload.methodName=google.cloud.ml.v1.JobService.CreateJob")).first();
        m_adminEmail = principalOf(created);
        // The request as Cloud Audit Logs records a CreateJob: its parent and the job as sent.
        const QJsonObject createRequest
            = created.value(QLatin1String("protoPayload")).toObject().value(QLatin1String("request")).toObject();
        QCOMPARE(createRequest.value(QLatin1String("@type")).toString(),
            QStringLiteral("type.googleapis.com/google.cloud.ml.v1.CreateJobRequest"));
        QCOMPARE(createRequest.value(QLatin1String("parent")).toString(), QStringLiteral("projects/local"));
        QCOMPARE(createRequest.value(QLatin1String("job")).toObject().value(QLatin1String("jobId")).toString(),
            created.value(QLatin1String("resource"))
                .toObject()
                .value(QLatin1String("labels"))
                .toObject()
                .value(QLatin1String("job_id"))
                .toString());
        QVERIFY(createRequest.value(QLatin1String("job")).toObject().contains(QLatin1String("trainingInput")));
        QVERIFY(m_adminEmail.contains(QLatin1Char('@')));
        QVERIFY(!m_adminEmail.startsWith(QLatin1String("user:")));

        // The denial: carol's email, ERROR, code 7, authorizationInfo granted false.
        const QList<QJsonObject> denied = entries(
            QStringLiteral("protoPayload.authenticationInfo.principalEmail=carol@example.org AND severity>=ERROR"));
        QCOMPARE(denied.size(), 1);
        const QJsonObject payload = denied.first().value(QLatin1String("protoPayload")).toObject();
        QCOMPARE(methodOf(denied.first()), QStringLiteral("google.cloud.ml.v1.JobService.CancelJob"));
        QCOMPARE(payload.value(QLatin1String("status")).toObject().value(QLatin1String("code")).toInt(), 7);
        const QJsonObject authz = payload.value(QLatin1String("authorizationInfo")).toArray().first().toObject();
        QCOMPARE(authz.value(QLatin1String("permission")).toString(), QStringLiteral("ml.jobs.cancel"));
        QCOMPARE(authz.value(QLatin1String("granted")).toBool(), false);
        QCOMPARE(authz.value(QLatin1String("resource")).toString(), QStringLiteral("projects/local/jobs/expiring"));
        QCOMPARE(payload.value(QLatin1String("requestMetadata")).toObject().value(QLatin1String("callerIp")).toString(),
            QStringLiteral("127.0.0.1"));
        QCOMPARE(payload.value(QLatin1String("requestMetadata"))
                     .toObject()
                     .value(QLatin1String("callerSuppliedUserAgent"))
                     .toString(),
            QStringLiteral("tst_audit/1"));

        // The cancel of `kept`: an ml_job resource with its region, NOTICE, status {}.
        const QList<QJsonObject> cancels = entries(QStringLiteral(
            "resource.labels.job_id=kept AND protoPayload.methodName=google.cloud.ml.v1.JobService.CancelJob"));
        QCOMPARE(cancels.size(), 1);
        const QJsonObject cancel = cancels.first();
        QCOMPARE(cancel.value(QLatin1String("severity")).toString(), QStringLiteral("NOTICE"));
        QCOMPARE(cancel.value(QLatin1String("logName")).toString(),
            QStringLiteral("projects/local/logs/cloudaudit.googleapis.com%2Factivity"));
        QCOMPARE(cancel.value(QLatin1String("resource")).toObject().value(QLatin1String("type")).toString(),
            QStringLiteral("ml_job"));
        QCOMPARE(cancel.value(QLatin1String("resource"))
                     .toObject()
                     .value(QLatin1String("labels"))
                     .toObject()
                     .value(QLatin1String("region"))
                     .toString(),
            QStringLiteral("us-central1"));
        QVERIFY(
            cancel.value(QLatin1String("protoPayload")).toObject().value(QLatin1String("status")).toObject().isEmpty());
        QCOMPARE(principalOf(cancel), m_adminEmail);

        // The expiry: principal system, on the job.
        const QJsonObject expiry
            = entries(QStringLiteral("protoPayload.methodName=trainyard.v1.JobLifecycle.ExpireJob")).first();
        QCOMPARE(principalOf(expiry), QStringLiteral("system"));
        QCOMPARE(expiry.value(QLatin1String("protoPayload")).toObject().value(QLatin1String("resourceName")).toString(),
            QStringLiteral("projects/local/jobs/expiring"));

        // Paging: pages of 2 hold the same entries as one page.
        int pages = 0;
        const QList<QJsonObject> paged = entries(QString(), 2, &pages);
        QCOMPARE(paged, all);
        QVERIFY(pages >= all.size() / 2);

        // A bad filter names the field.
        QUrlQuery bad;
        bad.addQueryItem(QStringLiteral("filter"), QStringLiteral("severity>=LOUD"));
        const Response r = send(m_admin, "GET", QStringLiteral("/v1/projects/local/auditLogs"), {}, bad);
        QCOMPARE(r.status, 400);
        QVERIFY(r.body.contains("filter"));
    }

    void refusedWhenTheEntryCannotBeWritten()
    {
        // Another holder of audit.sqlite's write lock (past the executor's 5 s busy timeout): a change is refused
        // with 503 before it takes effect, and a read (no entry needed without the flag) still answers.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
        db.setDatabaseName(auditFile());
        QVERIFY(db.open());
        {
            QSqlQuery lock(db);
            QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
            const Response r = send(
                m_admin, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("unrecorded")));
            QCOMPARE(r.status, 503);
            QCOMPARE(r.json.value(QLatin1String("error")).toObject().value(QLatin1String("status")).toString(),
                QStringLiteral("UNAVAILABLE"));
            QCOMPARE(send(m_admin, "GET", QStringLiteral("/v1/projects/local/jobs/unrecorded")).status, 404);
            QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("locker"));
        QVERIFY(entries(QStringLiteral("resource.labels.job_id=unrecorded")).isEmpty());
    }

    void dataAccessOnlyWithTheFlag()
    {
        QVERIFY(entries(QStringLiteral("logName:data_access")).isEmpty());
        stopExecutor();
        QVERIFY(startExecutor({ QStringLiteral("--audit-data-access") }));
        QCOMPARE(send(m_admin, "GET", QStringLiteral("/v1/projects/local/jobs/kept")).status, 200);
        const QList<QJsonObject> reads
            = entries(QStringLiteral("protoPayload.methodName=google.cloud.ml.v1.JobService.GetJob"));
        QCOMPARE(reads.size(), 1);
        QCOMPARE(reads.first().value(QLatin1String("severity")).toString(), QStringLiteral("INFO"));
        QCOMPARE(reads.first().value(QLatin1String("logName")).toString(),
            QStringLiteral("projects/local/logs/cloudaudit.googleapis.com%2Fdata_access"));
        // The previous executor's stop is on record.
        QVERIFY(!entries(QStringLiteral("protoPayload.methodName=trainyard.v1.Executor.Stop")).isEmpty());
    }

    void verifyAndTamper()
    {
        QString output;
        QCOMPARE(verify(&output), 0);
        QVERIFY2(output.contains(QLatin1String("Verified")), qPrintable(output));
        // --data-dir reads the file while the executor runs (its WAL included) and counts at least as many: the
        // executor wrote Data Access entries for the verify's own reads.
        const int viaApi = output.section(QLatin1Char(' '), 1, 1).toInt();
        QCOMPARE(verify(&output, QFileInfo(auditFile()).absolutePath()), 0);
        QVERIFY2(output.section(QLatin1Char(' '), 1, 1).toInt() >= viaApi, qPrintable(output));
        // A folder without an audit log is a clear error.
        QCOMPARE(verify(&output, m_root.filePath(QStringLiteral("nowhere"))), 1);
        QVERIFY2(output.contains(QLatin1String("audit.sqlite does not exist")), qPrintable(output));

        struct Case {
            QStringList statements;
            QString expected;
        };
        const QList<Case> cases {
            { { QStringLiteral("UPDATE entries SET json = replace(json, 'carol@example.org', 'mallory@example.org') "
                               "WHERE json LIKE '%carol@example.org%'") },
                QStringLiteral("was changed") },
            { { QStringLiteral("DELETE FROM entries WHERE seq = 3") }, QStringLiteral("were removed") },
            { { QStringLiteral("UPDATE entries SET seq = CASE seq WHEN 4 THEN -5 ELSE -4 END WHERE seq IN (4, 5)"),
                  QStringLiteral("UPDATE entries SET seq = -seq WHERE seq < 0") },
                QStringLiteral("out of order") },
            // Issue 26, item 6: a column outside the hash, and the newest entry, which no later entry covers.
            { { QStringLiteral("UPDATE entries SET project = 'elsewhere' WHERE seq = (SELECT MAX(seq) FROM entries "
                               "WHERE project = 'local')") },
                QStringLiteral("project column says \"elsewhere\"") },
            { { QStringLiteral("DELETE FROM entries WHERE seq = (SELECT MAX(seq) FROM entries)") },
                QStringLiteral("removed from its end") },
        };
        const QString pristine = m_root.filePath(QStringLiteral("pristine.sqlite"));
        const QString pristineAnchor = m_root.filePath(QStringLiteral("pristine-head.json"));
        for (const Case& c : cases) {
            stopExecutor();
            QFile::remove(pristine);
            QVERIFY(QFile::copy(auditFile(), pristine));
            // The head kept outside the log goes back with it: putting the pristine file back is itself removing
            // entries from the log's end, which the head would show.
            QFile::remove(pristineAnchor);
            QVERIFY(QFile::copy(headAnchor(), pristineAnchor));
            QVERIFY(tamper(c.statements));
            // The file itself, with no executor running, finds the same.
            const QString dataDir = QFileInfo(auditFile()).absolutePath();
            QCOMPARE(verify(&output, dataDir), 1);
            QVERIFY2(output.contains(c.expected), qPrintable(output));
            QVERIFY(startExecutor({}));
            QCOMPARE(verify(&output), 1);
            QVERIFY2(output.contains(c.expected), qPrintable(output));
            QVERIFY2(output.contains(QLatin1String("entry 0000000000")), qPrintable(output));
            // Back to the log as it was: it verifies again.
            stopExecutor();
            QFile::remove(auditFile());
            QFile::remove(auditFile() + QStringLiteral("-wal"));
            QFile::remove(auditFile() + QStringLiteral("-shm"));
            QVERIFY(QFile::copy(pristine, auditFile()));
            QFile::remove(headAnchor());
            QVERIFY(QFile::copy(pristineAnchor, headAnchor()));
            QVERIFY(startExecutor({}));
            QCOMPARE(verify(&output), 0);
        }
    }

    /// Issue 26, item 6: `verify` prints the head, and a head kept from an earlier verify (--head) finds entries
    /// removed from the end even when the head kept in the runtime folder is gone too.
    void verifyHead()
    {
        QString output;
        QCOMPARE(verify(&output), 0);
        const qsizetype at = output.indexOf(QLatin1String("Head: "));
        QVERIFY2(at >= 0, qPrintable(output));
        const QString head = output.mid(at + 6).section(QLatin1Char('\n'), 0, 0).trimmed();
        QVERIFY2(Audit::Head::parse(head).has_value(), qPrintable(head));
        QCOMPARE(verify(&output, QString(), { QStringLiteral("--head=") + head }), 0);
        QCOMPARE(verify(&output, QString(), { QStringLiteral("--head=nonsense") }), 2);
        stopExecutor();
        const QString saved = m_root.filePath(QStringLiteral("before-cut.sqlite"));
        QFile::remove(saved);
        QVERIFY(QFile::copy(auditFile(), saved));
        const QString place = head.section(QLatin1Char(':'), 0, 0);
        QVERIFY(tamper({ QStringLiteral("DELETE FROM entries WHERE seq >= %1").arg(Audit::sequenceOf(place)) }));
        QVERIFY(QFile::remove(headAnchor()));
        const QString dataDir = QFileInfo(auditFile()).absolutePath();
        QCOMPARE(verify(&output, dataDir), 0); // nothing outside the log says it was longer…
        QVERIFY2(output.contains(QLatin1String("WARNING: no head kept")), qPrintable(output));
        QCOMPARE(verify(&output, dataDir, { QStringLiteral("--head=") + head }), 1); // …but the kept head does
        QVERIFY2(output.contains(QLatin1String("removed from its end")), qPrintable(output));
        QFile::remove(auditFile());
        QFile::remove(auditFile() + QStringLiteral("-wal"));
        QFile::remove(auditFile() + QStringLiteral("-shm"));
        QVERIFY(QFile::copy(saved, auditFile()));
        QVERIFY(startExecutor({}));
    }

    void cleanupTestCase() { stopExecutor(); }
};

QTEST_GUILESS_MAIN(TestAudit)
#include "tst_audit.moc"
