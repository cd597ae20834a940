// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardbatchpage.h"

#include "batchinputs.h"
#include "prediction.h"
#include "predictionclient.h"
#include "submitwizard.h"
#include "wizardpage_p.h"
#include "yamlhighlighter.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QtConcurrent/QtConcurrentRun>
#include <QUrl>
#include <QVBoxLayout>

namespace Trainyard {

namespace {

constexpr int PreviewInstances = 5;

} // namespace

WizardBatchPage::WizardBatchPage(SubmitWizard* wizard)
    : WizardPage(wizard)
    , m_deployedMode(new QRadioButton(tr("A &deployed model"), this))
    , m_folderMode(new QRadioButton(tr("A model &folder"), this))
    , m_model(new QComboBox(this))
    , m_version(new QComboBox(this))
    , m_folder(new QLineEdit(this))
    , m_framework(new QLabel(this))
    , m_modelProblems(problemLabel(QStringLiteral("batchModelProblems"), this))
    , m_inputs(new QLineEdit(this))
    , m_inputSummary(new QLabel(this))
    , m_inputProblems(problemLabel(QStringLiteral("batchInputProblems"), this))
    , m_preview(new QPlainTextEdit(this))
    , m_format(new QComboBox(this))
    , m_output(new QLineEdit(this))
    , m_outputProblems(problemLabel(QStringLiteral("batchOutputProblems"), this))
    , m_outputFormat(new QComboBox(this))
    , m_workers(new QSpinBox(this))
    , m_batchSize(new QSpinBox(this))
{
    setTitle(tr("Batch prediction"));
    setSubTitle(tr("Predict every instance of your files with a model: its workers share the files and write "
                   "prediction.results-NNNNN-of-NNNNN files in the output folder."));
    m_deployedMode->setObjectName(QStringLiteral("batchDeployedMode"));
    m_folderMode->setObjectName(QStringLiteral("batchFolderMode"));
    m_model->setObjectName(QStringLiteral("batchModel"));
    m_version->setObjectName(QStringLiteral("batchVersion"));
    m_folder->setObjectName(QStringLiteral("batchFolder"));
    m_framework->setObjectName(QStringLiteral("batchFramework"));
    m_framework->setWordWrap(true);
    m_inputs->setObjectName(QStringLiteral("batchInputs"));
    m_inputSummary->setObjectName(QStringLiteral("batchInputSummary"));
    m_preview->setObjectName(QStringLiteral("batchInputPreview"));
    m_format->setObjectName(QStringLiteral("batchFormat"));
    m_output->setObjectName(QStringLiteral("batchOutput"));
    m_outputFormat->setObjectName(QStringLiteral("batchOutputFormat"));
    m_workers->setObjectName(QStringLiteral("batchWorkers"));
    m_batchSize->setObjectName(QStringLiteral("batchSize"));
    m_deployedMode->setChecked(true);
    m_model->setWhatsThis(tr("<b>modelName</b>: the model's default version predicts, unless you pick a version "
                             "(<b>versionName</b>). Only a READY version can."));
    m_folder->setPlaceholderText(tr("e.g. /home/me/jobs/census_1/model"));
    m_folder->setWhatsThis(tr("<b>uri</b>: a folder with model.joblib, model.pkl, model.bst or model.pt (or a "
                              "built-in algorithm's model folder), inside the executor's job-dir roots."));
    m_inputs->setPlaceholderText(tr("e.g. /data/instances-*.json, /data/more.json"));
    m_inputs->setWhatsThis(tr("<b>inputPaths</b>: files of this machine, separated by commas; a * in a file name "
                              "matches many, as the service allows."));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setMaximumHeight(120);
    m_preview->setPlaceholderText(tr("The first instances of the first file show here."));
    attachHighlighter(m_preview->document(), QStringLiteral("JSON"));
    m_format->addItem(tr("JSON: a JSON instance a line"), QStringLiteral("JSON"));
    m_format->addItem(tr("Text: a JSON instance, or a string, a line"), QStringLiteral("TEXT"));
    m_format->addItem(tr("CSV: a row of values a line"), QStringLiteral("CSV"));
    m_format->setWhatsThis(tr("<b>dataFormat</b>. TFRecord files cannot be read here: there is no TensorFlow."));
    m_output->setPlaceholderText(tr("e.g. /home/me/predictions/census"));
    m_outputFormat->addItem(tr("JSON lines: the instance and its prediction"), QStringLiteral("JSON"));
    m_outputFormat->addItem(tr("CSV: the prediction's values"), QStringLiteral("CSV"));
    m_workers->setRange(1, 1000);
    m_workers->setValue(int(DefaultBatchMaxWorkerCount));
    m_workers->setWhatsThis(tr("<b>maxWorkerCount</b>: workers share the input; on this host at most one per CPU, "
                               "and one per 64 KiB of input."));
    m_batchSize->setRange(1, 10000);
    m_batchSize->setValue(int(DefaultBatchSize));
    m_batchSize->setWhatsThis(tr("<b>batchSize</b>: instances given to one predict() call."));

    auto* browseFolder = new QPushButton(tr("Browse…"), this);
    auto* browseInputs = new QPushButton(tr("Browse…"), this);
    auto* browseOutput = new QPushButton(tr("Browse…"), this);

    auto* form = new QFormLayout;
    auto* deployedRow = new QHBoxLayout;
    deployedRow->addWidget(m_deployedMode);
    deployedRow->addWidget(m_model, 1);
    deployedRow->addWidget(m_version, 1);
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folderMode);
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browseFolder);
    auto* modelColumn = new QVBoxLayout;
    modelColumn->addLayout(deployedRow);
    modelColumn->addLayout(folderRow);
    modelColumn->addWidget(m_framework);
    modelColumn->addWidget(m_modelProblems);
    form->addRow(tr("Model:"), modelColumn);
    auto* inputRow = new QHBoxLayout;
    inputRow->addWidget(m_inputs, 1);
    inputRow->addWidget(browseInputs);
    auto* inputLabel = new QLabel(tr("&Input files:"), this);
    inputLabel->setBuddy(m_inputs);
    form->addRow(inputLabel, inputRow);
    form->addRow(QString(), m_inputSummary);
    form->addRow(QString(), m_inputProblems);
    form->addRow(QString(), m_preview);
    auto* formatLabel = new QLabel(tr("Input f&ormat:"), this);
    formatLabel->setBuddy(m_format);
    form->addRow(formatLabel, m_format);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(browseOutput);
    auto* outputLabel = new QLabel(tr("Output fold&er:"), this);
    outputLabel->setBuddy(m_output);
    form->addRow(outputLabel, outputRow);
    form->addRow(QString(), m_outputProblems);
    auto* outputFormatLabel = new QLabel(tr("Output forma&t:"), this);
    outputFormatLabel->setBuddy(m_outputFormat);
    form->addRow(outputFormatLabel, m_outputFormat);
    auto* sizes = new QHBoxLayout;
    sizes->addWidget(m_workers);
    auto* batchLabel = new QLabel(tr("&Batch size:"), this);
    batchLabel->setBuddy(m_batchSize);
    sizes->addSpacing(12);
    sizes->addWidget(batchLabel);
    sizes->addWidget(m_batchSize);
    sizes->addStretch(1);
    auto* workersLabel = new QLabel(tr("&Workers at most:"), this);
    workersLabel->setBuddy(m_workers);
    form->addRow(workersLabel, sizes);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch(1);

    const auto modeChanged = [this] {
        const bool deployed = m_deployedMode->isChecked();
        m_model->setEnabled(deployed);
        m_version->setEnabled(deployed);
        m_folder->setEnabled(!deployed);
        onFolderChanged();
    };
    connect(m_deployedMode, &QRadioButton::toggled, this, modeChanged);
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        fetchVersions();
        updateComplete();
    });
    connect(m_folder, &QLineEdit::textChanged, this, &WizardBatchPage::onFolderChanged);
    connect(m_inputs, &QLineEdit::textChanged, this, &WizardBatchPage::onInputsChanged);
    connect(m_format, &QComboBox::currentIndexChanged, this, &WizardBatchPage::onInputsChanged);
    connect(m_format, &QComboBox::activated, this, [this] { m_format->setProperty("chosen", true); });
    connect(m_output, &QLineEdit::textChanged, this, [this] {
        const QString path = m_output->text().trimmed();
        setProblem(
            m_outputProblems, path.isEmpty() || QDir::isAbsolutePath(path) ? QString() : tr("Give an absolute path."));
        updateComplete();
    });
    connect(browseFolder, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Model Folder"), m_folder->text());
        if (!dir.isEmpty()) {
            m_folderMode->setChecked(true);
            m_folder->setText(dir);
        }
    });
    connect(browseInputs, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Input Files"), QString(), tr("Instances (*.json *.jsonl *.txt *.csv);;All files (*)"));
        if (!files.isEmpty())
            m_inputs->setText(files.join(QStringLiteral(", ")));
    });
    connect(browseOutput, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Output Folder"), m_output->text());
        if (!dir.isEmpty())
            m_output->setText(dir);
    });
    modeChanged();
    onInputsChanged();
}

void WizardBatchPage::initializePage()
{
    fetchModels();
}

int WizardBatchPage::nextId() const
{
    return SubmitWizard::ReviewPageId;
}

void WizardBatchPage::fetchModels()
{
    ApiClient* client = m_wizard->client();
    if (!client)
        return;
    PredictionClient(client).listModels(
        {}, 100, {}, this, [this](const ModelPage& page, const ApiError& error) {
            if (!error.isNull()) {
                setProblem(m_modelProblems, tr("The models cannot be listed: %1").arg(error.summary()));
                return;
            }
            const QString wanted
                = m_loadedModel.isEmpty() ? m_model->currentText() : m_loadedModel.section(QLatin1Char('/'), 0, 0);
            const QSignalBlocker block(m_model);
            m_model->clear();
            for (const ModelResource& m : page.models)
                m_model->addItem(m.name);
            if (m_model->count() == 0)
                m_model->setPlaceholderText(tr("(no model deployed)"));
            const int at = m_model->findText(wanted);
            m_model->setCurrentIndex(at >= 0 ? at : 0);
            fetchVersions();
            updateComplete();
        });
}

void WizardBatchPage::fetchVersions()
{
    ApiClient* client = m_wizard->client();
    const QString model = m_model->currentText();
    m_version->clear();
    m_version->addItem(tr("Default version"), QString());
    if (!client || model.isEmpty())
        return;
    PredictionClient(client).listVersions(
        model, {}, 100, {}, this, [this, model](const VersionPage& page, const ApiError& error) {
            if (!error.isNull() || m_model->currentText() != model)
                return;
            const QString wanted = m_loadedModel.section(QLatin1Char('/'), 1, 1);
            for (const VersionResource& v : page.versions)
                //: %1 is a version's ID, %2 its state (READY, FAILED …).
                m_version->addItem(tr("%1 (%2)").arg(v.name, PredictionJson::versionStateName(v.state)), v.name);
            const int at = m_version->findData(wanted);
            if (!wanted.isEmpty() && at >= 0)
                m_version->setCurrentIndex(at);
            m_loadedModel.clear();
        });
}

void WizardBatchPage::onFolderChanged()
{
    m_frameworkFound = false;
    if (m_deployedMode->isChecked()) {
        m_framework->clear();
        setProblem(m_modelProblems, QString());
        updateComplete();
        return;
    }
    const QString folder = m_folder->text().trimmed();
    if (folder.isEmpty()) {
        m_framework->clear();
    } else {
        const FrameworkGuess guess = PredictionJson::detectFramework(folder);
        m_frameworkFound
            = guess.framework != PredictionFramework::Unspecified && guess.framework != PredictionFramework::TensorFlow;
        m_framework->setText(guess.explanation);
    }
    updateComplete();
}

QStringList WizardBatchPage::inputPatterns() const
{
    QStringList patterns;
    for (const QString& p : m_inputs->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!p.trimmed().isEmpty())
            patterns << p.trimmed();
    }
    return patterns;
}

void WizardBatchPage::onInputsChanged()
{
    const QStringList patterns = inputPatterns();
    // The patterns are expanded, the files sized and the first one previewed on a worker thread (a pattern over a
    // slow or large folder must not freeze the page at every key); only the newest edit's answer is shown.
    const int generation = ++m_inputScans;
    m_matched = 0;
    updateComplete();
    auto* watcher = new QFutureWatcher<InputScan>(this);
    connect(watcher, &QFutureWatcher<InputScan>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_inputScans)
            showInputs(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([patterns] {
        InputScan scan;
        scan.patterns = patterns;
        for (const QString& pattern : patterns) {
            const QStringList files = QDir::isAbsolutePath(pattern) ? BatchInputs::expand(pattern) : QStringList();
            if (files.isEmpty())
                scan.unmatched << pattern;
            scan.files << files;
        }
        for (const QString& f : std::as_const(scan.files))
            scan.bytes += QFileInfo(f).size();
        // The first instances of the first file, as the workers will read them.
        if (!scan.files.isEmpty()) {
            QFile file(scan.files.first());
            if (file.open(QIODevice::ReadOnly)) {
                while (scan.preview.size() < PreviewInstances && !file.atEnd()) {
                    const QByteArray line = file.readLine(64 * 1024).trimmed();
                    if (!line.isEmpty())
                        scan.preview << QString::fromUtf8(line.left(400));
                }
            }
        }
        return scan;
    }));
}

void WizardBatchPage::showInputs(const InputScan& scan)
{
    m_matched = int(scan.files.size());
    QStringList problems;
    for (const QString& p : scan.patterns) {
        if (!QDir::isAbsolutePath(p))
            problems << tr("%1: give an absolute path.").arg(p);
        else if (scan.unmatched.contains(p))
            problems << tr("No file matches %1.").arg(p);
        else if (QFileInfo(p).fileName().contains(QLatin1Char('*')) && QFileInfo(p).path().contains(QLatin1Char('*')))
            problems << tr("%1: a * is allowed only in the file name.").arg(p);
    }
    setProblem(m_inputProblems, WizardUi::bulletList(problems));
    //: %n is a count of files, %1 their size ("1.2 MB").
    m_inputSummary->setText(scan.files.isEmpty()
            ? QString()
            : tr("%n file(s), %1", nullptr, int(scan.files.size())).arg(QLocale().formattedDataSize(scan.bytes)));
    // A .csv file is CSV until the user says otherwise.
    if (!scan.files.isEmpty() && scan.files.first().endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)
        && m_format->currentIndex() == 0 && !m_format->property("chosen").toBool()) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(m_format->findData(QStringLiteral("CSV")));
    }
    m_preview->setPlainText(scan.preview.join(QLatin1Char('\n')));
    updateComplete();
}

void WizardBatchPage::load(const Job& job)
{
    if (!job.predictionInput)
        return;
    const PredictionInput& in = *job.predictionInput;
    if (!in.uri.isEmpty()) {
        m_folderMode->setChecked(true);
        m_folder->setText(in.uri);
    } else {
        m_deployedMode->setChecked(true);
        // projects/P/models/M[/versions/V] → "M" or "M/V", chosen when the lists arrive.
        const std::optional<PredictionJson::ResourceName> name
            = PredictionJson::parseResourceName(in.versionName.isEmpty() ? in.modelName : in.versionName);
        m_loadedModel = !name ? QString()
            : name->version.isEmpty() ? name->model
                                      : name->model + QLatin1Char('/') + name->version;
    }
    m_inputs->setText(in.inputPaths.join(QStringLiteral(", ")));
    WizardUi::selectData(m_format, in.dataFormat, tr("%1 (not readable here)"));
    m_format->setProperty("chosen", true);
    m_output->setText(in.outputPath);
    WizardUi::selectData(
        m_outputFormat, in.outputDataFormat.isEmpty() ? QStringLiteral("JSON") : in.outputDataFormat, tr("%1"));
    m_workers->setValue(int(in.maxWorkerCount.value_or(DefaultBatchMaxWorkerCount)));
    m_batchSize->setValue(int(in.batchSize.value_or(DefaultBatchSize)));
}

void WizardBatchPage::apply(Job& job) const
{
    PredictionInput in;
    const QString project = m_wizard->client() ? m_wizard->client()->project() : defaultProjectId();
    if (m_folderMode->isChecked()) {
        in.uri = QDir::cleanPath(m_folder->text().trimmed());
    } else if (!m_model->currentText().isEmpty()) {
        const QString version = m_version->currentData().toString();
        if (version.isEmpty())
            in.modelName = PredictionJson::modelResourceName(project, m_model->currentText());
        else
            in.versionName = PredictionJson::versionResourceName(project, m_model->currentText(), version);
    }
    in.dataFormat = m_format->currentData().toString();
    if (m_outputFormat->currentData().toString() != QLatin1String("JSON"))
        in.outputDataFormat = m_outputFormat->currentData().toString();
    in.inputPaths = inputPatterns();
    in.outputPath = QDir::cleanPath(m_output->text().trimmed());
    if (m_output->text().trimmed().isEmpty())
        in.outputPath.clear();
    in.maxWorkerCount = m_workers->value();
    if (m_batchSize->value() != DefaultBatchSize)
        in.batchSize = m_batchSize->value();
    in.region = QStringLiteral("local");
    job.trainingInput = TrainingInput();
    job.predictionInput = in;
}

bool WizardBatchPage::isComplete() const
{
    const bool model = m_deployedMode->isChecked() ? !m_model->currentText().isEmpty() : m_frameworkFound;
    const QString output = m_output->text().trimmed();
    return model && m_matched > 0 && m_inputProblems->text().isEmpty() && QDir::isAbsolutePath(output);
}

QWidget* WizardBatchPage::showFieldError(const QString& field, const QString& message)
{
    if (field.contains(QLatin1String("inputPaths")) || field.endsWith(QLatin1String("dataFormat"))) {
        setProblem(m_inputProblems, message);
        return m_inputs;
    }
    if (field.contains(QLatin1String("outputPath"))) {
        setProblem(m_outputProblems, message);
        return m_output;
    }
    setProblem(m_modelProblems, message);
    return m_folderMode->isChecked() ? static_cast<QWidget*>(m_folder) : m_model;
}

void WizardBatchPage::clearFieldErrors()
{
    setProblem(m_modelProblems, QString());
    setProblem(m_outputProblems, QString());
    onInputsChanged();
}

} // namespace Trainyard
