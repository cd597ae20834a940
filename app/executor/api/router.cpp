// SPDX-License-Identifier: GPL-2.0-or-later
// The router: authentication, the route table (one line per route) and dispatch to the resources.
#include "apicommon.h"
#include "httpapi.h"
#include "routetable.h"

#include "accessstore.h"
#include "auditlogshandler.h"
#include "auditrecorder.h"
#include "auditstore.h"
#include "authorizer.h"
#include "catalogshandler.h"
#include "checkpointshandler.h"
#include "eventshandler.h"
#include "iamhandler.h"
#include "jobshandler.h"
#include "locationshandler.h"
#include "logshandler.h"
#include "metricshandler.h"
#include "modelshandler.h"
#include "operationshandler.h"
#include "partialresponse.h"
#include "predicthandler.h"
#include "prediction.h"
#include "regionshandler.h"
#include "tokenshandler.h"
#include "hyperparameterimportancehandler.h"
#include "trainedmodelhandler.h"
#include "versionshandler.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QUrlQuery>

#include <algorithm>

namespace Trainyard {

using namespace Api;

bool HttpApi::authenticate(const ApiRequest& request, Caller* caller, QString* problem) const
{
    const QByteArray header = request.header("Authorization");
    if (header.isEmpty()) {
        *problem = QStringLiteral("Request is missing required authentication credential. Expected a bearer token "
                                  "(Authorization: Bearer <token>; the admin's token is in the file named by "
                                  "\"tokenFile\" in the executor's runtime file).");
        return false;
    }
    const QByteArray scheme = "bearer ";
    QByteArray presented;
    if (header.size() > scheme.size() && header.left(scheme.size()).toLower() == scheme)
        presented = header.mid(scheme.size()).trimmed();
    // Constant-time comparison: the answer time must not tell how much of a guess was right.
    bool same = !m_token.isEmpty() && presented.size() == m_token.size();
    unsigned char diff = 0;
    for (qsizetype i = 0; same && i < m_token.size(); ++i)
        diff |= static_cast<unsigned char>(presented.at(i) ^ m_token.at(i));
    if (same && diff == 0) {
        *caller = Caller { m_adminMember, Iam::Role::admin(), QString() };
        return true;
    }
    // An access token is looked up by its SHA-256 (all that is stored): the lookup's time depends on the hash,
    // which tells a guesser nothing about the token.
    if (m_access && presented.startsWith("tyk_")) {
        if (const std::optional<TokenRecord> token = m_access->findToken(presented)) {
            if (token->revoked) {
                *problem = QStringLiteral("Request had invalid authentication credentials. The access token "
                                          "tokens/%1 has been revoked.")
                               .arg(token->id);
                return false;
            }
            if (token->isExpired(QDateTime::currentDateTimeUtc())) {
                *problem = QStringLiteral("Request had invalid authentication credentials. The access token "
                                          "tokens/%1 expired at %2.")
                               .arg(token->id, token->expireTime.toString(Qt::ISODate));
                return false;
            }
            *caller = Caller { token->member, token->role, token->id };
            return true;
        }
    }
    *problem = QStringLiteral("Request had invalid authentication credentials. Expected the executor's bearer "
                              "token or an access token (Authorization: Bearer <token>).");
    return false;
}

namespace {

/// What a route's handler gets: the request, the path's captures, and the channel for deferred answers
/// and streams.
struct Call {
    HttpApi* api;
    const ApiRequest& request;
    const HttpApi::Caller& caller;
    const QHash<QString, QString>& params;
    const HttpChannelPtr& channel;
    bool* streaming;
    QString operator[](const char* name) const { return params.value(QLatin1String(name)); }
};

/// A prediction route while no PredictionService is set (HttpApi::setPredictionService()).
HttpApi::Reply noModels()
{
    return Api::errorReply(RpcCode::Unavailable, QStringLiteral("This executor serves no models (no model store)."));
}

} // namespace

/// The API's routes, one line each: method, path template, IAM permission, handler. The permissions are
/// the service's (AI Platform Training's IAM: ml.jobs.* for jobs, ml.projects.getConfig for a project's catalogs,
/// Resource Manager's for a project's policy), and for what the cloud keeps in other services, theirs: a job's
/// logs are Cloud Logging's (logging.logEntries.list), its metrics Cloud Monitoring's (monitoring.timeSeries.list),
/// its checkpoints Cloud Storage objects (storage.objects.get); replicas and events need what reading the job
/// needs. Access tokens are ours (trainyard.tokens.*). iampolicy.h says which role grants what.
struct HttpApi::Routes {
    using Handler = std::function<HttpApi::Reply(const Call&)>;
    RouteTable<Handler> table;

    Routes()
    {
        const QString jobs = QStringLiteral("/v1/projects/{project}/jobs");
        const QString job = jobs + QStringLiteral("/{job}");
        table.add("GET", jobs, QStringLiteral("ml.jobs.list"),
            [](const Call& c) { return c.api->m_jobs->listJobs(c.request, c["project"], c.channel, c.streaming); });
        table.add("POST", jobs, QStringLiteral("ml.jobs.create"),
            [](const Call& c) { return c.api->m_jobs->createJob(c.request, c["project"], c.caller); });
        table.add("GET", job, QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->m_jobs->getJob(c["project"], c["job"]); });
        table.add("PATCH", job, QStringLiteral("ml.jobs.update"),
            [](const Call& c) { return c.api->m_jobs->patchJob(c.request, c["project"], c["job"]); });
        table.add("POST", job + QStringLiteral(":cancel"), QStringLiteral("ml.jobs.cancel"),
            [](const Call& c) { return c.api->m_jobs->cancelJob(c["project"], c["job"]); });
        table.add("GET", job + QStringLiteral(":events"), QStringLiteral("ml.jobs.get"), [](const Call& c) {
            return c.api->m_events->events(c.request, c["project"], c["job"], c.channel, c.streaming);
        });
        table.add("GET", job + QStringLiteral("/replicas"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->m_jobs->replicas(c["project"], c["job"]); });
        table.add("GET", job + QStringLiteral("/logs"), Iam::Permission::logsList(), [](const Call& c) {
            return c.api->m_logsHandler->logs(c.request, c["project"], c["job"], c.channel, c.streaming);
        });
        table.add("GET", job + QStringLiteral("/metrics"), Iam::Permission::metricsList(), [](const Call& c) {
            return c.api->m_metricsHandler
                ? c.api->m_metricsHandler->metrics(c.request, c["project"], c["job"], c.channel, c.streaming)
                : Api::errorReply(RpcCode::Unavailable, QStringLiteral("The metrics store is not open."));
        });
        table.add("GET", job + QStringLiteral("/checkpoints"), Iam::Permission::objectsGet(), [](const Call& c) {
            return c.api->m_checkpointsHandler->checkpoints(c["project"], c["job"], c.channel, c.streaming);
        });
        table.add("GET", job + QStringLiteral("/model"), Iam::Permission::objectsGet(), [](const Call& c) {
            return c.api->m_trainedModel->trainedModel(c.request, c["project"], c["job"], c.channel, c.streaming);
        });
        table.add("GET", job + QStringLiteral("/hyperparameterImportance"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) {
                return c.api->m_importance->importance(c["project"], c["job"], c.channel, c.streaming);
            });
        // A checkpoint name is a relative path: one segment with %2F, or several plain ones.
        table.add(
            "GET", job + QStringLiteral("/checkpoints/{name=**}"), Iam::Permission::objectsGet(), [](const Call& c) {
                return c.api->m_checkpointsHandler->checkpoint(
                    c.request, c["project"], c["job"], c["name"], c.channel, c.streaming);
            });
        for (const char* catalog : { "scaleTiers", "machineTypes", "acceleratorTypes", "runtimeVersions" }) {
            const QString what = QLatin1String(catalog);
            table.add("GET", QStringLiteral("/v1/projects/{project}/") + what, QStringLiteral("ml.projects.getConfig"),
                [what](const Call& c) { return c.api->m_catalogs->catalog(what); });
        }
        table.add("GET", QStringLiteral("/v1/projects/{project}/host"), QStringLiteral("ml.projects.getConfig"),
            [](const Call& c) { return c.api->m_catalogs->host(); });
        table.add("GET", QStringLiteral("/v1/projects/{project}/images"), QStringLiteral("ml.projects.getConfig"),
            [](const Call& c) { return c.api->m_catalogs->images(c.channel, c.streaming); });

        // IAM methods (google.iam.v1.IAMPolicy) on a project (Resource Manager's: POST) and on a job (the
        // service's ml v1: getIamPolicy is a GET; POST is accepted as well). testIamPermissions needs no
        // permission, as the service's: it answers what the caller holds.
        const QString project = QStringLiteral("/v1/projects/{project}");
        const QString modelResource = QStringLiteral("/v1/projects/{project}/models/{model}");
        for (const QString& resource : { project, job, modelResource }) {
            const bool isJob = resource == job;
            const bool isModel = resource == modelResource;
            const QString get = isModel ? Iam::Permission::modelsGetIamPolicy()
                : isJob                 ? Iam::Permission::jobsGetIamPolicy()
                                        : Iam::Permission::projectsGetIamPolicy();
            const QString set = isModel ? Iam::Permission::modelsSetIamPolicy()
                : isJob                 ? Iam::Permission::jobsSetIamPolicy()
                                        : Iam::Permission::projectsSetIamPolicy();
            for (const char* method : { "GET", "POST" })
                table.add(method, resource + QStringLiteral(":getIamPolicy"), get, [](const Call& c) {
                    return c.api->m_iam->getIamPolicy(c.request, c["project"], c["job"], c["model"]);
                });
            table.add("POST", resource + QStringLiteral(":setIamPolicy"), set, [](const Call& c) {
                return c.api->m_iam->setIamPolicy(c.request, c["project"], c["job"], c["model"]);
            });
            table.add("POST", resource + QStringLiteral(":testIamPermissions"), QString(), [](const Call& c) {
                return c.api->m_iam->testIamPermissions(c.request, c.caller, c["project"], c["job"], c["model"]);
            });
        }
        // Access tokens (ours): executor-wide, granted by the admin's role alone (no project's policy applies).
        table.add("GET", QStringLiteral("/v1/tokens"), Iam::Permission::tokensList(),
            [](const Call& c) { return c.api->m_tokens->listTokens(); });
        table.add("POST", QStringLiteral("/v1/tokens"), Iam::Permission::tokensCreate(),
            [](const Call& c) { return c.api->m_tokens->createToken(c.request, c.caller); });
        table.add("POST", QStringLiteral("/v1/tokens/{token}:revoke"), Iam::Permission::tokensRevoke(),
            [](const Call& c) { return c.api->m_tokens->revokeToken(c["token"]); });
        table.add("GET", QStringLiteral("/v1/projects/{project}/regions"), QStringLiteral("ml.projects.getConfig"),
            [](const Call& c) { return c.api->m_regions->regions(c["project"], QString(), c.channel, c.streaming); });
        table.add("GET", QStringLiteral("/v1/projects/{project}/regions/{region}"),
            QStringLiteral("ml.projects.getConfig"),
            [](const Call& c) { return c.api->m_regions->regions(c["project"], c["region"], c.channel, c.streaming); });
        // Where work can run, and the project's config (the service's projects.locations and projects.getConfig).
        table.add("GET", QStringLiteral("/v1/projects/{project}/locations"), QStringLiteral("ml.locations.list"),
            [](const Call& c) { return c.api->m_locations->listLocations(c.request, c["project"]); });
        table.add("GET", QStringLiteral("/v1/projects/{project}/locations/{location}"),
            QStringLiteral("ml.locations.get"),
            [](const Call& c) { return c.api->m_locations->getLocation(c["project"], c["location"]); });
        table.add("GET", QStringLiteral("/v1/projects/{project}:getConfig"), QStringLiteral("ml.projects.getConfig"),
            [](const Call& c) { return c.api->m_locations->getConfig(c["project"]); });
        // Audit logs (Cloud Logging's entries.list over the two audit logs): reading Admin Activity needs
        // logging.logEntries.list; Data Access entries are left out unless the caller also holds
        // logging.privateLogEntries.list (auditLogs()). Project "-" reads every project's entries.
        table.add("GET", QStringLiteral("/v1/projects/{project}/auditLogs"), Iam::Permission::logsList(),
            [](const Call& c) { return c.api->m_auditLogs->list(c.request, c.caller, c["project"]); });

        // Models, versions, operations and online prediction (the service's projects.models, …versions,
        // …operations; its permissions: ml.models.*, ml.versions.*, ml.operations.*).
        const QString models = QStringLiteral("/v1/projects/{project}/models");
        const QString model = models + QStringLiteral("/{model}");
        const QString versions = model + QStringLiteral("/versions");
        const QString version = versions + QStringLiteral("/{version}");
        // Each goes to its resource's handler; UNAVAILABLE when this executor serves no models.
        const auto toModels
            = [](const Call& c, auto call) { return c.api->m_models ? call(*c.api->m_models) : noModels(); };
        const auto toVersions
            = [](const Call& c, auto call) { return c.api->m_versions ? call(*c.api->m_versions) : noModels(); };
        const auto toPredict
            = [](const Call& c, auto call) { return c.api->m_predict ? call(*c.api->m_predict) : noModels(); };
        const auto toOperations
            = [](const Call& c, auto call) { return c.api->m_operations ? call(*c.api->m_operations) : noModels(); };
        table.add("GET", models, QStringLiteral("ml.models.list"), [toModels](const Call& c) {
            return toModels(
                c, [&](ModelsHandler& h) { return h.listModels(c.request, c["project"], c.channel, c.streaming); });
        });
        table.add("POST", models, QStringLiteral("ml.models.create"), [toModels](const Call& c) {
            return toModels(c, [&](ModelsHandler& h) { return h.createModel(c.request, c["project"]); });
        });
        table.add("GET", model, QStringLiteral("ml.models.get"), [toModels](const Call& c) {
            return toModels(c, [&](ModelsHandler& h) { return h.getModel(c["project"], c["model"]); });
        });
        table.add("PATCH", model, QStringLiteral("ml.models.update"), [toModels](const Call& c) {
            return toModels(c, [&](ModelsHandler& h) { return h.patchModel(c.request, c["project"], c["model"]); });
        });
        table.add("DELETE", model, QStringLiteral("ml.models.delete"), [toModels](const Call& c) {
            return toModels(c, [&](ModelsHandler& h) { return h.deleteModel(c["project"], c["model"]); });
        });
        table.add("POST", model + QStringLiteral(":predict"), QStringLiteral("ml.models.predict"),
            [toPredict](const Call& c) {
                return toPredict(c, [&](PredictHandler& h) {
                    return h.predict(c.request, c["project"], c["model"], QString(), c.channel, c.streaming);
                });
            });
        table.add("POST", model + QStringLiteral(":explain"), QStringLiteral("ml.models.predict"),
            [toPredict](const Call& c) {
                return toPredict(c, [&](PredictHandler& h) {
                    return h.explain(c.request, c["project"], c["model"], QString(), c.channel, c.streaming);
                });
            });
        table.add("GET", versions, QStringLiteral("ml.versions.list"), [toVersions](const Call& c) {
            return toVersions(
                c, [&](VersionsHandler& h) { return h.listVersions(c.request, c["project"], c["model"]); });
        });
        table.add("POST", versions, QStringLiteral("ml.versions.create"), [toVersions](const Call& c) {
            return toVersions(
                c, [&](VersionsHandler& h) { return h.createVersion(c.request, c["project"], c["model"]); });
        });
        table.add("GET", version, QStringLiteral("ml.versions.get"), [toVersions](const Call& c) {
            return toVersions(
                c, [&](VersionsHandler& h) { return h.getVersion(c["project"], c["model"], c["version"]); });
        });
        table.add("PATCH", version, QStringLiteral("ml.versions.update"), [toVersions](const Call& c) {
            return toVersions(c,
                [&](VersionsHandler& h) { return h.patchVersion(c.request, c["project"], c["model"], c["version"]); });
        });
        table.add("DELETE", version, QStringLiteral("ml.versions.delete"), [toVersions](const Call& c) {
            return toVersions(
                c, [&](VersionsHandler& h) { return h.deleteVersion(c["project"], c["model"], c["version"]); });
        });
        table.add("POST", version + QStringLiteral(":setDefault"), QStringLiteral("ml.versions.update"),
            [toVersions](const Call& c) {
                return toVersions(
                    c, [&](VersionsHandler& h) { return h.setDefaultVersion(c["project"], c["model"], c["version"]); });
            });
        table.add("GET", version + QStringLiteral("/inputSchema"), QStringLiteral("ml.versions.get"),
            [toVersions](const Call& c) {
                return toVersions(c,
                    [&](VersionsHandler& h) { return h.versionInputSchema(c["project"], c["model"], c["version"]); });
            });
        table.add("GET", version + QStringLiteral("/metrics"), QStringLiteral("ml.versions.get"),
            [toVersions](const Call& c) {
                return toVersions(
                    c, [&](VersionsHandler& h) { return h.versionMetrics(c["project"], c["model"], c["version"]); });
            });
        table.add("GET", version + QStringLiteral("/logs"), Iam::Permission::logsList(), [toVersions](const Call& c) {
            return toVersions(c,
                [&](VersionsHandler& h) { return h.versionLogs(c.request, c["project"], c["model"], c["version"]); });
        });
        table.add("POST", version + QStringLiteral(":predict"), QStringLiteral("ml.versions.predict"),
            [toPredict](const Call& c) {
                return toPredict(c, [&](PredictHandler& h) {
                    return h.predict(c.request, c["project"], c["model"], c["version"], c.channel, c.streaming);
                });
            });
        table.add("POST", version + QStringLiteral(":explain"), QStringLiteral("ml.versions.predict"),
            [toPredict](const Call& c) {
                return toPredict(c, [&](PredictHandler& h) {
                    return h.explain(c.request, c["project"], c["model"], c["version"], c.channel, c.streaming);
                });
            });
        const QString operations = QStringLiteral("/v1/projects/{project}/operations");
        table.add("GET", operations, QStringLiteral("ml.operations.list"), [toOperations](const Call& c) {
            return toOperations(c, [&](OperationsHandler& h) { return h.listOperations(c.request, c["project"]); });
        });
        table.add("GET", operations + QStringLiteral("/{operation}"), QStringLiteral("ml.operations.get"),
            [toOperations](const Call& c) {
                return toOperations(
                    c, [&](OperationsHandler& h) { return h.getOperation(c["project"], c["operation"]); });
            });
        table.add("POST", operations + QStringLiteral("/{operation}:cancel"), QStringLiteral("ml.operations.cancel"),
            [toOperations](const Call& c) {
                return toOperations(
                    c, [&](OperationsHandler& h) { return h.cancelOperation(c["project"], c["operation"]); });
            });

        // The service's location-scoped operations (projects.locations.operations.get and .cancel): the project's
        // operations, whatever the location (prediction runs on this host, which every region but a Slurm
        // cluster's means, as trainyardctl's --region).
        const QString locatedOperation
            = QStringLiteral("/v1/projects/{project}/locations/{location}/operations/{operation}");
        table.add("GET", locatedOperation, QStringLiteral("ml.operations.get"), [toOperations](const Call& c) {
            return toOperations(c, [&](OperationsHandler& h) { return h.getOperation(c["project"], c["operation"]); });
        });
        table.add("POST", locatedOperation + QStringLiteral(":cancel"), QStringLiteral("ml.operations.cancel"),
            [toOperations](const Call& c) {
                return toOperations(
                    c, [&](OperationsHandler& h) { return h.cancelOperation(c["project"], c["operation"]); });
            });
        // What the service's API description has and this executor does not serve: 501 UNIMPLEMENTED saying why,
        // rather than a 404 that reads as a wrong URL (tst_conformance lists these methods).
        const auto unimplemented = [](const QString& why) {
            return [why](const Call&) { return Api::errorReply(RpcCode::Unimplemented, why); };
        };
        const QString vizier = QStringLiteral(
            "The AI Platform Vizier API (projects.locations.studies and their trials) is not served by this executor: "
            "hyperparameter tuning runs inside a training job (trainingInput.hyperparameters), whose trials are "
            "trainingOutput.trials.");
        // Whoever may read the project's config may learn that (the answer names no resource of its).
        for (const char* method : { "GET", "POST", "DELETE" }) {
            table.add(method, QStringLiteral("/v1/projects/{project}/locations/{location}/studies"),
                QStringLiteral("ml.projects.getConfig"), unimplemented(vizier));
            table.add(method, QStringLiteral("/v1/projects/{project}/locations/{location}/studies/{study=**}"),
                QStringLiteral("ml.projects.getConfig"), unimplemented(vizier));
        }

        // Every route's audit method, once: the router records each call from it (route()).
        for (const auto& route : table.routes())
            audit.insert(&route, AuditRecorder::methodOf(route.method, route.pattern, route.permission));
    }

    QHash<const void*, AuditRecorder::Method> audit;
};

const HttpApi::Routes& HttpApi::routeTable()
{
    static const Routes routes;
    return routes;
}

QList<HttpApi::RouteInfo> HttpApi::routes()
{
    QList<RouteInfo> list;
    for (const auto& r : routeTable().table.routes())
        list << RouteInfo { r.method, r.pattern, r.permission };
    return list;
}

bool HttpApi::takeWriteQuota(const QString& principal, qint64* retryMs)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const double perMs = m_transport.writesPerMinute / 60000.0;
    const auto [it, fresh] = [this, &principal] {
        auto found = m_writeQuota.find(principal);
        if (found != m_writeQuota.end())
            return std::make_pair(found, false);
        // Principals are the admin and access tokens' members: few, and each one's entry is a few bytes.
        return std::make_pair(m_writeQuota.insert(principal, WriteQuota {}), true);
    }();
    WriteQuota& q = *it;
    if (fresh)
        q.left = m_transport.writeBurst;
    else
        q.left = std::min<double>(m_transport.writeBurst, q.left + (now - q.refilledMs) * perMs);
    q.refilledMs = now;
    if (q.left >= 1) {
        q.left -= 1;
        return true;
    }
    *retryMs = perMs > 0 ? qint64((1 - q.left) / perMs) : 60000;
    return false;
}

FieldViolations HttpApi::pathViolations(const RouteInfo& route, const QHash<QString, QString>& params)
{
    FieldViolations violations;
    // The service names the resource a path addresses `name`, and the collection a list or create addresses
    // `parent` (AIP-131, AIP-132): "projects/p" is the parent of its jobs, "projects/p/jobs/j" a job's name.
    const bool collection = !route.pattern.section(QLatin1Char('/'), -1).contains(QLatin1Char('{'));
    const QString field = collection ? QStringLiteral("parent") : QStringLiteral("name");
    if (const auto project = params.constFind(QStringLiteral("project")); project != params.cend()) {
        // Project "-" is Cloud Logging's "every project", on the audit log alone.
        const bool wildcard = *project == QLatin1String("-") && route.pattern.endsWith(QLatin1String("/auditLogs"));
        const QStringList problems = wildcard ? QStringList() : projectIdProblems(*project);
        if (!problems.isEmpty())
            violations.append({ field,
                QStringLiteral("\"%1\" is not a valid project ID: %2")
                    .arg(printable(*project), problems.join(QLatin1Char(' '))) });
    }
    // Every other captured value is looked up before it is used (a job ID that breaks the job ID rule names no job:
    // 404, as any unknown job), and becomes part of a path only through PathName or, for a checkpoint's name,
    // CheckpointIndex::resolve(), which keep it inside its folder; a NUL byte has no place in any of them.
    for (auto it = params.cbegin(); it != params.cend(); ++it) {
        if (it.key() != QLatin1String("project") && it->contains(QChar(0)))
            violations.append({ field, QStringLiteral("The path's %1 contains a NUL character.").arg(it.key()) });
    }
    return violations;
}

HttpApi::Reply HttpApi::route(
    const ApiRequest& request, const Caller& caller, const HttpChannelPtr& channel, bool* streaming)
{
    const QByteArray& methodName = request.method();
    const QString encodedPath = request.url().path(QUrl::FullyEncoded);
    // Made only when needed: a JSON error built for every request cost more than the route's match.
    auto notFound = [&request] {
        return errorReply(RpcCode::NotFound,
            QStringLiteral("The requested URL %1 was not found on this server.").arg(request.url().path()));
    };
    if (!encodedPath.startsWith(QLatin1Char('/')))
        return notFound();
    QStringList segments;
    for (const QString& part : encodedPath.mid(1).split(QLatin1Char('/')))
        segments.append(QUrl::fromPercentEncoding(part.toUtf8()));
    const auto match = routeTable().table.match(methodName, segments);
    switch (match.kind) {
    case RouteTable<Routes::Handler>::Match::Kind::NotFound:
        return notFound();
    case RouteTable<Routes::Handler>::Match::Kind::MethodNotAllowed: {
        Reply reply = errorReply(405, Rpc::name(RpcCode::Unimplemented),
            QStringLiteral("Method %1 is not allowed on %2; allowed: %3.")
                .arg(QString::fromLatin1(methodName), request.url().path(), QString::fromLatin1(match.allowed)));
        reply.headers.append(qMakePair(QByteArray("Allow"), match.allowed));
        return reply;
    }
    case RouteTable<Routes::Handler>::Match::Kind::Found:
        break;
    }
    // The path's values are checked before anything uses them (authorisation, audit, the stores, folder names): a
    // project ID and a job ID become folder names in the data folder, so "..%2F..%2Ftmp" must never reach a path.
    if (const FieldViolations bad = pathViolations(
            RouteInfo { match.route->method, match.route->pattern, match.route->permission }, match.params);
        !bad.isEmpty())
        return errorReply(RpcCode::InvalidArgument, QStringLiteral("Request contains an invalid argument."), bad);
    // The standard system parameters of Google's JSON APIs (the ml v1 discovery document lists them), checked before
    // the call: `fields` selects a partial response (PartialResponse); `alt` is `json`, the one representation here;
    // `$.xgafv` chooses the error format, 1 or 2, the same JSON here; `prettyPrint` is accepted (answers stay
    // compact). A malformed one is a 400 naming it, and the call is not made.
    std::optional<PartialResponse> partial;
    if (request.url().hasQuery()) {
        // By their decoded names: a client may send `$` as %24.
        for (const auto& [name, value] : request.query().queryItems(QUrl::FullyDecoded)) {
            if (name == QLatin1String("fields")) {
                QString problem;
                partial = PartialResponse::parse(value, &problem);
                if (!partial)
                    return invalidArgument(QStringLiteral("fields"), problem);
            } else if (name == QLatin1String("alt") && value != QLatin1String("json")) {
                return invalidArgument(QStringLiteral("alt"),
                    QStringLiteral("must be json: this executor answers JSON only (no media, proto)"));
            } else if (name == QLatin1String("$.xgafv") && value != QLatin1String("1") && value != QLatin1String("2")) {
                return invalidArgument(QStringLiteral("$.xgafv"), QStringLiteral("must be 1 or 2 (the error format)"));
            }
        }
    }
    // Calls that change something are rationed per principal before anything else is done for them, denied ones
    // included: each writes an audit entry, so this bounds how fast any caller can grow the audit log.
    const AuditRecorder::Method& auditOfRoute = routeTable().audit.value(match.route);
    if (auditOfRoute.adminActivity) {
        qint64 retryMs = 0;
        if (!takeWriteQuota(caller.member, &retryMs)) {
            Reply limited = errorReply(RpcCode::ResourceExhausted,
                QStringLiteral("Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute "
                               "per user' (%1, bursts of %2) of service 'ml.googleapis.com' for %3; try again in %4 s.")
                    .arg(m_transport.writesPerMinute)
                    .arg(m_transport.writeBurst)
                    .arg(caller.member)
                    .arg((retryMs + 999) / 1000));
            limited.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray::number((retryMs + 999) / 1000)));
            return limited;
        }
    }
    // Authorisation, once for every route: the route's permission against what the caller holds on the resource
    // the path names. A job that does not exist grants nothing, so a caller without the permission on the project
    // gets the same 403 for a job that exists and one that does not (the service's "(or it may not exist)").
    const QString& permission = match.route->permission;
    const QString project = match.params.value(QStringLiteral("project"));
    const QString jobId = match.params.value(QStringLiteral("job"));
    const QString modelId = match.params.value(QStringLiteral("model"));
    // Audit, once for every route (API.md, "Audit logs"): Admin Activity always, Data Access when enabled.
    const AuditRecorder::Method& audit = auditOfRoute;
    AuditRecorder& recorder = *m_auditRecorder;
    const bool record = recorder.records(audit);
    if (m_checkPermissions && !permission.isEmpty()
        && !m_authorizer->permitted(caller, permission, project, jobId, modelId)) {
        QString resource;
        if (!jobId.isEmpty())
            resource = jobName(project, jobId);
        else if (!modelId.isEmpty())
            resource = PredictionJson::modelResourceName(project, modelId);
        else if (!project.isEmpty())
            resource = QStringLiteral("projects/") + project;
        else
            resource = match.params.contains(QStringLiteral("token"))
                ? QStringLiteral("tokens/") + match.params.value(QStringLiteral("token"))
                : QStringLiteral("tokens");
        qCInfo(lcApi).noquote() << caller.member << "denied" << permission << "on" << resource;
        Reply denied = errorReply(RpcCode::PermissionDenied,
            QStringLiteral("Permission '%1' denied on resource '%2' (or it may not exist).").arg(permission, resource));
        // A denial changed nothing: an entry that cannot be written is logged (write()), the answer stands.
        if (record && audit.adminActivity)
            recorder.write(recorder.entry(request, caller, audit, permission, match.params, denied, false), nullptr);
        else if (record)
            recorder.writeLater(request, caller, audit, permission, match.params, denied, false);
        return denied;
    }
    // A stream holds its connection and a subscription for as long as its job lives: a principal gets a bounded
    // number (TransportOptions::maxStreamsPerPrincipal). `:events` always streams; the others with follow=true.
    if (methodName == "GET"
        && (match.route->pattern.endsWith(QLatin1String(":events"))
            || isTrue(queryValue(request.query(), QStringLiteral("follow"))))
        && openStreams(m_principal) >= m_transport.maxStreamsPerPrincipal) {
        return errorReply(RpcCode::ResourceExhausted,
            QStringLiteral("The caller has %1 open streams, the limit per principal; end one and try again.")
                .arg(m_transport.maxStreamsPerPrincipal));
    }
    // A call that changes something runs only when its entry can be written: SQLite's write lock is taken before
    // it (AuditStore::begin()), so a read-only, locked or broken audit file refuses the call with 503 before it takes
    // effect, and a disk without room for the entry with 429 (as a job that cannot be stored); the entry is then
    // written with the outcome and committed, with the audit file's reserve for a disk that filled meanwhile.
    if (record && audit.adminActivity) {
        QString problem;
        bool diskFull = false;
        // A delete frees space: on a full disk it is let through, on the audit log's reserve (AuditStore::begin()).
        if (!recorder.store()->begin(&problem, &diskFull, methodName == "DELETE")) {
            qCCritical(lcApi).noquote() << "refusing" << audit.methodName << "by" << caller.member
                                        << ": the audit log cannot be written:" << problem;
            if (diskFull)
                return errorReply(RpcCode::ResourceExhausted,
                    QStringLiteral("The executor's data disk is full, so the audit log cannot record the call (%1); "
                                   "the call was not made, because every change must be recorded. Free space where "
                                   "the executor keeps its data and try again.")
                        .arg(problem));
            return errorReply(RpcCode::Unavailable,
                QStringLiteral("The audit log cannot be written (%1); the call was not made, because every change "
                               "must be recorded. Try again later.")
                    .arg(problem));
        }
    }
    Reply reply = match.route->handler(Call { this, request, caller, match.params, channel, streaming });
    // A partial response of an answer given now (a streamed or deferred one — `:predict`, `…/regions` — is whole).
    if (partial && !*streaming && reply.status == 200 && !reply.body.isEmpty())
        reply.body = QJsonDocument(partial->apply(QJsonDocument::fromJson(reply.body).object()).toObject())
                         .toJson(QJsonDocument::Compact);
    if (record && !audit.adminActivity) {
        // A streamed or deferred answer is recorded when the call is accepted (status OK).
        recorder.writeLater(request, caller, audit, permission, match.params, *streaming ? Reply() : reply, true);
    } else if (record) {
        QString problem;
        const bool written = recorder.write(
            recorder.entry(request, caller, audit, permission, match.params, *streaming ? Reply() : reply, true),
            &problem);
        if (!written)
            recorder.store()->rollback();
        else if (!recorder.store()->commit(&problem))
            qCCritical(lcApi).noquote() << "cannot commit the audit entry of" << audit.methodName << ":" << problem;
    }
    return reply;
}

} // namespace Trainyard
