// SPDX-License-Identifier: GPL-2.0-or-later
// Resuming from checkpoints, in the console against a real executor:
// - the Overview of a job whose cluster was restarted (its master SIGKILLs itself once) tells which
//   checkpoint each start resumed from, found from the trainer's log line through `…/logs?contains=`;
// - "Submit from this checkpoint…" in the Checkpoints tab copies the checkpoint into a new job dir
//   beside the old one and opens the submit wizard filled with the job's config, a new ID and that dir;
//   the submitted job resumes from the copy (and only from it); cancelling the wizard removes the copy;
// - a destination that cannot be written gives an error naming it and leaves nothing behind.

#include "apiclient.h"
#include "checkpointmodels.h"
#include "checkpointspanel.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "jobview.h"
#include "mainwindow.h"
#include "submitwizard.h"
#include "wizardpages.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Trainyard;

namespace {
QByteArray sha(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                                       : QByteArray();
}

QStringList entries(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}
} // namespace

class TestCheckpointResume : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QString m_runs; ///< parent of the job dirs
    QString m_jobDir;
    QList<qint64> m_pids;
    QStringList m_releases;

    QString path(const QString& name) const { return m_root.filePath(name); }

    bool place(const QString& fixture, const QString& to, const QDateTime& mtime)
    {
        return Test::placeFixture(fixture, m_jobDir + QLatin1Char('/') + to, mtime);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("runs/resume_source") }));
        m_runs = QFileInfo(path(QStringLiteral("runs"))).canonicalFilePath();
        m_jobDir = m_runs + QStringLiteral("/resume_source");
        // The sample trainer's layout: the newest epoch is the one a start resumes from.
        const QDateTime t0 = QDateTime::currentDateTimeUtc().addSecs(-600);
        QVERIFY(place(QStringLiteral("pytorch/test.pt"), QStringLiteral("checkpoints/ckpt-epoch-1.pt"), t0));
        QVERIFY(place(
            QStringLiteral("pytorch/mlp_epoch3.pt"), QStringLiteral("checkpoints/ckpt-epoch-3.pt"), t0.addSecs(60)));
    }

    void cleanupTestCase()
    {
        for (const QString& dir : std::as_const(m_releases))
            Test::releaseJob(dir);
        Test::stopExecutors(m_pids);
    }

    void parseResumeLine()
    {
        using P = std::pair<QString, QString>;
        QCOMPARE(JobView::parseResumeLine(
                     QStringLiteral("Resuming from checkpoint /r/j/checkpoints/ckpt-epoch-2.pt (epoch 2)")),
            (P { QStringLiteral("/r/j/checkpoints/ckpt-epoch-2.pt"), QStringLiteral("epoch 2") }));
        QCOMPARE(JobView::parseResumeLine(
                     QStringLiteral("INFO Resumed from checkpoint gs://b/model.ckpt-200 (epoch 3, step 1407)")),
            (P { QStringLiteral("gs://b/model.ckpt-200"), QStringLiteral("epoch 3, step 1407") }));
        QCOMPARE(JobView::parseResumeLine(QStringLiteral("Resuming from checkpoint /a b/x.pt")),
            (P { QStringLiteral("/a b/x.pt"), QString() }));
        QCOMPARE(
            JobView::parseResumeLine(QStringLiteral("master-replica-0: checkpoint /x.pt (epoch 1, step 5)")), P {});
        QCOMPARE(JobView::parseResumeLine(QStringLiteral("No checkpoint in /j; starting from scratch")), P {});
    }

    void resumeAndSubmitFromCheckpoint()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;

        // A job whose master resumes, dies once (SIGKILL: retryable), and resumes again after the restart.
        Job job;
        job.jobId = QStringLiteral("resume_source");
        job.labels.insert(QStringLiteral("suite"), QStringLiteral("resume"));
        TrainingInput& in = job.trainingInput;
        in.scaleTier = QStringLiteral("BASIC");
        in.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/gui/trainers/consoletest") };
        in.pythonModule = QStringLiteral("consoletest.resume");
        in.args = { QStringLiteral("--crash-once") };
        in.region = QStringLiteral("us-central1");
        in.jobDir = m_jobDir;
        m_releases << m_jobDir;
        const ApiResult<Job> created = connection.client()->createJobBlocking(job);
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));

        window.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(job.jobId), 15000);
        JobView* view = window.jobView();
        QVERIFY(view);
        QCOMPARE(view->jobId(), job.jobId);

        // Overview: two starts, both from epoch 3 (the newest), shown relative to the job dir.
        QTRY_COMPARE_WITH_TIMEOUT(view->resumeLines().size(), 2, 40000);
        QVERIFY(view->resumeLabel()->isVisibleTo(view));
        const QString overview = view->resumeLabel()->text();
        QCOMPARE(overview.count(QStringLiteral("Resumed from <b>checkpoints/ckpt-epoch-3.pt</b> (epoch 3)")), 2);
        QCOMPARE(view->resumeLines().first().taskName, QStringLiteral("master-replica-0"));
        QVERIFY(view->resumeLines().first().timestampUs < view->resumeLines().last().timestampUs);
        const ApiResult<QList<ReplicaInfo>> replicas = connection.client()->replicasBlocking(job.jobId);
        QVERIFY(replicas.ok() && !replicas.value.isEmpty());
        QVERIFY(replicas.value.first().restarts >= 1);

        // Submit from the older checkpoint (epoch 1).
        CheckpointsPanel* panel = view->checkpointsPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->checkpointModel()->rowCount(), 2, 15000);
        QVERIFY(panel->selectCheckpoint(QStringLiteral("checkpoints/ckpt-epoch-1.pt")));
        QVERIFY(panel->submitFromButton()->isEnabled());
        QSignalSpy requested(view, &JobView::submitFromCheckpointRequested);
        QTest::mouseClick(panel->submitFromButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(requested.size(), 1, 15000);
        SubmitWizard* wizard = nullptr;
        QTRY_VERIFY((wizard = window.findChild<SubmitWizard*>()) && wizard->isVisible());

        // Filled with the job's config, a new ID, and the copy as job dir (a sibling named after the new ID).
        const QString newId = wizard->jobPage()->jobIdEdit()->text();
        QVERIFY2(QRegularExpression(QStringLiteral("^resume_source_\\d{8}_\\d{6}$")).match(newId).hasMatch(),
            qPrintable(newId));
        const QString copy = m_runs + QLatin1Char('/') + newId;
        QCOMPARE(wizard->outputPage()->jobDirEdit()->text(), copy);
        QCOMPARE(requested.first().at(0).value<Job>().trainingInput.jobDir, copy);
        QCOMPARE(requested.first().at(1).toString(), QStringLiteral("checkpoints/ckpt-epoch-1.pt"));
        QCOMPARE(entries(copy),
            (QStringList { QStringLiteral("checkpoints"), QStringLiteral("checkpoints/ckpt-epoch-1.pt") }));
        QCOMPARE(sha(copy + QStringLiteral("/checkpoints/ckpt-epoch-1.pt")),
            sha(m_jobDir + QStringLiteral("/checkpoints/ckpt-epoch-1.pt")));
        QTRY_VERIFY(wizard->outputPage()->checkpointWarning()->text().contains(QStringLiteral("ckpt-epoch-1.pt")));
        const Job filled = wizard->job();
        QCOMPARE(filled.jobId, newId);
        QCOMPARE(filled.trainingInput.pythonModule, QStringLiteral("consoletest.resume"));
        QCOMPARE(filled.trainingInput.args, QStringList { QStringLiteral("--crash-once") });
        QCOMPARE(filled.trainingInput.scaleTier, QStringLiteral("BASIC"));
        QCOMPARE(filled.labels.value(QStringLiteral("suite")), QStringLiteral("resume"));

        // Submitted, the new job resumes from the copy: epoch 1, in its own job dir. (The source job ends
        // first: the host runs one BASIC job at a time.)
        Test::releaseJob(m_jobDir);
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(connection.client()->getJobBlocking(job.jobId).value.state), 30000);
        m_releases << copy;
        QSignalSpy submitted(wizard, &SubmitWizard::jobSubmitted);
        wizard->accept();
        QTRY_COMPARE_WITH_TIMEOUT(submitted.size(), 1, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(window.jobView() && window.jobView()->jobId() == newId, 15000);
        JobView* resumed = window.jobView();
        QTRY_VERIFY_WITH_TIMEOUT(!resumed->resumeLines().isEmpty(), 30000);
        QCOMPARE(JobView::parseResumeLine(resumed->resumeLines().first().message).first,
            copy + QStringLiteral("/checkpoints/ckpt-epoch-1.pt"));
        QVERIFY(resumed->resumeLabel()->text().contains(QStringLiteral("checkpoints/ckpt-epoch-1.pt</b> (epoch 1)")));
        QVERIFY(QFileInfo::exists(copy)); // a submitted job keeps its copy
        Test::releaseJob(copy);

        // Cancelling the wizard removes the unused copy.
        QVERIFY(window.selectJob(job.jobId));
        panel = window.jobView()->checkpointsPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->checkpointModel()->rowCount(), 2, 15000);
        QVERIFY(panel->selectCheckpoint(QStringLiteral("checkpoints/ckpt-epoch-3.pt")));
        // The new ID has a seconds stamp: wait until the clock shows another second than the first job's ID.
        QTRY_VERIFY(!newId.endsWith(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd_HHmmss"))));
        QSignalSpy requested2(window.jobView(), &JobView::submitFromCheckpointRequested);
        QVERIFY(panel->submitFromCheckpoint(QStringLiteral("checkpoints/ckpt-epoch-3.pt")));
        QVERIFY(panel->isCopying());
        QVERIFY(!panel->submitFromButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(requested2.size(), 1, 15000);
        const QString unused = requested2.first().at(0).value<Job>().trainingInput.jobDir;
        QVERIFY(QFileInfo::exists(unused + QStringLiteral("/checkpoints/ckpt-epoch-3.pt")));
        SubmitWizard* second = nullptr;
        QTRY_VERIFY((second = window.findChild<SubmitWizard*>()) && second->isVisible());
        second->reject();
        QTRY_VERIFY(!QFileInfo::exists(unused));

        // A destination that cannot be created: an error that names it, no wizard, nothing left.
        const QString blocker = m_runs + QStringLiteral("/a-file");
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        auto topLevel = [this] {
            return QDir(m_runs).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
        };
        const QStringList before = topLevel();
        QSignalSpy failed(panel, &CheckpointsPanel::submitFromCheckpointFailed);
        QSignalSpy requested3(panel, &CheckpointsPanel::submitFromCheckpointRequested);
        QVERIFY(panel->submitFromCheckpoint(
            QStringLiteral("checkpoints/ckpt-epoch-3.pt"), blocker + QStringLiteral("/job")));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 15000);
        QVERIFY2(failed.first().first().toString().contains(blocker), qPrintable(failed.first().first().toString()));
        QVERIFY(panel->actionStatusLabel()->isVisibleTo(panel));
        QVERIFY(panel->actionStatusLabel()->text().contains(QStringLiteral("ckpt-epoch-3.pt")));
        QVERIFY(panel->actionStatusLabel()->text().contains(blocker));
        QCOMPARE(requested3.size(), 0);
        QCOMPARE(topLevel(), before); // no job dir, no hidden staging folder
        QVERIFY(!window.findChild<SubmitWizard*>() || !window.findChild<SubmitWizard*>()->isVisible());
        QVERIFY(panel->submitFromButton()->isEnabled());
    }
};

QTEST_MAIN(TestCheckpointResume)
#include "tst_checkpointresume.moc"
