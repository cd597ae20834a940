// SPDX-License-Identifier: GPL-2.0-or-later
// The API's route table (app/executor/api/routetable.h): path templates with captures, custom verbs and
// rest-of-path names; 404 vs 405 with the allowed methods; and every route of HttpApi naming the service's
// IAM permission.
#include "httpapi.h"
#include "iampolicy.h"
#include "routetable.h"

#include <QTest>

using namespace Trainyard;

namespace {

QStringList path(const char* p)
{
    return QString::fromLatin1(p).mid(1).split(QLatin1Char('/'));
}

} // namespace

class TestRouteTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void templates()
    {
        RouteTable<int> t;
        t.add("GET", QStringLiteral("/v1/projects/{project}/jobs"), QStringLiteral("ml.jobs.list"), 1);
        t.add("POST", QStringLiteral("/v1/projects/{project}/jobs"), QStringLiteral("ml.jobs.create"), 2);
        t.add("GET", QStringLiteral("/v1/projects/{project}/jobs/{job}"), QStringLiteral("ml.jobs.get"), 3);
        t.add("POST", QStringLiteral("/v1/projects/{project}/jobs/{job}:cancel"), QStringLiteral("ml.jobs.cancel"), 4);
        t.add("GET", QStringLiteral("/v1/projects/{project}/jobs/{job}/checkpoints/{name=**}"),
            QStringLiteral("ml.jobs.get"), 5);
        using Kind = RouteTable<int>::Match::Kind;

        auto m = t.match("POST", path("/v1/projects/p1/jobs"));
        QCOMPARE(m.kind, Kind::Found);
        QCOMPARE(m.route->handler, 2);
        QCOMPARE(m.params.value(QStringLiteral("project")), QStringLiteral("p1"));

        m = t.match("GET", path("/v1/projects/p1/jobs/j_1"));
        QCOMPARE(m.route->handler, 3);
        QCOMPARE(m.params.value(QStringLiteral("job")), QStringLiteral("j_1"));

        m = t.match("POST", path("/v1/projects/p1/jobs/j_1:cancel"));
        QCOMPARE(m.kind, Kind::Found);
        QCOMPARE(m.route->handler, 4);
        QCOMPARE(m.params.value(QStringLiteral("job")), QStringLiteral("j_1"));

        // The verb's route takes only POST: GET is 405 with Allow, never a job called "j_1:cancel".
        m = t.match("GET", path("/v1/projects/p1/jobs/j_1:cancel"));
        QCOMPARE(m.kind, Kind::MethodNotAllowed);
        QCOMPARE(m.allowed, QByteArray("POST"));
        QCOMPARE(t.match("GET", path("/v1/projects/p1/jobs/j_1:frobnicate")).kind, Kind::NotFound);
        QCOMPARE(t.match("DELETE", path("/v1/projects/p1/jobs")).allowed, QByteArray("GET, POST"));

        m = t.match("GET", path("/v1/projects/p1/jobs/j/checkpoints/run/ckpt-5"));
        QCOMPARE(m.route->handler, 5);
        QCOMPARE(m.params.value(QStringLiteral("name")), QStringLiteral("run/ckpt-5"));
        QCOMPARE(t.match("GET", path("/v1/projects/p1/jobs/j/checkpoints")).kind, Kind::NotFound);

        // Exact: no trailing slash, no empty segment, no extra segment, no other prefix.
        QCOMPARE(t.match("GET", path("/v1/projects/p1/jobs/")).kind, Kind::NotFound);
        QCOMPARE(t.match("GET", path("/v1/projects//jobs")).kind, Kind::NotFound);
        QCOMPARE(t.match("GET", path("/v1/projects/p1/jobs/j/x")).kind, Kind::NotFound);
        QCOMPARE(t.match("GET", path("/v2/projects/p1/jobs")).kind, Kind::NotFound);
    }

    void everyRouteNamesItsPermission()
    {
        // The service's IAM permissions for AI Platform Training jobs and project configuration, Resource Manager's
        // for a project's policy, Logging's, Monitoring's and Storage's for what the cloud keeps there, and ours for
        // tokens; each one a role grants (iampolicy.h). Empty: testIamPermissions, which needs none.
        const QStringList known { QStringLiteral("ml.jobs.create"), QStringLiteral("ml.jobs.get"),
            QStringLiteral("ml.jobs.list"), QStringLiteral("ml.jobs.update"), QStringLiteral("ml.jobs.cancel"),
            QStringLiteral("ml.jobs.getIamPolicy"), QStringLiteral("ml.jobs.setIamPolicy"),
            QStringLiteral("ml.projects.getConfig"), QStringLiteral("resourcemanager.projects.getIamPolicy"),
            QStringLiteral("resourcemanager.projects.setIamPolicy"), QStringLiteral("logging.logEntries.list"),
            QStringLiteral("monitoring.timeSeries.list"), QStringLiteral("storage.objects.get"),
            QStringLiteral("trainyard.tokens.create"), QStringLiteral("trainyard.tokens.list"),
            QStringLiteral("trainyard.tokens.revoke"), QStringLiteral("ml.models.create"),
            QStringLiteral("ml.models.get"), QStringLiteral("ml.models.list"), QStringLiteral("ml.models.update"),
            QStringLiteral("ml.models.delete"), QStringLiteral("ml.models.predict"),
            QStringLiteral("ml.versions.create"), QStringLiteral("ml.versions.get"), QStringLiteral("ml.versions.list"),
            QStringLiteral("ml.versions.update"), QStringLiteral("ml.versions.delete"),
            QStringLiteral("ml.versions.predict"), QStringLiteral("ml.operations.get"),
            QStringLiteral("ml.operations.list"), QStringLiteral("ml.operations.cancel"),
            QStringLiteral("ml.models.getIamPolicy"), QStringLiteral("ml.models.setIamPolicy"),
            QStringLiteral("ml.locations.list"), QStringLiteral("ml.locations.get") };
        const QList<HttpApi::RouteInfo> routes = HttpApi::routes();
        QVERIFY(routes.size() >= 15);
        QSet<QString> seen;
        for (const HttpApi::RouteInfo& r : routes) {
            if (r.permission.isEmpty())
                QVERIFY2(r.pattern.endsWith(QLatin1String(":testIamPermissions")), qPrintable(r.pattern));
            else
                QVERIFY2(known.contains(r.permission) && Iam::allPermissions().contains(r.permission),
                    qPrintable(r.pattern + QLatin1Char(' ') + r.permission));
            QVERIFY2(r.pattern.startsWith(QLatin1String("/v1/projects/{project}"))
                    || r.pattern.startsWith(QLatin1String("/v1/tokens")),
                qPrintable(r.pattern));
            const QString key = QString::fromLatin1(r.method) + QLatin1Char(' ') + r.pattern;
            QVERIFY2(!seen.contains(key), qPrintable(key));
            seen.insert(key);
        }
        const auto permissionOf = [&](const char* method, const char* pattern) {
            for (const HttpApi::RouteInfo& r : routes) {
                if (r.method == method && r.pattern == QLatin1String(pattern))
                    return r.permission;
            }
            return QString();
        };
        QCOMPARE(permissionOf("POST", "/v1/projects/{project}/jobs"), QStringLiteral("ml.jobs.create"));
        QCOMPARE(permissionOf("POST", "/v1/projects/{project}/jobs/{job}:cancel"), QStringLiteral("ml.jobs.cancel"));
        QCOMPARE(permissionOf("PATCH", "/v1/projects/{project}/jobs/{job}"), QStringLiteral("ml.jobs.update"));
        QCOMPARE(
            permissionOf("GET", "/v1/projects/{project}/jobs/{job}/logs"), QStringLiteral("logging.logEntries.list"));
        QCOMPARE(permissionOf("GET", "/v1/projects/{project}/jobs/{job}/metrics"),
            QStringLiteral("monitoring.timeSeries.list"));
        QCOMPARE(permissionOf("GET", "/v1/projects/{project}/jobs/{job}/checkpoints/{name=**}"),
            QStringLiteral("storage.objects.get"));
        QCOMPARE(permissionOf("GET", "/v1/projects/{project}/jobs/{job}/replicas"), QStringLiteral("ml.jobs.get"));
        QCOMPARE(permissionOf("POST", "/v1/projects/{project}/jobs/{job}:setIamPolicy"),
            QStringLiteral("ml.jobs.setIamPolicy"));
        QCOMPARE(permissionOf("POST", "/v1/projects/{project}:setIamPolicy"),
            QStringLiteral("resourcemanager.projects.setIamPolicy"));
        QCOMPARE(permissionOf("POST", "/v1/tokens"), QStringLiteral("trainyard.tokens.create"));
    }
};

QTEST_GUILESS_MAIN(TestRouteTable)
#include "tst_routetable.moc"
