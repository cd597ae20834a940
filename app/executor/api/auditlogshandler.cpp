// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditlogshandler.h"

#include "apicommon.h"
#include "auditrecorder.h"
#include "authorizer.h"

#include "auditlog.h"
#include "auditstore.h"
#include "rpcstatus.h"

#include <QUrlQuery>

namespace Trainyard {

using namespace Api;

AuditLogsHandler::AuditLogsHandler(const AuditRecorder* recorder, Authorizer* authorizer)
    : m_recorder(recorder)
    , m_authorizer(authorizer)
{
}

HttpApi::Reply AuditLogsHandler::list(const ApiRequest& request, const HttpApi::Caller& caller, const QString& project)
{
    AuditStore* audit = m_recorder->store();
    if (!audit)
        return errorReply(RpcCode::Unavailable, QStringLiteral("The executor keeps no audit log."));
    const QUrlQuery query = request.query();
    QString problem;
    const std::optional<Audit::Filter> filter
        = Audit::Filter::parse(queryValue(query, QStringLiteral("filter")), &problem);
    if (!filter)
        return invalidArgument(QStringLiteral("filter"), problem);
    int pageSize = 0;
    if (!parsePageSize(queryValue(query, QStringLiteral("pageSize")), DefaultPageSize, MaxPageSize, &pageSize))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));
    qint64 before = 0;
    const QString pageToken = queryValue(query, QStringLiteral("pageToken"));
    if (!pageToken.isEmpty()) {
        QString value;
        bool ok = false;
        if (decodePageToken(pageToken, QStringLiteral("auditLogs"), &value))
            before = value.toLongLong(&ok);
        if (!ok || before <= 0)
            return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this log"));
    }
    // Data Access entries are private logs (Cloud Logging's logging.privateLogEntries.list): a caller without it
    // reads the Admin Activity log alone, as in the cloud.
    const bool privateLogs = m_authorizer->permitted(caller, Iam::Permission::privateLogsList(), project, QString());
    qint64 next = 0;
    const QList<QJsonObject> entries = audit->read(
        project, before, pageSize,
        [&](const QJsonObject& entry) {
            if (!privateLogs
                && Audit::logKindOf(entry.value(QLatin1String("logName")).toString()) != Audit::LogKind::Activity)
                return false;
            return filter->matches(entry);
        },
        &next);
    Audit::Page page;
    page.entries.reserve(entries.size());
    for (const QJsonObject& entry : entries)
        page.entries.append(Audit::Entry::fromJson(entry));
    if (next > 0)
        page.nextPageToken = encodePageToken(QStringLiteral("auditLogs"), QString::number(next));
    return jsonReply(page.toJson());
}

} // namespace Trainyard
