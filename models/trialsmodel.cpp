// SPDX-License-Identifier: GPL-2.0-or-later
#include "trialsmodel.h"

#include "joblistmodel.h"

#include <QLocale>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {
QString formatDuration(qint64 seconds)
{
    const qint64 h = seconds / 3600;
    const qint64 m = (seconds % 3600) / 60;
    const qint64 s = seconds % 60;
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m).arg(s, 2, 10, QLatin1Char('0'));
}

bool isTicking(const HyperparameterOutput& trial)
{
    return !trial.startTime.isEmpty() && trial.endTime.isEmpty() && !isFinal(trial.state);
}
} // namespace

TrialsModel::TrialsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    m_durationTimer.setInterval(1000);
    connect(&m_durationTimer, &QTimer::timeout, this, &TrialsModel::refreshDurations);
}

int TrialsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_trials.size());
}

int TrialsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : durationColumn() + 1;
}

int TrialsModel::parameterOfColumn(int column) const
{
    const int p = column - FirstParameterColumn;
    return p >= 0 && p < parameterCount() ? p : -1;
}

bool TrialsModel::isBetter(double a, double b) const
{
    if (std::isnan(a))
        return false;
    if (std::isnan(b))
        return true;
    return maximize() ? a > b : a < b;
}

std::optional<double> TrialsModel::objectiveOf(const HyperparameterOutput& trial)
{
    if (trial.finalMetric && trial.finalMetric->objectiveValue)
        return trial.finalMetric->objectiveValue;
    for (auto it = trial.allMetrics.crbegin(); it != trial.allMetrics.crend(); ++it) {
        if (it->objectiveValue)
            return it->objectiveValue;
    }
    return std::nullopt;
}

std::optional<qint64> TrialsModel::objectiveStepOf(const HyperparameterOutput& trial)
{
    if (trial.finalMetric && trial.finalMetric->objectiveValue)
        return trial.finalMetric->trainingStep;
    for (auto it = trial.allMetrics.crbegin(); it != trial.allMetrics.crend(); ++it) {
        if (it->objectiveValue)
            return it->trainingStep;
    }
    return std::nullopt;
}

std::optional<double> TrialsModel::parameterValue(const ParameterSpec& parameter, const QString& text)
{
    if (text.isEmpty())
        return std::nullopt;
    if (parameter.type == QLatin1String("CATEGORICAL")) {
        const qsizetype i = parameter.categoricalValues.indexOf(text);
        return i >= 0 ? std::optional<double>(double(i)) : std::nullopt;
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<qint64> TrialsModel::durationOf(const HyperparameterOutput& trial)
{
    const QDateTime start = JobListModel::parseTime(trial.startTime);
    if (!start.isValid())
        return std::nullopt;
    QDateTime end = JobListModel::parseTime(trial.endTime);
    if (!end.isValid()) {
        if (isFinal(trial.state))
            return std::nullopt;
        end = QDateTime::currentDateTimeUtc();
    }
    return std::max<qint64>(0, start.secsTo(end));
}

QVariant TrialsModel::trialSortKey(const QString& trialId)
{
    bool ok = false;
    const qlonglong n = trialId.toLongLong(&ok);
    return ok ? QVariant(n) : QVariant(trialId);
}

QVariant TrialsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HyperparameterOutput& t = m_trials.at(index.row());
    const std::optional<double> objective = objectiveOf(t);
    switch (role) {
    case TrialIdRole:
        return t.trialId;
    case StateRole:
        return QVariant::fromValue(t.state);
    case ObjectiveRole:
        return objective ? QVariant(*objective) : QVariant();
    case ObjectiveIsFinalRole:
        return bool(t.finalMetric && t.finalMetric->objectiveValue);
    case IsBestRole:
        return index.row() == m_best;
    default:
        break;
    }

    const int column = index.column();
    const int parameter = parameterOfColumn(column);
    if (role == ParameterValueRole) {
        if (parameter < 0)
            return {};
        const auto v = parameterValue(
            m_spec.params.at(parameter), t.hyperparameters.value(m_spec.params.at(parameter).parameterName));
        return v ? QVariant(*v) : QVariant();
    }
    if (role == SortRole) {
        if (column == TrialColumn)
            return trialSortKey(t.trialId);
        if (column == StateColumn)
            return int(t.state);
        if (parameter >= 0) {
            const ParameterSpec& p = m_spec.params.at(parameter);
            const QString text = t.hyperparameters.value(p.parameterName);
            const auto v = parameterValue(p, text);
            return v ? QVariant(*v) : text.isEmpty() ? QVariant() : QVariant(text);
        }
        if (column == objectiveColumn())
            return objective ? QVariant(*objective) : QVariant();
        if (column == stepColumn()) {
            const auto step = objectiveStepOf(t);
            return step ? QVariant(qlonglong(*step)) : QVariant();
        }
        if (column == stoppedEarlyColumn())
            return int(t.isTrialStoppedEarly.value_or(false));
        if (column == durationColumn()) {
            const auto d = durationOf(t);
            return d ? QVariant(qlonglong(*d)) : QVariant();
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        if (column == TrialColumn)
            return t.trialId;
        if (column == StateColumn) // the service's name; the console's proxy shows a translated one
            return jobStateName(t.state);
        if (parameter >= 0) {
            // A number in the locale's form with a few significant digits ("0.00525" beside "0.1", "0,8047" in
            // German), as TensorBoard's HParams table and optuna-dashboard show them; the exact value is in the
            // tooltip and what Copy copies (CopyRole).
            const ParameterSpec& p = m_spec.params.at(parameter);
            const QString text = t.hyperparameters.value(p.parameterName);
            const auto v = parameterValue(p, text);
            if (!v || p.type == QLatin1String("CATEGORICAL"))
                return text;
            if (p.type == QLatin1String("INTEGER"))
                return QLocale().toString(qlonglong(std::llround(*v)));
            return QLocale().toString(*v, 'g', 4);
        }
        if (column == objectiveColumn())
            return objective ? QLocale().toString(*objective, 'g', 4) : QString();
        if (column == stepColumn()) {
            const auto step = objectiveStepOf(t);
            return step ? QLocale().toString(*step) : QString();
        }
        if (column == stoppedEarlyColumn())
            return t.isTrialStoppedEarly.value_or(false) ? tr("Yes") : QString();
        if (column == durationColumn()) {
            const auto d = durationOf(t);
            return d ? formatDuration(*d) : QString();
        }
        return {};
    }
    if (role == CopyRole) {
        // The exact value: the service's text of a hyperparameter, the shortest form that reads back as the
        // objective's double (C locale, so that it pastes into Python or a spreadsheet alike).
        if (parameter >= 0)
            return t.hyperparameters.value(m_spec.params.at(parameter).parameterName);
        if (column == objectiveColumn())
            return objective ? QString::number(*objective, 'g', QLocale::FloatingPointShortest) : QString();
        if (column == StateColumn)
            return jobStateName(t.state);
        return data(index, Qt::DisplayRole);
    }
    if (role == Qt::ToolTipRole) {
        const QString exact = data(index, CopyRole).toString();
        if (column == objectiveColumn() && objective && !(t.finalMetric && t.finalMetric->objectiveValue))
            return tr("%1: the latest value the trial reported; its final metric comes when it ends").arg(exact);
        if (column == objectiveColumn() && objective)
            return tr("%1: the trial's final metric").arg(exact);
        if (parameter >= 0 && !exact.isEmpty())
            return exact;
        if (column == TrialColumn && index.row() == m_best)
            return maximize() ? tr("The best trial so far (highest objective)")
                              : tr("The best trial so far (lowest objective)");
        if (column == stoppedEarlyColumn() && t.isTrialStoppedEarly.value_or(false))
            return tr("Stopped early by the tuning service's automated early stopping");
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = column == TrialColumn || column == objectiveColumn() || column == stepColumn()
            || column == durationColumn()
            || (parameter >= 0 && m_spec.params.at(parameter).type != QLatin1String("CATEGORICAL"));
        if (numeric)
            return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant TrialsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const int parameter = parameterOfColumn(section);
    if (role == Qt::ToolTipRole) {
        if (parameter >= 0) {
            const ParameterSpec& p = m_spec.params.at(parameter);
            return tr("Hyperparameter %1 (%2)").arg(p.parameterName, p.type);
        }
        if (section == objectiveColumn())
            return maximize() ? tr("The objective the tuning maximizes") : tr("The objective the tuning minimizes");
        if (section == stepColumn())
            return tr("The training step at which the objective was reported");
        return {};
    }
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == TrialColumn)
        return tr("Trial");
    if (section == StateColumn)
        return tr("State");
    if (parameter >= 0)
        return m_spec.params.at(parameter).parameterName;
    if (section == objectiveColumn()) {
        const QString name = m_metricTag.isEmpty() ? tr("Objective") : m_metricTag;
        //: %1 is the objective's name; the arrow says whether higher (↑) or lower (↓) is better.
        return maximize() ? tr("%1 ↑").arg(name) : tr("%1 ↓").arg(name);
    }
    if (section == stepColumn())
        return tr("Step");
    if (section == stoppedEarlyColumn())
        return tr("Stopped early");
    if (section == durationColumn())
        return tr("Duration");
    return {};
}

QHash<int, QByteArray> TrialsModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(TrialIdRole, "trialId");
    names.insert(StateRole, "state");
    names.insert(ObjectiveRole, "objective");
    names.insert(ObjectiveIsFinalRole, "objectiveIsFinal");
    names.insert(IsBestRole, "isBest");
    names.insert(SortRole, "sortValue");
    names.insert(ParameterValueRole, "parameterValue");
    return names;
}

int TrialsModel::computeBest() const
{
    int best = -1;
    std::optional<double> bestValue;
    for (int row = 0; row < m_trials.size(); ++row) {
        const std::optional<double> v = objectiveOf(m_trials.at(row));
        if (!v || !std::isfinite(*v))
            continue;
        const bool better = !bestValue || isBetter(*v, *bestValue)
            || (*v == *bestValue
                && QVariant::compare(trialSortKey(m_trials.at(row).trialId), trialSortKey(m_trials.at(best).trialId))
                    == QPartialOrdering::Less);
        if (better) {
            best = row;
            bestValue = v;
        }
    }
    return best;
}

void TrialsModel::setJob(const Job& job)
{
    const HyperparameterSpec spec = job.trainingInput.hyperparameters.value_or(HyperparameterSpec {});
    const QList<HyperparameterOutput> trials
        = job.trainingOutput ? job.trainingOutput->trials : QList<HyperparameterOutput> {};
    QString tag = job.trainingOutput ? job.trainingOutput->hyperparameterMetricTag : QString();
    if (tag.isEmpty())
        tag = spec.hyperparameterMetricTag;
    const QString oldBest = bestTrialId();

    // Another job, or other parameters (other columns): start over. Anything else is a live update.
    if (job.jobId != m_jobId || spec.params != m_spec.params) {
        beginResetModel();
        m_jobId = job.jobId;
        m_spec = spec;
        m_metricTag = tag;
        m_trials = trials;
        m_rows.clear();
        for (int row = 0; row < m_trials.size(); ++row)
            m_rows.insert(m_trials.at(row).trialId, row);
        m_best = computeBest();
        endResetModel();
    } else {
        const bool goalChanged = spec.goal != m_spec.goal;
        m_spec = spec;
        if (tag != m_metricTag || goalChanged) {
            m_metricTag = tag;
            emit headerDataChanged(Qt::Horizontal, objectiveColumn(), objectiveColumn());
        }
        // Trials the job no longer lists (the executor never drops one; a restarted executor might).
        QSet<QString> listed;
        for (const HyperparameterOutput& t : trials)
            listed.insert(t.trialId);
        for (int row = int(m_trials.size()) - 1; row >= 0; --row) {
            if (listed.contains(m_trials.at(row).trialId))
                continue;
            beginRemoveRows({}, row, row);
            m_trials.removeAt(row);
            if (m_best == row)
                m_best = -1;
            else if (m_best > row)
                --m_best;
            endRemoveRows();
        }
        m_rows.clear();
        for (int row = 0; row < m_trials.size(); ++row)
            m_rows.insert(m_trials.at(row).trialId, row);

        QList<int> changed;
        QList<HyperparameterOutput> added;
        for (const HyperparameterOutput& t : trials) {
            const int row = m_rows.value(t.trialId, -1);
            if (row < 0) {
                if (!t.trialId.isEmpty()
                    && std::none_of(added.cbegin(), added.cend(),
                        [&t](const HyperparameterOutput& a) { return a.trialId == t.trialId; }))
                    added.append(t);
            } else if (!(m_trials.at(row) == t)) {
                m_trials[row] = t;
                changed.append(row);
            }
        }
        if (!added.isEmpty()) {
            const int first = int(m_trials.size());
            beginInsertRows({}, first, first + int(added.size()) - 1);
            for (const HyperparameterOutput& t : std::as_const(added)) {
                m_rows.insert(t.trialId, int(m_trials.size()));
                m_trials.append(t);
            }
            endInsertRows();
        }
        const int best = computeBest();
        if (best != m_best || goalChanged) {
            // The best row's font and icon change on every column, and so do the previous best's.
            const int previous = rowOf(oldBest);
            m_best = best;
            if (previous >= 0)
                changed.append(previous);
            if (best >= 0)
                changed.append(best);
        }
        if (goalChanged) {
            changed.clear();
            for (int row = 0; row < m_trials.size(); ++row)
                changed.append(row);
        }
        std::sort(changed.begin(), changed.end());
        changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
        // One dataChanged per run of consecutive rows.
        for (int i = 0; i < changed.size();) {
            int j = i;
            while (j + 1 < changed.size() && changed.at(j + 1) == changed.at(j) + 1)
                ++j;
            emit dataChanged(index(changed.at(i), 0), index(changed.at(j), columnCount() - 1));
            i = j + 1;
        }
    }

    const bool ticking = std::any_of(m_trials.cbegin(), m_trials.cend(), isTicking);
    if (ticking && !m_durationTimer.isActive())
        m_durationTimer.start();
    else if (!ticking)
        m_durationTimer.stop();
    if (bestTrialId() != oldBest)
        emit bestTrialChanged(bestTrialId());
}

void TrialsModel::clear()
{
    setJob(Job {});
}

void TrialsModel::refreshDurations()
{
    int first = -1, last = -1;
    for (int row = 0; row < m_trials.size(); ++row) {
        if (!isTicking(m_trials.at(row)))
            continue;
        if (first < 0)
            first = row;
        last = row;
    }
    if (first < 0) {
        m_durationTimer.stop();
        return;
    }
    emit dataChanged(index(first, durationColumn()), index(last, durationColumn()), { Qt::DisplayRole, SortRole });
}

} // namespace Trainyard
