// SPDX-License-Identifier: GPL-2.0-or-later
#include "slurmscripts.h"

#include <utility>

namespace Trainyard::Slurm {

// ---- RunFiles ---------------------------------------------------------------------------------------------------

RunFiles::RunFiles(QString dir)
    : m_dir(std::move(dir))
{
}

RunFiles RunFiles::ofRunFolder(const QString& runFolder)
{
    return RunFiles(runFolder + QStringLiteral("/slurm"));
}

QString RunFiles::taskLauncher() const
{
    return m_dir + QStringLiteral("/task.sh");
}

QString RunFiles::replicaScript(int group, int index) const
{
    return m_dir + QStringLiteral("/tasks/%1-%2.sh").arg(group).arg(index);
}

QString RunFiles::jobIdFile() const
{
    return m_dir + QStringLiteral("/slurm-job-id");
}

QString RunFiles::launchReady() const
{
    return m_dir + QStringLiteral("/launch.ready");
}

QString RunFiles::launchCancel() const
{
    return m_dir + QStringLiteral("/launch.cancel");
}

QString RunFiles::placementFile() const
{
    return m_dir + QStringLiteral("/placement");
}

QString RunFiles::stoppedMark() const
{
    return m_dir + QStringLiteral("/executor-stopped");
}

QString RunFiles::batchOutput() const
{
    return m_dir + QStringLiteral("/batch-%j.out");
}

QString RunFiles::startedFile(const QString& taskName) const
{
    return m_dir + QStringLiteral("/started/") + taskName;
}

QString RunFiles::exitDir() const
{
    return m_dir + QStringLiteral("/exit");
}

QString RunFiles::exitFile(const QString& taskName) const
{
    return exitDir() + QLatin1Char('/') + taskName;
}

QString RunFiles::stdoutFile(const QString& taskName) const
{
    return m_dir + QStringLiteral("/logs/") + taskName + QStringLiteral(".stdout");
}

QString RunFiles::stderrFile(const QString& taskName) const
{
    return m_dir + QStringLiteral("/logs/") + taskName + QStringLiteral(".stderr");
}

QString RunFiles::resourcesDir() const
{
    return m_dir + QStringLiteral("/resources");
}

QString RunFiles::resourcesFile(const QString& taskName) const
{
    return resourcesDir() + QLatin1Char('/') + taskName;
}

QStringList RunFiles::replicaWrittenFolders()
{
    return { QStringLiteral("logs"), QStringLiteral("started"), QStringLiteral("exit"), QStringLiteral("resources") };
}

// ---- ResourceSample ---------------------------------------------------------------------------------------------

std::optional<ResourceSample> ResourceSample::parse(QByteArrayView line)
{
    if (line.endsWith('\n'))
        line.chop(1);
    qint64 fields[4];
    int n = 0;
    qsizetype from = 0;
    while (from <= line.size()) {
        qsizetype space = line.indexOf(' ', from);
        if (space < 0)
            space = line.size();
        if (n == 4)
            return std::nullopt;
        bool ok = false;
        fields[n++] = line.sliced(from, space - from).toLongLong(&ok);
        if (!ok)
            return std::nullopt;
        from = space + 1;
    }
    if (n != 4 || fields[0] <= 0 || fields[2] <= 0)
        return std::nullopt;
    return ResourceSample { fields[0], fields[1], fields[2], fields[3] };
}

QByteArray ResourceSample::toLine() const
{
    return QByteArray::number(timeNs) + ' ' + QByteArray::number(cpuTicks) + ' ' + QByteArray::number(ticksPerSecond)
        + ' ' + QByteArray::number(rssBytes) + '\n';
}

QString ResourceSample::shellLine(
    const QString& timeNs, const QString& cpuTicks, const QString& ticksPerSecond, const QString& rssBytes)
{
    return QStringLiteral("echo \"%1 %2 %3 %4\"").arg(timeNs, cpuTicks, ticksPerSecond, rssBytes);
}

// ---- scripts ----------------------------------------------------------------------------------------------------

QString shellQuote(const QString& text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString shellWord(const QString& value, const QString& hostToken, qsizetype taskCount)
{
    if (hostToken.isEmpty() || !value.contains(hostToken))
        return shellQuote(value);
    QString word;
    qsizetype from = 0;
    while (true) {
        const qsizetype at = value.indexOf(hostToken, from);
        const qsizetype digits = at + hostToken.size();
        const qsizetype end = at < 0 ? -1 : value.indexOf(QLatin1Char('@'), digits);
        bool ok = false;
        const int i = end < 0 ? -1 : value.mid(digits, end - digits).toInt(&ok);
        if (!ok || i < 0 || i >= taskCount)
            break;
        if (at > from)
            word += shellQuote(value.mid(from, at - from));
        word += QStringLiteral("\"${TRAINYARD_HOST_%1}\"").arg(i);
        from = end + 1;
    }
    if (from < value.size())
        word += shellQuote(value.mid(from));
    return word;
}

QString batchScript(
    const QString& runText, const RunFiles& files, const QList<BatchTask>& tasks, const QList<int>& groupSizes)
{
    const QString dir = shellQuote(files.dir());
    QString s = QStringLiteral("#!/bin/bash\n"
                               "# Trainyard launcher for %1: waits for the replicas' scripts, then starts one srun "
                               "per het group.\n"
                               "D=%2\n"
                               "while [ ! -e \"$D/launch.ready\" ] && [ ! -e \"$D/launch.cancel\" ]; do sleep 0.05; "
                               "done\n"
                               "[ -e \"$D/launch.cancel\" ] && exit 0\n"
                               // An executor killed before submit answered never learnt this job's ID; the next
                               // one placed the run again in the same folder. launch.ready is written only after
                               // slurm-job-id names the job it is for: any other job leaves.
                               "[ \"$(cat \"$D/slurm-job-id\" 2>/dev/null)\" = \"$SLURM_JOB_ID\" ] || exit 0\n")
                    .arg(runText, dir);
    const bool het = groupSizes.size() > 1;
    // Each replica's node, for the addresses in its environment (the backend's placeholder hosts): task k of a
    // component runs on the k-th node of the component's node list, one task per node. srun passes the variables
    // on to every task.
    s += QStringLiteral("# The replicas' nodes, from the components' node lists.\n");
    for (qsizetype g = 0; g < groupSizes.size(); ++g)
        s += QStringLiteral("mapfile -t H%1 < <(scontrol show hostnames \"$%2\")\n")
                 .arg(g)
                 .arg(het ? QStringLiteral("SLURM_JOB_NODELIST_HET_GROUP_%1").arg(g)
                          : QStringLiteral("SLURM_JOB_NODELIST"));
    for (qsizetype i = 0; i < tasks.size(); ++i) {
        const BatchTask& t = tasks.at(i);
        s += QStringLiteral("export TRAINYARD_HOST_%1=\"${H%2[%3]}\"\n").arg(i).arg(t.group).arg(t.index);
        s += QStringLiteral("[ -n \"$TRAINYARD_HOST_%1\" ] || { echo \"trainyard: no node for %2 in the job's "
                            "node lists (scontrol show hostnames)\" >&2; exit 1; }\n")
                 .arg(i)
                 .arg(t.name);
    }
    for (qsizetype g = 0; g < groupSizes.size(); ++g) {
        const int n = groupSizes.at(g);
        s += QStringLiteral("srun %1--nodes=%2 --ntasks=%2 --ntasks-per-node=1 /bin/bash \"$D/task.sh\" %3 &\n")
                 .arg(het ? QStringLiteral("--het-group=%1 ").arg(g) : QString())
                 .arg(n)
                 .arg(g);
    }
    s += QStringLiteral("wait\n");
    return s;
}

QByteArray taskLauncherScript(const RunFiles& files)
{
    return QByteArrayLiteral("#!/bin/bash\n# One task of het group $1: its replica's script by SLURM_PROCID.\n")
        + "exec /bin/bash " + shellQuote(files.dir()).toUtf8() + "/tasks/\"$1-$SLURM_PROCID.sh\"\n";
}

QString replicaScript(const QString& runText, const RunFiles& files, const Launch::ReplicaLaunch& spec,
    bool slurmAssignsGpus, const QString& hostToken, qsizetype taskCount)
{
    const QString dir = shellQuote(files.dir());
    const QString name = spec.taskName;
    QString s = QStringLiteral("#!/bin/bash\n# Replica %1 of %2.\nD=%3\n").arg(name, runText, dir);
    for (const QString& var : spec.unset)
        s += QStringLiteral("unset %1\n").arg(var);
    for (auto it = spec.set.cbegin(); it != spec.set.cend(); ++it) {
        if (it.key() == QLatin1String("CUDA_VISIBLE_DEVICES") && slurmAssignsGpus)
            continue; // Slurm's, for the GPUs it allocated on this node
        if (it.key() == QLatin1String("PYTHONPATH"))
            s += QStringLiteral("export PYTHONPATH=%1${PYTHONPATH:+:$PYTHONPATH}\n").arg(shellQuote(it.value()));
        else
            s += QStringLiteral("export %1=%2\n").arg(it.key(), shellWord(it.value(), hostToken, taskCount));
    }
    QString command = shellQuote(spec.program);
    for (const QString& a : spec.arguments)
        command += QLatin1Char(' ') + shellWord(a, hostToken, taskCount);
    const QString task = shellQuote(name);
    s += QStringLiteral(
        "mkdir -p %1\n"
        "cd %1 || { echo 127 > \"$D/exit/\"%2; exit 127; }\n"
        "%3 >>\"$D/logs/\"%2.stdout 2>>\"$D/logs/\"%2.stderr &\n"
        "child=$!\n"
        // The node as Slurm names it (the test cluster's nodes share one host name).
        "echo \"${SLURMD_NODENAME:-$(hostname -s)} $child\" > \"$D/started/\"%2.tmp && mv \"$D/started/\"%2.tmp "
        "\"$D/started/\"%2\n"
        // Resource samples of the replica's process tree on this node, every 2 s (ResourceSample). /proc/PID/stat's
        // fields after the ")" that ends the command name: utime, stime and rss are the 12th, 13th and 22nd.
        // It sleeps in the background so that the TERM from below ends the sleep with it: an orphaned sleep
        // would hold the Slurm step, and so the job's end, for up to 2 s.
        "( trap 'kill $! 2>/dev/null; exit 0' TERM\n"
        "  hz=$(getconf CLK_TCK); pg=$(getconf PAGESIZE)\n"
        "  tree() { echo $1; local c; for c in $(cat /proc/$1/task/*/children 2>/dev/null); do tree $c; done; }\n"
        "  while kill -0 $child 2>/dev/null; do\n"
        "    t=0; r=0\n"
        "    for p in $(tree $child); do\n"
        "      s=$(cat /proc/$p/stat 2>/dev/null) || continue; s=${s##*) }; a=($s)\n"
        "      t=$((t + a[11] + a[12])); r=$((r + a[21]))\n"
        "    done\n"
        // No resident page left: the replica has exited and is a zombie until this script reaps it
        // (kill -0 still finds it). Its last sample would read 0 bytes, not what it held.
        "    [ $r -gt 0 ] || break\n"
        "    %4 >> \"$D/resources/\"%2\n"
        "    sleep 2 & wait $!\n"
        "  done ) &\n"
        "sampler=$!\n"
        // Slurm signals every process of the step; this shell only waits for the replica's status.
        "trap 'kill -TERM $child 2>/dev/null' TERM\n"
        "while :; do wait $child; rc=$?; kill -0 $child 2>/dev/null || break; done\n"
        "kill $sampler 2>/dev/null\n"
        "echo $rc > \"$D/exit/\"%2.tmp && mv \"$D/exit/\"%2.tmp \"$D/exit/\"%2\n"
        "exit $rc\n")
             .arg(shellQuote(spec.workingDirectory), task, command,
                 ResourceSample::shellLine(QStringLiteral("$(date +%s%N)"), QStringLiteral("$t"), QStringLiteral("$hz"),
                     QStringLiteral("$((r * pg))")));
    return s;
}

} // namespace Trainyard::Slurm
