// SPDX-License-Identifier: GPL-2.0-or-later
// TrialsModel and TrialsProxyModel under QAbstractItemModelTester (Fatal) through a tuning job's live
// updates: trials appear, change state, report objectives; the model never resets after the first job, a
// selection survives, the best trial (by the goal: MAXIMIZE and MINIMIZE) is marked and pinned at the top
// under every sort column and order, and the state and trial-ID filters keep what they should.

#include "statenames.h"
#include "trialsmodel.h"
#include "trialsproxymodel.h"
#include "tuningjobs.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QIcon>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

using namespace Trainyard;

namespace {
// The trial IDs in the proxy's row order.
QStringList proxyOrder(const TrialsProxyModel& proxy)
{
    QStringList ids;
    for (int row = 0; row < proxy.rowCount(); ++row)
        ids << proxy.trialIdAt(row);
    return ids;
}

void setTrials(Job& job, const QList<HyperparameterOutput>& trials)
{
    job.trainingOutput->trials = trials;
}
} // namespace

class TestTrialsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void liveUpdates_data()
    {
        QTest::addColumn<QString>("goal");
        QTest::addRow("maximize") << QStringLiteral("MAXIMIZE");
        QTest::addRow("minimize") << QStringLiteral("MINIMIZE");
    }
    void liveUpdates()
    {
        QFETCH(QString, goal);
        const bool maximize = goal == QLatin1String("MAXIMIZE");
        TrialsModel model;
        TrialsProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.sort(TrialsModel::TrialColumn, Qt::AscendingOrder);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy best(&model, &TrialsModel::bestTrialChanged);

        // The job before any trial: the columns are there.
        Job job = Test::tuningJob(QStringLiteral("tune_live"), goal);
        model.setJob(job);
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 2 + 4 + 4);
        QCOMPARE(
            model.headerData(model.parameterColumn(0), Qt::Horizontal).toString(), QStringLiteral("learning_rate"));
        QCOMPARE(model.headerData(model.parameterColumn(3), Qt::Horizontal).toString(), QStringLiteral("optimizer"));
        QVERIFY(
            model.headerData(model.objectiveColumn(), Qt::Horizontal).toString().startsWith(QLatin1String("accuracy")));
        QCOMPARE(model.bestRow(), -1);

        // Two trials start.
        setTrials(job, { Test::trial(1, JobState::Running), Test::trial(2, JobState::Running) });
        model.setJob(job);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.bestRow(), -1);
        QVERIFY(!model.index(0, model.objectiveColumn()).data(TrialsModel::ObjectiveRole).isValid());
        QVERIFY(!model.index(0, model.durationColumn()).data().toString().isEmpty()); // now − start

        // A selection that has to survive what follows.
        QItemSelectionModel selection(&proxy);
        const QModelIndex two = proxy.mapFromSource(model.index(model.rowOf(QStringLiteral("2")), 0));
        selection.select(two, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);

        // Trial 1 reports an intermediate objective: one dataChanged for its row, and it is the best so far.
        changed.clear();
        setTrials(job, { Test::trial(1, JobState::Running, 0.8, false), Test::trial(2, JobState::Running) });
        model.setJob(job);
        QVERIFY(changed.count() >= 1);
        for (const QList<QVariant>& args : std::as_const(changed))
            QCOMPARE(args.at(0).value<QModelIndex>().row(), 0);
        QCOMPARE(model.bestTrialId(), QStringLiteral("1"));
        QCOMPARE(best.count(), 1);
        const QModelIndex objective1 = model.index(0, model.objectiveColumn());
        QCOMPARE(objective1.data(TrialsModel::ObjectiveRole).toDouble(), 0.8);
        QCOMPARE(objective1.data(TrialsModel::ObjectiveIsFinalRole).toBool(), false);
        QCOMPARE(model.index(0, model.stepColumn()).data(TrialsModel::SortRole).toLongLong(), 500);

        // Trial 2 succeeds with 0.9, trial 1 is stopped early at 0.8, trial 3 is queued; the executor lists
        // them best first, which moves no row.
        HyperparameterOutput t1 = Test::trial(1, JobState::Succeeded, 0.8);
        t1.isTrialStoppedEarly = true;
        const HyperparameterOutput t2 = Test::trial(2, JobState::Succeeded, 0.9);
        const HyperparameterOutput t3 = Test::trial(3, JobState::Queued);
        setTrials(job, maximize ? QList { t2, t1, t3 } : QList { t1, t2, t3 });
        model.setJob(job);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowOf(QStringLiteral("1")), 0);
        QCOMPARE(model.rowOf(QStringLiteral("2")), 1);
        QCOMPARE(model.rowOf(QStringLiteral("3")), 2);
        QCOMPARE(model.bestTrialId(), maximize ? QStringLiteral("2") : QStringLiteral("1"));
        QCOMPARE(model.index(0, model.stoppedEarlyColumn()).data(TrialsModel::SortRole).toInt(), 1);
        QCOMPARE(
            model.index(2, TrialsModel::StateColumn).data(TrialsModel::StateRole).value<JobState>(), JobState::Queued);
        // A finished trial's duration is end − start.
        QCOMPARE(model.index(1, model.durationColumn()).data(TrialsModel::SortRole).toLongLong(), 300);
        QCOMPARE(model.index(1, model.durationColumn()).data().toString(), QStringLiteral("5:00"));

        // Nine more trials with objectives arrive in one update; trial IDs sort as numbers (10 after 9).
        QList<HyperparameterOutput> trials { t1, t2, t3 };
        for (int n = 4; n <= 12; ++n)
            trials.append(Test::trial(n, JobState::Succeeded, Test::trialObjective(n)));
        setTrials(job, trials);
        model.setJob(job);
        QCOMPARE(model.rowCount(), 12);
        QCOMPARE(resets.count(), 1); // live updates never reset
        int expectedBest = -1;
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto v = TrialsModel::objectiveOf(model.trial(row));
            if (v && (expectedBest < 0 || model.isBetter(*v, *TrialsModel::objectiveOf(model.trial(expectedBest)))))
                expectedBest = row;
        }
        QCOMPARE(model.bestRow(), expectedBest);
        const QString bestId = model.bestTrialId();
        QVERIFY(model.index(expectedBest, 0).data(TrialsModel::IsBestRole).toBool());

        // The selection is still trial 2.
        QCOMPARE(selection.selectedRows().size(), 1);
        QCOMPARE(selection.selectedRows().first().data(TrialsModel::TrialIdRole).toString(), QStringLiteral("2"));

        // The best trial is pinned at the top under every column and either order; the rest are sorted.
        for (int column = 0; column < model.columnCount(); ++column) {
            for (Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
                proxy.sort(column, order);
                QCOMPARE(proxy.trialIdAt(0), bestId);
            }
        }
        proxy.sort(TrialsModel::TrialColumn, Qt::AscendingOrder);
        QStringList numeric;
        for (int n = 1; n <= 12; ++n)
            if (QString::number(n) != bestId)
                numeric << QString::number(n);
        QCOMPARE(proxyOrder(proxy), QStringList { bestId } + numeric);
        proxy.sort(model.objectiveColumn(), Qt::DescendingOrder);
        const QStringList byObjective = proxyOrder(proxy);
        // Trial 3 has no objective: last in either order.
        QCOMPARE(byObjective.last(), QStringLiteral("3"));
        proxy.sort(model.objectiveColumn(), Qt::AscendingOrder);
        QCOMPARE(proxyOrder(proxy).last(), QStringLiteral("3"));
        for (int row = 1; row + 1 < proxy.rowCount(); ++row) {
            const double a = proxy.index(row, 0).data(TrialsModel::ObjectiveRole).toDouble();
            const double b = proxy.index(row + 1, 0).data(TrialsModel::ObjectiveRole).toDouble();
            if (proxy.index(row + 1, 0).data(TrialsModel::ObjectiveRole).isValid())
                QVERIFY(a <= b);
        }

        // A better objective arrives live for trial 3: it becomes the best and moves to the top.
        trials[2] = Test::trial(3, JobState::Succeeded, maximize ? 0.999 : 0.01);
        setTrials(job, trials);
        model.setJob(job);
        QCOMPARE(model.bestTrialId(), QStringLiteral("3"));
        QCOMPARE(proxy.trialIdAt(0), QStringLiteral("3"));
        QVERIFY(!model.index(model.rowOf(bestId), 0).data(TrialsModel::IsBestRole).toBool());
        QCOMPARE(resets.count(), 1);
    }

    void values()
    {
        TrialsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        Job job = Test::tuningJob(QStringLiteral("tune_values"));
        HyperparameterOutput t = Test::trial(7, JobState::Succeeded, 0.75);
        t.hyperparameters[QStringLiteral("optimizer")] = QStringLiteral("rmsprop");
        t.hyperparameters[QStringLiteral("learning_rate")] = QStringLiteral("0.00025");
        setTrials(job, { t });
        model.setJob(job);
        const int lr = model.parameterColumn(0);
        const int optimizer = model.parameterColumn(3);
        QCOMPARE(model.index(0, lr).data().toString(), QStringLiteral("0.00025"));
        QCOMPARE(model.index(0, lr).data(TrialsModel::ParameterValueRole).toDouble(), 0.00025);
        QCOMPARE(model.index(0, lr).data(TrialsModel::SortRole).toDouble(), 0.00025);
        // A category is its index in categoricalValues, on the axis and for sorting.
        QCOMPARE(model.index(0, optimizer).data().toString(), QStringLiteral("rmsprop"));
        QCOMPARE(model.index(0, optimizer).data(TrialsModel::ParameterValueRole).toDouble(), 2.0);
        QCOMPARE(model.index(0, TrialsModel::TrialColumn).data(TrialsModel::SortRole).toLongLong(), 7);
        QCOMPARE(model.index(0, TrialsModel::StateColumn).data().toString(), QStringLiteral("SUCCEEDED"));
        QVERIFY(!model.index(0, model.objectiveColumn()).data().toString().isEmpty());
        // Another job's trials reset the model.
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setJob(Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_other")), 5));
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 5);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void proxyDecoration()
    {
        TrialsModel model;
        TrialsProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.sort(TrialsModel::TrialColumn);
        model.setJob(Test::withFinishedTrials(Test::tuningJob(QStringLiteral("tune_deco")), 4));
        const QModelIndex best = proxy.index(0, TrialsModel::TrialColumn);
        QVERIFY(best.data(TrialsModel::IsBestRole).toBool());
        QVERIFY(best.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!best.data(Qt::DecorationRole).value<QIcon>().isNull());
        const QModelIndex other = proxy.index(1, TrialsModel::TrialColumn);
        QVERIFY(!other.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(other.data(Qt::DecorationRole).value<QIcon>().isNull());
        // The state column: a translated name and the state's icon.
        const QModelIndex state = proxy.index(1, TrialsModel::StateColumn);
        QCOMPARE(state.data().toString(), QStringLiteral("Succeeded"));
        QVERIFY(!state.data(Qt::DecorationRole).value<QIcon>().isNull());
    }

    void filters()
    {
        TrialsModel model;
        TrialsProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.sort(TrialsModel::TrialColumn);
        Job job = Test::tuningJob(QStringLiteral("tune_filters"));
        QList<HyperparameterOutput> trials { Test::trial(1, JobState::Succeeded, 0.7), Test::trial(2, JobState::Failed),
            Test::trial(3, JobState::Running, 0.5, false), Test::trial(4, JobState::Cancelled) };
        setTrials(job, trials);
        model.setJob(job);

        // State filter.
        proxy.setStates({ JobState::Succeeded });
        QCOMPARE(proxyOrder(proxy), QStringList { QStringLiteral("1") });
        proxy.setStates({ JobState::Succeeded, JobState::Running });
        QCOMPARE(proxyOrder(proxy), (QStringList { QStringLiteral("1"), QStringLiteral("3") }));
        // A state change live brings a trial in (and takes one out).
        trials[2] = Test::trial(3, JobState::Failed, 0.5);
        trials[1] = Test::trial(2, JobState::Running);
        setTrials(job, trials);
        model.setJob(job);
        QCOMPARE(proxyOrder(proxy), (QStringList { QStringLiteral("1"), QStringLiteral("2") }));
        proxy.setStates({});
        QCOMPARE(proxy.rowCount(), 4);

        // The brushing filter: trial IDs.
        proxy.setAllowedTrialIds(QSet<QString> { QStringLiteral("2"), QStringLiteral("4") });
        QCOMPARE(proxyOrder(proxy), (QStringList { QStringLiteral("2"), QStringLiteral("4") }));
        // A trial that arrives outside the set stays out; both filters AND.
        trials.append(Test::trial(5, JobState::Succeeded, 0.9));
        setTrials(job, trials);
        model.setJob(job);
        QCOMPARE(proxyOrder(proxy), (QStringList { QStringLiteral("2"), QStringLiteral("4") }));
        proxy.setStates({ JobState::Cancelled });
        QCOMPARE(proxyOrder(proxy), QStringList { QStringLiteral("4") });
        proxy.setStates({});
        proxy.setAllowedTrialIds(std::nullopt);
        QCOMPARE(proxy.rowCount(), 5);
        QCOMPARE(proxy.trialIdAt(0), QStringLiteral("5")); // the new best, pinned
    }
};

QTEST_MAIN(TestTrialsModel)
#include "tst_trialsmodel.moc"
