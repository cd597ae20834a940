// SPDX-License-Identifier: GPL-2.0-or-later
#include "modellistfeed.h"

#include "apistream.h"
#include "predictionclient.h"

#include <algorithm>

namespace Trainyard {

ModelListFeed::ModelListFeed(QObject* parent)
    : StreamFeed(parent)
{
}

void ModelListFeed::open(ApiClient* client)
{
    if (!client || m_stream)
        return;
    ApiStream* stream = PredictionClient(client).followModels();
    // The executor went away or refused: the owner reads the list another way and opens again.
    adopt(stream, false);
    m_synced = false;
    m_models.clear();
    m_versions.clear();
    connect(stream, &ApiStream::modelChanged, this, [this](const ModelChange& change) {
        const auto at = std::find_if(m_models.begin(), m_models.end(),
            [&change](const ModelResource& m) { return m.name == change.model.name; });
        if (at == m_models.end())
            m_models.append(change.model);
        else
            *at = change.model;
        m_versions.insert(change.model.name, change.versions);
        if (m_synced)
            emit changed();
    });
    connect(stream, &ApiStream::modelDeleted, this, [this](const QString& model) {
        m_models.removeIf([&model](const ModelResource& m) { return m.name == model; });
        m_versions.remove(model);
        if (m_synced)
            emit changed();
    });
    connect(stream, &ApiStream::synced, this, [this] {
        m_synced = true;
        emit changed();
    });
    connect(stream, &ApiStream::versionRates, this, &ModelListFeed::ratesChanged);
}

} // namespace Trainyard
