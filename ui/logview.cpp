// SPDX-License-Identifier: GPL-2.0-or-later
#include "logview.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {
// Below this many lines a filter change is computed at once on the GUI thread (a few ms).
constexpr qint64 SyncFilterLimit = 200000;
constexpr int CoalesceMs = 40;
constexpr int TimestampChars = 23; // "yyyy-MM-dd HH:mm:ss.zzz"
constexpr int SeverityChars = 9; // "EMERGENCY"
constexpr int GapChars = 2;
constexpr int Margin = 4;

QColor severityColor(LogSeverity severity, const QPalette& palette)
{
    switch (severity) {
    case LogSeverity::Debug:
        return QColor(0x77, 0x76, 0x7b);
    case LogSeverity::Info:
        return QColor(0x1a, 0x5f, 0xb4);
    case LogSeverity::Notice:
        return QColor(0x26, 0x80, 0x7a);
    case LogSeverity::Warning:
        return QColor(0xb3, 0x5c, 0x00);
    case LogSeverity::Error:
    case LogSeverity::Critical:
    case LogSeverity::Alert:
    case LogSeverity::Emergency:
        return QColor(0xc0, 0x1c, 0x28);
    case LogSeverity::Default:
        break;
    }
    return palette.color(QPalette::Text);
}

} // namespace

QColor LogView::taskColor(const QString& taskName)
{
    // A replica keeps its colour from job to job: the role picks a hue family, the index a shade. No red
    // (the ERROR colour) and no orange (WARNING).
    static const QRegularExpression task(QStringLiteral("^(master|chief|worker|ps|evaluator)-replica-(\\d+)$"));
    const QRegularExpressionMatch m = task.match(taskName);
    if (!m.hasMatch())
        return QColor(0x5e, 0x5c, 0x64); // "service" and anything else: grey
    const QString role = m.captured(1);
    const int index = m.captured(2).toInt();
    if (role == QLatin1String("master") || role == QLatin1String("chief"))
        return QColor(0x61, 0x35, 0x83); // purple
    static const QColor workers[] = { QColor(0x1c, 0x71, 0xd8), QColor(0x26, 0x80, 0x7a), QColor(0x2a, 0x5a, 0xa8),
        QColor(0x1e, 0x8a, 0x56), QColor(0x3d, 0x5a, 0xfe), QColor(0x0f, 0x6e, 0x6e) };
    static const QColor servers[] = { QColor(0x86, 0x5e, 0x3c), QColor(0x6d, 0x4c, 0x2f), QColor(0x98, 0x6a, 0x44) };
    static const QColor evaluators[] = { QColor(0x00, 0x7c, 0x91), QColor(0x00, 0x5f, 0x70) };
    if (role == QLatin1String("worker"))
        return workers[index % std::size(workers)];
    if (role == QLatin1String("ps"))
        return servers[index % std::size(servers)];
    return evaluators[index % std::size(evaluators)];
}

namespace {

std::vector<quint32> scanLines(const LogLineStore::Snapshot& snapshot, const LogFilter& filter, qint64 count)
{
    std::vector<quint32> rows;
    const LogLineMatcher matcher(filter);
    for (qint64 line = 0; line < count; ++line) {
        if (matcher.matches(snapshot.record(line)))
            rows.push_back(quint32(line));
    }
    return rows;
}
} // namespace

LogView::LogView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(font);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setAutoFillBackground(true);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setCursor(Qt::IBeamCursor);
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(CoalesceMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &LogView::flushPending);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &LogView::onScrollValueChanged);
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    updateMetrics();
}

LogView::~LogView()
{
    if (m_watcher)
        m_watcher->waitForFinished();
}

void LogView::setStore(LogLineStore* store)
{
    m_store = store;
    storeCleared();
}

void LogView::storeCleared()
{
    if (m_watcher) {
        m_watcher->disconnect(this);
        m_watcher->waitForFinished();
        m_watcher->deleteLater();
        m_watcher = nullptr;
        emit filteringChanged(false);
    }
    m_rows.clear();
    m_filterScannedTo = 0;
    m_pendingFrom = -1;
    m_shownLines = m_store ? m_store->size() : 0;
    m_cursor = -1;
    m_anchor = -1;
    updateScrollRange();
    viewport()->update();
    emit rowCountChanged(rowCount());
}

void LogView::linesAppended(qint64 firstChanged)
{
    m_pendingFrom = m_pendingFrom < 0 ? firstChanged : std::min(m_pendingFrom, firstChanged);
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void LogView::flushPending()
{
    if (!m_store)
        return;
    const qint64 from = m_pendingFrom;
    m_pendingFrom = -1;
    m_shownLines = m_store->size();
    if (m_filtered && !m_watcher && from >= 0)
        extendFilterFrom(std::min(from, m_filterScannedTo));
    // Task names may have grown: the task column fits the longest one (within reason).
    int longest = 16;
    for (const QString& name : m_store->taskNames())
        longest = std::max(longest, int(name.size()));
    m_taskColumnChars = std::min(longest, 40);
    updateScrollRange();
    viewport()->update();
    emit rowCountChanged(rowCount());
}

void LogView::extendFilterFrom(qint64 firstChanged)
{
    // Lines at or after firstChanged may have moved (reorder window): drop their rows and rescan.
    while (!m_rows.empty() && qint64(m_rows.back()) >= firstChanged)
        m_rows.pop_back();
    const qint64 size = m_store->size();
    for (qint64 line = firstChanged; line < size; ++line) {
        if (m_matcher->matches(m_store->record(line)))
            m_rows.push_back(quint32(line));
    }
    m_filterScannedTo = size;
}

void LogView::setFilter(const LogFilter& filter)
{
    if (filter == m_filter && (m_filtered == !filter.isNull()))
        return;
    m_filter = filter;
    if (m_watcher) {
        m_watcher->disconnect(this);
        m_watcher->deleteLater(); // the worker finishes on its own; its result is dropped
        m_watcher = nullptr;
    }
    m_filtered = !filter.isNull();
    m_shownLines = m_store ? m_store->size() : 0;
    m_rows.clear();
    m_filterScannedTo = 0;
    m_cursor = -1;
    m_anchor = -1;
    if (m_filtered) {
        m_matcher = std::make_unique<LogLineMatcher>(filter);
        if (!m_matcher->isValid())
            emit filterError(m_matcher->errorString());
        if (m_store && m_store->size() > SyncFilterLimit) {
            startFilterWorker();
        } else if (m_store) {
            extendFilterFrom(0);
        }
    } else {
        m_matcher.reset();
    }
    updateScrollRange();
    if (m_follow)
        scrollToBottom();
    viewport()->update();
    emit rowCountChanged(rowCount());
}

void LogView::startFilterWorker()
{
    LogLineStore::Snapshot snapshot = m_store->snapshot();
    m_workerStable = snapshot.stableCount;
    m_workerGeneration = m_store->generation();
    m_watcher = new QFutureWatcher<std::vector<quint32>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &LogView::onFilterWorkerDone);
    const LogFilter filter = m_filter;
    const qint64 count = m_workerStable;
    m_watcher->setFuture(QtConcurrent::run(
        [snapshot = std::move(snapshot), filter, count]() { return scanLines(snapshot, filter, count); }));
    emit filteringChanged(true);
}

void LogView::onFilterWorkerDone()
{
    QFutureWatcher<std::vector<quint32>>* watcher = m_watcher;
    m_watcher = nullptr;
    watcher->deleteLater();
    if (!m_store || m_store->generation() != m_workerGeneration) {
        emit filteringChanged(false);
        return;
    }
    m_rows = watcher->result();
    m_filterScannedTo = m_workerStable;
    extendFilterFrom(m_workerStable);
    emit filteringChanged(false);
    updateScrollRange();
    if (m_follow)
        scrollToBottom();
    viewport()->update();
    emit rowCountChanged(rowCount());
}

qint64 LogView::rowCount() const
{
    if (!m_store)
        return 0;
    return m_filtered ? qint64(m_rows.size()) : m_shownLines;
}

qint64 LogView::lineAt(qint64 row) const
{
    return m_filtered ? qint64(m_rows[size_t(row)]) : row;
}

qint64 LogView::topRow() const
{
    return verticalScrollBar()->value();
}

void LogView::setHighlighting(bool on)
{
    if (m_highlighting == on)
        return;
    m_highlighting = on;
    viewport()->update();
}

int LogView::pageRows() const
{
    return std::max(1, viewport()->height() / m_lineHeight);
}

void LogView::updateMetrics()
{
    const QFontMetricsF fm(font());
    m_lineHeight = int(std::ceil(fm.height()));
    m_ascent = int(std::ceil(fm.ascent()));
    // Rounded up, so the fixed columns (time, severity, task) never overlap when the advance is fractional;
    // messages are laid out by QTextLayout, not by this width.
    m_advance = std::max<qreal>(1, fm.horizontalAdvance(QLatin1Char('M')));
    m_charWidth = std::max(1, int(std::ceil(m_advance)));
}

void LogView::updateScrollRange()
{
    const qint64 rows = rowCount();
    const qint64 maxTop = std::max<qint64>(0, rows - pageRows());
    m_programmaticScroll = true;
    verticalScrollBar()->setRange(0, int(std::min<qint64>(maxTop, std::numeric_limits<int>::max())));
    verticalScrollBar()->setPageStep(pageRows());
    const int maxChars = TimestampChars + SeverityChars + m_taskColumnChars + 3 * GapChars
        + (m_store ? std::min(m_store->maxLineLength(), 100000) : 0);
    horizontalScrollBar()->setRange(0, std::max(0, maxChars * m_charWidth + 2 * Margin - viewport()->width()));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setSingleStep(m_charWidth * 4);
    if (m_follow)
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    m_programmaticScroll = false;
}

void LogView::scrollToBottom()
{
    m_programmaticScroll = true;
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    m_programmaticScroll = false;
}

void LogView::onScrollValueChanged(int value)
{
    viewport()->update();
    if (m_programmaticScroll)
        return;
    const bool atBottom = value >= verticalScrollBar()->maximum();
    if (atBottom != m_follow) {
        m_follow = atBottom;
        emit followModeChanged(m_follow);
    }
}

void LogView::setFollowMode(bool follow)
{
    if (follow)
        scrollToBottom();
    if (follow != m_follow) {
        m_follow = follow;
        emit followModeChanged(m_follow);
    }
}

void LogView::setCurrentRow(qint64 row, bool extendSelection)
{
    const qint64 rows = rowCount();
    if (rows == 0)
        return;
    row = std::clamp<qint64>(row, 0, rows - 1);
    m_cursor = row;
    if (!extendSelection || m_anchor < 0)
        m_anchor = row;
    // Keep the cursor in view; moving the cursor is a user action, so follow mode tracks the result.
    const qint64 top = topRow();
    const int page = pageRows();
    if (row < top)
        verticalScrollBar()->setValue(int(row));
    else if (row >= top + page)
        verticalScrollBar()->setValue(int(row - page + 1));
    viewport()->update();
}

std::pair<qint64, qint64> LogView::selection() const
{
    if (m_cursor < 0 || m_anchor < 0)
        return { -1, -1 };
    return { std::min(m_cursor, m_anchor), std::max(m_cursor, m_anchor) };
}

QString LogView::selectedText() const
{
    const auto [first, last] = selection();
    if (first < 0 || !m_store)
        return {};
    QString out;
    for (qint64 row = first; row <= last && row < rowCount(); ++row) {
        out += m_store->formatLine(lineAt(row));
        out += QLatin1Char('\n');
    }
    return out;
}

void LogView::copySelection()
{
    const QString text = selectedText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void LogView::selectAll()
{
    const qint64 rows = rowCount();
    if (rows == 0)
        return;
    m_anchor = 0;
    m_cursor = rows - 1;
    viewport()->update();
}

bool LogView::jumpToSeverity(int direction)
{
    const qint64 rows = rowCount();
    if (rows == 0 || !m_store)
        return false;
    // Without a current row, from just above the first visible row down, or from just below the last one up
    // (clamped: a short log's last page ends before topRow() + pageRows()).
    const qint64 start = m_cursor >= 0 ? m_cursor
        : direction > 0                ? std::max<qint64>(-1, topRow() - 1)
                                       : std::min(rows, topRow() + pageRows());
    for (qint64 row = start + direction; row >= 0 && row < rows; row += direction) {
        if (m_store->severity(lineAt(row)) >= LogSeverity::Error) {
            setCurrentRow(row);
            // Centre it, so the context before an error is visible too.
            verticalScrollBar()->setValue(int(std::max<qint64>(0, row - pageRows() / 2)));
            emit errorFound();
            return true;
        }
    }
    // Nothing that way: say so (F8 in a log without errors did nothing and said nothing), and whether the lines
    // shown hold an error the other way (only the rows not just searched: from the start row back the other way).
    bool elsewhere = false;
    for (qint64 r = std::clamp<qint64>(start, 0, rows - 1); r >= 0 && r < rows && !elsewhere; r -= direction)
        elsewhere = m_store->severity(lineAt(r)) >= LogSeverity::Error;
    emit noErrorFound(direction, elsewhere);
    return false;
}

bool LogView::nextError()
{
    return jumpToSeverity(+1);
}

bool LogView::previousError()
{
    return jumpToSeverity(-1);
}

qint64 LogView::rowAtY(int y) const
{
    return topRow() + std::max(0, y) / m_lineHeight;
}

void LogView::paintEvent(QPaintEvent* event)
{
    QPainter painter(viewport());
    paintRows(&painter, event->rect());
}

void LogView::paintRows(QPainter* painter, const QRect& rect)
{
    if (!m_store)
        return;
    const QPalette pal = palette();
    const qint64 rows = rowCount();
    const qint64 top = topRow();
    const int firstVisible = rect.top() / m_lineHeight;
    const int lastVisible = rect.bottom() / m_lineHeight;
    const int x0 = Margin - horizontalScrollBar()->value();
    const int xSeverity = x0 + (TimestampChars + GapChars) * m_charWidth;
    const int xTask = xSeverity + (SeverityChars + GapChars) * m_charWidth;
    const int xMessage = xTask + (m_taskColumnChars + GapChars) * m_charWidth;
    const int width = viewport()->width();
    const auto [selFirst, selLast] = selection();
    const QColor timeColor(0x77, 0x76, 0x7b);
    const QColor errorBackground(0xfc, 0xe8, 0xe8);
    const QColor warningBackground(0xfd, 0xf3, 0xe1);
    const QColor matchBackground(0xf6, 0xd3, 0x2d);
    // Only the part of a message that can be on screen is decoded (a line may be megabytes long). Columns of
    // the message are the font's real advance, as the layout below draws them.
    const int firstChar = std::max(0, int(std::floor(-xMessage / m_advance)));
    const int visibleChars = int(width / m_advance) + 2;

    QFont bold = font();
    bold.setBold(true);
    const QFont normal = font();

    // Bottom up: a row's backgrounds (selection, severity, filter matches) are painted before the text of the
    // row above it, whose descenders (an underscore) may reach a pixel into this row; top down, a match's
    // background covered the underscore of the line above.
    for (int i = lastVisible; i >= firstVisible; --i) {
        const qint64 row = top + i;
        if (row >= rows)
            continue;
        const qint64 line = lineAt(row);
        const LineRecord& record = m_store->record(line);
        const LogSeverity severity = record.severity();
        const int y = i * m_lineHeight;
        const QRect rowRect(0, y, width, m_lineHeight);
        const bool selected = row >= selFirst && row <= selLast && selFirst >= 0;
        if (selected) {
            painter->fillRect(rowRect, pal.color(QPalette::Highlight));
        } else if (severity >= LogSeverity::Error) {
            painter->fillRect(rowRect, errorBackground);
        } else if (severity == LogSeverity::Warning) {
            painter->fillRect(rowRect, warningBackground);
        }
        const QColor text = selected ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::Text);
        const int baseline = y + m_ascent;

        const QDateTime time = QDateTime::fromMSecsSinceEpoch((m_store->timestampUs(line)) / 1000);
        painter->setFont(normal);
        painter->setPen(selected ? text : timeColor);
        painter->drawText(x0, baseline, time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")));

        painter->setFont(bold);
        painter->setPen(selected ? text : severityColor(severity, pal));
        painter->drawText(xSeverity, baseline, logSeverityName(severity));

        painter->setFont(normal);
        const quint16 task = record.taskId();
        QString taskName = m_store->taskName(task);
        painter->setPen(selected ? text : taskColor(taskName));
        if (taskName.size() > m_taskColumnChars)
            taskName = taskName.left(m_taskColumnChars - 1) + QChar(0x2026);
        painter->drawText(xTask, baseline, taskName);

        const QByteArrayView bytes = m_store->text(line);
        // UTF-8 is at most 4 bytes a character: decoding this many bytes covers every visible column.
        const qsizetype decodeBytes = std::min<qsizetype>(bytes.size(), qsizetype(firstChar + visibleChars) * 4 + 4);
        const QString message = QString::fromUtf8(bytes.first(decodeBytes));
        if (firstChar >= message.size())
            continue;
        const QString visible = message.mid(firstChar, visibleChars);
        const qreal xVisible = xMessage + firstChar * m_advance;
        QColor messageColor = text;
        if (!selected && severity >= LogSeverity::Error)
            messageColor = severityColor(severity, pal);
        else if (!selected && severity == LogSeverity::Debug)
            messageColor = severityColor(severity, pal);
        // One layout for the whole visible run, highlighted spans as formats of it: the highlighted text
        // advances exactly as the plain text does. Drawing each span at column × character width put
        // spans up to a character left of where the text before them ended (fractional advances, fonts
        // that are not quite monospace).
        QTextLayout layout(visible, font(), viewport());
        QList<QTextLayout::FormatRange> formats;
        if (!selected && m_highlighting) {
            for (const LogMessageHighlighter::Span& span : m_highlighter.spans(visible)) {
                QTextLayout::FormatRange range;
                range.start = span.start;
                range.length = span.length;
                range.format.setForeground(span.color);
                formats << range;
            }
        }
        layout.setFormats(formats);
        QTextOption option;
        option.setWrapMode(QTextOption::NoWrap);
        layout.setTextOption(option);
        layout.beginLayout();
        QTextLine textLine = layout.createLine();
        layout.endLayout();
        if (!textLine.isValid())
            continue;
        if (!selected && !m_filter.text.isEmpty() && m_matcher && m_matcher->isValid()) {
            // Mark filter matches inside the visible part, at the layout's own positions.
            auto mark = [&](qsizetype from, qsizetype length) {
                const qreal left = textLine.cursorToX(int(from));
                const qreal right = textLine.cursorToX(int(from + length));
                painter->fillRect(QRectF(xVisible + left, y, right - left, m_lineHeight), matchBackground);
            };
            if (m_filter.regex) {
                QRegularExpression re(m_filter.text, QRegularExpression::CaseInsensitiveOption);
                auto it = re.globalMatch(visible);
                while (it.hasNext()) {
                    const auto m = it.next();
                    if (m.capturedLength() > 0)
                        mark(m.capturedStart(), m.capturedLength());
                }
            } else {
                qsizetype from = 0;
                while ((from = visible.indexOf(m_filter.text, from, Qt::CaseInsensitive)) >= 0) {
                    mark(from, m_filter.text.size());
                    from += m_filter.text.size();
                }
            }
        }
        painter->setPen(messageColor);
        // QTextLine::draw puts the line's top at the point given; the row's baseline is y + m_ascent.
        textLine.setPosition(QPointF(0, 0));
        textLine.draw(painter, QPointF(xVisible, baseline - textLine.ascent()));
    }
    if (m_cursor >= top && m_cursor < top + pageRows() + 1 && hasFocus()) {
        painter->setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DotLine));
        painter->drawRect(0, int(m_cursor - top) * m_lineHeight, width - 1, m_lineHeight - 1);
    }
}

void LogView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollRange();
}

void LogView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange) {
        updateMetrics();
        updateScrollRange();
    }
    QAbstractScrollArea::changeEvent(event);
}

void LogView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        return;
    }
    if (event->matches(QKeySequence::SelectAll)) {
        selectAll();
        return;
    }
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    const qint64 cursor = m_cursor >= 0 ? m_cursor : topRow();
    switch (event->key()) {
    case Qt::Key_F8:
        if (shift)
            previousError();
        else
            nextError();
        return;
    case Qt::Key_Up:
        setCurrentRow(cursor - 1, shift);
        return;
    case Qt::Key_Down:
        setCurrentRow(cursor + 1, shift);
        return;
    case Qt::Key_PageUp:
        setCurrentRow(cursor - pageRows(), shift);
        return;
    case Qt::Key_PageDown:
        setCurrentRow(cursor + pageRows(), shift);
        return;
    case Qt::Key_Home:
        setCurrentRow(0, shift);
        return;
    case Qt::Key_End:
        setCurrentRow(rowCount() - 1, shift);
        setFollowMode(true);
        return;
    case Qt::Key_Escape:
        m_anchor = m_cursor;
        viewport()->update();
        return;
    default:
        break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void LogView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        const qint64 row = rowAtY(int(event->position().y()));
        if (row < rowCount())
            setCurrentRow(row, event->modifiers() & Qt::ShiftModifier);
        return;
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void LogView::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton) {
        setCurrentRow(rowAtY(int(event->position().y())), true);
        return;
    }
    QAbstractScrollArea::mouseMoveEvent(event);
}

} // namespace Trainyard
