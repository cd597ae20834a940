// SPDX-License-Identifier: GPL-2.0-or-later
#include "inspectevents.h"

#include "eventfilereader.h"
#include "floatrepr.h"

#include <cmath>

namespace Trainyard {

using namespace Trainyard::Formats;

namespace {

const char kUsage[] = "usage: trainyardctl inspect events PATH [--format csv|json]\n";

enum class Format { Csv, Json };

QByteArray csvField(const QByteArray& text)
{
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    QByteArray quoted = text;
    quoted.replace('"', "\"\"");
    return '"' + quoted + '"';
}

QByteArray jsonString(const QByteArray& utf8)
{
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out.append('"');
    for (const char c : utf8) {
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out.append("\\u00");
                out.append(QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0'));
            } else {
                out.append(c);
            }
        }
    }
    out.append('"');
    return out;
}

QByteArray jsonNumber(double v)
{
    if (std::isnan(v))
        return QByteArrayLiteral("\"NaN\"");
    if (std::isinf(v))
        return v > 0 ? QByteArrayLiteral("\"Infinity\"") : QByteArrayLiteral("\"-Infinity\"");
    return pythonFloatRepr(v);
}

// Formats rows as they are decoded, so a large file streams to `out` without being held.
class RowPrinter final : public ScalarSink {
public:
    RowPrinter(QTextStream& out, Format format)
        : m_out(out)
        , m_format(format)
    {
    }

    void setRun(const QString& run)
    {
        const QByteArray utf8 = run.toUtf8();
        m_run = m_format == Format::Csv ? csvField(utf8) : jsonString(utf8);
    }

    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        QByteArray line;
        if (m_format == Format::Csv) {
            line = m_run + ',' + csvField(tag.toByteArray()) + ',' + QByteArray::number(step) + ','
                + pythonFloatRepr(wallTime) + ',' + pythonFloatRepr(value) + '\n';
        } else {
            line = QByteArray(m_rows == 0 ? "\n  " : ",\n  ") + "{\"run\":" + m_run
                + ",\"tag\":" + jsonString(tag.toByteArray()) + ",\"step\":" + QByteArray::number(step)
                + ",\"wall_time\":" + jsonNumber(wallTime) + ",\"value\":" + jsonNumber(value) + '}';
        }
        m_out << QString::fromUtf8(line);
        ++m_rows;
    }

    qint64 rows() const { return m_rows; }

private:
    QTextStream& m_out;
    Format m_format;
    QByteArray m_run;
    qint64 m_rows = 0;
};

} // namespace

int runInspectEvents(const QStringList& args, QTextStream& out, QTextStream& err)
{
    Format format = Format::Csv;
    QString path;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args.at(i);
        QString formatName;
        if (arg == QLatin1String("--help") || arg == QLatin1String("-h")) {
            out << QLatin1String(kUsage);
            return 0;
        }
        if (arg == QLatin1String("--format")) {
            if (i + 1 >= args.size()) {
                err << "trainyardctl inspect events: --format needs a value (csv or json)\n" << QLatin1String(kUsage);
                return 2;
            }
            formatName = args.at(++i);
        } else if (arg.startsWith(QLatin1String("--format="))) {
            formatName = arg.mid(9);
        } else if (arg.startsWith(QLatin1Char('-')) && arg.size() > 1) {
            err << "trainyardctl inspect events: unknown option " << arg << '\n' << QLatin1String(kUsage);
            return 2;
        } else if (path.isEmpty()) {
            path = arg;
            continue;
        } else {
            err << "trainyardctl inspect events: only one PATH is accepted, got also " << arg << '\n'
                << QLatin1String(kUsage);
            return 2;
        }
        if (formatName == QLatin1String("csv")) {
            format = Format::Csv;
        } else if (formatName == QLatin1String("json")) {
            format = Format::Json;
        } else {
            err << "trainyardctl inspect events: --format must be csv or json, not \"" << formatName << "\"\n";
            return 2;
        }
    }
    if (path.isEmpty()) {
        err << "trainyardctl inspect events: PATH is required\n" << QLatin1String(kUsage);
        return 2;
    }

    QString error;
    const std::vector<EventRunFiles> runs = findEventRuns(path, &error);
    if (!error.isEmpty()) {
        err << "trainyardctl inspect events: " << error << '\n';
        return 1;
    }
    if (runs.empty()) {
        err << "trainyardctl inspect events: no event files (names containing \"tfevents\") under " << path << '\n';
        return 1;
    }

    RowPrinter printer(out, format);
    if (format == Format::Csv)
        out << "run,tag,step,wall_time,value\n";
    else
        out << '[';
    int damaged = 0;
    for (const EventRunFiles& run : runs) {
        printer.setRun(run.run);
        for (const QString& file : run.files) {
            EventFileReader reader(file);
            reader.readAvailable(printer);
            for (const RecordIssue& issue : reader.takeIssues()) {
                err << "trainyardctl inspect events: " << issue.message << '\n';
                ++damaged;
            }
        }
    }
    if (format == Format::Json)
        out << (printer.rows() ? "\n]\n" : "]\n");
    out.flush();
    return damaged ? 1 : 0;
}

} // namespace Trainyard
