// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The Logs tab of a job: streams the job's logs from the executor (`…/logs?follow=true`, all replicas
// merged in time order) into a LogLineStore and shows them in a LogView, with a toolbar for the task,
// minimum severity and text/regex filters, follow mode and next/previous error.
//
// A dropped stream (executor restarted) is reopened from the start into a cleared store: the executor
// replays every stored entry first, so nothing is lost or doubled.

#include "job.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace Trainyard {

class ApiClient;
class ApiStream;
class ExecutorConnection;
class LogLineStore;
class LogView;
struct LogEntry;

class LogPanel : public QWidget {
    Q_OBJECT
public:
    LogPanel(ExecutorConnection* connection, const QString& jobId, QWidget* parent = nullptr);
    ~LogPanel() override;

    LogView* view() const { return m_view; }
    LogLineStore* store() const { return m_store.get(); }
    /// Shows one replica's lines ("worker-replica-1"); empty = all.
    void showTask(const QString& taskName);
    /// Shows `taskName`'s lines (all when empty) with the first ERROR-or-worse line current and centred,
    /// as soon as it has arrived (the stream replays a job's log from the start; looks for up to 10 s, or
    /// until the stream ended). The view does not move before then. What the failure banner's "Show in
    /// Logs" does.
    void showFirstError(const QString& taskName);
    /// True after the executor's `end` event (the job is final and every line arrived).
    bool hasEnded() const { return m_ended; }
    /// A tuning job's trials whose lines to show (the Trials tab's selection): the first of them, read again
    /// from the executor with `?trialId=` (a log holds every trial's lines; the executor filters them); empty
    /// shows every trial. The bar says which trial is shown.
    void setTrialFilter(const QStringList& trialIds);
    QString trialFilter() const { return m_trial; }
    QLabel* trialLabel() const { return m_trialLabel; }
    /// Says when F8 / Shift+F8 found no error ("No error in this log."); hidden otherwise.
    QLabel* notice() const { return m_notice; }
    /// "1,234 lines" / "12 of 1,234 lines" at the toolbar's right end, clear of the window's edge.
    QLabel* countLabel() const { return m_count; }

    QComboBox* taskBox() const { return m_task; }
    QComboBox* severityBox() const { return m_severity; }
    QComboBox* streamBox() const { return m_streamBox; }
    QLineEdit* textEdit() const { return m_text; }
    QCheckBox* regexBox() const { return m_regex; }

Q_SIGNALS:
    /// The log stream's end: the job's final state (ApiStream::ended).
    void ended(Trainyard::JobState finalState);
    /// Entries as they arrive from the stream (after they were stored).
    void entriesArrived(const QList<Trainyard::LogEntry>& entries);

private:
    void openStream();
    void onEntries(const QList<Trainyard::LogEntry>& entries);
    void onStreamFinished();
    bool tryShowFirstError();
    void applyFilter();
    void refreshTaskBox();
    void updateCount();

    QPointer<ExecutorConnection> m_connection;
    QString m_jobId;
    std::unique_ptr<LogLineStore> m_store;
    LogView* m_view;
    QPointer<ApiStream> m_stream;
    bool m_ended = false;
    QTimer m_reopen;
    QTimer m_filterDelay;
    QString m_pendingTask;
    QTimer m_errorJump; ///< retries showFirstError() until an error line is in the store
    int m_errorJumpTries = 0;
    qint64 m_errorScannedRows = 0; ///< rows showFirstError() already looked at

    QString m_trial; ///< the trial shown; empty = all
    QLabel* m_trialLabel;
    QComboBox* m_task;
    QComboBox* m_severity;
    QComboBox* m_streamBox;
    QLineEdit* m_text;
    QCheckBox* m_regex;
    QToolButton* m_follow;
    QLabel* m_count;
    QLabel* m_filterError;
    QLabel* m_notice = nullptr;
};

} // namespace Trainyard
