// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>

namespace Trainyard {

class CtlSession;

/// `trainyardctl audit list|verify`: the executor's audit log (app/executor/API.md, "Audit logs"), read through
/// `GET /v1/projects/{project}/auditLogs`. Exit codes as ExitCode: 0, 1 on an API error (and for verify, a chain
/// that does not verify), 2 on a usage error.
namespace AuditCommands {
/// `list [--filter=FILTER] [--limit=N]`: entries newest first (as `gcloud logging read`); table columns TIMESTAMP,
/// SEVERITY, PRINCIPAL, METHOD, RESOURCE, STATUS, CALLER_IP; `--format=json|yaml`: the LogEntry objects.
int list(CtlSession& s, const QStringList& args);
/// `verify`: reads every entry of every project (`projects/-`, all pages) and checks the hash chain
/// (Audit::verifyChain()); prints "Verified N entries." or names the first bad entry and exits 1.
int verify(CtlSession& s, const QStringList& args);
} // namespace AuditCommands

} // namespace Trainyard
