// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "predictionresults.h"
#include "streamfeed.h"

#include <QHash>
#include <QList>

namespace Trainyard {

class ApiClient;

/// The Models view's follower of the executor's models stream (PredictionClient::followModels(), app/executor/API.md
/// "Models and versions"), as JobListFeed is the job list's: it keeps what the stream told (the models in creation
/// order, each one's versions) and says when that changed. A stream that drops closes itself; open() again starts
/// over with a full listing (the stream has no cursor: a project's models are few). Main thread.
class ModelListFeed : public StreamFeed {
    Q_OBJECT
public:
    explicit ModelListFeed(QObject* parent = nullptr);

    /// Opens the stream on `client` unless one is open.
    void open(ApiClient* client);
    /// The stream listed every model; models() and versions() follow the executor from here on.
    bool isSynced() const { return isOpen() && m_synced; }
    const QList<ModelResource>& models() const { return m_models; }
    /// Model ID → its versions.
    const QHash<QString, QList<VersionResource>>& versions() const { return m_versions; }

signals:
    /// The listing completed, or (once it did) a model was written or deleted.
    void changed();
    /// Every READY version's current requests per second (sent while a value changes).
    void ratesChanged(const Trainyard::VersionRates& rates);

private:
    QList<ModelResource> m_models;
    QHash<QString, QList<VersionResource>> m_versions;
};

} // namespace Trainyard
