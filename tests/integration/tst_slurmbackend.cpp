// SPDX-License-Identifier: GPL-2.0-or-later
// The Scheduler with a SlurmBackend on the 4-node Slurm 22.05 cluster of packaging/slurm-testcluster.sh (found
// running, or started and stopped again): jobs whose region names the cluster run there as one het job, with the
// test trainers of tests/integration/trainers staged by pip into the cluster's shared folder. Without root or
// without the Slurm packages the test skips, saying so; under TRAINYARD_REQUIRE_ALL=1 it fails.
#include "builtinalgorithm.h"
#include "clusterconfig.h"
#include "ctlrun.h"
#include "executorenvironment.h"
#include "executorprocess.h"
#include "jobkeys.h"
#include "jobstore.h"
#include "logstore.h"
#include "requireddependencies.h"
#include "scheduler.h"
#include "slurmbackend.h"
#include "slurmrestclient.h"
#include "slurmtestcluster.h"
#include "tuningjobs.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <QScopeGuard>

#include <functional>
#include <memory>

using namespace Trainyard;
using namespace Trainyard::Slurm;

namespace {

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
constexpr int JobTimeoutMs = 120000;

/// A trainyard-executor process of a test (its XDG folders under `root`, `clustersYaml` as its clusters.yaml),
/// spoken to over its HTTP API. start() may be called again after kill(): same folders, same data.
class ClusterExecutor : public Test::ExecutorProcess {
public:
    ClusterExecutor(const QString& root, const QByteArray& clustersYaml)
        : Test::ExecutorProcess(root)
    {
        QDir().mkpath(root + QStringLiteral("/config/trainyard"));
        QFile yaml(root + QStringLiteral("/config/trainyard/clusters.yaml"));
        if (yaml.open(QIODevice::WriteOnly))
            yaml.write(clustersYaml);
    }

    /// One API call: the HTTP status (0: no answer in 30 s) and the JSON body.
    std::pair<int, QJsonObject> send(const QByteArray& verb, const QString& pathAndQuery, const QJsonObject& body = {})
    {
        QUrl u = url();
        const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
        u.setPath(pathAndQuery.left(q));
        if (q >= 0)
            u.setQuery(pathAndQuery.mid(q + 1));
        QNetworkRequest request(u);
        request.setRawHeader("Authorization", "Bearer " + token());
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply* reply = m_nam.sendCustomRequest(
            request, verb, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(30000);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QJsonObject json = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return { status, json };
    }

    /// The messages of a job's log for `task` (all of them: up to 10,000), oldest first.
    QStringList messages(const QString& jobId, const QString& task)
    {
        QStringList list;
        const auto [status, json] = send(
            "GET", QStringLiteral("/v1/projects/local/jobs/%1/logs?taskName=%2&pageSize=10000").arg(jobId, task));
        for (const QJsonValue& e : json.value(QStringLiteral("entries")).toArray())
            list << e.toObject().value(QStringLiteral("message")).toString();
        return list;
    }

    QString state(const QString& jobId)
    {
        return send("GET", QStringLiteral("/v1/projects/local/jobs/") + jobId)
            .second.value(QStringLiteral("state"))
            .toString();
    }

private:
    QNetworkAccessManager m_nam;
};

using Test::CtlRun;

/// A run of trainyardctl against `executor`.
CtlRun runCtl(const ClusterExecutor& executor, const QStringList& args)
{
    return Test::runCtl(executor.environment(), args, 90000);
}

/// How many times each of `prefix` + "0" … `prefix` + (n-1) occurs in `lines` (a list of n counts; lines that
/// are not one of them are ignored).
QList<int> countNumbered(const QStringList& lines, const QString& prefix, int n)
{
    QList<int> counts(n, 0);
    for (const QString& line : lines) {
        if (!line.startsWith(prefix))
            continue;
        bool ok = false;
        const int i = line.mid(prefix.size()).toInt(&ok);
        if (ok && i >= 0 && i < n)
            ++counts[i];
    }
    return counts;
}

} // namespace

class TestSlurmBackend : public QObject {
    Q_OBJECT

private:
    Test::SlurmTestCluster m_cluster;
    QTemporaryDir m_tmp;
    ClusterConfig m_config;
    QString m_prefix; ///< job IDs of this test process: folders under sharedDir outlive it otherwise
    std::unique_ptr<JobStore> m_store;
    std::unique_ptr<LogStore> m_logs;
    std::unique_ptr<Scheduler> m_scheduler;
    std::unique_ptr<SlurmRestClient> m_client;
    QStringList m_jobIds;

    /// This environment with the test cluster's SLURM_CONF, for its command-line tools.
    QProcessEnvironment slurmEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!m_config.slurmConf.isEmpty())
            env.insert(QStringLiteral("SLURM_CONF"), m_config.slurmConf);
        return env;
    }

    /// `scontrol show job JOBID` as the cluster shows it (empty when it cannot run).
    QString scontrolShowJob(qint64 jobId) const
    {
        QProcess show;
        show.setProcessEnvironment(slurmEnvironment());
        show.start(
            QStringLiteral("scontrol"), { QStringLiteral("show"), QStringLiteral("job"), QString::number(jobId) });
        show.waitForFinished(30000);
        return QString::fromUtf8(show.readAllStandardOutput());
    }

    /// Holds every node of the partition with a job of the cluster's user until `unblock` exists (so that the
    /// next job waits in Slurm's queue); returns once that job runs.
    void holdAllNodes(const QString& unblock)
    {
        QProcess sbatch;
        sbatch.setProcessEnvironment(slurmEnvironment());
        sbatch.start(QStringLiteral("runuser"),
            { QStringLiteral("-u"), m_config.user, QStringLiteral("--"), QStringLiteral("sbatch"),
                QStringLiteral("--parsable"), QStringLiteral("--job-name=ty-blocker"),
                QStringLiteral("--partition=") + m_config.partition, QStringLiteral("--nodes=4"),
                QStringLiteral("--output=/dev/null"),
                QStringLiteral("--wrap=while [ ! -e %1 ]; do sleep 0.1; done").arg(unblock) });
        QVERIFY(sbatch.waitForFinished(30000));
        QVERIFY2(sbatch.exitCode() == 0, sbatch.readAllStandardError().constData());
        const qint64 blocker = sbatch.readAllStandardOutput().trimmed().split(';').first().toLongLong();
        QVERIFY(blocker > 0);
        QTRY_COMPARE_WITH_TIMEOUT(slurmState(blocker), QStringLiteral("RUNNING"), JobTimeoutMs);
    }

    QString jobFolder(const QString& id) const { return Test::localJob(id).folder(m_config.sharedDir); }
    QString jobDir(const QString& id) const { return m_config.sharedDir + QStringLiteral("/jobdirs/") + id; }

    QString submit(const QString& name, const QString& module, int workers, int ps = 0,
        const std::function<void(Job&)>& adjust = {})
    {
        const QString id = m_prefix + name;
        Job job = Test::customJob(id, module, workers, ps);
        job.trainingInput.region = m_config.name;
        job.trainingInput.packageUris = QStringList { TrainerDir };
        // Not made here: the scheduler makes it and hands it to the cluster's user (this test runs as root, the
        // replicas as slurmci), as for a user's job.
        job.trainingInput.jobDir = jobDir(id);
        if (adjust)
            adjust(job);
        QString error;
        if (!m_store->insert(job, &error))
            qWarning("insert: %s", qPrintable(error));
        m_jobIds << id;
        m_scheduler->submit(JobStore::defaultProject(), *m_store->job(Test::localJob(id)));
        return id;
    }

    JobState state(const QString& id) const
    {
        const std::optional<Job> job = m_store->job(Test::localJob(id));
        return job ? job->state : JobState::StateUnspecified;
    }

    QString errorMessage(const QString& id) const
    {
        const std::optional<Job> job = m_store->job(Test::localJob(id));
        return job ? job->errorMessage : QString();
    }

    QStringList messages(const QString& id, const QString& task) const
    {
        QStringList list;
        for (const LogEntry& e : m_logs->read(Test::localJob(id), task, QString(), 0, 100000))
            list << e.message;
        return list;
    }

    qint64 slurmJobId(const QString& id) const
    {
        QFile f(jobFolder(id) + QStringLiteral("/slurm/slurm-job-id"));
        return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toLongLong() : 0;
    }

    /// The Slurm job's leader state as slurmrestd reports it now ("" when unknown).
    QString slurmState(qint64 jobId)
    {
        std::optional<Result<QList<JobComponent>>> answer;
        m_client->job(jobId, this, [&answer](const Result<QList<JobComponent>>& r) { answer.emplace(r); });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 30000); }();
        if (!answer || !answer->ok() || answer->value().isEmpty())
            return QString();
        return answer->value().first().state;
    }

    bool replicasRunning(const QString& id) const
    {
        const QList<ReplicaInfo> replicas = m_scheduler->replicas(Test::localJob(id));
        return !replicas.isEmpty() && std::all_of(replicas.cbegin(), replicas.cend(), [](const ReplicaInfo& r) {
            return r.state == ReplicaState::Running;
        });
    }

    /// The het job IDs (the leader's, or the job's own for a plain job) of every job slurmctld knows named
    /// `name`, in order of appearance.
    QList<qint64> slurmJobsNamed(const QString& name)
    {
        std::optional<Result<QList<JobComponent>>> answer;
        m_client->jobs(this, [&answer](const Result<QList<JobComponent>>& r) { answer.emplace(r); });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 30000); }();
        QList<qint64> ids;
        if (!answer || !answer->ok())
            return { -1 };
        for (const JobComponent& c : answer->value()) {
            const qint64 leader = c.hetJobId > 0 ? c.hetJobId : c.jobId;
            if (c.name == name && !ids.contains(leader))
                ids << leader;
        }
        return ids;
    }

    /// A job stored as RUNNING whose cluster a previous executor launched as Slurm job `slurmJobId` (one this
    /// cluster does not know: it vanished), with what its replicas left in the slurm folder: `stdoutLines` per
    /// task in logs/<task>.stdout, a started file each, and an exit file with `exitCodes[task]` where given.
    QString leftByPreviousExecutor(const QString& name, qint64 slurmJobId, const QMap<QString, QByteArray>& stdoutLines,
        const QMap<QString, int>& exitCodes, qint64 launchedUs)
    {
        const QString id = m_prefix + name;
        Job job = Test::customJob(id, QStringLiteral("tytest.ok"), 2);
        job.state = JobState::Running;
        job.startTime = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        job.trainingInput.region = m_config.name;
        job.trainingInput.jobDir = jobDir(id);
        QString error;
        if (!m_store->insert(job, &error))
            qWarning("insert: %s", qPrintable(error));
        m_jobIds << id;
        const QString slurm = jobFolder(id) + QStringLiteral("/slurm");
        for (const char* sub : { "logs", "started", "exit" })
            QDir().mkpath(slurm + QLatin1Char('/') + QLatin1String(sub));
        auto write = [](const QString& path, const QByteArray& data) {
            QFile f(path);
            if (f.open(QIODevice::WriteOnly))
                f.write(data);
        };
        write(slurm + QStringLiteral("/slurm-job-id"), QByteArray::number(slurmJobId) + '\n');
        write(slurm + QStringLiteral("/launch.ready"), QByteArray::number(launchedUs) + '\n');
        QByteArray placement;
        int node = 1;
        for (const QString& task : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
                 QStringLiteral("worker-replica-1") }) {
            placement
                += task.toUtf8() + " node" + QByteArray::number(node) + ' ' + QByteArray::number(20000 + node) + '\n';
            write(slurm + QStringLiteral("/started/") + task, "node" + QByteArray::number(node) + " 4242\n");
            write(slurm + QStringLiteral("/logs/") + task + QStringLiteral(".stdout"), stdoutLines.value(task));
            if (exitCodes.contains(task))
                write(slurm + QStringLiteral("/exit/") + task, QByteArray::number(exitCodes.value(task)) + '\n');
            ++node;
        }
        write(slurm + QStringLiteral("/placement"), placement);
        return id;
    }

    /// A new scheduler on the same store, logs and cluster, as an executor that starts again; recover() runs.
    void restartScheduler()
    {
        m_scheduler.reset();
        HostInventory host;
        host.cpus = 2;
        host.memoryBytes = qint64(4) << 30;
        m_scheduler = std::make_unique<Scheduler>(
            m_store.get(), m_logs.get(), host, m_tmp.path() + QStringLiteral("/data/trainyard"));
        m_scheduler->setGracePeriodSeconds(3);
        m_scheduler->addBackend(std::make_unique<SlurmBackend>(m_config));
        m_scheduler->recover();
    }

    QString dump(const QString& id) const
    {
        return QStringLiteral("state %1, error '%2'; service log:\n%3")
            .arg(jobStateName(state(id)), errorMessage(id),
                messages(id, QStringLiteral("service")).join(QLatin1Char('\n')));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!m_cluster.acquire())
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(m_cluster.reason());
        QVERIFY(m_tmp.isValid());
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_tmp.path() + QStringLiteral("/run")));
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_tmp.path() + QStringLiteral("/data")));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.path() + QStringLiteral("/config")));
        QStringList errors;
        const std::optional<QList<ClusterConfig>> clusters
            = ClusterConfig::parse(m_cluster.clustersYaml(), QStringLiteral("clusters.yaml"), &errors);
        QVERIFY2(clusters && !clusters->isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        m_config = clusters->first();
        m_prefix = QStringLiteral("slurmbackend_%1_%2_")
                       .arg(QCoreApplication::applicationPid())
                       .arg(QDateTime::currentSecsSinceEpoch());

        const QString dataDir = m_tmp.path() + QStringLiteral("/data/trainyard");
        QVERIFY(QDir().mkpath(dataDir));
        m_store = std::make_unique<JobStore>();
        QString error;
        QVERIFY2(m_store->open(dataDir + QStringLiteral("/trainyard.sqlite"), &error), qPrintable(error));
        m_logs = std::make_unique<LogStore>(dataDir);
        HostInventory host;
        host.cpus = 2;
        host.memoryBytes = qint64(4) << 30;
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), host, dataDir);
        m_scheduler->setGracePeriodSeconds(3);
        m_scheduler->addBackend(std::make_unique<SlurmBackend>(m_config));
        m_client = std::make_unique<SlurmRestClient>(m_config);
    }

    void cleanupTestCase()
    {
        m_scheduler.reset(); // cancels what is left of this test's Slurm jobs
        m_client.reset();
        for (const QString& id : std::as_const(m_jobIds)) {
            QDir(jobFolder(id)).removeRecursively();
            QDir(jobDir(id)).removeRecursively();
        }
        m_cluster.release();
    }

    /// 1 master + 2 workers: three distinct nodes, TF_CONFIG with their node names, TCP to the master.
    void clusterSucceeds()
    {
        const QString id = submit(QStringLiteral("tcp"), QStringLiteral("tytest.tcp_cluster"), 2);
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));

        QSet<QString> hosts;
        const QList<ReplicaInfo> replicas = m_scheduler->replicas(Test::localJob(id));
        QCOMPARE(replicas.size(), 3);
        for (const ReplicaInfo& r : replicas) {
            QVERIFY2(r.address.startsWith(QLatin1String("node")), qPrintable(r.address));
            hosts.insert(r.address.section(QLatin1Char(':'), 0, 0));
        }
        QCOMPARE(hosts.size(), 3);

        const QString master = messages(id, QStringLiteral("master-replica-0")).join(QLatin1Char('\n'));
        QVERIFY2(master.contains(QLatin1String("master-replica-0: all 2 peers connected")), qPrintable(master));
        for (const QString& task : { QStringLiteral("worker-replica-0"), QStringLiteral("worker-replica-1") }) {
            const QString log = messages(id, task).join(QLatin1Char('\n'));
            QVERIFY2(
                log.contains(task + QStringLiteral(" connected to the master: ack master-replica-0")), qPrintable(log));
            QVERIFY2(
                master.contains(QStringLiteral("master-replica-0 got ") + task + QLatin1Char('@')), qPrintable(master));
        }
        const qint64 jobId = slurmJobId(id);
        QVERIFY(jobId > 0);
        // The job dir, made by the executor (root here), was handed to the cluster's user, who runs the replicas.
        QCOMPARE(QFileInfo(jobDir(id)).owner(), m_config.user);
        // The job's log names the nodes, in replica order.
        const QString runsOn = QStringLiteral("Slurm job %1 runs on %2 of Slurm cluster '%3'.")
                                   .arg(jobId)
                                   .arg(replicas.at(0).node + QStringLiteral(", ") + replicas.at(1).node
                                           + QStringLiteral(", ") + replicas.at(2).node,
                                       m_config.name);
        QVERIFY2(messages(id, QStringLiteral("service")).contains(runsOn), qPrintable(dump(id)));
        QTRY_VERIFY_WITH_TIMEOUT(isFinishedState(slurmState(jobId)), 30000);
    }

    /// 1 master + 2 workers + 1 parameter server: four components on four distinct nodes, TF_CONFIG naming the
    /// parameter server; the master hears from all three peers.
    void parameterServerJob()
    {
        const QString id = submit(QStringLiteral("ps"), QStringLiteral("tytest.tcp_cluster"), 2, 1);
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));
        QSet<QString> hosts;
        for (const ReplicaInfo& r : m_scheduler->replicas(Test::localJob(id)))
            hosts.insert(r.address.section(QLatin1Char(':'), 0, 0));
        QCOMPARE(hosts.size(), 4);
        const QString master = messages(id, QStringLiteral("master-replica-0")).join(QLatin1Char('\n'));
        QVERIFY2(master.contains(QLatin1String("master-replica-0: all 3 peers connected")), qPrintable(master));
        QVERIFY2(messages(id, QStringLiteral("ps-replica-0"))
                     .join(QLatin1Char('\n'))
                     .contains(QLatin1String("\"ps\": [\"node")),
            qPrintable(messages(id, QStringLiteral("ps-replica-0")).join(QLatin1Char('\n'))));
    }

    /// The sample trainer (Fashion-MNIST, PyTorch DDP) as 1 master + 2 workers on three nodes, one epoch: it
    /// succeeds with a test accuracy of at least 0.80, every replica reporting the same.
    void fashionMnistOnCluster()
    {
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"), { QStringLiteral("-c"), QStringLiteral("import torch") });
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0
            || !QFileInfo::exists(QStringLiteral("/usr/share/datasets/fashion-mnist")))
            TRAINYARD_SKIP_OR_FAIL(
                "the sample trainer needs python3-torch and dataset-fashion-mnist (packaging/setup-deps.sh)");
        const QString id = submit(QStringLiteral("fmnist"), QStringLiteral("trainer.task"), 2, 0, [](Job& job) {
            job.trainingInput.packageUris = QStringList { QStringLiteral(TRAINYARD_SAMPLE_TRAINER) };
            job.trainingInput.args = { QStringLiteral("--epochs"), QStringLiteral("1") };
        });
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), 2 * JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));
        QSet<QString> hosts;
        for (const ReplicaInfo& r : m_scheduler->replicas(Test::localJob(id)))
            hosts.insert(r.address.section(QLatin1Char(':'), 0, 0));
        QCOMPARE(hosts.size(), 3);
        double accuracy = -1;
        for (const QString& line : messages(id, QStringLiteral("master-replica-0"))) {
            const qsizetype at = line.indexOf(QLatin1String("test_accuracy "));
            if (at >= 0)
                accuracy = line.mid(at + 14).section(QLatin1Char(' '), 0, 0).toDouble();
        }
        qInfo("Fashion-MNIST on the cluster, 1 + 2, 1 epoch: test accuracy %.4f", accuracy);
        QVERIFY2(accuracy >= 0.80, qPrintable(dump(id)));
        // Each replica's task script sampled its process tree on its node (the executor's metrics read these):
        // "<ns> <CPU ticks> <ticks/s> <RSS bytes>", a PyTorch trainer holding more than 100 MB.
        for (const QString& task : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-1") }) {
            QFile samples(jobFolder(id) + QStringLiteral("/slurm/resources/") + task);
            QVERIFY2(samples.open(QIODevice::ReadOnly), qPrintable(samples.fileName()));
            const QList<QByteArray> lines = samples.readAll().trimmed().split('\n');
            const QList<QByteArray> last = lines.last().split(' ');
            QCOMPARE(last.size(), 4);
            QVERIFY2(last.at(0).toLongLong() > 1700000000LL * 1000000000LL, lines.last().constData());
            QVERIFY2(last.at(1).toLongLong() > 0 && last.at(2).toLongLong() > 0, lines.last().constData());
            // Every sample is of a live tree (none of the exited replica, whose RSS reads 0), and the trainer
            // held more than 100 MB at some point.
            qint64 most = 0;
            for (const QByteArray& line : lines) {
                const qint64 rss = line.split(' ').value(3).toLongLong();
                QVERIFY2(rss > 0, line.constData());
                most = qMax(most, rss);
            }
            QVERIFY2(most > 100LL << 20, lines.last().constData());
        }
    }

    /// Distributed XGBoost (gcr.io/cloud-ml-algos/xgboost_dist, issue 29) on 1 master + 2 workers, each on its own
    /// node: the bundled package staged into the shared folder, XGBoost's tracker on the master, rows sharded. The
    /// model is byte for byte the one a single replica trains on the same files (tree_method hist; the package's
    /// README §6), run here beside the cluster.
    void distributedXgboostOnCluster()
    {
        QProcess probe;
        probe.start(
            QStringLiteral("/usr/bin/python3"), { QStringLiteral("-c"), QStringLiteral("import pandas, xgboost") });
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0)
            TRAINYARD_SKIP_OR_FAIL(
                "built-in algorithms need python3-pandas and python3-xgboost (packaging/setup-deps.sh)");
        // The breast-cancer table with class indices (no --preprocess in the distributed algorithm, as on the
        // service), where the nodes read it.
        const QString data = m_config.sharedDir + QStringLiteral("/data/") + m_prefix + QStringLiteral("bc");
        QVERIFY(QDir().mkpath(data));
        QFile::setPermissions(data,
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadOther
                | QFileDevice::ExeOther | QFileDevice::ReadGroup | QFileDevice::ExeGroup);
        QFile source(QStringLiteral(TRAINYARD_FIXTURES_DIR "/builtin/breast_cancer.csv"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QFile train(data + QStringLiteral("/train.csv")), validation(data + QStringLiteral("/validation.csv"));
        QVERIFY(train.open(QIODevice::WriteOnly) && validation.open(QIODevice::WriteOnly));
        int n = 0;
        for (const QByteArray& row : source.readAll().split('\n')) {
            if (row.trimmed().isEmpty())
                continue;
            const qsizetype comma = row.indexOf(',');
            (n++ < 400 ? train : validation)
                .write((row.left(comma) == "malignant" ? "1" : "0") + row.mid(comma) + '\n');
        }
        train.close();
        validation.close();
        const QStringList args { QStringLiteral("--training_data_path=") + train.fileName(),
            QStringLiteral("--validation_data_path=") + validation.fileName(),
            QStringLiteral("--objective=binary:logistic"), QStringLiteral("--tree_method=hist"),
            QStringLiteral("--num_boost_round=10") };
        const QString id = submit(QStringLiteral("xgbdist"), QString(), 2, 0, [&args](Job& job) {
            job.trainingInput.packageUris.clear();
            job.trainingInput.pythonModule.clear();
            if (!job.trainingInput.masterConfig)
                job.trainingInput.masterConfig = ReplicaConfig {};
            job.trainingInput.masterConfig->imageUri = QStringLiteral("gcr.io/cloud-ml-algos/xgboost_dist:latest");
            job.trainingInput.args = args;
        });
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), 2 * JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));
        QSet<QString> hosts;
        for (const ReplicaInfo& r : m_scheduler->replicas(Test::localJob(id)))
            hosts.insert(r.address.section(QLatin1Char(':'), 0, 0));
        QCOMPARE(hosts.size(), 3);
        const std::optional<Job> done = m_store->job(Test::localJob(id));
        QVERIFY(done && done->trainingOutput && done->trainingOutput->builtInAlgorithmOutput);
        QCOMPARE(done->trainingOutput->builtInAlgorithmOutput->modelPath, jobDir(id) + QStringLiteral("/model"));

        // The single replica, on this host, on the same files.
        QTemporaryDir single;
        QProcess one;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), BuiltInAlgorithms::packageDir());
        for (const char* v :
            { "TF_CONFIG", "CLOUD_ML_TRIAL_ID", "CLOUD_ML_HP_METRIC_FILE", "TRAINYARD_ALGORITHM_IMAGE" })
            env.remove(QLatin1String(v));
        one.setProcessEnvironment(env);
        one.setProcessChannelMode(QProcess::MergedChannels);
        one.start(QStringLiteral("/usr/bin/python3"),
            QStringList { QStringLiteral("-m"), QStringLiteral("trainyard_algorithms.xgboost") } + args
                + QStringList { QStringLiteral("--job-dir"), single.path() });
        QVERIFY(one.waitForFinished(300000));
        QVERIFY2(one.exitCode() == 0, one.readAll().right(3000).constData());
        QFile a(single.filePath(QStringLiteral("model/model.bst"))), b(jobDir(id) + QStringLiteral("/model/model.bst"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY2(a.readAll() == b.readAll(), "the cluster's 1 + 2 model differs from the single replica's");
    }

    /// A tuning study of 2 trials, 2 in parallel, on the cluster: each trial is a Slurm job of its own, both run at
    /// once (each holds until released), both succeed with their objective, and so does the study.
    void tuningStudyOnCluster()
    {
        HyperparameterSpec spec;
        spec.goal = QStringLiteral("MAXIMIZE");
        spec.params = { Test::integerParameter(QStringLiteral("n"), 1, 5) };
        spec.maxTrials = 2;
        spec.maxParallelTrials = 2;
        spec.hyperparameterMetricTag = QStringLiteral("score");
        const QString id = submit(QStringLiteral("study"), QStringLiteral("tytest.objective"), 0, 0, [&spec](Job& job) {
            job.trainingInput.hyperparameters = spec;
            job.trainingInput.args = { QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--hold"),
                QStringLiteral("release-{trial}") };
        });
        // Both trials run at the same time, each its own Slurm job.
        QTRY_VERIFY2_WITH_TIMEOUT(
            [&] {
                QSet<QString> running;
                for (const ReplicaInfo& r : m_scheduler->replicas(Test::localJob(id))) {
                    if (r.state == ReplicaState::Running)
                        running.insert(r.trialId);
                }
                return running.size() == 2;
            }(),
            qPrintable(dump(id)), JobTimeoutMs);
        const QStringList slurmJobs = m_scheduler->clusterJobIds(Test::localJob(id));
        QCOMPARE(QSet<QString>(slurmJobs.begin(), slurmJobs.end()).size(), 2);
        for (const QString& trial : { QStringLiteral("1"), QStringLiteral("2") }) {
            QFile release(jobDir(id) + QStringLiteral("/release-") + trial);
            QVERIFY(release.open(QIODevice::WriteOnly));
        }
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));
        const Job job = *m_store->job(Test::localJob(id));
        QVERIFY(job.trainingOutput);
        QCOMPARE(job.trainingOutput->trials.size(), 2);
        for (const HyperparameterOutput& t : job.trainingOutput->trials) {
            QCOMPARE(t.state, JobState::Succeeded);
            QVERIFY(t.finalMetric && t.finalMetric->objectiveValue);
        }
    }

    /// A worker's exit 3 fails the job with the service's message; the other replicas are stopped.
    void replicaFailureFailsJob()
    {
        const QString id = submit(QStringLiteral("exit3"), QStringLiteral("tytest.fail_exit3"), 2);
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Failed, qPrintable(dump(id)));
        QVERIFY2(errorMessage(id).startsWith(QLatin1String("The replica worker 1 exited with a non-zero status of 3.")),
            qPrintable(errorMessage(id)));
        QVERIFY2(
            errorMessage(id).contains(QLatin1String("ValueError: bad input shard 7")), qPrintable(errorMessage(id)));
        const qint64 jobId = slurmJobId(id);
        QVERIFY(jobId > 0);
        QVERIFY(isFinishedState(slurmState(jobId)));
    }

    /// Cancel while the replicas run: CANCELLED, and the Slurm job is cancelled and over.
    void cancelStopsSlurmJob()
    {
        const QString id = submit(QStringLiteral("cancel"), QStringLiteral("tytest.sleeper"), 2);
        QTRY_VERIFY2_WITH_TIMEOUT(state(id) == JobState::Running, qPrintable(dump(id)), JobTimeoutMs);
        const qint64 jobId = slurmJobId(id);
        QVERIFY(jobId > 0);
        QCOMPARE(slurmState(jobId), QStringLiteral("RUNNING"));
        QVERIFY(m_scheduler->cancel(Test::localJob(id)));
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), 60000);
        QCOMPARE(state(id), JobState::Cancelled);
        // The job is final only once Slurm says so: nothing of it is left on the nodes.
        QCOMPARE(slurmState(jobId), QStringLiteral("CANCELLED"));
    }

    /// Cancel while the job waits in Slurm's queue (its replicas already let go, to start with the job): CANCELLED,
    /// the Slurm job is cancelled before it ran, and no replica ever ran.
    void cancelWhileQueued()
    {
        // In the job's job dir (made here first): removed with it by cleanupTestCase().
        const QString unblock = jobDir(m_prefix + QStringLiteral("cancel_queued")) + QStringLiteral("/unblock");
        QDir().mkpath(QFileInfo(unblock).path());
        auto release = qScopeGuard([&unblock] { QFile(unblock).open(QIODevice::WriteOnly); });
        holdAllNodes(unblock);
        if (QTest::currentTestFailed())
            return;
        const QString id = submit(QStringLiteral("cancel_queued"), QStringLiteral("tytest.sleeper"), 1);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(jobFolder(id) + QStringLiteral("/slurm/launch.ready")), JobTimeoutMs);
        const qint64 jobId = slurmJobId(id);
        QVERIFY(jobId > 0);
        QCOMPARE(slurmState(jobId), QStringLiteral("PENDING"));
        QCOMPARE(state(id), JobState::Preparing);
        // Why it waits, in the job's log, once Slurm has looked at it.
        const QString pending
            = QStringLiteral("Slurm job %1 is pending on Slurm cluster '%2': ").arg(jobId).arg(m_config.name);
        const auto toldWhy = [&] {
            const QStringList service = messages(id, QStringLiteral("service"));
            return std::any_of(
                service.cbegin(), service.cend(), [&](const QString& m) { return m.startsWith(pending); });
        };
        QTRY_VERIFY2_WITH_TIMEOUT(toldWhy(), qPrintable(dump(id)), 15000);
        QVERIFY(m_scheduler->cancel(Test::localJob(id)));
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), 60000);
        QCOMPARE(state(id), JobState::Cancelled);
        QCOMPARE(slurmState(jobId), QStringLiteral("CANCELLED"));
        QVERIFY2(
            !messages(id, QStringLiteral("service")).contains(QStringLiteral("Job is running.")), qPrintable(dump(id)));
        QVERIFY(QDir(jobFolder(id) + QStringLiteral("/slurm/started")).isEmpty());
        QFile(unblock).open(QIODevice::WriteOnly);
    }

    /// scheduling.maxRunningTime on a cluster: Slurm's time limit is what is left of it rounded up to minutes plus
    /// one (so that the job ends there even without an executor), and the executor cancels the job at the limit
    /// itself, with the service's message.
    void maxRunningTimeOnCluster()
    {
        const QString id = submit(QStringLiteral("maxrun"), QStringLiteral("tytest.sleeper"), 1, 0, [](Job& job) {
            job.trainingInput.scheduling = Scheduling {};
            job.trainingInput.scheduling->maxRunningTime = ProtoDuration(QStringLiteral("4s"));
        });
        QTRY_VERIFY_WITH_TIMEOUT(slurmJobId(id) > 0, JobTimeoutMs);
        const QString shown = scontrolShowJob(slurmJobId(id));
        QVERIFY2(shown.contains(QLatin1String("TimeLimit=00:02:00")), qPrintable(shown));
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QCOMPARE(state(id), JobState::Cancelled);
        QVERIFY2(errorMessage(id).contains(QLatin1String("scheduling.maxRunningTime (4s)")), qPrintable(dump(id)));
    }

    /// A worker killed by a signal is a retryable failure: the cluster is placed again (a new Slurm job) and the
    /// job succeeds.
    void killedWorkerRestartsCluster()
    {
        const QString id = submit(QStringLiteral("crash"), QStringLiteral("tytest.crash_once"), 2);
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));
        const QStringList service = messages(id, QStringLiteral("service"));
        QVERIFY2(service.contains(QStringLiteral("Restarting the cluster (restart 1 of 3).")),
            qPrintable(service.join(QLatin1Char('\n'))));
        const QString worker = messages(id, QStringLiteral("worker-replica-0")).join(QLatin1Char('\n'));
        QVERIFY2(worker.contains(QLatin1String("crashing on purpose")), qPrintable(worker));
    }

    /// One GPU per replica: Slurm allocates a `gpu` GRES on each node, and each replica sees its node's GPU (index
    /// 0 on every node of the test cluster) in CUDA_VISIBLE_DEVICES, not the spec's empty value.
    void gpuPerReplica()
    {
        const QString id = m_prefix + QStringLiteral("gpu");
        Job job = Test::customJob(id, QStringLiteral("tytest.ok"), 2);
        job.trainingInput.region = m_config.name;
        job.trainingInput.packageUris = QStringList { TrainerDir };
        job.trainingInput.jobDir = jobDir(id);
        job.trainingInput.masterConfig = ReplicaConfig {};
        job.trainingInput.masterConfig->acceleratorConfig = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
        job.trainingInput.workerConfig = job.trainingInput.masterConfig;
        QString error;
        QVERIFY2(m_store->insert(job, &error), qPrintable(error));
        m_jobIds << id;
        m_scheduler->submit(JobStore::defaultProject(), *m_store->job(Test::localJob(id)));
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));
        for (const QString& task : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
                 QStringLiteral("worker-replica-1") }) {
            QJsonObject contract;
            for (const QString& m : messages(id, task)) {
                if (m.startsWith(QLatin1String("CONTRACT ")))
                    contract = QJsonDocument::fromJson(m.mid(9).toUtf8()).object();
            }
            const QJsonValue cuda
                = contract.value(QLatin1String("env")).toObject().value(QLatin1String("CUDA_VISIBLE_DEVICES"));
            QVERIFY2(cuda.toString() == QLatin1String("0"),
                qPrintable(task + QStringLiteral(": ") + QString::fromUtf8(QJsonDocument(contract).toJson())));
        }
    }

    /// clusters.yaml's gpuTypes: NVIDIA_TESLA_T4 → t4 asks Slurm for `gpu:t4:1` on each node (the test cluster's
    /// nodes have that GRES) and runs; a GRES type no node has is refused by Slurm, and the job fails saying so.
    void gpuTypesMapToGres()
    {
        const Slurm::ClusterConfig plain = m_config;
        auto restore = qScopeGuard([this, plain] {
            m_config = plain;
            restartScheduler();
        });
        const auto gpuJob = [this](const QString& name) {
            return submit(name, QStringLiteral("tytest.ok"), 1, 0, [](Job& job) {
                job.trainingInput.masterConfig = ReplicaConfig {};
                job.trainingInput.masterConfig->acceleratorConfig
                    = AcceleratorConfig { 1, QStringLiteral("NVIDIA_TESLA_T4") };
                job.trainingInput.workerConfig = job.trainingInput.masterConfig;
            });
        };
        m_config.gpuTypes.insert(QStringLiteral("NVIDIA_TESLA_T4"), QStringLiteral("t4"));
        restartScheduler();
        const QString id = gpuJob(QStringLiteral("gres_t4"));
        QTRY_VERIFY_WITH_TIMEOUT(slurmJobId(id) > 0, JobTimeoutMs);
        const QString shown = scontrolShowJob(slurmJobId(id));
        QVERIFY2(shown.contains(QLatin1String("gpu:t4:1")), qPrintable(shown));
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));

        m_config.gpuTypes.insert(QStringLiteral("NVIDIA_TESLA_T4"), QStringLiteral("a100"));
        restartScheduler();
        const QString refused = gpuJob(QStringLiteral("gres_a100"));
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(refused)), qPrintable(dump(refused)), JobTimeoutMs);
        QCOMPARE(state(refused), JobState::Failed);
        QVERIFY2(errorMessage(refused).contains(QStringLiteral("'%1'").arg(m_config.name)), qPrintable(dump(refused)));
        qInfo("a GRES no node has: %s", qPrintable(errorMessage(refused)));
    }

    /// Executor shutdown cancels the run's Slurm job; the next executor's recover() restarts the job on the
    /// cluster (a new Slurm job, restart 1 of 3, counted in the job's folder under the shared folder).
    void shutdownAndRecover()
    {
        const QString id = submit(QStringLiteral("recover"), QStringLiteral("tytest.sleeper"), 1);
        QTRY_VERIFY2_WITH_TIMEOUT(state(id) == JobState::Running, qPrintable(dump(id)), JobTimeoutMs);
        const qint64 first = slurmJobId(id);
        QVERIFY(first > 0);
        const QString dataDir = m_tmp.path() + QStringLiteral("/data/trainyard");
        m_scheduler.reset(); // shutdown: stopAll cancels the Slurm job, the job stays RUNNING in the store
        QCOMPARE(state(id), JobState::Running);
        QTRY_VERIFY_WITH_TIMEOUT(isFinishedState(slurmState(first)), 30000);

        HostInventory host;
        host.cpus = 2;
        host.memoryBytes = qint64(4) << 30;
        m_scheduler = std::make_unique<Scheduler>(m_store.get(), m_logs.get(), host, dataDir);
        m_scheduler->setGracePeriodSeconds(3);
        m_scheduler->addBackend(std::make_unique<SlurmBackend>(m_config));
        m_scheduler->recover();
        QTRY_VERIFY2_WITH_TIMEOUT(slurmJobId(id) > first && replicasRunning(id), qPrintable(dump(id)), JobTimeoutMs);
        QFile restarts(jobFolder(id) + QStringLiteral("/restarts"));
        QVERIFY(restarts.open(QIODevice::ReadOnly));
        QCOMPARE(restarts.readAll().trimmed(), QByteArray("1"));
        const qint64 second = slurmJobId(id);
        QVERIFY(m_scheduler->cancel(Test::localJob(id)));
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), 60000);
        QCOMPARE(state(id), JobState::Cancelled);
        QCOMPARE(slurmState(second), QStringLiteral("CANCELLED"));
    }

    /// The executor SIGKILLed mid-job (1 master + 2 workers printing numbered lines for ~25 s) and started again on
    /// the same data: it takes over the same Slurm job (slurmctld knows one job of that name, not two; the job's log
    /// says it is running once and never restarted), the job succeeds, and every line of every replica, from
    /// before and after the restart, is in the job's log exactly once.
    void executorKilledReattaches()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        ClusterExecutor executor(root.path(), m_cluster.clustersYaml());
        QString error;
        QVERIFY2(executor.start(&error), qPrintable(error));
        const QString id = m_prefix + QStringLiteral("reattach");
        m_jobIds << id;
        constexpr int Ticks = 50;
        const QString type = QStringLiteral("n1-standard-4");
        const QJsonObject body { { QStringLiteral("jobId"), id },
            { QStringLiteral("trainingInput"),
                QJsonObject { { QStringLiteral("scaleTier"), QStringLiteral("CUSTOM") },
                    { QStringLiteral("masterType"), type }, { QStringLiteral("workerType"), type },
                    { QStringLiteral("workerCount"), QStringLiteral("2") },
                    { QStringLiteral("packageUris"), QJsonArray { TrainerDir } },
                    { QStringLiteral("pythonModule"), QStringLiteral("tytest.ticker") },
                    { QStringLiteral("args"),
                        QJsonArray { QStringLiteral("--ticks"), QString::number(Ticks), QStringLiteral("--interval"),
                            QStringLiteral("0.5") } },
                    { QStringLiteral("region"), m_config.name }, { QStringLiteral("jobDir"), jobDir(id) } } } };
        const auto [status, created] = executor.send("POST", QStringLiteral("/v1/projects/local/jobs"), body);
        QVERIFY2(status == 200, QJsonDocument(created).toJson().constData());

        const QStringList tasks = { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
            QStringLiteral("worker-replica-1") };
        // Mid-job: every replica has printed a few lines, none is near its end.
        auto ticksSeen = [&](const QString& task) {
            return countNumbered(executor.messages(id, task), task + QStringLiteral(" tick "), Ticks).count(1);
        };
        QTRY_VERIFY2_WITH_TIMEOUT(!executor.running()
                || std::all_of(tasks.cbegin(), tasks.cend(), [&](const QString& t) { return ticksSeen(t) >= 6; }),
            qPrintable(executor.state(id)), JobTimeoutMs);
        QVERIFY2(executor.running(), "the executor ended by itself");
        const qint64 jobId = slurmJobId(id);
        QVERIFY(jobId > 0);
        QCOMPARE(executor.state(id), QStringLiteral("RUNNING"));
        const int beforeKill = ticksSeen(tasks.first());

        const QDateTime killedAt = QDateTime::currentDateTimeUtc();
        executor.kill();
        QVERIFY(!executor.running());
        QCOMPARE(slurmState(jobId), QStringLiteral("RUNNING")); // the job did not die with the executor
        QVERIFY2(executor.start(&error), qPrintable(error));
        // Taken over, the replicas keep their start (their uptime does not begin again).
        const auto startedBeforeKill = [&] {
            const QJsonArray list = executor.send("GET", QStringLiteral("/v1/projects/local/jobs/%1/replicas").arg(id))
                                        .second.value(QStringLiteral("replicas"))
                                        .toArray();
            return list.size() == 3 && std::all_of(list.cbegin(), list.cend(), [&](const QJsonValue& r) {
                const QDateTime started = QDateTime::fromString(
                    r.toObject().value(QStringLiteral("startTime")).toString(), Qt::ISODateWithMs);
                return started.isValid() && started < killedAt;
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(startedBeforeKill(), 10000);

        QString state;
        QTRY_VERIFY2_WITH_TIMEOUT((state = executor.state(id)) == QLatin1String("SUCCEEDED")
                || state == QLatin1String("FAILED") || state == QLatin1String("CANCELLED"),
            qPrintable(state), JobTimeoutMs);
        const QStringList service = executor.messages(id, QStringLiteral("service"));
        const QString serviceText = service.join(QLatin1Char('\n'));
        QVERIFY2(state == QLatin1String("SUCCEEDED"), qPrintable(serviceText));

        // The same Slurm job throughout: not resubmitted.
        QCOMPARE(slurmJobId(id), jobId);
        QCOMPARE(slurmJobsNamed(QStringLiteral("trainyard-") + id), QList<qint64> { jobId });
        QVERIFY2(service.count(QStringLiteral("Job is running.")) == 1, qPrintable(serviceText));
        QVERIFY2(serviceText.contains(QLatin1String("took over the job's replicas where they run")),
            qPrintable(serviceText));
        QVERIFY2(!serviceText.contains(QLatin1String("Restarting the cluster")), qPrintable(serviceText));
        QVERIFY2(!serviceText.contains(QLatin1String("restarting it")), qPrintable(serviceText));
        QVERIFY(!QFile::exists(jobFolder(id) + QStringLiteral("/restarts")));

        // Every line once, from before the kill (beforeKill of them at least) and after it.
        QVERIFY(beforeKill < Ticks);
        for (const QString& task : tasks) {
            // The last lines may reach the log store's files a moment after the job's state: wait for them.
            QTRY_COMPARE_WITH_TIMEOUT(executor.messages(id, task).count(task + QStringLiteral(" done")), 1, 10000);
            const QStringList lines = executor.messages(id, task);
            QCOMPARE(countNumbered(lines, task + QStringLiteral(" tick "), Ticks), QList<int>(Ticks, 1));
            QCOMPARE(countNumbered(lines, task + QStringLiteral(" tock "), Ticks), QList<int>(Ticks, 1));
            QCOMPARE(lines.count(task + QStringLiteral(" done")), 1);
        }
    }

    /// The executor SIGKILLed while its job waits in Slurm's queue (every node held by another job), after it let the
    /// replicas go (they start with the job, without the executor): the next executor takes the queued Slurm job
    /// over instead of submitting it again, learns the nodes once it runs, and the job succeeds.
    void executorKilledWhileQueuedReattaches()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString id = m_prefix + QStringLiteral("queued");
        m_jobIds << id;
        // Made here, as this process (root, the executor's user): the executor hands it to the cluster's user.
        QDir().mkpath(jobDir(id));
        const QString unblock = jobDir(id) + QStringLiteral("/unblock");
        auto release = qScopeGuard([&unblock] { QFile(unblock).open(QIODevice::WriteOnly); });
        holdAllNodes(unblock);
        if (QTest::currentTestFailed())
            return;

        ClusterExecutor executor(root.path(), m_cluster.clustersYaml());
        QString error;
        QVERIFY2(executor.start(&error), qPrintable(error));
        const QString type = QStringLiteral("n1-standard-4");
        const QJsonObject body { { QStringLiteral("jobId"), id },
            { QStringLiteral("trainingInput"),
                QJsonObject { { QStringLiteral("scaleTier"), QStringLiteral("CUSTOM") },
                    { QStringLiteral("masterType"), type }, { QStringLiteral("workerType"), type },
                    { QStringLiteral("workerCount"), QStringLiteral("1") },
                    { QStringLiteral("packageUris"), QJsonArray { TrainerDir } },
                    { QStringLiteral("pythonModule"), QStringLiteral("tytest.ticker") },
                    { QStringLiteral("args"),
                        QJsonArray { QStringLiteral("--ticks"), QStringLiteral("12"), QStringLiteral("--interval"),
                            QStringLiteral("0.5") } },
                    { QStringLiteral("region"), m_config.name }, { QStringLiteral("jobDir"), jobDir(id) } } } };
        const auto [status, created] = executor.send("POST", QStringLiteral("/v1/projects/local/jobs"), body);
        QVERIFY2(status == 200, QJsonDocument(created).toJson().constData());
        const auto replicas = [&] {
            return executor.send("GET", QStringLiteral("/v1/projects/local/jobs/%1/replicas").arg(id))
                .second.value(QStringLiteral("replicas"))
                .toArray();
        };
        // Submitted and let go; queued behind the blocker, so no node is known yet.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(jobFolder(id) + QStringLiteral("/slurm/launch.ready")), JobTimeoutMs);
        const qint64 jobId = slurmJobId(id);
        QVERIFY(jobId > 0);
        QCOMPARE(slurmState(jobId), QStringLiteral("PENDING"));
        QCOMPARE(executor.state(id), QStringLiteral("PREPARING"));
        QCOMPARE(replicas().size(), 2);
        for (const QJsonValue& r : replicas()) {
            QVERIFY2(r.toObject().value(QStringLiteral("node")).toString().isEmpty(),
                QJsonDocument(r.toObject()).toJson().constData());
        }

        executor.kill();
        QVERIFY2(executor.start(&error), qPrintable(error));
        const QDateTime unblocked = QDateTime::currentDateTimeUtc();
        QFile(unblock).open(QIODevice::WriteOnly);
        // The nodes, once the job runs there.
        const auto onNodes = [&] {
            const QJsonArray list = replicas();
            return list.size() == 2 && std::all_of(list.cbegin(), list.cend(), [](const QJsonValue& r) {
                return r.toObject().value(QStringLiteral("state")).toString() == QLatin1String("RUNNING")
                    && r.toObject().value(QStringLiteral("node")).toString().startsWith(QLatin1String("node"));
            });
        };
        const auto ended = [](const QString& state) {
            return state == QLatin1String("SUCCEEDED") || state == QLatin1String("FAILED")
                || state == QLatin1String("CANCELLED");
        };
        QTRY_VERIFY2_WITH_TIMEOUT(onNodes() || ended(executor.state(id)), qPrintable(executor.state(id)), JobTimeoutMs);
        QVERIFY2(onNodes(), QJsonDocument(replicas()).toJson().constData());
        // Their uptime counts from when they started, after the queue, not from the job's start.
        for (const QJsonValue& r : replicas()) {
            const QDateTime started
                = QDateTime::fromString(r.toObject().value(QStringLiteral("startTime")).toString(), Qt::ISODateWithMs);
            QVERIFY2(started.isValid() && started >= unblocked.addMSecs(-5),
                QJsonDocument(r.toObject()).toJson().constData());
        }
        // The host's figures are this host's: the cluster's job is not among them.
        const QJsonObject host = executor.send("GET", QStringLiteral("/v1/projects/local/host")).second;
        QCOMPARE(host.value(QStringLiteral("runningJobs")).toInt(-1), 0);
        QCOMPARE(host.value(QStringLiteral("queuedJobs")).toInt(-1), 0);
        QString state;
        QTRY_VERIFY2_WITH_TIMEOUT(ended(state = executor.state(id)), qPrintable(state), JobTimeoutMs);
        const QString serviceText = executor.messages(id, QStringLiteral("service")).join(QLatin1Char('\n'));
        QVERIFY2(state == QLatin1String("SUCCEEDED"), qPrintable(serviceText));
        QCOMPARE(slurmJobsNamed(QStringLiteral("trainyard-") + id), QList<qint64> { jobId });
        QVERIFY2(serviceText.contains(QLatin1String("took over the job's replicas where they run")),
            qPrintable(serviceText));
        QVERIFY2(!serviceText.contains(QLatin1String("Restarting the cluster")), qPrintable(serviceText));
        // No line a replica wrote is lost across the restart, however loaded the machine (issue 26, item 8): every
        // line of its output files in the cluster's shared folder is in the job's log, once. The master's last is
        // "done"; a worker may be stopped before printing its own (the master's success ends the job, and under load
        // the worker can be a tick behind), so that the test asserted on the worker's "done" was the test's fault.
        QCOMPARE(
            executor.messages(id, QStringLiteral("master-replica-0")).count(QStringLiteral("master-replica-0 done")),
            1);
        for (const QString& task : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0") }) {
            QStringList written;
            for (const char* stream : { ".stdout", ".stderr" }) {
                QFile file(jobFolder(id) + QStringLiteral("/slurm/logs/") + task + QLatin1String(stream));
                QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
                written += QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            }
            QVERIFY2(written.size() >= 2, qPrintable(task));
            const QStringList logged = executor.messages(id, task);
            for (const QString& line : std::as_const(written))
                QVERIFY2(logged.count(line) == 1,
                    qPrintable(QStringLiteral("%1: \"%2\" is in the job's log %3 times (%4 lines written, %5 logged)")
                                   .arg(task, line)
                                   .arg(logged.count(line))
                                   .arg(written.size())
                                   .arg(logged.size())));
        }
    }

    /// A tuning study's trials are Slurm jobs of their own: the executor SIGKILLed while both of its 2 parallel
    /// trials run re-attaches to both (neither is submitted again), and the study ends SUCCEEDED with 2 trials.
    void executorKilledReattachesTrials()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        ClusterExecutor executor(root.path(), m_cluster.clustersYaml());
        QString error;
        QVERIFY2(executor.start(&error), qPrintable(error));
        const QString id = m_prefix + QStringLiteral("reattach_study");
        m_jobIds << id;
        const QJsonObject spec { { QStringLiteral("goal"), QStringLiteral("MAXIMIZE") },
            { QStringLiteral("hyperparameterMetricTag"), QStringLiteral("score") }, { QStringLiteral("maxTrials"), 2 },
            { QStringLiteral("maxParallelTrials"), 2 },
            { QStringLiteral("params"),
                QJsonArray { QJsonObject { { QStringLiteral("parameterName"), QStringLiteral("n") },
                    { QStringLiteral("type"), QStringLiteral("INTEGER") }, { QStringLiteral("minValue"), 1 },
                    { QStringLiteral("maxValue"), 5 } } } } };
        const QJsonObject body { { QStringLiteral("jobId"), id },
            { QStringLiteral("trainingInput"),
                QJsonObject { { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
                    { QStringLiteral("packageUris"), QJsonArray { TrainerDir } },
                    { QStringLiteral("pythonModule"), QStringLiteral("tytest.objective") },
                    { QStringLiteral("args"),
                        QJsonArray { QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--hold"),
                            QStringLiteral("release-{trial}") } },
                    { QStringLiteral("hyperparameters"), spec }, { QStringLiteral("region"), m_config.name },
                    { QStringLiteral("jobDir"), jobDir(id) } } } };
        const auto [status, created] = executor.send("POST", QStringLiteral("/v1/projects/local/jobs"), body);
        QVERIFY2(status == 200, QJsonDocument(created).toJson().constData());
        const auto runningTrials = [&] {
            QSet<QString> trials;
            const QJsonArray replicas
                = executor.send("GET", QStringLiteral("/v1/projects/local/jobs/%1/replicas").arg(id))
                      .second.value(QStringLiteral("replicas"))
                      .toArray();
            for (const QJsonValue& r : replicas) {
                if (r.toObject().value(QStringLiteral("state")).toString() == QLatin1String("RUNNING"))
                    trials.insert(r.toObject().value(QStringLiteral("trialId")).toString());
            }
            return trials.size();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(runningTrials() == 2, qPrintable(executor.state(id)), JobTimeoutMs);
        const QList<qint64> before = slurmJobsNamed(QStringLiteral("trainyard-") + id);
        QCOMPARE(before.size(), 2);

        executor.kill();
        QVERIFY(!executor.running());
        QVERIFY2(executor.start(&error), qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(runningTrials() == 2, qPrintable(executor.state(id)), JobTimeoutMs);
        for (const QString& trial : { QStringLiteral("1"), QStringLiteral("2") }) {
            QFile release(jobDir(id) + QStringLiteral("/release-") + trial);
            QVERIFY(release.open(QIODevice::WriteOnly));
        }
        QString state;
        QTRY_VERIFY2_WITH_TIMEOUT((state = executor.state(id)) == QLatin1String("SUCCEEDED")
                || state == QLatin1String("FAILED") || state == QLatin1String("CANCELLED"),
            qPrintable(state), JobTimeoutMs);
        const QString serviceText = executor.messages(id, QStringLiteral("service")).join(QLatin1Char('\n'));
        QVERIFY2(state == QLatin1String("SUCCEEDED"), qPrintable(serviceText));
        QCOMPARE(slurmJobsNamed(QStringLiteral("trainyard-") + id), before); // the same two Slurm jobs
        QVERIFY2(!serviceText.contains(QLatin1String("restarting it")), qPrintable(serviceText));
        const QJsonArray trials = executor.send("GET", QStringLiteral("/v1/projects/local/jobs/") + id)
                                      .second.value(QStringLiteral("trainingOutput"))
                                      .toObject()
                                      .value(QStringLiteral("trials"))
                                      .toArray();
        QCOMPARE(trials.size(), 2);
        for (const QJsonValue& t : trials) {
            QCOMPARE(t.toObject().value(QStringLiteral("state")).toString(), QStringLiteral("SUCCEEDED"));
            // The objective was read from the attached trial's master, as for one this executor launched.
            QVERIFY2(
                t.toObject().value(QStringLiteral("finalMetric")).toObject().contains(QStringLiteral("objectiveValue")),
                QJsonDocument(t.toObject()).toJson().constData());
        }
        QVERIFY2(serviceText.contains(QLatin1String("took over the trial's replicas where they run")),
            qPrintable(serviceText));
    }

    /// Re-attaching to a Slurm job that slurmctld no longer knows (ended and purged after MinJobAge while no
    /// executor ran): the replicas' exit files say how it ended (SUCCEEDED here), and their output is read on
    /// from the first line the log store does not hold yet.
    void vanishedJobEndsFromExitFiles()
    {
        const qint64 launchedUs = QDateTime::currentMSecsSinceEpoch() * 1000 - 5000000;
        QMap<QString, QByteArray> lines;
        QMap<QString, int> exits;
        for (const QString& task : { QStringLiteral("master-replica-0"), QStringLiteral("worker-replica-0"),
                 QStringLiteral("worker-replica-1") }) {
            lines.insert(task, task.toUtf8() + " line 0\n" + task.toUtf8() + " line 1\n" + task.toUtf8() + " line 2\n");
            exits.insert(task, 0);
        }
        const QString id = leftByPreviousExecutor(QStringLiteral("vanished_ok"), 999999990, lines, exits, launchedUs);
        // What the previous executor had stored of the master's output when it died: a line of an earlier placement
        // (before the launch: it does not count, else it would hide a line) and the first line of this one (the
        // next, half read, was only in its memory).
        QFile stored(m_tmp.path() + QStringLiteral("/data/trainyard/") + Test::localJob(id).name()
            + QStringLiteral("/logs/master-replica-0.jsonl"));
        QVERIFY(QDir().mkpath(QFileInfo(stored).path()));
        QVERIFY(stored.open(QIODevice::WriteOnly));
        for (const auto& [us, text] :
            { std::pair { launchedUs - 1000000, QStringLiteral("an earlier placement's line") },
                std::pair { launchedUs + 1000000, QStringLiteral("master-replica-0 line 0") } }) {
            const LogEntry e { us, QStringLiteral("INFO"), QStringLiteral("master-replica-0"), QString(), text,
                QStringLiteral("stdout") };
            stored.write(e.toJsonLine() + '\n');
        }
        stored.close();
        restartScheduler();
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), 60000);
        QVERIFY2(state(id) == JobState::Succeeded, qPrintable(dump(id)));
        for (const QString& task : lines.keys())
            QCOMPARE(countNumbered(messages(id, task), task + QStringLiteral(" line "), 3), QList<int>(3, 1));
        const QStringList service = messages(id, QStringLiteral("service"));
        QVERIFY2(service.join(QLatin1Char('\n')).contains(QLatin1String("took over the job's replicas")),
            qPrintable(service.join(QLatin1Char('\n'))));
        QVERIFY(!QFile::exists(jobFolder(id) + QStringLiteral("/restarts")));
    }

    /// The same without a replica's exit file: its end is unknown, so the job fails with a message naming the
    /// replica and the Slurm job, instead of staying RUNNING or running again.
    void vanishedJobWithoutExitFileFails()
    {
        const qint64 launchedUs = QDateTime::currentMSecsSinceEpoch() * 1000 - 5000000;
        QMap<QString, QByteArray> lines;
        lines.insert(QStringLiteral("worker-replica-1"), "worker-replica-1 line 0\n");
        const QMap<QString, int> exits { { QStringLiteral("worker-replica-0"), 0 } };
        const QString id = leftByPreviousExecutor(QStringLiteral("vanished_lost"), 999999991, lines, exits, launchedUs);
        restartScheduler();
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), 60000);
        QVERIFY2(state(id) == JobState::Failed, qPrintable(dump(id)));
        QVERIFY2(errorMessage(id).startsWith(QLatin1String("The replica master 0 was lost: Slurm cluster '")),
            qPrintable(errorMessage(id)));
        QVERIFY2(errorMessage(id).contains(QLatin1String("no longer knows Slurm job 999999991")),
            qPrintable(errorMessage(id)));
        QCOMPARE(messages(id, QStringLiteral("worker-replica-1")).count(QStringLiteral("worker-replica-1 line 0")), 1);
        QVERIFY(!QFile::exists(jobFolder(id) + QStringLiteral("/restarts")));
    }

    /// `…/regions` and `trainyardctl clusters list|describe|check` with four clusters: the test cluster (UP, its 4
    /// nodes with a CPU and a GPU each, a job of the project there), one whose slurmrestd does not listen (DOWN),
    /// one with a token slurmrestd refuses (UNAUTHENTICATED) and one whose partition does not exist; each failure
    /// is named, and the executor serves on.
    void regionsAndClusterCommands()
    {
        const QByteArray fakeToken
            = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjQxMDI0NDQ4MDAsImlhdCI6MTc5NTUwMDAwMC"
              "wic3VuIjoic2x1cm1jaSJ9.d3Jvbmctc2lnbmF0dXJlLXdyb25nLXNpZ25hdHVyZSE";
        QByteArray yaml = m_cluster.clustersYaml();
        auto entry = [&](const char* name, const QString& url, const QByteArray& auth, const char* partition) {
            yaml += "\n- name: " + QByteArray(name) + "\n  slurmrestd: " + url.toUtf8()
                + "\n  user: " + m_config.user.toUtf8() + "\n  " + auth + "\n  partition: " + QByteArray(partition)
                + "\n  sharedDir: " + m_config.sharedDir.toUtf8() + '\n';
        };
        const QString goodUrl = m_config.restUrl.toString();
        entry("downcluster", QStringLiteral("http://127.0.0.1:1"), "token: " + fakeToken, "debug");
        entry("badtoken", goodUrl, "token: " + fakeToken, "debug");
        QByteArray auth = m_config.token.isEmpty() ? QByteArray("tokenCommand: " + m_config.tokenCommand.toUtf8())
                                                   : QByteArray("token: " + m_config.token.toUtf8());
        if (!m_config.slurmConf.isEmpty())
            auth += "\n  slurmConf: " + m_config.slurmConf.toUtf8();
        entry("nopartition", goodUrl, auth, "nosuchpartition");

        QTemporaryDir root;
        QVERIFY(root.isValid());
        ClusterExecutor executor(root.path(), yaml);
        QString error;
        QVERIFY2(executor.start(&error), qPrintable(error));

        // A job of the project on the test cluster, for the cluster's `jobs`.
        const QString id = m_prefix + QStringLiteral("regions");
        m_jobIds << id;
        const QJsonObject body { { QStringLiteral("jobId"), id },
            { QStringLiteral("trainingInput"),
                QJsonObject { { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
                    { QStringLiteral("packageUris"), QJsonArray { TrainerDir } },
                    { QStringLiteral("pythonModule"), QStringLiteral("tytest.sleeper") },
                    { QStringLiteral("region"), m_config.name }, { QStringLiteral("jobDir"), jobDir(id) } } } };
        const auto [created, job] = executor.send("POST", QStringLiteral("/v1/projects/local/jobs"), body);
        QVERIFY2(created == 200, QJsonDocument(job).toJson().constData());

        const auto [status, answer] = executor.send("GET", QStringLiteral("/v1/projects/local/regions"));
        QVERIFY2(status == 200, QJsonDocument(answer).toJson().constData());
        const QByteArray text = QJsonDocument(answer).toJson();
        QMap<QString, QJsonObject> regions;
        QStringList order;
        for (const QJsonValue& v : answer.value(QStringLiteral("regions")).toArray()) {
            order << v.toObject().value(QStringLiteral("name")).toString();
            regions.insert(order.last(), v.toObject());
        }
        QCOMPARE(order,
            QStringList({ QStringLiteral("local"), m_config.name, QStringLiteral("downcluster"),
                QStringLiteral("badtoken"), QStringLiteral("nopartition") }));
        QCOMPARE(regions[QStringLiteral("local")].value(QStringLiteral("state")).toString(), QStringLiteral("UP"));
        QCOMPARE(regions[QStringLiteral("local")].value(QStringLiteral("nodes")).toArray().size(), 1);

        const QJsonObject good = regions.value(m_config.name);
        QVERIFY2(good.value(QStringLiteral("state")).toString() == QLatin1String("UP"), text.constData());
        QCOMPARE(good.value(QStringLiteral("kind")).toString(), QStringLiteral("SLURM"));
        const QJsonArray nodes = good.value(QStringLiteral("nodes")).toArray();
        QCOMPARE(nodes.size(), 4);
        for (const QJsonValue& n : nodes) {
            const QJsonObject node = n.toObject();
            QVERIFY2(node.value(QStringLiteral("name")).toString().startsWith(QLatin1String("node")), text.constData());
            QCOMPARE(node.value(QStringLiteral("cpus")).toInt(), 1);
            QCOMPARE(node.value(QStringLiteral("gpus")).toInt(), 1);
            QVERIFY(!node.value(QStringLiteral("state")).toArray().isEmpty());
        }
        QCOMPARE(good.value(QStringLiteral("partitions"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
            QStringLiteral("debug"));
        for (const QJsonValue& c : good.value(QStringLiteral("checks")).toArray())
            QVERIFY2(c.toObject().value(QStringLiteral("ok")).toBool(), text.constData());
        QCOMPARE(
            good.value(QStringLiteral("jobs")).toArray().first().toObject().value(QStringLiteral("jobId")).toString(),
            id);

        const QJsonObject down = regions.value(QStringLiteral("downcluster"));
        QCOMPARE(down.value(QStringLiteral("state")).toString(), QStringLiteral("DOWN"));
        QVERIFY2(down.value(QStringLiteral("message")).toString().contains(QLatin1String("http://127.0.0.1:1")),
            text.constData());
        QVERIFY(down.value(QStringLiteral("nodes")).toArray().isEmpty());
        const QJsonObject refused = regions.value(QStringLiteral("badtoken"));
        QCOMPARE(refused.value(QStringLiteral("state")).toString(), QStringLiteral("UNAUTHENTICATED"));
        QVERIFY2(refused.value(QStringLiteral("message")).toString().contains(m_config.user), text.constData());
        const QJsonObject noPartition = regions.value(QStringLiteral("nopartition"));
        QCOMPARE(noPartition.value(QStringLiteral("state")).toString(), QStringLiteral("UP"));
        QVERIFY2(noPartition.value(QStringLiteral("message"))
                     .toString()
                     .contains(QLatin1String("'nosuchpartition' does not exist")),
            text.constData());

        // One region; an unknown one is NOT_FOUND in the service's error shape.
        const auto [oneStatus, one]
            = executor.send("GET", QStringLiteral("/v1/projects/local/regions/") + m_config.name);
        QCOMPARE(oneStatus, 200);
        QCOMPARE(one.value(QStringLiteral("name")).toString(), m_config.name);
        const auto [missingStatus, missing] = executor.send("GET", QStringLiteral("/v1/projects/local/regions/nosuch"));
        QCOMPARE(missingStatus, 404);
        const QJsonObject e = missing.value(QStringLiteral("error")).toObject();
        QCOMPARE(e.value(QStringLiteral("status")).toString(), QStringLiteral("NOT_FOUND"));
        QVERIFY2(e.value(QStringLiteral("message")).toString().contains(QLatin1String("'nosuch'")),
            qPrintable(e.value(QStringLiteral("message")).toString()));

        // A job for a cluster that is down, and one for a cluster that refuses the token: each fails with a message
        // naming its cluster and why; the executor serves on.
        for (const char* cluster : { "downcluster", "badtoken" }) {
            const QString bad = m_prefix + QStringLiteral("to_") + QLatin1String(cluster);
            m_jobIds << bad;
            QDir().mkpath(jobDir(bad));
            QJsonObject input = body.value(QStringLiteral("trainingInput")).toObject();
            input.insert(QStringLiteral("region"), QLatin1String(cluster));
            input.insert(QStringLiteral("jobDir"), jobDir(bad));
            const auto [badCreated, badJob] = executor.send("POST", QStringLiteral("/v1/projects/local/jobs"),
                QJsonObject { { QStringLiteral("jobId"), bad }, { QStringLiteral("trainingInput"), input } });
            QVERIFY2(badCreated == 200, QJsonDocument(badJob).toJson().constData());
            QTRY_VERIFY_WITH_TIMEOUT(executor.state(bad) == QLatin1String("FAILED"), JobTimeoutMs);
            const QString message = executor.send("GET", QStringLiteral("/v1/projects/local/jobs/") + bad)
                                        .second.value(QStringLiteral("errorMessage"))
                                        .toString();
            QVERIFY2(message.contains(QStringLiteral("'%1'").arg(QLatin1String(cluster))), qPrintable(message));
            QVERIFY2(QLatin1String(cluster) == QLatin1String("downcluster")
                    ? message.contains(QLatin1String("127.0.0.1:1"))
                    : message.contains(m_config.user),
                qPrintable(message));
        }
        QCOMPARE(executor.send("GET", QStringLiteral("/v1/projects/local/jobs/") + id).first, 200);

        // trainyardctl clusters …
        CtlRun list = runCtl(executor, { QStringLiteral("clusters"), QStringLiteral("list") });
        QVERIFY2(list.code == 0, qPrintable(list.text()));
        QVERIFY2(list.out.startsWith(QLatin1String("NAME")), qPrintable(list.text()));
        bool goodRow = false;
        for (const QString& line : list.out.split(QLatin1Char('\n'))) {
            const QStringList cells = line.simplified().split(QLatin1Char(' '));
            if (cells.value(0) == m_config.name)
                goodRow = cells.value(1) == QLatin1String("SLURM") && cells.value(2) == QLatin1String("UP")
                    && cells.value(3) == QLatin1String("4") && cells.last() == QLatin1String("1");
        }
        QVERIFY2(goodRow, qPrintable(list.text()));
        QVERIFY2(list.err.contains(QLatin1String("WARNING: downcluster is DOWN: ")), qPrintable(list.text()));
        QVERIFY2(list.err.contains(QLatin1String("WARNING: badtoken is UNAUTHENTICATED: ")), qPrintable(list.text()));

        CtlRun ok = runCtl(executor, { QStringLiteral("clusters"), QStringLiteral("check"), m_config.name });
        QVERIFY2(ok.code == 0, qPrintable(ok.text()));
        QVERIFY2(ok.out.contains(QLatin1String("partition")) && !ok.out.contains(QLatin1String("FAILED")),
            qPrintable(ok.text()));
        const struct {
            const char* name;
            const char* failure;
        } failing[] = { { "downcluster", "Cluster 'downcluster' failed the reachable check: " },
            { "badtoken", "Cluster 'badtoken' failed the authenticated check: " },
            { "nopartition",
                "Cluster 'nopartition' failed the partition check: Partition 'nosuchpartition' does not exist" } };
        for (const auto& f : failing) {
            CtlRun check
                = runCtl(executor, { QStringLiteral("clusters"), QStringLiteral("check"), QLatin1String(f.name) });
            QVERIFY2(check.code == 1, qPrintable(check.text()));
            QVERIFY2(check.err.contains(QLatin1String(f.failure)), qPrintable(check.text()));
        }
        CtlRun unknown
            = runCtl(executor, { QStringLiteral("clusters"), QStringLiteral("check"), QStringLiteral("nosuch") });
        QVERIFY2(unknown.code == 1 && unknown.err.contains(QLatin1String("'nosuch'")), qPrintable(unknown.text()));

        CtlRun describe = runCtl(executor,
            { QStringLiteral("clusters"), QStringLiteral("describe"), m_config.name, QStringLiteral("--format=json") });
        QVERIFY2(describe.code == 0, qPrintable(describe.text()));
        const QJsonObject described = QJsonDocument::fromJson(describe.out.toUtf8()).object();
        QCOMPARE(described.value(QStringLiteral("nodes")).toArray().size(), 4);
        QCOMPARE(described.value(QStringLiteral("jobs")).toArray().size(), 1);
        // Once the job runs there, its Slurm job is named with it.
        QTRY_VERIFY_WITH_TIMEOUT(executor.state(id) == QLatin1String("RUNNING"), JobTimeoutMs);
        const QString slurmJob = QString::number(slurmJobId(id));
        const QJsonObject running
            = executor.send("GET", QStringLiteral("/v1/projects/local/regions/") + m_config.name).second;
        QCOMPARE(running.value(QStringLiteral("jobs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("clusterJobIds"))
                     .toArray(),
            QJsonArray { slurmJob });
        CtlRun table = runCtl(executor,
            { QStringLiteral("clusters"), QStringLiteral("describe"), m_config.name,
                QStringLiteral("--format=table") });
        QVERIFY2(table.code == 0 && table.out.contains(QLatin1String("node4")), qPrintable(table.text()));
        bool jobRow = false;
        for (const QString& line : table.out.split(QLatin1Char('\n')))
            jobRow = jobRow || line.simplified() == QStringLiteral("%1 RUNNING %2").arg(id, slurmJob);
        QVERIFY2(jobRow, qPrintable(table.text()));

        // The executor serves on after all that, and the job is cancelled.
        QVERIFY(executor.running());
        const auto [cancelStatus, cancelled]
            = executor.send("POST", QStringLiteral("/v1/projects/local/jobs/%1:cancel").arg(id));
        QCOMPARE(cancelStatus, 200);
        QString state;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (state = executor.state(id)) == QLatin1String("CANCELLED") || state == QLatin1String("FAILED"),
            qPrintable(state), JobTimeoutMs);
        QCOMPARE(state, QStringLiteral("CANCELLED"));
    }

    /// More replicas than nodes: het components never share a node, so the job can never run.
    void tooManyReplicasFailsPlacement()
    {
        const QString id = submit(QStringLiteral("toobig"), QStringLiteral("tytest.ok"), 4);
        QTRY_VERIFY2_WITH_TIMEOUT(isFinal(state(id)), qPrintable(dump(id)), JobTimeoutMs);
        QCOMPARE(state(id), JobState::Failed);
        QVERIFY2(errorMessage(id).contains(QStringLiteral("Slurm cluster '%1' has 4 nodes").arg(m_config.name)),
            qPrintable(errorMessage(id)));
        QCOMPARE(slurmJobId(id), 0);
    }

    /// The executor reads clusters.yaml at start; its API accepts `region: <cluster>` with a job dir in the
    /// cluster's shared folder and without this workstation's size limits, and the job runs on the cluster.
    void executorRunsClusterJobs()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        ClusterExecutor executor(
            root.path(), m_cluster.clustersYaml()); // stopped (its Slurm jobs cancelled) at the end
        QString error;
        QVERIFY2(executor.start(&error), qPrintable(error));
        // Three n1-highmem-96 replicas: far more than this workstation may hold, fine for the cluster (placed
        // capped at its nodes' size).
        auto jobJson = [&](const QString& id, const QString& region, const QString& dir) {
            const QString type = QStringLiteral("n1-highmem-96");
            return QJsonObject { { QStringLiteral("jobId"), id },
                { QStringLiteral("trainingInput"),
                    QJsonObject { { QStringLiteral("scaleTier"), QStringLiteral("CUSTOM") },
                        { QStringLiteral("masterType"), type }, { QStringLiteral("workerType"), type },
                        { QStringLiteral("workerCount"), QStringLiteral("2") },
                        { QStringLiteral("packageUris"), QJsonArray { TrainerDir } },
                        { QStringLiteral("pythonModule"), QStringLiteral("tytest.tcp_cluster") },
                        { QStringLiteral("region"), region }, { QStringLiteral("jobDir"), dir } } } };
        };
        const QString id = m_prefix + QStringLiteral("api");
        m_jobIds << id;
        const QString jobsPath = QStringLiteral("/v1/projects/local/jobs");

        auto [localStatus, localReply]
            = executor.send("POST", jobsPath, jobJson(id, QStringLiteral("us-central1"), jobDir(id)));
        QVERIFY2(localStatus == 400, QJsonDocument(localReply).toJson().constData());
        auto [outsideStatus, outsideReply] = executor.send("POST", jobsPath, jobJson(id, m_config.name, root.path()));
        QVERIFY2(outsideStatus == 400, QJsonDocument(outsideReply).toJson().constData());
        QVERIFY2(QJsonDocument(outsideReply).toJson().contains("trainingInput.jobDir"),
            QJsonDocument(outsideReply).toJson().constData());

        auto [status, created] = executor.send("POST", jobsPath, jobJson(id, m_config.name, jobDir(id)));
        QVERIFY2(status == 200, QJsonDocument(created).toJson().constData());
        QString state;
        QTRY_VERIFY2_WITH_TIMEOUT((state = executor.send("GET", jobsPath + QLatin1Char('/') + id)
                                               .second.value(QStringLiteral("state"))
                                               .toString())
                    == QLatin1String("SUCCEEDED")
                || state == QLatin1String("FAILED") || state == QLatin1String("CANCELLED"),
            qPrintable(state), JobTimeoutMs);
        QCOMPARE(state, QStringLiteral("SUCCEEDED"));
        QVERIFY(slurmJobId(id) > 0);
    }
};

QTEST_GUILESS_MAIN(TestSlurmBackend)
#include "tst_slurmbackend.moc"
