// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "checkpointinfo.h"

#include <QByteArrayView>

namespace Trainyard::Formats {

/// Reader of TensorFlow tensor bundles (tensorflow/core/util/tensor_bundle/tensor_bundle.h), the
/// format of `tf.train.Checkpoint`, `tf.compat.v1.train.Saver` (V2) and SavedModel variables:
///
/// - `<prefix>.index`: a LevelDB-format table read with `leveldb::Table` as is. Key `""` holds a
///   `BundleHeaderProto`; every other key is a tensor name whose value is a `BundleEntryProto`
///   (dtype, shape, shard_id, offset, size, masked crc32c). Keys that start with a NUL byte are
///   the slices of a partitioned variable and are not listed on their own.
/// - `<prefix>.data-NNNNN-of-NNNNN`: the shards, raw little-endian tensor bytes.
///
/// Listing reads only the index (and stats the shards to check every entry's byte range).
/// Errors name the file, the key and the rule broken; no allocation is sized by a field of the
/// file before that field has been checked against the file's real size.
class TensorBundle {
public:
    /// The bundle prefix for `path`: `…/model.ckpt-100` for itself, `….index`, or
    /// `….data-00000-of-00002`; for a SavedModel folder (`saved_model.pb` + `variables/`), or
    /// its `variables/` folder, `<dir>/variables/variables`. Empty when `path` is none of these.
    static QString prefixFromPath(const QString& path);

    /// Lists the tensors of the bundle at `path` (anything prefixFromPath() accepts).
    /// `format` is `tf-bundle`; `metadata` holds {"numShards","endianness","producer"}.
    static std::optional<CheckpointInfo> read(const QString& path, QString* error);

    /// Parses the bytes of an `.index` table. Shard file paths are made from `prefix`; their
    /// sizes are not checked (read() does that). Used by read() callers without files and fuzzing.
    static std::optional<CheckpointInfo> parseIndex(QByteArrayView indexBytes, const QString& prefix, QString* error);

    /// `<prefix>.data-%05d-of-%05d`.
    static QString shardFileName(const QString& prefix, int shard, int numShards);

    /// The object path of a TF2 object-based name: `a/b/.ATTRIBUTES/VARIABLE_VALUE` → `a/b`;
    /// other names unchanged.
    static QString objectPath(const QString& name);

    /// Reads a tensor's bytes from its shard when `size` ≤ `maxBytes`; with `verifyCrc`, checks
    /// them against the entry's CRC-32C (TensorFlow stores it masked; TensorInfo::crc32c holds
    /// the unmasked value).
    static std::optional<QByteArray> readTensorData(
        const TensorInfo& tensor, qint64 maxBytes, bool verifyCrc, QString* error);

    /// Checks a tensor's CRC-32C, reading its bytes in chunks (no size limit, constant memory).
    static bool verifyCrc(const TensorInfo& tensor, QString* error);
};

} // namespace Trainyard::Formats
