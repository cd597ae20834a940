// SPDX-License-Identifier: GPL-2.0-or-later
// Access control of the real trainyard-executor over HTTP (app/executor/API.md, "Access control"): the admin
// (the token file), two developers, a viewer and a viewer made a job's owner through the job's policy; who may
// create, list, get, cancel and update (own jobs vs others'), read logs, metrics and checkpoints, read and set
// IAM policies (with etags), test permissions; access tokens: admin only, expiry and revocation (401).
#include "apirequest.h"
#include "ctlrun.h"
#include "executorprocess.h"
#include "trainingpackage.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

using Response = Trainyard::Test::ApiResponse;

QString denied(const char* permission, const QString& resource)
{
    // The service's wording, word for word.
    return QStringLiteral("Permission '%1' denied on resource '%2' (or it may not exist).")
        .arg(QLatin1String(permission), resource);
}

QByteArray json(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

class TestAccessApi : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_packageDir;
    Trainyard::Test::ExecutorProcess m_executor { m_root.path() };
    QUrl m_url;
    QNetworkAccessManager m_nam;
    QByteArray m_admin; ///< the token file's token
    QByteArray m_alice; ///< roles/ml.developer
    QByteArray m_bob; ///< roles/ml.developer
    QByteArray m_carol; ///< roles/ml.viewer
    QByteArray m_dave; ///< roles/ml.viewer; made owner of bob's job by its policy
    const QString m_aliceMember = QStringLiteral("user:alice@example.org");
    const QString m_daveMember = QStringLiteral("user:dave@example.org");

    Response send(const QByteArray& token, const QByteArray& verb, const QString& path, const QByteArray& body = {})
    {
        return Trainyard::Test::sendApiRequest(
            m_nam, verb, Trainyard::Test::apiUrl(m_url, path), body, { { "Authorization", "Bearer " + token } });
    }

    QByteArray makeToken(const QString& member, const QString& role)
    {
        const Response r = send(m_admin, "POST", QStringLiteral("/v1/tokens"),
            json({ { QStringLiteral("member"), member }, { QStringLiteral("role"), role } }));
        if (r.status != 200)
            qWarning() << r.body;
        return r.json.value(QStringLiteral("token")).toString().toLatin1();
    }

    QByteArray jobBody(const QString& jobId) const
    {
        return json(QJsonObject {
            { QStringLiteral("jobId"), jobId },
            { QStringLiteral("trainingInput"),
                QJsonObject {
                    { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
                    { QStringLiteral("packageUris"), QJsonArray { m_packageDir } },
                    { QStringLiteral("pythonModule"), QStringLiteral("accesstest.task") },
                    { QStringLiteral("region"), QStringLiteral("us-central1") },
                    // Long enough to be live whenever a test cancels it; the executor stops it at the end.
                    { QStringLiteral("args"), QJsonArray { QStringLiteral("--sleep"), QStringLiteral("600") } },
                } },
        });
    }

    static QString job(const char* id) { return QStringLiteral("/v1/projects/local/jobs/") + QLatin1String(id); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char* sub : { "run", "data", "config", "pkg/accesstest" })
            QVERIFY(QDir().mkpath(m_root.filePath(QString::fromLatin1(sub))));
        QVERIFY(QFile::setPermissions(
            m_root.filePath(QStringLiteral("run")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        m_packageDir = m_root.filePath(QStringLiteral("pkg"));
        QVERIFY(Trainyard::Test::writeTrainingPackage(m_packageDir, QStringLiteral("accesstest"),
            "import sys, time\n"
            "print('hello from accesstest', flush=True)\n"
            "if '--sleep' in sys.argv:\n"
            "    time.sleep(float(sys.argv[sys.argv.index('--sleep') + 1]))\n",
            QStringLiteral("trainyard-accesstest")));

        QString error;
        QVERIFY2(
            m_executor.start({ QStringLiteral("--grace-period"), QStringLiteral("1") }, &error), qPrintable(error));
        m_url = m_executor.url();
        m_admin = m_executor.token();

        m_alice = makeToken(m_aliceMember, QStringLiteral("roles/ml.developer"));
        m_bob = makeToken(QStringLiteral("user:bob@example.org"), QStringLiteral("roles/ml.developer"));
        m_carol = makeToken(QStringLiteral("user:carol@example.org"), QStringLiteral("roles/ml.viewer"));
        m_dave = makeToken(m_daveMember, QStringLiteral("roles/ml.viewer"));
        for (const QByteArray& token : { m_alice, m_bob, m_carol, m_dave })
            QVERIFY(token.startsWith("tyk_"));
    }

    void create()
    {
        QCOMPARE(
            send(m_alice, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("a_job"))).status,
            200);
        QCOMPARE(
            send(m_alice, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("a_other"))).status,
            200);
        QCOMPARE(
            send(m_bob, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("b_job"))).status,
            200);
        QCOMPARE(send(m_admin, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("admin_job")))
                     .status,
            200);
        const Response r
            = send(m_carol, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("c_job")));
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorStatus(), QStringLiteral("PERMISSION_DENIED"));
        QCOMPARE(r.errorMessage(), denied("ml.jobs.create", QStringLiteral("projects/local")));
        QCOMPARE(send(m_admin, "GET", job("c_job")).status, 404); // nothing was stored
    }

    void listAndGet()
    {
        for (const QByteArray& token : { m_admin, m_alice, m_bob, m_carol, m_dave }) {
            const Response list = send(token, "GET", QStringLiteral("/v1/projects/local/jobs"));
            QCOMPARE(list.status, 200);
            QCOMPARE(list.json.value(QStringLiteral("jobs")).toArray().size(), 4);
            QCOMPARE(send(token, "GET", job("a_job")).status, 200);
        }
        // The Job JSON stays the service's: the creator is not in it.
        QVERIFY(!send(m_admin, "GET", job("a_job")).body.contains("alice"));
    }

    void creatorOwnsTheJob()
    {
        const Response r = send(m_carol, "GET", job("a_job") + QStringLiteral(":getIamPolicy"));
        QCOMPARE(r.status, 200);
        const QJsonArray bindings = r.json.value(QStringLiteral("bindings")).toArray();
        QCOMPARE(bindings.size(), 1);
        QCOMPARE(
            bindings.first().toObject().value(QStringLiteral("role")).toString(), QStringLiteral("roles/ml.jobOwner"));
        QCOMPARE(bindings.first().toObject().value(QStringLiteral("members")).toArray(), QJsonArray { m_aliceMember });
        QCOMPARE(r.json.value(QStringLiteral("version")).toInt(), 1);
        QVERIFY(!r.json.value(QStringLiteral("etag")).toString().isEmpty());
        // POST works as well (Resource Manager's form).
        QCOMPARE(send(m_carol, "POST", job("a_job") + QStringLiteral(":getIamPolicy")).json, r.json);
    }

    void cancelAndUpdateOwnOnly()
    {
        // Another developer, and a viewer: denied, in the service's words.
        Response r = send(m_bob, "POST", job("a_job") + QStringLiteral(":cancel"));
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorMessage(), denied("ml.jobs.cancel", QStringLiteral("projects/local/jobs/a_job")));
        QCOMPARE(send(m_carol, "POST", job("a_job") + QStringLiteral(":cancel")).status, 403);
        r = send(m_bob, "PATCH", job("a_job") + QStringLiteral("?updateMask=labels"),
            json({ { QStringLiteral("labels"), QJsonObject { { QStringLiteral("x"), QStringLiteral("y") } } } }));
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorMessage(), denied("ml.jobs.update", QStringLiteral("projects/local/jobs/a_job")));
        QCOMPARE(send(m_alice, "POST", job("admin_job") + QStringLiteral(":cancel")).status, 403);
        // The owner may.
        r = send(m_alice, "PATCH", job("a_job") + QStringLiteral("?updateMask=labels"),
            json({ { QStringLiteral("labels"), QJsonObject { { QStringLiteral("x"), QStringLiteral("y") } } } }));
        QCOMPARE(r.status, 200);
        QCOMPARE(send(m_alice, "POST", job("a_job") + QStringLiteral(":cancel")).status, 200);
        // The admin may cancel anyone's.
        QCOMPARE(send(m_admin, "POST", job("a_other") + QStringLiteral(":cancel")).status, 200);
    }

    void missingJobsCannotBeProbed()
    {
        // Without cancel on the project, a job that does not exist answers exactly as one that does.
        const Response missing = send(m_carol, "POST", job("no_such_job") + QStringLiteral(":cancel"));
        QCOMPARE(missing.status, 403);
        QCOMPARE(missing.errorMessage(), denied("ml.jobs.cancel", QStringLiteral("projects/local/jobs/no_such_job")));
        QCOMPARE(send(m_bob, "POST", job("no_such_job") + QStringLiteral(":cancel")).status, 403);
        QCOMPARE(send(m_bob, "POST", job("no_such_job") + QStringLiteral(":setIamPolicy"),
                     json({ { QStringLiteral("policy"), QJsonObject {} } }))
                     .status,
            403);
        // With the permission, the truth: NOT_FOUND.
        QCOMPARE(send(m_admin, "POST", job("no_such_job") + QStringLiteral(":cancel")).status, 404);
        QCOMPARE(send(m_carol, "GET", job("no_such_job")).status, 404);
    }

    void readLogsMetricsCheckpoints()
    {
        for (const char* suffix : { "/logs", "/metrics", "/checkpoints", "/replicas", ":events" }) {
            const QString path = job("b_job") + QLatin1String(suffix);
            const int adminStatus = send(m_admin, "GET", path).status;
            QVERIFY2(adminStatus != 403, suffix);
            for (const QByteArray& token : { m_alice, m_carol, m_dave })
                QCOMPARE(send(token, "GET", path).status, adminStatus);
        }
        // What a viewer holds on a job, asked the service's way.
        const Response r = send(m_carol, "POST", job("b_job") + QStringLiteral(":testIamPermissions"),
            json({ { QStringLiteral("permissions"),
                QJsonArray { QStringLiteral("ml.jobs.get"), QStringLiteral("ml.jobs.cancel"),
                    QStringLiteral("logging.logEntries.list"), QStringLiteral("monitoring.timeSeries.list"),
                    QStringLiteral("storage.objects.get"), QStringLiteral("ml.jobs.setIamPolicy") } } }));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QStringLiteral("permissions")).toArray(),
            (QJsonArray { QStringLiteral("ml.jobs.get"), QStringLiteral("logging.logEntries.list"),
                QStringLiteral("monitoring.timeSeries.list"), QStringLiteral("storage.objects.get") }));
        // The service: a resource that does not exist has no permissions (not NOT_FOUND); wildcards are refused.
        const Response none = send(m_admin, "POST", job("no_such_job") + QStringLiteral(":testIamPermissions"),
            json({ { QStringLiteral("permissions"), QJsonArray { QStringLiteral("ml.jobs.get") } } }));
        QCOMPARE(none.status, 200);
        QCOMPARE(none.json, QJsonObject {});
        QCOMPARE(send(m_carol, "POST", job("b_job") + QStringLiteral(":testIamPermissions"),
                     json({ { QStringLiteral("permissions"), QJsonArray { QStringLiteral("ml.*") } } }))
                     .status,
            400);
    }

    void ownerSharesItsJob()
    {
        // Dave (a viewer) cannot cancel bob's job until bob, its owner, grants him roles/ml.jobOwner on it.
        QCOMPARE(send(m_dave, "POST", job("b_job") + QStringLiteral(":cancel")).status, 403);
        const Response current = send(m_bob, "GET", job("b_job") + QStringLiteral(":getIamPolicy"));
        QCOMPARE(current.status, 200);
        const QString etag = current.json.value(QStringLiteral("etag")).toString();
        QJsonObject policy = current.json;
        QJsonArray bindings = policy.value(QStringLiteral("bindings")).toArray();
        QJsonObject owners = bindings.first().toObject();
        QJsonArray members = owners.value(QStringLiteral("members")).toArray();
        members.append(m_daveMember);
        owners.insert(QStringLiteral("members"), members);
        bindings.replace(0, owners);
        policy.insert(QStringLiteral("bindings"), bindings);
        // Others may not set it: carol (viewer) and alice (another developer).
        QCOMPARE(send(m_carol, "POST", job("b_job") + QStringLiteral(":setIamPolicy"),
                     json({ { QStringLiteral("policy"), policy } }))
                     .status,
            403);
        const Response aliceTry = send(m_alice, "POST", job("b_job") + QStringLiteral(":setIamPolicy"),
            json({ { QStringLiteral("policy"), policy } }));
        QCOMPARE(aliceTry.errorMessage(), denied("ml.jobs.setIamPolicy", QStringLiteral("projects/local/jobs/b_job")));
        const Response set = send(m_bob, "POST", job("b_job") + QStringLiteral(":setIamPolicy"),
            json({ { QStringLiteral("policy"), policy } }));
        QCOMPARE(set.status, 200);
        QVERIFY(set.json.value(QStringLiteral("etag")).toString() != etag);
        QCOMPARE(
            set.json.value(QStringLiteral("bindings")).toArray().first().toObject().value(QStringLiteral("members")),
            QJsonValue(QJsonArray { QStringLiteral("user:bob@example.org"), m_daveMember }));
        // The same read-modify-write again, with the etag read before: ABORTED, nothing changed.
        QJsonObject stale = policy;
        stale.insert(QStringLiteral("bindings"), QJsonArray {});
        const Response conflict = send(m_bob, "POST", job("b_job") + QStringLiteral(":setIamPolicy"),
            json({ { QStringLiteral("policy"), stale } }));
        QCOMPARE(conflict.status, 409);
        QCOMPARE(conflict.errorStatus(), QStringLiteral("ABORTED"));
        QCOMPARE(send(m_bob, "GET", job("b_job") + QStringLiteral(":getIamPolicy")).json, set.json);
        // A policy with a role or member the executor does not know: INVALID_ARGUMENT naming the field.
        const Response bad = send(m_bob, "POST", job("b_job") + QStringLiteral(":setIamPolicy"),
            json({ { QStringLiteral("policy"),
                QJsonObject { { QStringLiteral("bindings"),
                    QJsonArray { QJsonObject { { QStringLiteral("role"), QStringLiteral("roles/owner") },
                        { QStringLiteral("members"), QJsonArray { QStringLiteral("bob") } } } } } } } }));
        QCOMPARE(bad.status, 400);
        QVERIFY2(bad.body.contains("policy.bindings[0].role") && bad.body.contains("policy.bindings[0].members[0]"),
            bad.body.constData());
        // Now dave may.
        QCOMPARE(send(m_dave, "POST", job("b_job") + QStringLiteral(":cancel")).status, 200);
    }

    void projectPolicy()
    {
        const QString project = QStringLiteral("/v1/projects/local");
        // Only the admin reads and sets the project's policy.
        Response r = send(m_alice, "POST", project + QStringLiteral(":getIamPolicy"));
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorMessage(), denied("resourcemanager.projects.getIamPolicy", QStringLiteral("projects/local")));
        const Response empty = send(m_admin, "POST", project + QStringLiteral(":getIamPolicy"));
        QCOMPARE(empty.status, 200);
        QVERIFY(!empty.json.contains(QStringLiteral("bindings")));
        // Carol becomes a developer of project local: she may create there, and only there.
        const QJsonObject grant { { QStringLiteral("etag"), empty.json.value(QStringLiteral("etag")) },
            { QStringLiteral("bindings"),
                QJsonArray { QJsonObject { { QStringLiteral("role"), QStringLiteral("roles/ml.developer") },
                    { QStringLiteral("members"), QJsonArray { QStringLiteral("user:carol@example.org") } } } } } };
        QCOMPARE(send(m_carol, "POST", project + QStringLiteral(":setIamPolicy"),
                     json({ { QStringLiteral("policy"), grant } }))
                     .status,
            403);
        r = send(
            m_admin, "POST", project + QStringLiteral(":setIamPolicy"), json({ { QStringLiteral("policy"), grant } }));
        QCOMPARE(r.status, 200);
        QCOMPARE(
            send(m_carol, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("c_job"))).status,
            200);
        QCOMPARE(
            send(m_carol, "POST", QStringLiteral("/v1/projects/other-project/jobs"), jobBody(QStringLiteral("c_job")))
                .status,
            403);
        QCOMPARE(send(m_carol, "POST", job("c_job") + QStringLiteral(":cancel")).status, 200);
        // The etag that was current before the grant is stale now.
        const Response conflict = send(
            m_admin, "POST", project + QStringLiteral(":setIamPolicy"), json({ { QStringLiteral("policy"), grant } }));
        QCOMPARE(conflict.status, 409);
        QCOMPARE(conflict.errorStatus(), QStringLiteral("ABORTED"));
        // Without an etag the policy is replaced (the service's rule): back to none.
        QCOMPARE(send(m_admin, "POST", project + QStringLiteral(":setIamPolicy"),
                     json({ { QStringLiteral("policy"), QJsonObject {} } }))
                     .status,
            200);
        QCOMPARE(
            send(m_carol, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("c_job2"))).status,
            403);
    }

    /// gcloud's IAM verbs: `jobs get-iam-policy|add-iam-policy-binding|remove-iam-policy-binding|set-iam-policy JOB`
    /// and `projects get-iam-policy PROJECT`, as the executor's admin (the token file trainyardctl finds), and
    /// what the bindings change for the member.
    void iamVerbs()
    {
        QProcessEnvironment env = m_executor.environment();
        env.insert(QStringLiteral("TRAINYARD_EXECUTOR"), m_url.toString());
        const auto ctl = [&env](const QStringList& args) { return Trainyard::Test::runCtl(env, args); };
        QCOMPARE(
            send(m_bob, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("iam_job"))).status,
            200);
        const QString carol = QStringLiteral("user:carol@example.org");
        // Carol (a viewer) may not cancel bob's job, until she owns it.
        QCOMPARE(send(m_carol, "POST", job("iam_job") + QStringLiteral(":cancel")).status, 403);

        Trainyard::Test::CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("get-iam-policy"),
            QStringLiteral("iam_job"), QStringLiteral("--format=json") });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        const QJsonObject before = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(!before.value(QStringLiteral("etag")).toString().isEmpty(), qPrintable(r.text()));

        const QStringList add { QStringLiteral("jobs"), QStringLiteral("add-iam-policy-binding"),
            QStringLiteral("iam_job"), QStringLiteral("--member=") + carol,
            QStringLiteral("--role=roles/ml.jobOwner") };
        r = ctl(add);
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QVERIFY2(r.err.contains(QLatin1String("Updated IAM policy for job [iam_job].")), qPrintable(r.text()));
        QVERIFY2(r.out.contains(QLatin1String("roles/ml.jobOwner")) && r.out.contains(carol), qPrintable(r.text()));
        // Bound already: nothing written, still fine.
        r = ctl(add);
        QVERIFY2(r.code == 0 && !r.err.contains(QLatin1String("Updated")), qPrintable(r.text()));

        // Removing it, twice: the second time there is nothing to remove.
        QStringList remove = add;
        remove[1] = QStringLiteral("remove-iam-policy-binding");
        r = ctl(remove);
        QVERIFY2(r.code == 0 && !r.out.contains(carol), qPrintable(r.text()));
        r = ctl(remove);
        QVERIFY2(r.code == 1
                && r.err.contains(QLatin1String("Policy binding with the specified principal, role, and "
                                                "condition not found!")),
            qPrintable(r.text()));

        // set-iam-policy from a YAML file as get-iam-policy prints it; a stale etag is refused.
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("get-iam-policy"), QStringLiteral("iam_job") });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        const QString file = m_root.filePath(QStringLiteral("policy.yaml"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(r.out.toUtf8() + "bindings:\n- role: roles/ml.jobOwner\n  members:\n  - " + carol.toUtf8() + '\n');
        }
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("set-iam-policy"), QStringLiteral("iam_job"), file });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QCOMPARE(send(m_carol, "POST", job("iam_job") + QStringLiteral(":cancel")).status, 200);
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("set-iam-policy"), QStringLiteral("iam_job"), file });
        QVERIFY2(r.code == 1 && r.err.contains(QLatin1String("ABORTED")), qPrintable(r.text()));
        const QString broken = m_root.filePath(QStringLiteral("broken.yaml"));
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("bindings: [\n");
        }
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("set-iam-policy"), QStringLiteral("iam_job"), broken });
        QVERIFY2(r.code == 1 && r.err.contains(QLatin1String("Failed to parse policy file")), qPrintable(r.text()));

        r = ctl({ QStringLiteral("projects"), QStringLiteral("get-iam-policy"), QStringLiteral("local"),
            QStringLiteral("--format=json") });
        QVERIFY2(r.code == 0 && QJsonDocument::fromJson(r.out.toUtf8()).object().contains(QStringLiteral("etag")),
            qPrintable(r.text()));
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("add-iam-policy-binding"), QStringLiteral("iam_job"),
            QStringLiteral("--member=") + carol });
        QVERIFY2(
            r.code == 2 && r.err.contains(QLatin1String("argument --role: Must be specified.")), qPrintable(r.text()));
    }

    void tokensAdminOnly()
    {
        Response r = send(m_alice, "GET", QStringLiteral("/v1/tokens"));
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorMessage(), denied("trainyard.tokens.list", QStringLiteral("tokens")));
        QCOMPARE(send(m_carol, "POST", QStringLiteral("/v1/tokens"),
                     json({ { QStringLiteral("member"), QStringLiteral("user:carol@example.org") },
                         { QStringLiteral("role"), QStringLiteral("roles/ml.admin") } }))
                     .status,
            403);
        r = send(m_admin, "GET", QStringLiteral("/v1/tokens"));
        QCOMPARE(r.status, 200);
        const QJsonArray tokens = r.json.value(QStringLiteral("tokens")).toArray();
        QCOMPARE(tokens.size(), 4);
        // Listed, never shown again.
        for (const QByteArray& token : { m_alice, m_bob, m_carol, m_dave })
            QVERIFY(!r.body.contains(token.mid(4)));
        QVERIFY(!tokens.first().toObject().contains(QStringLiteral("token")));
        // Bad requests name the field.
        r = send(m_admin, "POST", QStringLiteral("/v1/tokens"),
            json({ { QStringLiteral("member"), QStringLiteral("user:x@example.org") },
                { QStringLiteral("role"), QStringLiteral("roles/ml.jobOwner") },
                { QStringLiteral("expireTime"), QStringLiteral("2001-01-01T00:00:00Z") } }));
        QCOMPARE(r.status, 400);
        QVERIFY2(
            r.body.contains("\"field\":\"role\"") && r.body.contains("\"field\":\"expireTime\""), r.body.constData());
    }

    void revokedAndExpiredTokens()
    {
        // Revoked: 401 from then on.
        const QByteArray eve = makeToken(QStringLiteral("user:eve@example.org"), QStringLiteral("roles/ml.viewer"));
        QCOMPARE(send(eve, "GET", QStringLiteral("/v1/projects/local/jobs")).status, 200);
        Response r = send(m_admin, "GET", QStringLiteral("/v1/tokens"));
        QString eveName;
        for (const QJsonValue& t : r.json.value(QStringLiteral("tokens")).toArray()) {
            if (t.toObject().value(QStringLiteral("member")).toString() == QLatin1String("user:eve@example.org"))
                eveName = t.toObject().value(QStringLiteral("name")).toString();
        }
        QVERIFY(eveName.startsWith(QLatin1String("tokens/")));
        QCOMPARE(send(m_alice, "POST", QStringLiteral("/v1/") + eveName + QStringLiteral(":revoke")).status, 403);
        r = send(m_admin, "POST", QStringLiteral("/v1/") + eveName + QStringLiteral(":revoke"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QStringLiteral("revoked")).toBool(), true);
        r = send(eve, "GET", QStringLiteral("/v1/projects/local/jobs"));
        QCOMPARE(r.status, 401);
        QCOMPARE(r.errorStatus(), QStringLiteral("UNAUTHENTICATED"));
        QVERIFY2(r.errorMessage().contains(QStringLiteral("revoked")), qPrintable(r.errorMessage()));
        QCOMPARE(send(m_admin, "POST", QStringLiteral("/v1/tokens/0000000000000000:revoke")).status, 404);

        // Expired: valid until its expireTime, 401 after.
        const QString soon = QDateTime::currentDateTimeUtc().addSecs(2).toString(Qt::ISODateWithMs);
        r = send(m_admin, "POST", QStringLiteral("/v1/tokens"),
            json({ { QStringLiteral("member"), QStringLiteral("user:frank@example.org") },
                { QStringLiteral("role"), QStringLiteral("roles/ml.viewer") },
                { QStringLiteral("expireTime"), soon } }));
        QCOMPARE(r.status, 200);
        const QByteArray frank = r.json.value(QStringLiteral("token")).toString().toLatin1();
        QCOMPARE(send(frank, "GET", QStringLiteral("/v1/projects/local/jobs")).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(send(frank, "GET", QStringLiteral("/v1/projects/local/jobs")).status, 401, 15000);
        QVERIFY(send(frank, "GET", QStringLiteral("/v1/projects/local/jobs"))
                    .errorMessage()
                    .contains(QStringLiteral("expired")));
        // Unknown tokens of the access-token shape are refused as any wrong token.
        QCOMPARE(send("tyk_" + QByteArray(43, 'A'), "GET", QStringLiteral("/v1/projects/local/jobs")).status, 401);
    }

    void revokedOrExpiredTokenEndsItsStreams()
    {
        // A stream opened with an access token ends when the token is revoked (at once) or expires (within
        // HttpApi::TokenCheckMs): an `error` event with the 401 a new request would get, then the end. A stream of
        // another token goes on.
        auto open = [this](const QByteArray& token, QByteArray* body) {
            QUrl url = m_url;
            url.setPath(QStringLiteral("/v1/projects/local/jobs"));
            url.setQuery(QStringLiteral("follow=true"));
            QNetworkRequest request(url);
            request.setRawHeader("Authorization", "Bearer " + token);
            QNetworkReply* reply = m_nam.get(request);
            connect(reply, &QNetworkReply::readyRead, reply, [reply, body] { *body += reply->readAll(); });
            return reply;
        };
        auto tokenName = [this](const QString& member) {
            const Response r = send(m_admin, "GET", QStringLiteral("/v1/tokens"));
            for (const QJsonValue& t : r.json.value(QStringLiteral("tokens")).toArray()) {
                if (t.toObject().value(QStringLiteral("member")).toString() == member)
                    return t.toObject().value(QStringLiteral("name")).toString();
            }
            return QString();
        };
        const QByteArray heidi = makeToken(QStringLiteral("user:heidi@example.org"), QStringLiteral("roles/ml.viewer"));
        const QString expireTime = QDateTime::currentDateTimeUtc().addSecs(10).toString(Qt::ISODateWithMs);
        // (10 s: the token is made and its stream opened and authenticated first, on a machine that may be loaded.)
        const Response ivan = send(m_admin, "POST", QStringLiteral("/v1/tokens"),
            json({ { QStringLiteral("member"), QStringLiteral("user:ivan@example.org") },
                { QStringLiteral("role"), QStringLiteral("roles/ml.viewer") },
                { QStringLiteral("expireTime"), expireTime } }));
        QCOMPARE(ivan.status, 200);
        QByteArray heidiBody, carolBody, ivanBody;
        std::unique_ptr<QNetworkReply> heidiStream(open(heidi, &heidiBody));
        std::unique_ptr<QNetworkReply> carolStream(open(m_carol, &carolBody));
        std::unique_ptr<QNetworkReply> ivanStream(
            open(ivan.json.value(QStringLiteral("token")).toString().toLatin1(), &ivanBody));
        // Each stream started (its first event is the list's snapshot).
        QTRY_VERIFY_WITH_TIMEOUT(
            heidiBody.contains("data: ") && carolBody.contains("data: ") && ivanBody.contains("data: "), 15000);
        QCOMPARE(heidiStream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);

        const QString heidiName = tokenName(QStringLiteral("user:heidi@example.org"));
        QVERIFY(heidiName.startsWith(QLatin1String("tokens/")));
        QCOMPARE(send(m_admin, "POST", QStringLiteral("/v1/") + heidiName + QStringLiteral(":revoke")).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(heidiStream->isFinished(), 15000);
        QVERIFY2(heidiBody.contains("event: error\ndata: {\"error\":{\"code\":401,"), heidiBody.right(300).constData());
        QVERIFY(heidiBody.contains("\"status\":\"UNAUTHENTICATED\""));
        QVERIFY(heidiBody.contains(QByteArray(heidiName.toLatin1() + " has been revoked.")));

        // Expired: ended within TokenCheckMs (5 s) of its expireTime (10 s from its creation).
        QTRY_VERIFY_WITH_TIMEOUT(ivanStream->isFinished(), 40000);
        QVERIFY2(ivanBody.contains("event: error\ndata: {\"error\":{\"code\":401,"), ivanBody.right(300).constData());
        QVERIFY(ivanBody.contains("expired at"));

        // Carol's stream goes on.
        QVERIFY(!carolStream->isFinished());
        QVERIFY(!carolBody.contains("event: error"));
        carolStream->abort();
    }

    /// Issue 26, item 3: a denied create of 4 MiB is recorded by what names it, not whole (before: a 4.2 MB audit
    /// entry each), and denied writes count against the caller's write quota, so a viewer cannot grow the audit log
    /// without bound; others' quotas are their own.
    void deniedWritesAreRecordedSmallAndRationed()
    {
        const QByteArray mallory
            = makeToken(QStringLiteral("user:mallory@example.org"), QStringLiteral("roles/ml.viewer"));
        QVERIFY(mallory.startsWith("tyk_"));
        QJsonObject big = QJsonDocument::fromJson(jobBody(QStringLiteral("huge_denied"))).object();
        QJsonObject input = big.value(QStringLiteral("trainingInput")).toObject();
        input.insert(QStringLiteral("args"), QJsonArray { QString(4 * 1024 * 1024 - 4096, QLatin1Char('x')) });
        big.insert(QStringLiteral("trainingInput"), input);
        const QByteArray bigBody = json(big);
        QVERIFY(bigBody.size() > 4 * 1024 * 1024 - 8192 && bigBody.size() <= 4 * 1024 * 1024);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(send(mallory, "POST", QStringLiteral("/v1/projects/local/jobs"), bigBody).status, 403);
        const Response entries = send(m_admin, "GET",
            QStringLiteral("/v1/projects/local/auditLogs?filter=")
                + QString::fromLatin1(QUrl::toPercentEncoding(
                    QStringLiteral("protoPayload.authenticationInfo.principalEmail=mallory@example.org"))));
        QCOMPARE(entries.status, 200);
        const QJsonArray list = entries.json.value(QStringLiteral("entries")).toArray();
        QCOMPARE(list.size(), 3);
        for (const QJsonValue& v : list) {
            const QByteArray entry = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
            QVERIFY2(
                entry.size() < 32 * 1024, qPrintable(QStringLiteral("an audit entry of %1 bytes").arg(entry.size())));
            const QJsonObject payload = v.toObject().value(QStringLiteral("protoPayload")).toObject();
            QCOMPARE(payload.value(QStringLiteral("request"))
                         .toObject()
                         .value(QStringLiteral("job"))
                         .toObject()
                         .value(QStringLiteral("jobId"))
                         .toString(),
                QStringLiteral("huge_denied"));
            QVERIFY2(payload.value(QStringLiteral("metadata")).toObject().contains(QStringLiteral("requestTruncated")),
                entry.left(2000).constData());
        }
        // Denied writes use up the caller's quota (120 at once, 300 a minute): then 429 with Retry-After, unrecorded.
        int denied = 3;
        Response limited;
        for (int i = 0; i < 400 && limited.status == 0; ++i) {
            const Response r = send(
                mallory, "POST", QStringLiteral("/v1/projects/local/jobs"), jobBody(QStringLiteral("small_denied")));
            if (r.status == 403)
                ++denied;
            else
                limited = r;
        }
        QCOMPARE(limited.status, 429);
        QCOMPARE(limited.errorStatus(), QStringLiteral("RESOURCE_EXHAUSTED"));
        QVERIFY2(limited.errorMessage().contains(QLatin1String("Quota exceeded")), qPrintable(limited.errorMessage()));
        QVERIFY2(denied >= 120 && denied < 170, qPrintable(QString::number(denied)));
        // The admin's quota is its own.
        QCOMPARE(send(m_admin, "POST", job("quota_check") + QStringLiteral(":cancel"), "{}").status, 404);
    }

    void cleanupTestCase()
    {
        // SIGTERM: the executor stops the replicas of the jobs still running before it exits.
        m_executor.stop();
    }
};

QTEST_GUILESS_MAIN(TestAccessApi)
#include "tst_accessapi.moc"
