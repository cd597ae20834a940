// SPDX-License-Identifier: GPL-2.0-or-later
// LogLineStore: appending, the line index and its metadata, merging out-of-order replicas, and filters.

#include "apiclient.h"
#include "loglinestore.h"

#include <QTest>

#include <algorithm>
#include <vector>

using namespace Trainyard;

class TestLogLineStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void appendAndIndex()
    {
        LogLineStore store;
        const quint16 master = store.taskId(QStringLiteral("master-replica-0"));
        const quint16 worker = store.taskId(QStringLiteral("worker-replica-0"));
        QCOMPARE(store.taskId(QStringLiteral("master-replica-0")), master);
        QVERIFY(master != worker);
        const QByteArray a("first line");
        const QByteArray b("second line ü");
        store.append(1795000000000000, LogSeverity::Info, master, a.constData(), a.size());
        store.append(1795000000000010, LogSeverity::Error, worker, b.constData(), b.size());
        QCOMPARE(store.size(), 2);
        QCOMPARE(store.text(0), QByteArrayView(a));
        QCOMPARE(store.text(1), QByteArrayView(b));
        QCOMPARE(store.timestampUs(0), 1795000000000000);
        QCOMPARE(store.timestampUs(1), 1795000000000010);
        QCOMPARE(store.severity(1), LogSeverity::Error);
        QCOMPARE(store.taskName(store.taskId(1)), QStringLiteral("worker-replica-0"));
        QVERIFY(store.formatLine(1).endsWith(QStringLiteral("ERROR  worker-replica-0  second line ü")));
        QCOMPARE(store.textBytes(), a.size() + b.size());
    }

    void multiLineEntries_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("lines");
        QTest::addRow("plain") << QByteArray("one") << QStringList { QStringLiteral("one") };
        QTest::addRow("two lines") << QByteArray("one\ntwo")
                                   << QStringList { QStringLiteral("one"), QStringLiteral("two") };
        QTest::addRow("trailing newline") << QByteArray("one\n") << QStringList { QStringLiteral("one") };
        QTest::addRow("crlf") << QByteArray("one\r\ntwo\r\n")
                              << QStringList { QStringLiteral("one"), QStringLiteral("two") };
        QTest::addRow("empty") << QByteArray() << QStringList { QString() };
    }
    void multiLineEntries()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, lines);
        LogLineStore store;
        store.append(1, LogSeverity::Info, 0, text.constData(), text.size());
        QCOMPARE(store.size(), lines.size());
        for (int i = 0; i < lines.size(); ++i)
            QCOMPARE(QString::fromUtf8(store.text(i)), lines.at(i));
    }

    void mergesReplicasInTimeOrder()
    {
        // Two replicas whose entries arrive in per-replica order but interleaved with skew.
        LogLineStore store;
        const QList<QPair<qint64, QByteArray>> arrivals {
            { 100, "m0" },
            { 110, "m1" },
            { 105, "w0" },
            { 120, "m2" },
            { 111, "w1" },
            { 130, "w2" },
            { 125, "m3" },
        };
        for (const auto& [ts, text] : arrivals)
            store.append(ts, LogSeverity::Info, 0, text.constData(), text.size());
        QStringList order;
        for (qint64 i = 0; i < store.size(); ++i)
            order << QString::fromUtf8(store.text(i));
        QCOMPARE(order.join(QLatin1Char(' ')), QStringLiteral("m0 w0 m1 w1 m2 m3 w2"));
        for (qint64 i = 1; i < store.size(); ++i)
            QVERIFY(store.timestampUs(i - 1) <= store.timestampUs(i));
    }

    void equalTimestampsKeepArrivalOrder()
    {
        LogLineStore store;
        for (const char* t : { "a", "b", "c" })
            store.append(50, LogSeverity::Info, 0, t, 1);
        const QByteArray late("late");
        store.append(40, LogSeverity::Info, 0, late.constData(), late.size());
        QCOMPARE(QString::fromUtf8(store.text(0)), QStringLiteral("late"));
        QCOMPARE(QString::fromUtf8(store.text(1)), QStringLiteral("a"));
        QCOMPARE(QString::fromUtf8(store.text(3)), QStringLiteral("c"));
    }

    void manyLinesAcrossBlocksAndChunks()
    {
        // More than one index block (65,536 records) and one text chunk (4 MiB).
        LogLineStore store;
        const qint64 n = 150000;
        for (qint64 i = 0; i < n; ++i) {
            const QByteArray text = "line " + QByteArray::number(i) + QByteArray(30, 'x');
            store.append(1000 + i, LogSeverity::Info, quint16(i % 3), text.constData(), text.size());
        }
        QCOMPARE(store.size(), n);
        for (qint64 i : { qint64(0), qint64(65535), qint64(65536), qint64(99999), n - 1 }) {
            QVERIFY(QString::fromUtf8(store.text(i)).startsWith(QStringLiteral("line %1x").arg(i)));
            QCOMPARE(store.taskId(i), quint16(i % 3));
        }
        // 12 bytes a line and 16 a page of 2,048, plus at most the partly filled block and the reorder window
        // (its entries and the text buffer it compacts at 1 MiB).
        const qint64 bound = n * 12 + (n / 2048 + 1) * 16 + qint64(sizeof(LogIndex::Block))
            + LogLineStore::ReorderWindow * 24 + 4 * 1024 * 1024;
        QVERIFY2(store.overheadBytes() <= bound, qPrintable(QString::number(store.overheadBytes())));
    }

    /// Every line read back as a reference model of the store's rules places it (sorted by timestamp within the
    /// reorder window, arrival order among equals, a line older than the window at its start), over several index
    /// blocks and pages, text chunks whose ends leave gaps (lines of 0.9 MiB), empty lines, every severity, both
    /// streams; and a snapshot taken half-way reads the same lines while the store goes on.
    void matchesAReferenceOverBlocksPagesAndChunks()
    {
        struct Line {
            qint64 timestampUs;
            QByteArray text;
            LogSeverity severity;
            quint16 task;
            bool isStderr;
        };
        std::vector<Line> reference;
        LogLineStore store;
        quint64 random = 0x9E3779B97F4A7C15ull;
        auto next = [&random] {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            return random;
        };
        const qint64 n = 150000;
        LogLineStore::Snapshot snapshot;
        std::vector<Line> atSnapshot;
        for (qint64 i = 0; i < n; ++i) {
            const quint64 r = next();
            const quint16 task = quint16(r % 5);
            // Four replicas with their own skew of up to 3 ms, and now and then a line from far back.
            qint64 timestampUs = 1795000000000000 + i * 100 + qint64(task) * 700 - qint64((r >> 8) % 3000);
            if ((r >> 20) % 997 == 0)
                timestampUs -= 10'000'000;
            QByteArray text;
            if (i % 20011 == 7)
                text = QByteArray(900 * 1024, char('a' + i % 26));
            else if ((r >> 30) % 50 != 0)
                text = "line " + QByteArray::number(i) + QByteArray(int((r >> 32) % 200), 'x');
            const Line line { timestampUs, text, LogSeverity((r >> 40) % LogSeverityCount), task, bool((r >> 45) & 1) };
            store.append(line.timestampUs, line.severity, line.task, line.text.constData(), line.text.size(),
                line.isStderr);
            const qint64 lo = std::max<qint64>(0, qint64(reference.size()) - LogLineStore::ReorderWindow);
            const auto at = std::upper_bound(reference.begin() + lo, reference.end(), line.timestampUs,
                [](qint64 key, const Line& l) { return key < l.timestampUs; });
            reference.insert(at, line);
            if (i == n / 2) {
                snapshot = store.snapshot();
                atSnapshot = reference;
            }
        }
        QCOMPARE(store.size(), qint64(reference.size()));
        QVERIFY(store.snapshot().chunks.size() > 2);
        auto compare = [](const LineRecord& got, const Line& want, qint64 line) {
            if (got.bytes() != QByteArrayView(want.text) || got.timestampUs() != want.timestampUs
                || got.severity() != want.severity || got.taskId() != want.task || got.isStderr() != want.isStderr) {
                qWarning("line %lld: %d bytes at %lld, want %d at %lld", line, got.length(), got.timestampUs(),
                    int(want.text.size()), want.timestampUs);
                return false;
            }
            return true;
        };
        for (qint64 line = 0; line < store.size(); ++line)
            QVERIFY(compare(store.record(line), reference[size_t(line)], line));
        QCOMPARE(snapshot.stableCount, n / 2 + 1 - LogLineStore::ReorderWindow);
        for (qint64 line = 0; line < snapshot.stableCount; ++line)
            QVERIFY(compare(snapshot.record(line), atSnapshot[size_t(line)], line));
    }

    /// A quiet job: one line a month for 250 years, so a page of 2,048 lines spans far more than the 50 days its
    /// packed deltas hold. Every timestamp reads back exactly, and the order stays.
    void timestampsOfAQuietJob()
    {
        LogLineStore store;
        const qint64 month = 30LL * 24 * 3600 * 1'000'000;
        const qint64 n = 3000 + LogLineStore::ReorderWindow;
        for (qint64 i = 0; i < n; ++i) {
            const QByteArray text = QByteArray::number(i);
            store.append(i * month, LogSeverity::Info, 0, text.constData(), text.size());
        }
        for (qint64 i = 0; i < n; ++i) {
            QCOMPARE(store.timestampUs(i), i * month);
            QCOMPARE(store.text(i), QByteArrayView(QByteArray::number(i)));
        }
        const LogLineStore::Snapshot snapshot = store.snapshot();
        QCOMPARE(snapshot.record(2500).timestampUs(), 2500 * month);
    }

    void appendLogLines()
    {
        LogLineStore store;
        QList<LogEntry> entries;
        LogEntry a;
        a.timestampUs = 2000;
        a.severity = QStringLiteral("WARNING");
        a.taskName = QStringLiteral("worker-replica-1");
        a.message = QStringLiteral("disk almost full");
        LogEntry b = a;
        b.timestampUs = 1000;
        b.severity = QStringLiteral("INFO");
        b.taskName = QStringLiteral("service");
        b.message = QStringLiteral("job started");
        entries << a << b;
        const qint64 first = store.append(entries);
        QCOMPARE(first, 0);
        QCOMPARE(store.size(), 2);
        QCOMPARE(QString::fromUtf8(store.text(0)), QStringLiteral("job started"));
        QCOMPARE(store.severity(1), LogSeverity::Warning);
        QCOMPARE(store.taskName(store.taskId(1)), QStringLiteral("worker-replica-1"));
    }

    void matcher_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("regex");
        QTest::addColumn<int>("minSeverity");
        QTest::addColumn<bool>("onlyWorker");
        QTest::addColumn<QString>("expected");
        QTest::addRow("all") << QString() << false << 0 << false << QStringLiteral("0 1 2 3");
        QTest::addRow("text, case-insensitive")
            << QStringLiteral("LOSS") << false << 0 << false << QStringLiteral("0 2");
        QTest::addRow("regex") << QStringLiteral("step \\d+: loss") << true << 0 << false << QStringLiteral("0");
        QTest::addRow("severity") << QString() << false << int(LogSeverity::Error) << false << QStringLiteral("3");
        QTest::addRow("task") << QString() << false << 0 << true << QStringLiteral("1 2");
        QTest::addRow("task and text") << QStringLiteral("loss") << false << 0 << true << QStringLiteral("2");
        QTest::addRow("non-ASCII") << QStringLiteral("größe") << false << 0 << false << QStringLiteral("1");
        QTest::addRow("no match") << QStringLiteral("nothing like this") << false << 0 << false << QString();
    }
    void matcher()
    {
        QFETCH(QString, text);
        QFETCH(bool, regex);
        QFETCH(int, minSeverity);
        QFETCH(bool, onlyWorker);
        QFETCH(QString, expected);
        LogLineStore store;
        const quint16 master = store.taskId(QStringLiteral("master-replica-0"));
        const quint16 worker = store.taskId(QStringLiteral("worker-replica-0"));
        const struct {
            quint16 task;
            LogSeverity severity;
            const char* text;
        } lines[] = {
            { master, LogSeverity::Info, "step 10: loss 0.5" },
            { worker, LogSeverity::Info, "batch größe 64" },
            { worker, LogSeverity::Warning, "Loss is NaN" },
            { master, LogSeverity::Error, "Traceback (most recent call last):" },
        };
        qint64 ts = 1;
        for (const auto& l : lines)
            store.append(ts++, l.severity, l.task, l.text, qsizetype(qstrlen(l.text)));
        LogFilter filter;
        filter.text = text;
        filter.regex = regex;
        filter.minSeverity = LogSeverity(minSeverity);
        if (onlyWorker)
            filter.taskIds << worker;
        const LogLineMatcher matcher(filter);
        QVERIFY(matcher.isValid());
        QStringList hits;
        for (qint64 i = 0; i < store.size(); ++i) {
            if (matcher.matches(store.record(i)))
                hits << QString::number(i);
        }
        QCOMPARE(hits.join(QLatin1Char(' ')), expected);
    }

    void invalidRegex()
    {
        LogFilter filter;
        filter.text = QStringLiteral("(unclosed");
        filter.regex = true;
        const LogLineMatcher matcher(filter);
        QVERIFY(!matcher.isValid());
        QVERIFY(!matcher.errorString().isEmpty());
    }

    void severityNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("severity");
        QTest::addRow("ERROR") << QStringLiteral("ERROR") << int(LogSeverity::Error);
        QTest::addRow("lower case") << QStringLiteral("warning") << int(LogSeverity::Warning);
        QTest::addRow("EMERGENCY") << QStringLiteral("EMERGENCY") << int(LogSeverity::Emergency);
        QTest::addRow("unknown") << QStringLiteral("LOUD") << int(LogSeverity::Default);
    }
    void severityNames()
    {
        QFETCH(QString, name);
        QFETCH(int, severity);
        QCOMPARE(int(logSeverityFromName(name)), severity);
    }

    void clearBumpsGeneration()
    {
        LogLineStore store;
        store.append(1, LogSeverity::Info, 0, "x", 1);
        const quint64 g = store.generation();
        store.clear();
        QCOMPARE(store.size(), 0);
        QVERIFY(store.generation() != g);
        store.append(5, LogSeverity::Info, 0, "y", 1);
        QCOMPARE(QString::fromUtf8(store.text(0)), QStringLiteral("y"));
    }
};

QTEST_GUILESS_MAIN(TestLogLineStore)
#include "tst_loglinestore.moc"
