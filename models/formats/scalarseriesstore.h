// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "eventfilereader.h"
#include "scalarcolumns.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Trainyard::Formats {

/// The points of one (run, tag) in arrival order (after restart purges), in ScalarColumns chunks
/// of chunkPoints points (384 or 512 KiB for float scalars) so a long series never reallocates and copies
/// itself, and its overhead stays below one chunk; the first chunk grows geometrically so short
/// series stay small. Float scalars cost 12 bytes a point at evenly spaced steps and 16 at other
/// ordinary steps (see ScalarColumns).
class ScalarSeries {
public:
    static constexpr qsizetype chunkPoints = 32768;

    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    ScalarPoint at(qsizetype i) const { return m_chunks[size_t(i / chunkPoints)].point(size_t(i % chunkPoints)); }
    ScalarPoint last() const { return m_chunks.back().point(m_chunks.back().size() - 1); }
    /// Largest step stored; std::numeric_limits<qint64>::min() when empty.
    qint64 maxStep() const { return m_maxStep; }

    Q_ALWAYS_INLINE void append(const ScalarPoint& point)
    {
        if (m_chunks.empty() || qsizetype(m_chunks.back().size()) == chunkPoints) [[unlikely]]
            startChunk();
        m_chunks.back().append(point.step, point.wallTime, point.value);
        ++m_size;
        m_maxStep = std::max(m_maxStep, point.step);
    }
    /// Removes every point whose step is ≥ `step`, keeping the order of the rest (TensorBoard's
    /// `Reservoir.FilterItems(lambda x: x.step < step)`). Returns how many were removed.
    qsizetype removeFromStep(qint64 step);
    /// Heap bytes held by the points (column capacities and the chunk table).
    size_t memoryBytes() const;

private:
    void startChunk();

    std::vector<ScalarColumns> m_chunks;
    qsizetype m_size = 0;
    qint64 m_maxStep = std::numeric_limits<qint64>::min();
};

/// The scalars of one run (TensorBoard: one directory of event files, read in file-name order),
/// with TensorBoard's restart rules. Feed it with EventFileReader::readAvailable(); it is a
/// ScalarSink.
///
/// Restart rules (tensorboard/backend/event_processing/event_accumulator.py):
/// - Step going back: a Summary event whose step is below the run's most recent summary step
///   (a trainer resumed from an older checkpoint) removes, for each tag in that event, the points
///   with step ≥ the event's step before its own point is added; the most recent step only moves
///   forward. This is TensorBoard's `_CheckForOutOfOrderStepAndMaybePurge` (by tags). TensorBoard
///   applies it only to files without `file_version` ≥ 2; we apply it always, because PyTorch and
///   TF2 writers never write the SessionLog that TensorBoard waits for, and a resumed trainer's
///   new event file would otherwise show both runs' points interleaved. Unlike TensorBoard, non-
///   summary events (file_version, graphs) do not reset the most recent step, so a resumed
///   trainer's fresh file (which starts with a step-0 file_version record) still purges.
/// - SessionLog START at step s (TF1 Supervisor/MonitoredSession restarts): removes the points of
///   every tag with step ≥ s (`_CheckForRestartAndMaybePurge`), and s becomes the most recent step.
///
/// Not thread-safe: one thread feeds and reads it (the executor's parser thread hands out copies).
class ScalarRun final : public ScalarSink {
public:
    explicit ScalarRun(const QString& name);
    ~ScalarRun() override;
    ScalarRun(const ScalarRun&) = delete;
    ScalarRun& operator=(const ScalarRun&) = delete;

    QString name() const { return m_name; }

    // Both are defined here so that EventFileReader::readAvailable(), given a ScalarRun, inlines them into
    // its record loop; the rare cases (restarts, a tag other than the predicted one) are out of line.
    Q_ALWAYS_INLINE void beginEvent(const EventInfo& event) override
    {
        m_purgeTagsOfEvent = false;
        if (event.kind == EventInfo::Kind::Summary) [[likely]] {
            if (event.step < m_mostRecentStep) [[unlikely]]
                m_purgeTagsOfEvent = true;
            else
                m_mostRecentStep = event.step;
        } else if (event.kind == EventInfo::Kind::SessionStart) {
            purgeFromStep(event.step);
        }
    }
    Q_ALWAYS_INLINE void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        // Trainers write their tags in the same order at every step, so the tag is most often the one
        // that followed the previous tag last time.
        Entry* e = m_lastEntry ? m_lastEntry->next : nullptr;
        if (e && sameBytes(e->tagUtf8, tag)) [[likely]]
            m_lastEntry = e;
        else
            e = &entry(tag);
        if (m_purgeTagsOfEvent) [[unlikely]]
            m_purged += e->series.removeFromStep(step);
        e->series.append({ step, wallTime, value });
    }

    /// Tags in order of first appearance.
    QStringList tags() const;
    /// The series of `tag`, or nullptr.
    const ScalarSeries* series(const QString& tag) const;
    qsizetype pointCount() const;
    /// Points removed by restart rules so far.
    qsizetype purgedPoints() const { return m_purged; }
    /// Heap bytes held by this run's points, tags and index (an estimate for the index).
    size_t memoryBytes() const;

private:
    struct Entry {
        QByteArray tagUtf8;
        QString tag;
        ScalarSeries series;
        Entry* next = nullptr; ///< the entry whose point came after this one's last time
    };
    /// The entry of `tag`, created when new; links it as the previous tag's successor.
    Entry& entry(QByteArrayView tag);
    /// SessionLog START at `step`: every tag loses its points with step ≥ `step`.
    void purgeFromStep(qint64 step);
    /// Whether `stored` holds exactly the bytes of `tag`; inline word compares instead of a call to
    /// memcmp for the short tags of training runs.
    static bool sameBytes(const QByteArray& stored, QByteArrayView tag)
    {
        const size_t n = size_t(tag.size());
        if (size_t(stored.size()) != n)
            return false;
        const char* a = stored.constData();
        const char* b = tag.data();
        if (n >= 8 && n <= 16) {
            // Two overlapping 8-byte words cover the whole tag.
            quint64 a0, b0, a1, b1;
            std::memcpy(&a0, a, 8);
            std::memcpy(&b0, b, 8);
            std::memcpy(&a1, a + n - 8, 8);
            std::memcpy(&b1, b + n - 8, 8);
            return ((a0 ^ b0) | (a1 ^ b1)) == 0;
        }
        return std::memcmp(a, b, n) == 0;
    }

    QString m_name;
    std::vector<std::unique_ptr<Entry>> m_entries;
    // Keys view Entry::tagUtf8, which never moves (entries are heap-allocated and never removed).
    std::unordered_map<std::string_view, Entry*> m_index;
    Entry* m_lastEntry = nullptr;
    qint64 m_mostRecentStep = std::numeric_limits<qint64>::min();
    bool m_purgeTagsOfEvent = false;
    qsizetype m_purged = 0;
};

/// Runs by name. Run names are TensorBoard's: the event file's directory relative to the log dir
/// ("." for the log dir itself).
class ScalarSeriesStore {
public:
    ScalarSeriesStore();
    ~ScalarSeriesStore();
    ScalarSeriesStore(const ScalarSeriesStore&) = delete;
    ScalarSeriesStore& operator=(const ScalarSeriesStore&) = delete;

    /// The run called `name`, created empty when absent. The reference stays valid for the
    /// store's lifetime.
    ScalarRun& run(const QString& name);
    const ScalarRun* findRun(const QString& name) const;
    /// Run names, sorted.
    QStringList runNames() const;
    qsizetype pointCount() const;
    size_t memoryBytes() const;

private:
    std::vector<std::unique_ptr<ScalarRun>> m_runs;
};

} // namespace Trainyard::Formats
