// SPDX-License-Identifier: GPL-2.0-or-later
// The console with an executor that has a Slurm cluster (packaging/slurm-testcluster.sh, through
// tests/support/slurmtestcluster.h): the Clusters view and the status bar show the cluster's nodes; the wizard's
// Compute page picks the cluster, checks the job against its nodes and submits there; the topology names the
// node each replica runs on; the Clusters view lists the job with its Slurm job ID. Needs root and Slurm (skipped
// without them, failed instead under TRAINYARD_REQUIRE_ALL=1).
#include "apiclient.h"
#include "clustersmodel.h"
#include "clustersview.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "jobview.h"
#include "mainwindow.h"
#include "requireddependencies.h"
#include "slurmtestcluster.h"
#include "submitwizard.h"
#include "topologyview.h"
#include "wizardpages.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace Trainyard;

class TestClustersLive : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    Test::SlurmTestCluster m_cluster;
    QString m_clusterName;
    QString m_sharedDir;
    QList<qint64> m_pids;
    QStringList m_jobDirs;

private Q_SLOTS:
    void initTestCase()
    {
        if (!m_cluster.acquire())
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(m_cluster.reason());
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("config/trainyard") }));
        const QByteArray yaml = m_cluster.clustersYaml();
        QFile file(m_root.filePath(QStringLiteral("config/trainyard/clusters.yaml")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(yaml);
        file.close();
        // The first cluster's name and shared folder, as the file says them.
        for (const QByteArray& line : yaml.split('\n')) {
            const QByteArray t = line.split('#').first().trimmed(); // the recipe's file has comments
            if (m_clusterName.isEmpty() && t.startsWith("- name:"))
                m_clusterName = QString::fromUtf8(t.mid(7).trimmed());
            if (m_sharedDir.isEmpty() && t.startsWith("sharedDir:"))
                m_sharedDir = QString::fromUtf8(t.mid(10).trimmed());
        }
        QVERIFY(!m_clusterName.isEmpty());
        QVERIFY(!m_sharedDir.isEmpty());
    }

    void cleanupTestCase()
    {
        Test::stopExecutors(m_pids);
        for (const QString& dir : std::as_const(m_jobDirs))
            QDir(dir).removeRecursively();
        m_cluster.release();
    }

    void clusterInConsole()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();

        // The Clusters view: this host and the cluster, its four nodes, UP.
        ClustersView* view = window.clustersView();
        QAbstractItemModelTester tester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view->setInterval(1000);
        QTRY_VERIFY_WITH_TIMEOUT(view->model()->region(m_clusterName), 30000);
        const QModelIndex cluster = view->model()->regionIndex(m_clusterName);
        QCOMPARE(cluster.siblingAtColumn(ClustersModel::StateColumn).data().toString(), QStringLiteral("UP"));
        QCOMPARE(view->model()->rowCount(cluster), 4);
        QVERIFY(cluster.siblingAtColumn(ClustersModel::PartitionsColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("jobs go here")));
        for (int n = 0; n < 4; ++n)
            QVERIFY(view->model()
                        ->index(n, ClustersModel::NameColumn, cluster)
                        .data()
                        .toString()
                        .startsWith(QStringLiteral("node")));
        // View → Clusters shows the dock; the status bar says how many nodes are idle.
        QVERIFY(!window.clustersDock()->isVisible());
        window.findChild<QAction*>(QStringLiteral("showClustersAction"))->trigger();
        QTRY_VERIFY(window.clustersDock()->isVisible());
        QTRY_VERIFY(window.clustersLabel()->isVisible());
        QVERIFY2(window.clustersLabel()->text().contains(m_clusterName + QStringLiteral(": ")),
            qPrintable(window.clustersLabel()->text()));

        // The wizard: a 1 + 2 job of the test trainer, loaded with the cluster as its region.
        const QString jobId = QStringLiteral("clusters_live_%1").arg(QCoreApplication::applicationPid());
        const QString jobDir = m_sharedDir + QStringLiteral("/jobdirs/") + jobId;
        QVERIFY(QDir().mkpath(jobDir));
        QFile::setPermissions(jobDir, QFileDevice::Permissions(0x7777)); // the cluster's user writes there
        m_jobDirs << jobDir;
        Job job = Test::customJob(jobId, QStringLiteral("tytest.sleeper"), 2);
        job.trainingInput.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest") };
        job.trainingInput.region = m_clusterName;
        job.trainingInput.jobDir = jobDir;
        job.state = JobState::StateUnspecified;
        SubmitWizard w(client);
        w.loadJob(job);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(w.jobPage()->uniquenessChecked(), 10000);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::AppPageId));
        QTRY_VERIFY_WITH_TIMEOUT(w.button(QWizard::NextButton)->isEnabled(), 30000);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::ComputePageId));
        WizardComputePage* compute = w.computePage();
        QComboBox* region = compute->regionBox();
        QTRY_VERIFY_WITH_TIMEOUT(region->findData(m_clusterName) > 0, 30000);
        QCOMPARE(region->currentData().toString(), m_clusterName); // the loaded region
        QVERIFY2(region->currentText().contains(QStringLiteral("Slurm cluster")), qPrintable(region->currentText()));
        // Three replicas on four idle nodes: fits now; n1-standard-4 gets a node's CPUs, said so.
        QTRY_COMPARE_WITH_TIMEOUT(compute->verdict(), WizardComputePage::Verdict::Fits, 30000);
        QVERIFY2(compute->summaryLabel()->text().contains(QStringLiteral("Fits %1 now").arg(m_clusterName)),
            qPrintable(compute->summaryLabel()->text()));
        // Four workers: five replicas on four nodes, never.
        compute->countBox(WizardComputePage::Worker)->setValue(4);
        QTRY_COMPARE(compute->verdict(), WizardComputePage::Verdict::Never);
        QVERIFY2(compute->summaryLabel()->text().contains(QStringLiteral("5 node(s)")),
            qPrintable(compute->summaryLabel()->text()));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        // The accelerator picker offers the cluster's GPUs (a gpu:t4 GRES per node: one per node).
        QComboBox* accel = compute->acceleratorTypeBox(WizardComputePage::Master);
        QVERIFY(accel->isEnabled());
        QVERIFY2(accel->itemText(1).contains(QStringLiteral("up to 1 per node")), qPrintable(accel->itemText(1)));
        // This host instead: the job's region is the service's default again; back to the cluster.
        region->setCurrentIndex(0);
        emit region->activated(0);
        QCOMPARE(w.job().trainingInput.region, QStringLiteral("us-central1"));
        region->setCurrentIndex(region->findData(m_clusterName));
        emit region->activated(region->currentIndex());
        QCOMPARE(w.job().trainingInput.region, m_clusterName);
        compute->countBox(WizardComputePage::Worker)->setValue(2);
        QTRY_COMPARE(compute->verdict(), WizardComputePage::Verdict::Fits);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::OutputPageId));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::ReviewPageId));
        QVERIFY(w.reviewPage()->commandView()->toPlainText().contains(QStringLiteral("--region=") + m_clusterName));
        QSignalSpy submitted(&w, &SubmitWizard::jobSubmitted);
        QString refused;
        connect(&w, &SubmitWizard::submitFailed, this, [&refused](const ApiError& e) {
            refused = e.summary();
            for (const FieldViolation& v : e.violations)
                refused += QLatin1Char('\n') + v.field + QStringLiteral(": ") + v.description;
        });
        QTest::mouseClick(w.button(QWizard::FinishButton), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(submitted.count() == 1, qPrintable(refused), 15000);

        // Running on three of the cluster's nodes; the topology names them.
        QTRY_COMPARE_WITH_TIMEOUT(client->getJobBlocking(jobId).value.state, JobState::Running, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(jobId), 10000);
        TopologyView* topology = window.jobView()->topologyView();
        QSet<QString> nodes;
        for (const QString& task : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
                 QStringLiteral("worker-replica-1") }) {
            QTRY_VERIFY_WITH_TIMEOUT(
                topology->nodeDetails(task).join(QLatin1Char(' ')).contains(QStringLiteral("on node")), 30000);
            const QString details = topology->nodeDetails(task).join(QLatin1Char(' '));
            const qsizetype at = details.indexOf(QStringLiteral("on node"));
            nodes.insert(details.mid(at + 3).section(QLatin1Char(' '), 0, 0));
        }
        QCOMPARE(nodes.size(), 3); // one node per replica
        // Resource samples from the nodes (the task scripts sample each replica's process tree there).
        QTRY_VERIFY_WITH_TIMEOUT(topology->nodeDetails(QStringLiteral("worker-replica-1"))
                                     .join(QLatin1Char(' '))
                                     .contains(QStringLiteral("CPU ")),
            30000);
        // The Clusters view lists the job there with its Slurm job ID; the nodes are in use.
        QTRY_VERIFY_WITH_TIMEOUT(view->model()
                                     ->regionIndex(m_clusterName)
                                     .siblingAtColumn(ClustersModel::JobsColumn)
                                     .data()
                                     .toString()
                                     .contains(jobId + QStringLiteral(" (RUNNING, Slurm ")),
            30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.clustersLabel()->text().contains(QStringLiteral("1 of 4 node(s) idle")), 30000);

        QVERIFY(client->cancelJobBlocking(jobId).ok());
        QTRY_COMPARE_WITH_TIMEOUT(client->getJobBlocking(jobId).value.state, JobState::Cancelled, 120000);
    }
};

QTEST_MAIN(TestClustersLive)
#include "tst_clusterslive.moc"
