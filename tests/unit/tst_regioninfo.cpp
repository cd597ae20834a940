// SPDX-License-Identifier: GPL-2.0-or-later
// RegionInfo (the decoded `GET …/regions`, app/executor/API.md "Regions") and assessClusterFit(): the wizard's
// verdict for a job on a Slurm cluster — one node per replica, GPUs per node, busy nodes, a cluster that is down.
#include "machinecatalog.h"
#include "regioninfo.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Trainyard;

namespace {

/// A cluster of `nodes` nodes with 1 CPU, `gpus` GPUs and 2 GB each, as the executor reports the test cluster.
QJsonObject clusterJson(int nodes, int gpus, const QString& state = QStringLiteral("UP"))
{
    QJsonArray list;
    for (int i = 1; i <= nodes; ++i)
        list.append(QJsonObject { { QStringLiteral("name"), QStringLiteral("node%1").arg(i) },
            { QStringLiteral("state"), QJsonArray { QStringLiteral("IDLE") } }, { QStringLiteral("cpus"), 1 },
            { QStringLiteral("cpusInUse"), 0 }, { QStringLiteral("gpus"), gpus }, { QStringLiteral("gpusInUse"), 0 },
            { QStringLiteral("memoryBytes"), QStringLiteral("2000000000") },
            { QStringLiteral("partitions"), QJsonArray { QStringLiteral("debug") } } });
    return QJsonObject { { QStringLiteral("name"), QStringLiteral("testcluster") },
        { QStringLiteral("kind"), QStringLiteral("SLURM") }, { QStringLiteral("state"), state },
        { QStringLiteral("partition"), QStringLiteral("debug") },
        { QStringLiteral("message"), state == QLatin1String("UP") ? QString() : QStringLiteral("Connection refused") },
        { QStringLiteral("partitions"),
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("debug") },
                { QStringLiteral("state"), QJsonArray { QStringLiteral("UP") } },
                { QStringLiteral("nodes"), QStringLiteral("node[1-%1]").arg(nodes) },
                { QStringLiteral("totalNodes"), nodes }, { QStringLiteral("totalCpus"), nodes } } } },
        { QStringLiteral("nodes"), list },
        { QStringLiteral("jobs"),
            QJsonArray { QJsonObject { { QStringLiteral("jobId"), QStringLiteral("j1") },
                { QStringLiteral("state"), QStringLiteral("RUNNING") },
                { QStringLiteral("clusterJobIds"), QJsonArray { QStringLiteral("17") } } } } } };
}

ClusterPlan plan(int workers, int gpusPerReplica = 0)
{
    TrainingInput in;
    in.scaleTier = QStringLiteral("CUSTOM");
    in.masterType = QStringLiteral("n1-standard-4");
    if (workers > 0) {
        in.workerType = QStringLiteral("n1-standard-4");
        in.workerCount = workers;
    }
    if (gpusPerReplica > 0) {
        in.masterConfig = ReplicaConfig {};
        in.masterConfig->acceleratorConfig = AcceleratorConfig { gpusPerReplica, QStringLiteral("NVIDIA_TESLA_T4") };
    }
    return planCluster(in, MachineCatalog::builtin());
}

} // namespace

class TestRegionInfo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decodes()
    {
        const QJsonObject local { { QStringLiteral("name"), QStringLiteral("local") },
            { QStringLiteral("kind"), QStringLiteral("LOCAL") }, { QStringLiteral("state"), QStringLiteral("UP") } };
        const QList<RegionInfo> regions = RegionInfo::listFromJson(
            QJsonObject { { QStringLiteral("regions"), QJsonArray { local, clusterJson(4, 1) } } });
        QCOMPARE(regions.size(), 2);
        QVERIFY(!regions.at(0).isCluster());
        const RegionInfo& c = regions.at(1);
        QVERIFY(c.isCluster());
        QVERIFY(c.isUp());
        QCOMPARE(c.partition, QStringLiteral("debug"));
        QCOMPARE(c.nodes.size(), 4);
        QCOMPARE(c.nodes.at(2).name, QStringLiteral("node3"));
        QCOMPARE(c.nodes.at(2).memory.bytes(), qint64(2000000000));
        QCOMPARE(c.nodes.at(2).gpus, 1);
        QVERIFY(c.nodes.at(2).idle());
        QCOMPARE(c.partitions.value(0).nodes, QStringLiteral("node[1-4]"));
        QCOMPARE(c.jobs.value(0).clusterJobIds, QStringList { QStringLiteral("17") });
    }

    /// The executor encodes with the same type the clients decode: what it sends reads back whole, field for field,
    /// and the JSON of a cluster read from the executor's answer is that answer (memory as int64 strings, empty
    /// text fields left out).
    void roundTrips()
    {
        QJsonObject json = clusterJson(2, 1);
        json.insert(QStringLiteral("endpoint"), QStringLiteral("http://127.0.0.1:16880"));
        json.insert(QStringLiteral("user"), QStringLiteral("slurmci"));
        json.insert(QStringLiteral("checks"),
            QJsonArray {
                QJsonObject { { QStringLiteral("name"), QStringLiteral("reachable") }, { QStringLiteral("ok"), true },
                    { QStringLiteral("message"), QStringLiteral("HTTP 200") } },
                QJsonObject { { QStringLiteral("name"), QStringLiteral("partition") }, { QStringLiteral("ok"), false },
                    { QStringLiteral("message"), QStringLiteral("debug is DOWN") } } });
        QJsonArray nodes = json.value(QStringLiteral("nodes")).toArray();
        QJsonObject node = nodes.at(0).toObject();
        node.insert(QStringLiteral("memoryInUseBytes"), QStringLiteral("1000000000"));
        node.insert(QStringLiteral("cpusInUse"), 1);
        nodes.replace(0, node);
        QJsonObject idle = nodes.at(1).toObject();
        idle.insert(QStringLiteral("memoryInUseBytes"), QStringLiteral("0"));
        nodes.replace(1, idle);
        json.insert(QStringLiteral("nodes"), nodes);
        json.remove(QStringLiteral("message")); // UP: no message, left out

        const RegionInfo region = RegionInfo::fromJson(json);
        QCOMPARE(region.user, QStringLiteral("slurmci"));
        QCOMPARE(region.checks.size(), 2);
        QVERIFY(!region.checks.at(1).ok);
        QCOMPARE(region.nodes.at(0).memoryInUse.bytes(), qint64(1000000000));
        QCOMPARE(region.toJson(), json);
        QCOMPARE(RegionInfo::fromJson(region.toJson()), region);

        RegionInfo local;
        local.name = QStringLiteral("local");
        local.kind = QStringLiteral("LOCAL");
        local.state = QStringLiteral("UP");
        const QList<RegionInfo> both { local, region };
        QCOMPARE(RegionInfo::listFromJson(RegionInfo::listToJson(both)), both);
        // A job with no cluster job: no clusterJobIds key, as the executor has always answered.
        const RegionJobInfo queued { QStringLiteral("j2"), QStringLiteral("QUEUED"), {} };
        QVERIFY(!queued.toJson().contains(QStringLiteral("clusterJobIds")));
    }

    void nodeStates_data()
    {
        QTest::addColumn<QStringList>("state");
        QTest::addColumn<bool>("usable");
        QTest::newRow("idle") << QStringList { QStringLiteral("IDLE") } << true;
        QTest::newRow("mixed") << QStringList { QStringLiteral("MIXED") } << true;
        QTest::newRow("allocated") << QStringList { QStringLiteral("ALLOCATED") } << true;
        QTest::newRow("down") << QStringList { QStringLiteral("DOWN") } << false;
        QTest::newRow("idle+drain") << QStringList { QStringLiteral("IDLE"), QStringLiteral("DRAIN") } << false;
        QTest::newRow("not responding") << QStringList { QStringLiteral("IDLE"), QStringLiteral("NOT_RESPONDING") }
                                        << false;
        QTest::newRow("none") << QStringList {} << false;
    }
    void nodeStates()
    {
        QFETCH(QStringList, state);
        QFETCH(bool, usable);
        RegionNodeInfo n;
        n.state = state;
        n.cpus = 1;
        QCOMPARE(n.usable(), usable);
    }

    void fit()
    {
        const RegionInfo cluster = RegionInfo::fromJson(clusterJson(4, 1));
        // 1 + 2 on 4 idle nodes: starts now.
        ClusterFit f = assessClusterFit(plan(2), cluster);
        QCOMPARE(f.verdict, ClusterFit::Verdict::Fits);
        QCOMPARE(f.usableNodes, 4);
        QCOMPARE(f.idleNodes, 4);
        // n1-standard-4 asks 4 vCPUs and 15 GB: each node has 1 CPU and 2 GB, said but not blocking.
        QVERIFY2(f.notes.join(QLatin1Char(' ')).contains(QStringLiteral("1 CPUs")),
            qPrintable(f.notes.join(QLatin1Char(' '))));
        // 1 + 4: five replicas, four nodes: never.
        f = assessClusterFit(plan(4), cluster);
        QCOMPARE(f.verdict, ClusterFit::Verdict::Never);
        QVERIFY2(f.reasons.value(0).contains(QStringLiteral("5 node(s)")), qPrintable(f.reasons.value(0)));
        // Two GPUs for the master; nodes have one: never.
        f = assessClusterFit(plan(0, 2), cluster);
        QCOMPARE(f.verdict, ClusterFit::Verdict::Never);
        QVERIFY2(f.reasons.value(0).contains(QStringLiteral("largest node has 1")), qPrintable(f.reasons.value(0)));
    }

    void busyAndDownNodes()
    {
        QJsonObject json = clusterJson(4, 1);
        QJsonArray nodes = json.value(QStringLiteral("nodes")).toArray();
        QJsonObject n1 = nodes.at(0).toObject();
        n1.insert(QStringLiteral("state"), QJsonArray { QStringLiteral("ALLOCATED") });
        n1.insert(QStringLiteral("cpusInUse"), 1);
        nodes.replace(0, n1);
        QJsonObject n2 = nodes.at(1).toObject();
        n2.insert(QStringLiteral("state"), QJsonArray { QStringLiteral("DOWN") });
        nodes.replace(1, n2);
        json.insert(QStringLiteral("nodes"), nodes);
        const RegionInfo cluster = RegionInfo::fromJson(json);
        // 3 usable nodes, 2 idle: 1 + 1 starts now, 1 + 2 queues, 1 + 3 never.
        QCOMPARE(assessClusterFit(plan(1), cluster).verdict, ClusterFit::Verdict::Fits);
        const ClusterFit queued = assessClusterFit(plan(2), cluster);
        QCOMPARE(queued.verdict, ClusterFit::Verdict::Queue);
        QCOMPARE(queued.usableNodes, 3);
        QCOMPARE(queued.idleNodes, 2);
        QCOMPARE(assessClusterFit(plan(3), cluster).verdict, ClusterFit::Verdict::Never);
    }

    void gpusOnIdleNodes()
    {
        // Node 1 has 2 GPUs, the others none; a master asking 2 fits only there.
        QJsonObject json = clusterJson(3, 0);
        QJsonArray nodes = json.value(QStringLiteral("nodes")).toArray();
        QJsonObject n1 = nodes.at(0).toObject();
        n1.insert(QStringLiteral("gpus"), 2);
        nodes.replace(0, n1);
        json.insert(QStringLiteral("nodes"), nodes);
        RegionInfo cluster = RegionInfo::fromJson(json);
        QCOMPARE(assessClusterFit(plan(2, 2), cluster).verdict, ClusterFit::Verdict::Fits);
        cluster.nodes[0].cpusInUse = 1; // busy: the only node with GPUs
        QCOMPARE(assessClusterFit(plan(2, 2), cluster).verdict, ClusterFit::Verdict::Queue);
    }

    void downCluster()
    {
        const RegionInfo cluster = RegionInfo::fromJson(clusterJson(4, 1, QStringLiteral("DOWN")));
        const ClusterFit f = assessClusterFit(plan(0), cluster);
        QCOMPARE(f.verdict, ClusterFit::Verdict::Never);
        QVERIFY(f.reasons.value(0).contains(QStringLiteral("Connection refused")));
    }
};

QTEST_GUILESS_MAIN(TestRegionInfo)
#include "tst_regioninfo.moc"
