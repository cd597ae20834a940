// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardoutputpage.h"
#include "wizardjobpage.h"

#include "pathpolicy.h"
#include "stateicons.h"
#include "submitwizard.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QtConcurrent>

#include <algorithm>

namespace Trainyard {

WizardOutputPage::WizardOutputPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_jobDir(new QLineEdit(this))
    , m_browse(new QPushButton(tr("Br&owse…"), this)) // Alt+B is the wizard's "< Back"
    , m_problems(problemLabel(QStringLiteral("jobDirProblems"), this))
    , m_warning(new QLabel(this))
    , m_fresh(new QPushButton(tr("Use a ne&w folder"), this))
{
    setTitle(tr("Output"));
    setSubTitle(tr("The job dir receives checkpoints and summaries; the trainer gets it as --job-dir. Most "
                   "trainers, the sample among them, need one."));
    m_jobDir->setObjectName(QStringLiteral("jobDirEdit"));
    m_jobDir->setPlaceholderText(tr("A folder for the job's output"));
    m_jobDir->setWhatsThis(tr("The service's jobDir: a full path the trainer receives as --job-dir and writes "
                              "checkpoints, event files and exported models into. A folder that already holds "
                              "checkpoints makes most trainers resume from them."));
    m_warning->setObjectName(QStringLiteral("checkpointWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #c64600;"));
    m_warning->setVisible(false);
    m_fresh->setObjectName(QStringLiteral("freshJobDirButton"));
    m_fresh->setToolTip(tr("A new, empty folder named after this job, under your data folder"));
    m_fresh->setVisible(false);

    auto* form = new QFormLayout(this);
    auto* row = new QHBoxLayout;
    row->addWidget(m_jobDir, 1);
    row->addWidget(m_browse);
    auto* label = new QLabel(tr("&Job dir:"), this);
    label->setBuddy(m_jobDir);
    form->addRow(label, row);
    form->addRow(QString(), m_problems);
    auto* warningRow = new QHBoxLayout;
    warningRow->addWidget(m_warning, 1);
    warningRow->addWidget(m_fresh, 0, Qt::AlignTop);
    form->addRow(QString(), warningRow);
    setTabOrder(m_jobDir, m_browse);
    setTabOrder(m_browse, m_fresh);

    connect(m_jobDir, &QLineEdit::textChanged, this, &WizardOutputPage::onChanged);
    // Typing or browsing makes the folder the user's choice: it is no longer renamed with the job ID.
    connect(m_jobDir, &QLineEdit::textEdited, this, [this] { m_proposed = false; });
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Job dir"), m_jobDir->text());
        if (!dir.isEmpty()) {
            m_proposed = false;
            m_jobDir->setText(QDir::toNativeSeparators(dir));
        }
    });
    connect(m_fresh, &QPushButton::clicked, this, &WizardOutputPage::proposeFreshJobDir);
    // The executor's job dir roots come with its first `…/host` answer.
    connect(wizard, &SubmitWizard::hostInfoChanged, this, &WizardOutputPage::onChanged);
    connect(&m_checkpointScan, &QFutureWatcher<CheckpointScan>::finished, this,
        &WizardOutputPage::onCheckpointScanFinished);
    onChanged();
}

QString WizardOutputPage::defaultJobDir(const QString& jobId)
{
    // Beside the executor's data folder, never in it: no job may write there (PathPolicy).
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/trainyard-jobs/") + (jobId.isEmpty() ? QStringLiteral("job") : jobId);
}

void WizardOutputPage::proposeFreshJobDir()
{
    const bool proposedBefore = m_proposed;
    m_proposed = true;
    // In the folder the current job dir lies in: the user's own parent stays theirs ("Use a new folder" after
    // Browse…, Submit similar of a job in /data/runs), the data folder's stays the default (issue 27).
    const QString id = m_wizard->jobPage()->jobIdEdit()->text().trimmed();
    const QString current = QDir::cleanPath(QDir::fromNativeSeparators(m_jobDir->text().trimmed()));
    const QString parent = QFileInfo(current).absolutePath();
    const QString base = !current.isEmpty() && QDir::isAbsolutePath(current) && parent != QDir::rootPath()
        ? parent + QLatin1Char('/') + (id.isEmpty() ? QStringLiteral("job") : id)
        : defaultJobDir(id);
    QString dir = base;
    // A folder of that name from an earlier job of the same ID (IDs are unique only while the record lives), or
    // the one in use now.
    for (int n = 2;
         n < 1000 && ((QFileInfo::exists(dir) && !QDir(dir).isEmpty()) || (dir == current && !proposedBefore)); ++n)
        dir = base + QLatin1Char('_') + QString::number(n);
    m_jobDir->setText(QDir::toNativeSeparators(dir));
}

void WizardOutputPage::initializePage()
{
    // The proposal follows the job ID until the user picks a folder of their own.
    if (m_proposed || m_jobDir->text().trimmed().isEmpty())
        proposeFreshJobDir();
}

QString WizardOutputPage::jobDirProblem(const QString& dir)
{
    if (dir.isEmpty())
        return {};
    if (dir.contains(QLatin1String("://")))
        return tr("%1 is a URL; a job dir here is a local folder.").arg(dir);
    QFileInfo info(QDir::cleanPath(QDir::fromNativeSeparators(dir)));
    if (info.exists()) {
        if (!info.isDir())
            return tr("%1 is a file, not a folder.").arg(dir);
        if (!info.isWritable())
            return tr("%1 is not writable.").arg(dir);
        return {};
    }
    // Missing: the executor creates it, so the nearest existing parent must be a writable folder.
    QString parent = info.absolutePath();
    while (!QFileInfo::exists(parent) && parent != QDir::rootPath())
        parent = QFileInfo(parent).absolutePath();
    const QFileInfo p(parent);
    if (!p.isDir())
        return tr("%1 cannot be created: %2 is not a folder.").arg(dir, parent);
    if (!p.isWritable())
        return tr("%1 cannot be created: %2 is not writable.").arg(dir, parent);
    return {};
}

QString WizardOutputPage::problem() const
{
    const QString dir = m_jobDir->text().trimmed();
    QString why = jobDirProblem(dir);
    const std::optional<HostStatus>& host = m_wizard->hostInfo().host;
    // The roots and symbolic links are the executor's host's: checked here only when that is this machine.
    ApiClient* client = m_wizard->client();
    const bool local = client && QHostAddress(client->baseUrl().host()).isLoopback();
    if (why.isEmpty() && !dir.isEmpty() && local && host && !host->jobDirRoots.isEmpty()) {
        const FieldViolations violations = PathPolicy(host->jobDirRoots).violations(dir);
        if (!violations.isEmpty())
            why = violations.first().description;
    }
    return why;
}

void WizardOutputPage::onChanged()
{
    m_serverError.clear();
    setProblem(m_problems, problem());
    const QString dir = m_problems->text().isEmpty() ? m_jobDir->text().trimmed() : QString();
    if (dir != m_checkpointsShownFor) {
        // The warning spoke of another folder: gone until the scan of this one says otherwise.
        m_checkpointsShownFor.clear();
        showCheckpoints({});
    }
    scanCheckpoints(dir);
    updateComplete();
}

void WizardOutputPage::scanCheckpoints(const QString& dir)
{
    m_checkpointsWanted = dir;
    if (m_checkpointScan.isRunning())
        return; // the scan's end starts the next one
    if (dir.isEmpty() || !QFileInfo(QDir::fromNativeSeparators(dir)).isDir()) {
        m_checkpointsShownFor = dir;
        showCheckpoints({});
        return;
    }
    // The executor's rule (CheckpointIndex: a bundle, a SavedModel, a torch.save archive, safetensors), on the
    // thread pool: a job dir can hold a data set, and the walk reads archives' headers.
    m_checkpointScan.setFuture(QtConcurrent::run([dir] {
        CheckpointScan scan;
        scan.dir = dir;
        scan.checkpoints = CheckpointIndex().scan(QDir::fromNativeSeparators(dir), false, &scan.truncated);
        return scan;
    }));
}

void WizardOutputPage::onCheckpointScanFinished()
{
    const CheckpointScan scan = m_checkpointScan.result();
    if (scan.dir != m_checkpointsWanted) {
        scanCheckpoints(m_checkpointsWanted); // typed on while it ran
        return;
    }
    m_checkpointsShownFor = scan.dir;
    showCheckpoints(scan);
}

bool WizardOutputPage::checkpointScanPending() const
{
    return m_checkpointScan.isRunning() || m_checkpointsShownFor != m_checkpointsWanted;
}

void WizardOutputPage::showCheckpoints(const CheckpointScan& scan)
{
    if (scan.checkpoints.isEmpty()) {
        m_warning->clear();
        m_warning->setVisible(false);
        m_fresh->setVisible(false);
        return;
    }
    // Which job wrote them, when this executor knows (the newest job with this job dir).
    QString writer;
    QString writerCreated; // RFC 3339: sorts as text
    const QString clean = QDir::cleanPath(QDir::fromNativeSeparators(scan.dir));
    for (const Job& job : m_wizard->knownJobs()) {
        if (!job.trainingInput.jobDir.isEmpty()
            && QDir::cleanPath(QDir::fromNativeSeparators(job.trainingInput.jobDir)) == clean
            && (writer.isEmpty() || job.createTime > writerCreated)) {
            writer = tr("job %1 (%2)").arg(job.jobId, stateDisplayName(job.state));
            writerCreated = job.createTime;
        }
    }
    const int n = int(scan.checkpoints.size());
    const QString count
        = scan.truncated ? tr("at least %n checkpoint(s)", nullptr, n) : tr("%n checkpoint(s)", nullptr, n);
    // The newest first (CheckpointIndex's order): the one a trainer would resume from.
    QStringList names;
    for (qsizetype i = 0; i < std::min<qsizetype>(3, n); ++i)
        names << scan.checkpoints.at(i).name;
    const QString listed = names.join(QStringLiteral(", ")) + (n > 3 ? QStringLiteral(", …") : QString());
    m_warning->setText(writer.isEmpty()
            ? tr("This folder already holds %1 (%2); the trainer will resume from them instead of starting over.")
                  .arg(count, listed)
            : tr("This folder already holds %1 (%2) written by %3; the trainer will resume from them instead of "
                 "starting over.")
                  .arg(count, listed, writer));
    m_warning->setVisible(true);
    m_fresh->setVisible(true);
}

void WizardOutputPage::load(const Job& job)
{
    m_jobDir->setText(job.trainingInput.jobDir);
    m_loadedDir = m_jobDir->text();
    m_proposed = false;
}

void WizardOutputPage::apply(Job& job) const
{
    if (m_jobDir->text() != m_loadedDir)
        job.trainingInput.jobDir = m_jobDir->text().trimmed();
}

bool WizardOutputPage::isComplete() const
{
    return problem().isEmpty();
}

QWidget* WizardOutputPage::showFieldError(const QString&, const QString& message)
{
    m_serverError = message;
    setProblem(m_problems, message);
    return m_jobDir;
}

void WizardOutputPage::clearFieldErrors()
{
    onChanged();
}

} // namespace Trainyard
