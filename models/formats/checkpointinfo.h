// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVariantMap>

#include <optional>

namespace Trainyard::Formats {

/// Element types Trainyard can decode from the bytes of a tensor. Every format's own dtype
/// name (TF `DT_FLOAT`, PyTorch `float32`, safetensors `F32`) maps onto one of these; a type
/// we can list but not decode (strings, quantized, complex, 4-bit) maps to `Other`.
enum class ElementType {
    Other,
    F16,
    BF16,
    F32,
    F64,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Bool,
};

/// Size of one element in bytes; 0 for `Other` (its size is not known from the type alone).
int elementSize(ElementType type);

/// Short canonical name (`F32`, `BF16`, `BOOL`, …); `?` for `Other`.
QString elementTypeName(ElementType type);

/// One tensor of a checkpoint, as listed without reading its values.
/// `offset` and `size` are bytes inside `file` (a shard file, a zip archive, a safetensors file)
/// where the tensor's data starts; `size` is -1 where a format does not say it.
struct TensorInfo {
    QString name; ///< as the format stores it: TF key, dotted PyTorch path, safetensors key
    QString displayName; ///< what a user reads: TF2 object path for `…/.ATTRIBUTES/VARIABLE_VALUE`, else `name`
    QString dtype; ///< the format's own dtype name (`DT_FLOAT`, `float32`, `F32`)
    ElementType elementType = ElementType::Other;
    QList<qint64> shape; ///< empty for a scalar
    QList<qint64> strides; ///< elements; PyTorch only (empty elsewhere: contiguous row-major)
    int shard = 0; ///< TF bundle shard id; 0 elsewhere
    QString file; ///< absolute path of the file holding the bytes
    qint64 offset = 0; ///< bytes from the start of `file`
    qint64 size = -1; ///< bytes of data (TF: entry size; PyTorch: shape × strides span; safetensors: end − begin)
    std::optional<quint32> crc32c; ///< TF bundles: unmasked CRC-32C of the bytes, when stored
    QString storageKey; ///< PyTorch: zip entry key under `data/`
    qint64 storageOffset = 0; ///< PyTorch: offset into the storage, in elements
    qint64 storageBytes = 0; ///< PyTorch: size of the whole storage entry in bytes
    bool isMetadata = false; ///< TF `_CHECKPOINTABLE_OBJECT_GRAPH` and similar bookkeeping entries

    /// Number of elements (product of the shape; 1 for a scalar); -1 on overflow.
    qint64 elementCount() const;
};

/// What a reader found in a checkpoint. `format` is one of `tf-bundle`, `pytorch`,
/// `safetensors`; `path` is what was opened (a bundle prefix, an archive, a safetensors file or
/// index). `scalars` holds plain top-level values (PyTorch `epoch`, `global_step`);
/// `metadata` holds format extras (bundle header, safetensors `__metadata__`).
struct CheckpointInfo {
    QString format;
    QString path;
    QList<TensorInfo> tensors;
    QVariantMap scalars;
    QJsonObject metadata;
    QStringList files; ///< every file the checkpoint consists of

    qint64 totalBytes() const; ///< sum of the tensors' known sizes
    const TensorInfo* find(const QString& name) const; ///< by name or displayName
};

/// Reads `length` bytes at `offset` of `path` after checking that the range lies inside the
/// file, so a corrupt offset never leads to a huge allocation. Errors name the file and range.
std::optional<QByteArray> readFileRange(const QString& path, qint64 offset, qint64 length, QString* error);

} // namespace Trainyard::Formats
