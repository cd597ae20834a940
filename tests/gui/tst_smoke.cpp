// SPDX-License-Identifier: GPL-2.0-or-later
// Smoke test: each program starts. The console runs offscreen in isolated XDG folders without starting an
// executor and quits after its first event-loop turn; the CLI and the executor answer --help.

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestSmoke : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void programStarts_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("arguments");
        QTest::addRow("trainyard") << QStringLiteral(TRAINYARD_CONSOLE_BIN)
                                   << QStringList { QStringLiteral("--no-auto-start") };
        QTest::addRow("trainyardctl --help")
            << QStringLiteral(TRAINYARD_CTL_BIN) << QStringList { QStringLiteral("--help") };
        QTest::addRow("trainyard-executor --help")
            << QStringLiteral(TRAINYARD_EXECUTOR_BIN) << QStringList { QStringLiteral("--help") };
    }
    void programStarts()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, arguments);
        QTemporaryDir root;
        QVERIFY(root.isValid());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), root.filePath(QStringLiteral("run")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), root.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), root.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("TRAINYARD_CONSOLE_EXIT_AFTER_START"), QStringLiteral("1"));
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(program, arguments);
        QVERIFY2(process.waitForFinished(30000), qPrintable(program));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        if (arguments.contains(QStringLiteral("--help")))
            QVERIFY(process.readAllStandardOutput().contains("--"));
    }
};

QTEST_GUILESS_MAIN(TestSmoke)
#include "tst_smoke.moc"
