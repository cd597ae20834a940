// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

namespace Trainyard {

class Authorizer;
class JobStore;

/// The handler of google.iam.v1.IAMPolicy on a project, a job and a model (app/executor/API.md "IAM methods on
/// projects and jobs"): getIamPolicy (GetPolicyOptions' versions 0, 1 and 3; a version 1 policy), setIamPolicy
/// (`updateMask` of bindings, etag and version; an etag read before someone else's change is refused with ABORTED)
/// and testIamPermissions (no wildcards; a resource that does not exist holds nothing, as the service answers). The
/// policies are the Authorizer's. Main thread.
class IamHandler {
public:
    /// `authorizer` and `store` are not owned and outlive the handler.
    IamHandler(Authorizer* authorizer, JobStore* store);

    /// `jobId` and `modelId` empty: the project's policy; else the job's or the model's.
    HttpApi::Reply getIamPolicy(
        const ApiRequest& request, const QString& project, const QString& jobId, const QString& modelId = QString());
    HttpApi::Reply setIamPolicy(
        const ApiRequest& request, const QString& project, const QString& jobId, const QString& modelId = QString());
    HttpApi::Reply testIamPermissions(const ApiRequest& request, const HttpApi::Caller& caller, const QString& project,
        const QString& jobId, const QString& modelId = QString());

private:
    Authorizer* m_authorizer;
    JobStore* m_store;
};

} // namespace Trainyard
