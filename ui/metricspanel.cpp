// SPDX-License-Identifier: GPL-2.0-or-later
#include "metricspanel.h"

#include "executorconnection.h"
#include "uilogging.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListView>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Trainyard {

namespace {
/// Widest a chart column gets before the panel adds another column (device-independent pixels).
constexpr int ChartColumnWidth = 500;
constexpr int ChartHeight = 320;
// TensorBoard's run colours (its default palette), so runs look familiar.
const QColor Palette[] = { QColor(0xff, 0x70, 0x43), QColor(0x00, 0x77, 0xbb), QColor(0x00, 0x99, 0x88),
    QColor(0xee, 0x33, 0x77), QColor(0x33, 0xbb, 0xee), QColor(0xcc, 0x33, 0x11), QColor(0x00, 0x99, 0x88),
    QColor(0x88, 0x66, 0xaa), QColor(0x55, 0x55, 0x55) };
} // namespace

// ---------------------------------------------------------------------------------------------------
// MetricsPanel

MetricsPanel::MetricsPanel(ExecutorConnection* connection, const Job& job, QWidget* parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_job(job)
    , m_model(new MetricsModel(this))
    , m_filter(new QLineEdit(this))
    , m_runs(new MetricRunsModel(m_model, this))
    , m_runsProxy(new QSortFilterProxyModel(this))
    , m_runFilter(new QLineEdit(this))
    , m_allRuns(new QCheckBox(tr("All runs"), this))
    , m_runList(new QListView(this))
    , m_split(new QSplitter(Qt::Horizontal, this))
    , m_smoothingSlider(new QSlider(Qt::Horizontal, this))
    , m_smoothingSpin(new QDoubleSpinBox(this))
    , m_xAxisCombo(new QComboBox(this))
    , m_logScale(new QCheckBox(tr("Log scale"), this))
    , m_outliers(new QCheckBox(tr("Ignore outliers"), this))
    , m_summary(new QLabel(this))
    , m_empty(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_content(new QWidget)
    , m_contentLayout(new QVBoxLayout(m_content))
{
    m_model->setJobId(job.jobId);
    m_filter->setPlaceholderText(tr("Filter tags (regular expression)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Show only the charts whose tag matches this regular expression (case-insensitive)"));
    m_filter->setMinimumWidth(160);
    m_smoothingSlider->setRange(0, 999);
    m_smoothingSlider->setValue(int(std::lround(MetricsModel::DefaultSmoothing * 1000)));
    m_smoothingSlider->setMinimumWidth(100);
    m_smoothingSlider->setToolTip(tr("TensorBoard's smoothing: a debiased exponential moving average"));
    m_smoothingSpin->setRange(0, 0.999);
    m_smoothingSpin->setDecimals(3);
    m_smoothingSpin->setSingleStep(0.01);
    m_smoothingSpin->setValue(MetricsModel::DefaultSmoothing);
    m_xAxisCombo->addItem(tr("Step"), int(MetricsXAxis::Step));
    m_xAxisCombo->addItem(tr("Relative time"), int(MetricsXAxis::RelativeTime));
    m_xAxisCombo->addItem(tr("Wall time"), int(MetricsXAxis::WallTime));
    m_logScale->setToolTip(tr("Logarithmic y axis (values ≤ 0 are not drawn)"));
    m_outliers->setToolTip(tr("Scale the y axis to the 5th–95th percentile of the values"));
    m_summary->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 2);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Smoothing"), this));
    bar->addWidget(m_smoothingSlider, 1);
    bar->addWidget(m_smoothingSpin);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("X axis"), this));
    bar->addWidget(m_xAxisCombo);
    bar->addSpacing(12);
    bar->addWidget(m_logScale);
    bar->addWidget(m_outliers);
    bar->addStretch(1);
    bar->addWidget(m_summary);

    m_empty->setText(tr("No metrics yet. Scalars of event files (tfevents) under the job directory, hypertune "
                        "reports and each replica's CPU, memory and GPU use appear here while the job runs."));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setStyleSheet(QStringLiteral("color: palette(mid); padding: 40px;"));
    m_contentLayout->setContentsMargins(0, 0, 0, 0);
    m_contentLayout->setSpacing(4);
    m_contentLayout->addWidget(m_empty);
    m_contentLayout->addStretch(1);
    m_scroll->setWidget(m_content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->viewport()->installEventFilter(this);

    // The run list at the left, as TensorBoard's run selector: a run is drawn when checked and matching the filter.
    m_runsProxy->setSourceModel(m_runs);
    m_runsProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_runFilter->setPlaceholderText(tr("Filter runs (regular expression)"));
    m_runFilter->setClearButtonEnabled(true);
    m_runFilter->setToolTip(tr("Draw only the runs whose name matches this regular expression (case-insensitive)"));
    m_allRuns->setToolTip(tr("Check or uncheck every run the filter lists"));
    m_runList->setModel(m_runsProxy);
    m_runList->setUniformItemSizes(true);
    m_runList->setIconSize(QSize(12, 12)); // the run's colour: a swatch, not a block
    m_runList->setTextElideMode(Qt::ElideMiddle);
    m_runList->setToolTip(tr("Uncheck a run to hide its lines in every chart"));
    auto* runsPane = new QWidget(this);
    runsPane->setObjectName(QStringLiteral("runsPane"));
    auto* runsLayout = new QVBoxLayout(runsPane);
    runsLayout->setContentsMargins(0, 0, 4, 0);
    auto* runsTitle = new QLabel(tr("Runs"), runsPane);
    QFont bold = runsTitle->font();
    bold.setBold(true);
    runsTitle->setFont(bold);
    runsLayout->addWidget(runsTitle);
    runsLayout->addWidget(m_runFilter);
    runsLayout->addWidget(m_allRuns);
    runsLayout->addWidget(m_runList, 1);
    runsPane->setMinimumWidth(120);
    m_split->setObjectName(QStringLiteral("metricsSplit"));
    m_split->addWidget(runsPane);
    m_split->addWidget(m_scroll);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);
    m_split->setSizes({ 220, 800 });
    if (const QByteArray saved = QSettings().value(QStringLiteral("metricsPanel/split")).toByteArray(); !saved.isEmpty())
        m_split->restoreState(saved);
    connect(m_split, &QSplitter::splitterMoved, this,
        [this] { QSettings().setValue(QStringLiteral("metricsPanel/split"), m_split->saveState()); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 4, 0);
    layout->addLayout(bar);
    m_compareLabel = new QLabel(this);
    m_compareLabel->setObjectName(QStringLiteral("compareLabel"));
    m_compareLabel->setWordWrap(true);
    m_compareLabel->setStyleSheet(QStringLiteral("color: #1a5fb4;"));
    m_compareLabel->hide();
    layout->addWidget(m_compareLabel);
    layout->addWidget(m_split, 1);

    connect(m_smoothingSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker block(m_smoothingSpin);
        m_smoothingSpin->setValue(v / 1000.0);
        m_model->setSmoothing(v / 1000.0);
    });
    connect(m_smoothingSpin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const QSignalBlocker block(m_smoothingSlider);
        m_smoothingSlider->setValue(int(std::lround(v * 1000)));
        m_model->setSmoothing(v);
    });
    connect(m_xAxisCombo, &QComboBox::currentIndexChanged, this, &MetricsPanel::applySettings);
    connect(m_logScale, &QCheckBox::toggled, this, &MetricsPanel::applySettings);
    connect(m_outliers, &QCheckBox::toggled, this, &MetricsPanel::applySettings);
    connect(m_filter, &QLineEdit::textChanged, this, &MetricsPanel::applyFilter);
    connect(m_runFilter, &QLineEdit::textChanged, this, &MetricsPanel::applyRunFilter);
    connect(m_runs, &MetricRunsModel::checkedChanged, this, &MetricsPanel::applyRunFilter);
    connect(m_model, &MetricsModel::labelsChanged, this, &MetricsPanel::applyRunFilter);
    connect(m_allRuns, &QCheckBox::clicked, this, [this] {
        QStringList keys;
        for (int row = 0; row < m_runsProxy->rowCount(); ++row)
            keys << m_runsProxy->index(row, 0).data(MetricRunsModel::RunKeyRole).toString();
        // A partly checked box checks every listed run; a checked one unchecks them.
        const bool check = keys.isEmpty()
            || std::any_of(keys.cbegin(), keys.cend(), [this](const QString& k) { return m_hiddenRuns.contains(k); });
        m_runs->setChecked(keys, check);
    });

    connect(m_model, &MetricsModel::seriesAdded, this, &MetricsPanel::onSeriesAdded);
    connect(m_model, &MetricsModel::pointsAppended, this, &MetricsPanel::markDirty);
    connect(m_model, &MetricsModel::seriesChanged, this, &MetricsPanel::markDirty);

    m_redraw.setSingleShot(true);
    m_redraw.setInterval(RedrawMs);
    connect(&m_redraw, &QTimer::timeout, this, &MetricsPanel::redrawNow);
    m_reopen.setSingleShot(true);
    m_reopen.setInterval(2000);
    connect(&m_reopen, &QTimer::timeout, this, &MetricsPanel::openStream);
    if (m_connection)
        connect(m_connection, &ExecutorConnection::clientChanged, this, &MetricsPanel::openStream);
    openStream();
}

MetricsPanel::~MetricsPanel()
{
    if (m_stream)
        delete m_stream.data();
}

void MetricsPanel::openStream()
{
    if (m_stream) {
        // From the model too: points it still delivers before deleteLater must not land in the cleared model.
        m_stream->disconnect();
        m_stream->deleteLater();
    }
    if (!m_connection || !m_connection->client() || m_job.jobId.isEmpty())
        return;
    // The executor replays every stored series and point first, so a reopened stream starts clean.
    clearCharts();
    m_model->clear();
    m_ended = false;
    m_stream = m_connection->client()->followMetrics(m_job.jobId);
    m_stream->setParent(this);
    connect(m_stream, &ApiStream::metricSeriesAdded, m_model, &MetricsModel::addSeries);
    connect(m_stream, &ApiStream::metricPoints, m_model, &MetricsModel::appendPoints);
    connect(m_stream, &ApiStream::metricsPurged, m_model, &MetricsModel::purge);
    connect(m_stream, &ApiStream::ended, this, [this] {
        m_ended = true;
        if (m_charts.isEmpty())
            m_empty->setText(tr("This job recorded no metrics: no event files (tfevents) under its job directory, no "
                                "hypertune reports and no resource samples of its replicas."));
    });
    connect(m_stream, &ApiStream::failed, this, [this](const ApiError& error) {
        qCWarning(lcUi) << "metrics stream of" << m_job.jobId << "failed:" << error.summary();
    });
    connect(m_stream, &ApiStream::finished, this, [this] {
        if (!m_ended)
            m_reopen.start();
    });
    openCompareStreams();
}

void MetricsPanel::setComparedJobs(const QStringList& jobIds)
{
    QStringList ids = jobIds;
    ids.removeAll(m_job.jobId);
    ids.removeDuplicates();
    if (ids == m_compared)
        return;
    m_compared = ids;
    m_compareLabel->setText(ids.isEmpty() ? QString()
                                          : tr("Comparing with %1 (Ctrl+click jobs in the list to add or remove)")
                                                .arg(ids.join(QStringLiteral(", "))));
    m_compareLabel->setVisible(!ids.isEmpty());
    openStream(); // starts clean: this job's series, then the compared jobs' (openCompareStreams)
}

void MetricsPanel::openCompareStreams()
{
    for (const QPointer<ApiStream>& stream : std::as_const(m_compareStreams))
        delete stream.data();
    m_compareStreams.clear();
    if (!m_connection || !m_connection->client())
        return;
    for (const QString& other : std::as_const(m_compared)) {
        // Another job's series get its ID in front of their names, so they never meet this job's.
        const QString prefix = other + QLatin1Char('\n');
        ApiStream* stream = m_connection->client()->followMetrics(other);
        stream->setParent(this);
        connect(stream, &ApiStream::metricSeriesAdded, m_model, [this, other, prefix](const SeriesInfo& info) {
            SeriesInfo merged = info;
            merged.jobId = other;
            merged.name = prefix + info.name;
            m_model->addSeries(merged);
        });
        connect(stream, &ApiStream::metricPoints, m_model,
            [this, prefix](const QString& series, const QList<SeriesPoint>& points) {
                m_model->appendPoints(prefix + series, points);
            });
        connect(stream, &ApiStream::metricsPurged, m_model,
            [this, prefix](const QString& series, qint64 fromStep) { m_model->purge(prefix + series, fromStep); });
        m_compareStreams.append(stream);
    }
}

void MetricsPanel::clearCharts()
{
    m_dirty.clear();
    for (Group& group : m_groups) {
        qDeleteAll(group.charts);
        delete group.header;
        delete group.body;
    }
    m_groups.clear();
    m_charts.clear();
    m_empty->setText(tr("No metrics yet. Scalars of event files (tfevents) under the job directory, hypertune "
                        "reports and each replica's CPU, memory and GPU use appear here while the job runs."));
    m_empty->show();
    m_summary->clear();
}

QString MetricsPanel::groupTitle(const QString& name) const
{
    if (name == QLatin1String("resources"))
        return tr("Resources");
    if (name == QLatin1String("hypertune"))
        return tr("Hypertune reports");
    return name;
}

MetricsPanel::Group& MetricsPanel::groupFor(const QString& name)
{
    for (Group& group : m_groups)
        if (group.name == name)
            return group;
    Group group;
    group.name = name;
    group.header = new QToolButton(m_content);
    group.header->setCheckable(true);
    group.header->setChecked(true);
    group.header->setArrowType(Qt::DownArrow);
    group.header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    group.header->setAutoRaise(true);
    group.header->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    QFont bold = group.header->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    group.header->setFont(bold);
    group.body = new QWidget(m_content);
    group.grid = new QGridLayout(group.body);
    group.grid->setContentsMargins(8, 0, 8, 8);
    group.grid->setSpacing(8);
    QToolButton* header = group.header;
    QWidget* body = group.body;
    connect(header, &QToolButton::toggled, this, [this, header, body](bool open) {
        header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        body->setVisible(open);
        if (open)
            redrawNow();
    });
    m_groups.append(group);
    // TensorBoard's order: tag groups alphabetically; then hypertune reports, then resources.
    auto rank = [](const QString& n) {
        return n == QLatin1String("resources") ? 2 : n == QLatin1String("hypertune") ? 1 : 0;
    };
    std::stable_sort(m_groups.begin(), m_groups.end(), [&](const Group& a, const Group& b) {
        return std::make_pair(rank(a.name), a.name) < std::make_pair(rank(b.name), b.name);
    });
    for (const Group& g : std::as_const(m_groups)) {
        m_contentLayout->removeWidget(g.header);
        m_contentLayout->removeWidget(g.body);
    }
    int at = 1; // after the "no metrics" label
    for (const Group& g : std::as_const(m_groups)) {
        m_contentLayout->insertWidget(at++, g.header);
        m_contentLayout->insertWidget(at++, g.body);
    }
    for (Group& g : m_groups)
        if (g.name == name)
            return g;
    return m_groups.last();
}

void MetricsPanel::applyRunFilter()
{
    const QRegularExpression pattern(m_runFilter->text(), QRegularExpression::CaseInsensitiveOption);
    const bool valid = pattern.isValid();
    m_runFilter->setStyleSheet(valid ? QString() : QStringLiteral("color: #c01c28;"));
    // An invalid expression (still being typed) filters nothing, in the list as in the charts.
    m_runsProxy->setFilterRegularExpression(valid ? pattern : QRegularExpression());
    QSet<QString> hidden = m_runs->uncheckedRuns();
    int shown = 0;
    for (int row = 0; row < m_runs->rowCount(); ++row) {
        const QModelIndex index = m_runs->index(row, 0);
        const QString key = index.data(MetricRunsModel::RunKeyRole).toString();
        if (valid && !m_runFilter->text().isEmpty() && !pattern.match(index.data().toString()).hasMatch())
            hidden.insert(key);
        if (!hidden.contains(key))
            ++shown;
    }
    // "All runs" says whether every listed run is drawn.
    const int listed = m_runsProxy->rowCount();
    int listedShown = 0;
    for (int row = 0; row < listed; ++row)
        listedShown += hidden.contains(m_runsProxy->index(row, 0).data(MetricRunsModel::RunKeyRole).toString()) ? 0 : 1;
    m_allRuns->setCheckState(listedShown == 0 ? Qt::Unchecked
            : listedShown == listed           ? Qt::Checked
                                              : Qt::PartiallyChecked);
    m_allRuns->setText(tr("All runs (%1 of %2 drawn)").arg(shown).arg(m_runs->rowCount()));
    if (hidden == m_hiddenRuns)
        return;
    m_hiddenRuns = hidden;
    for (MetricChart* chart : std::as_const(m_charts))
        chart->setHiddenRuns(m_hiddenRuns);
    markAllDirty();
}

QColor MetricsPanel::colorFor(const QString& label)
{
    auto it = m_colors.constFind(label);
    if (it != m_colors.constEnd())
        return *it;
    const QColor color = Palette[m_colors.size() % std::size(Palette)];
    m_colors.insert(label, color);
    return color;
}

void MetricsPanel::onSeriesAdded(int index)
{
    const SeriesInfo& info = m_model->info(index);
    const QString key = MetricsModel::chartKeyOf(info);
    MetricChart* chart = m_charts.value(key);
    if (!chart) {
        Group& group = groupFor(MetricsModel::groupOf(info));
        chart = new MetricChart(m_model, key, group.body);
        chart->setSettings(m_settings);
        chart->setMinimumHeight(ChartHeight);
        m_charts.insert(key, chart);
        group.charts.append(chart);
        // Charts by tag, as TensorBoard sorts them; resources in their fixed order.
        static const QStringList resourceOrder { QStringLiteral("cpu_percent"), QStringLiteral("rss_bytes"),
            QStringLiteral("gpu_utilization_percent"), QStringLiteral("gpu_memory_bytes") };
        std::stable_sort(group.charts.begin(), group.charts.end(), [this](MetricChart* a, MetricChart* b) {
            const MetricsModel::Chart* ca = m_model->chart(a->key());
            const MetricsModel::Chart* cb = m_model->chart(b->key());
            auto rank = [](const MetricsModel::Chart* c) {
                const int r = int(resourceOrder.indexOf(c->tag));
                return r < 0 ? int(resourceOrder.size()) : r;
            };
            return std::make_pair(rank(ca), ca->tag) < std::make_pair(rank(cb), cb->tag);
        });
        connect(chart, &MetricChart::exportDataRequested, this,
            [this, chart](int series, const QString& format) { askExportData(chart, series, format); });
        connect(chart, &MetricChart::exportImageRequested, this,
            [this, chart](const QString& format) { askExportImage(chart, format); });
        // A chart whose data came while it was hidden (a new chart before its first layout, a collapsed group) is
        // redrawn when it shows: redrawNow() skips hidden charts and keeps them dirty until something redraws.
        connect(chart, &MetricChart::shown, this, [this, chart] {
            if (m_dirty.contains(chart) && !m_redraw.isActive())
                m_redraw.start();
        });
        m_empty->hide();
        relayout();
    }
    chart->setTrialFilter(QSet<QString>(m_trialFilter.cbegin(), m_trialFilter.cend()));
    const QString run = m_model->runKey(index);
    const QColor color = colorFor(run);
    m_runs->setColor(run, color);
    applyRunFilter(); // a new run may not match the run filter
    chart->setHiddenRuns(m_hiddenRuns);
    chart->addSeries(index, color);
    for (Group& group : m_groups)
        group.header->setText(QStringLiteral("%1 (%2)").arg(groupTitle(group.name)).arg(group.charts.size()));
    m_summary->setText(tr("%n series", nullptr, m_model->seriesCount()) + QStringLiteral(" · ")
        + tr("%n charts", nullptr, int(m_charts.size())));
    markDirty(index);
}

void MetricsPanel::markDirty(int seriesIndex)
{
    if (MetricChart* chart = m_charts.value(MetricsModel::chartKeyOf(m_model->info(seriesIndex))))
        m_dirty.insert(chart);
    if (!m_redraw.isActive())
        m_redraw.start();
}

void MetricsPanel::markAllDirty()
{
    for (MetricChart* chart : std::as_const(m_charts))
        m_dirty.insert(chart);
    if (!m_redraw.isActive())
        m_redraw.start();
}

void MetricsPanel::redrawNow()
{
    m_redraw.stop();
    // Hidden charts (filtered out, collapsed group, another tab) stay dirty until they show.
    for (auto it = m_dirty.begin(); it != m_dirty.end();) {
        if ((*it)->isVisible()) {
            (*it)->refresh();
            it = m_dirty.erase(it);
        } else {
            ++it;
        }
    }
    emit redrawn();
}

void MetricsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Charts that changed while the tab was hidden.
    if (!m_dirty.isEmpty() && !m_redraw.isActive())
        m_redraw.start();
}

void MetricsPanel::setTrialFilter(const QStringList& trialIds)
{
    if (trialIds == m_trialFilter)
        return;
    m_trialFilter = trialIds;
    const QSet<QString> trials(trialIds.cbegin(), trialIds.cend());
    for (MetricChart* chart : std::as_const(m_charts))
        chart->setTrialFilter(trials);
    markAllDirty();
}

void MetricsPanel::applySettings()
{
    m_settings.xAxis = MetricsXAxis(m_xAxisCombo->currentData().toInt());
    m_settings.logScale = m_logScale->isChecked();
    m_settings.ignoreOutliers = m_outliers->isChecked();
    for (MetricChart* chart : std::as_const(m_charts))
        chart->setSettings(m_settings);
    markAllDirty();
    redrawNow();
}

void MetricsPanel::applyFilter()
{
    const QRegularExpression re(m_filter->text(), QRegularExpression::CaseInsensitiveOption);
    m_filter->setStyleSheet(re.isValid() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #c01c28; }"));
    m_filter->setToolTip(re.isValid() ? tr("Show only the charts whose tag matches this regular expression "
                                           "(case-insensitive)")
                                      : tr("Not a valid regular expression: %1").arg(re.errorString()));
    relayout();
    redrawNow();
}

QStringList MetricsPanel::visibleChartKeys() const
{
    const QRegularExpression re(m_filter->text(), QRegularExpression::CaseInsensitiveOption);
    QStringList out;
    for (const Group& group : m_groups) {
        for (MetricChart* chart : group.charts) {
            const MetricsModel::Chart* info = m_model->chart(chart->key());
            if (!re.isValid() || m_filter->text().isEmpty() || re.match(info->tag).hasMatch()
                || re.match(chart->title()).hasMatch())
                out << chart->key();
        }
    }
    return out;
}

void MetricsPanel::relayout()
{
    m_columns = std::max(1, m_scroll->viewport()->width() / ChartColumnWidth);
    const QStringList visible = visibleChartKeys();
    for (Group& group : m_groups) {
        for (MetricChart* chart : std::as_const(group.charts))
            group.grid->removeWidget(chart);
        // A group with fewer charts than the width holds spreads them over the whole width: two charts in three
        // 500-px columns left 40 % of a maximised window empty (issue 27).
        const int shown = int(std::count_if(group.charts.cbegin(), group.charts.cend(),
            [&visible](const MetricChart* chart) { return visible.contains(chart->key()); }));
        const int columns = std::clamp(shown, 1, m_columns);
        int k = 0;
        for (MetricChart* chart : std::as_const(group.charts)) {
            const bool show = visible.contains(chart->key());
            chart->setVisible(show);
            if (!show)
                continue;
            group.grid->addWidget(chart, k / columns, k % columns);
            m_dirty.insert(chart);
            ++k;
        }
        for (int c = 0; c < 8; ++c)
            group.grid->setColumnStretch(c, c < columns ? 1 : 0);
        group.header->setVisible(k > 0);
        group.body->setVisible(k > 0 && group.header->isChecked());
    }
}

bool MetricsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize
        && std::max(1, m_scroll->viewport()->width() / ChartColumnWidth) != m_columns) {
        relayout();
        if (!m_redraw.isActive())
            m_redraw.start();
    }
    return QWidget::eventFilter(watched, event);
}

MetricChart* MetricsPanel::chart(const QString& key) const
{
    return m_charts.value(key);
}

QList<MetricChart*> MetricsPanel::charts() const
{
    QList<MetricChart*> out;
    for (const Group& group : m_groups)
        out += group.charts;
    return out;
}

bool MetricsPanel::exportChart(const QString& key, const QString& path, QString* error)
{
    MetricChart* c = chart(key);
    if (!c) {
        if (error)
            *error = tr("No chart %1.").arg(key);
        return false;
    }
    c->refresh();
    return c->exportImage(path, error);
}

bool MetricsPanel::exportSeries(const QString& seriesName, const QString& path, QString* error)
{
    const int index = m_model->indexOf(seriesName);
    if (index < 0) {
        if (error)
            *error = tr("No series %1.").arg(seriesName);
        return false;
    }
    const bool json = QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json ? m_model->toJson(index) : m_model->toCsv(index)) < 0
        || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void MetricsPanel::askExportData(MetricChart* chart, int seriesIndex, const QString& format)
{
    Q_UNUSED(chart);
    const SeriesInfo& info = m_model->info(seriesIndex);
    // TensorBoard's download name: run-<run>-tag-<tag>.<format>.
    QString name
        = QStringLiteral("run-%1-tag-%2.%3")
              .arg(m_model->seriesLabel(seriesIndex).replace(QLatin1Char('/'), QLatin1Char('_')),
                  info.tag, format);
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    const QString filter = format == QLatin1String("json") ? tr("JSON files (*.json)") : tr("CSV files (*.csv)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export data"), name, filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportSeries(info.name, path, &error))
        emit message(error);
    else
        emit message(tr("Exported %1.").arg(path));
}

void MetricsPanel::askExportImage(MetricChart* chart, const QString& format)
{
    QString name = chart->title() + QLatin1Char('.') + format;
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    const QString filter = format == QLatin1String("svg") ? tr("SVG images (*.svg)") : tr("PNG images (*.png)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), name, filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportChart(chart->key(), path, &error))
        emit message(error);
    else
        emit message(tr("Exported %1.").arg(path));
}

} // namespace Trainyard
