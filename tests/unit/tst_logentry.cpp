// SPDX-License-Identifier: GPL-2.0-or-later
// LogEntry and LogSeverity (models/logentry.h): the one codec of a log entry that the executor's log store,
// its API and the clients share, and Cloud Logging's severities.
#include "logentry.h"

#include <QJsonDocument>
#include <QTest>

using namespace Trainyard;

class TestLogEntry : public QObject {
    Q_OBJECT
private slots:
    void jsonLineIsByteIdentical_data()
    {
        QTest::addColumn<qint64>("timestampUs");
        QTest::addColumn<QString>("severity");
        QTest::addColumn<QString>("taskName");
        QTest::addColumn<QString>("trialId");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QByteArray>("line");
        // The layout the log files hold and LogIndex serves without parsing (storage/logindex.cpp).
        QTest::addRow("service")
            << Q_INT64_C(1795237483123456) << QStringLiteral("INFO") << QStringLiteral("service") << QString()
            << QStringLiteral("Validating job requirements...") << QString()
            << QByteArray(
                   "{\"timestamp\":\"2026-11-21T05:04:43.123456Z\",\"severity\":\"INFO\",\"taskName\":\"service\","
                   "\"trialId\":\"\",\"message\":\"Validating job requirements...\"}");
        QTest::addRow("stderr, trial, escapes")
            << Q_INT64_C(1795237483000001) << QStringLiteral("ERROR") << QStringLiteral("master-replica-0")
            << QStringLiteral("3") << QStringLiteral("a \"quoted\" \\ tab\tbell\x07 é ✓") << QStringLiteral("stderr")
            << QByteArray("{\"timestamp\":\"2026-11-21T05:04:43.000001Z\",\"severity\":\"ERROR\","
                          "\"taskName\":\"master-replica-0\",\"trialId\":\"3\",\"message\":\"a \\\"quoted\\\" \\\\ "
                          "tab\\tbell\\u0007 "
                          "\xC3\xA9 \xE2\x9C\x93"
                          "\",\"stream\":\"stderr\"}");
        QTest::addRow("empty severity is INFO")
            << Q_INT64_C(0) << QString() << QStringLiteral("worker-replica-1") << QString() << QString()
            << QStringLiteral("stdout")
            << QByteArray("{\"timestamp\":\"1970-01-01T00:00:00.000000Z\",\"severity\":\"INFO\","
                          "\"taskName\":\"worker-replica-1\",\"trialId\":\"\",\"message\":\"\",\"stream\":\"stdout\"}");
    }

    void jsonLineIsByteIdentical()
    {
        QFETCH(qint64, timestampUs);
        QFETCH(QString, severity);
        QFETCH(QString, taskName);
        QFETCH(QString, trialId);
        QFETCH(QString, message);
        QFETCH(QString, stream);
        QFETCH(QByteArray, line);
        const LogEntry entry { timestampUs, severity, taskName, trialId, message, stream };
        QCOMPARE(entry.toJsonLine(), line);
        // What any JSON reader sees is the same entry.
        QVERIFY(QJsonDocument::fromJson(line).isObject());
    }

    void roundTrip_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addRow("plain") << QByteArray(
            "{\"timestamp\":\"2026-11-21T05:04:43.123456Z\",\"severity\":\"WARNING\","
            "\"taskName\":\"master-replica-0\",\"trialId\":\"\",\"message\":\"loss is nan\"}");
        QTest::addRow("stream and unicode") << QByteArray(
            "{\"timestamp\":\"2026-11-21T05:04:43.999999Z\",\"severity\":\"DEBUG\",\"taskName\":\"ps-replica-0\","
            "\"trialId\":\"12\",\"message\":\"\\u0001 \\\"x\\\" \\u00e9\",\"stream\":\"stdout\"}");
    }

    void roundTrip()
    {
        QFETCH(QByteArray, line);
        const std::optional<LogEntry> entry = LogEntry::fromJsonLine(line);
        QVERIFY(entry);
        const LogEntry again = LogEntry::fromJsonLine(entry->toJsonLine()).value();
        QCOMPARE(again, *entry);
        QCOMPARE(LogEntry::fromJson(QJsonDocument::fromJson(line).object()), *entry);
    }

    void decodesAnyKeyOrderAndOffsets()
    {
        const auto entry = LogEntry::fromJsonLine("{\"message\":\"m\",\"severity\":\"error\",\"timestamp\":\"2026-11-"
                                                  "21T07:04:43.5+02:00\",\"taskName\":\"t\"}");
        QVERIFY(entry);
        QCOMPARE(entry->timestampUs, Q_INT64_C(1795237483500000));
        QCOMPARE(entry->severity, QStringLiteral("error"));
        QCOMPARE(entry->severityLevel(), LogSeverity::Error);
        QCOMPARE(entry->message, QStringLiteral("m"));
        QVERIFY(entry->stream.isEmpty());
        // Re-encoded in the store's layout, the severity as it was given.
        QCOMPARE(entry->toJsonLine(),
            QByteArray("{\"timestamp\":\"2026-11-21T05:04:43.500000Z\",\"severity\":\"error\",\"taskName\":\"t\","
                       "\"trialId\":\"\",\"message\":\"m\"}"));
    }

    void rejectsWhatIsNotAnEntry_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addRow("empty") << QByteArray();
        QTest::addRow("torn") << QByteArray("{\"timestamp\":\"2026-11-21T05:04:43.123456Z\",\"sev");
        QTest::addRow("array") << QByteArray("[1,2]");
        QTest::addRow("empty object") << QByteArray("{}");
    }

    void rejectsWhatIsNotAnEntry()
    {
        QFETCH(QByteArray, line);
        QVERIFY(!LogEntry::fromJsonLine(line));
    }

    void invalidUtf8BecomesReplacementCharacter()
    {
        std::string out;
        const char bytes[] = "a\xFF"
                             "b\xC0\xAF"
                             "c";
        LogJson::appendEscaped(out, bytes, sizeof bytes - 1);
        QCOMPARE(QByteArray::fromStdString(out),
            QByteArray("a\xEF\xBF\xBD"
                       "b\xEF\xBF\xBD\xEF\xBF\xBD"
                       "c"));
    }

    void timestamps_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("us");
        QTest::addRow("canonical") << QStringLiteral("2026-11-21T05:04:43.123456Z") << Q_INT64_C(1795237483123456);
        QTest::addRow("no fraction") << QStringLiteral("2026-11-21T05:04:43Z") << Q_INT64_C(1795237483000000);
        QTest::addRow("millis") << QStringLiteral("2026-11-21T05:04:43.123Z") << Q_INT64_C(1795237483123000);
        QTest::addRow("nanos cut") << QStringLiteral("2026-11-21T05:04:43.123456789Z") << Q_INT64_C(1795237483123456);
        QTest::addRow("offset") << QStringLiteral("2026-11-21T00:04:43-05:00") << Q_INT64_C(1795237483000000);
        QTest::addRow("garbage") << QStringLiteral("yesterday") << Q_INT64_C(0);
        QTest::addRow("empty") << QString() << Q_INT64_C(0);
    }

    void timestamps()
    {
        QFETCH(QString, text);
        QFETCH(qint64, us);
        QCOMPARE(LogJson::parseTimestamp(text), us);
    }

    void severities_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("severity");
        QTest::addColumn<int>("rank");
        QTest::addRow("DEFAULT") << QStringLiteral("DEFAULT") << int(LogSeverity::Default) << 0;
        QTest::addRow("DEBUG") << QStringLiteral("DEBUG") << int(LogSeverity::Debug) << 100;
        QTest::addRow("INFO") << QStringLiteral("INFO") << int(LogSeverity::Info) << 200;
        QTest::addRow("NOTICE") << QStringLiteral("NOTICE") << int(LogSeverity::Notice) << 300;
        QTest::addRow("WARNING") << QStringLiteral("WARNING") << int(LogSeverity::Warning) << 400;
        QTest::addRow("ERROR") << QStringLiteral("ERROR") << int(LogSeverity::Error) << 500;
        QTest::addRow("CRITICAL") << QStringLiteral("CRITICAL") << int(LogSeverity::Critical) << 600;
        QTest::addRow("ALERT") << QStringLiteral("ALERT") << int(LogSeverity::Alert) << 700;
        QTest::addRow("EMERGENCY") << QStringLiteral("EMERGENCY") << int(LogSeverity::Emergency) << 800;
    }

    void severities()
    {
        QFETCH(QString, name);
        QFETCH(int, severity);
        QFETCH(int, rank);
        const LogSeverity s = LogSeverity(severity);
        QCOMPARE(logSeverityName(s), name);
        QCOMPARE(logSeverityString(s), name);
        QCOMPARE(logSeverityRank(s), rank);
        QCOMPARE(parseLogSeverity(name), s);
        QCOMPARE(parseLogSeverity(name.toLower()), s);
        QCOMPARE(parseLogSeverity(QByteArrayView(name.toLatin1())), s);
        QCOMPARE(parseLogSeverity(QByteArrayView(name.toLower().toLatin1())), s);
        QCOMPARE(logSeverityFromName(name), s);
        QCOMPARE(logSeverityNames().at(severity), name);
    }

    void unknownSeverity_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addRow("empty") << QString();
        QTest::addRow("WARN") << QStringLiteral("WARN");
        QTest::addRow("FATAL") << QStringLiteral("FATAL");
        QTest::addRow("prefix") << QStringLiteral("ERR");
        QTest::addRow("longer") << QStringLiteral("ERRORS");
        QTest::addRow("number") << QStringLiteral("500");
    }

    void unknownSeverity()
    {
        QFETCH(QString, name);
        QVERIFY(!parseLogSeverity(name));
        QVERIFY(!parseLogSeverity(QByteArrayView(name.toLatin1())));
        QCOMPARE(logSeverityFromName(name), LogSeverity::Default);
        LogEntry entry;
        entry.severity = name;
        QCOMPARE(entry.severityLevel(), LogSeverity::Default);
    }

    void severityNamesInOrder()
    {
        QCOMPARE(logSeverityNames(),
            QStringList({ QStringLiteral("DEFAULT"), QStringLiteral("DEBUG"), QStringLiteral("INFO"),
                QStringLiteral("NOTICE"), QStringLiteral("WARNING"), QStringLiteral("ERROR"),
                QStringLiteral("CRITICAL"), QStringLiteral("ALERT"), QStringLiteral("EMERGENCY") }));
    }
};

QTEST_GUILESS_MAIN(TestLogEntry)
#include "tst_logentry.moc"
