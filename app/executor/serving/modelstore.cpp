// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelstore.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace Trainyard {

namespace {

constexpr int ModelSchemaVersion = 1;

/// `value` bound as text, never NULL: the lists' "? = ''" (no filter) is NULL, not true, for a null QString.
QString text(const QString& value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

QString compactJson(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject parsed(const QVariant& text)
{
    return QJsonDocument::fromJson(text.toString().toUtf8()).object();
}

ModelResource modelOf(const QString& project, const QVariant& json)
{
    FieldViolations ignored;
    return ModelResource::fromJson(parsed(json), project, &ignored);
}

VersionResource versionOf(const QString& project, const QString& model, const QVariant& json)
{
    FieldViolations ignored;
    return VersionResource::fromJson(parsed(json), project, model, &ignored, true);
}

} // namespace

ModelStore::ModelStore()
    : m_file(QStringLiteral("trainyard-models"))
{
}

ModelStore::~ModelStore() = default;

bool ModelStore::open(const QString& path, QString* error)
{
    SqliteFile::Options options;
    options.synchronous = QStringLiteral("FULL");
    options.schemaVersion = ModelSchemaVersion;
    options.schema = {
        QStringLiteral("CREATE TABLE IF NOT EXISTS models (project TEXT NOT NULL, id TEXT NOT NULL, "
                       "json TEXT NOT NULL, seq INTEGER PRIMARY KEY AUTOINCREMENT, UNIQUE (project, id))"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS versions (project TEXT NOT NULL, model TEXT NOT NULL, "
                       "id TEXT NOT NULL, json TEXT NOT NULL, seq INTEGER PRIMARY KEY AUTOINCREMENT, "
                       "UNIQUE (project, model, id))"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS operations (project TEXT NOT NULL, id TEXT NOT NULL, "
                       "json TEXT NOT NULL, seq INTEGER PRIMARY KEY AUTOINCREMENT, UNIQUE (project, id))"),
    };
    return m_file.open(path, options, error);
}

bool ModelStore::exec(const QString& sql, const QVariantList& values, QString* error)
{
    QSqlQuery query(m_file.database());
    if (!query.prepare(sql)) {
        *error = query.lastError().text();
        return false;
    }
    for (const QVariant& v : values)
        query.addBindValue(v);
    if (!query.exec()) {
        *error = query.lastError().text();
        return false;
    }
    return true;
}

bool ModelStore::inTransaction(const std::function<bool()>& writes, QString* error)
{
    QSqlDatabase db = m_file.database();
    if (!db.transaction()) {
        *error = db.lastError().text();
        return false;
    }
    const bool ok = writes();
    if (!ok || !db.commit()) {
        if (ok)
            *error = db.lastError().text();
        db.rollback();
        return false;
    }
    return true;
}

int ModelStore::addListener(Listener listener)
{
    const int id = m_nextListener++;
    m_listeners.insert(id, std::move(listener));
    return id;
}

void ModelStore::removeListener(int id)
{
    m_listeners.remove(id);
}

bool ModelStore::notify(bool written, const QString& project, const QString& model)
{
    // Whether or not it was written (a rolled-back transaction): the model's cached records are read again.
    m_cachedModels.remove(cacheKey(project, model));
    const QString prefix = cacheKey(project, model) + QLatin1Char('\n');
    m_cachedVersions.removeIf([&prefix](const auto& entry) { return entry.key().startsWith(prefix); });
    if (written) {
        const QList<Listener> listeners = m_listeners.values(); // a listener may remove itself
        for (const Listener& listener : listeners)
            listener(project, model);
    }
    return written;
}

bool ModelStore::insertModel(const ModelResource& model, QString* error)
{
    return notify(exec(QStringLiteral("INSERT INTO models (project, id, json) VALUES (?, ?, ?)"),
                      { model.project, model.name, compactJson(model.toJson()) }, error),
        model.project, model.name);
}

bool ModelStore::updateModel(const ModelResource& model, QString* error)
{
    return notify(exec(QStringLiteral("UPDATE models SET json = ? WHERE project = ? AND id = ?"),
                      { compactJson(model.toJson()), model.project, model.name }, error),
        model.project, model.name);
}

bool ModelStore::deleteModel(const QString& project, const QString& model, QString* error)
{
    return notify(
        exec(QStringLiteral("DELETE FROM models WHERE project = ? AND id = ?"), { project, model }, error), project, model);
}

QString ModelStore::cacheKey(const QString& project, const QString& model, const QString& version)
{
    // IDs are [A-Za-z0-9_] (the service's rule), so a newline cannot be part of one.
    QString key = project + QLatin1Char('\n') + model;
    if (!version.isNull())
        key += QLatin1Char('\n') + version;
    return key;
}

std::optional<ModelResource> ModelStore::model(const QString& project, const QString& model) const
{
    const QString key = cacheKey(project, model);
    if (const auto it = m_cachedModels.constFind(key); it != m_cachedModels.cend())
        return *it;
    QSqlQuery query(m_file.database());
    query.prepare(QStringLiteral("SELECT json FROM models WHERE project = ? AND id = ?"));
    query.addBindValue(project);
    query.addBindValue(model);
    if (!query.exec() || !query.next())
        return std::nullopt; // not cached: names that do not exist cannot fill the cache
    ModelResource found = modelOf(project, query.value(0));
    m_cachedModels.insert(key, found);
    return found;
}

QList<ModelResource> ModelStore::models(const QString& project) const
{
    QList<ModelResource> list;
    QSqlQuery query(m_file.database());
    query.prepare(QStringLiteral("SELECT project, json FROM models WHERE project = ? OR ? = '' ORDER BY seq"));
    query.addBindValue(text(project));
    query.addBindValue(text(project));
    if (query.exec()) {
        while (query.next())
            list << modelOf(query.value(0).toString(), query.value(1));
    }
    return list;
}

bool ModelStore::insertVersion(const VersionResource& version, const ModelResource* model, QString* error)
{
    return notify(inTransaction(
                      [&] {
                          return exec(QStringLiteral("INSERT INTO versions (project, model, id, json) VALUES (?, ?, ?, ?)"),
                                     { version.project, version.model, version.name, compactJson(version.toJson()) },
                                     error)
                              && (!model || updateModel(*model, error));
                      },
                      error),
        version.project, version.model);
}

bool ModelStore::updateVersion(const VersionResource& version, QString* error)
{
    return notify(exec(QStringLiteral("UPDATE versions SET json = ? WHERE project = ? AND model = ? AND id = ?"),
                      { compactJson(version.toJson()), version.project, version.model, version.name }, error),
        version.project, version.model);
}

bool ModelStore::deleteVersion(const VersionResource& version, const ModelResource* model, QString* error)
{
    return notify(inTransaction(
                      [&] {
                          return exec(QStringLiteral("DELETE FROM versions WHERE project = ? AND model = ? AND id = ?"),
                                     { version.project, version.model, version.name }, error)
                              && (!model || updateModel(*model, error));
                      },
                      error),
        version.project, version.model);
}

std::optional<VersionResource> ModelStore::version(
    const QString& project, const QString& model, const QString& version) const
{
    const QString key = cacheKey(project, model, version.isNull() ? QStringLiteral("") : version);
    if (const auto it = m_cachedVersions.constFind(key); it != m_cachedVersions.cend())
        return *it;
    QSqlQuery query(m_file.database());
    query.prepare(QStringLiteral("SELECT json FROM versions WHERE project = ? AND model = ? AND id = ?"));
    query.addBindValue(project);
    query.addBindValue(model);
    query.addBindValue(version);
    if (!query.exec() || !query.next())
        return std::nullopt;
    VersionResource found = versionOf(project, model, query.value(0));
    m_cachedVersions.insert(key, found);
    return found;
}

QList<VersionResource> ModelStore::versions(const QString& project, const QString& model) const
{
    QList<VersionResource> list;
    QSqlQuery query(m_file.database());
    query.prepare(QStringLiteral("SELECT project, model, json FROM versions WHERE (project = ? OR ? = '') "
                                 "AND (model = ? OR ? = '') ORDER BY seq"));
    query.addBindValue(text(project));
    query.addBindValue(text(project));
    query.addBindValue(text(model));
    query.addBindValue(text(model));
    if (query.exec()) {
        while (query.next())
            list << versionOf(query.value(0).toString(), query.value(1).toString(), query.value(2));
    }
    return list;
}

bool ModelStore::putOperation(const OperationResource& operation, QString* error)
{
    return exec(QStringLiteral("INSERT INTO operations (project, id, json) VALUES (?, ?, ?) "
                               "ON CONFLICT (project, id) DO UPDATE SET json = excluded.json"),
        { operation.project, operation.id, compactJson(operation.toJson()) }, error);
}

std::optional<OperationResource> ModelStore::operation(const QString& project, const QString& id) const
{
    QSqlQuery query(m_file.database());
    query.prepare(QStringLiteral("SELECT json FROM operations WHERE project = ? AND id = ?"));
    query.addBindValue(project);
    query.addBindValue(id);
    if (!query.exec() || !query.next())
        return std::nullopt;
    return OperationResource::fromJson(parsed(query.value(0)));
}

QList<OperationResource> ModelStore::operations(const QString& project) const
{
    QList<OperationResource> list;
    QSqlQuery query(m_file.database());
    query.prepare(QStringLiteral("SELECT json FROM operations WHERE project = ? OR ? = '' ORDER BY seq DESC"));
    query.addBindValue(text(project));
    query.addBindValue(text(project));
    if (query.exec()) {
        while (query.next())
            list << OperationResource::fromJson(parsed(query.value(0)));
    }
    return list;
}

} // namespace Trainyard
