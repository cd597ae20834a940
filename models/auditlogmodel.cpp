// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditlogmodel.h"

#include <QDateTime>

namespace Trainyard {

namespace {

QString codeName(int code)
{
    // google.rpc.Code, in its order.
    static const char* const names[] = { "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
        "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED" };
    return code >= 0 && code < int(std::size(names)) ? QLatin1String(names[code]) : QString::number(code);
}

} // namespace

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
    if (role == Qt::ToolTipRole && index.column() == Outcome && failed)
        return status.value(QLatin1String("message")).toString();
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
        return failed ? codeName(status.value(QLatin1String("code")).toInt()) : tr("OK");
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
