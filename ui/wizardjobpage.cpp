// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardjobpage.h"

#include "machinecatalog.h"
#include "submitwizard.h"
#include "wizardapppage.h"
#include "wizardpage_p.h"

#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSet>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace Trainyard {

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
    , m_batchPredict(new QRadioButton(tr("Batch p&rediction: a model predicts the instances of files"), this))
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
    m_batchPredict->setObjectName(QStringLiteral("batchPrediction"));
    m_batchPredict->setWhatsThis(tr("<b>Batch prediction</b> (<tt>predictionInput</tt>): a job whose workers predict "
                                    "every instance of your files with a deployed model or a model folder."));
    auto* trainColumn = new QVBoxLayout;
    trainColumn->addWidget(m_trainApp);
    trainColumn->addWidget(m_trainBuiltIn);
    trainColumn->addWidget(m_batchPredict);
    form->addRow(tr("Job type:"), trainColumn);
    layout->addLayout(form);
    connect(m_trainBuiltIn, &QRadioButton::toggled, this, [this](bool on) {
        if (WizardAppPage* app = m_wizard->appPage())
            app->setAlgorithmMode(on);
    });
    // The title says which job and how many steps.
    connect(m_batchPredict, &QRadioButton::toggled, m_wizard, &SubmitWizard::updateTitle);

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
    setTabOrder(m_trainBuiltIn, m_batchPredict);
    setTabOrder(m_batchPredict, m_labels);
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

int WizardJobPage::nextId() const
{
    return m_batchPredict->isChecked() ? SubmitWizard::BatchPageId : SubmitWizard::AppPageId;
}

void WizardJobPage::load(const Job& job)
{
    if (job.predictionInput)
        m_batchPredict->setChecked(true);
    else if (m_batchPredict->isChecked())
        m_trainApp->setChecked(true);
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
    setProblem(m_jobIdProblems, id.isEmpty() && !m_idEdited ? QString() : WizardUi::bulletList(problems));
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
    setProblem(m_labelProblems, WizardUi::bulletList(problems));
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

void WizardJobPage::showBuiltIn(bool builtIn)
{
    // The App page's mode (which it re-applies, e.g. when errors are cleared) says nothing about a batch job.
    if (m_batchPredict->isChecked())
        return;
    const QSignalBlocker a(m_trainApp), b(m_trainBuiltIn);
    (builtIn ? m_trainBuiltIn : m_trainApp)->setChecked(true);
}

void WizardJobPage::initializePage()
{
    // After QWizard has shown the page and picked its own focus widget.
    QTimer::singleShot(0, m_jobId, [edit = m_jobId] { edit->setFocus(Qt::OtherFocusReason); });
}

} // namespace Trainyard
