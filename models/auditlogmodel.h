// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "auditlog.h"
#include <QAbstractTableModel>

#include <QJsonObject>
#include <QList>

namespace Trainyard {

/// The console's Audit view as a table: one row per audit log entry (models/auditlog.h; app/executor/API.md
/// "Audit logs"), in the order given (the API's: newest first). Columns: When (the entry's timestamp, local time),
/// Who (protoPayload.authenticationInfo.principalEmail), Method (protoPayload.methodName), Resource
/// (protoPayload.resourceName), Outcome ("OK", or the google.rpc.Code name; its tooltip the message), Caller IP. Read
/// only.
class AuditLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { When, Who, Method, Resource, Outcome, CallerIp, ColumnCount };
    enum Roles {
        EntryRole = Qt::UserRole, ///< the whole entry as sent (QJsonObject: Audit::Entry::json)
        FailedRole, ///< bool: the call failed (status has a code)
    };

    explicit AuditLogModel(QObject* parent = nullptr);

    /// Replaces every row with `entries` (a model reset: a refresh reads a whole page again).
    void setEntries(const QList<Audit::Entry>& entries);
    const QList<Audit::Entry>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Audit::Entry> m_entries;
};

} // namespace Trainyard
