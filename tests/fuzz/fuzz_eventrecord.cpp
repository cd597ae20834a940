// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as one Event record. decodeEventRecord() (fixed-position fast path for
// simple_value events, then the general field loop) must give exactly what the general loop alone gives:
// the same success, the same event and the same scalars, bit for bit.
#include "eventfilereader.h"

#include <QByteArray>
#include <QString>

#include <cstring>
#include <vector>

namespace {

struct Recorder final : Trainyard::Formats::ScalarSink {
    struct Row {
        QByteArray tag;
        qint64 step;
        quint64 wallBits;
        quint64 valueBits;
        bool operator==(const Row&) const = default;
    };
    std::vector<Trainyard::Formats::EventInfo> events;
    std::vector<Row> rows;

    void beginEvent(const Trainyard::Formats::EventInfo& event) override { events.push_back(event); }
    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        Row row { tag.toByteArray(), step, 0, 0 };
        std::memcpy(&row.wallBits, &wallTime, 8);
        std::memcpy(&row.valueBits, &value, 8);
        rows.push_back(row);
    }
};

bool sameEvents(const Recorder& a, const Recorder& b)
{
    if (a.events.size() != b.events.size())
        return false;
    for (size_t i = 0; i < a.events.size(); ++i) {
        const auto& x = a.events[i];
        const auto& y = b.events[i];
        if (x.kind != y.kind || x.step != y.step || x.offset != y.offset
            || std::memcmp(&x.wallTime, &y.wallTime, sizeof(double)) != 0)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const char* bytes = reinterpret_cast<const char*>(data);
    Recorder fast;
    Recorder general;
    QString fastError;
    QString generalError;
    const bool fastOk = Trainyard::Formats::decodeEventRecord(bytes, size, 42, fast, &fastError);
    const bool generalOk = Trainyard::Formats::Detail::decodeEventRecordGeneral(bytes, size, 42, general, &generalError);
    if (fastOk != generalOk || fastError != generalError || !sameEvents(fast, general) || fast.rows != general.rows)
        __builtin_trap();
    if (!fastOk && fastError.isEmpty())
        __builtin_trap();
    return 0;
}
