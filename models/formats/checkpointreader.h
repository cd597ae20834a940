// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "checkpointinfo.h"
#include "tensorstats.h"

namespace Trainyard::Formats {

/// One entry point for every checkpoint format: finds what a path names and hands it to the
/// right reader (TensorBundle, PyTorchArchive, SafeTensors).
///
/// A path may be: a TF bundle prefix, its `.index` or a `.data-NNNNN-of-NNNNN` shard; a folder
/// with a `checkpoint` state file (its model_checkpoint_path is opened; an absolute path that no
/// longer exists is retried as that name inside the folder, as when a job dir was moved); a
/// SavedModel folder (`saved_model.pb` + `variables/`) or a `variables/` folder; a `torch.save`
/// archive (`.pt`, `.pth`, `.bin`, or any file starting with a zip signature); a `.safetensors`
/// file; a `*.safetensors.index.json`; a Keras `.keras` archive (KerasArchive).
class CheckpointReader {
public:
    /// The bundle prefix, archive or file that `path` resolves to, and its format name
    /// (`tf-bundle`, `pytorch`, `safetensors`, `keras`); empty format when nothing matches.
    static QString detect(const QString& path, QString* resolved);

    static std::optional<CheckpointInfo> read(const QString& path, QString* error);

    /// The bytes of one tensor of `info` (refused above `maxBytes`); TF bundles are checked
    /// against their CRC-32C.
    static std::optional<QByteArray> readTensorData(
        const CheckpointInfo& info, const TensorInfo& tensor, qint64 maxBytes, QString* error);

    /// Statistics and the first `firstN` values of a tensor of up to `maxBytes` bytes.
    static std::optional<TensorStats> tensorStats(
        const CheckpointInfo& info, const TensorInfo& tensor, qint64 maxBytes, int firstN, QString* error);
};

} // namespace Trainyard::Formats
