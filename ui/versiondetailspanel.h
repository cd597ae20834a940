// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "prediction.h"
#include "predictionresults.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QFormLayout;
class QLabel;

namespace Trainyard {

/// The Details tab of a deployed version (issue 46 item 13), as the Cloud Console's version page: what it is (name,
/// state, default, description, labels), how it was made (created, last use, framework and the file it was detected
/// from, runtime and Python, a routine's class and packages, the deployment folder), how it serves (machine type,
/// scaling, prediction timeout) and its request and error counts over the executor's last hour of 10-second points
/// (`GET …/versions/{v}/metrics`). Every value can be selected and copied.
class VersionDetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit VersionDetailsPanel(QWidget* parent = nullptr);

    /// Shows `version` (nullopt: the "select a version" text); the request counts wait for setMetrics().
    void setVersion(const std::optional<VersionResource>& version);
    /// The selected version's metrics (the Charts tab's answer): fills "Requests (last hour)".
    void setMetrics(const VersionMetrics& metrics);

    /// A field's value as shown, by key: "name", "state", "description", "created", "lastUse", "framework",
    /// "runtime", "machineType", "scaling", "routine", "timeout", "deploymentUri", "labels", "requests"; empty when
    /// the field is hidden (tests, and what a screen reader reads).
    QString field(const QString& key) const;

private:
    void setField(const QString& key, const QString& value);

    QLabel* m_empty;
    QWidget* m_body;
    QWidget* m_scroll;
    QFormLayout* m_form;
    QHash<QString, QLabel*> m_values;
    QString m_shown; ///< the resource name shown
};

} // namespace Trainyard
