// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace Trainyard::Tuning {
class Optimizer;
}

namespace Trainyard {

/// The service's rules for one hyperparameter tuning job (a "study"), as pure functions of its
/// HyperparameterSpec and its trials (`trainingOutput.trials`, the state the executor keeps in SQLite):
/// which values the next trial gets, when the study is done, when it has failed, which running trial the
/// median stopping rule stops, and the order `trials[]` is shown in. The Scheduler runs the trials; this
/// class decides. Sources: REST v1 `HyperparameterSpec`/`HyperparameterOutput`, the service's
/// "Hyperparameter tuning overview", and Vizier's `MedianAutomatedStoppingConfig`.
///
/// Nothing here keeps state between calls beyond the spec: an executor that restarts and reads the same
/// trials gets the same answers (the optimiser is seeded from the job ID). Owned by the main thread;
/// suggest() costs what the optimiser costs (milliseconds to tens of milliseconds at 50 trials).
class Study {
public:
    /// The study of `jobId` under `spec` (validated already). `prior`: the trials of the job named by
    /// resumePreviousJobId (their values and objectives become observations ahead of this job's; this
    /// job's trial IDs continue after the last of them). Returns nullptr with `*error` set when the
    /// optimiser refuses the space (a spec validation should have refused first).
    static std::unique_ptr<Study> create(
        const QString& jobId, const HyperparameterSpec& spec, const QList<HyperparameterOutput>& prior, QString* error);
    ~Study();

    /// maxTrials (default 1: the service's).
    int maxTrials() const { return m_maxTrials; }
    /// maxParallelTrials (default 1).
    int maxParallelTrials() const { return m_maxParallel; }
    /// hyperparameterMetricTag, or the service's default `training/hptuning/metric`.
    QString metricTag() const { return m_metricTag; }
    bool maximize() const { return m_maximize; }
    bool earlyStopping() const { return m_earlyStopping; }
    /// The trial ID after the previous job's last one: 0 for a study that resumes nothing.
    int firstTrialOffset() const { return m_offset; }

    /// The next trial's parameters, as `(parameterName, value)` in the spec's parameter order, values
    /// formatted as the trial's `--name=value` arguments and `HyperparameterOutput.hyperparameters` show
    /// them (DOUBLE shortest round-trip, INTEGER decimal, DISCRETE the listed number, CATEGORICAL the string).
    /// `trials`: this job's trials so far, in any order; those not final are pending. Returns nothing when
    /// no point is left (a grid search that has tried every combination), with `*note` saying so, or when
    /// the optimiser failed, with `*note` giving its error. `*note` may also carry the optimiser's remarks
    /// (observations skipped) when a value is returned.
    std::optional<QList<std::pair<QString, QString>>> suggest(
        const QList<HyperparameterOutput>& trials, QString* note) const;

    /// Why the job must fail now, or nothing. `maxFailedTrials` > 0: when that many trials failed ("3 of
    /// the job's trials failed, the maxFailedTrials limit; the last one, trial 7: …"). 0 (the service
    /// decides), our rule, documented in API.md: the job fails when the first trial to end failed and no
    /// trial has succeeded, or when at least 3 trials failed and they are more than half of the ended
    /// trials. `lastError` is the error of the trial that failed last.
    std::optional<QString> failureVerdict(const QList<HyperparameterOutput>& trials, const QString& lastError) const;

    /// The median stopping rule (Vizier's MedianAutomatedStoppingConfig, the service's
    /// enableTrialEarlyStopping): a running trial stops when its best objective so far is strictly worse
    /// than the median, over the completed trials (SUCCEEDED, with metrics), of each one's running average
    /// of its objective values up to the running trial's latest step. Needs at least
    /// MinCompletedForStopping completed trials with a value at or before that step.
    bool shouldStopEarly(const HyperparameterOutput& running, const QList<HyperparameterOutput>& trials) const;
    static constexpr int MinCompletedForStopping = 2;

    /// Whether `a` is a better objective than `b` under the goal (NaN is never better).
    bool better(double a, double b) const;

    /// `trials` best first: trials with an objective by it (ties by trial ID), then the rest by trial ID
    /// (numerically), as the service returns `trainingOutput.trials`.
    void sortBestFirst(QList<HyperparameterOutput>* trials) const;

private:
    Study() = default;

    std::unique_ptr<Tuning::Optimizer> m_optimizer;
    HyperparameterSpec m_spec;
    QList<HyperparameterOutput> m_prior;
    int m_maxTrials = 1;
    int m_maxParallel = 1;
    int m_maxFailed = 0;
    int m_offset = 0;
    QString m_metricTag;
    bool m_maximize = true;
    bool m_earlyStopping = false;
};

/// The numeric order of trial IDs ("2" < "10"); IDs that are not numbers sort after, by text.
bool trialIdLess(const QString& a, const QString& b);

} // namespace Trainyard
