// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The log view: a QAbstractScrollArea that paints only the visible lines of a LogLineStore (klogg's
// AbstractLogView approach), so it costs the same at 100 lines and at 10 million.
//
// Rows are the store's lines, or, with a LogFilter, the lines that match (an index of line numbers,
// extended incrementally as lines arrive; recomputed in a worker thread with QtConcurrent when the
// filter changes on a big store). Appends are coalesced: the view repaints at most once per 40 ms.
//
// Follow mode keeps the last line in view; scrolling up turns it off, reaching the bottom (or End)
// turns it back on. F8 / Shift+F8 jump to the next / previous line of severity ERROR or worse.

#include "loghighlighter.h"
#include "loglinestore.h"

#include <QAbstractScrollArea>
#include <QFutureWatcher>
#include <QTimer>

#include <memory>
#include <vector>

namespace Trainyard {

class LogView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit LogView(QWidget* parent = nullptr);
    ~LogView() override;

    /// What colours the messages ("KSyntaxHighlighting: …" or "built-in").
    QString highlighterName() const { return m_highlighter.backendName(); }
    /// Colours numbers, strings and paths inside messages (on by default). Off, messages are drawn in
    /// their line's colour only, at exactly the same positions.
    void setHighlighting(bool on);
    bool highlighting() const { return m_highlighting; }

    /// The store to show (not owned; must outlive the view or be replaced first).
    void setStore(LogLineStore* store);
    LogLineStore* store() const { return m_store; }
    /// Tells the view that lines were appended; `firstChanged` is LogLineStore::append's result. Cheap:
    /// the work happens on the next coalesced update.
    void linesAppended(qint64 firstChanged);
    /// Tells the view that the store was cleared.
    void storeCleared();

    void setFilter(const LogFilter& filter);
    LogFilter filter() const { return m_filter; }
    /// True while a worker thread recomputes the filtered index.
    bool isFiltering() const { return m_watcher != nullptr; }

    /// Rows shown (all lines, or the matching ones).
    qint64 rowCount() const;
    /// The store line of a row.
    qint64 lineAt(qint64 row) const;
    /// First row in view.
    qint64 topRow() const;
    /// Rows that fit in the viewport.
    int pageRows() const;

    bool followMode() const { return m_follow; }
    qint64 currentRow() const { return m_cursor; }
    void setCurrentRow(qint64 row, bool extendSelection = false);
    /// Selected rows as [first, last], or {-1, -1}.
    std::pair<qint64, qint64> selection() const;
    /// The selected lines as shown, one per line.
    QString selectedText() const;

    /// The colour of a replica's task name: fixed by its role and index (master purple, workers blues and
    /// greens, parameter servers browns, evaluators teals, others grey), never the ERROR red.
    static QColor taskColor(const QString& taskName);

    /// Paints rows from topRow() into `rect` (the viewport's paint routine; public for the benchmark).
    void paintRows(QPainter* painter, const QRect& rect);

public Q_SLOTS:
    void setFollowMode(bool follow);
    /// Moves to the next (previous) ERROR-or-worse row after (before) the current one. False if none.
    bool nextError();
    bool previousError();
    void copySelection();
    void selectAll();

Q_SIGNALS:
    void followModeChanged(bool follow);
    void rowCountChanged(qint64 rows);
    void filterError(const QString& message);
    void filteringChanged(bool running);
    /// F8 / Shift+F8 found no error line in `direction` (+1 down, -1 up) from the current row: the shown lines
    /// have another one elsewhere (`elsewhere`), or none at all.
    void noErrorFound(int direction, bool elsewhere);
    /// F8 / Shift+F8 moved to an error line.
    void errorFound();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void flushPending();
    void updateScrollRange();
    void scrollToBottom();
    void onScrollValueChanged(int value);
    void extendFilterFrom(qint64 firstChanged);
    void startFilterWorker();
    void onFilterWorkerDone();
    void updateMetrics();
    qint64 rowAtY(int y) const;
    bool jumpToSeverity(int direction);

    LogLineStore* m_store = nullptr;
    LogFilter m_filter;
    std::unique_ptr<LogLineMatcher> m_matcher;
    bool m_filtered = false;
    std::vector<quint32> m_rows; ///< store lines that match the filter (when m_filtered)
    qint64 m_filterScannedTo = 0;
    qint64 m_shownLines = 0; ///< store lines the view knows of (unfiltered rows), updated on flush ///< lines [0,
                             ///< m_filterScannedTo) are reflected in m_rows

    QFutureWatcher<std::vector<quint32>>* m_watcher = nullptr;
    qint64 m_workerStable = 0;
    quint64 m_workerGeneration = 0;

    QTimer m_flushTimer;
    qint64 m_pendingFrom = -1;
    bool m_follow = true;
    bool m_programmaticScroll = false;

    qint64 m_cursor = -1;
    qint64 m_anchor = -1;

    int m_lineHeight = 16;
    int m_ascent = 12;
    int m_charWidth = 8; ///< the advance rounded up: the fixed columns (time, severity, task)
    qreal m_advance = 8; ///< the font's real advance: message columns
    int m_taskColumnChars = 16;
    bool m_highlighting = true;
    LogMessageHighlighter m_highlighter; ///< colours inside messages (KF6 or built-in)
};

} // namespace Trainyard
