// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "prediction.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace Trainyard {

/// Deploy…: a model folder as a new version of a model (the service's "create a version"). The model is picked from
/// the project's (or a new name typed: it is created first), the folder chosen or given (a succeeded job's model),
/// the framework detected from the folder's files and explained (PredictionJson::detectFramework()), the number of
/// prediction nodes set. OK is enabled when the names follow the service's rule and a framework is chosen; version()
/// is the request's body.
class DeployDialog final : public QDialog {
    Q_OBJECT
public:
    /// `models`: the project's models' IDs; `folder` and `model`: what to start with (a job's model folder, the model
    /// selected in the view).
    DeployDialog(const QStringList& models, const QString& folder, const QString& model, QWidget* parent = nullptr);

    QString modelName() const;
    /// True when modelName() is not one of the project's models (it is created before the version).
    bool isNewModel() const;
    /// The version to create (name, deploymentUri, framework, manualScaling.nodes), project and model unset.
    VersionResource version() const;

    QLineEdit* folderEdit() const { return m_folder; }
    QComboBox* frameworkBox() const { return m_framework; }
    QLabel* detectedLabel() const { return m_detected; }
    QLineEdit* versionEdit() const { return m_version; }

private:
    void detect();
    void validate();

    QStringList m_models;
    QComboBox* m_model;
    QLineEdit* m_version;
    QLineEdit* m_folder;
    QComboBox* m_framework;
    QLabel* m_detected;
    QSpinBox* m_nodes;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace Trainyard
