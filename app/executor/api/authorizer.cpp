// SPDX-License-Identifier: GPL-2.0-or-later
#include "authorizer.h"

#include "accessstore.h"
#include "apicommon.h"
#include "jobstore.h"
#include "modelstore.h"
#include "prediction.h"
#include "predictionservice.h"

namespace Trainyard {

using namespace Api;

Authorizer::Authorizer(JobStore* store)
    : m_store(store)
{
}

QString Authorizer::resourceName(const QString& project, const QString& jobId, const QString& modelId)
{
    if (!modelId.isEmpty())
        return PredictionJson::modelResourceName(project, modelId);
    return jobId.isEmpty() ? QStringLiteral("projects/") + project : jobName(project, jobId);
}

Iam::Policy Authorizer::projectPolicy(const QString& project) const
{
    if (!m_access)
        return {};
    return m_access->policy(resourceName(project)).value_or(Iam::Policy {});
}

Iam::Policy Authorizer::jobPolicy(const QString& project, const QString& jobId) const
{
    if (m_access) {
        if (std::optional<Iam::Policy> set = m_access->policy(resourceName(project, jobId)))
            return *set;
    }
    return Iam::defaultJobPolicy(m_store->creator(project, jobId));
}

Iam::Policy Authorizer::modelPolicy(const QString& project, const QString& modelId) const
{
    if (m_access) {
        if (std::optional<Iam::Policy> set = m_access->policy(resourceName(project, QString(), modelId)))
            return *set;
    }
    return {};
}

bool Authorizer::modelExists(const QString& project, const QString& modelId) const
{
    return m_prediction && m_prediction->store()->model(project, modelId).has_value();
}

QSet<QString> Authorizer::permissionsOn(
    const HttpApi::Caller& caller, const QString& project, const QString& jobId, const QString& modelId) const
{
    if (project.isEmpty()) // executor-wide routes (tokens): the token's role alone
        return Iam::permissionsOf(caller.role);
    std::optional<Iam::Policy> resource;
    if (!jobId.isEmpty() && m_store->contains(project, jobId))
        resource = jobPolicy(project, jobId);
    else if (!modelId.isEmpty() && modelExists(project, modelId))
        resource = modelPolicy(project, modelId); // the model's, for it and its versions (as the service's)
    return Iam::effectivePermissions(
        caller.member, caller.role, projectPolicy(project), resource ? &*resource : nullptr);
}

bool Authorizer::permitted(const HttpApi::Caller& caller, const QString& permission, const QString& project,
    const QString& jobId, const QString& modelId) const
{
    // The token's role first: it decides every request of the admin (and most others) without a lookup.
    if (Iam::permissionsOf(caller.role).contains(permission))
        return true;
    return permissionsOn(caller, project, jobId, modelId).contains(permission);
}

} // namespace Trainyard
