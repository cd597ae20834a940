// SPDX-License-Identifier: GPL-2.0-or-later
// ClustersModel under QAbstractItemModelTester: regions with their nodes, updated in place when only figures
// change (selection and expansion stay), reset when the regions or nodes change; ClustersView::summary().
#include "clustersmodel.h"
#include "clustersview.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Trainyard;

namespace {
RegionInfo cluster(const QString& name, int nodes, int busy = 0)
{
    RegionInfo r;
    r.name = name;
    r.kind = QStringLiteral("SLURM");
    r.state = QStringLiteral("UP");
    r.partition = QStringLiteral("debug");
    r.partitions << RegionPartitionInfo { QStringLiteral("debug"), { QStringLiteral("UP") },
        QStringLiteral("node[1-4]"), nodes, nodes };
    for (int i = 1; i <= nodes; ++i) {
        RegionNodeInfo n;
        n.name = QStringLiteral("node%1").arg(i);
        n.state = { i <= busy ? QStringLiteral("ALLOCATED") : QStringLiteral("IDLE") };
        n.cpus = 2;
        n.cpusInUse = i <= busy ? 2 : 0;
        n.gpus = 1;
        n.gpusInUse = i <= busy ? 1 : 0;
        n.memory = Bytes::fromGb(2);
        n.partitions = { QStringLiteral("debug") };
        r.nodes << n;
    }
    return r;
}
RegionInfo local()
{
    RegionInfo r;
    r.name = QStringLiteral("local");
    r.kind = QStringLiteral("LOCAL");
    r.state = QStringLiteral("UP");
    return r;
}
} // namespace

class TestClustersModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tree()
    {
        ClustersModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        model.setRegions({ local(), cluster(QStringLiteral("c1"), 4) });
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 2);
        const QModelIndex c1 = model.regionIndex(QStringLiteral("c1"));
        QCOMPARE(model.rowCount(c1), 4);
        QCOMPARE(model.index(2, ClustersModel::NameColumn, c1).data().toString(), QStringLiteral("node3"));
        QCOMPARE(model.index(2, ClustersModel::NameColumn, c1).data(ClustersModel::RegionNameRole).toString(),
            QStringLiteral("c1"));
        QCOMPARE(c1.siblingAtColumn(ClustersModel::CpusColumn).data().toString(), QStringLiteral("0 / 8"));
        QCOMPARE(c1.siblingAtColumn(ClustersModel::PartitionsColumn).data().toString(),
            QStringLiteral("debug (jobs go here)"));

        // Two nodes busy: the same shape, updated in place.
        model.setRegions({ local(), cluster(QStringLiteral("c1"), 4, 2) });
        QCOMPARE(resets.count(), 1);
        QVERIFY(changes.count() >= 1);
        QCOMPARE(c1.siblingAtColumn(ClustersModel::CpusColumn).data().toString(), QStringLiteral("4 / 8"));
        QCOMPARE(model.index(0, ClustersModel::StateColumn, c1).data().toString(), QStringLiteral("ALLOCATED"));
        QCOMPARE(ClustersView::summary(model.regions()), QStringLiteral("c1: 2 of 4 node(s) idle, 2 / 4 GPUs"));

        // A cluster more, a node less: reset.
        RegionInfo down = cluster(QStringLiteral("c2"), 0);
        down.state = QStringLiteral("DOWN");
        down.message = QStringLiteral("Connection refused");
        model.setRegions({ local(), cluster(QStringLiteral("c1"), 3), down });
        QCOMPARE(resets.count(), 2);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowCount(model.regionIndex(QStringLiteral("c1"))), 3);
        const QModelIndex c2 = model.regionIndex(QStringLiteral("c2"));
        QCOMPARE(c2.siblingAtColumn(ClustersModel::StateColumn).data(Qt::ToolTipRole).toString(),
            QStringLiteral("Connection refused"));
        QCOMPARE(
            ClustersView::summary(model.regions()), QStringLiteral("c1: 3 of 3 node(s) idle, 0 / 3 GPUs · c2: down"));
        QCOMPARE(ClustersView::summary({ local() }), QString());
        model.setRegions({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestClustersModel)
#include "tst_clustersmodel.moc"
