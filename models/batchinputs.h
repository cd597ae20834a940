// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace Trainyard::BatchInputs {

/// The files one of `predictionInput.inputPaths` names on this machine, by the service's rule (a `*` is allowed only
/// in the last path segment, where it matches file names): with a `*` in the file name, the readable files of its
/// folder that match, sorted by name; else the path itself, made absolute, when it is a readable file; else none.
/// The one expansion of these patterns: the executor's BatchPlan::make() (which then holds each match to the path
/// rules) and the console's batch page (which shows what will be read). It reads the file system: off the GUI thread.
QStringList expand(const QString& pattern);

} // namespace Trainyard::BatchInputs
