// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditview.h"

#include "apiclient.h"
#include "auditlogmodel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace Trainyard {

namespace {
constexpr int MaxEntries = 500;
constexpr int LiveIntervalMs = 2000;

/// A filter value in double quotes (\" and \\ escaped), so that any text is one value.
QString quoted(const QString& text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    out.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}
} // namespace

AuditView::AuditView(QWidget* parent)
    : QWidget(parent)
    , m_model(new AuditLogModel(this))
    , m_table(new QTableView(this))
    , m_principal(new QLineEdit(this))
    , m_method(new QLineEdit(this))
    , m_job(new QLineEdit(this))
    , m_live(new QCheckBox(tr("&Live"), this))
    , m_status(new QLabel(this))
    , m_liveTimer(new QTimer(this))
    , m_typing(new QTimer(this))
{
    setWindowTitle(tr("Audit Log"));
    m_principal->setPlaceholderText(tr("Principal (alice@example.org)"));
    m_method->setPlaceholderText(tr("Method (CancelJob)"));
    m_job->setPlaceholderText(tr("Job ID"));
    for (QLineEdit* edit : { m_principal, m_method, m_job })
        edit->setClearButtonEnabled(true);
    auto* refreshButton = new QPushButton(tr("&Refresh"), this);

    auto* filters = new QHBoxLayout;
    filters->addWidget(m_principal);
    filters->addWidget(m_method);
    filters->addWidget(m_job);
    filters->addWidget(m_live);
    filters->addWidget(refreshButton);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setWordWrap(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);

    // Typing reads again once the user pauses, not per key.
    m_typing->setSingleShot(true);
    m_typing->setInterval(300);
    connect(m_typing, &QTimer::timeout, this, &AuditView::refresh);
    for (QLineEdit* edit : { m_principal, m_method, m_job })
        connect(edit, &QLineEdit::textChanged, m_typing, qOverload<>(&QTimer::start));
    connect(refreshButton, &QPushButton::clicked, this, &AuditView::refresh);
    m_liveTimer->setInterval(LiveIntervalMs);
    connect(m_liveTimer, &QTimer::timeout, this, &AuditView::refresh);
    connect(m_live, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_liveTimer->start();
            refresh();
        } else {
            m_liveTimer->stop();
        }
    });
    resize(1100, 500);
}

void AuditView::setClient(ApiClient* client)
{
    m_client = client;
    refresh();
}

QString AuditView::filterText() const
{
    QStringList terms;
    if (const QString p = m_principal->text().trimmed(); !p.isEmpty())
        terms << QStringLiteral("protoPayload.authenticationInfo.principalEmail:") + quoted(p);
    if (const QString m = m_method->text().trimmed(); !m.isEmpty())
        terms << QStringLiteral("protoPayload.methodName:") + quoted(m);
    if (const QString j = m_job->text().trimmed(); !j.isEmpty())
        terms << QStringLiteral("resource.labels.job_id=") + quoted(j);
    return terms.join(QStringLiteral(" AND "));
}

void AuditView::refresh()
{
    if (!m_client)
        return;
    // Only the newest read's answer is shown: a slow older one that arrives later is dropped.
    const int generation = ++m_generation;
    m_client->auditLogs(QString(), filterText(), MaxEntries, QString(), this,
        [this, generation](const QJsonObject& page, const ApiError& error) {
            if (generation != m_generation)
                return;
            if (!error.isNull()) {
                m_status->setText(tr("Cannot read the audit log: %1").arg(error.message));
            } else {
                QList<QJsonObject> entries;
                for (const QJsonValue& v : page.value(QLatin1String("entries")).toArray())
                    entries.append(v.toObject());
                m_model->setEntries(entries);
                m_status->setText(tr("%n entries, newest first.", nullptr, int(entries.size())));
            }
            Q_EMIT refreshed();
        });
}

} // namespace Trainyard
