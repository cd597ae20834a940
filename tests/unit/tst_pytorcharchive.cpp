// SPDX-License-Identifier: GPL-2.0-or-later
// torch.save archives (../shared/fixtures/pytorch) and the safe pickle reader, including
// truncated, corrupted and hostile inputs made at test time.
#include "picklereader.h"
#include "pytorcharchive.h"
#include "tensorstats.h"
#include "ziparchive.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Trainyard::Formats;

class TestPyTorchArchive : public QObject {
    Q_OBJECT

private:
    static QString fixture(const QString& name) { return QStringLiteral(TRAINYARD_FIXTURES_DIR "/pytorch/") + name; }
    static QByteArray readAll(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static QByteArray dataPkl(const QString& file)
    {
        QString error;
        const auto zip = ZipArchive::open(fixture(file), &error);
        if (!zip)
            return {};
        for (const auto& e : zip->entries()) {
            if (e.name().endsWith(QLatin1String("/data.pkl")))
                return zip->read(e, 0, e.size, 1 << 20, &error).value_or(QByteArray());
        }
        return {};
    }

private Q_SLOTS:
    void fixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("test") << QStringLiteral("test.pt");
        QTest::addRow("test_with_key") << QStringLiteral("test_with_key.pt");
        QTest::addRow("mlp_epoch3") << QStringLiteral("mlp_epoch3.pt");
        // Issue 46 item 3: an exported TorchScript model (the sample's model/model.pt) was refused ("global
        // __torch__.… is not allowed"); its parameters and buffers are listed as state_dict() names them.
        QTest::addRow("torchscript") << QStringLiteral("torchscript.pt");
    }

    void fixtures()
    {
        QFETCH(QString, file);
        const QJsonObject expected
            = QJsonDocument::fromJson(readAll(fixture(file) + QStringLiteral(".expected.json"))).object();
        QVERIFY(!expected.isEmpty());
        QString error;
        const auto info = PyTorchArchive::read(fixture(file), &error);
        QVERIFY2(info, qPrintable(error));
        QCOMPARE(info->format, QStringLiteral("pytorch"));

        const auto zip = ZipArchive::open(fixture(file), &error);
        QVERIFY2(zip, qPrintable(error));
        QStringList names;
        for (const auto& e : zip->entries())
            names.append(e.name());
        QStringList expectedNames;
        for (const QJsonValue& v : expected.value(QStringLiteral("zip_entries")).toArray())
            expectedNames.append(v.toString());
        names.sort();
        expectedNames.sort();
        QCOMPARE(names, expectedNames);

        const QJsonArray tensors = expected.value(QStringLiteral("tensors")).toArray();
        QCOMPARE(info->tensors.size(), tensors.size());
        for (qsizetype i = 0; i < tensors.size(); ++i) {
            const QJsonObject e = tensors.at(i).toObject();
            const TensorInfo& t = info->tensors.at(i);
            QCOMPARE(t.name, e.value(QStringLiteral("name")).toString());
            QCOMPARE(t.dtype, e.value(QStringLiteral("dtype")).toString());
            QList<qint64> shape;
            for (const QJsonValue& d : e.value(QStringLiteral("shape")).toArray())
                shape.append(d.toInteger());
            QCOMPARE(t.shape, shape);
            QCOMPARE(t.size, t.elementCount() * elementSize(t.elementType)); // all fixtures are contiguous
            QVERIFY(t.offset + t.size <= t.storageBytes);
            const auto bytes = PyTorchArchive::readTensorData(t, 1 << 20, &error);
            QVERIFY2(bytes, qPrintable(error));
            QCOMPARE(bytes->size(), t.size);
        }
        const QJsonObject scalars = expected.value(QStringLiteral("scalars")).toObject();
        QCOMPARE(info->scalars.size(), scalars.size());
        for (auto it = scalars.begin(); it != scalars.end(); ++it)
            QCOMPARE(info->scalars.value(it.key()).toLongLong(), it.value().toInteger());
        // A TorchScript archive says what it is.
        QCOMPARE(info->metadata.value(QStringLiteral("archive")).toString().startsWith(QLatin1String("TorchScript")),
            file == QLatin1String("torchscript.pt"));
    }

    // Values as torch.load shows them: test.pt holds [[1, 2, 3, 4], [5, 6, 7, 8]] (int64) and the
    // MLP's Adam step counters are 1.0.
    void values()
    {
        QString error;
        const auto info = PyTorchArchive::read(fixture(QStringLiteral("test.pt")), &error);
        QVERIFY2(info, qPrintable(error));
        const TensorInfo& t = info->tensors.at(0);
        QCOMPARE(t.strides, (QList<qint64> { 4, 1 }));
        const auto bytes = PyTorchArchive::readTensorData(t, 1024, &error);
        QVERIFY2(bytes, qPrintable(error));
        const auto stats = TensorStats::compute(t.elementType, *bytes, 10, &error);
        QVERIFY2(stats, qPrintable(error));
        QCOMPARE(stats->firstValues, (QList<double> { 1, 2, 3, 4, 5, 6, 7, 8 }));
        QCOMPARE(stats->min, 1.0);
        QCOMPARE(stats->max, 8.0);
        QCOMPARE(stats->mean, 4.5);

        const auto mlp = PyTorchArchive::read(fixture(QStringLiteral("mlp_epoch3.pt")), &error);
        QVERIFY2(mlp, qPrintable(error));
        const auto step
            = PyTorchArchive::readTensorData(*mlp->find(QStringLiteral("optimizer.state.2.step")), 64, &error);
        QVERIFY2(step, qPrintable(error));
        QCOMPARE(TensorStats::compute(ElementType::F32, *step, 1, &error)->firstValues, QList<double> { 1.0 });
        QVERIFY(!PyTorchArchive::readTensorData(*mlp->find(QStringLiteral("model.0.weight")), 1024, &error));
        QVERIFY2(error.contains(QLatin1String("limit")), qPrintable(error));
    }

    void truncated_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("stride");
        QTest::addRow("test") << QStringLiteral("test.pt") << 1;
        QTest::addRow("mlp_epoch3") << QStringLiteral("mlp_epoch3.pt") << 487;
    }

    // A zip's central directory is at its end: every proper prefix must be refused cleanly.
    void truncated()
    {
        QFETCH(QString, file);
        QFETCH(int, stride);
        const QByteArray bytes = readAll(fixture(file));
        for (qsizetype n = 0; n < bytes.size(); n += stride) {
            const QByteArray cut = bytes.left(n);
            QString error;
            QVERIFY2(!PyTorchArchive::readMemory(cut, file, &error), qPrintable(QString::number(n)));
            QVERIFY(!error.isEmpty());
        }
    }

    // Any byte of the archive set to another value: an error or a consistent listing, never a crash.
    void corrupted()
    {
        const QByteArray bytes = readAll(fixture(QStringLiteral("test_with_key.pt")));
        int failures = 0;
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            for (char value : { char(0), char(0xff), char(bytes[i] ^ 0x01) }) {
                QByteArray bad = bytes;
                bad[i] = value;
                QString error;
                const auto info = PyTorchArchive::readMemory(bad, QStringLiteral("bad.pt"), &error);
                if (!info) {
                    QVERIFY(!error.isEmpty());
                    ++failures;
                    continue;
                }
                for (const TensorInfo& t : info->tensors)
                    QVERIFY(t.offset + t.size <= t.storageBytes);
            }
        }
        QVERIFY(failures > 0);
    }

    // The pickle itself, corrupted byte by byte (bypassing the zip CRC).
    void corruptedPickle()
    {
        const QByteArray pkl = dataPkl(QStringLiteral("mlp_epoch3.pt"));
        QVERIFY(!pkl.isEmpty());
        QVERIFY(PickleReader::parse(pkl, nullptr));
        int failures = 0;
        for (qsizetype i = 0; i < pkl.size(); ++i) {
            for (char value : { char(0), char(0xff), char('('), char('h'), char(pkl[i] ^ 0x20) }) {
                QByteArray bad = pkl;
                bad[i] = value;
                QString error;
                if (!PickleReader::parse(bad, &error)) {
                    QVERIFY(!error.isEmpty());
                    ++failures;
                }
            }
            QString error;
            QVERIFY(!PickleReader::parse(QByteArrayView(pkl).first(i), &error));
        }
        QVERIFY(failures > 0);
    }

    void hostilePickle_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("message");
        QTest::addRow("os.system") << QByteArray("\x80\x02"
                                                 "cos\nsystem\n"
                                                 "X\x02\x00\x00\x00ls"
                                                 "\x85R.",
            23) << QStringLiteral("global os.system is not allowed");
        QTest::addRow("builtins.eval") << QByteArray("\x80\x04\x8c\x08"
                                                     "builtins\x8c\x04"
                                                     "eval\x93.",
            20) << QStringLiteral("global builtins.eval is not allowed");
        QTest::addRow("INST") << QByteArray("(ios\nsystem\n.") << QStringLiteral("unsupported opcode 0x69 ('i')");
        QTest::addRow("huge string") << QByteArray("\x80\x02X\xff\xff\xff\x7f", 7)
                                     << QStringLiteral("runs past the end");
        QTest::addRow("huge string8") << QByteArray("\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f", 11)
                                      << QStringLiteral("runs past the end");
        QTest::addRow("no stop") << QByteArray("\x80\x02}", 3) << QStringLiteral("without a STOP");
        QTest::addRow("unknown memo") << QByteArray("\x80\x02h\x07.", 5) << QStringLiteral("memo key 7");
        QTest::addRow("underflow") << QByteArray("\x80\x02s.", 4) << QStringLiteral("stack underflow");
        QTest::addRow("reduce non-global") << QByteArray("\x80\x02N)R.", 6) << QStringLiteral("not an allowed global");
        QTest::addRow("setitem on list") << QByteArray("\x80\x02]NNs.", 7) << QStringLiteral("not a dict");
        QTest::addRow("protocol 9") << QByteArray("\x80\x09N.", 4) << QStringLiteral("protocol 9");
        // A TorchScript class outside a TorchScript archive is refused as any other global.
        QTest::addRow("__torch__ outside TorchScript")
            << QByteArray("\x80\x02"
                          "c__torch__\nNet\n)\x81.",
                   20) << QStringLiteral("global __torch__.Net is not allowed");
    }

    void hostilePickle()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!PickleReader::parse(pickle, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    // A list that contains itself, and 100,000 nested lists: both parse into the flat node
    // array; listing tensors of such a pickle must stop at the depth limit, not overflow the stack.
    void cyclesAndDepth()
    {
        const QByteArray cycle("\x80\x02]q\x00h\x00"
                               "a.",
            9);
        QString error;
        const auto pickle = PickleReader::parse(cycle, &error);
        QVERIFY2(pickle, qPrintable(error));
        QCOMPARE(pickle->items(pickle->at(pickle->root)).size(), size_t(1));
        QCOMPARE(pickle->items(pickle->at(pickle->root))[0], pickle->root);

        QByteArray deep("\x80\x02", 2);
        deep.append(QByteArray(150000, '('));
        deep.append(QByteArray(150000, 'l'));
        deep.append('.');
        QVERIFY(!PickleReader::parse(deep, &error)); // more MARKs than allowed
        QVERIFY2(error.contains(QLatin1String("MARK")), qPrintable(error));
        QByteArray nested("\x80\x02", 2);
        nested.append(QByteArray(50000, ']'));
        nested.append(QByteArray(49999, 'a'));
        nested.append('.');
        QVERIFY2(PickleReader::parse(nested, &error), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPyTorchArchive)
#include "tst_pytorcharchive.moc"
