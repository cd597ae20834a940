// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditlogmodel.h"
#include "rpcstatus.h"
#include "rfc3339.h"

#include <QDateTime>

namespace Trainyard {

AuditLogModel::AuditLogModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void AuditLogModel::setEntries(const QList<Audit::Entry>& entries)
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
    const Audit::Entry& entry = m_entries.at(index.row());
    if (role == EntryRole)
        return entry.json;
    if (role == FailedRole)
        return entry.failed();
    if (role == Qt::ToolTipRole && index.column() == Outcome && entry.failed()) {
        // The message and why: a refused create said only "Request contains an invalid argument." while the
        // reason (the job dir's rule, the project ID's) was in its field violations.
        QStringList lines { entry.statusMessage };
        for (const FieldViolation& v : entry.violations)
            lines << v.field + QStringLiteral(": ") + v.description;
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case When: {
        const QDateTime time = Rfc3339::parse(entry.timestamp);
        return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : entry.timestamp;
    }
    case Who:
        return entry.principal;
    case Method:
        return entry.methodName;
    case Resource:
        return entry.resourceName;
    case Outcome:
        // The code's name only, so that the column stays narrow; the message is the tooltip.
        return entry.failed() ? Rpc::nameOfNumber(*entry.statusCode) : tr("OK");
    case CallerIp:
        return entry.callerIp;
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
