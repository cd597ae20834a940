// SPDX-License-Identifier: GPL-2.0-or-later
#include "hostlist.h"

namespace Trainyard::Slurm {

namespace {

// The numbers one bracket group stands for, as text with their padding.
std::optional<QStringList> expandBracket(QStringView body, QString* error)
{
    QStringList out;
    for (QStringView part : body.split(QLatin1Char(','))) {
        const qsizetype dash = part.indexOf(QLatin1Char('-'));
        const QStringView low = dash < 0 ? part : part.left(dash);
        const QStringView high = dash < 0 ? part : part.mid(dash + 1);
        bool lowOk = false;
        bool highOk = false;
        const qint64 a = low.toLongLong(&lowOk);
        const qint64 b = high.toLongLong(&highOk);
        if (low.isEmpty() || high.isEmpty() || !lowOk || !highOk || a < 0 || b < a) {
            if (error)
                *error = QStringLiteral("bad range '%1'").arg(part);
            return std::nullopt;
        }
        const int width = low.startsWith(QLatin1Char('0')) ? int(low.size()) : 0;
        for (qint64 n = a; n <= b; ++n)
            out.append(QStringLiteral("%1").arg(n, width, 10, QLatin1Char('0')));
        if (out.size() > (1 << 20)) {
            if (error)
                *error = QStringLiteral("range '%1' is too large").arg(part);
            return std::nullopt;
        }
    }
    return out;
}

// One host term (no top-level comma): literal text and bracket groups, as a product.
bool expandTerm(QStringView term, QStringList* hosts, QString* error, int limit)
{
    QStringList partial { QString() };
    qsizetype i = 0;
    while (i < term.size()) {
        const qsizetype open = term.indexOf(QLatin1Char('['), i);
        const QStringView literal = term.mid(i, (open < 0 ? term.size() : open) - i);
        if (literal.contains(QLatin1Char(']'))) {
            if (error)
                *error = QStringLiteral("unbalanced ']' in '%1'").arg(term);
            return false;
        }
        for (QString& p : partial)
            p += literal;
        if (open < 0)
            break;
        const qsizetype close = term.indexOf(QLatin1Char(']'), open);
        if (close < 0) {
            if (error)
                *error = QStringLiteral("unbalanced '[' in '%1'").arg(term);
            return false;
        }
        const std::optional<QStringList> numbers = expandBracket(term.mid(open + 1, close - open - 1), error);
        if (!numbers)
            return false;
        if (qint64(partial.size()) * numbers->size() + hosts->size() > limit) {
            if (error)
                *error = QStringLiteral("more than %1 hosts").arg(limit);
            return false;
        }
        QStringList next;
        next.reserve(partial.size() * numbers->size());
        for (const QString& p : std::as_const(partial)) {
            for (const QString& n : *numbers)
                next.append(p + n);
        }
        partial = next;
        i = close + 1;
    }
    if (hosts->size() + partial.size() > limit) {
        if (error)
            *error = QStringLiteral("more than %1 hosts").arg(limit);
        return false;
    }
    *hosts += partial;
    return true;
}

} // namespace

std::optional<QStringList> expandHostlist(QStringView expression, QString* error, int limit)
{
    QStringList hosts;
    const QStringView text = expression.trimmed();
    qsizetype start = 0;
    int depth = 0;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        if (i < text.size()) {
            const QChar c = text.at(i);
            if (c == QLatin1Char('['))
                ++depth;
            else if (c == QLatin1Char(']'))
                --depth;
            if (depth < 0 || depth > 1) {
                if (error)
                    *error = QStringLiteral("unbalanced brackets in '%1'").arg(text);
                return std::nullopt;
            }
            if (c != QLatin1Char(',') || depth != 0)
                continue;
        } else if (depth != 0) {
            if (error)
                *error = QStringLiteral("unbalanced '[' in '%1'").arg(text);
            return std::nullopt;
        }
        const QStringView term = text.mid(start, i - start).trimmed();
        start = i + 1;
        if (!term.isEmpty() && !expandTerm(term, &hosts, error, limit))
            return std::nullopt;
    }
    return hosts;
}

std::optional<QList<int>> expandTasksPerNode(QStringView text)
{
    QList<int> counts;
    const QStringView trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return counts;
    for (QStringView part : trimmed.split(QLatin1Char(','))) {
        part = part.trimmed();
        QStringView count = part;
        int repeat = 1;
        const qsizetype paren = part.indexOf(QLatin1Char('('));
        if (paren >= 0) {
            if (!part.endsWith(QLatin1Char(')')) || part.mid(paren + 1, 1) != QLatin1String("x"))
                return std::nullopt;
            bool ok = false;
            repeat = part.mid(paren + 2, part.size() - paren - 3).toInt(&ok);
            if (!ok || repeat <= 0)
                return std::nullopt;
            count = part.left(paren);
        }
        bool ok = false;
        const int n = count.toInt(&ok);
        if (!ok || n < 0 || count.startsWith(QLatin1Char('+')) || count.startsWith(QLatin1Char('-')))
            return std::nullopt;
        for (int r = 0; r < repeat; ++r)
            counts.append(n);
    }
    return counts;
}

std::optional<QStringList> hostsPerTask(const QStringList& nodes, const QList<int>& tasksPerNode)
{
    if (nodes.size() != tasksPerNode.size())
        return std::nullopt;
    QStringList hosts;
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        for (int t = 0; t < tasksPerNode.at(i); ++t)
            hosts.append(nodes.at(i));
    }
    return hosts;
}

} // namespace Trainyard::Slurm
