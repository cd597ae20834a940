// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>

namespace Trainyard {

class CtlSession;

/// gcloud's IAM verbs on a job (`gcloud ai-platform jobs get-iam-policy|set-iam-policy|add-iam-policy-binding|
/// remove-iam-policy-binding JOB`), on a model (`gcloud ai-platform models … MODEL`: its policy covers its versions)
/// and on a project (`gcloud projects …-iam-policy… PROJECT_ID`), over the
/// executor's google.iam.v1 methods (app/executor/API.md "Access control"). Policies are the service's Policy JSON
/// (`{"version":1,"etag":"…","bindings":[{"role":"roles/ml.viewer","members":["user:a@b"]}]}`); they print as YAML
/// (`--format=json`: JSON). Adding or removing a binding reads the policy and writes it back with its etag, retried
/// (up to 3 times) when someone else changed it in between (ABORTED), as gcloud does. Exit codes as ExitCode: 0, 1 on
/// an API error or a binding that is not there, 2 on a usage error.
namespace IamCommands {
int getJobPolicy(CtlSession& s, const QStringList& args);
int setJobPolicy(CtlSession& s, const QStringList& args);
int addJobBinding(CtlSession& s, const QStringList& args);
int removeJobBinding(CtlSession& s, const QStringList& args);
int getModelPolicy(CtlSession& s, const QStringList& args);
int setModelPolicy(CtlSession& s, const QStringList& args);
int addModelBinding(CtlSession& s, const QStringList& args);
int removeModelBinding(CtlSession& s, const QStringList& args);
int getProjectPolicy(CtlSession& s, const QStringList& args);
int setProjectPolicy(CtlSession& s, const QStringList& args);
int addProjectBinding(CtlSession& s, const QStringList& args);
int removeProjectBinding(CtlSession& s, const QStringList& args);
} // namespace IamCommands

} // namespace Trainyard
