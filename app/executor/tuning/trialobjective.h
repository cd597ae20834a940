// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>

namespace Trainyard::Formats {
class EventFileReader;
class HypertuneReader;
}

namespace Trainyard {

/// Reads what one trial reports of its objective, incrementally (call readNew() as often as you like):
/// - the master's hypertune file (CLOUD_ML_HP_METRIC_FILE, the `cloudml-hypertune` format that
///   Formats::HypertuneReader reads): reports whose tag is the study's metric tag;
/// - event-file scalars with that tag in every event file at or below `eventDir` (`<jobDir>/<trialId>`,
///   where the service's samples write a trial's summaries), read only while the hypertune file has
///   given nothing, so that a trainer that writes both is not counted twice.
/// Points come as HyperparameterMetric {trainingStep, objectiveValue}, in file order. Non-finite values are
/// skipped with an issue. Not thread-safe; cheap when nothing changed (a stat per file).
class TrialObjectiveReader {
public:
    TrialObjectiveReader(const QString& hypertuneFile, const QString& eventDir, const QString& metricTag);
    ~TrialObjectiveReader();

    /// The reports not returned before.
    QList<HyperparameterMetric> readNew();
    /// Problems found since the last call (bad lines of the hypertune file, damaged event records,
    /// non-finite values), one sentence each.
    QStringList takeIssues();
    /// Tags the hypertune file carried that are not the metric tag (for the message of a trial that
    /// never reported it).
    QStringList otherTags() const { return QStringList(m_otherTags.cbegin(), m_otherTags.cend()); }

private:
    QString m_eventDir;
    QString m_tag;
    std::unique_ptr<Formats::HypertuneReader> m_hypertune;
    std::map<QString, std::unique_ptr<Formats::EventFileReader>> m_events;
    bool m_hypertuneSeen = false;
    QSet<QString> m_otherTags;
    QStringList m_issues;
};

} // namespace Trainyard
