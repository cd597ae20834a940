// SPDX-License-Identifier: GPL-2.0-or-later
// AuditLogModel (the console's Audit view): its columns from real entry shapes (app/executor/API.md, "Audit logs"),
// the outcome of a failed call, and resets under QAbstractItemModelTester; the wire types it reads (Audit::Entry,
// Audit::Page: models/auditlog.h).
#include "auditlogmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Trainyard;

namespace {

QJsonObject entry(const char* json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

const char* const denied
    = R"({"insertId":"00000000000000000004","logName":"projects/local/logs/cloudaudit.googleapis.com%2Factivity",
 "protoPayload":{"authenticationInfo":{"principalEmail":"carol@example.org"},
  "methodName":"google.cloud.ml.v1.JobService.CancelJob","requestMetadata":{"callerIp":"127.0.0.1"},
  "resourceName":"projects/local/jobs/j","status":{"code":7,"message":"Permission 'ml.jobs.cancel' denied"}},
 "severity":"ERROR","timestamp":"2026-11-24T13:38:28.179164Z"})";
/// A refused create, with what a refusal carries: field violations and the authorization decision.
const char* const invalid = R"({"insertId":"00000000000000000009",
 "logName":"projects/p/logs/cloudaudit.googleapis.com%2Factivity",
 "resource":{"type":"ml_job","labels":{"project_id":"p","job_id":"bad job","region":"us-central1"}},
 "protoPayload":{"authenticationInfo":{"principalEmail":"alice@example.org"},"serviceName":"ml.googleapis.com",
  "methodName":"google.cloud.ml.v1.JobService.CreateJob","resourceName":"projects/p/jobs/bad job",
  "requestMetadata":{"callerIp":"10.0.0.7","callerSuppliedUserAgent":"trainyardctl/1.0"},
  "authorizationInfo":[{"resource":"projects/p","permission":"ml.jobs.create","granted":true}],
  "metadata":{"message":"refused","requestTruncated":{"message":"the request was 2 MB; its first 64 KiB are kept"}},
  "status":{"code":3,"message":"Request contains an invalid argument.","details":[{"fieldViolations":[
   {"field":"job_id","description":"must start with a letter"},
   {"field":"training_input.job_dir","description":"must be a folder"}]}]}},
 "severity":"ERROR","timestamp":"2026-11-24T13:40:00.5Z"})";
const char* const expiry = R"({"insertId":"00000000000000000003",
 "protoPayload":{"authenticationInfo":{"principalEmail":"system"},"methodName":"trainyard.v1.JobLifecycle.ExpireJob",
  "resourceName":"projects/local/jobs/j","status":{}},"severity":"NOTICE","timestamp":"2026-11-24T13:38:20Z"})";

} // namespace

class TestAuditLogModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void columns()
    {
        AuditLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setEntries({ Audit::Entry::fromJson(entry(denied)), Audit::Entry::fromJson(entry(expiry)) });
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(AuditLogModel::ColumnCount));
        QCOMPARE(model.index(0, AuditLogModel::Who).data().toString(), QStringLiteral("carol@example.org"));
        QCOMPARE(model.index(0, AuditLogModel::Method).data().toString(),
            QStringLiteral("google.cloud.ml.v1.JobService.CancelJob"));
        QCOMPARE(model.index(0, AuditLogModel::Resource).data().toString(), QStringLiteral("projects/local/jobs/j"));
        QCOMPARE(model.index(0, AuditLogModel::Outcome).data().toString(), QStringLiteral("PERMISSION_DENIED"));
        QCOMPARE(model.index(0, AuditLogModel::Outcome).data(Qt::ToolTipRole).toString(),
            QStringLiteral("Permission 'ml.jobs.cancel' denied"));
        QCOMPARE(model.index(0, AuditLogModel::CallerIp).data().toString(), QStringLiteral("127.0.0.1"));
        QCOMPARE(model.index(0, 0).data(AuditLogModel::FailedRole).toBool(), true);
        QCOMPARE(model.index(1, AuditLogModel::Who).data().toString(), QStringLiteral("system"));
        QCOMPARE(model.index(1, AuditLogModel::Outcome).data().toString(), QStringLiteral("OK"));
        QCOMPARE(model.index(1, 0).data(AuditLogModel::FailedRole).toBool(), false);
        QCOMPARE(model.index(1, AuditLogModel::CallerIp).data().toString(), QString());
        // The local time of the RFC 3339 UTC timestamp.
        QCOMPARE(model.index(1, AuditLogModel::When).data().toString(),
            QDateTime(QDate(2026, 11, 24), QTime(13, 38, 20), Qt::UTC)
                .toLocalTime()
                .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        QCOMPARE(model.index(0, 0).data(AuditLogModel::EntryRole).toJsonObject(), entry(denied));
        QCOMPARE(model.headerData(AuditLogModel::Who, Qt::Horizontal).toString(), QStringLiteral("Who"));
        model.setEntries({ Audit::Entry::fromJson(entry(expiry)) });
        QCOMPARE(model.rowCount(), 1);
        model.setEntries({});
        QCOMPARE(model.rowCount(), 0);
    }

    void entryDecodesEveryShownField()
    {
        const Audit::Entry e = Audit::Entry::fromJson(entry(invalid));
        QCOMPARE(e.json, entry(invalid));
        QCOMPARE(e.insertId, QStringLiteral("00000000000000000009"));
        QCOMPARE(e.timestamp, QStringLiteral("2026-11-24T13:40:00.5Z"));
        QCOMPARE(Audit::logKindOf(e.logName), Audit::LogKind::Activity);
        QCOMPARE(e.severity, QStringLiteral("ERROR"));
        QCOMPARE(e.principal, QStringLiteral("alice@example.org"));
        QCOMPARE(e.serviceName, QStringLiteral("ml.googleapis.com"));
        QCOMPARE(e.methodName, QStringLiteral("google.cloud.ml.v1.JobService.CreateJob"));
        QCOMPARE(e.resourceName, QStringLiteral("projects/p/jobs/bad job"));
        QCOMPARE(e.jobId, QStringLiteral("bad job"));
        QCOMPARE(e.statusCode, std::optional<int>(3));
        QVERIFY(e.failed());
        QCOMPARE(e.statusMessage, QStringLiteral("Request contains an invalid argument."));
        QCOMPARE(e.violations.size(), 2);
        QCOMPARE(e.violations.at(1).field, QStringLiteral("training_input.job_dir"));
        QCOMPARE(e.violations.at(1).description, QStringLiteral("must be a folder"));
        QCOMPARE(e.authorizations.size(), 1);
        QCOMPARE(e.authorizations.first(),
            (Audit::Entry::Authorization { QStringLiteral("projects/p"), QStringLiteral("ml.jobs.create"), true }));
        QCOMPARE(e.callerIp, QStringLiteral("10.0.0.7"));
        QCOMPARE(e.userAgent, QStringLiteral("trainyardctl/1.0"));
        QCOMPARE(e.what, QStringLiteral("refused"));
        QCOMPARE(e.requestTruncated, QStringLiteral("the request was 2 MB; its first 64 KiB are kept"));
        // `"status": {}`: the call succeeded, whatever else the entry says.
        const Audit::Entry ok = Audit::Entry::fromJson(entry(expiry));
        QVERIFY(!ok.statusCode);
        QVERIFY(!ok.failed());
        QVERIFY(ok.violations.isEmpty());
        // A status with code 0 is OK too.
        QVERIFY(!Audit::Entry::fromJson(entry(R"({"protoPayload":{"status":{"code":0}}})")).failed());
    }

    void pageRoundTripsAsSent()
    {
        Audit::Page page;
        page.entries = { Audit::Entry::fromJson(entry(invalid)), Audit::Entry::fromJson(entry(denied)) };
        page.nextPageToken = QStringLiteral("tok");
        const QJsonObject json = page.toJson();
        QCOMPARE(json.value(QStringLiteral("entries")).toArray().size(), 2);
        QCOMPARE(json.value(QStringLiteral("entries")).toArray().at(1).toObject(), entry(denied));
        const Audit::Page back = Audit::Page::fromJson(json);
        QCOMPARE(back.nextPageToken, QStringLiteral("tok"));
        QCOMPARE(back.entries.size(), 2);
        QCOMPARE(back.entries.at(0).json, entry(invalid));
        QCOMPARE(back.entries.at(1).principal, QStringLiteral("carol@example.org"));
        // The last page has no token, as Cloud Logging's entries.list.
        page.nextPageToken.clear();
        QVERIFY(!page.toJson().contains(QStringLiteral("nextPageToken")));
        QVERIFY(Audit::Page::fromJson(QJsonObject()).entries.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAuditLogModel)
#include "tst_auditlogmodel.moc"
