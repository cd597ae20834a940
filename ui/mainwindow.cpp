// SPDX-License-Identifier: GPL-2.0-or-later
#include "mainwindow.h"
#include "screenfit.h"

#include "apiclient.h"
#include "clustersview.h"
#include "connectdialog.h"
#include "executorconnection.h"
#include "jobfilterproxymodel.h"
#include "joblistmodel.h"
#include "jobview.h"
#include "modelsview.h"
#if TRAINYARD_HAVE_QTCHARTS
#include "metricspanel.h"
#endif
#include "auditview.h"
#include "settingsdialog.h"
#include "stateicons.h"
#include "submitwizard.h"
#include "tokenstore.h"
#include "wizardpages.h"

#include "wheelguard.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMetaMethod>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>
#include <QWhatsThis>

#include <algorithm>
#include <memory>

namespace Trainyard {

namespace {

/// A succeeded job's model folder, what Deploy Model… offers: a built-in algorithm's builtInAlgorithmOutput.modelPath,
/// else `<jobDir>/model` when it exists on this machine (the sample trainer's and a user's convention); empty when
/// none.
QString jobModelFolder(const Job& job)
{
    if (job.trainingOutput && job.trainingOutput->builtInAlgorithmOutput
        && !job.trainingOutput->builtInAlgorithmOutput->modelPath.isEmpty())
        return job.trainingOutput->builtInAlgorithmOutput->modelPath;
    const QString folder = job.trainingInput.jobDir + QStringLiteral("/model");
    return !job.trainingInput.jobDir.isEmpty() && QFileInfo(folder).isDir() ? folder : QString();
}

/// The host's figures are polled; the job list follows a stream, reopened at the next tick when it drops.
constexpr int PollMs = 2000;
} // namespace

MainWindow::MainWindow(ExecutorConnection* connection, QWidget* parent)
    : QMainWindow(parent)
    , m_connection(connection)
    , m_model(new JobListModel(this))
    , m_proxy(new JobFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_filterError(new QLabel(this))
    , m_detail(new QStackedWidget(this))
    , m_emptyDetail(new QLabel(this))
    , m_stateGroup(new QActionGroup(this))
    , m_statusFields(new ExecutorStatusBar(statusBar(), this))
    , m_feed(new JobListFeed(m_model, this))
    , m_clustersView(new ClustersView(this))
    , m_clustersDock(new QDockWidget(tr("Clusters"), this))
    , m_modelsView(new ModelsView(this))
    , m_modelsDock(new QDockWidget(tr("Models"), this))
{
    installWheelGuard(); // its fields take the wheel only when focused
    setWindowTitle(tr("Trainyard"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/trainyard.svg")));

    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(JobListModel::CreatedColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Several jobs (Ctrl+click, Shift+click): the current one's view, with the others' curves overlaid in its
    // Metrics tab (TensorBoard's run comparison).
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setColumnWidth(JobListModel::JobIdColumn, 200);
    m_table->setColumnWidth(JobListModel::TypeColumn, 130);
    m_table->setColumnWidth(JobListModel::StateColumn, 120);
    m_table->setColumnWidth(JobListModel::CreatedColumn, 150);
    m_table->setColumnWidth(JobListModel::DurationColumn, 80);
    m_table->setColumnWidth(JobListModel::ScaleTierColumn, 100);
    m_table->setColumnWidth(JobListModel::ReplicasColumn, 150);
    m_table->setColumnWidth(JobListModel::GpusColumn, 50);

    m_filter->setPlaceholderText(tr("Filter: jobId:fmnist* AND state:RUNNING AND labels.owner=alice"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("The service's filter syntax: field:value (prefix with a trailing *), field=value, "
                            "joined by AND; fields jobId, state, labels.KEY, createTime (also < > <= >=). Ctrl+F"));
    m_filterError->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_filterError->hide();

    m_emptyDetail->setText(tr("Select a job to see its overview, topology and logs."));
    m_emptyDetail->setAlignment(Qt::AlignCenter);
    m_emptyDetail->setStyleSheet(QStringLiteral("color: #77767b;"));
    m_detail->addWidget(m_emptyDetail);

    // The list area: the table, or a first-start welcome when there are no jobs at all, or "no job matches"
    // when the filter hides every job (a blank table says neither).
    m_welcome = new QWidget(this);
    m_welcome->setObjectName(QStringLiteral("welcome"));
    {
        auto* title = new QLabel(tr("No jobs yet"), m_welcome);
        QFont big = title->font();
        big.setPointSizeF(big.pointSizeF() * 1.4);
        big.setBold(true);
        title->setFont(big);
        auto* text = new QLabel(tr("Trainyard runs AI Platform Training jobs on this workstation: each replica is a "
                                   "process with the service's TF_CONFIG, --job-dir and logs. Start with the bundled "
                                   "Fashion-MNIST sample (about a minute), bring a gcloud config file, or describe a "
                                   "job step by step."),
            m_welcome);
        text->setWordWrap(true);
        text->setAlignment(Qt::AlignHCenter);
        text->setFixedWidth(std::max(420, text->fontMetrics().averageCharWidth() * 80));
        text->setMinimumHeight(text->heightForWidth(text->width())); // all of it, not the first lines
        m_runSample = new QPushButton(tr("&Run the sample"), m_welcome);
        m_runSample->setObjectName(QStringLiteral("runSampleButton"));
        m_runSample->setToolTip(tr("Submits the bundled Fashion-MNIST trainer (trainer.task, BASIC, 2 epochs) with a "
                                   "job dir under your data folder"));
        m_runSample->setDefault(true);
        m_importConfig = new QPushButton(tr("&Import a gcloud config file…"), m_welcome);
        m_importConfig->setObjectName(QStringLiteral("importConfigButton"));
        m_submitJob = new QPushButton(tr("Submit a &job… (Ctrl+N)"), m_welcome);
        m_submitJob->setObjectName(QStringLiteral("submitJobButton"));
        auto* buttons = new QHBoxLayout;
        buttons->addStretch(1);
        buttons->addWidget(m_runSample);
        buttons->addWidget(m_importConfig);
        buttons->addWidget(m_submitJob);
        buttons->addStretch(1);
        auto* layout = new QVBoxLayout(m_welcome);
        layout->addStretch(1);
        layout->addWidget(title, 0, Qt::AlignHCenter);
        layout->addWidget(text, 0, Qt::AlignHCenter);
        layout->addSpacing(8);
        layout->addLayout(buttons);
        layout->addStretch(1);
        connect(m_runSample, &QPushButton::clicked, this, &MainWindow::runSample);
        connect(m_importConfig, &QPushButton::clicked, this, &MainWindow::importConfig);
        connect(m_submitJob, &QPushButton::clicked, this, &MainWindow::submitRequested);
    }
    m_noMatch = new QWidget(this);
    m_noMatch->setObjectName(QStringLiteral("noMatch"));
    {
        auto* text = new QLabel(tr("No job matches the filter."), m_noMatch);
        m_clearFilter = new QPushButton(tr("&Clear Filter"), m_noMatch);
        m_clearFilter->setObjectName(QStringLiteral("clearFilterButton"));
        auto* layout = new QVBoxLayout(m_noMatch);
        layout->addStretch(1);
        layout->addWidget(text, 0, Qt::AlignHCenter);
        layout->addWidget(m_clearFilter, 0, Qt::AlignHCenter);
        layout->addStretch(1);
        connect(m_clearFilter, &QPushButton::clicked, this, [this] {
            m_filter->clear();
            if (QAction* all = m_stateGroup->actions().value(0)) {
                all->setChecked(true);
                m_proxy->setStateGroup(JobFilterProxyModel::StateGroup::All);
            }
            m_table->setFocus();
        });
    }
    m_listStack = new QStackedWidget(this);
    m_listStack->addWidget(m_table);
    m_listStack->addWidget(m_welcome);
    m_listStack->addWidget(m_noMatch);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(4, 4, 4, 0);
    topLayout->addWidget(m_filter);
    topLayout->addWidget(m_filterError);
    topLayout->addWidget(m_listStack, 1);
    // The detail (topology, charts, logs) is what a user reads; the list needs a few rows. The sizes are
    // remembered (restoreLayout).
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->addWidget(top);
    // Below its contents' minimum (the Logs bar, the trials' plot over their table), the detail scrolls
    // instead of pushing the window past the screen or drawing its widgets over each other.
    m_detailScroll = new QScrollArea(this);
    m_detailScroll->setObjectName(QStringLiteral("detailScroll"));
    m_detailScroll->setFrameShape(QFrame::NoFrame);
    m_detailScroll->setWidgetResizable(true);
    m_detailScroll->setWidget(m_detail);
    m_splitter->addWidget(m_detailScroll);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setChildrenCollapsible(false);
    // The panes' minimums must not add up past a small screen (issue 27: selecting a job grew the window to 986
    // px on a 700-px screen and it never shrank). An explicit minimum overrides the one the contents would
    // impose (the Logs bar, a wrapped banner), so each pane keeps only what it needs to be usable and its
    // contents compress or scroll below their preferred size.
    top->setMinimumSize(240, 96);
    m_detailScroll->setMinimumSize(320, 160);
    setCentralWidget(m_splitter);
    setTabOrder(m_filter, m_table);

    buildActions();

    // Where jobs run (this host and the executor's Slurm clusters): a dock under the detail, hidden until the
    // user asks for it; the status bar keeps a one-line summary while the executor has clusters.
    m_clustersDock->setObjectName(QStringLiteral("clustersDock"));
    m_clustersDock->setWidget(m_clustersView);
    m_clustersView->setMinimumSize(240, 120); // as the panes above: never the window's minimum
    m_clustersDock->hide();
    addDockWidget(Qt::BottomDockWidgetArea, m_clustersDock);
    connect(m_clustersView, &ClustersView::regionsChanged, m_statusFields, &ExecutorStatusBar::showClusters);
    // Deployed models and their versions, with the Predict panel: a dock too, tabbed with the clusters.
    m_modelsDock->setObjectName(QStringLiteral("modelsDock"));
    m_modelsDock->setWidget(m_modelsView);
    m_modelsView->setMinimumSize(240, 120);
    m_modelsDock->hide();
    addDockWidget(Qt::BottomDockWidgetArea, m_modelsDock);
    connect(m_statusFields, &ExecutorStatusBar::clustersActivated, this, [this] {
        m_clustersDock->show();
        m_clustersDock->raise();
    });
    connect(m_feed, &JobListFeed::applied, this, &MainWindow::jobsApplied);
    connect(m_feed, &JobListFeed::failed, this, [this](const ApiError& error) {
        if (m_connection)
            m_connection->reportError(error);
    });

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &JobFilterProxyModel::setFilterText);
    connect(m_proxy, &JobFilterProxyModel::filterErrorChanged, this, [this](const QString& error) {
        m_filterError->setText(error.isEmpty() ? QString() : tr("Filter not applied: %1").arg(error));
        m_filterError->setVisible(!error.isEmpty());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::onSelectionChanged);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::updateComparison);
    for (auto signal : { &QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved })
        connect(m_proxy, signal, this, &MainWindow::updateListState);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &MainWindow::updateListState);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &MainWindow::updateListState);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &MainWindow::updateActions);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section) {
        if (section == JobListModel::JobIdColumn && !m_fittingColumn)
            m_userSizedIdColumn = true;
    });
    connect(m_table, &QTableView::customContextMenuRequested, this, &MainWindow::showContextMenu);
    connect(m_table, &QTableView::activated, this, &MainWindow::describeSelected);

    m_poll.setInterval(PollMs);
    connect(&m_poll, &QTimer::timeout, this, &MainWindow::refresh);
    if (m_connection) {
        connect(m_connection, &ExecutorConnection::stateChanged, this, &MainWindow::onConnectionStateChanged);
        connect(m_connection, &ExecutorConnection::message, this, [this](const QString& text) { showMessage(text); });
        connect(m_connection, &ExecutorConnection::clientChanged, this, [this] {
            m_feed->close(); // it belongs to the old client; the cursor tells the new one where we were
            refresh();
            updateClustersFile();
        });
        updateClustersFile();
    }
    onConnectionStateChanged();
    // 1400 × 900, or less on a smaller screen: the window must fit (a 1024 × 700 screen cut it off).
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1400, 900);
    resize(std::min(1400, available.width() * 19 / 20), std::min(900, available.height() * 19 / 20));
    m_splitter->setSizes({ 260, 640 });
    restoreLayout();
    updateListState();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::updateClustersFile()
{
    // A local executor (the runtime file's, on loopback) is this user's: it reads this user's clusters.yaml.
    const ExecutorEndpoint endpoint = m_connection ? m_connection->endpoint() : ExecutorEndpoint {};
    const bool local = endpoint.isValid() && endpoint.pid > 0;
    m_clustersView->setClustersFile(local ? QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
                + QStringLiteral("/trainyard/clusters.yaml")
                                          : QString());
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table && (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride)) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->modifiers() == Qt::ControlModifier
            && (key->key() == Qt::Key_PageDown || key->key() == Qt::Key_PageUp)) {
            if (event->type() == QEvent::ShortcutOverride) {
                event->accept(); // deliver it as a key press here, not to the view's page navigation
                return true;
            }
            (key->key() == Qt::Key_PageDown ? m_nextTab : m_previousTab)->trigger();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::connectToExecutor()
{
    if (!m_keyring)
        m_keyring = new KeychainTokenStore(this);
    ConnectDialog dialog(m_keyring, this);
    if (dialog.exec() != QDialog::Accepted || !m_connection)
        return;
    m_connection->connectTo(dialog.url(), dialog.token(), dialog.trust());
    showMessage(dialog.tokenPersisted()
            ? tr("Connecting to %1; the token is in the desktop keyring.").arg(dialog.url().authority())
            : tr("Connecting to %1; the token is kept for this session only.").arg(dialog.url().authority()));
}

void MainWindow::buildActions()
{
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* connectAction = fileMenu->addAction(tr("&Connect to Executor…"), this, &MainWindow::connectToExecutor);
    connectAction->setObjectName(QStringLiteral("connectToExecutor"));
    fileMenu->addAction(tr("Use the &Local Executor"), this, [this] {
        QSettings().remove(ConnectDialog::urlKey());
        if (m_connection)
            m_connection->connectToLocal();
    });
    fileMenu->addSeparator();
    QAction* settings = fileMenu->addAction(tr("&Settings…"), this, [this] { SettingsDialog(this).exec(); });
    settings->setShortcut(QKeySequence::Preferences);
    settings->setMenuRole(QAction::PreferencesRole);
    fileMenu->addSeparator();
    QAction* quit = fileMenu->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* refreshAction = viewMenu->addAction(tr("&Refresh"), this, &MainWindow::refresh);
    refreshAction->setShortcut(QKeySequence::Refresh);
    QAction* filterAction = viewMenu->addAction(tr("&Filter jobs"), this, &MainWindow::focusFilter);
    filterAction->setShortcut(QKeySequence::Find);
    QAction* clusters = m_clustersDock->toggleViewAction();
    clusters->setText(tr("C&lusters"));
    clusters->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    clusters->setObjectName(QStringLiteral("showClustersAction"));
    viewMenu->addAction(clusters);
    QAction* models = m_modelsDock->toggleViewAction();
    models->setText(tr("Mod&els"));
    models->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    models->setObjectName(QStringLiteral("showModelsAction"));
    viewMenu->addAction(models);
    QAction* auditAction = viewMenu->addAction(tr("&Audit Log"), this, &MainWindow::showAuditLog);
    auditAction->setObjectName(QStringLiteral("showAuditLog"));
    viewMenu->addSeparator();
    // The job view's tabs from anywhere in the window (Alt+1…6 are the state filters): Ctrl+N is the Nth tab the
    // selected job shows (Trials is the second of a tuning job, and absent from other jobs; Model only for a built-in
    // algorithm job: updateTabShortcuts()).
    const QString tabNames[] = { tr("&Overview"), tr("&Topology"), tr("&Logs"), tr("&Checkpoints"), tr("&Metrics"),
        tr("T&rials"), tr("Mo&del"), tr("Pred&ictions") };
    for (int tab = 0; tab < int(std::size(tabNames)); ++tab) {
        QAction* action = viewMenu->addAction(tabNames[tab], this, [this, tab] {
            if (m_jobView && m_jobView->showTab(JobView::Tab(tab)))
                m_lastTab = tab;
        });
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + tab)));
        action->setObjectName(QStringLiteral("showTab%1").arg(tab));
        m_tabActions << action;
    }
    updateTabShortcuts();
    auto stepTab = [this](int step) {
        if (!m_jobView)
            return;
        m_lastTab = int(m_jobView->stepTab(step));
    };
    m_nextTab = viewMenu->addAction(tr("&Next Tab"), this, [stepTab] { stepTab(+1); });
    m_nextTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    m_nextTab->setObjectName(QStringLiteral("nextTabAction"));
    m_previousTab = viewMenu->addAction(tr("&Previous Tab"), this, [stepTab] { stepTab(-1); });
    m_previousTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    // The job list takes Ctrl+PgUp/PgDn as its own page keys (it moved the selection): there they change
    // the tab too.
    m_table->installEventFilter(this);

    m_jobMenu = menuBar()->addMenu(tr("&Job"));
    QAction* submit = m_jobMenu->addAction(tr("&Submit Job…"), this, &MainWindow::submitRequested);
    submit->setShortcut(QKeySequence::New);
    submit->setObjectName(QStringLiteral("submitJobAction"));
    connect(this, &MainWindow::submitRequested, this, [this] { openSubmitWizard(Job {}); });
    connect(this, &MainWindow::submitSimilarRequested, this, &MainWindow::openSubmitWizard);
    m_similarAction = m_jobMenu->addAction(tr("Submit S&imilar…"), this, [this] {
        if (const Job* job = currentJob())
            emit submitSimilarRequested(*job);
    });
    m_similarAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_similarAction->setObjectName(QStringLiteral("submitSimilarAction"));
    QAction* import = m_jobMenu->addAction(tr("&Import gcloud Config File…"), this, &MainWindow::importConfig);
    import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    m_jobMenu->addAction(tr("&Run the Sample"), this, &MainWindow::runSample);
    m_jobMenu->addSeparator();
    m_describe = m_jobMenu->addAction(tr("&Describe"), this, &MainWindow::describeSelected);
    m_describe->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_cancelAction = m_jobMenu->addAction(tr("&Cancel Job…"), this, &MainWindow::cancelSelected);
    m_cancelAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    m_copyId = m_jobMenu->addAction(tr("Copy Job &ID"), this, &MainWindow::copySelectedId);
    m_copyId->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_openDirAction = m_jobMenu->addAction(tr("&Open Job Directory"), this, &MainWindow::openSelectedDir);
    m_deployAction = m_jobMenu->addAction(tr("Deplo&y Model…"), this, &MainWindow::deploySelected);
    m_deployAction->setObjectName(QStringLiteral("deployModelAction"));

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = helpMenu->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Comma));
    helpMenu->addAction(tr("&Filter Syntax"), this, &MainWindow::showFilterHelp);
    helpMenu->addAction(QWhatsThis::createAction(this));
    helpMenu->addSeparator();
    helpMenu->addAction(tr("&About Trainyard"), this, [this] {
        QMessageBox::about(this, tr("About Trainyard"),
            tr("<b>Trainyard</b><p>AI Platform Training's workflow on your workstation: submit training "
               "jobs, watch their replicas and logs.</p>"));
    });

    auto* toolbar = addToolBar(tr("States"));
    toolbar->setObjectName(QStringLiteral("stateToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(submit);
    toolbar->addSeparator();
    const struct {
        JobFilterProxyModel::StateGroup group;
        QString text;
        std::optional<JobState> icon;
    } groups[] = {
        { JobFilterProxyModel::StateGroup::All, tr("All"), std::nullopt },
        { JobFilterProxyModel::StateGroup::Running, tr("Running"), JobState::Running },
        { JobFilterProxyModel::StateGroup::Queued, tr("Queued"), JobState::Queued },
        { JobFilterProxyModel::StateGroup::Succeeded, tr("Succeeded"), JobState::Succeeded },
        { JobFilterProxyModel::StateGroup::Failed, tr("Failed"), JobState::Failed },
        { JobFilterProxyModel::StateGroup::Cancelled, tr("Cancelled"), JobState::Cancelled },
    };
    int key = Qt::Key_1;
    for (const auto& g : groups) {
        QAction* action = toolbar->addAction(g.text);
        if (g.icon)
            action->setIcon(stateIcon(*g.icon));
        action->setCheckable(true);
        action->setChecked(g.group == JobFilterProxyModel::StateGroup::All);
        action->setShortcut(QKeySequence(Qt::ALT | Qt::Key(key++)));
        action->setToolTip(
            tr("Show %1 jobs (%2)").arg(g.text.toLower(), action->shortcut().toString(QKeySequence::NativeText)));
        action->setData(int(g.group));
        m_stateGroup->addAction(action);
    }
    connect(m_stateGroup, &QActionGroup::triggered, this,
        [this](QAction* action) { m_proxy->setStateGroup(JobFilterProxyModel::StateGroup(action->data().toInt())); });
    toolbar->addSeparator();
    toolbar->addAction(refreshAction);
}

void MainWindow::openSubmitWizard(const Job& base)
{
    SubmitWizard* wizard = createSubmitWizard();
    if (base == Job {}) {
        // A draft kept when the wizard was last closed unsubmitted.
        if (wizard->restoreDraft()) {
            const QString id = wizard->jobPage()->jobIdEdit()->text();
            showMessage(tr("Restored the job draft you kept (%1). Cancel and Discard to start over.")
                            .arg(id.isEmpty() ? tr("no job ID yet") : id),
                10000);
        }
    } else {
        wizard->loadJob(base);
        wizard->jobPage()->jobIdEdit()->setText(wizard->jobPage()->suggestedId(QDateTime::currentDateTime()));
        // A fresh folder, not the old job's: reusing it made the new job silently resume the old run.
        if (!base.trainingInput.jobDir.isEmpty())
            wizard->outputPage()->proposeFreshJobDir();
        wizard->markUnmodified(); // closing a copy the user did not touch asks nothing
    }
    wizard->open();
}

SubmitWizard* MainWindow::openSubmitWizardFromCheckpoint(const Job& base, const QString& checkpoint)
{
    SubmitWizard* wizard = createSubmitWizard();
    // Not a new suggested ID: the copy's folder is named after this one.
    wizard->loadJob(base);
    wizard->setTitleBase(tr("Submit from checkpoint %1").arg(checkpoint));
    const QString copy = base.trainingInput.jobDir;
    connect(wizard, &QDialog::rejected, this, [this, copy, wizard] {
        // A kept draft still needs its copy; a discarded wizard does not.
        if (wizard->draftKept())
            return;
        if (!copy.isEmpty() && QDir(copy).removeRecursively())
            showMessage(tr("Removed the unused checkpoint copy %1").arg(copy));
    });
    wizard->open();
    return wizard;
}

SubmitWizard* MainWindow::openSubmitWizardWithJob(const Job& job, const QString& title)
{
    SubmitWizard* wizard = createSubmitWizard();
    wizard->loadJob(job);
    wizard->setTitleBase(title);
    // A fresh folder named after the new ID: the tuning job's own holds its trials' checkpoints.
    if (!job.trainingInput.jobDir.isEmpty())
        wizard->outputPage()->proposeFreshJobDir();
    wizard->markUnmodified();
    wizard->open();
    return wizard;
}

SubmitWizard* MainWindow::createSubmitWizard()
{
    auto* wizard = new SubmitWizard(m_connection ? m_connection->client() : nullptr, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    wizard->setKnownJobs(m_model->jobs());
    connect(wizard, &SubmitWizard::jobSubmitted, this,
        [this](const Job& job) { selectWhenListed(job.jobId, JobView::TopologyTab); });
    return wizard;
}

void MainWindow::selectWhenListed(const QString& jobId, int tab)
{
    // The list learns of the job at its next poll: select it then, and show the tab.
    // At most a few polls: a job the filter hides is not selected later, behind the user's back.
    auto pending = std::make_shared<QMetaObject::Connection>();
    auto polls = std::make_shared<int>(0);
    auto select = [this, jobId, tab, pending, polls] {
        if (!selectJob(jobId)) {
            if (++*polls >= 5 || m_model->rowOf(jobId) >= 0)
                QObject::disconnect(*pending);
            return;
        }
        QObject::disconnect(*pending);
        if (m_jobView) {
            m_jobView->showTab(JobView::Tab(tab));
            m_lastTab = tab;
        }
    };
    *pending = connect(this, &MainWindow::jobsRefreshed, this, select);
    // The stream may have brought the job before its creation call answered.
    if (m_feed->isSynced() && m_model->rowOf(jobId) >= 0)
        select();
    refresh();
}

QString MainWindow::sampleTrainerPath()
{
    const QString installed = QStandardPaths::locate(QStandardPaths::GenericDataLocation,
        QStringLiteral("trainyard/trainers/fmnist"), QStandardPaths::LocateDirectory);
    if (!installed.isEmpty())
        return installed;
    // Relative to the program: <prefix>/bin/../share (an install outside XDG_DATA_DIRS), and a build tree,
    // which mirrors that layout (<build>/share/trainyard/trainers, see resources/CMakeLists.txt).
    QDir dir(QCoreApplication::applicationDirPath());
    for (int up = 0; up < 4 && dir.cdUp(); ++up) {
        const QString candidate = dir.filePath(QStringLiteral("share/trainyard/trainers/fmnist"));
        if (QFileInfo::exists(candidate + QStringLiteral("/setup.py")))
            return QDir(candidate).canonicalPath();
    }
    return {};
}

Job MainWindow::sampleJob(const QDateTime& now)
{
    Job job;
    job.jobId = QStringLiteral("fmnist_sample_") + now.toString(QStringLiteral("yyyyMMdd_HHmmss"));
    job.labels.insert(QStringLiteral("sample"), QStringLiteral("fmnist"));
    TrainingInput& in = job.trainingInput;
    in.scaleTier = QStringLiteral("BASIC");
    in.region = QStringLiteral("us-central1");
    in.packageUris = { sampleTrainerPath() };
    in.pythonModule = QStringLiteral("trainer.task");
    in.args = { QStringLiteral("--epochs"), QStringLiteral("2") };
    in.jobDir = WizardOutputPage::defaultJobDir(job.jobId);
    return job;
}

void MainWindow::runSample()
{
    ApiClient* client = m_connection ? m_connection->client() : nullptr;
    if (!client) {
        showMessage(tr("Not connected to an executor yet."));
        return;
    }
    const Job job = sampleJob(QDateTime::currentDateTime());
    if (job.trainingInput.packageUris.value(0).isEmpty()) {
        QMessageBox::warning(this, tr("Run the sample"),
            tr("The bundled sample trainer was not found (trainyard/trainers/fmnist in the data folders, or "
               "resources/trainers/fmnist beside the build)."));
        return;
    }
    m_runSample->setEnabled(false);
    showMessage(tr("Submitting the sample job %1…").arg(job.jobId));
    client->createJob(job, this, [this](const Job& created, const ApiError& error) {
        m_runSample->setEnabled(true);
        if (!error.isNull()) {
            QMessageBox::warning(this, tr("Run the sample"), tr("The sample job was refused: %1").arg(error.summary()));
            return;
        }
        showMessage(tr("Submitted %1: staging the trainer, then training for 2 epochs.").arg(created.jobId));
        selectWhenListed(created.jobId, JobView::TopologyTab);
    });
}

void MainWindow::importConfig()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import a gcloud Config File"), QDir::homePath(),
        tr("gcloud config files (*.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty())
        importConfigFile(path);
}

bool MainWindow::importConfigFile(const QString& path)
{
    SubmitWizard* wizard = createSubmitWizard();
    QString error;
    if (!wizard->importConfig(path, &error)) {
        delete wizard;
        QMessageBox::warning(this, tr("Import a gcloud Config File"), tr("%1 does not load: %2").arg(path, error));
        return false;
    }
    wizard->markUnmodified();
    wizard->open();
    return true;
}

MainWindow::ListState MainWindow::listState() const
{
    if (m_listStack->currentWidget() == m_welcome)
        return ListState::Welcome;
    if (m_listStack->currentWidget() == m_noMatch)
        return ListState::NoMatch;
    return ListState::Table;
}

void MainWindow::updateListState()
{
    QWidget* page = m_table;
    if (m_feed->hasListed() && m_model->rowCount() == 0)
        page = m_welcome;
    else if (m_model->rowCount() > 0 && m_proxy->rowCount() == 0)
        page = m_noMatch;
    if (m_listStack->currentWidget() != page)
        m_listStack->setCurrentWidget(page);
    // With no job at all, the welcome takes the window; with none selected yet, the list does (at 1024 × 700 a
    // detail pane that says "Select a job" left the list 3.5 rows, issue 27). The pane opens with the first
    // selection, at the splitter's remembered share.
    m_detailScroll->setVisible(page != m_welcome && m_jobView);
    // A job the filter hides is not shown below the list either (its view stays alive for when it is back).
    if (m_jobView) {
        const int row = m_model->rowOf(m_jobView->jobId());
        const bool listed = row >= 0 && m_proxy->mapFromSource(m_model->index(row, 0)).isValid();
        m_emptyDetail->setText(listed || row < 0 ? tr("Select a job to see its overview, topology and logs.")
                                                 : tr("The filter hides %1.").arg(m_jobView->jobId()));
        m_detail->setCurrentWidget(listed ? static_cast<QWidget*>(m_jobView) : m_emptyDetail);
    }
    updateActions();
}

void MainWindow::updateActions()
{
    const Job* job = currentJob();
    const bool live = job && !isFinal(job->state) && job->state != JobState::Cancelling;
    m_describe->setEnabled(job);
    m_cancelAction->setEnabled(live);
    m_copyId->setEnabled(job);
    m_openDirAction->setEnabled(job && !job->trainingInput.jobDir.isEmpty());
    m_deployAction->setEnabled(job && job->state == JobState::Succeeded && !jobModelFolder(*job).isEmpty());
    m_similarAction->setEnabled(job && submitSimilarWanted());
}

void MainWindow::fitJobIdColumn()
{
    if (m_userSizedIdColumn)
        return;
    // Fit the IDs (with the header), within reason; the user's own width wins once they drag it.
    const int wanted = std::clamp(
        std::max(static_cast<const QAbstractItemView*>(m_table)->sizeHintForColumn(JobListModel::JobIdColumn),
            m_table->horizontalHeader()->sectionSizeHint(JobListModel::JobIdColumn)),
        120, 480);
    if (wanted == m_table->columnWidth(JobListModel::JobIdColumn))
        return;
    m_fittingColumn = true;
    m_table->setColumnWidth(JobListModel::JobIdColumn, wanted);
    m_fittingColumn = false;
}

void MainWindow::saveLayout()
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
    // "2": the Type column came (issue 46); a layout saved without it is not applied to the new columns.
    settings.setValue(QStringLiteral("mainWindow/jobColumns2"), m_table->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("mainWindow/jobIdColumnSized"), m_userSizedIdColumn);
    settings.setValue(QStringLiteral("mainWindow/detailTab"), m_lastTab);
}

void MainWindow::restoreLayout()
{
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    // A size remembered on a bigger screen must still fit this one.
    if (screen()) {
        const QRect available = screen()->availableGeometry();
        if (width() > available.width() || height() > available.height())
            resize(std::min(width(), available.width() * 19 / 20), std::min(height(), available.height() * 19 / 20));
    }
    m_splitter->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
    m_fittingColumn = true;
    m_table->horizontalHeader()->restoreState(settings.value(QStringLiteral("mainWindow/jobColumns2")).toByteArray());
    m_fittingColumn = false;
    m_userSizedIdColumn = settings.value(QStringLiteral("mainWindow/jobIdColumnSized"), false).toBool();
    m_lastTab = settings.value(QStringLiteral("mainWindow/detailTab"), -1).toInt();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Jobs run in the executor, not in this window: say so before the window goes, once per choice.
    int live = 0;
    for (const Job& job : m_model->jobs())
        live += isFinal(job.state) ? 0 : 1;
    QSettings settings;
    if (live > 0 && settings.value(QStringLiteral("ui/askBeforeQuitWithLiveJobs"), true).toBool()) {
        QMessageBox box(QMessageBox::Question, tr("Quit Trainyard"),
            tr("Jobs not finished: %1. They keep running in the executor after the console quits.").arg(live),
            QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("quitBox"));
        box.setInformativeText(tr("Start the console again, or use trainyardctl jobs list, to see them; "
                                  "trainyardctl jobs cancel stops one."));
        QPushButton* quit = box.addButton(tr("&Quit"), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(quit);
        auto* dontAsk = new QCheckBox(tr("Do not ask again"), &box);
        box.setCheckBox(dontAsk);
        box.exec();
        if (box.clickedButton() != quit) {
            event->ignore();
            return;
        }
        if (dontAsk->isChecked())
            settings.setValue(QStringLiteral("ui/askBeforeQuitWithLiveJobs"), false);
    }
    saveLayout();
    QMainWindow::closeEvent(event);
}

void MainWindow::onConnectionStateChanged()
{
    const auto state = m_connection ? m_connection->state() : ExecutorConnection::State::Disconnected;
    m_statusFields->showConnection(state, m_connection ? m_connection->endpoint().url.toString() : QString());
    switch (state) {
    case ExecutorConnection::State::Connected:
        statusBar()->clearMessage(); // "Starting the executor…" is over
        m_clustersView->setClient(m_connection->client());
        m_modelsView->setClient(m_connection->client());
        if (!m_poll.isActive())
            m_poll.start();
        refresh();
        break;
    case ExecutorConnection::State::Locating:
        break;
    case ExecutorConnection::State::Disconnected:
        m_poll.stop();
        m_feed->close();
        break;
    }
}

void MainWindow::refresh()
{
    if (!m_connection || !m_connection->client() || m_connection->state() != ExecutorConnection::State::Connected)
        return;
    m_feed->open(m_connection->client());
    refreshHost();
}

void MainWindow::refreshHost()
{
    if (!m_connection || !m_connection->client())
        return;
    m_connection->client()->host(this, [this](const HostStatus& host, const ApiError& error) {
        if (error.isNull())
            m_statusFields->showHost(host);
    });
}

void MainWindow::jobsApplied()
{
    // A job that started or ended changes what the host holds: the status bar reads it now, not at the next poll
    // (issue 46: it counted a finished job's vCPUs for seconds).
    QSet<QString> active;
    for (const Job& job : m_model->jobs()) {
        if (!isFinal(job.state))
            active.insert(job.jobId);
    }
    if (active != m_activeJobs) {
        m_activeJobs = active;
        refreshHost();
    }
    const QString selected = selectedJobId();
    fitJobIdColumn();
    updateListState();
    if (!selected.isEmpty() && selectedJobId() != selected)
        selectJob(selected);
    emit jobsRefreshed();
}

void MainWindow::showMessage(const QString& text, int timeoutMs)
{
    statusBar()->showMessage(text, timeoutMs);
}

QStringList MainWindow::selectedJobIds() const
{
    QStringList ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        ids << index.data(JobListModel::JobIdRole).toString();
    return ids;
}

void MainWindow::updateTabShortcuts()
{
    // Each tab keeps its key (JobView::Tab: Ctrl+6 is Trials for every job; issue 46 reverted the keys that followed
    // the tabs' positions, with which one key opened different tabs per job kind). A tab the selected job lacks is
    // hidden from the View menu; before any job is selected, a plain job's tabs.
    for (int tab = 0; tab < int(m_tabActions.size()); ++tab) {
        QAction* action = m_tabActions[tab];
        const bool present = m_jobView ? m_jobView->hasTab(JobView::Tab(tab))
                                       : tab != JobView::TrialsTab && tab != JobView::ModelTab
                && tab != JobView::PredictionsTab;
        action->setVisible(present);
        action->setEnabled(present);
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + tab)));
    }
}

void MainWindow::updateComparison()
{
    if (!m_jobView)
        return;
    QStringList others = selectedJobIds();
    others.removeAll(m_jobView->jobId());
    // The header says that more than one job is selected and what each tab shows (issue 27: with two selected,
    // the header, Overview and Logs showed one with no sign of the other).
    if (others.isEmpty()) {
        m_jobView->setSelectionNote({});
    } else {
        const int selected = int(others.size()) + 1;
#if TRAINYARD_HAVE_QTCHARTS
        const bool compares = m_jobView->metricsPanel();
#else
        const bool compares = false;
#endif
        m_jobView->setSelectionNote(compares
                ? tr("%n jobs selected: Metrics compares them; the other tabs show %1.", "", selected)
                      .arg(m_jobView->jobId())
                : tr("%n jobs selected: the tabs show %1.", "", selected).arg(m_jobView->jobId()),
            tr("Selected: %1").arg((QStringList { m_jobView->jobId() } + others).join(QStringLiteral(", "))));
    }
#if TRAINYARD_HAVE_QTCHARTS
    if (m_jobView->metricsPanel())
        m_jobView->metricsPanel()->setComparedJobs(others);
#endif
}

bool MainWindow::selectJob(const QString& jobId)
{
    const int row = m_model->rowOf(jobId);
    if (row < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

QString MainWindow::selectedJobId() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(JobListModel::JobIdRole).toString() : QString();
}

const Job* MainWindow::currentJob() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid())
        return nullptr;
    return m_model->jobAt(m_proxy->mapToSource(current).row());
}

void MainWindow::onSelectionChanged()
{
    const Job* job = currentJob();
    if (!job) {
        return; // keep showing the last job: a filter change should not tear down its live views
    }
    updateActions();
    if (m_jobView && m_jobView->jobId() == job->jobId) {
        updateListState();
        return;
    }
    if (m_jobView) {
        m_lastTab = int(m_jobView->currentTab()); // the next job opens on the same tab
        m_detail->removeWidget(m_jobView);
        m_jobView->deleteLater();
    }
    m_jobView = new JobView(m_connection, *job, m_detail);
    if (m_lastTab >= 0)
        m_jobView->showTab(JobView::Tab(m_lastTab));
    m_jobView->setSubmitSimilarVisible(submitSimilarWanted());
    connect(m_jobView, &JobView::message, this, [this](const QString& text) { showMessage(text); });
    connect(m_jobView, &JobView::submitSimilarRequested, this, &MainWindow::submitSimilarRequested);
    connect(m_jobView, &JobView::submitFromCheckpointRequested, this, &MainWindow::openSubmitWizardFromCheckpoint);
    connect(m_jobView, &JobView::submitWithValuesRequested, this,
        [this](const Job& job) { openSubmitWizardWithJob(job, tr("Submit with a trial's values")); });
    connect(m_jobView, &JobView::resumeTuningRequested, this,
        [this](const Job& job) { openSubmitWizardWithJob(job, tr("Resume tuning")); });
    connect(m_jobView, &JobView::jobChanged, m_model, &JobListModel::updateJob);
    connect(m_jobView, &JobView::jobChanged, this, [this](const Job& changed) {
        // "Cancelling …" and the like are about a job that has now ended.
        if (isFinal(changed.state) && statusBar()->currentMessage().contains(changed.jobId))
            statusBar()->clearMessage();
        updateActions();
    });
    m_detail->addWidget(m_jobView);
    m_detail->setCurrentWidget(m_jobView);
    updateTabShortcuts();
    updateListState();
    updateComparison();
}

void MainWindow::deploySelected()
{
    const Job* job = currentJob();
    const QString folder = job ? jobModelFolder(*job) : QString();
    m_modelsDock->show();
    m_modelsDock->raise();
    m_modelsView->deploy(folder, job ? job->jobId : QString());
}

} // namespace Trainyard
