// SPDX-License-Identifier: GPL-2.0-or-later
// Rfc3339 (models/rfc3339.h): the one parser of RFC 3339 times, against QDateTime's reading of the same instants and
// against what RFC 3339 section 5.6 refuses.
#include "joblistmodel.h"
#include "logentry.h"
#include "rfc3339.h"

#include <QTest>

#include <optional>

using namespace Trainyard;

class TestRfc3339 : public QObject {
    Q_OBJECT
private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("us");
        const qint64 base = QDateTime(QDate(2026, 11, 22), QTime(5, 4, 43), Qt::UTC).toMSecsSinceEpoch() * 1000;
        QTest::addRow("Z") << QStringLiteral("2026-11-22T05:04:43Z") << base;
        QTest::addRow("milliseconds") << QStringLiteral("2026-11-22T05:04:43.123Z") << base + 123000;
        QTest::addRow("microseconds (the log store)") << QStringLiteral("2026-11-22T05:04:43.123456Z") << base + 123456;
        QTest::addRow("nanoseconds (the service)") << QStringLiteral("2026-11-22T05:04:43.123456789Z") << base + 123456;
        QTest::addRow("one digit") << QStringLiteral("2026-11-22T05:04:43.5Z") << base + 500000;
        QTest::addRow("positive offset") << QStringLiteral("2026-11-22T07:04:43+02:00") << base;
        QTest::addRow("negative offset") << QStringLiteral("2026-11-22T00:04:43.25-05:00") << base + 250000;
        QTest::addRow("offset crosses the day") << QStringLiteral("2026-11-21T23:34:43-05:30") << base;
        QTest::addRow("no offset: UTC") << QStringLiteral("2026-11-22T05:04:43") << base;
        QTest::addRow("lower case t and z") << QStringLiteral("2026-11-22t05:04:43z") << base;
        QTest::addRow("space for T") << QStringLiteral("2026-11-22 05:04:43Z") << base;
        QTest::addRow("full-date: midnight UTC") << QStringLiteral(
            "2026-11-22") << QDateTime(QDate(2026, 11, 22), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch() * 1000;
        QTest::addRow("leap day") << QStringLiteral("2024-02-29T12:00:00Z")
                                  << QDateTime(QDate(2024, 2, 29), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch() * 1000;
        QTest::addRow("epoch") << QStringLiteral("1970-01-01T00:00:00Z") << qint64(0);
        QTest::addRow("before the epoch") << QStringLiteral("1969-12-31T23:59:59.5Z") << qint64(-500000);
        QTest::addRow("year 2000 (divisible by 400)") << QStringLiteral(
            "2000-02-29T00:00:00Z") << QDateTime(QDate(2000, 2, 29), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch() * 1000;
    }

    void parses()
    {
        QFETCH(QString, text);
        QFETCH(qint64, us);
        const std::optional<qint64> parsed = Rfc3339::parseUs(text);
        QVERIFY2(parsed, qPrintable(text));
        QCOMPARE(*parsed, us);
        // The QDateTime form and the log codec's agree with it.
        const QDateTime dt = Rfc3339::parse(text);
        QVERIFY(dt.isValid());
        QCOMPARE(dt.timeSpec(), Qt::UTC);
        QCOMPARE(dt.toMSecsSinceEpoch() * 1000, us - (((us % 1000) + 1000) % 1000));
        QCOMPARE(LogJson::parseTimestamp(text), us);
        QCOMPARE(JobListModel::parseTime(text), dt);
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addRow("empty") << QString();
        QTest::addRow("a word") << QStringLiteral("yesterday");
        QTest::addRow("month 13") << QStringLiteral("2026-13-01T00:00:00Z");
        QTest::addRow("February 30") << QStringLiteral("2026-02-30T00:00:00Z");
        QTest::addRow("February 29 of a common year") << QStringLiteral("2026-02-29T00:00:00Z");
        QTest::addRow("February 29 of 1900") << QStringLiteral("1900-02-29T00:00:00Z");
        QTest::addRow("hour 24") << QStringLiteral("2026-11-22T24:00:00Z");
        QTest::addRow("minute 60") << QStringLiteral("2026-11-22T05:60:00Z");
        QTest::addRow("second 61") << QStringLiteral("2026-11-22T05:04:61Z");
        QTest::addRow("no seconds") << QStringLiteral("2026-11-22T05:04Z");
        QTest::addRow("dot without digits") << QStringLiteral("2026-11-22T05:04:43.Z");
        QTest::addRow("offset without colon") << QStringLiteral("2026-11-22T05:04:43+0200");
        QTest::addRow("offset hour 24") << QStringLiteral("2026-11-22T05:04:43+24:00");
        QTest::addRow("trailing text") << QStringLiteral("2026-11-22T05:04:43Z and more");
        QTest::addRow("two-digit year") << QStringLiteral("26-11-22T05:04:43Z");
        QTest::addRow("slashes") << QStringLiteral("2026/11/22T05:04:43Z");
    }

    void refuses()
    {
        QFETCH(QString, text);
        QVERIFY(!Rfc3339::parseUs(text));
        QVERIFY(!Rfc3339::parse(text).isValid());
        QCOMPARE(LogJson::parseTimestamp(text), qint64(0));
    }

    void formatsWhatItParses()
    {
        const QDateTime t(QDate(2026, 11, 22), QTime(5, 4, 43, 123), Qt::UTC);
        QCOMPARE(Rfc3339::format(t), QStringLiteral("2026-11-22T05:04:43.123Z"));
        QCOMPARE(Rfc3339::parse(Rfc3339::format(t)), t);
        QCOMPARE(Rfc3339::format(QDateTime()), QString());
        QVERIFY(Rfc3339::parse(Rfc3339::now()).isValid());
        // What the log store writes reads back to the microsecond.
        char text[LogJson::TimestampChars];
        const qint64 us = 1795237483123456;
        LogJson::formatTimestamp(us, text);
        QCOMPARE(Rfc3339::parseUs(QString::fromLatin1(text, LogJson::TimestampChars)), us);
    }
};

QTEST_GUILESS_MAIN(TestRfc3339)
#include "tst_rfc3339.moc"
