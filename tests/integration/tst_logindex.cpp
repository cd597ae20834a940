// SPDX-License-Identifier: GPL-2.0-or-later
// LogIndex: the line index behind `…/logs` pages. Replica files are written in the store's on-disk format
// (what LogEntry::toJsonLine() writes, one line each) and every page is compared with a reference: the
// line-by-line merge that LogStore::read() did before the index (parse every line, then a stable k-way
// merge by timestamp), so the index serves the same entries in the same order. Covers paging across
// replicas (with equal timestamps), each filter, an executor restart, a torn tail, a clock that went back,
// and lines that are not in the store's own layout.
#include "logindex.h"
#include "logstore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

using namespace Trainyard;

namespace {

const QStringList Tasks { QStringLiteral("master-replica-0"), QStringLiteral("service"),
    QStringLiteral("worker-replica-0") };
const QStringList Severities { QStringLiteral("DEBUG"), QStringLiteral("INFO"), QStringLiteral("WARNING"),
    QStringLiteral("ERROR") };

/// The merge that LogStore::read() did before the index: every valid line parsed, filtered, then merged by
/// always taking the earliest head (ties: the first file in name order).
QList<QByteArray> referenceRead(const QString& logsDir, const LogQuery& q)
{
    QStringList names = QDir(logsDir).entryList({ QStringLiteral("*.jsonl") }, QDir::Files, QDir::Name);
    if (!q.taskName.isEmpty())
        names = names.contains(q.taskName + QStringLiteral(".jsonl"))
            ? QStringList { q.taskName + QStringLiteral(".jsonl") }
            : QStringList {};
    const LogSeverity minSeverity = logSeverityFromName(q.minSeverity);
    std::vector<QList<LogEntry>> files;
    for (const QString& name : std::as_const(names)) {
        QFile f(logsDir + QLatin1Char('/') + name);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        QList<LogEntry> entries;
        while (!f.atEnd()) {
            const QByteArray line = f.readLine();
            if (!line.endsWith('\n'))
                break;
            const std::optional<LogEntry> parsed = LogEntry::fromJsonLine(line.chopped(1));
            if (!parsed)
                continue;
            const LogEntry& e = *parsed;
            if (e.severityLevel() < minSeverity)
                continue;
            if (!q.contains.isEmpty() && !e.message.contains(q.contains))
                continue;
            entries.append(e);
        }
        files.push_back(entries);
    }
    std::vector<qsizetype> pos(files.size(), 0);
    QList<QByteArray> out;
    qint64 index = 0;
    while (out.size() < q.limit) {
        int best = -1;
        for (size_t i = 0; i < files.size(); ++i) {
            if (pos[i] < files[i].size()
                && (best < 0 || files[i][pos[i]].timestampUs < files[size_t(best)][pos[size_t(best)]].timestampUs))
                best = int(i);
        }
        if (best < 0)
            break;
        if (index++ >= q.afterIndex)
            out.append(files[size_t(best)][pos[size_t(best)]].toJsonLine());
        ++pos[size_t(best)];
    }
    return out;
}

LogIndex::Snapshot snapshotOf(const QString& logsDir)
{
    LogIndex::Snapshot files;
    const QStringList names = QDir(logsDir).entryList({ QStringLiteral("*.jsonl") }, QDir::Files, QDir::Name);
    for (const QString& name : names)
        files.emplace_back(name, QFileInfo(logsDir + QLatin1Char('/') + name).size());
    return files;
}

bool appendBytes(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::Append) && f.write(bytes) == bytes.size();
}

/// `count` lines per replica, timestamps 10 µs apart with runs of equal ones across replicas, severities and
/// messages cycling so that each filter matches a part.
void writeJob(const QString& logsDir, int count, qint64 base = 1795323883000000LL)
{
    for (int t = 0; t < Tasks.size(); ++t) {
        QByteArray bytes;
        for (int i = 0; i < count; ++i) {
            LogEntry e;
            e.timestampUs = base + qint64(i / 3) * 10 + (i % 3 == 0 ? 0 : t); // equal stamps across replicas
            e.severity = Severities.at((i + t) % Severities.size());
            e.taskName = Tasks.at(t);
            e.trialId = t == 2 ? QStringLiteral("3") : QString();
            e.message = (i % 7 == 0 ? QStringLiteral("checkpoint saved at step %1")
                                    : QStringLiteral("step %1 \"q\" \\ tab\t"))
                            .arg(i);
            e.stream = t == 1 ? QString() : QStringLiteral("stdout");
            bytes += e.toJsonLine() + '\n';
        }
        QVERIFY(appendBytes(logsDir + QLatin1Char('/') + Tasks.at(t) + QStringLiteral(".jsonl"), bytes));
    }
}

} // namespace

class TestLogIndex : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_job = 0;
    JobKey nextJob() { return JobKey { QStringLiteral("local"), QStringLiteral("job_%1").arg(++m_job) }; }
    QString logsDir(const JobKey& job) const { return job.folder(m_dir.path()) + QStringLiteral("/logs"); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void pages_data()
    {
        QTest::addColumn<QString>("taskName");
        QTest::addColumn<QString>("severity");
        QTest::addColumn<QString>("contains");
        const QList<std::tuple<const char*, QString, QString, QString>> filters {
            { "all", {}, {}, {} },
            { "one replica", QStringLiteral("worker-replica-0"), {}, {} },
            { "no such replica", QStringLiteral("ps-replica-9"), {}, {} },
            { "WARNING and up", {}, QStringLiteral("WARNING"), {} },
            { "ERROR of one replica", QStringLiteral("service"), QStringLiteral("ERROR"), {} },
            { "contains plain", {}, {}, QStringLiteral("checkpoint saved") },
            { "contains escaped", {}, {}, QStringLiteral("\"q\" \\") },
            { "contains and severity", {}, QStringLiteral("warning"), QStringLiteral("saved at step 1") },
        };
        for (const auto& [name, task, severity, contains] : filters)
            QTest::addRow("%s", name) << task << severity << contains;
    }
    void pages()
    {
        // Every page of several sizes, also the ones that start inside a run of equal timestamps, equals the
        // reference; a read after more lines were appended sees them (the index grows incrementally).
        QFETCH(QString, taskName);
        QFETCH(QString, severity);
        QFETCH(QString, contains);
        const QString dir = logsDir(nextJob());
        writeJob(dir, 700);
        LogIndex index(dir);
        for (int round = 0; round < 2; ++round) {
            // Starts at the edges (the first entries, inside runs of equal timestamps, the end) and spread over
            // the whole merged order.
            QList<qint64> starts { 0, 1, 2, 3, 4, 5, 699, 700, 701, 1049, 2099, 2100, 2101, 2399, 2400, 2401 };
            for (qint64 after = 6; after < 2400; after += 347)
                starts << after;
            for (const int limit : { 1, 7, 250, 5000 }) {
                for (const qint64 after : std::as_const(starts)) {
                    const LogQuery q { taskName, severity, contains, after, limit };
                    const LogIndex::Snapshot all = snapshotOf(dir);
                    LogIndex::Snapshot files;
                    for (const auto& f : all) {
                        if (taskName.isEmpty() || f.first == taskName + QStringLiteral(".jsonl"))
                            files.push_back(f);
                    }
                    const QList<QByteArray> ours = index.read(files, q);
                    const QList<QByteArray> expected = referenceRead(dir, q);
                    QCOMPARE(ours.size(), expected.size());
                    QCOMPARE(ours, expected);
                }
            }
            writeJob(dir, 100, 1795323883000000LL + 700 / 3 * 10 + 10);
        }
        if (taskName.isEmpty())
            QCOMPARE(index.lineCount(), 3 * 800);
    }

    void restartRebuildsFromTheFiles()
    {
        // A new store (an executor restart) serves the same pages from the same files, and what it appends
        // afterwards comes after them.
        const JobKey job = nextJob();
        QList<QByteArray> before;
        {
            LogStore store(m_dir.path());
            for (int i = 0; i < 500; ++i) {
                store.append(job,
                    LogEntry { 1000 + i, QStringLiteral("INFO"), Tasks.at(i % 3), QString(),
                        QStringLiteral("line %1").arg(i), QString() });
            }
            before = store.readLines(store.prepareRead(job, LogQuery { {}, {}, {}, 100, 50 }));
            QCOMPARE(before.size(), 50);
        }
        LogStore again(m_dir.path());
        QCOMPARE(again.readLines(again.prepareRead(job, LogQuery { {}, {}, {}, 100, 50 })), before);
        again.append(job,
            LogEntry { 5000, QStringLiteral("ERROR"), QStringLiteral("service"), QString(),
                QStringLiteral("after the restart"), QString() });
        const QList<LogEntry> all = again.read(job, QString(), QString(), 0, 10000);
        QCOMPARE(all.size(), 501);
        QCOMPARE(all.last().message, QStringLiteral("after the restart"));
        QCOMPARE(again.read(job, QString(), QStringLiteral("ERROR")).size(), 1);
    }

    void asyncReadSeesWhatWasAppendedBefore()
    {
        // readLinesAsync() runs on the pool; it sees every entry appended before the call (also buffered
        // ones) and none appended after it.
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), "one\ntwo\n", false);
        QFuture<QList<QByteArray>> page = store.readLinesAsync(job, LogQuery {});
        store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), "three\n", false);
        store.flush();
        QTRY_VERIFY(page.isFinished());
        QCOMPARE(page.result().size(), 2);
        QVERIFY(page.result().at(1).contains("\"message\":\"two\""));
    }

    void tornTail()
    {
        // A line without its newline (a crash in the middle of a write) is not an entry until it is complete;
        // when a later executor appends after it, the torn bytes and the next line make one line that is not
        // JSON, which is skipped, as the line-by-line read skipped it.
        const QString dir = logsDir(nextJob());
        const QString path = dir + QStringLiteral("/master-replica-0.jsonl");
        LogEntry e { 2000, QStringLiteral("INFO"), QStringLiteral("master-replica-0"), QString(),
            QStringLiteral("whole"), QStringLiteral("stdout") };
        const QByteArray whole = e.toJsonLine() + '\n';
        e.timestampUs = 3000;
        e.message = QStringLiteral("torn");
        const QByteArray torn = e.toJsonLine();
        QVERIFY(appendBytes(path, whole + torn.left(torn.size() / 2)));
        LogIndex index(dir);
        const LogQuery q;
        QCOMPARE(index.read(snapshotOf(dir), q), referenceRead(dir, q));
        QCOMPARE(index.read(snapshotOf(dir), q).size(), 1);
        // The rest of the line arrives: now it is an entry.
        QVERIFY(appendBytes(path, torn.mid(torn.size() / 2) + '\n'));
        QCOMPARE(index.read(snapshotOf(dir), q).size(), 2);
        // A torn tail that a restarted executor appended after: garbage, skipped; the lines after it are fine.
        e.timestampUs = 4000;
        e.message = QStringLiteral("after the crash");
        QVERIFY(appendBytes(path, torn.left(20) + e.toJsonLine() + '\n'));
        e.timestampUs = 5000;
        e.message = QStringLiteral("next");
        QVERIFY(appendBytes(path, e.toJsonLine() + '\n'));
        const QList<QByteArray> lines = index.read(snapshotOf(dir), q);
        QCOMPARE(lines, referenceRead(dir, q));
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.last().contains("\"message\":\"next\""));
        // A snapshot taken before bytes were appended does not see them.
        const LogIndex::Snapshot early = snapshotOf(dir);
        QVERIFY(appendBytes(path, e.toJsonLine() + '\n'));
        QCOMPARE(index.read(early, q).size(), 3);
        QCOMPARE(index.read(snapshotOf(dir), q).size(), 4);
    }

    void clockWentBack()
    {
        // Entries appended with an older timestamp (a clock step back) make a file unsorted: the merge then
        // walks from the start and still serves the reference's order.
        const QString dir = logsDir(nextJob());
        QByteArray a, b;
        const qint64 stamps[] = { 100, 300, 200, 50, 400, 400, 250 };
        for (int i = 0; i < 7; ++i) {
            a += LogEntry { stamps[i], QStringLiteral("INFO"), QStringLiteral("a"), QString(),
                QStringLiteral("a%1").arg(i), QString() }
                     .toJsonLine()
                + '\n';
            b += LogEntry { stamps[i] + 25, QStringLiteral("INFO"), QStringLiteral("b"), QString(),
                QStringLiteral("b%1").arg(i), QString() }
                     .toJsonLine()
                + '\n';
        }
        QVERIFY(appendBytes(dir + QStringLiteral("/a.jsonl"), a));
        QVERIFY(appendBytes(dir + QStringLiteral("/b.jsonl"), b));
        LogIndex index(dir);
        for (qint64 after = 0; after < 15; ++after) {
            const LogQuery q { {}, {}, {}, after, 3 };
            QCOMPARE(index.read(snapshotOf(dir), q), referenceRead(dir, q));
        }
    }

    void foreignLines()
    {
        // Lines that the store did not write in its own layout (other key order, escapes it does not use,
        // non-ASCII text, an offset time) are valid entries too: served as the encoder writes them.
        const QString dir = logsDir(nextJob());
        const QByteArray lines = QByteArray("{\"severity\":\"WARNING\",\"timestamp\":\"2026-11-22T05:04:43.000001Z\","
                                            "\"taskName\":\"x\",\"trialId\":\"\",\"message\":\"reordered\"}\n")
            + "{\"timestamp\":\"2026-11-22T05:04:43.000002Z\",\"severity\":\"INFO\",\"taskName\":\"x\",\"trialId\":"
              "\"\","
              "\"message\":\"slash \\/ and \\u0041\"}\n"
            + "{\"timestamp\":\"2026-11-22T05:04:43.000003Z\",\"severity\":\"info\",\"taskName\":\"x\",\"trialId\":"
              "\"\","
              "\"message\":\"accuracy \xE2\x89\xA5 0.8\"}\n"
            + "{\"timestamp\":\"2026-11-22T07:04:43.000004+02:00\",\"severity\":\"ERROR\",\"taskName\":\"x\","
              "\"trialId\":\"\",\"message\":\"offset time\"}\n"
            + "not json at all\n" + "\n";
        QVERIFY(appendBytes(dir + QStringLiteral("/x.jsonl"), lines));
        LogIndex index(dir);
        const QList<QByteArray> ours = index.read(snapshotOf(dir), LogQuery {});
        QCOMPARE(ours, referenceRead(dir, LogQuery {}));
        QCOMPARE(ours.size(), 4);
        // What the encoder wrote is in the store's layout again (non-ASCII text is always encoded again).
        QVERIFY(LogIndex::isCanonicalLine(ours[0]));
        QVERIFY(LogIndex::isCanonicalLine(ours[1]));
        QVERIFY(!LogIndex::isCanonicalLine(ours[2]));
        QVERIFY(!LogIndex::isCanonicalLine(lines.left(lines.indexOf('\n'))));
        QVERIFY(ours[1].contains("\"message\":\"slash / and A\""));
        QCOMPARE(index.read(snapshotOf(dir), LogQuery { {}, QStringLiteral("WARNING"), {}, 0, 10 }).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestLogIndex)
#include "tst_logindex.moc"
