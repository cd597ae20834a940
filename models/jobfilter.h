// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The `filter` of `GET /v1/projects/{p}/jobs?filter=…` and `trainyardctl jobs list --filter`, as
// the service (projects.jobs.list) takes it, e.g. `jobId:census*`, `state:FAILED`,
// `labels.owner=alice AND createTime>="2026-01-01T00:00:00Z"`: ResourceFilter's grammar (resourcefilter.h) over
// the fields jobId (job_id), state (a state name, case-insensitive), labels.<key>, createTime, startTime and
// endTime (and their snake_case spellings).

#include "job.h"
#include "resourcefilter.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace Trainyard {

class JobFilter {
public:
    /// Parses a filter; an empty or blank text matches every job. On a syntax error returns nullopt
    /// and sets *error to a message naming the position and the problem.
    static std::optional<JobFilter> parse(const QString& text, QString* error);

    /// Whether `job` passes every term.
    bool matches(const Job& job) const;

    bool isEmpty() const { return m_terms.isEmpty(); }
    /// The filter text as given to parse().
    const QString& text() const { return m_filter.text(); }

    /// ResourceFilter::Op's values, in its order.
    enum class Op { Has, Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual };
    enum class Field { JobId, State, Label, CreateTime, StartTime, EndTime };
    /// One parsed term. Public so that a store can translate the terms it can index into its own
    /// query (the executor's JobStore turns jobId, state and label terms into SQL); matches() stays
    /// the definition of what a filter means.
    struct Term {
        Field field = Field::JobId;
        QString labelKey;
        Op op = Op::Equal;
        QString value; ///< for State the upper-cased name (or prefix), as a store that keeps names compares it
        bool prefix = false; ///< `:` with a trailing `*`: value holds the prefix
        QList<JobState> states; ///< Field::State: the state named, or every state whose name has the prefix
        QDateTime time; ///< for the time fields
    };
    /// The terms, all of which a job must pass, in the order written.
    const QList<Term>& terms() const { return m_terms; }

private:
    ResourceFilter m_filter;
    QList<Term> m_terms; ///< m_filter's terms in the jobs list's own types
};

} // namespace Trainyard
