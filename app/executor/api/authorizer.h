// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"
#include "iampolicy.h"

#include <QSet>
#include <QString>

namespace Trainyard {

class AccessStore;
class JobStore;
class PredictionService;

/// What a caller may do: the service's IAM model as this executor keeps it (iampolicy.h; app/executor/API.md
/// "Access control"). A caller holds its token's role on every project, plus what the project's policy and the
/// policy of the job or model a path names grant its member; a job with no policy set has its creator as
/// roles/ml.jobOwner, a model's policy covers its versions. The router asks permitted() before every handler runs;
/// the IAM methods (IamHandler) and `…/auditLogs` read the same policies through it. Main thread.
class Authorizer {
public:
    /// `store` is not owned and outlives this.
    explicit Authorizer(JobStore* store);

    /// The access tokens and IAM policies (not owned; null: only the tokens' roles count, no policy is kept).
    void setAccessStore(AccessStore* access) { m_access = access; }
    AccessStore* accessStore() const { return m_access; }
    /// The deployed models, for the models' policies (not owned; null: no model exists).
    void setPredictionService(PredictionService* prediction) { m_prediction = prediction; }

    /// The IAM resource name of a project ("projects/p"), a job ("projects/p/jobs/j") or a model
    /// ("projects/p/models/m"), as the policies are kept under.
    static QString resourceName(const QString& project, const QString& jobId = {}, const QString& modelId = {});
    /// The project's policy (none set: empty).
    Iam::Policy projectPolicy(const QString& project) const;
    /// The policy of a job that exists: the one set on it, else its creator as roles/ml.jobOwner.
    Iam::Policy jobPolicy(const QString& project, const QString& jobId) const;
    /// A model's own policy (none set: empty, so the project's roles decide).
    Iam::Policy modelPolicy(const QString& project, const QString& modelId) const;
    bool modelExists(const QString& project, const QString& modelId) const;
    /// What `caller` may do on the project `project` or, with `jobId` or `modelId`, on that job or model
    /// (Iam::effectivePermissions); `project` empty: executor-wide routes (tokens), the token's role alone.
    QSet<QString> permissionsOn(const HttpApi::Caller& caller, const QString& project, const QString& jobId,
        const QString& modelId = QString()) const;
    /// Whether `caller` holds `permission` there: the token's role alone first, so that the admin costs no lookup.
    bool permitted(const HttpApi::Caller& caller, const QString& permission, const QString& project,
        const QString& jobId, const QString& modelId = QString()) const;

private:
    JobStore* m_store;
    AccessStore* m_access = nullptr;
    PredictionService* m_prediction = nullptr;
};

} // namespace Trainyard
