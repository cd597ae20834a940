// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardtuningpage.h"

#include "builtinalgorithmform.h"
#include "machinecatalog.h"
#include "stateicons.h"
#include "submitwizard.h"
#include "tuningpreview.h"
#include "wizardpage_p.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPalette>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace Trainyard {

namespace {

const QString HyperparametersField = QStringLiteral("trainingInput.hyperparameters");

/// The enum names a type cell offers (the API's identifiers, shown as they are).
const QStringList& parameterTypes()
{
    static const QStringList types { QStringLiteral("DOUBLE"), QStringLiteral("INTEGER"), QStringLiteral("DISCRETE"),
        QStringLiteral("CATEGORICAL") };
    return types;
}

/// The scale types a scale cell offers, "" (absent: the service's NONE) first.
const QStringList& scaleTypes()
{
    static const QStringList scales { QString(), QStringLiteral("UNIT_LINEAR_SCALE"), QStringLiteral("UNIT_LOG_SCALE"),
        QStringLiteral("UNIT_REVERSE_LOG_SCALE") };
    return scales;
}

QString scaleLabel(const QString& scale)
{
    if (scale.isEmpty())
        return WizardTuningPage::tr("None");
    if (scale == QLatin1String("UNIT_LINEAR_SCALE"))
        return WizardTuningPage::tr("Linear");
    if (scale == QLatin1String("UNIT_LOG_SCALE"))
        return WizardTuningPage::tr("Log");
    if (scale == QLatin1String("UNIT_REVERSE_LOG_SCALE"))
        return WizardTuningPage::tr("Reverse log");
    return scale; // NONE or a name the service may add: kept as written
}

bool isNumericType(const QString& type)
{
    return type == QLatin1String("DOUBLE") || type == QLatin1String("INTEGER");
}

bool isListType(const QString& type)
{
    return type == QLatin1String("DISCRETE") || type == QLatin1String("CATEGORICAL");
}

/// A bound or value as a cell shows it: the shortest text that reads back the same, in fixed notation where
/// that is short ("0.0001", not the executor's "1e-04").
QString numberText(double value)
{
    const double magnitude = std::abs(value);
    const bool fixed = value == 0 || (magnitude >= 1e-6 && magnitude < 1e15);
    return QString::number(value, fixed ? 'f' : 'g', QLocale::FloatingPointShortest);
}

/// The background of a field or cell that breaks a rule (the problem labels' red, light).
const QColor InvalidBackground(0xf6, 0xcf, 0xcf);

/// The combo box a ChoiceDelegate edits with; remembers whether its list was popped up, so that a pick from the
/// list commits at once while arrow keys on the closed box only step through the entries (until Enter).
class ChoiceBox final : public QComboBox {
public:
    using QComboBox::QComboBox;
    void showPopup() override
    {
        m_poppedUp = true;
        QComboBox::showPopup();
    }
    bool takePoppedUp() { return std::exchange(m_poppedUp, false); }

private:
    bool m_poppedUp = false;
};

/// A combo box editor for the type and scale columns: the cell keeps the enum name in Qt::UserRole and a label
/// as its text. Picking an entry from the popped-up list commits at once (a mouse user should not need Enter).
class ChoiceDelegate final : public QStyledItemDelegate {
public:
    using Label = QString (*)(const QString&);
    ChoiceDelegate(QStringList values, Label label, QObject* parent)
        : QStyledItemDelegate(parent)
        , m_values(std::move(values))
        , m_label(label)
    {
    }

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const override
    {
        auto* box = new ChoiceBox(parent);
        box->setAccessibleName(index.model()->headerData(index.column(), Qt::Horizontal).toString());
        for (const QString& v : m_values)
            box->addItem(m_label(v), v);
        connect(box, &QComboBox::activated, this, [this, box] {
            if (!box->takePoppedUp())
                return;
            auto* self = const_cast<ChoiceDelegate*>(this);
            emit self->commitData(box);
            emit self->closeEditor(box);
        });
        return box;
    }

    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        auto* box = static_cast<QComboBox*>(editor);
        const QString value = index.data(Qt::UserRole).toString();
        int i = box->findData(value);
        if (i < 0) {
            box->addItem(m_label(value), value);
            i = box->count() - 1;
        }
        box->setCurrentIndex(i);
    }

    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        const QString value = static_cast<QComboBox*>(editor)->currentData().toString();
        model->setData(index, value, Qt::UserRole);
        model->setData(index, m_label(value), Qt::DisplayRole);
    }

private:
    QStringList m_values;
    Label m_label;
};

QString typeLabel(const QString& type)
{
    return type;
}

/// "params[3].minValue" → 3; -1 when the path names no parameter.
int paramIndex(const QString& field)
{
    static const QRegularExpression re(QStringLiteral("^trainingInput\\.hyperparameters\\.params\\[(\\d+)\\]"));
    const QRegularExpressionMatch m = re.match(field);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

WizardTuningPage::WizardTuningPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_box(new QGroupBox(tr("&Tune hyperparameters"), this))
    , m_goal(new QComboBox(m_box))
    , m_metricTag(new QLineEdit(m_box))
    , m_algorithm(new QComboBox(m_box))
    , m_maxTrials(new QSpinBox(m_box))
    , m_maxParallel(new QSpinBox(m_box))
    , m_maxFailed(new QSpinBox(m_box))
    , m_earlyStopping(new QCheckBox(tr("Stop poor trials &early"), m_box))
    , m_resume(new QComboBox(m_box))
    , m_params(new QTableWidget(0, ColumnCount, m_box))
    , m_addParam(new QPushButton(tr("&Add parameter"), m_box))
    , m_removeParam(new QPushButton(tr("Remo&ve parameter"), m_box))
    , m_problems(problemLabel(QStringLiteral("tuningProblems"), m_box))
    , m_grid(new QLabel(m_box))
    , m_command(new QLabel(m_box))
    , m_commandNote(new QLabel(m_box))
{
    setTitle(tr("Hyperparameter tuning"));
    setSubTitle(tr("Optional: run the trainer many times (trials), each with other values for the flags below "
                   "(--NAME=VALUE), and keep the values whose reported metric is best."));
    m_box->setObjectName(QStringLiteral("tuningBox"));
    m_box->setCheckable(true);
    m_box->setChecked(false);
    m_box->setAccessibleName(tr("Tune hyperparameters"));
    m_box->setWhatsThis(tr("<b>hyperparameters</b>: when on, the job is a tuning job. Each trial runs the whole "
                           "cluster with the parameters below passed as --NAME=VALUE flags, and the trainer reports "
                           "the metric with cloudml-hypertune."));

    m_goal->setObjectName(QStringLiteral("goalBox"));
    m_goal->setAccessibleName(tr("Goal"));
    m_goal->addItem(tr("Maximize the metric"), QStringLiteral("MAXIMIZE"));
    m_goal->addItem(tr("Minimize the metric"), QStringLiteral("MINIMIZE"));
    m_goal->setWhatsThis(tr("<b>goal</b> (required): whether a larger (MAXIMIZE) or a smaller (MINIMIZE) value of "
                            "the metric is better."));
    m_metricTag->setObjectName(QStringLiteral("metricTagEdit"));
    m_metricTag->setAccessibleName(tr("Metric tag"));
    m_metricTag->setPlaceholderText(QStringLiteral("training/hptuning/metric"));
    m_metricTag->setWhatsThis(tr("<b>hyperparameterMetricTag</b>: the tag the trainer reports its metric under "
                                 "(cloudml-hypertune's report_hyperparameter_tuning_metric). Empty means the "
                                 "service's default, training/hptuning/metric."));
    m_algorithm->setObjectName(QStringLiteral("algorithmBox"));
    m_algorithm->setAccessibleName(tr("Search algorithm"));
    m_algorithm->addItem(tr("Bayesian optimisation"), QString());
    m_algorithm->addItem(tr("Grid search"), QStringLiteral("GRID_SEARCH"));
    m_algorithm->addItem(tr("Random search"), QStringLiteral("RANDOM_SEARCH"));
    m_algorithm->setWhatsThis(tr("<b>algorithm</b>: Bayesian optimisation (the service's default, "
                                 "ALGORITHM_UNSPECIFIED) learns from finished trials; GRID_SEARCH tries every "
                                 "combination and cannot take DOUBLE parameters; RANDOM_SEARCH draws at random."));
    m_maxTrials->setObjectName(QStringLiteral("maxTrialsBox"));
    m_maxTrials->setAccessibleName(tr("Maximum trials"));
    m_maxTrials->setRange(1, 10000);
    m_maxTrials->setValue(10);
    m_maxTrials->setWhatsThis(tr("<b>maxTrials</b>: how many trials the study runs at most (the service's default "
                                 "is 1)."));
    m_maxParallel->setObjectName(QStringLiteral("maxParallelTrialsBox"));
    m_maxParallel->setAccessibleName(tr("Maximum parallel trials"));
    m_maxParallel->setRange(1, 1000);
    m_maxParallel->setWhatsThis(tr("<b>maxParallelTrials</b>: how many trials run at the same time. Each trial "
                                   "needs the whole cluster of the Compute page."));
    m_maxFailed->setObjectName(QStringLiteral("maxFailedTrialsBox"));
    m_maxFailed->setAccessibleName(tr("Maximum failed trials"));
    m_maxFailed->setRange(0, 10000);
    //: Shown in the "Max failed trials" spin box at 0, the API's "the service decides when to fail".
    m_maxFailed->setSpecialValueText(tr("Service decides"));
    m_maxFailed->setWhatsThis(tr("<b>maxFailedTrials</b>: the study fails after this many failed trials; 0 lets "
                                 "the service decide."));
    m_earlyStopping->setObjectName(QStringLiteral("earlyStoppingBox"));
    m_earlyStopping->setWhatsThis(tr("<b>enableTrialEarlyStopping</b>: stop a trial whose reported metric is "
                                     "clearly worse than finished trials' at the same step."));
    m_resume->setObjectName(QStringLiteral("resumeBox"));
    m_resume->setAccessibleName(tr("Resume a previous tuning job"));
    m_resume->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_resume->setMinimumContentsLength(20);
    m_resume->setWhatsThis(tr("<b>resumePreviousJobId</b>: continue the study of an earlier tuning job of this "
                              "executor: its trials count as already tried."));

    m_params->setObjectName(QStringLiteral("parameterTable"));
    m_params->setAccessibleName(tr("Parameters"));
    m_params->setHorizontalHeaderLabels(
        { tr("Name"), tr("Type"), tr("Min"), tr("Max"), tr("Values (comma-separated)"), tr("Scale") });
    m_params->setWhatsThis(tr("<b>params</b> (the service's rules): each name once, passed as --NAME=VALUE; DOUBLE "
                              "and INTEGER need minValue < maxValue (INTEGER bounds whole numbers); DISCRETE values "
                              "strictly increasing, at most 1,000; CATEGORICAL values distinct; a log scale needs "
                              "values above 0. Numbers use a dot for decimals."));
    m_params->verticalHeader()->setVisible(false);
    m_params->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_params->horizontalHeader()->setSectionResizeMode(ValuesColumn, QHeaderView::Stretch);
    m_params->horizontalHeader()->setSectionResizeMode(TypeColumn, QHeaderView::ResizeToContents);
    m_params->horizontalHeader()->setSectionResizeMode(ScaleColumn, QHeaderView::ResizeToContents);
    m_params->setColumnWidth(MinColumn, 80);
    m_params->setColumnWidth(MaxColumn, 80);
    m_params->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_params->setSelectionMode(QAbstractItemView::SingleSelection);
    m_params->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
        | QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    m_params->setTabKeyNavigation(false); // Tab leaves the table, as in the labels table
    m_params->setMinimumHeight(110);
    m_params->setItemDelegateForColumn(TypeColumn, new ChoiceDelegate(parameterTypes(), &typeLabel, m_params));
    m_params->setItemDelegateForColumn(ScaleColumn, new ChoiceDelegate(scaleTypes(), &scaleLabel, m_params));
    m_addParam->setObjectName(QStringLiteral("addParameterButton"));
    m_removeParam->setObjectName(QStringLiteral("removeParameterButton"));
    m_grid->setObjectName(QStringLiteral("gridLabel"));
    m_grid->setWordWrap(true);
    m_grid->setTextFormat(Qt::PlainText);
    m_command->setObjectName(QStringLiteral("trialCommandLabel"));
    m_command->setAccessibleName(tr("Trial 1 command line"));
    m_command->setWordWrap(true);
    m_command->setTextFormat(Qt::PlainText);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setFrameShape(QFrame::StyledPanel);
    m_command->setMargin(4);
    m_commandNote->setObjectName(QStringLiteral("trialCommandNote"));
    m_commandNote->setWordWrap(true);
    m_commandNote->setTextFormat(Qt::PlainText);
    m_commandNote->setStyleSheet(QStringLiteral("color: #5e5c64;"));

    auto* settings = new QGridLayout;
    auto addField = [&](int row, int column, const QString& text, QWidget* field) {
        auto* label = new QLabel(text, m_box);
        label->setBuddy(field);
        settings->addWidget(label, row, column);
        settings->addWidget(field, row, column + 1);
    };
    addField(0, 0, tr("&Goal:"), m_goal);
    addField(1, 0, tr("&Metric tag:"), m_metricTag);
    addField(2, 0, tr("A&lgorithm:"), m_algorithm);
    addField(3, 0, tr("Res&ume from:"), m_resume);
    addField(0, 2, tr("Max t&rials:"), m_maxTrials);
    addField(1, 2, tr("Max &parallel trials:"), m_maxParallel);
    addField(2, 2, tr("Max &failed trials:"), m_maxFailed);
    settings->addWidget(m_earlyStopping, 3, 2, 1, 2);
    settings->setColumnStretch(1, 2);
    settings->setColumnStretch(3, 1);

    auto* boxLayout = new QVBoxLayout(m_box);
    boxLayout->addLayout(settings);
    auto* paramsLabel = new QLabel(tr("Parameter&s (each becomes --NAME=VALUE):"), m_box);
    paramsLabel->setBuddy(m_params);
    boxLayout->addWidget(paramsLabel);
    boxLayout->addWidget(m_params, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_addParam);
    buttons->addWidget(m_removeParam);
    buttons->addStretch(1);
    boxLayout->addLayout(buttons);
    boxLayout->addWidget(m_problems);
    boxLayout->addWidget(m_grid);
    boxLayout->addWidget(m_command);
    boxLayout->addWidget(m_commandNote);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_box);

    setTabOrder(m_goal, m_metricTag);
    setTabOrder(m_metricTag, m_algorithm);
    setTabOrder(m_algorithm, m_resume);
    setTabOrder(m_resume, m_maxTrials);
    setTabOrder(m_maxTrials, m_maxParallel);
    setTabOrder(m_maxParallel, m_maxFailed);
    setTabOrder(m_maxFailed, m_earlyStopping);
    setTabOrder(m_earlyStopping, m_params);
    setTabOrder(m_params, m_addParam);
    setTabOrder(m_addParam, m_removeParam);

    auto edited = [this] {
        m_serverViolations.clear();
        revalidate();
    };
    connect(m_box, &QGroupBox::toggled, this, edited);
    connect(m_goal, &QComboBox::currentIndexChanged, this, edited);
    connect(m_metricTag, &QLineEdit::textChanged, this, edited);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, edited);
    connect(m_maxTrials, &QSpinBox::valueChanged, this, edited);
    connect(m_maxParallel, &QSpinBox::valueChanged, this, edited);
    connect(m_maxFailed, &QSpinBox::valueChanged, this, edited);
    connect(m_earlyStopping, &QCheckBox::toggled, this, edited);
    connect(m_resume, &QComboBox::currentIndexChanged, this, edited);
    connect(m_params, &QTableWidget::itemChanged, this, [this, edited](QTableWidgetItem* item) {
        if (item->column() == TypeColumn)
            updateRowFlags(item->row());
        edited();
    });
    connect(m_addParam, &QPushButton::clicked, this, &WizardTuningPage::addParameter);
    connect(m_removeParam, &QPushButton::clicked, this, [this, edited] {
        const int row = m_params->currentRow();
        if (row >= 0)
            m_params->removeRow(row);
        edited();
    });
    connect(wizard, &SubmitWizard::knownJobsChanged, this, &WizardTuningPage::fillResumeJobs);
    fillResumeJobs();
    m_shown = shown();
    revalidate();
}

bool WizardTuningPage::tuningEnabled() const
{
    return m_box->isChecked();
}

void WizardTuningPage::addRow(const ParameterSpec& p)
{
    const QSignalBlocker block(m_params);
    const int row = m_params->rowCount();
    m_params->insertRow(row);
    auto* type = new QTableWidgetItem(typeLabel(p.type));
    type->setData(Qt::UserRole, p.type);
    auto* scale = new QTableWidgetItem(scaleLabel(p.scaleType));
    scale->setData(Qt::UserRole, p.scaleType);
    QStringList values;
    for (double v : p.discreteValues)
        values << numberText(v);
    values << p.categoricalValues;
    m_params->setItem(row, NameColumn, new QTableWidgetItem(p.parameterName));
    m_params->setItem(row, TypeColumn, type);
    m_params->setItem(row, MinColumn, new QTableWidgetItem(p.minValue ? numberText(*p.minValue) : QString()));
    m_params->setItem(row, MaxColumn, new QTableWidgetItem(p.maxValue ? numberText(*p.maxValue) : QString()));
    m_params->setItem(row, ValuesColumn, new QTableWidgetItem(values.join(QStringLiteral(", "))));
    m_params->setItem(row, ScaleColumn, scale);
    updateRowFlags(row);
}

void WizardTuningPage::addParameter()
{
    ParameterSpec p;
    p.type = QStringLiteral("DOUBLE");
    p.scaleType = QStringLiteral("UNIT_LINEAR_SCALE");
    addRow(p);
    const int row = m_params->rowCount() - 1;
    m_serverViolations.clear();
    revalidate();
    m_params->setCurrentCell(row, NameColumn);
    m_params->setFocus(Qt::OtherFocusReason);
    m_params->editItem(m_params->item(row, NameColumn));
}

void WizardTuningPage::updateRowFlags(int row)
{
    const QSignalBlocker block(m_params);
    const QString type = m_params->item(row, TypeColumn)->data(Qt::UserRole).toString();
    auto setEditable = [this, row](int column, bool editable) {
        QTableWidgetItem* item = m_params->item(row, column);
        if (!item)
            return;
        item->setFlags(editable ? (item->flags() | Qt::ItemIsEditable | Qt::ItemIsEnabled)
                                : (item->flags() & ~(Qt::ItemIsEditable | Qt::ItemIsEnabled)));
        // What no longer applies goes: a stale range under CATEGORICAL would read as part of the spec.
        if (!editable) {
            item->setText(column == ScaleColumn ? scaleLabel(QString()) : QString());
            if (column == ScaleColumn)
                item->setData(Qt::UserRole, QString());
        }
    };
    setEditable(MinColumn, !isListType(type));
    setEditable(MaxColumn, !isListType(type));
    setEditable(ValuesColumn, !isNumericType(type));
    setEditable(ScaleColumn, type != QLatin1String("CATEGORICAL"));
}

QList<ParameterSpec> WizardTuningPage::tableParameters(FieldViolations* parseProblems) const
{
    QList<ParameterSpec> params;
    auto text = [this](int row, int column) {
        const QTableWidgetItem* item = m_params->item(row, column);
        return item ? item->text().trimmed() : QString();
    };
    for (int row = 0; row < m_params->rowCount(); ++row) {
        ParameterSpec p;
        const QString path = HyperparametersField + QStringLiteral(".params[%1].").arg(row);
        p.parameterName = text(row, NameColumn);
        p.type = m_params->item(row, TypeColumn)->data(Qt::UserRole).toString();
        p.scaleType = m_params->item(row, ScaleColumn)->data(Qt::UserRole).toString();
        auto number = [&](const QString& typed, const char* field) -> std::optional<double> {
            if (typed.isEmpty())
                return std::nullopt;
            // The C locale, as the API writes numbers; without group separators, or "0,001" would read as 1.
            QLocale c = QLocale::c();
            c.setNumberOptions(QLocale::RejectGroupSeparator);
            bool ok = false;
            const double value = c.toDouble(typed, &ok);
            if (ok)
                return value;
            if (parseProblems)
                //: %1 is what the user typed in a Min, Max or Values cell.
                parseProblems->append({ path + QLatin1String(field),
                    tr("\"%1\" is not a number (use a dot for decimals, e.g. 0.001 or 1e-4).").arg(typed) });
            return std::nullopt;
        };
        if (isNumericType(p.type)) {
            p.minValue = number(text(row, MinColumn), "minValue");
            p.maxValue = number(text(row, MaxColumn), "maxValue");
        } else if (isListType(p.type)) {
            const QStringList parts = text(row, ValuesColumn).split(QLatin1Char(','), Qt::SkipEmptyParts);
            for (const QString& part : parts) {
                const QString value = part.trimmed();
                if (value.isEmpty())
                    continue;
                if (p.type == QLatin1String("CATEGORICAL")) {
                    p.categoricalValues << value;
                } else if (const std::optional<double> d = number(value, "discreteValues")) {
                    p.discreteValues << *d;
                }
            }
        }
        params << p;
    }
    return params;
}

WizardTuningPage::Shown WizardTuningPage::shown() const
{
    Shown s;
    s.enabled = m_box->isChecked();
    s.goal = m_goal->currentData().toString();
    s.metricTag = m_metricTag->text().trimmed();
    s.algorithm = m_algorithm->currentData().toString();
    s.maxTrials = m_maxTrials->value();
    s.maxParallel = m_maxParallel->value();
    s.maxFailed = m_maxFailed->value();
    s.earlyStopping = m_earlyStopping->isChecked();
    s.resume = m_resume->currentData().toString();
    s.params = tableParameters(nullptr);
    return s;
}

HyperparameterSpec WizardTuningPage::spec() const
{
    const Shown now = shown();
    // A loaded spec keeps the exact form of what the user did not touch (an absent maxTrials stays absent,
    // ALGORITHM_UNSPECIFIED stays spelled out); a new one takes every field from the widgets.
    const bool keep = m_loadedSpec.has_value();
    HyperparameterSpec s = m_loadedSpec.value_or(HyperparameterSpec {});
    if (!keep || now.goal != m_shown.goal)
        s.goal = now.goal;
    if (!keep || now.metricTag != m_shown.metricTag)
        s.hyperparameterMetricTag = now.metricTag;
    if (!keep || now.algorithm != m_shown.algorithm)
        s.algorithm = now.algorithm;
    if (!keep || now.maxTrials != m_shown.maxTrials)
        s.maxTrials = now.maxTrials;
    if (!keep || now.maxParallel != m_shown.maxParallel)
        s.maxParallelTrials = now.maxParallel;
    if (!keep || now.maxFailed != m_shown.maxFailed)
        s.maxFailedTrials = now.maxFailed > 0 ? std::optional<int>(now.maxFailed) : std::nullopt;
    if (!keep || now.earlyStopping != m_shown.earlyStopping)
        s.enableTrialEarlyStopping = now.earlyStopping ? std::optional<bool>(true) : std::nullopt;
    if (!keep || now.resume != m_shown.resume)
        s.resumePreviousJobId = now.resume;
    if (!keep || now.params != m_shown.params)
        s.params = now.params;
    return s;
}

void WizardTuningPage::load(const Job& job)
{
    m_loading = true;
    const std::optional<HyperparameterSpec>& hp = job.trainingInput.hyperparameters;
    m_loadedSpec = hp;
    const HyperparameterSpec s = hp.value_or(HyperparameterSpec {});
    m_box->setChecked(hp.has_value());
    m_goal->setCurrentIndex(std::max(0, m_goal->findData(s.goal)));
    m_metricTag->setText(s.hyperparameterMetricTag);
    const QString algorithm = s.algorithm == QLatin1String("ALGORITHM_UNSPECIFIED") ? QString() : s.algorithm;
    WizardUi::selectData(m_algorithm, algorithm, tr("%1 (unknown algorithm)"));
    // Absent counts show the service's defaults (maxTrials and maxParallelTrials 1); a new spec starts at 10
    // trials, which is what a study needs to learn anything.
    m_maxTrials->setValue(hp ? s.maxTrials.value_or(1) : 10);
    m_maxParallel->setValue(s.maxParallelTrials.value_or(1));
    m_maxFailed->setValue(s.maxFailedTrials.value_or(0));
    m_earlyStopping->setChecked(s.enableTrialEarlyStopping.value_or(false));
    m_loadedResume = s.resumePreviousJobId;
    fillResumeJobs();
    WizardUi::selectData(m_resume, s.resumePreviousJobId, tr("%1 (not on this executor)"));
    m_params->setRowCount(0);
    for (const ParameterSpec& p : s.params)
        addRow(p);
    m_shown = shown();
    m_serverViolations.clear();
    m_loading = false;
    revalidate();
}

void WizardTuningPage::apply(Job& job) const
{
    if (!tuningEnabled()) {
        job.trainingInput.hyperparameters.reset();
        return;
    }
    job.trainingInput.hyperparameters = spec();
}

void WizardTuningPage::fillResumeJobs()
{
    const QString keep = m_resume->count() > 0 ? m_resume->currentData().toString() : m_loadedResume;
    const QSignalBlocker block(m_resume);
    m_resume->clear();
    m_resume->addItem(tr("(none: a new study)"), QString());
    QList<Job> tuning;
    for (const Job& job : m_wizard->knownJobs()) {
        if (job.trainingInput.hyperparameters
            || (job.trainingOutput && job.trainingOutput->isHyperparameterTuningJob.value_or(false)))
            tuning << job;
    }
    // Newest first (RFC 3339 times sort as text): the study to resume is usually the last one.
    std::sort(tuning.begin(), tuning.end(), [](const Job& a, const Job& b) { return a.createTime > b.createTime; });
    for (const Job& job : std::as_const(tuning)) {
        const qint64 trials = job.trainingOutput
            ? job.trainingOutput->completedTrialCount.value_or(job.trainingOutput->trials.size())
            : 0;
        //: %1 is a job ID, %2 its state (Succeeded …), %3 how many trials it completed.
        m_resume->addItem(
            tr("%1 — %2, %3 trials done").arg(job.jobId, stateDisplayName(job.state)).arg(trials), job.jobId);
    }
    if (!keep.isEmpty())
        WizardUi::selectData(m_resume, keep, tr("%1 (not on this executor)"));
}

std::pair<int, int> WizardTuningPage::cellFor(const QString& field)
{
    const int row = paramIndex(field);
    if (row < 0)
        return { -1, -1 };
    const QString leaf = field.section(QLatin1Char('.'), -1);
    if (leaf.startsWith(QLatin1String("parameterName")))
        return { row, NameColumn };
    if (leaf.startsWith(QLatin1String("type")))
        return { row, TypeColumn };
    if (leaf.startsWith(QLatin1String("minValue")))
        return { row, MinColumn };
    if (leaf.startsWith(QLatin1String("maxValue")))
        return { row, MaxColumn };
    if (leaf.startsWith(QLatin1String("scaleType")))
        return { row, ScaleColumn };
    return { row, ValuesColumn };
}

void WizardTuningPage::markField(QWidget* widget, const QStringList& messages)
{
    // The widget's own tool tip comes back when the problem goes.
    if (!widget->property("plainToolTip").isValid())
        widget->setProperty("plainToolTip", widget->toolTip());
    // A light red base, as the cells get: a style sheet border would re-polish the widget (closing an open
    // cell editor) and draws spin box arrows in the style sheet's way instead of the platform's.
    const bool invalid = !messages.isEmpty();
    if (widget->property("invalid").toBool() != invalid) {
        widget->setProperty("invalid", invalid);
        if (invalid) {
            QPalette palette = widget->palette();
            palette.setColor(QPalette::Base, InvalidBackground);
            palette.setColor(QPalette::Button, InvalidBackground);
            widget->setPalette(palette);
        } else {
            widget->setPalette(QPalette()); // inherit again
        }
    }
    widget->setToolTip(
        messages.isEmpty() ? widget->property("plainToolTip").toString() : messages.join(QLatin1Char('\n')));
}

void WizardTuningPage::revalidate()
{
    if (m_loading)
        return;
    m_violations.clear();
    QMap<QString, QStringList> byField;
    QStringList lines;
    if (tuningEnabled()) {
        FieldViolations parse;
        tableParameters(&parse);
        const HyperparameterSpec s = spec();
        Job job;
        job.trainingInput.hyperparameters = s;
        m_violations = parse;
        QSet<QString> unparsed;
        for (const FieldViolation& v : std::as_const(parse))
            unparsed.insert(v.field);
        // The service's rules as the executor checks them; the rest of this bare job is not this page's.
        for (const FieldViolation& v : validateJob(job, m_wizard->catalog(), m_wizard->hostInfo().inventory())) {
            if (v.field.startsWith(HyperparametersField) && !unparsed.contains(v.field))
                m_violations << v;
        }
        for (const FieldViolation& v : std::as_const(m_violations) + m_serverViolations) {
            byField[v.field] << v.description;
            const int row = paramIndex(v.field);
            if (row >= 0) {
                const QString name = row < s.params.size() ? s.params.at(row).parameterName : QString();
                //: %1 is the parameter's row number, %2 its name, %3 the rule it breaks.
                lines << (name.isEmpty() ? tr("Parameter %1: %2").arg(row + 1).arg(v.description)
                                         : tr("Parameter %1 (%2): %3").arg(row + 1).arg(name, v.description));
            } else {
                lines << v.description;
            }
        }
        updatePreview(s);
    } else {
        m_grid->clear();
        m_command->clear();
        m_commandNote->clear();
    }
    lines.removeDuplicates();
    setProblem(m_problems, WizardUi::bulletList(lines));

    // Cells: red with the rules as tool tip; the others plain.
    {
        const QSignalBlocker block(m_params);
        for (int row = 0; row < m_params->rowCount(); ++row) {
            for (int column = 0; column < ColumnCount; ++column) {
                QTableWidgetItem* item = m_params->item(row, column);
                if (!item)
                    continue;
                item->setData(Qt::BackgroundRole, QVariant());
                item->setToolTip(QString());
            }
        }
        for (auto it = byField.cbegin(); it != byField.cend(); ++it) {
            const auto [row, column] = cellFor(it.key());
            if (row < 0 || row >= m_params->rowCount())
                continue;
            if (QTableWidgetItem* item = m_params->item(row, column)) {
                item->setBackground(InvalidBackground);
                item->setToolTip(it.value().join(QLatin1Char('\n')));
            }
        }
    }
    auto messagesFor = [&byField](const char* leaf) {
        return byField.value(HyperparametersField + QLatin1Char('.') + QLatin1String(leaf));
    };
    markField(m_goal, messagesFor("goal"));
    markField(m_metricTag, messagesFor("hyperparameterMetricTag"));
    markField(m_algorithm, messagesFor("algorithm"));
    markField(m_maxTrials, messagesFor("maxTrials"));
    markField(m_maxParallel, messagesFor("maxParallelTrials"));
    markField(m_maxFailed, messagesFor("maxFailedTrials"));
    markField(m_resume, messagesFor("resumePreviousJobId"));
    markField(m_params, messagesFor("params"));
    updateComplete();
}

void WizardTuningPage::updatePreview(const HyperparameterSpec& spec)
{
    const TuningPreview::Grid grid = TuningPreview::grid(spec);
    switch (grid.kind) {
    case TuningPreview::Grid::Kind::Finite: {
        const QString points = grid.saturated ? tr("more than %1").arg(grid.points) : QString::number(grid.points);
        QString text = tr("Grid points: %1 (the product of each parameter's number of values).").arg(points);
        const int trials = spec.maxTrials.value_or(1);
        if (spec.algorithm == QLatin1String("GRID_SEARCH") && quint64(trials) > grid.points)
            //: %1 is maxTrials, %2 the number of grid points.
            text += QLatin1Char(' ')
                + tr("Grid search stops after %2 trials although maxTrials is %1.").arg(trials).arg(grid.points);
        m_grid->setText(text);
        break;
    }
    case TuningPreview::Grid::Kind::Infinite:
        //: %1 is a parameter name. "—" stands for "no number".
        m_grid->setText(tr("Grid points: — (the DOUBLE parameter \"%1\" takes infinitely many values; only INTEGER, "
                           "DISCRETE and CATEGORICAL parameters have a grid).")
                            .arg(spec.params.isEmpty() ? QString() : grid.doubleParameter));
        break;
    case TuningPreview::Grid::Kind::Incomplete:
        m_grid->setText(tr("Grid points: — (complete the parameters to count them)."));
        break;
    }

    // Trial 1's command line, as the executor builds a replica's argv (app/launch/launchspec.h).
    const Job job = m_wizard->job();
    const TrainingInput& in = job.trainingInput;
    QStringList words { QStringLiteral("python"), QStringLiteral("-m"),
        in.pythonModule.isEmpty() ? QStringLiteral("MODULE") : in.pythonModule };
    for (const QString& arg : in.args)
        words << SubmitWizard::shellQuote(arg);
    for (const auto& [name, value] : TuningPreview::trialOneValues(spec)) {
        const QString flag = QStringLiteral("--") + (name.isEmpty() ? QStringLiteral("NAME") : name);
        // "?" stands for a value the parameter cannot have yet; quoted, it would read as part of the command.
        words << (value ? SubmitWizard::shellQuote(flag + QLatin1Char('=') + *value) : flag + QStringLiteral("=?"));
    }
    if (!in.jobDir.isEmpty())
        words << QStringLiteral("--job-dir") << SubmitWizard::shellQuote(in.jobDir);
    m_command->setText(words.join(QLatin1Char(' ')));
    if (!spec.resumePreviousJobId.isEmpty()) {
        // The previous job's trials are the first observations: this study's first trial learns from them.
        //: %1 is the job ID of the tuning job being resumed.
        m_commandNote->setText(tr("This study resumes %1: its trials count as already tried, trial IDs continue "
                                  "after its last one, and the first new trial's values follow from them, so the "
                                  "command above only shows the form of a trial's command line.")
                                   .arg(spec.resumePreviousJobId));
        return;
    }
    switch (TuningPreview::firstTrial(spec.algorithm)) {
    case TuningPreview::FirstTrial::Centre:
        m_commandNote->setText(tr("Trial 1 starts at the centre of the space (the midpoint of each range in its "
                                  "scale, the first category); later trials follow what the metric reports."));
        break;
    case TuningPreview::FirstTrial::FirstGridPoint:
        m_commandNote->setText(tr("Grid search starts with every parameter's first value and steps through the "
                                  "combinations, the last parameter fastest."));
        break;
    case TuningPreview::FirstTrial::Random:
        m_commandNote->setText(tr("Random search draws every trial's values at random; trial 1 is shown at the "
                                  "centre of the space as an example."));
        break;
    }
}

void WizardTuningPage::initializePage()
{
    // The module, arguments and job dir of the trial command come from the pages before.
    revalidate();
}

bool WizardTuningPage::isComplete() const
{
    return !tuningEnabled() || m_violations.isEmpty();
}

QWidget* WizardTuningPage::showFieldError(const QString& field, const QString& message)
{
    m_serverViolations.append({ field.isEmpty() ? HyperparametersField : field, message });
    revalidate();
    const auto [row, column] = cellFor(field);
    if (row >= 0 && row < m_params->rowCount()) {
        m_params->setCurrentCell(row, column);
        return m_params;
    }
    const QString leaf = field.section(QLatin1Char('.'), -1);
    if (leaf == QLatin1String("goal"))
        return m_goal;
    if (leaf == QLatin1String("maxTrials"))
        return m_maxTrials;
    if (leaf == QLatin1String("maxParallelTrials"))
        return m_maxParallel;
    if (leaf == QLatin1String("maxFailedTrials"))
        return m_maxFailed;
    if (leaf == QLatin1String("resumePreviousJobId"))
        return m_resume;
    if (leaf == QLatin1String("hyperparameterMetricTag"))
        return m_metricTag;
    if (leaf == QLatin1String("algorithm"))
        return m_algorithm;
    return m_params;
}

void WizardTuningPage::clearFieldErrors()
{
    m_serverViolations.clear();
    revalidate();
}

} // namespace Trainyard
