// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "checkpointinfo.h"

namespace Trainyard::Formats {

/// Reader of the zip archives `torch.save` writes (PyTorch ≥ 1.6, torch/serialization.py):
/// `<archive>/data.pkl` (the pickled object, protocol 2), `<archive>/data/<key>` (one entry per
/// storage, raw little-endian elements), `<archive>/version`, and `<archive>/byteorder` in newer
/// versions. The pickle is read by PickleReader, which never runs code.
///
/// Tensors are named by their path through nested dicts, lists and tuples, joined with `.`, as
/// `state_dict` keys read: `model.fc1.weight`, `optimizer.state.0.exp_avg`. Parameters are listed
/// like tensors. Plain numbers, strings and booleans directly under the top-level dict become
/// CheckpointInfo::scalars (`epoch`, `global_step`).
///
/// For each tensor: `dtype` is PyTorch's name (`float32`, from the storage class),
/// `file` the archive path, `storageKey` the entry key under `data/`, `offset` the tensor's byte
/// offset inside that storage entry (storage_offset × element size), `size` the bytes its
/// shape and strides span, `storageBytes` the storage entry's size.
class PyTorchArchive {
public:
    /// Lists an archive on disk. `format` is `pytorch`; `metadata` has {"archiveName","version","byteorder"}.
    static std::optional<CheckpointInfo> read(const QString& path, QString* error);
    /// Same, from archive bytes in memory (`path` only names it in messages and TensorInfo::file).
    static std::optional<CheckpointInfo> readMemory(QByteArrayView bytes, const QString& path, QString* error);

    /// A tensor's bytes (its span inside the storage), when ≤ `maxBytes`. Strided views are
    /// returned as the raw span; contiguous tensors decode directly.
    static std::optional<QByteArray> readTensorData(const TensorInfo& tensor, qint64 maxBytes, QString* error);

    /// Whether `path` starts like a zip archive with a `…/data.pkl` entry (cheap check by name only).
    static bool looksLikeArchive(const QString& path);
};

} // namespace Trainyard::Formats
