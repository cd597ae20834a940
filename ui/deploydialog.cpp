// SPDX-License-Identifier: GPL-2.0-or-later
#include "deploydialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace Trainyard {

DeployDialog::DeployDialog(
    const QMap<QString, QStringList>& versions, const QString& folder, const QString& model, QWidget* parent)
    : QDialog(parent)
    , m_versions(versions)
    , m_model(new QComboBox(this))
    , m_version(new QLineEdit(this))
    , m_folder(new QLineEdit(folder, this))
    , m_framework(new QComboBox(this))
    , m_detected(new QLabel(this))
    , m_nodes(new QSpinBox(this))
    , m_explanation(new QComboBox(this))
    , m_explanationCount(new QSpinBox(this))
    , m_explanationCost(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Deploy a Model"));
    setObjectName(QStringLiteral("deployDialog"));
    m_model->setEditable(true);
    m_model->addItems(versions.keys());
    m_model->setObjectName(QStringLiteral("deployModel"));
    m_model->setToolTip(tr("A model of the project, or a new name: the model is created first."));
    if (!model.isEmpty())
        m_model->setCurrentText(model);
    else if (versions.isEmpty())
        m_model->setCurrentText(QStringLiteral("my_model"));
    m_version->setObjectName(QStringLiteral("deployVersion"));
    m_version->setText(nextVersionName(versions.value(modelName())));
    m_folder->setObjectName(QStringLiteral("deployFolder"));
    m_framework->setObjectName(QStringLiteral("deployFramework"));
    for (PredictionFramework f :
        { PredictionFramework::ScikitLearn, PredictionFramework::XGBoost, PredictionFramework::PyTorch })
        m_framework->addItem(PredictionJson::frameworkName(f), int(f));
    m_detected->setObjectName(QStringLiteral("deployDetected"));
    m_detected->setWordWrap(true);
    m_nodes->setObjectName(QStringLiteral("deployNodes"));
    m_nodes->setRange(1, 16);
    m_nodes->setToolTip(
        tr("Prediction nodes: processes that each keep the model loaded; requests are spread over them."));
    m_explanation->setObjectName(QStringLiteral("deployExplanation"));
    m_explanation->addItem(tr("None"), -1);
    m_explanation->addItem(tr("Sampled Shapley (any model)"), int(ExplanationConfig::Method::SampledShapley));
    m_explanation->addItem(tr("Integrated gradients (PyTorch)"), int(ExplanationConfig::Method::IntegratedGradients));
    m_explanation->addItem(tr("XRAI (PyTorch images)"), int(ExplanationConfig::Method::Xrai));
    m_explanation->addItem(tr("TreeSHAP (XGBoost)"), int(ExplanationConfig::Method::TreeShap));
    m_explanation->addItem(tr("Exact Shapley (at most 12 features)"), int(ExplanationConfig::Method::ExactShapley));
    m_explanationCount->setObjectName(QStringLiteral("deployExplanationCount"));
    m_explanationCount->setValue(ExplanationConfig::DefaultPaths);
    m_explanationCost->setObjectName(QStringLiteral("deployExplanationCost"));
    m_explanationCost->setWordWrap(true);
    m_problem->setObjectName(QStringLiteral("deployProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: palette(link-visited)"));

    auto* browse = new QPushButton(tr("&Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Model Folder"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("&Version:"), m_version);
    // A row of a layout gets no buddy from addRow(QString, QLayout*): the label is made here, so Alt+F works.
    auto* folderLabel = new QLabel(tr("&Folder:"), this);
    folderLabel->setBuddy(m_folder);
    form->addRow(folderLabel, folderRow);
    form->addRow(tr("F&ramework:"), m_framework);
    form->addRow(QString(), m_detected);
    form->addRow(tr("&Nodes:"), m_nodes);
    auto* explainRow = new QHBoxLayout;
    explainRow->addWidget(m_explanation, 1);
    explainRow->addWidget(m_explanationCount);
    auto* explainLabel = new QLabel(tr("E&xplanations:"), this);
    explainLabel->setBuddy(m_explanation);
    form->addRow(explainLabel, explainRow);
    form->addRow(QString(), m_explanationCost);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The folder's files are copied into the executor's data folder, so a later change "
                                "of the folder changes nothing deployed. The first version of a model becomes its "
                                "default."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    // The caller answers: accept() once deployed, showRefusal() to keep what was typed (issue 46: the dialog closed
    // on "A version with the same name already exists", losing it).
    connect(m_buttons, &QDialogButtonBox::accepted, this, &DeployDialog::deployRequested);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_folder, &QLineEdit::textChanged, this, &DeployDialog::detect);
    connect(m_model, &QComboBox::currentTextChanged, this, [this] {
        // A version name that was only the proposal follows the model; one the user typed stays.
        if (!m_version->isModified())
            m_version->setText(nextVersionName(m_versions.value(modelName())));
        validate();
    });
    connect(m_version, &QLineEdit::textChanged, this, &DeployDialog::validate);
    connect(m_explanation, &QComboBox::currentIndexChanged, this, &DeployDialog::explainCost);
    explainCost();
    detect();
    resize(560, sizeHint().height());
}

QString DeployDialog::modelName() const
{
    return m_model->currentText().trimmed();
}

bool DeployDialog::isNewModel() const
{
    return !m_versions.contains(modelName());
}

QString DeployDialog::nextVersionName(const QStringList& taken)
{
    for (int n = 1;; ++n) {
        const QString name = QStringLiteral("v%1").arg(n);
        if (!taken.contains(name))
            return name;
    }
}

QString DeployDialog::modelNameFor(const QString& jobId)
{
    QString name;
    for (const QChar c : jobId)
        name += (c.isLetterOrNumber() && c.unicode() < 128) || c == QLatin1Char('_') ? c : QLatin1Char('_');
    if (name.isEmpty() || !name.front().isLetter())
        name.prepend(QLatin1Char('m'));
    return name.left(128);
}

void DeployDialog::showRefusal(const QString& message)
{
    setBusy(false);
    m_problem->setText(message);
    m_problem->show();
}

void DeployDialog::setBusy(bool busy)
{
    for (QWidget* w : std::initializer_list<QWidget*> {
             m_model, m_version, m_folder, m_framework, m_nodes, m_explanation, m_explanationCount })
        w->setEnabled(!busy);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
    if (busy) {
        m_problem->setText(tr("Deploying…"));
        m_problem->show();
    }
}

VersionResource DeployDialog::version() const
{
    VersionResource v;
    v.name = m_version->text().trimmed();
    v.deploymentUri = m_folder->text().trimmed();
    v.framework = PredictionFramework(m_framework->currentData().toInt());
    v.manualScalingNodes = m_nodes->value();
    if (const int method = m_explanation->currentData().toInt(); method >= 0) {
        ExplanationConfig config;
        config.method = ExplanationConfig::Method(method);
        if (config.method == ExplanationConfig::Method::SampledShapley)
            config.numPaths = m_explanationCount->value();
        else if (config.method == ExplanationConfig::Method::IntegratedGradients
            || config.method == ExplanationConfig::Method::Xrai)
            config.numIntegralSteps = m_explanationCount->value();
        v.explanationConfig = config;
    }
    return v;
}

void DeployDialog::explainCost()
{
    const int method = m_explanation->currentData().toInt();
    const bool paths = method == int(ExplanationConfig::Method::SampledShapley);
    const bool steps = method == int(ExplanationConfig::Method::IntegratedGradients)
        || method == int(ExplanationConfig::Method::Xrai);
    m_explanationCount->setVisible(paths || steps);
    m_explanationCount->setRange(1, paths ? ExplanationConfig::MaxPaths : ExplanationConfig::MaxSteps);
    m_explanationCount->setSuffix(paths ? tr(" paths") : tr(" steps"));
    QString cost;
    if (method < 0)
        cost = tr("Predictions only: Explain stays off for this version.");
    else if (paths)
        cost = tr("Each instance costs paths × (features + 1) rows through the model, one call per path; the error "
                  "shrinks as 1/√paths. Needs explanation_metadata.json (each feature's baseline) in the folder, or "
                  "a built-in algorithm's model.");
    else if (method == int(ExplanationConfig::Method::Xrai))
        cost = tr("Integrated gradients, then the image's segments at six scales ranked by attribution: a second or "
                  "so per image. Needs a TorchScript model whose explanation_metadata.json says its input is an "
                  "image.");
    else if (steps)
        cost = tr("One batched forward and backward pass of steps + 1 rows per instance; exact for a linear model. "
                  "Needs a TorchScript model and each input's baseline (explanation_metadata.json).");
    else if (method == int(ExplanationConfig::Method::TreeShap))
        cost = tr("Exact for the trees, one pass per instance, in the booster's margin (log-odds) space from its "
                  "expected margin; needs no baseline.");
    else
        cost = tr("2^features rows per instance (4,096 at 12 features): exact values, for small models only.");
    m_explanationCost->setText(cost);
    // The dialog was sized for the first (short) text: a longer one grows it rather than being clipped.
    if (isVisible() && layout()) {
        layout()->activate();
        const int needed = layout()->totalHeightForWidth(width());
        if (needed > height())
            resize(width(), needed);
    }
}

void DeployDialog::detect()
{
    const FrameworkGuess guess = PredictionJson::detectFramework(m_folder->text().trimmed());
    if (guess.framework != PredictionFramework::Unspecified)
        m_framework->setCurrentIndex(m_framework->findData(int(guess.framework)));
    m_detected->setText(guess.explanation);
    validate();
}

void DeployDialog::validate()
{
    QString problem;
    if (const QStringList p = PredictionJson::idProblems(modelName()); !p.isEmpty())
        problem = tr("Model name: %1").arg(p.join(QLatin1Char(' ')));
    else if (const QStringList v = PredictionJson::idProblems(m_version->text().trimmed()); !v.isEmpty())
        problem = tr("Version name: %1").arg(v.join(QLatin1Char(' ')));
    else if (m_versions.value(modelName()).contains(m_version->text().trimmed()))
        //: %1 model, %2 the version typed, %3 the next free version name.
        problem = tr("Version name: model %1 already has a version %2; %3 is free.")
                      .arg(modelName(), m_version->text().trimmed(), nextVersionName(m_versions.value(modelName())));
    else if (m_folder->text().trimmed().isEmpty())
        problem = tr("Choose the folder that holds the model's files.");
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace Trainyard
