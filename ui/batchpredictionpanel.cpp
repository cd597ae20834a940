// SPDX-License-Identifier: GPL-2.0-or-later
#include "batchpredictionpanel.h"

#include "yamlhighlighter.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace Trainyard {

namespace {

constexpr int PreviewLines = 50;
constexpr qint64 PreviewBytes = 64 * 1024;

QString modelText(const PredictionInput& in)
{
    if (!in.versionName.isEmpty())
        return in.versionName;
    if (!in.modelName.isEmpty())
        return BatchPredictionPanel::tr("%1 (its default version)").arg(in.modelName);
    return BatchPredictionPanel::tr("the model folder %1").arg(in.uri);
}

} // namespace

BatchPredictionPanel::BatchPredictionPanel(const Job& job, QWidget* parent)
    : QWidget(parent)
    , m_progress(new QProgressBar(this))
    , m_counts(new QLabel(this))
    , m_source(new QLabel(this))
    , m_folder(new QLabel(this))
    , m_open(new QPushButton(tr("&Open Folder"), this))
    , m_files(new QTreeWidget(this))
    , m_preview(new QPlainTextEdit(this))
{
    m_progress->setObjectName(QStringLiteral("batchProgress"));
    m_progress->setFormat(tr("%p % of the instances"));
    m_counts->setObjectName(QStringLiteral("batchCounts"));
    m_counts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_folder->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_open->setToolTip(tr("Open the output folder in the file manager"));
    m_files->setObjectName(QStringLiteral("batchFiles"));
    m_files->setHeaderLabels({ tr("Output file"), tr("Size") });
    m_files->setRootIsDecorated(false);
    m_files->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_files->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_preview->setObjectName(QStringLiteral("batchPreview"));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setPlaceholderText(tr("Select an output file to see its first lines."));
    attachHighlighter(m_preview->document(), QStringLiteral("JSON"));

    auto* form = new QFormLayout;
    form->addRow(tr("Progress:"), m_progress);
    form->addRow(QString(), m_counts);
    form->addRow(tr("Reads:"), m_source);
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_open);
    form->addRow(tr("Writes to:"), folderRow);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_files);
    split->addWidget(m_preview);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(split, 1);

    connect(m_open, &QPushButton::clicked, this, [this] {
        if (m_job.predictionInput)
            QDesktopServices::openUrl(QUrl::fromLocalFile(m_job.predictionInput->outputPath));
    });
    connect(m_files, &QTreeWidget::currentItemChanged, this, &BatchPredictionPanel::showPreview);
    setJob(job);
}

QString BatchPredictionPanel::countsText(const PredictionOutput& out)
{
    if (!out.predictionCount)
        return {};
    const QLocale locale;
    // %Ln: the count with the locale's digit grouping, and its plural form.
    QString text = tr("%Ln prediction(s)", nullptr, int(std::min<qint64>(*out.predictionCount, INT_MAX)))
        + QStringLiteral(", ")
        + tr("%Ln error(s)", nullptr, int(std::min<qint64>(out.errorCount.value_or(0), INT_MAX)));
    if (out.inputInstanceCount)
        text += tr(" of %1 instances").arg(locale.toString(*out.inputInstanceCount));
    if (out.nodeHours) {
        // The service's unit, and what it is here: the workers' run time, summed.
        const double seconds = *out.nodeHours * 3600.0;
        const QString time = seconds < 120 ? tr("%1 s").arg(locale.toString(seconds, 'f', 1))
                                           : tr("%1 min").arg(locale.toString(seconds / 60.0, 'f', 1));
        //: %1 is a duration ("13.0 s"), %2 the same in node hours.
        text += tr("; %1 of the workers' time (%2 node hours)").arg(time, locale.toString(*out.nodeHours, 'g', 3));
    }
    return text;
}

void BatchPredictionPanel::setJob(const Job& job)
{
    m_job = job;
    if (!job.predictionInput)
        return;
    const PredictionInput& in = *job.predictionInput;
    const PredictionOutput out = job.predictionOutput.value_or(PredictionOutput {});
    const qint64 done = out.predictionCount.value_or(0) + out.errorCount.value_or(0);
    if (out.inputInstanceCount && *out.inputInstanceCount > 0) {
        // QProgressBar counts in int: per mille of the input keeps any count in range.
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(std::min<qint64>(1000, done * 1000 / *out.inputInstanceCount)));
    } else if (isFinal(job.state)) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(job.state == JobState::Succeeded ? 1000 : 0);
    } else {
        m_progress->setRange(0, 0); // counting the input, or not started
    }
    const QString counts = countsText(out);
    m_counts->setText(counts.isEmpty() ? tr("No instance predicted yet.") : counts);
    m_source->setText(tr("%1 instances from %2, with %3; batches of %4, at most %5 workers")
                          .arg(in.dataFormat, in.inputPaths.join(QStringLiteral(", ")), modelText(in))
                          .arg(in.batchSize.value_or(DefaultBatchSize))
                          .arg(in.maxWorkerCount.value_or(DefaultBatchMaxWorkerCount)));
    m_folder->setText(in.outputPath);
    refreshFiles();
}

void BatchPredictionPanel::refreshFiles()
{
    const QString folder = m_job.predictionInput->outputPath;
    const QString current = m_files->currentItem() ? m_files->currentItem()->text(0) : QString();
    const QFileInfoList entries
        = QDir(folder).entryInfoList({ BatchOutput::filePattern() }, QDir::Files, QDir::Name);
    m_open->setEnabled(QFileInfo(folder).isDir());
    // Sizes change while the job runs: the rows are updated in place, so the selection and the preview stay.
    for (const QFileInfo& info : entries) {
        const QList<QTreeWidgetItem*> found = m_files->findItems(info.fileName(), Qt::MatchExactly, 0);
        QTreeWidgetItem* item = found.isEmpty() ? new QTreeWidgetItem(m_files, { info.fileName() }) : found.first();
        item->setText(1, QLocale().formattedDataSize(info.size()));
        item->setData(1, Qt::UserRole, info.size());
        item->setToolTip(0, info.absoluteFilePath());
    }
    if (!entries.isEmpty() && !m_files->currentItem())
        m_files->setCurrentItem(m_files->topLevelItem(0));
    else if (m_files->currentItem() && m_files->currentItem()->text(0) == current)
        showPreview();
    if (entries.isEmpty())
        m_preview->setPlaceholderText(QFileInfo(folder).isDir()
                ? tr("No output file yet.")
                : tr("The output folder %1 is not on this machine (yet).").arg(folder));
}

void BatchPredictionPanel::showPreview()
{
    QTreeWidgetItem* item = m_files->currentItem();
    if (!item) {
        m_preview->clear();
        return;
    }
    QFile file(QDir(m_job.predictionInput->outputPath).filePath(item->text(0)));
    if (!file.open(QIODevice::ReadOnly)) {
        m_preview->setPlainText(tr("%1 cannot be read: %2").arg(file.fileName(), file.errorString()));
        return;
    }
    const QByteArray head = file.read(PreviewBytes);
    QList<QByteArray> lines = head.split('\n');
    if (lines.size() > PreviewLines || (head.size() == PreviewBytes && lines.size() > 1))
        lines = lines.mid(0, std::min<qsizetype>(PreviewLines, lines.size() - 1));
    const QString text = QString::fromUtf8(lines.join('\n'));
    if (text != m_preview->toPlainText())
        m_preview->setPlainText(text);
}

} // namespace Trainyard
