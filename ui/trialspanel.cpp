// SPDX-License-Identifier: GPL-2.0-or-later
#include "trialspanel.h"

#if TRAINYARD_HAVE_QTCHARTS
#include "studycharts.h"
#endif

#include "parallelcoordinates.h"
#include "stateicons.h"
#include "trialsmodel.h"
#include "trialsproxymodel.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#if TRAINYARD_HAVE_QTCHARTS
#include "chartaxes.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#endif

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {
// The state filter's groups: what is still going, and how trials ended.
struct StateGroup {
    const char* objectName;
    QList<JobState> states;
    JobState icon;
};
const StateGroup StateGroups[] = {
    { "stateFilterRunning", { JobState::StateUnspecified, JobState::Queued, JobState::Preparing, JobState::Running },
        JobState::Running },
    { "stateFilterSucceeded", { JobState::Succeeded }, JobState::Succeeded },
    { "stateFilterFailed", { JobState::Failed }, JobState::Failed },
    { "stateFilterCancelled", { JobState::Cancelling, JobState::Cancelled }, JobState::Cancelled },
};

#if TRAINYARD_HAVE_QTCHARTS

void setValueRange(QValueAxis* axis, double lo, double hi, bool integers = false)
{
    setNiceValueRange(axis, lo, hi, 5, integers);
}
#endif
} // namespace

struct TrialsPanel::Charts {
#if TRAINYARD_HAVE_QTCHARTS
    QChart* scatter = nullptr;
    QScatterSeries* passing = nullptr;
    QScatterSeries* filtered = nullptr;
    QScatterSeries* best = nullptr;
    QValueAxis* scatterY = nullptr;
    QList<std::pair<QPointF, QString>> scatterPoints; ///< the points drawn, for clicks
    QChart* history = nullptr;
    QLineSeries* bestSoFar = nullptr;
    QScatterSeries* objectives = nullptr;
    QValueAxis* historyX = nullptr;
    QValueAxis* historyY = nullptr;
#endif
};

TrialsPanel::TrialsPanel(const Job& job, QWidget* parent)
    : QWidget(parent)
    , m_model(new TrialsModel(this))
    , m_proxy(new TrialsProxyModel(this))
    , m_table(new QTableView(this))
    , m_plot(new ParallelCoordinates(this))
    , m_topPercent(new QSpinBox(this))
    , m_summary(new QLabel(this))
    , m_submitAction(new QAction(tr("&Submit with these values…"), this))
    , m_resumeAction(new QAction(tr("&Resume tuning…"), this))
    , m_charts(std::make_unique<Charts>())
{
    m_proxy->setSourceModel(m_model);
    m_plot->setModel(m_model);

    // State filter: checkable buttons, all on.
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    auto* showLabel = new QLabel(tr("Show:"), this);
    bar->addWidget(showLabel);
    const QString groupNames[] = { tr("Running"), tr("Succeeded"), tr("Failed"), tr("Cancelled") };
    const QString groupTips[]
        = { tr("Show the trials that are queued, preparing or running"), tr("Show the trials that succeeded"),
              tr("Show the trials that failed"), tr("Show the trials that were cancelled (or are being cancelled)") };
    for (int g = 0; g < int(std::size(StateGroups)); ++g) {
        auto* button = new QToolButton(this);
        button->setObjectName(QString::fromLatin1(StateGroups[g].objectName));
        button->setText(groupNames[g]);
        button->setToolTip(groupTips[g]);
        button->setAccessibleName(groupTips[g]);
        button->setIcon(stateIcon(StateGroups[g].icon));
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setCheckable(true);
        button->setChecked(true);
        button->setAutoRaise(true);
        connect(button, &QToolButton::toggled, this, &TrialsPanel::applyStateFilter);
        bar->addWidget(button);
        m_stateButtons.append(button);
    }
    bar->addStretch(1);
    m_summary->setObjectName(QStringLiteral("trialsSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_summary);

    // The parallel coordinates, with the top-k % filter.
    auto* plotBox = new QWidget(this);
    auto* plotBar = new QHBoxLayout;
    plotBar->setContentsMargins(0, 0, 0, 0);
    auto* topLabel = new QLabel(tr("&Top"), plotBox);
    topLabel->setBuddy(m_topPercent);
    m_topPercent->setObjectName(QStringLiteral("topPercentSpin"));
    m_topPercent->setRange(1, 100);
    m_topPercent->setValue(100);
    m_topPercent->setSuffix(tr(" %"));
    m_topPercent->setToolTip(tr("Keep only the best trials by the objective (100 %: every trial)"));
    m_topPercent->setAccessibleName(tr("Top percent of trials by objective"));
    auto* clear = new QToolButton(plotBox);
    clear->setObjectName(QStringLiteral("clearFiltersButton"));
    clear->setText(tr("Clear filters"));
    clear->setToolTip(tr("Remove every brush and the top-k % filter (Escape in the plot clears the brushes)"));
    auto* hint = new QLabel(tr("Drag along an axis to filter the trials; click the axis to clear it."), plotBox);
    hint->setStyleSheet(QStringLiteral("color: palette(mid);"));
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    plotBar->addWidget(topLabel);
    plotBar->addWidget(m_topPercent);
    plotBar->addWidget(clear);
    plotBar->addSpacing(8);
    plotBar->addWidget(hint, 1);
    auto* plotLayout = new QVBoxLayout(plotBox);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->addLayout(plotBar);
    plotLayout->addWidget(m_plot, 1);
    connect(m_topPercent, &QSpinBox::valueChanged, m_plot, &ParallelCoordinates::setTopPercent);
    connect(clear, &QToolButton::clicked, this, [this] {
        m_plot->clearBrushes();
        m_topPercent->setValue(100);
    });

    // The table and the actions on the selected trial.
    m_table->setObjectName(QStringLiteral("trialsTable"));
    m_table->setAccessibleName(tr("Trials"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(TrialsModel::TrialColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setWordWrap(false);
    connect(m_table, &QWidget::customContextMenuRequested, this, &TrialsPanel::showContextMenu);
    // Copy (Ctrl+C): the selected trials as tab-separated lines with a header, every value exact (the table
    // rounds numbers to a few digits).
    m_copyAction = new QAction(tr("&Copy"), this);
    m_copyAction->setObjectName(QStringLiteral("copyTrialsAction"));
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_table->addAction(m_copyAction);
    connect(m_copyAction, &QAction::triggered, this, &TrialsPanel::copySelection);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TrialsPanel::onSelectionChanged);

    m_submitAction->setObjectName(QStringLiteral("submitWithValuesAction"));
    m_submitAction->setToolTip(tr("Open the submit wizard with this job, without tuning, and the selected trial's "
                                  "hyperparameters as fixed arguments"));
    m_resumeAction->setObjectName(QStringLiteral("resumeTuningAction"));
    connect(m_submitAction, &QAction::triggered, this, [this] {
        const QStringList selected = selectedTrials();
        if (selected.size() == 1)
            emit submitWithValues(jobWithValues(selected.first(), QDateTime::currentDateTime()));
    });
    connect(m_resumeAction, &QAction::triggered, this,
        [this] { emit resumeTuning(resumeJob(QDateTime::currentDateTime())); });
    auto* tableBox = new QWidget(this);
    auto* actions = new QHBoxLayout;
    actions->setContentsMargins(0, 0, 0, 0);
    for (QAction* action : { m_submitAction, m_resumeAction }) {
        auto* button = new QToolButton(tableBox);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        actions->addWidget(button);
    }
    actions->addStretch(1);
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_table, 1);
    tableLayout->addLayout(actions);

    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->setChildrenCollapsible(false);
    lower->addWidget(tableBox);

#if TRAINYARD_HAVE_QTCHARTS
    Charts& c = *m_charts;
    auto* chartsBox = new QWidget(this);
    m_scatterParameter = new QComboBox(chartsBox);
    m_scatterParameter->setObjectName(QStringLiteral("scatterParameterBox"));
    m_scatterParameter->setToolTip(tr("The hyperparameter on the scatter's x axis"));
    m_scatterParameter->setAccessibleName(tr("Parameter of the scatter plot"));
    auto* scatterLabel = new QLabel(tr("Objective &against"), chartsBox);
    scatterLabel->setBuddy(m_scatterParameter);
    auto* scatterBar = new QHBoxLayout;
    scatterBar->setContentsMargins(0, 0, 0, 0);
    scatterBar->addWidget(scatterLabel);
    scatterBar->addWidget(m_scatterParameter, 1);

    auto makeChart = [this](const QString& title) {
        auto* chart = new QChart;
        chart->setTitle(title);
        QFont titleFont = font();
        titleFont.setBold(true);
        chart->setTitleFont(titleFont);
        chart->setMargins(QMargins(2, 2, 2, 2));
        chart->layout()->setContentsMargins(0, 0, 0, 0);
        chart->setBackgroundRoundness(0);
        chart->legend()->setAlignment(Qt::AlignBottom);
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        chart->legend()->setFont(small);
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(260, 180);
        return view;
    };
    auto* scatterView = makeChart(tr("Objective against a parameter"));
    scatterView->setObjectName(QStringLiteral("scatterView"));
    scatterView->setAccessibleName(tr("Objective against a parameter"));
    c.scatter = scatterView->chart();
    auto makeScatter = [](const QString& name, const QColor& color, double size) {
        auto* s = new QScatterSeries;
        s->setName(name);
        s->setColor(color);
        s->setBorderColor(color.darker(130));
        s->setMarkerSize(size);
        return s;
    };
    c.passing = makeScatter(tr("Trials"), QColor(0x1c, 0x71, 0xd8), 9);
    c.filtered = makeScatter(tr("Filtered out"), QColor(0xc0, 0xbf, 0xbc), 7);
    c.best = makeScatter(tr("Best trial"), QColor(0xf6, 0xc0, 0x26), 16);
#if QT_VERSION >= QT_VERSION_CHECK(6, 2, 0)
    c.best->setMarkerShape(QScatterSeries::MarkerShapeStar);
#endif
    for (QScatterSeries* s : { c.filtered, c.passing, c.best }) {
        c.scatter->addSeries(s);
        connect(s, &QScatterSeries::clicked, this, [this](const QPointF& point) {
            // The trial whose point was clicked: the nearest drawn point (several may share a value).
            const auto& points = m_charts->scatterPoints;
            auto nearest = std::min_element(points.cbegin(), points.cend(), [&point](const auto& a, const auto& b) {
                return QLineF(a.first, point).length() < QLineF(b.first, point).length();
            });
            if (nearest != points.cend())
                selectTrial(nearest->second);
        });
    }
    m_scatterView = scatterView;

    auto* historyView = makeChart(tr("Best objective so far"));
    historyView->setObjectName(QStringLiteral("historyView"));
    historyView->setAccessibleName(tr("Best objective so far, by trial number"));
    c.history = historyView->chart();
    c.objectives = makeScatter(tr("Trial's objective"), QColor(0x98, 0x6a, 0x44), 6);
    c.bestSoFar = new QLineSeries;
    c.bestSoFar->setName(tr("Best so far"));
    c.bestSoFar->setPen(QPen(QColor(0x1c, 0x71, 0xd8), 2));
    c.history->addSeries(c.objectives);
    c.history->addSeries(c.bestSoFar);
    c.historyX = new QValueAxis(this);
    c.historyX->setTitleText(tr("Trial"));
    c.historyX->setLabelFormat(QStringLiteral("%d"));
    c.historyY = new QValueAxis(this);
    c.historyY->setLabelFormat(QStringLiteral("%.4g"));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (QValueAxis* axis : { c.historyX, c.historyY }) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
    }
    c.history->addAxis(c.historyX, Qt::AlignBottom);
    c.history->addAxis(c.historyY, Qt::AlignLeft);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { c.objectives, c.bestSoFar }) {
        s->attachAxis(c.historyX);
        s->attachAxis(c.historyY);
    }
    m_historyView = historyView;

    auto* chartsLayout = new QVBoxLayout(chartsBox);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addLayout(scatterBar);
    chartsLayout->addWidget(scatterView, 1);
    chartsLayout->addWidget(historyView, 1);
    // What optuna-dashboard users look for next: intermediate values and hyperparameter importance, beside the
    // objective's charts.
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName(QStringLiteral("trialChartTabs"));
    m_chartTabs->setDocumentMode(true);
    m_chartTabs->addTab(chartsBox, tr("Objective"));
    m_intermediate = new IntermediateValuesChart(this);
    m_chartTabs->addTab(m_intermediate, tr("Intermediate values"));
    m_importance = new ImportanceChart(this);
    m_chartTabs->addTab(m_importance, tr("Importance"));
    lower->addWidget(m_chartTabs);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    connect(m_scatterParameter, &QComboBox::currentIndexChanged, this, [this] {
        rebuildScatterAxes();
        updateCharts();
    });
#endif

    auto* split = new QSplitter(Qt::Vertical, this);
    m_split = split;
    split->setObjectName(QStringLiteral("trialsSplit"));
    split->setChildrenCollapsible(false);
    split->addWidget(plotBox);
    split->addWidget(lower);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    // The plot and the table share the tab as the user last left them (issue 46: at 1024×700 the plot took the
    // pane and the table showed a row and a half; dragged, it came back at the next job).
    if (const QByteArray saved = QSettings().value(QStringLiteral("trialsPanel/split")).toByteArray(); !saved.isEmpty())
        split->restoreState(saved);
    connect(split, &QSplitter::splitterMoved, this, &TrialsPanel::saveSplit);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 4, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_plot, &ParallelCoordinates::passingTrialsChanged, this, [this](const QStringList& ids) {
        m_proxy->setAllowedTrialIds(
            m_plot->isFiltering() ? std::optional(QSet<QString>(ids.cbegin(), ids.cend())) : std::nullopt);
        updateCharts();
    });
    connect(m_plot, &ParallelCoordinates::trialClicked, this, &TrialsPanel::selectTrial);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
#if TRAINYARD_HAVE_QTCHARTS
        const QSignalBlocker block(m_scatterParameter);
        m_scatterParameter->clear();
        for (int p = 0; p < m_model->parameterCount(); ++p)
            m_scatterParameter->addItem(m_model->spec().params.at(p).parameterName, p);
        rebuildScatterAxes();
#endif
        fitColumns();
    });

    m_apply.setSingleShot(true);
    m_apply.setInterval(ApplyMs);
    connect(&m_apply, &QTimer::timeout, this, &TrialsPanel::applyNow);
    apply(job);
    updateActions();
}

TrialsPanel::~TrialsPanel()
{
    saveSplit();
}

void TrialsPanel::saveSplit()
{
    if (m_split && m_split->isVisible())
        QSettings().setValue(QStringLiteral("trialsPanel/split"), m_split->saveState());
}

void TrialsPanel::setJob(const Job& job)
{
    // The first job of a batch is applied at once, the rest when the timer fires: at most one model
    // update (and chart rebuild) per ApplyMs, however fast the stream brings jobs.
    if (m_apply.isActive()) {
        m_pending = job;
        return;
    }
    apply(job);
    m_apply.start();
}

void TrialsPanel::applyNow()
{
    m_apply.stop();
    if (m_pending) {
        const Job job = *std::exchange(m_pending, std::nullopt);
        apply(job);
    }
}

void TrialsPanel::fitColumns()
{
    m_table->resizeColumnsToContents();
    // The State column fits the longest state a trial can reach, not today's "Running": it was cut to "Succe…"
    // once the trials ended.
    const QFontMetrics metrics(m_table->font());
    int widest = 0;
    for (const JobState state : { JobState::Queued, JobState::Preparing, JobState::Running, JobState::Succeeded,
             JobState::Failed, JobState::Cancelling, JobState::Cancelled })
        widest = std::max(widest, metrics.horizontalAdvance(stateDisplayName(state)));
    const int wanted = widest + m_table->iconSize().width()
        + 4 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 3 * metrics.averageCharWidth() + 16;
    if (m_table->columnWidth(TrialsModel::StateColumn) < wanted)
        m_table->setColumnWidth(TrialsModel::StateColumn, wanted);
}

void TrialsPanel::copySelection() const
{
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    const QAbstractItemModel* model = m_table->model();
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model->columnCount(); ++c)
        if (!m_table->isColumnHidden(c))
            header << model->headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (const QModelIndex& row : std::as_const(rows)) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c)
            if (!m_table->isColumnHidden(c))
                cells << model->index(row.row(), c).data(TrialsModel::CopyRole).toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    QGuiApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
}

void TrialsPanel::apply(const Job& job)
{
    const bool hadTrials = m_model->trialCount() > 0;
    m_job = job;
    m_model->setJob(job);
    if (!hadTrials && m_model->trialCount() > 0)
        fitColumns();
    updateSummary();
    updateCharts();
    updateActions();
#if TRAINYARD_HAVE_QTCHARTS
    m_intermediate->setTrials(m_model->trials(), [this](double a, double b) { return m_model->isBetter(a, b); });
    int succeeded = 0;
    for (const HyperparameterOutput& t : m_model->trials())
        succeeded += t.state == JobState::Succeeded && TrialsModel::objectiveOf(t) ? 1 : 0;
    if (succeeded >= 2 && succeeded != m_importanceTrials) {
        m_importanceTrials = succeeded;
        emit importanceWanted();
    }
#endif
}

void TrialsPanel::setImportance(const HyperparameterImportance& importance)
{
#if TRAINYARD_HAVE_QTCHARTS
    m_importance->setImportance(importance);
#else
    Q_UNUSED(importance);
#endif
}

void TrialsPanel::setImportanceProblem(const QString& text)
{
#if TRAINYARD_HAVE_QTCHARTS
    m_importance->setProblem(text);
#else
    Q_UNUSED(text);
#endif
}

void TrialsPanel::applyStateFilter()
{
    QSet<JobState> states;
    bool all = true;
    for (int g = 0; g < m_stateButtons.size(); ++g) {
        if (m_stateButtons.at(g)->isChecked()) {
            for (JobState s : StateGroups[g].states)
                states.insert(s);
        } else {
            all = false;
        }
    }
    // Nothing checked shows nothing: a set no trial's state is in.
    if (states.isEmpty())
        states.insert(JobState(-1));
    m_proxy->setStates(all ? QSet<JobState>() : states);
}

QStringList TrialsPanel::selectedTrials() const
{
    QList<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QStringList ids;
    for (int row : std::as_const(rows))
        ids << m_proxy->trialIdAt(row);
    return ids;
}

bool TrialsPanel::selectTrial(const QString& trialId)
{
    const int source = m_model->rowOf(trialId);
    if (source < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(source, 0));
    if (!index.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

void TrialsPanel::onSelectionChanged()
{
    const QStringList ids = selectedTrials();
    m_plot->setHighlightedTrials(ids);
    updateActions();
    emit trialsSelected(ids);
}

void TrialsPanel::updateActions()
{
    const QStringList selected = selectedTrials();
    const int row = selected.size() == 1 ? m_model->rowOf(selected.first()) : -1;
    m_submitAction->setEnabled(row >= 0 && !m_model->trial(row).hyperparameters.isEmpty());
    m_resumeAction->setEnabled(m_job.trainingInput.hyperparameters.has_value() && isFinal(m_job.state));
    m_resumeAction->setToolTip(isFinal(m_job.state)
            ? tr("Open the submit wizard with a new tuning job that continues this one's study "
                 "(resumePreviousJobId)")
            : tr("The job can be resumed once it has ended"));
}

void TrialsPanel::updateSummary()
{
    const int total = m_model->trialCount();
    if (total == 0) {
        m_summary->setText(tr("No trials yet: they appear here as the tuning service starts them."));
        return;
    }
    int ended = 0;
    for (const HyperparameterOutput& t : m_model->trials())
        ended += isFinal(t.state) ? 1 : 0;
    QString text = tr("%n trials", nullptr, total) + QStringLiteral(" · ") + tr("%n ended", nullptr, ended);
    if (const auto max
        = m_job.trainingInput.hyperparameters ? m_job.trainingInput.hyperparameters->maxTrials : std::nullopt)
        text += QStringLiteral(" · ") + tr("%n planned", nullptr, *max);
    const int best = m_model->bestRow();
    if (best >= 0) {
        const HyperparameterOutput& t = m_model->trial(best);
        text += QStringLiteral(" · ")
            + tr("best: trial %1 (%2)").arg(t.trialId, QLocale().toString(*TrialsModel::objectiveOf(t), 'g', 6));
    }
    m_summary->setText(text);
}

Job TrialsPanel::jobWithValues(const QString& trialId, const QDateTime& now) const
{
    const int row = m_model->rowOf(trialId);
    if (row < 0)
        return {};
    const HyperparameterOutput& trial = m_model->trial(row);
    Job job;
    job.jobId = suggestJobId(m_job.jobId, now);
    job.labels = m_job.labels;
    job.trainingInput = m_job.trainingInput;
    job.trainingInput.hyperparameters.reset();
    // The service passes a trial's values as `--name=value` after the job's own args.
    QStringList names;
    if (m_job.trainingInput.hyperparameters) {
        for (const ParameterSpec& p : m_job.trainingInput.hyperparameters->params)
            names << p.parameterName;
    }
    for (auto it = trial.hyperparameters.cbegin(); it != trial.hyperparameters.cend(); ++it) {
        if (!names.contains(it.key()))
            names << it.key();
    }
    for (const QString& name : std::as_const(names)) {
        const auto it = trial.hyperparameters.constFind(name);
        if (it != trial.hyperparameters.cend())
            job.trainingInput.args << QStringLiteral("--%1=%2").arg(name, *it);
    }
    return job;
}

Job TrialsPanel::resumeJob(const QDateTime& now) const
{
    Job job;
    job.jobId = suggestJobId(m_job.jobId, now);
    job.labels = m_job.labels;
    job.trainingInput = m_job.trainingInput;
    if (!job.trainingInput.hyperparameters)
        job.trainingInput.hyperparameters = HyperparameterSpec {};
    job.trainingInput.hyperparameters->resumePreviousJobId = m_job.jobId;
    return job;
}

QString TrialsPanel::suggestJobId(const QString& jobId, const QDateTime& now)
{
    static const QRegularExpression stamp(QStringLiteral("_\\d{8}_\\d{6}$"));
    QString base = jobId;
    base.remove(stamp);
    if (base.isEmpty())
        base = QStringLiteral("job");
    return base + QLatin1Char('_') + now.toString(QStringLiteral("yyyyMMdd_HHmmss"));
}

void TrialsPanel::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    menu.addAction(m_copyAction);
    menu.addSeparator();
    menu.addAction(m_submitAction);
    menu.addAction(m_resumeAction);
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void TrialsPanel::rebuildScatterAxes()
{
#if TRAINYARD_HAVE_QTCHARTS
    Charts& c = *m_charts;
    for (QAbstractAxis* axis : c.scatter->axes()) {
        c.scatter->removeAxis(axis);
        axis->deleteLater();
    }
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const int p = m_scatterParameter->currentData().isValid() ? m_scatterParameter->currentData().toInt() : -1;
    QAbstractAxis* x = nullptr;
    if (p >= 0 && p < m_model->parameterCount()) {
        const ParameterSpec& spec = m_model->spec().params.at(p);
        double lo = spec.minValue.value_or(0);
        double hi = spec.maxValue.value_or(1);
        if (spec.type == QLatin1String("DISCRETE") && !spec.discreteValues.isEmpty()) {
            lo = *std::min_element(spec.discreteValues.cbegin(), spec.discreteValues.cend());
            hi = *std::max_element(spec.discreteValues.cbegin(), spec.discreteValues.cend());
        }
        if (spec.type == QLatin1String("CATEGORICAL")) {
            auto* axis = new QCategoryAxis;
            axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
            axis->setStartValue(-0.5);
            for (int i = 0; i < spec.categoricalValues.size(); ++i)
                axis->append(spec.categoricalValues.at(i), i);
            axis->setRange(-0.5, std::max<double>(0.5, double(spec.categoricalValues.size()) - 0.5));
            x = axis;
        } else if (spec.scaleType == QLatin1String("UNIT_LOG_SCALE") && lo > 0 && hi > lo) {
            auto* axis = new QLogValueAxis;
            axis->setBase(10);
            axis->setLabelFormat(QStringLiteral("%g"));
            axis->setMinorTickCount(0);
            axis->setRange(lo / 1.3, hi * 1.3);
            x = axis;
        } else {
            auto* axis = new QValueAxis;
            axis->setLabelFormat(QStringLiteral("%.4g"));
            const auto [a, b] = paddedRange(lo, hi);
            setValueRange(axis, a, b, spec.type == QLatin1String("INTEGER"));
            x = axis;
        }
        x->setTitleText(spec.parameterName);
    } else {
        x = new QValueAxis;
    }
    c.scatterY = new QValueAxis;
    c.scatterY->setLabelFormat(QStringLiteral("%.4g"));
    c.scatterY->setTitleText(m_model->metricTag().isEmpty() ? tr("Objective") : m_model->metricTag());
    for (QAbstractAxis* axis : { x, static_cast<QAbstractAxis*>(c.scatterY) }) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
    }
    c.scatter->addAxis(x, Qt::AlignBottom);
    c.scatter->addAxis(c.scatterY, Qt::AlignLeft);
    for (QScatterSeries* s : { c.filtered, c.passing, c.best }) {
        s->attachAxis(x);
        s->attachAxis(c.scatterY);
    }
#endif
}

void TrialsPanel::updateCharts()
{
#if TRAINYARD_HAVE_QTCHARTS
    Charts& c = *m_charts;
    if (!c.scatterY)
        rebuildScatterAxes();
    const QStringList passingList = m_plot->passingTrials();
    const QSet<QString> passing(passingList.cbegin(), passingList.cend());
    const bool filtering = m_plot->isFiltering();
    const int p = m_scatterParameter->currentData().isValid() ? m_scatterParameter->currentData().toInt() : -1;
    const QString best = m_model->bestTrialId();

    // Objective against the chosen parameter.
    QList<QPointF> passed, filtered, bestPoint;
    c.scatterPoints.clear();
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const HyperparameterOutput& t : m_model->trials()) {
        const auto objective = TrialsModel::objectiveOf(t);
        if (!objective || !std::isfinite(*objective) || p < 0 || p >= m_model->parameterCount())
            continue;
        const ParameterSpec& spec = m_model->spec().params.at(p);
        const auto x = TrialsModel::parameterValue(spec, t.hyperparameters.value(spec.parameterName));
        if (!x)
            continue;
        const QPointF point(*x, *objective);
        c.scatterPoints.append({ point, t.trialId });
        lo = std::min(lo, *objective);
        hi = std::max(hi, *objective);
        if (t.trialId == best)
            bestPoint << point;
        else if (!filtering || passing.contains(t.trialId))
            passed << point;
        else
            filtered << point;
    }
    c.passing->replace(passed);
    c.filtered->replace(filtered);
    c.filtered->setVisible(filtering); // and its legend entry
    c.best->replace(bestPoint);
    const auto [y0, y1] = paddedRange(lo, hi);
    setValueRange(c.scatterY, y0, y1);

    // Best so far, by trial number: each trial's objective, and the running best as a step line.
    QList<std::pair<double, double>> byNumber;
    for (const HyperparameterOutput& t : m_model->trials()) {
        bool ok = false;
        const double n = t.trialId.toDouble(&ok);
        const auto objective = TrialsModel::objectiveOf(t);
        if (ok && objective && std::isfinite(*objective))
            byNumber.append({ n, *objective });
    }
    std::sort(byNumber.begin(), byNumber.end());
    QList<QPointF> points, steps;
    std::optional<double> running;
    for (const auto& [n, v] : std::as_const(byNumber)) {
        points << QPointF(n, v);
        if (running)
            steps << QPointF(n, *running);
        if (!running || m_model->isBetter(v, *running))
            running = v;
        steps << QPointF(n, *running);
    }
    c.objectives->replace(points);
    c.bestSoFar->replace(steps);
    const double first = byNumber.isEmpty() ? 1 : byNumber.first().first;
    const double last = byNumber.isEmpty() ? 1 : byNumber.last().first;
    setValueRange(c.historyX, first - 0.5, std::max(last, first + 1) + 0.5, true);
    setValueRange(c.historyY, y0, y1);
#endif
}

} // namespace Trainyard
