// SPDX-License-Identifier: GPL-2.0-or-later
#include "eventfilereader.h"

#include "scalarseriesstore.h"
#include "tfrecordreader_p.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QMap>
#include <QtEndian>

#include <google/protobuf/io/coded_stream.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace Trainyard::Formats {

namespace {

using google::protobuf::io::CodedInputStream;

enum WireType : std::uint32_t { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

constexpr std::uint32_t fieldTag(std::uint32_t field, WireType type)
{
    return (field << 3) | type;
}

// DataType values of tensorflow/core/framework/types.proto.
enum DataType : int { DtFloat = 1, DtDouble = 2, DtInt32 = 3, DtInt64 = 9, DtBfloat16 = 14, DtHalf = 19 };

struct View {
    const std::uint8_t* data = nullptr;
    int size = 0;
    bool present = false;
};

// Proto3 never uses groups, so a group wire type is malformed input for these messages.
Q_ALWAYS_INLINE bool skipField(CodedInputStream& in, std::uint32_t tag)
{
    switch (tag & 7) {
    case Varint: {
        std::uint64_t ignored;
        return in.ReadVarint64(&ignored);
    }
    case Fixed64:
        return in.Skip(8);
    case LengthDelimited: {
        std::uint32_t length;
        return in.ReadVarint32(&length) && in.Skip(int(length));
    }
    case Fixed32:
        return in.Skip(4);
    default:
        return false;
    }
}

Q_ALWAYS_INLINE bool readView(CodedInputStream& in, const std::uint8_t* base, View* view)
{
    std::uint32_t length;
    if (!in.ReadVarint32(&length) || length > std::uint32_t(std::numeric_limits<int>::max()))
        return false;
    const int position = in.CurrentPosition();
    if (!in.Skip(int(length)))
        return false;
    *view = { base + position, int(length), true };
    return true;
}

// A message ends cleanly when ReadTag() returned 0 exactly at its end; anywhere else the tag was
// 0 or a truncated varint.
bool endedCleanly(const CodedInputStream& in, const View& message)
{
    return in.CurrentPosition() == message.size;
}

// One repeated numeric field of TensorProto, packed or not: how many elements and the first one.
struct RepeatedFirst {
    int count = 0;
    std::uint64_t first = 0;
};

bool readRepeated(CodedInputStream& in, std::uint32_t wireType, WireType elementType, RepeatedFirst* field)
{
    auto readOne = [&](std::uint64_t* value) -> bool {
        switch (elementType) {
        case Varint:
            return in.ReadVarint64(value);
        case Fixed64:
            return in.ReadLittleEndian64(value);
        case Fixed32: {
            std::uint32_t v;
            if (!in.ReadLittleEndian32(&v))
                return false;
            *value = v;
            return true;
        }
        default:
            return false;
        }
    };
    if (wireType == std::uint32_t(elementType)) {
        std::uint64_t value;
        if (!readOne(&value))
            return false;
        if (field->count++ == 0)
            field->first = value;
        return true;
    }
    if (wireType != LengthDelimited)
        return false;
    std::uint32_t length;
    if (!in.ReadVarint32(&length))
        return false;
    const auto limit = in.PushLimit(int(length));
    while (in.BytesUntilLimit() > 0) {
        std::uint64_t value;
        if (!readOne(&value))
            return false;
        if (field->count++ == 0)
            field->first = value;
    }
    in.PopLimit(limit);
    return true;
}

double halfToDouble(std::uint16_t bits)
{
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    double magnitude;
    if (exponent == 0)
        magnitude = std::ldexp(double(mantissa), -24);
    else if (exponent == 31)
        magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        magnitude = std::ldexp(double(mantissa | 0x400), exponent - 25);
    return (bits & 0x8000) ? -magnitude : magnitude;
}

double bfloat16ToDouble(std::uint16_t bits)
{
    const std::uint32_t wide = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
}

double fromBits32(std::uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

double fromBits64(std::uint64_t bits)
{
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

// Rank 0 is a TensorShapeProto without `dim` entries and without `unknown_rank`.
bool isRankZero(const View& shape, bool* malformed)
{
    if (!shape.present || shape.size == 0)
        return true;
    CodedInputStream in(shape.data, shape.size);
    bool rankZero = true;
    while (const std::uint32_t tag = in.ReadTag()) {
        if (tag == fieldTag(2, LengthDelimited)) {
            rankZero = false;
        } else if (tag == fieldTag(3, Varint)) {
            std::uint64_t unknownRank;
            if (!in.ReadVarint64(&unknownRank)) {
                *malformed = true;
                return false;
            }
            if (unknownRank)
                rankZero = false;
            continue;
        }
        if (!skipField(in, tag)) {
            *malformed = true;
            return false;
        }
    }
    *malformed = !endedCleanly(in, shape);
    return rankZero && !*malformed;
}

enum class TensorScalar { Yes, NotScalar, Malformed };

TensorScalar decodeScalarTensor(const View& tensor, double* value)
{
    CodedInputStream in(tensor.data, tensor.size);
    std::uint64_t dtype = 0;
    View shape;
    View content;
    RepeatedFirst floats, doubles, ints, int64s, halves;
    while (const std::uint32_t tag = in.ReadTag()) {
        const std::uint32_t field = tag >> 3;
        const std::uint32_t wireType = tag & 7;
        bool ok = true;
        switch (field) {
        case 1:
            ok = wireType == Varint && in.ReadVarint64(&dtype);
            break;
        case 2:
            ok = wireType == LengthDelimited && readView(in, tensor.data, &shape);
            break;
        case 4:
            ok = wireType == LengthDelimited && readView(in, tensor.data, &content);
            break;
        case 5:
            ok = readRepeated(in, wireType, Fixed32, &floats);
            break;
        case 6:
            ok = readRepeated(in, wireType, Fixed64, &doubles);
            break;
        case 7:
            ok = readRepeated(in, wireType, Varint, &ints);
            break;
        case 10:
            ok = readRepeated(in, wireType, Varint, &int64s);
            break;
        case 13:
            ok = readRepeated(in, wireType, Varint, &halves);
            break;
        default:
            ok = skipField(in, tag);
        }
        if (!ok)
            return TensorScalar::Malformed;
    }
    if (!endedCleanly(in, tensor))
        return TensorScalar::Malformed;

    int elementSize;
    const RepeatedFirst* typed;
    switch (int(dtype)) {
    case DtFloat:
        elementSize = 4;
        typed = &floats;
        break;
    case DtDouble:
        elementSize = 8;
        typed = &doubles;
        break;
    case DtInt32:
        elementSize = 4;
        typed = &ints;
        break;
    case DtInt64:
        elementSize = 8;
        typed = &int64s;
        break;
    case DtHalf:
    case DtBfloat16:
        elementSize = 2;
        typed = &halves;
        break;
    default:
        return TensorScalar::NotScalar;
    }
    bool malformedShape = false;
    if (!isRankZero(shape, &malformedShape))
        return malformedShape ? TensorScalar::Malformed : TensorScalar::NotScalar;

    std::uint64_t bits = 0;
    if (content.present && content.size > 0) {
        if (content.size != elementSize)
            return TensorScalar::NotScalar;
        // tensor_content is little-endian, as is every platform this builds on (x86-64, arm64).
        std::memcpy(&bits, content.data, size_t(elementSize));
    } else if (typed->count == 1) {
        bits = typed->first;
    } else if (typed->count > 1) {
        return TensorScalar::NotScalar;
    }
    switch (int(dtype)) {
    case DtFloat:
        *value = fromBits32(std::uint32_t(bits));
        break;
    case DtDouble:
        *value = fromBits64(bits);
        break;
    case DtInt32:
        *value = double(std::int32_t(std::uint32_t(bits)));
        break;
    case DtInt64:
        *value = double(std::int64_t(bits));
        break;
    case DtHalf:
        *value = halfToDouble(std::uint16_t(bits));
        break;
    case DtBfloat16:
        *value = bfloat16ToDouble(std::uint16_t(bits));
        break;
    }
    return TensorScalar::Yes;
}

// SummaryMetadata.plugin_data.plugin_name, or an empty view.
bool pluginName(const View& metadata, View* name)
{
    CodedInputStream in(metadata.data, metadata.size);
    View pluginData;
    while (const std::uint32_t tag = in.ReadTag()) {
        if (tag == fieldTag(1, LengthDelimited)) {
            if (!readView(in, metadata.data, &pluginData))
                return false;
        } else if (!skipField(in, tag)) {
            return false;
        }
    }
    if (!endedCleanly(in, metadata))
        return false;
    if (!pluginData.present)
        return true;
    CodedInputStream data(pluginData.data, pluginData.size);
    while (const std::uint32_t tag = data.ReadTag()) {
        if (tag == fieldTag(1, LengthDelimited)) {
            if (!readView(data, pluginData.data, name))
                return false;
        } else if (!skipField(data, tag)) {
            return false;
        }
    }
    return endedCleanly(data, pluginData);
}

bool decodeValue(const View& valueBytes, qint64 step, double wallTime, ScalarSink& sink, QString* error)
{
    CodedInputStream in(valueBytes.data, valueBytes.size);
    View tag;
    View tensor;
    View metadata;
    bool hasSimpleValue = false;
    std::uint32_t simpleValueBits = 0;
    while (const std::uint32_t t = in.ReadTag()) {
        bool ok = true;
        switch (t) {
        case fieldTag(1, LengthDelimited):
            ok = readView(in, valueBytes.data, &tag);
            break;
        case fieldTag(2, Fixed32):
            ok = in.ReadLittleEndian32(&simpleValueBits);
            hasSimpleValue = true;
            tensor = {};
            break;
        case fieldTag(8, LengthDelimited):
            ok = readView(in, valueBytes.data, &tensor);
            hasSimpleValue = false;
            break;
        case fieldTag(9, LengthDelimited):
            ok = readView(in, valueBytes.data, &metadata);
            break;
        case fieldTag(3, LengthDelimited): // the other members of the `value` oneof: histograms,
        case fieldTag(4, LengthDelimited): // images, audio
        case fieldTag(5, LengthDelimited):
        case fieldTag(6, LengthDelimited):
            hasSimpleValue = false;
            tensor = {};
            ok = skipField(in, t);
            break;
        default:
            ok = skipField(in, t);
        }
        if (!ok) {
            *error = QStringLiteral("malformed Summary.Value");
            return false;
        }
    }
    if (!endedCleanly(in, valueBytes)) {
        *error = QStringLiteral("malformed Summary.Value");
        return false;
    }
    const QByteArrayView tagView(reinterpret_cast<const char*>(tag.data), tag.size);
    if (hasSimpleValue) {
        sink.scalar(tagView, step, wallTime, fromBits32(simpleValueBits));
        return true;
    }
    if (!tensor.present)
        return true;
    if (metadata.present) {
        View name;
        if (!pluginName(metadata, &name)) {
            *error = QStringLiteral("malformed SummaryMetadata of tag \"%1\"").arg(QString::fromUtf8(tagView));
            return false;
        }
        if (name.size > 0
            && QByteArrayView(reinterpret_cast<const char*>(name.data), name.size) != QByteArrayView("scalars"))
            return true;
    }
    double value = 0;
    switch (decodeScalarTensor(tensor, &value)) {
    case TensorScalar::Yes:
        sink.scalar(tagView, step, wallTime, value);
        return true;
    case TensorScalar::NotScalar:
        return true;
    case TensorScalar::Malformed:
        *error = QStringLiteral("malformed TensorProto of tag \"%1\"").arg(QString::fromUtf8(tagView));
        return false;
    }
    return true;
}

// A varint of at most `maxBytes` bytes at *p (before end); false when it is longer or cut off.
Q_ALWAYS_INLINE bool readShortVarint(const std::uint8_t*& p, const std::uint8_t* end, int maxBytes, std::uint64_t* value)
{
    std::uint64_t result = 0;
    for (int i = 0; i < maxBytes && p < end; ++i) {
        const std::uint8_t byte = *p++;
        result |= std::uint64_t(byte & 0x7f) << (7 * i);
        if (!(byte & 0x80)) {
            *value = result;
            return true;
        }
    }
    return false;
}

// The layout that every `simple_value` scalar event has as TensorFlow's, TensorBoard's and PyTorch's
// writers serialize it: fields in number order, each once, nothing else:
//   wall_time (1, fixed64) · step (2, varint; absent when 0) · summary (5) { value (1) { tag (1) ·
//   simple_value (2, fixed32) } }
// It is what most records of a training run's event file are, and reading it at fixed positions costs a
// fraction of the general field loop of decodeEventRecord(). Returns false without touching the sink for
// any other layout (or a varint longer than these need), which then takes the general path; so both paths
// give the same result for every record this accepts (tests and fuzz_eventrecord check that).
template <typename Sink>
Q_ALWAYS_INLINE bool decodeSimpleScalarEvent(const std::uint8_t* p, size_t size, qint64 offset, Sink& sink)
{
    const std::uint8_t* const end = p + size;
    // wall_time 9 bytes, the summary's, value's and tag's field tags and lengths 2 each, simple_value 5
    if (size < 9 + 2 + 2 + 2 + 5 || p[0] != fieldTag(1, Fixed64))
        return false;
    EventInfo info;
    info.kind = EventInfo::Kind::Summary;
    info.offset = offset;
    info.wallTime = fromBits64(qFromLittleEndian<quint64>(p + 1));
    p += 9;
    if (*p == fieldTag(2, Varint)) {
        std::uint64_t step;
        if (!readShortVarint(++p, end, 9, &step))
            return false;
        info.step = std::int64_t(step);
    }
    std::uint64_t length;
    if (p >= end || *p != fieldTag(5, LengthDelimited) || !readShortVarint(++p, end, 2, &length)
        || length != std::uint64_t(end - p))
        return false;
    if (p >= end || *p != fieldTag(1, LengthDelimited) || !readShortVarint(++p, end, 2, &length)
        || length != std::uint64_t(end - p))
        return false;
    if (p >= end || *p != fieldTag(1, LengthDelimited) || !readShortVarint(++p, end, 2, &length)
        || length != std::uint64_t(end - p) - 5)
        return false;
    const QByteArrayView tag(reinterpret_cast<const char*>(p), qsizetype(length));
    p += length;
    if (*p != fieldTag(2, Fixed32))
        return false;
    const double value = fromBits32(qFromLittleEndian<quint32>(p + 1));
    sink.beginEvent(info);
    sink.scalar(tag, info.step, info.wallTime, value);
    return true;
}

} // namespace

bool decodeEventRecord(const char* data, size_t size, qint64 offset, ScalarSink& sink, QString* error)
{
    if (decodeSimpleScalarEvent(reinterpret_cast<const std::uint8_t*>(data), size, offset, sink))
        return true;
    return Detail::decodeEventRecordGeneral(data, size, offset, sink, error);
}

bool Detail::decodeEventRecordGeneral(const char* data, size_t size, qint64 offset, ScalarSink& sink, QString* error)
{
    if (size > size_t(std::numeric_limits<int>::max())) {
        *error = QStringLiteral("Event larger than 2 GiB");
        return false;
    }
    const View event { reinterpret_cast<const std::uint8_t*>(data), int(size), true };
    CodedInputStream in(event.data, event.size);
    EventInfo info;
    info.offset = offset;
    // A message field that occurs twice merges, so keep every occurrence; one is the rule.
    View firstSummary;
    std::vector<View> moreSummaries;
    int summaryCount = 0;
    View sessionLog;
    while (const std::uint32_t tag = in.ReadTag()) {
        bool ok = true;
        switch (tag) {
        case fieldTag(1, Fixed64): {
            std::uint64_t bits;
            ok = in.ReadLittleEndian64(&bits);
            info.wallTime = fromBits64(bits);
            break;
        }
        case fieldTag(2, Varint): {
            std::uint64_t step;
            ok = in.ReadVarint64(&step);
            info.step = std::int64_t(step);
            break;
        }
        case fieldTag(3, LengthDelimited):
            info.kind = EventInfo::Kind::FileVersion;
            summaryCount = 0;
            moreSummaries.clear();
            ok = skipField(in, tag);
            break;
        case fieldTag(5, LengthDelimited): {
            View summary;
            ok = readView(in, event.data, &summary);
            info.kind = EventInfo::Kind::Summary;
            if (summaryCount++ == 0)
                firstSummary = summary;
            else
                moreSummaries.push_back(summary);
            break;
        }
        case fieldTag(7, LengthDelimited):
            ok = readView(in, event.data, &sessionLog);
            info.kind = EventInfo::Kind::SessionLog;
            summaryCount = 0;
            moreSummaries.clear();
            break;
        case fieldTag(4, LengthDelimited): // graph_def, log_message, tagged_run_metadata,
        case fieldTag(6, LengthDelimited): // meta_graph_def: the other members of `what`
        case fieldTag(8, LengthDelimited):
        case fieldTag(9, LengthDelimited):
            info.kind = EventInfo::Kind::Other;
            summaryCount = 0;
            moreSummaries.clear();
            ok = skipField(in, tag);
            break;
        default:
            ok = skipField(in, tag);
        }
        if (!ok) {
            *error = QStringLiteral("malformed Event (field %1)").arg(tag >> 3);
            return false;
        }
    }
    if (!endedCleanly(in, event)) {
        *error = QStringLiteral("malformed Event (bad field tag at byte %1)").arg(in.CurrentPosition());
        return false;
    }
    if (info.kind == EventInfo::Kind::SessionLog) {
        CodedInputStream log(sessionLog.data, sessionLog.size);
        while (const std::uint32_t tag = log.ReadTag()) {
            if (tag == fieldTag(1, Varint)) {
                std::uint64_t status;
                if (!log.ReadVarint64(&status))
                    break;
                info.kind = status == 1 ? EventInfo::Kind::SessionStart : EventInfo::Kind::SessionLog;
            } else if (!skipField(log, tag)) {
                break;
            }
        }
    }
    sink.beginEvent(info);
    for (int i = 0; i < summaryCount; ++i) {
        const View& summary = i == 0 ? firstSummary : moreSummaries[size_t(i - 1)];
        CodedInputStream in(summary.data, summary.size);
        while (const std::uint32_t tag = in.ReadTag()) {
            if (tag == fieldTag(1, LengthDelimited)) {
                View value;
                if (!readView(in, summary.data, &value)) {
                    *error = QStringLiteral("malformed Summary");
                    return false;
                }
                if (!decodeValue(value, info.step, info.wallTime, sink, error))
                    return false;
            } else if (!skipField(in, tag)) {
                *error = QStringLiteral("malformed Summary");
                return false;
            }
        }
        if (!endedCleanly(in, summary)) {
            *error = QStringLiteral("malformed Summary");
            return false;
        }
    }
    return true;
}

EventFileReader::EventFileReader(const QString& path)
    : m_records(path)
{
}

// The reader's record loop, with the sink's type known so that a final sink's calls (ScalarRun's) are
// direct and inlined, as is the CRC of `Crc`. (Verifying the CRCs of a batch of records in a pass of their own,
// so that their dependent crc32 chains overlap, was tried for issue 17 and was 10 % slower on the machine it was
// measured on: the extra pass cost more than the overlap won.)
template <typename Crc, typename Sink>
Q_ALWAYS_INLINE qint64 EventFileReader::readRecords(TfRecordReader& records, Sink& sink)
{
    qint64 count = 0;
    const char* data = nullptr;
    size_t size = 0;
    while (records.nextVerified<Crc>(&data, &size) == TfRecordReader::Result::Record) {
        ++count;
        if (decodeSimpleScalarEvent(reinterpret_cast<const std::uint8_t*>(data), size, records.recordOffset(), sink))
            [[likely]]
            continue;
        decodeGeneralOrReport(records, data, size, sink);
    }
    return count;
}

void EventFileReader::decodeGeneralOrReport(TfRecordReader& records, const char* data, size_t size, ScalarSink& sink)
{
    QString error;
    if (Detail::decodeEventRecordGeneral(data, size, records.recordOffset(), sink, &error))
        return;
    records.reportIssue({ RecordIssue::Kind::BadRecord, records.recordOffset(),
        QStringLiteral("%1: record at offset %2 (%3 bytes) passed its CRC checks but is not an Event: %4; "
                       "record skipped")
            .arg(records.path())
            .arg(records.recordOffset())
            .arg(size)
            .arg(error) });
}

#ifdef TRAINYARD_CRC32C_SSE42
template <typename Sink> __attribute__((target("sse4.2"))) qint64 EventFileReader::readSse42(Sink& sink)
{
    return readRecords<Detail::Sse42Crc>(m_records, sink);
}
#endif

template <typename Sink> qint64 EventFileReader::read(Sink& sink)
{
#ifdef TRAINYARD_CRC32C_SSE42
    static const bool sse42 = crc32cHardwareAvailable();
    if (sse42) [[likely]]
        return readSse42(sink);
#endif
    return readRecords<Detail::PortableCrc>(m_records, sink);
}

qint64 EventFileReader::readAvailable(ScalarSink& sink)
{
    // ScalarRun (the scalar store of this library) gets a loop of its own with its calls inlined; any
    // other sink gets virtual calls.
    if (auto* run = dynamic_cast<ScalarRun*>(&sink))
        return read(*run);
    return read(sink);
}

bool isEventFileName(const QString& fileName)
{
    return QFileInfo(fileName).fileName().contains(QLatin1String("tfevents"));
}

std::vector<EventRunFiles> findEventRuns(const QString& path, QString* error)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = QStringLiteral("%1: no such file or directory").arg(path);
        return {};
    }
    if (!info.isDir())
        return { EventRunFiles { QStringLiteral("."), { info.absoluteFilePath() } } };

    const QDir root(info.absoluteFilePath());
    QMap<QString, QStringList> runs;
    QDirIterator it(
        root.absolutePath(), QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        if (!isEventFileName(file))
            continue;
        const QFileInfo fileInfo(file);
        QString run = root.relativeFilePath(fileInfo.absolutePath());
        if (run.isEmpty())
            run = QStringLiteral(".");
        runs[run].append(fileInfo.absoluteFilePath());
    }
    std::vector<EventRunFiles> result;
    for (auto run = runs.begin(); run != runs.end(); ++run) {
        QStringList files = run.value();
        std::sort(files.begin(), files.end(),
            [](const QString& a, const QString& b) { return QFileInfo(a).fileName() < QFileInfo(b).fileName(); });
        result.push_back({ run.key(), files });
    }
    return result;
}

} // namespace Trainyard::Formats
