// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "predictionresults.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace Trainyard {

/// The Charts tab of a deployed version (issue 30): its requests per second, its latency percentiles (p50, p90, p99,
/// in ms through the executor) and its errors per second over the last hour, in the executor's 10 s points
/// (`GET …/versions/{v}/metrics`, app/executor/serving/requeststats.h), with the latest point's figures above them.
/// Without Qt Charts it shows the figures alone.
class VersionChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit VersionChartsPanel(QWidget* parent = nullptr);
    ~VersionChartsPanel() override;

    /// Shows `metrics` (the route's answer); nullopt clears the charts (no version selected).
    void setMetrics(const std::optional<VersionMetrics>& metrics);

    /// "3.2 requests/s, p50 1.4 ms, p99 2.9 ms, 0 errors/s in the last 10 s", or why there is none.
    QLabel* summaryLabel() const { return m_summary; }
    /// The points shown, per chart (tests): requests/s, then latency p50, p90, p99, then errors/s.
    QList<int> seriesSizes() const;
    /// The points drawn on a chart's frame (at an end of the time axis, or on the value axis's top), named
    /// "CHART: SERIES at VALUE"; empty when every point is inside.
    QStringList pointsOnFrame() const;

private:
    QLabel* m_summary;
    struct Charts;
    Charts* m_charts = nullptr;
};

} // namespace Trainyard
