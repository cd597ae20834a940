// SPDX-License-Identifier: GPL-2.0-or-later
#include "scalarseriesstore.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>

#ifdef Q_OS_LINUX
#include <sys/mman.h>
#endif

namespace Trainyard::Formats {

namespace {
// Below this, malloc's own pools are cheaper than a mapping.
constexpr size_t mappedChunkMinBytes = 128 * 1024;
// Bytes of blocks handed out and not yet freed.
std::atomic<size_t> liveTotal { 0 };

#ifdef Q_OS_LINUX
constexpr size_t hugePageBytes = size_t(2) << 20;
constexpr size_t pageBytes = 4096;

/// Maps `bytes` (a multiple of 2 MiB) at a 2 MiB boundary and asks for transparent huge pages there
/// (madvise(MADV_HUGEPAGE); the kernel's default "madvise" mode gives them only where asked). With
/// them, storing points takes one page fault per 2 MiB instead of one per 4 KiB; on the virtual
/// machines this was measured on, 4 KiB faults cost more than decoding the records. Null on failure.
char* mapHugeAligned(size_t bytes)
{
    const size_t mapped = bytes + hugePageBytes;
    void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return nullptr;
    const auto start = reinterpret_cast<uintptr_t>(p);
    const uintptr_t aligned = (start + hugePageBytes - 1) & ~(hugePageBytes - 1);
    if (aligned > start)
        munmap(p, aligned - start);
    if (const uintptr_t tail = start + mapped - (aligned + bytes); tail > 0)
        munmap(reinterpret_cast<void*>(aligned + bytes), tail);
    madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
    return reinterpret_cast<char*>(aligned);
}

/// Blocks of 128 KiB to 8 MiB (a ScalarSeries chunk's columns are 128 or 256 KiB) are cut one after
/// another from 32 MiB slabs of huge pages, so that the columns of many series share the huge pages
/// instead of each touching a part of its own. Bigger blocks get a mapping of their own, also of huge
/// pages.
///
/// Freed blocks are kept for the next allocation of the same size, up to cacheLimit bytes in all; when a
/// freed block finds the cache full, the kept blocks of other sizes are unmapped first, and if that leaves no
/// room either, the block is unmapped at once (the kernel splits the huge page around it). Why keep
/// any (issue 17): a store that is filled, dropped and filled again (a file read again, a job's series
/// reloaded, bench_metrics' repeated parses) otherwise touches fresh memory each time, and the kernel
/// zeroes every new page on its first touch (clear_page: 15 % of a 200 MB parse here), more again in a
/// young virtual machine, whose host backs guest memory only when it is first touched. Kept blocks
/// stay resident; the limit bounds what a process holds that way.
class SlabArena {
public:
    static constexpr size_t slabBytes = size_t(32) << 20;
    static constexpr size_t maxSlabBlock = size_t(8) << 20;
    static constexpr size_t cacheLimit = size_t(64) << 20;

    /// Bytes actually mapped for a block of `bytes`: whole pages, and whole huge pages for a block
    /// with a mapping of its own. allocate() and free() must agree on it.
    static size_t mappedSize(size_t bytes)
    {
        const size_t rounded = (bytes + pageBytes - 1) & ~(pageBytes - 1);
        return rounded > maxSlabBlock ? (rounded + hugePageBytes - 1) & ~(hugePageBytes - 1) : rounded;
    }

    void* allocate(size_t bytes)
    {
        const size_t rounded = mappedSize(bytes);
        const std::lock_guard lock(m_mutex);
        if (const auto kept = m_kept.find(rounded); kept != m_kept.end() && !kept->second.empty()) {
            void* p = kept->second.back();
            kept->second.pop_back();
            m_keptBytes -= rounded;
            return p;
        }
        if (rounded > maxSlabBlock)
            return mapHugeAligned(rounded);
        if (m_left < rounded) {
            // The rest of the old slab is given back; blocks already cut from it stay mapped.
            if (m_left > 0)
                munmap(m_next, m_left);
            m_next = mapHugeAligned(slabBytes);
            m_left = m_next ? slabBytes : 0;
            if (!m_next)
                return nullptr;
        }
        char* p = m_next;
        m_next += rounded;
        m_left -= rounded;
        return p;
    }

    void free(void* p, size_t bytes) noexcept
    {
        const size_t rounded = mappedSize(bytes);
        {
            const std::lock_guard lock(m_mutex);
            if (m_keptBytes + rounded > cacheLimit) {
                // Full of blocks of other sizes (a store of another kind, chunked differently, let them go
                // earlier): those are unlikely to be asked for again soon, this size is.
                for (auto it = m_kept.begin(); it != m_kept.end();) {
                    if (it->first == rounded) {
                        ++it;
                        continue;
                    }
                    for (void* block : it->second)
                        munmap(block, it->first);
                    m_keptBytes -= it->first * it->second.size();
                    it = m_kept.erase(it);
                }
            }
            if (m_keptBytes + rounded <= cacheLimit) {
                try {
                    m_kept[rounded].push_back(p);
                    m_keptBytes += rounded;
                    return;
                } catch (const std::bad_alloc&) {
                    // no room to remember it: unmap it below
                }
            }
        }
        munmap(p, rounded);
    }

private:
    std::mutex m_mutex;
    char* m_next = nullptr;
    size_t m_left = 0;
    std::map<size_t, std::vector<void*>> m_kept; ///< freed blocks by mapped size
    size_t m_keptBytes = 0;
};

SlabArena& arena()
{
    static SlabArena instance;
    return instance;
}
#endif
} // namespace

template <typename T> size_t PointChunkAllocator<T>::mappedBytes() noexcept
{
    return liveTotal.load(std::memory_order_relaxed);
}

template <typename T> void* PointChunkAllocator<T>::allocateChunkBytes(size_t bytes)
{
#ifdef Q_OS_LINUX
    if (bytes >= mappedChunkMinBytes) {
        void* p = arena().allocate(bytes);
        if (!p)
            throw std::bad_alloc();
        liveTotal.fetch_add(bytes, std::memory_order_relaxed);
        return p;
    }
#endif
    void* p = std::malloc(bytes);
    if (!p)
        throw std::bad_alloc();
    return p;
}

template <typename T> void PointChunkAllocator<T>::freeChunkBytes(void* p, size_t bytes) noexcept
{
#ifdef Q_OS_LINUX
    if (bytes >= mappedChunkMinBytes) {
        arena().free(p, bytes);
        liveTotal.fetch_sub(bytes, std::memory_order_relaxed);
        return;
    }
#endif
    std::free(p);
}

template struct PointChunkAllocator<quint32>;
template struct PointChunkAllocator<qint64>;
template struct PointChunkAllocator<float>;
template struct PointChunkAllocator<double>;

void ScalarColumns::reserve(size_t n)
{
    if (m_stepForm == StepForm::Wide)
        m_stepWide.reserve(n);
    else if (m_stepForm == StepForm::Narrow)
        m_stepNarrow.reserve(n);
    if (m_wideValues)
        m_valueWide.reserve(n);
    else
        m_valueNarrow.reserve(n);
    m_wall.reserve(n);
}

void ScalarColumns::leaveStride()
{
    const size_t n = m_wall.size();
    bool narrow = true;
    for (size_t j = 0; j < n && narrow; ++j) {
        const qint64 s = step(j);
        narrow = s >= m_stepBase && quint64(s) - quint64(m_stepBase) <= std::numeric_limits<quint32>::max();
    }
    const size_t capacity = std::max<size_t>(m_wall.capacity(), 1);
    if (narrow) {
        m_stepNarrow.reserve(capacity);
        for (size_t j = 0; j < n; ++j)
            m_stepNarrow.push_back(quint32(quint64(step(j)) - quint64(m_stepBase)));
        m_stepForm = StepForm::Narrow;
    } else {
        m_stepWide.reserve(capacity);
        for (size_t j = 0; j < n; ++j)
            m_stepWide.push_back(step(j));
        m_stepForm = StepForm::Wide;
    }
}

void ScalarColumns::appendWideStep(qint64 step)
{
    if (m_stepForm == StepForm::Narrow) {
        m_stepWide.reserve(std::max<size_t>(m_stepNarrow.capacity(), 1));
        for (const quint32 offset : m_stepNarrow)
            m_stepWide.push_back(m_stepBase + qint64(offset));
        Column<quint32>().swap(m_stepNarrow);
        m_stepForm = StepForm::Wide;
    }
    m_stepWide.push_back(step);
}

void ScalarColumns::appendWideValue(double value)
{
    if (!m_wideValues) {
        m_valueWide.reserve(std::max<size_t>(m_valueNarrow.capacity(), 1));
        m_valueWide.assign(m_valueNarrow.begin(), m_valueNarrow.end());
        Column<float>().swap(m_valueNarrow);
        m_wideValues = true;
    }
    m_valueWide.push_back(value);
}

void ScalarColumns::truncate(size_t n)
{
    if (m_stepForm == StepForm::Wide)
        m_stepWide.resize(n);
    else if (m_stepForm == StepForm::Narrow)
        m_stepNarrow.resize(n);
    // In the stride form base and stride stay: the points kept follow them, and with fewer than two
    // left, the next append() sets the stride again.
    if (m_wideValues)
        m_valueWide.resize(n);
    else
        m_valueNarrow.resize(n);
    m_wall.resize(n);
}

size_t ScalarColumns::memoryBytes() const
{
    return m_stepNarrow.capacity() * sizeof(quint32) + m_stepWide.capacity() * sizeof(qint64)
        + m_wall.capacity() * sizeof(double) + m_valueNarrow.capacity() * sizeof(float)
        + m_valueWide.capacity() * sizeof(double);
}

void ScalarSeries::startChunk()
{
    m_chunks.emplace_back();
    // Only the first chunk grows geometrically; later ones are allocated whole, once.
    if (m_chunks.size() > 1)
        m_chunks.back().reserve(size_t(chunkPoints));
}

qsizetype ScalarSeries::removeFromStep(qint64 step)
{
    // Usually nothing to do: after the first purge of a restart every later point is newer.
    if (m_maxStep < step)
        return 0;
    ScalarSeries kept;
    for (qsizetype i = 0; i < m_size; ++i) {
        const ScalarPoint point = at(i);
        if (point.step < step)
            kept.append(point);
    }
    const qsizetype removed = m_size - kept.m_size;
    *this = std::move(kept);
    return removed;
}

size_t ScalarSeries::memoryBytes() const
{
    size_t bytes = m_chunks.capacity() * sizeof(ScalarColumns);
    for (const auto& chunk : m_chunks)
        bytes += chunk.memoryBytes();
    return bytes;
}

ScalarRun::ScalarRun(const QString& name)
    : m_name(name)
{
}

ScalarRun::~ScalarRun() = default;

void ScalarRun::purgeFromStep(qint64 step)
{
    for (const auto& entry : m_entries)
        m_purged += entry->series.removeFromStep(step);
    m_mostRecentStep = step;
}

ScalarRun::Entry& ScalarRun::entry(QByteArrayView tag)
{
    // scalar() has tried the tag that followed the previous one last time; next most likely is the
    // one just seen (one tag per event file).
    auto matches = [&](const Entry* e) { return e && sameBytes(e->tagUtf8, tag); };
    Entry* const previous = m_lastEntry;
    Entry* found = nullptr;
    if (matches(previous)) {
        found = previous;
    } else if (m_entries.size() <= 8) {
        // A handful of tags is the common case: comparing them beats hashing the tag.
        for (const auto& e : m_entries) {
            if (matches(e.get())) {
                found = e.get();
                break;
            }
        }
    }
    if (!found && m_entries.size() > 8) {
        const auto it = m_index.find(std::string_view(tag.data(), size_t(tag.size())));
        if (it != m_index.end())
            found = it->second;
    }
    if (!found) {
        auto created = std::make_unique<Entry>();
        created->tagUtf8 = tag.toByteArray();
        created->tag = QString::fromUtf8(created->tagUtf8);
        found = created.get();
        m_entries.push_back(std::move(created));
        m_index.emplace(std::string_view(found->tagUtf8.constData(), size_t(found->tagUtf8.size())), found);
    }
    if (previous)
        previous->next = found;
    m_lastEntry = found;
    return *found;
}

QStringList ScalarRun::tags() const
{
    QStringList result;
    result.reserve(qsizetype(m_entries.size()));
    for (const auto& e : m_entries)
        result.append(e->tag);
    return result;
}

const ScalarSeries* ScalarRun::series(const QString& tag) const
{
    const QByteArray key = tag.toUtf8();
    const auto it = m_index.find(std::string_view(key.constData(), size_t(key.size())));
    return it == m_index.end() ? nullptr : &it->second->series;
}

qsizetype ScalarRun::pointCount() const
{
    qsizetype points = 0;
    for (const auto& e : m_entries)
        points += e->series.size();
    return points;
}

size_t ScalarRun::memoryBytes() const
{
    size_t bytes = m_entries.capacity() * sizeof(void*);
    for (const auto& e : m_entries) {
        bytes
            += sizeof(Entry) + e->series.memoryBytes() + size_t(e->tagUtf8.capacity()) + size_t(e->tag.capacity()) * 2;
        // An unordered_map node: next pointer, key view, value pointer, cached hash.
        bytes += sizeof(void*) * 2 + sizeof(std::string_view) + sizeof(size_t);
    }
    bytes += m_index.bucket_count() * sizeof(void*);
    return bytes;
}

ScalarSeriesStore::ScalarSeriesStore() = default;
ScalarSeriesStore::~ScalarSeriesStore() = default;

ScalarRun& ScalarSeriesStore::run(const QString& name)
{
    for (const auto& r : m_runs) {
        if (r->name() == name)
            return *r;
    }
    m_runs.push_back(std::make_unique<ScalarRun>(name));
    return *m_runs.back();
}

const ScalarRun* ScalarSeriesStore::findRun(const QString& name) const
{
    for (const auto& r : m_runs) {
        if (r->name() == name)
            return r.get();
    }
    return nullptr;
}

QStringList ScalarSeriesStore::runNames() const
{
    QStringList names;
    for (const auto& r : m_runs)
        names.append(r->name());
    names.sort();
    return names;
}

qsizetype ScalarSeriesStore::pointCount() const
{
    qsizetype points = 0;
    for (const auto& r : m_runs)
        points += r->pointCount();
    return points;
}

size_t ScalarSeriesStore::memoryBytes() const
{
    size_t bytes = m_runs.capacity() * sizeof(void*);
    for (const auto& r : m_runs)
        bytes += sizeof(ScalarRun) + r->memoryBytes();
    return bytes;
}

} // namespace Trainyard::Formats
