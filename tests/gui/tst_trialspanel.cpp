// SPDX-License-Identifier: GPL-2.0-or-later
// The Trials tab: brushing on the parallel-coordinates plot with real mouse events (at the coordinates the
// plot's axisX() / valueToY() give) filters the table, several brushes AND, a click on an axis clears its
// brush and Escape all of them; the top-k % filter; the table's selection; "Submit with these values" and
// "Resume tuning" carry the right jobs; live jobs are applied in batches; the scatter's axes follow the
// parameter's type and scale; and in JobView the tab comes after Overview only for tuning jobs, and the
// Metrics tab follows the selected trials.

#include "executorconnection.h"
#include "jobview.h"
#include "mainwindow.h"
#include "metricspanel.h"
#include "parallelcoordinates.h"
#include "stateicons.h"
#include "statenames.h"
#include "submitwizard.h"
#include "trialsmodel.h"
#include "studycharts.h"
#include "trialspanel.h"
#include "trialsproxymodel.h"
#include "tuningjobs.h"
#include "wizardpages.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCategoryAxis>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include <cmath>

using namespace Trainyard;

namespace {
constexpr int Trials = 12;

QSet<QString> shownTrials(const TrialsPanel& panel)
{
    QSet<QString> ids;
    for (int row = 0; row < panel.proxy()->rowCount(); ++row)
        ids.insert(panel.proxy()->trialIdAt(row));
    return ids;
}

// The trials whose value on `axis` lies in [lo, hi].
QSet<QString> trialsIn(const ParallelCoordinates& plot, int axis, double lo, double hi)
{
    QSet<QString> ids;
    for (int row = 0; row < plot.model()->trialCount(); ++row) {
        const auto v = plot.trialValue(row, axis);
        if (v && *v >= lo && *v <= hi)
            ids.insert(plot.model()->trial(row).trialId);
    }
    return ids;
}

// A drag along an axis, as a user makes it: press, moves with the button held, release.
void drag(QWidget* widget, const QPointF& from, const QPointF& to)
{
    const QPoint a = from.toPoint();
    const QPoint b = to.toPoint();
    QTest::mousePress(widget, Qt::LeftButton, Qt::NoModifier, a);
    for (int i = 1; i <= 4; ++i)
        QTest::mouseMove(widget, a + (b - a) * i / 4);
    QTest::mouseRelease(widget, Qt::LeftButton, Qt::NoModifier, b);
}
} // namespace

class TestTrialsPanel : public QObject {
    Q_OBJECT

    static void screenshot(QWidget* widget, const QString& name)
    {
        // For looking, not for asserting: with TRAINYARD_SCREENSHOT_DIR set, the panel as drawn.
        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            widget->grab().save(dir + QLatin1Char('/') + name);
    }

private Q_SLOTS:
    void initTestCase()
    {
        // MainWindow and the wizard keep settings and drafts: not in the user's.
        QStandardPaths::setTestModeEnabled(true);
    }

    /// Issue 46 item 18: at 1024×700 the plot took the tab and the table showed a row and a half. The splitter
    /// between them keeps the size the user gave it, for the next job's Trials tab too.
    void splitterIsRemembered()
    {
        QSettings().remove(QStringLiteral("trialsPanel/split"));
        QList<int> given;
        {
            TrialsPanel panel(Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_split_a")), Trials));
            panel.resize(1024, 560);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QSplitter* split = panel.splitter();
            QVERIFY(split);
            const int total = split->sizes().value(0) + split->sizes().value(1);
            split->setSizes({ total / 3, total - total / 3 });
            given = split->sizes();
        }
        TrialsPanel next(Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_split_b")), Trials));
        next.resize(1024, 560);
        next.show();
        QVERIFY(QTest::qWaitForWindowExposed(&next));
        QTRY_COMPARE(next.splitter()->sizes(), given);
        QVERIFY(next.splitter()->sizes().value(1) > next.splitter()->sizes().value(0));
    }

    /// Issue 46 item 21: optuna-dashboard's intermediate values (each trial's reports by step, early-stopped trials
    /// marked) and hyperparameter importance, beside the objective's charts.
    void intermediateValuesAndImportance()
    {
        Job job = Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_intermediate")), 4);
        for (HyperparameterOutput& t : job.trainingOutput->trials) {
            const double last = *t.finalMetric->objectiveValue;
            const int steps = t.trialId == QLatin1String("2") ? 2 : 5;
            t.allMetrics.clear();
            for (int step = 1; step <= steps; ++step)
                t.allMetrics.append({ step * 100, last - (steps - step) * 0.05 });
            if (t.trialId == QLatin1String("2"))
                t.isTrialStoppedEarly = true;
        }
        TrialsPanel panel(Test::tuningJob(QStringLiteral("tune_intermediate")));
        QSignalSpy wanted(&panel, &TrialsPanel::importanceWanted);
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setJob(job);
        panel.applyNow();
        QVERIFY(panel.chartTabs());
        panel.chartTabs()->setCurrentWidget(panel.intermediateChart());
        QStringList drawn = panel.intermediateChart()->drawnTrials();
        QCOMPARE(drawn.size(), 4);
        QVERIFY2(drawn.contains(QStringLiteral("2:2 stopped early")), qPrintable(drawn.join(QLatin1Char(' '))));
        QVERIFY2(drawn.contains(QStringLiteral("1:5")), qPrintable(drawn.join(QLatin1Char(' '))));
        QVERIFY(panel.intermediateChart()->emptyLabel()->isHidden());
        screenshot(&panel, QStringLiteral("trials-intermediate-values.png"));
        // Four succeeded trials: importance is wanted once, and again only when they change.
        QCOMPARE(wanted.count(), 1);
        panel.setJob(job);
        panel.applyNow();
        QCOMPARE(wanted.count(), 1);
        HyperparameterImportance importance;
        importance.method = QStringLiteral("fANOVA (optuna)");
        importance.trials = 4;
        importance.importances = { { QStringLiteral("learning_rate"), 0.7 }, { QStringLiteral("layers"), 0.3 } };
        panel.setImportance(importance);
        panel.chartTabs()->setCurrentWidget(panel.importanceChart());
        QCOMPARE(panel.importanceChart()->bars(),
            (QStringList { QStringLiteral("learning_rate 0.700"), QStringLiteral("layers 0.300") }));
        QVERIFY(panel.importanceChart()->noteLabel()->text().startsWith(QLatin1String("fANOVA (optuna).")));
        screenshot(&panel, QStringLiteral("trials-importance.png"));
        panel.setImportanceProblem(QStringLiteral("Job tune_intermediate has 1 succeeded trial(s)"));
        QVERIFY(panel.importanceChart()->bars().isEmpty());
    }

    void brushing()
    {
        TrialsPanel panel(Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_brush")), Trials));
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        ParallelCoordinates* plot = panel.plot();
        QCOMPARE(plot->axisCount(), 5);
        QCOMPARE(plot->axisScale(0), ParallelCoordinates::Scale::Log);
        QCOMPARE(plot->axisScale(3), ParallelCoordinates::Scale::Categorical);
        QCOMPARE(plot->objectiveAxis(), 4);
        QCOMPARE(panel.proxy()->rowCount(), Trials);
        QSignalSpy passing(plot, &ParallelCoordinates::passingTrialsChanged);

        // learning_rate (a log axis) from 1e-3 to 1e-2.
        const double x0 = plot->axisX(0);
        drag(plot, QPointF(x0, plot->valueToY(0, 1e-3)), QPointF(x0 + 1, plot->valueToY(0, 1e-2)));
        QVERIFY(passing.count() >= 1);
        const auto lr = plot->brush(0);
        QVERIFY(lr);
        // Within a pixel of the values dragged over (a decade is a third of the axis).
        QVERIFY2(std::fabs(std::log10(lr->first) + 3) < 0.03, qPrintable(QString::number(lr->first)));
        QVERIFY2(std::fabs(std::log10(lr->second) + 2) < 0.03, qPrintable(QString::number(lr->second)));
        const QSet<QString> byRate = trialsIn(*plot, 0, lr->first, lr->second);
        QVERIFY(!byRate.isEmpty() && byRate.size() < Trials);
        QTRY_COMPARE(shownTrials(panel), byRate);
        QCOMPARE(panel.table()->model()->rowCount(), int(byRate.size()));
        screenshot(&panel, QStringLiteral("trials-brush-rate.png"));

        // And optimizer (categorical) = "adam": the brushes AND.
        const double x3 = plot->axisX(3);
        drag(plot, QPointF(x3, plot->valueToY(3, -0.4)), QPointF(x3, plot->valueToY(3, 0.4)));
        const auto optimizer = plot->brush(3);
        QVERIFY(optimizer);
        const QSet<QString> adam = trialsIn(*plot, 3, 0, 0);
        QCOMPARE(trialsIn(*plot, 3, optimizer->first, optimizer->second), adam);
        QTRY_COMPARE(shownTrials(panel), byRate & adam);

        // A click on the learning-rate axis clears its brush: optimizer's alone is left.
        QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, QPointF(x0, plot->valueToY(0, 3e-2)).toPoint());
        QVERIFY(!plot->brush(0));
        QVERIFY(plot->brush(3));
        QTRY_COMPARE(shownTrials(panel), adam);

        // A brush on the objective axis: the best trials, whatever the parameters.
        const int objective = plot->objectiveAxis();
        const auto [lo, hi] = plot->axisRange(objective);
        const double xo = plot->axisX(objective);
        drag(plot, QPointF(xo, plot->valueToY(objective, hi)), QPointF(xo, plot->valueToY(objective, (lo + hi) / 2)));
        const auto top = plot->brush(objective);
        QVERIFY(top);
        QTRY_COMPARE(shownTrials(panel), adam & trialsIn(*plot, objective, top->first, top->second));

        // Escape clears every brush.
        plot->setFocus();
        QTest::keyClick(plot, Qt::Key_Escape);
        QVERIFY(!plot->isFiltering());
        QTRY_COMPARE(panel.proxy()->rowCount(), Trials);
        QVERIFY(!panel.proxy()->allowedTrialIds());
    }

    void hover()
    {
        TrialsPanel panel(Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_hover")), Trials));
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        ParallelCoordinates* plot = panel.plot();
        // Half way between the first two axes on trial 5's line.
        const int row = plot->model()->rowOf(QStringLiteral("5"));
        const QPointF a(plot->axisX(0), plot->valueToY(0, *plot->trialValue(row, 0)));
        const QPointF b(plot->axisX(1), plot->valueToY(1, *plot->trialValue(row, 1)));
        const QPointF mid = (a + b) / 2;
        QCOMPARE(plot->trialAt(mid), QStringLiteral("5"));
        const QString tip = plot->tooltipText(QStringLiteral("5"));
        QVERIFY(tip.contains(QLatin1String("learning_rate")));
        QVERIFY(tip.contains(plot->model()->trial(row).hyperparameters.value(QStringLiteral("optimizer"))));
        // A click on the line selects the trial in the table.
        QSignalSpy selected(&panel, &TrialsPanel::trialsSelected);
        QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, mid.toPoint());
        QTRY_COMPARE(panel.selectedTrials(), QStringList { QStringLiteral("5") });
        QVERIFY(selected.count() >= 1);
        QCOMPARE(selected.last().at(0).toStringList(), QStringList { QStringLiteral("5") });
    }

    void topPercent()
    {
        const Job job = Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_top")), Trials);
        TrialsPanel panel(job);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // 25 % of 12 trials: the 3 best (the executor lists them best first).
        panel.topPercentSpin()->setValue(25);
        QSet<QString> best;
        for (int i = 0; i < 3; ++i)
            best.insert(job.trainingOutput->trials.at(i).trialId);
        QTRY_COMPARE(shownTrials(panel), best);
        QCOMPARE(panel.proxy()->trialIdAt(0), job.trainingOutput->trials.first().trialId);
        // 10 % of 12 is 1.2: rounded up to 2.
        panel.topPercentSpin()->setValue(10);
        QTRY_COMPARE(panel.proxy()->rowCount(), 2);
        panel.topPercentSpin()->setValue(100);
        QTRY_COMPARE(panel.proxy()->rowCount(), Trials);

        // The state filter's buttons.
        Job mixed = job;
        mixed.trainingOutput->trials[0].state = JobState::Failed;
        panel.setJob(mixed);
        panel.applyNow();
        QToolButton* succeeded = panel.findChild<QToolButton*>(QStringLiteral("stateFilterSucceeded"));
        QVERIFY(succeeded);
        succeeded->click();
        QTRY_COMPARE(shownTrials(panel), QSet<QString> { mixed.trainingOutput->trials.first().trialId });
        succeeded->click();
        QTRY_COMPARE(panel.proxy()->rowCount(), Trials);
    }

    void numbersInTheLocale()
    {
        // Issue 27, item 16: learning rates in 17-19 digits beside "0.1", the State column cut to "Succe…", and
        // German mixing "0,8047" with "0.00525…". Numbers are shown in the locale with 4 significant digits; the
        // exact value is in the tooltip and what Ctrl+C copies.
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        Job job = Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_numbers")), 3);
        job.trainingOutput->trials[0].hyperparameters[QStringLiteral("learning_rate")]
            = QStringLiteral("0.005251234567890123");
        job.trainingOutput->trials[1].hyperparameters[QStringLiteral("learning_rate")] = QStringLiteral("0.1");
        job.trainingOutput->trials[0].finalMetric->objectiveValue = 0.80471234567;
        TrialsPanel panel(job);
        panel.resize(1400, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QTableView* table = panel.table();
        const TrialsModel* model = panel.model();
        int lr = -1;
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->headerData(c, Qt::Horizontal).toString() == QLatin1String("learning_rate"))
                lr = c;
        QVERIFY(lr >= 0);
        const QModelIndex first = model->index(model->rowOf(job.trainingOutput->trials[0].trialId), lr);
        QCOMPARE(first.data().toString(), QStringLiteral("0,005251"));
        QCOMPARE(first.data(Qt::ToolTipRole).toString(), QStringLiteral("0.005251234567890123"));
        QCOMPARE(model->index(model->rowOf(job.trainingOutput->trials[1].trialId), lr).data().toString(),
            QStringLiteral("0,1"));
        const QModelIndex objective = model->index(first.row(), model->objectiveColumn());
        QCOMPARE(objective.data().toString(), QStringLiteral("0,8047"));
        QVERIFY2(objective.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("0.80471234567")),
            qPrintable(objective.data(Qt::ToolTipRole).toString()));
        // The State column holds the longest state, whatever the trials' states are now.
        const int needed
            = table->fontMetrics().horizontalAdvance(stateDisplayName(JobState::Succeeded)) + table->iconSize().width();
        QVERIFY2(table->columnWidth(TrialsModel::StateColumn) > needed,
            qPrintable(QStringLiteral("%1 <= %2").arg(table->columnWidth(TrialsModel::StateColumn)).arg(needed)));
        // Ctrl+C on the selected row: exact values, tab-separated, with a header.
        const int row = panel.proxy()->mapFromSource(first).row();
        QTest::mouseClick(
            table->viewport(), Qt::LeftButton, {}, table->visualRect(panel.proxy()->index(row, 0)).center());
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        const QString copied = QGuiApplication::clipboard()->text();
        QVERIFY2(copied.startsWith(QStringLiteral("Trial\t"))
                && copied.contains(QStringLiteral("\t0.005251234567890123"))
                && copied.contains(QStringLiteral("\tSUCCEEDED")),
            qPrintable(copied));
        QLocale::setDefault(before);
    }

    void submitWithValues()
    {
        Job job = Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_submit_20261122_050000")), Trials);
        job.state = JobState::Succeeded;
        job.endTime = QStringLiteral("2026-11-22T06:00:00Z");
        TrialsPanel panel(job);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!panel.submitWithValuesAction()->isEnabled()); // nothing selected
        QVERIFY(panel.selectTrial(QStringLiteral("7")));
        QVERIFY(panel.submitWithValuesAction()->isEnabled());

        QSignalSpy submit(&panel, &TrialsPanel::submitWithValues);
        panel.submitWithValuesAction()->trigger();
        QCOMPARE(submit.count(), 1);
        const Job fixed = submit.first().at(0).value<Job>();
        const QMap<QString, QString> values = Test::trialValues(7);
        QCOMPARE(fixed.trainingInput.args,
            (QStringList { QStringLiteral("--epochs"), QStringLiteral("3"),
                QStringLiteral("--learning_rate=") + values.value(QStringLiteral("learning_rate")),
                QStringLiteral("--batch_size=") + values.value(QStringLiteral("batch_size")),
                QStringLiteral("--hidden_units=") + values.value(QStringLiteral("hidden_units")),
                QStringLiteral("--optimizer=") + values.value(QStringLiteral("optimizer")) }));
        QVERIFY(!fixed.trainingInput.hyperparameters);
        QVERIFY(!fixed.trainingOutput);
        QCOMPARE(fixed.state, JobState::StateUnspecified);
        QVERIFY(fixed.jobId.startsWith(QLatin1String("tune_submit_")));
        QVERIFY(fixed.jobId != job.jobId);
        QCOMPARE(fixed.trainingInput.pythonModule, job.trainingInput.pythonModule);
        QCOMPARE(fixed.trainingInput.jobDir, job.trainingInput.jobDir);

        // Resume tuning: the same spec, resumePreviousJobId = this job, a new ID.
        QVERIFY(panel.resumeTuningAction()->isEnabled());
        QSignalSpy resume(&panel, &TrialsPanel::resumeTuning);
        panel.resumeTuningAction()->trigger();
        QCOMPARE(resume.count(), 1);
        const Job resumed = resume.first().at(0).value<Job>();
        QVERIFY(resumed.trainingInput.hyperparameters);
        QCOMPARE(resumed.trainingInput.hyperparameters->resumePreviousJobId, job.jobId);
        QCOMPARE(resumed.trainingInput.hyperparameters->params, job.trainingInput.hyperparameters->params);
        QCOMPARE(resumed.trainingInput.args, job.trainingInput.args);
        QVERIFY(resumed.jobId != job.jobId);
        QVERIFY(!resumed.trainingOutput);

        // The suggested ID replaces an earlier stamp instead of stacking them.
        const QDateTime now(QDate(2026, 12, 1), QTime(9, 30, 5));
        QCOMPARE(TrialsPanel::suggestJobId(job.jobId, now), QStringLiteral("tune_submit_20261201_093005"));
        QCOMPARE(TrialsPanel::suggestJobId(QStringLiteral("tune"), now), QStringLiteral("tune_20261201_093005"));
    }

    void liveBatches()
    {
        Job job = Test::tuningJob(QStringLiteral("tune_batches"));
        TrialsPanel panel(job);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy inserted(panel.model(), &QAbstractItemModel::rowsInserted);
        // One job per new trial, as fast as a stream could bring them.
        QList<HyperparameterOutput> trials;
        for (int n = 1; n <= 30; ++n) {
            trials.append(Test::trial(n, JobState::Running));
            job.trainingOutput->trials = trials;
            panel.setJob(job);
        }
        // The first was applied at once, the rest wait for the batch.
        QVERIFY(panel.model()->trialCount() < 30);
        QTRY_COMPARE(panel.model()->trialCount(), 30);
        QVERIFY2(inserted.count() <= 3, qPrintable(QString::number(inserted.count())));
        QCOMPARE(panel.job().trainingOutput->trials.size(), 30);
    }

    void scatterAxes()
    {
        TrialsPanel panel(Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_scatter")), Trials));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QComboBox* box = panel.scatterParameterBox();
        QVERIFY(box);
        QCOMPARE(box->count(), 4);
        auto* view = qobject_cast<QChartView*>(panel.scatterView());
        QVERIFY(view);
        auto xAxis = [view] { return view->chart()->axes(Qt::Horizontal).value(0); };
        box->setCurrentIndex(0); // learning_rate, log-scaled
        QVERIFY(qobject_cast<QLogValueAxis*>(xAxis()));
        box->setCurrentIndex(3); // optimizer
        auto* categories = qobject_cast<QCategoryAxis*>(xAxis());
        QVERIFY(categories);
        QCOMPARE(categories->categoriesLabels(),
            (QStringList { QStringLiteral("adam"), QStringLiteral("sgd"), QStringLiteral("rmsprop") }));
        // Every trial is a point; the best one is its own (star) series.
        int points = 0;
        int bestPoints = 0;
        for (QAbstractSeries* s : view->chart()->series()) {
            auto* scatter = qobject_cast<QScatterSeries*>(s);
            points += int(scatter->count());
            if (scatter->name() == QLatin1String("Best trial"))
                bestPoints = int(scatter->count());
        }
        QCOMPARE(points, Trials);
        QCOMPARE(bestPoints, 1);
    }

    void inJobView()
    {
        // A plain job has no Trials tab.
        Job plain = Test::tuningJob(QStringLiteral("plain"));
        plain.trainingInput.hyperparameters.reset();
        plain.trainingOutput.reset();
        JobView plainView(nullptr, plain);
        QVERIFY(!plainView.trialsPanel());
        QVERIFY(!plainView.hasTab(JobView::TrialsTab));
        QVERIFY(!plainView.showTab(JobView::TrialsTab));

        // A tuning job has it, right after Overview; the other tabs keep their names.
        JobView view(nullptr, Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_view")), Trials));
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.trialsPanel());
        QCOMPARE(view.tabCount(), plainView.tabCount() + 1);
        QVERIFY(view.showTab(JobView::OverviewTab));
        QCOMPARE(view.stepTab(+1), JobView::TrialsTab);
        QCOMPARE(view.stepTab(+1), JobView::TopologyTab);
        QVERIFY(view.showTab(JobView::LogsTab));
        QCOMPARE(view.currentTab(), JobView::LogsTab);
        QVERIFY(view.showTab(JobView::TrialsTab));
        QCOMPARE(view.currentTab(), JobView::TrialsTab);

        // The Trials tab's actions reach JobView's signals (MainWindow opens the wizard from them).
        QSignalSpy submit(&view, &JobView::submitWithValuesRequested);
        QVERIFY(view.trialsPanel()->selectTrial(QStringLiteral("3")));
        view.trialsPanel()->submitWithValuesAction()->trigger();
        QCOMPARE(submit.count(), 1);
        QVERIFY(submit.first().at(0).value<Job>().trainingInput.args.contains(
            QStringLiteral("--optimizer=") + Test::trialValues(3).value(QStringLiteral("optimizer"))));

        // The Metrics tab draws only the selected trials' series (and those of no trial).
        MetricsPanel* metrics = view.metricsPanel();
        QVERIFY(metrics);
        MetricsModel* model = metrics->model();
        auto series = [](const QString& trial) {
            SeriesInfo info;
            info.kind = QStringLiteral("hypertune");
            info.tag = QStringLiteral("accuracy");
            info.taskName = QStringLiteral("master-replica-0");
            info.trialId = trial;
            info.name = QStringLiteral("hypertune/%1/master-replica-0/accuracy").arg(trial);
            return info;
        };
        for (const QString& trial : { QStringLiteral("1"), QStringLiteral("3"), QString() })
            model->addSeries(series(trial));
        MetricChart* chart = metrics->chart(QStringLiteral("hypertune:accuracy"));
        QVERIFY(chart);
        const int one = model->indexOf(series(QStringLiteral("1")).name);
        const int three = model->indexOf(series(QStringLiteral("3")).name);
        const int none = model->indexOf(series(QString()).name);
        QCOMPARE(metrics->trialFilter(), QStringList { QStringLiteral("3") });
        QVERIFY(!chart->isSeriesShown(one));
        QVERIFY(chart->isSeriesShown(three));
        QVERIFY(chart->isSeriesShown(none));
        QVERIFY(!chart->smoothedLine(one)->isVisible());
        QVERIFY(chart->smoothedLine(three)->isVisible());
        // Selecting another trial follows; clearing the selection shows every series.
        QVERIFY(view.trialsPanel()->selectTrial(QStringLiteral("1")));
        QCOMPARE(metrics->trialFilter(), QStringList { QStringLiteral("1") });
        QVERIFY(chart->isSeriesShown(one));
        QVERIFY(!chart->isSeriesShown(three));
        view.trialsPanel()->table()->clearSelection();
        QVERIFY(metrics->trialFilter().isEmpty());
        QVERIFY(chart->isSeriesShown(one) && chart->isSeriesShown(three));
        screenshot(&view, QStringLiteral("trials-jobview.png"));
    }

    void wizardFromTrials()
    {
        // MainWindow opens the submit wizard with the Trials tab's job as it is: its new ID, the resume
        // field, and a fresh job dir named after the new ID.
        Job job = Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_wizard")), Trials);
        job.state = JobState::Succeeded;
        TrialsPanel panel(job);
        const Job resume = panel.resumeJob(QDateTime(QDate(2026, 12, 1), QTime(9, 30, 5)));
        MainWindow window(nullptr);
        SubmitWizard* wizard = window.openSubmitWizardWithJob(resume, QStringLiteral("Resume tuning"));
        QVERIFY(wizard);
        QTRY_VERIFY(wizard->isVisible());
        QCOMPARE(wizard->jobPage()->jobIdEdit()->text(), QStringLiteral("tune_wizard_20261201_093005"));
        const Job edited = wizard->job();
        QVERIFY(edited.trainingInput.hyperparameters);
        QCOMPARE(edited.trainingInput.hyperparameters->resumePreviousJobId, QStringLiteral("tune_wizard"));
        QVERIFY2(wizard->outputPage()->jobDirEdit()->text().endsWith(QLatin1String("tune_wizard_20261201_093005")),
            qPrintable(wizard->outputPage()->jobDirEdit()->text()));
        QVERIFY(!wizard->isModified());
        wizard->reject();
    }
};

QTEST_MAIN(TestTrialsPanel)
#include "tst_trialspanel.moc"
