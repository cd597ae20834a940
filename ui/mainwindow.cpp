// SPDX-License-Identifier: GPL-2.0-or-later
#include "mainwindow.h"

#include "apiclient.h"
#include "executorconnection.h"
#include "jobfilterproxymodel.h"
#include "joblistmodel.h"
#include "jobview.h"
#include "settingsdialog.h"
#include "stateicons.h"
#include "submitwizard.h"
#include "wizardpages.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMetaMethod>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include <memory>

namespace Trainyard {

namespace {
constexpr int PollMs = 2000;
constexpr int PageSize = 100;
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
    , m_urlLabel(new QLabel(this))
    , m_connectionLabel(new QLabel(this))
    , m_hostLabel(new QLabel(this))
{
    setWindowTitle(tr("Trainyard"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/trainyard.svg")));

    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(JobListModel::CreatedColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setColumnWidth(JobListModel::JobIdColumn, 260);
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

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(4, 4, 4, 0);
    topLayout->addWidget(m_filter);
    topLayout->addWidget(m_filterError);
    topLayout->addWidget(m_table, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    setCentralWidget(splitter);
    setTabOrder(m_filter, m_table);

    buildActions();

    statusBar()->addPermanentWidget(m_urlLabel);
    statusBar()->addPermanentWidget(m_connectionLabel);
    statusBar()->addPermanentWidget(m_hostLabel);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &JobFilterProxyModel::setFilterText);
    connect(m_proxy, &JobFilterProxyModel::filterErrorChanged, this, [this](const QString& error) {
        m_filterError->setText(error.isEmpty() ? QString() : tr("Filter not applied: %1").arg(error));
        m_filterError->setVisible(!error.isEmpty());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::onSelectionChanged);
    connect(m_table, &QTableView::customContextMenuRequested, this, &MainWindow::showContextMenu);
    connect(m_table, &QTableView::activated, this, &MainWindow::describeSelected);

    m_poll.setInterval(PollMs);
    connect(&m_poll, &QTimer::timeout, this, &MainWindow::refresh);
    if (m_connection) {
        connect(m_connection, &ExecutorConnection::stateChanged, this, &MainWindow::onConnectionStateChanged);
        connect(m_connection, &ExecutorConnection::message, this, [this](const QString& text) { showMessage(text); });
        connect(m_connection, &ExecutorConnection::clientChanged, this, &MainWindow::refresh);
    }
    onConnectionStateChanged();
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
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

    m_jobMenu = menuBar()->addMenu(tr("&Job"));
    QAction* submit = m_jobMenu->addAction(tr("&Submit Job…"), this, &MainWindow::submitRequested);
    submit->setShortcut(QKeySequence::New);
    submit->setObjectName(QStringLiteral("submitJobAction"));
    connect(this, &MainWindow::submitRequested, this, [this] { openSubmitWizard(Job {}); });
    connect(this, &MainWindow::submitSimilarRequested, this, &MainWindow::openSubmitWizard);
    m_jobMenu->addSeparator();
    QAction* describe = m_jobMenu->addAction(tr("&Describe"), this, &MainWindow::describeSelected);
    describe->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    QAction* cancel = m_jobMenu->addAction(tr("&Cancel job"), this, &MainWindow::cancelSelected);
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    QAction* copy = m_jobMenu->addAction(tr("Copy job &ID"), this, &MainWindow::copySelectedId);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_jobMenu->addAction(tr("&Open job directory"), this, &MainWindow::openSelectedDir);

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
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
        QString icon;
    } groups[] = {
        { JobFilterProxyModel::StateGroup::All, tr("All"), QString() },
        { JobFilterProxyModel::StateGroup::Running, tr("Running"), QStringLiteral("RUNNING") },
        { JobFilterProxyModel::StateGroup::Queued, tr("Queued"), QStringLiteral("QUEUED") },
        { JobFilterProxyModel::StateGroup::Succeeded, tr("Succeeded"), QStringLiteral("SUCCEEDED") },
        { JobFilterProxyModel::StateGroup::Failed, tr("Failed"), QStringLiteral("FAILED") },
        { JobFilterProxyModel::StateGroup::Cancelled, tr("Cancelled"), QStringLiteral("CANCELLED") },
    };
    int key = Qt::Key_1;
    for (const auto& g : groups) {
        QAction* action = toolbar->addAction(g.text);
        if (!g.icon.isEmpty())
            action->setIcon(stateIcon(g.icon));
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
        if (const std::optional<Job> draft = SubmitWizard::loadDraft()) {
            wizard->loadJob(*draft);
            showMessage(tr("Restored the job draft you kept (%1). Cancel and Discard to start over.")
                            .arg(draft->jobId.isEmpty() ? tr("no job ID yet") : draft->jobId),
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
    wizard->setWindowTitle(tr("Submit from checkpoint %1").arg(checkpoint));
    const QString copy = base.trainingInput.jobDir;
    connect(wizard, &QDialog::rejected, this, [this, copy] {
        if (!copy.isEmpty() && QDir(copy).removeRecursively())
            showMessage(tr("Removed the unused checkpoint copy %1").arg(copy));
    });
    wizard->open();
    return wizard;
}

SubmitWizard* MainWindow::createSubmitWizard()
{
    auto* wizard = new SubmitWizard(m_connection ? m_connection->client() : nullptr, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    wizard->setKnownJobs(m_model->jobs());
    connect(wizard, &SubmitWizard::jobSubmitted, this, [this](const Job& job) {
        // The list learns of the job at its next poll: select it then, and show its replicas.
        const QString id = job.jobId;
        auto pending = std::make_shared<QMetaObject::Connection>();
        auto select = [this, id, pending] {
            if (!selectJob(id))
                return;
            QObject::disconnect(*pending);
            if (m_jobView)
                m_jobView->showTab(JobView::TopologyTab);
        };
        *pending = connect(this, &MainWindow::jobsRefreshed, this, select);
        refresh();
    });
    return wizard;
}

void MainWindow::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void MainWindow::onConnectionStateChanged()
{
    const auto state = m_connection ? m_connection->state() : ExecutorConnection::State::Disconnected;
    const QString url = m_connection ? m_connection->endpoint().url.toString() : QString();
    m_urlLabel->setText(url.isEmpty() ? tr("Executor: –") : tr("Executor: %1").arg(url));
    switch (state) {
    case ExecutorConnection::State::Connected:
        m_connectionLabel->setText(QStringLiteral("<span style=\"color:#26a269\">● </span>") + tr("Connected"));
        if (!m_poll.isActive())
            m_poll.start();
        refresh();
        break;
    case ExecutorConnection::State::Locating:
        m_connectionLabel->setText(QStringLiteral("<span style=\"color:#c67f00\">● </span>") + tr("Connecting…"));
        break;
    case ExecutorConnection::State::Disconnected:
        m_connectionLabel->setText(QStringLiteral("<span style=\"color:#c01c28\">● </span>") + tr("Disconnected"));
        m_poll.stop();
        m_fetching = false;
        break;
    }
}

void MainWindow::refresh()
{
    if (!m_connection || !m_connection->client() || m_connection->state() != ExecutorConnection::State::Connected)
        return;
    if (!m_fetching) {
        m_fetching = true;
        fetchPage(QString(), {}, ++m_fetchSerial);
    }
    m_connection->client()->host(this, [this](const HostStatus& host, const ApiError& error) {
        if (error.isNull())
            showHost(host);
    });
}

void MainWindow::fetchPage(const QString& pageToken, QList<Job> accumulated, int serial)
{
    ApiClient* client = m_connection ? m_connection->client() : nullptr;
    if (!client) {
        m_fetching = false;
        return;
    }
    client->listJobs(QString(), PageSize, pageToken, this,
        [this, accumulated = std::move(accumulated), serial](const JobPage& page, const ApiError& error) mutable {
            if (serial != m_fetchSerial)
                return;
            if (!error.isNull()) {
                m_fetching = false;
                if (m_connection)
                    m_connection->reportError(error);
                return;
            }
            accumulated.append(page.jobs);
            if (!page.nextPageToken.isEmpty()) {
                fetchPage(page.nextPageToken, std::move(accumulated), serial);
                return;
            }
            m_fetching = false;
            const QString selected = selectedJobId();
            m_model->setJobs(accumulated);
            if (m_firstLoad && !accumulated.isEmpty()) {
                m_firstLoad = false;
                m_table->resizeColumnToContents(JobListModel::JobIdColumn);
            }
            if (!selected.isEmpty() && selectedJobId() != selected)
                selectJob(selected);
            emit jobsRefreshed();
        });
}

void MainWindow::showHost(const HostStatus& host)
{
    const QLocale locale;
    const double memoryGb = double(host.memoryBytes) / 1e9;
    // A part in use beyond what the host has is coloured, and the tooltip says what that means: the executor
    // starts a job alone on the host whatever it asks for, so "12 / 2 vCPUs" is possible and worth a warning.
    auto part = [](const QString& text, bool over) {
        return over ? QStringLiteral("<span style=\"color:#c64600\"><b>%1</b></span>").arg(text.toHtmlEscaped())
                    : text.toHtmlEscaped();
    };
    const bool cpuOver = host.vcpusInUse > host.cpus;
    const bool memoryOver = host.memoryGbInUse > memoryGb;
    m_hostLabel->setText(tr("Host: %1, %2, %3 · %4 running, %5 queued")
                             .arg(part(tr("%1 / %2 vCPUs").arg(host.vcpusInUse).arg(host.cpus), cpuOver),
                                 part(tr("%1 / %2 GB")
                                          .arg(locale.toString(host.memoryGbInUse, 'f', 1),
                                              locale.toString(memoryGb, 'f', 1)),
                                     memoryOver),
                                 part(tr("%1 / %2 GPUs").arg(host.gpusInUse.size()).arg(host.gpus.size()), false))
                             .arg(host.runningJobs)
                             .arg(host.queuedJobs));
    m_hostLabel->setProperty("oversubscribed", cpuOver || memoryOver);
    m_hostLabel->setToolTip(cpuOver || memoryOver
            ? tr("Running jobs reserve more than this host has: their replicas share the host's CPUs and memory, "
                 "run slower than their machine types promise, and may be killed if memory runs out.")
            : tr("What running jobs reserve of this host (machine types' vCPUs and memory, GPUs)."));
}

void MainWindow::showMessage(const QString& text, int timeoutMs)
{
    statusBar()->showMessage(text, timeoutMs);
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
    if (m_jobView && m_jobView->jobId() == job->jobId)
        return;
    if (m_jobView) {
        m_detail->removeWidget(m_jobView);
        m_jobView->deleteLater();
    }
    m_jobView = new JobView(m_connection, *job, m_detail);
    m_jobView->setSubmitSimilarVisible(submitSimilarWanted());
    connect(m_jobView, &JobView::message, this, [this](const QString& text) { showMessage(text); });
    connect(m_jobView, &JobView::submitSimilarRequested, this, &MainWindow::submitSimilarRequested);
    connect(m_jobView, &JobView::submitFromCheckpointRequested, this, &MainWindow::openSubmitWizardFromCheckpoint);
    connect(m_jobView, &JobView::jobChanged, m_model, &JobListModel::updateJob);
    m_detail->addWidget(m_jobView);
    m_detail->setCurrentWidget(m_jobView);
}

bool MainWindow::submitSimilarWanted()
{
    // Offered only once something (the submit wizard) handles it: no action that does nothing.
    return isSignalConnected(QMetaMethod::fromSignal(&MainWindow::submitSimilarRequested));
}

void MainWindow::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    if (!index.isValid())
        return;
    const Job* job = currentJob();
    if (!job)
        return;
    QMenu menu(this);
    menu.addAction(tr("Describe"), this, &MainWindow::describeSelected);
    QAction* cancel = menu.addAction(tr("Cancel job"), this, &MainWindow::cancelSelected);
    cancel->setEnabled(!JobState::isFinal(job->state) && job->state != JobState::Cancelling);
    if (submitSimilarWanted()) {
        const Job copy = *job;
        menu.addAction(tr("Submit similar…"), this, [this, copy] { emit submitSimilarRequested(copy); });
    }
    menu.addSeparator();
    menu.addAction(tr("Copy job ID"), this, &MainWindow::copySelectedId);
    QAction* openDir = menu.addAction(tr("Open job directory"), this, &MainWindow::openSelectedDir);
    openDir->setEnabled(!job->trainingInput.jobDir.isEmpty());
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void MainWindow::describeSelected()
{
    onSelectionChanged();
    if (m_jobView) {
        m_jobView->showTab(JobView::OverviewTab);
        m_jobView->setFocus();
    }
}

void MainWindow::cancelSelected()
{
    onSelectionChanged();
    if (m_jobView)
        m_jobView->cancelJob();
}

void MainWindow::copySelectedId()
{
    const QString id = selectedJobId();
    if (id.isEmpty())
        return;
    QApplication::clipboard()->setText(id);
    showMessage(tr("Copied %1").arg(id), 3000);
}

void MainWindow::openSelectedDir()
{
    onSelectionChanged();
    if (m_jobView)
        m_jobView->openJobDir();
}

} // namespace Trainyard
