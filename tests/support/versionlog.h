// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
// A version's log (…/versions/{v}/nodes.log, VersionNodes) read for what runs: a node that took a warm spare runs
// under the spare's command line (`prediction_server --spare`, no model folder in it), so the nodes of a version are
// counted from what its log says, not from /proc.

#include <QFile>
#include <QRegularExpression>
#include <QString>

namespace Trainyard::Test {

/// Nodes of the version that run by its log at `path` (as processes would count them: loading or up): each
/// "node N: starting:" starts one, each "stopped (…)", "… while serving; restarting it" and "could not load the model"
/// ends one. 0 for a missing log. `from`: the byte offset to count from (a log that goes on across an executor's
/// restart: the nodes it killed on its way out are not logged as ended).
inline int nodesUpByLog(const QString& path, qint64 from = 0)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(from))
        return 0;
    const QString text = QString::fromUtf8(file.readAll());
    static const QRegularExpression started(QStringLiteral("node \\d+: starting: "));
    static const QRegularExpression ended(QStringLiteral("node \\d+: (stopped \\(|could not load the model|.* while serving; restarting it)"));
    return int(text.count(started) - text.count(ended));
}

} // namespace Trainyard::Test
