// SPDX-License-Identifier: GPL-2.0-or-later
// The audit log's parts (models/auditlog.h, app/executor/storage/auditstore.h): the hash chain over a real SQLite
// file and what Audit::verifyChain() finds when a row is changed, removed or two are swapped; the filter subset of
// `…/auditLogs?filter=`; and every route of the API having an explicit audit method.
#include "apicommon.h"
#include "auditlog.h"
#include "auditrecorder.h"
#include "auditstore.h"
#include "httpapi.h"
#include "sqlitefile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

QJsonObject entryFor(const QString& method, const QString& principal, const QString& jobId, bool activity,
    const QString& severity = QStringLiteral("NOTICE"))
{
    return QJsonObject {
        { QStringLiteral("logName"),
            Audit::logName(QStringLiteral("local"), activity ? Audit::LogKind::Activity : Audit::LogKind::DataAccess) },
        { QStringLiteral("timestamp"), QStringLiteral("2026-11-24T12:00:00.000000Z") },
        { QStringLiteral("severity"), severity },
        { QStringLiteral("resource"),
            QJsonObject { { QStringLiteral("type"), QStringLiteral("ml_job") },
                { QStringLiteral("labels"),
                    QJsonObject { { QStringLiteral("project_id"), QStringLiteral("local") },
                        { QStringLiteral("job_id"), jobId }, { QStringLiteral("region"), QString() } } } } },
        { QStringLiteral("protoPayload"),
            QJsonObject { { QStringLiteral("methodName"), method },
                { QStringLiteral("authenticationInfo"),
                    QJsonObject { { QStringLiteral("principalEmail"), principal } } },
                { QStringLiteral("status"), QJsonObject() } } },
    };
}

/// Every entry of `store`, oldest first.
QList<QJsonObject> allOf(AuditStore& store)
{
    qint64 next = 0;
    QList<QJsonObject> entries = store.read(QStringLiteral("-"), 0, 100000, {}, &next);
    std::reverse(entries.begin(), entries.end());
    return entries;
}

/// An entry for AuditStore::appendDeferred(): built on its writer thread.
template <typename... Args> std::function<QJsonObject()> later(Args... args)
{
    return [=] { return entryFor(args...); };
}

/// The rows of the audit file at `path` as another connection sees them: (seq, principal) oldest first.
QList<QPair<qint64, QString>> rowsOnDisk(const QString& path)
{
    QList<QPair<qint64, QString>> rows;
    static int counter = 0;
    const QString name = QStringLiteral("rows-%1").arg(++counter);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery query(db);
            query.exec(QStringLiteral("SELECT seq, json FROM entries ORDER BY seq"));
            while (query.next())
                rows.append(qMakePair(query.value(0).toLongLong(),
                    QJsonDocument::fromJson(query.value(1).toByteArray())
                        .object()
                        .value(QLatin1String("protoPayload"))
                        .toObject()
                        .value(QLatin1String("authenticationInfo"))
                        .toObject()
                        .value(QLatin1String("principalEmail"))
                        .toString()));
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return rows;
}

/// Runs `statement` on the audit file at `path` through a connection of its own.
bool execOn(const QString& path, const QString& statement)
{
    static int counter = 0;
    const QString name = QStringLiteral("exec-%1").arg(++counter);
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        ok = db.open() && QSqlQuery(db).exec(statement);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

} // namespace

class TestAuditLog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chainOverSqlite_data()
    {
        QTest::addColumn<QString>("tamper");
        QTest::addColumn<QString>("expected"); ///< a part of the message; empty: the chain verifies
        QTest::addRow("untouched") << QString() << QString();
        QTest::addRow("changed field") << QStringLiteral(
            "UPDATE entries SET json = replace(json, 'alice@example.org', 'mallory@example.org') "
            "WHERE seq = 2") << QStringLiteral("entry 00000000000000000002 was changed");
        QTest::addRow("deleted row") << QStringLiteral("DELETE FROM entries WHERE seq = 3")
                                     << QStringLiteral("1 entries between them were removed");
        QTest::addRow("swapped rows")
            // Rows 2 and 3 trade places (their row keys), in two statements: a key is unique at every step.
            << QStringLiteral("UPDATE entries SET seq = CASE seq WHEN 2 THEN -3 ELSE -2 END WHERE seq IN (2, 3);"
                              "UPDATE entries SET seq = -seq WHERE seq < 0")
            << QStringLiteral("out of order");
        QTest::addRow("first row removed") << QStringLiteral("DELETE FROM entries WHERE seq = 1")
                                           << QStringLiteral("the entries before it were removed");
    }
    void chainOverSqlite()
    {
        QFETCH(QString, tamper);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("audit.sqlite"));
        {
            AuditStore store;
            QString error;
            QVERIFY2(store.open(path, &error), qPrintable(error));
            const QStringList principals { QStringLiteral("bob@example.org"), QStringLiteral("alice@example.org"),
                QStringLiteral("system"), QStringLiteral("bob@example.org") };
            for (const QString& p : principals)
                QVERIFY2(store.append(entryFor(QStringLiteral("google.cloud.ml.v1.JobService.CreateJob"), p,
                                          QStringLiteral("j"), true),
                             &error),
                    qPrintable(error));
            QCOMPARE(store.size(), 4);
            const QList<QJsonObject> entries = allOf(store);
            QCOMPARE(entries.size(), 4);
            QCOMPARE(entries.first().value(QLatin1String("labels")).toObject().value(Audit::prevHashLabel()).toString(),
                QString::fromLatin1(Audit::genesisHash()));
            QCOMPARE(entries.at(1).value(QLatin1String("insertId")).toString(), QStringLiteral("00000000000000000002"));
            QVERIFY(!Audit::verifyChain(entries));
        }
        if (!tamper.isEmpty()) {
            const QString name = QStringLiteral("tamper-%1").arg(QLatin1String(QTest::currentDataTag()));
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
                db.setDatabaseName(path);
                QVERIFY(db.open());
                QSqlQuery query(db);
                for (const QString& statement : tamper.split(QLatin1Char(';')))
                    QVERIFY(query.exec(statement));
                db.close();
            }
            QSqlDatabase::removeDatabase(name);
        }
        // Reopened: the store goes on from what the file holds, and the chain shows what was done to it.
        AuditStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        const std::optional<Audit::ChainProblem> problem = Audit::verifyChain(allOf(store));
        if (expected.isEmpty()) {
            QVERIFY2(!problem, problem ? qPrintable(problem->message) : "");
        } else {
            QVERIFY(problem);
            QVERIFY2(problem->message.contains(expected), qPrintable(problem->message));
        }
    }

    void paging()
    {
        QTemporaryDir dir;
        AuditStore store;
        QString error;
        QVERIFY(store.open(dir.filePath(QStringLiteral("audit.sqlite")), &error));
        for (int i = 0; i < 7; ++i)
            QVERIFY(store.append(
                entryFor(QStringLiteral("m"), QStringLiteral("a@b.c"), QStringLiteral("j%1").arg(i), i % 2 == 0),
                &error));
        qint64 next = 0;
        QList<QJsonObject> page = store.read(QStringLiteral("local"), 0, 3, {}, &next);
        QCOMPARE(page.size(), 3);
        // Newest first.
        QCOMPARE(page.first().value(QLatin1String("insertId")).toString(), Audit::insertIdFor(7));
        QCOMPARE(next, 5);
        page = store.read(QStringLiteral("local"), next, 3, {}, &next);
        QCOMPARE(page.first().value(QLatin1String("insertId")).toString(), Audit::insertIdFor(4));
        page = store.read(QStringLiteral("local"), next, 3, {}, &next);
        QCOMPARE(page.size(), 1);
        QCOMPARE(next, 0);
        // Another project's listing holds none of them.
        QVERIFY(store.read(QStringLiteral("other"), 0, 10, {}, &next).isEmpty());
    }

    /// Data Access entries are group-committed (AuditStore::appendDeferred()): in the chain at once, in the file
    /// within FlushInterval, and before any Admin Activity entry that follows them; a read sees them all.
    void groupCommit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.sqlite"));
        AuditStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        const QString get = QStringLiteral("google.cloud.ml.v1.JobService.GetJob");
        for (int i = 0; i < 3; ++i)
            QVERIFY(store.appendDeferred(
                later(get, QStringLiteral("r%1@x.org").arg(i), QStringLiteral("j"), false), &error));
        QCOMPARE(store.size(), 3);
        // The writer writes them within FlushInterval, without a flush() asking it to.
        QTRY_COMPARE_WITH_TIMEOUT(rowsOnDisk(path).size(), 3, 5000);

        // Two more deferred, then an Admin Activity entry: it flushes them first, so the file's order is the chain's.
        QVERIFY(store.appendDeferred(later(get, QStringLiteral("r3@x.org"), QStringLiteral("j"), false), &error));
        QVERIFY(store.appendDeferred(later(get, QStringLiteral("r4@x.org"), QStringLiteral("j"), false), &error));
        QVERIFY(store.append(entryFor(QStringLiteral("google.cloud.ml.v1.JobService.CancelJob"),
                                 QStringLiteral("admin@x.org"), QStringLiteral("j"), true),
            &error));
        const QList<QPair<qint64, QString>> rows = rowsOnDisk(path);
        QCOMPARE(rows.size(), 6);
        QCOMPARE(rows.at(4), qMakePair(qint64(5), QStringLiteral("r4@x.org")));
        QCOMPARE(rows.at(5), qMakePair(qint64(6), QStringLiteral("admin@x.org")));

        for (int i = 0; i < AuditStore::FlushBatch; ++i)
            QVERIFY(store.appendDeferred(later(get, QStringLiteral("b@x.org"), QStringLiteral("j"), false), &error));
        QVERIFY2(store.flush(&error), qPrintable(error));
        QCOMPARE(rowsOnDisk(path).size(), 6 + AuditStore::FlushBatch);
        // A read flushes first.
        QVERIFY(store.appendDeferred(later(get, QStringLiteral("last@x.org"), QStringLiteral("j"), false), &error));
        qint64 next = 0;
        QCOMPARE(store.read(QStringLiteral("local"), 0, 1, {}, &next)
                     .constFirst()
                     .value(QLatin1String("insertId"))
                     .toString(),
            Audit::insertIdFor(7 + AuditStore::FlushBatch));
        QCOMPARE(rowsOnDisk(path).size(), 7 + AuditStore::FlushBatch);
        QVERIFY(!Audit::verifyChain(allOf(store)));
    }

    /// A flush SQLite refuses loses its entries (the chain's tail) and sets the head back to the file's last entry,
    /// so the next entry links to what is on disk and the chain still verifies; nothing after them is lost.
    void groupCommitFailure()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.sqlite"));
        const QString get = QStringLiteral("google.cloud.ml.v1.JobService.GetJob");
        {
            AuditStore store;
            QString error;
            QVERIFY2(store.open(path, &error), qPrintable(error));
            QVERIFY(store.append(entryFor(QStringLiteral("google.cloud.ml.v1.JobService.CreateJob"),
                                     QStringLiteral("admin@x.org"), QStringLiteral("j"), true),
                &error));
            // Another connection makes SQLite refuse one entry's row: the whole batch goes.
            QVERIFY(execOn(path,
                QStringLiteral("CREATE TRIGGER refuse BEFORE INSERT ON entries WHEN NEW.json LIKE '%refuse-me%' "
                               "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")));
            QVERIFY(store.appendDeferred(later(get, QStringLiteral("fine@x.org"), QStringLiteral("j"), false), &error));
            QVERIFY(store.appendDeferred(
                later(get, QStringLiteral("refuse-me@x.org"), QStringLiteral("j"), false), &error));
            QCOMPARE(store.size(), 3);
            QVERIFY(!store.flush(&error));
            QVERIFY2(error.contains(QLatin1String("2 Data Access audit entries were lost"))
                    && error.contains(QLatin1String("refused by the test")),
                qPrintable(error));
            QCOMPARE(store.size(), 1);
            QVERIFY(execOn(path, QStringLiteral("DROP TRIGGER refuse")));
            QVERIFY(
                store.appendDeferred(later(get, QStringLiteral("after@x.org"), QStringLiteral("j"), false), &error));
            // The destructor flushes what is left.
        }
        const QList<QPair<qint64, QString>> rows = rowsOnDisk(path);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(1), qMakePair(qint64(2), QStringLiteral("after@x.org")));
        AuditStore reopened;
        QString error;
        QVERIFY2(reopened.open(path, &error), qPrintable(error));
        const std::optional<Audit::ChainProblem> problem = Audit::verifyChain(allOf(reopened));
        QVERIFY2(!problem, problem ? qPrintable(problem->message) : "");
    }

    /// The common Data Access entry is written straight into its bytes (AuditRecorder::chainedEntry()); those bytes
    /// must be exactly the general way's (AuditRecorder::entryOf() chained), or the chain would not verify.
    void fastEntryBytes_data()
    {
        QTest::addColumn<QString>("jobId");
        QTest::addColumn<QString>("callerIp");
        QTest::addColumn<QByteArray>("userAgent");
        QTest::addColumn<QString>("permission");
        QTest::addColumn<QString>("member");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("direct"); ///< written straight into bytes
        QTest::addRow("job get") << QStringLiteral("train_1") << QStringLiteral("127.0.0.1")
                                 << QByteArray("trainyardctl/0.1.0") << QStringLiteral("ml.jobs.get")
                                 << QStringLiteral("user:alice@example.org") << 200 << true;
        QTest::addRow("project list") << QString() << QStringLiteral("::1") << QByteArray("curl/7.88.1")
                                      << QStringLiteral("ml.jobs.list") << QStringLiteral("user:bob@example.org") << 200
                                      << true;
        QTest::addRow("no caller ip") << QStringLiteral("j") << QString() << QByteArray("ua")
                                      << QStringLiteral("ml.jobs.get") << QStringLiteral("user:a@b.c") << 200 << true;
        QTest::addRow("no user agent") << QStringLiteral("j") << QStringLiteral("10.0.0.2") << QByteArray()
                                       << QStringLiteral("ml.jobs.get") << QStringLiteral("user:a@b.c") << 200 << true;
        QTest::addRow("neither") << QStringLiteral("j") << QString() << QByteArray() << QStringLiteral("ml.jobs.get")
                                 << QStringLiteral("user:a@b.c") << 200 << true;
        QTest::addRow("no permission") << QStringLiteral("j") << QStringLiteral("127.0.0.1") << QByteArray("ua")
                                       << QString() << QStringLiteral("user:a@b.c") << 200 << true;
        QTest::addRow("unicode principal")
            << QStringLiteral("j") << QStringLiteral("127.0.0.1") << QByteArray("ua") << QStringLiteral("ml.jobs.get")
            << QStringLiteral("user:jörg@example.de") << 200 << false;
        QTest::addRow("quoted user agent")
            << QStringLiteral("j") << QStringLiteral("127.0.0.1") << QByteArray("say \"hi\" \\ \t")
            << QStringLiteral("ml.jobs.get") << QStringLiteral("user:a@b.c") << 200 << false;
        QTest::addRow("failed") << QStringLiteral("j") << QStringLiteral("127.0.0.1") << QByteArray("ua")
                                << QStringLiteral("ml.jobs.get") << QStringLiteral("user:a@b.c") << 404 << false;
        QTest::addRow("system") << QStringLiteral("j") << QStringLiteral("127.0.0.1") << QByteArray("ua")
                                << QStringLiteral("ml.jobs.get") << QStringLiteral("system") << 200 << true;
    }
    void fastEntryBytes()
    {
        QFETCH(QString, jobId);
        QFETCH(QString, callerIp);
        QFETCH(QByteArray, userAgent);
        QFETCH(QString, permission);
        QFETCH(QString, member);
        QFETCH(int, status);
        QFETCH(bool, direct);
        AuditRecorder::Facts facts;
        facts.timestamp = QStringLiteral("2026-11-24T17:40:00.123456Z");
        facts.httpMethod = "GET";
        facts.method = AuditRecorder::methodOf("GET",
            jobId.isEmpty() ? QStringLiteral("/v1/projects/{project}/jobs")
                            : QStringLiteral("/v1/projects/{project}/jobs/{job}"),
            permission);
        QVERIFY(!facts.method.adminActivity);
        facts.permission = permission;
        facts.member = member;
        facts.replyStatus = status;
        facts.granted = true;
        if (status >= 300)
            facts.replyBody = R"({"error":{"code":404,"message":"Job not found.","status":"NOT_FOUND"}})";
        facts.project = QStringLiteral("local");
        facts.jobId = jobId;
        facts.region = jobId.isEmpty() ? QString() : QStringLiteral("us-central1");
        facts.callerIp = callerIp;
        facts.userAgent = userAgent;
        const QByteArray prevHash = Audit::bytesHash("the entry before");
        const AuditStore::Chained general = AuditStore::chain(AuditRecorder::entryOf(facts), 7, prevHash);
        bool wasDirect = !direct;
        const AuditStore::Chained fast = AuditRecorder::chainedEntry(facts, 7, prevHash, &wasDirect);
        QCOMPARE(wasDirect, direct);
        QCOMPARE(fast.bytes, general.bytes);
        QCOMPARE(fast.project, general.project);
        QCOMPARE(fast.dataAccess, general.dataAccess);
        QVERIFY(fast.dataAccess);
    }

    /// A Data Access entry goes to the writer as a record (AuditRecorder::record()): the entry built from it is the
    /// one the facts make the general way, for a read, a read that failed (its answer recorded) and a token's path.
    void recordGivesTheSameEntry_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("permission");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("granted");
        QTest::addRow("job get") << QStringLiteral("/v1/projects/local/jobs/train_1")
                                 << QStringLiteral("/v1/projects/{project}/jobs/{job}") << QStringLiteral("ml.jobs.get")
                                 << 200 << true;
        QTest::addRow("not found") << QStringLiteral("/v1/projects/local/jobs/nope")
                                   << QStringLiteral("/v1/projects/{project}/jobs/{job}")
                                   << QStringLiteral("ml.jobs.get") << 404 << true;
        QTest::addRow("denied") << QStringLiteral("/v1/projects/local/jobs/train_1/logs")
                                << QStringLiteral("/v1/projects/{project}/jobs/{job}/logs")
                                << QStringLiteral("logging.logEntries.list") << 403 << false;
        QTest::addRow("token") << QStringLiteral("/v1/tokens/3f9a0c12d4e5b6a7:revoke")
                               << QStringLiteral("/v1/tokens/{token}:revoke")
                               << QStringLiteral("trainyard.tokens.revoke") << 200 << true;
        // Issue 46 item 16: a model's and a version's calls name them.
        QTest::addRow("model get") << QStringLiteral("/v1/projects/local/models/census")
                                   << QStringLiteral("/v1/projects/{project}/models/{model}")
                                   << QStringLiteral("ml.models.get") << 200 << true;
        QTest::addRow("version get") << QStringLiteral("/v1/projects/local/models/census/versions/v2")
                                     << QStringLiteral("/v1/projects/{project}/models/{model}/versions/{version}")
                                     << QStringLiteral("ml.versions.get") << 200 << true;
    }
    void recordGivesTheSameEntry()
    {
        QFETCH(QString, path);
        QFETCH(QString, pattern);
        QFETCH(QString, permission);
        QFETCH(int, status);
        QFETCH(bool, granted);
        const QByteArray method = pattern.endsWith(QLatin1String(":revoke")) ? "POST" : "GET";
        ApiRequest request(method, QUrl(path), { { "User-Agent", "tst_auditlog/1 (\"quoted\")" } });
        request.setRemoteAddress(QStringLiteral("10.0.0.7"));
        const HttpApi::Caller caller { QStringLiteral("user:jörg@example.de"), QStringLiteral("roles/ml.viewer"),
            QStringLiteral("3f9a0c12d4e5b6a7") };
        const AuditRecorder::Method audit = AuditRecorder::methodOf(method, pattern, permission);
        QHash<QString, QString> params;
        const QStringList parts = path.split(QLatin1Char('/'));
        if (pattern.contains(QLatin1String("{project}")))
            params.insert(QStringLiteral("project"), parts.at(3));
        if (pattern.contains(QLatin1String("{job}")))
            params.insert(QStringLiteral("job"), parts.at(5));
        if (pattern.contains(QLatin1String("{token}")))
            params.insert(QStringLiteral("token"), parts.at(3).section(QLatin1Char(':'), 0, 0));
        if (pattern.contains(QLatin1String("{model}")))
            params.insert(QStringLiteral("model"), parts.at(5));
        if (pattern.contains(QLatin1String("{version}")))
            params.insert(QStringLiteral("version"), parts.at(7));
        HttpApi::Reply reply;
        reply.status = status;
        if (status >= 300)
            reply.body = R"({"error":{"code":404,"message":"Job not found.","status":"NOT_FOUND"}})";
        const QString region = params.contains(QStringLiteral("job")) ? QStringLiteral("us-central1") : QString();
        const qint64 us = 1795000000123456; // 2026-11-18T…: formatted as the entry's timestamp
        std::string record;
        AuditRecorder::record(request, caller, audit, permission, params, reply, granted, region, us, &record);

        AuditRecorder::Facts facts;
        facts.timestamp = QStringLiteral("2026-11-18T11:06:40.123456Z");
        facts.httpMethod = method;
        facts.method = audit;
        facts.permission = permission;
        facts.member = caller.member;
        facts.granted = granted;
        facts.replyStatus = status;
        if (status >= 300 || !granted)
            facts.replyBody = reply.body;
        facts.project = params.value(QStringLiteral("project"));
        facts.jobId = params.value(QStringLiteral("job"));
        facts.token = params.value(QStringLiteral("token"));
        facts.hasToken = params.contains(QStringLiteral("token"));
        facts.region = region;
        facts.callerIp = request.remoteAddress();
        facts.userAgent = request.header("User-Agent");
        if (params.contains(QStringLiteral("model")))
            facts.resource = path.mid(4); // "projects/…": the path after /v1/
        const QByteArray prevHash = Audit::bytesHash("the entry before");
        const AuditStore::Chained expected = AuditStore::chain(AuditRecorder::entryOf(facts), 9, prevHash);
        const AuditStore::Chained built
            = AuditRecorder::chainedRecord(QByteArrayView(record.data(), qsizetype(record.size())), 9, prevHash);
        QCOMPARE(built.bytes, expected.bytes);
        if (params.contains(QStringLiteral("model")))
            QVERIFY2(built.bytes.contains(QByteArray(QByteArray("\"resourceName\":\"") + path.mid(4).toUtf8() + '"')),
                built.bytes.constData());
        QCOMPARE(built.project, expected.project);
        QCOMPARE(built.dataAccess, expected.dataAccess);
    }

    /// The head kept outside the log (setHeadAnchor()) follows Data Access batches within AnchorInterval, and is the
    /// chain's last head once the store is closed.
    void headAnchorFollowsDataAccess()
    {
        QTemporaryDir dir;
        const QString anchor = dir.filePath(QStringLiteral("head.json"));
        const QString get = QStringLiteral("google.cloud.ml.v1.JobService.GetJob");
        std::optional<Audit::Head> last;
        {
            AuditStore store;
            store.setHeadAnchor(anchor, dir.path());
            QString error;
            QVERIFY2(store.open(dir.filePath(QStringLiteral("audit.sqlite")), &error), qPrintable(error));
            for (int round = 0; round < 3; ++round) {
                for (int i = 0; i < 20; ++i)
                    QVERIFY(store.appendDeferred(
                        later(get, QStringLiteral("r%1@x.org").arg(i), QStringLiteral("j"), false), &error));
                QVERIFY(store.flush(&error));
                const std::optional<Audit::Head> head = store.head();
                QVERIFY(head);
                QCOMPARE(head->insertId, Audit::insertIdFor(20 * (round + 1)));
                QTRY_VERIFY_WITH_TIMEOUT(
                    [&] {
                        const std::optional<Audit::Head> kept = Audit::readHeadAnchor(anchor, dir.path());
                        return kept && kept->insertId == head->insertId && kept->hash == head->hash;
                    }(),
                    int(AuditStore::AnchorInterval.count()) * 5);
            }
            QVERIFY(store.appendDeferred(later(get, QStringLiteral("last@x.org"), QStringLiteral("j"), false), &error));
            QVERIFY(store.flush(&error));
            last = store.head();
        } // closed right after its last batch: the anchor is written before the writer stops
        const std::optional<Audit::Head> kept = Audit::readHeadAnchor(anchor, dir.path());
        QVERIFY(kept && last);
        QCOMPARE(kept->insertId, Audit::insertIdFor(61));
        QCOMPARE(kept->hash, last->hash);
    }

    /// New audit files get SQLite's largest page (AuditStore::open() says why); a file made with 4 KiB pages keeps
    /// them, and its entries and new ones read back.
    void pageSize()
    {
        QTemporaryDir dir;
        const auto pageSizeOf = [](const QString& path) {
            static int counter = 0;
            const QString name = QStringLiteral("page-size-%1").arg(++counter);
            int size = 0;
            {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
                db.setDatabaseName(path);
                if (db.open()) {
                    QSqlQuery query(db);
                    if (query.exec(QStringLiteral("PRAGMA page_size")) && query.next())
                        size = query.value(0).toInt();
                }
            }
            QSqlDatabase::removeDatabase(name);
            return size;
        };
        const QString fresh = dir.filePath(QStringLiteral("fresh.sqlite"));
        {
            AuditStore store;
            QString error;
            QVERIFY2(store.open(fresh, &error), qPrintable(error));
            QVERIFY(store.append(
                entryFor(QStringLiteral("m"), QStringLiteral("a@b.c"), QStringLiteral("j"), true), &error));
        }
        QCOMPARE(pageSizeOf(fresh), 65536);

        const QString older = dir.filePath(QStringLiteral("older.sqlite"));
        {
            SqliteFile file(QStringLiteral("older-audit"));
            SqliteFile::Options options;
            options.pageSize = 4096;
            QString error;
            QVERIFY2(file.open(older, options, &error), qPrintable(error));
        }
        QCOMPARE(pageSizeOf(older), 4096);
        {
            AuditStore store;
            QString error;
            QVERIFY2(store.open(older, &error), qPrintable(error));
            QVERIFY(store.append(
                entryFor(QStringLiteral("m"), QStringLiteral("a@b.c"), QStringLiteral("j"), true), &error));
            QVERIFY(store.appendDeferred(
                later(QStringLiteral("g"), QStringLiteral("r@x.org"), QStringLiteral("j"), false), &error));
            QVERIFY(store.flush(&error));
            QCOMPARE(allOf(store).size(), 2);
            QVERIFY(!Audit::verifyChain(allOf(store)));
        }
        QCOMPARE(pageSizeOf(older), 4096);
    }

    /// The stores' files (SqliteFile): one written by a newer Trainyard is refused, named, and left as it is; the
    /// audit store says so when it opens one.
    void newerSchemaIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/audit.sqlite"));
        {
            AuditStore store;
            QString error;
            QVERIFY2(store.open(path, &error), qPrintable(error)); // the folder is made
            QVERIFY(store.append(
                entryFor(QStringLiteral("m"), QStringLiteral("a@b.c"), QStringLiteral("j"), true), &error));
        }
        QVERIFY(execOn(path, QStringLiteral("UPDATE meta SET value = '7' WHERE key = 'schemaVersion'")));
        AuditStore store;
        QString error;
        QVERIFY(!store.open(path, &error));
        QVERIFY2(error.contains(QLatin1String("was written by a newer Trainyard (schema 7, this one knows 1)"))
                && error.contains(path),
            qPrintable(error));
        QVERIFY(!store.isOpen());
        QCOMPARE(rowsOnDisk(path).size(), 1);
        // Still version 7: nothing was written.
        SqliteFile file(QStringLiteral("tst-reader"));
        SqliteFile::Options options;
        QVERIFY2(file.open(path, options, &error), qPrintable(error));
        {
            QSqlQuery query(file.database());
            QVERIFY(query.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schemaVersion'")) && query.next());
            QCOMPARE(query.value(0).toInt(), 7);
        }
        // A second open of the same object is refused, naming the file.
        QVERIFY(!file.open(path, options, &error));
        QVERIFY2(error.contains(QLatin1String("is already open")), qPrintable(error));
        QVERIFY(file.isOpen());
    }

    void filter_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<bool>("matches");
        QTest::addRow("method") << QStringLiteral("protoPayload.methodName=\"google.cloud.ml.v1.JobService.CancelJob\"")
                                << true;
        QTest::addRow("other method") << QStringLiteral("protoPayload.methodName=google.cloud.ml.v1.JobService.GetJob")
                                      << false;
        QTest::addRow("principal") << QStringLiteral("protoPayload.authenticationInfo.principalEmail=alice@example.org")
                                   << true;
        QTest::addRow("job and severity") << QStringLiteral("resource.labels.job_id=j1 AND severity>=NOTICE") << true;
        QTest::addRow("severity above") << QStringLiteral("severity>NOTICE") << false;
        QTest::addRow("log name has") << QStringLiteral("logName:\"cloudaudit.googleapis.com%2Factivity\"") << true;
        QTest::addRow("data access") << QStringLiteral("logName:data_access") << false;
        QTest::addRow("since") << QStringLiteral("timestamp>=\"2026-11-24T11:00:00Z\"") << true;
        QTest::addRow("until") << QStringLiteral("timestamp<2026-11-24T11:00:00Z") << false;
        QTest::addRow("missing field not equal") << QStringLiteral("protoPayload.nothing!=x") << true;
        QTest::addRow("whitespace is AND") << QStringLiteral("resource.labels.job_id=j1 severity=ERROR") << false;
    }
    void filter()
    {
        QFETCH(QString, filter);
        QFETCH(bool, matches);
        QString error;
        const std::optional<Audit::Filter> f = Audit::Filter::parse(filter, &error);
        QVERIFY2(f, qPrintable(error));
        const QJsonObject entry = entryFor(QStringLiteral("google.cloud.ml.v1.JobService.CancelJob"),
            QStringLiteral("alice@example.org"), QStringLiteral("j1"), true);
        QCOMPARE(f->matches(entry), matches);
    }

    void filterErrors_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("expected");
        QTest::addRow("or") << QStringLiteral("severity=ERROR OR severity=INFO")
                            << QStringLiteral("OR is not supported");
        QTest::addRow("parentheses") << QStringLiteral("(severity=ERROR)") << QStringLiteral("parentheses");
        QTest::addRow("no operator") << QStringLiteral("severity") << QStringLiteral("expected an operator");
        QTest::addRow("bad severity") << QStringLiteral("severity>=LOUD") << QStringLiteral("severity must be one of");
        QTest::addRow("bad time") << QStringLiteral("timestamp>=yesterday") << QStringLiteral("RFC 3339");
        QTest::addRow("unterminated") << QStringLiteral("logName=\"abc") << QStringLiteral("unterminated");
    }
    void filterErrors()
    {
        QFETCH(QString, filter);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!Audit::Filter::parse(filter, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void everyRouteHasAnAuditMethod()
    {
        for (const HttpApi::RouteInfo& route : HttpApi::routes()) {
            const AuditRecorder::Method method = AuditRecorder::methodOf(route.method, route.pattern, route.permission);
            QVERIFY2(method.explicitlyMapped,
                qPrintable(QString::fromLatin1(route.method) + QLatin1Char(' ') + route.pattern));
            // Reads are Data Access; every other method changes something and is Admin Activity. A prediction and an
            // explanation change nothing: the service logs them as Data Access.
            const bool read = route.method == "GET" || route.pattern.endsWith(QLatin1String(":getIamPolicy"))
                || route.pattern.endsWith(QLatin1String(":testIamPermissions"))
                || route.pattern.endsWith(QLatin1String(":predict")) || route.pattern.endsWith(QLatin1String(":explain"));
            QCOMPARE(method.adminActivity, !read);
        }
    }

    void methodNames_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("methodName");
        QTest::addColumn<QString>("serviceName");
        QTest::addRow("create") << QByteArray("POST") << QStringLiteral("/v1/projects/{project}/jobs")
                                << QStringLiteral("google.cloud.ml.v1.JobService.CreateJob")
                                << QStringLiteral("ml.googleapis.com");
        QTest::addRow("list") << QByteArray("GET") << QStringLiteral("/v1/projects/{project}/jobs")
                              << QStringLiteral("google.cloud.ml.v1.JobService.ListJobs")
                              << QStringLiteral("ml.googleapis.com");
        QTest::addRow("cancel") << QByteArray("POST") << QStringLiteral("/v1/projects/{project}/jobs/{job}:cancel")
                                << QStringLiteral("google.cloud.ml.v1.JobService.CancelJob")
                                << QStringLiteral("ml.googleapis.com");
        QTest::addRow("patch") << QByteArray("PATCH") << QStringLiteral("/v1/projects/{project}/jobs/{job}")
                               << QStringLiteral("google.cloud.ml.v1.JobService.PatchJob")
                               << QStringLiteral("ml.googleapis.com");
        QTest::addRow("logs") << QByteArray("GET") << QStringLiteral("/v1/projects/{project}/jobs/{job}/logs")
                              << QStringLiteral("google.logging.v2.LoggingServiceV2.ListLogEntries")
                              << QStringLiteral("logging.googleapis.com");
        QTest::addRow("project policy") << QByteArray("POST") << QStringLiteral("/v1/projects/{project}:setIamPolicy")
                                        << QStringLiteral("SetIamPolicy")
                                        << QStringLiteral("cloudresourcemanager.googleapis.com");
        QTest::addRow("token") << QByteArray("POST") << QStringLiteral("/v1/tokens")
                               << QStringLiteral("trainyard.v1.TokenService.CreateToken")
                               << QStringLiteral("ml.googleapis.com");
        QTest::addRow("catalog") << QByteArray("GET") << QStringLiteral("/v1/projects/{project}/machineTypes")
                                 << QStringLiteral("google.cloud.ml.v1.ProjectManagementService.GetConfig")
                                 << QStringLiteral("ml.googleapis.com");
    }
    void methodNames()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, pattern);
        QFETCH(QString, methodName);
        QFETCH(QString, serviceName);
        const AuditRecorder::Method m = AuditRecorder::methodOf(method, pattern, QString());
        QCOMPARE(m.methodName, methodName);
        QCOMPARE(m.serviceName, serviceName);
    }
};

QTEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
