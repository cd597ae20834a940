// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The submit wizard (issue 3): Job (ID, labels, import of a gcloud --config file), Training application
// (package, module, arguments, runtime), Compute (scale tier or a CUSTOM cluster, with what it means on
// this host), Output (job dir), Hyperparameter tuning (issue 13: off unless turned on or imported) and Review (the job
// as YAML, the equivalent trainyardctl command line, export). Finish calls `jobs.create`; the executor's field
// violations are shown next to the field they name, on that field's page.
//
// The wizard edits a base Job (empty, imported, or "submit similar"): a page writes a field only when the
// user changed its widget, so fields the wizard has no widget for (scheduling, container settings …) and the exact form
// of imported values (absent vs 0 counts, an empty scale tier) survive a round trip unchanged.
//
// Catalogs come from the executor (/scaleTiers, /acceleratorTypes, /runtimeVersions, /host) when a client
// is given; machine types and tier expansions from MachineCatalog::builtin(), the catalog the executor uses.

#include "apiclient.h"
#include "job.h"
#include "machinecatalog.h"
#include "regioninfo.h"

#include <QPointer>
#include <QWizard>

#include <optional>

namespace Trainyard {

class WizardJobPage;
class WizardAppPage;
class WizardComputePage;
class WizardOutputPage;
class WizardTuningPage;
class WizardReviewPage;
class WizardBatchPage;

/// What the wizard knows about the executor's host; empty until /host and /acceleratorTypes answer.
struct WizardHostInfo {
    std::optional<HostStatus> host;
    QList<AcceleratorAvailability> accelerators;
    QList<RuntimeVersionInfo> runtimes;
    QList<ScaleTierInfo> scaleTiers; ///< the executor's /scaleTiers (available, unavailableReason); empty = builtin
    QList<ContainerImageInfo> images; ///< the executor host's local images (custom containers), newest first
    QString imagesError; ///< why they could not be listed (no podman on the executor's host …); empty when listed
    QList<RegionInfo> regions; ///< where jobs run: `local`, then the executor's Slurm clusters (GET …/regions)
    bool regionsKnown = false; ///< the regions answered (an executor without clusters lists `local` only)
    /// The Slurm cluster named `region`, or nullptr (this host, or not known yet).
    const RegionInfo* cluster(const QString& region) const;
    HostInventory inventory() const;
};

class SubmitWizard : public QWizard {
    Q_OBJECT
public:
    /// The pages. A training job goes Job → App → Compute → Output → Tuning → Review; a batch prediction job (the Job
    /// page's third choice) Job → Batch → Review.
    enum PageId { JobPageId, AppPageId, ComputePageId, OutputPageId, TuningPageId, ReviewPageId, BatchPageId };

    /// `client` may be nullptr (no executor): then job ID uniqueness is not checked, the host is unknown
    /// and Finish reports that no executor is connected.
    explicit SubmitWizard(ApiClient* client, QWidget* parent = nullptr);
    ~SubmitWizard() override;

    /// Fills every page from `job` (import, submit similar); the job is the new base.
    void loadJob(const Job& job);
    /// Loads a gcloud --config file (YAML or JSON) into every page; false and *error when it does not load.
    bool importConfig(const QString& path, QString* error);
    /// The job as the pages say now (base job + the user's changes).
    Job job() const;

    /// The `trainyardctl jobs submit training …` line for `job`, each argument quoted for a POSIX shell.
    static QString commandLine(const Job& job, const QString& configPath = {});
    /// Quotes one shell word (single quotes when needed).
    static QString shellQuote(const QString& word);
    /// Splits `line` into words as a POSIX shell does (XCU 2.2 quoting, no expansions): single quotes
    /// keep everything literally, double quotes keep all but `\"`, `\\`, `\$` and `` \` ``, a backslash
    /// outside quotes escapes the next character, unquoted blanks separate words. An unterminated quote
    /// returns std::nullopt (QProcess::splitCommand knows only double quotes, so it is not used).
    static std::optional<QStringList> splitShellWords(const QString& line);
    /// The page a field path of the Job JSON belongs to ("trainingInput.workerType" → ComputePageId).
    static PageId pageForField(const QString& field);

    ApiClient* client() const { return m_client; }
    const MachineCatalog& catalog() const { return MachineCatalog::builtin(); }
    const WizardHostInfo& hostInfo() const { return m_hostInfo; }
    /// Lists the executor host's local images again (GET …/images); emits imagesChanged() with them.
    void refreshImages();

    WizardJobPage* jobPage() const { return m_jobPage; }
    WizardAppPage* appPage() const { return m_appPage; }
    WizardComputePage* computePage() const { return m_computePage; }
    WizardOutputPage* outputPage() const { return m_outputPage; }
    WizardTuningPage* tuningPage() const { return m_tuningPage; }
    WizardReviewPage* reviewPage() const { return m_reviewPage; }
    WizardBatchPage* batchPage() const { return m_batchPage; }
    /// The Job page chose a batch prediction job.
    bool isBatchPrediction() const;
    /// "Submit Training Job — Step 2 of 6" (or a batch prediction job's, of 3) for the page shown.
    void updateTitle();

    /// The executor's jobs as the caller last listed them (the console's job list): the Output page names
    /// the job that wrote the checkpoints in a chosen folder from them, the tuning page offers the tuning jobs
    /// among them to resume. With a client the wizard also lists the executor's jobs itself and merges them
    /// in (by job ID), so that a wizard opened without the console's list still knows them.
    void setKnownJobs(const QList<Job>& jobs);
    const QList<Job>& knownJobs() const { return m_knownJobs; }

    /// The job the executor created (valid after jobSubmitted).
    const Job& submittedJob() const { return m_submitted; }

    /// Whether the user changed anything since the wizard opened (or since loadJob() / markUnmodified()).
    bool isModified() const;
    /// Takes what the pages hold now as the unmodified state (after the caller filled them in itself).
    void markUnmodified();
    /// Fills the pages from the kept draft: closing asks even unchanged (the user may want to discard it),
    /// and submitting or discarding removes the draft. False when there is none.
    bool restoreDraft();
    /// True after the user closed with "Keep Draft" (what the wizard held is in draftPath()).
    bool draftKept() const { return m_draftKept; }
    /// The window title before " — Step N of 5" ("Submit Training Job" unless set).
    void setTitleBase(const QString& title);
    /// Where a draft is kept: $XDG_DATA_HOME/trainyard/wizard-draft.json (the Job JSON of the API).
    static QString draftPath();
    /// The kept draft, if any (std::nullopt when there is none or it does not parse).
    static std::optional<Job> loadDraft();
    /// Writes job() as the draft (atomically); false when it could not be written.
    bool saveDraft() const;
    static void removeDraft();

public Q_SLOTS:
    /// Finish: sends `jobs.create`; closes on success, else goes to the page of the first violation.
    void accept() override;
    /// Cancel, Escape or the window's close button: a wizard the user filled in asks first, with "Keep
    /// Draft" (closes; the next Submit Job… reopens it), "Discard" and "Continue Editing". Unchanged, it
    /// closes at once.
    void reject() override;

protected:
    void keyPressEvent(QKeyEvent* event) override;

Q_SIGNALS:
    void jobSubmitted(const Trainyard::Job& job);
    /// A catalog or host answer arrived (pages refresh what they show).
    void hostInfoChanged();
    /// hostInfo().images (or imagesError) changed. Apart from hostInfoChanged(): the images arrive late (podman
    /// takes a while), and a late hostInfoChanged() would make the other pages re-check and drop the executor's
    /// field errors they show.
    void imagesChanged();
    /// hostInfo().regions arrived or changed (the Compute page's "Runs on" list and, for a cluster, its summary).
    void regionsChanged();
    /// A periodic refresh of the host's capacity in use arrived (only the compute summary follows it).
    void hostStatusChanged();
    /// The executor refused the job; `error` as received.
    void submitFailed(const Trainyard::ApiError& error);
    /// knownJobs() changed (setKnownJobs(), or the executor's job list arrived).
    void knownJobsChanged();

private:
    void fetchCatalogs();
    /// Lists the executor's jobs from `pageToken`, at most `pagesLeft` pages of 100, into knownJobs().
    void listJobs(const QString& pageToken, int pagesLeft);
    /// Asks the executor for the host's capacity in use (GET …/host); emits hostInfoChanged() for the
    /// `first` answer, hostStatusChanged() for the periodic ones.
    void refreshHost(bool first);
    /// Asks the executor for its regions (GET …/regions: its clusters' nodes as they are now); emits
    /// regionsChanged().
    void refreshRegions();
    /// How many pages of 100 jobs listJobs() reads at most: the newest 1,000 jobs are plenty to pick from.
    static constexpr int MaxJobPages = 10;
    /// How often the host's capacity in use is refreshed while the wizard is open (ms).
    static constexpr int HostRefreshMs = 2000;
    void showSubmitError(const ApiError& error);
    void goToPage(int id);

    QPointer<ApiClient> m_client;
    WizardHostInfo m_hostInfo;
    Job m_base;
    Job m_submitted;
    Job m_loaded; ///< job() right after the last loadJob(): what isModified() compares with
    QString m_loadedArgsText; ///< the arguments field's text then (an open quote parses to no arguments)
    bool m_fromDraft = false;
    bool m_draftKept = false;
    QString m_titleBase;
    QList<Job> m_knownJobs;
    bool m_confirmingClose = false;
    bool m_submitting = false;
    WizardJobPage* m_jobPage = nullptr;
    WizardAppPage* m_appPage = nullptr;
    WizardComputePage* m_computePage = nullptr;
    WizardOutputPage* m_outputPage = nullptr;
    WizardTuningPage* m_tuningPage = nullptr;
    WizardReviewPage* m_reviewPage = nullptr;
    WizardBatchPage* m_batchPage = nullptr;
};

} // namespace Trainyard
