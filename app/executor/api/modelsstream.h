// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API's files (not installed, not included outside app/executor/api/).

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QTimer>

namespace Trainyard {

class ModelStore;
class PredictionService;
class SseStream;

/// `GET /v1/projects/{p}/models?follow=true` (ours, as the jobs list's follow; app/executor/API.md "Models and
/// versions"): a project's models with their versions as they change, so that a console shows them without asking
/// again (it asked 1 + one per model + one per READY version every 5 s before). Events, each one line of JSON:
/// - `model` `{"model": <Model>, "versions": [<Version>…]}`: a model and all its versions, as get and list answer
///   them: first one per model (creation order), then whenever the model or one of its versions is written;
/// - `synced` `{"models": N}`: the end of the first listing;
/// - `modelDeleted` `{"name": "projects/p/models/m"}`;
/// - `rates` `{"rates": {"projects/p/models/m/versions/v": requests per second, …}}`: each READY version's requests
///   in the current 10-second interval (RequestStats), every RatesIntervalMs, sent only when a value changed.
///
/// Writes to the store are coalesced: every model written within one turn of the event loop is read once, after
/// it. Owned by its SseStream (deleted with it). Main thread.
class ModelsStream : public QObject {
public:
    static constexpr int RatesIntervalMs = 5000;

    /// Starts the stream on `stream` (already started): the listing, then the changes. `store` and `prediction`
    /// must outlive it (the HttpApi's).
    ModelsStream(SseStream* stream, ModelStore* store, PredictionService* prediction, const QString& project);
    ~ModelsStream() override;

private:
    void sendModel(const QString& model);
    void flush();
    void sendRates();

    QPointer<SseStream> m_stream;
    ModelStore* m_store;
    PredictionService* m_prediction;
    QString m_project;
    int m_listener = 0;
    QSet<QString> m_pending; ///< models written since the last flush
    QSet<QString> m_known; ///< models the client was told of
    QHash<QString, double> m_rates; ///< the rates last sent
    QTimer m_ratesTimer;
};

} // namespace Trainyard
