// SPDX-License-Identifier: GPL-2.0-or-later
// IAM as the executor evaluates it (app/executor/access/iampolicy.h): each role's permissions (the service's
// sets plus our read and token permissions), members, the Policy JSON and its violations, the etag, and what a
// caller holds from its token's role, the project's policy and a job's policy.
#include "iampolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Trainyard;
using namespace Trainyard::Iam;

namespace {

QJsonObject json(const char* text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

QStringList fields(const FieldViolations& violations)
{
    QStringList list;
    for (const FieldViolation& v : violations)
        list << v.field;
    return list;
}

} // namespace

class TestIamPolicy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rolePermissions_data()
    {
        QTest::addColumn<QString>("role");
        QTest::addColumn<QString>("permission");
        QTest::addColumn<bool>("granted");
        const QString admin = Role::admin(), dev = Role::developer(), viewer = Role::viewer(), owner = Role::jobOwner();
        // The service's sets (https://cloud.google.com/iam/docs/roles-permissions/ml) for jobs and the project.
        QTest::addRow("admin cancels") << admin << QStringLiteral("ml.jobs.cancel") << true;
        QTest::addRow("admin sets job policies") << admin << QStringLiteral("ml.jobs.setIamPolicy") << true;
        QTest::addRow("admin sets the project's policy")
            << admin << QStringLiteral("resourcemanager.projects.setIamPolicy") << true;
        QTest::addRow("admin makes tokens") << admin << QStringLiteral("trainyard.tokens.create") << true;
        QTest::addRow("developer creates") << dev << QStringLiteral("ml.jobs.create") << true;
        QTest::addRow("developer lists") << dev << QStringLiteral("ml.jobs.list") << true;
        QTest::addRow("developer reads job policies") << dev << QStringLiteral("ml.jobs.getIamPolicy") << true;
        QTest::addRow("developer does not cancel (jobOwner does)") << dev << QStringLiteral("ml.jobs.cancel") << false;
        QTest::addRow("developer does not update") << dev << QStringLiteral("ml.jobs.update") << false;
        QTest::addRow("developer makes no tokens") << dev << QStringLiteral("trainyard.tokens.create") << false;
        QTest::addRow("viewer gets") << viewer << QStringLiteral("ml.jobs.get") << true;
        QTest::addRow("viewer reads config") << viewer << QStringLiteral("ml.projects.getConfig") << true;
        QTest::addRow("viewer does not create") << viewer << QStringLiteral("ml.jobs.create") << false;
        QTest::addRow("jobOwner cancels") << owner << QStringLiteral("ml.jobs.cancel") << true;
        QTest::addRow("jobOwner updates") << owner << QStringLiteral("ml.jobs.update") << true;
        QTest::addRow("jobOwner shares") << owner << QStringLiteral("ml.jobs.setIamPolicy") << true;
        QTest::addRow("jobOwner does not list") << owner << QStringLiteral("ml.jobs.list") << false;
        QTest::addRow("jobOwner does not create") << owner << QStringLiteral("ml.jobs.create") << false;
        // Our extensions for what the cloud keeps in Logging, Monitoring and Storage.
        for (const QString& role : { admin, dev, viewer, owner }) {
            for (const char* p : { "logging.logEntries.list", "monitoring.timeSeries.list", "storage.objects.get" })
                QTest::addRow("%s %s", qPrintable(role), p) << role << QString::fromLatin1(p) << true;
        }
        QTest::addRow("unknown role") << QStringLiteral("roles/owner") << QStringLiteral("ml.jobs.get") << false;
        QTest::addRow("no role") << QString() << QStringLiteral("ml.jobs.get") << false;
    }

    void rolePermissions()
    {
        QFETCH(QString, role);
        QFETCH(QString, permission);
        QFETCH(bool, granted);
        QCOMPARE(permissionsOf(role).contains(permission), granted);
        if (granted)
            QVERIFY(allPermissions().contains(permission));
    }

    void rolesNest()
    {
        // viewer ⊂ developer ⊂ admin, as in the service.
        QVERIFY(permissionsOf(Role::developer()).contains(permissionsOf(Role::viewer())));
        QVERIFY(permissionsOf(Role::admin()).contains(permissionsOf(Role::developer())));
        QVERIFY(permissionsOf(Role::admin()).contains(permissionsOf(Role::jobOwner())));
        // modelUser ⊂ modelOwner ⊂ developer (models have no policies of their own yet: iampolicy.h).
        QVERIFY(permissionsOf(Role::modelOwner()).contains(permissionsOf(Role::modelUser())));
        QVERIFY(permissionsOf(Role::developer()).contains(permissionsOf(Role::modelOwner())));
        QVERIFY(!permissionsOf(Role::modelUser()).contains(QStringLiteral("ml.versions.create")));
        QVERIFY(!permissionsOf(Role::viewer()).contains(QStringLiteral("ml.models.predict")));
        QCOMPARE(knownRoles().size(), 6);
    }

    void members_data()
    {
        QTest::addColumn<QString>("member");
        QTest::addColumn<bool>("valid");
        QTest::addRow("user") << QStringLiteral("user:alice@example.org") << true;
        QTest::addRow("service account") << QStringLiteral("serviceAccount:ci@project.iam.example") << true;
        QTest::addRow("localhost admin") << QStringLiteral("user:root@localhost") << true;
        QTest::addRow("no prefix") << QStringLiteral("alice@example.org") << false;
        QTest::addRow("no at") << QStringLiteral("user:alice") << false;
        QTest::addRow("two ats") << QStringLiteral("user:a@b@c") << false;
        QTest::addRow("empty local part") << QStringLiteral("user:@example.org") << false;
        QTest::addRow("space") << QStringLiteral("user:al ice@example.org") << false;
        QTest::addRow("group") << QStringLiteral("group:team@example.org") << false;
        QTest::addRow("allUsers") << QStringLiteral("allUsers") << false;
        QTest::addRow("empty") << QString() << false;
    }

    void members()
    {
        QFETCH(QString, member);
        QFETCH(bool, valid);
        QString why;
        QCOMPARE(isValidMember(member, &why), valid);
        QCOMPARE(why.isEmpty(), valid);
        if (!valid && !member.isEmpty())
            QVERIFY2(why.contains(member), qPrintable(why));
    }

    void policyJson()
    {
        FieldViolations violations;
        QString etag;
        const Policy policy = Policy::fromJson(json(R"({"version":1,"etag":"abc","bindings":[
            {"role":"roles/ml.viewer","members":["user:bob@example.org","user:alice@example.org"]},
            {"role":"roles/ml.admin","members":["user:carol@example.org"]},
            {"role":"roles/ml.viewer","members":["user:alice@example.org"]}]})"),
            QStringLiteral("policy"), &violations, &etag);
        QVERIFY2(violations.isEmpty(), qPrintable(fields(violations).join(QLatin1Char(','))));
        QCOMPARE(etag, QStringLiteral("abc"));
        // Written as the service writes it: version, etag, bindings merged per role and sorted.
        const QJsonObject out = policy.toJson();
        QCOMPARE(out.value(QStringLiteral("version")).toInt(), 1);
        QCOMPARE(out.value(QStringLiteral("etag")).toString(), policy.etag());
        const QJsonArray bindings = out.value(QStringLiteral("bindings")).toArray();
        QCOMPARE(bindings.size(), 2);
        QCOMPARE(bindings.at(0).toObject().value(QStringLiteral("role")).toString(), Role::admin());
        QCOMPARE(bindings.at(1).toObject().value(QStringLiteral("members")).toArray(),
            (QJsonArray { QStringLiteral("user:alice@example.org"), QStringLiteral("user:bob@example.org") }));
        // Read back, the same policy and etag.
        violations.clear();
        const Policy again = Policy::fromJson(out, QStringLiteral("policy"), &violations);
        QVERIFY(violations.isEmpty());
        QCOMPARE(again.normalized(), policy.normalized());
        QCOMPARE(again.etag(), policy.etag());
        // An empty policy has no bindings key, as the service's answer for a resource without one.
        QVERIFY(!Policy {}.toJson().contains(QStringLiteral("bindings")));
    }

    void etagFollowsGrants()
    {
        Policy a;
        a.bindings = { { Role::viewer(), { QStringLiteral("user:a@x.org"), QStringLiteral("user:b@x.org") } } };
        Policy b;
        b.bindings = { { Role::viewer(), { QStringLiteral("user:b@x.org") } },
            { Role::viewer(), { QStringLiteral("user:a@x.org"), QStringLiteral("user:a@x.org") } } };
        QCOMPARE(a.etag(), b.etag()); // the same grants in another order
        Policy c = a;
        c.bindings.first().role = Role::developer();
        QVERIFY(c.etag() != a.etag());
        QVERIFY(Policy {}.etag() != a.etag());
    }

    void policyViolations_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("field");
        QTest::addRow("version 3") << QByteArray(R"({"version":3})") << QStringLiteral("policy.version");
        QTest::addRow("version not a number") << QByteArray(R"({"version":"one"})") << QStringLiteral("policy.version");
        QTest::addRow("unknown role") << QByteArray(R"({"bindings":[{"role":"roles/owner","members":[]}]})")
                                      << QStringLiteral("policy.bindings[0].role");
        QTest::addRow("no role") << QByteArray(R"({"bindings":[{"members":["user:a@b.org"]}]})")
                                 << QStringLiteral("policy.bindings[0].role");
        QTest::addRow("bad member") << QByteArray(
            R"({"bindings":[{"role":"roles/ml.viewer","members":["user:a@b.org","bob"]}]})")
                                    << QStringLiteral("policy.bindings[0].members[1]");
        QTest::addRow("condition") << QByteArray(
            R"({"bindings":[{"role":"roles/ml.viewer","members":[],"condition":{}}]})")
                                   << QStringLiteral("policy.bindings[0].condition");
        QTest::addRow("audit configs") << QByteArray(R"({"auditConfigs":[]})") << QStringLiteral("policy.auditConfigs");
        QTest::addRow("bindings not a list") << QByteArray(R"({"bindings":{}})") << QStringLiteral("policy.bindings");
    }

    void policyViolations()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, field);
        FieldViolations violations;
        Policy::fromJson(QJsonDocument::fromJson(text).object(), QStringLiteral("policy"), &violations);
        QVERIFY2(fields(violations).contains(field), qPrintable(fields(violations).join(QLatin1Char(','))));
    }

    void effective()
    {
        const QString alice = QStringLiteral("user:alice@example.org");
        const QString bob = QStringLiteral("user:bob@example.org");
        Policy project;
        project.bindings = { { Role::developer(), { bob } } };
        const Policy aliceJob = defaultJobPolicy(alice);
        QCOMPARE(aliceJob.rolesOf(alice), QStringList { Role::jobOwner() });

        // A developer's token: create, and cancel only where a job's policy makes her its owner.
        QSet<QString> p = effectivePermissions(alice, Role::developer(), Policy {}, &aliceJob);
        QVERIFY(p.contains(QStringLiteral("ml.jobs.create")));
        QVERIFY(p.contains(QStringLiteral("ml.jobs.cancel")));
        const Policy bobJob = defaultJobPolicy(bob);
        p = effectivePermissions(alice, Role::developer(), Policy {}, &bobJob);
        QVERIFY(!p.contains(QStringLiteral("ml.jobs.cancel")));
        QVERIFY(p.contains(QStringLiteral("ml.jobs.get")));
        // A viewer's token plus the project's developer binding: the union.
        p = effectivePermissions(bob, Role::viewer(), project, nullptr);
        QVERIFY(p.contains(QStringLiteral("ml.jobs.create")));
        // Project-level (no job): a job's bindings do not count.
        p = effectivePermissions(alice, Role::viewer(), Policy {}, nullptr);
        QVERIFY(!p.contains(QStringLiteral("ml.jobs.cancel")));
        // No role, no binding: nothing.
        QVERIFY(effectivePermissions(alice, QString(), project, &bobJob).isEmpty());
        // A job stored before creators were recorded has no owner.
        QVERIFY(defaultJobPolicy(QString()).bindings.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestIamPolicy)
#include "tst_iampolicy.moc"
