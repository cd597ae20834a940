// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Trainyard::Formats {

/// One `report_hyperparameter_tuning_metric()` call of GoogleCloudPlatform/cloudml-hypertune.
struct HypertuneReport {
    QString tag; ///< hyperparameter_metric_tag, e.g. "accuracy"
    double value = 0;
    qint64 step = 0; ///< global_step (the library writes 0 when none was given)
    double timestamp = 0; ///< seconds since the Unix epoch, as time.time() gave it
    QString trial; ///< the trial id ("" outside a tuning job)
    QString checkpointPath;
};

/// Reads a hypertune metrics file (`CLOUD_ML_HP_METRIC_FILE`, default
/// /tmp/hypertune/output.metrics), as cloudml-hypertune writes it: one JSON object per line,
/// `{"<tag>": "<value>", "checkpoint_path": "", "global_step": "<n>", "timestamp": <float>,
/// "trial": "<id>"}`, where the value, global_step and trial are strings. The library keeps its
/// last 100 reports and rewrites the whole file on every report, so each readNew() re-reads the
/// file and returns only reports whose (global_step, timestamp) it has not returned before.
///
/// The metric tag is the one key besides global_step, timestamp, trial and checkpoint_path.
/// Numbers are accepted as JSON strings or JSON numbers. A last line without its newline that does
/// not parse is a rewrite in progress and is read next time; any other bad line is reported
/// (takeIssues(): file, line number, field and rule) and skipped. A missing file is not an error
/// (the trainer has not reported yet).
class HypertuneReader {
public:
    explicit HypertuneReader(const QString& path);

    QString path() const { return m_path; }
    /// Reports not returned by an earlier call, in file order.
    QList<HypertuneReport> readNew();
    /// Problems found since the last call.
    QStringList takeIssues();

    /// Parses one line; returns false with `*error` naming the field and the rule.
    static bool parseLine(const QByteArray& line, HypertuneReport* report, QString* error);

private:
    QString m_path;
    QSet<QPair<qint64, quint64>> m_seen; // (global_step, bit pattern of timestamp)
    QStringList m_issues;
};

} // namespace Trainyard::Formats
