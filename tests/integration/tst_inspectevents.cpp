// SPDX-License-Identifier: GPL-2.0-or-later
#include "inspectevents.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace Trainyard;

namespace {

const QString fixtures = QStringLiteral(TRAINYARD_FIXTURES_DIR);

struct Output {
    int code;
    QString out;
    QString err;
};

Output inspect(const QStringList& args)
{
    QString out;
    QString err;
    QTextStream outStream(&out);
    QTextStream errStream(&err);
    const int code = runInspectEvents(args, outStream, errStream);
    outStream.flush();
    errStream.flush();
    return { code, out, err };
}

// The golden CSV's rows (`tag,step,wall_time,value`, written by Python's csv module with \r\n).
QStringList goldenRows(const QString& name)
{
    QFile file(fixtures + QStringLiteral("/tfevents-golden/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList rows = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    for (QString& row : rows)
        row = row.trimmed();
    rows.removeAll(QString());
    rows.removeFirst();
    return rows;
}

QStringList prefixed(const QString& run, const QStringList& rows)
{
    QStringList result;
    for (const QString& row : rows)
        result.append(run + QLatin1Char(',') + row);
    return result;
}

const char* const torchFile = "/tfevents/torch_run/events.out.tfevents.1795317519.vm.24511.0";
const char* const tbFile = "/tfevents/tb_v2_run/events.out.tfevents.1795317519.vm.24511.1";
const char* const torchGolden = "torch_run__tfevents.1795317519.vm.24511.0.csv";
const char* const tbGolden = "tb_v2_run__tfevents.1795317519.vm.24511.1.csv";

} // namespace

class TestInspectEvents : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void singleFileMatchesGolden_data();
    void singleFileMatchesGolden();
    void directoryTree();
    void json();
    void damagedFile();
    void usageErrors_data();
    void usageErrors();
};

void TestInspectEvents::singleFileMatchesGolden_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("golden");
    QTest::addRow("torch_run") << fixtures + QLatin1String(torchFile) << QString::fromLatin1(torchGolden);
    QTest::addRow("tb_v2_run") << fixtures + QLatin1String(tbFile) << QString::fromLatin1(tbGolden);
}

void TestInspectEvents::singleFileMatchesGolden()
{
    QFETCH(QString, file);
    QFETCH(QString, golden);
    const Output o = inspect({ file });
    QCOMPARE(o.code, 0);
    QCOMPARE(o.err, QString());
    QStringList lines = o.out.split(QLatin1Char('\n'));
    QCOMPARE(lines.takeLast(), QString()); // ends with a newline
    QCOMPARE(lines.takeFirst(), QStringLiteral("run,tag,step,wall_time,value"));
    const QStringList expected = prefixed(QStringLiteral("."), goldenRows(golden));
    QVERIFY(expected.size() > 500);
    QCOMPARE(lines.size(), expected.size());
    // Byte for byte: same digits as TensorBoard's loader printed with Python's repr.
    for (qsizetype i = 0; i < lines.size(); ++i)
        QCOMPARE(lines.at(i), expected.at(i));
}

void TestInspectEvents::directoryTree()
{
    QTemporaryDir dir;
    const QDir root(dir.path());
    QVERIFY(root.mkpath(QStringLiteral("logs/torch_run")));
    QVERIFY(root.mkpath(QStringLiteral("logs/nested/tb_v2_run")));
    QVERIFY(QFile::copy(fixtures + QLatin1String(torchFile),
        root.filePath(QStringLiteral("logs/torch_run/events.out.tfevents.1795317519.vm.24511.0"))));
    QVERIFY(QFile::copy(fixtures + QLatin1String(tbFile),
        root.filePath(QStringLiteral("logs/nested/tb_v2_run/events.out.tfevents.1795317519.vm.24511.1"))));
    QVERIFY(QFile::copy(fixtures + QLatin1String(tbFile), root.filePath(QStringLiteral("logs/events.out.tfevents.1"))));
    const Output o
        = inspect({ root.filePath(QStringLiteral("logs")), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(o.code, 0);
    QCOMPARE(o.err, QString());
    QStringList lines = o.out.split(QLatin1Char('\n'));
    lines.removeLast();
    lines.removeFirst();
    const QStringList expected = prefixed(QStringLiteral("."), goldenRows(QString::fromLatin1(tbGolden)))
        + prefixed(QStringLiteral("nested/tb_v2_run"), goldenRows(QString::fromLatin1(tbGolden)))
        + prefixed(QStringLiteral("torch_run"), goldenRows(QString::fromLatin1(torchGolden)));
    QCOMPARE(lines.size(), expected.size());
    QCOMPARE(lines, expected);
}

void TestInspectEvents::json()
{
    const Output o = inspect({ fixtures + QLatin1String(tbFile), QStringLiteral("--format=json") });
    QCOMPARE(o.code, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(o.out.toUtf8(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray rows = doc.array();
    const QStringList golden = goldenRows(QString::fromLatin1(tbGolden));
    QCOMPARE(rows.size(), golden.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject row = rows.at(i).toObject();
        const QStringList fields = golden.at(i).split(QLatin1Char(','));
        QCOMPARE(row.value(QLatin1String("run")).toString(), QStringLiteral("."));
        QCOMPARE(row.value(QLatin1String("tag")).toString(), fields.at(0));
        QCOMPARE(row.value(QLatin1String("step")).toInteger(), fields.at(1).toLongLong());
        QCOMPARE(row.value(QLatin1String("wall_time")).toDouble(), fields.at(2).toDouble());
        QCOMPARE(row.value(QLatin1String("value")).toDouble(), fields.at(3).toDouble());
    }
    // One object per line, so the output also streams through line-oriented tools.
    QCOMPARE(o.out.count(QLatin1Char('\n')), rows.size() + 2);
}

void TestInspectEvents::damagedFile()
{
    QFile source(fixtures + QLatin1String(torchFile));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray bytes = source.readAll();
    // Record 1 starts after the file_version record; flip a byte of its payload.
    const qint64 firstLength = qFromLittleEndian<quint64>(bytes.constData());
    const qint64 second = 16 + firstLength;
    bytes[second + 14] = char(bytes.at(second + 14) ^ 1);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.out.tfevents.damaged"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    const Output o = inspect({ path });
    QCOMPARE(o.code, 1);
    QVERIFY2(o.err.contains(QStringLiteral("offset %1").arg(second)), qPrintable(o.err));
    QVERIFY(o.err.contains(path));
    QStringList lines = o.out.split(QLatin1Char('\n'));
    lines.removeLast();
    lines.removeFirst();
    const QStringList expected = prefixed(QStringLiteral("."), goldenRows(QString::fromLatin1(torchGolden)));
    QCOMPARE(lines.size(), expected.size() - 1);
    QCOMPARE(lines, expected.mid(1));
}

void TestInspectEvents::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("mentions");
    QTest::addRow("no path") << QStringList() << 2 << QStringLiteral("PATH is required");
    QTest::addRow("bad format") << QStringList(
        { QStringLiteral("x"), QStringLiteral("--format"), QStringLiteral("xml") })
                                << 2 << QStringLiteral("csv or json");
    QTest::addRow("format without value")
        << QStringList({ QStringLiteral("x"), QStringLiteral("--format") }) << 2 << QStringLiteral("needs a value");
    QTest::addRow("unknown option") << QStringList({ QStringLiteral("x"), QStringLiteral("--verbose") }) << 2
                                    << QStringLiteral("--verbose");
    QTest::addRow("missing path") << QStringList({ QStringLiteral("/nonexistent/logs") }) << 1
                                  << QStringLiteral("/nonexistent/logs: no such file");
    QTest::addRow("no event files") << QStringList({ fixtures + QStringLiteral("/hypertune") }) << 1
                                    << QStringLiteral("no event files");
}

void TestInspectEvents::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, mentions);
    const Output o = inspect(args);
    QCOMPARE(o.code, code);
    QVERIFY2(o.err.contains(mentions), qPrintable(o.err));
    QCOMPARE(o.out, QString());
}

QTEST_GUILESS_MAIN(TestInspectEvents)
#include "tst_inspectevents.moc"
