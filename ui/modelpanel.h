// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apiclient.h"
#include "job.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QWidget>

class QLabel;
class QTableView;
class QTreeWidget;

namespace Trainyard {

class ExecutorConnection;

/// A classification model's confusion matrix on its held-out split: rows are the true classes, columns the predicted
/// ones (the service's and scikit-learn's orientation), each cell the count. DisplayRole: the count; ToolTipRole:
/// "true A, predicted B: n (p % of A)"; BackgroundRole: the cell's share of its row, as a blue of that strength (the
/// diagonal dark when the model is right); Qt::UserRole: the count as a number. Headers: the class labels.
class ConfusionMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    /// `counts` must be labels.size() × labels.size(); anything else shows an empty matrix.
    void setMatrix(const QStringList& labels, const QList<QList<qint64>>& counts);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QStringList m_labels;
    QList<QList<qint64>> m_counts;
    QList<qint64> m_rowTotals;
};

/// The Model tab of a built-in algorithm job (issue 29): the held-out split's metrics; a confusion matrix
/// (classification) or predicted against actual values with the residuals (regression); XGBoost's feature
/// importance (total gain per CSV column) as a bar chart; and the model folder's files. Reads
/// `…/jobs/{id}/model` once the job (or the trial shown: the best one, or the one selected in the Trials tab) has
/// succeeded.
class ModelPanel : public QWidget {
    Q_OBJECT
public:
    ModelPanel(ExecutorConnection* connection, const Job& job, QWidget* parent = nullptr);

    /// The job changed (its state, its trials): loads the model when there is one and it was not loaded yet.
    void setJob(const Job& job);
    /// Shows this trial's model (a tuning job); empty: the best trial's.
    void setTrial(const QString& trialId);

    /// True once a model was read and shown.
    bool isLoaded() const { return m_loaded; }
    const TrainedModel& model() const { return m_model; }
    QLabel* summaryLabel() const { return m_summary; }
    QTableView* confusionView() const { return m_confusionView; }
    /// Says how the matrix reads (rows actual, columns predicted); shown with it.
    QLabel* confusionTitle() const { return m_confusionTitle; }
    ConfusionMatrixModel* confusionModel() const { return m_confusion; }
    QTreeWidget* filesView() const { return m_files; }
    /// The feature importance chart (nullptr without Qt Charts, or before an XGBoost model is shown).
    QWidget* importanceChart() const { return m_importance; }
    /// The predicted-against-actual chart (nullptr without Qt Charts, or before a regression model is shown).
    QWidget* scatterChart() const { return m_scatter; }

Q_SIGNALS:
    void message(const QString& text);

private:
    void load();
    void display(const TrainedModel& model);
    QString shownTrial() const;

    QPointer<ExecutorConnection> m_connection;
    Job m_job;
    QString m_trial; ///< selected in the Trials tab; empty: the best
    QString m_loadedFor; ///< "<trial>" of the shown model; a null string before any
    bool m_loaded = false;
    bool m_loading = false;
    TrainedModel m_model;
    QLabel* m_summary;
    QLabel* m_metrics;
    QTableView* m_confusionView;
    QLabel* m_confusionTitle = nullptr;
    ConfusionMatrixModel* m_confusion;
    QWidget* m_chartArea;
    QWidget* m_importance = nullptr;
    QWidget* m_scatter = nullptr;
    QTreeWidget* m_files;
};

} // namespace Trainyard
