// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QDateTime>
#include <QStringView>

#include <optional>

namespace Trainyard::Rfc3339 {

/// Days since 1970-01-01 of the proleptic Gregorian date `y`-`m`-`d` (month 1–12), for any year, without timegm()'s
/// time zone and range caveats: Howard Hinnant's days_from_civil (http://howardhinnant.github.io/date_algorithms.html).
/// Inline: the log index's fast path (LogIndex) reads a timestamp per line with it.
constexpr qint64 daysFromCivil(int y, int m, int d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const qint64 yoe = y - era * 400;
    const qint64 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const qint64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/// The days of month `m` (1–12) of year `y` in the Gregorian calendar (29 in February of a leap year).
constexpr int daysInMonth(int y, int m)
{
    constexpr int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

/// Parses an RFC 3339 date-time (section 5.6: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`) to microseconds since the
/// Unix epoch. The fraction may have any number of digits (the service writes 3 to 9; digits past the sixth are
/// dropped). `t` and a space are accepted for `T` and `z` for `Z`, as section 5.6's note allows; a time without an
/// offset is read as UTC, as the service stores times (and as the job filter has always read them), and a
/// full-date alone (`2026-11-22`, as gcloud's filters take one) as its midnight UTC. Ranges are
/// checked (month 1–12, day within the month, hour ≤ 23, minute ≤ 59, second ≤ 60 for a leap second, offset
/// ≤ 23:59). nullopt for anything else, including trailing text.
///
/// The one parser of every RFC 3339 time the executor stores and the clients read: job times, log and audit
/// entries' timestamps, tokens' times, checkpoints' update times.
std::optional<qint64> parseUs(QStringView text);

/// parseUs() as a UTC QDateTime (millisecond precision); invalid when `text` is empty or not RFC 3339.
QDateTime parse(QStringView text);

/// `time` in UTC with milliseconds ("2026-11-22T05:04:43.123Z"), how the executor writes its times; empty when
/// `time` is invalid.
QString format(const QDateTime& time);

/// The current time as format() writes it.
QString now();

} // namespace Trainyard::Rfc3339
