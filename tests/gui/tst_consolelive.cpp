// SPDX-License-Identifier: GPL-2.0-or-later
// The console against a real executor, in isolated XDG folders: the console starts the bundled executor
// itself (TRAINYARD_EXECUTOR_BIN), a tiny 1 master + 1 worker job submitted through ApiClient shows up in
// the job list, its topology and its logs (filters and follow mode on the live stream), it succeeds, and
// after the executor is killed the console reconnects by itself (the locator starts a new one).

#include "apiclient.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "joblistmodel.h"
#include "jobview.h"
#include "loglinestore.h"
#include "logpanel.h"
#include "logview.h"
#include "mainwindow.h"
#include "statenames.h"
#include "topologyview.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Trainyard;

class TestConsoleLive : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QList<qint64> m_pids;

    QString path(const QString& name) const { return m_root.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobdir") }));
    }

    void cleanupTestCase()
    {
        Test::stopExecutors(m_pids);
    }

    void liveJobAndReconnect()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        QVERIFY(connection.endpoint().pid > 0);

        Job job;
        job.jobId = QStringLiteral("console_live_1");
        job.labels.insert(QStringLiteral("suite"), QStringLiteral("gui"));
        TrainingInput& in = job.trainingInput;
        in.scaleTier = QStringLiteral("CUSTOM");
        in.masterType = QStringLiteral("n1-standard-4");
        in.workerType = QStringLiteral("n1-standard-4");
        in.workerCount = 1;
        in.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/gui/trainers/consoletest") };
        in.pythonModule = QStringLiteral("consoletest.chatty");
        in.args = { QStringLiteral("--lines"), QStringLiteral("200") };
        in.region = QStringLiteral("us-central1");
        in.jobDir = path(QStringLiteral("jobdir"));
        const ApiResult<Job> created = connection.client()->createJobBlocking(job);
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));

        // The job list shows it; selecting it opens its view.
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(job.jobId), 10000);
        JobView* view = window.jobView();
        QVERIFY(view);
        QCOMPARE(view->jobId(), job.jobId);
        QVERIFY(view->yamlView()->toPlainText().contains(QStringLiteral("consoletest.chatty")));

        // Topology: master and worker, connected.
        QTRY_COMPARE_WITH_TIMEOUT(view->topologyView()->taskNames(),
            (QStringList { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0") }), 60000);
        QCOMPARE(view->topologyView()->edges().size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(
            view->topologyView()->nodeState(QStringLiteral("worker-replica-0")), ReplicaState::Running, 60000);

        // Logs: both replicas' lines arrive, merged.
        LogPanel* logs = view->logPanel();
        view->showTab(JobView::LogsTab);
        auto countText = [logs](const QString& needle) {
            qint64 n = 0;
            for (qint64 i = 0; i < logs->store()->size(); ++i)
                n += QString::fromUtf8(logs->store()->text(i)).contains(needle);
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(countText(QStringLiteral("worker-replica-0 line 199")) == 1
                && countText(QStringLiteral("master-replica-0 line 199")) == 1,
            60000);
        QVERIFY(logs->view()->followMode());
        for (qint64 i = 1; i < logs->store()->size(); ++i)
            QVERIFY(logs->store()->timestampUs(i - 1) <= logs->store()->timestampUs(i));

        // Clicking a node in the topology opens the Logs tab filtered to that replica.
        view->showTab(JobView::TopologyTab);
        emit view->topologyView()->taskActivated(QStringLiteral("worker-replica-0"));
        QCOMPARE(view->currentTab(), JobView::LogsTab);
        QCOMPARE(logs->taskBox()->currentData().toString(), QStringLiteral("worker-replica-0"));
        QVERIFY(logs->view()->rowCount() >= 201);
        for (qint64 r = 0; r < logs->view()->rowCount(); ++r) {
            const qint64 line = logs->view()->lineAt(r);
            QCOMPARE(logs->store()->taskName(logs->store()->taskId(line)), QStringLiteral("worker-replica-0"));
        }

        // Text filter on the live stream.
        QTest::keyClicks(logs->textEdit(), QStringLiteral("simulated failure"));
        QTRY_COMPARE(logs->view()->rowCount(), 1);
        logs->textEdit()->clear();
        logs->showTask(QString());
        QTRY_VERIFY(logs->view()->rowCount() >= 402);

        // Follow mode: scrolling up stops it.
        logs->view()->setFocus();
        QTest::keyClick(logs->view(), Qt::Key_Home);
        QVERIFY(!logs->view()->followMode());
        QTest::keyClick(logs->view(), Qt::Key_End);
        QVERIFY(logs->view()->followMode());

        // Let the replicas finish: the job succeeds, the stream ends.
        QVERIFY(Test::releaseJob(path(QStringLiteral("jobdir"))));
        const int row = window.jobModel()->rowOf(job.jobId);
        QTRY_COMPARE_WITH_TIMEOUT(window.jobModel()->jobAt(row)->state, JobState::Succeeded, 60000);
        // The Overview's timeline was rebuilt: its last step says Succeeded, and no heading of the running
        // job is left behind (they once stayed on screen under the new ones).
        view->showTab(JobView::OverviewTab);
        QGroupBox* timeline = nullptr;
        const auto boxes = view->findChildren<QGroupBox*>();
        for (QGroupBox* box : boxes) {
            if (box->title() == QLatin1String("State timeline"))
                timeline = box;
        }
        QVERIFY(timeline);
        auto timelineLabels = [timeline](const QString& needle) {
            int n = 0;
            const auto labels = timeline->findChildren<QLabel*>();
            for (const QLabel* l : labels)
                n += l->text().contains(needle);
            return n;
        };
        QTRY_COMPARE(timelineLabels(QStringLiteral("Succeeded</b>")), 1);
        QCOMPARE(timelineLabels(QStringLiteral("Now: ")), 0);
        QTRY_VERIFY_WITH_TIMEOUT(logs->hasEnded(), 30000);
        QTRY_COMPARE(view->topologyView()->nodeState(QStringLiteral("master-replica-0")), ReplicaState::Succeeded);

        // Kill the executor: the console notices, starts a new one and says it reconnected.
        QSignalSpy reconnected(&connection, &ExecutorConnection::reconnected);
        const qint64 oldPid = connection.endpoint().pid;
        // Disconnected lasts only until the first retry (500 ms): what the label said is caught as it happens.
        QStringList labelWhenDisconnected;
        QObject::connect(&connection, &ExecutorConnection::stateChanged, &window, [&](ExecutorConnection::State state) {
            if (state == ExecutorConnection::State::Disconnected)
                labelWhenDisconnected << window.connectionLabel()->text();
        });
        QCOMPARE(::kill(pid_t(oldPid), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!labelWhenDisconnected.isEmpty(), 15000);
        QVERIFY2(labelWhenDisconnected.first().contains(QStringLiteral("Disconnected")),
            qPrintable(labelWhenDisconnected.first()));
        // From here on, a refresh can only come from the new executor's job stream.
        QSignalSpy refreshed(&window, &MainWindow::jobsRefreshed);
        QTRY_COMPARE_WITH_TIMEOUT(reconnected.count(), 1, 60000);
        m_pids << connection.endpoint().pid;
        QVERIFY(connection.endpoint().pid != oldPid);
        QVERIFY(window.connectionLabel()->text().contains(QStringLiteral("Connected")));
        // The new executor has the same data: the job is still listed, after the job stream resumed there.
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, 10000);
        QVERIFY(window.jobModel()->rowOf(job.jobId) >= 0);
    }
};

QTEST_MAIN(TestConsoleLive)
#include "tst_consolelive.moc"
