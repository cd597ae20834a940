// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The Slurm test cluster of packaging/slurm-testcluster.sh for tests that need a real slurmrestd: found running,
// or started (never installing packages: a test does not change the system's packages; setup-deps.sh does), and
// stopped again by the test process that started it. Test processes that use it take turns: each holds a lock
// file for as long as it uses the cluster, so one never stops the cluster under another. A process that
// started the cluster and died before stopping it leaves a mark; the next one to take the lock adopts it and
// stops it when done, so a crashed test does not leave the cluster running for good.
//
// TRAINYARD_SLURM_CLUSTERS_YAML=FILE points the tests at another cluster instead: FILE is a clusters.yaml whose
// first cluster is used as it is, never started or stopped here (e.g. the same script run in a Debian 13 chroot,
// Slurm 24.11, to check the client's newer API versions; tests/data/slurm/README.md says how).

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QLockFile>
#include <QProcess>
#include <QString>

#include <unistd.h>

namespace Trainyard::Test {

class SlurmTestCluster {
public:
    SlurmTestCluster()
        : m_lock(QDir::tempPath() + QStringLiteral("/trainyard-slurm-testcluster.lock"))
    {
        m_lock.setStaleLockTime(0); // a lock is stale only when its process is gone
    }
    SlurmTestCluster(const SlurmTestCluster&) = delete;
    SlurmTestCluster& operator=(const SlurmTestCluster&) = delete;
    ~SlurmTestCluster() { release(); }

    static QString script() { return QStringLiteral(TRAINYARD_SOURCE_DIR "/packaging/slurm-testcluster.sh"); }

    /// Waits for other test processes to be done with the cluster (up to `waitMs`), then finds it running or
    /// starts it. Returns false with reason() saying why the cluster cannot be used here.
    bool acquire(int waitMs = 240000)
    {
        if (isElsewhere()) {
            if (!m_lock.tryLock(waitMs)) {
                m_reason = QStringLiteral("another test process held %1 for %2 s").arg(lockPath()).arg(waitMs / 1000);
                return false;
            }
            return true;
        }
        if (::geteuid() != 0) {
            m_reason = QStringLiteral("the Slurm test cluster needs root (slurmd starts jobs as another user; "
                                      "packaging/slurm-testcluster.sh edits /etc/hosts)");
            return false;
        }
        if (!m_lock.tryLock(waitMs)) {
            m_reason = QStringLiteral("another test process held %1 for %2 s").arg(lockPath()).arg(waitMs / 1000);
            return false;
        }
        if (run({ QStringLiteral("status") }) == 0) {
            // running: ours to stop only when a test process started it and died before stopping it
            m_started = QFile::exists(markPath());
            return true;
        }
        QFile mark(markPath());
        if (!mark.open(QIODevice::WriteOnly)) {
            m_reason = QStringLiteral("cannot write %1").arg(markPath());
            return false;
        }
        mark.close();
        m_started = true;
        if (run({ QStringLiteral("start") }, 180000) != 0) {
            m_reason = QStringLiteral("packaging/slurm-testcluster.sh start failed: ") + lastLine(m_stderr);
            release();
            return false;
        }
        return true;
    }

    /// Stops the cluster when this process started (or adopted) it, and lets the next test process have it.
    void release()
    {
        if (m_started) {
            run({ QStringLiteral("stop") }, 60000);
            QFile::remove(markPath());
            m_started = false;
        }
        if (m_lock.isLocked())
            m_lock.unlock();
    }

    QString reason() const { return m_reason; }
    bool startedHere() const { return m_started; }

    /// What `packaging/slurm-testcluster.sh clusters-yaml` prints: a clusters.yaml for the cluster (or the
    /// TRAINYARD_SLURM_CLUSTERS_YAML file).
    QByteArray clustersYaml()
    {
        if (isElsewhere()) {
            QFile file(QString::fromLocal8Bit(qgetenv("TRAINYARD_SLURM_CLUSTERS_YAML")));
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }
        return run({ QStringLiteral("clusters-yaml") }) == 0 ? m_stdout : QByteArray();
    }

    /// The tests use the cluster of TRAINYARD_SLURM_CLUSTERS_YAML, not this host's test cluster.
    static bool isElsewhere() { return !qEnvironmentVariableIsEmpty("TRAINYARD_SLURM_CLUSTERS_YAML"); }

    /// Runs the script with `arguments` (never installing packages); returns its exit code (-1: did not finish).
    int run(const QStringList& arguments, int timeoutMs = 30000)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_TEST_INSTALL"), QStringLiteral("0"));
        process.setProcessEnvironment(env);
        process.start(script(), arguments);
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
            m_stderr = QByteArrayLiteral("did not finish in time");
            return -1;
        }
        m_stdout = process.readAllStandardOutput();
        m_stderr = process.readAllStandardError();
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

private:
    QString lockPath() const { return m_lock.fileName(); }
    static QString markPath() { return QDir::tempPath() + QStringLiteral("/trainyard-slurm-testcluster.started"); }
    static QString lastLine(const QByteArray& text)
    {
        return QString::fromLocal8Bit(text).trimmed().section(QLatin1Char('\n'), -1);
    }

    QLockFile m_lock;
    bool m_started = false;
    QString m_reason;
    QByteArray m_stdout;
    QByteArray m_stderr;
};

} // namespace Trainyard::Test
