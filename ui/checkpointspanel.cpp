// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointspanel.h"

#include "checkpointcompare.h"
#include "checkpointmodels.h"
#include "executorconnection.h"
#include "numberformat.h"

#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <climits>
#include <cmath>

namespace Trainyard {

namespace {

QTableView* makeTable(QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}
} // namespace

TensorFilterProxyModel::TensorFilterProxyModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CheckpointSortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void TensorFilterProxyModel::setFilterText(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateRowsFilter();
}

bool TensorFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_text.isEmpty())
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    for (int role : { int(TensorTableModel::DisplayNameRole), int(TensorTableModel::TensorNameRole) }) {
        if (index.data(role).toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    const QModelIndex dtype = sourceModel()->index(sourceRow, TensorTableModel::DtypeColumn, sourceParent);
    return dtype.data().toString().contains(m_text, Qt::CaseInsensitive);
}

CheckpointsPanel::CheckpointsPanel(ExecutorConnection* connection, const Job& job, QWidget* parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_list(new CheckpointListModel(this))
    , m_tensors(new TensorTableModel(this))
    , m_tensorProxy(new TensorFilterProxyModel(this))
    , m_summary(new QLabel(this))
    , m_listView(makeTable(this))
    , m_filter(new QLineEdit(this))
    , m_tensorView(makeTable(this))
    , m_tensorTitle(new QLabel(this))
    , m_stats(new QLabel(this))
    , m_values(new QPlainTextEdit(this))
    , m_refreshButton(new QPushButton(tr("Refresh"), this))
    , m_copyPath(new QPushButton(tr("Copy path"), this))
    , m_openFolder(new QPushButton(tr("Open folder"), this))
    , m_submitFrom(new QPushButton(tr("Submit from this checkpoint…"), this))
    , m_actionStatus(new QLabel(this))
    , m_compareWith(new QComboBox(this))
    , m_lowerStack(new QStackedWidget(this))
    , m_compare(new CheckpointCompareModel(this))
    , m_compareProxy(new CheckpointCompareFilterModel(this))
    , m_compareTitle(new QLabel(this))
    , m_compareFilter(new QComboBox(this))
    , m_compareText(new QLineEdit(this))
    , m_compareAll(new QPushButton(tr("Statistics for all"), this))
    , m_compareSwap(new QPushButton(tr("Swap"), this))
    , m_compareView(makeTable(this))
{
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    // Messages wrap and never widen the tab: an error on one long line pushed its buttons out of view and left the
    // Metrics tab too wide after (issue 46). A path without spaces is cut at the pane's edge instead (it is
    // selectable, and the tooltip holds it whole).
    m_tensorTitle->setWordWrap(true);
    m_tensorTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QLabel* label : { m_summary, m_tensorTitle, m_stats, m_actionStatus, m_compareTitle })
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_refreshButton->setToolTip(tr("List the checkpoints in the job directory again"));
    m_copyPath->setToolTip(tr("Copy the selected checkpoint's path (what TensorFlow, torch.load or safetensors open)"));
    m_openFolder->setToolTip(tr("Open the folder holding the selected checkpoint in the file manager"));
    m_submitFrom->setToolTip(tr("Copy the selected checkpoint into a new job dir and open the submit wizard with "
                                "this job's settings, so the new job resumes from it"));
    m_actionStatus->setWordWrap(true);
    m_actionStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_actionStatus->setStyleSheet(QStringLiteral("color: #8f1119;"));
    m_actionStatus->hide();
    m_compareWith->setToolTip(tr("Compare the selected checkpoint (A) with another one (B)"));
    m_compareWith->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_compareWith->addItem(tr("(no comparison)"));

    m_listView->setModel(m_list);
    m_listView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_listView->horizontalHeader()->setSectionResizeMode(CheckpointListModel::NameColumn, QHeaderView::Stretch);

    m_tensorProxy->setSourceModel(m_tensors);
    m_tensorView->setModel(m_tensorProxy);
    m_tensorView->setSortingEnabled(true);
    m_tensorView->sortByColumn(-1, Qt::AscendingOrder); // the checkpoint's own order until a header is clicked
    m_tensorView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tensorView->horizontalHeader()->setSectionResizeMode(TensorTableModel::NameColumn, QHeaderView::Stretch);
    m_filter->setPlaceholderText(tr("Filter tensors by name or type"));
    m_filter->setClearButtonEnabled(true);

    m_stats->setTextFormat(Qt::RichText);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stats->setWordWrap(true);
    m_stats->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_stats->setText(tr("Select a tensor to see its statistics and first values."));
    m_values->setReadOnly(true);
    m_values->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_values->setPlaceholderText(tr("Values"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_refreshButton);
    bar->addWidget(m_copyPath);
    bar->addWidget(m_openFolder);
    bar->addWidget(m_submitFrom);
    auto* compareLabel = new QLabel(tr("Compare with:"), this);
    compareLabel->setBuddy(m_compareWith);
    bar->addWidget(compareLabel);
    bar->addWidget(m_compareWith);

    auto* tensorsBox = new QWidget(this);
    auto* tensorsLayout = new QVBoxLayout(tensorsBox);
    tensorsLayout->setContentsMargins(0, 0, 0, 0);
    tensorsLayout->addWidget(m_tensorTitle);
    tensorsLayout->addWidget(m_filter);
    tensorsLayout->addWidget(m_tensorView, 1);
    auto* valuesBox = new QWidget(this);
    auto* valuesLayout = new QVBoxLayout(valuesBox);
    valuesLayout->setContentsMargins(0, 0, 0, 0);
    valuesLayout->addWidget(m_stats);
    valuesLayout->addWidget(m_values, 1);
    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(tensorsBox);
    lower->addWidget(valuesBox);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);

    // The compare view takes the place of the tensor table while a comparison is on.
    m_compareProxy->setSourceModel(m_compare);
    m_compareView->setModel(m_compareProxy);
    m_compareView->setSortingEnabled(true);
    m_compareView->sortByColumn(-1, Qt::AscendingOrder);
    m_compareView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_compareView->horizontalHeader()->setSectionResizeMode(CheckpointCompareModel::NameColumn, QHeaderView::Stretch);
    for (auto filter : { CheckpointCompareFilterModel::Filter::All, CheckpointCompareFilterModel::Filter::Differences,
             CheckpointCompareFilterModel::Filter::Added, CheckpointCompareFilterModel::Filter::Removed,
             CheckpointCompareFilterModel::Filter::ShapeOrDtype, CheckpointCompareFilterModel::Filter::ValuesChanged,
             CheckpointCompareFilterModel::Filter::Unchanged })
        m_compareFilter->addItem(CheckpointCompareFilterModel::filterDisplayName(filter), int(filter));
    m_compareFilter->setToolTip(tr("Show the tensors with this kind of change; \"Values changed\" and "
                                   "\"Unchanged\" read the statistics of every tensor in both"));
    m_compareText->setPlaceholderText(tr("Filter tensors by name"));
    m_compareText->setClearButtonEnabled(true);
    m_compareAll->setToolTip(tr("Read the statistics of every tensor in both checkpoints, not only of those in view"));
    m_compareSwap->setToolTip(tr("Compare in the other direction (B to A)"));
    m_compareTitle->setWordWrap(true);
    m_compareTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* compareBar = new QHBoxLayout;
    compareBar->addWidget(m_compareFilter);
    compareBar->addWidget(m_compareText, 1);
    compareBar->addWidget(m_compareAll);
    compareBar->addWidget(m_compareSwap);
    auto* compareBox = new QWidget(this);
    auto* compareLayout = new QVBoxLayout(compareBox);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    compareLayout->addWidget(m_compareTitle);
    compareLayout->addLayout(compareBar);
    compareLayout->addWidget(m_compareView, 1);
    m_lowerStack->addWidget(lower);
    m_lowerStack->addWidget(compareBox);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_listView);
    split->addWidget(m_lowerStack);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_actionStatus);
    layout->addWidget(split, 1);

    connect(m_refreshButton, &QPushButton::clicked, this, &CheckpointsPanel::refresh);
    connect(m_copyPath, &QPushButton::clicked, this, &CheckpointsPanel::copyPath);
    connect(m_openFolder, &QPushButton::clicked, this, &CheckpointsPanel::openFolder);
    connect(m_filter, &QLineEdit::textChanged, m_tensorProxy, &TensorFilterProxyModel::setFilterText);
    connect(m_listView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &CheckpointsPanel::onCheckpointSelected);
    connect(m_tensorView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &CheckpointsPanel::onTensorSelected);
    connect(m_list, &QAbstractItemModel::modelReset, this, &CheckpointsPanel::updateActions);
    connect(m_submitFrom, &QPushButton::clicked, this, [this] { submitFromCheckpoint(selectedCheckpoint()); });
    connect(m_compareWith, &QComboBox::activated, this,
        [this](int index) { compareWith(m_compareWith->itemData(index).toString()); });
    connect(m_compareFilter, &QComboBox::currentIndexChanged, this, [this] {
        const auto filter = CheckpointCompareFilterModel::Filter(m_compareFilter->currentData().toInt());
        m_compareProxy->setFilter(filter);
        // These two need the statistics of every row to say anything.
        if (filter == CheckpointCompareFilterModel::Filter::ValuesChanged
            || filter == CheckpointCompareFilterModel::Filter::Unchanged)
            m_compare->requestAllStatistics();
    });
    connect(m_compareText, &QLineEdit::textChanged, m_compareProxy, &CheckpointCompareFilterModel::setFilterText);
    connect(m_compareAll, &QPushButton::clicked, m_compare, &CheckpointCompareModel::requestAllStatistics);
    connect(m_compareSwap, &QPushButton::clicked, this, [this] {
        const QString a = m_compare->checkpointA();
        const QString b = m_compare->checkpointB();
        if (a.isEmpty() || b.isEmpty())
            return;
        // B becomes the selection (A) and the old A the target; selecting restarts the comparison.
        m_compareTarget = a;
        selectCheckpoint(b);
    });
    connect(m_compare, &CheckpointCompareModel::statisticsProgress, this, &CheckpointsPanel::showCompareSummary);
    m_compare->setFetcher(
        [this](const QString& checkpoint, const QString& tensor, CheckpointCompareModel::StatisticsCallback done) {
            ApiClient* api = client();
            if (!api) {
                QTimer::singleShot(0, this, [done] { done({}, tr("not connected to an executor")); });
                return;
            }
            api->tensorValues(
                m_job.jobId, checkpoint, tensor, 0, this, [done](const TensorValues& values, const ApiError& error) {
                    done(values, error.isNull() ? QString() : error.message);
                });
        });
    // Statistics for what the compare view shows, once scrolling or sorting settles.
    m_visibleTimer.setSingleShot(true);
    m_visibleTimer.setInterval(50);
    connect(&m_visibleTimer, &QTimer::timeout, this, &CheckpointsPanel::requestVisibleStatistics);
    auto visibleChanged = [this] {
        if (isComparing())
            m_visibleTimer.start();
    };
    connect(m_compareView->verticalScrollBar(), &QScrollBar::valueChanged, this, visibleChanged);
    connect(m_compareView->verticalScrollBar(), &QScrollBar::rangeChanged, this, visibleChanged);
    connect(m_compareProxy, &QAbstractItemModel::layoutChanged, this, visibleChanged);
    connect(m_compareProxy, &QAbstractItemModel::modelReset, this, visibleChanged);
    connect(m_compareProxy, &QAbstractItemModel::rowsInserted, this, visibleChanged);
    connect(m_compareProxy, &QAbstractItemModel::rowsRemoved, this, visibleChanged);

    m_refresh.setInterval(RefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &CheckpointsPanel::refresh);
    if (m_connection)
        connect(m_connection, &ExecutorConnection::clientChanged, this, &CheckpointsPanel::refresh);

    m_job.jobId = job.jobId;
    setJob(job);
    updateActions();
    refresh();
}

CheckpointsPanel::~CheckpointsPanel()
{
    // A running copy finishes on its own (it cleans up after itself); its result is not wanted any more.
    if (m_copy)
        m_copy->disconnect(this);
}

ApiClient* CheckpointsPanel::client() const
{
    return m_connection ? m_connection->client() : nullptr;
}

void CheckpointsPanel::setJob(const Job& job)
{
    const bool dirChanged = job.trainingInput.jobDir != m_job.trainingInput.jobDir;
    const bool live = !isFinal(job.state);
    const bool wasRefreshing = m_refresh.isActive();
    m_job = job;
    if (live && !wasRefreshing)
        m_refresh.start();
    else if (!live)
        m_refresh.stop();
    // The last checkpoint is often written just before the job ends: look once more then.
    if (dirChanged || (wasRefreshing && !live))
        refresh();
}

void CheckpointsPanel::refresh()
{
    ApiClient* api = client();
    if (!api)
        return;
    if (m_listing) {
        m_listAgain = true;
        return;
    }
    m_listing = true;
    m_listAgain = false;
    api->checkpoints(m_job.jobId, this, [this](const CheckpointList& list, const ApiError& error) {
        m_listing = false;
        if (m_listAgain)
            QTimer::singleShot(0, this, &CheckpointsPanel::refresh);
        if (!error.isNull()) {
            m_summary->setText(tr("Cannot list the checkpoints: %1").arg(error.summary()));
            if (m_connection)
                m_connection->reportError(error);
            return;
        }
        m_jobDir = list.jobDir;
        const QString selected = selectedCheckpoint();
        m_list->setCheckpoints(list.checkpoints);
        updateCompareChoices();
        const int n = int(list.checkpoints.size());
        if (list.jobDir.isEmpty())
            m_summary->setText(tr("This job has no job directory, so it writes no checkpoints here."));
        else if (n == 0)
            m_summary->setText(tr("No checkpoints in %1 yet.").arg(list.jobDir));
        else {
            const int models = int(std::count_if(list.checkpoints.cbegin(), list.checkpoints.cend(),
                [](const CheckpointSummary& c) { return c.exportedModel; }));
            m_summary->setText(tr("%n checkpoint(s) in %1", nullptr, n - models).arg(list.jobDir)
                + (models > 0 ? QLatin1Char(' ') + tr("and the exported model (listed last)") : QString())
                + (list.truncated ? tr(" (the folder is too large to list completely)") : QString()));
        }

        // Follow the trainer's current (or the newest) checkpoint as new ones arrive, until the user picks one;
        // then keep theirs across refreshes. (The selection used to stay on epoch 1 while epochs 2, 3 … came.)
        // The exported model (model/model.pt) is listed last and is not followed: it was selected as the newest.
        if (!m_userPicked && n > 0) {
            const int row = m_list->defaultRow();
            if (selectedCheckpoint() != m_list->at(row)->name) {
                m_following = true;
                selectRow(row);
                m_following = false;
            }
        } else if (!selected.isEmpty() && selectedCheckpoint() != selected) {
            if (!selectRow(m_list->rowOf(selected)))
                m_shownCheckpoint.clear();
        }
        updateActions();
        emit checkpointsLoaded();
    });
}

QString CheckpointsPanel::selectedCheckpoint() const
{
    const QModelIndexList rows = m_listView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return {};
    return rows.first().data(CheckpointListModel::NameRole).toString();
}

QString CheckpointsPanel::checkpointPath(const QString& name) const
{
    if (m_jobDir.isEmpty() || name.isEmpty())
        return {};
    if (name == QLatin1String("."))
        return m_jobDir;
    return m_jobDir + QLatin1Char('/') + name;
}

QString CheckpointsPanel::checkpointFolder(const QString& name) const
{
    const QString path = checkpointPath(name);
    if (path.isEmpty())
        return {};
    const int row = m_list->rowOf(name);
    if (row >= 0 && m_list->at(row)->format == QLatin1String("tf-saved-model"))
        return path;
    return QFileInfo(path).absolutePath();
}

bool CheckpointsPanel::selectCheckpoint(const QString& name)
{
    const int row = m_list->rowOf(name);
    if (row < 0)
        return false;
    m_userPicked = true;
    return selectRow(row);
}

bool CheckpointsPanel::selectRow(int row)
{
    if (row < 0 || row >= m_list->rowCount())
        return false;
    m_listView->selectionModel()->select(
        m_list->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_listView->selectionModel()->setCurrentIndex(m_list->index(row, 0), QItemSelectionModel::NoUpdate);
    m_listView->scrollTo(m_list->index(row, 0));
    return true;
}

bool CheckpointsPanel::selectTensor(const QString& tensorName)
{
    for (int r = 0; r < m_tensorProxy->rowCount(); ++r) {
        const QModelIndex index = m_tensorProxy->index(r, 0);
        if (index.data(TensorTableModel::TensorNameRole).toString() == tensorName) {
            m_tensorView->selectionModel()->select(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_tensorView->scrollTo(index);
            return true;
        }
    }
    return false;
}

void CheckpointsPanel::onCheckpointSelected()
{
    // A selection the panel did not make itself is the user's pick: stop following the newest.
    if (!m_following && !selectedCheckpoint().isEmpty())
        m_userPicked = true;
    updateActions();
    const QString name = selectedCheckpoint();
    // Also after a refresh that re-selected the same checkpoint: the combo must not offer A itself.
    updateCompareChoices();
    if (name.isEmpty() || name == m_shownCheckpoint)
        return;
    m_shownCheckpoint = name;
    if (isComparing())
        startCompare();
    const quint64 generation = ++m_detailGeneration;
    ++m_valuesGeneration;
    m_tensors->setTensors({});
    m_values->clear();
    m_stats->setText(tr("Select a tensor to see its statistics and first values."));
    m_tensorTitle->setText(tr("Reading %1…").arg(name));
    ApiClient* api = client();
    if (!api)
        return;
    api->checkpointDetail(
        m_job.jobId, name, this, [this, generation, name](const CheckpointDetail& detail, const ApiError& error) {
            if (generation != m_detailGeneration)
                return;
            if (!error.isNull()) {
                m_tensorTitle->setText(tr("Cannot read %1: %2").arg(name, error.message));
                m_tensorTitle->setToolTip(m_tensorTitle->text());
                if (m_connection)
                    m_connection->reportError(error);
                emit tensorsLoaded(name);
                return;
            }
            m_tensors->setTensors(detail.tensors);
            const int n = int(detail.tensors.size());
            m_tensorTitle->setText(
                tr("%1: %n tensor(s), %2", nullptr, n).arg(name, QLocale().formattedDataSize(detail.totalBytes)));
            emit tensorsLoaded(name);
        });
}

void CheckpointsPanel::onTensorSelected()
{
    const QModelIndexList rows = m_tensorView->selectionModel()->selectedRows();
    if (rows.isEmpty() || m_shownCheckpoint.isEmpty())
        return;
    const QString tensor = rows.first().data(TensorTableModel::TensorNameRole).toString();
    const QString display = rows.first().data(TensorTableModel::DisplayNameRole).toString();
    const quint64 generation = ++m_valuesGeneration;
    m_stats->setText(tr("Reading %1…").arg(display.toHtmlEscaped()));
    m_values->clear();
    ApiClient* api = client();
    if (!api)
        return;
    api->tensorValues(m_job.jobId, m_shownCheckpoint, tensor, PreviewValues, this,
        [this, generation, tensor, display](const TensorValues& values, const ApiError& error) {
            if (generation != m_valuesGeneration)
                return;
            if (!error.isNull()) {
                m_stats->setText(
                    tr("<b>%1</b>: no values: %2").arg(display.toHtmlEscaped(), error.message.toHtmlEscaped()));
                if (m_connection)
                    m_connection->reportError(error);
            } else {
                showValues(values);
            }
            emit valuesLoaded(tensor);
        });
}

void CheckpointsPanel::showValues(const TensorValues& v)
{
    const QLocale locale;
    QString html = QStringLiteral("<b>%1</b> %2 %3<br><table cellspacing=\"0\" cellpadding=\"2\">")
                       .arg(v.tensor.displayName.toHtmlEscaped(), v.tensor.dtype.toHtmlEscaped(),
                           TensorTableModel::shapeText(v.tensor.shape));
    auto row = [&html](const QString& label, const QString& value) {
        html += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td></tr>").arg(label, value);
    };
    row(tr("Elements"), locale.toString(v.count));
    if (v.count > v.nanCount + v.infCount) {
        row(tr("Minimum"), formatSignificant(v.min));
        row(tr("Maximum"), formatSignificant(v.max));
        row(tr("Mean"), formatSignificant(v.mean));
        row(tr("Standard deviation"), formatSignificant(v.std));
    }
    if (v.nanCount > 0)
        row(tr("NaN"), locale.toString(v.nanCount));
    if (v.infCount > 0)
        row(tr("±Inf"), locale.toString(v.infCount));
    html += QStringLiteral("</table>");
    m_stats->setText(html);

    QStringList shown;
    shown.reserve(v.values.size());
    for (double x : v.values)
        shown.append(formatSignificant(x));
    QString text = shown.join(QStringLiteral(", "));
    if (v.count > v.values.size())
        text += QLatin1Char('\n')
            + tr("… and %n more", nullptr, int(std::min<qint64>(v.count - v.values.size(), INT_MAX)));
    m_values->setPlainText(text);
}

void CheckpointsPanel::copyPath()
{
    const QString path = checkpointPath(selectedCheckpoint());
    if (path.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(path);
    emit message(tr("Copied %1").arg(path));
}

void CheckpointsPanel::openFolder()
{
    const QString folder = checkpointFolder(selectedCheckpoint());
    if (folder.isEmpty())
        return;
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(folder)))
        emit message(tr("No application could open %1.").arg(folder));
}

void CheckpointsPanel::updateActions()
{
    const bool selected = !selectedCheckpoint().isEmpty() && !m_jobDir.isEmpty();
    m_copyPath->setEnabled(selected);
    m_openFolder->setEnabled(selected);
    m_submitFrom->setEnabled(selected && !isCopying());
    m_compareWith->setEnabled(m_list->rowCount() > 1 && !selectedCheckpoint().isEmpty());
}

bool CheckpointsPanel::isComparing() const
{
    return !m_compareTarget.isEmpty();
}

bool CheckpointsPanel::isCopying() const
{
    return m_copy != nullptr;
}

void CheckpointsPanel::updateCompareChoices()
{
    // Item 0 is "(no comparison)"; the rest are the listed checkpoints but the selected one (A).
    const QString selected = selectedCheckpoint();
    QStringList names;
    for (const CheckpointSummary& c : m_list->checkpoints()) {
        if (c.name != selected)
            names << c.name;
    }
    QStringList shown;
    for (int i = 1; i < m_compareWith->count(); ++i)
        shown << m_compareWith->itemData(i).toString();
    if (shown != names) {
        const QSignalBlocker blocker(m_compareWith);
        while (m_compareWith->count() > 1)
            m_compareWith->removeItem(1);
        for (const QString& name : std::as_const(names))
            m_compareWith->addItem(name, name);
    }
    if (isComparing() && !names.contains(m_compareTarget)) {
        // B disappeared from the listing, or became A: the comparison is over.
        m_compareTarget.clear();
        ++m_compareGeneration;
        m_compare->clear();
        m_lowerStack->setCurrentIndex(0);
    }
    const int index = isComparing() ? m_compareWith->findData(m_compareTarget) : 0;
    const QSignalBlocker blocker(m_compareWith);
    m_compareWith->setCurrentIndex(std::max(0, index));
    updateActions();
}

bool CheckpointsPanel::compareWith(const QString& name)
{
    if (name.isEmpty()) {
        m_compareTarget.clear();
        ++m_compareGeneration;
        m_compare->clear();
        m_lowerStack->setCurrentIndex(0);
        updateCompareChoices();
        return true;
    }
    if (m_list->rowOf(name) < 0 || name == selectedCheckpoint() || selectedCheckpoint().isEmpty())
        return false;
    m_compareTarget = name;
    updateCompareChoices();
    startCompare();
    return true;
}

void CheckpointsPanel::startCompare()
{
    const QString a = selectedCheckpoint();
    const QString b = m_compareTarget;
    const quint64 generation = ++m_compareGeneration;
    m_compare->clear();
    m_lowerStack->setCurrentIndex(1);
    m_compareTitle->setText(tr("Reading %1 and %2…").arg(a, b));
    ApiClient* api = client();
    if (!api || a.isEmpty() || b.isEmpty())
        return;
    // Both answers are needed; whichever comes second builds the comparison.
    auto details = std::make_shared<std::pair<std::optional<CheckpointDetail>, std::optional<CheckpointDetail>>>();
    auto failed = std::make_shared<bool>(false);
    auto onDetail
        = [this, generation, details, failed, a, b](bool isB, const CheckpointDetail& detail, const ApiError& error) {
              if (generation != m_compareGeneration || *failed)
                  return;
              if (!error.isNull()) {
                  *failed = true;
                  m_compareTitle->setText(tr("Cannot read %1: %2").arg(isB ? b : a, error.message));
                  if (m_connection)
                      m_connection->reportError(error);
                  emit compareLoaded();
                  return;
              }
              (isB ? details->second : details->first) = detail;
              if (!details->first || !details->second)
                  return;
              m_compare->setCheckpoints(*details->first, *details->second);
              showCompareSummary();
              m_visibleTimer.start();
              emit compareLoaded();
          };
    api->checkpointDetail(
        m_job.jobId, a, this, [onDetail](const CheckpointDetail& d, const ApiError& e) { onDetail(false, d, e); });
    api->checkpointDetail(
        m_job.jobId, b, this, [onDetail](const CheckpointDetail& d, const ApiError& e) { onDetail(true, d, e); });
}

void CheckpointsPanel::showCompareSummary()
{
    if (m_compare->checkpointA().isEmpty())
        return;
    using Change = CheckpointCompareModel::Change;
    const QMap<Change, int> counts = m_compare->counts();
    QStringList parts;
    for (Change change : { Change::Added, Change::Removed, Change::ShapeChanged, Change::DtypeChanged,
             Change::ValuesChanged, Change::Unchanged, Change::NotCompared }) {
        if (const int n = counts.value(change))
            parts << QStringLiteral("%1 %2").arg(
                QLocale().toString(n), CheckpointCompareModel::changeDisplayName(change));
    }
    QString text = tr("From A = %1 to B = %2: %3")
                       .arg(m_compare->checkpointA(), m_compare->checkpointB(),
                           parts.isEmpty() ? tr("no tensors") : parts.join(QStringLiteral(", ")));
    const int pending = m_compare->queued() + m_compare->inFlight();
    if (pending > 0)
        text += tr(" (reading statistics: %n left)", nullptr, pending);
    m_compareTitle->setText(text);
}

void CheckpointsPanel::requestVisibleStatistics()
{
    if (!isComparing() || m_compareProxy->rowCount() == 0)
        return;
    const int first = std::max(0, m_compareView->rowAt(0));
    int last = m_compareView->rowAt(m_compareView->viewport()->height() - 1);
    if (last < 0)
        last = m_compareProxy->rowCount() - 1;
    QList<int> rows;
    rows.reserve(last - first + 1);
    for (int r = first; r <= last; ++r)
        rows.append(m_compareProxy->mapToSource(m_compareProxy->index(r, 0)).row());
    m_compare->requestStatistics(rows);
    showCompareSummary();
}

bool CheckpointsPanel::submitFromCheckpoint(const QString& name, const QString& targetJobDir)
{
    const int row = m_list->rowOf(name);
    if (row < 0 || m_jobDir.isEmpty() || isCopying())
        return false;
    Job job = m_job;
    job.jobId = suggestJobIdFrom(m_job.jobId, QDateTime::currentDateTime());
    const QString target = targetJobDir.isEmpty() ? suggestCheckpointJobDir(m_jobDir, job.jobId) : targetJobDir;
    job.trainingInput.jobDir = target;
    m_copyJob = job;
    m_copyCheckpoint = name;
    m_actionStatus->hide();
    m_actionStatus->clear();
    emit message(tr("Copying %1 to %2…").arg(name, target));
    m_copy = new QFutureWatcher<CheckpointCopyResult>(this);
    connect(m_copy, &QFutureWatcher<CheckpointCopyResult>::finished, this, &CheckpointsPanel::onCopyFinished);
    m_copy->setFuture(QtConcurrent::run(copyCheckpoint, m_jobDir, *m_list->at(row), target));
    updateActions();
    return true;
}

void CheckpointsPanel::onCopyFinished()
{
    const CheckpointCopyResult result = m_copy->result();
    m_copy->deleteLater();
    m_copy = nullptr;
    updateActions();
    if (!result.ok()) {
        const QString text = tr("Could not copy %1 for a new job: %2").arg(m_copyCheckpoint, result.error);
        m_actionStatus->setText(text);
        m_actionStatus->show();
        emit message(text);
        emit submitFromCheckpointFailed(result.error);
        return;
    }
    Job job = m_copyJob;
    job.trainingInput.jobDir = result.jobDir;
    emit message(tr("Copied %1 to %2").arg(m_copyCheckpoint, result.jobDir));
    emit submitFromCheckpointRequested(job, m_copyCheckpoint);
}

} // namespace Trainyard
