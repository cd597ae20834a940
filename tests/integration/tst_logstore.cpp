// SPDX-License-Identifier: GPL-2.0-or-later
// LogStore: JSONL files per replica, severity detection, partial lines, escaping, merged reads,
// paging, live subscribers. Real files in a temporary data dir.
#include "logstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestLogStore : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_job = 0;
    JobKey nextJob() { return JobKey { QStringLiteral("local"), QStringLiteral("job_%1").arg(++m_job) }; }
    QString logFile(const JobKey& job, const QString& task) const
    {
        return job.folder(m_dir.path()) + QStringLiteral("/logs/") + task + QStringLiteral(".jsonl");
    }
    static QList<QByteArray> fileLines(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QList<QByteArray> lines = f.readAll().split('\n');
        if (!lines.isEmpty() && lines.last().isEmpty())
            lines.removeLast();
        return lines;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void severity_data()
    {
        // Issue 11, item 8: a logging prefix's severity, with the prefix taken out of the message (the
        // severity column shows it); Python tracebacks and argparse's "prog: error:" on stderr are ERROR;
        // other stderr lines are INFO (not ERROR as the service logs them); the stream is kept.
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("isStderr");
        QTest::addColumn<QString>("severity");
        QTest::addColumn<QString>("message");
        QTest::addRow("logging default INFO")
            << QByteArray("INFO:root:starting") << true << QStringLiteral("INFO") << QStringLiteral("starting");
        QTest::addRow("logging default WARNING") << QByteArray("WARNING:tensorflow:slow step") << true
                                                 << QStringLiteral("WARNING") << QStringLiteral("tensorflow:slow step");
        QTest::addRow("logging default ERROR") << QByteArray("ERROR:trainer.task:nan loss") << true
                                               << QStringLiteral("ERROR") << QStringLiteral("trainer.task:nan loss");
        QTest::addRow("logging default CRITICAL") << QByteArray("CRITICAL:root:disk full") << false
                                                  << QStringLiteral("CRITICAL") << QStringLiteral("disk full");
        QTest::addRow("logging default DEBUG") << QByteArray("DEBUG:urllib3:connect") << true << QStringLiteral("DEBUG")
                                               << QStringLiteral("urllib3:connect");
        QTest::addRow("asctime levelname")
            << QByteArray("2026-11-22 05:04:43,123 WARNING low memory") << false << QStringLiteral("WARNING")
            << QStringLiteral("2026-11-22 05:04:43,123 WARNING low memory");
        QTest::addRow("asctime dashes") << QByteArray("2026-11-22 05:04:43,123 - trainer - ERROR - boom") << true
                                        << QStringLiteral("ERROR")
                                        << QStringLiteral("2026-11-22 05:04:43,123 - trainer - ERROR - boom");
        QTest::addRow("bracketed") << QByteArray("[WARNING] deprecated flag") << false << QStringLiteral("WARNING")
                                   << QStringLiteral("deprecated flag");
        QTest::addRow("glog info") << QByteArray("I1122 05:04:43.123456 1234 main.cc:12] hello") << true
                                   << QStringLiteral("INFO")
                                   << QStringLiteral("I1122 05:04:43.123456 1234 main.cc:12] hello");
        QTest::addRow("glog warning") << QByteArray("W1122 05:04:43.123456 1234 main.cc:12] hm") << true
                                      << QStringLiteral("WARNING")
                                      << QStringLiteral("W1122 05:04:43.123456 1234 main.cc:12] hm");
        QTest::addRow("glog error") << QByteArray("E1122 05:04:43.123456 1234 main.cc:12] bad") << true
                                    << QStringLiteral("ERROR")
                                    << QStringLiteral("E1122 05:04:43.123456 1234 main.cc:12] bad");
        QTest::addRow("absl fatal") << QByteArray("F1122 05:04:43.123456 140 app.py:7] dead") << true
                                    << QStringLiteral("CRITICAL")
                                    << QStringLiteral("F1122 05:04:43.123456 140 app.py:7] dead");
        QTest::addRow("plain stdout") << QByteArray("epoch 1 loss 0.3") << false << QStringLiteral("INFO")
                                      << QStringLiteral("epoch 1 loss 0.3");
        QTest::addRow("plain stderr is INFO")
            << QByteArray("Downloading: 45% |####      |") << true << QStringLiteral("INFO")
            << QStringLiteral("Downloading: 45% |####      |");
        QTest::addRow("traceback on stderr")
            << QByteArray("Traceback (most recent call last):") << true << QStringLiteral("ERROR")
            << QStringLiteral("Traceback (most recent call last):");
        QTest::addRow("argparse error") << QByteArray(
            "python -m trainer.task: error: unrecognized arguments: --epochs 2")
                                        << true << QStringLiteral("ERROR")
                                        << QStringLiteral(
                                               "python -m trainer.task: error: unrecognized arguments: --epochs 2");
        QTest::addRow("argparse usage") << QByteArray("usage: python -m trainer.task [-h] --job-dir JOB_DIR") << true
                                        << QStringLiteral("INFO")
                                        << QStringLiteral("usage: python -m trainer.task [-h] --job-dir JOB_DIR");
        QTest::addRow("error: on stdout") << QByteArray("prog: error: printed") << false << QStringLiteral("INFO")
                                          << QStringLiteral("prog: error: printed");
        QTest::addRow("word not a prefix") << QByteArray("INFORMATION overload") << false << QStringLiteral("INFO")
                                           << QStringLiteral("INFORMATION overload");
        QTest::addRow("level later in line") << QByteArray("step 3 ERROR: none") << false << QStringLiteral("INFO")
                                             << QStringLiteral("step 3 ERROR: none");
        QTest::addRow("Epoch not glog") << QByteArray("E1 loss") << true << QStringLiteral("INFO")
                                        << QStringLiteral("E1 loss");
    }
    void severity()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, isStderr);
        QFETCH(QString, severity);
        QFETCH(QString, message);
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), line + '\n', isStderr);
        const QList<LogEntry> entries = store.read(job, QString(), QString());
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries[0].severity, severity);
        QCOMPARE(entries[0].message, message);
        QCOMPARE(entries[0].taskName, QStringLiteral("master-replica-0"));
        QCOMPARE(entries[0].stream, isStderr ? QStringLiteral("stderr") : QStringLiteral("stdout"));
        QVERIFY(entries[0].toJsonLine().contains(isStderr ? "\"stream\":\"stderr\"" : "\"stream\":\"stdout\""));
    }

    void traceback()
    {
        // A whole traceback is ERROR, up to and with its exception line, and so are a chained one and the
        // lines between them; what follows is not.
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        const QByteArray stderrText = "INFO:root:epoch 1\n"
                                      "Traceback (most recent call last):\n"
                                      "  File \"/x/task.py\", line 3, in <module>\n"
                                      "    main()\n"
                                      "ValueError: bad shape\n"
                                      "\n"
                                      "During handling of the above exception, another exception occurred:\n"
                                      "\n"
                                      "Traceback (most recent call last):\n"
                                      "  File \"/x/task.py\", line 9, in <module>\n"
                                      "RuntimeError: giving up\n"
                                      "INFO:root:cleaning up\n";
        store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), stderrText, true);
        store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), "stdout line\n", false);
        QStringList severities;
        for (const LogEntry& e : store.read(job, QString(), QString()))
            severities << e.severity + QLatin1Char(' ') + e.stream;
        QCOMPARE(severities,
            (QStringList { QStringLiteral("INFO stderr"), QStringLiteral("ERROR stderr"),
                QStringLiteral("ERROR stderr"), QStringLiteral("ERROR stderr"),
                QStringLiteral("ERROR stderr"), // the first traceback
                QStringLiteral("ERROR stderr"), QStringLiteral("ERROR stderr"), QStringLiteral("ERROR stderr"), // chain
                QStringLiteral("ERROR stderr"), QStringLiteral("ERROR stderr"),
                QStringLiteral("ERROR stderr"), // second
                QStringLiteral("INFO stderr"), QStringLiteral("INFO stdout") }));
        // The executor's own lines carry no stream.
        LogEntry service;
        service.taskName = QStringLiteral("service");
        service.message = QStringLiteral("Job started.");
        QVERIFY(!service.toJsonLine().contains("stream"));
    }

    void partialLines()
    {
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        const QString task = QStringLiteral("worker-replica-0");
        store.appendOutput(job, task, QString(), "first li", false);
        store.appendOutput(job, task, QString(), "err A", true);
        store.appendOutput(job, task, QString(), "ne\nsecond\nthi", false);
        store.appendOutput(job, task, QString(), "rd\r\n", false);
        store.appendOutput(job, task, QString(), "\n", false);
        store.appendOutput(job, task, QString(), "tail without newline", false);
        QList<LogEntry> entries = store.read(job, task, QString());
        QStringList messages;
        for (const LogEntry& e : std::as_const(entries))
            messages << e.message;
        QCOMPARE(messages,
            (QStringList {
                QStringLiteral("first line"), QStringLiteral("second"), QStringLiteral("third"), QString() }));
        store.finishOutput(job, task);
        entries = store.read(job, task, QString());
        messages.clear();
        for (const LogEntry& e : std::as_const(entries))
            messages << e.message;
        QCOMPARE(messages.size(), 6);
        QVERIFY(messages.contains(QStringLiteral("err A")));
        QVERIFY(messages.contains(QStringLiteral("tail without newline")));
    }

    void escaping_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<QString>("message");
        QTest::addRow("quotes and backslashes")
            << QByteArray("say \"hi\" C:\\path") << QStringLiteral("say \"hi\" C:\\path");
        QTest::addRow("tab and control") << QByteArray("a\tb\x01"
                                                       "c\x1b[0m")
                                         << QStringLiteral("a\tb\x01"
                                                           "c\x1b[0m");
        QTest::addRow("utf-8") << QByteArray("accuracy ≥ 0.8 ✓ 日本") << QStringLiteral("accuracy ≥ 0.8 ✓ 日本");
        QTest::addRow("emoji") << QByteArray("done \xF0\x9F\x8E\x89") << QString::fromUtf8("done \xF0\x9F\x8E\x89");
        QTest::addRow("invalid byte") << QByteArray("bad \xFF byte") << QString::fromUtf8("bad \xEF\xBF\xBD byte");
        QTest::addRow("truncated sequence")
            << QByteArray("cut \xE2\x82") << QString::fromUtf8("cut \xEF\xBF\xBD\xEF\xBF\xBD");
        QTest::addRow("surrogate encoded")
            << QByteArray("s \xED\xA0\x80!") << QString::fromUtf8("s \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD!");
        QTest::addRow("overlong") << QByteArray("o \xC0\xAF") << QString::fromUtf8("o \xEF\xBF\xBD\xEF\xBF\xBD");
    }
    void escaping()
    {
        QFETCH(QByteArray, raw);
        QFETCH(QString, message);
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        store.appendOutput(job, QStringLiteral("master-replica-0"), QStringLiteral("7"), raw + '\n', false);
        store.flush();
        const QList<QByteArray> lines = fileLines(logFile(job, QStringLiteral("master-replica-0")));
        QCOMPARE(lines.size(), 1);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(lines[0], &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(o.value(QLatin1String("message")).toString(), message);
        QCOMPARE(o.value(QLatin1String("trialId")).toString(), QStringLiteral("7"));
        QCOMPARE(o.value(QLatin1String("stream")).toString(), QStringLiteral("stdout"));
        QCOMPARE(o.keys().size(), 6); // timestamp, severity, taskName, trialId, message, stream
        // The encoder used for API answers writes the same line.
        const QList<LogEntry> entries = store.read(job, QString(), QString());
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries[0].toJsonLine(), lines[0]);
    }

    void timestampFormat()
    {
        LogEntry e;
        e.timestampUs = 1795323883123456LL; // 2026-11-22T05:04:43.123456Z
        e.severity = QStringLiteral("NOTICE");
        e.taskName = QStringLiteral("service");
        e.message = QStringLiteral("Job is queued.");
        const QJsonObject o = QJsonDocument::fromJson(e.toJsonLine()).object();
        QCOMPARE(o.value(QLatin1String("timestamp")).toString(), QStringLiteral("2026-11-22T05:04:43.123456Z"));
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        store.append(job, e);
        const QList<LogEntry> back = store.read(job, QString(), QString());
        QCOMPARE(back.size(), 1);
        QCOMPARE(back[0].timestampUs, e.timestampUs);
        QCOMPARE(back[0].severity, e.severity);
        QCOMPARE(back[0].message, e.message);
    }

    void mergeFilterPage()
    {
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        auto at = [&](qint64 us, const QString& task, const QString& sev, const QString& msg) {
            store.append(job, LogEntry { us, sev, task, QString(), msg, {} });
        };
        at(1000, QStringLiteral("service"), QStringLiteral("INFO"), QStringLiteral("s1"));
        at(3000, QStringLiteral("service"), QStringLiteral("INFO"), QStringLiteral("s3"));
        at(2000, QStringLiteral("master-replica-0"), QStringLiteral("ERROR"), QStringLiteral("m2"));
        at(4000, QStringLiteral("master-replica-0"), QStringLiteral("WARNING"), QStringLiteral("m4"));
        at(2500, QStringLiteral("worker-replica-0"), QStringLiteral("DEBUG"), QStringLiteral("w25"));
        auto messages = [](const QList<LogEntry>& list) {
            QStringList m;
            for (const LogEntry& e : list)
                m << e.message;
            return m;
        };
        QCOMPARE(messages(store.read(job, QString(), QString())),
            (QStringList { QStringLiteral("s1"), QStringLiteral("m2"), QStringLiteral("w25"), QStringLiteral("s3"),
                QStringLiteral("m4") }));
        QCOMPARE(messages(store.read(job, QStringLiteral("master-replica-0"), QString())),
            (QStringList { QStringLiteral("m2"), QStringLiteral("m4") }));
        QCOMPARE(messages(store.read(job, QString(), QStringLiteral("WARNING"))),
            (QStringList { QStringLiteral("m2"), QStringLiteral("m4") }));
        QCOMPARE(messages(store.read(job, QString(), QString(), 1, 2)),
            (QStringList { QStringLiteral("m2"), QStringLiteral("w25") }));
        QCOMPARE(messages(store.read(job, QString(), QString(), 4, 10)), QStringList { QStringLiteral("m4") });
        QVERIFY(store.read(job, QStringLiteral("nobody"), QString()).isEmpty());
        QVERIFY(store.read(JobKey { job.project, QStringLiteral("no_such_job") }, QString(), QString()).isEmpty());
        QVERIFY(store.read(JobKey { job.project, QStringLiteral("../etc") }, QString(), QString()).isEmpty());
        QVERIFY(store.read(JobKey { QStringLiteral(".."), job.jobId }, QString(), QString()).isEmpty());
        // The same job ID in another project is another job, with its own log.
        QVERIFY(store.read(JobKey { QStringLiteral("other-project"), job.jobId }, QString(), QString()).isEmpty());
    }

    void sameJobIdInTwoProjects()
    {
        LogStore store(m_dir.path());
        const JobKey a = nextJob();
        const JobKey b { QStringLiteral("team-b"), a.jobId };
        auto messages = [](const QList<LogEntry>& list) {
            QStringList m;
            for (const LogEntry& e : list)
                m << e.message;
            return m;
        };
        store.appendOutput(a, QStringLiteral("master-replica-0"), QString(), "from a\n", false);
        store.appendOutput(b, QStringLiteral("master-replica-0"), QString(), "from b\n", false);
        store.flush();
        QCOMPARE(messages(store.read(a, QString(), QString())), QStringList { QStringLiteral("from a") });
        QCOMPARE(messages(store.read(b, QString(), QString())), QStringList { QStringLiteral("from b") });
        QVERIFY(QFileInfo::exists(logFile(b, QStringLiteral("master-replica-0"))));
        QVERIFY(logFile(b, QStringLiteral("master-replica-0")).contains(QStringLiteral("/projects/team-b/jobs/")));
    }

    void containsFilter()
    {
        // `contains` (…/logs?contains=): case-sensitive text of the message, before paging; text that JSON
        // escapes (quotes, backslashes, non-ASCII) is found too.
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        const QString master = QStringLiteral("master-replica-0");
        auto at = [&](qint64 us, const QString& task, const QString& msg) {
            store.append(job, LogEntry { us, QStringLiteral("INFO"), task, QString(), msg, {} });
        };
        at(1000, master, QStringLiteral("Resuming from checkpoint /j/ckpt-epoch-2.pt (epoch 2)"));
        at(2000, master, QStringLiteral("Epoch 3: loss 0.5"));
        at(3000, QStringLiteral("worker-replica-0"),
            QStringLiteral("Resuming from checkpoint /j/ckpt-epoch-2.pt (epoch 2)"));
        at(4000, master, QStringLiteral("resuming FROM checkpoint in lower case"));
        at(5000, master, QStringLiteral("Resuming from checkpoint \"/j/ä b\\c.pt\" (epoch 5)"));
        auto messages = [](const QList<LogEntry>& list) {
            QStringList m;
            for (const LogEntry& e : list)
                m << e.message;
            return m;
        };
        const QString text = QStringLiteral(" from checkpoint ");
        QCOMPARE(store.read(job, QString(), QString(), 0, 1000, text).size(), 3);
        QCOMPARE(messages(store.read(job, master, QString(), 0, 1000, text)),
            (QStringList { QStringLiteral("Resuming from checkpoint /j/ckpt-epoch-2.pt (epoch 2)"),
                QStringLiteral("Resuming from checkpoint \"/j/ä b\\c.pt\" (epoch 5)") }));
        QCOMPARE(store.read(job, master, QString(), 1, 1000, text).size(), 1); // pages count matches only
        QCOMPARE(store.read(job, QString(), QString(), 0, 1000, QStringLiteral("ä b\\c.pt\"")).size(), 1);
        QCOMPARE(store.read(job, QString(), QString(), 0, 1000, QStringLiteral("\"/j/")).size(), 1);
        QVERIFY(store.read(job, QString(), QString(), 0, 1000, QStringLiteral("nothing like this")).isEmpty());
    }

    void flushedByTimer()
    {
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        store.appendOutput(job, QStringLiteral("ps-replica-0"), QString(), "hello\n", false);
        // Without an explicit flush the timer writes it (the contract: within 100 ms).
        QTRY_COMPARE(fileLines(logFile(job, QStringLiteral("ps-replica-0"))).size(), 1);
    }

    void subscribers()
    {
        LogStore store(m_dir.path());
        const JobKey job = nextJob();
        const JobKey other = nextJob();
        QList<LogEntry> got;
        int batches = 0;
        const int id = store.subscribe(job, [&](const QList<LogEntry>& batch) {
            got += batch;
            ++batches;
        });
        QByteArray bulk;
        for (int i = 0; i < 1000; ++i)
            bulk += "INFO:root:line " + QByteArray::number(i) + '\n';
        store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), bulk, false);
        store.appendOutput(other, QStringLiteral("master-replica-0"), QString(), "not mine\n", false);
        store.append(job,
            LogEntry { 0, QStringLiteral("INFO"), QStringLiteral("service"), QString(), QStringLiteral("svc"), {} });
        QTRY_COMPARE(got.size(), 1001);
        QVERIFY(batches < 10); // batched, not one call per line
        for (int i = 0; i < 1000; ++i) {
            QCOMPARE(got[i].message, QStringLiteral("line %1").arg(i)); // the prefix is the severity now
            QCOMPARE(got[i].stream, QStringLiteral("stdout"));
        }
        QCOMPARE(got[1000].message, QStringLiteral("svc"));
        QVERIFY(got[1000].timestampUs > 0);
        store.unsubscribe(id);
        store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), "after\n", false);
        store.flush();
        QCOMPARE(got.size(), 1001);
    }

    void closeAndReopen()
    {
        const JobKey job = nextJob();
        {
            LogStore store(m_dir.path());
            store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), "one\n", false);
            store.closeJob(job);
            store.appendOutput(job, QStringLiteral("master-replica-0"), QString(), "two\n", false);
        } // the destructor writes what is buffered
        LogStore again(m_dir.path());
        again.appendOutput(job, QStringLiteral("master-replica-0"), QString(), "three\n", false);
        const QList<LogEntry> entries = again.read(job, QString(), QString());
        QCOMPARE(entries.size(), 3);
        QCOMPARE(entries[2].message, QStringLiteral("three"));
    }
};

QTEST_GUILESS_MAIN(TestLogStore)
#include "tst_logstore.moc"
