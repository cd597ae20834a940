// SPDX-License-Identifier: GPL-2.0-or-later
// ReplicaModel under QAbstractItemModelTester: diffs by task name, roles, exit status text.

#include "replicamodel.h"
#include "statenames.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Trainyard;

namespace {
ReplicaInfo replica(const QString& role, int index, ReplicaState state)
{
    ReplicaInfo r;
    r.role = role;
    r.index = index;
    r.taskName = QStringLiteral("%1-replica-%2").arg(role).arg(index);
    r.state = state;
    r.pid = 1000 + index;
    r.address = QStringLiteral("127.0.0.1:%1").arg(40000 + index);
    return r;
}
} // namespace

class TestReplicaModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void updates()
    {
        ReplicaModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QList<ReplicaInfo> list { replica(QStringLiteral("master"), 0, ReplicaState::Starting),
            replica(QStringLiteral("worker"), 0, ReplicaState::Starting),
            replica(QStringLiteral("worker"), 1, ReplicaState::Starting) };
        model.setReplicas(list);
        QCOMPARE(model.rowCount(), 3);
        list[2].state = ReplicaState::Running;
        list[2].gpus = { 0, 1 };
        model.setReplicas(list);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).value<QModelIndex>().row(), 2);
        const QModelIndex w1 = model.index(model.rowOf(QStringLiteral("worker-replica-1")), 0);
        QCOMPARE(w1.data(ReplicaModel::StateRole).value<ReplicaState>(), ReplicaState::Running);
        QCOMPARE(model.index(w1.row(), ReplicaModel::StateColumn).data().toString(), QStringLiteral("RUNNING"));
        QCOMPARE(model.index(w1.row(), ReplicaModel::GpusColumn).data().toString(), QStringLiteral("0, 1"));
        QCOMPARE(w1.data(Qt::ToolTipRole).toString(), QStringLiteral("PID 1001, address 127.0.0.1:40001"));
        list.removeAt(1);
        model.setReplicas(list);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(QStringLiteral("worker-replica-1")), 1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(resets.count(), 0);
    }

    /// Uptime counts from when the executor saw the replica start (a cluster's replica may have queued long after
    /// the job started); without that, from the job's start.
    void runningSinceIsTheReplicasStart()
    {
        ReplicaModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QDateTime jobStart = QDateTime::currentDateTimeUtc().addSecs(-600);
        model.setJobStartTime(jobStart);
        QList<ReplicaInfo> list { replica(QStringLiteral("master"), 0, ReplicaState::Starting),
            replica(QStringLiteral("worker"), 0, ReplicaState::Starting) };
        model.setReplicas(list);
        QVERIFY(!model.index(0, 0).data(ReplicaModel::RunningSinceRole).toDateTime().isValid());
        const QDateTime started = QDateTime::currentDateTimeUtc().addSecs(-3);
        for (ReplicaInfo& r : list)
            r.state = ReplicaState::Running;
        list[0].startTime = started;
        model.setReplicas(list);
        QCOMPARE(model.index(0, 0).data(ReplicaModel::RunningSinceRole).toDateTime(), started);
        QCOMPARE(model.index(1, 0).data(ReplicaModel::RunningSinceRole).toDateTime(), jobStart);
    }

    void exitStatus_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("text");
        QTest::addRow("running") << -1 << -1 << QString();
        QTest::addRow("exit 0") << 0 << -1 << QStringLiteral("exit 0");
        QTest::addRow("exit 3") << 3 << -1 << QStringLiteral("exit 3");
        QTest::addRow("killed") << -1 << 9 << QStringLiteral("signal 9 (SIGKILL)");
    }
    void exitStatus()
    {
        QFETCH(int, code);
        QFETCH(int, signal);
        QFETCH(QString, text);
        ReplicaInfo r = replica(QStringLiteral("worker"), 0, ReplicaState::Failed);
        if (code >= 0)
            r.exitCode = code;
        if (signal >= 0)
            r.exitSignal = signal;
        QCOMPARE(ReplicaModel::exitStatusText(r), text);
    }
};

QTEST_GUILESS_MAIN(TestReplicaModel)
#include "tst_replicamodel.moc"
