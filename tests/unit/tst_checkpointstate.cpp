// SPDX-License-Identifier: GPL-2.0-or-later
// The text-format `checkpoint` file: TensorFlow's own (../shared/fixtures/checkpoints) and
// variants written at test time.
#include "checkpointstate.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard::Formats;

class TestCheckpointState : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fixture()
    {
        QString error;
        const auto state = CheckpointState::readFile(
            QStringLiteral(TRAINYARD_FIXTURES_DIR "/checkpoints/checkpoint_state_example.txt"), &error);
        QVERIFY2(state, qPrintable(error));
        QCOMPARE(state->modelCheckpointPath, QStringLiteral("/tmp/bad_half_plus_two/00000123/export"));
        QCOMPARE(
            state->allModelCheckpointPaths, QStringList { QStringLiteral("/tmp/bad_half_plus_two/00000123/export") });
        QVERIFY(state->allModelCheckpointTimestamps.isEmpty());
        QCOMPARE(state->lastPreservedTimestamp, 0.0);
    }

    void parse_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("paths");
        QTest::addColumn<QList<double>>("timestamps");
        QTest::addColumn<double>("preserved");
        QTest::addColumn<QString>("message");
        // What tf.train.CheckpointManager writes (checkpoint_management.py).
        QTest::addRow("manager") << QByteArray("model_checkpoint_path: \"ckpt-3\"\n"
                                               "all_model_checkpoint_paths: \"ckpt-1\"\n"
                                               "all_model_checkpoint_paths: \"ckpt-2\"\n"
                                               "all_model_checkpoint_paths: \"ckpt-3\"\n"
                                               "all_model_checkpoint_timestamps: 1700000000.5\n"
                                               "all_model_checkpoint_timestamps: 1700000060.25\n"
                                               "all_model_checkpoint_timestamps: 1700000120\n"
                                               "last_preserved_timestamp: 1699999999.125\n")
                                 << QStringLiteral("ckpt-3") << 3
                                 << QList<double> { 1700000000.5, 1700000060.25, 1700000120 } << 1699999999.125
                                 << QString();
        QTest::addRow("empty") << QByteArray() << QString() << 0 << QList<double> {} << 0.0 << QString();
        QTest::addRow("unknown field") << QByteArray("model_checkpoint_path: \"a\"\nsteps: 3\n") << QString() << 0
                                       << QList<double> {} << 0.0 << QStringLiteral("line 2");
        QTest::addRow("unterminated") << QByteArray("model_checkpoint_path: \"a\n") << QString() << 0
                                      << QList<double> {} << 0.0 << QStringLiteral("line 1");
        QTest::addRow("wrong type") << QByteArray("all_model_checkpoint_timestamps: \"x\"\n") << QString() << 0
                                    << QList<double> {} << 0.0 << QStringLiteral("not a text-format CheckpointState");
    }

    void parse()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, path);
        QFETCH(int, paths);
        QFETCH(QList<double>, timestamps);
        QFETCH(double, preserved);
        QFETCH(QString, message);
        QString error;
        const auto state = CheckpointState::parse(text, &error);
        if (!message.isEmpty()) {
            QVERIFY(!state);
            QVERIFY2(error.contains(message), qPrintable(error));
            return;
        }
        QVERIFY2(state, qPrintable(error));
        QCOMPARE(state->modelCheckpointPath, path);
        QCOMPARE(state->allModelCheckpointPaths.size(), paths);
        QCOMPARE(state->allModelCheckpointTimestamps, timestamps);
        QCOMPARE(state->lastPreservedTimestamp, preserved);
    }

    void folderAndResolve()
    {
        QTemporaryDir tmp;
        QFile f(QDir(tmp.path()).filePath(QStringLiteral("checkpoint")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("model_checkpoint_path: \"model.ckpt-100\"\n");
        f.close();
        QString error;
        const auto state = CheckpointState::readFile(tmp.path(), &error);
        QVERIFY2(state, qPrintable(error));
        QCOMPARE(CheckpointState::resolve(state->modelCheckpointPath, tmp.path()),
            QDir(tmp.path()).filePath(QStringLiteral("model.ckpt-100")));
        QCOMPARE(CheckpointState::resolve(QStringLiteral("/abs/ckpt"), tmp.path()), QStringLiteral("/abs/ckpt"));
        QVERIFY(!CheckpointState::readFile(QDir(tmp.path()).filePath(QStringLiteral("missing")), &error));
        QVERIFY2(error.contains(QLatin1String("cannot open")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestCheckpointState)
#include "tst_checkpointstate.moc"
