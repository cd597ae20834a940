// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "checkpointinfo.h"

#include <QByteArrayView>

namespace Trainyard::Formats {

/// Reader of Keras 3 `.keras` archives (keras/src/saving/saving_lib.py: a zip holding `config.json`,
/// `metadata.json` and `model.weights.h5`).
///
/// `config.json` (required) gives the model's class and name, kept in `metadata` with `metadata.json`'s
/// `keras_version` and `date_saved`. The weights file is HDF5: every dataset in it is one tensor named by
/// its path (`layers/dense/vars/0`, `optimizer/vars/3`), with its dtype (`float32`, `int64` …) and shape.
/// HDF5 is read through libhdf5 (opened in memory; a stored zip entry is not copied) when Trainyard was
/// built with it (hasHdf5()); without it, or when the archive has no weights file, the archive still
/// opens with its config and no tensors, and `metadata.weights` says why.
///
/// Errors name the archive and what is wrong: not a zip, no `config.json`, a config that is not a JSON
/// object, a weights file that HDF5 cannot open, a weights entry above kMaxWeightsBytes when compressed.
class KerasArchive {
public:
    /// A compressed `model.weights.h5` is inflated into memory up to this size (a stored one is mapped).
    static constexpr qint64 kMaxWeightsBytes = qint64(768) << 20;
    /// Datasets listed at most (a corrupt file cannot make the listing unbounded).
    static constexpr int kMaxTensors = 1000000;

    /// True when built with libhdf5 (weights are listed and their values read).
    static bool hasHdf5();

    /// `format` is `keras`; every tensor's `file` is the archive; `offset`/`size` are not byte ranges of
    /// the archive (`size` is the dataset's bytes, `offset` 0).
    static std::optional<CheckpointInfo> read(const QString& path, QString* error);
    /// The same from bytes in memory (`path` names them in errors and in TensorInfo::file).
    static std::optional<CheckpointInfo> readMemory(QByteArrayView bytes, const QString& path, QString* error);

    /// One dataset's values (native little-endian layout of its element type) when ≤ `maxBytes`.
    static std::optional<QByteArray> readTensorData(const TensorInfo& tensor, qint64 maxBytes, QString* error);
};

} // namespace Trainyard::Formats
