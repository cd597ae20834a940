// SPDX-License-Identifier: GPL-2.0-or-later
// Tensor bundles against TensorFlow's own files (../shared/fixtures/checkpoints) and variants of
// them corrupted at test time.
#include "crc32c.h"
#include "tensorbundle.h"
#include "tensorstats.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard::Formats;

class TestTensorBundle : public QObject {
    Q_OBJECT

private:
    static QString fixture(const QString& name)
    {
        return QStringLiteral(TRAINYARD_FIXTURES_DIR "/checkpoints/") + name;
    }
    static QByteArray readAll(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return f.readAll();
    }

private Q_SLOTS:
    void fixtures_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addRow("half_plus_two") << fixture(QStringLiteral("saved_model_half_plus_two_cpu"));
        QTest::addRow("half_plus_two_tf2") << fixture(QStringLiteral("saved_model_half_plus_two_tf2_cpu"));
        QTest::addRow("counter") << fixture(QStringLiteral("saved_model_counter"));
    }

    void fixtures()
    {
        QFETCH(QString, dir);
        const QJsonArray expected = QJsonDocument::fromJson(readAll(dir + QStringLiteral("/expected.json"))).array();
        QVERIFY(!expected.isEmpty());

        QString error;
        // The folder, the .index path and the data shard path all name the same bundle.
        const QStringList paths { dir, QString(dir + QStringLiteral("/variables.index")),
            QString(dir + QStringLiteral("/variables.data-00000-of-00001")) };
        for (const QString& path : paths) {
            const auto info = TensorBundle::read(path, &error);
            QVERIFY2(info, qPrintable(error));
            QCOMPARE(info->format, QStringLiteral("tf-bundle"));
            QCOMPARE(info->tensors.size(), expected.size() - 1);
        }
        const auto info = TensorBundle::read(dir, &error);
        const QJsonObject header = expected.at(0).toObject().value(QStringLiteral("header")).toObject();
        QCOMPARE(info->metadata.value(QStringLiteral("numShards")).toInt(),
            header.value(QStringLiteral("num_shards")).toInt());
        QCOMPARE(info->metadata.value(QStringLiteral("endianness")).toString(), QStringLiteral("LITTLE"));

        for (qsizetype i = 1; i < expected.size(); ++i) {
            const QJsonObject e = expected.at(i).toObject();
            const TensorInfo& t = info->tensors.at(i - 1);
            QCOMPARE(t.name, e.value(QStringLiteral("name")).toString());
            QCOMPARE(t.dtype, e.value(QStringLiteral("dtype")).toString());
            QList<qint64> shape;
            for (const QJsonValue& d : e.value(QStringLiteral("shape")).toArray())
                shape.append(d.toInteger());
            QCOMPARE(t.shape, shape);
            QCOMPARE(t.shard, e.value(QStringLiteral("shard_id")).toInt());
            QCOMPARE(t.offset, e.value(QStringLiteral("offset")).toInteger());
            QCOMPARE(t.size, e.value(QStringLiteral("size")).toInteger());
            QCOMPARE(t.isMetadata, t.name == QLatin1String("_CHECKPOINTABLE_OBJECT_GRAPH"));
            if (t.name.endsWith(QLatin1String("/.ATTRIBUTES/VARIABLE_VALUE")))
                QCOMPARE(t.displayName, t.name.section(QLatin1Char('/'), 0, 0));
            else
                QCOMPARE(t.displayName, t.name);

            // Every entry, strings included, carries a CRC-32C of its bytes that TensorFlow masked.
            QVERIFY(t.crc32c.has_value());
            QVERIFY2(TensorBundle::verifyCrc(t, &error), qPrintable(error));

            if (!e.contains(QStringLiteral("values")))
                continue;
            const auto bytes = TensorBundle::readTensorData(t, 1 << 20, true, &error);
            QVERIFY2(bytes, qPrintable(error));
            const auto stats = TensorStats::compute(t.elementType, *bytes, 100, &error);
            QVERIFY2(stats, qPrintable(error));
            const QJsonArray values = e.value(QStringLiteral("values")).toArray();
            QCOMPARE(stats->firstValues.size(), values.size());
            for (qsizetype v = 0; v < values.size(); ++v)
                QCOMPARE(stats->firstValues.at(v), values.at(v).toDouble());
        }
    }

    void objectPath_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("path");
        QTest::addRow("tf2") << QStringLiteral("a/.ATTRIBUTES/VARIABLE_VALUE") << QStringLiteral("a");
        QTest::addRow("nested") << QStringLiteral("model/layer-1/kernel/.ATTRIBUTES/VARIABLE_VALUE")
                                << QStringLiteral("model/layer-1/kernel");
        QTest::addRow("tf1") << QStringLiteral("dense/kernel") << QStringLiteral("dense/kernel");
        QTest::addRow("graph") << QStringLiteral("_CHECKPOINTABLE_OBJECT_GRAPH")
                               << QStringLiteral("_CHECKPOINTABLE_OBJECT_GRAPH");
    }

    void objectPath()
    {
        QFETCH(QString, name);
        QFETCH(QString, path);
        QCOMPARE(TensorBundle::objectPath(name), path);
    }

    void crcMismatchIsReported()
    {
        QTemporaryDir tmp;
        const QString src = fixture(QStringLiteral("saved_model_half_plus_two_cpu"));
        QVERIFY(QFile::copy(src + QStringLiteral("/variables.index"), tmp.filePath(QStringLiteral("v.index"))));
        QByteArray data = readAll(src + QStringLiteral("/variables.data-00000-of-00001"));
        data[5] = char(data[5] ^ 0x40); // inside "a2" (bytes 4..8)
        QFile out(tmp.filePath(QStringLiteral("v.data-00000-of-00001")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(data);
        out.close();
        QString error;
        const auto info = TensorBundle::read(tmp.filePath(QStringLiteral("v")), &error);
        QVERIFY2(info, qPrintable(error));
        QVERIFY(TensorBundle::verifyCrc(*info->find(QStringLiteral("a")), &error));
        QVERIFY(!TensorBundle::verifyCrc(*info->find(QStringLiteral("a2")), &error));
        QVERIFY2(error.contains(QLatin1String("CRC-32C mismatch")), qPrintable(error));
        QVERIFY(!TensorBundle::readTensorData(*info->find(QStringLiteral("a2")), 1024, true, &error));
        QVERIFY(TensorBundle::readTensorData(*info->find(QStringLiteral("a2")), 1024, false, &error));
        QVERIFY(!TensorBundle::readTensorData(*info->find(QStringLiteral("a2")), 2, false, &error));
        QVERIFY2(error.contains(QLatin1String("limit")), qPrintable(error));
    }

    void shortShardIsReported()
    {
        QTemporaryDir tmp;
        const QString src = fixture(QStringLiteral("saved_model_half_plus_two_cpu"));
        QVERIFY(QFile::copy(src + QStringLiteral("/variables.index"), tmp.filePath(QStringLiteral("v.index"))));
        QString error;
        QVERIFY(!TensorBundle::read(tmp.filePath(QStringLiteral("v")), &error));
        QVERIFY2(error.contains(QLatin1String("data file missing")), qPrintable(error));
        QFile out(tmp.filePath(QStringLiteral("v.data-00000-of-00001")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(readAll(src + QStringLiteral("/variables.data-00000-of-00001")).left(10));
        out.close();
        QVERIFY(!TensorBundle::read(tmp.filePath(QStringLiteral("v")), &error));
        QVERIFY2(error.contains(QLatin1String("beyond the end")), qPrintable(error));
    }

    void notABundle()
    {
        QTemporaryDir tmp;
        QString error;
        QVERIFY(!TensorBundle::read(tmp.path(), &error));
        QVERIFY2(error.contains(QLatin1String("not a tensor bundle")), qPrintable(error));
        QVERIFY(!TensorBundle::parseIndex(QByteArrayView("hello"), QStringLiteral("x"), &error));
        QVERIFY2(error.contains(QLatin1String("too short")), qPrintable(error));
    }

    void truncatedIndex_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addRow("half_plus_two") << fixture(QStringLiteral("saved_model_half_plus_two_cpu"));
        QTest::addRow("tf2") << fixture(QStringLiteral("saved_model_half_plus_two_tf2_cpu"));
    }

    // Every proper prefix of an index fails with an error; none crashes.
    void truncatedIndex()
    {
        QFETCH(QString, dir);
        const QByteArray index = readAll(dir + QStringLiteral("/variables.index"));
        QVERIFY(!index.isEmpty());
        for (qsizetype n = 0; n < index.size(); ++n) {
            QString error;
            const auto info = TensorBundle::parseIndex(QByteArrayView(index).first(n), QStringLiteral("p"), &error);
            QVERIFY2(!info, qPrintable(QString::number(n)));
            QVERIFY(!error.isEmpty());
        }
    }

    // Flip every bit of the index, one at a time: the table's CRCs catch most; whatever parses
    // must still be self-consistent (no crash, shard ids in range).
    void flippedIndex()
    {
        const QByteArray index = readAll(fixture(QStringLiteral("saved_model_half_plus_two_tf2_cpu/variables.index")));
        int rejected = 0;
        for (qsizetype i = 0; i < index.size(); ++i) {
            for (int bit = 0; bit < 8; ++bit) {
                QByteArray bad = index;
                bad[i] = char(bad[i] ^ (1 << bit));
                QString error;
                const auto info = TensorBundle::parseIndex(bad, QStringLiteral("p"), &error);
                if (!info) {
                    QVERIFY(!error.isEmpty());
                    ++rejected;
                    continue;
                }
                const int shards = info->metadata.value(QStringLiteral("numShards")).toInt();
                for (const TensorInfo& t : info->tensors)
                    QVERIFY(t.shard >= 0 && t.shard < shards);
            }
        }
        QVERIFY(rejected > index.size() * 4);
    }
};

QTEST_GUILESS_MAIN(TestTensorBundle)
#include "tst_tensorbundle.moc"
