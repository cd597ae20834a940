// SPDX-License-Identifier: GPL-2.0-or-later
// Custom containers (issue 16) end to end with real podman, real images and the bundled executor: the replica
// contract inside containers (variables, arguments, --init, host networking, the job dir at its path), the
// Fashion-MNIST sample trainer as an image on 1 master + 2 workers, cancel, a crash and its restart, a permanent
// failure, an image that is not there, and the executor SIGKILLed mid-job (its orphaned containers removed at
// recovery). After every case no container of the test is left.
//
// Needs root (rootful podman, as ../shared/containers/RECIPE.md verified) and podman; the images come from
// packaging/container-images.sh (debootstrap from the apt mirror, cached in the podman store). Skips without
// them, fails instead under TRAINYARD_REQUIRE_ALL=1.
#include "apiclient.h"
#include "containerimages.h"
#include "executorenvironment.h"
#include "executorlocator.h"
#include "requireddependencies.h"
#include "statenames.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <unistd.h>

using namespace Trainyard;

namespace {

const QString BaseImage = Test::containerBaseImage();
const QString TrainerImage = Test::containerTrainerImage();

bool processAlive(qint64 pid)
{
    return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0;
}

/// Runs podman (with runc, as the executor does) and returns its stdout; empty on failure.
QString podman(const QStringList& args)
{
    QProcess p;
    QStringList all;
    const QString runc = QStandardPaths::findExecutable(QStringLiteral("runc"), { QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin") });
    if (!runc.isEmpty())
        all << QStringLiteral("--runtime") << runc;
    p.setWorkingDirectory(QDir::tempPath());
    p.start(QStringLiteral("podman"), all + args);
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

} // namespace

class TestContainers : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<ApiClient> m_client;
    ExecutorEndpoint m_endpoint;

    QString path(const QString& relative) const { return m_root.filePath(relative); }
    QString jobDir(const QString& id) const { return path(QStringLiteral("jobs/") + id); }

    bool connectExecutor()
    {
        ExecutorLocator locator;
        locator.setStartTimeout(30000);
        QString error;
        m_endpoint = locator.locateBlocking(&error);
        if (!m_endpoint.isValid()) {
            qWarning() << "locate failed:" << error;
            return false;
        }
        m_client = std::make_unique<ApiClient>(m_endpoint.url, m_endpoint.token);
        return true;
    }

    /// A job whose every replica runs `python3 <job dir>/probe.py MODE` in the base image.
    Job probeJob(const QString& id, const QString& mode, int workers)
    {
        Job job = Test::customJob(id, QString(), workers);
        TrainingInput& in = job.trainingInput;
        in.pythonModule.clear();
        in.region = QStringLiteral("local");
        in.jobDir = jobDir(id);
        in.masterConfig = ReplicaConfig {};
        in.masterConfig->imageUri = BaseImage;
        in.masterConfig->containerCommand = { QStringLiteral("python3"), in.jobDir + QStringLiteral("/probe.py") };
        in.args = { mode };
        QDir().mkpath(in.jobDir);
        QFile::remove(in.jobDir + QStringLiteral("/probe.py"));
        QFile::copy(QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers_container/probe.py"),
            in.jobDir + QStringLiteral("/probe.py"));
        return job;
    }

    Job job(const QString& id)
    {
        const ApiResult<Job> r = m_client->getJobBlocking(id);
        return r.ok() ? r.value : Job {};
    }

    QList<ReplicaInfo> replicas(const QString& id)
    {
        const ApiResult<QList<ReplicaInfo>> r = m_client->replicasBlocking(id);
        return r.ok() ? r.value : QList<ReplicaInfo> {};
    }

    bool allRunning(const QString& id, int count)
    {
        const QList<ReplicaInfo> list = replicas(id);
        if (list.size() != count)
            return false;
        return std::all_of(list.cbegin(), list.cend(), [](const ReplicaInfo& r) { return r.state == ReplicaState::Running; });
    }

    QString logText(const QString& id)
    {
        QString text;
        QString token;
        do {
            const ApiResult<LogPage> page = m_client->logsBlocking(id, {}, {}, 10000, token);
            if (!page.ok())
                break;
            for (const LogEntry& l : page.value.entries)
                text += l.taskName + QStringLiteral(": ") + l.message + QLatin1Char('\n');
            token = page.value.nextPageToken;
        } while (!token.isEmpty());
        return text;
    }

    bool isFinal(const QString& id) { return Trainyard::isFinal(job(id).state); }

    /// The containers (running or not) of this test's runs: every run's marker label lies under m_root.
    QStringList ourContainers()
    {
        const QString out = podman({ QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("--format"),
            QStringLiteral("{{.Names}} {{.State}} {{index .Labels \"io.trainyard.job-folder\"}}") });
        QStringList ours;
        for (const QString& line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            if (line.contains(m_root.path()))
                ours << line;
        }
        return ours;
    }

    /// The running containers of job `id` as `podman ps` names them.
    QStringList runningContainersOf(const QString& id)
    {
        return podman({ QStringLiteral("ps"), QStringLiteral("--filter"), QStringLiteral("label=io.trainyard.job=") + id,
                          QStringLiteral("--format"), QStringLiteral("{{.Names}}") })
            .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

private Q_SLOTS:
    void initTestCase()
    {
        // The images: built once from the apt mirror, then kept in the podman store.
        QString imagesOut;
        const QString whyNot = Test::ensureContainerImages(&imagesOut);
        if (!whyNot.isEmpty())
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(whyNot);
        qInfo().noquote() << imagesOut.trimmed();

        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobs"), QStringLiteral("config/trainyard"),
            QStringLiteral("shared") }));
        qunsetenv("TRAINYARD_TOKEN");
        // A Slurm cluster nobody runs: only for the refusal of images on a cluster (see slurmRefusesImages).
        QFile clusters(path(QStringLiteral("config/trainyard/clusters.yaml")));
        QVERIFY(clusters.open(QIODevice::WriteOnly));
        clusters.write(QStringLiteral("clusters:\n- name: nocluster\n  slurmrestd: http://127.0.0.1:9\n  user: nobody\n"
                                      "  token: x\n  partition: debug\n  sharedDir: %1\n")
                           .arg(path(QStringLiteral("shared")))
                           .toUtf8());
        clusters.close();
        QVERIFY(connectExecutor());
    }

    void cleanupTestCase()
    {
        const qint64 pid = ExecutorLocator::readRuntimeFile(nullptr).pid;
        if (pid > 0) {
            ::kill(static_cast<pid_t>(pid), SIGTERM);
            QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 30000);
        }
        QTRY_VERIFY2_WITH_TIMEOUT(ourContainers().isEmpty(), qPrintable(ourContainers().join(QLatin1Char('\n'))), 30000);
    }

    /// The replica contract inside containers: every variable, the arguments after the image, PID 1 an init,
    /// host networking between master and workers, the job dir writable at its own path, nothing left after.
    void contract()
    {
        const QString id = QStringLiteral("ct_contract");
        const ApiResult<Job> created = m_client->createJobBlocking(probeJob(id, QStringLiteral("contract"), 2));
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(id), 120000);
        QCOMPARE(job(id).state, JobState::Succeeded);
        const QString dir = jobDir(id);
        QStringList masterAddress;
        for (const char* task : { "master-0", "worker-0", "worker-1" }) {
            QFile f(dir + QStringLiteral("/contract/") + QLatin1String(task) + QStringLiteral(".json"));
            QVERIFY2(f.open(QIODevice::ReadOnly), task);
            const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
            const QJsonObject env = o.value(QLatin1String("env")).toObject();
            // gcloud's order: the job's args, then --job-dir, to the command that replaced the entrypoint.
            QCOMPARE(o.value(QLatin1String("argv")).toVariant().toStringList(),
                (QStringList { QStringLiteral("contract"), QStringLiteral("--job-dir"), dir }));
            const QJsonObject tf = QJsonDocument::fromJson(env.value(QLatin1String("TF_CONFIG")).toString().toUtf8()).object();
            const QString type = tf.value(QLatin1String("task")).toObject().value(QLatin1String("type")).toString();
            QCOMPARE(type + QLatin1Char('-') + QString::number(tf.value(QLatin1String("task")).toObject().value(QLatin1String("index")).toInt()),
                QLatin1String(task));
            QCOMPARE(tf.value(QLatin1String("cluster")).toObject().value(QLatin1String("worker")).toArray().size(), 2);
            masterAddress << tf.value(QLatin1String("cluster")).toObject().value(QLatin1String("master")).toArray().first().toString();
            QCOMPARE(env.value(QLatin1String("CLUSTER_SPEC")), env.value(QLatin1String("TF_CONFIG")));
            QCOMPARE(env.value(QLatin1String("CLOUD_ML_JOB_ID")).toString(), id);
            QVERIFY(env.value(QLatin1String("CLOUD_ML_TRIAL_ID")).isNull());
            QCOMPARE(env.value(QLatin1String("WORLD_SIZE")).toString(), QStringLiteral("3"));
            QCOMPARE(env.value(QLatin1String("RANK")).toString(),
                type == QLatin1String("master") ? QStringLiteral("0") : QString::number(QByteArray(task).back() - '0' + 1));
            QCOMPARE(env.value(QLatin1String("CUDA_VISIBLE_DEVICES")).toString(), QString());
            QCOMPARE(env.value(QLatin1String("OMP_NUM_THREADS")).toString(), QStringLiteral("4"));
            QCOMPARE(env.value(QLatin1String("PYTHONUNBUFFERED")).toString(), QStringLiteral("1"));
            QVERIFY(env.value(QLatin1String("PYTHONPATH")).isNull()); // the image's own, not a staging folder
            QVERIFY(env.value(QLatin1String("TRAINYARD_JOB_FOLDER")).toString().startsWith(m_root.path()));
            // The hypertune file is in the replica's folder, mounted at the same path: the executor reads it.
            QVERIFY(QFile::exists(env.value(QLatin1String("CLOUD_ML_HP_METRIC_FILE")).toString()));
            // --init: PID 1 is podman's init (catatonit, installed as podman-init), so SIGTERM reaches the trainer.
            const QString pid1 = o.value(QLatin1String("pid1")).toString();
            QVERIFY2(pid1 == QLatin1String("catatonit") || pid1 == QLatin1String("podman-init"), qPrintable(pid1));
            if (type == QLatin1String("master"))
                QCOMPARE(o.value(QLatin1String("peers")).toVariant().toStringList(),
                    (QStringList { QStringLiteral("worker-0"), QStringLiteral("worker-1") }));
            else
                QCOMPARE(o.value(QLatin1String("peers")).toVariant().toStringList(), QStringList { QStringLiteral("ack") });
        }
        QCOMPARE(masterAddress.size(), 3);
        QVERIFY(masterAddress.at(0) == masterAddress.at(1) && masterAddress.at(1) == masterAddress.at(2));
        const QString logs = logText(id);
        for (const char* line : { "master-replica-0: probe: contract master-0 started", "worker-replica-1: probe: worker-1 done" })
            QVERIFY2(logs.contains(QLatin1String(line)), qPrintable(logs));
        QTRY_VERIFY2_WITH_TIMEOUT(ourContainers().isEmpty(), qPrintable(ourContainers().join(QLatin1Char('\n'))), 30000);
    }

    /// The sample trainer packaged as an image (ENTRYPOINT python3 -m trainer.task), 1 master + 2 workers, with
    /// PyTorch from Debian inside: the user's args go to the entrypoint.
    void fashionMnistFromImage()
    {
        const QString id = QStringLiteral("ct_fmnist");
        Job j = Test::customJob(id, QString(), 2);
        j.trainingInput.pythonModule.clear();
        j.trainingInput.region = QStringLiteral("local");
        j.trainingInput.jobDir = jobDir(id);
        j.trainingInput.masterConfig = ReplicaConfig {};
        j.trainingInput.masterConfig->imageUri = TrainerImage;
        j.trainingInput.args = { QStringLiteral("--epochs"), QStringLiteral("1") };
        const ApiResult<Job> created = m_client->createJobBlocking(j);
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(id), 480000);
        const QString logs = logText(id);
        QVERIFY2(job(id).state == JobState::Succeeded, qPrintable(logs.right(4000)));
        static const QRegularExpression accuracy(QStringLiteral("epoch 1 test_accuracy ([0-9.]+)"));
        const QRegularExpressionMatch m = accuracy.match(logs);
        QVERIFY2(m.hasMatch(), qPrintable(logs.right(4000)));
        qInfo("Fashion-MNIST from the image, 1 master + 2 workers, 1 epoch: test accuracy %s", qPrintable(m.captured(1)));
        QVERIFY2(m.captured(1).toDouble() >= 0.80, qPrintable(m.captured(1)));
        QVERIFY(QFile::exists(jobDir(id) + QStringLiteral("/checkpoints/ckpt-epoch-1.pt")));
        for (const char* task : { "worker-replica-0: ", "worker-replica-1: " })
            QVERIFY2(logs.contains(QLatin1String(task)), task);
    }

    /// gcloud's way through trainyardctl: --master-image-uri instead of a package and module, USER_ARGS and
    /// --job-dir to the image's entrypoint, logs streamed.
    void submitThroughCli()
    {
        const QString id = QStringLiteral("ct_cli");
        QProcess ctl;
        ctl.start(QStringLiteral(TRAINYARD_CTL_BIN),
            { QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"), id, QStringLiteral("--master-image-uri"),
                TrainerImage, QStringLiteral("--scale-tier"), QStringLiteral("basic"), QStringLiteral("--region"), QStringLiteral("local"),
                QStringLiteral("--job-dir"), jobDir(id), QStringLiteral("--stream-logs"), QStringLiteral("--"),
                QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--train-examples"), QStringLiteral("3000") });
        QVERIFY(ctl.waitForFinished(300000));
        const QString out = QString::fromUtf8(ctl.readAllStandardOutput());
        const QString err = QString::fromUtf8(ctl.readAllStandardError());
        QVERIFY2(ctl.exitCode() == 0, qPrintable(err.right(3000)));
        QVERIFY(out.contains(QLatin1String("state: SUCCEEDED")));
        QVERIFY2(err.contains(QLatin1String("epoch 1 test_accuracy ")), qPrintable(err.right(3000)));
        QCOMPARE(job(id).trainingInput.masterConfig->imageUri, TrainerImage);
        QVERIFY(job(id).trainingInput.pythonModule.isEmpty());
        // A package flag beside the image is refused before anything is sent.
        QProcess refused;
        refused.start(QStringLiteral(TRAINYARD_CTL_BIN),
            { QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"), QStringLiteral("ct_cli2"),
                QStringLiteral("--master-image-uri"), TrainerImage, QStringLiteral("--module-name"), QStringLiteral("trainer.task") });
        QVERIFY(refused.waitForFinished(60000));
        QVERIFY(refused.exitCode() != 0);
        QVERIFY2(refused.readAllStandardError().contains("argument --module-name: not allowed with --master-image-uri"), "");
    }

    /// Cancel: SIGTERM reaches the trainer through the client and the container's init; the job is CANCELLED
    /// and its containers are gone.
    void cancel()
    {
        const QString id = QStringLiteral("ct_cancel");
        QVERIFY(m_client->createJobBlocking(probeJob(id, QStringLiteral("gate"), 1)).ok());
        // Running, or ended before it ran (then the error says why at once, not after the timeout).
        QTRY_VERIFY_WITH_TIMEOUT((runningContainersOf(id).size() == 2 && allRunning(id, 2)) || isFinal(id), 120000);
        QVERIFY2(!isFinal(id), qPrintable(job(id).errorMessage));
        // A running container replica's pid is its container's init on the host (what resource samples measure:
        // its tree is the trainer), not the podman client's.
        for (const ReplicaInfo& r : replicas(id)) {
            QFile comm(QStringLiteral("/proc/%1/comm").arg(r.pid));
            QVERIFY2(comm.open(QIODevice::ReadOnly), qPrintable(r.taskName));
            const QByteArray name = comm.readAll().trimmed();
            QVERIFY2(name == "catatonit" || name == "podman-init", name.constData());
        }
        QVERIFY(m_client->cancelJobBlocking(id).ok());
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(id), 60000);
        QCOMPARE(job(id).state, JobState::Cancelled);
        QVERIFY(runningContainersOf(id).isEmpty());
        QTRY_VERIFY2_WITH_TIMEOUT(ourContainers().isEmpty(), qPrintable(ourContainers().join(QLatin1Char('\n'))), 30000);
    }

    /// A replica killed by a signal inside its container (exit 137) is a retryable failure: the cluster
    /// restarts and succeeds; exit 3 is a permanent failure naming the replica.
    void crashRestartAndFailure()
    {
        const QString crash = QStringLiteral("ct_crash");
        QVERIFY(m_client->createJobBlocking(probeJob(crash, QStringLiteral("crash"), 1)).ok());
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(crash), 180000);
        QVERIFY2(job(crash).state == JobState::Succeeded, qPrintable(logText(crash).right(3000)));
        const QList<ReplicaInfo> list = replicas(crash);
        QVERIFY(!list.isEmpty());
        QVERIFY(std::any_of(list.cbegin(), list.cend(), [](const ReplicaInfo& r) { return r.restarts >= 1; }));
        QVERIFY(logText(crash).contains(QLatin1String("probe: master-0 crashes")));

        const QString fail = QStringLiteral("ct_fail");
        QVERIFY(m_client->createJobBlocking(probeJob(fail, QStringLiteral("fail"), 0)).ok());
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(fail), 120000);
        const Job failed = job(fail);
        QCOMPARE(failed.state, JobState::Failed);
        QVERIFY2(failed.errorMessage.contains(QLatin1String("The replica master 0 exited with a non-zero status of 3")),
            qPrintable(failed.errorMessage));
        QTRY_VERIFY2_WITH_TIMEOUT(ourContainers().isEmpty(), qPrintable(ourContainers().join(QLatin1Char('\n'))), 30000);
    }

    /// An image that is not in the local store is refused at create, by name, on the field that names it.
    void missingImage()
    {
        Job j = probeJob(QStringLiteral("ct_missing"), QStringLiteral("gate"), 1);
        j.trainingInput.workerConfig = ReplicaConfig {};
        j.trainingInput.workerConfig->imageUri = QStringLiteral("localhost/no-such-image:1");
        const ApiResult<Job> r = m_client->createJobBlocking(j);
        QVERIFY(!r.ok());
        QCOMPARE(r.error.httpStatus, 400);
        QCOMPARE(r.error.status, QStringLiteral("INVALID_ARGUMENT"));
        QCOMPARE(r.error.violations.size(), 1);
        QCOMPARE(r.error.violations.first().field, QStringLiteral("trainingInput.workerConfig.imageUri"));
        QVERIFY2(r.error.violations.first().description.contains(QLatin1String("localhost/no-such-image:1")),
            qPrintable(r.error.violations.first().description));
        QVERIFY(!m_client->getJobBlocking(QStringLiteral("ct_missing")).ok());
    }

    /// A job with images whose region names a Slurm cluster is refused at create, clearly: Trainyard does not pass
    /// images to Slurm's container support.
    void slurmRefusesImages()
    {
        Job j = probeJob(QStringLiteral("ct_slurm"), QStringLiteral("gate"), 0);
        j.trainingInput.region = QStringLiteral("nocluster");
        j.trainingInput.jobDir = path(QStringLiteral("shared/ct_slurm"));
        const ApiResult<Job> r = m_client->createJobBlocking(j);
        QVERIFY(!r.ok());
        QCOMPARE(r.error.httpStatus, 400);
        QStringList fields;
        for (const FieldViolation& v : r.error.violations)
            fields << v.field;
        QVERIFY2(fields.contains(QStringLiteral("trainingInput.region")), qPrintable(fields.join(QLatin1Char(','))));
        for (const FieldViolation& v : r.error.violations) {
            if (v.field == QLatin1String("trainingInput.region"))
                QVERIFY2(v.description.contains(QLatin1String("do not run on the Slurm cluster nocluster")), qPrintable(v.description));
        }
    }

    /// The executor SIGKILLed mid-job: its podman clients die with it (PR_SET_PDEATHSIG), the containers keep
    /// running under conmon; the next executor removes them (found by label) before it restarts the job, which
    /// then succeeds, and nothing of the job is left.
    void executorKilledMidJob()
    {
        const QString id = QStringLiteral("ct_executor_kill");
        QVERIFY(m_client->createJobBlocking(probeJob(id, QStringLiteral("gate"), 1)).ok());
        // Running, or ended before it ran (then the error says why at once, not after the timeout).
        QTRY_VERIFY_WITH_TIMEOUT((runningContainersOf(id).size() == 2 && allRunning(id, 2)) || isFinal(id), 120000);
        QVERIFY2(!isFinal(id), qPrintable(job(id).errorMessage));
        const qint64 executor = ExecutorLocator::readRuntimeFile(nullptr).pid;
        QVERIFY(executor > 0);
        QVERIFY(::kill(static_cast<pid_t>(executor), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(executor), 30000);
        // The orphans: still running without their clients.
        QCOMPARE(runningContainersOf(id).size(), 2);
        const QString before = podman({ QStringLiteral("ps"), QStringLiteral("-q"), QStringLiteral("--no-trunc"),
            QStringLiteral("--filter"), QStringLiteral("label=io.trainyard.job=") + id });
        QVERIFY(connectExecutor());
        QVERIFY(m_endpoint.pid != executor);
        // Restarted with new containers (other IDs): the orphans were removed, not adopted twice.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QStringList now = podman({ QStringLiteral("ps"), QStringLiteral("-q"), QStringLiteral("--no-trunc"),
                    QStringLiteral("--filter"), QStringLiteral("label=io.trainyard.job=") + id })
                                            .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                return now.size() == 2 && !before.contains(now.first()) && !before.contains(now.last());
            }(),
            120000);
        QFile release(jobDir(id) + QStringLiteral("/release"));
        QVERIFY(release.open(QIODevice::WriteOnly));
        release.close();
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(id), 120000);
        QCOMPARE(job(id).state, JobState::Succeeded);
        QTRY_VERIFY2_WITH_TIMEOUT(ourContainers().isEmpty(), qPrintable(ourContainers().join(QLatin1Char('\n'))), 30000);
    }
};

QTEST_GUILESS_MAIN(TestContainers)
#include "tst_containers.moc"
