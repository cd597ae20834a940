// SPDX-License-Identifier: GPL-2.0-or-later
#include "versiondetailspanel.h"

#include "rfc3339.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

#include <cmath>

namespace Trainyard {

namespace {
QString when(const QString& rfc3339)
{
    const QDateTime t = Rfc3339::parse(rfc3339);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::LongFormat) : rfc3339;
}
} // namespace

VersionDetailsPanel::VersionDetailsPanel(QWidget* parent)
    : QWidget(parent)
    , m_empty(new QLabel(tr("Select a version (or a model, for its default version) to see its details."), this))
    , m_body(new QWidget)
    , m_form(new QFormLayout(m_body))
{
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    const QList<QPair<QString, QString>> rows {
        { QStringLiteral("name"), tr("Version:") },
        { QStringLiteral("state"), tr("State:") },
        { QStringLiteral("description"), tr("Description:") },
        { QStringLiteral("labels"), tr("Labels:") },
        { QStringLiteral("created"), tr("Created:") },
        { QStringLiteral("lastUse"), tr("Last use:") },
        { QStringLiteral("framework"), tr("Framework:") },
        { QStringLiteral("runtime"), tr("Runtime version:") },
        { QStringLiteral("routine"), tr("Prediction routine:") },
        { QStringLiteral("deploymentUri"), tr("Deployment folder:") },
        { QStringLiteral("machineType"), tr("Machine type:") },
        { QStringLiteral("scaling"), tr("Scaling:") },
        { QStringLiteral("timeout"), tr("Prediction timeout:") },
        { QStringLiteral("requests"), tr("Requests (last hour):") },
    };
    for (const auto& [key, label] : rows) {
        auto* value = new QLabel(m_body);
        value->setObjectName(key + QStringLiteral("Value"));
        value->setWordWrap(true);
        value->setTextFormat(Qt::PlainText);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        // A long folder or error wraps inside the pane instead of widening it.
        value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        value->setMinimumWidth(120);
        m_form->addRow(label, value);
        m_values.insert(key, value);
    }
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_scroll = scroll;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(scroll, 1);
    setVersion(std::nullopt);
}

void VersionDetailsPanel::setField(const QString& key, const QString& value)
{
    QLabel* label = m_values.value(key);
    if (!label)
        return;
    label->setText(value);
    // An empty optional field (no description, no routine) leaves no empty row.
    const bool shown = !value.isEmpty();
    label->setVisible(shown);
    if (QWidget* title = m_form->labelForField(label))
        title->setVisible(shown);
}

QString VersionDetailsPanel::field(const QString& key) const
{
    const QLabel* label = m_values.value(key);
    return label && !label->isHidden() ? label->text() : QString();
}

void VersionDetailsPanel::setVersion(const std::optional<VersionResource>& version)
{
    m_empty->setVisible(!version);
    m_scroll->setVisible(version.has_value());
    if (!version) {
        m_shown.clear();
        return;
    }
    const VersionResource& v = *version;
    if (v.resourceName() != m_shown)
        setField(QStringLiteral("requests"), tr("…")); // until setMetrics() for this version
    m_shown = v.resourceName();
    setField(QStringLiteral("name"), v.resourceName());
    QString state = PredictionJson::versionStateName(v.state);
    if (v.isDefault)
        state += tr(" (the model's default version)");
    if (!v.errorMessage.isEmpty())
        state += QLatin1Char('\n') + v.errorMessage;
    setField(QStringLiteral("state"), state);
    setField(QStringLiteral("description"), v.description);
    QStringList labels;
    for (auto it = v.labels.cbegin(); it != v.labels.cend(); ++it)
        labels << it.key() + QLatin1Char('=') + it.value();
    setField(QStringLiteral("labels"), labels.join(QStringLiteral(", ")));
    setField(QStringLiteral("created"), when(v.createTime));
    setField(QStringLiteral("lastUse"), v.lastUseTime.isEmpty() ? tr("never") : when(v.lastUseTime));
    QString framework = PredictionJson::frameworkName(v.framework);
    if (!v.frameworkDetectedFrom.isEmpty())
        framework = tr("%1 (detected from %2)").arg(framework, v.frameworkDetectedFrom);
    setField(QStringLiteral("framework"), v.predictionClass.isEmpty() || v.framework != PredictionFramework::Unspecified
            ? framework
            : QString());
    QString runtime = v.runtimeVersion.isEmpty() ? tr("the executor's newest") : v.runtimeVersion;
    if (!v.pythonVersion.isEmpty())
        runtime += tr(", Python %1").arg(v.pythonVersion);
    setField(QStringLiteral("runtime"), runtime);
    setField(QStringLiteral("routine"),
        v.predictionClass.isEmpty() ? QString()
                                    : tr("%1 from %2").arg(v.predictionClass, v.packageUris.join(QStringLiteral(", "))));
    setField(QStringLiteral("deploymentUri"), v.deploymentUri);
    setField(QStringLiteral("machineType"), v.machineType.isEmpty() ? tr("mls1-c1-m2 (the default)") : v.machineType);
    QString scaling;
    if (v.manualScalingNodes > 0)
        scaling = tr("manual: %n node(s)", nullptr, v.manualScalingNodes);
    else if (v.autoScalingMinNodes || v.autoScalingMaxNodes)
        scaling = v.autoScalingMaxNodes
            ? tr("automatic: %1 to %2 nodes").arg(v.autoScalingMinNodes.value_or(0)).arg(*v.autoScalingMaxNodes)
            : tr("automatic: at least %n node(s)", nullptr, v.autoScalingMinNodes.value_or(0));
    else
        scaling = tr("1 node (no scaling given)");
    setField(QStringLiteral("scaling"), scaling);
    setField(QStringLiteral("timeout"),
        v.predictionTimeoutSeconds > 0
            ? tr("%n second(s)", nullptr, v.predictionTimeoutSeconds)
            : tr("%n second(s) (the default)", nullptr, PredictionLimits::DefaultTimeoutSeconds));
}

void VersionDetailsPanel::setMetrics(const VersionMetrics& metrics)
{
    double requests = 0, errors = 0;
    for (const VersionMetrics::Point& p : metrics.points) {
        requests += p.requestsPerSecond * metrics.intervalSeconds;
        errors += p.errorsPerSecond * metrics.intervalSeconds;
    }
    const QLocale locale;
    setField(QStringLiteral("requests"),
        tr("%1 requests, %2 errors (the executor's %n-second intervals of the last hour)", nullptr,
            metrics.intervalSeconds)
            .arg(locale.toString(qint64(std::llround(requests))), locale.toString(qint64(std::llround(errors)))));
}

} // namespace Trainyard
