// SPDX-License-Identifier: GPL-2.0-or-later
// KerasArchive on `.keras` archives built here the way Keras 3's saving_lib writes them (a zip of
// config.json, metadata.json and model.weights.h5 with `layers/<name>/vars/<i>` datasets); the HDF5 file
// is written with libhdf5 itself. Listing, dispatch through CheckpointReader, values and statistics of
// float32/float16/int64 datasets, and the errors: not a zip, no config, a config that is not an object, a
// weights file that is not HDF5 or is truncated, an archive without weights.

#include "checkpointreader.h"
#include "kerasarchive.h"
#include "requireddependencies.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#ifdef TRAINYARD_TEST_HDF5
#include <hdf5.h>

using namespace Trainyard::Formats;

namespace {
/// The zip CRC-32 (reflected polynomial 0xEDB88320), bit by bit: the test's archives are small.
quint32 crc32Of(const QByteArray& data)
{
    quint32 crc = 0xffffffffu;
    for (char ch : data) {
        crc ^= quint8(ch);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/// A zip of stored entries (APPNOTE 4.3: local headers, central directory, end record).
QByteArray storedZip(const QList<QPair<QString, QByteArray>>& files)
{
    QByteArray out;
    QByteArray central;
    auto u16 = [](QByteArray& b, quint16 v) {
        v = qToLittleEndian(v);
        b.append(reinterpret_cast<const char*>(&v), 2);
    };
    auto u32 = [](QByteArray& b, quint32 v) {
        v = qToLittleEndian(v);
        b.append(reinterpret_cast<const char*>(&v), 4);
    };
    for (const auto& [name, data] : files) {
        const QByteArray n = name.toUtf8();
        const quint32 crc = crc32Of(data);
        const quint32 offset = quint32(out.size());
        u32(out, 0x04034b50);
        u16(out, 20);
        u16(out, 0);
        u16(out, 0);
        u16(out, 0);
        u16(out, 0);
        u32(out, crc);
        u32(out, quint32(data.size()));
        u32(out, quint32(data.size()));
        u16(out, quint16(n.size()));
        u16(out, 0);
        out += n;
        out += data;
        u32(central, 0x02014b50);
        u16(central, 20);
        u16(central, 20);
        u16(central, 0);
        u16(central, 0);
        u16(central, 0);
        u16(central, 0);
        u32(central, crc);
        u32(central, quint32(data.size()));
        u32(central, quint32(data.size()));
        u16(central, quint16(n.size()));
        u16(central, 0);
        u16(central, 0);
        u16(central, 0);
        u16(central, 0);
        u32(central, 0);
        u32(central, offset);
        central += n;
    }
    const quint32 centralOffset = quint32(out.size());
    out += central;
    u32(out, 0x06054b50);
    u16(out, 0);
    u16(out, 0);
    u16(out, quint16(files.size()));
    u16(out, quint16(files.size()));
    u32(out, quint32(central.size()));
    u32(out, centralOffset);
    u16(out, 0);
    return out;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
}

hid_t halfType()
{
    const hid_t t = H5Tcopy(H5T_IEEE_F32LE);
    H5Tset_fields(t, 15, 10, 5, 0, 10);
    H5Tset_precision(t, 16);
    H5Tset_size(t, 2);
    H5Tset_ebias(t, 15);
    return t;
}

/// Writes a dataset at `path` (groups created on the way) from `data` in `memType`.
void dataset(hid_t file, const char* path, hid_t fileType, hid_t memType, const QList<hsize_t>& dims, const void* data)
{
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    const hid_t space
        = dims.isEmpty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    const hid_t d = H5Dcreate2(file, path, fileType, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(d);
    H5Sclose(space);
    H5Pclose(lcpl);
}

/// A model.weights.h5 as Keras 3 lays it out: a Dense layer's kernel and bias, a float16 and a string
/// dataset, and the optimizer's iteration counter.
QByteArray weightsH5(const QString& path)
{
    const hid_t file = H5Fcreate(QFile::encodeName(path).constData(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const float kernel[6] = { 0, 1, 2, 3, 4, 5 };
    dataset(file, "layers/dense/vars/0", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, { 3, 2 }, kernel);
    const float bias[2] = { 0.5f, -0.5f };
    dataset(file, "layers/dense/vars/1", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, { 2 }, bias);
    const hid_t half = halfType();
    const float halves[2] = { 1.5f, -2.0f };
    dataset(file, "layers/norm/vars/0", half, H5T_NATIVE_FLOAT, { 2 }, halves);
    H5Tclose(half);
    const qint64 iterations = 7;
    dataset(file, "optimizer/vars/0", H5T_STD_I64LE, H5T_NATIVE_INT64, {}, &iterations);
    const hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, 8);
    const char name[8] = "adam";
    dataset(file, "optimizer/name", str, str, {}, name);
    H5Tclose(str);
    H5Fclose(file);
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QByteArray kConfig = R"({"module": "keras", "class_name": "Sequential", "config": {"name": "mnist_mlp",
    "layers": [{"class_name": "Dense", "config": {"name": "dense", "units": 2}}]}, "registered_name": null})";
const QByteArray kMetadata = R"({"keras_version": "3.3.3", "date_saved": "2024-05-01@12:00:00"})";
} // namespace

class TestKerasArchive : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QByteArray m_weights;

    QString archive(const QString& name, const QList<QPair<QString, QByteArray>>& files)
    {
        const QString path = m_dir.filePath(name);
        return writeFile(path, storedZip(files)) ? path : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(KerasArchive::hasHdf5());
        m_weights = weightsH5(m_dir.filePath(QStringLiteral("weights.h5")));
        QVERIFY(m_weights.startsWith("\x89HDF"));
    }

    void listing()
    {
        // A file named like the weights in the working directory must not disturb the in-memory open.
        QVERIFY(QDir::setCurrent(m_dir.path()));
        QVERIFY(QFile::copy(m_dir.filePath(QStringLiteral("weights.h5")), QStringLiteral("model.weights.h5")));
        const QString path = archive(QStringLiteral("model.keras"),
            { { QStringLiteral("metadata.json"), kMetadata }, { QStringLiteral("config.json"), kConfig },
                { QStringLiteral("model.weights.h5"), m_weights } });
        QString resolved;
        QCOMPARE(CheckpointReader::detect(path, &resolved), QStringLiteral("keras"));
        QString error;
        const auto info = CheckpointReader::read(path, &error);
        QVERIFY2(info, qPrintable(error));
        QCOMPARE(info->format, QStringLiteral("keras"));
        QCOMPARE(info->files, QStringList { path });
        QCOMPARE(info->metadata.value(QStringLiteral("className")).toString(), QStringLiteral("Sequential"));
        QCOMPARE(info->metadata.value(QStringLiteral("name")).toString(), QStringLiteral("mnist_mlp"));
        QCOMPARE(info->metadata.value(QStringLiteral("keras_version")).toString(), QStringLiteral("3.3.3"));
        QStringList names;
        for (const TensorInfo& t : info->tensors)
            names << t.name;
        QCOMPARE(names,
            (QStringList { QStringLiteral("layers/dense/vars/0"), QStringLiteral("layers/dense/vars/1"),
                QStringLiteral("layers/norm/vars/0"), QStringLiteral("optimizer/name"),
                QStringLiteral("optimizer/vars/0") }));
        const TensorInfo* kernel = info->find(QStringLiteral("layers/dense/vars/0"));
        QCOMPARE(kernel->dtype, QStringLiteral("float32"));
        QCOMPARE(kernel->elementType, ElementType::F32);
        QCOMPARE(kernel->shape, (QList<qint64> { 3, 2 }));
        QCOMPARE(kernel->size, 24);
        QCOMPARE(info->find(QStringLiteral("layers/norm/vars/0"))->dtype, QStringLiteral("float16"));
        QCOMPARE(info->find(QStringLiteral("optimizer/vars/0"))->dtype, QStringLiteral("int64"));
        QVERIFY(info->find(QStringLiteral("optimizer/vars/0"))->shape.isEmpty());
        QCOMPARE(info->find(QStringLiteral("optimizer/name"))->dtype, QStringLiteral("string"));
        QCOMPARE(info->totalBytes(), 24 + 8 + 4 + 8 + 8); // the fixed-length string counts its 8 bytes

        // Values and statistics through the common entry point.
        auto stats = CheckpointReader::tensorStats(*info, *kernel, 1 << 20, 10, &error);
        QVERIFY2(stats, qPrintable(error));
        QCOMPARE(stats->count, 6);
        QCOMPARE(stats->mean, 2.5);
        QCOMPARE(stats->min, 0.0);
        QCOMPARE(stats->max, 5.0);
        QCOMPARE(stats->firstValues.size(), 6);
        stats = CheckpointReader::tensorStats(
            *info, *info->find(QStringLiteral("layers/norm/vars/0")), 1 << 20, 10, &error);
        QVERIFY2(stats, qPrintable(error));
        QCOMPARE(stats->firstValues, (QList<double> { 1.5, -2.0 }));
        stats = CheckpointReader::tensorStats(
            *info, *info->find(QStringLiteral("optimizer/vars/0")), 1 << 20, 10, &error);
        QVERIFY2(stats, qPrintable(error));
        QCOMPARE(stats->firstValues, QList<double> { 7.0 });
        QVERIFY(
            !CheckpointReader::tensorStats(*info, *info->find(QStringLiteral("optimizer/name")), 1 << 20, 10, &error));
        QVERIFY2(error.contains(QStringLiteral("not decoded")), qPrintable(error));
        QVERIFY(!CheckpointReader::tensorStats(*info, *kernel, 10, 10, &error)); // above the byte limit
        QVERIFY2(error.contains(QStringLiteral("limit")), qPrintable(error));
    }

    void withoutWeights()
    {
        const QString path
            = archive(QStringLiteral("config-only.keras"), { { QStringLiteral("config.json"), kConfig } });
        QString error;
        const auto info = KerasArchive::read(path, &error);
        QVERIFY2(info, qPrintable(error));
        QVERIFY(info->tensors.isEmpty());
        QVERIFY(
            info->metadata.value(QStringLiteral("weights")).toString().contains(QStringLiteral("model.weights.h5")));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::addRow("not a zip") << QStringLiteral("garbage.keras") << QByteArray("this is not a zip archive at all")
                                   << QStringLiteral("not a Keras archive");
        QTest::addRow("no config") << QStringLiteral("noconfig.keras")
                                   << storedZip({ { QStringLiteral("model.weights.h5"), m_weights } })
                                   << QStringLiteral("no config.json");
        QTest::addRow("config not an object")
            << QStringLiteral("badconfig.keras") << storedZip({ { QStringLiteral("config.json"), "[1, 2" } })
            << QStringLiteral("config.json is not a JSON object");
        QTest::addRow("weights not HDF5")
            << QStringLiteral("nothdf5.keras")
            << storedZip({ { QStringLiteral("config.json"), kConfig }, { QStringLiteral("model.weights.h5"), "nope" } })
            << QStringLiteral("not an HDF5 file");
        QTest::addRow("weights truncated")
            << QStringLiteral("truncated.keras")
            << storedZip({ { QStringLiteral("config.json"), kConfig },
                   { QStringLiteral("model.weights.h5"), m_weights.left(m_weights.size() / 3) } })
            << QStringLiteral("model.weights.h5");
        QByteArray flipped = storedZip({ { QStringLiteral("config.json"), kConfig } });
        flipped[flipped.size() - 5] = '\x7f'; // central directory offset points past the end
        QTest::addRow("broken zip") << QStringLiteral("broken.keras") << flipped
                                    << QStringLiteral("not a Keras archive");
    }

    void errors()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString path = m_dir.filePath(name);
        QVERIFY(writeFile(path, bytes));
        QString error;
        const auto info = CheckpointReader::read(path, &error);
        QVERIFY(!info);
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }
};

#else
// Built without libhdf5: the reader is built without it too; nothing here can make a weights file.
class TestKerasArchive : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { TRAINYARD_SKIP_OR_FAIL("built without libhdf5 (Debian: libhdf5-dev)"); }
};
#endif

QTEST_GUILESS_MAIN(TestKerasArchive)
#include "tst_kerasarchive.moc"
