// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A replica's log entry as the executor stores it, serves it and the clients read it: one type, one codec
// (ARCHITECTURE.md "Everything the API sends is a type in models/ with one codec"), and the severities it
// carries.

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QLatin1String>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>
#include <string>

namespace Trainyard {

/// Cloud Logging's LogSeverity (google.logging.type.LogSeverity), in ascending order. The enumerators are
/// ordinals 0…8 (they fit the 4 bits the console's LogLineStore and the 8 bits the executor's LogIndex keep
/// per line); logSeverityRank() gives Cloud Logging's numbers 0, 100, …, 800.
enum class LogSeverity : quint8 {
    Default = 0,
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
};
/// How many LogSeverity values there are.
inline constexpr int LogSeverityCount = 9;

/// The Cloud Logging name of a severity ("ERROR"), as written on the wire and in the log files.
QLatin1String logSeverityName(LogSeverity severity);
/// The same name as a shared QString: building a LogEntry from it costs no allocation.
const QString& logSeverityString(LogSeverity severity);
/// Every name, in ascending order ("DEFAULT", "DEBUG", …, "EMERGENCY"): for messages that list them.
QStringList logSeverityNames();
/// Parses a Cloud Logging severity name, case-insensitive ("error" is Error); nullopt for any other text.
std::optional<LogSeverity> parseLogSeverity(QStringView name);
/// As above, for bytes read straight from a log file (ASCII).
std::optional<LogSeverity> parseLogSeverity(QByteArrayView name);
/// Parses a severity name, case-insensitive; unknown names (and "") are Default, as Cloud Logging reads them.
LogSeverity logSeverityFromName(QStringView name);
/// Cloud Logging's number of a severity: Default 0, Debug 100, Info 200, … Emergency 800 (filters compare these).
constexpr int logSeverityRank(LogSeverity severity)
{
    return int(severity) * 100;
}

/// One log entry, as the executor stores it (one JSON object a line in `<job folder>/logs/<taskName>.jsonl`)
/// and serves it (`…/jobs/{id}/logs` pages and follow streams, app/executor/API.md "Logs"), and as clients read
/// it back. JSON, keys in this order:
/// {"timestamp": RFC 3339 UTC with microseconds ("2026-11-22T05:04:43.123456Z"), "severity": a LogSeverity
///  name, "taskName": "master-replica-0"|…|"service", "trialId": "" or "3", "message": text without the
///  trailing newline, "stream": "stdout"|"stderr" (omitted when empty)}.
struct LogEntry {
    qint64 timestampUs = 0; ///< microseconds since the Unix epoch (UTC); 0 when unparsable
    /// The severity's name as written (a LogSeverity name; kept as text so that a line is served as it was
    /// stored); empty is written as "INFO". severityLevel() is the typed value.
    QString severity;
    QString taskName; ///< "master-replica-0" … or "service"
    QString trialId;
    QString message;
    /// Which output stream of the replica the line came from: "stdout", "stderr", or "" for the executor's
    /// own lines (task "service") and older executors. On the wire as `stream` (omitted when empty).
    QString stream;

    /// The severity as a type: logSeverityFromName(severity) (unknown names are Default).
    LogSeverity severityLevel() const { return logSeverityFromName(severity); }

    /// The entry as its JSON line (no newline), byte for byte what the log files hold and the API sends:
    /// the key order above; strings escaped as LogJson::appendEscaped() does (invalid UTF-8 becomes U+FFFD).
    /// The executor's LogIndex serves lines of exactly this layout without parsing them (LogIndex::isCanonicalLine()).
    QByteArray toJsonLine() const;
    /// Decodes a JSON object (any key order; missing keys are empty, an unparsable timestamp is 0).
    static LogEntry fromJson(const QJsonObject& json);
    /// Decodes one JSON line; nullopt when it is not a JSON object with at least one key.
    static std::optional<LogEntry> fromJsonLine(QByteArrayView line);

    bool operator==(const LogEntry&) const = default;
};

/// The building blocks of LogEntry's codec, for the executor's log store, which assembles the same layout
/// piecewise on its hot path (hundreds of thousands of lines a second) rather than through a LogEntry.
namespace LogJson {
/// Length of a formatted timestamp: "2026-11-22T05:04:43.123456Z".
inline constexpr int TimestampChars = 27;
/// Writes `us` (µs since the Unix epoch) as RFC 3339 UTC with microseconds into `out` (TimestampChars
/// bytes, no terminator). Thread-safe (it caches the date of the last second per thread).
void formatTimestamp(qint64 us, char out[TimestampChars]);
/// Parses what formatTimestamp() writes, and any RFC 3339 time with a UTC offset or 'Z', to µs since the
/// Unix epoch; 0 when `text` is not one.
qint64 parseTimestamp(QStringView text);
/// Appends `n` bytes of UTF-8 at `s`, JSON-escaped, without quotes: `"` `\` and \n \r \t as two-character
/// escapes, other control characters as \u00XX, valid UTF-8 as is, and each invalid byte as U+FFFD, so that
/// every line stays valid JSON whatever a trainer prints.
void appendEscaped(std::string& out, const char* s, size_t n);
} // namespace LogJson

} // namespace Trainyard

// Only QStrings and an integer: lists of entries grow by memmove.
Q_DECLARE_TYPEINFO(Trainyard::LogEntry, Q_RELOCATABLE_TYPE);
Q_DECLARE_METATYPE(Trainyard::LogEntry)
