// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QJsonObject>

#include <array>
#include <optional>
#include <vector>

namespace Trainyard {

/// A deployed version's online predictions over the last hour, in 10-second buckets: how many requests, how many
/// failed (answered with anything but HTTP 200), and their latencies (ms through the executor, from a request's arrival
/// to its answer) for percentiles, as the service's console charts a version's requests, latency and errors. In memory
/// only: an executor's restart starts them again. Main thread.
class RequestStats {
public:
    static constexpr int BucketSeconds = 10;
    static constexpr int Buckets = 360; ///< an hour
    /// Latencies kept per bucket for its percentiles (a bucket with more requests keeps a uniform sample of them).
    static constexpr int MaxSamplesPerBucket = 4096;

    /// Counts one request answered at `nowMs` (ms since the epoch) after `latencyMs`.
    void record(qint64 nowMs, double latencyMs, bool ok);

    /// The series up to `nowMs`: `{"intervalSeconds": 10, "points": [{"time": RFC 3339 (the bucket's start),
    /// "requestsPerSecond", "errorsPerSecond", "latencyP50Ms", "latencyP90Ms", "latencyP99Ms"}]}`, oldest first, from
    /// the first bucket of the last hour that had a request (no points before any), with quiet buckets as zero rates
    /// and no latencies.
    QJsonObject toJson(qint64 nowMs) const;
    /// The requests per second of the current 10-second interval up to `nowMs`: toJson()'s last point's
    /// `requestsPerSecond` (0 when the version had no request in it), without the hour around it.
    double latestRequestsPerSecond(qint64 nowMs) const;

private:
    /// Seconds bucket `index` covers up to `nowMs`: a whole interval, or for the current one the seconds it has run
    /// (at least 1), so that its rate is over the time it had.
    static double secondsOf(qint64 index, qint64 nowMs);
    struct Bucket {
        qint64 index = -1; ///< ms since the epoch / 1000 / BucketSeconds
        int count = 0;
        int errors = 0;
        std::vector<float> latencies;
        /// p50, p90, p99 of `latencies`, computed once for a bucket that gets no more requests (a read repeats
        /// for every closed bucket of the hour; sorting them all again each time cost up to 1.5 M floats a read).
        mutable std::optional<std::array<double, 3>> percentiles;
    };
    std::array<Bucket, Buckets> m_buckets;
    quint64 m_seed = 0x9e3779b97f4a7c15ull; ///< for the sample's replacement (a plain xorshift: no crypto here)
};

} // namespace Trainyard
