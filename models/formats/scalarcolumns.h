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

/// Allocator of point columns. On Linux, blocks of 128 KiB and more are cut from 2 MiB-aligned
/// mappings with transparent huge pages asked for (madvise(MADV_HUGEPAGE)), so storing points, which
/// touches fresh memory at 16 to 24 bytes a point, takes one page fault per 2 MiB instead of one per
/// 4 KiB; per-4 KiB faults cost more than decoding the records on the virtual machines this was
/// measured on. Freed blocks are kept for reuse up to 64 MiB in all, the rest goes straight back to the
/// system (scalarseriesstore.cpp's SlabArena says why). Blocks below 128 KiB use malloc.
template <typename T> struct PointChunkAllocator {
    using value_type = T;
    PointChunkAllocator() = default;
    template <typename U> PointChunkAllocator(const PointChunkAllocator<U>&) noexcept { }
    T* allocate(size_t n) { return static_cast<T*>(allocateChunkBytes(n * sizeof(T))); }
    void deallocate(T* p, size_t n) noexcept { freeChunkBytes(p, n * sizeof(T)); }
    template <typename U> bool operator==(const PointChunkAllocator<U>&) const noexcept { return true; }
    static void* allocateChunkBytes(size_t bytes);
    static void freeChunkBytes(void* p, size_t bytes) noexcept;
    /// Bytes of the blocks of 128 KiB and more currently handed out, for every T and thread together
    /// (malloc's statistics do not see them).
    static size_t mappedBytes() noexcept;
};

/// Scalar points (step, wall time, value) in arrival order, stored column by column and compactly:
/// - step: nothing while the steps go up (or down) by one fixed stride, as a trainer that logs every
///   N steps writes them; 4 bytes as an offset from the first step once they do not, as long as
///   every step fits (not below the first step, less than 2^32 above it); else 8 bytes. A point that
///   breaks the current form moves the column to the next one, rewriting the points already stored.
/// - wall time: 8 bytes, exact,
/// - value: 4 bytes while every value is exactly a float (event files' `simple_value` always is, NaN
///   included), else 8 bytes for every point.
/// So a series of float scalars at evenly spaced steps costs 12 bytes a point, at other ordinary
/// steps 16. Used as the chunk of ScalarSeries (the reader's store) and of the Metrics tab's
/// MetricSeriesData.
class ScalarColumns {
public:
    size_t size() const { return m_wall.size(); }
    bool isEmpty() const { return m_wall.empty(); }
    /// Reserves room for `n` points in every column (one allocation each, no later copies).
    void reserve(size_t n);

    qint64 step(size_t j) const
    {
        switch (m_stepForm) {
        case StepForm::Stride:
            // Unsigned: append() checked this very sum, wrapping included, so it is exact.
            return qint64(quint64(m_stepBase) + quint64(j) * m_stepStride);
        case StepForm::Narrow:
            return m_stepBase + qint64(m_stepNarrow[j]);
        case StepForm::Wide:
            break;
        }
        return m_stepWide[j];
    }
    double wallTime(size_t j) const { return m_wall[j]; }
    double value(size_t j) const { return m_wideValues ? m_valueWide[j] : double(m_valueNarrow[j]); }
    ScalarPoint point(size_t j) const { return { step(j), wallTime(j), value(j) }; }

    /// Whether values are kept as doubles (wideValues()) or floats (narrowValues()); for loops that
    /// scan a column without a branch per point. The pointers cover size() elements.
    bool hasWideValues() const { return m_wideValues; }
    const float* narrowValues() const { return m_valueNarrow.data(); }
    const double* wideValues() const { return m_valueWide.data(); }

    Q_ALWAYS_INLINE void append(qint64 step, double wallTime, double value)
    {
        const size_t n = m_wall.size();
        if (m_stepForm == StepForm::Stride) [[likely]] {
            if (n == 0) [[unlikely]]
                m_stepBase = step;
            else if (n == 1) [[unlikely]]
                m_stepStride = quint64(step) - quint64(m_stepBase);
            else if (quint64(step) != quint64(m_stepBase) + quint64(n) * m_stepStride) [[unlikely]]
                leaveStride();
        }
        if (m_stepForm != StepForm::Stride) {
            // Compared as unsigned so that a huge difference cannot overflow.
            const quint64 offset = quint64(step) - quint64(m_stepBase);
            if (m_stepForm == StepForm::Narrow && step >= m_stepBase && offset <= std::numeric_limits<quint32>::max())
                m_stepNarrow.push_back(quint32(offset));
            else
                appendWideStep(step);
        }
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

    /// Bytes a point's step takes now: 0 (one stride), 4 or 8.
    int stepBytes() const { return m_stepForm == StepForm::Stride ? 0 : m_stepForm == StepForm::Narrow ? 4 : 8; }

private:
    enum class StepForm : quint8 { Stride, Narrow, Wide };
    /// Writes the stored points' steps into the narrow column, or the wide one if one does not fit.
    void leaveStride();
    void appendWideStep(qint64 step);
    void appendWideValue(double value);

    template <typename T> using Column = std::vector<T, PointChunkAllocator<T>>;
    qint64 m_stepBase = 0;
    quint64 m_stepStride = 0; ///< step(j) = base + j * stride, wrapping; meaningful from 2 points on
    StepForm m_stepForm = StepForm::Stride;
    bool m_wideValues = false;
    Column<quint32> m_stepNarrow;
    Column<qint64> m_stepWide;
    Column<double> m_wall;
    Column<float> m_valueNarrow;
    Column<double> m_valueWide;
};

} // namespace Trainyard::Formats
