// SPDX-License-Identifier: GPL-2.0-or-later
// bench_study: what a hyperparameter tuning study adds to running its trials (issue 13's benchmark (3);
// bench_tuning measures the optimiser alone and links no Qt, so the study runner is measured here).
//
// study_100_trials_10_parallel: a tuning job (RANDOM_SEARCH, maxTrials 100, maxParallelTrials 10) of the
// trivial trial module tytest.objective (one report, no pause) through JobStore + Scheduler in process,
// from submit until the job is SUCCEEDED; baseline = the same 100 processes (same interpreter, module, a
// trial's arguments and environment) started directly with QProcess, 10 at a time, each next one started
// as soon as one exits. No staging (the module is on PYTHONPATH), so the figure is the runner's own cost:
// queueing and admission per trial, suggestions, placement, the trial records in SQLite, the objective
// reads. Rounds alternate ours and the baseline (BENCH_ROUNDS, default 5, after a warm-up of each); the
// line gives medians, and min/median/max follow.
//
// study_runner_cpu_ms_per_trial (issue 48): the CPU time of this process (all threads, user + system; the trials'
// interpreters are children and not counted) over a study, per trial, against the same process's CPU while it starts
// the same 100 processes itself (QProcess's fork, exec and pipes: what any runner pays). No goal: it is the measure of
// the runner that does not move with how the trials' interpreters share the CPUs (the line above does), printed so
// that a goal can be set on it; the bench README says what it holds.
//
// Prints `NAME: ours X unit, baseline Y unit, ratio R` (ratio = ours / baseline, of the medians of 5 rounds after a
// warm-up), a `_detail` line with min / median / max and the `goal:` line (≤ 1.2).
#include "benchreport.h"
#include "executorenvironment.h"
#include "jobkeys.h"
#include "jobstore.h"
#include "logstore.h"
#include "scheduler.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sys/resource.h>
#include <memory>

using namespace Trainyard;

namespace {

constexpr int Trials = 100;
constexpr int Parallel = 10;

const QString TrainerDir = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");

/// CPU time of this process, all its threads (user + system), in ms; not its children's.
double processCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

/// CPU time (user + system) of this process's children that were waited for, in ms: the trials' interpreters.
double childrenCpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_CHILDREN, &usage);
    auto ms = [](const timeval& t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

/// Submits the study and returns its wall time in ms (-1 when it did not succeed).
double runStudy(JobStore* store, Scheduler* scheduler, const QString& jobDir, int round)
{
    const QString id = QStringLiteral("study_%1").arg(round);
    Job job = Test::customJob(id, QStringLiteral("tytest.objective"));
    job.trainingInput.runtimeVersion = QStringLiteral("2.11");
    job.trainingInput.pythonVersion = QStringLiteral("3.7");
    job.trainingInput.jobDir = jobDir + QLatin1Char('/') + id;
    job.trainingInput.args
        = { QStringLiteral("--steps"), QStringLiteral("1"), QStringLiteral("--step-seconds"), QStringLiteral("0") };
    HyperparameterSpec spec;
    spec.goal = QStringLiteral("MAXIMIZE");
    spec.algorithm = QStringLiteral("RANDOM_SEARCH");
    spec.maxTrials = Trials;
    spec.maxParallelTrials = Parallel;
    ParameterSpec x;
    x.parameterName = QStringLiteral("x");
    x.type = QStringLiteral("DOUBLE");
    x.minValue = 0;
    x.maxValue = 1;
    spec.params = { x };
    job.trainingInput.hyperparameters = spec;
    QString error;
    if (!store->insert(job, &error)) {
        std::fprintf(stderr, "cannot store the study: %s\n", qPrintable(error));
        return -1;
    }
    QElapsedTimer clock;
    clock.start();
    QEventLoop loop;
    QObject::connect(store, &JobStore::jobChanged, &loop, [&](const QString&, const Job& j) {
        if (j.jobId == id && isFinal(j.state))
            loop.quit();
    });
    scheduler->submit(JobStore::defaultProject(), *store->job(Test::localJob(id)));
    if (!isFinal(store->job(Test::localJob(id))->state))
        loop.exec();
    const double ms = double(clock.nsecsElapsed()) / 1e6;
    const std::optional<Job> done = store->job(Test::localJob(id));
    if (!done || done->state != JobState::Succeeded || !done->trainingOutput
        || done->trainingOutput->completedTrialCount != Trials) {
        std::fprintf(stderr, "the study did not succeed with %d trials: %s\n", Trials,
            done ? qPrintable(done->errorMessage) : "no job");
        return -1;
    }
    return ms;
}

/// The same processes started directly, `Parallel` at a time; wall time in ms.
double runDirect(const QString& jobDir, const QString& folder)
{
    QDir().mkpath(folder);
    QElapsedTimer clock;
    clock.start();
    int started = 0;
    int finished = 0;
    QEventLoop loop;
    std::function<void()> startOne = [&] {
        const int trial = ++started;
        auto* p = new QProcess;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CLOUD_ML_TRIAL_ID"), QString::number(trial));
        env.insert(QStringLiteral("CLOUD_ML_HP_METRIC_TAG"), QStringLiteral("training/hptuning/metric"));
        env.insert(QStringLiteral("CLOUD_ML_HP_METRIC_FILE"),
            folder + QStringLiteral("/%1/hypertune/output.metrics").arg(trial));
        env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
        p->setProcessEnvironment(env);
        p->setWorkingDirectory(folder);
        QObject::connect(p, &QProcess::finished, &loop, [&, p] {
            p->deleteLater();
            if (++finished == Trials)
                loop.quit();
            else if (started < Trials)
                startOne();
        });
        p->start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-m"), QStringLiteral("tytest.objective"), QStringLiteral("--steps"), QStringLiteral("1"),
                QStringLiteral("--step-seconds"), QStringLiteral("0"), QStringLiteral("--x=0.5"),
                QStringLiteral("--job-dir"), jobDir });
    };
    for (int i = 0; i < Parallel; ++i)
        startOne();
    loop.exec();
    return double(clock.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return 1;
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(tmp.path() + QStringLiteral("/run")));
    qputenv("XDG_DATA_HOME", QFile::encodeName(tmp.path() + QStringLiteral("/data")));
    qputenv("PYTHONPATH", QFile::encodeName(TrainerDir));
    const QString dataDir = tmp.path() + QStringLiteral("/data/trainyard");
    QDir().mkpath(dataDir);
    JobStore store;
    QString error;
    if (!store.open(dataDir + QStringLiteral("/trainyard.sqlite"), &error)) {
        std::fprintf(stderr, "cannot open the job store: %s\n", qPrintable(error));
        return 1;
    }
    LogStore logs(dataDir);
    Scheduler scheduler(&store, &logs, Test::bigHost(), dataDir);
    const QString jobDirs = tmp.path() + QStringLiteral("/jobdirs");

    BenchReport::printHost();
    // BENCH_ROUNDS (or BENCH_RUNS) rounds after the warm-up: at least 5.
    const int rounds = qEnvironmentVariableIntValue("BENCH_ROUNDS") >= 5 ? qEnvironmentVariableIntValue("BENCH_ROUNDS")
                                                                         : BenchReport::runs(5);
    // Warm-up: the interpreter's files in the page cache, SQLite's first pages.
    if (runStudy(&store, &scheduler, jobDirs, 0) < 0)
        return 1;
    runDirect(jobDirs + QStringLiteral("/direct"), tmp.path() + QStringLiteral("/direct-0"));
    std::vector<double> ours;
    std::vector<double> direct;
    std::vector<double> oursCpu;
    std::vector<double> directCpu;
    std::vector<double> oursTrialCpu;
    std::vector<double> directTrialCpu;
    for (int r = 1; r <= rounds; ++r) {
        double cpu = processCpuMs();
        double children = childrenCpuMs();
        const double o = runStudy(&store, &scheduler, jobDirs, r);
        if (o < 0)
            return 1;
        oursCpu.push_back((processCpuMs() - cpu) / Trials);
        oursTrialCpu.push_back((childrenCpuMs() - children) / Trials);
        ours.push_back(o);
        cpu = processCpuMs();
        children = childrenCpuMs();
        direct.push_back(
            runDirect(jobDirs + QStringLiteral("/direct"), tmp.path() + QStringLiteral("/direct-%1").arg(r)));
        directCpu.push_back((processCpuMs() - cpu) / Trials);
        directTrialCpu.push_back((childrenCpuMs() - children) / Trials);
    }
    const BenchReport::Samples samples { ours, direct };
    const double ratio = BenchReport::median(ours) / BenchReport::median(direct);
    BenchReport::printLine("study_100_trials_10_parallel", samples, "ms", ratio, 1,
        "wall time from submit to SUCCEEDED, rounds alternating");
    BenchReport::printGoal({ "study_100_trials_10_parallel", "ratio", ratio, false, 1.2 });
    // The runner's own CPU, which does not move with how many cores the trials' interpreters share (issue 48).
    const BenchReport::Samples cpu { oursCpu, directCpu };
    const double cpuRatio = BenchReport::median(oursCpu) / BenchReport::median(directCpu);
    BenchReport::printLine("study_runner_cpu_ms_per_trial", cpu, "ms", cpuRatio, 1,
        "CPU time of this process (the runner: scheduler, study, job store, launches; not the trials), per trial");
    // The trials' own CPU: what the machine spends on the interpreters under each (they share its cores).
    const BenchReport::Samples trialCpu { oursTrialCpu, directTrialCpu };
    BenchReport::printLine("study_trial_cpu_ms_per_trial", trialCpu, "ms",
        BenchReport::median(oursTrialCpu) / BenchReport::median(directTrialCpu), 1,
        "CPU time of the trials' processes (the children waited for), per trial");
    scheduler.shutdown();
    return 0;
}
