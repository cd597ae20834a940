// SPDX-License-Identifier: GPL-2.0-or-later
// safetensors against the real file in ../shared/fixtures/safetensors and headers broken at test
// time, one per validation rule; sharded index files written at test time.
#include "safetensors.h"
#include "tensorstats.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace Trainyard::Formats;

namespace {

QByteArray makeFile(const QByteArray& header, qint64 bufferBytes)
{
    QByteArray out(8, '\0');
    qToLittleEndian<quint64>(quint64(header.size()), out.data());
    out.append(header);
    out.append(QByteArray(bufferBytes, '\x01'));
    return out;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSafeTensors : public QObject {
    Q_OBJECT

private:
    const QString m_fixture = QStringLiteral(TRAINYARD_FIXTURES_DIR "/safetensors/jfk-codes.safetensors");

private Q_SLOTS:
    void fixture()
    {
        QString error;
        const auto info = SafeTensors::read(m_fixture, &error);
        QVERIFY2(info, qPrintable(error));
        QCOMPARE(info->format, QStringLiteral("safetensors"));
        // The header is the truth: {"codes":{"dtype":"I64","shape":[1,2,828],"data_offsets":[0,13248]}}.
        const QByteArray bytes = readAll(m_fixture);
        const quint64 n = qFromLittleEndian<quint64>(bytes.constData());
        const QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, qsizetype(n))).object();
        QCOMPARE(info->tensors.size(), header.size());
        const TensorInfo& t = info->tensors.at(0);
        QCOMPARE(t.name, QStringLiteral("codes"));
        QCOMPARE(t.dtype, header.value(QLatin1String("codes")).toObject().value(QLatin1String("dtype")).toString());
        QCOMPARE(t.shape, (QList<qint64> { 1, 2, 828 }));
        QCOMPARE(t.offset, qint64(8 + n));
        QCOMPARE(t.size, qint64(1 * 2 * 828 * 8));
        QCOMPARE(t.offset + t.size, qint64(bytes.size()));

        const auto data = SafeTensors::readTensorData(t, 1 << 20, &error);
        QVERIFY2(data, qPrintable(error));
        const auto stats = TensorStats::compute(t.elementType, *data, 4, &error);
        QVERIFY2(stats, qPrintable(error));
        QCOMPARE(stats->count, 1656);
        // The first codes as the bytes hold them (little-endian int64).
        QCOMPARE(stats->firstValues.at(0), double(qFromLittleEndian<qint64>(bytes.constData() + t.offset)));
        QCOMPARE(stats->firstValues.at(3), double(qFromLittleEndian<qint64>(bytes.constData() + t.offset + 24)));
        QCOMPARE(stats->nanCount, 0);
        QVERIFY(stats->min >= 0);
        QVERIFY(!SafeTensors::readTensorData(t, 100, &error));
    }

    void invalid_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("message");
        const QByteArray ok = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        QTest::addRow("valid") << makeFile(ok, 8) << QString();
        QTest::addRow("valid with metadata")
            << makeFile(R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8)
            << QString();
        QTest::addRow("empty file") << QByteArray() << QStringLiteral("too short");
        QByteArray huge(8, '\0');
        qToLittleEndian<quint64>(quint64(1) << 40, huge.data());
        QTest::addRow("header length over the cap") << huge << QStringLiteral("exceeds the limit");
        QTest::addRow("header past the end") << makeFile(ok, 8).left(30) << QStringLiteral("runs past the end");
        QTest::addRow("not json") << makeFile("{nope", 0) << QStringLiteral("not valid JSON");
        QTest::addRow("not an object") << makeFile("[1,2]", 0) << QStringLiteral("does not start with '{'");
        QTest::addRow("unknown dtype") << makeFile(R"({"a":{"dtype":"F31","shape":[2],"data_offsets":[0,8]}})", 8)
                                       << QStringLiteral("unknown dtype \"F31\"");
        QTest::addRow("negative dim") << makeFile(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8)
                                      << QStringLiteral("shape entries");
        QTest::addRow("size mismatch") << makeFile(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8)
                                       << QStringLiteral("is 12 bytes but data_offsets span 8");
        QTest::addRow("beyond buffer") << makeFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4)
                                       << QStringLiteral("beyond the data buffer");
        QTest::addRow("reversed") << makeFile(R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", 8)
                                  << QStringLiteral("is after end");
        QTest::addRow("overlap") << makeFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                             R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
            12) << QStringLiteral("overlap");
        QTest::addRow("hole") << makeFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                          R"("b":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}})",
            16) << QStringLiteral("hole of 4 bytes");
        QTest::addRow("trailing bytes") << makeFile(ok, 12)
                                        << QStringLiteral("cover 8 bytes but the data buffer has 12");
        QTest::addRow("metadata not string")
            << makeFile(R"({"__metadata__":{"epoch":3},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8)
            << QStringLiteral("__metadata__.epoch is not a string");
        QTest::addRow("fractional offset") << makeFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0.5,8]}})", 8)
                                           << QStringLiteral("data_offsets must be");
    }

    void invalid()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("t.safetensors"));
        QVERIFY(writeFile(path, file));
        QString error;
        const auto info = SafeTensors::read(path, &error);
        if (message.isEmpty()) {
            QVERIFY2(info, qPrintable(error));
            return;
        }
        QVERIFY(!info);
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    // What the header parser (simdjson since issue 17) must read as QJsonDocument did: keys in QString order,
    // the last of duplicate keys, numbers that are integers in any spelling, escapes in keys.
    void sameReadingAsQJson_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QStringList>("expected"); // name:dtype:shape of each tensor, in listing order
        QTest::addRow("unsorted keys") << makeFile(R"({"b":{"dtype":"I8","shape":[4],"data_offsets":[8,12]},)"
                                                   R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
            12) << QStringList { QStringLiteral("a:F32:2"), QStringLiteral("b:I8:4") };
        QTest::addRow("duplicate tensor, the last wins") << makeFile(
            R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,12]},)"
            R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
            8) << QStringList { QStringLiteral("a:F32:2") };
        QTest::addRow("duplicate field, the last wins")
            << makeFile(R"({"a":{"dtype":"I8","shape":[9],"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8)
            << QStringList { QStringLiteral("a:F32:2") };
        QTest::addRow("integers spelled as doubles")
            << makeFile(R"({"a":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8e0]}})", 8)
            << QStringList { QStringLiteral("a:F32:2") };
        QTest::addRow("escaped key and extra fields")
            << makeFile(R"({"\u0061\u00e9" : {"x":[1,{}],"dtype":"BF16","shape":[2,1],"data_offsets":[0,4]}} )", 4)
            << QStringList { QStringLiteral("aé:BF16:2x1") };
        // UTF-16 puts U+1F600 (a surrogate pair, 0xD83D…) before U+FFFD; UTF-8 bytes put it after.
        QTest::addRow("a key above U+FFFF")
            << makeFile(R"({"\uFFFD":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                        R"("\uD83D\uDE00":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
                   2)
            << QStringList { QString(QChar(0xD83D)) + QChar(0xDE00) + QStringLiteral(":U8:1"),
                   QString(QChar(0xFFFD)) + QStringLiteral(":U8:1") };
    }

    void sameReadingAsQJson()
    {
        QFETCH(QByteArray, file);
        QFETCH(QStringList, expected);
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("t.safetensors"));
        QVERIFY(writeFile(path, file));
        QString error;
        for (const bool fromFile : { true, false }) { // read() parses in place, parseHeader() from a padded copy
            const auto info = fromFile ? SafeTensors::read(path, &error)
                                       : SafeTensors::parseHeader(file, file.size(), path, &error);
            QVERIFY2(info, qPrintable(error));
            QStringList listed;
            for (const TensorInfo& t : info->tensors) {
                QStringList dims;
                for (qint64 d : t.shape)
                    dims << QString::number(d);
                listed << t.name + QLatin1Char(':') + t.dtype + QLatin1Char(':') + dims.join(QLatin1Char('x'));
            }
            QCOMPARE(listed, expected);
        }
    }

    // Every prefix of the real file and every byte of its header changed: an error or a
    // listing whose tensors stay inside the file.
    void truncatedAndFlipped()
    {
        const QByteArray bytes = readAll(m_fixture);
        for (qsizetype n = 0; n < bytes.size(); n += (n < 200 ? 1 : 97)) {
            QString error;
            QVERIFY(!SafeTensors::parseHeader(QByteArrayView(bytes).first(n), n, QStringLiteral("t"), &error));
            QVERIFY(!error.isEmpty());
        }
        for (qsizetype i = 0; i < 8 + 0x48; ++i) {
            for (char value : { char(0), char('9'), char(bytes[i] ^ 0x80) }) {
                QByteArray bad = bytes;
                bad[i] = value;
                QString error;
                const auto info = SafeTensors::parseHeader(bad, bad.size(), QStringLiteral("t"), &error);
                if (!info) {
                    QVERIFY(!error.isEmpty());
                    continue;
                }
                for (const TensorInfo& t : info->tensors)
                    QVERIFY(t.offset + t.size <= bad.size());
            }
        }
    }

    void shardedIndex_data()
    {
        QTest::addColumn<QByteArray>("index");
        QTest::addColumn<QString>("message");
        QTest::addRow("valid") << QByteArray(
            R"({"metadata":{"total_size":11},"weight_map":)"
            R"({"a":"model-00001-of-00002.safetensors","b":"model-00002-of-00002.safetensors"}})")
                               << QString();
        QTest::addRow("wrong shard") << QByteArray(R"({"weight_map":{"a":"model-00002-of-00002.safetensors",)"
                                                   R"("b":"model-00002-of-00002.safetensors"}})")
                                     << QStringLiteral("tensor \"a\" is not in its shard");
        QTest::addRow("missing shard") << QByteArray(R"({"weight_map":{"a":"nope.safetensors"}})")
                                       << QStringLiteral("cannot open");
        QTest::addRow("escape") << QByteArray(R"({"weight_map":{"a":"../model-00001-of-00002.safetensors"}})")
                                << QStringLiteral("outside the index's folder");
        QTest::addRow("no map") << QByteArray(R"({"metadata":{}})") << QStringLiteral("weight_map missing");
        QTest::addRow("nested metadata") << QByteArray(
            R"({"metadata":{"total_size":11,"by":{"tool":"x","n":[1,2.5,"s",null,true,-7]}},"weight_map":)"
            R"({"b":"model-00002-of-00002.safetensors","a":"model-00001-of-00002.safetensors"}})")
                                         << QString();
    }

    void shardedIndex()
    {
        QFETCH(QByteArray, index);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        QVERIFY(writeFile(tmp.filePath(QStringLiteral("model-00001-of-00002.safetensors")),
            makeFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8)));
        QVERIFY(writeFile(tmp.filePath(QStringLiteral("model-00002-of-00002.safetensors")),
            makeFile(R"({"b":{"dtype":"I8","shape":[3],"data_offsets":[0,3]}})", 3)));
        const QString path = tmp.filePath(QStringLiteral("model.safetensors.index.json"));
        QVERIFY(writeFile(path, index));
        QString error;
        const auto info = SafeTensors::read(path, &error);
        if (!message.isEmpty()) {
            QVERIFY(!info);
            QVERIFY2(error.contains(message), qPrintable(error));
            return;
        }
        QVERIFY2(info, qPrintable(error));
        QCOMPARE(info->tensors.size(), 2);
        QCOMPARE(info->tensors.at(0).name, QStringLiteral("a"));
        QCOMPARE(info->tensors.at(1).name, QStringLiteral("b"));
        QCOMPARE(info->tensors.at(1).file, tmp.filePath(QStringLiteral("model-00002-of-00002.safetensors")));
        QCOMPARE(info->totalBytes(), 11);
        QCOMPARE(info->files.size(), 3);
        // The index's metadata as QJsonDocument reads it, plus the shards in weight_map's key order.
        QJsonObject metadata = QJsonDocument::fromJson(index).object().value(QLatin1String("metadata")).toObject();
        metadata.insert(QStringLiteral("shards"),
            QJsonArray { QStringLiteral("model-00001-of-00002.safetensors"),
                QStringLiteral("model-00002-of-00002.safetensors") });
        QCOMPARE(info->metadata, metadata);
    }
};

QTEST_GUILESS_MAIN(TestSafeTensors)
#include "tst_safetensors.moc"
