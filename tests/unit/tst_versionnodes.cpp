// SPDX-License-Identifier: GPL-2.0-or-later
// VersionNodes (app/executor/serving/versionnodes.h) alone, over scripted nodes (tests/support/fakenodelauncher.h):
// start and the first load, a load that fails, requests spread over the nodes, scaling up under load and down when
// idle, scale to zero and the cold start after it, a node dying with requests in flight (answered UNAVAILABLE, then
// restarted after a doubling back-off), deadlines and the restart after missed ones, the shutdown, and the host's
// accounting (tests/support/fakenodecapacity.h: a node holds its machine type while its process lives; a scale-up for
// load only when it fits; the first nodes, cold starts and restarts whatever the host holds). Until issue 43
// only end-to-end tests that deploy real scikit-learn, XGBoost and PyTorch models covered them.
#include "fakenodecapacity.h"
#include "fakenodelauncher.h"
#include "versionnodes.h"

#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Test;

namespace {

/// What one request's answer callback received (each runs once).
struct Answers {
    QList<QJsonObject> received;
    VersionNodes::Answer collect()
    {
        return [this](const QJsonObject& answer) { received << answer; };
    }
};

QJsonArray oneInstance(double x)
{
    return QJsonArray { QJsonArray { x, 2.0 } };
}

} // namespace

class TestVersionNodes : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    VersionNodes::Spec spec(int minNodes, int maxNodes) const
    {
        VersionNodes::Spec s;
        s.interpreter = QStringLiteral("/usr/bin/python3");
        s.pythonPath << QStringLiteral("/usr/share/trainyard/algorithms");
        s.modelDir = m_dir.filePath(QStringLiteral("model"));
        s.framework = QStringLiteral("SCIKIT_LEARN");
        s.minNodes = minNodes;
        s.maxNodes = maxNodes;
        s.idleStopMs = 200;
        s.restartBackoffMs = 50;
        s.logFile = m_dir.filePath(QStringLiteral("version.log"));
        return s;
    }

    QString log() const
    {
        QFile file(m_dir.filePath(QStringLiteral("version.log")));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QFile::remove(m_dir.filePath(QStringLiteral("version.log")));
    }

    void startsMinNodesAndIsReadyWhenAllLoaded()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(2, 2), &launcher);
        QSignalSpy ready(&nodes, &VersionNodes::ready);
        nodes.start();
        QCOMPARE(launcher.nodes.size(), 2);
        // The command is the server's, with the model's copy and the limits the executor holds.
        const NodeCommand& command = launcher.nodes[0]->command;
        QCOMPARE(command.program, QStringLiteral("/usr/bin/python3"));
        QVERIFY(command.arguments.contains(QStringLiteral("trainyard_algorithms.prediction_server")));
        QCOMPARE(command.arguments.at(command.arguments.indexOf(QStringLiteral("--model-dir")) + 1), spec(2, 2).modelDir);
        QCOMPARE(command.arguments.at(command.arguments.indexOf(QStringLiteral("--framework")) + 1),
            QStringLiteral("SCIKIT_LEARN"));
        QVERIFY(command.readable.contains(spec(2, 2).modelDir));
        QCOMPARE(command.workingDirectory, spec(2, 2).modelDir);

        launcher.nodes[0]->sayReady();
        QCOMPARE(ready.count(), 0); // one of two
        QCOMPARE(nodes.readyNodes(), 1);
        launcher.nodes[1]->sayReady(QStringLiteral("xgboost Booster from model.bst"));
        QCOMPARE(ready.count(), 1);
        QCOMPARE(nodes.readyNodes(), 2);
        QCOMPARE(nodes.pids(), (QList<qint64> { 1000, 1001 }));
        QVERIFY(!nodes.kind().isEmpty());
    }

    void theVersionLogSplitsEachStart()
    {
        // What a cold start cost, in the version's log (issue 48): the time before the node's main() (process,
        // sandbox and interpreter) from the executor's clock and the node's, then its imports and the model's load.
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(2, 2), &launcher);
        nodes.start();
        // The node's main() begins now, after its launch (msecsSinceReference() is when `clock` started).
        QElapsedTimer clock;
        clock.start();
        launcher.nodes[0]->sayReadyAt(double(clock.msecsSinceReference() + clock.elapsed()) / 1000.0, 0.2, 0.05);
        const QRegularExpression split(QStringLiteral(
            "node 0: ready in ([0-9.]+) s: timed \\(process and interpreter start ([0-9.]+) s, imports 0\\.200 s, "
            "model load 0\\.050 s\\)"));
        const QRegularExpressionMatch m = split.match(log());
        QVERIFY2(m.hasMatch(), qPrintable(log()));
        QVERIFY(m.captured(2).toDouble() >= 0);
        QVERIFY(m.captured(2).toDouble() <= m.captured(1).toDouble());
        // A main() that claims to have begun before its launch (another clock) gets no split, not a wrong one.
        launcher.nodes[1]->sayReadyAt(0.0, 0.2, 0.05);
        QTRY_VERIFY(log().contains(QStringLiteral("node 1: ready in")));
        QVERIFY2(!log().section(QStringLiteral("node 1: ready in"), 1).contains(QStringLiteral("imports")),
            qPrintable(log()));
    }

    void requestsBeforeReadyWaitAndAreSpreadOverNodes()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(2, 2), &launcher);
        nodes.start();
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        QCOMPARE(launcher.nodes[0]->requests.size(), 0); // no node is up: it waits
        launcher.nodes[0]->sayReady();
        QCOMPARE(launcher.nodes[0]->requests.size(), 1);
        QCOMPARE(launcher.nodes[0]->requests[0].value(QStringLiteral("instances")).toArray(), oneInstance(1));
        QVERIFY(!launcher.nodes[0]->requests[0].contains(QStringLiteral("signature_name")));
        launcher.nodes[1]->sayReady();
        // The next one goes to the node with fewer requests in flight.
        nodes.predict(oneInstance(2), QStringLiteral("serving_default"), answers.collect());
        QCOMPARE(launcher.nodes[1]->requests.size(), 1);
        QCOMPARE(launcher.nodes[1]->requests[0].value(QStringLiteral("signature_name")).toString(),
            QStringLiteral("serving_default"));

        launcher.nodes[1]->answer(0, QJsonArray { 7 });
        launcher.nodes[0]->answer(0, QJsonArray { 3 });
        QCOMPARE(answers.received.size(), 2);
        QCOMPARE(answers.received[0], (QJsonObject { { QStringLiteral("predictions"), QJsonArray { 7 } } }));
        QCOMPARE(answers.received[1], (QJsonObject { { QStringLiteral("predictions"), QJsonArray { 3 } } }));
        QCOMPARE(nodes.scaleUps(), 0);
    }

    void aLoadThatFailsFailsTheVersion()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(2, 2), &launcher);
        QSignalSpy failed(&nodes, &VersionNodes::failed);
        QSignalSpy ready(&nodes, &VersionNodes::ready);
        nodes.start();
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        launcher.nodes[0]->sayCannotLoad(QStringLiteral("No module named 'sklearn'"));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("No module named 'sklearn'"));
        QCOMPARE(ready.count(), 0);
        // The other node is stopped, the waiting request told why, and later ones are answered the same.
        QVERIFY(launcher.nodes[1]->killed);
        QCOMPARE(answers.received.size(), 1);
        QCOMPARE(answers.received[0].value(QStringLiteral("unavailable")).toString(),
            QStringLiteral("No module named 'sklearn'"));
        nodes.predict(oneInstance(2), QString(), answers.collect());
        QTRY_COMPARE(answers.received.size(), 2);
        QVERIFY(answers.received[1].contains(QStringLiteral("unavailable")));
        QCOMPARE(launcher.nodes.size(), 2); // nothing is started again
        QVERIFY(log().contains(QStringLiteral("could not load the model: No module named 'sklearn'")));
    }

    void aNodeThatDiesBeforeSayingAnythingReportsItsLastErrorLine()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(1, 1), &launcher);
        QSignalSpy failed(&nodes, &VersionNodes::failed);
        nodes.start();
        launcher.nodes[0]->printError(QStringLiteral("Traceback (most recent call last):"));
        launcher.nodes[0]->printError(QStringLiteral("MemoryError"));
        launcher.nodes[0]->exit(QStringLiteral("exited with status 1"));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("MemoryError"));
        QVERIFY(log().contains(QStringLiteral("node 0: Traceback (most recent call last):")));
    }

    void scalesUpWhenEveryNodeHasRequestsWaiting()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(1, 3), &launcher);
        nodes.start();
        QCOMPARE(launcher.nodes.size(), 1);
        launcher.nodes[0]->sayReady();
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        nodes.predict(oneInstance(2), QString(), answers.collect());
        QCOMPARE(launcher.nodes.size(), 1); // one answering, one waiting behind it: not yet
        nodes.predict(oneInstance(3), QString(), answers.collect());
        QCOMPARE(launcher.nodes.size(), 2);
        QCOMPARE(nodes.scaleUps(), 1);
        QCOMPARE(nodes.runningNodes(), 2);
        // No third node while the second is still loading.
        nodes.predict(oneInstance(4), QString(), answers.collect());
        QCOMPARE(launcher.nodes.size(), 2);
        QCOMPARE(launcher.nodes[0]->requests.size(), 4);
        launcher.nodes[1]->sayReady();
        nodes.predict(oneInstance(5), QString(), answers.collect());
        QCOMPARE(launcher.nodes[1]->requests.size(), 1);
        QVERIFY(log().contains(QStringLiteral("node 1: scaling up: every node has requests waiting")));
    }

    void scalesDownIdleNodesToMinNodes()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(1, 2), &launcher);
        nodes.start();
        launcher.nodes[0]->sayReady();
        Answers answers;
        for (int i = 0; i < 3; ++i)
            nodes.predict(oneInstance(i), QString(), answers.collect());
        QCOMPARE(launcher.nodes.size(), 2);
        launcher.nodes[1]->sayReady();
        for (int i = 0; i < 3; ++i)
            launcher.nodes[0]->answer(i, QJsonArray { i });
        QCOMPARE(answers.received.size(), 3);
        // Idle for idleStopMs (200 ms): one node is stopped, never the last of minNodes.
        QTRY_COMPARE_WITH_TIMEOUT(nodes.scaleDowns(), 1, 10000);
        QTRY_COMPARE(nodes.runningNodes(), 1);
        QTRY_COMPARE(launcher.running(), 1);
        QCOMPARE(int(launcher.nodes[0]->stopAsked) + int(launcher.nodes[1]->stopAsked), 1);
        QVERIFY(log().contains(QStringLiteral("scaling down: idle for")));
        // A stop is not a crash.
        QCOMPARE(nodes.restarts(), 0);
        QVERIFY(log().contains(QStringLiteral("stopped (exited with status 0)")));
        // The one left still answers.
        nodes.predict(oneInstance(9), QString(), answers.collect());
        FakeNode* left = launcher.nodes[0]->running ? launcher.nodes[0].data() : launcher.nodes[1].data();
        left->answer(left->requests.size() - 1, QJsonArray { 9 });
        QCOMPARE(answers.received.size(), 4);
    }

    void scalesToZeroAndColdStartsOnTheNextRequest()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(0, 1), &launcher);
        QSignalSpy ready(&nodes, &VersionNodes::ready);
        nodes.start();
        QCOMPARE(launcher.nodes.size(), 1); // a version is READY only once its model loaded
        launcher.nodes[0]->sayReady();
        QCOMPARE(ready.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(nodes.runningNodes(), 0, 10000);
        QTRY_VERIFY(!launcher.nodes[0]->running);
        QCOMPARE(nodes.scaleDowns(), 1);

        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        QCOMPARE(launcher.nodes.size(), 2); // the cold start
        QCOMPARE(nodes.scaleUps(), 1);
        QVERIFY(answers.received.isEmpty());
        QVERIFY(log().contains(QStringLiteral("scaling up: a request arrived while no node ran (cold start)")));
        launcher.nodes[1]->sayReady();
        QCOMPARE(launcher.nodes[1]->requests.size(), 1);
        launcher.nodes[1]->answer(0, QJsonArray { 1 });
        QCOMPARE(answers.received.size(), 1);
        QCOMPARE(ready.count(), 1); // ready() is once
    }

    void aNodeDyingWithRequestsInFlightIsRestartedWithABackoff()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(1, 1), &launcher);
        QSignalSpy restarted(&nodes, &VersionNodes::restarted);
        nodes.start();
        launcher.nodes[0]->sayReady();
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        nodes.predict(oneInstance(2), QString(), answers.collect());
        launcher.nodes[0]->answer(0, QJsonArray { 1 });
        launcher.nodes[0]->exit(QStringLiteral("was killed by a signal"));
        // The request it held is answered UNAVAILABLE at once, saying why; the answered one is not answered twice.
        QCOMPARE(answers.received.size(), 2);
        QVERIFY(answers.received[1].value(QStringLiteral("unavailable")).toString().contains(QStringLiteral("was killed by a signal")));
        QCOMPARE(restarted.count(), 1);
        QCOMPARE(restarted.at(0).at(0).toInt(), 0);
        QCOMPARE(nodes.restarts(), 1);
        // A request while it restarts waits for it (recovery), and is answered by the new node.
        nodes.predict(oneInstance(3), QString(), answers.collect());
        QTRY_COMPARE(launcher.nodes.size(), 2);
        launcher.nodes[1]->sayReady();
        QCOMPARE(launcher.nodes[1]->requests.size(), 1);
        QCOMPARE(launcher.nodes[1]->requests[0].value(QStringLiteral("instances")).toArray(), oneInstance(3));
        launcher.nodes[1]->answer(0, QJsonArray { 3 });
        QCOMPARE(answers.received.size(), 3);
        QCOMPARE(answers.received[2].value(QStringLiteral("predictions")).toArray(), QJsonArray { 3 });
        // It dies again soon after: the back-off doubled (50 ms, then 100 ms).
        launcher.nodes[1]->exit(QStringLiteral("exited with status 137"));
        QTRY_COMPARE(launcher.nodes.size(), 3);
        QCOMPARE(nodes.restarts(), 2);
        QVERIFY(log().contains(QStringLiteral("was killed by a signal while serving; restarting it in 0.05 s")));
        QVERIFY(log().contains(QStringLiteral("exited with status 137 while serving; restarting it in 0.1 s")));
    }

    void missedDeadlinesAreAnsweredAndRestartTheNode()
    {
        FakeNodeLauncher launcher;
        VersionNodes::Spec s = spec(1, 1);
        s.timeoutMs = 100;
        VersionNodes nodes(s, &launcher);
        nodes.start();
        launcher.nodes[0]->sayReady();
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        QTRY_COMPARE(answers.received.size(), 1);
        QVERIFY(answers.received[0].value(QStringLiteral("deadline")).toString().contains(QStringLiteral("0.1 s")));
        // Its late answer is read and dropped (never a second answer), and the next request gets its own.
        launcher.nodes[0]->answer(0, QJsonArray { 1 });
        nodes.predict(oneInstance(2), QString(), answers.collect());
        launcher.nodes[0]->answer(1, QJsonArray { 2 });
        QCOMPARE(answers.received.size(), 2);
        QCOMPARE(answers.received[1].value(QStringLiteral("predictions")).toArray(), QJsonArray { 2 });
        QVERIFY(!launcher.nodes[0]->killed);
        // A node that misses PredictionLimits::MissedDeadlinesBeforeRestart in a row hangs: killed and started again.
        for (int i = 0; i < PredictionLimits::MissedDeadlinesBeforeRestart; ++i)
            nodes.predict(oneInstance(10 + i), QString(), answers.collect());
        QTRY_COMPARE(answers.received.size(), 2 + PredictionLimits::MissedDeadlinesBeforeRestart);
        QTRY_VERIFY(launcher.nodes[0]->killed);
        QTRY_COMPARE(launcher.nodes.size(), 2);
        QVERIFY(log().contains(QStringLiteral("missed 3 deadlines in a row")));
    }

    void aRequestWithNoNodeUpMissesItsDeadlineWithTheReason()
    {
        FakeNodeLauncher launcher;
        VersionNodes::Spec s = spec(1, 1);
        s.timeoutMs = 100;
        VersionNodes nodes(s, &launcher);
        nodes.start();
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect()); // the node is still loading
        QTRY_COMPARE(answers.received.size(), 1);
        QVERIFY(answers.received[0].value(QStringLiteral("deadline")).toString().contains(QStringLiteral("no node was up")));
        launcher.nodes[0]->sayReady();
        QCOMPARE(launcher.nodes[0]->requests.size(), 0); // it was not sent after its deadline
    }

    void anUnaskedAnswerIsLoggedAndIgnored()
    {
        FakeNodeLauncher launcher;
        VersionNodes nodes(spec(1, 1), &launcher);
        nodes.start();
        launcher.nodes[0]->sayReady();
        launcher.nodes[0]->say(QJsonObject { { QStringLiteral("id"), 99 }, { QStringLiteral("predictions"), QJsonArray {} } });
        QVERIFY(log().contains(QStringLiteral("answered nothing that was asked")));
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        launcher.nodes[0]->answer(0, QJsonArray { 1 });
        QCOMPARE(answers.received.size(), 1);
    }

    void eachNodeHoldsItsMachineTypeWhileItRuns()
    {
        FakeNodeLauncher launcher;
        FakeNodeCapacity host(8);
        VersionNodes::Spec s = spec(1, 2);
        s.machineType = *predictionMachineType(QStringLiteral("mls1-c4-m2"));
        s.name = QStringLiteral("projects/p/models/m/versions/v1");
        {
            VersionNodes nodes(s, &launcher, &host);
            nodes.start();
            QCOMPARE(host.held.size(), 1);
            QCOMPARE(host.inUse(), 4); // mls1-c4-m2: 4 vCPUs
            QVERIFY(host.reserved.at(0).startsWith(s.name));
            launcher.nodes[0]->sayReady();
            Answers answers;
            for (int i = 0; i < 3; ++i)
                nodes.predict(oneInstance(i), QString(), answers.collect());
            QCOMPARE(launcher.nodes.size(), 2); // 8 vCPUs hold two
            QCOMPARE(host.inUse(), 8);
            launcher.nodes[1]->sayReady();
            for (int i = 0; i < 3; ++i)
                launcher.nodes[0]->answer(i, QJsonArray { i });
            // Scaled down when idle: its reservation goes when its process is gone, not before.
            QTRY_COMPARE_WITH_TIMEOUT(nodes.scaleDowns(), 1, 10000);
            QTRY_COMPARE(launcher.running(), 1);
            QCOMPARE(host.inUse(), 4);
            QCOMPARE(host.released.size(), 1);
            // A node that dies gives its reservation back and takes it again when it is restarted.
            FakeNode* left = launcher.nodes[0]->running ? launcher.nodes[0].data() : launcher.nodes[1].data();
            left->exit(QStringLiteral("was killed by a signal"));
            QCOMPARE(host.inUse(), 0);
            QTRY_COMPARE(launcher.nodes.size(), 3);
            QCOMPARE(host.inUse(), 4);
        }
        // Destroyed with the version: nothing is held.
        QCOMPARE(host.inUse(), 0);
        QCOMPARE(host.reserved.size(), host.released.size());
    }

    void aNodeForLoadStartsOnlyWhenItFits()
    {
        FakeNodeLauncher launcher;
        FakeNodeCapacity host(1); // a job holds the rest of the host
        Answers answers; // outlives the nodes, which answer what they hold when destroyed
        VersionNodes nodes(spec(1, 3), &launcher, &host);
        nodes.start();
        launcher.nodes[0]->sayReady();
        for (int i = 0; i < 5; ++i)
            nodes.predict(oneInstance(i), QString(), answers.collect());
        // Every node has requests waiting, but a second node does not fit: they wait on the one that runs.
        QCOMPARE(launcher.nodes.size(), 1);
        QCOMPARE(launcher.nodes[0]->requests.size(), 5);
        QCOMPARE(nodes.scaleUps(), 0);
        QVERIFY(nodes.scaleUpsRefused() >= 2);
        const QString text = log();
        QCOMPARE(text.count(QStringLiteral("not started for load")), 1); // said once, not per request
        QVERIFY(text.contains(QStringLiteral("a mls1-c1-m2 node does not fit beside what runs on this host (1 of 1 "
                                             "vCPUs reserved); requests wait for the running nodes")));
        for (int i = 0; i < 5; ++i)
            launcher.nodes[0]->answer(i, QJsonArray { i });
        QCOMPARE(answers.received.size(), 5);
        // The job ends: the next burst gets its node.
        host.vcpus = 2;
        for (int i = 0; i < 3; ++i)
            nodes.predict(oneInstance(i), QString(), answers.collect());
        QCOMPARE(launcher.nodes.size(), 2);
        QCOMPARE(nodes.scaleUps(), 1);
        QCOMPARE(host.inUse(), 2);
    }

    void firstNodesColdStartsAndRestartsStartWhateverTheHostHolds()
    {
        FakeNodeLauncher launcher;
        FakeNodeCapacity host(0); // fully reserved by jobs
        VersionNodes nodes(spec(0, 2), &launcher, &host);
        QSignalSpy ready(&nodes, &VersionNodes::ready);
        nodes.start();
        // A version must load its model to be READY: its first node starts, and the log says it oversubscribes.
        QCOMPARE(launcher.nodes.size(), 1);
        QVERIFY(log().contains(QStringLiteral("node 0: starts although it does not fit beside what runs on this host "
                                              "(0 of 0 vCPUs reserved)")));
        launcher.nodes[0]->sayReady();
        QCOMPARE(ready.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(nodes.runningNodes(), 0, 10000); // scaled to zero
        QTRY_COMPARE(host.inUse(), 0);
        // A request while none runs: the cold start is never refused.
        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        QCOMPARE(launcher.nodes.size(), 2);
        QCOMPARE(host.inUse(), 1);
        launcher.nodes[1]->sayReady();
        launcher.nodes[1]->answer(0, QJsonArray { 1 });
        QCOMPARE(answers.received.size(), 1);
        QCOMPARE(host.refusals, 0);
    }

    /// Issue 48's cold start: a version that scales to zero keeps a warm spare of its runtime wanted (started in the
    /// nodes' sandbox with the bundled package alone, no model folder, reserving a node on the host as a node for
    /// load does); its next cold start takes the spare, which is sent the model folder's files and loads them; another
    /// spare starts; a routine never takes one; the last version gone lets the spare go and its reservation with it.
    void aColdStartTakesAWarmSpare()
    {
        FakeNodeLauncher launcher;
        FakeNodeCapacity host(4);
        SpareNodes spares(&launcher, &host);
        QSignalSpy spareReady(&spares, &SpareNodes::spareReady);
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("model/assets"))));
        QFile model(m_dir.filePath(QStringLiteral("model/model.joblib")));
        QVERIFY(model.open(QIODevice::WriteOnly) && model.write("pickled\nbytes") == 13);
        model.close();
        QFile vocabulary(m_dir.filePath(QStringLiteral("model/assets/vocabulary.txt")));
        QVERIFY(vocabulary.open(QIODevice::WriteOnly) && vocabulary.write("a b") == 3);
        vocabulary.close();
        {
            VersionNodes nodes(spec(0, 1), &launcher, &host);
            nodes.setSpares(&spares);
            nodes.start();
            QCOMPARE(launcher.nodes.size(), 2); // the version's first node, and the spare
            FakeNode* spare = launcher.nodes[0]->command.arguments.contains(QStringLiteral("--spare"))
                ? launcher.nodes[0].data()
                : launcher.nodes[1].data();
            FakeNode* first = spare == launcher.nodes[0].data() ? launcher.nodes[1].data() : launcher.nodes[0].data();
            QVERIFY(spare->command.arguments.contains(QStringLiteral("SCIKIT_LEARN")));
            QVERIFY(!spare->command.arguments.contains(QStringLiteral("--model-dir")));
            QCOMPARE(spare->command.readable, QStringList { QStringLiteral("/usr/share/trainyard/algorithms") });
            QCOMPARE(host.inUse(), 2); // the version's node and the spare, one vCPU each
            first->sayReady();
            spare->saySpare();
            QCOMPARE(spareReady.count(), 1);
            QCOMPARE(spares.ready(), 1);
            QTRY_COMPARE_WITH_TIMEOUT(nodes.runningNodes(), 0, 10000);

            Answers answers;
            nodes.predict(oneInstance(1), QString(), answers.collect());
            QCOMPARE(nodes.spareStarts(), 1);
            QCOMPARE(spares.taken(), 1);
            QCOMPARE(launcher.nodes.size(), 3); // no node process: the spare took it; the third is the next spare
            QVERIFY(launcher.nodes[2]->command.arguments.contains(QStringLiteral("--spare")));
            // The adopt line names each file and its size, then the files' bytes follow in that order.
            const qsizetype newline = spare->written.indexOf('\n');
            const QJsonObject adopt
                = QJsonDocument::fromJson(spare->written.left(newline)).object().value(QStringLiteral("adopt")).toObject();
            QCOMPARE(adopt.value(QStringLiteral("modelDir")).toString(), m_dir.filePath(QStringLiteral("model")));
            const QJsonArray files = adopt.value(QStringLiteral("files")).toArray();
            QCOMPARE(files.size(), 2);
            QByteArray expected;
            for (const QJsonValue& f : files) {
                QFile file(m_dir.filePath(QStringLiteral("model/") + f.toArray().at(0).toString()));
                QVERIFY(file.open(QIODevice::ReadOnly));
                expected += file.readAll();
                QCOMPARE(f.toArray().at(1).toInteger(), file.size());
            }
            QCOMPARE(spare->written.mid(newline + 1), expected);
            spare->sayAdopted(0.001, 0.04);
            QVERIFY2(log().contains(QStringLiteral("a warm spare (SCIKIT_LEARN imported) takes the model folder")), qPrintable(log()));
            QVERIFY2(log().contains(QStringLiteral("(a warm spare: model copy 0.001 s, model load 0.040 s)")), qPrintable(log()));
            QVERIFY(spare->requests.last().contains(QStringLiteral("instances"))); // after the adopt line and files
            spare->say(QJsonObject { { QStringLiteral("id"), spare->requests.last().value(QStringLiteral("id")) },
                { QStringLiteral("predictions"), QJsonArray { 7 } } });
            QCOMPARE(answers.received.size(), 1);
            QCOMPARE(answers.received.at(0).value(QStringLiteral("predictions")).toArray(), QJsonArray { 7 });

            // A custom prediction routine imports its own packages: it neither wants nor takes a spare.
            VersionNodes::Spec routineSpec = spec(0, 1);
            routineSpec.framework.clear();
            routineSpec.predictionClass = QStringLiteral("predictor.MyPredictor");
            routineSpec.pythonPath << m_dir.filePath(QStringLiteral("staging"));
            launcher.nodes[2]->saySpare();
            VersionNodes routine(routineSpec, &launcher, &host);
            routine.setSpares(&spares);
            routine.start();
            QCOMPARE(launcher.nodes.size(), 4);
            QVERIFY(launcher.nodes[3]->command.arguments.contains(QStringLiteral("--prediction-class")));
            QCOMPARE(spares.ready(), 1);
            QCOMPARE(routine.spareStarts(), 0);
        }
        // The last version that wanted it is gone: the spare is let go (its stdin closed), and its reservation.
        QVERIFY(launcher.nodes[2]->stopAsked);
        QCOMPARE(spares.running(), 0);
        QCOMPARE(host.inUse(), 0);
    }

    /// A spare the host has no room for (a job holds it) is not started; once the job is gone, the version's next cold
    /// start (itself from a process) starts it, for the one after.
    void aSpareTheHostRefusedStartsOnceItFits()
    {
        FakeNodeLauncher launcher;
        FakeNodeCapacity host(2);
        host.held.insert(QStringLiteral("a training job"), 1);
        SpareNodes spares(&launcher, &host);
        VersionNodes nodes(spec(0, 1), &launcher, &host);
        nodes.setSpares(&spares);
        nodes.start();
        QCOMPARE(launcher.nodes.size(), 1); // the version's first node; no room for a spare beside it and the job
        QCOMPARE(spares.running(), 0);
        launcher.nodes[0]->sayReady();
        QTRY_COMPARE_WITH_TIMEOUT(nodes.runningNodes(), 0, 10000);
        host.held.remove(QStringLiteral("a training job"));

        Answers answers;
        nodes.predict(oneInstance(1), QString(), answers.collect());
        QCOMPARE(nodes.spareStarts(), 0); // this cold start found no spare
        QCOMPARE(launcher.nodes.size(), 3); // its node, and the spare that now fits
        const bool spareFirst = launcher.nodes[1]->command.arguments.contains(QStringLiteral("--spare"));
        QVERIFY(spareFirst != launcher.nodes[2]->command.arguments.contains(QStringLiteral("--spare")));
        QCOMPARE(spares.running(), 1);
        QCOMPARE(host.inUse(), 2);
    }

    void destroyingStopsEveryNodeAndAnswersWhatWaits()
    {
        FakeNodeLauncher launcher;
        Answers answers;
        {
            VersionNodes nodes(spec(2, 2), &launcher);
            nodes.start();
            launcher.nodes[0]->sayReady();
            nodes.predict(oneInstance(1), QString(), answers.collect());
            nodes.predict(oneInstance(2), QString(), answers.collect());
            QCOMPARE(launcher.nodes[0]->requests.size(), 2);
        }
        QCOMPARE(answers.received.size(), 2);
        for (const QJsonObject& answer : answers.received)
            QVERIFY(answer.value(QStringLiteral("unavailable")).toString().contains(QStringLiteral("stopped")));
        QTRY_VERIFY(launcher.nodes[0].isNull() && launcher.nodes[1].isNull()); // children of the nodes' owner
    }
};

QTEST_GUILESS_MAIN(TestVersionNodes)
#include "tst_versionnodes.moc"
