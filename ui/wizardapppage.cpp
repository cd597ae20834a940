// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardapppage.h"

#include "packagesource.h"

#include "builtinalgorithm.h"
#include "builtinalgorithmform.h"
#include "packagemodules.h"
#include "submitwizard.h"
#include "wizardjobpage.h"
#include "wizardpage_p.h"
#include "rfc3339.h"

#include <QComboBox>
#include <QCompleter>
#include <QDateTime>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QToolButton>
#include <QtConcurrent>

#include <algorithm>
#include <utility>

namespace Trainyard {

WizardAppPage::WizardAppPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_packageMode(new QRadioButton(tr("Python pac&kage"), this))
    , m_imageMode(new QRadioButton(tr("&Container image"), this))
    , m_algorithmForm(new BuiltInAlgorithmForm(this))
    , m_image(new QComboBox(this))
    , m_refreshImages(new QToolButton(this))
    , m_imageProblems(problemLabel(QStringLiteral("imageProblems"), this))
    , m_command(new QLineEdit(this))
    , m_package(new QLineEdit(this))
    , m_browseFolder(new QPushButton(tr("&Folder…"), this))
    , m_browseSdist(new QPushButton(tr("&Archive…"), this))
    , m_packageProblems(problemLabel(QStringLiteral("packageProblems"), this))
    , m_module(new QComboBox(this))
    , m_moduleProblems(problemLabel(QStringLiteral("moduleProblems"), this))
    , m_args(new QPlainTextEdit(this))
    , m_argsProblems(problemLabel(QStringLiteral("argsProblems"), this))
    , m_argv(new QLabel(this))
    , m_runtime(new QComboBox(this))
    , m_python(new QComboBox(this))
{
    m_packageMode->setObjectName(QStringLiteral("packageMode"));
    m_imageMode->setObjectName(QStringLiteral("imageMode"));
    m_algorithmForm->setObjectName(QStringLiteral("algorithmForm"));
    m_packageMode->setChecked(true);
    m_imageMode->setWhatsThis(tr("<b>Custom container</b> (masterConfig.imageUri): every replica runs this image "
                                 "under podman on the executor's host, with the job dir mounted at the same path and "
                                 "the same variables (TF_CONFIG …) as a package replica. The arguments and --job-dir "
                                 "go to the image's entrypoint."));
    m_image->setObjectName(QStringLiteral("imageBox"));
    m_image->setEditable(true);
    m_image->setInsertPolicy(QComboBox::NoInsert);
    m_image->lineEdit()->setPlaceholderText(tr("Type to filter the host's images, e.g. localhost/trainer:1"));
    // Typing filters the host's images by any part of the name, as a search field does.
    m_image->completer()->setFilterMode(Qt::MatchContains);
    m_image->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_image->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_image->setWhatsThis(m_imageMode->whatsThis());
    m_refreshImages->setObjectName(QStringLiteral("refreshImages"));
    m_refreshImages->setIcon(QIcon::fromTheme(QStringLiteral("view-refresh")));
    m_refreshImages->setText(tr("Refresh"));
    m_refreshImages->setToolTip(tr("List the images of the executor's host again (podman images)"));
    m_command->setObjectName(QStringLiteral("containerCommandEdit"));
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setPlaceholderText(tr("The image's ENTRYPOINT"));
    m_command->setWhatsThis(tr("<b>containerCommand</b> (optional): replaces the image's ENTRYPOINT (and its CMD), "
                               "as shell words, e.g. python3 -m trainer.task."));
    setAcceptDrops(true);
    m_package->setObjectName(QStringLiteral("packageEdit"));
    m_package->setWhatsThis(tr("<b>packageUris</b>: the Python package with the training program, here a folder "
                               "with setup.py or pyproject.toml or a source distribution (.tar.gz); the executor "
                               "installs it with pip, offline, before the replicas start."));
    m_package->setAcceptDrops(false); // the page takes drops of a folder or file as a path, not as text
    m_package->setPlaceholderText(tr("Folder with setup.py or pyproject.toml, or an sdist .tar.gz"));
    m_module->setObjectName(QStringLiteral("moduleBox"));
    m_module->setWhatsThis(tr("<b>pythonModule</b> (required): the module each replica runs as python -m MODULE, "
                              "a dotted name such as trainer.task. The modules of the package are offered."));
    m_module->setEditable(true);
    m_module->setInsertPolicy(QComboBox::NoInsert);
    m_module->lineEdit()->setPlaceholderText(tr("e.g. trainer.task"));
    m_args->setObjectName(QStringLiteral("argsEdit"));
    // Typed as on gcloud's command line after "--": shell words, quoted as a POSIX shell quotes them.
    m_args->setPlaceholderText(tr("As on a command line, e.g. --epochs 2 --name 'my run'"));
    m_args->setTabChangesFocus(true);
    m_args->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_args->setMinimumHeight(60);
    m_args->setToolTip(tr("The trainer's arguments, split into words as a shell splits them: blanks and new lines "
                          "separate words, quotes ('…' or \"…\") keep blanks inside one word, a backslash escapes "
                          "the next character."));
    m_args->setWhatsThis(m_args->toolTip());
    m_argv->setObjectName(QStringLiteral("argvPreview"));
    m_argv->setWordWrap(true);
    m_argv->setTextFormat(Qt::PlainText);
    m_argv->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_argv->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_argv->setStyleSheet(QStringLiteral("color: #5e5c64;"));
    m_runtime->setObjectName(QStringLiteral("runtimeBox"));
    m_runtime->setWhatsThis(tr("<b>runtimeVersion</b>: picks the Python interpreter the replicas run with; the "
                               "executor's catalog lists what this host has."));
    m_python->setObjectName(QStringLiteral("pythonBox"));

    auto* form = new QFormLayout(this);
    m_form = form;
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(m_packageMode);
    modeRow->addWidget(m_imageMode);
    modeRow->addStretch(1);
    form->addRow(tr("Runs:"), modeRow);
    form->addRow(m_algorithmForm);
    auto* imageRow = new QHBoxLayout;
    imageRow->addWidget(m_image, 1);
    imageRow->addWidget(m_refreshImages);
    auto* imageLabel = new QLabel(tr("Imag&e:"), this);
    imageLabel->setBuddy(m_image);
    form->addRow(imageLabel, imageRow);
    form->addRow(QString(), m_imageProblems);
    auto* commandLabel = new QLabel(tr("Comman&d:"), this);
    commandLabel->setBuddy(m_command);
    form->addRow(commandLabel, m_command);
    auto* packageRow = new QHBoxLayout;
    packageRow->addWidget(m_package, 1);
    packageRow->addWidget(m_browseFolder);
    packageRow->addWidget(m_browseSdist);
    auto* packageLabel = new QLabel(tr("&Package:"), this);
    packageLabel->setBuddy(m_package);
    form->addRow(packageLabel, packageRow);
    form->addRow(QString(), m_packageProblems);
    auto* moduleLabel = new QLabel(tr("&Module:"), this);
    moduleLabel->setBuddy(m_module);
    form->addRow(moduleLabel, m_module);
    form->addRow(QString(), m_moduleProblems);
    auto* argsLabel = new QLabel(tr("Ar&guments:"), this);
    argsLabel->setBuddy(m_args);
    form->addRow(argsLabel, m_args);
    form->addRow(QString(), m_argsProblems);
    form->addRow(QString(), m_argv);
    auto* runtimeLabel = new QLabel(tr("&Runtime version:"), this);
    runtimeLabel->setBuddy(m_runtime);
    form->addRow(runtimeLabel, m_runtime);
    auto* pythonLabel = new QLabel(tr("P&ython version:"), this);
    pythonLabel->setBuddy(m_python);
    form->addRow(pythonLabel, m_python);

    setTabOrder(m_packageMode, m_imageMode);
    setTabOrder(m_imageMode, m_algorithmForm);
    setTabOrder(m_algorithmForm, m_image);
    setTabOrder(m_image, m_refreshImages);
    setTabOrder(m_refreshImages, m_command);
    setTabOrder(m_command, m_package);
    setTabOrder(m_package, m_browseFolder);
    setTabOrder(m_browseFolder, m_browseSdist);
    setTabOrder(m_browseSdist, m_module);
    setTabOrder(m_module, m_args);
    setTabOrder(m_args, m_runtime);
    setTabOrder(m_runtime, m_python);

    connect(m_package, &QLineEdit::textChanged, this, &WizardAppPage::onPackageChanged);
    connect(m_package, &QLineEdit::textEdited, this, [this] {
        m_packageEdited = true;
        onPackageChanged();
    });
    connect(m_module->lineEdit(), &QLineEdit::textEdited, this, [this] {
        m_moduleEdited = true;
        onModuleChanged();
    });
    connect(m_module, &QComboBox::currentTextChanged, this, &WizardAppPage::onModuleChanged);
    connect(m_browseFolder, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Package folder"), m_package->text());
        if (!dir.isEmpty())
            m_package->setText(QDir::toNativeSeparators(dir));
    });
    connect(m_browseSdist, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Package archive"), m_package->text(), tr("Source distributions (*.tar.gz)"));
        if (!file.isEmpty())
            m_package->setText(QDir::toNativeSeparators(file));
    });
    connect(m_args, &QPlainTextEdit::textChanged, this, &WizardAppPage::onArgsChanged);
    connect(&m_scan, &QFutureWatcher<QStringList>::finished, this, [this] {
        const QStringList modules = m_scan.result();
        const QString scanned = m_scanning;
        if (scanned != m_package->text()) {
            onPackageChanged(); // the text changed while scanning: scan again
            return;
        }
        const QString current = m_module->currentText();
        {
            const QSignalBlocker block(m_module);
            m_module->clear();
            m_module->addItems(modules);
            m_module->setEditText(current.isEmpty() && !modules.isEmpty() ? modules.first() : current);
        }
        m_scanned = scanned;
        onModuleChanged();
    });
    connect(m_runtime, &QComboBox::currentIndexChanged, this, [this] {
        const QString keep = m_python->currentData().toString();
        const QSignalBlocker block(m_python);
        m_python->clear();
        m_python->addItem(tr("Runtime default"), QString());
        for (const RuntimeVersionInfo& info : m_wizard->hostInfo().runtimes) {
            if (info.runtimeVersion == m_runtime->currentData().toString())
                for (const QString& p : info.pythonVersions)
                    m_python->addItem(info.interpreterPythonVersion.isEmpty()
                            ? p
                            : tr("%1 (runs as Python %2)").arg(p, info.interpreterPythonVersion),
                        p);
        }
        WizardUi::selectData(m_python, keep, tr("%1 (not in the executor's catalog)"));
    });
    connect(wizard, &SubmitWizard::hostInfoChanged, this, &WizardAppPage::fillRuntimes);
    connect(wizard, &SubmitWizard::imagesChanged, this, &WizardAppPage::fillImages);
    connect(m_imageMode, &QRadioButton::toggled, this, &WizardAppPage::onModeChanged);
    connect(m_algorithmForm, &BuiltInAlgorithmForm::changed, this, &WizardAppPage::onAlgorithmFormChanged);
    connect(m_image, &QComboBox::currentTextChanged, this, &WizardAppPage::onImageChanged);
    connect(m_image->lineEdit(), &QLineEdit::textEdited, this, [this] {
        m_imageEdited = true;
        onImageChanged();
    });
    connect(m_refreshImages, &QToolButton::clicked, wizard, &SubmitWizard::refreshImages);
    fillRuntimes();
    fillImages();
    onPackageChanged();
    onArgsChanged();
    onModeChanged();
}

bool WizardAppPage::containerMode() const
{
    return m_imageMode->isChecked();
}

void WizardAppPage::setAlgorithmMode(bool on)
{
    if (on == m_algorithm)
        return;
    m_algorithm = on;
    if (!on)
        (m_loadedImage.isEmpty() || BuiltInAlgorithms::isAlgorithmImage(m_loadedImage) ? m_packageMode : m_imageMode)
            ->setChecked(true);
    onModeChanged();
}

void WizardAppPage::onAlgorithmFormChanged()
{
    onArgsChanged(); // the argv preview shows the form's arguments too
}

namespace {
/// Shows or hides the row of `form` that holds `widget` (as its field, or inside its field's layout): its label and
/// every widget of its field. By hand rather than QFormLayout::setRowVisible(), which on Qt 6.4 left a row hidden
/// after it had been hidden before the page was first shown. A problem label (one of `problems`) shows only with a
/// text.
void showFormRow(QFormLayout* form, QWidget* widget, bool visible)
{
    int row = -1;
    QFormLayout::ItemRole role;
    form->getWidgetPosition(widget, &row, &role);
    for (int r = 0; row < 0 && r < form->rowCount(); ++r) {
        QLayoutItem* item = form->itemAt(r, QFormLayout::FieldRole);
        if (item && item->layout() && item->layout()->indexOf(widget) >= 0)
            row = r;
    }
    if (row < 0)
        return;
    for (const QFormLayout::ItemRole part : { QFormLayout::LabelRole, QFormLayout::FieldRole }) {
        QLayoutItem* item = form->itemAt(row, part);
        if (!item)
            continue;
        if (QWidget* w = item->widget()) {
            const auto* problem = qobject_cast<QLabel*>(w);
            const bool isProblem = problem && w->objectName().endsWith(QLatin1String("Problems"));
            w->setVisible(visible && (!isProblem || !problem->text().isEmpty()));
        } else if (QLayout* layout = item->layout()) {
            for (int i = 0; i < layout->count(); ++i) {
                if (QWidget* w = layout->itemAt(i)->widget())
                    w->setVisible(visible);
            }
        }
    }
}
} // namespace

void WizardAppPage::onModeChanged()
{
    const bool algorithm = isAlgorithmMode();
    const bool image = !algorithm && containerMode();
    // The job type was chosen on the Job page; the page says which it is.
    showFormRow(m_form, m_packageMode, !algorithm);
    setTitle(algorithm ? tr("Built-in algorithm") : tr("Training application"));
    setSubTitle(algorithm ? tr("The algorithm and the CSV table it trains on, no code: the job runs the service's "
                               "algorithm image with these arguments.")
                          : tr("The Python package to install and the module to run (python -m MODULE ARGS…), or a "
                               "container image of the executor's host. Drop a package folder or .tar.gz here."));
    for (QWidget* w :
        { static_cast<QWidget*>(m_image), static_cast<QWidget*>(m_command), static_cast<QWidget*>(m_imageProblems) })
        showFormRow(m_form, w, image);
    for (QWidget* w : { static_cast<QWidget*>(m_package), static_cast<QWidget*>(m_packageProblems),
             static_cast<QWidget*>(m_module), static_cast<QWidget*>(m_moduleProblems), static_cast<QWidget*>(m_runtime),
             static_cast<QWidget*>(m_python) })
        showFormRow(m_form, w, !image && !algorithm);
    m_algorithmForm->setVisible(algorithm);
    if (WizardJobPage* job = m_wizard->jobPage())
        job->showBuiltIn(algorithm);
    m_args->setPlaceholderText(algorithm ? tr("Other arguments of the algorithm, e.g. --colsample_bylevel=0.8 --seed=7")
                                         : tr("As on a command line, e.g. --epochs 2 --name 'my run'"));
    setAcceptDrops(!image && !algorithm);
    if (image)
        onImageChanged();
    onArgsChanged();
    updateComplete();
}

void WizardAppPage::fillImages()
{
    const WizardHostInfo& info = m_wizard->hostInfo();
    const QString current = m_image->currentText();
    {
        const QSignalBlocker block(m_image);
        m_image->clear();
        for (const ContainerImageInfo& image : info.images) {
            for (const QString& name : image.names) {
                //: %1 is an image's size ("1.4 GB"), %2 its creation date.
                m_image->addItem(name, name);
                m_image->setItemData(m_image->count() - 1,
                    tr("%1, created %2")
                        .arg(locale().formattedDataSize(image.sizeBytes),
                            QLocale().toString(Rfc3339::parse(image.createTime).toLocalTime(),
                                QLocale::ShortFormat)),
                    Qt::ToolTipRole);
            }
        }
        m_image->setEditText(current);
    }
    onImageChanged();
}

void WizardAppPage::onImageChanged()
{
    m_serverImageError.clear();
    const QString image = m_image->currentText().trimmed();
    const WizardHostInfo& info = m_wizard->hostInfo();
    QString problem;
    if (!containerMode())
        problem.clear();
    else if (!info.imagesError.isEmpty())
        problem = tr("The executor cannot list its host's images: %1").arg(info.imagesError);
    else if (image.isEmpty())
        problem = m_imageEdited ? tr("Pick or type the image every replica runs.") : QString();
    else if (image.contains(QLatin1Char(' ')))
        problem = tr("\"%1\" is not an image reference (no blanks; e.g. localhost/trainer:1).").arg(image);
    else if (m_image->findData(image) < 0 && !info.images.isEmpty())
        //: %1 is an image reference.
        problem = tr("%1 is not among the host's images; the executor will refuse it unless it is there by then "
                     "(podman build or podman load on the executor's host).")
                      .arg(image);
    setProblem(m_imageProblems, problem);
    showFormRow(m_form, m_imageProblems, containerMode());
    updateComplete();
}

void WizardAppPage::fillRuntimes()
{
    const QString keepRuntime = m_runtime->currentData().toString();
    const QString keepPython = m_python->currentData().toString();
    {
        const QSignalBlocker block(m_runtime);
        m_runtime->clear();
        m_runtime->addItem(tr("Executor default"), QString());
        for (const RuntimeVersionInfo& info : m_wizard->hostInfo().runtimes)
            m_runtime->addItem(info.interpreterPythonVersion.isEmpty()
                    ? tr("%1 (Python %2, %3)")
                          .arg(info.runtimeVersion, info.pythonVersions.join(QStringLiteral(", ")), info.interpreter)
                    // The service's nominal Python (what --python-version accepts) and what really runs.
                    : tr("%1 (the service's Python %2; runs Python %3, %4)")
                          .arg(info.runtimeVersion, info.pythonVersions.join(QStringLiteral(", ")),
                              info.interpreterPythonVersion, info.interpreter),
                info.runtimeVersion);
        WizardUi::selectData(m_runtime, keepRuntime, tr("%1 (not in the executor's catalog)"));
    }
    emit m_runtime->currentIndexChanged(m_runtime->currentIndex());
    WizardUi::selectData(m_python, keepPython, tr("%1 (not in the executor's catalog)"));
}

QStringList WizardAppPage::packages() const
{
    QStringList list;
    for (const QString& part : m_package->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!part.trimmed().isEmpty())
            list << part.trimmed();
    }
    return list;
}

QStringList WizardAppPage::args() const
{
    return SubmitWizard::splitShellWords(m_args->toPlainText()).value_or(QStringList {});
}

QString WizardAppPage::pythonList(const QStringList& words)
{
    // Python's repr of a list of str, as argparse users read sys.argv: single quotes unless the word holds
    // one and no double quote.
    QStringList items;
    for (const QString& w : words) {
        const bool useDouble = w.contains(QLatin1Char('\'')) && !w.contains(QLatin1Char('"'));
        const QChar q = useDouble ? QLatin1Char('"') : QLatin1Char('\'');
        QString body = w;
        body.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
        if (!useDouble)
            body.replace(QLatin1Char('\''), QStringLiteral("\\'"));
        body.replace(QLatin1Char('\n'), QStringLiteral("\\n")).replace(QLatin1Char('\t'), QStringLiteral("\\t"));
        items << q + body + q;
    }
    return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
}

void WizardAppPage::onArgsChanged()
{
    const std::optional<QStringList> words = SubmitWizard::splitShellWords(m_args->toPlainText());
    if (!words) {
        setProblem(m_argsProblems,
            tr("Arguments: a quote is not closed. Close it, or escape a literal quote with a backslash (\\')."));
        m_argv->clear();
    } else {
        setProblem(m_argsProblems, QString());
        if (isAlgorithmMode()) {
            //: %1 is a Python list of the words, e.g. ['--preprocess', '--training_data_path=/data/t.csv'].
            m_argv->setText(tr("The algorithm's arguments: %1").arg(pythonList(m_algorithmForm->dataArgs() + *words)));
        } else if (words->isEmpty()) {
            m_argv->setText(tr("The trainer gets no arguments of its own (only --job-dir)."));
        } else {
            //: %1 is a Python list of the words, e.g. ['--epochs', '2'].
            m_argv->setText(tr("The trainer's arguments (sys.argv[1:]): %1").arg(pythonList(*words)));
        }
    }
    updateComplete();
}

QString WizardAppPage::packageProblem(const QString& path)
{
    // The rule is PackageSource's (models/): a project folder, gcloud's package folder (its __init__.py; built with
    // its parent's setup.py or a generated one), or an archive.
    const PackageSource source = PackageSource::inspect(path);
    switch (source.kind) {
    case PackageSource::Kind::Missing:
        return tr("%1 does not exist.").arg(path);
    case PackageSource::Kind::ProjectFolder:
    case PackageSource::Kind::PackageFolder:
        return {};
    case PackageSource::Kind::Archive:
        return QFileInfo(path).isReadable() ? QString() : tr("%1 is not readable.").arg(path);
    case PackageSource::Kind::Unknown:
        break;
    }
    if (QFileInfo(path).isDir())
        return tr("%1 is a folder without setup.py, pyproject.toml or __init__.py: not a Python package.").arg(path);
    return tr("%1 is neither a package folder nor a source distribution (.tar.gz).").arg(path);
}

bool WizardAppPage::modulesScanned() const
{
    return m_scanned == m_package->text();
}

void WizardAppPage::onPackageChanged()
{
    m_serverPackageError.clear();
    const QStringList list = packages();
    QStringList problems;
    if (list.isEmpty() && m_packageEdited)
        problems << tr("Choose the package to install: a folder with setup.py or pyproject.toml, a package folder "
                       "(with __init__.py, as gcloud's --package-path), or a .tar.gz.");
    for (const QString& p : list) {
        const QString problem = packageProblem(p);
        if (!problem.isEmpty())
            problems << problem;
    }
    setProblem(m_packageProblems, WizardUi::bulletList(problems));
    showFormRow(m_form, m_packageProblems, !containerMode());
    if (problems.isEmpty() && !m_scan.isRunning() && m_scanned != m_package->text()) {
        m_scanning = m_package->text();
        m_scan.setFuture(QtConcurrent::run(&PackageModules::discover, list.first()));
    }
    updateComplete();
}

void WizardAppPage::onModuleChanged()
{
    m_serverModuleError.clear();
    const QString module = m_module->currentText().trimmed();
    if (module.isEmpty())
        setProblem(m_moduleProblems, m_moduleEdited ? tr("Name the module to run, e.g. trainer.task.") : QString());
    else if (!PackageModules::isModuleName(module))
        setProblem(m_moduleProblems,
            tr("\"%1\" is not a Python module name (dotted identifiers, e.g. trainer.task).").arg(module));
    else
        setProblem(m_moduleProblems, QString());
    showFormRow(m_form, m_moduleProblems, !containerMode());
    updateComplete();
}

void WizardAppPage::load(const Job& job)
{
    const TrainingInput& in = job.trainingInput;
    m_package->setText(in.packageUris.join(QStringLiteral(", ")));
    m_module->setEditText(in.pythonModule);
    const bool algorithm = BuiltInAlgorithms::forJob(in) != nullptr;
    // A built-in algorithm's data arguments go to its form; the box keeps the algorithm's own.
    const QStringList own = algorithm ? m_algorithmForm->load(in) : in.args;
    QStringList quoted;
    for (const QString& arg : own)
        quoted << SubmitWizard::shellQuote(arg);
    m_args->setPlainText(quoted.join(QLatin1Char(' ')));
    WizardUi::selectData(m_runtime, in.runtimeVersion, tr("%1 (not in the executor's catalog)"));
    WizardUi::selectData(m_python, in.pythonVersion, tr("%1 (not in the executor's catalog)"));
    m_loadedPackages = packages();
    m_loadedModule = m_module->currentText();
    m_loadedArgs = args();
    m_loadedRuntime = in.runtimeVersion;
    m_loadedPython = in.pythonVersion;
    m_loadedImage = in.masterConfig ? in.masterConfig->imageUri : QString();
    m_loadedCommand = in.masterConfig ? in.masterConfig->containerCommand : QStringList();
    m_image->setEditText(algorithm ? QString() : m_loadedImage);
    QStringList command;
    for (const QString& word : m_loadedCommand)
        command << SubmitWizard::shellQuote(word);
    m_command->setText(command.join(QLatin1Char(' ')));
    m_algorithm = algorithm;
    if (!algorithm)
        (m_loadedImage.isEmpty() ? m_packageMode : m_imageMode)->setChecked(true);
    onModuleChanged();
    onModeChanged();
}

void WizardAppPage::apply(Job& job) const
{
    TrainingInput& in = job.trainingInput;
    if (isAlgorithmMode()) {
        // The algorithm's image on the master (the other replicas run the master's); its data arguments first.
        if (!in.masterConfig)
            in.masterConfig = ReplicaConfig {};
        in.masterConfig->imageUri = m_algorithmForm->imageUri();
        in.masterConfig->containerCommand.clear();
        in.masterConfig->containerArgs.clear();
        for (auto* config : { &in.workerConfig, &in.parameterServerConfig, &in.evaluatorConfig }) {
            if (config->has_value())
                (*config)->imageUri.clear();
        }
        in.packageUris.clear();
        in.pythonModule.clear();
        in.runtimeVersion.clear();
        in.pythonVersion.clear();
        in.args = m_algorithmForm->dataArgs() + args();
        return;
    }
    if (containerMode()) {
        // A master image runs every replica: no package, module or runtime (the service refuses them beside it).
        if (!in.masterConfig)
            in.masterConfig = ReplicaConfig {};
        in.masterConfig->imageUri = m_image->currentText().trimmed();
        in.masterConfig->containerCommand = SubmitWizard::splitShellWords(m_command->text()).value_or(QStringList());
        in.packageUris.clear();
        in.pythonModule.clear();
        in.runtimeVersion.clear();
        in.pythonVersion.clear();
        if (args() != m_loadedArgs)
            in.args = args();
        return;
    }
    if (in.masterConfig && !m_loadedImage.isEmpty()) {
        // Switched from an image to a package.
        in.masterConfig->imageUri.clear();
        in.masterConfig->containerCommand.clear();
        in.masterConfig->containerArgs.clear();
    }
    if (packages() != m_loadedPackages)
        in.packageUris = packages();
    if (m_module->currentText() != m_loadedModule)
        in.pythonModule = m_module->currentText().trimmed();
    if (args() != m_loadedArgs)
        in.args = args();
    if (m_runtime->currentData().toString() != m_loadedRuntime)
        in.runtimeVersion = m_runtime->currentData().toString();
    if (m_python->currentData().toString() != m_loadedPython)
        in.pythonVersion = m_python->currentData().toString();
}

bool WizardAppPage::isComplete() const
{
    if (isAlgorithmMode())
        return m_algorithmForm->isComplete() && SubmitWizard::splitShellWords(m_args->toPlainText()).has_value();
    if (containerMode()) {
        const QString image = m_image->currentText().trimmed();
        return !image.isEmpty() && !image.contains(QLatin1Char(' '))
            && SubmitWizard::splitShellWords(m_command->text()).has_value()
            && SubmitWizard::splitShellWords(m_args->toPlainText()).has_value();
    }
    return !packages().isEmpty() && m_packageProblems->text().isEmpty()
        && PackageModules::isModuleName(m_module->currentText().trimmed())
        && SubmitWizard::splitShellWords(m_args->toPlainText()).has_value();
}

QWidget* WizardAppPage::showFieldError(const QString& field, const QString& message)
{
    if (isAlgorithmMode() && (field.contains(QLatin1String("imageUri")) || field.endsWith(QLatin1String(".args")))) {
        setProblem(m_argsProblems, message);
        return field.contains(QLatin1String("imageUri")) ? static_cast<QWidget*>(m_algorithmForm->algorithmBox())
                                                         : m_args;
    }
    if (field.contains(QLatin1String("imageUri")) || field.contains(QLatin1String("container"))) {
        m_imageMode->setChecked(true);
        m_serverImageError = message;
        setProblem(m_imageProblems, message);
        return field.contains(QLatin1String("containerCommand")) ? static_cast<QWidget*>(m_command) : m_image;
    }
    if (field.contains(QLatin1String("pythonModule"))) {
        m_serverModuleError = message;
        setProblem(m_moduleProblems, message);
        return m_module;
    }
    if (field.contains(QLatin1String("runtimeVersion")) || field.contains(QLatin1String("pythonVersion"))
        || field.contains(QLatin1String("args"))) {
        // No label of their own: the package label is the page's message area.
        setProblem(m_packageProblems, message);
        return field.contains(QLatin1String("args"))
            ? static_cast<QWidget*>(m_args)
            : (field.contains(QLatin1String("runtime")) ? m_runtime : m_python);
    }
    m_serverPackageError = message;
    setProblem(m_packageProblems, message);
    return m_package;
}

void WizardAppPage::clearFieldErrors()
{
    onPackageChanged();
    onModuleChanged();
    onModeChanged(); // the package's problems show only in package mode
}

void WizardAppPage::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void WizardAppPage::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.first().isLocalFile())
        return;
    m_package->setText(QDir::toNativeSeparators(urls.first().toLocalFile()));
    event->acceptProposedAction();
}

} // namespace Trainyard
