// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard::Iam {

/// The roles the executor knows, with the service's names (AI Platform Training's predefined roles:
/// https://cloud.google.com/iam/docs/roles-permissions/ml, "Access control with IAM" of the training docs).
namespace Role {
inline QString admin()
{
    return QStringLiteral("roles/ml.admin");
}
inline QString developer()
{
    return QStringLiteral("roles/ml.developer");
}
inline QString viewer()
{
    return QStringLiteral("roles/ml.viewer");
}
/// Granted on a job to the principal who created it (the service grants it so, on the job resource).
inline QString jobOwner()
{
    return QStringLiteral("roles/ml.jobOwner");
}
/// Full control of models and their versions (the service's ML Model Owner), granted on the project here.
inline QString modelOwner()
{
    return QStringLiteral("roles/ml.modelOwner");
}
/// Reads models and their versions and predicts with them, nothing else (the service's ML Model User).
inline QString modelUser()
{
    return QStringLiteral("roles/ml.modelUser");
}
} // namespace Role

/// The permissions the routes ask for. The service's names (`ml.*`), Cloud Resource Manager's for a
/// project's policy, and, for what the cloud keeps in other services, those services' names: a job's logs
/// are Cloud Logging entries, its metrics Cloud Monitoring time series, its checkpoints Cloud Storage
/// objects. `trainyard.tokens.*` are ours: tokens stand in for Google's sign-in.
namespace Permission {
inline QString jobsCreate()
{
    return QStringLiteral("ml.jobs.create");
}
inline QString jobsGet()
{
    return QStringLiteral("ml.jobs.get");
}
inline QString jobsList()
{
    return QStringLiteral("ml.jobs.list");
}
inline QString jobsUpdate()
{
    return QStringLiteral("ml.jobs.update");
}
inline QString jobsCancel()
{
    return QStringLiteral("ml.jobs.cancel");
}
inline QString modelsGetIamPolicy()
{
    return QStringLiteral("ml.models.getIamPolicy");
}
inline QString modelsSetIamPolicy()
{
    return QStringLiteral("ml.models.setIamPolicy");
}
inline QString jobsGetIamPolicy()
{
    return QStringLiteral("ml.jobs.getIamPolicy");
}
inline QString jobsSetIamPolicy()
{
    return QStringLiteral("ml.jobs.setIamPolicy");
}
inline QString projectsGetConfig()
{
    return QStringLiteral("ml.projects.getConfig");
}
inline QString projectsGetIamPolicy()
{
    return QStringLiteral("resourcemanager.projects.getIamPolicy");
}
inline QString projectsSetIamPolicy()
{
    return QStringLiteral("resourcemanager.projects.setIamPolicy");
}
inline QString logsList()
{
    return QStringLiteral("logging.logEntries.list");
}
/// Reading Data Access audit logs (Cloud Logging's private logs; Admin Activity needs logsList()).
inline QString privateLogsList()
{
    return QStringLiteral("logging.privateLogEntries.list");
}
inline QString metricsList()
{
    return QStringLiteral("monitoring.timeSeries.list");
}
inline QString objectsGet()
{
    return QStringLiteral("storage.objects.get");
}
inline QString tokensCreate()
{
    return QStringLiteral("trainyard.tokens.create");
}
inline QString tokensList()
{
    return QStringLiteral("trainyard.tokens.list");
}
inline QString tokensRevoke()
{
    return QStringLiteral("trainyard.tokens.revoke");
}
} // namespace Permission

/// Every role name the executor knows (Role::*), in the order above.
QStringList knownRoles();
/// The permissions `role` grants; empty for a role the executor does not know. The service's sets restricted
/// to what the executor serves (jobs, models, versions, operations and the project's configuration), plus:
/// admin, developer and viewer read logs, metrics and checkpoints (the cloud would need Logging, Monitoring
/// and Storage roles for that; here they come with the role that reads the job); admin alone manages tokens
/// and the project's policy (in the cloud the project's owner does); jobOwner reads its job's logs, metrics
/// and checkpoints too. Models have no policies of their own yet, so a developer also creates, updates and deletes
/// the project's versions (in the cloud it is granted roles/ml.modelOwner on the models it creates). A model's own
/// policy (models/{m}:setIamPolicy) grants roles on that model and its versions only.
const QSet<QString>& permissionsOf(const QString& role);
/// Every permission some role grants (testIamPermissions answers only about these).
const QSet<QString>& allPermissions();

/// Whether `member` is an IAM principal the executor can authenticate: `user:EMAIL` or `serviceAccount:EMAIL`
/// (EMAIL: one '@' with text on both sides, no whitespace, at most 254 characters, Google's member syntax).
/// Groups and domains are refused: the executor has no directory to resolve them. `why` gets the reason.
bool isValidMember(const QString& member, QString* why = nullptr);

/// One `bindings[]` entry of a google.iam.v1.Policy: a role and the members it is granted to.
struct Binding {
    QString role;
    QStringList members;
    bool operator==(const Binding&) const = default;
};

/// A google.iam.v1.Policy as the service's JSON has it:
/// `{"version":1,"etag":"BwXu…","bindings":[{"role":"roles/ml.viewer","members":["user:alice@example.org"]}]}`.
/// Only version 1 (no conditions, no audit configs). The etag is computed from the bindings (etag()), so it
/// changes with any change of who holds what; setIamPolicy with a stale one is refused (ABORTED).
struct Policy {
    int version = 1;
    QList<Binding> bindings;

    /// Decodes the `policy` of a setIamPolicy request. Violations name fields under `prefix` ("policy"):
    /// a version other than 1 (or 0, read as 1), a binding without a role or with a role the executor does not
    /// know, an invalid member, a condition (not supported), an unknown field. `etag` (when given) goes to
    /// *etag, for the caller's check. On any violation the value must not be used.
    static Policy fromJson(
        const QJsonObject& json, const QString& prefix, FieldViolations* violations, QString* etag = nullptr);
    /// The service's JSON, etag included; an empty `bindings` is left out, as the service does.
    QJsonObject toJson() const;
    /// base64 of the first 8 bytes of SHA-256 over the bindings in a canonical order (roles sorted, members
    /// sorted and deduplicated): equal grants, equal etag.
    QString etag() const;
    /// Merges bindings of one role, sorts roles and members, drops duplicate members and empty bindings.
    Policy normalized() const;
    /// The roles `member` holds in this policy.
    QStringList rolesOf(const QString& member) const;
    bool operator==(const Policy&) const = default;
};

/// What a caller may do on one resource: the union of the permissions of the caller's token role (granted on
/// every project of the executor), of its roles in the project's policy and, for a job, in the job's policy
/// (the service's inheritance: a project's grants hold on its jobs). `jobPolicy` null for a project-level
/// resource or a job that does not exist.
QSet<QString> effectivePermissions(
    const QString& member, const QString& tokenRole, const Policy& projectPolicy, const Policy* jobPolicy);

/// The policy a job has until someone sets one: its creator holds roles/ml.jobOwner (empty creator: no
/// binding, for jobs stored before creators were recorded).
Policy defaultJobPolicy(const QString& creator);

} // namespace Trainyard::Iam
