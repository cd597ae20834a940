// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "checkpointinfo.h"

#include <QByteArrayView>
#include <QJsonObject>
#include <QList>

namespace Trainyard::Formats {

/// Values and statistics of one tensor, computed from its raw little-endian bytes.
/// `min`, `max`, `mean` and `std` (population standard deviation) are over the finite values
/// only; NaN and ±Inf are counted separately. Booleans count as 0/1. Integers are converted to
/// double (exact up to 2^53). `count` is the number of elements decoded.
struct TensorStats {
    qint64 count = 0;
    qint64 nanCount = 0;
    qint64 infCount = 0;
    qint64 finiteCount = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    double std = 0;
    QList<double> firstValues; ///< the first N values in storage order

    /// Decodes `bytes` as `type` elements. Returns nullopt with `*error` set when the type cannot
    /// be decoded or the byte count is not a multiple of the element size.
    static std::optional<TensorStats> compute(ElementType type, QByteArrayView bytes, int firstN, QString* error);

    /// Converts IEEE half / bfloat16 bit patterns to float.
    static float halfToFloat(quint16 bits);
    static float bfloat16ToFloat(quint16 bits);

    /// {"count","min","max","mean","std","nanCount","infCount","values":[…]}; NaN/Inf values as strings.
    QJsonObject toJson() const;
};

} // namespace Trainyard::Formats
