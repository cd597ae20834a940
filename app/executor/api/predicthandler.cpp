// SPDX-License-Identifier: GPL-2.0-or-later
#include "predicthandler.h"

#include "apicommon.h"
#include "apicontext.h"
#include "modelstore.h"
#include "predictionservice.h"

#include <QElapsedTimer>
#include <QJsonArray>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {
constexpr qsizetype MaxPredictBytes = PredictionLimits::MaxRequestBytes;
} // namespace

PredictHandler::PredictHandler(ApiContext* context, PredictionService* prediction)
    : m_context(context)
    , m_prediction(prediction)
{
}

HttpApi::Reply PredictHandler::predict(const ApiRequest& request, const QString& project, const QString& model,
    const QString& version, const HttpChannelPtr& channel, bool* deferred)
{
    if (request.body().size() > MaxPredictBytes)
        return errorReply(RpcCode::InvalidArgument,
            QStringLiteral("Request payload size exceeds the limit: %1 bytes.").arg(MaxPredictBytes));
    const std::optional<ModelResource> m = m_prediction->store()->model(project, model);
    if (!m)
        return modelNotFound(project, model);
    QString name = version;
    if (name.isEmpty()) {
        if (m->defaultVersion.isEmpty())
            return errorReply(RpcCode::FailedPrecondition,
                QStringLiteral("Model %1 has no default version: create a version, or predict with "
                               "…/versions/{version}:predict.")
                    .arg(m->resourceName()));
        name = m->defaultVersion;
    }
    const std::optional<VersionResource> v = m_prediction->store()->version(project, model, name);
    if (!v)
        return versionNotFound(project, model, name);
    if (v->state != VersionState::Ready)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Version %1 is %2, not READY%3.")
                .arg(v->resourceName(), PredictionJson::versionStateName(v->state),
                    v->errorMessage.isEmpty() ? QString() : QStringLiteral(": ") + v->errorMessage));
    Reply error;
    const auto body = parseBody(request.body(), &error);
    if (!body)
        return error;
    const QJsonValue instances = body->value(QStringLiteral("instances"));
    if (!instances.isArray() || instances.toArray().isEmpty())
        return invalidArgument(QStringLiteral("instances"),
            QStringLiteral("is required: a non-empty list of instances, e.g. {\"instances\": [[1.0, 2.0], [3.0, "
                           "4.0]]}"));
    for (auto it = body->begin(); it != body->end(); ++it) {
        if (it.key() != QLatin1String("instances") && it.key() != QLatin1String("signature_name"))
            return invalidArgument(it.key(),
                QStringLiteral("unknown field: a request has \"instances\" and, optionally, \"signature_name\""));
    }
    // A JSON object keeps one value per key: a second "instances" would be dropped without a word.
    if (const QString twice = duplicateTopLevelKey(request.body()); !twice.isEmpty())
        return invalidArgument(twice, QStringLiteral("is given twice; a request has one \"instances\" list"));
    const QJsonValue signature = body->value(QStringLiteral("signature_name"));
    if (!signature.isUndefined() && !signature.isNull()
        && (!signature.isString() || signature.toString().size() > PredictionLimits::MaxSignatureNameChars))
        return invalidArgument(QStringLiteral("signature_name"),
            QStringLiteral("must be the name of a signature: a string of at most %1 characters")
                .arg(PredictionLimits::MaxSignatureNameChars));
    {
        const QJsonArray list = instances.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (jsonDepth(list.at(i), PredictionLimits::MaxInstanceDepth) > PredictionLimits::MaxInstanceDepth)
                return invalidArgument(QStringLiteral("instances[%1]").arg(i),
                    QStringLiteral("nests lists or objects more than %1 levels deep, the most a prediction takes")
                        .arg(PredictionLimits::MaxInstanceDepth));
        }
    }
    *deferred = true;
    QElapsedTimer clock;
    clock.start();
    const QString resource = v->resourceName();
    const qsizetype count = instances.toArray().size();
    const qsizetype bytesIn = request.body().size();
    // With the model's onlinePredictionLogging, each request's record goes to the version's log (sizes, latency,
    // status; never the instances).
    const bool logged = m->onlinePredictionLogging;
    auto answerWith = [this, channel, logged, version = *v, count, bytesIn, clock](const Reply& reply) {
        m_prediction->recordRequest(version, double(clock.nsecsElapsed()) / 1e6, reply.status == 200);
        if (logged)
            m_prediction->logRequest(version,
                QStringLiteral("request: %1 instance(s), %2 bytes in, %3 bytes out, %4 ms, HTTP %5")
                    .arg(count)
                    .arg(bytesIn)
                    .arg(reply.body.size())
                    .arg(double(clock.nsecsElapsed()) / 1e6, 0, 'f', 2)
                    .arg(reply.status));
        m_context->sendLater(channel, reply);
    };
    m_prediction->predict(*v, instances.toArray(), body->value(QStringLiteral("signature_name")).toString(),
        [resource, answerWith](const QJsonObject& answer) {
            if (answer.contains(QLatin1String("predictions"))) {
                answerWith(jsonReply(
                    QJsonObject { { QStringLiteral("predictions"), answer.value(QStringLiteral("predictions")) } }));
                return;
            }
            if (answer.contains(QLatin1String("deadline"))) {
                answerWith(errorReply(RpcCode::DeadlineExceeded,
                    QStringLiteral("%1 did not answer in time: %2")
                        .arg(resource, answer.value(QStringLiteral("deadline")).toString())));
                return;
            }
            if (answer.contains(QLatin1String("unavailable"))) {
                answerWith(errorReply(RpcCode::Unavailable,
                    QStringLiteral("%1 cannot answer now: %2")
                        .arg(resource, answer.value(QStringLiteral("unavailable")).toString())));
                return;
            }
            const QString message = answer.value(QStringLiteral("error")).toString();
            if (answer.contains(QLatin1String("instance"))) {
                const int index = answer.value(QStringLiteral("instance")).toInt();
                answerWith(errorReply(RpcCode::InvalidArgument,
                    QStringLiteral("Prediction failed: instance %1: %2").arg(index).arg(message),
                    { { QStringLiteral("instances[%1]").arg(index), message } }));
                return;
            }
            answerWith(errorReply(RpcCode::InvalidArgument, QStringLiteral("Prediction failed: %1").arg(message)));
        });
    return Reply();
}

} // namespace Trainyard
