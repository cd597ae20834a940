// SPDX-License-Identifier: GPL-2.0-or-later
// The study's rules (app/executor/tuning/study.h), pure: suggestions from stored trials (grid order and stop,
// determinism, resumed studies), the failure rule with and without maxFailedTrials, the median stopping rule
// on scripted curves, and the best-first order of trainingOutput.trials.
#include "study.h"
#include "tuningjobs.h"

#include <QTest>

using namespace Trainyard;

using Curve = QList<std::pair<qint64, double>>;

namespace {

HyperparameterSpec gridSpec(int maxTrials, const QString& goal = QStringLiteral("MAXIMIZE"))
{
    HyperparameterSpec s;
    s.goal = goal;
    s.algorithm = QStringLiteral("GRID_SEARCH");
    s.params = { Test::integerParameter(QStringLiteral("n"), 1, 2), Test::categoricalParameter(QStringLiteral("opt"), { QStringLiteral("a"), QStringLiteral("b") }) };
    s.maxTrials = maxTrials;
    return s;
}

HyperparameterOutput trial(const QString& id, JobState state, std::optional<double> objective = {},
    const QList<std::pair<qint64, double>>& curve = {}, const QString& endTime = QString())
{
    HyperparameterOutput t;
    t.trialId = id;
    t.state = state;
    t.endTime = endTime;
    for (const auto& [step, value] : curve)
        t.allMetrics.append(HyperparameterMetric { step, value });
    if (objective)
        t.finalMetric = HyperparameterMetric { curve.isEmpty() ? 1 : curve.last().first, *objective };
    return t;
}

HyperparameterOutput withValues(HyperparameterOutput t, const QList<std::pair<QString, QString>>& values)
{
    for (const auto& [k, v] : values)
        t.hyperparameters.insert(k, v);
    return t;
}

} // namespace

class TestStudy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaults()
    {
        HyperparameterSpec s = gridSpec(0);
        s.maxTrials.reset();
        QString error;
        auto study = Study::create(QStringLiteral("j"), s, {}, &error);
        QVERIFY2(study, qPrintable(error));
        QCOMPARE(study->maxTrials(), 1);
        QCOMPARE(study->maxParallelTrials(), 1);
        QCOMPARE(study->metricTag(), QStringLiteral("training/hptuning/metric"));
        QVERIFY(study->maximize());
        QVERIFY(!study->earlyStopping());
        QCOMPARE(study->firstTrialOffset(), 0);
    }

    /// A grid: every combination once, in a stable order, then nothing (with a note).
    void gridEnumeratesAndStops()
    {
        QString error;
        auto study = Study::create(QStringLiteral("j"), gridSpec(10), {}, &error);
        QVERIFY(study);
        QList<HyperparameterOutput> trials;
        QSet<QString> seen;
        for (int i = 1; i <= 4; ++i) {
            QString note;
            const auto values = study->suggest(trials, &note);
            QVERIFY2(values, qPrintable(note));
            QCOMPARE(values->size(), 2);
            QCOMPARE(values->at(0).first, QStringLiteral("n"));
            QCOMPARE(values->at(1).first, QStringLiteral("opt"));
            seen.insert(values->at(0).second + QLatin1Char('/') + values->at(1).second);
            // Pending (running) trials count as tried.
            trials.append(withValues(trial(QString::number(i), JobState::Running), *values));
        }
        QCOMPARE(seen, (QSet<QString> { QStringLiteral("1/a"), QStringLiteral("1/b"), QStringLiteral("2/a"), QStringLiteral("2/b") }));
        QString note;
        QVERIFY(!study->suggest(trials, &note));
        QVERIFY2(note.contains(QLatin1String("Every point of the search space has been tried")), qPrintable(note));
        // The same history gives the same answer in another study object (an executor that restarted).
        auto again = Study::create(QStringLiteral("j"), gridSpec(10), {}, &error);
        QCOMPARE(again->suggest(trials.mid(0, 2), nullptr), study->suggest(trials.mid(0, 2), nullptr));
    }

    /// Values come formatted as the trial's arguments show them.
    void valuesFormatted()
    {
        HyperparameterSpec s;
        s.goal = QStringLiteral("MINIMIZE");
        ParameterSpec lr;
        lr.parameterName = QStringLiteral("learning-rate");
        lr.type = QStringLiteral("DOUBLE");
        lr.minValue = 1e-4;
        lr.maxValue = 1e-2;
        lr.scaleType = QStringLiteral("UNIT_LOG_SCALE");
        ParameterSpec batch;
        batch.parameterName = QStringLiteral("batch-size");
        batch.type = QStringLiteral("DISCRETE");
        batch.discreteValues = { 32, 64, 128 };
        s.params = { lr, batch };
        s.maxTrials = 3;
        QString error;
        auto study = Study::create(QStringLiteral("j"), s, {}, &error);
        QVERIFY(study);
        const auto values = study->suggest({}, nullptr);
        QVERIFY(values);
        // Trial 1 is the centre: the geometric middle of a log range, the middle discrete value.
        QCOMPARE(values->at(0), (std::pair<QString, QString>(QStringLiteral("learning-rate"), QStringLiteral("0.001"))));
        QCOMPARE(values->at(1), (std::pair<QString, QString>(QStringLiteral("batch-size"), QStringLiteral("64"))));
    }

    /// A resumed study: the previous job's trials are observations and the IDs continue after its last.
    void resumed()
    {
        QList<HyperparameterOutput> prior;
        prior << withValues(trial(QStringLiteral("1"), JobState::Succeeded, 0.5), { { QStringLiteral("n"), QStringLiteral("1") }, { QStringLiteral("opt"), QStringLiteral("a") } });
        prior << withValues(trial(QStringLiteral("2"), JobState::Failed), { { QStringLiteral("n"), QStringLiteral("1") }, { QStringLiteral("opt"), QStringLiteral("b") } });
        QString error;
        auto study = Study::create(QStringLiteral("j2"), gridSpec(10), prior, &error);
        QVERIFY(study);
        QCOMPARE(study->firstTrialOffset(), 2);
        QSet<QString> left;
        QList<HyperparameterOutput> own;
        while (const auto values = study->suggest(own, nullptr)) {
            left.insert(values->at(0).second + QLatin1Char('/') + values->at(1).second);
            own.append(withValues(trial(QString::number(3 + own.size()), JobState::Running), *values));
        }
        QCOMPARE(left, (QSet<QString> { QStringLiteral("2/a"), QStringLiteral("2/b") }));
    }

    void failureRule_data()
    {
        QTest::addColumn<int>("maxFailed");
        QTest::addColumn<QList<HyperparameterOutput>>("trials");
        QTest::addColumn<QString>("verdict"); // empty: the study goes on

        const auto ok = [](const char* id, const char* end) { return trial(QString::fromLatin1(id), JobState::Succeeded, 1.0, {}, QString::fromLatin1(end)); };
        const auto bad = [](const char* id, const char* end) { return trial(QString::fromLatin1(id), JobState::Failed, {}, {}, QString::fromLatin1(end)); };
        const auto running = [](const char* id) { return trial(QString::fromLatin1(id), JobState::Running); };
        QTest::addRow("limit 2, one failed") << 2 << QList<HyperparameterOutput> { ok("1", "t1"), bad("2", "t2"), running("3") } << QString();
        QTest::addRow("limit 2, two failed") << 2 << QList<HyperparameterOutput> { bad("1", "t1"), ok("2", "t2"), bad("3", "t3") }
                                              << QStringLiteral("2 of the job's trials failed, the limit set by maxFailedTrials (2).");
        QTest::addRow("0: first to end failed") << 0 << QList<HyperparameterOutput> { running("1"), bad("2", "t1") }
                                                 << QStringLiteral("The first trial to end (trial 2) failed");
        QTest::addRow("0: first failed after a success") << 0 << QList<HyperparameterOutput> { ok("1", "t2"), bad("2", "t1") } << QString();
        QTest::addRow("0: first succeeded, one failed") << 0 << QList<HyperparameterOutput> { ok("1", "t1"), bad("2", "t2") } << QString();
        QTest::addRow("0: 3 of 5 failed") << 0
                                          << QList<HyperparameterOutput> { ok("1", "t1"), bad("2", "t2"), ok("3", "t3"), bad("4", "t4"), bad("5", "t5") }
                                          << QStringLiteral("3 of the 5 trials that ended failed: more than half");
        QTest::addRow("0: 3 of 6 failed") << 0
                                          << QList<HyperparameterOutput> { ok("1", "t1"), bad("2", "t2"), ok("3", "t3"), bad("4", "t4"), bad("5", "t5"), ok("6", "t6") }
                                          << QString();
    }
    void failureRule()
    {
        QFETCH(int, maxFailed);
        QFETCH(QList<HyperparameterOutput>, trials);
        QFETCH(QString, verdict);
        HyperparameterSpec s = gridSpec(10);
        s.maxFailedTrials = maxFailed;
        auto study = Study::create(QStringLiteral("j"), s, {}, nullptr);
        const std::optional<QString> got = study->failureVerdict(trials, QStringLiteral("trial 9: boom"));
        if (verdict.isEmpty()) {
            QVERIFY2(!got, qPrintable(got.value_or(QString())));
        } else {
            QVERIFY(got);
            QVERIFY2(got->startsWith(verdict), qPrintable(*got));
            QVERIFY2(got->endsWith(QLatin1String("The last failed trial: trial 9: boom")), qPrintable(*got));
        }
    }

    /// Median stopping on scripted curves: the running trial's best so far against the median of the completed
    /// trials' running averages up to its latest step.
    void medianStopping_data()
    {
        QTest::addColumn<QString>("goal");
        QTest::addColumn<Curve>("running");
        QTest::addColumn<bool>("stop");
        // Completed: A = 1, 2, 3 at steps 1..3 (averages 1, 1.5, 2); B = 3, 4, 5 (3, 3.5, 4); C = 0, 0, 0.
        // Medians of the averages at step 1: 1; step 2: 1.5; step 3: 2.
        QTest::addRow("max: below the median at step 2") << QStringLiteral("MAXIMIZE") << Curve { { 1, 0.5 }, { 2, 1.4 } } << true;
        QTest::addRow("max: equal is not worse") << QStringLiteral("MAXIMIZE") << Curve { { 1, 0.5 }, { 2, 1.5 } } << false;
        QTest::addRow("max: best so far counts") << QStringLiteral("MAXIMIZE") << Curve { { 1, 1.6 }, { 2, 0.1 } } << false;
        QTest::addRow("min: above the median") << QStringLiteral("MINIMIZE") << Curve { { 1, 2.0 }, { 2, 1.6 } } << true;
        QTest::addRow("min: below the median") << QStringLiteral("MINIMIZE") << Curve { { 1, 2.0 }, { 2, 1.4 } } << false;
        QTest::addRow("no report yet") << QStringLiteral("MAXIMIZE") << Curve {} << false;
    }
    void medianStopping()
    {
        QFETCH(QString, goal);
        QFETCH(Curve, running);
        QFETCH(bool, stop);
        HyperparameterSpec s = gridSpec(10, goal);
        s.enableTrialEarlyStopping = true;
        auto study = Study::create(QStringLiteral("j"), s, {}, nullptr);
        QList<HyperparameterOutput> trials {
            trial(QStringLiteral("1"), JobState::Succeeded, 3, { { 1, 1 }, { 2, 2 }, { 3, 3 } }),
            trial(QStringLiteral("2"), JobState::Succeeded, 5, { { 1, 3 }, { 2, 4 }, { 3, 5 } }),
            trial(QStringLiteral("3"), JobState::Succeeded, 0, { { 1, 0 }, { 2, 0 }, { 3, 0 } }),
            trial(QStringLiteral("4"), JobState::Failed, {}, { { 1, -100 } }), // not completed: ignored
        };
        const HyperparameterOutput r = trial(QStringLiteral("5"), JobState::Running, {}, running);
        trials << r;
        QCOMPARE(study->shouldStopEarly(r, trials), stop);
    }

    /// Too few completed trials: never stop.
    void medianStoppingNeedsCompletedTrials()
    {
        HyperparameterSpec s = gridSpec(10);
        s.enableTrialEarlyStopping = true;
        auto study = Study::create(QStringLiteral("j"), s, {}, nullptr);
        const HyperparameterOutput r = trial(QStringLiteral("2"), JobState::Running, {}, { { 1, -5 } });
        QVERIFY(!study->shouldStopEarly(r, { trial(QStringLiteral("1"), JobState::Succeeded, 3, { { 1, 3 } }), r }));
    }

    void bestFirst_data()
    {
        QTest::addColumn<QString>("goal");
        QTest::addColumn<QStringList>("order");
        QTest::addRow("maximize") << QStringLiteral("MAXIMIZE") << QStringList { QStringLiteral("10"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("3"), QStringLiteral("4"), QStringLiteral("11") };
        QTest::addRow("minimize") << QStringLiteral("MINIMIZE") << QStringList { QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("10"), QStringLiteral("3"), QStringLiteral("4"), QStringLiteral("11") };
    }
    void bestFirst()
    {
        QFETCH(QString, goal);
        QFETCH(QStringList, order);
        auto study = Study::create(QStringLiteral("j"), gridSpec(10, goal), {}, nullptr);
        QList<HyperparameterOutput> trials {
            trial(QStringLiteral("11"), JobState::Running),
            trial(QStringLiteral("1"), JobState::Succeeded, 0.1),
            trial(QStringLiteral("4"), JobState::Failed, 99), // a failed trial's report does not rank it
            trial(QStringLiteral("2"), JobState::Succeeded, 0.5),
            trial(QStringLiteral("3"), JobState::Cancelled),
            trial(QStringLiteral("10"), JobState::Running, 0.5000001),
        };
        study->sortBestFirst(&trials);
        QStringList got;
        for (const HyperparameterOutput& t : trials)
            got << t.trialId;
        QCOMPARE(got, order);
    }

    void trialIdOrder()
    {
        QVERIFY(trialIdLess(QStringLiteral("2"), QStringLiteral("10")));
        QVERIFY(!trialIdLess(QStringLiteral("10"), QStringLiteral("2")));
        QVERIFY(trialIdLess(QStringLiteral("99"), QStringLiteral("x")));
    }
};

QTEST_GUILESS_MAIN(TestStudy)
#include "tst_study.moc"
