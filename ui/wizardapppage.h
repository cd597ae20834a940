// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "wizardpage.h"

namespace Trainyard {

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
    /// A built-in algorithm: one of the service's algorithm images on a CSV table, no code (issue 29). Chosen on the
    /// Job page only ("Job type"), as the Cloud Console asks it first: this page then is the algorithm's form, titled
    /// "Built-in algorithm", without the "Runs:" choice between a package and an image (issue 46 item 17: the
    /// choice was offered on both pages).
    bool isAlgorithmMode() const { return m_algorithm; }
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
    void onAlgorithmFormChanged();

    QRadioButton* m_packageMode;
    QRadioButton* m_imageMode;
    bool m_algorithm = false;
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

} // namespace Trainyard
