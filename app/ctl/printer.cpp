// SPDX-License-Identifier: GPL-2.0-or-later
#include "printer.h"
#include "rfc3339.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace Trainyard {

namespace {

void appendYaml(QString* out, const QJsonValue& value, int indent, bool inSequence);

QString spaces(int n)
{
    return QString(n, QLatin1Char(' '));
}

QString scalarText(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (d == static_cast<double>(static_cast<qint64>(d)) && qAbs(d) < 1e15)
            return QString::number(static_cast<qint64>(d));
        return QString::number(d, 'g', 17);
    }
    case QJsonValue::String:
        return Printer::yamlScalar(v.toString());
    default:
        return {};
    }
}

bool isEmptyContainer(const QJsonValue& v)
{
    return (v.isObject() && v.toObject().isEmpty()) || (v.isArray() && v.toArray().isEmpty());
}

// Writes `value` whose key (or "- ") was already written on the current line.
void appendYaml(QString* out, const QJsonValue& value, int indent, bool inSequence)
{
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        if (o.isEmpty()) {
            out->append(QStringLiteral(" {}\n"));
            return;
        }
        bool first = true;
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (first && inSequence) {
                // "- key: value" on the dash's line, as PyYAML block style writes it.
                out->append(QLatin1Char(' '));
            } else {
                if (first)
                    out->append(QLatin1Char('\n'));
                out->append(spaces(indent));
            }
            first = false;
            out->append(Printer::yamlScalar(it.key()) + QLatin1Char(':'));
            const QJsonValue child = it.value();
            if ((child.isObject() || child.isArray()) && !isEmptyContainer(child)) {
                if (child.isArray()) {
                    out->append(QLatin1Char('\n'));
                    const QJsonArray a = child.toArray();
                    for (const QJsonValue& item : a) {
                        out->append(spaces(indent) + QLatin1Char('-'));
                        appendYaml(out, item, indent + 2, true);
                    }
                } else {
                    appendYaml(out, child, indent + 2, false);
                }
            } else if (isEmptyContainer(child)) {
                out->append(child.isObject() ? QStringLiteral(" {}\n") : QStringLiteral(" []\n"));
            } else {
                out->append(QLatin1Char(' ') + scalarText(child) + QLatin1Char('\n'));
            }
        }
        return;
    }
    if (value.isArray()) {
        const QJsonArray a = value.toArray();
        if (a.isEmpty()) {
            out->append(QStringLiteral(" []\n"));
            return;
        }
        out->append(QLatin1Char('\n'));
        for (const QJsonValue& item : a) {
            out->append(spaces(indent) + QLatin1Char('-'));
            appendYaml(out, item, indent + 2, true);
        }
        return;
    }
    out->append(QLatin1Char(' ') + scalarText(value) + QLatin1Char('\n'));
}

int displayWidth(const QString& s)
{
    return static_cast<int>(s.size());
}

} // namespace

QString Printer::yamlScalar(const QString& text)
{
    static const QRegularExpression plainSafe(QStringLiteral("^[A-Za-z_/.][A-Za-z0-9_./@+\\-]*$"));
    static const QRegularExpression reserved(
        QStringLiteral("^(true|false|yes|no|on|off|null|y|n|~)$"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression numberLike(QStringLiteral("^[-+]?(\\d[\\d_]*)?(\\.\\d*)?([eE][-+]?\\d+)?$"));
    if (!text.isEmpty() && !reserved.match(text).hasMatch()) {
        if (plainSafe.match(text).hasMatch())
            return text;
        // Messages, paths with spaces … are plain unless they hold YAML indicators.
        const bool numeric = numberLike.match(text).hasMatch();
        const bool indicator = text.contains(QLatin1String(": ")) || text.contains(QLatin1String(" #"))
            || text.endsWith(QLatin1Char(':')) || text.contains(QLatin1Char('\n'))
            || QStringLiteral("-?:,[]{}#&*!|>'\"%@`").contains(text.at(0)) || text.at(0).isSpace()
            || text.at(text.size() - 1).isSpace() || text.contains(QLatin1Char('\t'));
        const bool timestamp = text.size() >= 10 && text.at(0).isDigit() && text.at(4) == QLatin1Char('-');
        if (!numeric && !indicator && !timestamp)
            return text;
    }
    if (text.contains(QLatin1Char('\n'))) {
        // Double-quoted with escapes keeps multi-line messages on one line.
        QString escaped = text;
        escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('"'), QStringLiteral("\\\""))
            .replace(QLatin1Char('\n'), QStringLiteral("\\n"))
            .replace(QLatin1Char('\t'), QStringLiteral("\\t"));
        return QLatin1Char('"') + escaped + QLatin1Char('"');
    }
    return QLatin1Char('\'') + QString(text).replace(QLatin1Char('\''), QStringLiteral("''")) + QLatin1Char('\'');
}

QString Printer::toYaml(const QJsonValue& value)
{
    QString out;
    if (value.isObject()) {
        if (value.toObject().isEmpty())
            return QStringLiteral("{}\n");
        appendYaml(&out, value, 0, false);
        return out.mid(1); // the leading newline written for a nested mapping
    }
    if (value.isArray()) {
        if (value.toArray().isEmpty())
            return QStringLiteral("[]\n");
        appendYaml(&out, value, 0, false);
        return out.mid(1);
    }
    return scalarText(value) + QLatin1Char('\n');
}

QString Printer::table(const QStringList& headings, const QList<QStringList>& rows)
{
    QList<int> widths;
    for (const QString& h : headings)
        widths.append(displayWidth(h));
    for (const QStringList& row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = qMax(widths[i], displayWidth(row.at(i)));
    }
    auto line = [&](const QStringList& cells) -> QString {
        QString l;
        for (qsizetype i = 0; i < headings.size(); ++i) {
            const QString cell = cells.value(i);
            if (i + 1 < headings.size())
                l += cell + spaces(widths.at(i) - displayWidth(cell) + 2);
            else
                l += cell;
        }
        while (l.endsWith(QLatin1Char(' ')))
            l.chop(1);
        return l + QLatin1Char('\n');
    };
    QString out = line(headings);
    for (const QStringList& row : rows)
        out += line(row);
    return out;
}

QString Printer::boxTable(const QString& title, const QStringList& headings, const QList<QStringList>& rows)
{
    QList<int> widths;
    for (const QString& h : headings)
        widths.append(displayWidth(h));
    for (const QStringList& row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = qMax(widths[i], displayWidth(row.at(i)));
    }
    // A row is "│ cell │ cell │": 1 + Σ(width + 3) characters; the title row "│ title │" is inner + 4.
    int columnsWidth = -3;
    for (int w : widths)
        columnsWidth += w + 3;
    const int inner = qMax(columnsWidth, displayWidth(title));
    // Widen the last column when the title is wider than the columns.
    if (!widths.isEmpty() && inner > columnsWidth)
        widths.last() += inner - columnsWidth;

    auto rule = [&](QChar left, QChar mid, QChar right) -> QString {
        QString l = left;
        for (qsizetype i = 0; i < widths.size(); ++i) {
            l += QString(widths.at(i) + 2, QChar(0x2500));
            l += i + 1 < widths.size() ? mid : right;
        }
        return l + QLatin1Char('\n');
    };
    auto cells = [&](const QStringList& values) -> QString {
        QString l = QChar(0x2502);
        for (qsizetype i = 0; i < widths.size(); ++i) {
            const QString v = values.value(i);
            l += QLatin1Char(' ') + v + spaces(widths.at(i) - displayWidth(v) + 1) + QChar(0x2502);
        }
        return l + QLatin1Char('\n');
    };
    QString out;
    bool first = true;
    if (!title.isEmpty()) {
        out += QChar(0x250C) + QString(inner + 2, QChar(0x2500)) + QChar(0x2510) + QLatin1Char('\n');
        out += QChar(0x2502) + QLatin1Char(' ') + title + spaces(inner - displayWidth(title) + 1) + QChar(0x2502)
            + QLatin1Char('\n');
        out += rule(QChar(0x251C), QChar(0x252C), QChar(0x2524));
        first = false;
    }
    // No headings: gcloud's table[box,no-heading], the rows alone.
    const bool headed = std::any_of(headings.cbegin(), headings.cend(), [](const QString& h) { return !h.isEmpty(); });
    if (headed) {
        if (first)
            out += rule(QChar(0x250C), QChar(0x252C), QChar(0x2510));
        out += cells(headings);
        first = false;
    }
    for (const QStringList& row : rows) {
        out += first ? rule(QChar(0x250C), QChar(0x252C), QChar(0x2510)) : rule(QChar(0x251C), QChar(0x253C), QChar(0x2524));
        out += cells(row);
        first = false;
    }
    out += rule(QChar(0x2514), QChar(0x2534), QChar(0x2518));
    return out;
}

QString Printer::localDate(const QString& rfc3339)
{
    if (rfc3339.isEmpty())
        return {};
    const QDateTime dt = Rfc3339::parse(rfc3339);
    if (!dt.isValid())
        return rfc3339;
    return localDate(dt);
}

QString Printer::localDate(const QDateTime& time)
{
    return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")) : QString();
}

QStringList Printer::logLines(const LogEntry& entry, bool allowMultiline)
{
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(entry.timestampUs / 1000).toLocalTime();
    const int offset = local.offsetFromUtc();
    const int absOffset = qAbs(offset);
    const QString zone = QStringLiteral("%1%2%3")
                             .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                             .arg(absOffset / 3600, 2, 10, QLatin1Char('0'))
                             .arg((absOffset % 3600) / 60, 2, 10, QLatin1Char('0'));
    const QString prefix = entry.severity + QLatin1Char('\t') + local.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss "))
        + zone + QLatin1Char('\t') + entry.taskName + QLatin1Char('\t') + entry.trialId + QLatin1Char('\t');
    if (allowMultiline)
        return { prefix + entry.message };
    QStringList out;
    const QStringList parts = entry.message.split(QLatin1Char('\n'));
    for (const QString& p : parts)
        out.append(prefix + p);
    return out;
}

} // namespace Trainyard
