// SPDX-License-Identifier: GPL-2.0-or-later
// The Slurm backend's scripts and shared-folder protocol (app/executor/backends/slurm/slurmscripts.h): the batch
// script, task.sh and a replica's script against golden files (tests/unit/golden/slurm/; TRAINYARD_UPDATE_GOLDEN=1
// rewrites them), a replica's script run by bash here (its files where RunFiles says, its samples as ResourceSample
// reads them), and the resource-sample line format.
#include "slurmscripts.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Slurm;

namespace {

const QString Dir = QStringLiteral("/shared/trainyard/projects/p/jobs/census_1/slurm");
const QString Token = QStringLiteral("@trainyard-host-00000000deadbeef-");

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Compares `actual` with the golden file `name`; TRAINYARD_UPDATE_GOLDEN=1 writes it instead.
bool matchesGolden(const QByteArray& actual, const QString& name)
{
    const QString path = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/unit/golden/slurm/") + name;
    if (qEnvironmentVariableIntValue("TRAINYARD_UPDATE_GOLDEN") == 1) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(actual) == actual.size();
    }
    const QByteArray expected = readFile(path);
    if (expected != actual) {
        qWarning().noquote() << "differs from" << path << "(TRAINYARD_UPDATE_GOLDEN=1 rewrites it):\n" << actual;
        return false;
    }
    return true;
}

Launch::ReplicaLaunch workerLaunch()
{
    Launch::ReplicaLaunch l;
    l.taskName = QStringLiteral("worker-replica-1");
    l.program = QStringLiteral("/usr/bin/python3");
    l.arguments = { QStringLiteral("-m"), QStringLiteral("trainer.task"), QStringLiteral("--name=it's"),
        QStringLiteral("--peer=") + Token + QStringLiteral("0@:20032"), QStringLiteral("--job-dir"),
        QStringLiteral("/jobs/census 1") };
    l.workingDirectory = QStringLiteral("/shared/trainyard/projects/p/jobs/census_1/replicas/worker-replica-1");
    l.set.insert(QStringLiteral("PYTHONPATH"), QStringLiteral("/shared/trainyard/projects/p/jobs/census_1/staging"));
    l.set.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), QStringLiteral("0"));
    l.set.insert(QStringLiteral("TF_CONFIG"),
        QString::fromUtf8("{\"cluster\":{\"master\":[\"") + Token + QString::fromUtf8("0@:20032\"],\"worker\":[\"")
            + Token + QString::fromUtf8("1@:20033\"]},\"task\":{\"type\":\"worker\",\"index\":0}}"));
    l.unset = { QStringLiteral("RANK"), QStringLiteral("CLOUD_ML_TRIAL_ID") };
    return l;
}

} // namespace

class TestSlurmScripts : public QObject {
    Q_OBJECT
private slots:
    void batchScriptOfAHetJob()
    {
        const QList<BatchTask> tasks { { QStringLiteral("master-replica-0"), 0, 0 },
            { QStringLiteral("worker-replica-0"), 1, 0 }, { QStringLiteral("worker-replica-1"), 1, 1 },
            { QStringLiteral("ps-replica-0"), 2, 0 } };
        QVERIFY(matchesGolden(
            batchScript(QStringLiteral("projects/p/jobs/census_1"), RunFiles(Dir), tasks, { 1, 2, 1 }).toUtf8(),
            QStringLiteral("batch-het.sh")));
    }

    void batchScriptOfOneGroup()
    {
        const QList<BatchTask> tasks { { QStringLiteral("master-replica-0"), 0, 0 } };
        QVERIFY(matchesGolden(
            batchScript(QStringLiteral("projects/p/jobs/census_1/trials/3"), RunFiles(Dir), tasks, { 1 }).toUtf8(),
            QStringLiteral("batch-single.sh")));
    }

    void taskLauncher() { QVERIFY(matchesGolden(taskLauncherScript(RunFiles(Dir)), QStringLiteral("task.sh"))); }

    void replicaScriptWithGpusFromSlurm()
    {
        QVERIFY(matchesGolden(
            replicaScript(QStringLiteral("projects/p/jobs/census_1"), RunFiles(Dir), workerLaunch(), true, Token, 2)
                .toUtf8(),
            QStringLiteral("replica-slurm-gpus.sh")));
    }

    void replicaScriptKeepsItsOwnGpus()
    {
        const QString script
            = replicaScript(QStringLiteral("projects/p/jobs/census_1"), RunFiles(Dir), workerLaunch(), false, Token, 2);
        QVERIFY(script.contains(QStringLiteral("export CUDA_VISIBLE_DEVICES='0'\n")));
    }

    void shellWords_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("word");
        QTest::addRow("plain") << QStringLiteral("a b") << QStringLiteral("'a b'");
        QTest::addRow("quote") << QStringLiteral("it's") << QString::fromUtf8("'it'\\''s'");
        QTest::addRow("host") << Token + QStringLiteral("1@:20033")
                              << QString::fromUtf8("\"${TRAINYARD_HOST_1}\"':20033'");
        QTest::addRow("two hosts") << QStringLiteral("[") + Token + QStringLiteral("0@,") + Token
                + QStringLiteral("1@]")
                                   << QString::fromUtf8("'['\"${TRAINYARD_HOST_0}\"','\"${TRAINYARD_HOST_1}\"']'");
        // A task index the run does not have is text, not a host.
        QTest::addRow("index out of range")
            << Token + QStringLiteral("2@") << QStringLiteral("'") + Token + QStringLiteral("2@'");
    }

    void shellWords()
    {
        QFETCH(QString, value);
        QFETCH(QString, word);
        QCOMPARE(shellWord(value, Token, 2), word);
        // bash reads the word back as the value (hosts aside).
        if (!value.contains(Token)) {
            QProcess bash;
            bash.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), QStringLiteral("printf %s ") + word });
            QVERIFY(bash.waitForFinished(10000));
            QCOMPARE(QString::fromUtf8(bash.readAllStandardOutput()), value);
        }
    }

    void resourceSamples()
    {
        const ResourceSample s { 1795317519123456789, 4321, 100, 52428800 };
        QCOMPARE(s.toLine(), QByteArray("1795317519123456789 4321 100 52428800\n"));
        QCOMPARE(ResourceSample::parse(s.toLine()), s);
        QCOMPARE(ResourceSample::parse("1795317519123456789 4321 100 52428800"), s);
        QVERIFY(!ResourceSample::parse(""));
        QVERIFY(!ResourceSample::parse("1 2 3"));
        QVERIFY(!ResourceSample::parse("1 2 3 4 5"));
        QVERIFY(!ResourceSample::parse("1 2 x 4"));
        QVERIFY(!ResourceSample::parse("0 2 100 4")); // no time
        QVERIFY(!ResourceSample::parse("1 2 0 4")); // no clock rate
        QVERIFY(!ResourceSample::parse("1  2 100 4")); // one space between fields
        QCOMPARE(ResourceSample::shellLine(QStringLiteral("$(date +%s%N)"), QStringLiteral("$t"), QStringLiteral("$hz"),
                     QStringLiteral("$((r * pg))")),
            QString::fromUtf8("echo \"$(date +%s%N) $t $hz $((r * pg))\""));
    }

    // The replica's script run by bash on this host, as a node runs it: the files it writes are where RunFiles says,
    // and its samples parse.
    void replicaScriptRunsHere()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const RunFiles files = RunFiles::ofRunFolder(tmp.path());
        for (const QString& sub : RunFiles::replicaWrittenFolders())
            QVERIFY(QDir().mkpath(files.dir() + QLatin1Char('/') + sub));
        Launch::ReplicaLaunch l;
        l.taskName = QStringLiteral("master-replica-0");
        l.program = QStringLiteral("/bin/sh");
        // Runs until the test has seen a sample, then exits 3.
        l.arguments = { QStringLiteral("-c"),
            QStringLiteral("echo out; echo err >&2; while [ ! -e go ]; do sleep 0.1; done; exit 3") };
        l.workingDirectory = tmp.path() + QStringLiteral("/replicas/master-replica-0");
        l.set.insert(QStringLiteral("TRAINYARD_TEST_VALUE"), QStringLiteral("it's"));
        const QString script = replicaScript(QStringLiteral("projects/p/jobs/j"), files, l, false, QString(), 1);
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURMD_NODENAME"), QStringLiteral("node-7"));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("/bin/bash"), { QStringLiteral("-c"), script });
        QVERIFY(bash.waitForStarted());

        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(files.startedFile(l.taskName)), 10000);
        const QList<QByteArray> started = readFile(files.startedFile(l.taskName)).trimmed().split(' ');
        QCOMPARE(started.size(), 2);
        QCOMPARE(started.at(0), QByteArray("node-7"));
        QVERIFY(started.at(1).toLongLong() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!readFile(files.resourcesFile(l.taskName)).isEmpty(), 10000);
        QFile go(l.workingDirectory + QStringLiteral("/go"));
        QVERIFY(go.open(QIODevice::WriteOnly));
        go.close();
        QVERIFY(bash.waitForFinished(20000));
        QCOMPARE(bash.exitCode(), 3);

        QCOMPARE(readFile(files.exitFile(l.taskName)), QByteArray("3\n"));
        QCOMPARE(readFile(files.stdoutFile(l.taskName)), QByteArray("out\n"));
        QCOMPARE(readFile(files.stderrFile(l.taskName)), QByteArray("err\n"));
        const QList<QByteArray> lines = readFile(files.resourcesFile(l.taskName)).split('\n');
        QVERIFY(lines.size() >= 2);
        QVERIFY(lines.last().isEmpty()); // every line ends
        for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
            const std::optional<ResourceSample> s = ResourceSample::parse(lines.at(i));
            QVERIFY2(s, lines.at(i).constData());
            QVERIFY(s->rssBytes > 0);
            QVERIFY(s->ticksPerSecond > 0);
        }
        QVERIFY(!QFile::exists(files.exitFile(l.taskName) + QStringLiteral(".tmp")));
    }
};

QTEST_GUILESS_MAIN(TestSlurmScripts)
#include "tst_slurmscripts.moc"
