// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The pages of the SubmitWizard (submitwizard.h). Each page loads its fields from a Job, writes back only
// the fields whose widgets the user changed since the last load (apply), validates before Next
// (isComplete: what blocks Next, with the reason in a label under the field) and shows an executor
// violation next to its field (showFieldError).

#include "apiclient.h"
#include "job.h"
#include "regioninfo.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWizardPage>

#include <optional>
#include <utility>

class QAbstractButton;
class QButtonGroup;
class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QFormLayout;
class QSpinBox;
class QTableWidget;
class QToolButton;

namespace Trainyard {

class BuiltInAlgorithmForm;
class SubmitWizard;

/// A base for the pages: a wizard pointer and a place for an executor error that names no field.
class WizardPage : public QWizardPage {
    Q_OBJECT
public:
    explicit WizardPage(SubmitWizard* wizard);
    virtual void load(const Job& job) = 0;
    virtual void apply(Job& job) const = 0;
    /// Shows `message` next to the widget for `field`; returns that widget (to focus), or nullptr.
    virtual QWidget* showFieldError(const QString& field, const QString& message) = 0;
    /// Clears what showFieldError showed.
    virtual void clearFieldErrors() { }

protected:
    /// A label for problems under a field: red, word-wrapped, hidden while empty.
    static QLabel* problemLabel(const QString& objectName, QWidget* parent);
    static void setProblem(QLabel* label, const QString& text);
    /// Emits completeChanged() when isComplete() differs from what the wizard was last told. QWizard answers
    /// every completeChanged() by hiding and showing the whole page (QWizardPrivate::disableUpdates() hides its
    /// anti-flicker widget), which closes any open drop-down list: a host or image refresh that changed nothing
    /// closed the Module, Runtime version and Machine type lists within a second (issue 27).
    void updateComplete();
    SubmitWizard* m_wizard;

private:
    std::optional<bool> m_completeShown;
};

/// 1. Job: ID (rules checked as typed; uniqueness against the executor, debounced), "Suggest", labels,
/// and "Import config…".
class WizardJobPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardJobPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;
    /// Puts the keyboard focus in the job ID field (QWizard would give it to the Import button).
    void initializePage() override;

    QLineEdit* jobIdEdit() const { return m_jobId; }
    QLabel* jobIdProblems() const { return m_jobIdProblems; }
    QTableWidget* labelsTable() const { return m_labels; }
    QLabel* labelProblems() const { return m_labelProblems; }
    QPushButton* suggestButton() const { return m_suggest; }
    QPushButton* importButton() const { return m_import; }
    /// What the job trains, as the Cloud Console asked first: the user's training application (a package or a
    /// container image) or one of the service's built-in algorithms. The Training application page follows it.
    QRadioButton* trainApplication() const { return m_trainApp; }
    QRadioButton* trainBuiltIn() const { return m_trainBuiltIn; }
    /// Shows `builtIn` without telling the Training application page (which told this page).
    void showBuiltIn(bool builtIn);
    /// Beside Import config…: what the last import filled in, or why it failed.
    QLabel* importStatus() const { return m_importStatus; }
    /// The labels in the table (rows with an empty key are skipped).
    QMap<QString, QString> labels() const;
    /// `<base>_<YYYYMMDD_HHMMSS>` from the current ID (sanitized) or the module name; `now` local time.
    QString suggestedId(const QDateTime& now) const;
    /// True while a uniqueness check is pending or the last one found the ID taken.
    bool idTaken() const { return m_idTaken; }
    bool uniquenessChecked() const;

private:
    void onIdChanged();
    void checkUniqueness();
    void validateLabels();
    void addLabelRow(const QString& key, const QString& value);

    QLineEdit* m_jobId;
    QPushButton* m_suggest;
    QLabel* m_jobIdProblems;
    QLabel* m_jobIdStatus;
    QTableWidget* m_labels;
    QPushButton* m_addLabel;
    QPushButton* m_removeLabel;
    QLabel* m_labelProblems;
    QPushButton* m_import;
    QLabel* m_importStatus;
    QRadioButton* m_trainApp;
    QRadioButton* m_trainBuiltIn;
    QTimer m_debounce;
    QString m_checkedId;
    bool m_idTaken = false;
    int m_checkSerial = 0;
    QString m_serverIdError;
    QString m_loadedId;
    bool m_idEdited = false; ///< the user typed in the ID field: "required" may show
    QMap<QString, QString> m_loadedLabels;
};

/// 2. Training application: either a Python package (folder or sdist; browse or drop), its module (scanned from
/// the package), runtime and Python version; or a container image (the service's custom containers: an image of
/// the executor host's local store, offered with a filter, and an optional command replacing its ENTRYPOINT).
/// The arguments go to the module, or to the image's entrypoint, followed by --job-dir as gcloud passes them.
class WizardAppPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardAppPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;

    QLineEdit* packageEdit() const { return m_package; }
    QLabel* packageProblems() const { return m_packageProblems; }
    QComboBox* moduleBox() const { return m_module; }
    QLabel* moduleProblems() const { return m_moduleProblems; }
    /// The arguments as typed: shell words (SubmitWizard::splitShellWords), as after gcloud's "--".
    QPlainTextEdit* argsEdit() const { return m_args; }
    /// Shows the exact argv the trainer will get for what is typed, as a Python list.
    QLabel* argvPreview() const { return m_argv; }
    QLabel* argsProblems() const { return m_argsProblems; }
    QComboBox* runtimeBox() const { return m_runtime; }
    QComboBox* pythonBox() const { return m_python; }
    /// "Container image" instead of "Python package".
    QRadioButton* imageMode() const { return m_imageMode; }
    /// "Built-in algorithm": one of the service's algorithm images on a CSV table, no code (issue 29).
    QRadioButton* algorithmMode() const { return m_algorithmMode; }
    /// Built-in algorithm (true) or the last training application mode (false), as the Job page's choice asks.
    void setAlgorithmMode(bool on);
    BuiltInAlgorithmForm* algorithmForm() const { return m_algorithmForm; }
    QRadioButton* packageMode() const { return m_packageMode; }
    /// The image (masterConfig.imageUri): editable, offering the executor host's images; typing filters them.
    QComboBox* imageBox() const { return m_image; }
    QLabel* imageProblems() const { return m_imageProblems; }
    /// masterConfig.containerCommand as shell words; empty: the image's ENTRYPOINT.
    QLineEdit* commandEdit() const { return m_command; }
    /// The package paths as typed (comma-separated when several).
    QStringList packages() const;
    /// The arguments split as a shell splits them; empty while a quote is open (the page is incomplete then).
    QStringList args() const;
    /// `words` as Python prints a list of str (['--epochs', '2']): what the trainer's sys.argv[1:] shows.
    static QString pythonList(const QStringList& words);
    /// Python modules of a package folder (dotted names of .py files inside folders with __init__.py),
    /// sorted, "*.task" first. Runs on a worker thread.
    static QStringList scanModules(const QString& packagePath);
    /// Why `path` is not a package ("" when it is): a folder with setup.py or pyproject.toml, or a .tar.gz.
    static QString packageProblem(const QString& path);
    /// True once the module scan of the current package finished.
    bool modulesScanned() const;

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void onPackageChanged();
    void onModuleChanged();
    void fillRuntimes();
    void onArgsChanged();
    void onModeChanged();
    void onImageChanged();
    void fillImages();
    bool containerMode() const;
    bool isAlgorithmMode() const;
    void onAlgorithmFormChanged();

    QRadioButton* m_packageMode;
    QRadioButton* m_imageMode;
    QRadioButton* m_algorithmMode;
    BuiltInAlgorithmForm* m_algorithmForm;
    QComboBox* m_image;
    QToolButton* m_refreshImages;
    QLabel* m_imageProblems;
    QLineEdit* m_command;
    QFormLayout* m_form = nullptr;
    QString m_loadedImage;
    QStringList m_loadedCommand;
    QString m_serverImageError;
    QLineEdit* m_package;
    QPushButton* m_browseFolder;
    QPushButton* m_browseSdist;
    QLabel* m_packageProblems;
    QComboBox* m_module;
    /// The user typed in (or erased) the package, module or image field: "required" may show in red. A new
    /// wizard opens without errors (KDE HIG: validate after input); Next stays disabled until the page is whole.
    bool m_packageEdited = false;
    bool m_moduleEdited = false;
    bool m_imageEdited = false;
    QLabel* m_moduleProblems;
    QPlainTextEdit* m_args;
    QLabel* m_argsProblems;
    QLabel* m_argv;
    QComboBox* m_runtime;
    QComboBox* m_python;
    QFutureWatcher<QStringList> m_scan;
    QString m_scanning;
    QString m_scanned;
    QStringList m_loadedPackages;
    QString m_loadedModule;
    QStringList m_loadedArgs;
    QString m_loadedRuntime;
    QString m_loadedPython;
    QString m_serverPackageError;
    QString m_serverModuleError;
};

/// 3. Compute: where the job runs (this host, or one of the executor's Slurm clusters: `trainingInput.region`);
/// scale tier cards; CUSTOM roles (machine type, count, accelerator); a live summary of whether the job fits
/// there now, will queue, or can never run there.
class WizardComputePage final : public WizardPage {
    Q_OBJECT
public:
    /// CUSTOM roles in the service's order.
    enum Role { Master, Worker, ParameterServer, Evaluator, RoleCount };

    explicit WizardComputePage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;
    void initializePage() override;

    /// The tier card for `tier` ("BASIC" …), or nullptr.
    QToolButton* tierButton(const QString& tier) const;
    QString selectedTier() const;
    QComboBox* machineBox(Role role) const { return m_roles[role].machine; }
    QSpinBox* countBox(Role role) const { return m_roles[role].count; }
    QComboBox* acceleratorTypeBox(Role role) const { return m_roles[role].acceleratorType; }
    QComboBox* acceleratorCountBox(Role role) const { return m_roles[role].acceleratorCount; }
    QLabel* roleProblems(Role role) const { return m_roles[role].problems; }
    QLabel* summaryLabel() const { return m_summary; }
    /// "Runs on": this host (data: empty) or a Slurm cluster (data: its region name).
    QComboBox* regionBox() const { return m_region; }
    /// The cluster chosen in regionBox(), or empty for this host.
    QString selectedCluster() const;
    /// The summary's verdict: "fits", "oversubscribed" (starts when alone, but asks for more vCPUs or memory
    /// than the whole host has), "queue", "never", "incomplete" or "unknown" (no host information).
    QString verdict() const { return m_verdict; }

private:
    struct RoleWidgets {
        QComboBox* machine = nullptr;
        QSpinBox* count = nullptr;
        QComboBox* acceleratorType = nullptr;
        QComboBox* acceleratorCount = nullptr;
        QLabel* problems = nullptr;
        QString loadedMachine;
        int loadedCount = 0;
        QString loadedAccelType;
        int loadedAccelCount = 0;
        QString serverError;
    };
    void rebuildTiers();
    void fillAccelerators(Role role);
    void updateCustomEnabled();
    void updateSummary();
    /// updateSummary() for a job that runs on `cluster`: the cluster's nodes, not this host's capacity.
    QString clusterSummary(const Job& job, const RegionInfo& cluster);
    /// Fills regionBox() from the wizard's regions, keeping m_wantedRegion selected when it is there.
    void fillRegions();
    QString roleProblem(Role role) const;

    QComboBox* m_region;
    QString m_loadedRegion; ///< trainingInput.region after load()
    QString m_wantedRegion; ///< the cluster to select once the regions arrive (load(), or the user's choice)
    QWidget* m_tierBox;
    QButtonGroup* m_tiers;
    QWidget* m_customBox;
    RoleWidgets m_roles[RoleCount];
    QLabel* m_tierProblems;
    QLabel* m_summary;
    QString m_verdict;
    QString m_loadedTier; ///< the card checked after load
    QString m_serverTierError;
    bool m_loading = false;
};

/// 4. Output: the job dir (writable or creatable; a warning when it already holds checkpoints).
class WizardOutputPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardOutputPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;

    void initializePage() override;

    QLineEdit* jobDirEdit() const { return m_jobDir; }
    QLabel* jobDirProblems() const { return m_problems; }
    QLabel* checkpointWarning() const { return m_warning; }
    /// Shown with the checkpoint warning: switches to a fresh folder (proposeFreshJobDir()).
    QPushButton* freshJobDirButton() const { return m_fresh; }
    /// The proposed job dir of a job: $XDG_DATA_HOME/trainyard/job-dirs/JOB_ID.
    static QString defaultJobDir(const QString& jobId);
    /// Proposes a folder named after the current job ID beside the current job dir (defaultJobDir() when there
    /// is none; with a _2, _3 … suffix when that folder is already used or is the current one), and keeps
    /// following the job ID until the user types or browses a folder of their own. Used when the page opens on
    /// an empty job dir, by "Use a new folder" and by "Submit similar…", so a new job never silently resumes an
    /// old run's checkpoints, and a folder the user chose keeps its parent.
    void proposeFreshJobDir();
    /// Why `dir` cannot be a job dir ("" when it can: a writable folder, or missing with a writable
    /// nearest existing parent).
    static QString jobDirProblem(const QString& dir);
    /// jobDirProblem(), then the executor's own rule for where job dirs may lie (JobDirPolicy with the roots its
    /// `…/host` answer names, the message it would give at Submit), when the executor runs on this machine.
    QString problem() const;
    /// Checkpoint-like files under `dir` (*.pt, *.pth, *.index, *.safetensors, "checkpoint"), at most
    /// `limit`, paths relative to `dir`.
    static QStringList checkpointFiles(const QString& dir, int limit = 5);

private:
    void onChanged();
    static constexpr int MaxCheckpointsCounted = 1000;

    QLineEdit* m_jobDir;
    QPushButton* m_browse;
    QLabel* m_problems;
    QLabel* m_warning;
    QPushButton* m_fresh;
    bool m_proposed = false; ///< the job dir is our proposal, renamed with the job ID
    QString m_loadedDir;
    QString m_serverError;
};

/// 5. Hyperparameter tuning (issue 13): off by default; when on, the job's `hyperparameters` (goal, metric tag,
/// algorithm, trial limits, early stopping, a previous study to resume, and the parameter table). The
/// service's HyperparameterSpec and ParameterSpec rules (JobValidation, models/jobvalidation.cpp) are checked
/// as the user types: a violation marks its cell or field (red, with the rule as tooltip) and is listed under
/// the table; Next is disabled while there is one. Below the table the page says how many grid points the
/// space has and shows trial 1's command line (TuningPreview, models/tuningpreview.h).
///
/// Table columns: name, type, min, max, values (comma-separated, for DISCRETE and CATEGORICAL) and scale. The
/// type and scale cells hold the API's enum name in Qt::UserRole and a readable label as their text; cells
/// that do not apply to a row's type are not editable. Numbers are read in the C locale (a dot for decimals),
/// as the API writes them, because a comma separates values.
class WizardTuningPage final : public WizardPage {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, MinColumn, MaxColumn, ValuesColumn, ScaleColumn, ColumnCount };

    explicit WizardTuningPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;
    void initializePage() override;

    QGroupBox* tuningBox() const { return m_box; }
    QComboBox* goalBox() const { return m_goal; }
    QLineEdit* metricTagEdit() const { return m_metricTag; }
    QComboBox* algorithmBox() const { return m_algorithm; }
    QSpinBox* maxTrialsBox() const { return m_maxTrials; }
    QSpinBox* maxParallelTrialsBox() const { return m_maxParallel; }
    QSpinBox* maxFailedTrialsBox() const { return m_maxFailed; }
    QCheckBox* earlyStoppingBox() const { return m_earlyStopping; }
    QComboBox* resumeBox() const { return m_resume; }
    QTableWidget* parameterTable() const { return m_params; }
    QPushButton* addParameterButton() const { return m_addParam; }
    QPushButton* removeParameterButton() const { return m_removeParam; }
    /// The violations of the spec as typed, one per line.
    QLabel* problemsLabel() const { return m_problems; }
    QLabel* gridLabel() const { return m_grid; }
    QLabel* trialCommandLabel() const { return m_command; }

    /// Whether "Tune hyperparameters" is on.
    bool tuningEnabled() const;
    /// The spec as the page holds it: the loaded spec with each field the user changed replaced (a new spec
    /// takes every field from the widgets). Meaningful only while tuning is on.
    HyperparameterSpec spec() const;
    /// The violations of spec() under trainingInput.hyperparameters (JobValidation's, plus numbers that do not
    /// parse), as shown.
    const FieldViolations& violations() const { return m_violations; }
    /// Appends a parameter row (type DOUBLE, linear scale) and starts editing its name.
    void addParameter();

private:
    /// What the widgets showed right after load(), to tell which fields the user changed.
    struct Shown {
        bool enabled = false;
        QString goal;
        QString metricTag;
        QString algorithm;
        int maxTrials = 0;
        int maxParallel = 0;
        int maxFailed = 0;
        bool earlyStopping = false;
        QString resume;
        QList<ParameterSpec> params;
        bool operator==(const Shown&) const = default;
    };
    Shown shown() const;
    void addRow(const ParameterSpec& p);
    /// The table's parameters; numbers that do not parse become violations in `parseProblems`.
    QList<ParameterSpec> tableParameters(FieldViolations* parseProblems) const;
    void updateRowFlags(int row);
    void fillResumeJobs();
    /// Re-checks the spec, marks cells and fields, and refreshes the grid and trial-1 texts.
    void revalidate();
    void updatePreview(const HyperparameterSpec& spec);
    void markField(QWidget* widget, const QStringList& messages);
    /// The cell a field path under params[i] names, or {-1, -1}.
    static std::pair<int, int> cellFor(const QString& field);

    QGroupBox* m_box;
    QComboBox* m_goal;
    QLineEdit* m_metricTag;
    QComboBox* m_algorithm;
    QSpinBox* m_maxTrials;
    QSpinBox* m_maxParallel;
    QSpinBox* m_maxFailed;
    QCheckBox* m_earlyStopping;
    QComboBox* m_resume;
    QTableWidget* m_params;
    QPushButton* m_addParam;
    QPushButton* m_removeParam;
    QLabel* m_problems;
    QLabel* m_grid;
    QLabel* m_command;
    QLabel* m_commandNote;
    std::optional<HyperparameterSpec> m_loadedSpec;
    Shown m_shown;
    QString m_loadedResume; ///< kept in the resume list even when the executor does not list it
    FieldViolations m_violations;
    FieldViolations m_serverViolations;
    bool m_loading = false;
};

/// 6. Review: YAML (gcloud --config form), the trainyardctl line, copy and export.
class WizardReviewPage final : public WizardPage {
    Q_OBJECT
public:
    explicit WizardReviewPage(SubmitWizard* wizard);
    void load(const Job&) override { }
    void apply(Job&) const override { }
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    void initializePage() override;

    QPlainTextEdit* yamlView() const { return m_yaml; }
    QPlainTextEdit* commandView() const { return m_command; }
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* exportButton() const { return m_export; }
    QLabel* submitProblems() const { return m_problems; }
    /// Writes the YAML to `path`; false and *error on failure (nothing half-written: QSaveFile).
    bool exportTo(const QString& path, QString* error) const;
    /// Export config…'s work: writes the YAML to `path`, and the command line then reads that file
    /// (`--config=PATH`); a failure is shown under the buttons.
    bool exportConfig(const QString& path);
    /// Under the command line when it needs a config file (fields no flag says, e.g. hyperparameters): which
    /// file it reads and whether Export config… has written it. Hidden otherwise.
    QLabel* commandNote() const { return m_commandNote; }

private:
    void updateCommand();
    QPlainTextEdit* m_yaml;
    QPlainTextEdit* m_command;
    QLabel* m_commandNote = nullptr;
    QPushButton* m_copy;
    QPushButton* m_export;
    QLabel* m_problems;
    QString m_exported; ///< where Export config… last wrote this job's YAML
    QString m_exportedYaml; ///< what it wrote: the command reads that file only while the job is the same
};

} // namespace Trainyard
