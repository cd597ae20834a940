// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 27, item 2: the main window never outgrows its screen. Selecting a tuning job grew it from 665 to 986 px on
// a 700 px screen, opening the Clusters dock to 1,137 px on a 1,000 px one, and it never shrank. Here every kind of
// job (a plain job, a failed one, a tuning job) is selected and every tab and dock opened, with real key input, and
// after each step the window's frame must lie inside the screen's available area. ctest runs it twice: on the
// offscreen platform's screen, and on a 1024 × 700 X server (gui/tst_screenfit_1024x700, xvfb-run). With
// TRAINYARD_SCREENSHOT_DIR set, the window as drawn after each kind of job goes there.

#include "apiclient.h"
#include "auditview.h"
#include "clustersmodel.h"
#include "clustersview.h"
#include "executorconnection.h"
#include "translations.h"
#include "executorenvironment.h"
#include "jobview.h"
#include "mainwindow.h"
#include "tuningjobs.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QScreen>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace Trainyard;

class TestScreenFit : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QList<qint64> m_pids;

    QString path(const QString& name) const { return m_root.filePath(name); }

    /// The window's frame and its screen's available area, for a failure message.
    static QString where(const QWidget& w)
    {
        const QRect f = w.frameGeometry();
        const QRect a = w.screen()->availableGeometry();
        return QStringLiteral("frame %1,%2 %3x%4 on a screen area %5,%6 %7x%8 (minimum size %9x%10)")
            .arg(f.x())
            .arg(f.y())
            .arg(f.width())
            .arg(f.height())
            .arg(a.x())
            .arg(a.y())
            .arg(a.width())
            .arg(a.height())
            .arg(w.minimumSizeHint().width())
            .arg(w.minimumSizeHint().height());
    }

    static bool fits(const QWidget& w)
    {
        const QRect available = w.screen()->availableGeometry();
        return w.frameGeometry().height() <= available.height() && w.frameGeometry().width() <= available.width()
            && w.minimumSizeHint().height() <= available.height() && w.minimumSizeHint().width() <= available.width();
    }

    void screenshot(QWidget& w, const QString& name)
    {
        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        w.grab().save(dir + QLatin1Char('/') + name);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobs") }));
    }

    void cleanupTestCase() { Test::stopExecutors(m_pids); }

    void everyViewFitsTheScreen()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Shortcuts reach an active window only (an X server with no window manager activates it on request).
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        qInfo().noquote() << "screen" << window.screen()->availableGeometry() << "window" << window.frameGeometry();
        QVERIFY2(fits(window), qPrintable(where(window)));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();

        // A plain job that succeeds, one that fails at once (its module does not exist), and a tuning job of two
        // trials.
        const QString trainers = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
        Job plain = Test::customJob(QStringLiteral("fit_plain"), QStringLiteral("tytest.ok"));
        plain.trainingInput.packageUris = { trainers };
        plain.trainingInput.jobDir = path(QStringLiteral("jobs/fit_plain"));
        Job failed = Test::customJob(QStringLiteral("fit_failed"), QStringLiteral("tytest.no_such_module"));
        failed.trainingInput.packageUris = { trainers };
        Job tuning = Test::customJob(QStringLiteral("fit_tuning"), QStringLiteral("tytest.objective"));
        tuning.trainingInput.packageUris = { trainers };
        tuning.trainingInput.jobDir = path(QStringLiteral("jobs/fit_tuning"));
        HyperparameterSpec spec;
        spec.goal = QStringLiteral("MAXIMIZE");
        spec.hyperparameterMetricTag = QStringLiteral("score");
        spec.maxTrials = 2;
        spec.maxParallelTrials = 1;
        spec.params = { Test::integerParameter(QStringLiteral("n"), 2, 3) };
        tuning.trainingInput.hyperparameters = spec;
        for (const Job& job : { plain, failed, tuning }) {
            const ApiResult<Job> created = client->createJobBlocking(job);
            QVERIFY2(created.ok(), qPrintable(created.error.summary()));
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(QStringLiteral("fit_tuning")), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!client->getJobBlocking(QStringLiteral("fit_tuning"))
                                      .value.trainingOutput.value_or(TrainingOutput {})
                                      .trials.isEmpty(),
            120000);

        auto* clusters = window.findChild<QAction*>(QStringLiteral("showClustersAction"));
        QVERIFY(clusters);
        for (const QString& id :
            { QStringLiteral("fit_plain"), QStringLiteral("fit_failed"), QStringLiteral("fit_tuning") }) {
            QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(id), 20000);
            QVERIFY(window.jobView());
            QTRY_VERIFY2(fits(window), qPrintable(id + QStringLiteral(": ") + where(window)));
            // Every tab, as a user opens them: Ctrl+1 … Ctrl+6 from the job list.
            for (int tab = 0; tab < 6; ++tab) {
                QTest::keyClick(
                    static_cast<QWidget*>(window.jobTable()), Qt::Key(Qt::Key_1 + tab), Qt::ControlModifier);
                if (auto* tabs = window.jobView()->findChild<QTabWidget*>(); tabs && tab < tabs->count())
                    QTRY_VERIFY(tabs->currentWidget()->isVisible());
                QTRY_VERIFY2(
                    fits(window), qPrintable(QStringLiteral("%1, tab %2: ").arg(id).arg(tab + 1) + where(window)));
            }
            screenshot(window, QStringLiteral("screenfit-%1.png").arg(id));
        }
        // Issue 46 item 19: in German the failure banner was wider than the pane ("Mehr zeigen" cut, "In Logs
        // zeigen" behind a scroll bar). The text wraps; both buttons are whole, inside the banner, inside the pane.
        Translations::install(qApp, QStringLiteral("de"));
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(QStringLiteral("fit_plain")), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(QStringLiteral("fit_failed")), 20000);
        JobView* failedView = window.jobView();
        QTRY_VERIFY(failedView->errorBanner()->isVisible());
        QCOMPARE(failedView->errorLogsButton()->text(), QStringLiteral("In &Logs zeigen"));
        for (QToolButton* button : { failedView->errorMoreButton(), failedView->errorLogsButton() }) {
            if (!button->isVisible())
                continue;
            QTRY_VERIFY2(failedView->errorBanner()->rect().contains(button->geometry())
                    && button->width() >= button->sizeHint().width(),
                qPrintable(QStringLiteral("%1 at %2,%3 %4×%5 in a banner %6 wide")
                               .arg(button->text())
                               .arg(button->x())
                               .arg(button->y())
                               .arg(button->width())
                               .arg(button->height())
                               .arg(failedView->errorBanner()->width())));
        }
        QVERIFY2(failedView->errorBanner()->width() <= failedView->width(),
            qPrintable(QStringLiteral("%1 > %2").arg(failedView->errorBanner()->width()).arg(failedView->width())));
        QTRY_VERIFY2(fits(window), qPrintable(where(window)));
        screenshot(window, QStringLiteral("screenfit-fit_failed-de.png"));
        Translations::install(qApp, QStringLiteral("en"));
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(QStringLiteral("fit_tuning")), 20000);
        // The Clusters dock (Ctrl+Shift+L), over the tuning job.
        QTest::keyClick(static_cast<QWidget*>(window.jobTable()), Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(window.clustersDock()->isVisible());
        // With no cluster configured, the dock says where clusters.yaml goes, with an example and the README's
        // section (issue 27, item 14), and its Memory column says what is in use of what there is, as CPUs do.
        ClustersView* clustersView = window.clustersView();
        QTRY_VERIFY_WITH_TIMEOUT(clustersView->emptyState()->isVisible(), 20000);
        const QString empty = clustersView->emptyState()->text();
        const QString yaml = qEnvironmentVariable("XDG_CONFIG_HOME") + QStringLiteral("/trainyard/clusters.yaml");
        QVERIFY2(empty.contains(yaml) && empty.contains(QStringLiteral("slurmrestd:"))
                && empty.contains(QStringLiteral("README")),
            qPrintable(empty));
        ClustersModel* regions = clustersView->model();
        QTRY_VERIFY(regions->rowCount() >= 1);
        const QString cpus = regions->index(0, ClustersModel::CpusColumn).data().toString();
        const QString memory = regions->index(0, ClustersModel::MemoryColumn).data().toString();
        QVERIFY2(cpus.contains(QStringLiteral(" / ")) && memory.contains(QStringLiteral(" / ")),
            qPrintable(cpus + QStringLiteral(" | ") + memory));
        QCOMPARE(regions->headerData(ClustersModel::MemoryColumn, Qt::Horizontal).toString(),
            QStringLiteral("Memory in use"));
        QTRY_VERIFY2(fits(window), qPrintable(QStringLiteral("with the Clusters dock: ") + where(window)));
        screenshot(window, QStringLiteral("screenfit-clusters.png"));
        // The Audit Log, a window of its own (View menu).
        auto* audit = window.findChild<QAction*>(QStringLiteral("showAuditLog"));
        QVERIFY(audit);
        audit->trigger();
        QTRY_VERIFY(window.auditView() && window.auditView()->isVisible());
        QTRY_VERIFY2(
            fits(*window.auditView()), qPrintable(QStringLiteral("the Audit Log: ") + where(*window.auditView())));
        screenshot(*window.auditView(), QStringLiteral("screenfit-audit.png"));
        window.auditView()->close();
        // Maximised, it stays on the screen too.
        window.showMaximized();
        QTRY_VERIFY2(fits(window), qPrintable(QStringLiteral("maximised: ") + where(window)));
    }
};

QTEST_MAIN(TestScreenFit)
#include "tst_screenfit.moc"
