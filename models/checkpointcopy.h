// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// "Submit from this checkpoint" (issue 5): a new job dir that holds a copy of one checkpoint, laid out as
// in the old job dir, so that a trainer which resumes from the newest checkpoint in its job dir (the
// sample trainer's `<job-dir>/checkpoints/ckpt-epoch-N.pt`, TensorFlow's `checkpoint` state file) resumes
// from it.
//
// Pure file work, no Qt GUI: callable on a worker thread (the panel runs it through QtConcurrent).

#include "apiclient.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// What copyCheckpoint() did.
struct CheckpointCopyResult {
    QString jobDir; ///< the new job dir (absolute); empty on failure
    QStringList files; ///< written, relative to jobDir (checkpoint files, then a written `checkpoint` state file)
    QString error; ///< why it failed ("Cannot write …/x.pt: No space left on device"); empty on success
    bool ok() const { return error.isEmpty(); }
};

/// A new job ID from an old one, the way the submit wizard suggests it: the old ID without a trailing
/// `_YYYYMMDD_HHMMSS` stamp, plus the stamp of `now` (at most 128 characters).
QString suggestJobIdFrom(const QString& oldJobId, const QDateTime& now);

/// Where the copy for `newJobId` goes: a sibling of `oldJobDir` named after the new job
/// (`/runs/fmnist_1` → `/runs/<newJobId>`), with `_2`, `_3` … appended while that name exists.
QString suggestCheckpointJobDir(const QString& oldJobDir, const QString& newJobId);

/// Copies `checkpoint`'s files (CheckpointSummary::files, relative to `sourceJobDir`) to the same relative
/// paths under `targetJobDir`, which must not exist. A TensorFlow bundle also gets a `checkpoint` state file
/// next to it that names it (`model_checkpoint_path`), so tf.train.latest_checkpoint() finds it; a SavedModel
/// folder is copied whole. Modification times are kept.
///
/// All-or-nothing: the files go to a hidden temporary folder beside `targetJobDir`, which is renamed to
/// `targetJobDir` at the end; on any failure the temporary folder is removed and nothing is left. The error
/// names the file and the system's reason. Names that leave the job dir (`..`, absolute) are refused.
CheckpointCopyResult copyCheckpoint(
    const QString& sourceJobDir, const CheckpointSummary& checkpoint, const QString& targetJobDir);

} // namespace Trainyard
