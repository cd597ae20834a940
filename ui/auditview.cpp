// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditview.h"
#include "screenfit.h"

#include "apiclient.h"
#include "auditlogmodel.h"
#include "rpcstatus.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
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

    m_close = new QPushButton(tr("&Close"), this);
    m_close->setObjectName(QStringLiteral("closeAuditView"));
    connect(m_close, &QPushButton::clicked, this, &QWidget::close);
    // Closes as any KDE window: Esc (keyPressEvent(), so that the entry dialog, a window of its own, gets its own
    // Esc first) and Ctrl+W (QKeySequence::Close).
    auto* closeShortcut = new QShortcut(QKeySequence::Close, this);
    closeShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(closeShortcut, &QShortcut::activated, this, &QWidget::close);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_close);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    layout->addLayout(bottom);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) { showEntry(index.row()); });
    m_table->setToolTip(QString());

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
    resizeWithinScreen(this, QSize(1100, 500));
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
        [this, generation](const Audit::Page& page, const ApiError& error) {
            if (generation != m_generation)
                return;
            if (!error.isNull()) {
                m_status->setText(tr("Cannot read the audit log: %1").arg(error.message));
            } else {
                m_model->setEntries(page.entries);
                m_status->setText(tr("%n entries, newest first.", nullptr, int(page.entries.size())));
            }
            Q_EMIT refreshed();
        });
}

void AuditView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Cancel)) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

QString AuditView::describeEntry(const Audit::Entry& entry)
{
    QStringList lines;
    auto add = [&lines](const QString& label, const QString& value) {
        if (!value.isEmpty())
            lines << label + QStringLiteral(": ") + value;
    };
    add(tr("Time"), entry.timestamp);
    add(tr("Log"), entry.logName.section(QLatin1Char('/'), -1).replace(QStringLiteral("%2F"), QStringLiteral("/")));
    add(tr("Severity"), entry.severity);
    add(tr("Principal"), entry.principal);
    add(tr("Method"), entry.methodName);
    add(tr("Service"), entry.serviceName);
    add(tr("Resource"), entry.resourceName);
    const int code = entry.statusCode.value_or(0);
    add(tr("Status"),
        code == 0 ? Rpc::name(RpcCode::Ok) : QStringLiteral("%1 (%2)").arg(Rpc::nameOfNumber(code)).arg(code));
    add(tr("Message"), entry.statusMessage);
    for (const FieldViolation& violation : entry.violations)
        add(tr("Field %1").arg(violation.field), violation.description);
    for (const Audit::Entry::Authorization& a : entry.authorizations)
        add(tr("Permission"),
            tr("%1 on %2: %3").arg(a.permission, a.resource, a.granted ? tr("granted") : tr("denied")));
    add(tr("Caller IP"), entry.callerIp);
    add(tr("User agent"), entry.userAgent);
    add(tr("What happened"), entry.what);
    add(tr("Request"), entry.requestTruncated);
    add(tr("Insert ID"), entry.insertId);
    return lines.join(QLatin1Char('\n'));
}

void AuditView::showEntry(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    const Audit::Entry& entry = m_model->entries().at(row);
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("auditEntryDialog"));
    dialog->setWindowTitle(tr("Audit Entry %1").arg(entry.insertId));
    auto* summary
        = new QLabel(describeEntry(entry).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")), dialog);
    summary->setObjectName(QStringLiteral("auditEntrySummary"));
    summary->setTextFormat(Qt::RichText);
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    summary->setWordWrap(true);
    auto* json
        = new QPlainTextEdit(QString::fromUtf8(QJsonDocument(entry.json).toJson(QJsonDocument::Indented)), dialog);
    json->setObjectName(QStringLiteral("auditEntryJson"));
    json->setReadOnly(true);
    json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    json->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(summary);
    layout->addWidget(json, 1);
    layout->addWidget(buttons);
    resizeWithinScreen(dialog, QSize(760, 560));
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

} // namespace Trainyard
