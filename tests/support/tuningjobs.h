// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Hyperparameter tuning jobs as the executor reports them (trainingInput.hyperparameters and
// trainingOutput.trials, the service's REST v1 shapes), for the Trials tab's tests: four parameters of
// every kind and scale (learning_rate DOUBLE on a log scale, batch_size DISCRETE, hidden_units INTEGER,
// optimizer CATEGORICAL) and trials built step by step as a live job would bring them.

#include "job.h"

#include <QDateTime>
#include <QString>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <optional>

namespace Trainyard::Test {

/// An INTEGER ParameterSpec over [min, max] (no scale type).
inline ParameterSpec integerParameter(const QString& name, double min, double max)
{
    ParameterSpec p;
    p.parameterName = name;
    p.type = QStringLiteral("INTEGER");
    p.minValue = min;
    p.maxValue = max;
    return p;
}

/// A DOUBLE ParameterSpec over [min, max] with `scaleType` (UNIT_LINEAR_SCALE by default).
inline ParameterSpec doubleParameter(
    const QString& name, double min, double max, const QString& scaleType = QStringLiteral("UNIT_LINEAR_SCALE"))
{
    ParameterSpec p;
    p.parameterName = name;
    p.type = QStringLiteral("DOUBLE");
    p.minValue = min;
    p.maxValue = max;
    p.scaleType = scaleType;
    return p;
}

/// A CATEGORICAL ParameterSpec with `values`.
inline ParameterSpec categoricalParameter(const QString& name, const QStringList& values)
{
    ParameterSpec p;
    p.parameterName = name;
    p.type = QStringLiteral("CATEGORICAL");
    p.categoricalValues = values;
    return p;
}

/// A tuning job with the four parameters above, `goal` MAXIMIZE or MINIMIZE, metric "accuracy", no trials
/// yet (trainingOutput present, isHyperparameterTuningJob set).
inline Job tuningJob(const QString& jobId, const QString& goal = QStringLiteral("MAXIMIZE"))
{
    Job job;
    job.jobId = jobId;
    job.state = JobState::Running;
    job.createTime = QStringLiteral("2026-11-22T05:00:00Z");
    job.startTime = QStringLiteral("2026-11-22T05:00:10Z");
    TrainingInput& in = job.trainingInput;
    in.scaleTier = QStringLiteral("BASIC");
    in.packageUris = { QStringLiteral("/tmp/trainer") };
    in.pythonModule = QStringLiteral("trainer.task");
    in.args = { QStringLiteral("--epochs"), QStringLiteral("3") };
    in.region = QStringLiteral("us-central1");
    in.jobDir = QStringLiteral("/tmp/job-dirs/") + jobId;
    HyperparameterSpec spec;
    spec.goal = goal;
    spec.hyperparameterMetricTag = QStringLiteral("accuracy");
    spec.maxTrials = 12;
    spec.maxParallelTrials = 2;
    const ParameterSpec lr = doubleParameter(QStringLiteral("learning_rate"), 1e-4, 1e-1, QStringLiteral("UNIT_LOG_SCALE"));
    ParameterSpec batch;
    batch.parameterName = QStringLiteral("batch_size");
    batch.type = QStringLiteral("DISCRETE");
    batch.discreteValues = { 32, 64, 128, 256 };
    ParameterSpec hidden = integerParameter(QStringLiteral("hidden_units"), 64, 512);
    hidden.scaleType = QStringLiteral("UNIT_LINEAR_SCALE");
    const ParameterSpec optimizer = categoricalParameter(
        QStringLiteral("optimizer"), { QStringLiteral("adam"), QStringLiteral("sgd"), QStringLiteral("rmsprop") });
    spec.params = { lr, batch, hidden, optimizer };
    in.hyperparameters = spec;
    TrainingOutput out;
    out.isHyperparameterTuningJob = true;
    out.hyperparameterMetricTag = QStringLiteral("accuracy");
    out.completedTrialCount = 0;
    job.trainingOutput = out;
    return job;
}

/// The parameter values of synthetic trial `n` (1-based): deterministic, spread over every axis.
inline QMap<QString, QString> trialValues(int n)
{
    static const char* const optimizers[] = { "adam", "sgd", "rmsprop" };
    static const int batches[] = { 32, 64, 128, 256 };
    const double lr = std::pow(10.0, -4 + 3 * std::fmod(n * 0.618034, 1.0));
    return { { QStringLiteral("learning_rate"), QString::number(lr, 'g', 6) },
        { QStringLiteral("batch_size"), QString::number(batches[(n * 3) % 4]) },
        { QStringLiteral("hidden_units"), QString::number(64 + (n * 97) % 449) },
        { QStringLiteral("optimizer"), QString::fromLatin1(optimizers[n % 3]) } };
}

/// A synthetic objective for trial `n`'s values: best near learning_rate 3e-3 with adam (0.6 … 0.95).
inline double trialObjective(int n)
{
    const QMap<QString, QString> v = trialValues(n);
    const double lr = v.value(QStringLiteral("learning_rate")).toDouble();
    const double d = std::log10(lr) - std::log10(3e-3);
    double acc = 0.95 - 0.08 * d * d - (v.value(QStringLiteral("optimizer")) == QLatin1String("sgd") ? 0.05 : 0)
        + v.value(QStringLiteral("hidden_units")).toDouble() / 512 * 0.02;
    return std::clamp(acc, 0.5, 0.99);
}

/// Trial `n` in `state`: started at 05:01 + n minutes; with `objective` as its final metric at step 1000
/// when `final`, else as its latest report (allMetrics) at step 500; ended 5 minutes later when the state is
/// final.
inline HyperparameterOutput trial(
    int n, JobState state, std::optional<double> objective = std::nullopt, bool final = true)
{
    HyperparameterOutput t;
    t.trialId = QString::number(n);
    t.hyperparameters = trialValues(n);
    const QDateTime start = QDateTime(QDate(2026, 11, 22), QTime(5, 1), QTimeZone::utc()).addSecs(60 * n);
    t.startTime = start.toString(Qt::ISODate);
    if (isFinal(state))
        t.endTime = start.addSecs(300).toString(Qt::ISODate);
    t.state = state;
    if (objective) {
        HyperparameterMetric m;
        m.trainingStep = final ? 1000 : 500;
        m.objectiveValue = objective;
        t.allMetrics.append(m);
        if (final)
            t.finalMetric = m;
    }
    return t;
}

/// `job` with `count` trials 1…count, all SUCCEEDED with trialObjective() as their final metric, listed best
/// first as the executor lists them.
inline Job withFinishedTrials(Job job, int count)
{
    QList<HyperparameterOutput> trials;
    for (int n = 1; n <= count; ++n)
        trials.append(trial(n, JobState::Succeeded, trialObjective(n)));
    const bool maximize = job.trainingInput.hyperparameters->goal != QLatin1String("MINIMIZE");
    std::stable_sort(trials.begin(), trials.end(), [maximize](const auto& a, const auto& b) {
        return maximize ? *a.finalMetric->objectiveValue > *b.finalMetric->objectiveValue
                        : *a.finalMetric->objectiveValue < *b.finalMetric->objectiveValue;
    });
    job.trainingOutput->trials = trials;
    job.trainingOutput->completedTrialCount = count;
    return job;
}

} // namespace Trainyard::Test
