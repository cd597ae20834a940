// SPDX-License-Identifier: GPL-2.0-or-later
#include "rfc3339.h"

#include <QString>
#include <QTimeZone>

namespace Trainyard::Rfc3339 {

namespace {

// `n` decimal digits at `i`, advancing it; -1 unless all are digits.
int digits(QStringView t, qsizetype& i, int n)
{
    if (i + n > t.size())
        return -1;
    int v = 0;
    for (int k = 0; k < n; ++k) {
        const char16_t c = t[i + k].unicode();
        if (c < u'0' || c > u'9')
            return -1;
        v = v * 10 + (c - u'0');
    }
    i += n;
    return v;
}

bool expect(QStringView t, qsizetype& i, char16_t c)
{
    if (i >= t.size() || t[i].unicode() != c)
        return false;
    ++i;
    return true;
}

} // namespace

std::optional<qint64> parseUs(QStringView t)
{
    qsizetype i = 0;
    const int y = digits(t, i, 4);
    if (y < 0 || !expect(t, i, u'-'))
        return std::nullopt;
    const int mo = digits(t, i, 2);
    if (mo < 1 || mo > 12 || !expect(t, i, u'-'))
        return std::nullopt;
    const int d = digits(t, i, 2);
    if (d < 1 || d > daysInMonth(y, mo))
        return std::nullopt;
    if (i == t.size()) // a full-date alone: its midnight, UTC
        return daysFromCivil(y, mo, d) * 86400 * 1000000;
    const char16_t sep = t[i].unicode();
    if (sep != u'T' && sep != u't' && sep != u' ')
        return std::nullopt;
    ++i;
    const int h = digits(t, i, 2);
    if (h < 0 || h > 23 || !expect(t, i, u':'))
        return std::nullopt;
    const int mi = digits(t, i, 2);
    if (mi < 0 || mi > 59 || !expect(t, i, u':'))
        return std::nullopt;
    const int s = digits(t, i, 2);
    if (s < 0 || s > 60)
        return std::nullopt;
    qint64 fractionUs = 0;
    if (i < t.size() && t[i] == u'.') {
        ++i;
        const qsizetype first = i;
        qint64 scale = 100000;
        while (i < t.size() && t[i] >= u'0' && t[i] <= u'9') {
            fractionUs += (t[i].unicode() - u'0') * scale;
            scale /= 10;
            ++i;
        }
        if (i == first)
            return std::nullopt;
    }
    qint64 offsetSeconds = 0;
    if (i < t.size()) {
        const char16_t z = t[i].unicode();
        if (z == u'Z' || z == u'z') {
            ++i;
        } else if (z == u'+' || z == u'-') {
            ++i;
            const int oh = digits(t, i, 2);
            if (oh < 0 || oh > 23 || !expect(t, i, u':'))
                return std::nullopt;
            const int om = digits(t, i, 2);
            if (om < 0 || om > 59)
                return std::nullopt;
            offsetSeconds = (z == u'+' ? 1 : -1) * qint64(oh * 3600 + om * 60);
        } else {
            return std::nullopt;
        }
    }
    if (i != t.size())
        return std::nullopt;
    const qint64 seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offsetSeconds;
    return seconds * 1000000 + fractionUs;
}

QDateTime parse(QStringView text)
{
    const std::optional<qint64> us = parseUs(text);
    if (!us)
        return {};
    // Floor division: a time before 1970 with a fraction still rounds toward the past.
    const qint64 ms = *us >= 0 ? *us / 1000 : -((-*us + 999) / 1000);
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone(QTimeZone::UTC));
#else
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC); // Qt 6.4: no QTimeZone::UTC yet (6.8 deprecates this form)
#endif
}

QString format(const QDateTime& time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString now()
{
    return format(QDateTime::currentDateTimeUtc());
}

} // namespace Trainyard::Rfc3339
