// SPDX-License-Identifier: GPL-2.0-or-later
#include "logindex.h"

#include "logentry.h"
#include "rfc3339.h"
#include "utf8.h"

#include <QFile>
#include <QScopeGuard>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <limits>
#include <mutex>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace Trainyard {

namespace {

// A line's offset, its severity level and two flags share one word: 56 bits of offset are 64 PiB of file; the
// level (a LogSeverity ordinal, < 16) takes the next 4 bits; then whether the line starts right after the previous
// indexed line (no skipped line between: the previous line's length is then known from the offsets), and whether
// it is canonical.
constexpr int LevelShift = 56;
constexpr quint64 OffsetMask = (quint64(1) << LevelShift) - 1;
constexpr quint64 LevelMask = 0x0f; // after the shift
constexpr quint64 AdjacentBit = quint64(1) << 62;
constexpr quint64 CanonicalBit = quint64(1) << 63;
// The shortest line of the store's layout: the timestamp's key and value, the other keys and the closing brace.
constexpr qsizetype MinimalLineBytes = 14 + 27 + 2;
// Bytes read per pread while indexing: big enough that the syscall is noise, small enough for the cache.
constexpr size_t IndexChunk = size_t(4) << 20;
// Picked lines closer than this in one file are read with one pread (the bytes between are skipped).
constexpr qint64 CoalesceGap = 256 * 1024;

/// pread until `n` bytes or the end of the file; returns the bytes read (-1 on error).
qint64 preadFully(int fd, char* buffer, size_t n, qint64 offset)
{
    size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(fd, buffer + done, n - done, off_t(offset + qint64(done)));
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got == 0)
            break;
        done += size_t(got);
    }
    return qint64(done);
}

/// pread of `n` bytes that fails rather than wait for the disk: true when all of them came from the page cache.
/// `preadv2(RWF_NOWAIT)` answers EAGAIN for bytes that are not cached, and EOPNOTSUPP on file systems that cannot
/// tell (tmpfs): both are a no.
bool preadCached(int fd, char* buffer, size_t n, qint64 offset)
{
    size_t done = 0;
    while (done < n) {
        iovec chunk { buffer + done, n - done };
        const ssize_t got = ::preadv2(fd, &chunk, 1, off_t(offset + qint64(done)), RWF_NOWAIT);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        done += size_t(got);
    }
    return true;
}

inline int digits(const char* p, int n)
{
    int v = 0;
    for (int i = 0; i < n; ++i)
        v = v * 10 + (p[i] - '0');
    return v;
}

/// The store's own timestamp form, `YYYY-MM-DDTHH:MM:SS.ffffffZ` (27 bytes), as µs since the epoch; false for
/// anything else (also for a date that formatTimestamp() would not write back the same: 30 February).
bool canonicalTimestamp(const char* p, qint64* us)
{
    static constexpr char shape[] = "dddd-dd-ddTdd:dd:dd.ddddddZ";
    for (int i = 0; i < 27; ++i) {
        if (shape[i] == 'd' ? !isAsciiDigit(p[i]) : p[i] != shape[i])
            return false;
    }
    const int y = digits(p, 4), mo = digits(p + 5, 2), d = digits(p + 8, 2);
    const int h = digits(p + 11, 2), mi = digits(p + 14, 2), s = digits(p + 17, 2);
    if (mo < 1 || mo > 12 || d < 1 || d > Rfc3339::daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59)
        return false;
    *us = ((Rfc3339::daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60 * qint64(1000000) + qint64(s) * 1000000
        + digits(p + 20, 6);
    return true;
}

inline bool isLowerHex(char c)
{
    return isAsciiDigit(c) || (c >= 'a' && c <= 'f');
}

inline bool isHex(char c)
{
    return isLowerHex(c) || (c >= 'A' && c <= 'F');
}

/// A JSON string's content from `*p` (after its opening quote) to its closing quote, where `*p` is left.
/// Printable ASCII and valid UTF-8 only (Formats::utf8SequenceLength()): any other byte fails, and the caller's slow
/// path decides (QJsonDocument). `*canonical` is cleared by an escape that the store's encoder does not write (it
/// writes `\"`, `\\`, `\n`, `\r`, `\t`, and `\u00xx` for the other control characters only): then the string
/// is valid but not exactly what the encoder would write for its value.
bool skipString(const char** p, const char* end, bool* canonical)
{
    const char* s = *p;
    while (s < end) {
        const auto c = static_cast<unsigned char>(*s);
        if (c == '"') {
            *p = s;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c >= 0x80) {
            const size_t len = Formats::utf8SequenceLength(
                reinterpret_cast<const unsigned char*>(s), reinterpret_cast<const unsigned char*>(end));
            if (len == 0)
                return false;
            s += len;
            continue;
        }
        if (c != '\\') {
            ++s;
            continue;
        }
        if (end - s < 2)
            return false;
        const char e = s[1];
        if (e == '"' || e == '\\' || e == 'n' || e == 'r' || e == 't') {
            s += 2;
        } else if (e == 'u') {
            if (end - s < 6 || !isHex(s[2]) || !isHex(s[3]) || !isHex(s[4]) || !isHex(s[5]))
                return false;
            if (s[2] != '0' || s[3] != '0' || (s[4] != '0' && s[4] != '1') || !isLowerHex(s[5])) {
                *canonical = false;
            } else {
                const int v = (s[4] - '0') * 16 + (isAsciiDigit(s[5]) ? s[5] - '0' : s[5] - 'a' + 10);
                if (v == '\n' || v == '\r' || v == '\t')
                    *canonical = false;
            }
            s += 6;
        } else if (e == '/' || e == 'b' || e == 'f') {
            *canonical = false;
            s += 2;
        } else {
            return false;
        }
    }
    return false;
}

inline bool literal(const char** p, const char* end, const char* text, size_t n)
{
    if (size_t(end - *p) < n || std::memcmp(*p, text, n) != 0)
        return false;
    *p += n;
    return true;
}

/// Reads a line in the store's layout (LogEntry::toJsonLine()'s key order, its timestamp form, printable ASCII
/// or valid UTF-8) without a JSON parser: its timestamp and severity level, and in `*canonical` whether it is
/// exactly what the encoder writes (see skipString()). False when the line is laid out otherwise.
bool parseStoreLine(const char* p, size_t n, qint64* ts, int* level, bool* canonical)
{
    *canonical = true;
    const char* end = p + n;
    if (!literal(&p, end, "{\"timestamp\":\"", 14) || end - p < 27 || !canonicalTimestamp(p, ts))
        return false;
    p += 27;
    if (!literal(&p, end, "\",\"severity\":\"", 14))
        return false;
    const char* severity = p;
    while (p < end && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
        ++p;
    if (p == severity)
        return false;
    *level = int(parseLogSeverity(QByteArrayView(severity, p - severity)).value_or(LogSeverity::Default));
    if (!literal(&p, end, "\",\"taskName\":\"", 14) || !skipString(&p, end, canonical)
        || !literal(&p, end, "\",\"trialId\":\"", 13) || !skipString(&p, end, canonical)
        || !literal(&p, end, "\",\"message\":\"", 13) || !skipString(&p, end, canonical))
        return false;
    if (literal(&p, end, "\"}", 2))
        return p == end;
    if (!literal(&p, end, "\",\"stream\":\"", 12))
        return false;
    const char* stream = p;
    while (p < end && *p >= 'a' && *p <= 'z')
        ++p;
    return p != stream && literal(&p, end, "\"}", 2) && p == end;
}

/// Whether `line` still looks like the line that was indexed as canonical at its offset: the store's first key
/// and a closing brace. The index was made from these bytes and the files are only appended to, so this is the
/// check that a torn or replaced file would fail, not a second validation.
inline bool framesLine(QByteArrayView line)
{
    return line.size() >= MinimalLineBytes && std::memcmp(line.data(), "{\"timestamp\":\"", 14) == 0
        && line.back() == '}';
}

/// `line` as the encoder writes its entry: for lines that are not canonical (or no longer frame a line).
QByteArray encodedAgain(QByteArrayView line)
{
    return LogEntry::fromJsonLine(line).value_or(LogEntry()).toJsonLine();
}

/// Files kept open by all indexes (LogIndex::MaxKeptFiles).
std::atomic<int> keptFiles { 0 };

/// Counts one more kept file if the budget allows it.
bool keepFile()
{
    int n = keptFiles.load(std::memory_order_relaxed);
    while (n < LogIndex::MaxKeptFiles && !keptFiles.compare_exchange_weak(n, n + 1, std::memory_order_relaxed)) { }
    return n < LogIndex::MaxKeptFiles;
}

void releaseFile(int* fd)
{
    if (*fd < 0)
        return;
    ::close(*fd);
    *fd = -1;
    keptFiles.fetch_sub(1, std::memory_order_relaxed);
}

} // namespace

struct LogIndex::File {
    QString name;
    int fd = -1; ///< kept open between reads (see LogIndex::MaxKeptFiles); -1: opened per read
    qint64 indexedBytes = 0; ///< complete lines end here; a torn tail starts here
    qint64 lastEnd = 0; ///< where the last indexed line ends, after its newline
    quint64 inode = 0;
    bool known = false;
    std::vector<quint64> positions; ///< offset | level << LevelShift | flags, per valid line
    std::vector<qint64> timestamps; ///< µs, per valid line
    bool sorted = true; ///< timestamps never go back
    /// Runs of lines that the fast path could not read are parsed by QJsonDocument: counted, for tests and logs.
    qint64 slowLines = 0;

    qint64 lines() const { return qint64(timestamps.size()); }
    qint64 offset(qint64 i) const { return qint64(positions[size_t(i)] & OffsetMask); }
    int level(qint64 i) const { return int((positions[size_t(i)] >> LevelShift) & LevelMask); }
    bool canonical(qint64 i) const { return positions[size_t(i)] & CanonicalBit; }
    /// Line `i`'s length without its newline when the index knows it (the next indexed line starts right after
    /// it, or it is the last one); -1 when a skipped line follows it.
    qint64 knownLength(qint64 i) const
    {
        if (i + 1 < lines())
            return positions[size_t(i + 1)] & AdjacentBit ? offset(i + 1) - offset(i) - 1 : -1;
        return lastEnd - offset(i) - 1;
    }
    /// Where line `i` ends at the latest (its newline is before this).
    qint64 endBound(qint64 i) const { return i + 1 < lines() ? offset(i + 1) : indexedBytes; }
    /// Lines that start below `bytes`.
    qint64 linesBelow(qint64 bytes) const
    {
        const auto it = std::lower_bound(positions.begin(), positions.end(), bytes,
            [](quint64 pos, qint64 limit) { return qint64(pos & OffsetMask) < limit; });
        return qint64(it - positions.begin());
    }

    void clear()
    {
        indexedBytes = 0;
        lastEnd = 0;
        positions.clear();
        timestamps.clear();
        sorted = true;
    }

    /// `end`: where the line ends, after its newline.
    void add(qint64 offset, qint64 end, qint64 ts, int level, bool canonical)
    {
        if (!timestamps.empty() && ts < timestamps.back())
            sorted = false;
        positions.push_back(quint64(offset) | (quint64(level) << LevelShift) | (offset == lastEnd ? AdjacentBit : 0)
            | (canonical ? CanonicalBit : 0));
        timestamps.push_back(ts);
        lastEnd = end;
    }

    /// Indexes the complete lines of `fd` between indexedBytes and `limit`.
    void catchUp(int fd, qint64 limit)
    {
        size_t chunk = IndexChunk;
        std::vector<char> buffer;
        while (indexedBytes < limit) {
            const size_t want = size_t(std::min<qint64>(qint64(chunk), limit - indexedBytes));
            buffer.resize(want);
            const qint64 got = preadFully(fd, buffer.data(), want, indexedBytes);
            if (got <= 0)
                return;
            const char* begin = buffer.data();
            const char* p = begin;
            const char* end = begin + got;
            while (p < end) {
                const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
                if (!nl)
                    break;
                indexLine(p, size_t(nl - p), indexedBytes + (p - begin));
                p = nl + 1;
            }
            if (p == begin) {
                // No newline in the whole window: a line longer than it, or the torn tail.
                if (qint64(got) < limit - indexedBytes && got == qint64(want)) {
                    chunk *= 2;
                    continue;
                }
                return;
            }
            indexedBytes += p - begin;
        }
    }

    void indexLine(const char* p, size_t n, qint64 offset)
    {
        qint64 ts = 0;
        int level = 0;
        bool canonical = false;
        if (!parseStoreLine(p, n, &ts, &level, &canonical)) {
            ++slowLines;
            canonical = false;
            const std::optional<LogEntry> entry = LogEntry::fromJsonLine(QByteArrayView(p, qsizetype(n)));
            if (!entry)
                return; // not an entry: skipped, as a line-by-line read always skipped it
            ts = entry->timestampUs;
            level = int(entry->severityLevel());
        }
        add(offset, offset + qint64(n) + 1, ts, level, canonical);
    }
};

LogIndex::LogIndex(const QString& logsDir)
    : m_logsDir(logsDir)
{
}

LogIndex::~LogIndex()
{
    for (const auto& f : m_files)
        releaseFile(&f->fd);
}

LogIndex::File* LogIndex::file(const QString& name)
{
    for (const auto& f : m_files) {
        if (f->name == name)
            return f.get();
    }
    m_files.push_back(std::make_unique<File>());
    m_files.back()->name = name;
    return m_files.back().get();
}

LogIndex::Snapshot LogIndex::snapshot(const QString& logsDir, const QString& taskName)
{
    Snapshot files;
    const QByteArray dir = QFile::encodeName(logsDir);
    struct stat st { };
    if (!taskName.isEmpty()) {
        const QString name = taskName + QStringLiteral(".jsonl");
        const QByteArray path = dir + '/' + QFile::encodeName(name);
        if (::stat(path.constData(), &st) == 0 && S_ISREG(st.st_mode))
            files.push_back({ name, qint64(st.st_size), quint64(st.st_ino) });
        return files;
    }
    DIR* listing = ::opendir(dir.constData());
    if (!listing)
        return files;
    while (const dirent* entry = ::readdir(listing)) {
        const char* name = entry->d_name;
        const size_t n = std::strlen(name);
        if (n <= 6 || name[0] == '.' || std::memcmp(name + n - 6, ".jsonl", 6) != 0)
            continue;
        if (::fstatat(::dirfd(listing), name, &st, 0) == 0 && S_ISREG(st.st_mode))
            files.push_back({ QFile::decodeName(name), qint64(st.st_size), quint64(st.st_ino) });
    }
    ::closedir(listing);
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return files;
}

LogIndex::Snapshot LogIndex::currentFiles(const QString& taskName)
{
    if (!taskName.isEmpty())
        return snapshot(m_logsDir, taskName);
    struct stat st { };
    if (::stat(QFile::encodeName(m_logsDir).constData(), &st) != 0)
        return {};
    const qint64 mtimeNs = qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    std::lock_guard<QMutex> lock(m_listingMutex);
    if (!m_listing.trusted || m_listing.inode != quint64(st.st_ino) || m_listing.mtimeNs != mtimeNs) {
        Snapshot files = snapshot(m_logsDir);
        timespec now {};
        ::clock_gettime(CLOCK_REALTIME, &now);
        m_listing.trusted = qint64(now.tv_sec) * 1000000000 + now.tv_nsec - mtimeNs > 1000000000;
        m_listing.inode = quint64(st.st_ino);
        m_listing.mtimeNs = mtimeNs;
        m_listing.names.clear();
        for (const SnapshotFile& f : files)
            m_listing.names.emplace_back(f.name, QFile::encodeName(m_logsDir + QLatin1Char('/') + f.name));
        return files;
    }
    Snapshot files;
    files.reserve(m_listing.names.size());
    for (const auto& [name, path] : m_listing.names) {
        if (::stat(path.constData(), &st) == 0 && S_ISREG(st.st_mode))
            files.push_back({ name, qint64(st.st_size), quint64(st.st_ino) });
    }
    return files;
}

bool LogIndex::isCanonicalLine(QByteArrayView line)
{
    qint64 ts = 0;
    int level = 0;
    bool canonical = false;
    return parseStoreLine(line.data(), size_t(line.size()), &ts, &level, &canonical) && canonical;
}

/// The entries of a page, found and read: their bytes, where each line is in them, in merged order.
struct LogIndex::Fetched {
    struct Entry {
        qint64 at = 0; ///< where the line starts in `bytes`
        qint64 size = -1; ///< its length without the newline; -1: it could not be read (the file shrank)
        bool canonical = false; ///< as indexed (File::canonical())
    };
    std::unique_ptr<char[]> bytes;
    std::vector<Entry> entries;
    bool more = false; ///< the merged, filtered order has entries after the page

    QByteArrayView line(const Entry& e) const { return QByteArrayView(bytes.get() + e.at, e.size); }
};

QList<QByteArray> LogIndex::read(const Snapshot& files, const LogQuery& query)
{
    Fetched fetched;
    fetch(files, query, &fetched, false);
    QList<QByteArray> out;
    out.reserve(qsizetype(fetched.entries.size()));
    for (const Fetched::Entry& e : fetched.entries) {
        if (e.size < 0)
            continue;
        const QByteArrayView line = fetched.line(e);
        out.append(e.canonical && framesLine(line) ? line.toByteArray() : encodedAgain(line));
    }
    return out;
}

LogIndex::PageInfo LogIndex::appendPage(
    const Snapshot& files, const LogQuery& query, QByteArrayView before, QByteArrayView after, QByteArray* out)
{
    Fetched fetched;
    fetch(files, query, &fetched, false);
    return assemble(fetched, before, after, out);
}

const LogIndex::RecentPage* LogIndex::recentPage(
    const Snapshot& files, const LogQuery& query, QByteArrayView before, QByteArrayView after) const
{
    for (auto it = m_recent.crbegin(); it != m_recent.crend(); ++it) {
        const LogQuery& q = it->query;
        if (q.afterIndex == query.afterIndex && q.limit == query.limit && q.taskName == query.taskName
            && q.minSeverity == query.minSeverity && q.contains == query.contains && q.trialId == query.trialId
            && it->before == before && it->after == after && it->files == files)
            return &*it;
    }
    return nullptr;
}

std::optional<LogIndex::PageInfo> LogIndex::appendPageNow(
    const Snapshot& files, const LogQuery& query, QByteArrayView before, QByteArrayView after, QByteArray* out)
{
    // A file of unknown inode could have been replaced by one of the same size: such a snapshot is not a key.
    const bool keyed = std::all_of(files.cbegin(), files.cend(), [](const SnapshotFile& f) { return f.inode != 0; });
    if (keyed) {
        const QMutexLocker lock(&m_recentMutex);
        if (const RecentPage* page = recentPage(files, query, before, after)) {
            out->append(page->bytes);
            return page->info;
        }
    }
    Fetched fetched;
    if (!fetch(files, query, &fetched, true))
        return std::nullopt;
    const qsizetype start = out->size();
    const PageInfo info = assemble(fetched, before, after, out);
    if (keyed) {
        const QMutexLocker lock(&m_recentMutex);
        if (m_recent.size() >= RecentPages)
            m_recent.erase(m_recent.begin());
        m_recent.push_back(RecentPage { files, query, before.toByteArray(), after.toByteArray(),
            QByteArray(out->constData() + start, out->size() - start), info });
    }
    return info;
}

LogIndex::PageInfo LogIndex::assemble(
    const Fetched& fetched, QByteArrayView before, QByteArrayView after, QByteArray* out)
{
    // The size first, so that `out` grows once: the canonical lines' own, the others' as encoded again.
    std::vector<std::pair<size_t, QByteArray>> encoded;
    qint64 bytes = 0, entries = 0;
    for (size_t i = 0; i < fetched.entries.size(); ++i) {
        const Fetched::Entry& e = fetched.entries[i];
        if (e.size < 0)
            continue;
        ++entries;
        const QByteArrayView line = fetched.line(e);
        if (e.canonical && framesLine(line)) {
            bytes += e.size;
        } else {
            encoded.emplace_back(i, encodedAgain(line));
            bytes += encoded.back().second.size();
        }
    }
    bytes += entries * (before.size() + after.size());
    const qsizetype start = out->size();
    // Room for what the caller closes the body with (`]`, a page token), so that it does not copy the page again.
    out->reserve(start + qsizetype(bytes) + 256);
    out->resize(start + qsizetype(bytes));
    char* w = out->data() + start;
    auto put = [&w](QByteArrayView b) {
        if (b.isEmpty())
            return;
        std::memcpy(w, b.data(), size_t(b.size()));
        w += b.size();
    };
    auto next = encoded.cbegin();
    for (size_t i = 0; i < fetched.entries.size(); ++i) {
        const Fetched::Entry& e = fetched.entries[i];
        if (e.size < 0)
            continue;
        put(before);
        if (next != encoded.cend() && next->first == i) {
            put(next->second);
            ++next;
        } else {
            put(fetched.line(e));
        }
        put(after);
    }
    return { entries, fetched.more };
}

bool LogIndex::fetch(const Snapshot& files, const LogQuery& query, Fetched* fetched, bool now)
{
    // Now: nothing that waits. A scan reads whole files; another read may hold the index for seconds (indexing).
    // A page that cannot fit in MaxBytesNow even with the shortest lines is not worth its merge here.
    if (now
        && (!query.contains.isEmpty() || !query.trialId.isEmpty()
            || qint64(query.limit) * MinimalLineBytes > MaxBytesNow))
        return false;
    std::unique_lock<QMutex> lock(m_mutex, std::defer_lock);
    if (!now)
        lock.lock();
    else if (!lock.try_lock())
        return false;

    // What each file contributes: its lines below the snapshot size, or (filtered) a list of those.
    struct Source {
        File* file = nullptr;
        int fd = -1;
        bool owned = false; ///< opened for this read (not the file's kept descriptor): closed after it
        qint64 count = 0;
        bool listed = false;
        std::vector<quint32> lines;

        qint64 size() const { return listed ? qint64(lines.size()) : count; }
        qint64 line(qint64 j) const { return listed ? qint64(lines[size_t(j)]) : j; }
        qint64 ts(qint64 j) const { return file->timestamps[size_t(line(j))]; }
        /// Entries with a timestamp below `t` (the entries are in timestamp order).
        qint64 below(qint64 t) const
        {
            qint64 lo = 0, hi = size();
            while (lo < hi) {
                const qint64 mid = lo + (hi - lo) / 2;
                if (ts(mid) < t)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            return lo;
        }
    };
    std::vector<Source> sources;
    sources.reserve(files.size());
    auto closeAll = qScopeGuard([&sources] {
        for (const Source& s : sources) {
            if (s.owned)
                ::close(s.fd);
        }
    });
    qint64 before = 0, after = 0;
    for (const SnapshotFile& entry : files) {
        const qint64 size = entry.size;
        File* f = file(entry.name);
        // The kept descriptor, while the name still holds that file and it did not shrink (the snapshot says).
        if (f->fd >= 0 && entry.inode == f->inode && size >= f->indexedBytes) {
            if (now && size > f->indexedBytes)
                return false;
            before += f->lines();
            f->catchUp(f->fd, size);
            after += f->lines();
            Source s;
            s.file = f;
            s.fd = f->fd;
            s.count = f->linesBelow(size);
            sources.push_back(std::move(s));
            continue;
        }
        const QString path = m_logsDir + QLatin1Char('/') + entry.name;
        const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        before += f->lines();
        bool owned = true;
        struct stat st { };
        if (::fstat(fd, &st) == 0) {
            // Another file under the same name (the job's folder was removed and made again): start over.
            const bool replaced = f->known && (quint64(st.st_ino) != f->inode || qint64(st.st_size) < f->indexedBytes);
            // Now: the index must hold every line of the snapshot already (a finished job's files).
            if (now && (replaced || !f->known || size > f->indexedBytes)) {
                ::close(fd);
                return false;
            }
            if (replaced)
                f->clear();
            f->inode = quint64(st.st_ino);
            f->known = true;
            // Keep this one (another file's kept descriptor is of no use now).
            releaseFile(&f->fd);
            if (keepFile()) {
                f->fd = fd;
                owned = false;
            }
        } else if (now) {
            ::close(fd);
            return false;
        }
        f->catchUp(fd, size);
        after += f->lines();
        Source s;
        s.file = f;
        s.fd = fd;
        s.owned = owned;
        s.count = f->linesBelow(size);
        sources.push_back(std::move(s));
    }
    m_lineCount.fetch_add(after - before, std::memory_order_relaxed);

    // Filters: the severity from the index; `contains` and `trialId` from the lines themselves (neither is
    // indexed).
    const int minLevel = query.minSeverity.isEmpty() ? 0 : int(logSeverityFromName(query.minSeverity));
    const bool scan = !query.contains.isEmpty() || !query.trialId.isEmpty();
    if (minLevel > 0 || scan) {
        // The text as it appears in a JSON line, when JSON would write it unescaped.
        QByteArray containsRaw;
        if (!query.contains.isEmpty()) {
            const QByteArray utf8 = query.contains.toUtf8();
            const bool plain = std::none_of(utf8.cbegin(), utf8.cend(),
                [](char ch) { return ch == '"' || ch == '\\' || ch == '/' || uchar(ch) < 0x20 || uchar(ch) >= 0x7f; });
            if (plain)
                containsRaw = utf8;
        }
        std::vector<char> buffer;
        for (Source& s : sources) {
            s.listed = true;
            const File& f = *s.file;
            if (!scan) {
                for (qint64 i = 0; i < s.count; ++i) {
                    if (f.level(i) >= minLevel)
                        s.lines.push_back(quint32(i));
                }
                continue;
            }
            // Read the file in windows of whole lines and test each line as a line-by-line read did.
            qint64 i = 0;
            while (i < s.count) {
                const qint64 from = f.offset(i);
                qint64 j = i + 1;
                while (j < s.count && f.endBound(j) - from <= qint64(IndexChunk))
                    ++j;
                const qint64 to = f.endBound(j - 1);
                buffer.resize(size_t(to - from));
                if (preadFully(s.fd, buffer.data(), buffer.size(), from) != qint64(buffer.size()))
                    break;
                for (qint64 k = i; k < j; ++k) {
                    if (f.level(k) < minLevel)
                        continue;
                    const char* p = buffer.data() + (f.offset(k) - from);
                    const char* nl
                        = static_cast<const char*>(std::memchr(p, '\n', size_t(buffer.data() + buffer.size() - p)));
                    const QByteArrayView line(p, nl ? nl - p : buffer.data() + buffer.size() - p);
                    if (!containsRaw.isEmpty() && !line.contains(containsRaw))
                        continue;
                    const std::optional<LogEntry> entry = LogEntry::fromJsonLine(line);
                    if (entry && (query.contains.isEmpty() || entry->message.contains(query.contains))
                        && (query.trialId.isEmpty() || entry->trialId == query.trialId))
                        s.lines.push_back(quint32(k));
                }
                i = j;
            }
        }
    }

    // The entries of the page, as (source, line), in merged order. Equal timestamps keep source order.
    std::vector<std::pair<int, qint64>> picked;
    const qint64 skip = std::max<qint64>(0, query.afterIndex);
    const qint64 limit = std::max(0, query.limit);
    std::vector<qint64> cursor(sources.size(), 0);
    qint64 total = 0;
    bool sorted = true;
    for (const Source& s : sources) {
        total += s.size();
        sorted = sorted && s.file->sorted;
    }
    if (skip >= total || limit == 0) {
        fetched->more = skip < total;
        return true;
    }
    if (sorted) {
        // The timestamp T of entry `skip`: the smallest T with more than `skip` entries at or below it.
        qint64 lo = std::numeric_limits<qint64>::max(), hi = std::numeric_limits<qint64>::min();
        for (const Source& s : sources) {
            if (s.size() > 0) {
                lo = std::min(lo, s.ts(0));
                hi = std::max(hi, s.ts(s.size() - 1));
            }
        }
        auto atOrBelow = [&sources](qint64 t) {
            qint64 n = 0;
            for (const Source& s : sources)
                n += t == std::numeric_limits<qint64>::max() ? s.size() : s.below(t + 1);
            return n;
        };
        // Narrow [lo, hi] first: each source's entry at its share of `skip` has a timestamp close to T when the
        // sources interleave (replicas logging at once), so the bisection then takes a few steps instead of one
        // per bit of the log's time span (each step is a binary search per source, cache misses mostly). Only a
        // bound that is checked is taken.
        qint64 nearLo = std::numeric_limits<qint64>::max(), nearHi = std::numeric_limits<qint64>::min();
        for (const Source& s : sources) {
            if (s.size() > 0) {
                const qint64 t = s.ts(std::min(s.size() - 1, qint64(double(skip) * double(s.size()) / double(total))));
                nearLo = std::min(nearLo, t);
                nearHi = std::max(nearHi, t);
            }
        }
        if (nearHi < hi && atOrBelow(nearHi) > skip)
            hi = nearHi;
        if (nearLo > lo && nearLo <= hi && atOrBelow(nearLo - 1) <= skip)
            lo = nearLo;
        while (lo < hi) {
            const qint64 mid = lo + (hi - lo) / 2;
            if (atOrBelow(mid) > skip)
                hi = mid;
            else
                lo = mid + 1;
        }
        // Entries before T, then those at T in source order, until `skip` are passed.
        qint64 rest = skip;
        for (const Source& s : sources)
            rest -= s.below(lo);
        for (size_t i = 0; i < sources.size(); ++i) {
            const qint64 first = sources[i].below(lo);
            const qint64 equal = sources[i].below(lo == std::numeric_limits<qint64>::max() ? lo : lo + 1) - first;
            const qint64 taken = std::min(rest, equal);
            cursor[i] = first + taken;
            rest -= taken;
        }
    }
    qint64 position = sorted ? skip : 0;
    // Each source's next timestamp (Exhausted past its end), so that a step loads one; the earliest is found
    // without branches, as replicas that log at once make the winner change at every step. Ties go to the first
    // source, as the merge has always broken them. The sources are seen through flat views, so that a step's load
    // depends on nothing but the cursor. Each pick is also filed under its source (the reads go file by file).
    constexpr qint64 Exhausted = std::numeric_limits<qint64>::max();
    struct Lane {
        const qint64* ts; ///< the file's timestamps
        const quint32* lines; ///< a filter's lines of the file; null: every line below `size`
        qint64 size;
        qint64 line(qint64 j) const { return lines ? qint64(lines[j]) : j; }
        qint64 at(qint64 j) const { return j < size ? ts[line(j)] : Exhausted; }
    };
    std::vector<Lane> lanes;
    lanes.reserve(sources.size());
    for (const Source& s : sources)
        lanes.push_back({ s.file->timestamps.data(), s.listed ? s.lines.data() : nullptr, s.size() });
    std::vector<qint64> head(sources.size());
    for (size_t i = 0; i < sources.size(); ++i)
        head[i] = lanes[i].at(cursor[i]);
    const size_t pageEntries = size_t(std::min(limit, total - position));
    picked.reserve(pageEntries);
    std::vector<std::vector<size_t>> mine(sources.size()); // per source, indices into picked, in line order
    for (size_t i = 0; i < sources.size(); ++i)
        mine[i].reserve(size_t(std::min(qint64(pageEntries), std::max<qint64>(0, lanes[i].size - cursor[i]))));
    while (qint64(picked.size()) < limit && !sources.empty()) {
        size_t best = 0;
        qint64 bestTs = head[0];
        for (size_t i = 1; i < head.size(); ++i) {
            const bool earlier = head[i] < bestTs;
            best = earlier ? i : best;
            bestTs = earlier ? head[i] : bestTs;
        }
        qint64& c = cursor[best];
        if (c >= lanes[best].size)
            break; // every source is exhausted
        if (position++ >= skip) {
            const qint64 line = lanes[best].line(c);
            // Now: a line to encode again is a JSON parse, left to the pool.
            if (now && !sources[best].file->canonical(line))
                return false;
            mine[best].push_back(picked.size());
            picked.emplace_back(int(best), line);
        }
        ++c;
        head[best] = lanes[best].at(c);
    }

    for (size_t i = 0; i < sources.size() && !fetched->more; ++i)
        fetched->more = cursor[i] < sources[i].size();

    // Read the picked lines, file by file, coalescing near ones into one pread, into one buffer for the page.
    struct Range {
        size_t source;
        qint64 from, to; ///< bytes of the file
        qint64 at; ///< where they go in the buffer
        size_t first, last; ///< indices into `mine` of the source
    };
    std::vector<Range> ranges;
    qint64 bufferBytes = 0;
    for (size_t si = 0; si < sources.size(); ++si) {
        const File& f = *sources[si].file;
        const std::vector<size_t>& m = mine[si];
        size_t a = 0;
        while (a < m.size()) {
            size_t b = a + 1;
            while (b < m.size() && f.offset(picked[m[b]].second) - f.endBound(picked[m[b - 1]].second) < CoalesceGap)
                ++b;
            const qint64 from = f.offset(picked[m[a]].second);
            const qint64 to = f.endBound(picked[m[b - 1]].second);
            ranges.push_back({ si, from, to, bufferBytes, a, b });
            bufferBytes += to - from;
            a = b;
        }
    }
    if (now && bufferBytes > MaxBytesNow)
        return false;
    // Not value-initialised: every byte is read into before it is looked at.
    fetched->bytes.reset(new char[size_t(std::max<qint64>(bufferBytes, 1))]);
    fetched->entries.assign(picked.size(), {});
    for (const Range& r : ranges) {
        const Source& s = sources[r.source];
        const File& f = *s.file;
        char* buffer = fetched->bytes.get() + r.at;
        const size_t want = size_t(r.to - r.from);
        if (now && !preadCached(s.fd, buffer, want, r.from))
            return false;
        const qint64 got = now ? qint64(want) : preadFully(s.fd, buffer, want, r.from);
        for (size_t k = r.first; k < r.last && got > 0; ++k) {
            const size_t entry = mine[r.source][k];
            const qint64 line = picked[entry].second;
            const qint64 at = f.offset(line) - r.from;
            if (at >= got)
                break;
            // The line's length from the index where it knows it (checked: a newline ends it there), else its newline.
            qint64 length = f.knownLength(line);
            if (length < 0 || at + length >= got || buffer[at + length] != '\n') {
                const char* p = buffer + at;
                const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(got - at)));
                length = nl ? nl - p : got - at;
            }
            fetched->entries[entry] = { r.at + at, length, f.canonical(line) };
        }
    }
    return true;
}

} // namespace Trainyard
