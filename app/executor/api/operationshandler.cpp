// SPDX-License-Identifier: GPL-2.0-or-later
#include "operationshandler.h"

#include "apicommon.h"
#include "modelstore.h"
#include "predictionservice.h"
#include "resourcelist.h"

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

OperationsHandler::OperationsHandler(PredictionService* prediction)
    : m_prediction(prediction)
{
}

HttpApi::Reply OperationsHandler::listOperations(const ApiRequest& request, const QString& project)
{
    return page(
        request, m_prediction->store()->operations(project), QStringLiteral("operations"), QStringLiteral("operations"),
        [](const OperationResource& o) { return o.id; }, [](const OperationResource& o) { return o.toJson(); });
}

HttpApi::Reply OperationsHandler::getOperation(const QString& project, const QString& id)
{
    const std::optional<OperationResource> op = m_prediction->store()->operation(project, id);
    if (!op)
        return errorReply(RpcCode::NotFound,
            QStringLiteral("Operation projects/%1/operations/%2 was not found.").arg(project, printable(id)));
    return jsonReply(op->toJson());
}

HttpApi::Reply OperationsHandler::cancelOperation(const QString& project, const QString& id)
{
    const std::optional<OperationResource> op = m_prediction->store()->operation(project, id);
    if (!op)
        return errorReply(RpcCode::NotFound,
            QStringLiteral("Operation projects/%1/operations/%2 was not found.").arg(project, printable(id)));
    if (op->done)
        return jsonReply(QJsonObject()); // google.longrunning: cancelling a finished operation changes nothing
    // A version's creation is cancelled by deleting the version: its copy and pip stop, and this operation ends
    // CANCELLED (google.longrunning's Operations.CancelOperation: "the operation … has an error value … CANCELLED").
    const std::optional<PredictionJson::ResourceName> name
        = PredictionJson::parseResourceName(op->version.value(QStringLiteral("name")).toString());
    if (op->operationType == QLatin1String("CREATE_VERSION") && name && !name->version.isEmpty()) {
        const std::optional<VersionResource> v = m_prediction->store()->version(project, name->model, name->version);
        if (v && v->state == VersionState::Creating) {
            QString problem;
            if (!m_prediction->deleteVersion(*v, &problem))
                return storeFailure(QStringLiteral("the version's deletion"), problem);
            return jsonReply(QJsonObject());
        }
    }
    return errorReply(RpcCode::FailedPrecondition,
        QStringLiteral("Operation %1 (%2) cannot be cancelled: only a version's creation can (it deletes the version); "
                       "an update or a deletion runs to its end.")
            .arg(op->resourceName(), op->operationType));
}

} // namespace Trainyard
