// SPDX-License-Identifier: GPL-2.0-or-later
// The Trials tab on a live study: the console starts the bundled executor (isolated XDG folders), a GRID_SEARCH
// tuning job of the test trainer tytest.objective runs 4 trials, 2 at a time; the tab's model and proxy stay
// valid (QAbstractItemModelTester) while trials appear and their objectives arrive, the best trial is pinned on
// top once the job succeeded, and selecting a trial filters the Logs tab to that trial's lines.

#include "apiclient.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "jobview.h"
#include "loglinestore.h"
#include "logpanel.h"
#include "mainwindow.h"
#include "metricspanel.h"
#include "replicamodel.h"
#include "trialsmodel.h"
#if TRAINYARD_HAVE_QTCHARTS
#include "studycharts.h"
#endif
#include "trialspanel.h"
#include "trialsproxymodel.h"
#include "tuningjobs.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestTrialsLive : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QList<qint64> m_pids;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobdir") }));
    }

    void cleanupTestCase() { Test::stopExecutors(m_pids); }

    void liveStudy()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;

        Job job = Test::customJob(QStringLiteral("trials_live"), QStringLiteral("tytest.objective"));
        job.trainingInput.jobDir = m_root.filePath(QStringLiteral("jobdir"));
        job.trainingInput.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest") };
        job.trainingInput.runtimeVersion = QStringLiteral("2.11");
        job.trainingInput.pythonVersion = QStringLiteral("3.7");
        // Slow enough that the tab sees trials running and their reports arriving.
        job.trainingInput.args = { QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--step-seconds"),
            QStringLiteral("0.7") };
        HyperparameterSpec spec;
        spec.goal = QStringLiteral("MAXIMIZE");
        spec.algorithm = QStringLiteral("GRID_SEARCH");
        spec.hyperparameterMetricTag = QStringLiteral("score");
        spec.maxTrials = 4;
        spec.maxParallelTrials = 2;
        spec.params = { Test::integerParameter(QStringLiteral("n"), 2, 3),
            Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b") }) };
        job.trainingInput.hyperparameters = spec;
        const ApiResult<Job> created = connection.client()->createJobBlocking(job);
        QString details;
        for (const FieldViolation& v : created.error.violations)
            details += QLatin1Char(' ') + v.field + QStringLiteral(": ") + v.description;
        QVERIFY2(created.ok(), qPrintable(created.error.summary() + details));

        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(job.jobId), 10000);
        JobView* view = window.jobView();
        QVERIFY(view);
        TrialsPanel* trials = view->trialsPanel();
        QVERIFY(trials);
        // Each tab keeps its key whatever tabs a job has (issue 46 item 8: Ctrl+N followed the tabs' positions, so
        // Ctrl+2 was Trials here and Topology elsewhere): Trials is the second tab and Ctrl+6, as the README says.
        QCOMPARE(view->tabPosition(JobView::TrialsTab), 1);
        auto* trialsAction = window.findChild<QAction*>(QStringLiteral("showTab%1").arg(int(JobView::TrialsTab)));
        QVERIFY(trialsAction && trialsAction->isVisible());
        QCOMPARE(trialsAction->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_6));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(window.jobTable(), Qt::Key_6, Qt::ControlModifier);
        QCOMPARE(view->currentTab(), JobView::TrialsTab);
        QTest::keyClick(window.jobTable(), Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(view->currentTab(), JobView::TopologyTab);
        QTest::keyClick(window.jobTable(), Qt::Key_5, Qt::ControlModifier);
        QCOMPARE(view->currentTab(), JobView::MetricsTab);
        view->showTab(JobView::TrialsTab);
        QAbstractItemModelTester modelTester(trials->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester proxyTester(trials->proxy(), QAbstractItemModelTester::FailureReportingMode::Fatal);

        // Live: trials appear while the job runs, with an objective before they end.
        QTRY_VERIFY_WITH_TIMEOUT(trials->model()->rowCount() >= 1, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(trials->model()->rowCount(), 4, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(view->logPanel()->hasEnded(), 120000);

        // Finished: every trial has its objective; the best (n=3, opt=a: 0.91) is the proxy's first row.
        const int objective = trials->model()->objectiveColumn();
        QTRY_COMPARE_WITH_TIMEOUT(
            trials->proxy()->data(trials->proxy()->index(0, objective), TrialsModel::ObjectiveRole).toDouble(), 0.91,
            10000);
        QVERIFY(trials->proxy()->data(trials->proxy()->index(0, 0), TrialsModel::IsBestRole).toBool());
#if TRAINYARD_HAVE_QTCHARTS
        // Issue 46 item 21: every trial's 3 reports by step, and the executor's fANOVA importance: the objective loses
        // 0.5 for opt=b and 0.1 for n=2 (tytest.objective), so opt explains more of it than n.
        QTRY_COMPARE_WITH_TIMEOUT(trials->intermediateChart()->drawnTrials().size(), 4, 10000);
        for (const QString& drawn : trials->intermediateChart()->drawnTrials())
            QVERIFY2(drawn.endsWith(QLatin1String(":3")), qPrintable(drawn));
        QTRY_VERIFY_WITH_TIMEOUT(trials->importanceChart()->bars().size() == 2
                || (!trials->importanceChart()->noteLabel()->text().isEmpty()
                    && !trials->importanceChart()->noteLabel()->text().startsWith(QLatin1String("Importance is"))),
            60000);
        const QStringList bars = trials->importanceChart()->bars();
        QVERIFY2(bars.size() == 2 && bars.first().startsWith(QLatin1String("opt ")),
            qPrintable(bars.join(QLatin1String(", ")) + QLatin1Char(' ') + trials->importanceChart()->noteLabel()->text()));
        QVERIFY(trials->importanceChart()->noteLabel()->text().contains(QLatin1String("fANOVA")));
#endif
        const QString bestTrial = trials->proxy()->data(trials->proxy()->index(0, 0)).toString();

        // Selecting a trial shows only its lines in the Logs tab.
        QString other;
        for (int row = 1; row < trials->proxy()->rowCount(); ++row) {
            other = trials->proxy()->data(trials->proxy()->index(row, 0)).toString();
            break;
        }
        trials->table()->selectionModel()->select(
            trials->proxy()->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        LogPanel* logs = view->logPanel();
        QTRY_COMPARE(logs->trialFilter(), bestTrial);
        QVERIFY(logs->trialLabel()->isVisibleTo(logs));
        auto has = [logs](const QString& needle) {
            for (qint64 i = 0; i < logs->store()->size(); ++i) {
                if (QString::fromUtf8(logs->store()->text(i)).contains(needle))
                    return true;
            }
            return false;
        };
        // The topology shows that trial's cluster (one master), named in its bar.
        QLabel* topologyTrial = view->findChild<QLabel*>(QStringLiteral("topologyTrial"));
        QVERIFY(topologyTrial);
        QTRY_COMPARE(topologyTrial->text(), tr("Trial %1").arg(bestTrial));
        QCOMPARE(view->replicaModel()->rowCount(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(has(QStringLiteral("Trial %1 is running.").arg(bestTrial)) && logs->hasEnded(), 20000);
        QVERIFY(!has(QStringLiteral("Trial %1 is running.").arg(other)));
        QVERIFY(has(QStringLiteral("step 3 score=0.91")));
    }

    void selectedTrialsNarrowMetrics()
    {
        // Issue 27, item 3: every trial's event files (under <job-dir>/<trial>/, as the service's samples write
        // them) were series of no trial, so selecting trials did not narrow the Metrics tab and every legend
        // entry read the job's ID. Each is now "trial N …", and a click on a trial's row narrows the charts to it.
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;

        Job job = Test::customJob(QStringLiteral("trials_metrics"), QStringLiteral("consoletest.scalars"));
        job.trainingInput.jobDir = m_root.filePath(QStringLiteral("jobdir/trials_metrics"));
        job.trainingInput.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/gui/trainers/consoletest") };
        job.trainingInput.args
            = { QStringLiteral("--steps"), QStringLiteral("5"), QStringLiteral("--interval"), QStringLiteral("0") };
        QVERIFY(QDir().mkpath(job.trainingInput.jobDir));
        QVERIFY(Test::releaseJob(job.trainingInput.jobDir)); // the trials exit once they wrote their scalars
        HyperparameterSpec spec;
        spec.goal = QStringLiteral("MINIMIZE");
        spec.algorithm = QStringLiteral("GRID_SEARCH");
        spec.hyperparameterMetricTag = QStringLiteral("train/loss");
        spec.maxTrials = 2;
        spec.maxParallelTrials = 2;
        spec.params = { Test::integerParameter(QStringLiteral("n"), 1, 2) };
        job.trainingInput.hyperparameters = spec;
        const ApiResult<Job> created = connection.client()->createJobBlocking(job);
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(connection.client()->getJobBlocking(job.jobId).value.state), 120000);

        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(job.jobId), 10000);
        JobView* view = window.jobView();
        QVERIFY(view->showTab(JobView::MetricsTab));
        MetricsPanel* metrics = view->metricsPanel();
        QVERIFY(metrics);
        const QString one = QStringLiteral("trial 1 master-replica-0");
        const QString two = QStringLiteral("trial 2 master-replica-0");
        auto names = [metrics] {
            QStringList out;
            if (MetricChart* loss = metrics->chart(QStringLiteral("scalar:train/loss")))
                for (int index : loss->seriesIndices())
                    out << loss->smoothedLine(index)->name();
            return out;
        };
        QTRY_VERIFY_WITH_TIMEOUT(names().contains(one) && names().contains(two), 30000);
        QVERIFY2(!names().join(QLatin1Char(' ')).contains(job.jobId), qPrintable(names().join(QStringLiteral(", "))));

        // A click on trial 2's row in the Trials tab: the Metrics tab shows trial 2's series only.
        QVERIFY(view->showTab(JobView::TrialsTab));
        TrialsPanel* trials = view->trialsPanel();
        QTableView* table = trials->table();
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, 30000);
        int row = -1;
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, 0).data().toString() == QStringLiteral("2"))
                row = r;
        QVERIFY(row >= 0);
        QTest::mouseClick(
            table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(row, 1)).center());
        QTRY_COMPARE(trials->selectedTrials(), QStringList { QStringLiteral("2") });
        QVERIFY(view->showTab(JobView::MetricsTab));
        QCOMPARE(metrics->trialFilter(), QStringList { QStringLiteral("2") });
        MetricChart* loss = metrics->chart(QStringLiteral("scalar:train/loss"));
        QVERIFY(loss);
        int shown = 0;
        for (int index : loss->seriesIndices()) {
            const QString name = loss->smoothedLine(index)->name();
            if (loss->isSeriesShown(index)) {
                ++shown;
                QVERIFY2(name.startsWith(QStringLiteral("trial 2")), qPrintable(name));
            }
        }
        QCOMPARE(shown, 1);
    }
};

QTEST_MAIN(TestTrialsLive)
#include "tst_trialslive.moc"
