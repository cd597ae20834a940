// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelsview.h"

#include "explanationspanel.h"

#include "versionchartspanel.h"
#include "versiondetailspanel.h"

#include "apiclient.h"
#include "modellistfeed.h"
#include "predictionclient.h"
#include "deploydialog.h"
#include "deployedmodelsmodel.h"

#include "wheelguard.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextCursor>
#include <QTime>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace Trainyard {

namespace {

/// What a failed call says, for the view's messages.
QString reason(const ApiError& error)
{
    return error.message.isEmpty() ? error.status : error.message;
}

} // namespace

ModelsView::ModelsView(QWidget* parent)
    : QWidget(parent)
    , m_model(new DeployedModelsModel(this))
    , m_tree(new QTreeView(this))
    , m_status(new QLabel(this))
    , m_newModel(new QPushButton(tr("&New Model…"), this))
    , m_deploy(new QPushButton(tr("&Deploy…"), this))
    , m_setDefault(new QPushButton(tr("Set De&fault"), this))
    , m_delete(new QPushButton(tr("De&lete…"), this))
    , m_refresh(new QPushButton(tr("&Refresh"), this))
    , m_target(new QLabel(this))
    , m_instances(new QPlainTextEdit(this))
    , m_predict(new QPushButton(tr("&Predict"), this))
    , m_explain(new QPushButton(tr("E&xplain"), this))
    , m_predictions(new QTableWidget(this))
    , m_explanations(new ExplanationsPanel(this))
    , m_latency(new QLabel(this))
    , m_log(new QPlainTextEdit(this))
{
    installWheelGuard(); // its fields take the wheel only when focused
    setObjectName(QStringLiteral("modelsView"));
    m_tree->setObjectName(QStringLiteral("modelsTree"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->header()->setStretchLastSection(true);
    m_status->setObjectName(QStringLiteral("modelsStatus"));
    m_status->setWordWrap(true);
    m_newModel->setObjectName(QStringLiteral("modelsNew"));
    m_deploy->setObjectName(QStringLiteral("modelsDeploy"));
    m_setDefault->setObjectName(QStringLiteral("modelsSetDefault"));
    m_delete->setObjectName(QStringLiteral("modelsDelete"));
    m_refresh->setObjectName(QStringLiteral("modelsRefresh"));
    m_instances->setObjectName(QStringLiteral("predictInstances"));
    m_instances->setPlaceholderText(tr("One instance per line: a JSON value ([1.5, 2.0, …]), or a CSV row of the "
                                       "training table for a built-in algorithm's model"));
    m_instances->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_predict->setObjectName(QStringLiteral("predictButton"));
    m_explain->setObjectName(QStringLiteral("explainButton"));
    m_predictions->setObjectName(QStringLiteral("predictResults"));
    m_predictions->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_predictions->horizontalHeader()->setStretchLastSection(true);
    m_predictions->verticalHeader()->hide();
    m_latency->setObjectName(QStringLiteral("predictLatency"));
    m_target->setObjectName(QStringLiteral("predictTarget"));
    m_target->setWordWrap(true);

    // Buttons keep their text whole; the status line gives way (issue 46: at 1024×700 "New Model…" read "lew
    // Model."), and the tree keeps room for a few rows when the dock is short (it showed a row and a half).
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : { m_newModel, m_deploy, m_setDefault, m_delete, m_refresh })
        b->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    for (QPushButton* b : { m_newModel, m_deploy, m_setDefault, m_delete })
        buttons->addWidget(b);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_tree->setMinimumHeight(m_tree->fontMetrics().height() * 7);
    buttons->addStretch(1);
    buttons->addWidget(m_status, 4);
    buttons->addWidget(m_refresh);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_tree, 1);
    topLayout->addLayout(buttons);

    m_log->setObjectName(QStringLiteral("versionLog"));
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setPlaceholderText(tr("Select a version to see its log: its nodes' starts, exits and output, and each "
                                 "request when the model logs predictions."));
    auto* predictBox = new QWidget(this);
    auto* predictLayout = new QVBoxLayout(predictBox);
    auto* predictBar = new QHBoxLayout;
    predictBar->addWidget(m_target, 1);
    predictBar->addWidget(m_latency);
    predictBar->addWidget(m_predict);
    predictBar->addWidget(m_explain);
    // A built-in model's columns: a form that makes an instance (issue 30's "a form of the training columns").
    m_formBox = new QWidget(predictBox);
    m_formBox->setObjectName(QStringLiteral("columnForm"));
    auto* formLayout = new QVBoxLayout(m_formBox);
    formLayout->setContentsMargins(0, 0, 0, 0);
    auto* formScroll = new QScrollArea(m_formBox);
    formScroll->setWidgetResizable(true);
    m_form = new QWidget(formScroll);
    new QFormLayout(m_form);
    formScroll->setWidget(m_form);
    auto* addRow = new QPushButton(tr("&Add as Instance"), m_formBox);
    addRow->setObjectName(QStringLiteral("addFormRow"));
    addRow->setToolTip(tr("Append the form's values to the instances as one row (an empty field: a missing value)"));
    formLayout->addWidget(formScroll, 1);
    formLayout->addWidget(addRow);
    connect(addRow, &QPushButton::clicked, this, &ModelsView::addFormRow);
    m_formBox->setMinimumWidth(330); // a label and a number side by side
    m_formBox->hide();
    auto* predictSplit = new QSplitter(Qt::Horizontal, predictBox);
    predictSplit->addWidget(m_formBox);
    predictSplit->addWidget(m_instances);
    predictSplit->addWidget(m_predictions);
    // The explanations below the instances and answers, hidden until the first Explain.
    auto* explainSplit = new QSplitter(Qt::Vertical, predictBox);
    explainSplit->setObjectName(QStringLiteral("explainSplit"));
    explainSplit->addWidget(predictSplit);
    explainSplit->addWidget(m_explanations);
    explainSplit->setStretchFactor(0, 1);
    explainSplit->setStretchFactor(1, 2);
    m_explanations->hide();
    predictLayout->addLayout(predictBar);
    predictLayout->addWidget(explainSplit, 1);

    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("versionTabs"));
    tabs->addTab(predictBox, tr("Predict"));
    m_details = new VersionDetailsPanel(this);
    m_details->setObjectName(QStringLiteral("versionDetails"));
    tabs->addTab(m_details, tr("Details"));
    tabs->addTab(m_log, tr("Log"));
    m_charts = new VersionChartsPanel(this);
    m_charts->setObjectName(QStringLiteral("versionCharts"));
    tabs->addTab(m_charts, tr("Charts"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    m_poll.setInterval(5000);
    connect(&m_poll, &QTimer::timeout, this, &ModelsView::poll);
    m_feed = new ModelListFeed(this);
    connect(m_feed, &ModelListFeed::changed, this, &ModelsView::applyFeed);
    connect(m_feed, &ModelListFeed::ratesChanged, this, [this](const VersionRates& rates) {
        for (auto it = rates.perSecond.cbegin(); it != rates.perSecond.cend(); ++it)
            m_model->setRequestRate(it.key(), it.value());
    });
    connect(m_refresh, &QPushButton::clicked, this, &ModelsView::refresh);
    connect(m_newModel, &QPushButton::clicked, this, &ModelsView::createModel);
    connect(m_deploy, &QPushButton::clicked, this, [this] { deploy(); });
    connect(m_setDefault, &QPushButton::clicked, this, &ModelsView::setDefault);
    connect(m_delete, &QPushButton::clicked, this, &ModelsView::deleteSelected);
    connect(m_predict, &QPushButton::clicked, this, &ModelsView::predict);
    connect(m_explain, &QPushButton::clicked, this, &ModelsView::explain);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::updateActions);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::refreshLog);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::loadInputSchema);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::showDetails);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::refreshCharts);
    // A cell that grows later (Last use: "never", then a date) widens its column as a reset does (it was cut to
    // "1 Dec …").
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from, const QModelIndex& to) {
        for (int c = from.column(); c <= to.column() && c < DeployedModelsModel::ColumnCount - 1; ++c)
            m_tree->resizeColumnToContents(c);
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_tree->expandAll();
        for (int c = 0; c < DeployedModelsModel::ColumnCount - 1; ++c)
            m_tree->resizeColumnToContents(c);
        if (!m_selectModel.isEmpty())
            select(m_selectModel, m_selectVersion);
        updateActions();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ModelsView::updateActions);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ModelsView::showDetails);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ModelsView::showDetails);
    updateActions();
}

void ModelsView::showDetails()
{
    m_details->setVersion(currentVersion());
}

std::optional<VersionResource> ModelsView::currentVersion() const
{
    const QModelIndex current = m_tree->currentIndex();
    if (std::optional<VersionResource> version = m_model->versionAt(current))
        return version;
    // A model row: its default version, as predicting on a model uses it.
    const std::optional<ModelResource> model = m_model->modelAt(current);
    if (!model || model->defaultVersion.isEmpty())
        return std::nullopt;
    return m_model->versionAt(m_model->indexOf(model->name, model->defaultVersion));
}

void ModelsView::setClient(ApiClient* client)
{
    m_feed->close();
    m_client = client;
    m_pending = false;
    if (!client) {
        m_poll.stop();
        return;
    }
    m_poll.setInterval(5000);
    m_poll.start();
    m_feed->open(client);
}

bool ModelsView::isFollowing() const
{
    return m_feed->isSynced();
}

void ModelsView::applyFeed()
{
    m_poll.setInterval(5000); // the fallback's quicker reads are over
    m_model->setContents(m_feed->models(), m_feed->versions());
    m_status->setText(tr("Updated %1").arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
    updateActions();
    refreshLog();
    loadInputSchema();
    emit refreshed();
}

void ModelsView::poll()
{
    if (m_feed->isSynced()) {
        refreshLog(); // the list and the rates come with the stream
        return;
    }
    m_feed->open(m_client);
    refresh();
}

void ModelsView::refresh()
{
    if (!m_client || m_pending)
        return;
    m_pending = true;
    ApiClient* client = m_client;
    PredictionClient(client).listModels(
        {}, 100, {}, this, [this, client](const ModelPage& page, const ApiError& error) {
            if (client != m_client)
                return;
            if (!error.isNull()) {
                m_pending = false;
                m_status->setText(tr("Could not read the models: %1").arg(reason(error)));
                return;
            }
            auto models = std::make_shared<QList<ModelResource>>(page.models);
            auto versions = std::make_shared<QHash<QString, QList<VersionResource>>>();
            auto left = std::make_shared<int>(int(models->size()));
            auto finish = [this, models, versions] {
                m_pending = false;
                m_model->setContents(*models, *versions);
                m_status->setText(tr("Updated %1").arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
                if (!m_feed->isSynced()) {
                    // No stream: the next read comes sooner while a version is being made or removed.
                    m_poll.setInterval(m_model->hasPendingVersions() ? 1000 : 5000);
                    refreshRates();
                }
                updateActions();
                refreshLog();
                loadInputSchema();
                emit refreshed();
            };
            if (models->isEmpty()) {
                finish();
                return;
            }
            for (const ModelResource& m : std::as_const(*models)) {
                PredictionClient(client).listVersions(m.name, {}, 100, {}, this,
                    [this, client, name = m.name, versions, left, finish](const VersionPage& page, const ApiError&) {
                        if (client != m_client)
                            return;
                        (*versions)[name] = page.versions;
                        if (--*left == 0)
                            finish();
                    });
            }
        });
}

void ModelsView::refreshRates()
{
    if (!m_client)
        return;
    // Each READY version's latest 10 s, for the tree's Requests column (a handful of versions: one read each).
    for (int m = 0; m < m_model->rowCount(); ++m) {
        const QModelIndex modelRow = m_model->index(m, 0);
        for (int v = 0; v < m_model->rowCount(modelRow); ++v) {
            const std::optional<VersionResource> version = m_model->versionAt(m_model->index(v, 0, modelRow));
            if (!version || version->state != VersionState::Ready)
                continue;
            const QString name = version->resourceName();
            PredictionClient(m_client).versionMetrics(version->model, version->name, this,
                [this, name](const VersionMetrics& metrics, const ApiError& error) {
                    if (error.isNull())
                        m_model->setRequestRate(name, metrics.latestRequestsPerSecond());
                });
        }
    }
}

void ModelsView::loadInputSchema()
{
    const QModelIndex current = m_tree->currentIndex();
    const std::optional<ModelResource> model = m_model->modelAt(current);
    std::optional<VersionResource> version = m_model->versionAt(current);
    const QString versionName = version ? version->name : (model ? model->defaultVersion : QString());
    if (!m_client || !model || versionName.isEmpty()) {
        m_schemaFor.clear();
        m_schemaLoaded = m_schemaPending = false;
        buildForm({});
        return;
    }
    const QString shown = model->name + QLatin1Char('/') + versionName;
    // Asked again after a refusal: a version selected while it is CREATING has no schema yet, and the tree's next
    // update (READY) must bring the form (a fresh-clone run missed it when the selection came before READY).
    if (shown == m_schemaFor && (m_schemaLoaded || m_schemaPending))
        return;
    m_schemaFor = shown;
    m_schemaLoaded = false;
    m_schemaPending = true;
    PredictionClient(m_client).inputSchema(
        model->name, versionName, this, [this, shown](const InputSchema& schema, const ApiError& error) {
            if (shown != m_schemaFor)
                return; // another selection's answer follows
            m_schemaPending = false;
            m_schemaLoaded = error.isNull();
            buildForm(error.isNull() ? schema : InputSchema());
        });
}

void ModelsView::buildForm(const InputSchema& schema)
{
    auto* layout = static_cast<QFormLayout*>(m_form->layout());
    while (layout->rowCount() > 0)
        layout->removeRow(0);
    m_formFields.clear();
    for (const InputSchema::Column& c : schema.columns) {
        const QString& type = c.type;
        if (type == QLatin1String("target"))
            continue;
        const int number = c.column;
        QWidget* field = nullptr;
        if (type == QLatin1String("categorical") && !c.vocabulary.isEmpty()) {
            auto* box = new QComboBox(m_form);
            box->setEditable(true); // a category not seen in training is a value too (the model treats it as unseen)
            box->addItem(QString());
            box->addItems(c.vocabulary);
            field = box;
        } else {
            auto* edit = new QLineEdit(m_form);
            if (type == QLatin1String("numeric"))
                //: The field of a numeric column: %1 is the training data's mean, used when the field is empty.
                edit->setPlaceholderText(tr("mean %1").arg(QLocale().toString(c.mean.value_or(0), 'g', 4)));
            else if (type == QLatin1String("key") || type == QLatin1String("constant"))
                edit->setPlaceholderText(tr("(not used by the model)"));
            field = edit;
        }
        field->setProperty("columnType", type);
        //: A form row's label: %1 is the column's number in the training CSV (the target is column 1), %2 its type.
        layout->addRow(tr("Column %1 (%2):").arg(number).arg(type), field);
        m_formFields << field;
    }
    m_formBox->setVisible(!m_formFields.isEmpty());
    emit columnFormChanged();
}

void ModelsView::addFormRow()
{
    QJsonArray row;
    for (QWidget* field : std::as_const(m_formFields)) {
        const auto* box = qobject_cast<QComboBox*>(field);
        const QString text = (box ? box->currentText() : static_cast<QLineEdit*>(field)->text()).trimmed();
        bool number = false;
        const double value = QLocale::c().toDouble(text, &number);
        // A numeric column's number as a number; text (a category, or an empty missing value) as text.
        if (number && field->property("columnType").toString() == QLatin1String("numeric"))
            row.append(value);
        else
            row.append(text);
    }
    m_instances->appendPlainText(QString::fromUtf8(QJsonDocument(row).toJson(QJsonDocument::Compact)));
}

void ModelsView::refreshCharts()
{
    const std::optional<VersionResource> v = currentVersion();
    if (!m_client || !v) {
        m_charts->setMetrics(std::nullopt);
        return;
    }
    if (m_chartsPending)
        return;
    m_chartsPending = true;
    const QString shown = v->resourceName();
    PredictionClient(m_client).versionMetrics(
        v->model, v->name, this, [this, shown](const VersionMetrics& metrics, const ApiError& error) {
            m_chartsPending = false;
            const std::optional<VersionResource> now = currentVersion();
            if (!now || now->resourceName() != shown || !error.isNull())
                return;
            m_charts->setMetrics(metrics);
            m_details->setMetrics(metrics);
            // The selected version's row says what its chart says (the stream's rates are a few seconds older).
            m_model->setRequestRate(shown, metrics.latestRequestsPerSecond());
            emit chartsRefreshed();
        });
}

void ModelsView::refreshLog()
{
    refreshCharts();
    const std::optional<VersionResource> v = m_model->versionAt(m_tree->currentIndex());
    if (!m_client || !v) {
        m_log->clear();
        return;
    }
    if (m_logPending)
        return;
    m_logPending = true;
    const QString shown = v->resourceName();
    PredictionClient(m_client).versionLogs(
        v->model, v->name, 200, this, [this, shown](const VersionLogPage& page, const ApiError& error) {
            m_logPending = false;
            const std::optional<VersionResource> now = m_model->versionAt(m_tree->currentIndex());
            if (!now || now->resourceName() != shown)
                return; // another version was selected meanwhile; its own read follows
            QStringList lines;
            for (const VersionLogPage::Line& e : page.entries)
                lines << e.timestamp + QLatin1Char(' ') + e.text;
            const QString text = error.isNull() ? lines.join(QLatin1Char('\n'))
                                                : tr("Could not read the log: %1").arg(reason(error));
            if (m_log->toPlainText() != text) {
                m_log->setPlainText(text);
                m_log->moveCursor(QTextCursor::End);
            }
            emit logRefreshed();
        });
}

void ModelsView::select(const QString& model, const QString& version)
{
    m_selectModel = model;
    m_selectVersion = version;
    const QModelIndex index = m_model->indexOf(model, version);
    if (!index.isValid())
        return;
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index);
    m_selectModel.clear();
    m_selectVersion.clear();
}

void ModelsView::updateActions()
{
    const QModelIndex current = m_tree->currentIndex();
    const std::optional<ModelResource> model = m_model->modelAt(current);
    const std::optional<VersionResource> version = m_model->versionAt(current);
    const bool connected = m_client;
    m_newModel->setEnabled(connected);
    m_deploy->setEnabled(connected);
    m_setDefault->setEnabled(connected && version && !version->isDefault && version->state == VersionState::Ready);
    m_delete->setEnabled(connected && model.has_value());
    QString target;
    bool ready = false;
    if (version) {
        target = tr("Version %1 of %2 (%3)")
                     .arg(version->name, version->model, PredictionJson::versionStateName(version->state));
        ready = version->state == VersionState::Ready;
    } else if (model && !model->defaultVersion.isEmpty()) {
        target = tr("Model %1: its default version, %2").arg(model->name, model->defaultVersion);
        ready = true;
    } else if (model) {
        target = tr("Model %1 has no version yet: deploy one.").arg(model->name);
    } else {
        target = tr("Select a model or a version to predict with.");
    }
    m_target->setText(target);
    m_predict->setEnabled(connected && ready);
    // Explain needs a version with an explanationConfig (a model row: its default version's).
    const std::optional<VersionResource> explained = currentVersion();
    const bool explainable = explained && explained->explanationConfig.has_value();
    m_explain->setEnabled(connected && ready && explainable);
    m_explain->setToolTip(!explained ? tr("Select a version to explain its predictions.")
            : explainable
            ? tr("Explain the instances with %1: each feature's share of the prediction")
                  .arg(ExplanationConfig::methodKey(explained->explanationConfig->method))
            : tr("Version %1 has no explanation method: deploy a version with one (Deploy…, Explanations) to explain "
                 "its predictions.")
                  .arg(explained->name));
}

void ModelsView::createModel()
{
    if (!m_client)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("New Model"),
        tr("Name (a letter first, then letters, digits and underscores):"), QLineEdit::Normal, QString(), &ok)
                             .trimmed();
    if (!ok || name.isEmpty())
        return;
    ModelResource asked;
    asked.name = name;
    PredictionClient(m_client).createModel(asked, this, [this, name](const ModelResource&, const ApiError& error) {
            if (!error.isNull()) {
                QMessageBox::warning(
                    this, tr("New Model"), tr("Could not create model %1: %2").arg(name, reason(error)));
                return;
            }
            m_selectModel = name;
            refresh();
        });
}

void ModelsView::deploy(const QString& folder, const QString& jobId)
{
    if (!m_client)
        return;
    QMap<QString, QStringList> versions;
    for (const ModelResource& m : m_model->models())
        versions.insert(m.name, m_model->versionNames(m.name));
    const std::optional<ModelResource> current = m_model->modelAt(m_tree->currentIndex());
    // A job's model is proposed under the job's name (issue 46: the selected model and its "v1" were proposed for
    // an unrelated job, and refused).
    const QString proposed
        = !jobId.isEmpty() ? DeployDialog::modelNameFor(jobId) : (current ? current->name : QString());
    DeployDialog dialog(versions, folder, proposed, this);
    QPointer<DeployDialog> guard(&dialog);
    connect(&dialog, &DeployDialog::deployRequested, this, [this, guard] {
        if (!guard)
            return;
        const QString model = guard->modelName();
        const VersionResource version = guard->version();
        guard->setBusy(true);
        if (!guard->isNewModel()) {
            createVersion(model, version, guard);
            return;
        }
        ModelResource asked;
        asked.name = model;
        PredictionClient(m_client).createModel(
            asked, this, [this, model, version, guard](const ModelResource&, const ApiError& error) {
                if (!error.isNull()) {
                    const QString message = tr("Could not create model %1: %2").arg(model, reason(error));
                    if (guard)
                        guard->showRefusal(message);
                    else
                        QMessageBox::warning(this, tr("Deploy"), message);
                    return;
                }
                createVersion(model, version, guard);
            });
    });
    dialog.exec();
}

void ModelsView::createVersion(const QString& model, VersionResource version, QPointer<DeployDialog> dialog)
{
    if (!m_client)
        return;
    version.project = m_client->project();
    version.model = model;
    PredictionClient(m_client).createVersion(
        version, this, [this, model, name = version.name, dialog](const OperationResource&, const ApiError& error) {
            if (!error.isNull()) {
                const QString message = tr("Could not deploy version %1 of %2: %3").arg(name, model, reason(error));
                if (dialog)
                    dialog->showRefusal(message);
                else
                    QMessageBox::warning(this, tr("Deploy"), message);
                // The model may have been created first: the tree shows it.
                refresh();
                return;
            }
            if (dialog)
                dialog->accept();
            m_status->setText(tr("Deploying version %1 of %2…").arg(name, model));
            m_selectModel = model;
            m_selectVersion = name;
            refresh();
        });
}

void ModelsView::setDefault()
{
    const std::optional<VersionResource> v = m_model->versionAt(m_tree->currentIndex());
    if (!m_client || !v)
        return;
    PredictionClient(m_client).setDefaultVersion(
        v->model, v->name, this, [this, v](const VersionResource&, const ApiError& error) {
            if (!error.isNull())
                QMessageBox::warning(
                    this, tr("Set Default"), tr("Could not make %1 the default: %2").arg(v->name, reason(error)));
            refresh();
        });
}

void ModelsView::deleteSelected()
{
    const QModelIndex current = m_tree->currentIndex();
    const std::optional<ModelResource> model = m_model->modelAt(current);
    const std::optional<VersionResource> version = m_model->versionAt(current);
    if (!m_client || !model)
        return;
    const QString what
        = version ? tr("version %1 of model %2").arg(version->name, model->name) : tr("model %1").arg(model->name);
    if (QMessageBox::question(this, tr("Delete"),
            version ? tr("Delete %1? Its prediction nodes stop and its copy of the files is removed.").arg(what)
                    : tr("Delete %1? A model with versions cannot be deleted.").arg(what))
        != QMessageBox::Yes)
        return;
    const auto deleted = [this, what](const OperationResource&, const ApiError& error) {
        if (!error.isNull())
            QMessageBox::warning(this, tr("Delete"), tr("Could not delete %1: %2").arg(what, reason(error)));
        refresh();
    };
    if (version)
        PredictionClient(m_client).deleteVersion(model->name, version->name, this, deleted);
    else
        PredictionClient(m_client).deleteModel(model->name, this, deleted);
}

QJsonArray ModelsView::typedInstances()
{
    // A JSON value a line, or a CSV row sent as text (models/predictionresults.h: the one rule of the CLI too).
    QString parseError;
    const QJsonArray instances
        = parseInstances(m_instances->toPlainText().toUtf8(), InstanceFormat::JsonOrText, &parseError).value_or(QJsonArray());
    if (instances.isEmpty())
        m_latency->setText(tr("Type at least one instance."));
    return instances;
}

std::optional<std::pair<QString, QString>> ModelsView::requestTarget(QJsonArray* instances)
{
    const QModelIndex current = m_tree->currentIndex();
    const std::optional<ModelResource> model = m_model->modelAt(current);
    const std::optional<VersionResource> version = m_model->versionAt(current);
    if (!m_client || !model)
        return std::nullopt;
    *instances = typedInstances();
    if (instances->isEmpty())
        return std::nullopt;
    return std::pair { model->name, version ? version->name : QString() };
}

void ModelsView::explain()
{
    QJsonArray instances;
    const auto target = requestTarget(&instances);
    if (!target)
        return;
    m_explain->setEnabled(false);
    if (m_explanations->isHidden()) {
        m_explanations->show();
        // The first explanations get most of the tab: the instances and answers keep a few lines above them.
        if (auto* split = qobject_cast<QSplitter*>(m_explanations->parentWidget())) {
            const int total = std::max(4, split->height());
            split->setSizes({ total / 4, total - total / 4 });
        }
    }
    m_explanations->showMessage(tr("Explaining…"));
    PredictionClient(m_client).explain(target->first, target->second, instances, {}, this,
        [this, instances](const ExplainResponse& answer) {
            updateActions();
            if (!answer.ok()) {
                m_explanations->showMessage(tr("Explanation failed: %1").arg(answer.reply.message));
                emit explained(false);
                return;
            }
            m_explanations->showExplanations(answer, instances);
            emit explained(true);
        });
}

void ModelsView::predict()
{
    QJsonArray instances;
    const auto target = requestTarget(&instances);
    if (!target)
        return;
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    m_predict->setEnabled(false);
    m_latency->setText(tr("Predicting…"));
    PredictionClient(m_client).predict(target->first, target->second, instances, QString(), this,
        [this, clock](const PredictResponse& answer) {
            updateActions();
            if (!answer.ok()) {
                m_predictions->clear();
                m_predictions->setRowCount(0);
                m_latency->setText(tr("Failed: %1").arg(answer.message));
                emit predicted(false);
                return;
            }
            showAnswer(answer, clock->elapsed());
            emit predicted(true);
        });
}

void ModelsView::showAnswer(const PredictResponse& answer, qint64 ms)
{
    QList<PredictionValue> values;
    for (const QJsonValue& p : answer.predictions)
        values << PredictionValue::read(p);
    // A built-in algorithm's classification: the label and each class's probability, one column per class.
    const QStringList classes = values.isEmpty() ? QStringList() : values.first().classes;
    m_predictions->clear();
    QStringList headers { tr("#"), tr("Prediction") };
    for (const QString& c : classes)
        headers << tr("P(%1)").arg(c);
    m_predictions->setColumnCount(int(headers.size()));
    m_predictions->setHorizontalHeaderLabels(headers);
    m_predictions->setRowCount(int(values.size()));
    for (int row = 0; row < values.size(); ++row) {
        const PredictionValue& v = values.at(row);
        QString shown;
        switch (v.kind) {
        case PredictionValue::Kind::Label:
            shown = v.label;
            break;
        case PredictionValue::Kind::Number:
            shown = QLocale().toString(v.number, 'g', 6);
            break;
        case PredictionValue::Kind::Scores:
            // A list of numbers (a classifier's scores, one per class: the sample's TorchScript model) reads as its
            // largest entry; the whole list is the tooltip.
            shown = tr("class %1 (%2)").arg(v.best).arg(QLocale().toString(v.scores.at(v.best), 'f', 4));
            break;
        case PredictionValue::Kind::Other:
            shown = v.json;
            break;
        }
        m_predictions->setItem(row, 0, new QTableWidgetItem(QString::number(row)));
        auto* item = new QTableWidgetItem(shown);
        item->setToolTip(v.json);
        m_predictions->setItem(row, 1, item);
        if (v.kind != PredictionValue::Kind::Scores) {
            for (int c = 0; c < classes.size() && c < v.scores.size(); ++c)
                m_predictions->setItem(
                    row, 2 + c, new QTableWidgetItem(QLocale().toString(v.scores.at(c), 'f', 4)));
        }
    }
    m_predictions->resizeColumnsToContents();
    m_latency->setText(tr("%n prediction(s) in %1 ms", nullptr, int(values.size())).arg(ms));
}

} // namespace Trainyard
