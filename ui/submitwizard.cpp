// SPDX-License-Identifier: GPL-2.0-or-later
#include "submitwizard.h"

#include "gcloudflags.h"

#include "configloader.h"
#include "uilogging.h"
#include "wizardpages.h"

#include "wheelguard.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScreen>
#include <QShortcut>
#include <QStandardPaths>
#include <QTimer>
#include <QWhatsThis>

#include <algorithm>

namespace Trainyard {

HostInventory WizardHostInfo::inventory() const
{
    HostInventory inv;
    if (host) {
        inv.cpus = host->cpus;
        inv.memoryBytes = host->memory.bytes();
        inv.gpus = host->gpus;
    }
    return inv;
}

SubmitWizard::SubmitWizard(ApiClient* client, QWidget* parent)
    : QWizard(parent)
    , m_client(client)
{
    installWheelGuard(); // its fields take the wheel only when focused
    setWindowTitle(tr("Submit Training Job"));
    setObjectName(QStringLiteral("submitWizard"));
    setOption(QWizard::NoBackButtonOnStartPage, true);
    setOption(QWizard::HaveHelpButton, false);
    // A new job is BASIC unless the user picks otherwise; written explicitly so the YAML says so.
    m_base.trainingInput.scaleTier = QStringLiteral("BASIC");
    m_base.trainingInput.region = QStringLiteral("us-central1");

    m_jobPage = new WizardJobPage(this);
    m_appPage = new WizardAppPage(this);
    m_computePage = new WizardComputePage(this);
    m_outputPage = new WizardOutputPage(this);
    m_tuningPage = new WizardTuningPage(this);
    m_reviewPage = new WizardReviewPage(this);
    m_batchPage = new WizardBatchPage(this);
    setPage(JobPageId, m_jobPage);
    setPage(AppPageId, m_appPage);
    setPage(ComputePageId, m_computePage);
    setPage(OutputPageId, m_outputPage);
    setPage(TuningPageId, m_tuningPage);
    setPage(ReviewPageId, m_reviewPage);
    setPage(BatchPageId, m_batchPage);
    setButtonText(QWizard::FinishButton, tr("&Submit"));
    // 900 × 720, or less on a small screen: on 1024 × 700 the buttons were below the screen's edge.
    const QScreen* on = parent ? parent->screen() : screen();
    const QRect available = on ? on->availableGeometry() : QRect(0, 0, 900, 720);
    resize(std::min(900, available.width() * 19 / 20), std::min(720, available.height() * 9 / 10));
    // Shift+F1 (and the title bar's "?" where the window manager draws one): What's This? on a field quotes
    // the service's rule it checks.
    setWindowFlag(Qt::WindowContextHelpButtonHint, true);
    auto* whatsThis = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F1), this);
    connect(whatsThis, &QShortcut::activated, this, [] { QWhatsThis::enterWhatsThisMode(); });
    // "Step N of 6" in the title: where the user is and how much is left.
    m_titleBase = tr("Submit Training Job");
    connect(this, &QWizard::currentIdChanged, this, &SubmitWizard::updateTitle);
    updateTitle();

    loadJob(m_base);
    fetchCatalogs();
    // The compute page's "fits / will queue" verdict follows the host as jobs start and end.
    auto* hostTimer = new QTimer(this);
    hostTimer->setInterval(HostRefreshMs);
    connect(hostTimer, &QTimer::timeout, this, [this] { refreshHost(false); });
    // A cluster's nodes change more slowly, and each read asks its slurmrestd: every 5th host refresh.
    auto* regionTimer = new QTimer(this);
    regionTimer->setInterval(5 * HostRefreshMs);
    connect(regionTimer, &QTimer::timeout, this, [this] {
        if (!m_hostInfo.regionsKnown || m_hostInfo.regions.size() > 1) // an executor without clusters: once
            refreshRegions();
    });
    regionTimer->start();
    hostTimer->start();
}

SubmitWizard::~SubmitWizard() = default;

void SubmitWizard::refreshHost(bool first)
{
    if (!m_client)
        return;
    m_client->host(this, [this, first](const HostStatus& host, const ApiError& error) {
        if (!error.isNull()) {
            qCWarning(lcUi) << "wizard: /host:" << error.summary();
            return;
        }
        m_hostInfo.host = host;
        if (first)
            emit hostInfoChanged();
        else
            emit hostStatusChanged();
    });
}

const RegionInfo* WizardHostInfo::cluster(const QString& region) const
{
    for (const RegionInfo& r : regions) {
        if (r.name == region && r.isCluster())
            return &r;
    }
    return nullptr;
}

void SubmitWizard::refreshRegions()
{
    if (!m_client)
        return;
    m_client->regions(QString(), this, [this](const QList<RegionInfo>& regions, const ApiError& error) {
        if (!error.isNull()) {
            qCWarning(lcUi) << "wizard: /regions:" << error.summary();
            return;
        }
        m_hostInfo.regions = regions;
        m_hostInfo.regionsKnown = true;
        emit regionsChanged();
    });
}

void SubmitWizard::fetchCatalogs()
{
    ApiClient* client = m_client;
    if (!client)
        return;
    refreshHost(true);
    listJobs(QString(), MaxJobPages);
    client->acceleratorTypes(
        this, [this](const QList<AcceleratorAvailability>& types, const QList<GpuInfo>&, const ApiError& error) {
            if (!error.isNull())
                return;
            m_hostInfo.accelerators = types;
            emit hostInfoChanged();
        });
    client->runtimeVersions(this, [this](const QList<RuntimeVersionInfo>& runtimes, const ApiError& error) {
        if (!error.isNull())
            return;
        m_hostInfo.runtimes = runtimes;
        emit hostInfoChanged();
    });
    client->scaleTiers(this, [this](const QList<ScaleTierInfo>& tiers, const ApiError& error) {
        if (!error.isNull())
            return;
        m_hostInfo.scaleTiers = tiers;
        emit hostInfoChanged();
    });
    refreshImages();
    refreshRegions();
}

void SubmitWizard::refreshImages()
{
    if (!m_client)
        return;
    m_client->images(this, [this](const QList<ContainerImageInfo>& images, const ApiError& error) {
        m_hostInfo.images = images;
        m_hostInfo.imagesError = error.isNull() ? QString() : error.message;
        emit imagesChanged();
    });
}

void SubmitWizard::setKnownJobs(const QList<Job>& jobs)
{
    m_knownJobs = jobs;
    emit knownJobsChanged();
}

void SubmitWizard::listJobs(const QString& pageToken, int pagesLeft)
{
    if (!m_client || pagesLeft <= 0)
        return;
    m_client->listJobs(QString(), 100, pageToken, this, [this, pagesLeft](const JobPage& page, const ApiError& error) {
        if (!error.isNull()) {
            qCWarning(lcUi) << "wizard: jobs.list:" << error.summary();
            return;
        }
        for (const Job& listed : page.jobs) {
            const auto known = std::find_if(m_knownJobs.begin(), m_knownJobs.end(),
                [&listed](const Job& job) { return job.jobId == listed.jobId; });
            if (known == m_knownJobs.end())
                m_knownJobs.append(listed);
            else
                *known = listed;
        }
        emit knownJobsChanged();
        if (!page.nextPageToken.isEmpty())
            listJobs(page.nextPageToken, pagesLeft - 1);
    });
}

void SubmitWizard::loadJob(const Job& job)
{
    // Only the input fields: a "submit similar" job carries output fields the new job must not inherit.
    Job base;
    base.jobId = job.jobId;
    base.labels = job.labels;
    base.trainingInput = job.trainingInput;
    base.predictionInput = job.predictionInput;
    m_base = base;
    const QList<WizardPage*> pages { m_jobPage, m_appPage, m_computePage, m_outputPage, m_tuningPage, m_batchPage };
    for (WizardPage* page : pages)
        page->load(m_base);
    if (currentId() == ReviewPageId)
        m_reviewPage->initializePage();
    markUnmodified();
}

bool SubmitWizard::isBatchPrediction() const
{
    return m_jobPage && m_jobPage->batchPrediction()->isChecked();
}

void SubmitWizard::updateTitle()
{
    const bool batch = isBatchPrediction();
    const QList<int> ids = batch
        ? QList<int> { JobPageId, BatchPageId, ReviewPageId }
        : QList<int> { JobPageId, AppPageId, ComputePageId, OutputPageId, TuningPageId, ReviewPageId };
    const int step = int(ids.indexOf(currentId() < 0 ? startId() : currentId())) + 1;
    const QString title = batch ? tr("Submit Batch Prediction Job") : m_titleBase;
    //: %1 is the wizard's title ("Submit Training Job", "Submit from checkpoint …").
    setWindowTitle(step > 0 ? tr("%1 — Step %2 of %3").arg(title).arg(step).arg(ids.size()) : title);
}

void SubmitWizard::setTitleBase(const QString& title)
{
    m_titleBase = title;
    updateTitle();
}

void SubmitWizard::markUnmodified()
{
    m_loaded = job();
    m_loadedArgsText = m_appPage->argsEdit()->toPlainText();
}

bool SubmitWizard::isModified() const
{
    // The arguments' text too: with an open quote it parses to no arguments, which job() cannot show.
    return !(job() == m_loaded) || m_appPage->argsEdit()->toPlainText() != m_loadedArgsText;
}

bool SubmitWizard::restoreDraft()
{
    const std::optional<Job> draft = loadDraft();
    if (!draft)
        return false;
    loadJob(*draft);
    m_fromDraft = true;
    return true;
}

QString SubmitWizard::draftPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/trainyard/wizard-draft.json");
}

std::optional<Job> SubmitWizard::loadDraft()
{
    QFile file(draftPath());
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    if (!doc.isObject())
        return std::nullopt;
    FieldViolations violations;
    return JobJson::fromJson(doc.object(), &violations);
}

bool SubmitWizard::saveDraft() const
{
    QDir().mkpath(QFileInfo(draftPath()).absolutePath());
    QSaveFile file(draftPath());
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(JobJson::toJson(job())).toJson());
    return file.commit();
}

void SubmitWizard::removeDraft()
{
    QFile::remove(draftPath());
}

void SubmitWizard::reject()
{
    if (m_confirmingClose)
        return;
    if (!isModified() && !m_fromDraft) {
        QWizard::reject();
        return;
    }
    m_confirmingClose = true;
    QMessageBox box(QMessageBox::Question, tr("Close the Submit Job Wizard?"),
        tr("The job you filled in has not been submitted."), QMessageBox::NoButton, this);
    box.setInformativeText(tr("Keep it as a draft to continue with the next Submit Job…, or discard it."));
    QPushButton* keep = box.addButton(tr("&Keep Draft"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    QPushButton* edit = box.addButton(tr("Continue &Editing"), QMessageBox::RejectRole);
    box.setDefaultButton(keep);
    box.setEscapeButton(edit);
    box.setObjectName(QStringLiteral("closeWizardBox"));
    box.exec();
    m_confirmingClose = false;
    if (box.clickedButton() == keep) {
        m_draftKept = saveDraft();
        QWizard::reject();
    } else if (box.clickedButton() == discard) {
        if (m_fromDraft) // a draft kept earlier is gone only when this wizard was that draft
            removeDraft();
        QWizard::reject();
    }
}

void SubmitWizard::keyPressEvent(QKeyEvent* event)
{
    // Return while a popup (a machine-type list) is open, or in a combo box, selects there; it must never
    // reach the wizard's default button (Next / Submit) as QDialog would send it.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        QWidget* focus = focusWidget();
        QComboBox* combo = qobject_cast<QComboBox*>(focus);
        if (!combo && focus)
            combo = qobject_cast<QComboBox*>(focus->parentWidget());
        if (QApplication::activePopupWidget() || (combo && combo->view()->isVisible())) {
            if (combo && combo->view()->isVisible()) {
                const QModelIndex current = combo->view()->currentIndex();
                if (current.isValid() && (current.flags() & Qt::ItemIsEnabled))
                    combo->setCurrentIndex(current.row());
                combo->hidePopup();
            }
            event->accept();
            return;
        }
    }
    QWizard::keyPressEvent(event);
}

bool SubmitWizard::importConfig(const QString& path, QString* error)
{
    const std::optional<Job> job = ConfigLoader::loadFile(path, error);
    if (!job)
        return false;
    Job imported = *job;
    if (imported.jobId.isEmpty())
        imported.jobId = m_jobPage->jobIdEdit()->text();
    loadJob(imported);
    // Say what came from the file (the wizard opened on step 1 with no sign of it, issue 27), and propose the
    // package: a gcloud config rarely names it (--package-path is a flag), and the file usually sits in the
    // trainer's folder or one below it.
    const TrainingInput& in = imported.trainingInput;
    QStringList what;
    if (!in.scaleTier.isEmpty())
        what << tr("scale tier %1").arg(in.scaleTier);
    if (!in.masterType.isEmpty())
        what << tr("master %1").arg(in.masterType);
    if (in.workerCount.value_or(0) > 0)
        what << tr("%n worker(s)", nullptr, int(*in.workerCount));
    if (!in.pythonModule.isEmpty())
        what << tr("module %1").arg(in.pythonModule);
    if (!in.args.isEmpty())
        what << tr("%n argument(s)", nullptr, int(in.args.size()));
    if (in.hyperparameters)
        what << tr("tuning: %1 trials of %n hyperparameter(s)", nullptr, int(in.hyperparameters->params.size()))
                    .arg(in.hyperparameters->maxTrials.value_or(1));
    if (!in.region.isEmpty())
        what << tr("region %1").arg(in.region);
    if (!in.runtimeVersion.isEmpty())
        what << tr("runtime %1").arg(in.runtimeVersion);
    if (!in.jobDir.isEmpty())
        what << tr("job dir");
    QString status = what.isEmpty()
        ? tr("Imported %1.").arg(QFileInfo(path).fileName())
        : tr("Imported %1: %2.").arg(QFileInfo(path).fileName(), what.join(QStringLiteral(", ")));
    const bool container = in.masterConfig && !in.masterConfig->imageUri.isEmpty();
    if (in.packageUris.isEmpty() && !container) {
        const QString folder = QFileInfo(path).absolutePath();
        for (const QString& dir : { folder, QFileInfo(folder).absolutePath() }) {
            if (QFileInfo::exists(dir + QStringLiteral("/setup.py"))
                || QFileInfo::exists(dir + QStringLiteral("/pyproject.toml"))) {
                m_appPage->packageEdit()->setText(QDir::toNativeSeparators(dir));
                status += QLatin1Char(' ')
                    + tr("The package is the folder it is in, %1: change it on the next page if not.")
                          .arg(QDir::toNativeSeparators(dir));
                break;
            }
        }
    }
    m_jobPage->importStatus()->setText(status);
    return true;
}

Job SubmitWizard::job() const
{
    Job job = m_base;
    if (!m_batchPage) // still constructing its pages
        return job;
    if (isBatchPrediction()) {
        m_jobPage->apply(job);
        m_batchPage->apply(job);
        return job;
    }
    job.predictionInput.reset();
    m_jobPage->apply(job);
    m_appPage->apply(job);
    m_computePage->apply(job);
    m_outputPage->apply(job);
    m_tuningPage->apply(job);
    return job;
}

SubmitWizard::PageId SubmitWizard::pageForField(const QString& field)
{
    if (field == QLatin1String("jobId") || field.isEmpty())
        return JobPageId;
    if (field.startsWith(QLatin1String("labels")))
        return JobPageId;
    if (field.startsWith(QLatin1String("predictionInput")))
        return BatchPageId;
    if (field == QLatin1String("trainingInput")) // rules about the whole cluster (capacity, GPUs in all)
        return ComputePageId;
    if (!field.startsWith(QLatin1String("trainingInput.")))
        return ReviewPageId;
    const QString f = field.mid(int(qstrlen("trainingInput.")));
    static const QRegularExpression app(QStringLiteral("^(packageUris|pythonModule|args|runtimeVersion|pythonVersion|"
                                                       "masterConfig\\.(imageUri|containerCommand|containerArgs))"
                                                       "(\\b|\\[|\\.|$)"));
    static const QRegularExpression compute(
        QStringLiteral("^(scaleTier|(master|worker|parameterServer|evaluator)(Type|Config|Count))(\\b|\\[|\\.|$)"));
    if (app.match(f).hasMatch())
        return AppPageId;
    if (compute.match(f).hasMatch())
        return ComputePageId;
    if (f == QLatin1String("jobDir"))
        return OutputPageId;
    if (f == QLatin1String("hyperparameters") || f.startsWith(QLatin1String("hyperparameters.")))
        return TuningPageId;
    return ReviewPageId;
}

QString SubmitWizard::shellQuote(const QString& word)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (!word.isEmpty() && safe.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

std::optional<QStringList> SubmitWizard::splitShellWords(const QString& line)
{
    QStringList words;
    QString word;
    bool inWord = false;
    enum { Plain, Single, Double } mode = Plain;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        switch (mode) {
        case Single:
            if (c == QLatin1Char('\''))
                mode = Plain;
            else
                word += c;
            break;
        case Double:
            if (c == QLatin1Char('"')) {
                mode = Plain;
            } else if (c == QLatin1Char('\\') && i + 1 < line.size()
                && QStringLiteral("\"\\$`").contains(line.at(i + 1))) {
                word += line.at(++i);
            } else {
                word += c;
            }
            break;
        case Plain:
            if (c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n')) {
                if (inWord)
                    words << word;
                word.clear();
                inWord = false;
                break;
            }
            inWord = true;
            if (c == QLatin1Char('\'')) {
                mode = Single;
            } else if (c == QLatin1Char('"')) {
                mode = Double;
            } else if (c == QLatin1Char('\\')) {
                // A backslash before a new line continues the line (XCU 2.2.1): neither is kept.
                if (i + 1 < line.size() && line.at(i + 1) == QLatin1Char('\n')) {
                    ++i;
                    inWord = !word.isEmpty();
                } else if (i + 1 < line.size()) {
                    word += line.at(++i);
                }
            } else {
                word += c;
            }
            break;
        }
    }
    if (mode != Plain)
        return std::nullopt;
    if (inWord)
        words << word;
    return words;
}

QString SubmitWizard::commandLine(const Job& job, const QString& configPath)
{
    if (job.predictionInput) {
        // trainyardctl jobs submit prediction's flags (gcloud's), from the table the command parses them with. The
        // project matters only when flags are applied (the full model names); the command's own --project says it.
        QStringList words { QStringLiteral("trainyardctl"), QStringLiteral("jobs"), QStringLiteral("submit"),
            QStringLiteral("prediction"), job.jobId.isEmpty() ? QStringLiteral("JOB") : job.jobId };
        words << GcloudFlags::flagsFor(job, GcloudFlags::predictionFlags(QString()));
        QStringList quoted;
        for (const QString& w : std::as_const(words))
            quoted << shellQuote(w);
        return quoted.join(QLatin1Char(' '));
    }
    const TrainingInput& in = job.trainingInput;
    QStringList words { QStringLiteral("trainyardctl"), QStringLiteral("jobs"), QStringLiteral("submit"),
        QStringLiteral("training"), job.jobId.isEmpty() ? QStringLiteral("JOB") : job.jobId };
    // Fields no flag can say go through a config file (the Review page's export writes it).
    if (GcloudFlags::needsConfigFile(job))
        words << QStringLiteral("--config=")
                + (configPath.isEmpty()
                        ? (job.jobId.isEmpty() ? QStringLiteral("job") : job.jobId) + QStringLiteral(".yaml")
                        : configPath);
    // The flags trainyardctl parses the job's fields with (the same table).
    words << GcloudFlags::flagsFor(job);
    if (!in.args.isEmpty()) {
        words << QStringLiteral("--");
        words << in.args;
    }
    QStringList quoted;
    for (const QString& w : std::as_const(words))
        quoted << shellQuote(w);
    return quoted.join(QLatin1Char(' '));
}

void SubmitWizard::goToPage(int id)
{
    // QWizard has no "jump back": walk back, which keeps every page's state (no fields are registered). By the pages
    // visited, not by their IDs: a batch prediction job's Batch page comes before Review and has the higher ID.
    while (currentId() != id && visitedIds().contains(id)) {
        const int before = currentId();
        back();
        if (currentId() == before)
            break;
    }
}

void SubmitWizard::accept()
{
    if (m_submitting)
        return;
    const QList<WizardPage*> pages { m_jobPage, m_appPage, m_computePage, m_outputPage, m_tuningPage, m_reviewPage,
        m_batchPage };
    for (WizardPage* page : pages)
        page->clearFieldErrors();
    if (!m_client) {
        ApiError error;
        error.status = QStringLiteral("UNAVAILABLE");
        error.message = tr("No executor is connected.");
        showSubmitError(error);
        return;
    }
    m_submitting = true;
    if (QAbstractButton* finish = button(QWizard::FinishButton))
        finish->setEnabled(false);
    const Job job = this->job();
    m_client->createJob(job, this, [this](const Job& created, const ApiError& error) {
        m_submitting = false;
        if (QAbstractButton* finish = button(QWizard::FinishButton))
            finish->setEnabled(true);
        if (!error.isNull()) {
            showSubmitError(error);
            return;
        }
        m_submitted = created;
        if (m_fromDraft)
            removeDraft(); // submitted: the draft is done
        emit jobSubmitted(created);
        QWizard::accept();
    });
}

void SubmitWizard::showSubmitError(const ApiError& error)
{
    emit submitFailed(error);
    FieldViolations violations = error.violations;
    if (violations.isEmpty()) {
        const bool aboutId = error.status == QLatin1String("ALREADY_EXISTS");
        violations.append({ aboutId ? QStringLiteral("jobId") : QString(), error.summary() });
        if (!aboutId)
            violations.last().field = QStringLiteral("-"); // no field: the Review page shows it
    }
    int target = ReviewPageId;
    // Pages in the order they come: the Batch page (a batch prediction job's second) before Review.
    const auto order = [](int id) { return id == BatchPageId ? int(AppPageId) : id; };
    QWidget* focus = nullptr;
    for (const FieldViolation& v : std::as_const(violations)) {
        const PageId id = v.field == QLatin1String("-") ? ReviewPageId : pageForField(v.field);
        auto* page = static_cast<WizardPage*>(this->page(id));
        QWidget* widget = page->showFieldError(v.field == QLatin1String("-") ? QString() : v.field, v.description);
        if (order(id) <= order(target)) {
            target = id;
            focus = widget;
        }
    }
    goToPage(target);
    if (focus)
        focus->setFocus(Qt::OtherFocusReason);
}

} // namespace Trainyard
