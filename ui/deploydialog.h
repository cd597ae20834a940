// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "prediction.h"

#include <QDialog>
#include <QMap>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace Trainyard {

/// Deploy…: a model folder as a new version of a model (the service's "create a version"). The model is picked from
/// the project's (or a new name typed: it is created first), the folder chosen or given (a succeeded job's model),
/// the framework detected from the folder's files and explained (PredictionJson::detectFramework()), the number of
/// prediction nodes set. The names are checked as typed: the service's ID rule, and a version name the model
/// already has (the next free one, "vN", is proposed). OK emits deployRequested() and keeps the dialog open: the
/// caller sends the requests and either accept()s or, on a refusal, calls showRefusal(), which says the server's
/// message beside the field it names and keeps everything typed.
class DeployDialog final : public QDialog {
    Q_OBJECT
public:
    /// `versions`: the project's models' IDs, each with its versions' names; `folder` and `model`: what to start with
    /// (a job's model folder and a model named after the job, or the model selected in the view). The version
    /// proposed is the first of v1, v2, … that `model` does not have.
    DeployDialog(const QMap<QString, QStringList>& versions, const QString& folder, const QString& model,
        QWidget* parent = nullptr);

    /// The first of "v1", "v2", … not in `taken`.
    static QString nextVersionName(const QStringList& taken);
    /// A model ID proposed for a job's model: the job's ID, which follows the same rule (a letter, then letters,
    /// digits and underscores), with anything else replaced by '_' and a leading 'm' where it starts otherwise.
    static QString modelNameFor(const QString& jobId);

    QString modelName() const;
    /// True when modelName() is not one of the project's models (it is created before the version).
    bool isNewModel() const;
    /// The version to create (name, deploymentUri, framework, manualScaling.nodes, explanationConfig), project and
    /// model unset.
    VersionResource version() const;

    QLineEdit* folderEdit() const { return m_folder; }
    QComboBox* frameworkBox() const { return m_framework; }
    QLabel* detectedLabel() const { return m_detected; }
    QLineEdit* versionEdit() const { return m_version; }
    QComboBox* modelBox() const { return m_model; }
    /// Explanations: none, or a method (its data: int(ExplanationConfig::Method)), with its cost in the tooltip and
    /// the line below; `explanationCount()` its paths or steps (the service's default, 50).
    QComboBox* explanationBox() const { return m_explanation; }
    QSpinBox* explanationCount() const { return m_explanationCount; }
    QLabel* explanationCost() const { return m_explanationCost; }
    /// The check's or the server's message (hidden when there is none).
    QLabel* problemLabel() const { return m_problem; }

    /// The server refused the request: `message` beside the dialog's fields, OK enabled again, nothing cleared.
    void showRefusal(const QString& message);
    /// Between OK and the server's answer: the fields and OK are disabled.
    void setBusy(bool busy);

Q_SIGNALS:
    /// OK with valid fields: the caller creates the model (when new) and the version.
    void deployRequested();

private:
    void detect();
    void validate();
    /// The explanation row for the method chosen: the count's meaning and range, and what it costs.
    void explainCost();

    QMap<QString, QStringList> m_versions;
    QComboBox* m_model;
    QLineEdit* m_version;
    QLineEdit* m_folder;
    QComboBox* m_framework;
    QLabel* m_detected;
    QSpinBox* m_nodes;
    QComboBox* m_explanation;
    QSpinBox* m_explanationCount;
    QLabel* m_explanationCost;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace Trainyard
