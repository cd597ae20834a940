// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>
#include <QTextStream>

namespace Trainyard {

/// `trainyardctl inspect checkpoint PATH [--format table|json] [--values NAME]… [--count N] [--verify]`
///
/// Lists the tensors of any checkpoint CheckpointReader understands (TF bundle prefix, .index,
/// checkpoint folder, SavedModel, torch.save archive, safetensors, sharded index) without a
/// framework: name (TF2 object path for object-based names), dtype, shape and bytes, as an
/// aligned table like `tf.train.list_variables`, or JSON
/// ({"format","path","tensors":[{"name","objectPath","dtype","shape","bytes","file","offset",…}],
/// "scalars","metadata","values":{NAME: statistics}}).
/// `--values NAME` adds statistics and the first `--count` values (default 10) of that tensor;
/// `--verify` checks every TF bundle tensor against its CRC-32C.
///
/// PATH may also be a folder that is no checkpoint itself (a job dir): its checkpoints are listed, newest first, as the
/// console's Checkpoints tab lists them (CheckpointIndex: NAME, FORMAT, STEP, EPOCH, SIZE, UPDATED, CURRENT; with
/// --format json `{"path", "checkpoints": [CheckpointEntry JSON]}`); 1 when it holds none.
///
/// `args` are the words after `inspect checkpoint`. Returns 0 on success, 1 when the checkpoint
/// cannot be read (the reason goes to `err`), 2 on a usage error.
int runInspectCheckpoint(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace Trainyard
