// SPDX-License-Identifier: GPL-2.0-or-later
// Benchmark of the log view's store and painter (issue 3 goals: >= 1,000,000 lines/s appended, <= 16 bytes
// per line beyond the text, <= 16 ms to paint one screen at 10 million lines).
//
// Prints `NAME: ours X unit, baseline Y unit, ratio R`, the baseline measured in the same run:
// - append_lines: LogLineStore::append of pre-made UTF-8 lines with metadata vs. appending the same
//   bytes (and a newline) to one QByteArray;
// - memory_per_line: the store's bytes beyond the text per line vs. the 16-byte budget;
// - paint_screen_10M_lines: LogView painting one 1600x1000 screen in the middle of 10,000,000 lines vs.
//   QPainter::drawText of the same visible lines' text (already formatted) into the same QImage.

#include "loglinestore.h"
#include "logview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QScrollBar>

#include <cstdio>
#include <vector>

using namespace Trainyard;

namespace {
struct Source {
    QByteArray text;
    std::vector<qsizetype> offsets; // line i is text[offsets[i], offsets[i+1] - 1) (a '\n' follows)
    std::vector<qint64> timestamps;
};

// Lines as the sample trainer writes them, four replicas interleaved with a little clock skew.
Source makeSource(qint64 lines)
{
    Source s;
    s.text.reserve(lines * 48);
    s.offsets.reserve(size_t(lines) + 1);
    s.timestamps.reserve(size_t(lines));
    const qint64 start = 1795000000000000; // 2026-11-18, µs
    for (qint64 i = 0; i < lines; ++i) {
        s.offsets.push_back(s.text.size());
        s.text += "step ";
        s.text += QByteArray::number(i);
        s.text += ": loss ";
        s.text += QByteArray::number(1.0 / double(i % 997 + 1), 'f', 5);
        s.text += " accuracy 0.";
        s.text += QByteArray::number(i % 9973);
        s.text += '\n';
        // Replica i % 4 is up to 3 µs behind: merges happen inside the reorder window.
        s.timestamps.push_back(start + i * 10 - (i % 4));
    }
    s.offsets.push_back(s.text.size());
    return s;
}

void fill(LogLineStore& store, const Source& s, qint64 lines, const quint16* tasks)
{
    const qint64 n = qint64(s.timestamps.size());
    for (qint64 i = 0; i < lines; ++i) {
        const qint64 k = i % n;
        const qsizetype from = s.offsets[size_t(k)];
        const qsizetype len = s.offsets[size_t(k) + 1] - from - 1;
        const LogSeverity sev = (k % 1000 == 0) ? LogSeverity::Error : LogSeverity::Info;
        store.append(s.timestamps[size_t(k)] + (i / n) * n * 10, sev, tasks[k % 4], s.text.constData() + from, len);
    }
}

void print(const char* name, double ours, double baseline, const char* unit)
{
    std::printf("%s: ours %.1f %s, baseline %.1f %s, ratio %.3f\n", name, ours, unit, baseline, unit,
        baseline != 0 ? ours / baseline : 0.0);
    std::fflush(stdout);
}
} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    const qint64 appendLines = 2000000;
    const Source source = makeSource(appendLines);

    // append_lines: best of 3 runs each.
    double oursRate = 0;
    double baseRate = 0;
    for (int run = 0; run < 3; ++run) {
        {
            LogLineStore store;
            quint16 tasks[4];
            tasks[0] = store.taskId(QStringLiteral("master-replica-0"));
            for (int t = 1; t < 4; ++t)
                tasks[t] = store.taskId(QStringLiteral("worker-replica-%1").arg(t - 1));
            QElapsedTimer timer;
            timer.start();
            fill(store, source, appendLines, tasks);
            const double s = double(timer.nsecsElapsed()) / 1e9;
            oursRate = std::max(oursRate, double(appendLines) / s);
        }
        {
            QByteArray baseline;
            QElapsedTimer timer;
            timer.start();
            for (qint64 i = 0; i < appendLines; ++i) {
                const qsizetype from = source.offsets[size_t(i)];
                const qsizetype len = source.offsets[size_t(i) + 1] - from - 1;
                baseline.append(source.text.constData() + from, len);
                baseline.append('\n');
            }
            const double s = double(timer.nsecsElapsed()) / 1e9;
            baseRate = std::max(baseRate, double(appendLines) / s);
            if (baseline.size() != source.text.size())
                std::fprintf(stderr, "baseline size mismatch\n");
        }
    }
    print("append_lines", oursRate, baseRate, "lines/s");

    // 10 M lines for memory and painting.
    const qint64 bigLines = 10000000;
    LogLineStore store;
    quint16 tasks[4];
    tasks[0] = store.taskId(QStringLiteral("master-replica-0"));
    for (int t = 1; t < 4; ++t)
        tasks[t] = store.taskId(QStringLiteral("worker-replica-%1").arg(t - 1));
    fill(store, source, bigLines, tasks);
    print("memory_per_line", double(store.overheadBytes()) / double(store.size()), 16.0, "bytes");

    LogView view;
    view.resize(1600, 1000);
    view.setStore(&store);
    view.linesAppended(0);
    view.show();
    QCoreApplication::processEvents();
    while (view.rowCount() != store.size())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    view.setFollowMode(false);
    view.verticalScrollBar()->setValue(int(bigLines / 2));
    const QRect rect = view.viewport()->rect();
    QImage image(rect.size(), QImage::Format_ARGB32_Premultiplied);

    const int repeats = 50;
    double oursMs = 1e9;
    double baseMs = 1e9;
    QStringList formatted;
    for (int i = 0; i <= view.pageRows(); ++i)
        formatted << store.formatLine(view.topRow() + i);
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < repeats; ++i) {
            image.fill(Qt::white);
            QPainter painter(&image);
            painter.setFont(view.font());
            view.paintRows(&painter, rect);
        }
        oursMs = std::min(oursMs, double(timer.nsecsElapsed()) / 1e6 / repeats);

        timer.restart();
        const QFontMetrics fm(view.font());
        for (int i = 0; i < repeats; ++i) {
            image.fill(Qt::white);
            QPainter painter(&image);
            painter.setFont(view.font());
            painter.setPen(Qt::black);
            int y = fm.ascent();
            for (const QString& line : std::as_const(formatted)) {
                painter.drawText(4, y, line);
                y += fm.height();
            }
        }
        baseMs = std::min(baseMs, double(timer.nsecsElapsed()) / 1e6 / repeats);
    }
    print("paint_screen_10M_lines", oursMs, baseMs, "ms");
    return 0;
}
