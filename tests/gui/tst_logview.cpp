// SPDX-License-Identifier: GPL-2.0-or-later
// LogView: follow mode (scrolling up stops it, End resumes it), filters (task, severity, text, regex; the
// worker-thread path on a big store), next/previous error, selection and copy.

#include "loglinestore.h"
#include "logpanel.h"
#include "logview.h"
#include "translations.h"

#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace Trainyard;

class TestLogView : public QObject {
    Q_OBJECT

    static void fill(LogLineStore& store, qint64 from, qint64 count)
    {
        const quint16 master = store.taskId(QStringLiteral("master-replica-0"));
        const quint16 worker = store.taskId(QStringLiteral("worker-replica-0"));
        for (qint64 i = from; i < from + count; ++i) {
            const QByteArray text = (i % 100 == 99 ? "failure " : "step ") + QByteArray::number(i);
            store.append(1795000000000000 + i * 1000, i % 100 == 99 ? LogSeverity::Error : LogSeverity::Info,
                i % 2 ? worker : master, text.constData(), text.size());
        }
    }

    // The x ranges [start, end) of the blank gaps at least `minGap` pixels wide between inked columns of
    // `image` inside [x0, x1): where the words of a line begin and end, whatever their colours.
    static QList<QPair<int, int>> gaps(const QImage& image, int x0, int x1, int minGap)
    {
        const QRgb background = image.pixel(x1 - 1, image.height() / 2);
        QList<bool> ink;
        for (int x = x0; x < x1; ++x) {
            bool any = false;
            for (int y = 0; y < image.height() && !any; ++y) {
                const QRgb p = image.pixel(x, y);
                any = std::abs(qGray(p) - qGray(background)) > 40 || std::abs(qRed(p) - qRed(background)) > 60
                    || std::abs(qBlue(p) - qBlue(background)) > 60;
            }
            ink << any;
        }
        QList<QPair<int, int>> result;
        int first = -1;
        int start = -1;
        for (int i = 0; i < ink.size(); ++i) {
            if (ink[i]) {
                if (first >= 0 && start >= 0 && i - start >= minGap)
                    result << qMakePair(x0 + start, x0 + i);
                first = first < 0 ? i : first;
                start = -1;
            } else if (start < 0) {
                start = i;
            }
        }
        return result;
    }

private Q_SLOTS:
    void highlightedTextAdvancesAsPlainText()
    {
        // Issue 11, item 2: highlighted spans (numbers, paths, quoted strings) were drawn up to a character
        // left of where the plain text before them ended ("--epochs2", "status of2.", "traine0.1.0"). The
        // same line rendered with and without highlighting must put every word at the same place.
        LogLineStore store;
        const quint16 master = store.taskId(QStringLiteral("master-replica-0"));
        const QByteArray text = "Namespace(--epochs 2, job_dir='/tmp/fmnist_1') status of 2. "
                                "trainer 0.1.0 wrote /tmp/fmnist_1/checkpoints/ckpt-epoch-12.pt at step 3000 "
                                "(loss 0.4123, accuracy 0.8712) \"done\" 42 43 44";
        store.append(1795000000000000, LogSeverity::Info, master, text.constData(), text.size());
        LogView view;
        view.resize(2400, 200);
        view.setStore(&store);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.linesAppended(0);
        QTRY_COMPARE(view.rowCount(), 1);
        const QFontMetrics fm(view.font());
        auto render = [&](bool highlighting) {
            view.setHighlighting(highlighting);
            QImage image(view.viewport()->width(), fm.height(), QImage::Format_RGB32);
            image.fill(view.palette().color(QPalette::Base));
            QPainter painter(&image);
            view.paintRows(&painter, QRect(0, 0, image.width(), fm.height()));
            return image;
        };
        const QImage plain = render(false);
        const QImage highlighted = render(true);
        if (!qEnvironmentVariableIsEmpty("TRAINYARD_SAVE_RENDER")) {
            plain.save(qEnvironmentVariable("TRAINYARD_SAVE_RENDER") + QStringLiteral("-plain.png"));
            highlighted.save(qEnvironmentVariable("TRAINYARD_SAVE_RENDER") + QStringLiteral("-highlighted.png"));
        }
        QVERIFY(plain != highlighted); // the spans are coloured
        // From the message column on (after the time, severity and task columns).
        const int x0 = (23 + 2 + 9 + 2 + 16 + 2) * fm.horizontalAdvance(QLatin1Char('M'))
            - fm.horizontalAdvance(QLatin1Char('M'));
        // Blanks between words (a space's advance, less a pixel of antialiasing), not the narrow ones inside
        // or between letters, which depend on a glyph's colour after antialiasing.
        const int minGap = std::max(4, fm.horizontalAdvance(QLatin1Char(' ')) * 3 / 4);
        const QList<QPair<int, int>> plainGaps = gaps(plain, x0, plain.width(), minGap);
        const QList<QPair<int, int>> highlightedGaps = gaps(highlighted, x0, highlighted.width(), minGap);
        QVERIFY2(plainGaps.size() > 15, qPrintable(QString::number(plainGaps.size())));
        auto show = [](const QList<QPair<int, int>>& list) {
            QStringList parts;
            for (const auto& g : list)
                parts << QStringLiteral("%1-%2").arg(g.first).arg(g.second);
            return parts.join(QLatin1Char(' '));
        };
        QVERIFY2(highlightedGaps.size() == plainGaps.size(),
            qPrintable(QStringLiteral("plain: ") + show(plainGaps) + QStringLiteral("\nhighlighted: ")
                + show(highlightedGaps)));
        for (int i = 0; i < plainGaps.size(); ++i) {
            QVERIFY2(std::abs(highlightedGaps[i].first - plainGaps[i].first) <= 1
                    && std::abs(highlightedGaps[i].second - plainGaps[i].second) <= 1,
                qPrintable(QStringLiteral("gap %1: plain [%2, %3), highlighted [%4, %5)")
                               .arg(i)
                               .arg(plainGaps[i].first)
                               .arg(plainGaps[i].second)
                               .arg(highlightedGaps[i].first)
                               .arg(highlightedGaps[i].second)));
        }
    }

    void matchDoesNotCoverTheLineAbove()
    {
        // Issue 27, item 15: a filter match's background covered the underscore of the line above (rows were
        // painted top down, and an underscore reaches below its row). Row 0's underscores stand above row 1's
        // second match; every pixel of ink that row 0 alone puts below its row must still be there with row 1.
        const QByteArray above = "needle ______________ above";
        const QByteArray below = "needle needle needle below";
        LogLineStore alone;
        LogLineStore both;
        for (LogLineStore* store : { &alone, &both }) {
            const quint16 master = store->taskId(QStringLiteral("master-replica-0"));
            store->append(1795000000000000, LogSeverity::Info, master, above.constData(), above.size());
            if (store == &both)
                store->append(1795000001000000, LogSeverity::Info, master, below.constData(), below.size());
        }
        LogFilter filter;
        filter.text = QStringLiteral("needle");
        auto render = [&](LogLineStore& store, int rows) {
            LogView view;
            view.resize(1600, 200);
            view.setStore(&store);
            view.linesAppended(0);
            view.setFilter(filter);
            if (!QTest::qWaitFor([&] { return view.rowCount() == rows; }))
                return QImage();
            const int height = 3 * QFontMetrics(view.font()).height();
            QImage image(view.viewport()->width(), height, QImage::Format_RGB32);
            image.fill(view.palette().color(QPalette::Base));
            QPainter painter(&image);
            view.paintRows(&painter, QRect(0, 0, image.width(), height));
            return image;
        };
        const QImage one = render(alone, 1);
        const QImage two = render(both, 2);
        QVERIFY(!one.isNull() && !two.isNull());
        LogView probe;
        const QFontMetrics fm(probe.font());
        const int rowHeight = int(std::ceil(QFontMetricsF(probe.font()).height()));
        const QColor base = probe.palette().color(QPalette::Base);
        int ink = 0, covered = 0;
        for (int y = rowHeight; y < rowHeight + 3; ++y) {
            for (int x = 0; x < one.width(); ++x) {
                if (QColor(one.pixel(x, y)) == base)
                    continue; // no ink of row 0 here
                ++ink;
                // Covered: the match's plain yellow where row 0 alone has ink (drawn over the yellow, the ink
                // blends with it instead).
                if (QColor(two.pixel(x, y)) == QColor(0xf6, 0xd3, 0x2d))
                    ++covered;
            }
        }
        qInfo() << "row 0's ink below its row:" << ink << "pixels;" << covered << "covered by row 1";
        QCOMPARE(covered, 0);
    }

    void stableTaskColours()
    {
        // Issue 11, item 8: a replica's colour comes from its role and index (it changed from job to job with
        // the order tasks first appeared) and is never the ERROR red.
        const QColor error(0xc0, 0x1c, 0x28);
        QSet<QRgb> workers;
        for (int i = 0; i < 4; ++i) {
            const QColor c = LogView::taskColor(QStringLiteral("worker-replica-%1").arg(i));
            QCOMPARE(c, LogView::taskColor(QStringLiteral("worker-replica-%1").arg(i)));
            QVERIFY(c != error);
            workers.insert(c.rgb());
        }
        QCOMPARE(workers.size(), 4);
        for (const char* task : { "master-replica-0", "ps-replica-0", "evaluator-replica-0", "service" })
            QVERIFY(LogView::taskColor(QLatin1String(task)) != error);
        QVERIFY(LogView::taskColor(QStringLiteral("master-replica-0"))
            != LogView::taskColor(QStringLiteral("worker-replica-0")));
    }

    void followMode()
    {
        LogLineStore store;
        LogView view;
        view.resize(800, 400);
        view.setStore(&store);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.followMode());

        fill(store, 0, 1000);
        view.linesAppended(0);
        QTRY_COMPARE(view.rowCount(), 1000);
        QCOMPARE(view.verticalScrollBar()->value(), view.verticalScrollBar()->maximum());
        QCOMPARE(view.topRow() + view.pageRows(), 1000);

        // Scrolling up (a user action) stops following: new lines do not move the view.
        QSignalSpy followSpy(&view, &LogView::followModeChanged);
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_PageUp);
        QTest::keyClick(&view, Qt::Key_PageUp);
        QVERIFY(!view.followMode());
        QCOMPARE(followSpy.count(), 1);
        const qint64 top = view.topRow();
        fill(store, 1000, 500);
        view.linesAppended(1000);
        QTRY_COMPARE(view.rowCount(), 1500);
        QCOMPARE(view.topRow(), top);

        // End resumes following; then new lines scroll into view.
        QTest::keyClick(&view, Qt::Key_End);
        QVERIFY(view.followMode());
        QCOMPARE(view.topRow() + view.pageRows(), 1500);
        fill(store, 1500, 100);
        view.linesAppended(1500);
        QTRY_COMPARE(view.rowCount(), 1600);
        QCOMPARE(view.topRow() + view.pageRows(), 1600);

        // Scrolling to the bottom with the scroll bar also resumes it.
        view.verticalScrollBar()->setValue(10);
        QVERIFY(!view.followMode());
        view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
        QVERIFY(view.followMode());
    }

    void filters_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("regex");
        QTest::addColumn<int>("minSeverity");
        QTest::addColumn<bool>("onlyMaster");
        QTest::addColumn<int>("rows");
        QTest::addRow("none") << QString() << false << 0 << false << 1000;
        QTest::addRow("severity") << QString() << false << int(LogSeverity::Error) << false << 10;
        QTest::addRow("task") << QString() << false << 0 << true << 500;
        QTest::addRow("text") << QStringLiteral("FAILURE") << false << 0 << false << 10;
        QTest::addRow("regex") << QStringLiteral("^step 1\\d$") << true << 0 << false << 10;
        QTest::addRow("task and text") << QStringLiteral("step 1") << false << 0 << true << 55;
    }
    void filters()
    {
        QFETCH(QString, text);
        QFETCH(bool, regex);
        QFETCH(int, minSeverity);
        QFETCH(bool, onlyMaster);
        QFETCH(int, rows);
        LogLineStore store;
        LogView view;
        view.resize(800, 400);
        view.setStore(&store);
        fill(store, 0, 1000);
        view.linesAppended(0);
        QTRY_COMPARE(view.rowCount(), 1000);
        LogFilter filter;
        filter.text = text;
        filter.regex = regex;
        filter.minSeverity = LogSeverity(minSeverity);
        if (onlyMaster)
            filter.taskIds << store.taskId(QStringLiteral("master-replica-0"));
        view.setFilter(filter);
        QCOMPARE(view.rowCount(), rows);
        // Every shown row satisfies the filter and rows are in store order.
        const LogLineMatcher matcher(filter);
        for (qint64 r = 0; r < view.rowCount(); ++r) {
            const qint64 line = view.lineAt(r);
            QVERIFY(matcher.matches(store.record(line)));
            if (r > 0)
                QVERIFY(view.lineAt(r - 1) < line);
        }
        // New lines are filtered incrementally.
        fill(store, 1000, 1000);
        view.linesAppended(1000);
        QTRY_COMPARE(
            view.rowCount(), filter.isNull() ? 2000 : qint64(0) + [&] {
                qint64 n = 0;
                for (qint64 i = 0; i < store.size(); ++i)
                    n += matcher.matches(store.record(i));
                return n;
            }());
    }

    void bigStoreFiltersInWorker()
    {
        LogLineStore store;
        LogView view;
        view.setStore(&store);
        fill(store, 0, 300000);
        view.linesAppended(0);
        QTRY_COMPARE(view.rowCount(), 300000);
        QSignalSpy filtering(&view, &LogView::filteringChanged);
        LogFilter filter;
        filter.minSeverity = LogSeverity::Error;
        view.setFilter(filter);
        QVERIFY(view.isFiltering());
        // Lines arriving while the worker runs are included when it finishes.
        fill(store, 300000, 1000);
        view.linesAppended(300000);
        QTRY_VERIFY(!view.isFiltering());
        QTRY_COMPARE(view.rowCount(), 3010);
        QCOMPARE(filtering.count(), 2);
        for (qint64 r = 0; r < view.rowCount(); ++r)
            QCOMPARE(store.severity(view.lineAt(r)), LogSeverity::Error);
    }

    void nextAndPreviousError()
    {
        LogLineStore store;
        LogView view;
        view.resize(800, 300);
        view.setStore(&store);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        fill(store, 0, 1000);
        view.linesAppended(0);
        QTRY_COMPARE(view.rowCount(), 1000);
        view.setCurrentRow(0);
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_F8);
        QCOMPARE(view.currentRow(), 99);
        QTest::keyClick(&view, Qt::Key_F8);
        QCOMPARE(view.currentRow(), 199);
        QTest::keyClick(&view, Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(view.currentRow(), 99);
        QVERIFY(!view.previousError());
        QCOMPARE(view.currentRow(), 99);
        QVERIFY(!view.followMode());
    }

    void f8SaysWhenThereIsNoError()
    {
        // Issue 27, item 15: F8 in a log without errors did nothing and said nothing.
        LogPanel panel(nullptr, QStringLiteral("no_errors"));
        panel.resize(900, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const quint16 master = panel.store()->taskId(QStringLiteral("master-replica-0"));
        for (int i = 0; i < 50; ++i) {
            const QByteArray text = "epoch " + QByteArray::number(i) + " loss 0.5";
            panel.store()->append(
                1795000000000000 + i * 1000, LogSeverity::Info, master, text.constData(), text.size());
        }
        panel.view()->linesAppended(0);
        QTRY_COMPARE(panel.view()->rowCount(), 50);
        // Issue 46 item 20: the line count touched the window's right edge. (English plurals come from the
        // console's English catalogue, as the console installs it.)
        Translations::install(qApp, QStringLiteral("en"));
        panel.store()->append(1795000000050000, LogSeverity::Info, master, "one more", 8);
        panel.view()->linesAppended(50);
        QTRY_COMPARE(panel.countLabel()->text(), QStringLiteral("51 lines"));
        const int right = panel.countLabel()->mapTo(&panel, panel.countLabel()->rect().topRight()).x();
        QVERIFY2(right <= panel.width() - 6, qPrintable(QStringLiteral("%1 of %2").arg(right).arg(panel.width())));
        QSignalSpy none(panel.view(), &LogView::noErrorFound);
        panel.view()->setCurrentRow(10);
        panel.view()->setFocus();
        QTest::keyClick(panel.view(), Qt::Key_F8);
        QCOMPARE(panel.view()->currentRow(), 10);
        QCOMPARE(none.count(), 1);
        QVERIFY(panel.notice()->isVisible());
        QCOMPARE(panel.notice()->text(), QStringLiteral("No error in this log."));
        // With an error above the cursor, F8 says there is none below; Shift+F8 goes there and the notice goes.
        const QByteArray error = "Traceback (most recent call last):";
        panel.store()->append(1795000000060000, LogSeverity::Error, master, error.constData(), error.size());
        panel.view()->linesAppended(51);
        QTRY_COMPARE(panel.view()->rowCount(), 52);
        panel.view()->setCurrentRow(52 - 1);
        panel.view()->setCurrentRow(20);
        QTest::keyClick(panel.view(), Qt::Key_F8);
        QTRY_COMPARE(panel.view()->currentRow(), 51);
        QVERIFY(!panel.notice()->isVisible());
        QTest::keyClick(panel.view(), Qt::Key_F8);
        QCOMPARE(panel.notice()->text(), QStringLiteral("No error below this line."));
        QVERIFY(panel.notice()->isVisible());
        QTest::keyClick(panel.view(), Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(panel.notice()->text(), QStringLiteral("No error above this line."));
    }

    void previousErrorInAShortLog()
    {
        // Shift+F8 with no current row starts below the last visible row; in a log shorter than the view that
        // row is past the end, and the search found nothing.
        LogLineStore store;
        LogView view;
        view.resize(800, 400);
        view.setStore(&store);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        fill(store, 0, 5);
        const quint16 master = store.taskId(QStringLiteral("master-replica-0"));
        const QByteArray error = "ValueError: bad shard";
        store.append(1795000000006000, LogSeverity::Error, master, error.constData(), error.size());
        store.append(1795000000007000, LogSeverity::Info, master, "after", 5);
        view.linesAppended(0);
        QTRY_COMPARE(view.rowCount(), 7);
        QVERIFY(view.pageRows() > 7);
        QCOMPARE(view.currentRow(), -1);
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(view.currentRow(), 5);
    }

    void selectAndCopy()
    {
        LogLineStore store;
        LogView view;
        view.resize(800, 300);
        view.setStore(&store);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        fill(store, 0, 10);
        view.linesAppended(0);
        QTRY_COMPARE(view.rowCount(), 10);
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_Home);
        QTest::keyClick(&view, Qt::Key_Down, Qt::ShiftModifier);
        QTest::keyClick(&view, Qt::Key_Down, Qt::ShiftModifier);
        QCOMPARE(view.selection(), std::make_pair(qint64(0), qint64(2)));
        QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
        const QStringList lines = QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.at(0).endsWith(QStringLiteral("INFO  master-replica-0  step 0")));
        QVERIFY(lines.at(2).endsWith(QStringLiteral("step 2")));
    }
};

QTEST_MAIN(TestLogView)
#include "tst_logview.moc"
