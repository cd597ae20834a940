// SPDX-License-Identifier: GPL-2.0-or-later
#include "wizardreviewpage.h"

#include "configloader.h"
#include "submitwizard.h"
#include "yamlhighlighter.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QVBoxLayout>

namespace Trainyard {

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
