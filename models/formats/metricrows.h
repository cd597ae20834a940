// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace Trainyard::Formats {

/// The rows `trainyardctl jobs metrics export` and `trainyardctl inspect events` print: one scalar point a row,
/// as CSV (`run,tag,step,wall_time,value`, RFC 4180 quoting, values as Python's repr(float), so that pandas and
/// TensorBoard's own exports read the same digits) or as a JSON array of objects (`{"run":…,"tag":…,"step":…,
/// "wall_time":…,"value":…}`, non-finite values as proto3's JSON writes them: "NaN", "Infinity", "-Infinity").
/// JSON rows may carry the series' `kind` first (scalar, hypertune, resource). One writer for both commands, so
/// their rows stay alike byte for byte.
///
/// Use: begin(), then for each point setRun()/setTag()/setKind() when they change and row(), then end(); each
/// returns the bytes to write, UTF-8.
class MetricRowWriter {
public:
    enum class Format { Csv, Json };

    explicit MetricRowWriter(Format format);

    /// The CSV header line, or the JSON array's opening bracket.
    QByteArray begin() const;
    /// The JSON array's closing bracket (with a newline before it when it has rows); nothing for CSV.
    QByteArray end() const;

    /// The run (an event file's folder relative to the job dir, or "hypertune/master-replica-0"), UTF-8.
    void setRun(QByteArrayView utf8);
    /// The scalar's tag, UTF-8.
    void setTag(QByteArrayView utf8);
    /// The series' kind, written as JSON rows' first field when set; CSV rows have no kind column.
    void setKind(QByteArrayView utf8);

    /// One point: `step`, `wallTime` in seconds since the epoch, `value`.
    QByteArray row(qint64 step, double wallTime, double value);

    /// The rows row() returned so far.
    qint64 rows() const { return m_rows; }

    /// `text` as one RFC 4180 field: quoted (with `"` doubled) when it holds a comma, a quote or a line break.
    static QByteArray csvField(QByteArrayView utf8);
    /// `utf8` as a JSON string literal with its quotes: `"`, `\` and control characters escaped, the rest as is.
    static QByteArray jsonString(QByteArrayView utf8);
    /// `value` as a proto3 JSON number: Python's repr(float) when finite, else the string "NaN", "Infinity" or
    /// "-Infinity" with its quotes.
    static QByteArray jsonNumber(double value);

private:
    QByteArray encode(QByteArrayView utf8) const;

    Format m_format;
    QByteArray m_run;
    QByteArray m_tag;
    QByteArray m_kind;
    qint64 m_rows = 0;
};

} // namespace Trainyard::Formats
