// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard::Formats {

/// The `checkpoint` file TensorFlow's `tf.train.CheckpointManager` / `Saver` keeps beside its
/// checkpoints: a text-format `CheckpointState` message (tensorflow/core/protobuf/
/// checkpoint_state.proto). Paths may be relative to the file's folder; timestamps are seconds
/// since the epoch (doubles), present only when the writer recorded them.
struct CheckpointState {
    QString modelCheckpointPath;
    QStringList allModelCheckpointPaths;
    QList<double> allModelCheckpointTimestamps;
    double lastPreservedTimestamp = 0;

    /// Parses text-format protobuf; an error names the line and column libprotobuf reports.
    static std::optional<CheckpointState> parse(const QByteArray& text, QString* error);
    /// Reads `path` (the `checkpoint` file itself, or a folder holding one).
    static std::optional<CheckpointState> readFile(const QString& path, QString* error);

    /// `path` made absolute against `directory` when relative (how TensorFlow resolves it).
    static QString resolve(const QString& path, const QString& directory);
};

} // namespace Trainyard::Formats
