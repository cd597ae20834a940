// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "prediction.h"
#include "sqlitefile.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>

#include <functional>

#include <optional>

namespace Trainyard {

/// Where the executor keeps models, versions and long-running operations: `<dataDir>/models.sqlite` (SqliteFile,
/// synchronous FULL: an answer that says a model or version exists must survive a crash). Each record is the
/// resource's own JSON (prediction.h's codecs, output-only fields included), keyed by its IDs; list order is
/// creation order. Writes that change two records (a version and its model's default) are one transaction.
/// model() and version() answer from memory once read (every online prediction reads both; two SQLite queries and
/// two JSON decodes were a fifth of the executor's CPU a request, issue 48): every write drops the model's cached
/// records (notify()), and only this class writes the file. Main thread only, as every store here.
class ModelStore {
public:
    ModelStore();
    ~ModelStore();
    ModelStore(const ModelStore&) = delete;
    ModelStore& operator=(const ModelStore&) = delete;

    /// Opens (creating) the file; false with *error naming the file and the failure.
    bool open(const QString& path, QString* error);

    /// Inserts a new model; false with *error when SQLite refuses (the caller checked it does not exist).
    bool insertModel(const ModelResource& model, QString* error);
    /// Replaces a model's record (patch, a new default version).
    bool updateModel(const ModelResource& model, QString* error);
    bool deleteModel(const QString& project, const QString& model, QString* error);
    std::optional<ModelResource> model(const QString& project, const QString& model) const;
    QList<ModelResource> models(const QString& project) const;

    /// Inserts a new version and, with `model` set, replaces the model's record in the same transaction (the first
    /// version becomes the default).
    bool insertVersion(const VersionResource& version, const ModelResource* model, QString* error);
    bool updateVersion(const VersionResource& version, QString* error);
    /// Deletes a version and, with `model` set, replaces the model's record in the same transaction.
    bool deleteVersion(const VersionResource& version, const ModelResource* model, QString* error);
    std::optional<VersionResource> version(const QString& project, const QString& model, const QString& version) const;
    /// A model's versions (`model` empty: every model's of `project`; `project` empty: every project's).
    QList<VersionResource> versions(const QString& project, const QString& model) const;

    /// Called after every write of a model or of one of its versions (create, patch, a new default, a state, a
    /// delete) with the model's project and ID: the models stream (`GET …/models?follow=true`) reads the model again
    /// from the event loop. Not called for operations.
    using Listener = std::function<void(const QString& project, const QString& model)>;
    /// Adds a listener; returns its ID for removeListener().
    int addListener(Listener listener);
    void removeListener(int id);

    /// Inserts or replaces an operation.
    bool putOperation(const OperationResource& operation, QString* error);
    std::optional<OperationResource> operation(const QString& project, const QString& id) const;
    /// `project`'s operations, newest first (`project` empty: every project's).
    QList<OperationResource> operations(const QString& project) const;

private:
    bool exec(const QString& sql, const QVariantList& values, QString* error);
    /// Runs `writes` in one transaction: committed when it returns true, rolled back (with *error) otherwise.
    bool inTransaction(const std::function<bool()>& writes, QString* error);
    /// Tells the listeners that `model` of `project` was written; returns `written`.
    bool notify(bool written, const QString& project, const QString& model);
    /// "project\nmodel" or "project\nmodel\nversion": the caches' keys.
    static QString cacheKey(const QString& project, const QString& model, const QString& version = QString());
    SqliteFile m_file;
    mutable QHash<QString, ModelResource> m_cachedModels;
    mutable QHash<QString, VersionResource> m_cachedVersions;
    QMap<int, Listener> m_listeners;
    int m_nextListener = 1;
};

} // namespace Trainyard
