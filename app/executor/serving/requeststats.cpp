// SPDX-License-Identifier: GPL-2.0-or-later
#include "requeststats.h"

#include "jsonnumber.h"
#include "rfc3339.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace Trainyard {

void RequestStats::record(qint64 nowMs, double latencyMs, bool ok)
{
    const qint64 index = nowMs / 1000 / BucketSeconds;
    Bucket& b = m_buckets[std::size_t(index % Buckets)];
    if (b.index != index) {
        b.index = index;
        b.count = 0;
        b.errors = 0;
        b.latencies.clear();
    }
    b.percentiles.reset();
    ++b.count;
    if (!ok)
        ++b.errors;
    if (b.latencies.size() < std::size_t(MaxSamplesPerBucket)) {
        b.latencies.push_back(float(latencyMs));
        return;
    }
    // Reservoir sampling (Vitter's algorithm R): every request of the bucket equally likely to be kept.
    m_seed ^= m_seed << 13;
    m_seed ^= m_seed >> 7;
    m_seed ^= m_seed << 17;
    const quint64 slot = m_seed % quint64(b.count);
    if (slot < quint64(MaxSamplesPerBucket))
        b.latencies[std::size_t(slot)] = float(latencyMs);
}

QJsonObject RequestStats::toJson(qint64 nowMs) const
{
    const qint64 last = nowMs / 1000 / BucketSeconds;
    const qint64 first = last - Buckets + 1;
    qint64 start = -1;
    for (const Bucket& b : m_buckets) {
        if (b.index >= first && b.index <= last && b.count > 0 && (start < 0 || b.index < start))
            start = b.index;
    }
    QJsonArray points;
    for (qint64 i = start; start >= 0 && i <= last; ++i) {
        const Bucket& b = m_buckets[std::size_t(i % Buckets)];
        const double seconds = secondsOf(i, nowMs);
        QJsonObject p { { QStringLiteral("time"),
            Rfc3339::format(QDateTime::fromMSecsSinceEpoch(i * BucketSeconds * 1000, Qt::UTC)) } };
        const bool live = b.index == i && b.count > 0;
        p.insert(QStringLiteral("requestsPerSecond"), live ? doubleToJson(b.count / seconds) : 0.0);
        p.insert(QStringLiteral("errorsPerSecond"), live ? doubleToJson(b.errors / seconds) : 0.0);
        if (live && !b.latencies.empty()) {
            if (!b.percentiles) {
                std::vector<float> sorted = b.latencies;
                std::sort(sorted.begin(), sorted.end());
                const auto at = [&sorted](double q) {
                    // Nearest rank, as Prometheus' and the service's percentiles of a sample.
                    const std::size_t rank = std::size_t(std::ceil(q * double(sorted.size())));
                    return double(sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)]);
                };
                b.percentiles = std::array<double, 3> { at(0.50), at(0.90), at(0.99) };
            }
            p.insert(QStringLiteral("latencyP50Ms"), doubleToJson((*b.percentiles)[0]));
            p.insert(QStringLiteral("latencyP90Ms"), doubleToJson((*b.percentiles)[1]));
            p.insert(QStringLiteral("latencyP99Ms"), doubleToJson((*b.percentiles)[2]));
        }
        points.append(p);
    }
    return { { QStringLiteral("intervalSeconds"), BucketSeconds }, { QStringLiteral("points"), points } };
}

double RequestStats::secondsOf(qint64 index, qint64 nowMs)
{
    const qint64 current = nowMs / 1000 / BucketSeconds;
    return index == current ? std::max(1.0, double(nowMs - index * BucketSeconds * 1000) / 1000.0)
                            : double(BucketSeconds);
}

double RequestStats::latestRequestsPerSecond(qint64 nowMs) const
{
    const qint64 last = nowMs / 1000 / BucketSeconds;
    const Bucket& b = m_buckets[std::size_t(last % Buckets)];
    return b.index == last && b.count > 0 ? b.count / secondsOf(last, nowMs) : 0.0;
}

} // namespace Trainyard
