// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QtGlobal>

#include <cmath>
#include <compare>

namespace Trainyard {

/// An amount of memory or disk, in bytes. The only way in and out is through named units, so GB
/// (10^9 bytes: Compute Engine's machine types, the catalog, the wizard, the status bar) and GiB (2^30:
/// what `free -g` and the kernel report) cannot be mixed by accident.
class Bytes {
public:
    constexpr Bytes() = default;
    static constexpr Bytes fromBytes(qint64 bytes) { return Bytes(bytes); }
    /// Decimal gigabytes, as Compute Engine documents machine types (n1-standard-4: 15 GB).
    static Bytes fromGb(double gb) { return Bytes(qint64(std::llround(gb * 1e9))); }
    /// Binary gibibytes.
    static Bytes fromGib(double gib) { return Bytes(qint64(std::llround(gib * 1073741824.0))); }

    constexpr qint64 bytes() const { return m_bytes; }
    double gb() const { return double(m_bytes) / 1e9; }
    double gib() const { return double(m_bytes) / 1073741824.0; }

    constexpr Bytes operator+(Bytes o) const { return Bytes(m_bytes + o.m_bytes); }
    constexpr Bytes operator-(Bytes o) const { return Bytes(m_bytes - o.m_bytes); }
    constexpr Bytes& operator+=(Bytes o)
    {
        m_bytes += o.m_bytes;
        return *this;
    }
    constexpr Bytes& operator-=(Bytes o)
    {
        m_bytes -= o.m_bytes;
        return *this;
    }
    constexpr Bytes operator*(int n) const { return Bytes(m_bytes * n); }
    constexpr auto operator<=>(const Bytes&) const = default;

private:
    constexpr explicit Bytes(qint64 bytes)
        : m_bytes(bytes)
    {
    }
    qint64 m_bytes = 0;
};

} // namespace Trainyard
