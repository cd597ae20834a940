// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Two charts of the Trials tab that optuna-dashboard users look for (issue 46 item 21): each trial's intermediate
// objective values by step, early-stopped trials marked; and each hyperparameter's importance (fANOVA, computed by the
// executor: GET …/jobs/{job}/hyperparameterImportance, app/executor/API.md). Qt Charts only.

#include "apitypes.h"
#include "job.h"

#include <QWidget>

#include <optional>

class QChartView;
class QLabel;

namespace Trainyard {

/// The objective each trial reported at each step (HyperparameterOutput::allMetrics, the hypertune reports), one line
/// per trial; a trial the early-stopping rule stopped (isTrialStoppedEarly) is dashed and ends in a cross, as
/// optuna-dashboard marks pruned trials. The legend names at most 12 trials (the best first).
class IntermediateValuesChart : public QWidget {
    Q_OBJECT
public:
    explicit IntermediateValuesChart(QWidget* parent = nullptr);

    /// Draws the trials of `job` (its trainingOutput.trials); `isBetter(a, b)` orders objectives by the study's goal.
    void setTrials(const QList<HyperparameterOutput>& trials, const std::function<bool(double, double)>& isBetter);

    QChartView* view() const { return m_view; }
    /// Per trial drawn: "TRIAL:POINTS" and " stopped early" when so (tests).
    QStringList drawnTrials() const { return m_drawn; }
    /// Says why nothing is drawn ("No trial reported an intermediate value yet."), else empty.
    QLabel* emptyLabel() const { return m_empty; }

private:
    QChartView* m_view;
    QLabel* m_empty;
    QStringList m_drawn;
    QString m_shownKey; ///< what is drawn, to skip identical redraws
};

/// Each hyperparameter's importance as horizontal bars, largest on top, with the method and the trial count below
/// (setImportance()), or why there is none (setProblem()).
class ImportanceChart : public QWidget {
    Q_OBJECT
public:
    explicit ImportanceChart(QWidget* parent = nullptr);

    void setImportance(const HyperparameterImportance& importance);
    /// Clears the bars and says `text` ("Needs 2 succeeded trials; the job has 1.").
    void setProblem(const QString& text);

    QChartView* view() const { return m_view; }
    /// "fANOVA … over 12 trials", or the problem.
    QLabel* noteLabel() const { return m_note; }
    /// The bars as drawn, top first: "NAME VALUE".
    QStringList bars() const { return m_bars; }

private:
    QChartView* m_view;
    QLabel* m_note;
    QStringList m_bars;
};

} // namespace Trainyard
