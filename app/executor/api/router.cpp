// SPDX-License-Identifier: GPL-2.0-or-later
// The router: authentication, the route table (one line per route) and dispatch to the resources.
#include "apicommon.h"
#include "httpapi.h"
#include "routetable.h"

namespace Trainyard {

using namespace Api;

bool HttpApi::authorized(const ApiRequest& request, QString* principal, QString* problem) const
{
    const QByteArray header = request.header("Authorization");
    if (header.isEmpty()) {
        *problem = QStringLiteral("Request is missing required authentication credential. Expected a bearer token "
                                  "(Authorization: Bearer <token>; the token is in the file named by "
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
    if (!same || diff != 0) {
        *problem = QStringLiteral("Request had invalid authentication credentials. Expected the executor's "
                                  "bearer token (Authorization: Bearer <token>).");
        return false;
    }
    // The executor's token is its one principal until principals have tokens of their own.
    *principal = QStringLiteral("executor-token");
    return true;
}

namespace {

/// What a route's handler gets: the request, the path's captures, and the channel for deferred answers
/// and streams.
struct Call {
    HttpApi* api;
    const ApiRequest& request;
    const QHash<QString, QString>& params;
    const HttpChannelPtr& channel;
    bool* streaming;
    QString operator[](const char* name) const { return params.value(QLatin1String(name)); }
};

} // namespace

/// The API's routes, one line each: method, path template, IAM permission, handler. The permissions are
/// the service's (AI Platform Training's IAM: ml.jobs.* for jobs and what hangs off a job, ml.projects.getConfig
/// for a project's catalogs); every extension under a job needs what reading the job needs.
struct HttpApi::Routes {
    using Handler = std::function<HttpApi::Reply(const Call&)>;
    RouteTable<Handler> table;

    Routes()
    {
        const QString jobs = QStringLiteral("/v1/projects/{project}/jobs");
        const QString job = jobs + QStringLiteral("/{job}");
        table.add("GET", jobs, QStringLiteral("ml.jobs.list"),
            [](const Call& c) { return c.api->listJobs(c.request, c["project"], c.channel, c.streaming); });
        table.add("POST", jobs, QStringLiteral("ml.jobs.create"),
            [](const Call& c) { return c.api->createJob(c.request, c["project"]); });
        table.add("GET", job, QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->getJob(c["project"], c["job"]); });
        table.add("PATCH", job, QStringLiteral("ml.jobs.update"),
            [](const Call& c) { return c.api->patchJob(c.request, c["project"], c["job"]); });
        table.add("POST", job + QStringLiteral(":cancel"), QStringLiteral("ml.jobs.cancel"),
            [](const Call& c) { return c.api->cancelJob(c["project"], c["job"]); });
        table.add("GET", job + QStringLiteral(":events"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->events(c.request, c["project"], c["job"], c.channel, c.streaming); });
        table.add("GET", job + QStringLiteral("/replicas"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->replicas(c["project"], c["job"]); });
        table.add("GET", job + QStringLiteral("/logs"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->logs(c.request, c["project"], c["job"], c.channel, c.streaming); });
        table.add("GET", job + QStringLiteral("/metrics"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->metrics(c.request, c["project"], c["job"], c.channel, c.streaming); });
        table.add("GET", job + QStringLiteral("/checkpoints"), QStringLiteral("ml.jobs.get"),
            [](const Call& c) { return c.api->checkpoints(c["project"], c["job"], c.channel, c.streaming); });
        // A checkpoint name is a relative path: one segment with %2F, or several plain ones.
        table.add(
            "GET", job + QStringLiteral("/checkpoints/{name=**}"), QStringLiteral("ml.jobs.get"), [](const Call& c) {
                return c.api->checkpoint(c.request, c["project"], c["job"], c["name"], c.channel, c.streaming);
            });
        for (const char* catalog : { "scaleTiers", "machineTypes", "acceleratorTypes", "runtimeVersions" }) {
            const QString what = QLatin1String(catalog);
            table.add("GET", QStringLiteral("/v1/projects/{project}/") + what, QStringLiteral("ml.projects.getConfig"),
                [what](const Call& c) { return c.api->catalog(what); });
        }
        table.add("GET", QStringLiteral("/v1/projects/{project}/host"), QStringLiteral("ml.projects.getConfig"),
            [](const Call& c) { return c.api->host(); });
    }
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

HttpApi::Reply HttpApi::route(const ApiRequest& request, const HttpChannelPtr& channel, bool* streaming)
{
    const QByteArray& methodName = request.method();
    const QString encodedPath = request.url().path(QUrl::FullyEncoded);
    // Made only when needed: a JSON error built for every request cost more than the route's match.
    auto notFound = [&request] {
        return errorReply(404, QStringLiteral("NOT_FOUND"),
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
        Reply reply = errorReply(405, QStringLiteral("UNIMPLEMENTED"),
            QStringLiteral("Method %1 is not allowed on %2; allowed: %3.")
                .arg(QString::fromLatin1(methodName), request.url().path(), QString::fromLatin1(match.allowed)));
        reply.headers.append(qMakePair(QByteArray("Allow"), match.allowed));
        return reply;
    }
    case RouteTable<Routes::Handler>::Match::Kind::Found:
        break;
    }
    // A stream holds its connection and a subscription for as long as its job lives: a principal gets a bounded
    // number (TransportOptions::maxStreamsPerPrincipal). `:events` always streams; the others with follow=true.
    if (methodName == "GET"
        && (match.route->pattern.endsWith(QLatin1String(":events"))
            || isTrue(queryValue(request.query(), QStringLiteral("follow"))))
        && openStreams(m_principal) >= m_transport.maxStreamsPerPrincipal) {
        return errorReply(429, QStringLiteral("RESOURCE_EXHAUSTED"),
            QStringLiteral("The caller has %1 open streams, the limit per principal; end one and try again.")
                .arg(m_transport.maxStreamsPerPrincipal));
    }
    // Authorisation goes here, once for every route: today the bearer token (checked before routing) grants
    // every permission; the route's permission is what a principal's role will be checked against.
    qCDebug(lcApi).noquote() << methodName << request.url().path() << "needs" << match.route->permission;
    return match.route->handler(Call { this, request, match.params, channel, streaming });
}

} // namespace Trainyard
