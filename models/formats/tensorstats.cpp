// SPDX-License-Identifier: GPL-2.0-or-later
#include "tensorstats.h"

#include "jsonnumber.h"

#include <QJsonArray>
#include <QtEndian>

#include <cmath>
#include <cstring>

namespace Trainyard::Formats {

float TensorStats::halfToFloat(quint16 h)
{
    const quint32 sign = quint32(h & 0x8000) << 16;
    const quint32 exponent = (h >> 10) & 0x1f;
    quint32 mantissa = h & 0x3ff;
    quint32 bits;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else {
            // Subnormal half: normalise into a float's wider exponent range.
            int e = -1;
            do {
                ++e;
                mantissa <<= 1;
            } while ((mantissa & 0x400) == 0);
            bits = sign | quint32(127 - 15 - e) << 23 | (mantissa & 0x3ff) << 13;
        }
    } else if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | mantissa << 13;
    } else {
        bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

float TensorStats::bfloat16ToFloat(quint16 b)
{
    const quint32 bits = quint32(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

namespace {

template <typename T> T load(const char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return qFromLittleEndian(v);
}

double decode(ElementType type, const char* p)
{
    switch (type) {
    case ElementType::F16:
        return TensorStats::halfToFloat(load<quint16>(p));
    case ElementType::BF16:
        return TensorStats::bfloat16ToFloat(load<quint16>(p));
    case ElementType::F32: {
        const quint32 bits = load<quint32>(p);
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }
    case ElementType::F64: {
        const quint64 bits = load<quint64>(p);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }
    case ElementType::I8:
        return double(qint8(*p));
    case ElementType::U8:
        return double(quint8(*p));
    case ElementType::Bool:
        return *p != 0 ? 1.0 : 0.0;
    case ElementType::I16:
        return double(load<qint16>(p));
    case ElementType::U16:
        return double(load<quint16>(p));
    case ElementType::I32:
        return double(load<qint32>(p));
    case ElementType::U32:
        return double(load<quint32>(p));
    case ElementType::I64:
        return double(load<qint64>(p));
    case ElementType::U64:
        return double(load<quint64>(p));
    case ElementType::Other:
        break;
    }
    return 0;
}

} // namespace

std::optional<TensorStats> TensorStats::compute(ElementType type, QByteArrayView bytes, int firstN, QString* error)
{
    const int size = elementSize(type);
    if (size == 0) {
        if (error)
            *error = QStringLiteral("values of this dtype cannot be decoded (only numeric and bool types)");
        return std::nullopt;
    }
    if (bytes.size() % size != 0) {
        if (error)
            *error = QStringLiteral("%1 bytes is not a whole number of %2 elements (%3 bytes each)")
                         .arg(bytes.size())
                         .arg(elementTypeName(type))
                         .arg(size);
        return std::nullopt;
    }
    TensorStats stats;
    stats.count = bytes.size() / size;
    const qint64 keep = std::min<qint64>(std::max(firstN, 0), stats.count);
    stats.firstValues.reserve(keep);
    // Welford's update keeps the variance exact enough for millions of float32 values.
    double mean = 0, m2 = 0;
    bool first = true;
    const char* p = bytes.data();
    for (qint64 i = 0; i < stats.count; ++i, p += size) {
        const double v = decode(type, p);
        if (i < keep)
            stats.firstValues.append(v);
        if (std::isnan(v)) {
            ++stats.nanCount;
            continue;
        }
        if (std::isinf(v)) {
            ++stats.infCount;
            continue;
        }
        if (first) {
            stats.min = stats.max = v;
            first = false;
        } else {
            stats.min = std::min(stats.min, v);
            stats.max = std::max(stats.max, v);
        }
        ++stats.finiteCount;
        const double delta = v - mean;
        mean += delta / double(stats.finiteCount);
        m2 += delta * (v - mean);
    }
    stats.mean = mean;
    stats.std = stats.finiteCount > 0 ? std::sqrt(m2 / double(stats.finiteCount)) : 0;
    return stats;
}

QJsonObject TensorStats::toJson() const
{
    QJsonArray values;
    for (double v : firstValues)
        values.append(doubleToJson(v));
    return QJsonObject {
        { QStringLiteral("count"), count },
        { QStringLiteral("min"), min },
        { QStringLiteral("max"), max },
        { QStringLiteral("mean"), mean },
        { QStringLiteral("std"), std },
        { QStringLiteral("nanCount"), nanCount },
        { QStringLiteral("infCount"), infCount },
        { QStringLiteral("values"), values },
    };
}

} // namespace Trainyard::Formats
