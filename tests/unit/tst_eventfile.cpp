// SPDX-License-Identifier: GPL-2.0-or-later
#include "event.pb.h"
#include "eventfilereader.h"
#include "floatrepr.h"
#include "scalarseriesstore.h"
#include "tfrecordreader.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace Trainyard::Formats;

namespace {

struct Row {
    QByteArray tag;
    qint64 step;
    double wallTime;
    double value;
};

struct GoldenRow {
    QByteArray tag;
    qint64 step;
    QByteArray wallTime;
    QByteArray value;
};

class Collector : public ScalarSink {
public:
    void beginEvent(const EventInfo& event) override { events.append(event); }
    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        rows.append({ tag.toByteArray(), step, wallTime, value });
    }
    QList<EventInfo> events;
    QList<Row> rows;
};

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& data, QIODevice::OpenMode mode = QIODevice::WriteOnly)
{
    QFile file(path);
    return file.open(mode) && file.write(data) == data.size();
}

// TensorBoard's CSV: `tag,step,wall_time,value`; a tag may hold commas, the other fields never do.
QList<GoldenRow> loadGolden(const QString& path)
{
    QList<GoldenRow> rows;
    const QList<QByteArray> lines = readFile(path).split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype c3 = line.lastIndexOf(',');
        const qsizetype c2 = line.lastIndexOf(',', c3 - 1);
        const qsizetype c1 = line.lastIndexOf(',', c2 - 1);
        rows.append({ line.left(c1), line.mid(c1 + 1, c2 - c1 - 1).toLongLong(), line.mid(c2 + 1, c3 - c2 - 1),
            line.mid(c3 + 1) });
    }
    return rows;
}

struct Fixture {
    QString events;
    QString golden;
};

QList<Fixture> fixtures()
{
    const QString root = QStringLiteral(TRAINYARD_FIXTURES_DIR);
    return {
        { root + QStringLiteral("/tfevents/torch_run/events.out.tfevents.1795317519.vm.24511.0"),
            root + QStringLiteral("/tfevents-golden/torch_run__tfevents.1795317519.vm.24511.0.csv") },
        { root + QStringLiteral("/tfevents/tb_v2_run/events.out.tfevents.1795317519.vm.24511.1"),
            root + QStringLiteral("/tfevents-golden/tb_v2_run__tfevents.1795317519.vm.24511.1.csv") },
    };
}

void addFixtureRows()
{
    QTest::addColumn<QString>("events");
    QTest::addColumn<QString>("golden");
    for (const Fixture& f : fixtures())
        QTest::addRow("%s", qPrintable(QDir(f.events).dirName() + QFileInfo(f.events).dir().dirName()))
            << f.events << f.golden;
}

// Where each record of a file starts and ends, and how many scalars it holds.
struct RecordSpan {
    qint64 begin;
    qint64 end;
    int scalars;
};

QList<RecordSpan> recordLayout(const QString& path)
{
    QList<RecordSpan> spans;
    TfRecordReader reader(path);
    const char* data;
    size_t size;
    while (reader.next(&data, &size) == TfRecordReader::Result::Record) {
        Collector c;
        QString error;
        decodeEventRecord(data, size, reader.recordOffset(), c, &error);
        spans.append({ reader.recordOffset(), reader.offset(), int(c.rows.size()) });
    }
    return spans;
}

QList<Row> readAll(EventFileReader& reader)
{
    Collector c;
    reader.readAvailable(c);
    return c.rows;
}

void compareToGolden(const QList<Row>& rows, const QList<GoldenRow>& golden, qsizetype goldenBegin = 0)
{
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row& r = rows.at(i);
        const GoldenRow& g = golden.at(goldenBegin + i);
        QCOMPARE(r.tag, g.tag);
        QCOMPARE(r.step, g.step);
        // Exact as doubles, and printed as TensorBoard's loader printed them.
        QCOMPARE(r.wallTime, std::strtod(g.wallTime.constData(), nullptr));
        QCOMPARE(r.value, std::strtod(g.value.constData(), nullptr));
        QCOMPARE(pythonFloatRepr(r.wallTime), g.wallTime);
        QCOMPARE(pythonFloatRepr(r.value), g.value);
    }
}

QByteArray frame(const trainyard::tf::Event& event)
{
    const std::string bytes = event.SerializeAsString();
    QByteArray out;
    appendTfRecord(out, bytes.data(), bytes.size());
    return out;
}

trainyard::tf::Event simpleEvent(qint64 step, double wallTime, const char* tag, float value)
{
    trainyard::tf::Event event;
    event.set_step(step);
    event.set_wall_time(wallTime);
    auto* v = event.mutable_summary()->add_value();
    v->set_tag(tag);
    v->set_simple_value(value);
    return event;
}

QByteArray fileVersionRecord()
{
    trainyard::tf::Event event;
    event.set_wall_time(1.0);
    event.set_file_version("brain.Event:2");
    return frame(event);
}

// A scalar as the generated classes see it: the reference the hand-written decoder must agree with.
bool referenceScalar(const trainyard::tf::Summary::Value& v, double* value)
{
    if (v.has_simple_value()) {
        *value = v.simple_value();
        return true;
    }
    if (!v.has_tensor())
        return false;
    const std::string& plugin = v.metadata().plugin_data().plugin_name();
    const trainyard::tf::TensorProto& t = v.tensor();
    if ((!plugin.empty() && plugin != "scalars") || t.tensor_shape().dim_size() != 0 || t.tensor_shape().unknown_rank())
        return false;
    const std::string& c = t.tensor_content();
    switch (t.dtype()) {
    case trainyard::tf::DT_FLOAT: {
        float f = 0;
        if (!c.empty())
            std::memcpy(&f, c.data(), 4);
        else if (t.float_val_size())
            f = t.float_val(0);
        *value = f;
        return true;
    }
    case trainyard::tf::DT_DOUBLE: {
        double d = 0;
        if (!c.empty())
            std::memcpy(&d, c.data(), 8);
        else if (t.double_val_size())
            d = t.double_val(0);
        *value = d;
        return true;
    }
    default:
        return false;
    }
}

} // namespace

class TestEventFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void golden_data() { addFixtureRows(); }
    void golden();
    void generatedClassesAgree_data() { addFixtureRows(); }
    void generatedClassesAgree();
    void fastPathAgrees();
    void truncated_data() { addFixtureRows(); }
    void truncated();
    void growingFile_data() { addFixtureRows(); }
    void growingFile();
    void corrupted_data();
    void corrupted();
    void badRecordIsReportedAndSkipped();
    void tensorScalars_data();
    void tensorScalars();
    void restartPurgesNewerSteps();
    void restartAcrossFiles();
    void sessionStartPurgesAllTags();
    void bigSyntheticFile();
    void runLoopAgreesWithSinkCalls();
    void compactColumns();
    void chunkAllocator();
    void floatRepr_data();
    void floatRepr();
    void runDiscovery();
};

void TestEventFile::golden()
{
    QFETCH(QString, events);
    QFETCH(QString, golden);
    const QList<GoldenRow> expected = loadGolden(golden);
    QVERIFY(expected.size() > 500);
    EventFileReader reader(events);
    Collector c;
    reader.readAvailable(c);
    QVERIFY(reader.takeIssues().empty());
    QCOMPARE(c.rows.size(), expected.size());
    compareToGolden(c.rows, expected);
    QCOMPARE(reader.offset(), QFileInfo(events).size());
    QCOMPARE(c.events.first().kind, EventInfo::Kind::FileVersion);
    // Nothing new: a second call reads nothing and reports nothing.
    QCOMPARE(reader.readAvailable(c), qint64(0));
    QVERIFY(reader.takeIssues().empty());
}

void TestEventFile::generatedClassesAgree()
{
    QFETCH(QString, events);
    TfRecordReader records(events);
    const char* data;
    size_t size;
    int compared = 0;
    while (records.next(&data, &size) == TfRecordReader::Result::Record) {
        trainyard::tf::Event event;
        QVERIFY(event.ParseFromArray(data, int(size)));
        QList<Row> expected;
        for (const auto& v : event.summary().value()) {
            double value;
            if (referenceScalar(v, &value))
                expected.append({ QByteArray::fromStdString(v.tag()), event.step(), event.wall_time(), value });
        }
        Collector c;
        QString error;
        QVERIFY2(decodeEventRecord(data, size, records.recordOffset(), c, &error), qPrintable(error));
        QCOMPARE(c.rows.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QCOMPARE(c.rows.at(i).tag, expected.at(i).tag);
            QCOMPARE(c.rows.at(i).step, expected.at(i).step);
            QCOMPARE(c.rows.at(i).wallTime, expected.at(i).wallTime);
            QCOMPARE(c.rows.at(i).value, expected.at(i).value);
            ++compared;
        }
        QCOMPARE(c.events.size(), 1);
        QCOMPARE(c.events.first().step, event.step());
    }
    QVERIFY(compared > 500);
}

void TestEventFile::fastPathAgrees()
{
    // Records at and around the edges of the fixed-position layout: each must decode exactly as the
    // general field loop and the generated classes decode it.
    auto bits = [](double d) {
        quint64 b;
        std::memcpy(&b, &d, 8);
        return b;
    };
    std::vector<trainyard::tf::Event> events;
    for (const qint64 step : { qint64(0), qint64(1), qint64(127), qint64(128), qint64(1) << 40,
             std::numeric_limits<qint64>::max(), qint64(-1), std::numeric_limits<qint64>::min() }) {
        for (const float value : { 0.f, -0.f, 0.5f, std::numeric_limits<float>::quiet_NaN(),
                 -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::denorm_min() })
            events.push_back(simpleEvent(step, 1.7e9 + 0.125, "train/loss", value));
    }
    for (const int tagLength : { 0, 1, 127, 128, 16383 - 32, 16383, 16384, 70000 })
        events.push_back(simpleEvent(5, 2.5, std::string(size_t(tagLength), 't').c_str(), 1.5f));
    events.push_back(simpleEvent(5, 0.0, "no wall time", 1.f)); // wall_time 0 is not serialized
    trainyard::tf::Event two = simpleEvent(3, 4.0, "a", 1.f);
    auto* second = two.mutable_summary()->add_value();
    second->set_tag("b");
    second->set_simple_value(2.f);
    events.push_back(two);
    trainyard::tf::Event tensor = simpleEvent(3, 4.0, "t", 1.f);
    tensor.mutable_summary()->mutable_value(0)->mutable_tensor()->set_dtype(trainyard::tf::DT_DOUBLE);
    tensor.mutable_summary()->mutable_value(0)->mutable_tensor()->add_double_val(0.1);
    events.push_back(tensor);
    trainyard::tf::Event withMetadata = simpleEvent(3, 4.0, "m", 1.f);
    withMetadata.mutable_summary()->mutable_value(0)->mutable_metadata()->mutable_plugin_data()->set_plugin_name(
        "scalars");
    events.push_back(withMetadata);

    for (const trainyard::tf::Event& event : events) {
        std::string bytes = event.SerializeAsString();
        // The same bytes plus a field after the summary (an unknown field 15): the fixed layout must not
        // take them.
        for (const bool trailing : { false, true }) {
            if (trailing)
                bytes += std::string("\x78\x01", 2);
            Collector fast;
            Collector general;
            QString fastError;
            QString generalError;
            const bool fastOk = decodeEventRecord(bytes.data(), bytes.size(), 7, fast, &fastError);
            const bool generalOk = Detail::decodeEventRecordGeneral(bytes.data(), bytes.size(), 7, general, &generalError);
            QCOMPARE(fastOk, generalOk);
            QVERIFY2(fastOk, qPrintable(fastError));
            QCOMPARE(fast.events.size(), 1);
            QCOMPARE(general.events.size(), 1);
            QCOMPARE(fast.events.first().kind, general.events.first().kind);
            QCOMPARE(fast.events.first().step, event.step());
            QCOMPARE(bits(fast.events.first().wallTime), bits(event.wall_time()));
            QCOMPARE(fast.events.first().offset, qint64(7));
            QCOMPARE(fast.rows.size(), general.rows.size());
            for (qsizetype i = 0; i < fast.rows.size(); ++i) {
                QCOMPARE(fast.rows.at(i).tag, general.rows.at(i).tag);
                QCOMPARE(fast.rows.at(i).step, general.rows.at(i).step);
                QCOMPARE(bits(fast.rows.at(i).wallTime), bits(general.rows.at(i).wallTime));
                QCOMPARE(bits(fast.rows.at(i).value), bits(general.rows.at(i).value));
            }
            qsizetype expected = 0;
            for (const auto& v : event.summary().value()) {
                double value;
                if (!referenceScalar(v, &value))
                    continue;
                QVERIFY(expected < fast.rows.size());
                QCOMPARE(fast.rows.at(expected).tag, QByteArray::fromStdString(v.tag()));
                QCOMPARE(bits(fast.rows.at(expected).value), bits(value));
                ++expected;
            }
            QCOMPARE(fast.rows.size(), expected);
        }
    }
}

void TestEventFile::truncated()
{
    QFETCH(QString, events);
    QFETCH(QString, golden);
    const QByteArray whole = readFile(events);
    const QList<GoldenRow> expected = loadGolden(golden);
    const QList<RecordSpan> spans = recordLayout(events);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.cut"));
    // Cut every 61 bytes (a prime, so cuts land in every part of the framing), plus at the edges of
    // one record.
    QList<qint64> cuts;
    for (qint64 cut = 0; cut < whole.size(); cut += 61)
        cuts.append(cut);
    for (qint64 delta : { -1, 0, 1, 8, 11, 12, 13 })
        cuts.append(spans.at(5).begin + delta);
    for (const qint64 cut : cuts) {
        QVERIFY(writeFile(path, whole.left(cut)));
        EventFileReader reader(path);
        const QList<Row> before = readAll(reader);
        QVERIFY(reader.takeIssues().empty());
        qsizetype complete = 0;
        qint64 completeEnd = 0;
        for (const RecordSpan& span : spans) {
            if (span.end <= cut) {
                complete += span.scalars;
                completeEnd = span.end;
            }
        }
        QCOMPARE(before.size(), complete);
        QCOMPARE(reader.offset(), completeEnd);
        compareToGolden(before, expected);
        // The writer finishes the file: the same reader picks up the rest.
        QVERIFY(writeFile(path, whole.mid(cut), QIODevice::Append));
        const QList<Row> after = readAll(reader);
        QVERIFY(reader.takeIssues().empty());
        QCOMPARE(before.size() + after.size(), expected.size());
        compareToGolden(after, expected, before.size());
    }
}

void TestEventFile::growingFile()
{
    QFETCH(QString, events);
    QFETCH(QString, golden);
    const QByteArray whole = readFile(events);
    const QList<GoldenRow> expected = loadGolden(golden);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.live"));
    QVERIFY(writeFile(path, {}));
    EventFileReader reader(path);
    QRandomGenerator rng(7);
    QList<Row> rows;
    for (qsizetype written = 0; written < whole.size();) {
        const qsizetype chunk = qMin(whole.size() - written, qsizetype(1 + rng.bounded(300)));
        QVERIFY(writeFile(path, whole.mid(written, chunk), QIODevice::Append));
        written += chunk;
        rows += readAll(reader);
    }
    QVERIFY(reader.takeIssues().empty());
    QCOMPARE(rows.size(), expected.size());
    compareToGolden(rows, expected);
}

void TestEventFile::corrupted_data()
{
    QTest::addColumn<int>("record");
    QTest::addColumn<int>("byteInRecord"); // from the record's first byte; -1: the last byte
    QTest::addColumn<int>("kind");
    // torch_run: record 0 is file_version, then one scalar or text summary per record.
    QTest::addRow("data byte of record 5") << 5 << 14 << int(RecordIssue::Kind::DataCrc);
    QTest::addRow("data crc of record 10") << 10 << -1 << int(RecordIssue::Kind::DataCrc);
    QTest::addRow("last data byte of the last record") << 1021 << -5 << int(RecordIssue::Kind::DataCrc);
    QTest::addRow("length of record 7") << 7 << 0 << int(RecordIssue::Kind::LengthCrc);
    QTest::addRow("length crc of record 3") << 3 << 9 << int(RecordIssue::Kind::LengthCrc);
}

void TestEventFile::corrupted()
{
    QFETCH(int, record);
    QFETCH(int, byteInRecord);
    QFETCH(int, kind);
    const Fixture f = fixtures().first();
    const QList<GoldenRow> expected = loadGolden(f.golden);
    const QList<RecordSpan> spans = recordLayout(f.events);
    QCOMPARE(spans.size(), 1022);
    QByteArray bytes = readFile(f.events);
    const RecordSpan span = spans.at(record);
    const qint64 at = byteInRecord >= 0 ? span.begin + byteInRecord : span.end + byteInRecord;
    bytes[at] = char(bytes.at(at) ^ 0x20);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.bad"));
    QVERIFY(writeFile(path, bytes));

    EventFileReader reader(path);
    const QList<Row> rows = readAll(reader);
    const std::vector<RecordIssue> issues = reader.takeIssues();
    QCOMPARE(issues.size(), size_t(1));
    QCOMPARE(int(issues.front().kind), kind);
    QCOMPARE(issues.front().offset, span.begin);
    QVERIFY(issues.front().message.contains(path));
    QVERIFY(issues.front().message.contains(QString::number(span.begin)));

    qsizetype before = 0;
    for (int i = 0; i < record; ++i)
        before += spans.at(i).scalars;
    if (kind == int(RecordIssue::Kind::DataCrc)) {
        // Only the damaged record is missing.
        QCOMPARE(rows.size(), expected.size() - span.scalars);
        compareToGolden(rows.mid(0, before), expected);
        compareToGolden(rows.mid(before), expected, before + span.scalars);
        QVERIFY(!reader.isStopped());
    } else {
        // The framing is lost: everything before the damage, then the reader stops for good.
        QCOMPARE(rows.size(), before);
        compareToGolden(rows, expected);
        QVERIFY(reader.isStopped());
        QCOMPARE(reader.offset(), span.begin);
        QVERIFY(readAll(reader).isEmpty());
        QVERIFY(reader.takeIssues().empty());
    }
}

void TestEventFile::badRecordIsReportedAndSkipped()
{
    QByteArray bytes = fileVersionRecord();
    bytes += frame(simpleEvent(1, 10.0, "loss", 0.5f));
    const qint64 badOffset = bytes.size();
    const QByteArray garbage("\x0a\xff\xff\xff\xff\x0f", 6); // field 1 with a length past the end
    appendTfRecord(bytes, garbage.constData(), size_t(garbage.size()));
    bytes += frame(simpleEvent(2, 11.0, "loss", 0.25f));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.x"));
    QVERIFY(writeFile(path, bytes));
    EventFileReader reader(path);
    const QList<Row> rows = readAll(reader);
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(1).step, qint64(2));
    QCOMPARE(rows.at(1).value, 0.25);
    const std::vector<RecordIssue> issues = reader.takeIssues();
    QCOMPARE(issues.size(), size_t(1));
    QCOMPARE(issues.front().kind, RecordIssue::Kind::BadRecord);
    QCOMPARE(issues.front().offset, badOffset);
}

void TestEventFile::tensorScalars_data()
{
    QTest::addColumn<QByteArray>("record");
    QTest::addColumn<bool>("isScalar");
    QTest::addColumn<double>("expected");

    auto tensorEvent = [](const std::function<void(trainyard::tf::TensorProto*)>& fill, const char* plugin) {
        trainyard::tf::Event event;
        event.set_step(3);
        event.set_wall_time(2.5);
        auto* v = event.mutable_summary()->add_value();
        v->set_tag("t");
        if (plugin)
            v->mutable_metadata()->mutable_plugin_data()->set_plugin_name(plugin);
        fill(v->mutable_tensor());
        return QByteArray::fromStdString(event.SerializeAsString());
    };
    using trainyard::tf::TensorProto;
    auto content = [](const void* p, size_t n) { return std::string(static_cast<const char*>(p), n); };
    const float f = 0.1f;
    const double d = 0.1;
    const qint32 i32 = -7;
    const qint64 i64 = 1234567890123;
    const quint16 halfOneThird = 0x3555; // 0.333251953125
    const quint16 bf16 = 0x3eab; // 0.333984375

    QTest::addRow("float typed") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_FLOAT);
            t->add_float_val(0.1f);
        },
        "scalars") << true << double(0.1f);
    QTest::addRow("float content") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_FLOAT);
            t->set_tensor_content(content(&f, 4));
        },
        "scalars") << true << double(0.1f);
    QTest::addRow("double typed") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_DOUBLE);
            t->add_double_val(0.1);
        },
        "scalars") << true << 0.1;
    QTest::addRow("double content") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_DOUBLE);
            t->set_tensor_content(content(&d, 8));
        },
        nullptr) << true << 0.1;
    QTest::addRow("int32 typed") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_INT32);
            t->add_int_val(-7);
        },
        "scalars") << true << -7.0;
    QTest::addRow("int32 content") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_INT32);
            t->set_tensor_content(content(&i32, 4));
        },
        "scalars") << true << -7.0;
    QTest::addRow("int64 typed") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_INT64);
            t->add_int64_val(1234567890123);
        },
        "scalars") << true << 1234567890123.0;
    QTest::addRow("int64 content") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_INT64);
            t->set_tensor_content(content(&i64, 8));
        },
        "scalars") << true << 1234567890123.0;
    QTest::addRow("half typed") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_HALF);
            t->add_half_val(halfOneThird);
        },
        "scalars") << true << 0.333251953125;
    QTest::addRow("half content") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_HALF);
            t->set_tensor_content(content(&halfOneThird, 2));
        },
        "scalars") << true << 0.333251953125;
    QTest::addRow("half negative subnormal") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_HALF);
            t->add_half_val(0x8001);
        },
        "scalars") << true << -std::ldexp(1.0, -24);
    QTest::addRow("bfloat16 typed") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_BFLOAT16);
            t->add_half_val(bf16);
        },
        "scalars") << true << 0.333984375;
    QTest::addRow("bfloat16 content") << tensorEvent(
        [&](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_BFLOAT16);
            t->set_tensor_content(content(&bf16, 2));
        },
        "scalars") << true << 0.333984375;
    QTest::addRow("no element means zero")
        << tensorEvent([](TensorProto* t) { t->set_dtype(trainyard::tf::DT_FLOAT); }, "scalars") << true << 0.0;
    QTest::addRow("histogram plugin") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_FLOAT);
            t->add_float_val(1);
        },
        "histograms") << false << 0.0;
    QTest::addRow("rank 1") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_FLOAT);
            t->mutable_tensor_shape()->add_dim()->set_size(1);
            t->add_float_val(1);
        },
        "scalars") << false << 0.0;
    QTest::addRow("unknown rank") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_FLOAT);
            t->mutable_tensor_shape()->set_unknown_rank(true);
            t->add_float_val(1);
        },
        "scalars") << false << 0.0;
    QTest::addRow("string") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_STRING);
            t->add_string_val()->assign(3, 'x');
        },
        "text") << false << 0.0;
    QTest::addRow("bool") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_BOOL);
            t->add_bool_val(true);
        },
        nullptr) << false << 0.0;
    QTest::addRow("two elements") << tensorEvent(
        [](TensorProto* t) {
            t->set_dtype(trainyard::tf::DT_FLOAT);
            t->add_float_val(1);
            t->add_float_val(2);
        },
        "scalars") << false << 0.0;
}

void TestEventFile::tensorScalars()
{
    QFETCH(QByteArray, record);
    QFETCH(bool, isScalar);
    QFETCH(double, expected);
    Collector c;
    QString error;
    QVERIFY2(decodeEventRecord(record.constData(), size_t(record.size()), 0, c, &error), qPrintable(error));
    QCOMPARE(c.events.size(), 1);
    QCOMPARE(c.events.first().kind, EventInfo::Kind::Summary);
    QCOMPARE(c.rows.size(), isScalar ? 1 : 0);
    if (isScalar) {
        QCOMPARE(c.rows.first().tag, QByteArray("t"));
        QCOMPARE(c.rows.first().step, qint64(3));
        QCOMPARE(c.rows.first().wallTime, 2.5);
        QCOMPARE(c.rows.first().value, expected);
    }
}

void TestEventFile::restartPurgesNewerSteps()
{
    // Steps 0..9 of "a" and "b", then the trainer resumes from step 5 and writes "a" only for a
    // while: "a" loses 5..9 at once, "b" keeps them until a resumed "b" point arrives.
    QByteArray bytes = fileVersionRecord();
    for (int step = 0; step < 10; ++step) {
        bytes += frame(simpleEvent(step, 100 + step, "a", float(step)));
        bytes += frame(simpleEvent(step, 100 + step, "b", float(step)));
    }
    for (int step = 5; step < 8; ++step)
        bytes += frame(simpleEvent(step, 200 + step, "a", float(-step)));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.r"));
    QVERIFY(writeFile(path, bytes));
    EventFileReader reader(path);
    ScalarRun run(QStringLiteral("."));
    reader.readAvailable(run);
    const ScalarSeries* a = run.series(QStringLiteral("a"));
    const ScalarSeries* b = run.series(QStringLiteral("b"));
    QVERIFY(a && b);
    QCOMPARE(a->size(), 8);
    for (int i = 0; i < 8; ++i) {
        QCOMPARE(a->at(i).step, qint64(i));
        QCOMPARE(a->at(i).value, i < 5 ? double(i) : double(-i));
        QCOMPARE(a->at(i).wallTime, i < 5 ? 100.0 + i : 200.0 + i);
    }
    QCOMPARE(b->size(), 10);
    QCOMPARE(run.purgedPoints(), 5);

    // "b" of the resumed run at step 6 drops the old 6..9; going past the old maximum stops purging.
    QVERIFY(writeFile(
        path, frame(simpleEvent(6, 300, "b", -6.0f)) + frame(simpleEvent(12, 301, "b", -12.0f)), QIODevice::Append));
    reader.readAvailable(run);
    QCOMPARE(b->size(), 8);
    QCOMPARE(b->at(5).step, qint64(5));
    QCOMPARE(b->at(6).step, qint64(6));
    QCOMPARE(b->at(6).value, -6.0);
    QCOMPARE(b->at(7).step, qint64(12));
    QCOMPARE(run.purgedPoints(), 9);
    QCOMPARE(run.tags(), QStringList({ QStringLiteral("a"), QStringLiteral("b") }));
}

void TestEventFile::restartAcrossFiles()
{
    // A resumed PyTorch trainer writes a new event file into the same run directory; its first
    // record (file_version, step 0) must not hide the step going back.
    QTemporaryDir dir;
    QByteArray first = fileVersionRecord();
    for (int step = 0; step < 1000; ++step)
        first += frame(simpleEvent(step, step, "loss", 1.0f / float(step + 1)));
    QByteArray second = fileVersionRecord();
    for (int step = 600; step < 700; ++step)
        second += frame(simpleEvent(step, 5000 + step, "loss", 2.0f));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("events.out.tfevents.100.host")), first));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("events.out.tfevents.200.host")), second));
    QString error;
    const std::vector<EventRunFiles> runs = findEventRuns(dir.path(), &error);
    QCOMPARE(runs.size(), size_t(1));
    ScalarSeriesStore store;
    ScalarRun& run = store.run(runs.front().run);
    for (const QString& file : runs.front().files) {
        EventFileReader reader(file);
        reader.readAvailable(run);
    }
    const ScalarSeries* loss = store.findRun(QStringLiteral("."))->series(QStringLiteral("loss"));
    QVERIFY(loss);
    QCOMPARE(loss->size(), 700);
    QCOMPARE(loss->at(599).value, double(1.0f / 600.0f));
    QCOMPARE(loss->at(600).value, 2.0);
    QCOMPARE(loss->last().step, qint64(699));
    QCOMPARE(store.pointCount(), 700);
    QCOMPARE(run.purgedPoints(), 400);
}

void TestEventFile::sessionStartPurgesAllTags()
{
    QByteArray bytes = fileVersionRecord();
    for (int step = 0; step < 10; ++step) {
        bytes += frame(simpleEvent(step, step, "a", 1));
        bytes += frame(simpleEvent(step, step, "b", 1));
    }
    trainyard::tf::Event start;
    start.set_step(4);
    start.set_wall_time(50);
    start.mutable_session_log()->set_status(trainyard::tf::SessionLog::START);
    bytes += frame(start);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.s"));
    QVERIFY(writeFile(path, bytes));
    EventFileReader reader(path);
    ScalarRun run(QStringLiteral("r"));
    Collector c;
    reader.readAvailable(run);
    QCOMPARE(run.series(QStringLiteral("a"))->size(), 4);
    QCOMPARE(run.series(QStringLiteral("b"))->size(), 4);
    QCOMPARE(run.series(QStringLiteral("b"))->maxStep(), qint64(3));
    QCOMPARE(run.series(QStringLiteral("zzz")), nullptr);
}

void TestEventFile::bigSyntheticFile()
{
    // Larger than the reader's 1 MiB buffer, several tags, a record size that varies.
    const char* tags[] = { "train/loss", "train/accuracy", "eval/accuracy_with_a_longer_name", "lr" };
    QByteArray bytes = fileVersionRecord();
    const int steps = 30000;
    for (int step = 0; step < steps; ++step) {
        for (int t = 0; t < 4; ++t)
            bytes += frame(
                simpleEvent(qint64(step) * 1000003, 1.7e9 + step * 0.001, tags[t], float(step) / float(t + 1)));
    }
    QVERIFY(bytes.size() > 4 * 1024 * 1024);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.big"));
    // Written in three uneven parts, read after each.
    QVERIFY(writeFile(path, bytes.left(1234567)));
    EventFileReader reader(path);
    ScalarRun run(QStringLiteral("."));
    reader.readAvailable(run);
    QVERIFY(writeFile(path, bytes.mid(1234567, 2000000), QIODevice::Append));
    reader.readAvailable(run);
    QVERIFY(writeFile(path, bytes.mid(3234567), QIODevice::Append));
    reader.readAvailable(run);
    QVERIFY(reader.takeIssues().empty());
    QCOMPARE(run.pointCount(), 4 * steps);
    QCOMPARE(run.purgedPoints(), 0);
    for (int t = 0; t < 4; ++t) {
        const ScalarSeries* s = run.series(QString::fromLatin1(tags[t]));
        QVERIFY(s);
        QCOMPARE(s->size(), steps);
        for (int step = 0; step < steps; step += 997) {
            QCOMPARE(s->at(step).step, qint64(step) * 1000003);
            QCOMPARE(s->at(step).wallTime, 1.7e9 + step * 0.001);
            QCOMPARE(s->at(step).value, double(float(step) / float(t + 1)));
        }
    }
    // Steps 2^32 and more apart from their chunk's first step take 8 bytes: 24 bytes a point plus at most
    // one partly filled chunk per series.
    QVERIFY(run.memoryBytes() < size_t(4 * steps) * 24 + 4 * size_t(ScalarSeries::chunkPoints) * 24 + 4096);
}

// ScalarRun behind the ScalarSink interface, so that EventFileReader takes its loop for other sinks
// (virtual calls) instead of the one it inlines ScalarRun's calls into.
class ForwardingSink final : public ScalarSink {
public:
    explicit ForwardingSink(ScalarSink& target)
        : m_target(target)
    {
    }
    void beginEvent(const EventInfo& event) override { m_target.beginEvent(event); }
    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        m_target.scalar(tag, step, wallTime, value);
    }

private:
    ScalarSink& m_target;
};

// TensorBoard's restart rules written out plainly over lists of rows: the reference for ScalarRun.
class ReferenceRun final : public ScalarSink {
public:
    void beginEvent(const EventInfo& event) override
    {
        m_purgeTags = false;
        if (event.kind == EventInfo::Kind::Summary) {
            if (event.step < m_mostRecentStep)
                m_purgeTags = true;
            else
                m_mostRecentStep = event.step;
        } else if (event.kind == EventInfo::Kind::SessionStart) {
            for (auto& rows : series)
                purge(rows, event.step);
            m_mostRecentStep = event.step;
        }
    }
    void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) override
    {
        const QByteArray key = tag.toByteArray();
        if (!series.contains(key))
            order.append(QString::fromUtf8(key));
        QList<Row>& rows = series[key];
        if (m_purgeTags)
            purge(rows, step);
        rows.append({ key, step, wallTime, value });
    }
    QStringList order;
    QHash<QByteArray, QList<Row>> series;
    qsizetype purged = 0;

private:
    void purge(QList<Row>& rows, qint64 step)
    {
        purged += rows.removeIf([step](const Row& row) { return row.step >= step; });
    }
    qint64 m_mostRecentStep = std::numeric_limits<qint64>::min();
    bool m_purgeTags = false;
};

void TestEventFile::runLoopAgreesWithSinkCalls()
{
    // Every case ScalarRun's inlined calls take a branch of their own for: tags of 1 to 20 bytes that
    // differ in one byte (word-wise compares at every length), tags in a changing order, more than
    // eight tags (the hash index), steps going back (purges by tag), a SessionLog START (purge of
    // every tag), tensor scalars and a record that is not an Event (the general decoder), over more
    // than one buffer fill.
    QByteArray bytes = fileVersionRecord();
    QList<QByteArray> tags;
    for (int length = 1; length <= 20; ++length) {
        QByteArray tag(length, 'a');
        tags.append(tag);
        tag[length / 2] = 'b';
        tags.append(tag);
    }
    quint32 random = 12345;
    auto next = [&random] { return random = random * 1664525u + 1013904223u; };
    qint64 step = 0;
    for (int i = 0; i < 60000; ++i) {
        // Mostly in a fixed order, sometimes the tag's twin instead (the predicted tag then has the
        // right length and differs in one byte), sometimes any tag.
        qsizetype index = i % tags.size();
        if (const quint32 r = next() % 10; r == 0)
            index ^= 1;
        else if (r == 1)
            index = qsizetype(next() % quint32(tags.size()));
        const QByteArray& tag = tags.at(index);
        if (i % 9973 == 500)
            step -= 300; // a trainer resumed from an older checkpoint
        if (i % 4001 == 2000) {
            trainyard::tf::Event start;
            start.set_step(step - 50);
            start.set_wall_time(1.7e9 + i);
            start.mutable_session_log()->set_status(trainyard::tf::SessionLog::START);
            bytes += frame(start);
        }
        if (i % 1009 == 0) {
            trainyard::tf::Event tensor;
            tensor.set_step(step);
            tensor.set_wall_time(1.7e9 + i);
            auto* v = tensor.mutable_summary()->add_value();
            v->set_tag(tag.constData());
            v->mutable_tensor()->set_dtype(trainyard::tf::DT_DOUBLE);
            v->mutable_tensor()->add_double_val(0.1 * i);
            bytes += frame(tensor);
        }
        if (i % 20011 == 7) {
            const QByteArray garbage("\x0a\xff\xff\xff\xff\x0f", 6);
            appendTfRecord(bytes, garbage.constData(), size_t(garbage.size()));
        }
        bytes += frame(simpleEvent(step, 1.7e9 + i * 0.01, tag.constData(), float(next() % 1000) / 7.0f));
        if (i % 3 == 0)
            ++step;
    }
    QVERIFY(bytes.size() > 2 * 1024 * 1024);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.agree"));
    QVERIFY(writeFile(path, bytes));

    ScalarRun inlined(QStringLiteral("."));
    EventFileReader direct(path);
    const qint64 records = direct.readAvailable(inlined);
    ScalarRun viaSink(QStringLiteral("."));
    ForwardingSink forwarding(viaSink);
    EventFileReader virtualCalls(path);
    QCOMPARE(virtualCalls.readAvailable(forwarding), records);

    ReferenceRun reference;
    EventFileReader referenceReader(path);
    QCOMPARE(referenceReader.readAvailable(reference), records);

    QVERIFY(reference.purged > 1000);
    QCOMPARE(inlined.purgedPoints(), reference.purged);
    QCOMPARE(viaSink.purgedPoints(), reference.purged);
    QCOMPARE(inlined.tags(), reference.order);
    QCOMPARE(viaSink.tags(), reference.order);
    QCOMPARE(reference.order.size(), tags.size());
    for (const QString& tag : reference.order) {
        const QList<Row>& expected = reference.series.value(tag.toUtf8());
        for (const ScalarRun* run : { &inlined, &viaSink }) {
            const ScalarSeries* series = run->series(tag);
            QVERIFY(series);
            QCOMPARE(series->size(), expected.size());
            for (qsizetype j = 0; j < expected.size(); ++j) {
                QCOMPARE(series->at(j).step, expected.at(j).step);
                QCOMPARE(series->at(j).wallTime, expected.at(j).wallTime);
                QCOMPARE(series->at(j).value, expected.at(j).value);
            }
        }
    }
    const std::vector<RecordIssue> issuesA = direct.takeIssues();
    const std::vector<RecordIssue> issuesB = virtualCalls.takeIssues();
    QCOMPARE(issuesA.size(), size_t(3));
    QCOMPARE(issuesB.size(), issuesA.size());
    for (size_t k = 0; k < issuesA.size(); ++k) {
        QCOMPARE(issuesA[k].kind, RecordIssue::Kind::BadRecord);
        QCOMPARE(issuesA[k].offset, issuesB[k].offset);
        QCOMPARE(issuesA[k].message, issuesB[k].message);
    }
}

void TestEventFile::compactColumns()
{
    // Float scalars at evenly spaced steps: 0 + 8 + 4 bytes a point.
    ScalarSeries series;
    const qint64 points = 3 * ScalarSeries::chunkPoints + 5;
    for (qint64 i = 0; i < points; ++i)
        series.append({ 1000 + 10 * i, 1.7e9 + double(i) * 0.25, double(float(i) * 0.5f) });
    QCOMPARE(series.size(), points);
    QCOMPARE(series.at(points - 1).step, 1000 + 10 * (points - 1));
    QCOMPARE(series.at(12345).step, 1000 + 10 * 12345);
    QCOMPARE(series.at(12345).wallTime, 1.7e9 + 12345 * 0.25);
    QCOMPARE(series.at(12345).value, 12345 * 0.5);
    QVERIFY(series.memoryBytes() <= size_t(points + ScalarSeries::chunkPoints) * 12 + 1024);

    // Steps that leave the stride (a skipped log call) keep 4-byte offsets: 16 bytes a point.
    ScalarSeries uneven;
    for (qint64 i = 0; i < points; ++i)
        uneven.append({ 1000 + i + (i / 100) * 7 + (i % 3 == 0 ? 1 : 0), 1.7e9, 1.0 });
    for (qint64 i : { qint64(0), qint64(1), qint64(2), qint64(99), qint64(100), qint64(12345), points - 1 })
        QCOMPARE(uneven.at(i).step, 1000 + i + (i / 100) * 7 + (i % 3 == 0 ? 1 : 0));
    QVERIFY(uneven.memoryBytes() <= size_t(points + ScalarSeries::chunkPoints) * 16 + 1024);
    QVERIFY(uneven.memoryBytes() > size_t(points) * 16);

    // The stride form: any fixed stride, negative and wrapping ones included, until a step breaks it;
    // then the points already stored keep their steps in the 4- or 8-byte form.
    const qint64 maxStep = std::numeric_limits<qint64>::max();
    const qint64 minStep = std::numeric_limits<qint64>::min();
    const QList<QList<qint64>> stepLists {
        { 5, 5, 5, 5 },
        { 100, 90, 80, 70, 60 },
        { maxStep, minStep, maxStep, minStep },
        { minStep, 0, minStep, 0 },
        { 0, 1, 2, 3, 5, 6 },
        { 7, 8, 9, 3, 4 },
        { 0, 1, 2, maxStep, 4 },
        { 0, qint64(1) << 40, qint64(2) << 40, 12 },
        { 3 },
        { 3, 9 },
    };
    for (const QList<qint64>& steps : stepLists) {
        ScalarColumns c;
        for (qsizetype i = 0; i < steps.size(); ++i) {
            c.append(steps[i], double(i), double(i));
            for (qsizetype j = 0; j <= i; ++j)
                QCOMPARE(c.step(size_t(j)), steps[j]);
        }
    }
    ScalarColumns strided;
    for (qint64 i = 0; i < 10; ++i)
        strided.append(50 + 5 * i, 0, 0);
    QCOMPARE(strided.stepBytes(), 0);
    strided.truncate(4);
    strided.append(70, 0, 0); // continues the stride
    QCOMPARE(strided.stepBytes(), 0);
    QCOMPARE(strided.step(4), qint64(70));
    strided.truncate(1);
    strided.append(51, 0, 0); // a new stride from the one point left
    strided.append(52, 0, 0);
    QCOMPARE(strided.stepBytes(), 0);
    QCOMPARE(strided.step(2), qint64(52));
    strided.append(60, 0, 0);
    QCOMPARE(strided.stepBytes(), 4);
    QCOMPARE(strided.step(0), qint64(50));
    QCOMPARE(strided.step(3), qint64(60));
    strided.append(49, 0, 0);
    QCOMPARE(strided.stepBytes(), 8);
    QCOMPARE(strided.step(1), qint64(51));
    QCOMPARE(strided.step(4), qint64(49));

    // A value that is not exactly a float, and a step below the chunk's first, switch that column of
    // that chunk to 8 bytes without changing a point already stored.
    ScalarColumns columns;
    columns.append(10, 1.0, 0.5);
    columns.append(11, 2.0, 0.1);
    columns.append(5, 3.0, std::nan(""));
    columns.append(std::numeric_limits<qint64>::max(), 4.0, -std::numeric_limits<double>::infinity());
    QVERIFY(columns.hasWideValues());
    QCOMPARE(columns.size(), size_t(4));
    QCOMPARE(columns.point(0).step, qint64(10));
    QCOMPARE(columns.point(0).value, 0.5);
    QCOMPARE(columns.point(1).value, 0.1);
    QCOMPARE(columns.point(2).step, qint64(5));
    QVERIFY(std::isnan(columns.point(2).value));
    QCOMPARE(columns.point(3).step, std::numeric_limits<qint64>::max());
    QCOMPARE(columns.point(3).value, -std::numeric_limits<double>::infinity());
    QCOMPARE(columns.point(3).wallTime, 4.0);
    columns.truncate(2);
    QCOMPARE(columns.size(), size_t(2));
    QCOMPARE(columns.point(1).step, qint64(11));
    columns.append(12, 5.0, 2.0);
    QCOMPARE(columns.point(2).step, qint64(12));
    QCOMPARE(columns.point(2).value, 2.0);

    // NaN stays narrow: it is a float.
    ScalarColumns narrow;
    narrow.append(0, 0, std::nan(""));
    narrow.append(1, 0, 1.5);
    QVERIFY(!narrow.hasWideValues());
    QVERIFY(std::isnan(narrow.value(0)));
}

void TestEventFile::chunkAllocator()
{
    // Blocks from malloc (below 128 KiB), cut from the shared huge-page slabs (up to 8 MiB, so that
    // several fill a 32 MiB slab and the next one starts a new slab), and mapped alone (above 8 MiB):
    // each keeps what was written into it while the others are written and freed, in any order.
    using Alloc = PointChunkAllocator<double>;
    const size_t before = Alloc::mappedBytes();
    const std::vector<size_t> counts { 1000, 16384, 32768, 32768 + 1, 400000, 1048576, 1048576, 1048576, 1048576,
        1048576, 3000000, 5000000, 16384 };
    std::vector<double*> blocks;
    size_t large = 0;
    for (size_t b = 0; b < counts.size(); ++b) {
        double* p = Alloc().allocate(counts[b]);
        QVERIFY(p);
        QCOMPARE(reinterpret_cast<uintptr_t>(p) % alignof(double), uintptr_t(0));
        for (size_t i = 0; i < counts[b]; ++i)
            p[i] = double(b) * 1e7 + double(i);
        blocks.push_back(p);
        if (counts[b] * sizeof(double) >= 128 * 1024)
            large += counts[b] * sizeof(double);
    }
    QCOMPARE(Alloc::mappedBytes() - before, large);
    for (size_t b : { 3, 0, 7, 11, 5 }) {
        Alloc().deallocate(blocks[b], counts[b]);
        blocks[b] = nullptr;
    }
    for (size_t b = 0; b < counts.size(); ++b) {
        if (!blocks[b])
            continue;
        for (size_t i = 0; i < counts[b]; i += 997)
            QCOMPARE(blocks[b][i], double(b) * 1e7 + double(i));
        QCOMPARE(blocks[b][counts[b] - 1], double(b) * 1e7 + double(counts[b] - 1));
        Alloc().deallocate(blocks[b], counts[b]);
    }
    QCOMPARE(Alloc::mappedBytes(), before);
}

void TestEventFile::floatRepr_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("repr");
    // Each expected text is what CPython 3's repr() prints.
    QTest::addRow("one") << 1.0 << QByteArray("1.0");
    QTest::addRow("wall time") << 1795317519.2994323 << QByteArray("1795317519.2994323");
    QTest::addRow("half") << 1763700000.5 << QByteArray("1763700000.5");
    QTest::addRow("float32 tenth") << double(0.1f) << QByteArray("0.10000000149011612");
    QTest::addRow("tenth") << 0.1 << QByteArray("0.1");
    QTest::addRow("1e-4") << 0.0001 << QByteArray("0.0001");
    QTest::addRow("1e-5") << 0.00001 << QByteArray("1e-05");
    QTest::addRow("small") << 1.5e-7 << QByteArray("1.5e-07");
    QTest::addRow("16 digits") << 1234567890123456.0 << QByteArray("1234567890123456.0");
    QTest::addRow("1e16") << 1e16 << QByteArray("1e+16");
    QTest::addRow("big") << 1.25e100 << QByteArray("1.25e+100");
    QTest::addRow("negative") << -2.5 << QByteArray("-2.5");
    QTest::addRow("negative zero") << -0.0 << QByteArray("-0.0");
    QTest::addRow("zero") << 0.0 << QByteArray("0.0");
    QTest::addRow("hundred") << 100.0 << QByteArray("100.0");
    QTest::addRow("inf") << std::numeric_limits<double>::infinity() << QByteArray("inf");
    QTest::addRow("-inf") << -std::numeric_limits<double>::infinity() << QByteArray("-inf");
    QTest::addRow("nan") << std::numeric_limits<double>::quiet_NaN() << QByteArray("nan");
    QTest::addRow("max") << std::numeric_limits<double>::max() << QByteArray("1.7976931348623157e+308");
    QTest::addRow("denormal") << 5e-324 << QByteArray("5e-324");
}

void TestEventFile::floatRepr()
{
    QFETCH(double, value);
    QFETCH(QByteArray, repr);
    QCOMPARE(pythonFloatRepr(value), repr);
}

void TestEventFile::runDiscovery()
{
    QTemporaryDir dir;
    const QDir root(dir.path());
    QVERIFY(root.mkpath(QStringLiteral("train/sub")));
    QVERIFY(root.mkpath(QStringLiteral("eval")));
    QVERIFY(root.mkpath(QStringLiteral("empty")));
    const QByteArray record = fileVersionRecord();
    for (const char* file : { "events.out.tfevents.2", "events.out.tfevents.1", "train/events.out.tfevents.9",
             "train/sub/events.out.tfevents.3", "eval/events.out.tfevents.4", "eval/notes.txt", "empty/x.pb" })
        QVERIFY(writeFile(root.filePath(QString::fromLatin1(file)), record));
    QString error;
    const std::vector<EventRunFiles> runs = findEventRuns(dir.path(), &error);
    QVERIFY(error.isEmpty());
    QCOMPARE(runs.size(), size_t(4));
    QCOMPARE(runs.at(0).run, QStringLiteral("."));
    QCOMPARE(runs.at(0).files,
        QStringList({ root.filePath(QStringLiteral("events.out.tfevents.1")),
            root.filePath(QStringLiteral("events.out.tfevents.2")) }));
    QCOMPARE(runs.at(1).run, QStringLiteral("eval"));
    QCOMPARE(runs.at(2).run, QStringLiteral("train"));
    QCOMPARE(runs.at(3).run, QStringLiteral("train/sub"));

    const std::vector<EventRunFiles> single = findEventRuns(root.filePath(QStringLiteral("eval/notes.txt")), &error);
    QCOMPARE(single.size(), size_t(1));
    QCOMPARE(single.front().run, QStringLiteral("."));

    QVERIFY(findEventRuns(root.filePath(QStringLiteral("missing")), &error).empty());
    QVERIFY(error.contains(QStringLiteral("missing")));
}

QTEST_GUILESS_MAIN(TestEventFile)
#include "tst_eventfile.moc"
