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
    return serve(Verb::Predict, request, project, model, version, channel, deferred);
}

HttpApi::Reply PredictHandler::explain(const ApiRequest& request, const QString& project, const QString& model,
    const QString& version, const HttpChannelPtr& channel, bool* deferred)
{
    return serve(Verb::Explain, request, project, model, version, channel, deferred);
}

HttpApi::Reply PredictHandler::serve(Verb verb, const ApiRequest& request, const QString& project,
    const QString& model, const QString& version, const HttpChannelPtr& channel, bool* deferred)
{
    const bool explaining = verb == Verb::Explain;
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
    if (explaining && !v->explanationConfig)
        return errorReply(RpcCode::FailedPrecondition,
            QStringLiteral("Version %1 has no explanationConfig: create a version with one (sampledShapleyAttribution "
                           "for any model; trainyardctl versions create --explanation-method sampled-shapley) to "
                           "explain its predictions.")
                .arg(v->resourceName()),
            { { QStringLiteral("version.explanationConfig"), QStringLiteral("is not set") } });
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
    const QLatin1String optional = explaining ? QLatin1String("outputIndices") : QLatin1String("signature_name");
    for (auto it = body->begin(); it != body->end(); ++it) {
        if (it.key() != QLatin1String("instances") && it.key() != optional)
            return invalidArgument(it.key(),
                QStringLiteral("unknown field: a request has \"instances\" and, optionally, \"%1\"").arg(optional));
    }
    QJsonObject explainConfig;
    if (explaining) {
        explainConfig = v->explanationConfig->nodeJson();
        const QJsonValue outputs = body->value(QStringLiteral("outputIndices"));
        if (!outputs.isUndefined() && !outputs.isNull()) {
            const QJsonArray list = outputs.toArray();
            bool ok = outputs.isArray() && !list.isEmpty() && list.size() <= 1000;
            for (const QJsonValue& k : list)
                ok = ok && k.isDouble() && k.toDouble() >= 0 && k.toDouble() == double(qint64(k.toDouble()));
            if (!ok)
                return invalidArgument(QStringLiteral("outputIndices"),
                    QStringLiteral("must be a non-empty list of output positions (0, 1, …), the outputs to explain"));
            explainConfig.insert(QStringLiteral("outputIndices"), list);
        }
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
    auto answerWith = [this, channel, logged, explaining, version = *v, count, bytesIn, clock](const Reply& reply) {
        m_prediction->recordRequest(version, double(clock.nsecsElapsed()) / 1e6, reply.status == 200);
        if (logged)
            m_prediction->logRequest(version,
                QStringLiteral("%1: %2 instance(s), %3 bytes in, %4 bytes out, %5 ms, HTTP %6")
                    .arg(explaining ? QStringLiteral("explain") : QStringLiteral("request"))
                    .arg(count)
                    .arg(bytesIn)
                    .arg(reply.body.size())
                    .arg(double(clock.nsecsElapsed()) / 1e6, 0, 'f', 2)
                    .arg(reply.status));
        m_context->sendLater(channel, reply);
    };
    const QString verbName = explaining ? QStringLiteral("Explanation") : QStringLiteral("Prediction");
    auto decode = [resource, answerWith, verbName](const QJsonObject& answer) {
            for (const char* key : { "predictions", "explanations" }) {
                if (answer.contains(QLatin1String(key))) {
                    answerWith(jsonReply(QJsonObject { { QLatin1String(key), answer.value(QLatin1String(key)) } }));
                    return;
                }
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
                    QStringLiteral("%1 failed: instance %2: %3").arg(verbName).arg(index).arg(message),
                    { { QStringLiteral("instances[%1]").arg(index), message } }));
                return;
            }
            // The version's configuration cannot explain this model (no baseline, too many features for exact
            // Shapley, outputIndices out of range): the request cannot succeed as it is.
            if (answer.value(QStringLiteral("explanation")).toBool()) {
                answerWith(errorReply(RpcCode::FailedPrecondition, QStringLiteral("%1 failed: %2").arg(verbName, message)));
                return;
            }
            answerWith(errorReply(RpcCode::InvalidArgument, QStringLiteral("%1 failed: %2").arg(verbName, message)));
        };
    if (explaining)
        m_prediction->explain(*v, instances.toArray(), explainConfig, std::move(decode));
    else
        m_prediction->predict(
            *v, instances.toArray(), body->value(QStringLiteral("signature_name")).toString(), std::move(decode));
    return Reply();
}

} // namespace Trainyard
