// SPDX-License-Identifier: GPL-2.0-or-later
// `trainyardctl inspect checkpoint` driven in-process (trainyard_ctl) over the real fixtures of
// every format, and once through the built program.
#include "inspectcheckpoint.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

struct Run {
    int code;
    QString out;
    QString err;
};

Run inspect(const QStringList& args)
{
    QString out, err;
    QTextStream o(&out), e(&err);
    const int code = runInspectCheckpoint(args, o, e);
    o.flush();
    e.flush();
    return { code, out, err };
}

QString fixture(const QString& name)
{
    return QStringLiteral(TRAINYARD_FIXTURES_DIR "/") + name;
}

} // namespace

class TestInspectCheckpoint : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_home.reset(new QTemporaryDir);
        qputenv("XDG_RUNTIME_DIR", m_home->filePath(QStringLiteral("run")).toUtf8());
        qputenv("XDG_DATA_HOME", m_home->filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_home->filePath(QStringLiteral("config")).toUtf8());
    }

    void json_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("tensors");
        QTest::addColumn<QString>("firstName");
        QTest::addColumn<qint64>("totalBytes");
        QTest::addRow("tf1 folder") << fixture(QStringLiteral("checkpoints/saved_model_half_plus_two_cpu"))
                                    << QStringLiteral("tf-bundle") << 5 << QStringLiteral("a") << qint64(20);
        QTest::addRow("tf2 index") << fixture(QStringLiteral("checkpoints/saved_model_half_plus_two_tf2_cpu/variables.index"))
                                   << QStringLiteral("tf-bundle") << 4 << QStringLiteral("_CHECKPOINTABLE_OBJECT_GRAPH")
                                   << qint64(631);
        QTest::addRow("tf prefix") << fixture(QStringLiteral("checkpoints/saved_model_counter/variables"))
                                   << QStringLiteral("tf-bundle") << 1 << QStringLiteral("counter") << qint64(4);
        QTest::addRow("pt") << fixture(QStringLiteral("pytorch/mlp_epoch3.pt")) << QStringLiteral("pytorch") << 16
                            << QStringLiteral("model.0.weight") << qint64(4 * (3 * (128 * 64 + 128 + 1280 + 10) + 4));
        QTest::addRow("safetensors") << fixture(QStringLiteral("safetensors/jfk-codes.safetensors"))
                                     << QStringLiteral("safetensors") << 1 << QStringLiteral("codes") << qint64(13248);
    }

    void json()
    {
        QFETCH(QString, path);
        QFETCH(QString, format);
        QFETCH(int, tensors);
        QFETCH(QString, firstName);
        QFETCH(qint64, totalBytes);
        const Run r = inspect({ path, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value(QLatin1String("format")).toString(), format);
        const QJsonArray list = doc.value(QLatin1String("tensors")).toArray();
        QCOMPARE(list.size(), tensors);
        QCOMPARE(list.at(0).toObject().value(QLatin1String("name")).toString(), firstName);
        QCOMPARE(doc.value(QLatin1String("totalBytes")).toInteger(), totalBytes);
    }

    void table()
    {
        const Run r = inspect({ fixture(QStringLiteral("checkpoints/saved_model_half_plus_two_tf2_cpu")) });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(lines.at(0).contains(QLatin1String("tf-bundle, 4 tensors")), qPrintable(lines.at(0)));
        QCOMPARE(lines.at(1).simplified(), QStringLiteral("NAME DTYPE SHAPE BYTES"));
        // TF2 names are shown as object paths; columns line up.
        QCOMPARE(lines.at(3).simplified(), QStringLiteral("a DT_FLOAT [] 4"));
        QCOMPARE(lines.at(1).indexOf(QLatin1String("DTYPE")), lines.at(3).indexOf(QLatin1String("DT_FLOAT")));
        QCOMPARE(lines.at(1).size(), lines.at(3).size());
    }

    void values()
    {
        const Run r = inspect({ fixture(QStringLiteral("checkpoints/saved_model_half_plus_two_cpu")),
                                QStringLiteral("--values"), QStringLiteral("b"), QStringLiteral("--format=json") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject b = QJsonDocument::fromJson(r.out.toUtf8())
                                  .object()
                                  .value(QLatin1String("values"))
                                  .toObject()
                                  .value(QLatin1String("b"))
                                  .toObject();
        QCOMPARE(b.value(QLatin1String("values")).toArray(), QJsonArray { 2.0 });
        QCOMPARE(b.value(QLatin1String("mean")).toDouble(), 2.0);

        const Run t = inspect({ fixture(QStringLiteral("pytorch/mlp_epoch3.pt")), QStringLiteral("--values"),
                                QStringLiteral("model.2.bias"), QStringLiteral("--count"), QStringLiteral("3") });
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QVERIFY2(t.out.contains(QLatin1String("Values of model.2.bias (float32 [10], 10 elements)")), qPrintable(t.out));
        QVERIFY2(t.out.contains(QLatin1String("first 3: ")), qPrintable(t.out));
        QVERIFY2(t.out.contains(QLatin1String("epoch = 3")), qPrintable(t.out));
        QVERIFY2(t.out.contains(QLatin1String("global_step = 1407")), qPrintable(t.out));
    }

    void verify()
    {
        const Run r = inspect({ fixture(QStringLiteral("checkpoints/saved_model_half_plus_two_tf2_cpu")),
                                QStringLiteral("--verify") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("CRC-32C: all 4 tensors match")), qPrintable(r.out));
    }

    // A job dir with a `checkpoint` file naming its latest bundle; the recorded path is absolute
    // and from another machine, so the reader falls back to the name inside the folder.
    void checkpointFolder()
    {
        QTemporaryDir dir;
        const QString src = fixture(QStringLiteral("checkpoints/saved_model_counter/"));
        QVERIFY(QFile::copy(src + QStringLiteral("variables.index"), dir.filePath(QStringLiteral("ckpt-7.index"))));
        QVERIFY(QFile::copy(src + QStringLiteral("variables.data-00000-of-00001"),
                            dir.filePath(QStringLiteral("ckpt-7.data-00000-of-00001"))));
        QFile state(dir.filePath(QStringLiteral("checkpoint")));
        QVERIFY(state.open(QIODevice::WriteOnly));
        state.write("model_checkpoint_path: \"/elsewhere/job/ckpt-7\"\nall_model_checkpoint_paths: \"/elsewhere/job/ckpt-7\"\n");
        state.close();
        const Run r = inspect({ dir.path(), QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value(QLatin1String("path")).toString(), dir.filePath(QStringLiteral("ckpt-7")));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::addRow("no path") << QStringList {} << 2 << QStringLiteral("missing PATH");
        QTest::addRow("bad format") << QStringList { fixture(QStringLiteral("pytorch/test.pt")), QStringLiteral("--format"),
                                                     QStringLiteral("yaml") }
                                    << 2 << QStringLiteral("expected table or json");
        QTest::addRow("unknown option") << QStringList { QStringLiteral("x"), QStringLiteral("--frobnicate") } << 2
                                        << QStringLiteral("unknown option --frobnicate");
        QTest::addRow("missing") << QStringList { QStringLiteral("/nonexistent/ckpt") } << 1
                                 << QStringLiteral("no such file");
        QTest::addRow("not a checkpoint") << QStringList { fixture(QStringLiteral("README.md")) } << 1
                                          << QStringLiteral("not a recognised checkpoint");
        QTest::addRow("no such tensor") << QStringList { fixture(QStringLiteral("pytorch/test.pt")), QStringLiteral("--values"),
                                                         QStringLiteral("nope") }
                                        << 1 << QStringLiteral("no tensor named \"nope\"");
        QTest::addRow("verify non-tf") << QStringList { fixture(QStringLiteral("pytorch/test.pt")), QStringLiteral("--verify") }
                                       << 2 << QStringLiteral("no per-tensor checksums");
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = inspect(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    // Truncated copies of each format through the command: exit 1 with a message, never a crash.
    void truncatedFiles_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("name");
        QTest::addRow("pt") << fixture(QStringLiteral("pytorch/mlp_epoch3.pt")) << QStringLiteral("m.pt");
        QTest::addRow("safetensors") << fixture(QStringLiteral("safetensors/jfk-codes.safetensors"))
                                     << QStringLiteral("c.safetensors");
        QTest::addRow("index") << fixture(QStringLiteral("checkpoints/saved_model_counter/variables.index"))
                               << QStringLiteral("v.index");
    }

    void truncatedFiles()
    {
        QFETCH(QString, source);
        QFETCH(QString, name);
        QFile in(source);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        QTemporaryDir dir;
        for (const double fraction : { 0.0, 0.1, 0.5, 0.9, 0.99 }) {
            QFile out(dir.filePath(name));
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(bytes.left(qsizetype(double(bytes.size()) * fraction)));
            out.close();
            const Run r = inspect({ dir.filePath(name) });
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.startsWith(QLatin1String("error: ")), qPrintable(r.err));
        }
    }

private:
    std::unique_ptr<QTemporaryDir> m_home;
};

QTEST_GUILESS_MAIN(TestInspectCheckpoint)
#include "tst_inspectcheckpoint.moc"
