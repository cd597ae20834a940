// SPDX-License-Identifier: GPL-2.0-or-later
#include "study.h"

#include "launchspec.h"
#include "optimizer.h"

#include <QCryptographicHash>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Trainyard {

namespace {

Tuning::ParameterSpec toTuning(const ParameterSpec& p)
{
    Tuning::ParameterSpec t;
    t.name = p.parameterName.toStdString();
    if (p.type == QLatin1String("DOUBLE"))
        t.type = Tuning::ParameterType::Double;
    else if (p.type == QLatin1String("INTEGER"))
        t.type = Tuning::ParameterType::Integer;
    else if (p.type == QLatin1String("CATEGORICAL"))
        t.type = Tuning::ParameterType::Categorical;
    else if (p.type == QLatin1String("DISCRETE"))
        t.type = Tuning::ParameterType::Discrete;
    t.minValue = p.minValue.value_or(0);
    t.maxValue = p.maxValue.value_or(0);
    t.discreteValues.assign(p.discreteValues.cbegin(), p.discreteValues.cend());
    for (const QString& c : p.categoricalValues)
        t.categoricalValues.push_back(c.toStdString());
    if (p.scaleType == QLatin1String("UNIT_LINEAR_SCALE"))
        t.scaleType = Tuning::ScaleType::UnitLinear;
    else if (p.scaleType == QLatin1String("UNIT_LOG_SCALE"))
        t.scaleType = Tuning::ScaleType::UnitLog;
    else if (p.scaleType == QLatin1String("UNIT_REVERSE_LOG_SCALE"))
        t.scaleType = Tuning::ScaleType::UnitReverseLog;
    return t;
}

/// A trial's stored values (strings, as `HyperparameterOutput.hyperparameters`) as the optimiser's
/// Assignment, in the spec's parameter order. `*ok` is false when a value is missing or does not read back
/// as its type (a hand-edited record); callers then skip the trial.
Tuning::Assignment toAssignment(const QList<ParameterSpec>& params, const QMap<QString, QString>& values, bool* ok)
{
    *ok = true;
    Tuning::Assignment a;
    a.reserve(size_t(params.size()));
    for (const ParameterSpec& p : params) {
        const QString text = values.value(p.parameterName);
        bool good = values.contains(p.parameterName);
        if (p.type == QLatin1String("CATEGORICAL")) {
            a.emplace_back(text.toStdString());
        } else if (p.type == QLatin1String("INTEGER")) {
            bool parsed = false;
            const qint64 v = text.toLongLong(&parsed);
            good = good && parsed;
            a.emplace_back(std::int64_t(v));
        } else {
            bool parsed = false;
            const double v = text.toDouble(&parsed);
            good = good && parsed;
            a.emplace_back(parsed ? v : std::numeric_limits<double>::quiet_NaN());
        }
        *ok = *ok && good;
    }
    return a;
}

std::optional<double> objectiveOf(const HyperparameterOutput& t)
{
    if (t.finalMetric && t.finalMetric->objectiveValue && std::isfinite(*t.finalMetric->objectiveValue))
        return *t.finalMetric->objectiveValue;
    return std::nullopt;
}

/// A stable 64-bit seed from the job ID (the first 8 bytes of its SHA-256): the same study gets the same
/// suggestions in every executor, on every host.
std::uint64_t seedOf(const QString& jobId)
{
    const QByteArray digest = QCryptographicHash::hash(jobId.toUtf8(), QCryptographicHash::Sha256);
    std::uint64_t seed = 0;
    for (int i = 0; i < 8; ++i)
        seed = (seed << 8) | std::uint8_t(digest.at(i));
    return seed;
}

} // namespace

bool trialIdLess(const QString& a, const QString& b)
{
    bool okA = false;
    bool okB = false;
    const qlonglong na = a.toLongLong(&okA);
    const qlonglong nb = b.toLongLong(&okB);
    if (okA && okB)
        return na < nb;
    if (okA != okB)
        return okA;
    return a < b;
}

std::unique_ptr<Study> Study::create(
    const QString& jobId, const HyperparameterSpec& spec, const QList<HyperparameterOutput>& prior, QString* error)
{
    std::unique_ptr<Study> study(new Study);
    study->m_spec = spec;
    study->m_prior = prior;
    study->m_maxTrials = std::max(1, spec.maxTrials.value_or(1));
    study->m_maxParallel = std::max(1, spec.maxParallelTrials.value_or(1));
    study->m_maxFailed = std::max(0, spec.maxFailedTrials.value_or(0));
    study->m_metricTag
        = spec.hyperparameterMetricTag.isEmpty() ? Launch::defaultMetricTag() : spec.hyperparameterMetricTag;
    study->m_maximize = spec.goal != QLatin1String("MINIMIZE");
    study->m_earlyStopping = spec.enableTrialEarlyStopping.value_or(false);
    for (const HyperparameterOutput& t : prior) {
        bool ok = false;
        const int id = t.trialId.toInt(&ok);
        if (ok)
            study->m_offset = std::max(study->m_offset, id);
    }

    std::vector<Tuning::ParameterSpec> params;
    for (const ParameterSpec& p : spec.params)
        params.push_back(toTuning(p));
    Tuning::Algorithm algorithm = Tuning::Algorithm::Unspecified;
    if (spec.algorithm == QLatin1String("GRID_SEARCH"))
        algorithm = Tuning::Algorithm::GridSearch;
    else if (spec.algorithm == QLatin1String("RANDOM_SEARCH"))
        algorithm = Tuning::Algorithm::RandomSearch;
    std::string why;
    study->m_optimizer = Tuning::makeOptimizer(algorithm, params,
        study->m_maximize ? Tuning::Goal::Maximize : Tuning::Goal::Minimize, seedOf(jobId), &why);
    if (!study->m_optimizer) {
        if (error)
            *error = QString::fromStdString(why);
        return nullptr;
    }
    return study;
}

Study::~Study() = default;

std::optional<QList<std::pair<QString, QString>>> Study::suggest(
    const QList<HyperparameterOutput>& trials, QString* note) const
{
    // History in trial order: the previous job's trials, then this job's.
    QList<HyperparameterOutput> ordered = m_prior;
    QList<HyperparameterOutput> own = trials;
    std::sort(own.begin(), own.end(),
        [](const HyperparameterOutput& a, const HyperparameterOutput& b) { return trialIdLess(a.trialId, b.trialId); });
    ordered += own;

    std::vector<Tuning::Observation> observations;
    std::vector<Tuning::Assignment> pending;
    for (const HyperparameterOutput& t : std::as_const(ordered)) {
        bool ok = false;
        Tuning::Assignment a = toAssignment(m_spec.params, t.hyperparameters, &ok);
        if (!ok)
            continue; // values that are not a point of this space (a hand-edited record): nothing to learn
        if (!isFinal(t.state)) {
            pending.push_back(std::move(a));
            continue;
        }
        // Failed, cancelled and silent trials keep their place (grid points are not repeated, seeds stay
        // aligned) with a NaN objective, which the model ignores.
        const std::optional<double> objective
            = t.state == JobState::Succeeded ? objectiveOf(t) : std::optional<double>();
        observations.push_back({ std::move(a), objective.value_or(std::numeric_limits<double>::quiet_NaN()) });
    }
    const Tuning::Suggestions s = m_optimizer->suggest(observations, pending, 1);
    QStringList notes;
    for (const std::string& n : s.notes)
        notes << QString::fromStdString(n);
    if (!s.error.empty())
        notes << QString::fromStdString(s.error);
    if (s.assignments.empty() && s.error.empty())
        notes << QStringLiteral("Every point of the search space has been tried; no further trial is started.");
    if (note)
        *note = notes.join(QLatin1Char(' '));
    if (s.assignments.empty())
        return std::nullopt;
    QList<std::pair<QString, QString>> values;
    const Tuning::Assignment& a = s.assignments.front();
    for (qsizetype i = 0; i < m_spec.params.size() && size_t(i) < a.size(); ++i)
        values.append({ m_spec.params.at(i).parameterName, QString::fromStdString(Tuning::formatValue(a[size_t(i)])) });
    return values;
}

std::optional<QString> Study::failureVerdict(const QList<HyperparameterOutput>& trials, const QString& lastError) const
{
    int failed = 0;
    int succeeded = 0;
    int ended = 0;
    const HyperparameterOutput* firstEnded = nullptr;
    for (const HyperparameterOutput& t : trials) {
        if (t.state == JobState::Failed)
            ++failed;
        else if (t.state == JobState::Succeeded)
            ++succeeded;
        else
            continue;
        ++ended;
        if (!firstEnded || t.endTime < firstEnded->endTime
            || (t.endTime == firstEnded->endTime && trialIdLess(t.trialId, firstEnded->trialId)))
            firstEnded = &t;
    }
    const QString last = lastError.isEmpty() ? QString() : QStringLiteral(" The last failed trial: ") + lastError;
    if (m_maxFailed > 0) {
        if (failed >= m_maxFailed)
            return QStringLiteral("%1 of the job's trials failed, the limit set by maxFailedTrials (%2).%3")
                .arg(failed)
                .arg(m_maxFailed)
                .arg(last);
        return std::nullopt;
    }
    if (firstEnded && firstEnded->state == JobState::Failed && succeeded == 0)
        return QStringLiteral("The first trial to end (trial %1) failed, so the job failed (maxFailedTrials is 0: "
                              "the first trial failing fails the job).%2")
            .arg(firstEnded->trialId, last);
    if (failed >= 3 && 2 * failed > ended)
        return QStringLiteral("%1 of the %2 trials that ended failed: more than half (maxFailedTrials is 0: at least "
                              "3 failed trials that are more than half of those ended fail the job).%3")
            .arg(failed)
            .arg(ended)
            .arg(last);
    return std::nullopt;
}

bool Study::better(double a, double b) const
{
    if (std::isnan(a))
        return false;
    if (std::isnan(b))
        return true;
    return m_maximize ? a > b : a < b;
}

bool Study::shouldStopEarly(const HyperparameterOutput& running, const QList<HyperparameterOutput>& trials) const
{
    if (running.allMetrics.isEmpty())
        return false;
    qint64 step = std::numeric_limits<qint64>::min();
    double best = std::numeric_limits<double>::quiet_NaN();
    for (const HyperparameterMetric& m : running.allMetrics) {
        if (!m.objectiveValue || !std::isfinite(*m.objectiveValue))
            continue;
        step = std::max(step, m.trainingStep.value_or(0));
        if (better(*m.objectiveValue, best))
            best = *m.objectiveValue;
    }
    if (std::isnan(best))
        return false;
    std::vector<double> averages;
    for (const HyperparameterOutput& t : trials) {
        if (t.trialId == running.trialId || t.state != JobState::Succeeded)
            continue;
        double sum = 0;
        int n = 0;
        for (const HyperparameterMetric& m : t.allMetrics) {
            if (m.objectiveValue && std::isfinite(*m.objectiveValue) && m.trainingStep.value_or(0) <= step) {
                sum += *m.objectiveValue;
                ++n;
            }
        }
        if (n > 0)
            averages.push_back(sum / n);
    }
    if (int(averages.size()) < MinCompletedForStopping)
        return false;
    std::sort(averages.begin(), averages.end());
    const size_t mid = averages.size() / 2;
    const double median = averages.size() % 2 ? averages[mid] : (averages[mid - 1] + averages[mid]) / 2;
    return better(median, best);
}

void Study::sortBestFirst(QList<HyperparameterOutput>* trials) const
{
    std::stable_sort(trials->begin(), trials->end(), [this](const HyperparameterOutput& a, const HyperparameterOutput& b) {
        // A failed trial's last report is not a result: it ranks with the trials that have none.
        const std::optional<double> oa = a.state == JobState::Failed ? std::nullopt : objectiveOf(a);
        const std::optional<double> ob = b.state == JobState::Failed ? std::nullopt : objectiveOf(b);
        if (oa && ob && *oa != *ob)
            return better(*oa, *ob);
        if (oa.has_value() != ob.has_value())
            return oa.has_value();
        return trialIdLess(a.trialId, b.trialId);
    });
}

} // namespace Trainyard
