// SPDX-License-Identifier: GPL-2.0-or-later
#include "modelsstream.h"

#include "apicommon.h"
#include "modelstore.h"
#include "predictionservice.h"
#include "ssestream.h"

#include <QJsonArray>

namespace Trainyard {

using namespace Api;

ModelsStream::ModelsStream(SseStream* stream, ModelStore* store, PredictionService* prediction, const QString& project)
    : QObject(stream)
    , m_stream(stream)
    , m_store(store)
    , m_prediction(prediction)
    , m_project(project)
{
    const QList<ModelResource> models = m_store->models(m_project);
    for (const ModelResource& m : models)
        sendModel(m.name);
    if (m_stream)
        m_stream->writeEvent("synced", compact(QJsonObject { { QStringLiteral("models"), qint64(models.size()) } }));
    QPointer<ModelsStream> self(this);
    m_listener = m_store->addListener([self](const QString& changedProject, const QString& model) {
        if (!self || changedProject != self->m_project)
            return;
        if (self->m_pending.isEmpty())
            QTimer::singleShot(0, self, [self] {
                if (self)
                    self->flush();
            });
        self->m_pending.insert(model);
    });
    m_ratesTimer.setInterval(RatesIntervalMs);
    connect(&m_ratesTimer, &QTimer::timeout, this, &ModelsStream::sendRates);
    m_ratesTimer.start();
    sendRates();
}

ModelsStream::~ModelsStream()
{
    m_store->removeListener(m_listener);
}

void ModelsStream::flush()
{
    const QSet<QString> models = std::exchange(m_pending, {});
    for (const QString& model : models)
        sendModel(model);
}

void ModelsStream::sendModel(const QString& model)
{
    if (!m_stream || m_stream->isFinished())
        return;
    const std::optional<ModelResource> m = m_store->model(m_project, model);
    if (!m) {
        if (m_known.remove(model))
            m_stream->writeEvent("modelDeleted",
                compact(
                    QJsonObject { { QStringLiteral("name"), PredictionJson::modelResourceName(m_project, model) } }));
        return;
    }
    m_known.insert(model);
    QJsonArray versions;
    for (const VersionResource& v : m_store->versions(m_project, model))
        versions.append(v.toJson());
    m_stream->writeEvent("model",
        compact(QJsonObject { { QStringLiteral("model"), m->toJson() }, { QStringLiteral("versions"), versions } }));
}

void ModelsStream::sendRates()
{
    if (!m_stream || m_stream->isFinished())
        return;
    QHash<QString, double> now;
    for (const VersionResource& v : m_store->versions(m_project, QString())) {
        if (v.state == VersionState::Ready)
            now.insert(v.resourceName(), m_prediction->latestRequestRate(v));
    }
    if (now == m_rates)
        return;
    m_rates = now;
    QJsonObject rates;
    for (auto it = now.cbegin(); it != now.cend(); ++it)
        rates.insert(it.key(), it.value());
    m_stream->writeEvent("rates", compact(QJsonObject { { QStringLiteral("rates"), rates } }));
}

} // namespace Trainyard
