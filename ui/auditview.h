// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "auditlog.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace Trainyard {

class ApiClient;
class AuditLogModel;

/// The Audit view (View ▸ Audit Log): the executor's audit log (app/executor/API.md, "Audit logs") as a table,
/// newest first — when, who, method, resource, outcome, caller IP — with filter boxes for the principal, the method
/// and the job (sent to the executor as `…/auditLogs?filter=`, a `:` (has) term each, joined with AND), Refresh, and
/// Live (reads again every 2 s). Shows the last 500 entries that pass. Double-click (or Return on) an entry shows all
/// of it; a failed entry's tooltip gives its status, message and field violations.
class AuditView : public QWidget {
    Q_OBJECT
public:
    explicit AuditView(QWidget* parent = nullptr);

    /// The client to read through (null: nothing is read). Reads at once.
    void setClient(ApiClient* client);
    AuditLogModel* model() const { return m_model; }
    QLineEdit* principalEdit() const { return m_principal; }
    QLineEdit* methodEdit() const { return m_method; }
    QLineEdit* jobEdit() const { return m_job; }
    QTableView* table() const { return m_table; }
    /// The filter the boxes make ("" when all are empty).
    QString filterText() const;
    /// The Close button (the window also closes with Esc and Ctrl+W, as a KDE window does).
    QPushButton* closeButton() const { return m_close; }
    /// The whole entry as the detail dialog shows it: principal, method, resource, status with its code's name,
    /// message and field violations, authorization, request metadata and the request; then the entry's JSON.
    /// Plain text (one "Label: value" per line); the dialog shows it with the JSON in the fixed font.
    static QString describeEntry(const Audit::Entry& entry);

public Q_SLOTS:
    /// Opens the detail dialog of the entry in model row `row` (what double-click and Return do).
    void showEntry(int row);

public Q_SLOTS:
    void refresh();

protected:
    void keyPressEvent(QKeyEvent* event) override;

Q_SIGNALS:
    /// A read finished (its rows are in the model, or its error is shown).
    void refreshed();

private:
    QPointer<ApiClient> m_client;
    AuditLogModel* m_model;
    QTableView* m_table;
    QLineEdit* m_principal;
    QLineEdit* m_method;
    QLineEdit* m_job;
    QCheckBox* m_live;
    QLabel* m_status;
    QPushButton* m_close;
    QTimer* m_liveTimer;
    QTimer* m_typing;
    int m_generation = 0;
};

} // namespace Trainyard
