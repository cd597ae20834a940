// SPDX-License-Identifier: GPL-2.0-or-later
#include "trialobjective.h"

#include "eventfilereader.h"
#include "hypertunereader.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>

namespace Trainyard {

namespace {

/// Keeps the scalars of one tag.
class TagSink final : public Formats::ScalarSink {
public:
    explicit TagSink(const QByteArray& tag)
        : m_tag(tag)
    {
    }
    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        Q_UNUSED(wallTime)
        if (tag == m_tag)
            points.append({ step, value });
    }
    QList<std::pair<qint64, double>> points;

private:
    QByteArray m_tag;
};

} // namespace

TrialObjectiveReader::TrialObjectiveReader(const QString& hypertuneFile, const QString& eventDir, const QString& metricTag)
    : m_eventDir(eventDir)
    , m_tag(metricTag)
    , m_hypertune(std::make_unique<Formats::HypertuneReader>(hypertuneFile))
{
}

TrialObjectiveReader::~TrialObjectiveReader() = default;

QList<HyperparameterMetric> TrialObjectiveReader::readNew()
{
    QList<HyperparameterMetric> points;
    auto add = [&](qint64 step, double value, const QString& source) {
        if (!std::isfinite(value)) {
            m_issues << QStringLiteral("%1 reported %2 = %3 at step %4; only finite numbers are objective values.")
                            .arg(source, m_tag, QString::number(value))
                            .arg(step);
            return;
        }
        points.append(HyperparameterMetric { step, value });
    };
    for (const Formats::HypertuneReport& r : m_hypertune->readNew()) {
        if (r.tag != m_tag) {
            m_otherTags.insert(r.tag);
            continue;
        }
        m_hypertuneSeen = true;
        add(r.step, r.value, QStringLiteral("The hypertune file"));
    }
    for (const QString& issue : m_hypertune->takeIssues())
        m_issues << issue;
    if (m_hypertuneSeen || m_eventDir.isEmpty() || !QFileInfo(m_eventDir).isDir())
        return points;

    QString error;
    const std::vector<Formats::EventRunFiles> runs = Formats::findEventRuns(m_eventDir, &error);
    const QByteArray tag = m_tag.toUtf8();
    for (const Formats::EventRunFiles& run : runs) {
        for (const QString& file : run.files) {
            auto it = m_events.find(file);
            if (it == m_events.end())
                it = m_events.emplace(file, std::make_unique<Formats::EventFileReader>(file)).first;
            TagSink sink(tag);
            it->second->readAvailable(sink);
            for (const Formats::RecordIssue& issue : it->second->takeIssues())
                m_issues << issue.message;
            for (const auto& [step, value] : std::as_const(sink.points))
                add(step, value, QDir(m_eventDir).relativeFilePath(file));
        }
    }
    return points;
}

QStringList TrialObjectiveReader::takeIssues()
{
    return std::exchange(m_issues, {});
}

} // namespace Trainyard
