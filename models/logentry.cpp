// SPDX-License-Identifier: GPL-2.0-or-later
#include "logentry.h"
#include "rfc3339.h"

#include "utf8.h"

#include <QJsonDocument>

#include <array>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace Trainyard {

namespace {
constexpr QLatin1String SeverityNames[LogSeverityCount] = {
    QLatin1String("DEFAULT"),
    QLatin1String("DEBUG"),
    QLatin1String("INFO"),
    QLatin1String("NOTICE"),
    QLatin1String("WARNING"),
    QLatin1String("ERROR"),
    QLatin1String("CRITICAL"),
    QLatin1String("ALERT"),
    QLatin1String("EMERGENCY"),
};
} // namespace

QLatin1String logSeverityName(LogSeverity severity)
{
    const int i = int(severity);
    return i < LogSeverityCount ? SeverityNames[i] : SeverityNames[0];
}

const QString& logSeverityString(LogSeverity severity)
{
    static const auto strings = [] {
        std::array<QString, LogSeverityCount> s;
        for (int i = 0; i < LogSeverityCount; ++i)
            s[size_t(i)] = SeverityNames[i];
        return s;
    }();
    const int i = int(severity);
    return strings[size_t(i < LogSeverityCount ? i : 0)];
}

QStringList logSeverityNames()
{
    QStringList names;
    for (const QLatin1String& name : SeverityNames)
        names << name;
    return names;
}

std::optional<LogSeverity> parseLogSeverity(QStringView name)
{
    for (int i = 0; i < LogSeverityCount; ++i) {
        if (name.compare(SeverityNames[i], Qt::CaseInsensitive) == 0)
            return LogSeverity(i);
    }
    return std::nullopt;
}

std::optional<LogSeverity> parseLogSeverity(QByteArrayView name)
{
    // No QString: the log index reads the severity of every line it cannot read by its fast path.
    for (int i = 0; i < LogSeverityCount; ++i) {
        const QLatin1String candidate = SeverityNames[i];
        if (name.size() != candidate.size())
            continue;
        bool same = true;
        for (qsizetype k = 0; k < name.size() && same; ++k) {
            char c = name[k];
            if (c >= 'a' && c <= 'z')
                c = char(c - 'a' + 'A');
            same = c == candidate[k];
        }
        if (same)
            return LogSeverity(i);
    }
    return std::nullopt;
}

LogSeverity logSeverityFromName(QStringView name)
{
    return parseLogSeverity(name).value_or(LogSeverity::Default);
}

QByteArray LogEntry::toJsonLine() const
{
    using namespace LogJson;
    std::string b;
    char ts[TimestampChars];
    formatTimestamp(timestampUs, ts);
    b.append("{\"timestamp\":\"", 14);
    b.append(ts, TimestampChars);
    b.append("\",\"severity\":\"", 14);
    const QByteArray sev = (severity.isEmpty() ? logSeverityString(LogSeverity::Info) : severity).toLatin1();
    appendEscaped(b, sev.constData(), size_t(sev.size()));
    b.append("\",\"taskName\":\"");
    const QByteArray task = taskName.toUtf8();
    appendEscaped(b, task.constData(), size_t(task.size()));
    b.append("\",\"trialId\":\"");
    const QByteArray trial = trialId.toUtf8();
    appendEscaped(b, trial.constData(), size_t(trial.size()));
    b.append("\",\"message\":\"");
    const QByteArray msg = message.toUtf8();
    appendEscaped(b, msg.constData(), size_t(msg.size()));
    if (!stream.isEmpty()) {
        b.append("\",\"stream\":\"");
        const QByteArray streamName = stream.toLatin1();
        appendEscaped(b, streamName.constData(), size_t(streamName.size()));
    }
    b.append("\"}");
    return QByteArray(b.data(), qsizetype(b.size()));
}

LogEntry LogEntry::fromJson(const QJsonObject& o)
{
    LogEntry e;
    e.timestampUs = LogJson::parseTimestamp(o.value(QLatin1String("timestamp")).toString());
    e.severity = o.value(QLatin1String("severity")).toString();
    e.taskName = o.value(QLatin1String("taskName")).toString();
    e.trialId = o.value(QLatin1String("trialId")).toString();
    e.message = o.value(QLatin1String("message")).toString();
    e.stream = o.value(QLatin1String("stream")).toString();
    return e;
}

std::optional<LogEntry> LogEntry::fromJsonLine(QByteArrayView line)
{
    const QJsonObject o = QJsonDocument::fromJson(line.toByteArray()).object();
    if (o.isEmpty())
        return std::nullopt;
    return fromJson(o);
}

namespace LogJson {

void appendEscaped(std::string& out, const char* s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const auto* p = reinterpret_cast<const unsigned char*>(s);
    const auto* end = p + n;
    while (p < end) {
        // Fast run of plain ASCII.
        const unsigned char* run = p;
        while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            ++p;
        if (p != run)
            out.append(reinterpret_cast<const char*>(run), size_t(p - run));
        if (p >= end)
            break;
        const unsigned char c = *p;
        if (c < 0x80) {
            switch (c) {
            case '"':
                out.append("\\\"", 2);
                break;
            case '\\':
                out.append("\\\\", 2);
                break;
            case '\n':
                out.append("\\n", 2);
                break;
            case '\r':
                out.append("\\r", 2);
                break;
            case '\t':
                out.append("\\t", 2);
                break;
            default: {
                const char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
                out.append(esc, 6);
            }
            }
            ++p;
            continue;
        }
        // Multi-byte UTF-8: kept when well-formed (RFC 3629), else one U+FFFD for the byte.
        const size_t len = Formats::utf8SequenceLength(p, end);
        const bool ok = len != 0;
        if (ok) {
            out.append(reinterpret_cast<const char*>(p), len);
            p += len;
        } else {
            out.append("\xEF\xBF\xBD", 3);
            ++p;
        }
    }
}

void formatTimestamp(qint64 us, char out[TimestampChars])
{
    // Formatting the date part is the expensive bit; lines arrive in bursts within one second.
    thread_local qint64 cachedSecond = -1;
    thread_local char cachedPrefix[20];
    qint64 sec = us / 1000000;
    qint64 frac = us % 1000000;
    if (frac < 0) {
        frac += 1000000;
        --sec;
    }
    if (sec != cachedSecond) {
        const time_t t = time_t(sec);
        tm parts;
        gmtime_r(&t, &parts);
        char buf[64];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.", parts.tm_year + 1900, parts.tm_mon + 1,
            parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec);
        std::memcpy(cachedPrefix, buf, 20);
        cachedSecond = sec;
    }
    std::memcpy(out, cachedPrefix, 20);
    for (int i = 25; i >= 20; --i) {
        out[i] = char('0' + frac % 10);
        frac /= 10;
    }
    out[26] = 'Z';
}

qint64 parseTimestamp(QStringView text)
{
    return Rfc3339::parseUs(text).value_or(0);
}

} // namespace LogJson

} // namespace Trainyard
