// SPDX-License-Identifier: GPL-2.0-or-later
#include "iamcommands.h"

#include "accessclient.h"
#include "argparser.h"
#include "configloader.h"
#include "ctlsession.h"
#include "printer.h"

#include <QFile>
#include <QJsonObject>

namespace Trainyard {

namespace {

using Resource = AccessClient::Resource;

/// The resource a verb works on and how gcloud's messages name it.
struct Target {
    QString id; ///< the job's or model's ID, or the project
    QString what; ///< "job [j]", "model [m]" or "project [p]"
};

/// The verb's parser with its positional (JOB or PROJECT_ID) and the command's name.
ArgParser parser(Resource r, const QString& verb, const QString& extraSynopsis, const QString& description)
{
    const QString group = r == Resource::Job ? QStringLiteral("jobs")
        : r == Resource::Model               ? QStringLiteral("models")
                                             : QStringLiteral("projects");
    const QString arg = r == Resource::Job ? QStringLiteral("JOB")
        : r == Resource::Model             ? QStringLiteral("MODEL")
                                           : QStringLiteral("PROJECT_ID");
    ArgParser p(QStringLiteral("trainyardctl.%1.%2").arg(group, verb),
        QStringLiteral("trainyardctl %1 %2 %3%4").arg(group, verb, arg, extraSynopsis), description);
    p.addPositional(arg,
        r == Resource::Job         ? QStringLiteral("The job's ID.")
            : r == Resource::Model ? QStringLiteral("The model's name; its policy covers its versions too.")
                                   : QStringLiteral("The project (the executor's projects are created by their first "
                                                    "job; 'local' is the default)."));
    return p;
}

Target target(Resource r, const ArgParser& p)
{
    if (r == Resource::Job) {
        const QString job = p.positional(QStringLiteral("JOB"));
        return { job, QStringLiteral("job [%1]").arg(job) };
    }
    if (r == Resource::Model) {
        const QString model = p.positional(QStringLiteral("MODEL"));
        return { model, QStringLiteral("model [%1]").arg(model) };
    }
    const QString project = p.positional(QStringLiteral("PROJECT_ID"));
    return { project, QStringLiteral("project [%1]").arg(project) };
}

bool checkFormat(CtlSession& s, const ArgParser& p)
{
    return s.checkFormat(p, { QStringLiteral("yaml"), QStringLiteral("json") });
}

int getPolicy(Resource r, CtlSession& s, const QStringList& args)
{
    ArgParser p = parser(r, QStringLiteral("get-iam-policy"), QString(),
        QStringLiteral("get the IAM policy\nPrints the policy: its bindings of roles to members, its etag and version "
                       "(google.iam.v1.Policy)."));
    if (!p.parse(args))
        return s.usage(p);
    if (!checkFormat(s, p))
        return ExitCode::Usage;
    ApiClient* client = s.client(p.command());
    if (!client)
        return ExitCode::Error;
    const Target t = target(r, p);
    const ApiResult<IamPolicy> got = AccessClient(client).getIamPolicyBlocking(r, t.id);
    if (!got.ok()) {
        s.printApiError(p.command(), got.error);
        return ExitCode::Error;
    }
    s.printResource(got.value.toJson());
    return ExitCode::Ok;
}

int setPolicy(Resource r, CtlSession& s, const QStringList& args)
{
    ArgParser p = parser(r, QStringLiteral("set-iam-policy"), QStringLiteral(" POLICY_FILE"),
        QStringLiteral("set the IAM policy\nReplaces the bindings with those of POLICY_FILE (JSON or YAML, as "
                       "get-iam-policy prints it). With an etag in the file the change is refused when the policy "
                       "changed since it was read; without one it overwrites."));
    p.addPositional(QStringLiteral("POLICY_FILE"), QStringLiteral("The policy, JSON or YAML."));
    if (!p.parse(args))
        return s.usage(p);
    if (!checkFormat(s, p))
        return ExitCode::Usage;
    const QString file = p.positional(QStringLiteral("POLICY_FILE"));
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        s.err() << "ERROR: (" << p.command() << ") Unable to read file [" << file << "]: " << f.errorString() << '\n';
        return ExitCode::Error;
    }
    QString error;
    const ConfigLoader::Format format = file.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
        ? ConfigLoader::Format::Json
        : ConfigLoader::Format::Yaml;
    const std::optional<QJsonObject> policy = ConfigLoader::toJsonObject(f.readAll(), format, &error);
    if (!policy) {
        s.err() << "ERROR: (" << p.command() << ") Failed to parse policy file [" << file << "]: " << error << '\n';
        return ExitCode::Error;
    }
    ApiClient* client = s.client(p.command());
    if (!client)
        return ExitCode::Error;
    const Target t = target(r, p);
    const ApiResult<IamPolicy> set = AccessClient(client).setIamPolicyBlocking(r, t.id, IamPolicy::fromJson(*policy));
    if (!set.ok()) {
        s.printApiError(p.command(), set.error);
        return ExitCode::Error;
    }
    s.err() << "Updated IAM policy for " << t.what << ".\n";
    s.err().flush();
    s.printResource(set.value.toJson());
    return ExitCode::Ok;
}

/// add-iam-policy-binding (`add`) or remove-iam-policy-binding.
int changeBinding(Resource r, bool add, CtlSession& s, const QStringList& args)
{
    ArgParser p = parser(r,
        add ? QStringLiteral("add-iam-policy-binding") : QStringLiteral("remove-iam-policy-binding"),
        QStringLiteral(" --member=MEMBER --role=ROLE"),
        add ? QStringLiteral("add a binding to the IAM policy\nGrants ROLE to MEMBER (read, change, write back with "
                             "the policy's etag).")
            : QStringLiteral("remove a binding from the IAM policy\nTakes ROLE from MEMBER (read, change, write back "
                             "with the policy's etag)."));
    p.addFlag(QStringLiteral("member"), QStringLiteral("MEMBER"),
        QStringLiteral("user:EMAIL, serviceAccount:EMAIL, group:EMAIL or domain:DOMAIN."));
    p.addFlag(QStringLiteral("role"), QStringLiteral("ROLE"),
        QStringLiteral("roles/ml.admin, roles/ml.developer, roles/ml.viewer or (on a job) roles/ml.jobOwner."));
    if (!p.parse(args))
        return s.usage(p);
    if (!checkFormat(s, p))
        return ExitCode::Usage;
    for (const QString& required : { QStringLiteral("member"), QStringLiteral("role") }) {
        if (p.value(required).isEmpty()) {
            s.err() << p.usageError(QStringLiteral("argument --%1: Must be specified.").arg(required));
            return ExitCode::Usage;
        }
    }
    const QString member = p.value(QStringLiteral("member"));
    const QString role = p.value(QStringLiteral("role"));
    ApiClient* client = s.client(p.command());
    if (!client)
        return ExitCode::Error;
    const Target t = target(r, p);
    AccessClient access(client);
    for (int attempt = 0;; ++attempt) {
        const ApiResult<IamPolicy> got = access.getIamPolicyBlocking(r, t.id);
        if (!got.ok()) {
            s.printApiError(p.command(), got.error);
            return ExitCode::Error;
        }
        IamPolicy policy = got.value;
        const bool changed = add ? policy.addBinding(role, member) : policy.removeBinding(role, member);
        if (!add && !changed) {
            // gcloud's words for it.
            s.err() << "ERROR: (" << p.command()
                    << ") Policy binding with the specified principal, role, and condition not found!\n";
            return ExitCode::Error;
        }
        if (!changed) {
            s.printResource(policy.toJson()); // already bound: nothing to write
            return ExitCode::Ok;
        }
        const ApiResult<IamPolicy> set = access.setIamPolicyBlocking(r, t.id, policy);
        if (set.ok()) {
            s.err() << "Updated IAM policy for " << t.what << ".\n";
            s.err().flush();
            s.printResource(set.value.toJson());
            return ExitCode::Ok;
        }
        // Someone else changed the policy between the read and the write: read it again (gcloud retries too).
        if (set.error.status != QLatin1String("ABORTED") || attempt >= 2) {
            s.printApiError(p.command(), set.error);
            return ExitCode::Error;
        }
    }
}

} // namespace

int IamCommands::getJobPolicy(CtlSession& s, const QStringList& args)
{
    return getPolicy(Resource::Job, s, args);
}
int IamCommands::setJobPolicy(CtlSession& s, const QStringList& args)
{
    return setPolicy(Resource::Job, s, args);
}
int IamCommands::addJobBinding(CtlSession& s, const QStringList& args)
{
    return changeBinding(Resource::Job, true, s, args);
}
int IamCommands::removeJobBinding(CtlSession& s, const QStringList& args)
{
    return changeBinding(Resource::Job, false, s, args);
}
int IamCommands::getModelPolicy(CtlSession& s, const QStringList& args)
{
    return getPolicy(Resource::Model, s, args);
}
int IamCommands::setModelPolicy(CtlSession& s, const QStringList& args)
{
    return setPolicy(Resource::Model, s, args);
}
int IamCommands::addModelBinding(CtlSession& s, const QStringList& args)
{
    return changeBinding(Resource::Model, true, s, args);
}
int IamCommands::removeModelBinding(CtlSession& s, const QStringList& args)
{
    return changeBinding(Resource::Model, false, s, args);
}
int IamCommands::getProjectPolicy(CtlSession& s, const QStringList& args)
{
    return getPolicy(Resource::Project, s, args);
}
int IamCommands::setProjectPolicy(CtlSession& s, const QStringList& args)
{
    return setPolicy(Resource::Project, s, args);
}
int IamCommands::addProjectBinding(CtlSession& s, const QStringList& args)
{
    return changeBinding(Resource::Project, true, s, args);
}
int IamCommands::removeProjectBinding(CtlSession& s, const QStringList& args)
{
    return changeBinding(Resource::Project, false, s, args);
}

} // namespace Trainyard
