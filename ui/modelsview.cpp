// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelsview.h"

#include "versionchartspanel.h"

#include "apiclient.h"
#include "deploydialog.h"
#include "deployedmodelsmodel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
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

QString segment(const QString& s)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(s));
}

QString modelsPath(const ApiClient* client)
{
    return QStringLiteral("/v1/projects/%1/models").arg(segment(client->project()));
}

/// `done(json, error)` for one JSON call; the error's message when the call failed.
void call(ApiClient* client, QObject* context, const QByteArray& verb, const QString& path, const QString& query,
    const QByteArray& body, std::function<void(const QJsonObject&, const QString&)> done)
{
    client->request(
        verb, path, query, body, context, [done = std::move(done)](int, const QByteArray& data, const ApiError& error) {
            if (!error.isNull()) {
                done({}, error.message.isEmpty() ? error.status : error.message);
                return;
            }
            done(QJsonDocument::fromJson(data).object(), QString());
        });
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
    , m_predictions(new QTableWidget(this))
    , m_latency(new QLabel(this))
    , m_log(new QPlainTextEdit(this))
{
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
    m_predictions->setObjectName(QStringLiteral("predictResults"));
    m_predictions->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_predictions->horizontalHeader()->setStretchLastSection(true);
    m_predictions->verticalHeader()->hide();
    m_latency->setObjectName(QStringLiteral("predictLatency"));
    m_target->setObjectName(QStringLiteral("predictTarget"));
    m_target->setWordWrap(true);

    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : { m_newModel, m_deploy, m_setDefault, m_delete })
        buttons->addWidget(b);
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
    predictLayout->addLayout(predictBar);
    predictLayout->addWidget(predictSplit, 1);

    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("versionTabs"));
    tabs->addTab(predictBox, tr("Predict"));
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
    connect(&m_poll, &QTimer::timeout, this, &ModelsView::refresh);
    connect(m_refresh, &QPushButton::clicked, this, &ModelsView::refresh);
    connect(m_newModel, &QPushButton::clicked, this, &ModelsView::createModel);
    connect(m_deploy, &QPushButton::clicked, this, [this] { deploy(); });
    connect(m_setDefault, &QPushButton::clicked, this, &ModelsView::setDefault);
    connect(m_delete, &QPushButton::clicked, this, &ModelsView::deleteSelected);
    connect(m_predict, &QPushButton::clicked, this, &ModelsView::predict);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::updateActions);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::refreshLog);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ModelsView::loadInputSchema);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_tree->expandAll();
        for (int c = 0; c < DeployedModelsModel::ColumnCount - 1; ++c)
            m_tree->resizeColumnToContents(c);
        if (!m_selectModel.isEmpty())
            select(m_selectModel, m_selectVersion);
        updateActions();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ModelsView::updateActions);
    updateActions();
}

void ModelsView::setClient(ApiClient* client)
{
    m_client = client;
    m_pending = false;
    if (!client) {
        m_poll.stop();
        return;
    }
    m_poll.start();
    refresh();
}

void ModelsView::refresh()
{
    if (!m_client || m_pending)
        return;
    m_pending = true;
    ApiClient* client = m_client;
    call(client, this, "GET", modelsPath(client), QStringLiteral("pageSize=100"), {},
        [this, client](const QJsonObject& json, const QString& error) {
            if (client != m_client)
                return;
            if (!error.isEmpty()) {
                m_pending = false;
                m_status->setText(tr("Could not read the models: %1").arg(error));
                return;
            }
            FieldViolations ignored;
            auto models = std::make_shared<QList<ModelResource>>();
            for (const QJsonValue& m : json.value(QStringLiteral("models")).toArray())
                models->append(ModelResource::fromJson(m.toObject(), client->project(), &ignored));
            auto versions = std::make_shared<QHash<QString, QList<VersionResource>>>();
            auto left = std::make_shared<int>(int(models->size()));
            auto finish = [this, models, versions] {
                m_pending = false;
                m_model->setContents(*models, *versions);
                m_status->setText(tr("Updated %1").arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
                m_poll.setInterval(m_model->hasPendingVersions() ? 1000 : 5000);
                refreshRates();
                updateActions();
                refreshLog();
                emit refreshed();
            };
            if (models->isEmpty()) {
                finish();
                return;
            }
            for (const ModelResource& m : std::as_const(*models)) {
                call(client, this, "GET",
                    modelsPath(client) + QLatin1Char('/') + segment(m.name) + QStringLiteral("/versions"),
                    QStringLiteral("pageSize=100"), {},
                    [this, client, name = m.name, versions, left, finish](const QJsonObject& json, const QString&) {
                        if (client != m_client)
                            return;
                        FieldViolations ignored;
                        QList<VersionResource>& list = (*versions)[name];
                        for (const QJsonValue& v : json.value(QStringLiteral("versions")).toArray())
                            list.append(
                                VersionResource::fromJson(v.toObject(), client->project(), name, &ignored, true));
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
            call(m_client, this, "GET",
                modelsPath(m_client) + QLatin1Char('/') + segment(version->model) + QStringLiteral("/versions/")
                    + segment(version->name) + QStringLiteral("/metrics"),
                {}, {}, [this, name](const QJsonObject& json, const QString& error) {
                    if (!error.isEmpty())
                        return;
                    const QJsonArray points = json.value(QStringLiteral("points")).toArray();
                    m_model->setRequestRate(name,
                        points.isEmpty()
                            ? 0.0
                            : points.last().toObject().value(QStringLiteral("requestsPerSecond")).toDouble());
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
        buildForm({});
        return;
    }
    const QString shown = model->name + QLatin1Char('/') + versionName;
    if (shown == m_schemaFor)
        return;
    m_schemaFor = shown;
    call(m_client, this, "GET",
        modelsPath(m_client) + QLatin1Char('/') + segment(model->name) + QStringLiteral("/versions/")
            + segment(versionName) + QStringLiteral("/inputSchema"),
        {}, {}, [this, shown](const QJsonObject& json, const QString& error) {
            if (shown != m_schemaFor)
                return; // another selection's answer follows
            buildForm(error.isEmpty() ? json : QJsonObject());
        });
}

void ModelsView::buildForm(const QJsonObject& schema)
{
    auto* layout = static_cast<QFormLayout*>(m_form->layout());
    while (layout->rowCount() > 0)
        layout->removeRow(0);
    m_formFields.clear();
    const QJsonArray columns = schema.value(QStringLiteral("columns")).toArray();
    for (const QJsonValue& value : columns) {
        const QJsonObject c = value.toObject();
        const QString type = c.value(QStringLiteral("type")).toString();
        if (type == QLatin1String("target"))
            continue;
        const int number = c.value(QStringLiteral("column")).toInt();
        QWidget* field = nullptr;
        if (type == QLatin1String("categorical") && c.contains(QLatin1String("vocabulary"))) {
            auto* box = new QComboBox(m_form);
            box->setEditable(true); // a category not seen in training is a value too (the model treats it as unseen)
            box->addItem(QString());
            for (const QJsonValue& v : c.value(QStringLiteral("vocabulary")).toArray())
                box->addItem(v.isString() ? v.toString() : QString::number(v.toDouble()));
            field = box;
        } else {
            auto* edit = new QLineEdit(m_form);
            if (type == QLatin1String("numeric"))
                //: The field of a numeric column: %1 is the training data's mean, used when the field is empty.
                edit->setPlaceholderText(
                    tr("mean %1").arg(QLocale().toString(c.value(QStringLiteral("mean")).toDouble(), 'g', 4)));
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
    const std::optional<VersionResource> v = m_model->versionAt(m_tree->currentIndex());
    if (!m_client || !v) {
        m_charts->setMetrics({});
        return;
    }
    if (m_chartsPending)
        return;
    m_chartsPending = true;
    const QString shown = v->resourceName();
    call(m_client, this, "GET",
        modelsPath(m_client) + QLatin1Char('/') + segment(v->model) + QStringLiteral("/versions/") + segment(v->name)
            + QStringLiteral("/metrics"),
        {}, {}, [this, shown](const QJsonObject& json, const QString& error) {
            m_chartsPending = false;
            const std::optional<VersionResource> now = m_model->versionAt(m_tree->currentIndex());
            if (!now || now->resourceName() != shown || !error.isEmpty())
                return;
            m_charts->setMetrics(json);
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
    call(m_client, this, "GET",
        modelsPath(m_client) + QLatin1Char('/') + segment(v->model) + QStringLiteral("/versions/") + segment(v->name)
            + QStringLiteral("/logs"),
        QStringLiteral("pageSize=200"), {}, [this, shown](const QJsonObject& json, const QString& error) {
            m_logPending = false;
            const std::optional<VersionResource> now = m_model->versionAt(m_tree->currentIndex());
            if (!now || now->resourceName() != shown)
                return; // another version was selected meanwhile; its own read follows
            QStringList lines;
            for (const QJsonValue& e : json.value(QStringLiteral("entries")).toArray())
                lines << e.toObject().value(QStringLiteral("timestamp")).toString() + QLatin1Char(' ')
                        + e.toObject().value(QStringLiteral("text")).toString();
            const QString text
                = error.isEmpty() ? lines.join(QLatin1Char('\n')) : tr("Could not read the log: %1").arg(error);
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
    const QByteArray body
        = QJsonDocument(QJsonObject { { QStringLiteral("name"), name } }).toJson(QJsonDocument::Compact);
    call(m_client, this, "POST", modelsPath(m_client), QString(), body,
        [this, name](const QJsonObject&, const QString& error) {
            if (!error.isEmpty()) {
                QMessageBox::warning(this, tr("New Model"), tr("Could not create model %1: %2").arg(name, error));
                return;
            }
            m_selectModel = name;
            refresh();
        });
}

void ModelsView::deploy(const QString& folder)
{
    if (!m_client)
        return;
    QStringList names;
    for (const ModelResource& m : m_model->models())
        names << m.name;
    const std::optional<ModelResource> current = m_model->modelAt(m_tree->currentIndex());
    DeployDialog dialog(names, folder, current ? current->name : QString(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString model = dialog.modelName();
    const VersionResource version = dialog.version();
    if (!dialog.isNewModel()) {
        createVersion(model, version);
        return;
    }
    const QByteArray body
        = QJsonDocument(QJsonObject { { QStringLiteral("name"), model } }).toJson(QJsonDocument::Compact);
    call(m_client, this, "POST", modelsPath(m_client), QString(), body,
        [this, model, version](const QJsonObject&, const QString& error) {
            if (!error.isEmpty()) {
                QMessageBox::warning(this, tr("Deploy"), tr("Could not create model %1: %2").arg(model, error));
                return;
            }
            createVersion(model, version);
        });
}

void ModelsView::createVersion(const QString& model, VersionResource version)
{
    if (!m_client)
        return;
    version.project = m_client->project();
    version.model = model;
    QJsonObject body = version.toJson();
    body.insert(QStringLiteral("name"), version.name); // the ID; the full name is the server's to make
    call(m_client, this, "POST", modelsPath(m_client) + QLatin1Char('/') + segment(model) + QStringLiteral("/versions"),
        QString(), QJsonDocument(body).toJson(QJsonDocument::Compact),
        [this, model, name = version.name](const QJsonObject&, const QString& error) {
            if (!error.isEmpty()) {
                QMessageBox::warning(
                    this, tr("Deploy"), tr("Could not deploy version %1 of %2: %3").arg(name, model, error));
                return;
            }
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
    call(m_client, this, "POST",
        modelsPath(m_client) + QLatin1Char('/') + segment(v->model) + QStringLiteral("/versions/") + segment(v->name)
            + QStringLiteral(":setDefault"),
        QString(), "{}", [this, v](const QJsonObject&, const QString& error) {
            if (!error.isEmpty())
                QMessageBox::warning(
                    this, tr("Set Default"), tr("Could not make %1 the default: %2").arg(v->name, error));
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
    QString path = modelsPath(m_client) + QLatin1Char('/') + segment(model->name);
    if (version)
        path += QStringLiteral("/versions/") + segment(version->name);
    call(m_client, this, "DELETE", path, QString(), {}, [this, what](const QJsonObject&, const QString& error) {
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Delete"), tr("Could not delete %1: %2").arg(what, error));
        refresh();
    });
}

void ModelsView::predict()
{
    const QModelIndex current = m_tree->currentIndex();
    const std::optional<ModelResource> model = m_model->modelAt(current);
    const std::optional<VersionResource> version = m_model->versionAt(current);
    if (!m_client || !model)
        return;
    QJsonArray instances;
    for (const QString& raw : m_instances->toPlainText().split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + line.toUtf8() + "]", &error);
        if (error.error == QJsonParseError::NoError && doc.array().size() == 1)
            instances.append(doc.array().first());
        else
            instances.append(line); // a CSV row, sent as text
    }
    if (instances.isEmpty()) {
        m_latency->setText(tr("Type at least one instance."));
        return;
    }
    QString path = modelsPath(m_client) + QLatin1Char('/') + segment(model->name);
    if (version)
        path += QStringLiteral("/versions/") + segment(version->name);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    m_predict->setEnabled(false);
    m_latency->setText(tr("Predicting…"));
    call(m_client, this, "POST", path + QStringLiteral(":predict"), QString(),
        QJsonDocument(QJsonObject { { QStringLiteral("instances"), instances } }).toJson(QJsonDocument::Compact),
        [this, clock](const QJsonObject& answer, const QString& error) {
            updateActions();
            if (!error.isEmpty()) {
                m_predictions->clear();
                m_predictions->setRowCount(0);
                m_latency->setText(tr("Failed: %1").arg(error));
                emit predicted(false);
                return;
            }
            showAnswer(answer, clock->elapsed());
            emit predicted(true);
        });
}

void ModelsView::showAnswer(const QJsonObject& answer, qint64 ms)
{
    const QJsonArray predictions = answer.value(QStringLiteral("predictions")).toArray();
    // A built-in algorithm's classification: the label and each class's probability, one column per class.
    QStringList classes;
    if (!predictions.isEmpty() && predictions.first().isObject())
        for (const QJsonValue& c : predictions.first().toObject().value(QStringLiteral("classes")).toArray())
            classes << c.toString();
    m_predictions->clear();
    QStringList headers { tr("#"), tr("Prediction") };
    for (const QString& c : std::as_const(classes))
        headers << tr("P(%1)").arg(c);
    m_predictions->setColumnCount(int(headers.size()));
    m_predictions->setHorizontalHeaderLabels(headers);
    m_predictions->setRowCount(int(predictions.size()));
    for (int row = 0; row < predictions.size(); ++row) {
        const QJsonValue p = predictions.at(row);
        QString shown;
        if (p.isObject() && p.toObject().contains(QLatin1String("predicted_label")))
            shown = p.toObject().value(QStringLiteral("predicted_label")).toString();
        else if (p.isObject() && p.toObject().contains(QLatin1String("predicted_value")))
            shown = QLocale().toString(p.toObject().value(QStringLiteral("predicted_value")).toDouble(), 'g', 6);
        else if (p.isString())
            shown = p.toString();
        else if (p.isDouble())
            shown = QLocale().toString(p.toDouble(), 'g', 6);
        const QString json
            = QString::fromUtf8(QJsonDocument(QJsonArray { p }).toJson(QJsonDocument::Compact)).chopped(1).mid(1);
        // A list of numbers (a classifier's scores, one per class: the sample's TorchScript model) reads as its
        // largest entry; the whole list is the tooltip.
        const QJsonArray numbers = p.toArray();
        if (shown.isEmpty() && !numbers.isEmpty()
            && std::all_of(numbers.begin(), numbers.end(), [](const QJsonValue& v) { return v.isDouble(); })) {
            qsizetype best = 0;
            for (qsizetype i = 1; i < numbers.size(); ++i)
                best = numbers.at(i).toDouble() > numbers.at(best).toDouble() ? i : best;
            shown = tr("class %1 (%2)").arg(best).arg(QLocale().toString(numbers.at(best).toDouble(), 'f', 4));
        }
        if (shown.isEmpty())
            shown = json;
        m_predictions->setItem(row, 0, new QTableWidgetItem(QString::number(row)));
        auto* item = new QTableWidgetItem(shown);
        item->setToolTip(json);
        m_predictions->setItem(row, 1, item);
        const QJsonArray scores = p.toObject().value(QStringLiteral("scores")).toArray();
        for (int c = 0; c < classes.size() && c < scores.size(); ++c)
            m_predictions->setItem(
                row, 2 + c, new QTableWidgetItem(QLocale().toString(scores.at(c).toDouble(), 'f', 4)));
    }
    m_predictions->resizeColumnsToContents();
    m_latency->setText(tr("%n prediction(s) in %1 ms", nullptr, int(predictions.size())).arg(ms));
}

} // namespace Trainyard
