// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QtGlobal>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace Trainyard::Formats {

/// One scalar point as the stores hand it out: step, wall time (seconds since the Unix epoch) and
/// value. `value` is a double so DT_DOUBLE and int64 scalars keep their precision; float32 scalars
/// (the usual case) convert to it exactly, which is what TensorBoard's CSV shows (float32-derived
/// doubles such as 0.10511431843042374). The stores keep points column by column (ScalarColumns),
/// not as this 24-byte struct.
struct ScalarPoint {
    qint64 step;
    double wallTime; ///< seconds since the Unix epoch
    double value;
};
static_assert(sizeof(ScalarPoint) == 24, "ScalarPoint has no padding");

/// Allocator of point columns: big blocks come straight from mmap with MAP_POPULATE on Linux, so
/// the kernel maps all their pages in one call. Storing points touches fresh memory at 16 to 24
/// bytes a point, and taking one page fault per 4 KiB instead cost more than decoding the records
/// on the virtual machines this was measured on. Blocks below 128 KiB use malloc.
template <typename T> struct PointChunkAllocator {
    using value_type = T;
    PointChunkAllocator() = default;
    template <typename U> PointChunkAllocator(const PointChunkAllocator<U>&) noexcept { }
    T* allocate(size_t n) { return static_cast<T*>(allocateChunkBytes(n * sizeof(T))); }
    void deallocate(T* p, size_t n) noexcept { freeChunkBytes(p, n * sizeof(T)); }
    template <typename U> bool operator==(const PointChunkAllocator<U>&) const noexcept { return true; }
    static void* allocateChunkBytes(size_t bytes);
    static void freeChunkBytes(void* p, size_t bytes) noexcept;
    /// Bytes of blocks currently mapped with mmap, for every T and thread together (malloc's
    /// statistics do not see them).
    static size_t mappedBytes() noexcept;
};

/// Scalar points (step, wall time, value) in arrival order, stored column by column and compactly:
/// - step: 4 bytes as an offset from the first step; 8 bytes for every point once one step does not
///   fit (below the first step, or 2^32 or more above it),
/// - wall time: 8 bytes, exact,
/// - value: 4 bytes while every value is exactly a float (event files' `simple_value` always is, NaN
///   included), else 8 bytes for every point.
/// So a series of float scalars with ordinary steps costs 16 bytes a point. Used as the chunk of
/// ScalarSeries (the reader's store) and of the Metrics tab's MetricSeriesData.
class ScalarColumns {
public:
    size_t size() const { return m_wall.size(); }
    bool isEmpty() const { return m_wall.empty(); }
    /// Reserves room for `n` points in every column (one allocation each, no later copies).
    void reserve(size_t n);

    qint64 step(size_t j) const { return m_wideSteps ? m_stepWide[j] : m_stepBase + qint64(m_stepNarrow[j]); }
    double wallTime(size_t j) const { return m_wall[j]; }
    double value(size_t j) const { return m_wideValues ? m_valueWide[j] : double(m_valueNarrow[j]); }
    ScalarPoint point(size_t j) const { return { step(j), wallTime(j), value(j) }; }

    /// Whether values are kept as doubles (wideValues()) or floats (narrowValues()); for loops that
    /// scan a column without a branch per point. The pointers cover size() elements.
    bool hasWideValues() const { return m_wideValues; }
    const float* narrowValues() const { return m_valueNarrow.data(); }
    const double* wideValues() const { return m_valueWide.data(); }

    void append(qint64 step, double wallTime, double value)
    {
        if (m_wall.empty())
            m_stepBase = step;
        // Compared as unsigned so that a huge difference cannot overflow.
        const quint64 offset = quint64(step) - quint64(m_stepBase);
        if (!m_wideSteps && step >= m_stepBase && offset <= std::numeric_limits<quint32>::max()) [[likely]]
            m_stepNarrow.push_back(quint32(offset));
        else
            appendWideStep(step);
        const float f = float(value);
        if (!m_wideValues && (double(f) == value || std::isnan(value))) [[likely]]
            m_valueNarrow.push_back(f);
        else
            appendWideValue(value);
        m_wall.push_back(wallTime);
    }

    /// Keeps the first `n` points (n ≤ size()).
    void truncate(size_t n);
    /// Heap bytes held by the columns (their capacities).
    size_t memoryBytes() const;

private:
    void appendWideStep(qint64 step);
    void appendWideValue(double value);

    template <typename T> using Column = std::vector<T, PointChunkAllocator<T>>;
    qint64 m_stepBase = 0;
    bool m_wideSteps = false;
    bool m_wideValues = false;
    Column<quint32> m_stepNarrow;
    Column<qint64> m_stepWide;
    Column<double> m_wall;
    Column<float> m_valueNarrow;
    Column<double> m_valueWide;
};

} // namespace Trainyard::Formats
