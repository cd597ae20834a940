// SPDX-License-Identifier: GPL-2.0-or-later
#include "inspectevents.h"

#include "eventfilereader.h"
#include "metricrows.h"

namespace Trainyard {

using namespace Trainyard::Formats;

namespace {

const char kEventsUsage[] = "usage: trainyardctl inspect events PATH [--format csv|json]\n";

enum class Format { Csv, Json };

// Formats rows as they are decoded, so a large file streams to `out` without being held.
class RowPrinter final : public ScalarSink {
public:
    RowPrinter(QTextStream& out, Format format)
        : m_out(out)
        , m_rows(format == Format::Csv ? MetricRowWriter::Format::Csv : MetricRowWriter::Format::Json)
    {
    }

    void setRun(const QString& run) { m_rows.setRun(run.toUtf8()); }

    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        m_rows.setTag(tag);
        m_out << QString::fromUtf8(m_rows.row(step, wallTime, value));
    }

    QByteArray begin() const { return m_rows.begin(); }
    QByteArray end() const { return m_rows.end(); }

private:
    QTextStream& m_out;
    MetricRowWriter m_rows;
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
            out << QLatin1String(kEventsUsage);
            return 0;
        }
        if (arg == QLatin1String("--format")) {
            if (i + 1 >= args.size()) {
                err << "trainyardctl inspect events: --format needs a value (csv or json)\n" << QLatin1String(kEventsUsage);
                return 2;
            }
            formatName = args.at(++i);
        } else if (arg.startsWith(QLatin1String("--format="))) {
            formatName = arg.mid(9);
        } else if (arg.startsWith(QLatin1Char('-')) && arg.size() > 1) {
            err << "trainyardctl inspect events: unknown option " << arg << '\n' << QLatin1String(kEventsUsage);
            return 2;
        } else if (path.isEmpty()) {
            path = arg;
            continue;
        } else {
            err << "trainyardctl inspect events: only one PATH is accepted, got also " << arg << '\n'
                << QLatin1String(kEventsUsage);
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
        err << "trainyardctl inspect events: PATH is required\n" << QLatin1String(kEventsUsage);
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
    out << QString::fromUtf8(printer.begin());
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
    out << QString::fromUtf8(printer.end());
    out.flush();
    return damaged ? 1 : 0;
}

} // namespace Trainyard
