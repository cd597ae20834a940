// SPDX-License-Identifier: GPL-2.0-or-later
#include "dispatcher.h"

#include "auditcommands.h"
#include "authcommands.h"
#include "clusterscommands.h"
#include "ctlsession.h"
#include "iamcommands.h"
#include "inspectcheckpoint.h"
#include "inspectevents.h"
#include "jobscommands.h"
#include "localtrain.h"
#include "modelscommands.h"

#include <QCoreApplication>

#include <functional>

namespace Trainyard {

namespace {

using Verb = std::function<int(CtlSession&, const QStringList&)>;

struct Node {
    QString name;
    QString summary;
    Verb verb; ///< set for a command, empty for a group
    QList<Node> children;
};

Node commandTree()
{
    Node jobs { QStringLiteral("jobs"), QStringLiteral("Submit and manage training jobs."), {},
        {
            { QStringLiteral("add-iam-policy-binding"), QStringLiteral("Add an IAM policy binding to a job."),
                &IamCommands::addJobBinding, {} },
            { QStringLiteral("cancel"), QStringLiteral("Cancel a running job."), &JobsCommands::cancel, {} },
            { QStringLiteral("describe"), QStringLiteral("Describe a job."), &JobsCommands::describe, {} },
            { QStringLiteral("get-iam-policy"), QStringLiteral("Get the IAM policy of a job."),
                &IamCommands::getJobPolicy, {} },
            { QStringLiteral("list"), QStringLiteral("List existing jobs."), &JobsCommands::list, {} },
            { QStringLiteral("metrics"),
                QStringLiteral("Print a job's metrics (event-file scalars, hypertune reports, "
                               "resource samples)."),
                &JobsCommands::metrics, {} },
            { QStringLiteral("remove-iam-policy-binding"), QStringLiteral("Remove an IAM policy binding from a job."),
                &IamCommands::removeJobBinding, {} },
            { QStringLiteral("set-iam-policy"), QStringLiteral("Set the IAM policy of a job."),
                &IamCommands::setJobPolicy, {} },
            { QStringLiteral("stream-logs"), QStringLiteral("Show logs from a running job."), &JobsCommands::streamLogs,
                {} },
            { QStringLiteral("submit"), QStringLiteral("Submit jobs to the executor."), {},
                { { QStringLiteral("prediction"), QStringLiteral("Start a batch prediction job."),
                      &JobsCommands::submitPrediction, {} },
                    { QStringLiteral("training"), QStringLiteral("Submit a training job."),
                        &JobsCommands::submitTraining, {} } } },
            { QStringLiteral("update"), QStringLiteral("Update a job's labels."), &JobsCommands::update, {} },
        } };
    Node clusters { QStringLiteral("clusters"),
        QStringLiteral("Show where jobs can run: this host and the Slurm clusters of clusters.yaml."), {},
        {
            { QStringLiteral("check"),
                QStringLiteral("Check that a cluster is reachable, accepts the token and has "
                               "its partition."),
                &ClustersCommands::check, {} },
            { QStringLiteral("describe"), QStringLiteral("Describe a cluster: nodes, partitions, jobs there."),
                &ClustersCommands::describe, {} },
            { QStringLiteral("list"), QStringLiteral("List the clusters and their state."), &ClustersCommands::list,
                {} },
        } };
    Node local { QStringLiteral("local"), QStringLiteral("Run training locally, without the executor."), {},
        { { QStringLiteral("predict"), QStringLiteral("Run prediction locally."), &ModelsCommands::localPredict, {} },
            { QStringLiteral("train"), QStringLiteral("Run a training job locally."), &LocalTrain::run, {} } } };
    // The inspect verbs take their own --format; the session took it as a global flag, so it goes back.
    const auto inspect = [](int (*verb)(const QStringList&, QTextStream&, QTextStream&)) {
        return [verb](CtlSession& s, const QStringList& args) {
            QStringList all = args;
            if (!s.formatSpec().isEmpty())
                all.prepend(QStringLiteral("--format=") + s.formatSpec());
            return verb(all, s.out(), s.err());
        };
    };
    Node inspectGroup { QStringLiteral("inspect"),
        QStringLiteral("Read what trainers write (event files, checkpoints) without a framework."), {},
        { { QStringLiteral("checkpoint"), QStringLiteral("List the tensors of a checkpoint."),
              inspect(&runInspectCheckpoint), {} },
            { QStringLiteral("events"), QStringLiteral("Print the scalars of TensorBoard event files."),
                inspect(&runInspectEvents), {} } } };
    Node auth { QStringLiteral("auth"), QStringLiteral("Manage who may use the executor."), {},
        { { QStringLiteral("activate-token"), QStringLiteral("Keep an account's token for --account."),
              &AuthCommands::activateToken, {} },
            { QStringLiteral("list"), QStringLiteral("List the accounts kept for --account."), &AuthCommands::listAccounts,
                {} },
            { QStringLiteral("revoke"), QStringLiteral("Forget an account's kept tokens."), &AuthCommands::revokeAccount,
                {} },
            { QStringLiteral("tokens"),
            QStringLiteral("Create, list and revoke access tokens (the executor's admin only)."), {},
            { { QStringLiteral("create"), QStringLiteral("Create an access token for a member and a role."),
                  &AuthCommands::createToken, {} },
                { QStringLiteral("list"), QStringLiteral("List access tokens."), &AuthCommands::listTokens, {} },
                { QStringLiteral("revoke"), QStringLiteral("Revoke an access token."), &AuthCommands::revokeToken,
                    {} } } } } };
    Node projects { QStringLiteral("projects"), QStringLiteral("Manage who may do what in a project (IAM)."), {},
        { { QStringLiteral("add-iam-policy-binding"), QStringLiteral("Add an IAM policy binding to a project."),
              &IamCommands::addProjectBinding, {} },
            { QStringLiteral("get-iam-policy"), QStringLiteral("Get the IAM policy of a project."),
                &IamCommands::getProjectPolicy, {} },
            { QStringLiteral("remove-iam-policy-binding"),
                QStringLiteral("Remove an IAM policy binding from a project."), &IamCommands::removeProjectBinding,
                {} },
            { QStringLiteral("set-iam-policy"), QStringLiteral("Set the IAM policy of a project."),
                &IamCommands::setProjectPolicy, {} } } };
    Node audit { QStringLiteral("audit"), QStringLiteral("Read and verify the executor's audit log."), {},
        { { QStringLiteral("list"), QStringLiteral("List audit log entries, newest first."), &AuditCommands::list, {} },
            { QStringLiteral("verify"),
                QStringLiteral("Verify that no audit log entry was changed, removed or "
                               "reordered."),
                &AuditCommands::verify, {} } } };
    using namespace ModelsCommands;
    Node models { QStringLiteral("models"), QStringLiteral("Create and manage models (deploy and predict)."), {},
        { { QStringLiteral("add-iam-policy-binding"), QStringLiteral("Add an IAM policy binding to a model."),
              &IamCommands::addModelBinding, {} },
            { QStringLiteral("create"), QStringLiteral("Create a new model."), &createModel, {} },
            { QStringLiteral("delete"), QStringLiteral("Delete an existing model."), &deleteModel, {} },
            { QStringLiteral("describe"), QStringLiteral("Describe a model."), &describeModel, {} },
            { QStringLiteral("get-iam-policy"), QStringLiteral("Get the IAM policy of a model."),
                &IamCommands::getModelPolicy, {} },
            { QStringLiteral("list"), QStringLiteral("List existing models."), &listModels, {} },
            { QStringLiteral("remove-iam-policy-binding"), QStringLiteral("Remove an IAM policy binding from a model."),
                &IamCommands::removeModelBinding, {} },
            { QStringLiteral("set-iam-policy"), QStringLiteral("Set the IAM policy of a model."),
                &IamCommands::setModelPolicy, {} },
            { QStringLiteral("update"), QStringLiteral("Update an existing model."), &updateModel, {} } } };
    Node versions { QStringLiteral("versions"), QStringLiteral("Deploy models as versions and manage them."), {},
        { { QStringLiteral("create"), QStringLiteral("Create a new model version."), &createVersion, {} },
            { QStringLiteral("delete"), QStringLiteral("Delete an existing model version."), &deleteVersion, {} },
            { QStringLiteral("describe"), QStringLiteral("Describe an existing model version."), &describeVersion, {} },
            { QStringLiteral("list"), QStringLiteral("List existing model versions."), &listVersions, {} },
            { QStringLiteral("set-default"), QStringLiteral("Set an existing version as the default for its model."),
                &setDefaultVersion, {} },
            { QStringLiteral("update"), QStringLiteral("Update an existing model version."), &updateVersion, {} } } };
    Node operations { QStringLiteral("operations"), QStringLiteral("Manage long-running operations."), {},
        { { QStringLiteral("cancel"), QStringLiteral("Cancel an operation."), &cancelOperation, {} },
            { QStringLiteral("describe"), QStringLiteral("Describe an operation."), &describeOperation, {} },
            { QStringLiteral("list"), QStringLiteral("List the project's operations."), &listOperations, {} },
            { QStringLiteral("wait"), QStringLiteral("Wait for an operation to complete."), &waitOperation, {} } } };
    Node predictVerb { QStringLiteral("predict"), QStringLiteral("Run online prediction."), &predict, {} };
    Node explainVerb { QStringLiteral("explain"), QStringLiteral("Run AI Platform explanation."), &explain, {} };
    return { QStringLiteral("trainyardctl"),
        QStringLiteral("Command-line client of Trainyard, the workstation's AI Platform Training."), {},
        { audit, auth, clusters, explainVerb, inspectGroup, jobs, local, models, operations, predictVerb, projects,
            versions } };
}

QString groupHelp(const Node& group, const QStringList& path)
{
    QString text = QStringLiteral("NAME\n    ") + path.join(QLatin1Char(' ')) + QStringLiteral(" - ") + group.summary
        + QStringLiteral("\n\nSYNOPSIS\n    ") + path.join(QLatin1Char(' '))
        + QStringLiteral(" GROUP | COMMAND [--executor=URL] [--project=PROJECT] [--format=FORMAT] [--help]\n    "
                         "[--token-file=FILE] [--pin-sha256=SHA256] [--ca-file=FILE]\n    "
                         "[--quiet, -q] [--log-http] [--verbosity=LEVEL] [--account=ACCOUNT] "
                         "[--configuration=CONFIGURATION]\n");
    QString groups;
    QString commands;
    for (const Node& child : group.children) {
        const QString entry
            = QStringLiteral("\n    ") + child.name + QStringLiteral("\n        ") + child.summary + QLatin1Char('\n');
        (child.verb ? commands : groups) += entry;
    }
    if (!groups.isEmpty())
        text += QStringLiteral("\nGROUPS\n    GROUP is one of the following:\n") + groups;
    if (!commands.isEmpty())
        text += QStringLiteral("\nCOMMANDS\n    COMMAND is one of the following:\n") + commands;
    return text;
}

QString choices(const Node& group)
{
    QStringList names;
    for (const Node& child : group.children)
        names.append(child.name);
    return names.join(QStringLiteral(", "));
}

} // namespace

int Dispatcher::run(const QStringList& arguments, QTextStream& out, QTextStream& err)
{
    CtlSession session(out, err);
    QStringList args = arguments;
    QString error;
    if (!session.takeGlobalFlags(&args, &error)) {
        err << "ERROR: (trainyardctl) " << error << Qt::endl;
        return ExitCode::Usage;
    }
    if (args.value(0) == QLatin1String("--version") || args.value(0) == QLatin1String("version")) {
        out << "trainyardctl " << QCoreApplication::applicationVersion() << Qt::endl;
        return ExitCode::Ok;
    }
    const Node root = commandTree();
    const Node* node = &root;
    QStringList path { root.name };
    qsizetype i = 0;
    while (!node->verb) {
        const QString word = args.value(i);
        if (word.isEmpty() || word == QLatin1String("--help") || word == QLatin1String("-h")
            || word == QLatin1String("help")) {
            if (word.isEmpty()) {
                err << "ERROR: (" << path.join(QLatin1Char('.')) << ") Command name argument expected.\n\n"
                    << groupHelp(*node, path);
                err.flush();
                return ExitCode::Usage;
            }
            out << groupHelp(*node, path);
            out.flush();
            return ExitCode::Ok;
        }
        const Node* next = nullptr;
        for (const Node& child : node->children) {
            if (child.name == word)
                next = &child;
        }
        if (!next) {
            err << "ERROR: (" << path.join(QLatin1Char('.')) << ") Invalid choice: '" << word
                << "'.\nMaybe you meant one of: " << choices(*node) << "\n\nFor detailed information, run:\n  "
                << path.join(QLatin1Char(' ')) << " --help\n";
            err.flush();
            return ExitCode::Usage;
        }
        node = next;
        path.append(word);
        ++i;
    }
    const int code = node->verb(session, args.mid(i));
    out.flush();
    err.flush();
    return code;
}

} // namespace Trainyard
