// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelpanel.h"

#include "builtinalgorithm.h"
#include "executorconnection.h"

#include <QColor>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSizePolicy>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#if TRAINYARD_HAVE_QTCHARTS
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#endif

#include <algorithm>
#include <cmath>

namespace Trainyard {

// ---- ConfusionMatrixModel ----------------------------------------------------------------------------------------

void ConfusionMatrixModel::setMatrix(const QStringList& labels, const QList<QList<qint64>>& counts)
{
    beginResetModel();
    const bool square = counts.size() == labels.size()
        && std::all_of(
            counts.cbegin(), counts.cend(), [&](const QList<qint64>& r) { return r.size() == labels.size(); });
    m_labels = square ? labels : QStringList();
    m_counts = square ? counts : QList<QList<qint64>>();
    m_rowTotals.clear();
    for (const QList<qint64>& row : std::as_const(m_counts)) {
        qint64 total = 0;
        for (qint64 c : row)
            total += c;
        m_rowTotals << total;
    }
    endResetModel();
}

int ConfusionMatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_labels.size());
}

int ConfusionMatrixModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_labels.size());
}

QVariant ConfusionMatrixModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const qint64 count = m_counts.at(index.row()).at(index.column());
    const qint64 total = m_rowTotals.at(index.row());
    const double share = total > 0 ? double(count) / double(total) : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        return QLocale().toString(count);
    case Qt::UserRole:
        return count;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignCenter);
    case Qt::BackgroundRole: {
        // A sequential blue (ColorBrewer's Blues end points) by the share of the true class.
        const QColor light(0xf7, 0xfb, 0xff), dark(0x08, 0x51, 0x9c);
        return QColor::fromRgbF(float(light.redF() + (dark.redF() - light.redF()) * share),
            float(light.greenF() + (dark.greenF() - light.greenF()) * share),
            float(light.blueF() + (dark.blueF() - light.blueF()) * share));
    }
    case Qt::ForegroundRole:
        return share > 0.5 ? QColor(Qt::white) : QColor(Qt::black);
    case Qt::ToolTipRole:
        //: %1 true class, %2 predicted class, %3 count, %4 its percentage of the true class's rows.
        return tr("True %1, predicted %2: %3 (%4 % of %1)")
            .arg(m_labels.at(index.row()), m_labels.at(index.column()), QLocale().toString(count),
                QLocale().toString(share * 100.0, 'f', 1));
    default:
        return {};
    }
}

QVariant ConfusionMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section < 0 || section >= m_labels.size())
        return {};
    if (role == Qt::DisplayRole)
        return m_labels.at(section);
    if (role == Qt::ToolTipRole)
        return orientation == Qt::Vertical ? tr("Actual class %1").arg(m_labels.at(section))
                                           : tr("Predicted class %1").arg(m_labels.at(section));
    return {};
}

// ---- ModelPanel --------------------------------------------------------------------------------------------------

ModelPanel::ModelPanel(ExecutorConnection* connection, const Job& job, QWidget* parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_job(job)
    , m_summary(new QLabel(this))
    , m_metrics(new QLabel(this))
    , m_confusionView(new QTableView(this))
    , m_confusion(new ConfusionMatrixModel(this))
    , m_chartArea(new QWidget(this))
    , m_files(new QTreeWidget(this))
{
    m_summary->setObjectName(QStringLiteral("modelSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_metrics->setObjectName(QStringLiteral("modelMetrics"));
    m_metrics->setTextFormat(Qt::RichText);
    m_metrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_confusionView->setObjectName(QStringLiteral("confusionMatrix"));
    m_confusionView->setModel(m_confusion);
    m_confusionView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_confusionView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_confusionView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_confusionView->setToolTip(tr("Rows: the true class; columns: the predicted class"));
    // As wide and tall as the matrix, no more: the charts take the rest.
    m_confusionView->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_confusionView->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Maximum);
    m_confusionView->hide();
    m_files->setObjectName(QStringLiteral("modelFiles"));
    m_files->setHeaderLabels({ tr("File"), tr("Size") });
    m_files->setRootIsDecorated(false);
    m_files->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_files->setMaximumHeight(160);
    auto* charts = new QHBoxLayout(m_chartArea);
    charts->setContentsMargins(0, 0, 0, 0);

    auto* top = new QWidget(this);
    auto* topLayout = new QHBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto* matrixColumn = new QVBoxLayout;
    // The matrix says which way it reads (issue 46: no "actual" or "predicted" anywhere).
    m_confusionTitle = new QLabel(tr("Confusion matrix: rows are the actual class, columns the predicted class"), this);
    m_confusionTitle->setObjectName(QStringLiteral("confusionTitle"));
    m_confusionTitle->setWordWrap(true);
    m_confusionTitle->hide();
    matrixColumn->addWidget(m_confusionTitle);
    matrixColumn->addWidget(m_confusionView);
    matrixColumn->addStretch(1);
    topLayout->addLayout(matrixColumn);
    topLayout->addWidget(m_chartArea, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_metrics);
    layout->addWidget(top, 1);
    auto* filesLabel = new QLabel(tr("The model folder"), this);
    layout->addWidget(filesLabel);
    layout->addWidget(m_files);
    m_summary->setText(tr("The model appears here when the job has succeeded."));
    setJob(job);
}

void ModelPanel::setJob(const Job& job)
{
    m_job = job;
    if (!m_loaded && (job.state == JobState::Failed || job.state == JobState::Cancelled)) {
        // Point to why there is no model (issue 46: it said "appears here when the job has succeeded" after a
        // failure, as if the user should wait).
        m_summary->setText(job.state == JobState::Failed
                ? tr("No model: the job failed (%1). The Overview tab has the error, and Logs the replica's lines.")
                      .arg(job.errorMessage.section(QLatin1Char('\n'), 0, 0).left(300))
                : tr("No model: the job was cancelled before it trained one."));
    }
    if (shownTrial() != m_loadedFor || (m_loadedFor.isNull() && m_job.state == JobState::Succeeded))
        load();
}

void ModelPanel::setTrial(const QString& trialId)
{
    m_trial = trialId;
    if (shownTrial() != m_loadedFor)
        load();
}

QString ModelPanel::shownTrial() const
{
    if (!m_job.trainingInput.hyperparameters)
        return QStringLiteral(""); // not null: the job's own model
    const QList<HyperparameterOutput> trials
        = m_job.trainingOutput ? m_job.trainingOutput->trials : QList<HyperparameterOutput>();
    // The selected trial when it trained a model, else the best that did (the list is best first).
    for (const HyperparameterOutput& t : trials) {
        if (t.trialId == m_trial && t.builtInAlgorithmOutput)
            return t.trialId;
    }
    for (const HyperparameterOutput& t : trials) {
        if (t.builtInAlgorithmOutput)
            return t.trialId;
    }
    return {};
}

void ModelPanel::load()
{
    const QString trial = shownTrial();
    const bool ready = m_job.trainingInput.hyperparameters ? !trial.isEmpty() : m_job.state == JobState::Succeeded;
    if (!ready || m_loading || !m_connection || !m_connection->client())
        return;
    m_loading = true;
    m_connection->client()->trainedModel(
        m_job.jobId, trial, this, [this, trial](const TrainedModel& model, const ApiError& error) {
            m_loading = false;
            if (!error.isNull()) {
                m_summary->setText(tr("The model could not be read: %1").arg(error.message));
                return;
            }
            m_loadedFor = trial;
            display(model);
            // The selection moved on while this one loaded.
            if (shownTrial() != m_loadedFor)
                load();
        });
}

void ModelPanel::display(const TrainedModel& model)
{
    m_model = model;
    m_loaded = true;
    const BuiltInAlgorithm* algorithm = BuiltInAlgorithms::forJob(m_job.trainingInput);
    const QString name = algorithm ? algorithm->name : m_job.trainingInput.masterConfig->imageUri;
    const QString split = model.split == QLatin1String("test") ? tr("the test split") : tr("the validation split");
    if (m_loadedFor.isEmpty())
        //: %1 the algorithm, %2 the framework, %3 "the test split", %n its rows, %4 the model folder.
        m_summary->setText(
            tr("%1 (framework %2), measured on %3 (%n row(s)). Model folder: %4", nullptr, int(model.rows))
                .arg(name, model.framework, split, model.modelPath));
    else
        //: %1 the trial, %2 the algorithm, %3 the framework, %4 "the test split", %5 the model folder.
        m_summary->setText(
            tr("Trial %1: %2 (framework %3), measured on %4 (%n row(s)). Model folder: %5", nullptr, int(model.rows))
                .arg(m_loadedFor, name, model.framework, split, model.modelPath));
    QStringList metrics;
    for (const auto& [metric, value] : model.metrics)
        metrics << QStringLiteral("<b>%1</b> %2").arg(metric.toHtmlEscaped(), QLocale().toString(value, 'g', 4));
    m_metrics->setText(metrics.join(QStringLiteral(" &nbsp;·&nbsp; ")));

    m_confusion->setMatrix(model.classLabels, model.confusion);
    m_confusionView->setVisible(!model.confusion.isEmpty());
    m_confusionTitle->setVisible(!model.confusion.isEmpty());

    delete m_importance;
    delete m_scatter;
    m_importance = m_scatter = nullptr;
#if TRAINYARD_HAVE_QTCHARTS
    if (!model.actualPredicted.isEmpty()) {
        // Predicted against actual, with the line a perfect model would lie on.
        auto* chart = new QChart;
        chart->setTitle(tr("Predicted against actual"));
        chart->legend()->hide();
        auto* points = new QScatterSeries;
        points->setMarkerSize(6);
        double low = model.actualPredicted.first().first, high = low, residual = 0;
        for (const auto& [actual, predicted] : model.actualPredicted) {
            points->append(actual, predicted);
            low = std::min({ low, actual, predicted });
            high = std::max({ high, actual, predicted });
            residual += std::abs(predicted - actual);
        }
        auto* diagonal = new QLineSeries;
        diagonal->append(low, low);
        diagonal->append(high, high);
        chart->addSeries(points);
        chart->addSeries(diagonal);
        auto* x = new QValueAxis;
        x->setTitleText(tr("actual"));
        x->setRange(low, high);
        auto* y = new QValueAxis;
        y->setTitleText(tr("predicted"));
        y->setRange(low, high);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries* s : { static_cast<QAbstractSeries*>(points), static_cast<QAbstractSeries*>(diagonal) }) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
        //: %1 the mean absolute residual, %n the points drawn.
        chart->setTitle(
            tr("Predicted against actual (%n point(s); mean |residual| %1)", nullptr, int(model.actualPredicted.size()))
                .arg(QLocale().toString(residual / double(model.actualPredicted.size()), 'g', 4)));
        auto* view = new QChartView(chart, m_chartArea);
        view->setObjectName(QStringLiteral("predictedVsActual"));
        view->setRenderHint(QPainter::Antialiasing);
        m_chartArea->layout()->addWidget(view);
        // Shown now, not by the layout's queued show: the panel is whole when display() returns.
        view->show();
        m_scatter = view;
    }
    if (!model.importance.isEmpty()) {
        // The columns with the most total gain, the largest on top: 15, or 10 with two bars each (Qt Charts elides
        // a category's name when its row is lower than the text).
        QList<TrainedModel::ColumnImportance> columns = model.importance;
        std::sort(
            columns.begin(), columns.end(), [](const auto& a, const auto& b) { return a.totalGain > b.totalGain; });
        columns = columns.mid(0, model.attributionMethod.isEmpty() ? 15 : 10);
        std::reverse(columns.begin(), columns.end());
        // Beside the booster's own importance, the explanations' global one (issue 47): each as a share of its
        // total, so that the two read on one axis.
        const bool attributed = !model.attributionMethod.isEmpty();
        double gainTotal = 0, attributionTotal = 0;
        for (const auto& c : std::as_const(model.importance)) {
            gainTotal += c.totalGain;
            attributionTotal += std::max(0.0, c.meanAbsAttribution);
        }
        auto* set = new QBarSet(attributed ? tr("share of total gain") : tr("total gain"));
        auto* attributionSet = attributed ? new QBarSet(tr("share of mean |attribution|")) : nullptr;
        QStringList categories;
        for (const auto& c : columns) {
            *set << (attributed ? (gainTotal > 0 ? c.totalGain / gainTotal : 0.0) : c.totalGain);
            if (attributionSet)
                *attributionSet << (attributionTotal > 0 ? std::max(0.0, c.meanAbsAttribution) / attributionTotal : 0.0);
            categories << model.columnName(c.column);
        }
        auto* series = new QHorizontalBarSeries;
        series->append(set);
        if (attributionSet)
            series->append(attributionSet);
        auto* chart = new QChart;
        chart->setTitle(attributed ? tr("Feature importance") : tr("Feature importance (total gain)"));
        chart->setToolTip(attributed
                ? tr("XGBoost's total gain of the splits on each CSV column's features, and %1 (a categorical column's "
                     "one-hot features added up), each as a share of its sum; the 10 columns with the most gain")
                      .arg(model.attributionMethod)
                : tr("XGBoost's total gain of the splits on each CSV column's features (a categorical "
                     "column's one-hot features added up), the 15 largest"));
        chart->legend()->setVisible(attributed);
        chart->legend()->setAlignment(Qt::AlignBottom);
        chart->addSeries(series);
        auto* y = new QBarCategoryAxis;
        y->append(categories);
        auto* x = new QValueAxis;
        x->setMin(0);
        x->setTickCount(3);
        x->setLabelFormat(QStringLiteral("%.3g"));
        chart->addAxis(y, Qt::AlignLeft);
        chart->addAxis(x, Qt::AlignBottom);
        series->attachAxis(y);
        series->attachAxis(x);
        auto* view = new QChartView(chart, m_chartArea);
        view->setObjectName(QStringLiteral("featureImportance"));
        view->setRenderHint(QPainter::Antialiasing);
        m_chartArea->layout()->addWidget(view);
        view->show();
        m_importance = view;
    }
#endif
    m_files->clear();
    for (const TrainedModel::File& f : model.files)
        m_files->addTopLevelItem(new QTreeWidgetItem({ f.name, locale().formattedDataSize(f.sizeBytes) }));
}

} // namespace Trainyard
