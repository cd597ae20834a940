// SPDX-License-Identifier: GPL-2.0-or-later
// AuditLogModel (the console's Audit view): its columns from real entry shapes (app/executor/API.md, "Audit logs"),
// the outcome of a failed call, and resets under QAbstractItemModelTester.
#include "auditlogmodel.h"

#include <QAbstractItemModelTester>
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
        model.setEntries({ entry(denied), entry(expiry) });
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
        model.setEntries({ entry(expiry) });
        QCOMPARE(model.rowCount(), 1);
        model.setEntries({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestAuditLogModel)
#include "tst_auditlogmodel.moc"
