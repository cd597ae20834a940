// SPDX-License-Identifier: GPL-2.0-or-later
// TopologyView over a ReplicaModel: the nodes and edges of 1 + 2 + 1 jobs (with a parameter server, or
// with an evaluator), states that update in place, the failed node focused, and a 1 + 64 + 16 layout
// without overlapping nodes.

#include "replicamodel.h"
#include "statenames.h"
#include "topologyview.h"

#include <QSignalSpy>
#include <QAbstractItemModelTester>
#include <QTest>

using namespace Trainyard;

namespace {
ReplicaInfo replica(const QString& role, int index, ReplicaState state = ReplicaState::Running)
{
    ReplicaInfo r;
    r.role = role;
    r.index = index;
    r.taskName = QStringLiteral("%1-replica-%2")
                     .arg(role == QLatin1String("chief") ? QStringLiteral("master") : role)
                     .arg(index);
    r.state = state;
    return r;
}
using Edge = QPair<QString, QString>;
} // namespace

// The first node whose box (less a pixel all round) a drawn line runs through, or an empty string. A
// line that starts or ends inside a box (a straight edge from a node's centre) may leave that box.
static QString lineThroughNode(const TopologyView& view)
{
    for (const QLineF& line : view.drawnLines()) {
        const int steps = std::max(1, int(line.length() / 2));
        for (const QString& name : view.taskNames()) {
            const QRectF box = QRectF(view.nodePosition(name) - QPointF(95, 45), QSizeF(190, 90)).adjusted(1, 1, -1, -1);
            if (box.contains(line.p1()) || box.contains(line.p2()))
                continue;
            for (int k = 0; k <= steps; ++k) {
                if (box.contains(line.pointAt(double(k) / steps)))
                    return name;
            }
        }
    }
    return QString();
}

class TestTopologyView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nodesAndEdges_data()
    {
        QTest::addColumn<QString>("fourth");
        QTest::addColumn<QList<Edge>>("edges");
        const QString m = QStringLiteral("master-replica-0");
        const QString w0 = QStringLiteral("worker-replica-0");
        const QString w1 = QStringLiteral("worker-replica-1");
        const QString ps = QStringLiteral("ps-replica-0");
        QTest::addRow("1 + 2 workers + 1 ps")
            << QStringLiteral("ps") << QList<Edge> { { m, ps }, { ps, w0 }, { ps, w1 } };
        QTest::addRow("1 + 2 workers + 1 evaluator")
            << QStringLiteral("evaluator") << QList<Edge> { { m, w0 }, { m, w1 } };
    }
    void nodesAndEdges()
    {
        QFETCH(QString, fourth);
        QFETCH(QList<Edge>, edges);
        ReplicaModel model;
        TopologyView view;
        view.resize(800, 600);
        view.setModel(&model);
        model.setReplicas({ replica(QStringLiteral("master"), 0), replica(QStringLiteral("worker"), 0),
            replica(QStringLiteral("worker"), 1), replica(fourth, 0) });
        QCOMPARE(view.taskNames().size(), 4);
        QList<Edge> actual = view.edges();
        std::sort(actual.begin(), actual.end());
        std::sort(edges.begin(), edges.end());
        QCOMPARE(actual, edges);
        // The master is in the centre; evaluators sit below the cluster.
        QCOMPARE(view.nodePosition(QStringLiteral("master-replica-0")), QPointF(0, 0));
        QVERIFY(!view.drawnLines().isEmpty());
        QCOMPARE(lineThroughNode(view), QString());
        if (fourth == QLatin1String("evaluator")) {
            const qreal ey = view.nodePosition(QStringLiteral("evaluator-replica-0")).y();
            QVERIFY(ey > view.nodePosition(QStringLiteral("worker-replica-0")).y());
            QVERIFY(ey > view.nodePosition(QStringLiteral("worker-replica-1")).y());
        }
    }

    void statesUpdate()
    {
        ReplicaModel model;
        TopologyView view;
        view.setModel(&model);
        QList<ReplicaInfo> list { replica(QStringLiteral("master"), 0, ReplicaState::Starting),
            replica(QStringLiteral("worker"), 0, ReplicaState::Starting),
            replica(QStringLiteral("worker"), 1, ReplicaState::Starting),
            replica(QStringLiteral("ps"), 0, ReplicaState::Starting) };
        model.setReplicas(list);
        const QPointF before = view.nodePosition(QStringLiteral("worker-replica-1"));
        for (ReplicaInfo& r : list)
            r.state = ReplicaState::Running;
        list[2].state = ReplicaState::Failed;
        list[2].exitCode = 3;
        model.setReplicas(list);
        QCOMPARE(view.nodeState(QStringLiteral("master-replica-0")), ReplicaState::Running);
        QCOMPARE(view.nodeState(QStringLiteral("worker-replica-1")), ReplicaState::Failed);
        QCOMPARE(view.nodeState(QStringLiteral("no-such-replica")), ReplicaState::Unspecified);
        QCOMPARE(view.nodePosition(QStringLiteral("worker-replica-1")), before); // updated in place
        QVERIFY(view.focusFailed());
        QCOMPARE(view.selectedTask(), QStringLiteral("worker-replica-1"));
    }

    void nodeDetailsAndFit()
    {
        // Issue 11, item 12: nodes show their machine type, and while running their uptime and live CPU and
        // memory; "Fit" does not shrink the text below legibility.
        ReplicaModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        TopologyView view;
        view.resize(500, 300);
        view.setModel(&model);
        QList<ReplicaInfo> list { replica(QStringLiteral("master"), 0) };
        list[0].machineType = QStringLiteral("n1-standard-4");
        for (int i = 0; i < 8; ++i)
            list << replica(QStringLiteral("worker"), i);
        model.setReplicas(list);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString master = QStringLiteral("master-replica-0");
        QStringList details = view.nodeDetails(master);
        QCOMPARE(details.size(), 2);
        QVERIFY2(details[0].startsWith(QStringLiteral("n1-standard-4")), qPrintable(details[0]));
        QVERIFY2(details[1].startsWith(QStringLiteral("up ")), qPrintable(details[1]));
        model.setResourceUsage(master, 187.4, 412LL * 1024 * 1024);
        details = view.nodeDetails(master);
        QVERIFY2(details[1].contains(QStringLiteral("CPU 187 %")), qPrintable(details[1]));
        QVERIFY2(details[1].contains(QStringLiteral("412")), qPrintable(details[1]));
        // Ended: no uptime nor samples.
        list[0].state = ReplicaState::Succeeded;
        model.setReplicas(list);
        QCOMPARE(view.nodeDetails(master).size(), 1);
        view.fitAll();
        QVERIFY2(view.transform().m11() >= 0.75, qPrintable(QString::number(view.transform().m11())));
    }

    void clickOpensTask()
    {
        ReplicaModel model;
        TopologyView view;
        view.resize(800, 600);
        view.setModel(&model);
        model.setReplicas({ replica(QStringLiteral("master"), 0), replica(QStringLiteral("worker"), 0) });
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitAll();
        QSignalSpy activated(&view, &TopologyView::taskActivated);
        const QPoint at = view.mapFromScene(view.nodePosition(QStringLiteral("worker-replica-0")));
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().at(0).toString(), QStringLiteral("worker-replica-0"));
    }

    void largeClusterDoesNotOverlap()
    {
        ReplicaModel model;
        TopologyView view;
        view.setModel(&model);
        QList<ReplicaInfo> list { replica(QStringLiteral("master"), 0) };
        for (int i = 0; i < 64; ++i)
            list << replica(QStringLiteral("worker"), i);
        for (int i = 0; i < 16; ++i)
            list << replica(QStringLiteral("ps"), i);
        for (int i = 0; i < 4; ++i)
            list << replica(QStringLiteral("evaluator"), i);
        model.setReplicas(list);
        const QStringList names = view.taskNames();
        QCOMPARE(names.size(), 85);
        QCOMPARE(view.edges().size(), 16 * 65);
        // Servers above the bus, the master and the workers below it, and no line through a box.
        for (int i = 0; i < 16; ++i)
            QVERIFY(view.nodePosition(QStringLiteral("ps-replica-%1").arg(i)).y() < 0);
        for (int i = 0; i < 64; ++i)
            QVERIFY(view.nodePosition(QStringLiteral("worker-replica-%1").arg(i)).y() >= 0);
        QVERIFY(!view.drawnLines().isEmpty());
        QCOMPARE(lineThroughNode(view), QString());
        for (int i = 0; i < names.size(); ++i) {
            for (int j = i + 1; j < names.size(); ++j) {
                const QPointF d = view.nodePosition(names.at(i)) - view.nodePosition(names.at(j));
                QVERIFY2(std::abs(d.x()) >= 190 || std::abs(d.y()) >= 72,
                    qPrintable(names.at(i) + QLatin1Char(' ') + names.at(j)));
            }
        }
    }
};

QTEST_MAIN(TestTopologyView)
#include "tst_topologyview.moc"
