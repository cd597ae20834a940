// SPDX-License-Identifier: GPL-2.0-or-later
// LogLineStore: appending, the line index and its metadata, merging out-of-order replicas, and filters.

#include "apiclient.h"
#include "loglinestore.h"

#include <QTest>

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
        QVERIFY2(double(store.overheadBytes()) / double(n) <= 16.0 * 1.5,
            qPrintable(QString::number(double(store.overheadBytes()) / double(n))));
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
            if (matcher.matches(store.record(i), store.text(i).data()))
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
