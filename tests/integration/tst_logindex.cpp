// SPDX-License-Identifier: GPL-2.0-or-later
// LogIndex: the line index behind `…/logs` pages. Replica files are written in the store's on-disk format
// (what LogEntry::toJsonLine() writes, one line each) and every page is compared with a reference: the
// line-by-line merge that LogStore::read() did before the index (parse every line, then a stable k-way
// merge by timestamp), so the index serves the same entries in the same order. Covers paging across
// replicas (with equal timestamps), each filter, an executor restart, a torn tail, a clock that went back,
// and lines that are not in the store's own layout. appendPage() (the API's page bodies) must append exactly the
// lines read() returns; the lines it copies unparsed (isCanonicalLine()) must be what the encoder writes.
#include "logindex.h"
#include "logstore.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
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

/// The files as QDir lists them, with sizes and inodes (as LogStore::prepareRead() takes them).
LogIndex::Snapshot snapshotOf(const QString& logsDir)
{
    LogIndex::Snapshot files;
    const QStringList names = QDir(logsDir).entryList({ QStringLiteral("*.jsonl") }, QDir::Files, QDir::Name);
    for (const QString& name : names) {
        struct stat st { };
        if (::stat(QFile::encodeName(logsDir + QLatin1Char('/') + name).constData(), &st) == 0)
            files.push_back({ name, qint64(st.st_size), quint64(st.st_ino) });
    }
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
                    const LogQuery q { taskName, severity, contains, after, limit, {} };
                    const LogIndex::Snapshot all = snapshotOf(dir);
                    LogIndex::Snapshot files;
                    for (const auto& f : all) {
                        if (taskName.isEmpty() || f.name == taskName + QStringLiteral(".jsonl"))
                            files.push_back(f);
                    }
                    const QList<QByteArray> ours = index.read(files, q);
                    // One entry more than the page tells whether a next page exists.
                    LogQuery oneMore = q;
                    oneMore.limit = limit + 1;
                    QList<QByteArray> expected = referenceRead(dir, oneMore);
                    const bool more = expected.size() > limit;
                    expected = expected.mid(0, limit);
                    QCOMPARE(ours.size(), expected.size());
                    QCOMPARE(ours, expected);
                    // The page as the API frames it, after what `out` held.
                    QByteArray body = "{\"entries\":[";
                    const LogIndex::PageInfo page = index.appendPage(files, q, "<", ">,", &body);
                    QByteArray framed = "{\"entries\":[";
                    for (const QByteArray& line : std::as_const(expected))
                        framed += '<' + line + ">,";
                    QCOMPARE(body, framed);
                    QCOMPARE(page.entries, expected.size());
                    QCOMPARE(page.more, more);
                }
            }
            writeJob(dir, 100, 1795323883000000LL + 700 / 3 * 10 + 10);
        }
        if (taskName.isEmpty())
            QCOMPARE(index.lineCount(), 3 * 800);
    }

    void pageNowOnlyWhenItCannotWait()
    {
        // appendPageNow() (the event loop's page) gives appendPage()'s bytes, or nothing when it would have to
        // wait or work: an index not built yet, lines not indexed yet (a torn tail too), a scan filter, a line to
        // encode again, a page above MaxBytesNow. A page evicted from the page cache may go either way (a file
        // system that cannot tell says no), never to other bytes.
        const QString dir = logsDir(nextJob());
        writeJob(dir, 3000);
        LogIndex index(dir);
        const LogQuery q { {}, {}, {}, 100, 200, {} };
        QByteArray now = "[";
        QVERIFY(!index.appendPageNow(snapshotOf(dir), q, {}, ",", &now));
        QCOMPARE(now, QByteArray("["));
        QByteArray later = "[";
        const LogIndex::PageInfo page = index.appendPage(snapshotOf(dir), q, {}, ",", &later);
        const std::optional<LogIndex::PageInfo> pageNow = index.appendPageNow(snapshotOf(dir), q, {}, ",", &now);
        // None on a file system that does not tell whether a read would wait (TMPDIR on tmpfs): then only the
        // refusals below are checked.
        const bool tells = pageNow.has_value();
        if (!tells)
            qWarning("this file system does not tell whether a read would wait: no page is read now");
        if (tells) {
            QCOMPARE(now, later);
            QCOMPARE(pageNow->entries, page.entries);
            QCOMPARE(pageNow->more, page.more);
        }

        QByteArray unused;
        QVERIFY(!index.appendPageNow(
            snapshotOf(dir), LogQuery { {}, {}, QStringLiteral("step"), 0, 10, {} }, {}, ",", &unused));
        QVERIFY(!index.appendPageNow(
            snapshotOf(dir), LogQuery { {}, {}, {}, 0, 10, QStringLiteral("3") }, {}, ",", &unused));
        QVERIFY(!index.appendPageNow(snapshotOf(dir), LogQuery { {}, {}, {}, 0, 5000, {} }, {}, ",", &unused));
        QVERIFY(unused.isEmpty());
        // A line that is not indexed yet, then a torn tail: the pool's read indexes the line, the tail stays.
        const QString file = dir + QLatin1Char('/') + Tasks.first() + QStringLiteral(".jsonl");
        const QByteArray line = LogEntry {
            1795323999000000LL, QStringLiteral("INFO"), Tasks.first(), {}, QStringLiteral("late"), {}
        }.toJsonLine();
        QVERIFY(appendBytes(file, line + '\n'));
        QVERIFY(!index.appendPageNow(snapshotOf(dir), q, {}, ",", &unused));
        index.read(snapshotOf(dir), q);
        QCOMPARE(bool(index.appendPageNow(snapshotOf(dir), q, {}, ",", &unused)), tells);
        unused.clear();
        QVERIFY(appendBytes(file, line.left(10)));
        index.read(snapshotOf(dir), q);
        QVERIFY(!index.appendPageNow(snapshotOf(dir), q, {}, ",", &unused));
        // A line in another layout on the page: encoded again, on the pool.
        const QString other = logsDir(nextJob());
        QVERIFY(appendBytes(other + QStringLiteral("/x.jsonl"),
            "{\"timestamp\":\"2026-11-22T05:04:43.000001Z\",\"severity\":\"INFO\",\"taskName\":\"x\","
            "\"trialId\":\"\",\"message\":\"\\u0041\"}\n"));
        LogIndex foreign(other);
        QCOMPARE(foreign.read(snapshotOf(other), LogQuery {}).size(), 1);
        QVERIFY(!foreign.appendPageNow(snapshotOf(other), LogQuery {}, {}, ",", &unused));
        QVERIFY(unused.isEmpty());
    }

    /// A page appendPageNow() answered is kept with the files' sizes and inodes it was read at: asked again, it is
    /// the same bytes; once a file grew, the page is read again and holds the new line (as appendPage() says).
    void pageNowAgainUntilTheFilesGrow()
    {
        const QString dir = logsDir(nextJob());
        writeJob(dir, 1000);
        LogIndex index(dir);
        const LogQuery tail { {}, {}, {}, 2950, 100, {} }; // the last 50 of 3,000 lines, room for more
        index.read(snapshotOf(dir), tail);
        QByteArray first;
        const std::optional<LogIndex::PageInfo> page = index.appendPageNow(snapshotOf(dir), tail, "<", ">", &first);
        if (!page)
            QSKIP("this file system does not tell whether a read would wait: no page is read now (TMPDIR on tmpfs)");
        QCOMPARE(page->entries, 50);
        QByteArray again = "x";
        const std::optional<LogIndex::PageInfo> pageAgain = index.appendPageNow(snapshotOf(dir), tail, "<", ">", &again);
        QVERIFY(pageAgain);
        QCOMPARE(again, "x" + first);
        QCOMPARE(pageAgain->entries, 50);
        QCOMPARE(pageAgain->more, page->more);
        // Another framing of the same lines is another page.
        QByteArray framed;
        QVERIFY(index.appendPageNow(snapshotOf(dir), tail, {}, ",", &framed));
        QVERIFY(framed != first);
        QVERIFY(framed.startsWith("{\"timestamp\""));

        const QString file = dir + QLatin1Char('/') + Tasks.first() + QStringLiteral(".jsonl");
        const QByteArray line = LogEntry {
            1795323999000000LL, QStringLiteral("INFO"), Tasks.first(), {}, QStringLiteral("late"), {}
        }.toJsonLine();
        QVERIFY(appendBytes(file, line + '\n'));
        index.read(snapshotOf(dir), tail); // indexes the new line
        QByteArray grown;
        const std::optional<LogIndex::PageInfo> pageGrown = index.appendPageNow(snapshotOf(dir), tail, "<", ">", &grown);
        QVERIFY(pageGrown);
        QCOMPARE(pageGrown->entries, 51);
        QVERIFY(grown.endsWith(QByteArray("<" + line + ">")));
        QByteArray expected;
        index.appendPage(snapshotOf(dir), tail, "<", ">", &expected);
        QCOMPARE(grown, expected);
    }

    void snapshotListsTheLogFiles()
    {
        // LogIndex::snapshot() lists what QDir::entryList({"*.jsonl"}, QDir::Files, QDir::Name) listed before it
        // (prepareRead() used that), with each file's size: regular files and links to them, in QString order,
        // no hidden file, no folder.
        const QString dir = logsDir(nextJob());
        QVERIFY(appendBytes(dir + QStringLiteral("/worker-replica-1.jsonl"), "12345\n"));
        QVERIFY(appendBytes(dir + QStringLiteral("/Master-replica-0.jsonl"), "1\n"));
        QVERIFY(appendBytes(dir + QStringLiteral("/master-replica-0.jsonl"), ""));
        QVERIFY(appendBytes(dir + QStringLiteral("/.hidden.jsonl"), "x\n"));
        QVERIFY(appendBytes(dir + QStringLiteral("/notes.txt"), "x\n"));
        QVERIFY(appendBytes(dir + QStringLiteral("/.jsonl"), "x\n"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/folder.jsonl")));
        QVERIFY(QFile::link(dir + QStringLiteral("/worker-replica-1.jsonl"), dir + QStringLiteral("/link.jsonl")));
        QVERIFY(QFile::link(dir + QStringLiteral("/nowhere"), dir + QStringLiteral("/dangling.jsonl")));
        const LogIndex::Snapshot files = LogIndex::snapshot(dir);
        QCOMPARE(files, snapshotOf(dir));
        QCOMPARE(files.size(), size_t(4));
        QCOMPARE(files.front().name, QStringLiteral("Master-replica-0.jsonl"));
        QCOMPARE(files.front().size, 2);
        QCOMPARE(files.back().name, QStringLiteral("worker-replica-1.jsonl"));
        QCOMPARE(files.back().size, 6);
        // One replica's file, when it is one.
        QCOMPARE(LogIndex::snapshot(dir, QStringLiteral("worker-replica-1")), LogIndex::Snapshot(1, files.back()));
        QVERIFY(LogIndex::snapshot(dir, QStringLiteral("folder")).empty());
        QVERIFY(LogIndex::snapshot(dir, QStringLiteral("ps-replica-0")).empty());
        QVERIFY(LogIndex::snapshot(dir + QStringLiteral("/none")).empty());
    }

    void currentFilesFollowTheFolder()
    {
        // currentFiles() reuses its last listing while the folder is unchanged and lists again when a file comes
        // or goes; sizes are always fresh.
        const QString dir = logsDir(nextJob());
        QVERIFY(appendBytes(dir + QStringLiteral("/a.jsonl"), "1\n"));
        QVERIFY(appendBytes(dir + QStringLiteral("/b.jsonl"), "12\n"));
        // The folder changed long before the first listing, which is then reused.
        const timespec old[2] = { { 0, UTIME_OMIT }, { ::time(nullptr) - 60, 0 } };
        QCOMPARE(::utimensat(AT_FDCWD, QFile::encodeName(dir).constData(), old, 0), 0);
        LogIndex index(dir);
        QCOMPARE(index.currentFiles(), LogIndex::snapshot(dir));
        QCOMPARE(index.currentFiles(), LogIndex::snapshot(dir));
        QVERIFY(appendBytes(dir + QStringLiteral("/a.jsonl"), "345\n"));
        QCOMPARE(index.currentFiles(), LogIndex::snapshot(dir));
        QCOMPARE(index.currentFiles().front().size, 6);
        QVERIFY(appendBytes(dir + QStringLiteral("/c.jsonl"), "x\n"));
        QCOMPARE(index.currentFiles(), LogIndex::snapshot(dir));
        QCOMPARE(index.currentFiles().size(), size_t(3));
        QVERIFY(QFile::remove(dir + QStringLiteral("/a.jsonl")));
        QCOMPARE(index.currentFiles(), LogIndex::snapshot(dir));
        QCOMPARE(index.currentFiles().front().name, QStringLiteral("b.jsonl"));
        QCOMPARE(index.currentFiles(QStringLiteral("c")), LogIndex::snapshot(dir, QStringLiteral("c")));
        QVERIFY(QDir(dir).removeRecursively());
        QVERIFY(index.currentFiles().empty());
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
            before = store.readLines(store.prepareRead(job, LogQuery { {}, {}, {}, 100, 50, {} }));
            QCOMPARE(before.size(), 50);
        }
        LogStore again(m_dir.path());
        QCOMPARE(again.readLines(again.prepareRead(job, LogQuery { {}, {}, {}, 100, 50, {} })), before);
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

    void replacedFileIsReadAgain()
    {
        // The index keeps its files open between reads; another file under the same name (the job's folder
        // removed and made again) is read, not the kept one, and so is a file cut shorter.
        const QString dir = logsDir(nextJob());
        writeJob(dir, 300);
        LogIndex index(dir);
        const LogQuery q { {}, {}, {}, 10, 100, {} };
        QCOMPARE(index.read(snapshotOf(dir), q), referenceRead(dir, q));
        QVERIFY(QDir(dir).removeRecursively());
        writeJob(dir, 400, 1795323999000000LL); // longer: only the inode tells the files apart
        QCOMPARE(index.read(snapshotOf(dir), q), referenceRead(dir, q));
        QByteArray page;
        index.appendPage(snapshotOf(dir), q, {}, "\n", &page);
        QCOMPARE(page, referenceRead(dir, q).join('\n') + '\n');
        const QString file = dir + QLatin1Char('/') + Tasks.first() + QStringLiteral(".jsonl");
        QVERIFY(QFile::resize(file, QFileInfo(file).size() / 2));
        QCOMPARE(index.read(snapshotOf(dir), q), referenceRead(dir, q));
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
            const LogQuery q { {}, {}, {}, after, 3, {} };
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
        // What the encoder wrote is in the store's layout again; the third line (valid UTF-8, in the store's
        // layout) was that already, and is served as it is.
        QVERIFY(LogIndex::isCanonicalLine(ours[0]));
        QVERIFY(LogIndex::isCanonicalLine(ours[1]));
        QVERIFY(LogIndex::isCanonicalLine(ours[2]));
        QCOMPARE(ours[2], lines.split('\n').at(2));
        QVERIFY(!LogIndex::isCanonicalLine(lines.left(lines.indexOf('\n'))));
        QVERIFY(ours[1].contains("\"message\":\"slash / and A\""));
        QCOMPARE(index.read(snapshotOf(dir), LogQuery { {}, QStringLiteral("WARNING"), {}, 0, 10, {} }).size(), 2);
        // A page body with lines encoded again between copied ones.
        QByteArray body;
        const LogIndex::PageInfo page = index.appendPage(snapshotOf(dir), LogQuery {}, {}, ",", &body);
        QCOMPARE(page.entries, 4);
        QVERIFY(!page.more);
        QCOMPARE(body, ours.join(',') + ',');
    }

    void canonicalLinesAreTheirOwnEncoding()
    {
        // The page path copies a line unparsed when isCanonicalLine() held for it at indexing, so it must hold
        // only for lines that decoding and encoding again gives back byte for byte, and (for the fast path to
        // apply to the store's own lines) for every line the encoder writes. Random lines in the store's layout,
        // with message bytes drawn from what trips an encoder: quotes, backslashes, control characters, every
        // JSON escape, valid UTF-8 of 2 to 4 bytes, and invalid UTF-8 (overlong, surrogate, above U+10FFFF,
        // truncated, a lone continuation byte).
        const QList<QByteArray> pieces { "a", "step 12 loss=0.5", " ", "\\\"", "\\\\", "\\n", "\\r", "\\t", "\\/",
            "\\b", "\\f", "\\u0001", "\\u001f", "\\u001F", "\\u000a", "\\u0041", "\\u00e9", "\\ud83d\\ude00", "\x7f",
            "\xC3\xA9", "\xE2\x96\x88", "\xF0\x9F\x98\x80", "\xEF\xBF\xBE", "\xC0\xAF", "\xED\xA0\x80",
            "\xF4\x90\x80\x80", "\xE2\x96", "\x80", "\xFF", "\t", "\"" };
        QRandomGenerator random(12);
        int canonical = 0;
        for (int i = 0; i < 20000; ++i) {
            QByteArray message;
            const int n = int(random.bounded(6));
            for (int k = 0; k < n; ++k)
                message += pieces.at(int(random.bounded(pieces.size())));
            const QByteArray line = "{\"timestamp\":\"2026-11-22T05:04:43.000001Z\",\"severity\":\"INFO\","
                                    "\"taskName\":\"master-replica-0\",\"trialId\":\"\",\"message\":\""
                + message + (i % 2 ? "\",\"stream\":\"stderr\"}" : "\"}");
            if (!LogIndex::isCanonicalLine(line))
                continue;
            ++canonical;
            const std::optional<LogEntry> entry = LogEntry::fromJsonLine(line);
            QVERIFY2(entry, line.constData());
            QCOMPARE(entry->toJsonLine(), line);
            // And what the encoder writes for any text is canonical.
            LogEntry fromBytes = *entry;
            fromBytes.message = QString::fromUtf8(message);
            QVERIFY2(LogIndex::isCanonicalLine(fromBytes.toJsonLine()), fromBytes.toJsonLine().constData());
        }
        QVERIFY(canonical > 1000); // the draw makes both kinds
        QVERIFY(canonical < 19000);
    }
};

QTEST_GUILESS_MAIN(TestLogIndex)
#include "tst_logindex.moc"
