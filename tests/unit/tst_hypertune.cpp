// SPDX-License-Identifier: GPL-2.0-or-later
#include "hypertunereader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard::Formats;

namespace {
const QString fixture = QStringLiteral(TRAINYARD_FIXTURES_DIR "/hypertune/output.metrics");

QList<QByteArray> fixtureLines()
{
    QFile file(fixture);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = file.readAll().split('\n');
    while (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast();
    return lines;
}

// Rewrites the whole file, as cloudml-hypertune does on every report.
bool writeLines(const QString& path, const QList<QByteArray>& lines, const QByteArray& tail = {})
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    for (const QByteArray& line : lines)
        file.write(line + '\n');
    file.write(tail);
    return true;
}
} // namespace

class TestHypertune : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixtureFile();
    void rewrittenFileIsDeduplicated();
    void partialLastLineIsReadLater();
    void badLines_data();
    void badLines();
    void numbersAsJsonNumbers();
    void missingFileIsNotAnError();
};

void TestHypertune::fixtureFile()
{
    const QList<QByteArray> lines = fixtureLines();
    QCOMPARE(lines.size(), 100);
    HypertuneReader reader(fixture);
    const QList<HypertuneReport> reports = reader.readNew();
    QVERIFY2(reader.takeIssues().isEmpty(), "the fixture must read cleanly");
    QCOMPARE(reports.size(), 100);
    // The first line of the fixture, checked by hand.
    QCOMPARE(reports.first().tag, QStringLiteral("accuracy"));
    QCOMPARE(reports.first().value, 0.7134952031398099);
    QCOMPARE(reports.first().step, qint64(5000));
    QCOMPARE(reports.first().timestamp, 1795317580.1977103);
    QCOMPARE(reports.first().trial, QStringLiteral("3"));
    QCOMPARE(reports.first().checkpointPath, QString());
    for (qsizetype i = 1; i < reports.size(); ++i) {
        QCOMPARE(reports.at(i).tag, QStringLiteral("accuracy"));
        QCOMPARE(reports.at(i).step, reports.at(i - 1).step + 100);
        QVERIFY(reports.at(i).timestamp > reports.at(i - 1).timestamp);
        const QString valueText = QString::fromUtf8(lines.at(i).split('"').at(3));
        QCOMPARE(reports.at(i).value, valueText.toDouble());
    }
    QVERIFY(reader.readNew().isEmpty());
}

void TestHypertune::rewrittenFileIsDeduplicated()
{
    const QList<QByteArray> lines = fixtureLines();
    QCOMPARE(lines.size(), 100);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("output.metrics"));
    QVERIFY(writeLines(path, lines.mid(0, 60)));
    HypertuneReader reader(path);
    QCOMPARE(reader.readNew().size(), 60);
    // The library keeps its newest reports: the next rewrite drops the oldest and adds new ones.
    QVERIFY(writeLines(path, lines.mid(10, 90)));
    const QList<HypertuneReport> fresh = reader.readNew();
    QCOMPARE(fresh.size(), 40);
    QCOMPARE(fresh.first().step, qint64(5000 + 60 * 100));
    QCOMPARE(fresh.last().step, qint64(5000 + 99 * 100));
    // Same step, new timestamp (a trainer that reports twice per step) is a new report.
    QByteArray again = lines.last();
    again.replace("1795317580.", "1795317590.");
    QVERIFY(writeLines(path, lines.mid(10, 90) << again));
    QCOMPARE(reader.readNew().size(), 1);
    QVERIFY(reader.takeIssues().isEmpty());
}

void TestHypertune::partialLastLineIsReadLater()
{
    const QList<QByteArray> lines = fixtureLines();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("output.metrics"));
    QVERIFY(writeLines(path, lines.mid(0, 3), lines.at(3).left(40)));
    HypertuneReader reader(path);
    QCOMPARE(reader.readNew().size(), 3);
    QVERIFY(reader.takeIssues().isEmpty());
    QVERIFY(writeLines(path, lines.mid(0, 4)));
    const QList<HypertuneReport> fresh = reader.readNew();
    QCOMPARE(fresh.size(), 1);
    QCOMPARE(fresh.first().step, qint64(5300));
}

void TestHypertune::badLines_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("mentions");
    QTest::addRow("not json") << QByteArray("{\"accuracy\": ") << QStringLiteral("not JSON");
    QTest::addRow("array") << QByteArray("[1, 2]") << QStringLiteral("not a JSON object");
    QTest::addRow("no timestamp") << QByteArray(R"({"accuracy": "0.5", "global_step": "1", "trial": "1"})")
                                  << QStringLiteral("timestamp");
    QTest::addRow("bad value") << QByteArray(R"({"accuracy": "high", "global_step": "1", "timestamp": 1.5})")
                               << QStringLiteral("metric \"accuracy\"");
    QTest::addRow("bad step") << QByteArray(R"({"accuracy": "0.5", "global_step": "x", "timestamp": 1.5})")
                              << QStringLiteral("global_step");
    QTest::addRow("two metrics") << QByteArray(R"({"a": "0.5", "b": "0.6", "global_step": "1", "timestamp": 1.5})")
                                 << QStringLiteral("a, b");
    QTest::addRow("no metric") << QByteArray(R"({"global_step": "1", "timestamp": 1.5})") << QStringLiteral("none");
}

void TestHypertune::badLines()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, mentions);
    const QList<QByteArray> lines = fixtureLines();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("output.metrics"));
    QVERIFY(writeLines(path, { lines.at(0), line, lines.at(1) }));
    HypertuneReader reader(path);
    QCOMPARE(reader.readNew().size(), 2);
    const QStringList issues = reader.takeIssues();
    QCOMPARE(issues.size(), 1);
    QVERIFY2(issues.first().contains(path + QStringLiteral(":2: ")), qPrintable(issues.first()));
    QVERIFY2(issues.first().contains(mentions), qPrintable(issues.first()));
}

void TestHypertune::numbersAsJsonNumbers()
{
    HypertuneReport report;
    QString error;
    QVERIFY(HypertuneReader::parseLine(
        QByteArray(R"({"loss": 0.25, "global_step": 7, "timestamp": 12.5, "trial": 2})"), &report, &error));
    QCOMPARE(report.tag, QStringLiteral("loss"));
    QCOMPARE(report.value, 0.25);
    QCOMPARE(report.step, qint64(7));
    QCOMPARE(report.timestamp, 12.5);
    QCOMPARE(report.trial, QStringLiteral("2"));
}

void TestHypertune::missingFileIsNotAnError()
{
    QTemporaryDir dir;
    HypertuneReader reader(dir.filePath(QStringLiteral("output.metrics")));
    QVERIFY(reader.readNew().isEmpty());
    QVERIFY(reader.takeIssues().isEmpty());
}

QTEST_GUILESS_MAIN(TestHypertune)
#include "tst_hypertune.moc"
