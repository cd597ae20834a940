// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricrows.h"

#include "floatrepr.h"

#include <cmath>

namespace Trainyard::Formats {

MetricRowWriter::MetricRowWriter(Format format)
    : m_format(format)
{
}

QByteArray MetricRowWriter::begin() const
{
    return m_format == Format::Csv ? QByteArrayLiteral("run,tag,step,wall_time,value\n") : QByteArrayLiteral("[");
}

QByteArray MetricRowWriter::end() const
{
    if (m_format == Format::Csv)
        return QByteArray();
    return m_rows ? QByteArrayLiteral("\n]\n") : QByteArrayLiteral("]\n");
}

QByteArray MetricRowWriter::encode(QByteArrayView utf8) const
{
    return m_format == Format::Csv ? csvField(utf8) : jsonString(utf8);
}

void MetricRowWriter::setRun(QByteArrayView utf8)
{
    m_run = encode(utf8);
}

void MetricRowWriter::setTag(QByteArrayView utf8)
{
    m_tag = encode(utf8);
}

void MetricRowWriter::setKind(QByteArrayView utf8)
{
    m_kind = utf8.isEmpty() ? QByteArray() : jsonString(utf8);
}

QByteArray MetricRowWriter::row(qint64 step, double wallTime, double value)
{
    QByteArray line;
    if (m_format == Format::Csv) {
        line.reserve(m_run.size() + m_tag.size() + 64);
        line += m_run;
        line += ',';
        line += m_tag;
        line += ',';
        line += QByteArray::number(step);
        line += ',';
        line += pythonFloatRepr(wallTime);
        line += ',';
        line += pythonFloatRepr(value);
        line += '\n';
    } else {
        line.reserve(m_kind.size() + m_run.size() + m_tag.size() + 96);
        line += m_rows == 0 ? "\n  {" : ",\n  {";
        if (!m_kind.isEmpty()) {
            line += "\"kind\":";
            line += m_kind;
            line += ',';
        }
        line += "\"run\":";
        line += m_run;
        line += ",\"tag\":";
        line += m_tag;
        line += ",\"step\":";
        line += QByteArray::number(step);
        line += ",\"wall_time\":";
        line += jsonNumber(wallTime);
        line += ",\"value\":";
        line += jsonNumber(value);
        line += '}';
    }
    ++m_rows;
    return line;
}

QByteArray MetricRowWriter::csvField(QByteArrayView utf8)
{
    QByteArray text = utf8.toByteArray();
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    text.replace('"', "\"\"");
    return '"' + text + '"';
}

QByteArray MetricRowWriter::jsonString(QByteArrayView utf8)
{
    static const char hex[] = "0123456789abcdef";
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
        default: {
            const auto u = static_cast<unsigned char>(c);
            if (u < 0x20) {
                const char escaped[6] = { '\\', 'u', '0', '0', hex[u >> 4], hex[u & 15] };
                out.append(escaped, 6);
            } else {
                out.append(c);
            }
        }
        }
    }
    out.append('"');
    return out;
}

QByteArray MetricRowWriter::jsonNumber(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("\"NaN\"");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("\"Infinity\"") : QByteArrayLiteral("\"-Infinity\"");
    return pythonFloatRepr(value);
}

} // namespace Trainyard::Formats
