// SPDX-License-Identifier: GPL-2.0-or-later
// Benchmark of the log view's store and painter (issue 3 goals: >= 1,000,000 lines/s appended, <= 16 bytes
// per line beyond the text, <= 16 ms to paint one screen at 10 million lines).
//
// Prints `NAME: ours X unit, baseline Y unit, ratio R` (ratio = ours / baseline) with X and Y the medians of
// BENCH_RUNS (default 7, at least 5) runs after a warm-up, ours and the baseline alternating, a `_detail` line with
// min / median / max, and a `goal:` line per goal; CPU time of the benchmark thread (benchreport.h says why):
// - append_lines: LogLineStore::append of pre-made UTF-8 lines with metadata vs. appending the same
//   bytes (and a newline) to one QByteArray;
// - memory_per_line: the store's bytes beyond the text per line (LogLineStore::overheadBytes(): the packed index,
//   the reorder window, chunk-end gaps) at 10,000,000 lines vs. the 16-byte budget;
// - paint_screen_10M_lines: LogView painting one 1600x1000 screen in the middle of 10,000,000 lines vs.
//   QPainter::drawText of the same visible lines' text (already formatted) into the same QImage.

#include "benchreport.h"
#include "loglinestore.h"
#include "logview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QScrollBar>

#include <cstdio>
#include <memory>
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

constexpr int Warmups = 1;

LogLineStore* newStore(quint16* tasks)
{
    auto* store = new LogLineStore;
    tasks[0] = store->taskId(QStringLiteral("master-replica-0"));
    for (int t = 1; t < 4; ++t)
        tasks[t] = store->taskId(QStringLiteral("worker-replica-%1").arg(t - 1));
    return store;
}
} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    const qint64 appendLines = 2000000;
    const Source source = makeSource(appendLines);

    BenchReport::printHost();
    const int runs = BenchReport::runs();
    std::vector<BenchReport::Goal> goals;

    // append_lines: lines per CPU-second, ours vs appending the same bytes to one QByteArray.
    const BenchReport::Samples rates = BenchReport::alternate(
        Warmups, runs,
        [&] {
            quint16 tasks[4];
            std::unique_ptr<LogLineStore> store(newStore(tasks));
            const double start = BenchReport::threadCpuSeconds();
            fill(*store, source, appendLines, tasks);
            return double(appendLines) / (BenchReport::threadCpuSeconds() - start);
        },
        [&] {
            QByteArray baseline;
            const double start = BenchReport::threadCpuSeconds();
            for (qint64 i = 0; i < appendLines; ++i) {
                const qsizetype from = source.offsets[size_t(i)];
                const qsizetype len = source.offsets[size_t(i) + 1] - from - 1;
                baseline.append(source.text.constData() + from, len);
                baseline.append('\n');
            }
            const double rate = double(appendLines) / (BenchReport::threadCpuSeconds() - start);
            return baseline.size() == source.text.size() ? rate : -1.0;
        });
    BenchReport::printLine("append_lines", rates, "lines/s",
        BenchReport::median(rates.ours) / BenchReport::median(rates.baseline), Warmups, "CPU time, 2,000,000 lines");
    goals.push_back({ "append_lines", "ours (lines/s)", BenchReport::median(rates.ours), true, 1e6 });

    // 10 M lines for memory and painting. The memory is an exact count, the same in every run; it is measured
    // on each of the runs all the same (a store filled again must not cost more).
    const qint64 bigLines = 10000000;
    std::unique_ptr<LogLineStore> kept;
    quint16 tasks[4];
    std::vector<double> perLine;
    for (int run = 0; run < Warmups + runs; ++run) {
        kept.reset(); // one 10M-line store at a time
        kept.reset(newStore(tasks));
        fill(*kept, source, bigLines, tasks);
        if (run >= Warmups)
            perLine.push_back(double(kept->overheadBytes()) / double(kept->size()));
    }
    LogLineStore& store = *kept;
    BenchReport::printLine("memory_per_line", BenchReport::spread(perLine),
        BenchReport::spread(std::vector<double>(perLine.size(), 16.0)), "bytes", BenchReport::median(perLine) / 16.0,
        perLine.size(), Warmups, "bytes beyond the text; the baseline is the 16-byte budget");
    goals.push_back({ "memory_per_line", "ours (bytes)", BenchReport::median(perLine), false, 16 });

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
    QStringList formatted;
    for (int i = 0; i <= view.pageRows(); ++i)
        formatted << store.formatLine(view.topRow() + i);
    // One run: `repeats` screens, ms per screen.
    const BenchReport::Samples ms = BenchReport::alternate(
        Warmups, runs,
        [&] {
            const double start = BenchReport::threadCpuSeconds();
            for (int i = 0; i < repeats; ++i) {
                image.fill(Qt::white);
                QPainter painter(&image);
                painter.setFont(view.font());
                view.paintRows(&painter, rect);
            }
            return (BenchReport::threadCpuSeconds() - start) * 1000 / repeats;
        },
        [&] {
            const QFontMetrics fm(view.font());
            const double start = BenchReport::threadCpuSeconds();
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
            return (BenchReport::threadCpuSeconds() - start) * 1000 / repeats;
        });
    BenchReport::printLine("paint_screen_10M_lines", ms, "ms",
        BenchReport::median(ms.ours) / BenchReport::median(ms.baseline), Warmups,
        "CPU time; one run paints the screen 50 times");
    goals.push_back({ "paint_screen_10M_lines", "ours (ms)", BenchReport::median(ms.ours), false, 16 });
    for (const BenchReport::Goal& g : goals)
        BenchReport::printGoal(g);
    return 0;
}
