// SPDX-License-Identifier: GPL-2.0-or-later
#include "scalarseriesstore.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#ifdef Q_OS_LINUX
#include <sys/mman.h>
#endif

namespace Trainyard::Formats {

namespace {
// Below this, malloc's own pools are cheaper than a mapping.
constexpr size_t mappedChunkMinBytes = 256 * 1024;
std::atomic<size_t> mappedTotal { 0 };
} // namespace

template <typename T> size_t PointChunkAllocator<T>::mappedBytes() noexcept
{
    return mappedTotal.load(std::memory_order_relaxed);
}

template <typename T> void* PointChunkAllocator<T>::allocateChunkBytes(size_t bytes)
{
#ifdef Q_OS_LINUX
    if (bytes >= mappedChunkMinBytes) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        mappedTotal.fetch_add(bytes, std::memory_order_relaxed);
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
        munmap(p, bytes);
        mappedTotal.fetch_sub(bytes, std::memory_order_relaxed);
        return;
    }
#endif
    std::free(p);
}

template struct PointChunkAllocator<ScalarPoint>;

void ScalarSeries::append(const ScalarPoint& point)
{
    if (m_chunks.empty() || qsizetype(m_chunks.back().size()) == chunkPoints) {
        m_chunks.emplace_back();
        // Only the first chunk grows geometrically; later ones are allocated whole, once.
        if (m_chunks.size() > 1)
            m_chunks.back().reserve(size_t(chunkPoints));
    }
    m_chunks.back().push_back(point);
    ++m_size;
    m_maxStep = std::max(m_maxStep, point.step);
}

qsizetype ScalarSeries::removeFromStep(qint64 step)
{
    // Usually nothing to do: after the first purge of a restart every later point is newer.
    if (m_maxStep < step)
        return 0;
    qsizetype kept = 0;
    qint64 maxStep = std::numeric_limits<qint64>::min();
    for (qsizetype i = 0; i < m_size; ++i) {
        const ScalarPoint point = at(i);
        if (point.step < step) {
            m_chunks[size_t(kept / chunkPoints)][size_t(kept % chunkPoints)] = point;
            maxStep = std::max(maxStep, point.step);
            ++kept;
        }
    }
    const qsizetype removed = m_size - kept;
    const size_t chunks = size_t((kept + chunkPoints - 1) / chunkPoints);
    m_chunks.resize(chunks);
    if (!m_chunks.empty())
        m_chunks.back().resize(size_t(kept - qsizetype(chunks - 1) * chunkPoints));
    m_size = kept;
    m_maxStep = maxStep;
    return removed;
}

size_t ScalarSeries::memoryBytes() const
{
    size_t bytes = m_chunks.capacity() * sizeof(Chunk);
    for (const auto& chunk : m_chunks)
        bytes += chunk.capacity() * sizeof(ScalarPoint);
    return bytes;
}

ScalarRun::ScalarRun(const QString& name)
    : m_name(name)
{
}

ScalarRun::~ScalarRun() = default;

void ScalarRun::beginEvent(const EventInfo& event)
{
    m_purgeTagsOfEvent = false;
    switch (event.kind) {
    case EventInfo::Kind::Summary:
        if (event.step < m_mostRecentStep)
            m_purgeTagsOfEvent = true;
        else
            m_mostRecentStep = event.step;
        break;
    case EventInfo::Kind::SessionStart:
        for (const auto& entry : m_entries)
            m_purged += entry->series.removeFromStep(event.step);
        m_mostRecentStep = event.step;
        break;
    default:
        break;
    }
}

ScalarRun::Entry& ScalarRun::entry(QByteArrayView tag)
{
    // Event files cycle through a handful of tags; consecutive records often repeat one.
    if (m_lastEntry && QByteArrayView(m_lastEntry->tagUtf8) == tag)
        return *m_lastEntry;
    // A handful of tags is the common case: comparing them beats hashing the tag.
    if (m_entries.size() <= 8) {
        for (const auto& e : m_entries) {
            if (e->tagUtf8.size() == tag.size()
                && std::memcmp(e->tagUtf8.constData(), tag.data(), size_t(tag.size())) == 0) {
                m_lastEntry = e.get();
                return *e;
            }
        }
    }
    const std::string_view key(tag.data(), size_t(tag.size()));
    const auto it = m_index.find(key);
    if (it != m_index.end()) {
        m_lastEntry = it->second;
        return *it->second;
    }
    auto created = std::make_unique<Entry>();
    created->tagUtf8 = tag.toByteArray();
    created->tag = QString::fromUtf8(created->tagUtf8);
    Entry* e = created.get();
    m_entries.push_back(std::move(created));
    m_index.emplace(std::string_view(e->tagUtf8.constData(), size_t(e->tagUtf8.size())), e);
    m_lastEntry = e;
    return *e;
}

void ScalarRun::scalar(QByteArrayView tag, qint64 step, double wallTime, double value)
{
    Entry& e = entry(tag);
    if (m_purgeTagsOfEvent)
        m_purged += e.series.removeFromStep(step);
    e.series.append({ step, wallTime, value });
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
