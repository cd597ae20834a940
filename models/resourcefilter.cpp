// SPDX-License-Identifier: GPL-2.0-or-later
#include "resourcefilter.h"
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

/// "jobId, state, labels.KEY, createTime, startTime or endTime": what an unknown field's error offers.
QString fieldList(const QList<ResourceFilter::Field>& fields)
{
    QStringList names;
    for (const ResourceFilter::Field& f : fields)
        names << (f.kind == ResourceFilter::Kind::Labels ? f.name + QStringLiteral(".KEY") : f.name);
    if (names.size() < 2)
        return names.join(QString());
    const QString last = names.takeLast();
    return names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

/// The field `word` names (its index), and for a label its key; -1 when none.
int findField(const QList<ResourceFilter::Field>& fields, const QString& word, QString* labelKey)
{
    for (int i = 0; i < fields.size(); ++i) {
        const ResourceFilter::Field& f = fields.at(i);
        if (f.kind == ResourceFilter::Kind::Labels) {
            const QString prefix = f.name + QLatin1Char('.');
            if (word.startsWith(prefix) && word.size() > prefix.size()) {
                *labelKey = word.mid(prefix.size());
                return i;
            }
        } else if (word == f.name || (!f.alias.isEmpty() && word == f.alias)) {
            return i;
        }
    }
    return -1;
}

} // namespace

std::optional<ResourceFilter> ResourceFilter::parse(const QString& text, const QList<Field>& fields, QString* error)
{
    ResourceFilter filter;
    filter.m_text = text;
    qsizetype i = 0;
    const qsizetype n = text.size();
    auto fail = [&](qsizetype at, const QString& what) -> std::optional<ResourceFilter> {
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
            return fail(i, QStringLiteral("NOT is not supported; use != instead."));
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
        term.field = findField(fields, word, &term.labelKey);
        if (term.field < 0)
            return fail(start,
                QStringLiteral("unknown field \"") + word + QStringLiteral("\"; use ") + fieldList(fields)
                    + QLatin1Char('.'));
        const Field& field = fields.at(term.field);

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

        const bool ordering
            = term.op == Op::Less || term.op == Op::LessEqual || term.op == Op::Greater || term.op == Op::GreaterEqual;
        if (field.kind == Kind::Time) {
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
            if (field.kind == Kind::Enum) {
                value = value.toUpper();
                for (const QString& name : field.values) {
                    if (term.prefix ? name.startsWith(value) : name == value)
                        term.values << name;
                }
                if (!term.prefix && term.values.isEmpty())
                    return fail(valueStart,
                        QStringLiteral("unknown %1 \"%2\"; use one of %3.")
                            .arg(field.name, value, field.values.join(QStringLiteral(", "))));
            }
        }
        term.value = value;
        filter.m_terms.append(term);
        filter.m_kinds.append(field.kind);
        expectTerm = false;
    }
    if (expectTerm && !filter.m_terms.isEmpty())
        return fail(n - 1, QStringLiteral("a term must follow AND."));
    return filter;
}

bool ResourceFilter::matchTerm(const Term& term, Kind kind, const std::optional<QString>& actual)
{
    switch (kind) {
    case Kind::Enum: // Has and Equal mean the same for an enum: one of term.values
        return (actual && term.values.contains(*actual)) == (term.op != Op::NotEqual);
    case Kind::Time: {
        const QDateTime t = actual ? Rfc3339::parse(*actual) : QDateTime();
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
    case Kind::Text:
    case Kind::Labels:
        break;
    }
    switch (term.op) {
    case Op::Has:
        return actual && (term.prefix ? actual->startsWith(term.value) : *actual == term.value);
    case Op::Equal:
        return actual && *actual == term.value;
    case Op::NotEqual:
        return !actual || *actual != term.value;
    default:
        return false;
    }
}

bool ResourceFilter::matches(const ValueOf& valueOf) const
{
    for (qsizetype i = 0; i < m_terms.size(); ++i) {
        if (!matchTerm(m_terms.at(i), m_kinds.at(i), valueOf(m_terms.at(i))))
            return false;
    }
    return true;
}

} // namespace Trainyard
