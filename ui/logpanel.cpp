// SPDX-License-Identifier: GPL-2.0-or-later
#include "logpanel.h"

#include "apiclient.h"
#include "executorconnection.h"
#include "loglinestore.h"
#include "logview.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace Trainyard {

LogPanel::LogPanel(ExecutorConnection* connection, const QString& jobId, QWidget* parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_jobId(jobId)
    , m_store(std::make_unique<LogLineStore>())
    , m_view(new LogView(this))
    , m_trialLabel(new QLabel(this))
    , m_task(new QComboBox(this))
    , m_severity(new QComboBox(this))
    , m_streamBox(new QComboBox(this))
    , m_text(new QLineEdit(this))
    , m_regex(new QCheckBox(tr("Regex"), this))
    , m_follow(new QToolButton(this))
    , m_count(new QLabel(this))
    , m_filterError(new QLabel(this))
{
    m_view->setStore(m_store.get());
    m_trialLabel->setObjectName(QStringLiteral("trialLabel"));
    m_trialLabel->hide();

    m_task->addItem(tr("All replicas"), QString());
    m_task->setToolTip(tr("Show the lines of one replica"));
    // The bar must fit a 1024-pixel window in every language: the boxes size to a few characters and show
    // their whole entries in the popup; the error buttons are arrows with their text in the tooltip.
    for (QComboBox* box : { m_task, m_severity, m_streamBox }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(box == m_task ? 16 : 11);
    }
    m_text->setMinimumWidth(120);
    m_severity->addItem(tr("All severities"), int(LogSeverity::Default));
    m_severity->addItem(tr("Debug and above"), int(LogSeverity::Debug));
    m_severity->addItem(tr("Info and above"), int(LogSeverity::Info));
    m_severity->addItem(tr("Warnings and above"), int(LogSeverity::Warning));
    m_severity->addItem(tr("Errors and above"), int(LogSeverity::Error));
    m_severity->setToolTip(tr("Minimum severity"));
    m_streamBox->setObjectName(QStringLiteral("streamBox"));
    m_streamBox->addItem(tr("stdout and stderr"), int(LogStream::Any));
    m_streamBox->addItem(tr("stdout only"), int(LogStream::Stdout));
    m_streamBox->addItem(tr("stderr only"), int(LogStream::Stderr));
    m_streamBox->setToolTip(tr("Which of the replicas' output streams to show (stderr holds Python's logging, "
                               "warnings and tracebacks)"));
    m_text->setPlaceholderText(tr("Filter lines (text)"));
    m_text->setClearButtonEnabled(true);
    m_regex->setToolTip(tr("Treat the filter as a regular expression"));
    m_follow->setText(tr("Follow"));
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest line in view (End)"));
    m_filterError->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_filterError->hide();
    // What F8 / Shift+F8 found when they found nothing; gone with the next search or filter.
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("logNotice"));
    m_notice->setStyleSheet(QStringLiteral("color: #5e5c64;"));
    m_notice->hide();

    auto* previous = new QToolButton(this);
    previous->setText(tr("Previous error"));
    previous->setToolTip(tr("Previous error (Shift+F8)"));
    previous->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    previous->setToolButtonStyle(Qt::ToolButtonIconOnly);
    previous->setObjectName(QStringLiteral("previousErrorButton"));
    auto* next = new QToolButton(this);
    next->setText(tr("Next error"));
    next->setToolTip(tr("Next error (F8)"));
    next->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    next->setToolButtonStyle(Qt::ToolButtonIconOnly);
    next->setObjectName(QStringLiteral("nextErrorButton"));

    auto* bar = new QHBoxLayout;
    // The count at the right end kept off the window's edge (issue 46 item 20: it touched it).
    bar->setContentsMargins(0, 0, style()->pixelMetric(QStyle::PM_LayoutRightMargin), 0);
    bar->addWidget(m_trialLabel);
    bar->addWidget(m_task);
    bar->addWidget(m_severity);
    bar->addWidget(m_streamBox);
    bar->addWidget(m_text, 1);
    bar->addWidget(m_regex);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(m_follow);
    bar->addWidget(m_count);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_filterError);
    layout->addWidget(m_notice);
    layout->addWidget(m_view, 1);
    setTabOrder(m_task, m_severity);
    setTabOrder(m_severity, m_streamBox);
    setTabOrder(m_streamBox, m_text);
    setTabOrder(m_text, m_regex);
    setTabOrder(m_regex, m_view);

    m_filterDelay.setSingleShot(true);
    m_filterDelay.setInterval(200);
    connect(&m_filterDelay, &QTimer::timeout, this, &LogPanel::applyFilter);
    connect(m_text, &QLineEdit::textChanged, this, [this] { m_filterDelay.start(); });
    connect(m_text, &QLineEdit::returnPressed, this, &LogPanel::applyFilter);
    connect(m_regex, &QCheckBox::toggled, this, &LogPanel::applyFilter);
    connect(m_task, &QComboBox::currentIndexChanged, this, &LogPanel::applyFilter);
    connect(m_severity, &QComboBox::currentIndexChanged, this, &LogPanel::applyFilter);
    connect(m_streamBox, &QComboBox::currentIndexChanged, this, &LogPanel::applyFilter);
    connect(m_follow, &QToolButton::toggled, m_view, &LogView::setFollowMode);
    connect(m_view, &LogView::followModeChanged, m_follow, &QToolButton::setChecked);
    connect(previous, &QToolButton::clicked, m_view, &LogView::previousError);
    connect(next, &QToolButton::clicked, m_view, &LogView::nextError);
    connect(m_view, &LogView::rowCountChanged, this, &LogPanel::updateCount);
    connect(m_view, &LogView::filteringChanged, this, &LogPanel::updateCount);
    connect(m_view, &LogView::noErrorFound, this, [this](int direction, bool elsewhere) {
        const bool filtered = !m_text->text().isEmpty() || m_task->currentIndex() > 0 || m_severity->currentIndex() > 0
            || m_streamBox->currentIndex() > 0;
        QString text;
        if (elsewhere)
            text = direction > 0 ? tr("No error below this line.") : tr("No error above this line.");
        else
            text = filtered ? tr("No error in the lines the filters show.") : tr("No error in this log.");
        m_notice->setText(text);
        m_notice->show();
    });
    connect(m_view, &LogView::errorFound, m_notice, &QLabel::hide);
    connect(m_view, &LogView::filterError, this, [this](const QString& message) {
        m_filterError->setText(tr("Invalid regular expression: %1").arg(message));
        m_filterError->show();
    });

    m_reopen.setSingleShot(true);
    m_reopen.setInterval(1000);
    connect(&m_reopen, &QTimer::timeout, this, &LogPanel::openStream);
    if (m_connection) {
        connect(m_connection, &ExecutorConnection::clientChanged, this, [this] {
            if (!m_ended)
                openStream();
        });
    }
    openStream();
    updateCount();
}

LogPanel::~LogPanel()
{
    if (m_stream)
        delete m_stream.data();
}

void LogPanel::openStream()
{
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->deleteLater();
    }
    if (!m_connection || !m_connection->client())
        return;
    // The executor replays every stored entry first: start from an empty store.
    m_store->clear();
    m_view->storeCleared();
    m_ended = false;
    m_stream = m_connection->client()->followLogs(m_jobId, {}, {}, {}, m_trial);
    m_stream->setParent(this);
    connect(m_stream, &ApiStream::logEntries, this, &LogPanel::onEntries);
    connect(m_stream, &ApiStream::ended, this, [this](JobState state) {
        m_ended = true;
        emit ended(state);
    });
    connect(m_stream, &ApiStream::failed, this, [this](const ApiError& error) {
        if (m_connection)
            m_connection->reportError(error);
    });
    connect(m_stream, &ApiStream::finished, this, &LogPanel::onStreamFinished);
}

void LogPanel::setTrialFilter(const QStringList& trialIds)
{
    const QString trial = trialIds.value(0);
    if (trial == m_trial)
        return;
    m_trial = trial;
    m_trialLabel->setVisible(!trial.isEmpty());
    //: %1 is a trial ID of a tuning job ("3").
    m_trialLabel->setText(tr("Trial %1").arg(trial));
    m_trialLabel->setToolTip(tr("Only this trial's lines (selected in the Trials tab)"));
    m_reopen.stop();
    openStream();
}

void LogPanel::onStreamFinished()
{
    if (m_ended)
        return;
    // Dropped before the end: try again (a reconnect of the executor also reopens via clientChanged).
    m_reopen.start();
}

void LogPanel::onEntries(const QList<LogEntry>& entries)
{
    const int tasksBefore = int(m_store->taskNames().size());
    const qint64 first = m_store->append(entries);
    m_view->linesAppended(first);
    if (m_store->taskNames().size() != tasksBefore)
        refreshTaskBox();
    emit entriesArrived(entries);
}

void LogPanel::refreshTaskBox()
{
    QStringList names = m_store->taskNames();
    names.sort();
    for (const QString& name : std::as_const(names)) {
        if (m_task->findData(name) < 0)
            m_task->addItem(name, name);
    }
    if (!m_pendingTask.isEmpty()) {
        const int i = m_task->findData(m_pendingTask);
        if (i >= 0) {
            m_pendingTask.clear();
            m_task->setCurrentIndex(i);
        }
    }
}

void LogPanel::showTask(const QString& taskName)
{
    if (taskName.isEmpty()) {
        m_task->setCurrentIndex(0);
        return;
    }
    int i = m_task->findData(taskName);
    if (i < 0) {
        // No line of it yet: add it now so the filter applies to the lines to come.
        m_store->taskId(taskName);
        m_task->addItem(taskName, taskName);
        i = m_task->findData(taskName);
    }
    m_task->setCurrentIndex(i);
}

void LogPanel::showFirstError(const QString& taskName)
{
    showTask(taskName);
    applyFilter(); // now, not after the filter's typing delay
    m_errorJumpTries = 0;
    m_errorScannedRows = 0;
    m_errorJump.disconnect(this);
    connect(&m_errorJump, &QTimer::timeout, this, [this] {
        // Until an error line arrived, the stream ended with none, or 10 s passed.
        if (tryShowFirstError() || (m_ended && !m_view->isFiltering()) || ++m_errorJumpTries > 100)
            m_errorJump.stop();
    });
    if (!tryShowFirstError())
        m_errorJump.start(100);
}

bool LogPanel::tryShowFirstError()
{
    if (m_view->isFiltering())
        return false;
    // Only the rows that arrived since the last try are looked at, and the view moves only when an error
    // line is found (it must not pull the user back to the top while the lines stream in).
    const qint64 rows = m_view->rowCount();
    for (qint64 row = std::min(m_errorScannedRows, rows); row < rows; ++row) {
        if (m_store->severity(m_view->lineAt(row)) >= LogSeverity::Error) {
            m_view->setFollowMode(false);
            m_view->setCurrentRow(row);
            m_view->verticalScrollBar()->setValue(int(std::max<qint64>(0, row - m_view->pageRows() / 2)));
            m_view->setFocus(Qt::OtherFocusReason);
            return true;
        }
    }
    m_errorScannedRows = rows;
    return false;
}

void LogPanel::applyFilter()
{
    m_filterDelay.stop();
    m_filterError->hide();
    m_notice->hide();
    LogFilter filter;
    const QString task = m_task->currentData().toString();
    if (!task.isEmpty())
        filter.taskIds.append(m_store->taskId(task));
    filter.minSeverity = LogSeverity(m_severity->currentData().toInt());
    filter.stream = LogStream(m_streamBox->currentData().toInt());
    filter.text = m_text->text();
    filter.regex = m_regex->isChecked();
    m_view->setFilter(filter);
}

void LogPanel::updateCount()
{
    const QLocale locale;
    if (m_view->isFiltering()) {
        m_count->setText(tr("Filtering…"));
    } else if (m_view->filter().isNull()) {
        m_count->setText(tr("%Ln line(s)", nullptr, int(std::min<qint64>(m_store->size(), INT_MAX))));
    } else {
        m_count->setText(tr("%1 of %Ln line(s)", nullptr, int(std::min<qint64>(m_store->size(), INT_MAX)))
                             .arg(locale.toString(m_view->rowCount())));
    }
}

} // namespace Trainyard
