// SPDX-License-Identifier: GPL-2.0-or-later
// MetricsModel and MetricSeriesData (the Metrics tab's store): TensorBoard's debiased smoothing, the
// restart purge, the M4 reduction (min and max of every pixel column, first and last points, real points
// when zoomed in), range extremes against brute force, the outlier range, grouping and the CSV/JSON
// downloads.

#include "metricsmodel.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace Trainyard;

namespace {
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

// TensorBoard's vz_line_chart resmoothDataset, written out as in its source (with pow()).
std::vector<double> tensorBoardSmoothing(const std::vector<double>& values, double w)
{
    std::vector<double> out;
    double last = values.empty() ? NaN : 0;
    int numAccum = 0;
    bool isConstant = true;
    for (double v : values)
        isConstant = isConstant && v == values.front();
    for (double v : values) {
        if (isConstant || !std::isfinite(v)) {
            out.push_back(v);
            continue;
        }
        last = last * w + (1 - w) * v;
        ++numAccum;
        const double debias = w == 1 ? 1 : 1 - std::pow(w, numAccum);
        out.push_back(last / debias);
    }
    return out;
}

SeriesInfo scalar(const QString& run, const QString& tag)
{
    SeriesInfo info;
    info.name = QStringLiteral("scalar/") + run + QLatin1Char('/') + tag;
    info.kind = QStringLiteral("scalar");
    info.run = run;
    info.tag = tag;
    return info;
}

bool samePoint(const QPointF& a, double x, double y)
{
    return a.x() == x && a.y() == y;
}
} // namespace

class TestMetricsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smoothing_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("weight");
        QTest::addRow("default 0.6") << QList<double> { 1, 2, 3, 4, 10, -3 } << 0.6;
        QTest::addRow("none") << QList<double> { 1, 2, 3 } << 0.0;
        QTest::addRow("heavy 0.999") << QList<double> { 5, 1, 9, 2, 8 } << 0.999;
        QTest::addRow("nan passes through") << QList<double> { 1, NaN, 3, 5 } << 0.6;
        QTest::addRow("inf passes through") << QList<double> { 2, std::numeric_limits<double>::infinity(), 4 } << 0.5;
        QTest::addRow("constant") << QList<double> { 0.3, 0.3, 0.3 } << 0.9;
    }

    void smoothing()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, weight);
        MetricSeriesData data;
        data.setSmoothing(weight);
        for (qsizetype i = 0; i < values.size(); ++i)
            data.append(i, 1000.0 + double(i), values[i]);
        const std::vector<double> expected
            = tensorBoardSmoothing(std::vector<double>(values.begin(), values.end()), weight);
        for (size_t i = 0; i < expected.size(); ++i) {
            const double got = data.smoothed(i);
            if (std::isnan(expected[i])) {
                QVERIFY2(std::isnan(got), qPrintable(QString::number(i)));
            } else if (std::isinf(expected[i])) {
                QCOMPARE(got, expected[i]);
            } else {
                // The smoothed column is stored as float (display only).
                QVERIFY2(std::fabs(got - expected[i]) <= 1e-6 * std::max(1.0, std::fabs(expected[i])),
                    qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(got).arg(expected[i])));
            }
            QCOMPARE(data.value(i), values[qsizetype(i)]);
        }
    }

    void smoothingKnownValues()
    {
        // By hand: w = 0.6, values 1, 2: last = 0.4, 0.4·0.6 + 0.8 = 1.04; debias 0.4, 0.64.
        MetricsModel model;
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("train/loss")));
        model.appendPoints(QStringLiteral("scalar/./train/loss"), { { 1, 10, 1 }, { 2, 11, 2 } });
        QCOMPARE(model.smoothing(), 0.6);
        QCOMPARE(model.data(0).smoothed(0), 1.0);
        QVERIFY(qFuzzyCompare(model.data(0).smoothed(1), 1.04 / 0.64));
        QSignalSpy changed(&model, &MetricsModel::seriesChanged);
        model.setSmoothing(0);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.data(0).smoothed(1), 2.0);
        model.setSmoothing(5); // clamped
        QCOMPARE(model.smoothing(), 0.999);
    }

    void purge()
    {
        MetricsModel model;
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("train/loss")));
        const QString name = QStringLiteral("scalar/./train/loss");
        QList<SeriesPoint> points;
        for (int s = 1; s <= 10; ++s)
            points.append({ s, 100.0 + s, 1.0 / s });
        model.appendPoints(name, points);
        QSignalSpy changed(&model, &MetricsModel::seriesChanged);
        model.purge(name, 6); // restart from step 6: steps ≥ 6 go
        QCOMPARE(changed.size(), 1);
        const MetricSeriesData& d = model.data(0);
        QCOMPARE(d.size(), size_t(5));
        QCOMPARE(d.step(4), qint64(5));
        model.appendPoints(name, { { 6, 200, 2.0 / 6 }, { 7, 201, 2.0 / 7 } });
        QCOMPARE(d.size(), size_t(7));
        QCOMPARE(d.value(5), 2.0 / 6);
        // The smoothing restarts from the kept points as if they had come alone.
        MetricSeriesData fresh;
        for (size_t i = 0; i < d.size(); ++i)
            fresh.append(d.step(i), d.wallTime(i), d.value(i));
        for (size_t i = 0; i < d.size(); ++i)
            QCOMPARE(d.smoothed(i), fresh.smoothed(i));

        // Unsorted steps: every point with step ≥ fromStep goes, wherever it is.
        MetricSeriesData unsorted;
        for (qint64 s : { 1, 5, 3, 7, 2 })
            unsorted.append(s, double(s), double(s));
        QVERIFY(!unsorted.stepsSorted());
        unsorted.purgeFrom(4);
        QCOMPARE(unsorted.size(), size_t(3));
        QCOMPARE(unsorted.step(0), qint64(1));
        QCOMPARE(unsorted.step(1), qint64(3));
        QCOMPARE(unsorted.step(2), qint64(2));
        unsorted.purgeFrom(0);
        QCOMPARE(unsorted.size(), size_t(0));
    }

    void compactColumns()
    {
        // Steps that do not fit a chunk's 32-bit offsets and values that are not floats stay exact.
        MetricSeriesData d;
        d.append(0, 1.5, 0.25);
        d.append(5'000'000'000LL, 1.75, 0.1);
        d.append(-3, 1700000000.123456, 1e300);
        QCOMPARE(d.step(1), qint64(5000000000LL));
        QCOMPARE(d.step(2), qint64(-3));
        QCOMPARE(d.value(1), 0.1);
        QCOMPARE(d.value(2), 1e300);
        QCOMPARE(d.wallTime(2), 1700000000.123456);

        // Float scalars with counting steps: under 24 bytes per point.
        MetricSeriesData big;
        const size_t n = 3 * MetricSeriesData::ChunkSize;
        for (size_t i = 0; i < n; ++i)
            big.append(qint64(i), 1.7e9 + double(i) * 0.01, double(float(std::sin(double(i)))));
        QCOMPARE(big.size(), n);
        QCOMPARE(big.step(n - 1), qint64(n - 1));
        const double perPoint = double(big.memoryBytes()) / double(n);
        QVERIFY2(perPoint <= 24, qPrintable(QString::number(perPoint)));
    }

    void extremesMatchBruteForce()
    {
        MetricSeriesData d;
        std::mt19937 rng(7);
        std::normal_distribution<double> normal;
        const size_t n = 300'000; // past the second summary level (65 536 points)
        for (size_t i = 0; i < n; ++i)
            d.append(qint64(i), double(i), i % 9973 == 5 ? NaN : normal(rng));
        std::uniform_int_distribution<size_t> pick(0, n);
        for (int k = 0; k < 200; ++k) {
            size_t a = pick(rng), b = pick(rng);
            if (k == 0) {
                a = 0;
                b = n;
            }
            if (a > b)
                std::swap(a, b);
            for (auto column : { MetricSeriesData::Value, MetricSeriesData::Smoothed }) {
                double lo = std::numeric_limits<double>::infinity(), hi = -lo;
                for (size_t i = a; i < b; ++i) {
                    const double v = d.column(column, i);
                    if (std::isfinite(v)) {
                        lo = std::min(lo, v);
                        hi = std::max(hi, v);
                    }
                }
                const auto e = d.extremes(column, a, b);
                if (a == b) {
                    QVERIFY(!e);
                    continue;
                }
                QVERIFY(e);
                QCOMPARE(e->min, lo);
                QCOMPARE(e->max, hi);
                QCOMPARE(d.column(column, e->minIndex), lo);
                QCOMPARE(d.column(column, e->maxIndex), hi);
                QVERIFY(e->minIndex >= a && e->minIndex < b);
            }
        }
    }

    void m4KeepsMinMaxFirstLast()
    {
        MetricsModel model;
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("train/loss")));
        const size_t n = 200'000;
        QList<SeriesPoint> points;
        std::mt19937 rng(1);
        std::uniform_real_distribution<double> noise(-1, 1);
        for (size_t i = 0; i < n; ++i)
            points.append({ qint64(i), 1.7e9 + double(i), std::sin(double(i) / 5000.0) + 0.1 * noise(rng) });
        points[77'777].value = 50; // a spike and a dip that a sampled line would lose
        points[123'456].value = -50;
        model.appendPoints(QStringLiteral("scalar/./train/loss"), points);

        const int pixels = 300;
        const QList<QPointF> reduced
            = model.reduce(0, MetricSeriesData::Value, MetricsXAxis::Step, 0, double(n - 1), pixels);
        QVERIFY(reduced.size() <= 4 * pixels + 2);
        QVERIFY(reduced.size() >= 2 * pixels);
        QVERIFY(samePoint(reduced.first(), 0, points[0].value));
        QVERIFY(samePoint(reduced.last(), double(n - 1), points[qsizetype(n - 1)].value));
        for (qsizetype k = 1; k < reduced.size(); ++k)
            QVERIFY(reduced[k].x() > reduced[k - 1].x());
        QVERIFY(reduced.contains(QPointF(77'777, 50)));
        QVERIFY(reduced.contains(QPointF(123'456, -50)));
        // Every pixel column's lowest and highest point is there.
        const double width = double(n - 1) / pixels;
        for (int p = 0; p < pixels; ++p) {
            double lo = 1e300, hi = -1e300;
            size_t ilo = 0, ihi = 0;
            for (size_t i = 0; i < n; ++i) {
                const double x = double(i);
                const bool inside = x >= p * width && (p + 1 == pixels ? x <= double(n - 1) : x < (p + 1) * width);
                if (!inside)
                    continue;
                if (points[qsizetype(i)].value < lo) {
                    lo = points[qsizetype(i)].value;
                    ilo = i;
                }
                if (points[qsizetype(i)].value > hi) {
                    hi = points[qsizetype(i)].value;
                    ihi = i;
                }
            }
            QVERIFY2(reduced.contains(QPointF(double(ilo), lo)), qPrintable(QString::number(p)));
            QVERIFY2(reduced.contains(QPointF(double(ihi), hi)), qPrintable(QString::number(p)));
        }

        // Zoomed in on 101 steps with more pixels than points: the real points, plus one outside each end.
        const QList<QPointF> zoomed = model.reduce(0, MetricSeriesData::Value, MetricsXAxis::Step, 1000, 1100, 800);
        QCOMPARE(zoomed.size(), 103);
        for (int k = 0; k < zoomed.size(); ++k)
            QVERIFY(samePoint(zoomed[k], 999 + k, points[999 + k].value));

        // Relative time: x counts from the first wall time.
        const QList<QPointF> relative
            = model.reduce(0, MetricSeriesData::Value, MetricsXAxis::RelativeTime, 10, 12, 10);
        QVERIFY(samePoint(relative[1], 10, points[10].value));
        const QList<QPointF> wall
            = model.reduce(0, MetricSeriesData::Value, MetricsXAxis::WallTime, 1.7e9 + 10, 1.7e9 + 12, 10);
        QCOMPARE(wall[1].x(), 1.7e9 + 10);
        QCOMPARE(*model.nearest(0, MetricsXAxis::Step, 41.4), size_t(41));
        QCOMPARE(*model.nearest(0, MetricsXAxis::RelativeTime, 41.6), size_t(42));
        QCOMPARE(model.xRange(0, MetricsXAxis::WallTime)->second, 1.7e9 + double(n - 1));
    }

    void m4Unsorted()
    {
        // Steps out of order (a hypertune trial that went back): a linear pass, same guarantees per column.
        MetricsModel model;
        SeriesInfo info;
        info.name = QStringLiteral("hypertune/master-replica-0/accuracy");
        info.kind = QStringLiteral("hypertune");
        info.tag = QStringLiteral("accuracy");
        info.taskName = QStringLiteral("master-replica-0");
        model.addSeries(info);
        model.appendPoints(info.name, { { 10, 1, 0.5 }, { 20, 2, 0.7 }, { 5, 3, 0.1 }, { 30, 4, 0.9 } });
        QVERIFY(!model.data(0).stepsSorted());
        const QList<QPointF> r = model.reduce(0, MetricSeriesData::Value, MetricsXAxis::Step, 0, 30, 3);
        QVERIFY(r.contains(QPointF(5, 0.1)));
        QVERIFY(r.contains(QPointF(30, 0.9)));
        QCOMPARE(*model.xRange(0, MetricsXAxis::Step), std::make_pair(5.0, 30.0));
    }

    void outlierRange()
    {
        std::vector<double> values;
        for (int i = 0; i < 100; ++i)
            values.push_back(i);
        values.push_back(1e9); // the outlier
        values.push_back(NaN);
        const auto range = MetricsModel::outlierRange(values);
        QVERIFY(range);
        QCOMPARE(range->first, 5.0); // d3.quantile over 101 sorted values: index 5 and 95
        QCOMPARE(range->second, 95.0);
        std::vector<double> two { 0, 10 };
        QCOMPARE(MetricsModel::outlierRange(two)->first, 0.5);
        std::vector<double> none { NaN };
        QVERIFY(!MetricsModel::outlierRange(none));
    }

    void grouping()
    {
        MetricsModel model;
        QSignalSpy added(&model, &MetricsModel::seriesAdded);
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("train/loss")));
        model.addSeries(scalar(QStringLiteral("eval"), QStringLiteral("eval/accuracy")));
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("eval/accuracy")));
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("learning_rate")));
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("train/loss"))); // known: ignored
        SeriesInfo cpu;
        cpu.name = QStringLiteral("resource/worker-replica-1/cpu_percent");
        cpu.kind = QStringLiteral("resource");
        cpu.tag = QStringLiteral("cpu_percent");
        cpu.taskName = QStringLiteral("worker-replica-1");
        model.addSeries(cpu);
        QCOMPARE(added.size(), 5);
        QCOMPARE(model.groups(),
            QStringList({ QStringLiteral("train"), QStringLiteral("eval"), QStringLiteral("learning_rate"),
                QStringLiteral("resources") }));
        const MetricsModel::Chart* eval = model.chart(QStringLiteral("scalar:eval/accuracy"));
        QVERIFY(eval);
        QCOMPARE(eval->series, QList<int>({ 1, 2 }));
        QCOMPARE(MetricsModel::seriesLabel(model.info(1)), QStringLiteral("eval"));
        QCOMPARE(MetricsModel::seriesLabel(cpu), QStringLiteral("worker-replica-1"));
        // A trial's series are named after the trial (issue 27, item 3), with their job when jobs are compared.
        SeriesInfo trialEval = scalar(QStringLiteral("3/eval"), QStringLiteral("eval/accuracy"));
        trialEval.trialId = QStringLiteral("3");
        QCOMPARE(MetricsModel::seriesLabel(trialEval, QStringLiteral("tune_a")), QStringLiteral("trial 3 eval"));
        SeriesInfo trialCpu = cpu;
        trialCpu.trialId = QStringLiteral("3");
        trialCpu.taskName = QStringLiteral("master-replica-0");
        QCOMPARE(MetricsModel::seriesLabel(trialCpu), QStringLiteral("trial 3"));
        trialEval.jobId = QStringLiteral("tune_b");
        QCOMPARE(MetricsModel::seriesLabel(trialEval, QStringLiteral("tune_a")), QStringLiteral("tune_b trial 3 eval"));
        QCOMPARE(model.chart(QStringLiteral("resource:cpu_percent"))->group, QStringLiteral("resources"));
        // Points of an unknown series are dropped.
        model.appendPoints(QStringLiteral("scalar/nope/x"), { { 1, 1, 1 } });
        QCOMPARE(model.seriesCount(), 5);
        model.clear();
        QCOMPARE(model.seriesCount(), 0);
        QVERIFY(model.charts().isEmpty());
    }

    /// Issue 46 item 12: one naming rule for runs. A job (or a tuning job's trials) writing event files to one folder
    /// is named by its job ID (or trial) alone; the folder joins the name once a second folder appears.
    void runNames()
    {
        MetricsModel model;
        model.setJobId(QStringLiteral("tune_a"));
        QSignalSpy relabelled(&model, &MetricsModel::labelsChanged);
        SeriesInfo first = scalar(QStringLiteral("3/experiment"), QStringLiteral("test/accuracy"));
        first.trialId = QStringLiteral("3");
        model.addSeries(first);
        SeriesInfo other = scalar(QStringLiteral("4/experiment"), QStringLiteral("test/accuracy"));
        other.trialId = QStringLiteral("4");
        model.addSeries(other);
        QCOMPARE(model.seriesLabel(0), QStringLiteral("trial 3"));
        QCOMPARE(model.seriesLabel(1), QStringLiteral("trial 4"));
        QCOMPARE(model.runKey(0), QStringLiteral("trial 3 experiment"));
        QCOMPARE(relabelled.count(), 0);
        SeriesInfo eval = scalar(QStringLiteral("3/eval"), QStringLiteral("test/accuracy"));
        eval.trialId = QStringLiteral("3");
        model.addSeries(eval);
        QCOMPARE(relabelled.count(), 1);
        QCOMPARE(model.seriesLabel(0), QStringLiteral("trial 3 experiment"));
        QCOMPARE(model.seriesLabel(2), QStringLiteral("trial 3 eval"));
        // A compared job has its own folders: its one run is its ID.
        SeriesInfo compared = scalar(QStringLiteral("experiment"), QStringLiteral("test/accuracy"));
        compared.jobId = QStringLiteral("builtin_b");
        compared.name = QStringLiteral("builtin_b\n") + compared.name;
        model.addSeries(compared);
        QCOMPARE(model.seriesLabel(3), QStringLiteral("builtin_b"));
        QCOMPARE(model.runKey(3), QStringLiteral("builtin_b/experiment"));
        QCOMPARE(relabelled.count(), 1);
        model.clear();
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("train/loss")));
        QCOMPARE(model.seriesLabel(0), QStringLiteral("tune_a"));
    }

    void downloads()
    {
        MetricsModel model;
        model.addSeries(scalar(QStringLiteral("."), QStringLiteral("train/loss")));
        model.appendPoints(QStringLiteral("scalar/./train/loss"),
            { { 1, 1700000001.25, double(0.1f) }, { 2, 1700000002.0, 0.5 }, { 3, 1700000003.5, NaN },
                { 4, 1700000004.0, 1e-5 } });
        QCOMPARE(model.toCsv(0),
            QByteArray("Wall time,Step,Value\n"
                       "1700000001.25,1,0.10000000149011612\n"
                       "1700000002.0,2,0.5\n"
                       "1700000003.5,3,nan\n"
                       "1700000004.0,4,1e-05\n"));
        QCOMPARE(model.toJson(0),
            QByteArray("[[1700000001.25, 1, 0.10000000149011612], [1700000002.0, 2, 0.5], "
                       "[1700000003.5, 3, NaN], [1700000004.0, 4, 1e-05]]"));
    }
};

QTEST_GUILESS_MAIN(TestMetricsModel)
#include "tst_metricsmodel.moc"
