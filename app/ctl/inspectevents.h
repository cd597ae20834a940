// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>
#include <QTextStream>

namespace Trainyard {

/// `trainyardctl inspect events PATH [--format csv|json]`
///
/// Prints every scalar of the event files at PATH (one file, or every `*tfevents*` file in a
/// directory tree) in file order: the rows TensorBoard's EventFileLoader gives, before any
/// restart purge, like `tensorboard --inspect`. Runs are TensorBoard's: an event file's directory
/// relative to PATH ("." for PATH itself and for a single file); runs sorted by name, files of a run
/// by file name.
///
/// - csv (default): header `run,tag,step,wall_time,value`, then one row per scalar (RFC 4180
///   quoting for run and tag, `\n` line ends). wall_time and value are printed as Python's
///   repr(float) (shortest round-trip digits, pythonFloatRepr()), so a row matches TensorBoard's
///   CSV exports digit for digit.
/// - json: a JSON array with one object per line,
///   `{"run":".","tag":"loss","step":0,"wall_time":1763700000.0,"value":1.0}`; step is a JSON
///   number, non-finite values are the strings "NaN", "Infinity", "-Infinity".
///
/// A damaged record (CRC mismatch, not an Event) is reported on `err` with its file and offset and
/// skipped; a lost framing stops that file there. A partial record at the end of a file (a trainer
/// still writing) is not reported.
///
/// `args` are the words after `inspect events`. Returns 0 on success, 1 when PATH does not exist,
/// holds no event file, or some records were damaged (the rows that could be read are still
/// printed), 2 on a usage error.
int runInspectEvents(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace Trainyard
