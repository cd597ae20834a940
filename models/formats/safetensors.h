// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "checkpointinfo.h"

#include <QByteArrayView>

namespace Trainyard::Formats {

/// Reader of safetensors files (huggingface/safetensors, docs "Format"): an unsigned 64-bit
/// little-endian header length N, N bytes of UTF-8 JSON, then the data buffer. The header maps
/// each tensor name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to the
/// buffer) plus an optional "__metadata__" object of string values.
///
/// Validation follows the reference implementation's rules, each reported with the tensor and
/// the rule: N ≤ 100 MB and inside the file; the header is a JSON object; dtype is known;
/// shape entries are non-negative integers; end − begin == product(shape) × dtype size; the
/// tensors, in offset order, tile the buffer exactly: no overlaps, no holes, ending at its end.
///
/// Sharded checkpoints: `model.safetensors.index.json` ({"metadata": {...}, "weight_map":
/// {name: shard file}}) is read by reading each shard it names (paths relative to its folder;
/// names that leave the folder are refused) and checking every mapped tensor is in its shard.
///
/// The JSON is parsed with simdjson (strict RFC 8259 and UTF-8, as the reference's serde_json), read as
/// QJsonDocument read it before: keys in QString order, the last of duplicate keys, offsets and sizes as
/// integers in any spelling up to 2^53. An error names the byte where the JSON breaks (from Qt's parser,
/// on that path only). Why simdjson: QJsonDocument allocated per key and value, which made listing a
/// 10,000-tensor header slower than Python's json.loads on some machines (issue 17).
class SafeTensors {
public:
    static constexpr qint64 kMaxHeaderBytes = 100 * 1000 * 1000;

    /// A `.safetensors` file or a `*.safetensors.index.json`. `format` is `safetensors`;
    /// `metadata` holds `__metadata__` (and "shards" for an index).
    static std::optional<CheckpointInfo> read(const QString& path, QString* error);

    /// Validates a header. `head` holds at least the first 8 + N bytes of the file (more is
    /// ignored); `fileSize` is the whole file's size. Tensors are listed in name order.
    static std::optional<CheckpointInfo> parseHeader(
        QByteArrayView head, qint64 fileSize, const QString& path, QString* error);

    /// Reads a sharded checkpoint's index and its shards.
    static std::optional<CheckpointInfo> readIndex(const QString& indexPath, QString* error);

    /// A tensor's bytes when ≤ `maxBytes`.
    static std::optional<QByteArray> readTensorData(const TensorInfo& tensor, qint64 maxBytes, QString* error);
};

} // namespace Trainyard::Formats
