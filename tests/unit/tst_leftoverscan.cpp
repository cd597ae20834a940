// SPDX-License-Identifier: GPL-2.0-or-later
// The /proc scan that finds what a run left (jobProcesses()): the age rule, and the start times it keeps between
// scans, which must not outlive the process they were read from when its pid is reused.
#include "processgroup.h"

#include <QFile>
#include <QProcess>
#include <QTest>

#include <memory>

using namespace Trainyard;

class TestLeftoverScan : public QObject {
    Q_OBJECT

    /// A `sleep` in a process group of its own, carrying TRAINYARD_JOB_FOLDER=`marker` unless it is empty.
    static std::unique_ptr<QProcess> start(const QString& marker)
    {
        auto process = std::make_unique<QProcess>();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(jobMarkerVariable());
        if (!marker.isEmpty())
            environment.insert(jobMarkerVariable(), marker);
        process->setProcessEnvironment(environment);
        makeOwnProcessGroup(process.get());
        process->start(QStringLiteral("sleep"), { QStringLiteral("600") });
        return process;
    }

    static void stop(QProcess* process)
    {
        process->kill();
        process->waitForFinished(10000);
    }

private Q_SLOTS:
    void olderProcessesAreNotTheRunsOnes()
    {
        const std::unique_ptr<QProcess> old = start(QStringLiteral("/scan/a"));
        QVERIFY(old->waitForStarted());
        // A start time (clock ticks since boot) later than that of every process started so far.
        const qint64 now = bootTicksNow();
        QTRY_VERIFY_WITH_TIMEOUT(bootTicksNow() > now + 1, 5000);
        const qint64 since = bootTicksNow();
        QVERIFY(since > 0);
        QVERIFY(jobProcesses(QStringLiteral("/scan/a")).contains(old->processId())); // no age given: listed
        // Older than the run: not listed, by its marker or its group, on the first scan and on one that knows it.
        for (int scan = 0; scan < 2; ++scan) {
            QVERIFY(!jobProcesses(QStringLiteral("/scan/a"), {}, since).contains(old->processId()));
            QVERIFY(!jobProcesses(QStringLiteral("/scan/none"), { old->processId() }, since).contains(old->processId()));
        }
        const std::unique_ptr<QProcess> young = start(QStringLiteral("/scan/a"));
        QVERIFY(young->waitForStarted());
        for (int scan = 0; scan < 2; ++scan) {
            const QList<qint64> found = jobProcesses(QStringLiteral("/scan/a"), {}, since);
            QVERIFY(found.contains(young->processId()));
            QVERIFY(!found.contains(old->processId()));
            QVERIFY(jobProcesses(QStringLiteral("/scan/none"), { young->processId() }, since)
                        .contains(young->processId()));
            QVERIFY(!jobProcesses(QStringLiteral("/scan/b"), {}, since).contains(young->processId()));
        }
        stop(young.get());
        QVERIFY(!jobProcesses(QStringLiteral("/scan/a"), {}, since).contains(young->processId()));
        stop(old.get());
    }

    /// A process older than the run is remembered as such by its pid; a new process given the same pid must be read
    /// again (its /proc entry has another inode). The pid is reused on purpose by writing the pid namespace's last
    /// pid, which only root may.
    void aReusedPidIsReadAgain()
    {
        const std::unique_ptr<QProcess> before = start(QString());
        QVERIFY(before->waitForStarted());
        const qint64 pid = before->processId();
        // A start time (clock ticks since boot) later than that of every process started so far.
        const qint64 now = bootTicksNow();
        QTRY_VERIFY_WITH_TIMEOUT(bootTicksNow() > now + 1, 5000);
        const qint64 since = bootTicksNow();
        QVERIFY(!jobProcesses(QStringLiteral("/scan/reused"), {}, since).contains(pid)); // now known as older
        stop(before.get());

        QFile lastPid(QStringLiteral("/proc/sys/kernel/ns_last_pid"));
        if (!lastPid.open(QIODevice::WriteOnly))
            QSKIP("a pid is reused on purpose only by root (writing /proc/sys/kernel/ns_last_pid)");
        std::unique_ptr<QProcess> reused;
        // Another process may take the pid between the write and the fork: then again.
        for (int attempt = 0; attempt < 20 && !reused; ++attempt) {
            QVERIFY(lastPid.write(QByteArray::number(pid - 1)) > 0);
            QVERIFY(lastPid.flush());
            std::unique_ptr<QProcess> candidate = start(QStringLiteral("/scan/reused"));
            QVERIFY(candidate->waitForStarted());
            if (candidate->processId() == pid)
                reused = std::move(candidate);
            else
                stop(candidate.get());
        }
        QVERIFY2(reused, "the pid was not given again in 20 attempts");
        QVERIFY(jobProcesses(QStringLiteral("/scan/reused"), {}, since).contains(pid));
        stop(reused.get());
    }
};

QTEST_GUILESS_MAIN(TestLeftoverScan)
#include "tst_leftoverscan.moc"
