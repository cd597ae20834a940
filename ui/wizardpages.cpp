// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardpages.h"

#include "builtinalgorithm.h"
#include "builtinalgorithmform.h"

#include "hostfit.h"
#include "jobdirpolicy.h"

#include "admission.h"

#include "configloader.h"
#include "machinecatalog.h"
#include "stateicons.h"
#include "submitwizard.h"
#include "tuningpreview.h"
#include "yamlhighlighter.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMimeData>
#include <QPalette>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <utility>

namespace Trainyard {

namespace {
const QRegularExpression& moduleRe()
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$"));
    return re;
}

QString bulletList(const QStringList& items)
{
    if (items.size() == 1)
        return items.first();
    QStringList lines;
    for (const QString& item : items)
        lines << QStringLiteral("• ") + item;
    return lines.join(QLatin1Char('\n'));
}

void selectData(QComboBox* box, const QString& value, const QString& unknownLabel)
{
    int i = box->findData(value);
    if (i < 0) {
        box->addItem(unknownLabel.arg(value), value);
        i = box->count() - 1;
    }
    box->setCurrentIndex(i);
}
} // namespace

// ---------------------------------------------------------------------------------------------------------

WizardPage::WizardPage(SubmitWizard* wizard)
    : QWizardPage(wizard)
    , m_wizard(wizard)
{
}

QLabel* WizardPage::problemLabel(const QString& objectName, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(QStringLiteral("color: #c01c28;"));
    label->setVisible(false);
    return label;
}

void WizardPage::setProblem(QLabel* label, const QString& text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

void WizardPage::updateComplete()
{
    const bool complete = isComplete();
    if (m_completeShown == complete)
        return;
    m_completeShown = complete;
    emit completeChanged();
}

// ---------------------------------------------------------------------------------------------------------
// 1. Job

WizardJobPage::WizardJobPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_jobId(new QLineEdit(this))
    , m_suggest(new QPushButton(tr("&Suggest"), this))
    , m_jobIdProblems(problemLabel(QStringLiteral("jobIdProblems"), this))
    , m_jobIdStatus(new QLabel(this))
    , m_labels(new QTableWidget(0, 2, this))
    , m_addLabel(new QPushButton(tr("&Add label"), this))
    , m_removeLabel(new QPushButton(tr("&Remove label"), this))
    , m_labelProblems(problemLabel(QStringLiteral("labelProblems"), this))
    , m_import(new QPushButton(tr("&Import config…"), this))
    , m_importStatus(new QLabel(this))
    , m_trainApp(new QRadioButton(tr("Your training a&pplication (a Python package or a container image)"), this))
    , m_trainBuiltIn(new QRadioButton(tr("A built-in al&gorithm on a CSV table, no code"), this))
{
    setTitle(tr("Job"));
    setSubTitle(tr("Name the job and label it, or start from a gcloud --config file."));
    m_jobId->setObjectName(QStringLiteral("jobIdEdit"));
    m_jobId->setWhatsThis(
        tr("<b>jobId</b> (the service's rule): letters, numbers and underscores only, starting with a "
           "letter, at most 128 characters, and unique among the project's jobs."));
    m_jobId->setPlaceholderText(tr("e.g. fmnist_20261122_061500"));
    m_jobId->setToolTip(tr("Letters, digits and underscores; starts with a letter; at most 128 characters."));
    m_suggest->setToolTip(tr("Build <base>_<YYYYMMDD_HHMMSS> from the current text or the module name"));
    m_jobIdStatus->setObjectName(QStringLiteral("jobIdStatus"));
    m_labels->setObjectName(QStringLiteral("labelsTable"));
    m_labels->setWhatsThis(tr("<b>labels</b> (the service's rule): at most 64 labels; keys and values at most 63 "
                              "characters of lowercase letters, numbers, underscores and dashes; keys start with a "
                              "letter. Filter the job list by them: labels.owner=alice."));
    m_labels->setHorizontalHeaderLabels({ tr("Key"), tr("Value") });
    m_labels->horizontalHeader()->setStretchLastSection(true);
    m_labels->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_labels->verticalHeader()->setVisible(false);
    m_labels->setTabKeyNavigation(false);
    m_labels->setMinimumHeight(140);
    m_import->setObjectName(QStringLiteral("importButton"));
    m_import->setToolTip(tr("Fill every page from a YAML or JSON job config (gcloud --config)"));
    m_importStatus->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    auto* importRow = new QHBoxLayout;
    importRow->addWidget(m_import);
    importRow->addStretch(1);
    layout->addLayout(importRow);
    // Below the button, the page's width: what an import filled in takes two lines, which a row beside the
    // button cut to the button's height.
    layout->addWidget(m_importStatus);

    auto* form = new QFormLayout;
    auto* idRow = new QHBoxLayout;
    idRow->addWidget(m_jobId, 1);
    idRow->addWidget(m_suggest);
    auto* idLabel = new QLabel(tr("Job &ID:"), this);
    idLabel->setBuddy(m_jobId);
    form->addRow(idLabel, idRow);
    form->addRow(QString(), m_jobIdProblems);
    form->addRow(QString(), m_jobIdStatus);
    m_trainApp->setObjectName(QStringLiteral("trainApplication"));
    m_trainBuiltIn->setObjectName(QStringLiteral("trainBuiltIn"));
    m_trainApp->setChecked(true);
    m_trainBuiltIn->setWhatsThis(tr("<b>Built-in algorithm</b>: XGBoost, a linear learner or wide and deep trained on "
                                    "a CSV table with the service's arguments, no training code of yours."));
    auto* trainColumn = new QVBoxLayout;
    trainColumn->addWidget(m_trainApp);
    trainColumn->addWidget(m_trainBuiltIn);
    form->addRow(tr("Train:"), trainColumn);
    layout->addLayout(form);
    connect(m_trainBuiltIn, &QRadioButton::toggled, this, [this](bool on) {
        if (WizardAppPage* app = m_wizard->appPage())
            app->setAlgorithmMode(on);
    });

    auto* labelsTitle = new QLabel(tr("&Labels:"), this);
    labelsTitle->setBuddy(m_labels);
    layout->addWidget(labelsTitle);
    layout->addWidget(m_labels, 1);
    auto* labelButtons = new QHBoxLayout;
    labelButtons->addWidget(m_addLabel);
    labelButtons->addWidget(m_removeLabel);
    labelButtons->addStretch(1);
    layout->addLayout(labelButtons);
    layout->addWidget(m_labelProblems);

    setTabOrder(m_import, m_jobId);
    setTabOrder(m_jobId, m_suggest);
    setTabOrder(m_suggest, m_trainApp);
    setTabOrder(m_trainApp, m_trainBuiltIn);
    setTabOrder(m_trainBuiltIn, m_labels);
    setTabOrder(m_labels, m_addLabel);
    setTabOrder(m_addLabel, m_removeLabel);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(300);
    connect(&m_debounce, &QTimer::timeout, this, &WizardJobPage::checkUniqueness);
    connect(m_jobId, &QLineEdit::textChanged, this, &WizardJobPage::onIdChanged);
    connect(m_jobId, &QLineEdit::textEdited, this, [this] {
        m_idEdited = true;
        onIdChanged();
    });
    connect(m_suggest, &QPushButton::clicked, this, [this] {
        m_jobId->setText(suggestedId(QDateTime::currentDateTime()));
        m_jobId->setFocus();
    });
    connect(m_addLabel, &QPushButton::clicked, this, [this] {
        addLabelRow(QString(), QString());
        m_labels->setCurrentCell(m_labels->rowCount() - 1, 0);
        m_labels->editItem(m_labels->item(m_labels->rowCount() - 1, 0));
    });
    connect(m_removeLabel, &QPushButton::clicked, this, [this] {
        const int row = m_labels->currentRow();
        if (row >= 0)
            m_labels->removeRow(row);
        validateLabels();
    });
    connect(m_labels, &QTableWidget::itemChanged, this, &WizardJobPage::validateLabels);
    connect(m_import, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import job config"), QString(), tr("Job configs (*.yaml *.yml *.json);;All files (*)"));
        if (path.isEmpty())
            return;
        QString error;
        if (!m_wizard->importConfig(path, &error)) // on success it says what it filled in
            m_importStatus->setText(tr("Could not import %1: %2").arg(QFileInfo(path).fileName(), error));
    });
    onIdChanged();
}

void WizardJobPage::load(const Job& job)
{
    m_jobId->setText(job.jobId);
    m_labels->setRowCount(0);
    for (auto it = job.labels.cbegin(); it != job.labels.cend(); ++it)
        addLabelRow(it.key(), it.value());
    m_loadedId = job.jobId;
    m_loadedLabels = job.labels;
    validateLabels();
}

void WizardJobPage::apply(Job& job) const
{
    job.jobId = m_jobId->text();
    const QMap<QString, QString> now = labels();
    if (now != m_loadedLabels)
        job.labels = now;
}

void WizardJobPage::addLabelRow(const QString& key, const QString& value)
{
    const QSignalBlocker block(m_labels);
    const int row = m_labels->rowCount();
    m_labels->insertRow(row);
    m_labels->setItem(row, 0, new QTableWidgetItem(key));
    m_labels->setItem(row, 1, new QTableWidgetItem(value));
}

QMap<QString, QString> WizardJobPage::labels() const
{
    QMap<QString, QString> map;
    for (int row = 0; row < m_labels->rowCount(); ++row) {
        const QTableWidgetItem* key = m_labels->item(row, 0);
        const QTableWidgetItem* value = m_labels->item(row, 1);
        if (key && !key->text().isEmpty())
            map.insert(key->text(), value ? value->text() : QString());
    }
    return map;
}

QString WizardJobPage::suggestedId(const QDateTime& now) const
{
    static const QRegularExpression stamp(QStringLiteral("_\\d{8}_\\d{6}$"));
    static const QRegularExpression bad(QStringLiteral("[^A-Za-z0-9_]+"));
    QString base = m_jobId->text().trimmed();
    base.remove(stamp);
    if (base.isEmpty()) {
        // The package folder names the experiment ("fmnist"); a module's first part is often just "trainer".
        const QStringList packages = m_wizard->appPage()->packages();
        if (!packages.isEmpty()) {
            base = QFileInfo(packages.first()).fileName();
            base.remove(QRegularExpression(QStringLiteral("(-[0-9][^/]*)?\\.tar\\.gz$")));
        }
        if (base.isEmpty())
            base = m_wizard->appPage()->moduleBox()->currentText().section(QLatin1Char('.'), 0, 0);
    }
    base.replace(bad, QStringLiteral("_"));
    while (base.startsWith(QLatin1Char('_')))
        base.remove(0, 1);
    if (base.isEmpty())
        base = QStringLiteral("job");
    if (!(base.at(0).isLetter() && base.at(0).unicode() < 128))
        base.prepend(QStringLiteral("job_"));
    const QString suffix = now.toString(QStringLiteral("_yyyyMMdd_HHmmss"));
    return base.left(128 - suffix.size()) + suffix;
}

bool WizardJobPage::uniquenessChecked() const
{
    return m_checkedId == m_jobId->text() && !m_checkedId.isEmpty();
}

void WizardJobPage::onIdChanged()
{
    m_serverIdError.clear();
    const QString id = m_jobId->text();
    const QStringList problems = Trainyard::jobIdProblems(id);
    // An empty ID blocks Next from the start, but "required" in red only once the user typed and erased it:
    // a new wizard should not open on an error.
    setProblem(m_jobIdProblems, id.isEmpty() && !m_idEdited ? QString() : bulletList(problems));
    m_idTaken = false;
    ++m_checkSerial;
    m_checkedId.clear();
    if (problems.isEmpty() && m_wizard->client()) {
        m_jobIdStatus->setText(tr("Checking whether the ID is free…"));
        m_debounce.start();
    } else {
        m_debounce.stop();
        m_jobIdStatus->clear();
    }
    updateComplete();
}

void WizardJobPage::checkUniqueness()
{
    ApiClient* client = m_wizard->client();
    if (!client)
        return;
    const QString id = m_jobId->text();
    const int serial = m_checkSerial;
    client->getJob(id, this, [this, id, serial](const Job&, const ApiError& error) {
        if (serial != m_checkSerial)
            return;
        m_checkedId = id;
        if (error.isNull()) {
            m_idTaken = true;
            m_jobIdStatus->clear();
            setProblem(m_jobIdProblems, tr("A job with the ID \"%1\" already exists on this executor.").arg(id));
        } else if (error.httpStatus == 404) {
            m_jobIdStatus->setText(tr("✓ No job has this ID yet."));
        } else {
            m_jobIdStatus->setText(tr("Could not check whether the ID is free: %1").arg(error.summary()));
        }
        updateComplete();
    });
}

void WizardJobPage::validateLabels()
{
    QStringList problems;
    QSet<QString> seen;
    for (int row = 0; row < m_labels->rowCount(); ++row) {
        const QTableWidgetItem* key = m_labels->item(row, 0);
        const QTableWidgetItem* value = m_labels->item(row, 1);
        const QString k = key ? key->text() : QString();
        if (k.isEmpty()) {
            if (value && !value->text().isEmpty())
                problems << tr("Row %1: a label needs a key.").arg(row + 1);
            continue;
        }
        if (seen.contains(k))
            problems << tr("The key \"%1\" appears more than once.").arg(k);
        seen.insert(k);
    }
    for (const FieldViolation& v : labelViolations(labels()))
        problems << v.description;
    setProblem(m_labelProblems, bulletList(problems));
    updateComplete();
}

bool WizardJobPage::isComplete() const
{
    return Trainyard::jobIdProblems(m_jobId->text()).isEmpty() && !m_idTaken && m_labelProblems->text().isEmpty();
}

QWidget* WizardJobPage::showFieldError(const QString& field, const QString& message)
{
    if (field.startsWith(QLatin1String("labels"))) {
        setProblem(m_labelProblems,
            m_labelProblems->text().isEmpty() ? message : m_labelProblems->text() + QLatin1Char('\n') + message);
        return m_labels;
    }
    m_serverIdError = message;
    setProblem(m_jobIdProblems, message);
    return m_jobId;
}

void WizardJobPage::clearFieldErrors()
{
    if (!m_serverIdError.isEmpty())
        onIdChanged();
    validateLabels();
}

// ---------------------------------------------------------------------------------------------------------
// 2. Training application

WizardAppPage::WizardAppPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_packageMode(new QRadioButton(tr("Python pac&kage"), this))
    , m_imageMode(new QRadioButton(tr("&Container image"), this))
    , m_algorithmMode(new QRadioButton(tr("B&uilt-in algorithm"), this))
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
    setTitle(tr("Training application"));
    setSubTitle(tr("The Python package to install and the module to run (python -m MODULE ARGS…), a container "
                   "image of the executor's host, or a built-in algorithm on a CSV table. Drop a package folder or "
                   ".tar.gz here."));
    m_packageMode->setObjectName(QStringLiteral("packageMode"));
    m_imageMode->setObjectName(QStringLiteral("imageMode"));
    m_algorithmMode->setObjectName(QStringLiteral("algorithmMode"));
    m_algorithmMode->setWhatsThis(tr("<b>Built-in algorithm</b>: train XGBoost, a linear learner or wide and deep on "
                                     "a CSV table without writing code, as the service's built-in algorithms do "
                                     "(the job names the algorithm's image; its arguments follow the service's "
                                     "reference)."));
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
    modeRow->addWidget(m_algorithmMode);
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
    setTabOrder(m_imageMode, m_algorithmMode);
    setTabOrder(m_algorithmMode, m_algorithmForm);
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
                    m_python->addItem(p, p);
        }
        selectData(m_python, keep, tr("%1 (not in the executor's catalog)"));
    });
    connect(wizard, &SubmitWizard::hostInfoChanged, this, &WizardAppPage::fillRuntimes);
    connect(wizard, &SubmitWizard::imagesChanged, this, &WizardAppPage::fillImages);
    connect(m_imageMode, &QRadioButton::toggled, this, &WizardAppPage::onModeChanged);
    connect(m_algorithmMode, &QRadioButton::toggled, this, &WizardAppPage::onModeChanged);
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

bool WizardAppPage::isAlgorithmMode() const
{
    return m_algorithmMode->isChecked();
}

void WizardAppPage::setAlgorithmMode(bool on)
{
    if (on)
        m_algorithmMode->setChecked(true);
    else if (isAlgorithmMode())
        (m_loadedImage.isEmpty() || BuiltInAlgorithms::isAlgorithmImage(m_loadedImage) ? m_packageMode : m_imageMode)
            ->setChecked(true);
}

void WizardJobPage::showBuiltIn(bool builtIn)
{
    const QSignalBlocker a(m_trainApp), b(m_trainBuiltIn);
    (builtIn ? m_trainBuiltIn : m_trainApp)->setChecked(true);
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
    const bool image = containerMode();
    const bool algorithm = isAlgorithmMode();
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
                            QLocale().toString(QDateTime::fromString(image.createTime, Qt::ISODate).toLocalTime(),
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
            m_runtime->addItem(
                tr("%1 (Python %2, %3)")
                    .arg(info.runtimeVersion, info.pythonVersions.join(QStringLiteral(", ")), info.interpreter),
                info.runtimeVersion);
        selectData(m_runtime, keepRuntime, tr("%1 (not in the executor's catalog)"));
    }
    emit m_runtime->currentIndexChanged(m_runtime->currentIndex());
    selectData(m_python, keepPython, tr("%1 (not in the executor's catalog)"));
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
    const QFileInfo info(path);
    if (!info.exists())
        return tr("%1 does not exist.").arg(path);
    if (info.isDir()) {
        const QDir dir(path);
        if (!dir.exists(QStringLiteral("setup.py")) && !dir.exists(QStringLiteral("pyproject.toml")))
            return tr("%1 is a folder without setup.py or pyproject.toml: not a Python package.").arg(path);
        return {};
    }
    if (!path.endsWith(QLatin1String(".tar.gz")))
        return tr("%1 is neither a package folder nor a source distribution (.tar.gz).").arg(path);
    if (!info.isReadable())
        return tr("%1 is not readable.").arg(path);
    return {};
}

QStringList WizardAppPage::scanModules(const QString& packagePath)
{
    // Relative file paths of the package, "/"-separated.
    QStringList files;
    const QFileInfo info(packagePath);
    if (info.isDir()) {
        const QDir root(packagePath);
        QDirIterator it(packagePath, { QStringLiteral("*.py") }, QDir::Files, QDirIterator::Subdirectories);
        int budget = 20000;
        while (it.hasNext() && budget-- > 0) {
            const QString rel = root.relativeFilePath(it.next());
            static const QRegularExpression skip(
                QStringLiteral("(^|/)(\\.[^/]*|build|dist|venv|\\.venv|__pycache__|[^/]*\\.egg-info)/"));
            if (!skip.match(rel).hasMatch())
                files << rel;
        }
    } else if (packagePath.endsWith(QLatin1String(".tar.gz"))) {
        QProcess tar;
        tar.start(QStringLiteral("tar"), { QStringLiteral("-tzf"), packagePath });
        if (!tar.waitForFinished(15000) || tar.exitCode() != 0)
            return {};
        for (const QByteArray& line : tar.readAllStandardOutput().split('\n')) {
            QString rel = QString::fromUtf8(line);
            // An sdist holds everything under "<name>-<version>/".
            rel = rel.section(QLatin1Char('/'), 1);
            if (rel.endsWith(QLatin1String(".py")))
                files << rel;
        }
    }
    const QSet<QString> all(files.cbegin(), files.cend());
    QStringList modules;
    for (const QString& rel : std::as_const(files)) {
        const QString dir = rel.section(QLatin1Char('/'), 0, -2);
        if (dir.isEmpty() || rel.endsWith(QLatin1String("/__init__.py")))
            continue;
        // Every folder on the way must be a package for `python -m a.b.c` to work.
        bool isPackage = true;
        QString prefix;
        for (const QString& part : dir.split(QLatin1Char('/'))) {
            prefix += (prefix.isEmpty() ? QString() : QStringLiteral("/")) + part;
            if (!all.contains(prefix + QStringLiteral("/__init__.py"))) {
                isPackage = false;
                break;
            }
        }
        if (!isPackage)
            continue;
        QString module = rel.chopped(3);
        module.replace(QLatin1Char('/'), QLatin1Char('.'));
        if (moduleRe().match(module).hasMatch())
            modules << module;
    }
    std::sort(modules.begin(), modules.end(), [](const QString& a, const QString& b) {
        const bool ta = a.endsWith(QLatin1String(".task"));
        const bool tb = b.endsWith(QLatin1String(".task"));
        if (ta != tb)
            return ta;
        return a < b;
    });
    return modules;
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
        problems << tr("Choose the package to install: a folder with setup.py or pyproject.toml, or a .tar.gz.");
    for (const QString& p : list) {
        const QString problem = packageProblem(p);
        if (!problem.isEmpty())
            problems << problem;
    }
    setProblem(m_packageProblems, bulletList(problems));
    showFormRow(m_form, m_packageProblems, !containerMode());
    if (problems.isEmpty() && !m_scan.isRunning() && m_scanned != m_package->text()) {
        m_scanning = m_package->text();
        m_scan.setFuture(QtConcurrent::run(&WizardAppPage::scanModules, list.first()));
    }
    updateComplete();
}

void WizardAppPage::onModuleChanged()
{
    m_serverModuleError.clear();
    const QString module = m_module->currentText().trimmed();
    if (module.isEmpty())
        setProblem(m_moduleProblems, m_moduleEdited ? tr("Name the module to run, e.g. trainer.task.") : QString());
    else if (!moduleRe().match(module).hasMatch())
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
    selectData(m_runtime, in.runtimeVersion, tr("%1 (not in the executor's catalog)"));
    selectData(m_python, in.pythonVersion, tr("%1 (not in the executor's catalog)"));
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
    (algorithm ? m_algorithmMode : (m_loadedImage.isEmpty() ? m_packageMode : m_imageMode))->setChecked(true);
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
        && moduleRe().match(m_module->currentText().trimmed()).hasMatch()
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

// ---------------------------------------------------------------------------------------------------------
// 3. Compute

namespace {
const char* const kRoleField[] = { "master", "worker", "parameterServer", "evaluator" };

QString roleTitle(int role)
{
    switch (role) {
    case WizardComputePage::Master:
        return WizardComputePage::tr("Master");
    case WizardComputePage::Worker:
        return WizardComputePage::tr("Workers");
    case WizardComputePage::ParameterServer:
        return WizardComputePage::tr("Parameter servers");
    default:
        return WizardComputePage::tr("Evaluators");
    }
}

QString& typeField(TrainingInput& in, int role)
{
    switch (role) {
    case WizardComputePage::Master:
        return in.masterType;
    case WizardComputePage::Worker:
        return in.workerType;
    case WizardComputePage::ParameterServer:
        return in.parameterServerType;
    default:
        return in.evaluatorType;
    }
}

std::optional<ReplicaConfig>& configField(TrainingInput& in, int role)
{
    switch (role) {
    case WizardComputePage::Master:
        return in.masterConfig;
    case WizardComputePage::Worker:
        return in.workerConfig;
    case WizardComputePage::ParameterServer:
        return in.parameterServerConfig;
    default:
        return in.evaluatorConfig;
    }
}

std::optional<qint64>* countField(TrainingInput& in, int role)
{
    switch (role) {
    case WizardComputePage::Worker:
        return &in.workerCount;
    case WizardComputePage::ParameterServer:
        return &in.parameterServerCount;
    case WizardComputePage::Evaluator:
        return &in.evaluatorCount;
    default:
        return nullptr;
    }
}

QString describeMachine(const MachineType& m)
{
    return WizardComputePage::tr("%1 — %2 vCPUs, %3 GB").arg(m.name).arg(m.vcpus).arg(m.memory.gb());
}

/// `text` with each line longer than `maxChars` broken at blanks (a word longer than that stays whole).
QString wrapLines(const QString& text, int maxChars)
{
    QStringList out;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        QString current;
        for (const QString& word : line.split(QLatin1Char(' '))) {
            if (!current.isEmpty() && current.size() + 1 + word.size() > maxChars) {
                out << current;
                current.clear();
            }
            current += (current.isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        out << current;
    }
    return out.join(QLatin1Char('\n'));
}

/// The family a machine type is listed under: "n1-standard", "a2-highgpu" … or the legacy types.
QString machineGroup(const MachineType& m)
{
    if (m.family == QLatin1String("legacy"))
        return WizardComputePage::tr("Legacy machine types");
    const qsizetype dash = m.name.lastIndexOf(QLatin1Char('-'));
    return dash > 0 ? m.name.left(dash) : m.name;
}

/// Fills a machine-type box grouped by family under bold headers that cannot be selected. TPU machine types
/// are left out: TPUs never run here (the BASIC_TPU tier says why).
void addMachineTypes(QComboBox* box, const MachineCatalog& catalog)
{
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    QString group;
    for (const MachineType& m : catalog.machineTypes()) {
        if (m.family == QLatin1String("tpu"))
            continue;
        if (machineGroup(m) != group) {
            group = machineGroup(m);
            box->insertSeparator(box->count());
            box->addItem(group);
            if (model) {
                QStandardItem* header = model->item(box->count() - 1);
                header->setFlags(header->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
                QFont bold = box->font();
                bold.setBold(true);
                header->setFont(bold);
            }
        }
        box->addItem(QStringLiteral("  ") + describeMachine(m), m.name);
    }
}

QString describePlan(const ClusterPlan& plan)
{
    QStringList parts;
    for (const RolePlan& r : plan.roles) {
        QString text = WizardComputePage::tr("%1 × %2 %3 (%4 vCPUs, %5 GB)")
                           .arg(r.count)
                           .arg(r.role, r.machineType)
                           .arg(r.vcpus)
                           .arg(r.memory.gb());
        if (r.acceleratorCount > 0)
            text += WizardComputePage::tr(" + %1 × %2").arg(r.acceleratorCount).arg(r.acceleratorType);
        parts << text;
    }
    return parts.join(QStringLiteral("\n"));
}
} // namespace

WizardComputePage::WizardComputePage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_region(new QComboBox(this))
    , m_tierBox(new QWidget(this))
    , m_tiers(new QButtonGroup(this))
    , m_customBox(new QWidget(this))
    , m_tierProblems(problemLabel(QStringLiteral("tierProblems"), this))
    , m_summary(new QLabel(this))
{
    setTitle(tr("Compute"));
    setSubTitle(tr("Where the job runs, then a scale tier, or CUSTOM machine types and counts per role. "
                   "Replicas run as processes on this host, or on the nodes of a Slurm cluster."));
    m_region->setObjectName(QStringLiteral("regionBox"));
    m_region->setWhatsThis(tr("<b>Runs on</b> (<tt>trainingInput.region</tt>, gcloud's <tt>--region</tt>): this host, "
                              "or a Slurm cluster of the executor's clusters.yaml. On a cluster each replica gets a "
                              "node of its own, with its machine type's vCPUs and memory and its GPUs; its logs, "
                              "metrics and checkpoints show here as for a job on this host."));
    m_region->addItem(tr("This host"), QString());
    connect(m_region, &QComboBox::activated, this, [this] {
        m_wantedRegion = selectedCluster();
        for (int role = 0; role < RoleCount; ++role)
            fillAccelerators(Role(role));
        updateSummary();
    });
    connect(wizard, &SubmitWizard::regionsChanged, this, [this] {
        fillRegions();
        for (int role = 0; role < RoleCount; ++role)
            fillAccelerators(Role(role));
        updateSummary();
    });
    m_tiers->setExclusive(true);
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(6);

    auto* custom = new QGridLayout(m_customBox);
    custom->setContentsMargins(0, 0, 0, 0);
    custom->addWidget(new QLabel(tr("<b>Role</b>"), m_customBox), 0, 0);
    custom->addWidget(new QLabel(tr("<b>Machine type</b>"), m_customBox), 0, 1);
    custom->addWidget(new QLabel(tr("<b>Count</b>"), m_customBox), 0, 2);
    custom->addWidget(new QLabel(tr("<b>Accelerator</b>"), m_customBox), 0, 3, 1, 2);
    QWidget* previous = nullptr;
    for (int role = 0; role < RoleCount; ++role) {
        RoleWidgets& w = m_roles[role];
        const QString field = QLatin1String(kRoleField[role]);
        w.machine = new QComboBox(m_customBox);
        w.machine->setObjectName(field + QStringLiteral("Machine"));
        // The longest machine type must not set the wizard's width: the list pops up as wide as it needs.
        w.machine->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        w.machine->setMinimumContentsLength(24);
        w.machine->setWhatsThis(tr("<b>Machine type</b> (the service's rules): required for the master when the "
                                   "scale tier is CUSTOM, and for a role whose count is set; Compute Engine types "
                                   "(n1-…, a2-…) do not mix with legacy ones (standard, large_model …). Its vCPUs "
                                   "and memory are what the executor reserves on this host."));
        w.machine->addItem(tr("(none)"), QString());
        addMachineTypes(w.machine, wizard->catalog());
        w.count = new QSpinBox(m_customBox);
        w.count->setObjectName(field + QStringLiteral("Count"));
        w.count->setRange(role == Master ? 1 : 0, 1000);
        w.count->setEnabled(role != Master);
        if (role == Master)
            w.count->setToolTip(tr("A job has exactly one master."));
        w.acceleratorType = new QComboBox(m_customBox);
        w.acceleratorType->setObjectName(field + QStringLiteral("AcceleratorType"));
        w.acceleratorType->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        w.acceleratorType->setMinimumContentsLength(18);
        w.acceleratorType->setWhatsThis(tr("<b>acceleratorConfig</b> (the service's rules): a type and a count "
                                           "the machine type allows; here only GPUs this host has. Each replica "
                                           "gets its own GPUs (CUDA_VISIBLE_DEVICES)."));
        w.acceleratorCount = new QComboBox(m_customBox);
        w.acceleratorCount->setObjectName(field + QStringLiteral("AcceleratorCount"));
        w.problems = problemLabel(field + QStringLiteral("Problems"), m_customBox);
        auto* title = new QLabel(roleTitle(role), m_customBox);
        title->setBuddy(w.machine);
        const int row = 1 + 2 * role;
        custom->addWidget(title, row, 0);
        custom->addWidget(w.machine, row, 1);
        custom->addWidget(w.count, row, 2);
        custom->addWidget(w.acceleratorType, row, 3);
        custom->addWidget(w.acceleratorCount, row, 4);
        custom->addWidget(w.problems, row + 1, 1, 1, 4);
        for (QWidget* next : { static_cast<QWidget*>(w.machine), static_cast<QWidget*>(w.count),
                 static_cast<QWidget*>(w.acceleratorType), static_cast<QWidget*>(w.acceleratorCount) }) {
            if (previous)
                setTabOrder(previous, next);
            previous = next;
        }
        connect(w.machine, &QComboBox::currentIndexChanged, this, [this, role] {
            fillAccelerators(Role(role));
            updateSummary();
        });
        connect(w.count, &QSpinBox::valueChanged, this, &WizardComputePage::updateSummary);
        connect(w.acceleratorType, &QComboBox::currentIndexChanged, this, [this, role] {
            if (!m_loading)
                fillAccelerators(Role(role));
            updateSummary();
        });
        connect(w.acceleratorCount, &QComboBox::currentIndexChanged, this, &WizardComputePage::updateSummary);
    }
    custom->setColumnStretch(1, 2);
    custom->setColumnStretch(3, 1);

    auto* layout = new QVBoxLayout(this);
    auto* where = new QHBoxLayout;
    auto* whereLabel = new QLabel(tr("<b>Runs &on</b>"), this);
    whereLabel->setBuddy(m_region);
    where->addWidget(whereLabel);
    where->addWidget(m_region, 1);
    layout->addLayout(where);
    layout->addWidget(new QLabel(tr("<b>Scale tier</b>"), this));
    layout->addWidget(m_tierBox);
    layout->addWidget(m_tierProblems);
    layout->addWidget(m_customBox);
    layout->addWidget(m_summary);
    layout->addStretch(1);

    connect(m_tiers, &QButtonGroup::buttonToggled, this, [this](QAbstractButton*, bool checked) {
        if (!checked)
            return;
        updateCustomEnabled();
        updateSummary();
    });
    connect(wizard, &SubmitWizard::hostInfoChanged, this, [this] {
        const QString tier = selectedTier();
        rebuildTiers();
        if (QToolButton* b = tierButton(tier))
            b->setChecked(true);
        for (int role = 0; role < RoleCount; ++role)
            fillAccelerators(Role(role));
        updateSummary();
    });
    connect(wizard, &SubmitWizard::hostStatusChanged, this, [this] {
        if (!m_loading)
            updateSummary();
    });
    // The wizard is still adding its pages: nothing may ask it for the job until it has them all.
    m_loading = true;
    rebuildTiers();
    tierButton(QStringLiteral("BASIC"))->setChecked(true);
    for (int role = 0; role < RoleCount; ++role)
        fillAccelerators(Role(role));
    m_loading = false;
    updateCustomEnabled();
}

void WizardComputePage::rebuildTiers()
{
    const QSignalBlocker block(m_tiers);
    delete m_tierBox->layout();
    for (QAbstractButton* b : m_tiers->buttons()) {
        m_tiers->removeButton(b);
        delete b;
    }
    auto* grid = new QGridLayout(m_tierBox);
    grid->setContentsMargins(0, 0, 0, 0);
    const MachineCatalog& catalog = m_wizard->catalog();
    QMap<QString, QJsonObject> remote;
    for (const QJsonValue& v : m_wizard->hostInfo().scaleTiers)
        remote.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
    int i = 0;
    QWidget* previous = nullptr;
    for (const ScaleTierInfo& tier : catalog.scaleTiers()) {
        bool available = tier.available;
        QString reason = tier.unavailableReason;
        if (remote.contains(tier.name)) {
            available = remote.value(tier.name).value(QStringLiteral("available")).toBool(available);
            reason = remote.value(tier.name).value(QStringLiteral("unavailableReason")).toString(reason);
        }
        QString text = tier.name;
        if (tier.name == QLatin1String("CUSTOM")) {
            text += QLatin1Char('\n') + tr("Your machine types and counts (below)");
        } else {
            TrainingInput in;
            in.scaleTier = tier.name;
            if (available)
                text += QLatin1Char('\n') + describePlan(planCluster(in, catalog));
        }
        if (!available)
            text += QLatin1Char('\n') + tr("Unavailable: %1").arg(translatedCatalogText(reason));
        auto* button = new QToolButton(m_tierBox);
        button->setObjectName(QStringLiteral("tier_") + tier.name);
        // Tool buttons do not wrap: long lines (a reason, "… + 1 × NVIDIA_GPU") widened the whole wizard.
        button->setText(wrapLines(text, 36));
        button->setToolTip(available ? tier.description : tier.description + QLatin1Char('\n') + reason);
        button->setCheckable(true);
        button->setEnabled(available);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        button->setProperty("tier", tier.name);
        m_tiers->addButton(button);
        grid->addWidget(button, i / 3, i % 3);
        if (previous)
            setTabOrder(previous, button);
        previous = button;
        ++i;
    }
}

QString WizardComputePage::selectedCluster() const
{
    return m_region->currentData().toString();
}

void WizardComputePage::fillRegions()
{
    const WizardHostInfo& info = m_wizard->hostInfo();
    // The regions are read again every 10 s: a list the user has open is left alone (the next read applies),
    // and one that would not change is not rebuilt.
    if (m_region->view()->isVisible())
        return;
    QList<std::tuple<QString, QString, QString>> items { { tr("This host"), QString(), QString() } };
    for (const RegionInfo& r : info.regions) {
        if (!r.isCluster())
            continue;
        QString text;
        if (!r.isUp()) {
            text = tr("%1 — Slurm cluster, %2").arg(r.name, r.state.toLower());
        } else {
            int usable = 0, idle = 0, gpus = 0;
            for (const RegionNodeInfo& n : r.partitionNodes()) {
                usable += n.usable() ? 1 : 0;
                idle += n.idle() ? 1 : 0;
                gpus += n.gpus - n.gpusInUse;
            }
            text = tr("%1 — Slurm cluster, partition %2: %3 of %n node(s) idle", nullptr, usable)
                       .arg(r.name, r.partition.isEmpty() ? tr("(default)") : r.partition)
                       .arg(idle);
            if (gpus > 0)
                text += tr(", %n GPU(s) free", nullptr, gpus);
        }
        items.append({ text, r.name, r.message.isEmpty() ? r.endpoint : r.message });
    }
    bool same = m_region->count() == items.size();
    for (int i = 0; same && i < items.size(); ++i)
        same = m_region->itemText(i) == std::get<0>(items[i])
            && m_region->itemData(i).toString() == std::get<1>(items[i])
            && m_region->itemData(i, Qt::ToolTipRole).toString() == std::get<2>(items[i]);
    const QSignalBlocker block(m_region);
    if (!same) {
        m_region->clear();
        for (const auto& [text, name, tip] : items) {
            m_region->addItem(text, name);
            if (!tip.isEmpty())
                m_region->setItemData(m_region->count() - 1, tip, Qt::ToolTipRole);
        }
    }
    const int wanted = m_wantedRegion.isEmpty() ? 0 : m_region->findData(m_wantedRegion);
    m_region->setCurrentIndex(std::max(0, wanted));
}

QToolButton* WizardComputePage::tierButton(const QString& tier) const
{
    for (QAbstractButton* b : m_tiers->buttons()) {
        if (b->property("tier").toString() == tier)
            return static_cast<QToolButton*>(b);
    }
    return nullptr;
}

QString WizardComputePage::selectedTier() const
{
    QAbstractButton* b = m_tiers->checkedButton();
    return b ? b->property("tier").toString() : QString();
}

void WizardComputePage::fillAccelerators(Role role)
{
    RoleWidgets& w = m_roles[role];
    // Called again on every regions read (10 s): a list the user has open is not rebuilt under them.
    if (w.acceleratorType->view()->isVisible() || w.acceleratorCount->view()->isVisible())
        return;
    const MachineCatalog& catalog = m_wizard->catalog();
    const WizardHostInfo& info = m_wizard->hostInfo();
    const MachineType* machine = catalog.machineType(w.machine->currentData().toString());
    const QString keepType = w.acceleratorType->currentData().toString();
    const int keepCount = w.acceleratorCount->currentData().toInt();
    const QSignalBlocker blockType(w.acceleratorType);
    const QSignalBlocker blockCount(w.acceleratorCount);
    w.acceleratorType->clear();
    w.acceleratorCount->clear();
    const HostInventory host = info.inventory();
    // Where the job runs decides what is offered: this host's GPUs by type, or, on a cluster, the machine type's
    // GPU types up to what its largest usable node has (Slurm is asked for `gpu:N`, or the type clusters.yaml's
    // gpuTypes names; which model a node has is the cluster's).
    const RegionInfo* cluster = info.cluster(selectedCluster());
    int maxNodeGpus = 0;
    if (cluster) {
        for (const RegionNodeInfo& n : cluster->partitionNodes())
            maxNodeGpus = std::max(maxNodeGpus, n.usable() ? n.gpus : 0);
    }
    const auto available = [&](const QString& type) { return cluster ? maxNodeGpus : catalog.hostGpusFor(host, type); };
    QString why;
    if (!machine)
        why = tr("Choose a machine type first");
    else if (machine->acceleratorCounts.isEmpty())
        why = machine->impliedAccelerator.count
            ? tr("Comes with %1 × %2").arg(*machine->impliedAccelerator.count).arg(machine->impliedAccelerator.type)
            : tr("No accelerators for this machine type");
    else if (cluster && maxNodeGpus == 0)
        why = tr("No GPUs on this cluster's nodes");
    else if (!cluster && !info.host)
        why = tr("Host not known yet");
    else if (!cluster && host.gpus.isEmpty())
        why = tr("No GPUs on this host");
    if (why.isEmpty()) {
        w.acceleratorType->addItem(tr("None"), QString());
        for (auto it = machine->acceleratorCounts.cbegin(); it != machine->acceleratorCounts.cend(); ++it) {
            const int here = available(it.key());
            if (here <= 0)
                continue;
            const AcceleratorTypeInfo* type = catalog.acceleratorType(it.key());
            const QString name = type ? type->displayName : it.key();
            w.acceleratorType->addItem(cluster ? tr("%1 (the cluster's GPUs: up to %2 per node)").arg(name).arg(here)
                                               : tr("%1 (%2 on this host)").arg(name).arg(here),
                it.key());
        }
        if (w.acceleratorType->count() == 1)
            why = tr("This host has no GPU this machine type takes");
    }
    if (!why.isEmpty()) {
        w.acceleratorType->clear();
        w.acceleratorType->addItem(why, QString());
    }
    if (!keepType.isEmpty())
        selectData(w.acceleratorType, keepType, cluster ? tr("%1 (not on this cluster)") : tr("%1 (not on this host)"));
    w.acceleratorType->setEnabled(w.acceleratorType->count() > 1);
    const QString type = w.acceleratorType->currentData().toString();
    if (!type.isEmpty() && machine) {
        const int here = available(type);
        for (int n : machine->acceleratorCounts.value(type)) {
            if (n <= here)
                w.acceleratorCount->addItem(QString::number(n), n);
        }
    }
    if (keepCount > 0 && !type.isEmpty())
        selectData(w.acceleratorCount, QString::number(keepCount),
            cluster ? tr("%1 (more than a node has)") : tr("%1 (more than this host has)"));
    if (w.acceleratorCount->count() > 0 && w.acceleratorCount->currentData().toInt() > 0) {
        // selectData stores the text; normalise to an int
        w.acceleratorCount->setItemData(
            w.acceleratorCount->currentIndex(), w.acceleratorCount->currentData().toString().toInt());
    }
    w.acceleratorCount->setEnabled(w.acceleratorCount->count() > 1);
}

void WizardComputePage::updateCustomEnabled()
{
    m_customBox->setEnabled(selectedTier() == QLatin1String("CUSTOM"));
}

void WizardComputePage::load(const Job& job)
{
    m_loading = true;
    TrainingInput in = job.trainingInput;
    const QString tier = in.scaleTier.isEmpty() ? QStringLiteral("BASIC") : in.scaleTier;
    if (QToolButton* b = tierButton(tier)) {
        b->setChecked(true);
    } else if (QAbstractButton* checked = m_tiers->checkedButton()) {
        // An unknown tier: no card is checked; the executor names the problem.
        m_tiers->setExclusive(false);
        checked->setChecked(false);
        m_tiers->setExclusive(true);
    }
    m_loadedTier = selectedTier();
    m_loadedRegion = in.region;
    m_wantedRegion = in.region;
    fillRegions();
    for (int role = 0; role < RoleCount; ++role) {
        RoleWidgets& w = m_roles[role];
        const QString type = typeField(in, role);
        {
            const QSignalBlocker block(w.machine);
            selectData(w.machine, type, tr("%1 (unknown machine type)"));
        }
        std::optional<qint64>* count = countField(in, role);
        {
            const QSignalBlocker block(w.count);
            w.count->setValue(count ? int(count->value_or(0)) : 1);
        }
        const std::optional<ReplicaConfig>& config = configField(in, role);
        const AcceleratorConfig accel
            = config && config->acceleratorConfig ? *config->acceleratorConfig : AcceleratorConfig {};
        {
            const QSignalBlocker block(w.acceleratorType);
            w.acceleratorType->clear();
            w.acceleratorType->addItem(QString(), accel.type);
            w.acceleratorCount->clear();
            w.acceleratorCount->addItem(QString(), int(accel.count.value_or(0)));
        }
        fillAccelerators(Role(role));
        w.loadedMachine = w.machine->currentData().toString();
        w.loadedCount = w.count->value();
        w.loadedAccelType = w.acceleratorType->currentData().toString();
        w.loadedAccelCount = w.acceleratorCount->currentData().toInt();
    }
    m_loading = false;
    updateCustomEnabled();
    updateSummary();
}

void WizardComputePage::apply(Job& job) const
{
    TrainingInput& in = job.trainingInput;
    const QString cluster = selectedCluster();
    if (!cluster.isEmpty())
        in.region = cluster;
    else if (m_wizard->hostInfo().cluster(m_loadedRegion))
        in.region = QStringLiteral("us-central1"); // back to this host from a loaded cluster job: the default
    // Before the regions arrive, a loaded cluster's name stays as it was (m_wantedRegion keeps it).
    const QString tier = selectedTier();
    if (tier != m_loadedTier)
        in.scaleTier = tier;
    if (tier != QLatin1String("CUSTOM")) {
        // The service takes machine types, counts and accelerators only with CUSTOM; the widgets keep
        // what the user chose in case they go back to CUSTOM.
        for (int role = 0; role < RoleCount; ++role) {
            typeField(in, role).clear();
            if (std::optional<qint64>* count = countField(in, role))
                count->reset();
            if (std::optional<ReplicaConfig>& config = configField(in, role)) {
                config->acceleratorConfig.reset();
                if (*config == ReplicaConfig {})
                    config.reset();
            }
        }
        return;
    }
    for (int role = 0; role < RoleCount; ++role) {
        const RoleWidgets& w = m_roles[role];
        const QString machine = w.machine->currentData().toString();
        if (machine != w.loadedMachine)
            typeField(in, role) = machine;
        if (std::optional<qint64>* count = countField(in, role); count && w.count->value() != w.loadedCount)
            *count = w.count->value();
        const QString accelType = w.acceleratorType->currentData().toString();
        const int accelCount = w.acceleratorCount->currentData().toInt();
        if (accelType != w.loadedAccelType || accelCount != w.loadedAccelCount) {
            std::optional<ReplicaConfig>& config = configField(in, role);
            if (accelType.isEmpty()) {
                if (config) {
                    config->acceleratorConfig.reset();
                    if (*config == ReplicaConfig {})
                        config.reset();
                }
            } else {
                if (!config)
                    config = ReplicaConfig {};
                config->acceleratorConfig = AcceleratorConfig { qint64(std::max(1, accelCount)), accelType };
            }
        }
    }
}

QString WizardComputePage::roleProblem(Role role) const
{
    if (selectedTier() != QLatin1String("CUSTOM"))
        return {};
    const RoleWidgets& w = m_roles[role];
    const bool hasType = !w.machine->currentData().toString().isEmpty();
    if (role == Master && !hasType)
        return tr("CUSTOM needs a master machine type.");
    if (role != Master && w.count->value() > 0 && !hasType)
        return tr("%1: %2 requested; choose their machine type.").arg(roleTitle(role)).arg(w.count->value());
    return {};
}

void WizardComputePage::updateSummary()
{
    if (m_loading)
        return;
    m_serverTierError.clear();
    for (int role = 0; role < RoleCount; ++role) {
        m_roles[role].serverError.clear();
        setProblem(m_roles[role].problems, roleProblem(Role(role)));
    }
    setProblem(m_tierProblems, selectedTier().isEmpty() ? tr("Choose a scale tier.") : QString());
    const Job job = m_wizard->job();
    const WizardHostInfo& info = m_wizard->hostInfo();
    QStringList blocking;
    for (int role = 0; role < RoleCount; ++role) {
        if (!m_roles[role].problems->text().isEmpty())
            blocking << m_roles[role].problems->text();
    }
    QString text;
    const RegionInfo* cluster = info.cluster(selectedCluster());
    if (!blocking.isEmpty() || selectedTier().isEmpty()) {
        m_verdict = QStringLiteral("incomplete");
        text = tr("Complete the roles above to see what this job needs.");
    } else if (cluster) {
        text = clusterSummary(job, *cluster);
    } else if (!info.host) {
        m_verdict = QStringLiteral("unknown");
        text = tr("The executor has not said what this host has yet, so whether the job fits is not known.");
    } else {
        // The verdict trainyardctl gives as well (models/hostfit.h): the executor's admission rule, the host's
        // totals, and a tuning job's parallel trials.
        const HostFit fit = assessHostFit(job, *info.host, m_wizard->catalog());
        switch (fit.verdict) {
        case HostFit::Verdict::Never:
            m_verdict = QStringLiteral("never");
            break;
        case HostFit::Verdict::Fits:
            m_verdict = QStringLiteral("fits");
            break;
        case HostFit::Verdict::Oversubscribed:
            m_verdict = QStringLiteral("oversubscribed");
            break;
        case HostFit::Verdict::Queue:
            m_verdict = QStringLiteral("queue");
            break;
        }
        if (fit.verdict == HostFit::Verdict::Never) {
            QStringList never;
            for (const QString& why : fit.never)
                never << why.toHtmlEscaped();
            text = QStringLiteral("<span style=\"color:#c01c28\">✗ </span>") + tr("<b>Can never run here:</b>")
                + QStringLiteral("<ul><li>") + never.join(QStringLiteral("</li><li>")) + QStringLiteral("</li></ul>");
        } else {
            QString mark = QStringLiteral("<span style=\"color:#c64600\">● </span>");
            if (fit.verdict == HostFit::Verdict::Fits)
                mark = QStringLiteral("<span style=\"color:#26a269\">✓ </span>");
            else if (fit.verdict == HostFit::Verdict::Oversubscribed)
                mark = QStringLiteral("<span style=\"color:#c64600\">⚠ </span>");
            text = mark + QStringLiteral("<b>") + fit.headline().toHtmlEscaped() + QStringLiteral("</b> ")
                + fit.needsText().toHtmlEscaped() + QStringLiteral("<br>") + fit.why.toHtmlEscaped()
                + QStringLiteral("<br><small>")
                + describePlan(fit.plan).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))
                + QStringLiteral("</small>");
        }
    }
    m_summary->setText(text);
    updateComplete();
}

QString WizardComputePage::clusterSummary(const Job& job, const RegionInfo& cluster)
{
    QStringList never;
    for (const FieldViolation& v : validateClusterJob(job, m_wizard->catalog())) {
        if (SubmitWizard::pageForField(v.field) == SubmitWizard::ComputePageId)
            never << v.description.toHtmlEscaped();
    }
    const ClusterPlan plan = planCluster(job.trainingInput, m_wizard->catalog());
    const ClusterFit fit = assessClusterFit(plan, cluster);
    for (const QString& reason : fit.reasons)
        never << reason.toHtmlEscaped();
    if (!never.isEmpty()) {
        m_verdict = QStringLiteral("never");
        return QStringLiteral("<span style=\"color:#c01c28\">✗ </span>")
            + tr("<b>Cannot run on %1:</b>").arg(cluster.name.toHtmlEscaped()) + QStringLiteral("<ul><li>")
            + never.join(QStringLiteral("</li><li>")) + QStringLiteral("</li></ul>");
    }
    QString needs = tr("Needs %n node(s), one per replica", nullptr, plan.totalReplicas());
    if (plan.totalGpus() > 0)
        needs += tr(", %n GPU(s)", nullptr, plan.totalGpus());
    needs += QLatin1Char('.');
    QString head;
    QString why;
    if (fit.verdict == ClusterFit::Verdict::Fits) {
        m_verdict = QStringLiteral("fits");
        head = QStringLiteral("<span style=\"color:#26a269\">✓ </span>")
            + tr("<b>Fits %1 now.</b>").arg(cluster.name.toHtmlEscaped());
        why = tr("%1 of its %2 usable nodes are idle; Slurm can start it at once.")
                  .arg(fit.idleNodes)
                  .arg(fit.usableNodes);
    } else {
        m_verdict = QStringLiteral("queue");
        head = QStringLiteral("<span style=\"color:#c64600\">● </span>")
            + tr("<b>Will queue on %1.</b>").arg(cluster.name.toHtmlEscaped());
        why = tr("Only %1 of its %2 usable nodes are idle now (or not those with the GPUs asked for): Slurm "
                 "starts it when enough are free.")
                  .arg(fit.idleNodes)
                  .arg(fit.usableNodes);
    }
    QString text = head + QLatin1Char(' ') + needs.toHtmlEscaped() + QStringLiteral("<br>") + why.toHtmlEscaped();
    for (const QString& note : fit.notes)
        text += QStringLiteral("<br>") + note.toHtmlEscaped();
    return text + QStringLiteral("<br><small>")
        + describePlan(plan).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))
        + QStringLiteral("</small>");
}

void WizardJobPage::initializePage()
{
    // After QWizard has shown the page and picked its own focus widget.
    QTimer::singleShot(0, m_jobId, [edit = m_jobId] { edit->setFocus(Qt::OtherFocusReason); });
}

void WizardComputePage::initializePage()
{
    updateSummary();
}

bool WizardComputePage::isComplete() const
{
    if (selectedTier().isEmpty() || m_verdict == QLatin1String("never"))
        return false;
    for (int role = 0; role < RoleCount; ++role) {
        if (!roleProblem(Role(role)).isEmpty())
            return false;
    }
    return true;
}

QWidget* WizardComputePage::showFieldError(const QString& field, const QString& message)
{
    for (int role = 0; role < RoleCount; ++role) {
        const QString name = QLatin1String(kRoleField[role]);
        if (field.contains(QStringLiteral("trainingInput.") + name)) {
            RoleWidgets& w = m_roles[role];
            w.serverError = message;
            setProblem(w.problems, message);
            if (field.contains(QLatin1String("Count")) && !field.contains(QLatin1String("acceleratorConfig")))
                return w.count;
            if (field.contains(QLatin1String("acceleratorConfig")))
                return w.acceleratorType;
            return w.machine;
        }
    }
    m_serverTierError = message;
    setProblem(m_tierProblems, message);
    return m_tiers->checkedButton();
}

void WizardComputePage::clearFieldErrors()
{
    updateSummary();
}

// ---------------------------------------------------------------------------------------------------------
// 4. Output

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
    onChanged();
}

QString WizardOutputPage::defaultJobDir(const QString& jobId)
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/trainyard/job-dirs/") + (jobId.isEmpty() ? QStringLiteral("job") : jobId);
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

QStringList WizardOutputPage::checkpointFiles(const QString& dir, int limit)
{
    QStringList found;
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        return found;
    static const QRegularExpression pattern(
        QStringLiteral("(\\.(pt|pth|index|safetensors)$|^checkpoint$|^ckpt[-_.]|\\.ckpt$)"));
    const QDir root(dir);
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    int budget = 5000; // a job dir can hold many event files; look, do not crawl
    while (it.hasNext() && budget-- > 0 && found.size() < limit) {
        it.next();
        if (pattern.match(it.fileName()).hasMatch())
            found << root.relativeFilePath(it.filePath());
    }
    return found;
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
        const FieldViolations violations = JobDirPolicy(host->jobDirRoots).violations(dir);
        if (!violations.isEmpty())
            why = violations.first().description;
    }
    return why;
}

void WizardOutputPage::onChanged()
{
    m_serverError.clear();
    const QString dir = m_jobDir->text().trimmed();
    setProblem(m_problems, problem());
    const QStringList checkpoints
        = m_problems->text().isEmpty() ? checkpointFiles(dir, MaxCheckpointsCounted) : QStringList();
    if (checkpoints.isEmpty()) {
        m_warning->clear();
        m_warning->setVisible(false);
        m_fresh->setVisible(false);
    } else {
        // Which job wrote them, when this executor knows (the newest job with this job dir).
        QString writer;
        QString writerCreated; // RFC 3339: sorts as text
        const QString clean = QDir::cleanPath(QDir::fromNativeSeparators(dir));
        for (const Job& job : m_wizard->knownJobs()) {
            if (!job.trainingInput.jobDir.isEmpty()
                && QDir::cleanPath(QDir::fromNativeSeparators(job.trainingInput.jobDir)) == clean
                && (writer.isEmpty() || job.createTime > writerCreated)) {
                writer = tr("job %1 (%2)").arg(job.jobId, stateDisplayName(job.state));
                writerCreated = job.createTime;
            }
        }
        // No %n: the console has no English catalog to resolve "file(s)".
        const QString count = checkpoints.size() >= MaxCheckpointsCounted
            ? tr("%1 or more checkpoint files").arg(MaxCheckpointsCounted)
            : checkpoints.size() == 1 ? tr("1 checkpoint file")
                                      : tr("%1 checkpoint files").arg(checkpoints.size());
        const QString names = checkpoints.mid(0, 3).join(QStringLiteral(", "))
            + (checkpoints.size() > 3 ? QStringLiteral(", …") : QString());
        m_warning->setText(writer.isEmpty()
                ? tr("This folder already holds %1 (%2); the trainer will resume from them instead of starting "
                     "over.")
                      .arg(count, names)
                : tr("This folder already holds %1 (%2) written by %3; the trainer will resume from them instead "
                     "of starting over.")
                      .arg(count, names, writer));
        m_warning->setVisible(true);
        m_fresh->setVisible(true);
    }
    updateComplete();
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

// ---------------------------------------------------------------------------------------------------------
// 5. Hyperparameter tuning

namespace {

const QString HyperparametersField = QStringLiteral("trainingInput.hyperparameters");

/// The enum names a type cell offers (the API's identifiers, shown as they are).
const QStringList& parameterTypes()
{
    static const QStringList types { QStringLiteral("DOUBLE"), QStringLiteral("INTEGER"), QStringLiteral("DISCRETE"),
        QStringLiteral("CATEGORICAL") };
    return types;
}

/// The scale types a scale cell offers, "" (absent: the service's NONE) first.
const QStringList& scaleTypes()
{
    static const QStringList scales { QString(), QStringLiteral("UNIT_LINEAR_SCALE"), QStringLiteral("UNIT_LOG_SCALE"),
        QStringLiteral("UNIT_REVERSE_LOG_SCALE") };
    return scales;
}

QString scaleLabel(const QString& scale)
{
    if (scale.isEmpty())
        return WizardTuningPage::tr("None");
    if (scale == QLatin1String("UNIT_LINEAR_SCALE"))
        return WizardTuningPage::tr("Linear");
    if (scale == QLatin1String("UNIT_LOG_SCALE"))
        return WizardTuningPage::tr("Log");
    if (scale == QLatin1String("UNIT_REVERSE_LOG_SCALE"))
        return WizardTuningPage::tr("Reverse log");
    return scale; // NONE or a name the service may add: kept as written
}

bool isNumericType(const QString& type)
{
    return type == QLatin1String("DOUBLE") || type == QLatin1String("INTEGER");
}

bool isListType(const QString& type)
{
    return type == QLatin1String("DISCRETE") || type == QLatin1String("CATEGORICAL");
}

/// A bound or value as a cell shows it: the shortest text that reads back the same, in fixed notation where
/// that is short ("0.0001", not the executor's "1e-04").
QString numberText(double value)
{
    const double magnitude = std::abs(value);
    const bool fixed = value == 0 || (magnitude >= 1e-6 && magnitude < 1e15);
    return QString::number(value, fixed ? 'f' : 'g', QLocale::FloatingPointShortest);
}

/// The background of a field or cell that breaks a rule (the problem labels' red, light).
const QColor InvalidBackground(0xf6, 0xcf, 0xcf);

/// The combo box a ChoiceDelegate edits with; remembers whether its list was popped up, so that a pick from the
/// list commits at once while arrow keys on the closed box only step through the entries (until Enter).
class ChoiceBox final : public QComboBox {
public:
    using QComboBox::QComboBox;
    void showPopup() override
    {
        m_poppedUp = true;
        QComboBox::showPopup();
    }
    bool takePoppedUp() { return std::exchange(m_poppedUp, false); }

private:
    bool m_poppedUp = false;
};

/// A combo box editor for the type and scale columns: the cell keeps the enum name in Qt::UserRole and a label
/// as its text. Picking an entry from the popped-up list commits at once (a mouse user should not need Enter).
class ChoiceDelegate final : public QStyledItemDelegate {
public:
    using Label = QString (*)(const QString&);
    ChoiceDelegate(QStringList values, Label label, QObject* parent)
        : QStyledItemDelegate(parent)
        , m_values(std::move(values))
        , m_label(label)
    {
    }

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const override
    {
        auto* box = new ChoiceBox(parent);
        box->setAccessibleName(index.model()->headerData(index.column(), Qt::Horizontal).toString());
        for (const QString& v : m_values)
            box->addItem(m_label(v), v);
        connect(box, &QComboBox::activated, this, [this, box] {
            if (!box->takePoppedUp())
                return;
            auto* self = const_cast<ChoiceDelegate*>(this);
            emit self->commitData(box);
            emit self->closeEditor(box);
        });
        return box;
    }

    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        auto* box = static_cast<QComboBox*>(editor);
        const QString value = index.data(Qt::UserRole).toString();
        int i = box->findData(value);
        if (i < 0) {
            box->addItem(m_label(value), value);
            i = box->count() - 1;
        }
        box->setCurrentIndex(i);
    }

    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        const QString value = static_cast<QComboBox*>(editor)->currentData().toString();
        model->setData(index, value, Qt::UserRole);
        model->setData(index, m_label(value), Qt::DisplayRole);
    }

private:
    QStringList m_values;
    Label m_label;
};

QString typeLabel(const QString& type)
{
    return type;
}

/// "params[3].minValue" → 3; -1 when the path names no parameter.
int paramIndex(const QString& field)
{
    static const QRegularExpression re(QStringLiteral("^trainingInput\\.hyperparameters\\.params\\[(\\d+)\\]"));
    const QRegularExpressionMatch m = re.match(field);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

WizardTuningPage::WizardTuningPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_box(new QGroupBox(tr("&Tune hyperparameters"), this))
    , m_goal(new QComboBox(m_box))
    , m_metricTag(new QLineEdit(m_box))
    , m_algorithm(new QComboBox(m_box))
    , m_maxTrials(new QSpinBox(m_box))
    , m_maxParallel(new QSpinBox(m_box))
    , m_maxFailed(new QSpinBox(m_box))
    , m_earlyStopping(new QCheckBox(tr("Stop poor trials &early"), m_box))
    , m_resume(new QComboBox(m_box))
    , m_params(new QTableWidget(0, ColumnCount, m_box))
    , m_addParam(new QPushButton(tr("&Add parameter"), m_box))
    , m_removeParam(new QPushButton(tr("Remo&ve parameter"), m_box))
    , m_problems(problemLabel(QStringLiteral("tuningProblems"), m_box))
    , m_grid(new QLabel(m_box))
    , m_command(new QLabel(m_box))
    , m_commandNote(new QLabel(m_box))
{
    setTitle(tr("Hyperparameter tuning"));
    setSubTitle(tr("Optional: run the trainer many times (trials), each with other values for the flags below "
                   "(--NAME=VALUE), and keep the values whose reported metric is best."));
    m_box->setObjectName(QStringLiteral("tuningBox"));
    m_box->setCheckable(true);
    m_box->setChecked(false);
    m_box->setAccessibleName(tr("Tune hyperparameters"));
    m_box->setWhatsThis(tr("<b>hyperparameters</b>: when on, the job is a tuning job. Each trial runs the whole "
                           "cluster with the parameters below passed as --NAME=VALUE flags, and the trainer reports "
                           "the metric with cloudml-hypertune."));

    m_goal->setObjectName(QStringLiteral("goalBox"));
    m_goal->setAccessibleName(tr("Goal"));
    m_goal->addItem(tr("Maximize the metric"), QStringLiteral("MAXIMIZE"));
    m_goal->addItem(tr("Minimize the metric"), QStringLiteral("MINIMIZE"));
    m_goal->setWhatsThis(tr("<b>goal</b> (required): whether a larger (MAXIMIZE) or a smaller (MINIMIZE) value of "
                            "the metric is better."));
    m_metricTag->setObjectName(QStringLiteral("metricTagEdit"));
    m_metricTag->setAccessibleName(tr("Metric tag"));
    m_metricTag->setPlaceholderText(QStringLiteral("training/hptuning/metric"));
    m_metricTag->setWhatsThis(tr("<b>hyperparameterMetricTag</b>: the tag the trainer reports its metric under "
                                 "(cloudml-hypertune's report_hyperparameter_tuning_metric). Empty means the "
                                 "service's default, training/hptuning/metric."));
    m_algorithm->setObjectName(QStringLiteral("algorithmBox"));
    m_algorithm->setAccessibleName(tr("Search algorithm"));
    m_algorithm->addItem(tr("Bayesian optimisation"), QString());
    m_algorithm->addItem(tr("Grid search"), QStringLiteral("GRID_SEARCH"));
    m_algorithm->addItem(tr("Random search"), QStringLiteral("RANDOM_SEARCH"));
    m_algorithm->setWhatsThis(tr("<b>algorithm</b>: Bayesian optimisation (the service's default, "
                                 "ALGORITHM_UNSPECIFIED) learns from finished trials; GRID_SEARCH tries every "
                                 "combination and cannot take DOUBLE parameters; RANDOM_SEARCH draws at random."));
    m_maxTrials->setObjectName(QStringLiteral("maxTrialsBox"));
    m_maxTrials->setAccessibleName(tr("Maximum trials"));
    m_maxTrials->setRange(1, 10000);
    m_maxTrials->setValue(10);
    m_maxTrials->setWhatsThis(tr("<b>maxTrials</b>: how many trials the study runs at most (the service's default "
                                 "is 1)."));
    m_maxParallel->setObjectName(QStringLiteral("maxParallelTrialsBox"));
    m_maxParallel->setAccessibleName(tr("Maximum parallel trials"));
    m_maxParallel->setRange(1, 1000);
    m_maxParallel->setWhatsThis(tr("<b>maxParallelTrials</b>: how many trials run at the same time. Each trial "
                                   "needs the whole cluster of the Compute page."));
    m_maxFailed->setObjectName(QStringLiteral("maxFailedTrialsBox"));
    m_maxFailed->setAccessibleName(tr("Maximum failed trials"));
    m_maxFailed->setRange(0, 10000);
    //: Shown in the "Max failed trials" spin box at 0, the API's "the service decides when to fail".
    m_maxFailed->setSpecialValueText(tr("Service decides"));
    m_maxFailed->setWhatsThis(tr("<b>maxFailedTrials</b>: the study fails after this many failed trials; 0 lets "
                                 "the service decide."));
    m_earlyStopping->setObjectName(QStringLiteral("earlyStoppingBox"));
    m_earlyStopping->setWhatsThis(tr("<b>enableTrialEarlyStopping</b>: stop a trial whose reported metric is "
                                     "clearly worse than finished trials' at the same step."));
    m_resume->setObjectName(QStringLiteral("resumeBox"));
    m_resume->setAccessibleName(tr("Resume a previous tuning job"));
    m_resume->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_resume->setMinimumContentsLength(20);
    m_resume->setWhatsThis(tr("<b>resumePreviousJobId</b>: continue the study of an earlier tuning job of this "
                              "executor: its trials count as already tried."));

    m_params->setObjectName(QStringLiteral("parameterTable"));
    m_params->setAccessibleName(tr("Parameters"));
    m_params->setHorizontalHeaderLabels(
        { tr("Name"), tr("Type"), tr("Min"), tr("Max"), tr("Values (comma-separated)"), tr("Scale") });
    m_params->setWhatsThis(tr("<b>params</b> (the service's rules): each name once, passed as --NAME=VALUE; DOUBLE "
                              "and INTEGER need minValue < maxValue (INTEGER bounds whole numbers); DISCRETE values "
                              "strictly increasing, at most 1,000; CATEGORICAL values distinct; a log scale needs "
                              "values above 0. Numbers use a dot for decimals."));
    m_params->verticalHeader()->setVisible(false);
    m_params->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_params->horizontalHeader()->setSectionResizeMode(ValuesColumn, QHeaderView::Stretch);
    m_params->horizontalHeader()->setSectionResizeMode(TypeColumn, QHeaderView::ResizeToContents);
    m_params->horizontalHeader()->setSectionResizeMode(ScaleColumn, QHeaderView::ResizeToContents);
    m_params->setColumnWidth(MinColumn, 80);
    m_params->setColumnWidth(MaxColumn, 80);
    m_params->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_params->setSelectionMode(QAbstractItemView::SingleSelection);
    m_params->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
        | QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    m_params->setTabKeyNavigation(false); // Tab leaves the table, as in the labels table
    m_params->setMinimumHeight(110);
    m_params->setItemDelegateForColumn(TypeColumn, new ChoiceDelegate(parameterTypes(), &typeLabel, m_params));
    m_params->setItemDelegateForColumn(ScaleColumn, new ChoiceDelegate(scaleTypes(), &scaleLabel, m_params));
    m_addParam->setObjectName(QStringLiteral("addParameterButton"));
    m_removeParam->setObjectName(QStringLiteral("removeParameterButton"));
    m_grid->setObjectName(QStringLiteral("gridLabel"));
    m_grid->setWordWrap(true);
    m_grid->setTextFormat(Qt::PlainText);
    m_command->setObjectName(QStringLiteral("trialCommandLabel"));
    m_command->setAccessibleName(tr("Trial 1 command line"));
    m_command->setWordWrap(true);
    m_command->setTextFormat(Qt::PlainText);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setFrameShape(QFrame::StyledPanel);
    m_command->setMargin(4);
    m_commandNote->setObjectName(QStringLiteral("trialCommandNote"));
    m_commandNote->setWordWrap(true);
    m_commandNote->setTextFormat(Qt::PlainText);
    m_commandNote->setStyleSheet(QStringLiteral("color: #5e5c64;"));

    auto* settings = new QGridLayout;
    auto addField = [&](int row, int column, const QString& text, QWidget* field) {
        auto* label = new QLabel(text, m_box);
        label->setBuddy(field);
        settings->addWidget(label, row, column);
        settings->addWidget(field, row, column + 1);
    };
    addField(0, 0, tr("&Goal:"), m_goal);
    addField(1, 0, tr("&Metric tag:"), m_metricTag);
    addField(2, 0, tr("A&lgorithm:"), m_algorithm);
    addField(3, 0, tr("Res&ume from:"), m_resume);
    addField(0, 2, tr("Max t&rials:"), m_maxTrials);
    addField(1, 2, tr("Max &parallel trials:"), m_maxParallel);
    addField(2, 2, tr("Max &failed trials:"), m_maxFailed);
    settings->addWidget(m_earlyStopping, 3, 2, 1, 2);
    settings->setColumnStretch(1, 2);
    settings->setColumnStretch(3, 1);

    auto* boxLayout = new QVBoxLayout(m_box);
    boxLayout->addLayout(settings);
    auto* paramsLabel = new QLabel(tr("Parameter&s (each becomes --NAME=VALUE):"), m_box);
    paramsLabel->setBuddy(m_params);
    boxLayout->addWidget(paramsLabel);
    boxLayout->addWidget(m_params, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_addParam);
    buttons->addWidget(m_removeParam);
    buttons->addStretch(1);
    boxLayout->addLayout(buttons);
    boxLayout->addWidget(m_problems);
    boxLayout->addWidget(m_grid);
    boxLayout->addWidget(m_command);
    boxLayout->addWidget(m_commandNote);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_box);

    setTabOrder(m_goal, m_metricTag);
    setTabOrder(m_metricTag, m_algorithm);
    setTabOrder(m_algorithm, m_resume);
    setTabOrder(m_resume, m_maxTrials);
    setTabOrder(m_maxTrials, m_maxParallel);
    setTabOrder(m_maxParallel, m_maxFailed);
    setTabOrder(m_maxFailed, m_earlyStopping);
    setTabOrder(m_earlyStopping, m_params);
    setTabOrder(m_params, m_addParam);
    setTabOrder(m_addParam, m_removeParam);

    auto edited = [this] {
        m_serverViolations.clear();
        revalidate();
    };
    connect(m_box, &QGroupBox::toggled, this, edited);
    connect(m_goal, &QComboBox::currentIndexChanged, this, edited);
    connect(m_metricTag, &QLineEdit::textChanged, this, edited);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, edited);
    connect(m_maxTrials, &QSpinBox::valueChanged, this, edited);
    connect(m_maxParallel, &QSpinBox::valueChanged, this, edited);
    connect(m_maxFailed, &QSpinBox::valueChanged, this, edited);
    connect(m_earlyStopping, &QCheckBox::toggled, this, edited);
    connect(m_resume, &QComboBox::currentIndexChanged, this, edited);
    connect(m_params, &QTableWidget::itemChanged, this, [this, edited](QTableWidgetItem* item) {
        if (item->column() == TypeColumn)
            updateRowFlags(item->row());
        edited();
    });
    connect(m_addParam, &QPushButton::clicked, this, &WizardTuningPage::addParameter);
    connect(m_removeParam, &QPushButton::clicked, this, [this, edited] {
        const int row = m_params->currentRow();
        if (row >= 0)
            m_params->removeRow(row);
        edited();
    });
    connect(wizard, &SubmitWizard::knownJobsChanged, this, &WizardTuningPage::fillResumeJobs);
    fillResumeJobs();
    m_shown = shown();
    revalidate();
}

bool WizardTuningPage::tuningEnabled() const
{
    return m_box->isChecked();
}

void WizardTuningPage::addRow(const ParameterSpec& p)
{
    const QSignalBlocker block(m_params);
    const int row = m_params->rowCount();
    m_params->insertRow(row);
    auto* type = new QTableWidgetItem(typeLabel(p.type));
    type->setData(Qt::UserRole, p.type);
    auto* scale = new QTableWidgetItem(scaleLabel(p.scaleType));
    scale->setData(Qt::UserRole, p.scaleType);
    QStringList values;
    for (double v : p.discreteValues)
        values << numberText(v);
    values << p.categoricalValues;
    m_params->setItem(row, NameColumn, new QTableWidgetItem(p.parameterName));
    m_params->setItem(row, TypeColumn, type);
    m_params->setItem(row, MinColumn, new QTableWidgetItem(p.minValue ? numberText(*p.minValue) : QString()));
    m_params->setItem(row, MaxColumn, new QTableWidgetItem(p.maxValue ? numberText(*p.maxValue) : QString()));
    m_params->setItem(row, ValuesColumn, new QTableWidgetItem(values.join(QStringLiteral(", "))));
    m_params->setItem(row, ScaleColumn, scale);
    updateRowFlags(row);
}

void WizardTuningPage::addParameter()
{
    ParameterSpec p;
    p.type = QStringLiteral("DOUBLE");
    p.scaleType = QStringLiteral("UNIT_LINEAR_SCALE");
    addRow(p);
    const int row = m_params->rowCount() - 1;
    m_serverViolations.clear();
    revalidate();
    m_params->setCurrentCell(row, NameColumn);
    m_params->setFocus(Qt::OtherFocusReason);
    m_params->editItem(m_params->item(row, NameColumn));
}

void WizardTuningPage::updateRowFlags(int row)
{
    const QSignalBlocker block(m_params);
    const QString type = m_params->item(row, TypeColumn)->data(Qt::UserRole).toString();
    auto setEditable = [this, row](int column, bool editable) {
        QTableWidgetItem* item = m_params->item(row, column);
        if (!item)
            return;
        item->setFlags(editable ? (item->flags() | Qt::ItemIsEditable | Qt::ItemIsEnabled)
                                : (item->flags() & ~(Qt::ItemIsEditable | Qt::ItemIsEnabled)));
        // What no longer applies goes: a stale range under CATEGORICAL would read as part of the spec.
        if (!editable) {
            item->setText(column == ScaleColumn ? scaleLabel(QString()) : QString());
            if (column == ScaleColumn)
                item->setData(Qt::UserRole, QString());
        }
    };
    setEditable(MinColumn, !isListType(type));
    setEditable(MaxColumn, !isListType(type));
    setEditable(ValuesColumn, !isNumericType(type));
    setEditable(ScaleColumn, type != QLatin1String("CATEGORICAL"));
}

QList<ParameterSpec> WizardTuningPage::tableParameters(FieldViolations* parseProblems) const
{
    QList<ParameterSpec> params;
    auto text = [this](int row, int column) {
        const QTableWidgetItem* item = m_params->item(row, column);
        return item ? item->text().trimmed() : QString();
    };
    for (int row = 0; row < m_params->rowCount(); ++row) {
        ParameterSpec p;
        const QString path = HyperparametersField + QStringLiteral(".params[%1].").arg(row);
        p.parameterName = text(row, NameColumn);
        p.type = m_params->item(row, TypeColumn)->data(Qt::UserRole).toString();
        p.scaleType = m_params->item(row, ScaleColumn)->data(Qt::UserRole).toString();
        auto number = [&](const QString& typed, const char* field) -> std::optional<double> {
            if (typed.isEmpty())
                return std::nullopt;
            // The C locale, as the API writes numbers; without group separators, or "0,001" would read as 1.
            QLocale c = QLocale::c();
            c.setNumberOptions(QLocale::RejectGroupSeparator);
            bool ok = false;
            const double value = c.toDouble(typed, &ok);
            if (ok)
                return value;
            if (parseProblems)
                //: %1 is what the user typed in a Min, Max or Values cell.
                parseProblems->append({ path + QLatin1String(field),
                    tr("\"%1\" is not a number (use a dot for decimals, e.g. 0.001 or 1e-4).").arg(typed) });
            return std::nullopt;
        };
        if (isNumericType(p.type)) {
            p.minValue = number(text(row, MinColumn), "minValue");
            p.maxValue = number(text(row, MaxColumn), "maxValue");
        } else if (isListType(p.type)) {
            const QStringList parts = text(row, ValuesColumn).split(QLatin1Char(','), Qt::SkipEmptyParts);
            for (const QString& part : parts) {
                const QString value = part.trimmed();
                if (value.isEmpty())
                    continue;
                if (p.type == QLatin1String("CATEGORICAL")) {
                    p.categoricalValues << value;
                } else if (const std::optional<double> d = number(value, "discreteValues")) {
                    p.discreteValues << *d;
                }
            }
        }
        params << p;
    }
    return params;
}

WizardTuningPage::Shown WizardTuningPage::shown() const
{
    Shown s;
    s.enabled = m_box->isChecked();
    s.goal = m_goal->currentData().toString();
    s.metricTag = m_metricTag->text().trimmed();
    s.algorithm = m_algorithm->currentData().toString();
    s.maxTrials = m_maxTrials->value();
    s.maxParallel = m_maxParallel->value();
    s.maxFailed = m_maxFailed->value();
    s.earlyStopping = m_earlyStopping->isChecked();
    s.resume = m_resume->currentData().toString();
    s.params = tableParameters(nullptr);
    return s;
}

HyperparameterSpec WizardTuningPage::spec() const
{
    const Shown now = shown();
    // A loaded spec keeps the exact form of what the user did not touch (an absent maxTrials stays absent,
    // ALGORITHM_UNSPECIFIED stays spelled out); a new one takes every field from the widgets.
    const bool keep = m_loadedSpec.has_value();
    HyperparameterSpec s = m_loadedSpec.value_or(HyperparameterSpec {});
    if (!keep || now.goal != m_shown.goal)
        s.goal = now.goal;
    if (!keep || now.metricTag != m_shown.metricTag)
        s.hyperparameterMetricTag = now.metricTag;
    if (!keep || now.algorithm != m_shown.algorithm)
        s.algorithm = now.algorithm;
    if (!keep || now.maxTrials != m_shown.maxTrials)
        s.maxTrials = now.maxTrials;
    if (!keep || now.maxParallel != m_shown.maxParallel)
        s.maxParallelTrials = now.maxParallel;
    if (!keep || now.maxFailed != m_shown.maxFailed)
        s.maxFailedTrials = now.maxFailed > 0 ? std::optional<int>(now.maxFailed) : std::nullopt;
    if (!keep || now.earlyStopping != m_shown.earlyStopping)
        s.enableTrialEarlyStopping = now.earlyStopping ? std::optional<bool>(true) : std::nullopt;
    if (!keep || now.resume != m_shown.resume)
        s.resumePreviousJobId = now.resume;
    if (!keep || now.params != m_shown.params)
        s.params = now.params;
    return s;
}

void WizardTuningPage::load(const Job& job)
{
    m_loading = true;
    const std::optional<HyperparameterSpec>& hp = job.trainingInput.hyperparameters;
    m_loadedSpec = hp;
    const HyperparameterSpec s = hp.value_or(HyperparameterSpec {});
    m_box->setChecked(hp.has_value());
    m_goal->setCurrentIndex(std::max(0, m_goal->findData(s.goal)));
    m_metricTag->setText(s.hyperparameterMetricTag);
    const QString algorithm = s.algorithm == QLatin1String("ALGORITHM_UNSPECIFIED") ? QString() : s.algorithm;
    selectData(m_algorithm, algorithm, tr("%1 (unknown algorithm)"));
    // Absent counts show the service's defaults (maxTrials and maxParallelTrials 1); a new spec starts at 10
    // trials, which is what a study needs to learn anything.
    m_maxTrials->setValue(hp ? s.maxTrials.value_or(1) : 10);
    m_maxParallel->setValue(s.maxParallelTrials.value_or(1));
    m_maxFailed->setValue(s.maxFailedTrials.value_or(0));
    m_earlyStopping->setChecked(s.enableTrialEarlyStopping.value_or(false));
    m_loadedResume = s.resumePreviousJobId;
    fillResumeJobs();
    selectData(m_resume, s.resumePreviousJobId, tr("%1 (not on this executor)"));
    m_params->setRowCount(0);
    for (const ParameterSpec& p : s.params)
        addRow(p);
    m_shown = shown();
    m_serverViolations.clear();
    m_loading = false;
    revalidate();
}

void WizardTuningPage::apply(Job& job) const
{
    if (!tuningEnabled()) {
        job.trainingInput.hyperparameters.reset();
        return;
    }
    job.trainingInput.hyperparameters = spec();
}

void WizardTuningPage::fillResumeJobs()
{
    const QString keep = m_resume->count() > 0 ? m_resume->currentData().toString() : m_loadedResume;
    const QSignalBlocker block(m_resume);
    m_resume->clear();
    m_resume->addItem(tr("(none: a new study)"), QString());
    QList<Job> tuning;
    for (const Job& job : m_wizard->knownJobs()) {
        if (job.trainingInput.hyperparameters
            || (job.trainingOutput && job.trainingOutput->isHyperparameterTuningJob.value_or(false)))
            tuning << job;
    }
    // Newest first (RFC 3339 times sort as text): the study to resume is usually the last one.
    std::sort(tuning.begin(), tuning.end(), [](const Job& a, const Job& b) { return a.createTime > b.createTime; });
    for (const Job& job : std::as_const(tuning)) {
        const qint64 trials = job.trainingOutput
            ? job.trainingOutput->completedTrialCount.value_or(job.trainingOutput->trials.size())
            : 0;
        //: %1 is a job ID, %2 its state (Succeeded …), %3 how many trials it completed.
        m_resume->addItem(
            tr("%1 — %2, %3 trials done").arg(job.jobId, stateDisplayName(job.state)).arg(trials), job.jobId);
    }
    if (!keep.isEmpty())
        selectData(m_resume, keep, tr("%1 (not on this executor)"));
}

std::pair<int, int> WizardTuningPage::cellFor(const QString& field)
{
    const int row = paramIndex(field);
    if (row < 0)
        return { -1, -1 };
    const QString leaf = field.section(QLatin1Char('.'), -1);
    if (leaf.startsWith(QLatin1String("parameterName")))
        return { row, NameColumn };
    if (leaf.startsWith(QLatin1String("type")))
        return { row, TypeColumn };
    if (leaf.startsWith(QLatin1String("minValue")))
        return { row, MinColumn };
    if (leaf.startsWith(QLatin1String("maxValue")))
        return { row, MaxColumn };
    if (leaf.startsWith(QLatin1String("scaleType")))
        return { row, ScaleColumn };
    return { row, ValuesColumn };
}

void WizardTuningPage::markField(QWidget* widget, const QStringList& messages)
{
    // The widget's own tool tip comes back when the problem goes.
    if (!widget->property("plainToolTip").isValid())
        widget->setProperty("plainToolTip", widget->toolTip());
    // A light red base, as the cells get: a style sheet border would re-polish the widget (closing an open
    // cell editor) and draws spin box arrows in the style sheet's way instead of the platform's.
    const bool invalid = !messages.isEmpty();
    if (widget->property("invalid").toBool() != invalid) {
        widget->setProperty("invalid", invalid);
        if (invalid) {
            QPalette palette = widget->palette();
            palette.setColor(QPalette::Base, InvalidBackground);
            palette.setColor(QPalette::Button, InvalidBackground);
            widget->setPalette(palette);
        } else {
            widget->setPalette(QPalette()); // inherit again
        }
    }
    widget->setToolTip(
        messages.isEmpty() ? widget->property("plainToolTip").toString() : messages.join(QLatin1Char('\n')));
}

void WizardTuningPage::revalidate()
{
    if (m_loading)
        return;
    m_violations.clear();
    QMap<QString, QStringList> byField;
    QStringList lines;
    if (tuningEnabled()) {
        FieldViolations parse;
        tableParameters(&parse);
        const HyperparameterSpec s = spec();
        Job job;
        job.trainingInput.hyperparameters = s;
        m_violations = parse;
        QSet<QString> unparsed;
        for (const FieldViolation& v : std::as_const(parse))
            unparsed.insert(v.field);
        // The service's rules as the executor checks them; the rest of this bare job is not this page's.
        for (const FieldViolation& v : validateJob(job, m_wizard->catalog(), m_wizard->hostInfo().inventory())) {
            if (v.field.startsWith(HyperparametersField) && !unparsed.contains(v.field))
                m_violations << v;
        }
        for (const FieldViolation& v : std::as_const(m_violations) + m_serverViolations) {
            byField[v.field] << v.description;
            const int row = paramIndex(v.field);
            if (row >= 0) {
                const QString name = row < s.params.size() ? s.params.at(row).parameterName : QString();
                //: %1 is the parameter's row number, %2 its name, %3 the rule it breaks.
                lines << (name.isEmpty() ? tr("Parameter %1: %2").arg(row + 1).arg(v.description)
                                         : tr("Parameter %1 (%2): %3").arg(row + 1).arg(name, v.description));
            } else {
                lines << v.description;
            }
        }
        updatePreview(s);
    } else {
        m_grid->clear();
        m_command->clear();
        m_commandNote->clear();
    }
    lines.removeDuplicates();
    setProblem(m_problems, bulletList(lines));

    // Cells: red with the rules as tool tip; the others plain.
    {
        const QSignalBlocker block(m_params);
        for (int row = 0; row < m_params->rowCount(); ++row) {
            for (int column = 0; column < ColumnCount; ++column) {
                QTableWidgetItem* item = m_params->item(row, column);
                if (!item)
                    continue;
                item->setData(Qt::BackgroundRole, QVariant());
                item->setToolTip(QString());
            }
        }
        for (auto it = byField.cbegin(); it != byField.cend(); ++it) {
            const auto [row, column] = cellFor(it.key());
            if (row < 0 || row >= m_params->rowCount())
                continue;
            if (QTableWidgetItem* item = m_params->item(row, column)) {
                item->setBackground(InvalidBackground);
                item->setToolTip(it.value().join(QLatin1Char('\n')));
            }
        }
    }
    auto messagesFor = [&byField](const char* leaf) {
        return byField.value(HyperparametersField + QLatin1Char('.') + QLatin1String(leaf));
    };
    markField(m_goal, messagesFor("goal"));
    markField(m_metricTag, messagesFor("hyperparameterMetricTag"));
    markField(m_algorithm, messagesFor("algorithm"));
    markField(m_maxTrials, messagesFor("maxTrials"));
    markField(m_maxParallel, messagesFor("maxParallelTrials"));
    markField(m_maxFailed, messagesFor("maxFailedTrials"));
    markField(m_resume, messagesFor("resumePreviousJobId"));
    markField(m_params, messagesFor("params"));
    updateComplete();
}

void WizardTuningPage::updatePreview(const HyperparameterSpec& spec)
{
    const TuningPreview::Grid grid = TuningPreview::grid(spec);
    switch (grid.kind) {
    case TuningPreview::Grid::Kind::Finite: {
        const QString points = grid.saturated ? tr("more than %1").arg(grid.points) : QString::number(grid.points);
        QString text = tr("Grid points: %1 (the product of each parameter's number of values).").arg(points);
        const int trials = spec.maxTrials.value_or(1);
        if (spec.algorithm == QLatin1String("GRID_SEARCH") && quint64(trials) > grid.points)
            //: %1 is maxTrials, %2 the number of grid points.
            text += QLatin1Char(' ')
                + tr("Grid search stops after %2 trials although maxTrials is %1.").arg(trials).arg(grid.points);
        m_grid->setText(text);
        break;
    }
    case TuningPreview::Grid::Kind::Infinite:
        //: %1 is a parameter name. "—" stands for "no number".
        m_grid->setText(tr("Grid points: — (the DOUBLE parameter \"%1\" takes infinitely many values; only INTEGER, "
                           "DISCRETE and CATEGORICAL parameters have a grid).")
                            .arg(spec.params.isEmpty() ? QString() : grid.doubleParameter));
        break;
    case TuningPreview::Grid::Kind::Incomplete:
        m_grid->setText(tr("Grid points: — (complete the parameters to count them)."));
        break;
    }

    // Trial 1's command line, as the executor builds a replica's argv (app/launch/launchspec.h).
    const Job job = m_wizard->job();
    const TrainingInput& in = job.trainingInput;
    QStringList words { QStringLiteral("python"), QStringLiteral("-m"),
        in.pythonModule.isEmpty() ? QStringLiteral("MODULE") : in.pythonModule };
    for (const QString& arg : in.args)
        words << SubmitWizard::shellQuote(arg);
    for (const auto& [name, value] : TuningPreview::trialOneValues(spec)) {
        const QString flag = QStringLiteral("--") + (name.isEmpty() ? QStringLiteral("NAME") : name);
        // "?" stands for a value the parameter cannot have yet; quoted, it would read as part of the command.
        words << (value ? SubmitWizard::shellQuote(flag + QLatin1Char('=') + *value) : flag + QStringLiteral("=?"));
    }
    if (!in.jobDir.isEmpty())
        words << QStringLiteral("--job-dir") << SubmitWizard::shellQuote(in.jobDir);
    m_command->setText(words.join(QLatin1Char(' ')));
    if (!spec.resumePreviousJobId.isEmpty()) {
        // The previous job's trials are the first observations: this study's first trial learns from them.
        //: %1 is the job ID of the tuning job being resumed.
        m_commandNote->setText(tr("This study resumes %1: its trials count as already tried, trial IDs continue "
                                  "after its last one, and the first new trial's values follow from them, so the "
                                  "command above only shows the form of a trial's command line.")
                                   .arg(spec.resumePreviousJobId));
        return;
    }
    switch (TuningPreview::firstTrial(spec.algorithm)) {
    case TuningPreview::FirstTrial::Centre:
        m_commandNote->setText(tr("Trial 1 starts at the centre of the space (the midpoint of each range in its "
                                  "scale, the first category); later trials follow what the metric reports."));
        break;
    case TuningPreview::FirstTrial::FirstGridPoint:
        m_commandNote->setText(tr("Grid search starts with every parameter's first value and steps through the "
                                  "combinations, the last parameter fastest."));
        break;
    case TuningPreview::FirstTrial::Random:
        m_commandNote->setText(tr("Random search draws every trial's values at random; trial 1 is shown at the "
                                  "centre of the space as an example."));
        break;
    }
}

void WizardTuningPage::initializePage()
{
    // The module, arguments and job dir of the trial command come from the pages before.
    revalidate();
}

bool WizardTuningPage::isComplete() const
{
    return !tuningEnabled() || m_violations.isEmpty();
}

QWidget* WizardTuningPage::showFieldError(const QString& field, const QString& message)
{
    m_serverViolations.append({ field.isEmpty() ? HyperparametersField : field, message });
    revalidate();
    const auto [row, column] = cellFor(field);
    if (row >= 0 && row < m_params->rowCount()) {
        m_params->setCurrentCell(row, column);
        return m_params;
    }
    const QString leaf = field.section(QLatin1Char('.'), -1);
    if (leaf == QLatin1String("goal"))
        return m_goal;
    if (leaf == QLatin1String("maxTrials"))
        return m_maxTrials;
    if (leaf == QLatin1String("maxParallelTrials"))
        return m_maxParallel;
    if (leaf == QLatin1String("maxFailedTrials"))
        return m_maxFailed;
    if (leaf == QLatin1String("resumePreviousJobId"))
        return m_resume;
    if (leaf == QLatin1String("hyperparameterMetricTag"))
        return m_metricTag;
    if (leaf == QLatin1String("algorithm"))
        return m_algorithm;
    return m_params;
}

void WizardTuningPage::clearFieldErrors()
{
    m_serverViolations.clear();
    revalidate();
}

// ---------------------------------------------------------------------------------------------------------
// 6. Review

WizardReviewPage::WizardReviewPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_yaml(new QPlainTextEdit(this))
    , m_command(new QPlainTextEdit(this))
    , m_copy(new QPushButton(tr("&Copy command"), this))
    , m_export(new QPushButton(tr("&Export config…"), this))
    , m_problems(problemLabel(QStringLiteral("submitProblems"), this))
{
    setTitle(tr("Review"));
    setSubTitle(tr("The job as a gcloud --config file and as a trainyardctl command. Finish submits it."));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_yaml->setObjectName(QStringLiteral("yamlView"));
    m_yaml->setReadOnly(true);
    m_yaml->setFont(fixed);
    m_yaml->setTabChangesFocus(true);
    attachHighlighter(m_yaml->document(), QStringLiteral("YAML"));
    m_command->setObjectName(QStringLiteral("commandView"));
    m_command->setReadOnly(true);
    m_command->setFont(fixed);
    m_command->setTabChangesFocus(true);
    m_command->setMaximumHeight(90);

    auto* layout = new QVBoxLayout(this);
    auto* yamlLabel = new QLabel(tr("Config (&YAML):"), this);
    yamlLabel->setBuddy(m_yaml);
    layout->addWidget(yamlLabel);
    layout->addWidget(m_yaml, 3);
    auto* commandLabel = new QLabel(tr("Co&mmand line:"), this);
    commandLabel->setBuddy(m_command);
    layout->addWidget(commandLabel);
    layout->addWidget(m_command, 1);
    m_commandNote = new QLabel(this);
    m_commandNote->setObjectName(QStringLiteral("commandNote"));
    m_commandNote->setWordWrap(true);
    m_commandNote->setTextFormat(Qt::PlainText);
    m_commandNote->setStyleSheet(QStringLiteral("color: #5e5c64;"));
    m_commandNote->hide();
    layout->addWidget(m_commandNote);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_copy);
    buttons->addWidget(m_export);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addWidget(m_problems);

    connect(
        m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_command->toPlainText()); });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const Job job = m_wizard->job();
        const QString path = QFileDialog::getSaveFileName(this, tr("Export job config"),
            (job.jobId.isEmpty() ? QStringLiteral("job") : job.jobId) + QStringLiteral(".yaml"),
            tr("YAML (*.yaml *.yml)"));
        if (!path.isEmpty())
            exportConfig(path);
    });
}

void WizardReviewPage::initializePage()
{
    setProblem(m_problems, QString());
    updateCommand();
}

void WizardReviewPage::updateCommand()
{
    const Job job = m_wizard->job();
    const QString yaml = jobToYaml(job);
    m_yaml->setPlainText(yaml);
    // The command reads a config file for what no flag says: the one Export config… wrote, while it still holds
    // this job; else JOB.yaml, which exists only once exported (issue 27: the command named a file nobody wrote).
    const bool exported = !m_exported.isEmpty() && m_exportedYaml == yaml && QFileInfo::exists(m_exported);
    const QString command = SubmitWizard::commandLine(job, exported ? m_exported : QString());
    m_command->setPlainText(command);
    const QRegularExpression config(QStringLiteral("--config=(\\S+)"));
    const QRegularExpressionMatch match = config.match(command);
    if (!match.hasMatch()) {
        m_commandNote->hide();
        return;
    }
    m_commandNote->setText(exported
            ? tr("The command reads %1, which Export config… wrote.").arg(m_exported)
            : tr("The command reads %1 for what no flag can say (the tuning spec, replica settings): Export config… "
                 "writes it.")
                  .arg(match.captured(1)));
    m_commandNote->show();
}

bool WizardReviewPage::exportConfig(const QString& path)
{
    QString error;
    if (!exportTo(path, &error)) {
        setProblem(m_problems, error);
        return false;
    }
    m_exported = path;
    m_exportedYaml = jobToYaml(m_wizard->job());
    updateCommand();
    return true;
}

bool WizardReviewPage::exportTo(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(jobToYaml(m_wizard->job()).toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QWidget* WizardReviewPage::showFieldError(const QString& field, const QString& message)
{
    const QString text = field.isEmpty() ? message : tr("%1: %2").arg(field, message);
    setProblem(m_problems, m_problems->text().isEmpty() ? text : m_problems->text() + QLatin1Char('\n') + text);
    return m_yaml;
}

void WizardReviewPage::clearFieldErrors()
{
    setProblem(m_problems, QString());
}

} // namespace Trainyard
