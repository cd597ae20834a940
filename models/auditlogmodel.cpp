// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditlogmodel.h"
#include "rpcstatus.h"

#include <QDateTime>
#include <QJsonArray>

namespace Trainyard {

AuditLogModel::AuditLogModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void AuditLogModel::setEntries(const QList<QJsonObject>& entries)
{
    beginResetModel();
    m_entries = entries;
    endResetModel();
}

int AuditLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int AuditLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditLogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject& entry = m_entries.at(index.row());
    const QJsonObject payload = entry.value(QLatin1String("protoPayload")).toObject();
    const QJsonObject status = payload.value(QLatin1String("status")).toObject();
    const bool failed = status.contains(QLatin1String("code")) && status.value(QLatin1String("code")).toInt() != 0;
    if (role == EntryRole)
        return entry;
    if (role == FailedRole)
        return failed;
    if (role == Qt::ToolTipRole && index.column() == Outcome && failed) {
        // The message and why: a refused create said only "Request contains an invalid argument." while the
        // reason (the job dir's rule, the project ID's) was in its field violations.
        QStringList lines { status.value(QLatin1String("message")).toString() };
        for (const QJsonValue& detail : status.value(QLatin1String("details")).toArray()) {
            for (const QJsonValue& v : detail.toObject().value(QLatin1String("fieldViolations")).toArray())
                lines << v.toObject().value(QLatin1String("field")).toString() + QStringLiteral(": ")
                        + v.toObject().value(QLatin1String("description")).toString();
        }
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case When: {
        const QDateTime time
            = QDateTime::fromString(entry.value(QLatin1String("timestamp")).toString(), Qt::ISODateWithMs);
        return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                              : entry.value(QLatin1String("timestamp")).toString();
    }
    case Who:
        return payload.value(QLatin1String("authenticationInfo"))
            .toObject()
            .value(QLatin1String("principalEmail"))
            .toString();
    case Method:
        return payload.value(QLatin1String("methodName")).toString();
    case Resource:
        return payload.value(QLatin1String("resourceName")).toString();
    case Outcome:
        // The code's name only, so that the column stays narrow; the message is the tooltip.
        return failed ? Rpc::nameOfNumber(status.value(QLatin1String("code")).toInt()) : tr("OK");
    case CallerIp:
        return payload.value(QLatin1String("requestMetadata")).toObject().value(QLatin1String("callerIp")).toString();
    default:
        return {};
    }
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case When:
        return tr("When");
    case Who:
        return tr("Who");
    case Method:
        return tr("Method");
    case Resource:
        return tr("Resource");
    case Outcome:
        return tr("Outcome");
    case CallerIp:
        return tr("Caller IP");
    default:
        return {};
    }
}

} // namespace Trainyard
