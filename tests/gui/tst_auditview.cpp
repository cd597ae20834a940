// SPDX-License-Identifier: GPL-2.0-or-later
// The console's Audit view against a real executor in isolated XDG folders: View ▸ Audit Log shows the executor's
// entries newest first (its start, a failed cancel, a token made), and the principal, method and job boxes narrow
// them through `…/auditLogs?filter=`. With TRAINYARD_SCREENSHOT_DIR set, the view as drawn goes to audit-view.png.
#include "accessclient.h"
#include "apiclient.h"
#include "auditlogmodel.h"
#include "auditview.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "mainwindow.h"

#include <QAction>
#include <QDialog>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestAuditView : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QList<qint64> m_pids;

    static QStringList column(const AuditLogModel* model, int column)
    {
        QStringList values;
        for (int row = 0; row < model->rowCount(); ++row)
            values << model->index(row, column).data().toString();
        return values;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root));
    }

    void cleanupTestCase() { Test::stopExecutors(m_pids); }

    void auditView()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();
        QVERIFY(client);

        // Real calls for the log: a cancel of a job that does not exist (NOT_FOUND), and a token.
        QVERIFY(!client->cancelJobBlocking(QStringLiteral("no_such_job")).ok());
        QVERIFY(AccessClient(client)
                    .createTokenBlocking(QStringLiteral("user:alice@example.org"), QStringLiteral("roles/ml.viewer"), {})
                    .ok());

        auto* action = window.findChild<QAction*>(QStringLiteral("showAuditLog"));
        QVERIFY(action);
        action->trigger();
        AuditView* view = window.auditView();
        QVERIFY(view);
        QVERIFY(QTest::qWaitForWindowExposed(view));
        AuditLogModel* model = view->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 15000);
        // Newest first: the token, the cancel, the executor's start.
        QCOMPARE(column(model, AuditLogModel::Method),
            QStringList({ QStringLiteral("trainyard.v1.TokenService.CreateToken"),
                QStringLiteral("google.cloud.ml.v1.JobService.CancelJob"),
                QStringLiteral("trainyard.v1.Executor.Start") }));
        QVERIFY(model->index(1, AuditLogModel::Outcome).data().toString().startsWith(QLatin1String("NOT_FOUND")));
        QCOMPARE(model->index(2, AuditLogModel::Who).data().toString(), QStringLiteral("system"));
        QCOMPARE(model->index(0, AuditLogModel::CallerIp).data().toString(), QStringLiteral("127.0.0.1"));

        QSignalSpy refreshed(view, &AuditView::refreshed);
        view->methodEdit()->setText(QStringLiteral("CancelJob"));
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 15000);
        QCOMPARE(model->index(0, AuditLogModel::Resource).data().toString(),
            QStringLiteral("projects/local/jobs/no_such_job"));
        view->methodEdit()->clear();
        view->jobEdit()->setText(QStringLiteral("other_job"));
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 0, 15000);
        view->jobEdit()->clear();
        view->principalEdit()->setText(QStringLiteral("system"));
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 15000);
        view->principalEdit()->clear();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 15000);
        QVERIFY(refreshed.count() > 0);

        // For looking, not for asserting.
        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QVERIFY(QDir().mkpath(dir));
            QVERIFY(view->grab().save(dir + QStringLiteral("/audit-view.png")));
        }

        // Issue 27, item 13: an entry's detail and why it failed, and a window that closes as any KDE window.
        // A create refused for its job dir: the reason is a field violation, which the entry keeps.
        const QByteArray refused = R"({"jobId":"outside_roots","trainingInput":{"scaleTier":"BASIC",)"
                                   R"("pythonModule":"t.task","packageUris":["/tmp"],"jobDir":"/etc/trainyard-x"}})";
        FieldViolations decoded;
        const Job outsideRoots = JobJson::fromJson(QJsonDocument::fromJson(refused).object(), &decoded);
        QVERIFY(decoded.isEmpty());
        QVERIFY(!client->createJobBlocking(outsideRoots).ok());
        view->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 4, 15000);
        QCOMPARE(model->index(0, AuditLogModel::Method).data().toString(),
            QStringLiteral("google.cloud.ml.v1.JobService.CreateJob"));
        const QString tip = model->index(0, AuditLogModel::Outcome).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("trainingInput.jobDir")) && tip.contains(QLatin1String("lies outside")),
            qPrintable(tip));
        // Double-click opens the whole entry.
        QTableView* table = view->table();
        const QRect cell = table->visualRect(model->index(0, AuditLogModel::Method));
        // A double-click as a mouse makes it: press and release, then the double-click (QTest's alone has no press).
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = view->findChild<QDialog*>(QStringLiteral("auditEntryDialog"))) && dialog->isVisible());
        const QString detail = view->findChild<QLabel*>(QStringLiteral("auditEntrySummary"))->text();
        for (const char* expected : { "CreateJob", "INVALID_ARGUMENT", "trainingInput.jobDir", "lies outside",
                 "127.0.0.1", "projects/local/jobs/outside_roots" })
            QVERIFY2(detail.contains(QLatin1String(expected)), qPrintable(detail));
        QPointer<QDialog> open(dialog);
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        QTest::keyClick(dialog->findChild<QPlainTextEdit*>(QStringLiteral("auditEntryJson")), Qt::Key_Escape);
        QTRY_VERIFY(!open || !open->isVisible());
        // Esc, Ctrl+W and the Close button each close the view.
        QVERIFY(view->isVisible());
        view->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(view));
        QTest::keyClick(view->table(), Qt::Key_Escape);
        QTRY_VERIFY(!view->isVisible());
        action->trigger();
        QVERIFY(QTest::qWaitForWindowActive(view));
        QTest::keyClick(view->table(), Qt::Key_W, Qt::ControlModifier);
        QTRY_VERIFY(!view->isVisible());
        action->trigger();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        QVERIFY(view->closeButton()->isVisible());
        QTest::mouseClick(view->closeButton(), Qt::LeftButton);
        QTRY_VERIFY(!view->isVisible());
    }
};

QTEST_MAIN(TestAuditView)
#include "tst_auditview.moc"
