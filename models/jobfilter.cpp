// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobfilter.h"

namespace Trainyard {

namespace {

constexpr JobState allStates[] = { JobState::StateUnspecified, JobState::Queued, JobState::Preparing, JobState::Running,
    JobState::Succeeded, JobState::Failed, JobState::Cancelling, JobState::Cancelled };

/// The jobs list's fields, in JobFilter::Field's order (a term's field index is its Field).
const QList<ResourceFilter::Field>& jobFields()
{
    static const QList<ResourceFilter::Field> fields = [] {
        QStringList states;
        for (const JobState state : allStates)
            states << jobStateName(state);
        using K = ResourceFilter::Kind;
        return QList<ResourceFilter::Field> {
            { QStringLiteral("jobId"), QStringLiteral("job_id"), K::Text, {} },
            { QStringLiteral("state"), QString(), K::Enum, states },
            { QStringLiteral("labels"), QString(), K::Labels, {} },
            { QStringLiteral("createTime"), QStringLiteral("create_time"), K::Time, {} },
            { QStringLiteral("startTime"), QStringLiteral("start_time"), K::Time, {} },
            { QStringLiteral("endTime"), QStringLiteral("end_time"), K::Time, {} },
        };
    }();
    return fields;
}

} // namespace

std::optional<JobFilter> JobFilter::parse(const QString& text, QString* error)
{
    std::optional<ResourceFilter> parsed = ResourceFilter::parse(text, jobFields(), error);
    if (!parsed)
        return std::nullopt;
    JobFilter filter;
    filter.m_filter = std::move(*parsed);
    for (const ResourceFilter::Term& t : filter.m_filter.terms()) {
        Term term;
        term.field = Field(t.field);
        term.labelKey = t.labelKey;
        term.op = Op(int(t.op));
        term.value = t.value;
        term.prefix = t.prefix;
        for (const QString& name : t.values)
            term.states << *jobStateFromName(name);
        term.time = t.time;
        filter.m_terms.append(term);
    }
    return filter;
}

bool JobFilter::matches(const Job& job) const
{
    return m_filter.matches([&job](const ResourceFilter::Term& term) -> std::optional<QString> {
        switch (Field(term.field)) {
        case Field::JobId:
            return job.jobId;
        case Field::State:
            return jobStateName(job.state);
        case Field::Label:
            if (!job.labels.contains(term.labelKey))
                return std::nullopt;
            return job.labels.value(term.labelKey);
        case Field::CreateTime:
            return job.createTime;
        case Field::StartTime:
            return job.startTime;
        case Field::EndTime:
            return job.endTime;
        }
        return std::nullopt;
    });
}

} // namespace Trainyard
