// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The trials of a hyperparameter tuning job (the Trials tab, issue 13): one row per
// `trainingOutput.trials[]` entry (the service's HyperparameterOutput), columns for the trial, its state,
// each parameter of `trainingInput.hyperparameters.params` (in that order), the objective, its step, whether
// the trial was stopped early and its duration.
//
// Live: the console receives the whole Job each time it changes; setJob() diffs it against the rows by
// trial ID (new trials are inserted, changed ones get dataChanged, a vanished one is removed) so a view's
// selection and sort survive. Only another job, or another parameter list, resets the model. Rows keep the
// order in which trials first arrived (the executor lists them best first, and that order changes as
// objectives arrive); sorting belongs to a proxy (ui/trialsproxymodel.h).
//
// Values are Qt Core types: the state is the service's name here, icons and fonts are the ui's business.

#include "job.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QTimer>

#include <optional>

namespace Trainyard {

class TrialsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The fixed columns before the parameters; the rest depend on the parameter count (see the accessors).
    enum FixedColumn { TrialColumn = 0, StateColumn = 1, FirstParameterColumn = 2 };

    enum Role {
        TrialIdRole = Qt::UserRole + 1, ///< QString: the service's trialId ("1", "2", …)
        StateRole, ///< JobState
        /// double: the objective (see objectiveOf()); invalid while the trial has reported none. On every column.
        ObjectiveRole,
        ObjectiveIsFinalRole, ///< bool: the objective is the trial's finalMetric, not its latest report
        IsBestRole, ///< bool: the best trial by the goal (bestRow()); on every column
        /// A value that sorts the column naturally: trial IDs and numbers as numbers, durations in seconds,
        /// categories by their position in categoricalValues; missing values as an invalid QVariant.
        SortRole,
        /// On a parameter column: the value on the parameter's axis as a double (a number, or a category's
        /// index in categoricalValues); invalid when the trial has no (valid) value for it.
        ParameterValueRole,
        /// QString: the cell's exact value, for the tooltip and the clipboard (a hyperparameter as the service
        /// wrote it, the objective's shortest round-trip form, the state's API name); the display rounds numbers.
        CopyRole,
    };
    Q_ENUM(Role)

    explicit TrialsModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Takes a tuning job's trials (job.trainingOutput.trials) and parameters
    /// (job.trainingInput.hyperparameters); a job without hyperparameters has no parameter columns.
    void setJob(const Job& job);
    void clear();

    QString jobId() const { return m_jobId; }
    /// The tuning spec (goal, params, metric tag); empty for a job without hyperparameters.
    const HyperparameterSpec& spec() const { return m_spec; }
    /// The metric the trials optimise: trainingOutput.hyperparameterMetricTag, else the spec's tag.
    QString metricTag() const { return m_metricTag; }
    /// True unless the goal is MINIMIZE (the service requires a goal; an unspecified one reads as MAXIMIZE).
    bool maximize() const { return m_spec.goal != QLatin1String("MINIMIZE"); }
    /// True when `a` is a better objective than `b` under the goal. NaN is never better.
    bool isBetter(double a, double b) const;

    int parameterCount() const { return int(m_spec.params.size()); }
    int parameterColumn(int parameter) const { return FirstParameterColumn + parameter; }
    /// The parameter a column shows, or -1.
    int parameterOfColumn(int column) const;
    int objectiveColumn() const { return FirstParameterColumn + parameterCount(); }
    int stepColumn() const { return objectiveColumn() + 1; }
    int stoppedEarlyColumn() const { return objectiveColumn() + 2; }
    int durationColumn() const { return objectiveColumn() + 3; }

    int trialCount() const { return int(m_trials.size()); }
    const HyperparameterOutput& trial(int row) const { return m_trials.at(row); }
    const QList<HyperparameterOutput>& trials() const { return m_trials; }
    /// Row of a trial ID, -1 when absent.
    int rowOf(const QString& trialId) const { return m_rows.value(trialId, -1); }
    /// The row of the best trial (by the goal, among trials with a finite objective; ties go to the lower
    /// trial number), -1 when no trial has an objective yet.
    int bestRow() const { return m_best; }
    QString bestTrialId() const { return m_best >= 0 ? m_trials.at(m_best).trialId : QString(); }

    /// The objective a trial is ranked by: its finalMetric's objectiveValue, else (while it runs) the
    /// latest value it reported (the last of allMetrics); nullopt when it has reported none.
    static std::optional<double> objectiveOf(const HyperparameterOutput& trial);
    /// The training step of that objective.
    static std::optional<qint64> objectiveStepOf(const HyperparameterOutput& trial);
    /// A parameter's value (the service sends every value as a string) on the parameter's axis: the number
    /// for DOUBLE, INTEGER and DISCRETE, the index in categoricalValues for CATEGORICAL; nullopt when the
    /// text is no such value.
    static std::optional<double> parameterValue(const ParameterSpec& parameter, const QString& text);
    /// Seconds from the trial's start to its end, or to now while it has not ended; nullopt before it
    /// started (or a final trial without an end time).
    static std::optional<qint64> durationOf(const HyperparameterOutput& trial);
    /// A trial ID as a number for sorting ("10" after "9"); the ID itself when it is not a number.
    static QVariant trialSortKey(const QString& trialId);

Q_SIGNALS:
    /// The best trial changed (its ID; empty when no trial has an objective).
    void bestTrialChanged(const QString& trialId);

private:
    int computeBest() const;
    void refreshDurations();

    QString m_jobId;
    HyperparameterSpec m_spec;
    QString m_metricTag;
    QList<HyperparameterOutput> m_trials;
    QHash<QString, int> m_rows;
    int m_best = -1;
    QTimer m_durationTimer; ///< running trials' durations tick once a second
};

} // namespace Trainyard
