// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobview.h"

#include "batchpredictionpanel.h"

#include "builtinalgorithm.h"
#include "modelpanel.h"

#include "metricsmodel.h"

#include "apiclient.h"
#include "checkpointspanel.h"
#include "configloader.h"
#include "executorconnection.h"
#include "joblistmodel.h"
#include "logpanel.h"
#if TRAINYARD_HAVE_QTCHARTS
#include "metricspanel.h"
#endif
#include "replicamodel.h"
#include "stateicons.h"
#include "topologyview.h"
#include "trialspanel.h"
#include "yamlhighlighter.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTimeZone>

#include <QFrame>
#include <QProgressBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <functional>

namespace Trainyard {

namespace {
QString formatTime(const QDateTime& t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
}

QString formatSpan(qint64 seconds)
{
    if (seconds < 60)
        return QCoreApplication::translate("Trainyard::JobView", "%n s", nullptr, int(seconds));
    if (seconds < 3600)
        return QCoreApplication::translate("Trainyard::JobView", "%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    return QCoreApplication::translate("Trainyard::JobView", "%1 h %2 min")
        .arg(seconds / 3600)
        .arg((seconds % 3600) / 60);
}

/// The timeline's note under "Now: <state>": how long it has run, or, while it prepares (a cluster job may wait in
/// its scheduler's queue), how long since it started.
QString activeNote(JobState state, qint64 seconds)
{
    return state == JobState::Running
        ? QCoreApplication::translate("Trainyard::JobView", "running for %1").arg(formatSpan(seconds))
        : QCoreApplication::translate("Trainyard::JobView", "started %1 ago").arg(formatSpan(seconds));
}
} // namespace

JobView::JobView(ExecutorConnection* connection, const Job& job, QWidget* parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_title(new QLabel(this))
    , m_stateIcon(new QLabel(this))
    , m_state(new QLabel(this))
    , m_error(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_yaml(new QPlainTextEdit(this))
    , m_cancel(new QPushButton(tr("Cancel Job…"), this))
    , m_openDir(new QPushButton(tr("Open job directory"), this))
    , m_similar(new QPushButton(tr("Submit similar…"), this))
    , m_replicas(new ReplicaModel(this))
    , m_topology(new TopologyView(this))
    , m_logs(new LogPanel(connection, job.jobId, this))
{
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The failure banner: the error's first line, then the whole message on demand, and the way to the
    // failed replica's logs; buttons, so the keyboard reaches them too.
    m_errorBox = new QFrame(this);
    m_errorBox->setObjectName(QStringLiteral("errorBanner"));
    m_errorBox->setStyleSheet(QStringLiteral("QFrame#errorBanner { background: #fce8e8; border: 1px solid #e0a0a5; "
                                             "border-radius: 4px; } QLabel { color: #8f1119; }"));
    m_error->setObjectName(QStringLiteral("errorText"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorMore = new QToolButton(m_errorBox);
    m_errorMore->setObjectName(QStringLiteral("errorMoreButton"));
    m_errorMore->setAutoRaise(true);
    m_errorLogs = new QToolButton(m_errorBox);
    m_errorLogs->setObjectName(QStringLiteral("errorLogsButton"));
    m_errorLogs->setText(tr("Show in &Logs"));
    m_errorLogs->setToolTip(tr("The failed replica's logs, at its first error"));
    m_errorLogs->setAutoRaise(true);
    // Expanded, what follows the executor's summary is the program's own output (a traceback, argparse's usage),
    // laid out in columns by the program: it is shown in the fixed font, as the Logs tab shows it.
    m_errorOutput = new QLabel(m_errorBox);
    m_errorOutput->setObjectName(QStringLiteral("errorOutput"));
    m_errorOutput->setTextFormat(Qt::PlainText);
    m_errorOutput->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorOutput->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_errorOutput->setWordWrap(true);
    m_errorOutput->hide();
    // The text wraps in what the buttons leave; it never widens the banner past the pane (issue 46: in German at
    // 1024×700 "Mehr zeigen" was cut and "In Logs zeigen" went behind a scroll bar). A path longer than the pane
    // is cut at its edge: the text is selectable, and Show in Logs has it whole.
    for (QLabel* label : { m_error, m_errorOutput })
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    for (QToolButton* button : { m_errorMore, m_errorLogs })
        button->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    auto* errorText = new QVBoxLayout;
    errorText->setContentsMargins(0, 0, 0, 0);
    errorText->addWidget(m_error);
    errorText->addWidget(m_errorOutput);
    auto* errorLayout = new QHBoxLayout(m_errorBox);
    errorLayout->setContentsMargins(6, 4, 6, 4);
    errorLayout->addLayout(errorText, 1);
    errorLayout->addWidget(m_errorMore, 0, Qt::AlignTop);
    errorLayout->addWidget(m_errorLogs, 0, Qt::AlignTop);
    connect(m_errorMore, &QToolButton::clicked, this, [this] { setErrorExpanded(!m_errorExpanded); });
    connect(m_errorLogs, &QToolButton::clicked, this, &JobView::showErrorInLogs);
    m_errorBox->hide();

    // Progress while the job is queued or prepared (staging runs pip: minutes on a cold cache): a busy bar
    // and the executor's latest step, from the job's log stream.
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("preparingProgress"));
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(120);
    m_progress->setMaximumHeight(14);
    m_progress->setTextVisible(false);
    m_progressText = new QLabel(this);
    m_progressText->setObjectName(QStringLiteral("preparingText"));
    m_progressText->setStyleSheet(QStringLiteral("color: #5e5c64;"));
    m_progressText->setMinimumWidth(100);
    m_progressText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_progress->hide();
    m_progressText->hide();
    auto* header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addSpacing(12);
    header->addWidget(m_stateIcon);
    header->addWidget(m_state);
    header->addSpacing(12);
    header->addWidget(m_progress);
    header->addWidget(m_progressText, 1);
    header->addStretch(1); // keeps the title, icon and state together when there is no progress
    // With several jobs selected, the header says so and which tab shows which (setSelectionNote()).
    m_selectionNote = new QLabel(this);
    m_selectionNote->setObjectName(QStringLiteral("selectionNote"));
    m_selectionNote->setStyleSheet(QStringLiteral("color: #1a5fb4;"));
    m_selectionNote->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_selectionNote->hide();
    header->addWidget(m_selectionNote, 2);

    // Overview.
    auto* overview = new QWidget(this);
    m_timelineBox = new QGroupBox(tr("State timeline"), overview);
    m_timeline = new QGridLayout(m_timelineBox);
    m_yaml->setReadOnly(true);
    m_yaml->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_yaml->setLineWrapMode(QPlainTextEdit::NoWrap);
    attachHighlighter(m_yaml->document(), QStringLiteral("YAML"));
    m_similar->hide();
    m_cancel->setToolTip(tr("Stop every replica of this job"));
    m_openDir->setToolTip(tr("Open the job directory in the file manager"));
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_cancel);
    actions->addWidget(m_openDir);
    actions->addWidget(m_similar);
    actions->addStretch(1);
    auto* yamlLabel = new QLabel(tr("Job (gcloud --config YAML)"), overview);
    m_resumeLabel = new QLabel(overview);
    m_resumeLabel->setWordWrap(true);
    m_resumeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_resumeLabel->hide();
    auto* overviewLayout = new QVBoxLayout(overview);
    overviewLayout->addWidget(m_timelineBox);
    overviewLayout->addWidget(m_resumeLabel);
    overviewLayout->addLayout(actions);
    overviewLayout->addWidget(yamlLabel);
    overviewLayout->addWidget(m_yaml, 1);

    m_topology->setModel(m_replicas);
    auto* topologyTab = new QWidget(this);
    auto* topoBar = new QHBoxLayout;
    auto addZoom = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(topologyTab);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, m_topology, slot);
        topoBar->addWidget(b);
    };
    addZoom(tr("Zoom in"), tr("Zoom in (Ctrl++)"), &TopologyView::zoomIn);
    addZoom(tr("Zoom out"), tr("Zoom out (Ctrl+-)"), &TopologyView::zoomOut);
    addZoom(tr("Fit"), tr("Show the whole cluster (Ctrl+0)"), &TopologyView::fitAll);
    auto* hint = new QLabel(tr("Click a replica to see its logs."), topologyTab);
    hint->setStyleSheet(QStringLiteral("color: palette(mid);"));
    topoBar->addWidget(hint);
    topoBar->addStretch(1);
    m_topologyTrial = new QLabel(topologyTab);
    m_topologyTrial->setObjectName(QStringLiteral("topologyTrial"));
    m_topologyTrial->hide();
    topoBar->addWidget(m_topologyTrial);
    auto* topoLayout = new QVBoxLayout(topologyTab);
    topoLayout->setContentsMargins(0, 4, 0, 0);
    topoLayout->addLayout(topoBar);
    topoLayout->addWidget(m_topology, 1);

    m_overviewTab = overview;
    m_topologyTab = topologyTab;
    m_tabs->addTab(overview, tr("Overview"));
    if (job.trainingInput.hyperparameters) {
        m_trials = new TrialsPanel(job, this);
        connect(m_trials, &TrialsPanel::submitWithValues, this, &JobView::submitWithValuesRequested);
        connect(m_trials, &TrialsPanel::resumeTuning, this, &JobView::resumeTuningRequested);
        // Hyperparameter importance is the executor's (fANOVA over the succeeded trials): asked when they change.
        connect(m_trials, &TrialsPanel::importanceWanted, this, [this, connection = QPointer<ExecutorConnection>(connection), jobId = job.jobId] {
            if (!connection || !connection->client())
                return;
            connection->client()->hyperparameterImportance(jobId, m_trials,
                [trials = m_trials](const HyperparameterImportance& importance, const ApiError& error) {
                    if (error.isNull())
                        trials->setImportance(importance);
                    else
                        trials->setImportanceProblem(error.message);
                });
        });
        m_tabs->addTab(m_trials, tr("Trials"));
        // The Logs tab follows the trial selected in the Trials tab (every trial's lines while none is), and
        // so does the topology (the latest trial while none is).
        connect(m_trials, &TrialsPanel::trialsSelected, m_logs, &LogPanel::setTrialFilter);
        connect(m_trials, &TrialsPanel::trialsSelected, this, [this](const QStringList& trials) {
            m_selectedTrial = trials.value(0);
            setReplicas(m_allReplicas);
        });
    }
    m_tabs->addTab(topologyTab, tr("Topology"));
    m_tabs->addTab(m_logs, tr("Logs"));
    if (job.predictionInput) {
        // A batch prediction job has no job dir and no checkpoints: its output files instead.
        m_batch = new BatchPredictionPanel(job, this);
        m_tabs->insertTab(1, m_batch, tr("Predictions"));
    } else {
        m_checkpoints = new CheckpointsPanel(connection, job, this);
        connect(m_checkpoints, &CheckpointsPanel::message, this, &JobView::message);
        connect(m_checkpoints, &CheckpointsPanel::submitFromCheckpointRequested, this,
            &JobView::submitFromCheckpointRequested);
        m_tabs->addTab(m_checkpoints, tr("Checkpoints"));
    }
    if (BuiltInAlgorithms::forJob(job.trainingInput)) {
        // What the built-in algorithm trained (issue 29); a tuning job's shows the trial selected in the Trials tab.
        m_model = new ModelPanel(connection, job, this);
        connect(m_model, &ModelPanel::message, this, &JobView::message);
        if (m_trials)
            connect(m_trials, &TrialsPanel::trialsSelected, m_model,
                [this](const QStringList& trials) { m_model->setTrial(trials.value(0)); });
    }
#if TRAINYARD_HAVE_QTCHARTS
    m_metrics = new MetricsPanel(connection, job, this);
    connect(m_metrics, &MetricsPanel::message, this, &JobView::message);
    // The topology shows each running replica's latest CPU and memory samples from the same stream.
    MetricsModel* metrics = m_metrics->model();
    auto sampled = [this, metrics](int index) {
        const SeriesInfo& info = metrics->info(index);
        const MetricSeriesData& data = metrics->data(index);
        // Only this job's replicas: a compared job's series carry their own job ID (and the same task names).
        if (info.kind != QLatin1String("resource") || data.isEmpty() || !info.jobId.isEmpty())
            return;
        const double latest = data.value(data.size() - 1);
        if (info.tag == QLatin1String("cpu_percent"))
            m_replicas->setResourceUsage(info.taskName, latest, -1);
        else if (info.tag == QLatin1String("rss_bytes"))
            m_replicas->setResourceUsage(info.taskName, -1, qint64(latest));
    };
    connect(metrics, &MetricsModel::seriesAdded, this, sampled);
    connect(metrics, &MetricsModel::pointsAppended, this, sampled);
    m_tabs->addTab(m_metrics, tr("Metrics"));
    // The Metrics tab follows the trials selected in the Trials tab (every series while none is).
    if (m_trials)
        connect(m_trials, &TrialsPanel::trialsSelected, m_metrics, &MetricsPanel::setTrialFilter);
#endif

    if (m_model)
        m_tabs->addTab(m_model, tr("Model"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_errorBox);
    layout->addWidget(m_tabs, 1);

    connect(m_cancel, &QPushButton::clicked, this, &JobView::cancelJob);
    connect(m_openDir, &QPushButton::clicked, this, &JobView::openJobDir);
    connect(m_similar, &QPushButton::clicked, this, [this] { emit submitSimilarRequested(m_job); });
    connect(m_logs, &LogPanel::entriesArrived, this, [this](const QList<LogEntry>& entries) {
        if (m_job.state != JobState::Queued && m_job.state != JobState::Preparing)
            return;
        for (auto it = entries.crbegin(); it != entries.crend(); ++it) {
            if (it->taskName == QLatin1String("service")) {
                const QString step = it->message.simplified();
                m_progressText->setText(step);
                m_progressText->setToolTip(step);
                break;
            }
        }
    });
    connect(m_topology, &TopologyView::taskActivated, this, [this](const QString& task) {
        m_logs->showTask(task);
        showTab(LogsTab);
    });

    m_reopen.setSingleShot(true);
    m_reopen.setInterval(1000);
    connect(&m_reopen, &QTimer::timeout, this, &JobView::openEvents);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, [this] {
        const QDateTime started = JobListModel::parseTime(m_job.startTime);
        if (m_runningNote && started.isValid())
            m_runningNote->setText(activeNote(m_job.state, started.secsTo(QDateTime::currentDateTimeUtc())));
        else
            m_tick.stop();
    });
    if (m_connection)
        connect(m_connection, &ExecutorConnection::clientChanged, this, &JobView::openEvents);

    setJob(job);
    // A failed job opens on its topology, with the failed replica selected (see setReplicas).
    if (job.state == JobState::Failed)
        showTab(TopologyTab);
    openEvents();
}

JobView::~JobView()
{
    if (m_events)
        delete m_events.data();
    if (m_resumeStream)
        delete m_resumeStream.data();
}

QWidget* JobView::tabWidget(Tab tab) const
{
    switch (tab) {
    case OverviewTab:
        return m_overviewTab;
    case TopologyTab:
        return m_topologyTab;
    case LogsTab:
        return m_logs;
    case CheckpointsTab:
        return m_checkpoints;
    case MetricsTab:
        return m_metrics;
    case TrialsTab:
        return m_trials;
    case ModelTab:
        return m_model;
    case PredictionsTab:
        return m_batch;
    }
    return nullptr;
}

bool JobView::hasTab(Tab tab) const
{
    QWidget* widget = tabWidget(tab);
    return widget && m_tabs->indexOf(widget) >= 0;
}

bool JobView::showTab(Tab tab)
{
    if (!hasTab(tab))
        return false;
    m_tabs->setCurrentWidget(tabWidget(tab));
    return true;
}

JobView::Tab JobView::stepTab(int step)
{
    const int count = m_tabs->count();
    m_tabs->setCurrentIndex(((m_tabs->currentIndex() + step) % count + count) % count);
    return currentTab();
}

int JobView::tabCount() const
{
    return m_tabs->count();
}

int JobView::tabPosition(Tab tab) const
{
    return hasTab(tab) ? m_tabs->indexOf(tabWidget(tab)) : -1;
}

JobView::Tab JobView::currentTab() const
{
    QWidget* current = m_tabs->currentWidget();
    for (Tab tab :
        { OverviewTab, TopologyTab, LogsTab, CheckpointsTab, MetricsTab, TrialsTab, ModelTab, PredictionsTab }) {
        if (current && tabWidget(tab) == current)
            return tab;
    }
    return OverviewTab;
}

void JobView::setSubmitSimilarVisible(bool visible)
{
    m_similar->setVisible(visible);
}

void JobView::openEvents()
{
    if (m_events) {
        m_events->disconnect(this);
        m_events->deleteLater();
    }
    if (!m_connection || !m_connection->client())
        return;
    m_events = m_connection->client()->followEvents(m_job.jobId);
    m_events->setParent(this);
    connect(m_events, &ApiStream::jobChanged, this, &JobView::setJob);
    connect(m_events, &ApiStream::replicasChanged, this,
        [this](const QString&, const QList<ReplicaInfo>& replicas) { setReplicas(replicas); });
    connect(m_events, &ApiStream::ended, this, [this] { m_final = true; });
    connect(m_events, &ApiStream::failed, this, [this](const ApiError& error) {
        if (m_connection)
            m_connection->reportError(error);
    });
    connect(m_events, &ApiStream::finished, this, [this] {
        if (!m_final)
            m_reopen.start();
    });
    followResumes();
}

std::pair<QString, QString> JobView::parseResumeLine(const QString& message)
{
    // The sample trainer (resources/trainers/fmnist/trainer/task.py, ps_task.py) logs
    // "Resuming from checkpoint <path> (epoch N)"; "Resumed from …" and ", step S" are accepted too.
    static const QRegularExpression line(
        QStringLiteral("Resum(?:ing|ed) from checkpoint (.+?)(?: \\(([^()]*)\\))?\\s*$"));
    const QRegularExpressionMatch m = line.match(message);
    if (!m.hasMatch())
        return {};
    return { m.captured(1), m.captured(2) };
}

void JobView::followResumes()
{
    // The master's resume lines, replayed from the start and then live: one per (re)start of the cluster.
    // The executor filters (`contains`), so a long log costs one read, not a page walk.
    if (m_resumeStream) {
        m_resumeStream->disconnect(this);
        m_resumeStream->deleteLater();
    }
    m_resumeLines.clear();
    if (!m_connection || !m_connection->client())
        return;
    m_resumeStream = m_connection->client()->followLogs(
        m_job.jobId, QStringLiteral("master-replica-0"), QString(), QStringLiteral(" from checkpoint "));
    m_resumeStream->setParent(this);
    connect(m_resumeStream, &ApiStream::logEntries, this, [this](const QList<LogEntry>& entries) {
        for (const LogEntry& e : entries) {
            if (!parseResumeLine(e.message).first.isEmpty())
                m_resumeLines.append(e);
        }
        showResumes();
    });
}

void JobView::showResumes()
{
    if (m_resumeLines.isEmpty()) {
        m_resumeLabel->clear();
        m_resumeLabel->hide();
        return;
    }
    const QString jobDir = QDir::cleanPath(m_job.trainingInput.jobDir);
    QStringList rows;
    for (const LogEntry& e : std::as_const(m_resumeLines)) {
        auto [path, details] = parseResumeLine(e.message);
        if (!jobDir.isEmpty() && path.startsWith(jobDir + QLatin1Char('/')))
            path = path.mid(jobDir.size() + 1);
        QString row = details.isEmpty()
            ? tr("Resumed from <b>%1</b>").arg(path.toHtmlEscaped())
            : tr("Resumed from <b>%1</b> (%2)").arg(path.toHtmlEscaped(), details.toHtmlEscaped());
        if (e.timestampUs > 0)
            row += QStringLiteral(" — ")
                + formatTime(QDateTime::fromMSecsSinceEpoch(e.timestampUs / 1000, QTimeZone::utc())).toHtmlEscaped();
        if (!e.trialId.isEmpty())
            row += QStringLiteral(" — ") + tr("trial %1").arg(e.trialId.toHtmlEscaped());
        rows << row;
    }
    m_resumeLabel->setText(
        QStringLiteral("<b>%1</b><br>%2")
            .arg(tr("Checkpoints the cluster resumed from").toHtmlEscaped(), rows.join(QStringLiteral("<br>"))));
    m_resumeLabel->setToolTip(tr("From the trainer's \"Resuming from checkpoint\" log lines (master-replica-0)"));
    m_resumeLabel->show();
}

void JobView::setJob(const Job& job)
{
    if (m_observed.isEmpty() || m_observed.constLast().first != job.state)
        m_observed.append({ job.state, QDateTime::currentDateTimeUtc() });
    m_job = job;
    m_final = isFinal(job.state);
    m_title->setText(job.jobId);
    m_stateIcon->setPixmap(stateIcon(job.state).pixmap(20, 20));
    m_state->setText(QStringLiteral("<b style=\"color:%1\">%2</b>")
                         .arg(stateColor(job.state).name(), stateDisplayName(job.state).toHtmlEscaped()));
    updateErrorBanner();
    m_replicas->setJobStartTime(JobListModel::parseTime(job.startTime));
    const bool preparing = job.state == JobState::Queued || job.state == JobState::Preparing;
    m_progress->setVisible(preparing);
    m_progressText->setVisible(preparing);
    if (!preparing)
        m_progressText->clear();
    m_cancel->setEnabled(!isFinal(job.state) && job.state != JobState::Cancelling);
    m_openDir->setEnabled(!job.trainingInput.jobDir.isEmpty());
    const QString yaml = jobToYaml(job);
    if (yaml != m_yaml->toPlainText())
        m_yaml->setPlainText(yaml);
    rebuildTimeline();
    if (m_checkpoints)
        m_checkpoints->setJob(job);
    if (m_model)
        m_model->setJob(job);
    if (m_batch)
        m_batch->setJob(job);
    if (m_trials)
        m_trials->setJob(job);
    emit jobChanged(job);
}

void JobView::rebuildTimeline()
{
    // Each step's heading is a nested layout: its widgets must go too, or the old heading stays on
    // screen under the new one.
    std::function<void(QLayout*)> clear = [&clear](QLayout* layout) {
        while (QLayoutItem* item = layout->takeAt(0)) {
            if (QLayout* child = item->layout())
                clear(child);
            delete item->widget();
            delete item;
        }
    };
    clear(m_timeline);
    m_runningNote = nullptr;
    const QDateTime created = JobListModel::parseTime(m_job.createTime);
    const QDateTime started = JobListModel::parseTime(m_job.startTime);
    const QDateTime ended = JobListModel::parseTime(m_job.endTime);
    struct Step {
        JobState state;
        QString label;
        QDateTime time;
        QString note;
    };
    QList<Step> steps;
    steps.append({ JobState::Queued, tr("Created"), created, {} });
    if (started.isValid()) {
        steps.append({ JobState::Running, tr("Started"), started,
            created.isValid() ? tr("after %1 in the queue").arg(formatSpan(created.secsTo(started))) : QString() });
    } else if (m_job.jobPosition) {
        steps.append({ JobState::Queued, tr("Waiting"), {}, tr("position %1 in the queue").arg(*m_job.jobPosition) });
    }
    if (ended.isValid()) {
        steps.append({ m_job.state, stateDisplayName(m_job.state), ended,
            started.isValid() ? tr("ran %1").arg(formatSpan(started.secsTo(ended))) : QString() });
    } else if (m_job.state != JobState::StateUnspecified && m_job.state != JobState::Queued) {
        steps.append({ m_job.state, tr("Now: %1").arg(stateDisplayName(m_job.state)), {},
            started.isValid() ? activeNote(m_job.state, started.secsTo(QDateTime::currentDateTimeUtc())) : QString() });
    }
    int column = 0;
    for (int i = 0; i < steps.size(); ++i) {
        const Step& step = steps.at(i);
        if (i > 0) {
            auto* arrow = new QLabel(QStringLiteral("→"), m_timelineBox);
            arrow->setStyleSheet(QStringLiteral("color: #9a9996; font-size: 16pt;"));
            m_timeline->addWidget(arrow, 0, column++, 3, 1, Qt::AlignCenter);
        }
        auto* icon = new QLabel(m_timelineBox);
        icon->setPixmap(stateIcon(step.state).pixmap(20, 20));
        auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(step.label.toHtmlEscaped()), m_timelineBox);
        auto* top = new QHBoxLayout;
        top->addWidget(icon);
        top->addWidget(label);
        top->addStretch(1);
        m_timeline->addLayout(top, 0, column);
        m_timeline->addWidget(
            new QLabel(step.time.isValid() ? formatTime(step.time) : QString(), m_timelineBox), 1, column);
        auto* note = new QLabel(step.note, m_timelineBox);
        note->setStyleSheet(QStringLiteral("color: #5e5c64;"));
        m_timeline->addWidget(note, 2, column);
        if (i == steps.size() - 1 && !ended.isValid() && started.isValid()) {
            m_runningNote = note;
            m_tick.start();
        }
        ++column;
    }
    // What this console saw happen live (the API keeps only the three times above).
    if (m_observed.size() > 1) {
        QStringList seen;
        for (const auto& [state, when] : std::as_const(m_observed))
            seen << tr("%1 at %2")
                        .arg(stateDisplayName(state),
                            QLocale().toString(when.toLocalTime().time(), QStringLiteral("HH:mm:ss")));
        auto* observed = new QLabel(tr("Seen here: %1").arg(seen.join(QStringLiteral(" → "))), m_timelineBox);
        observed->setStyleSheet(QStringLiteral("color: #5e5c64;"));
        m_timeline->addWidget(observed, 3, 0, 1, column);
    }
    m_timeline->setColumnStretch(column, 1);
}

void JobView::setReplicas(const QList<ReplicaInfo>& replicas)
{
    m_allReplicas = replicas;
    // A tuning job's replicas are each trial's cluster: show one trial, the one selected in the Trials tab,
    // or else the latest that runs, or else the latest.
    QString trial;
    bool selected = false;
    auto later = [](const QString& a, const QString& b) { return b.isEmpty() || a.toLongLong() > b.toLongLong(); };
    QString latestLive;
    QString latest;
    for (const ReplicaInfo& r : replicas) {
        if (r.trialId.isEmpty())
            continue;
        if (r.trialId == m_selectedTrial)
            selected = true;
        if (later(r.trialId, latest))
            latest = r.trialId;
        const bool live = r.state == ReplicaState::Pending || r.state == ReplicaState::Starting
            || r.state == ReplicaState::Running || r.state == ReplicaState::Restarting;
        if (live && later(r.trialId, latestLive))
            latestLive = r.trialId;
    }
    trial = selected ? m_selectedTrial : (!latestLive.isEmpty() ? latestLive : latest);
    QList<ReplicaInfo> shown = replicas;
    if (!trial.isEmpty())
        shown.removeIf([&](const ReplicaInfo& r) { return r.trialId != trial; });
    m_topologyTrial->setVisible(!trial.isEmpty());
    m_topologyTrial->setText(selected ? tr("Trial %1").arg(trial) : tr("Trial %1 (the latest)").arg(trial));
    m_topologyTrial->setToolTip(tr("The replicas of one trial; select trials in the Trials tab to see theirs."));
    m_replicas->setReplicas(shown);
    if (!m_focusedFailure && m_job.state == JobState::Failed && m_topology->focusFailed())
        m_focusedFailure = true;
}

QString JobView::failedTask(const QString& errorMessage)
{
    // "worker-replica-1" as in logs, or the service's wording "The replica worker 1 exited …".
    static const QRegularExpression task(QStringLiteral("\\b(master|chief|worker|ps|evaluator)-replica-\\d+\\b"));
    const QRegularExpressionMatch m = task.match(errorMessage);
    if (m.hasMatch())
        return m.captured(0);
    static const QRegularExpression service(QStringLiteral("\\breplica (master|chief|worker|ps|evaluator) (\\d+)\\b"));
    const QRegularExpressionMatch s = service.match(errorMessage);
    return s.hasMatch() ? s.captured(1) + QStringLiteral("-replica-") + s.captured(2) : QString();
}

void JobView::setErrorExpanded(bool expanded)
{
    m_errorExpanded = expanded;
    updateErrorBanner();
}

void JobView::updateErrorBanner()
{
    const QString error = m_job.errorMessage.trimmed();
    m_errorBox->setVisible(!error.isEmpty());
    if (error.isEmpty())
        return;
    // The executor's message ends with the CLI's way to the logs; here the Logs tab is one click away.
    QStringList lines = error.split(QLatin1Char('\n'));
    lines.removeIf([](const QString& line) { return line.contains(QLatin1String("trainyardctl jobs stream-logs")); });
    if (lines.isEmpty())
        lines = error.split(QLatin1Char('\n'));
    m_errorOutput->setVisible(m_errorExpanded && lines.size() > 1);
    if (lines.size() == 1) {
        m_error->setText(tr("Error: %1").arg(lines.first()));
    } else if (m_errorExpanded) {
        m_error->setText(tr("Error: %1").arg(lines.first()));
        m_errorOutput->setText(lines.mid(1).join(QLatin1Char('\n')));
    } else {
        QString first = lines.first();
        if (first.size() > 300)
            first = first.left(299) + QChar(0x2026);
        m_error->setText(tr("Error: %1").arg(first));
    }
    m_errorMore->setVisible(lines.size() > 1);
    m_errorMore->setText(m_errorExpanded ? tr("Show l&ess") : tr("Show &more"));
    m_errorLogs->setVisible(!failedTask(error).isEmpty());
}

void JobView::setSelectionNote(const QString& note, const QString& details)
{
    m_selectionNote->setText(note);
    m_selectionNote->setToolTip(details);
    m_selectionNote->setVisible(!note.isEmpty());
}

void JobView::showErrorInLogs()
{
    showTab(LogsTab);
    m_logs->showFirstError(failedTask(m_job.errorMessage));
}

void JobView::cancelJob()
{
    if (!m_connection || !m_connection->client())
        return;
    // Verbs on the buttons, not Yes/No (KDE HIG): what each one does is its label.
    QMessageBox box(QMessageBox::Question, tr("Cancel Job"),
        tr("Cancel job %1? Every replica will be stopped.").arg(m_job.jobId), QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("cancelJobBox"));
    QPushButton* cancel = box.addButton(tr("&Cancel Job"), QMessageBox::DestructiveRole);
    QPushButton* keep = box.addButton(tr("&Keep Running"), QMessageBox::RejectRole);
    box.setDefaultButton(keep);
    box.setEscapeButton(keep);
    box.exec();
    if (box.clickedButton() != cancel)
        return;
    m_cancel->setEnabled(false);
    m_connection->client()->cancelJob(m_job.jobId, this, [this](bool, const ApiError& error) {
        if (!error.isNull()) {
            m_cancel->setEnabled(!isFinal(m_job.state));
            emit message(tr("Could not cancel %1: %2").arg(m_job.jobId, error.summary()));
            if (m_connection)
                m_connection->reportError(error);
        } else {
            emit message(tr("Cancelling %1…").arg(m_job.jobId));
        }
    });
}

void JobView::openJobDir()
{
    const QString dir = m_job.trainingInput.jobDir;
    const QUrl url = QUrl::fromUserInput(dir, QDir::currentPath(), QUrl::AssumeLocalFile);
    if (url.isLocalFile() && !QFileInfo::exists(url.toLocalFile())) {
        emit message(tr("The job directory %1 does not exist (yet).").arg(dir));
        return;
    }
    if (!QDesktopServices::openUrl(url))
        emit message(tr("No application could open %1.").arg(dir));
}

} // namespace Trainyard
