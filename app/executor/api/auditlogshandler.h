// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class AuditRecorder;
class Authorizer;

/// The handler of `GET /v1/projects/{project}/auditLogs` (app/executor/API.md "Audit logs"; Cloud Logging's
/// entries.list over the executor's audit log): newest first, `filter` (Audit::Filter: Cloud Logging's query language
/// as far as API.md says), `pageSize` (50 by default, at most 1,000, as entries.list) and `pageToken`; project "-"
/// reads every project's entries. Data Access entries are private logs: a caller without
/// logging.privateLogEntries.list reads the Admin Activity log alone, as in the cloud. Main thread.
class AuditLogsHandler {
public:
    /// Default and maximum `pageSize` (Cloud Logging's entries.list: 50 and 1000).
    static constexpr int DefaultPageSize = 50;
    static constexpr int MaxPageSize = 1000;

    /// `recorder` (its audit store) and `authorizer` are not owned and outlive the handler.
    AuditLogsHandler(const AuditRecorder* recorder, Authorizer* authorizer);

    HttpApi::Reply list(const ApiRequest& request, const HttpApi::Caller& caller, const QString& project);

private:
    const AuditRecorder* m_recorder;
    Authorizer* m_authorizer;
};

} // namespace Trainyard
