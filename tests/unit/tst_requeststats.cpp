// SPDX-License-Identifier: GPL-2.0-or-later
// RequestStats, a deployed version's request metrics: rates per 10 s bucket (the current one over the seconds it has
// run), errors apart, nearest-rank latency percentiles, quiet buckets as zeros, nothing older than an hour.
#include "requeststats.h"

#include <QJsonArray>
#include <QTest>

using namespace Trainyard;

class TestRequestStats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptyHasNoPoints()
    {
        const QJsonObject o = RequestStats().toJson(1'800'000'000'000);
        QCOMPARE(o.value(QStringLiteral("intervalSeconds")).toInt(), 10);
        QVERIFY(o.value(QStringLiteral("points")).toArray().isEmpty());
    }

    void ratesAndPercentiles()
    {
        RequestStats stats;
        const qint64 t0 = 1'800'000'000'000; // a bucket's start (divisible by 10 s)
        // 100 requests in the first bucket: latencies 1..100 ms, 5 of them failed.
        for (int i = 1; i <= 100; ++i)
            stats.record(t0 + i * 10, double(i), i > 95 ? false : true);
        // Nothing in the second; 20 in the third.
        for (int i = 0; i < 20; ++i)
            stats.record(t0 + 20'000 + i, 2.0, true);
        // Read 5 s into the third bucket: its rate is over those 5 s.
        const QJsonArray points = stats.toJson(t0 + 25'000).value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 3);
        const QJsonObject first = points.at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("time")).toString(), QStringLiteral("2027-01-15T08:00:00.000Z"));
        QCOMPARE(first.value(QStringLiteral("requestsPerSecond")).toDouble(), 10.0);
        QCOMPARE(first.value(QStringLiteral("errorsPerSecond")).toDouble(), 0.5);
        QCOMPARE(first.value(QStringLiteral("latencyP50Ms")).toDouble(), 50.0);
        QCOMPARE(first.value(QStringLiteral("latencyP90Ms")).toDouble(), 90.0);
        QCOMPARE(first.value(QStringLiteral("latencyP99Ms")).toDouble(), 99.0);
        const QJsonObject quiet = points.at(1).toObject();
        QCOMPARE(quiet.value(QStringLiteral("requestsPerSecond")).toDouble(), 0.0);
        QVERIFY(!quiet.contains(QLatin1String("latencyP50Ms")));
        QCOMPARE(points.at(2).toObject().value(QStringLiteral("requestsPerSecond")).toDouble(), 4.0);
        // A read caches a bucket's percentiles; a request after it counts in the next read.
        stats.record(t0 + 20'100, 500.0, true);
        const QJsonObject again = stats.toJson(t0 + 25'000).value(QStringLiteral("points")).toArray().at(2).toObject();
        QCOMPARE(again.value(QStringLiteral("latencyP99Ms")).toDouble(), 500.0);
        QCOMPARE(again.value(QStringLiteral("latencyP50Ms")).toDouble(), 2.0);
    }

    /// The models stream's rate: the current interval's, as the series' last point says it, and 0 for a quiet one.
    void latestRateIsTheLastPoints()
    {
        RequestStats stats;
        const qint64 t0 = 1'800'000'000'000;
        QCOMPARE(stats.latestRequestsPerSecond(t0), 0.0);
        for (int i = 0; i < 30; ++i)
            stats.record(t0 + 10'000 + i, 3.0, true);
        const qint64 now = t0 + 16'000; // 6 s into the second bucket
        const QJsonArray points = stats.toJson(now).value(QStringLiteral("points")).toArray();
        QCOMPARE(stats.latestRequestsPerSecond(now), 5.0);
        QCOMPARE(stats.latestRequestsPerSecond(now), points.last().toObject().value(QStringLiteral("requestsPerSecond")).toDouble());
        QCOMPARE(stats.latestRequestsPerSecond(t0 + 21'000), 0.0); // the next interval has had none
    }

    void anHourAtMost()
    {
        RequestStats stats;
        const qint64 t0 = 1'800'000'000'000;
        stats.record(t0, 1.0, true);
        stats.record(t0 + 3'700'000, 1.0, true); // more than an hour later: the first is gone
        const QJsonArray points = stats.toJson(t0 + 3'700'000).value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 1);
        // A bucket reused an hour later counts only its own requests.
        stats.record(t0 + 3'600'000 + 1, 1.0, false);
        const QJsonArray again = stats.toJson(t0 + 3'700'000).value(QStringLiteral("points")).toArray();
        QCOMPARE(again.first().toObject().value(QStringLiteral("errorsPerSecond")).toDouble(), 0.1);
    }

    void manyRequestsAreSampled()
    {
        RequestStats stats;
        const qint64 t0 = 1'800'000'000'000;
        for (int i = 0; i < 20000; ++i)
            stats.record(t0 + i / 4, i < 10000 ? 1.0 : 3.0, true);
        const QJsonObject p = stats.toJson(t0 + 10'000).value(QStringLiteral("points")).toArray().first().toObject();
        QCOMPARE(p.value(QStringLiteral("requestsPerSecond")).toDouble(), 2000.0);
        // Half the requests took 1 ms, half 3 ms: the sample's median is one of them, its p99 3 ms.
        const double p50 = p.value(QStringLiteral("latencyP50Ms")).toDouble();
        QVERIFY(p50 == 1.0 || p50 == 3.0);
        QCOMPARE(p.value(QStringLiteral("latencyP99Ms")).toDouble(), 3.0);
    }
};

QTEST_GUILESS_MAIN(TestRequestStats)
#include "tst_requeststats.moc"
