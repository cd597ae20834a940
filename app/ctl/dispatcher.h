// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>
#include <QTextStream>

namespace Trainyard {

/// trainyardctl's command tree (gcloud's groups and verbs):
///   clusters list | describe | check (clusterscommands.h)
///   jobs submit training | describe | list | cancel | stream-logs | update
///   local train
///   inspect checkpoint | events (app/ctl/inspectcheckpoint.h, inspectevents.h)
/// Global flags anywhere before `--`: --executor URL, --project P, --format F, --help.
/// A group without a verb (or with --help) prints its verbs. Returns the process exit code
/// (0 ok, 1 error, 2 usage error).
class Dispatcher {
public:
    /// `args` without the program name.
    static int run(const QStringList& args, QTextStream& out, QTextStream& err);
};

} // namespace Trainyard
