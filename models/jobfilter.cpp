// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobfilter.h"
#include "rfc3339.h"

#include <algorithm>

namespace Trainyard {

namespace {

bool isFieldChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('.') || c == QLatin1Char('-');
}

bool isOpChar(QChar c)
{
    return c == QLatin1Char(':') || c == QLatin1Char('=') || c == QLatin1Char('!') || c == QLatin1Char('<')
        || c == QLatin1Char('>');
}

constexpr JobState allStates[] = { JobState::StateUnspecified, JobState::Queued, JobState::Preparing, JobState::Running,
    JobState::Succeeded, JobState::Failed, JobState::Cancelling, JobState::Cancelled };

QString stateNameList()
{
    QStringList names;
    for (const JobState state : allStates)
        names.append(jobStateName(state));
    return names.join(QStringLiteral(", "));
}

} // namespace

std::optional<JobFilter> JobFilter::parse(const QString& text, QString* error)
{
    JobFilter filter;
    filter.m_text = text;
    qsizetype i = 0;
    const qsizetype n = text.size();
    auto fail = [&](qsizetype at, const QString& what) -> std::optional<JobFilter> {
        if (error)
            *error = QStringLiteral("Invalid filter at position %1: %2").arg(at + 1).arg(what);
        return std::nullopt;
    };
    auto skipSpace = [&] {
        while (i < n && text.at(i).isSpace())
            ++i;
    };
    bool expectTerm = true; // after AND a term must follow
    while (true) {
        skipSpace();
        if (i >= n)
            break;
        const qsizetype start = i;
        if (text.at(i) == QLatin1Char('(') || text.at(i) == QLatin1Char(')'))
            return fail(i, QStringLiteral("parentheses are not supported; join terms with AND."));
        if (text.at(i) == QLatin1Char('-'))
            return fail(i, QStringLiteral("negation is not supported; use != instead."));
        while (i < n && isFieldChar(text.at(i)))
            ++i;
        const QString word = text.mid(start, i - start);
        if (word.isEmpty())
            return fail(
                start, QStringLiteral("expected a field name, found \"") + text.at(start) + QStringLiteral("\"."));
        skipSpace();
        if (word == QLatin1String("AND")) {
            if (expectTerm)
                return fail(start, QStringLiteral("AND must stand between two terms."));
            expectTerm = true;
            continue;
        }
        if (word == QLatin1String("OR"))
            return fail(start, QStringLiteral("OR is not supported; terms are joined by AND."));
        if (word == QLatin1String("NOT"))
            return fail(start, QStringLiteral("NOT is not supported; use != instead."));

        Term term;
        if (word == QLatin1String("jobId") || word == QLatin1String("job_id")) {
            term.field = Field::JobId;
        } else if (word == QLatin1String("state")) {
            term.field = Field::State;
        } else if (word.startsWith(QLatin1String("labels.")) && word.size() > 7) {
            term.field = Field::Label;
            term.labelKey = word.mid(7);
        } else if (word == QLatin1String("createTime") || word == QLatin1String("create_time")) {
            term.field = Field::CreateTime;
        } else if (word == QLatin1String("startTime") || word == QLatin1String("start_time")) {
            term.field = Field::StartTime;
        } else if (word == QLatin1String("endTime") || word == QLatin1String("end_time")) {
            term.field = Field::EndTime;
        } else {
            return fail(start,
                QStringLiteral("unknown field \"") + word
                    + QStringLiteral("\"; use jobId, state, labels.KEY, createTime, startTime or endTime."));
        }

        const qsizetype opStart = i;
        while (i < n && isOpChar(text.at(i)))
            ++i;
        const QString op = text.mid(opStart, i - opStart);
        if (op == QLatin1String(":"))
            term.op = Op::Has;
        else if (op == QLatin1String("="))
            term.op = Op::Equal;
        else if (op == QLatin1String("!="))
            term.op = Op::NotEqual;
        else if (op == QLatin1String("<"))
            term.op = Op::Less;
        else if (op == QLatin1String("<="))
            term.op = Op::LessEqual;
        else if (op == QLatin1String(">"))
            term.op = Op::Greater;
        else if (op == QLatin1String(">="))
            term.op = Op::GreaterEqual;
        else
            return fail(opStart,
                op.isEmpty()
                    ? QStringLiteral("expected an operator (: = != < <= > >=) after \"") + word + QStringLiteral("\".")
                    : QStringLiteral("unknown operator \"") + op + QStringLiteral("\"."));
        skipSpace();

        const qsizetype valueStart = i;
        QString value;
        bool quoted = false;
        if (i < n && text.at(i) == QLatin1Char('"')) {
            quoted = true;
            ++i;
            bool closed = false;
            while (i < n) {
                const QChar c = text.at(i++);
                if (c == QLatin1Char('\\') && i < n) {
                    value += text.at(i++);
                } else if (c == QLatin1Char('"')) {
                    closed = true;
                    break;
                } else {
                    value += c;
                }
            }
            if (!closed)
                return fail(valueStart, QStringLiteral("unterminated quoted value."));
        } else {
            while (i < n && !text.at(i).isSpace() && text.at(i) != QLatin1Char('(') && text.at(i) != QLatin1Char(')'))
                value += text.at(i++);
        }
        if (value.isEmpty() && !quoted)
            return fail(valueStart, QStringLiteral("expected a value after \"") + word + op + QStringLiteral("\"."));

        const bool isTime
            = term.field == Field::CreateTime || term.field == Field::StartTime || term.field == Field::EndTime;
        const bool ordering
            = term.op == Op::Less || term.op == Op::LessEqual || term.op == Op::Greater || term.op == Op::GreaterEqual;
        if (isTime) {
            if (term.op == Op::Has)
                return fail(opStart, word + QStringLiteral(" takes = != < <= > >=, not \":\"."));
            term.time = Rfc3339::parse(value);
            if (!term.time.isValid())
                return fail(valueStart,
                    QStringLiteral("\"") + value
                        + QStringLiteral("\" is not an RFC 3339 time (e.g. 2026-11-22T05:04:43Z)."));
        } else {
            if (ordering)
                return fail(opStart, word + QStringLiteral(" takes : = !=, not \"") + op + QStringLiteral("\"."));
            if (term.op == Op::Has && value.endsWith(QLatin1Char('*')) && !quoted) {
                term.prefix = true;
                value.chop(1);
            }
            if (term.field == Field::State) {
                value = value.toUpper();
                if (term.prefix) {
                    for (const JobState state : allStates) {
                        if (jobStateName(state).startsWith(value))
                            term.states.append(state);
                    }
                } else if (const std::optional<JobState> state = jobStateFromName(value)) {
                    term.states.append(*state);
                } else {
                    return fail(valueStart,
                        QStringLiteral("unknown state \"") + value + QStringLiteral("\"; use one of ") + stateNameList()
                            + QLatin1Char('.'));
                }
            }
        }
        term.value = value;
        filter.m_terms.append(term);
        expectTerm = false;
    }
    if (expectTerm && !filter.m_terms.isEmpty())
        return fail(n - 1, QStringLiteral("a term must follow AND."));
    return filter;
}

bool JobFilter::matchTerm(const Term& term, const Job& job)
{
    QString actual;
    bool present = true;
    switch (term.field) {
    case Field::JobId:
        actual = job.jobId;
        break;
    case Field::State: // Has and Equal mean the same for a state: one of term.states
        return term.states.contains(job.state) == (term.op != Op::NotEqual);
    case Field::Label:
        present = job.labels.contains(term.labelKey);
        actual = job.labels.value(term.labelKey);
        break;
    case Field::CreateTime:
    case Field::StartTime:
    case Field::EndTime: {
        const QString& s = term.field == Field::CreateTime ? job.createTime
            : term.field == Field::StartTime               ? job.startTime
                                                           : job.endTime;
        const QDateTime t = Rfc3339::parse(s);
        if (!t.isValid())
            return term.op == Op::NotEqual;
        switch (term.op) {
        case Op::Equal:
            return t == term.time;
        case Op::NotEqual:
            return t != term.time;
        case Op::Less:
            return t < term.time;
        case Op::LessEqual:
            return t <= term.time;
        case Op::Greater:
            return t > term.time;
        case Op::GreaterEqual:
            return t >= term.time;
        case Op::Has:
            break;
        }
        return false;
    }
    }
    switch (term.op) {
    case Op::Has:
        if (!present)
            return false;
        return term.prefix ? actual.startsWith(term.value) : actual == term.value;
    case Op::Equal:
        return present && actual == term.value;
    case Op::NotEqual:
        return !present || actual != term.value;
    default:
        return false;
    }
}

bool JobFilter::matches(const Job& job) const
{
    return std::all_of(m_terms.cbegin(), m_terms.cend(), [&](const Term& t) { return matchTerm(t, job); });
}

} // namespace Trainyard
