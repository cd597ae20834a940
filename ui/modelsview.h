// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "prediction.h"
#include "predictionresults.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTreeView;

namespace Trainyard {

class VersionChartsPanel;
class VersionDetailsPanel;

class ApiClient;
class ModelListFeed;
class DeployDialog;
class DeployedModelsModel;
class ExplanationsPanel;

/// The Models view (app/executor/API.md "Models and versions"): the project's models with their versions (state,
/// framework, default, nodes, last use), and what a user does with them: create a model, deploy a folder as a version
/// (DeployDialog), make a version the default, delete one, and predict.
///
/// The Predict panel sends the instances typed there to the selected version (a model row: its default version), one
/// instance per line: a line that is JSON is sent as that value, any other line as a string (a CSV row for a built-in
/// algorithm's model). The answer shows as a table (a built-in algorithm's: the label and each class's probability)
/// with the time the executor took.
///
/// Reads `…/models` and each model's versions every 5 s while shown (every second while a version is CREATING or
/// DELETING) and after every change.
class ModelsView final : public QWidget {
    Q_OBJECT
public:
    explicit ModelsView(QWidget* parent = nullptr);

    /// The client to ask; nullptr stops the polling. Reads at once.
    void setClient(ApiClient* client);

    DeployedModelsModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    QLabel* statusLabel() const { return m_status; }
    QPlainTextEdit* instancesEdit() const { return m_instances; }
    QTableWidget* predictions() const { return m_predictions; }
    QLabel* latencyLabel() const { return m_latency; }
    QPushButton* predictButton() const { return m_predict; }
    /// Explain: the instances' explanations (projects.explain) below them; enabled for a READY version with an
    /// explanationConfig (its tooltip says why not otherwise).
    QPushButton* explainButton() const { return m_explain; }
    ExplanationsPanel* explanationsPanel() const { return m_explanations; }
    /// The selected version's log (its nodes' starts, exits, scaling and output, and request records), last 200 lines.
    QPlainTextEdit* logView() const { return m_log; }
    /// The Charts tab: the selected version's requests/s, latency percentiles and errors/s.
    VersionChartsPanel* chartsPanel() const { return m_charts; }
    /// The Details tab: the selected version's (or the selected model's default version's) page.
    VersionDetailsPanel* detailsPanel() const { return m_details; }
    /// The built-in model's column form (hidden for other models) and its fields, in CSV order after the target.
    /// The tree follows the executor's models stream (it listed every model; changes come as they happen).
    bool isFollowing() const;
    QWidget* columnForm() const { return m_formBox; }
    const QList<QWidget*>& columnFields() const { return m_formFields; }

public slots:
    void refresh();
    /// Deploy…: opens DeployDialog with `folder` (a job's model folder; empty: none yet) and creates the version
    /// (and the model, when its name is new). `jobId`: the job the folder is of; the model proposed is named after it
    /// (else the model selected in the view). A refusal keeps the dialog open with the server's message.
    void deploy(const QString& folder = {}, const QString& jobId = {});
    /// Sends the Predict panel's instances to the selected version.
    void predict();
    /// Asks the selected version to explain the Predict panel's instances; shown in the explanations panel.
    void explain();
    /// Selects `model` (and `version`) in the tree.
    void select(const QString& model, const QString& version = {});

signals:
    /// A read of the models and versions arrived (the model holds them).
    void refreshed();
    /// A read of the selected version's log arrived (shown in the Log tab).
    void logRefreshed();
    /// A read of the selected version's request metrics arrived (shown in the Charts tab).
    void chartsRefreshed();
    /// The column form was built (or hidden) for the selection.
    void columnFormChanged();
    /// An answer of predict() arrived (shown in the panel), or its error.
    void predicted(bool ok);
    /// An answer of explain() arrived (shown in the explanations panel), or its error.
    void explained(bool ok);

private:
    void createModel();
    void setDefault();
    void deleteSelected();
    void updateActions();
    void showAnswer(const PredictResponse& answer, qint64 ms);
    void createVersion(const QString& model, VersionResource version, QPointer<DeployDialog> dialog);
    /// For a built-in algorithm's model (the selected version, or the selected model's default), a form of its
    /// training table's columns (…/versions/{v}/inputSchema: a number field with the column's mean as a hint, or the
    /// category list) whose "Add as Instance" appends the row to the instances; hidden for any other model.
    void loadInputSchema();
    /// Reads each READY version's latest request rate into the tree's Requests column (only while the models stream
    /// is down: it carries the rates).
    void refreshRates();
    /// Shows what the models stream has told (m_feed, once it listed every model).
    void applyFeed();
    /// Every 5 s: with the stream up, the selected version's log and charts only; with it down, a reconnect and one
    /// read of the whole list (refresh()).
    void poll();
    void buildForm(const InputSchema& schema);
    void addFormRow();
    /// Reads the selected version's log into the Log tab and its request metrics into the Charts tab (nothing
    /// selected: cleared).
    void refreshLog();
    void refreshCharts();

    QPointer<ApiClient> m_client;
    DeployedModelsModel* m_model;
    QTreeView* m_tree;
    QLabel* m_status;
    QPushButton* m_newModel;
    QPushButton* m_deploy;
    QPushButton* m_setDefault;
    QPushButton* m_delete;
    QPushButton* m_refresh;
    QLabel* m_target;
    QPlainTextEdit* m_instances;
    QPushButton* m_predict;
    QPushButton* m_explain;
    QTableWidget* m_predictions;
    ExplanationsPanel* m_explanations;
    /// The Predict panel's instances; empty after saying why in the latency label.
    QJsonArray typedInstances();
    /// Predict's and Explain's target, (model, version: empty for its default), with the typed instances in
    /// *instances; nullopt when nothing is selected, no client is set or no instance is typed (said in the label).
    std::optional<std::pair<QString, QString>> requestTarget(QJsonArray* instances);
    QLabel* m_latency;
    QPlainTextEdit* m_log;
    VersionChartsPanel* m_charts;
    VersionDetailsPanel* m_details;
    void showDetails();
    /// The selected version, or the selected model's default version; nullopt for neither.
    std::optional<VersionResource> currentVersion() const;
    QWidget* m_formBox;
    QWidget* m_form;
    QList<QWidget*> m_formFields; ///< one per column after the target, in CSV order (a QLineEdit or a QComboBox)
    QString m_schemaFor; ///< the version whose schema the form shows
    bool m_schemaLoaded = false; ///< m_schemaFor's schema came (else it is asked again on the next update)
    bool m_schemaPending = false; ///< m_schemaFor's schema is being asked
    bool m_logPending = false;
    bool m_chartsPending = false;
    QTimer m_poll;
    bool m_pending = false;
    ModelListFeed* m_feed; ///< the models stream the tree follows once it is synced
    QString m_selectModel;
    QString m_selectVersion;
};

} // namespace Trainyard
