// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Doubles in the API's JSON. JSON has no NaN or infinities; protobuf's JSON mapping (proto3 JSON, which the
// service's REST API and TensorFlow's JSON follow) writes them as the strings "NaN", "Infinity" and
// "-Infinity", and accepts any number as a string too. Every decoder of a double in models/, the executor
// and the clients goes through jsonToDouble(), so they all accept the same encodings.

#include <QJsonValue>

#include <optional>

namespace Trainyard {

/// Decodes a double as protobuf's JSON mapping writes it. Accepted: a JSON number; the strings "NaN",
/// "Infinity", "-Infinity" (exactly so spelled); a string holding a finite decimal number ("0.5", "1e-3",
/// as QString::toDouble() reads it). Anything else (another string, "inf", a bool, null, an object, an
/// absent key) is nullopt: callers decide whether that is an error (the job schema) or 0 (lenient
/// client-side reads of what the executor wrote).
std::optional<double> jsonToDouble(const QJsonValue& value);

/// Encodes a double for a QJsonObject: a JSON number when finite, else "NaN", "Infinity" or "-Infinity"
/// (the inverse of jsonToDouble()).
QJsonValue doubleToJson(double value);

} // namespace Trainyard
