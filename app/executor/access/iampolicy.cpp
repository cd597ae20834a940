// SPDX-License-Identifier: GPL-2.0-or-later
#include "iampolicy.h"

#include <QCryptographicHash>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace Trainyard::Iam {

namespace {

using namespace Permission;

QSet<QString> readJobsPermissions()
{
    return { jobsGet(), jobsList(), jobsGetIamPolicy(), projectsGetConfig(), logsList(), metricsList(), objectsGet(),
        QStringLiteral("ml.locations.list"), QStringLiteral("ml.locations.get"), QStringLiteral("ml.models.get"),
        QStringLiteral("ml.models.list"), modelsGetIamPolicy(), QStringLiteral("ml.versions.get"),
        QStringLiteral("ml.versions.list"), QStringLiteral("ml.operations.get"), QStringLiteral("ml.operations.list") };
}

/// What roles/ml.modelUser holds: read models and versions, predict (the service's ML Model User).
QSet<QString> modelUserPermissions()
{
    return { QStringLiteral("ml.models.get"), QStringLiteral("ml.models.predict"), QStringLiteral("ml.versions.get"),
        QStringLiteral("ml.versions.list"), QStringLiteral("ml.versions.predict") };
}

/// What roles/ml.modelOwner holds: every model, version and operation permission.
QSet<QString> modelOwnerPermissions()
{
    QSet<QString> owner = modelUserPermissions();
    owner += { QStringLiteral("ml.models.create"), QStringLiteral("ml.models.list"), QStringLiteral("ml.models.update"),
        QStringLiteral("ml.models.delete"), QStringLiteral("ml.versions.create"), QStringLiteral("ml.versions.update"),
        QStringLiteral("ml.versions.delete"), QStringLiteral("ml.operations.get"), QStringLiteral("ml.operations.list"),
        QStringLiteral("ml.operations.cancel"), modelsGetIamPolicy(), modelsSetIamPolicy() };
    return owner;
}

const QHash<QString, QSet<QString>>& roleTable()
{
    static const QHash<QString, QSet<QString>> table = [] {
        QHash<QString, QSet<QString>> t;
        const QSet<QString> viewer = readJobsPermissions();
        // The service's developer adds create to what a viewer has; cancelling and updating a job come from
        // roles/ml.jobOwner on the jobs the developer created.
        QSet<QString> developer = viewer;
        developer.insert(jobsCreate());
        developer += modelOwnerPermissions();
        QSet<QString> admin = developer;
        admin += { jobsCancel(), jobsUpdate(), jobsSetIamPolicy(), projectsGetIamPolicy(), projectsSetIamPolicy(),
            tokensCreate(), tokensList(), tokensRevoke(), privateLogsList() };
        t.insert(Role::admin(), admin);
        t.insert(Role::developer(), developer);
        t.insert(Role::viewer(), viewer);
        t.insert(Role::modelOwner(), modelOwnerPermissions());
        t.insert(Role::modelUser(), modelUserPermissions());
        t.insert(Role::jobOwner(),
            { jobsGet(), jobsCancel(), jobsUpdate(), jobsGetIamPolicy(), jobsSetIamPolicy(), logsList(), metricsList(),
                objectsGet() });
        return t;
    }();
    return table;
}

bool isValidEmail(const QString& email)
{
    if (email.size() > 254)
        return false;
    const qsizetype at = email.indexOf(QLatin1Char('@'));
    if (at <= 0 || at == email.size() - 1 || email.indexOf(QLatin1Char('@'), at + 1) >= 0)
        return false;
    return std::none_of(
        email.cbegin(), email.cend(), [](QChar c) { return c.isSpace() || c.category() == QChar::Other_Control; });
}

} // namespace

QStringList knownRoles()
{
    return { Role::admin(), Role::developer(), Role::viewer(), Role::jobOwner(), Role::modelOwner(),
        Role::modelUser() };
}

const QSet<QString>& permissionsOf(const QString& role)
{
    static const QSet<QString> none;
    const auto& table = roleTable();
    const auto it = table.constFind(role);
    return it == table.cend() ? none : *it;
}

const QSet<QString>& allPermissions()
{
    static const QSet<QString> all = [] {
        QSet<QString> set;
        for (const QSet<QString>& permissions : roleTable())
            set += permissions;
        return set;
    }();
    return all;
}

bool isValidMember(const QString& member, QString* why)
{
    auto fail = [why](const QString& message) {
        if (why)
            *why = message;
        return false;
    };
    for (const QLatin1String prefix : { QLatin1String("user:"), QLatin1String("serviceAccount:") }) {
        if (member.startsWith(prefix)) {
            if (!isValidEmail(member.mid(prefix.size())))
                return fail(QStringLiteral("\"%1\" is not a valid member: after \"%2\" comes an email address "
                                           "(name@domain)")
                                .arg(member, prefix));
            return true;
        }
    }
    if (member.startsWith(QLatin1String("group:")) || member.startsWith(QLatin1String("domain:"))
        || member == QLatin1String("allUsers") || member == QLatin1String("allAuthenticatedUsers"))
        return fail(QStringLiteral("\"%1\" cannot be granted here: the executor has no directory of groups or "
                                   "domains; grant roles to \"user:EMAIL\" or \"serviceAccount:EMAIL\"")
                        .arg(member));
    return fail(
        QStringLiteral("\"%1\" is not a valid member: use \"user:EMAIL\" or \"serviceAccount:EMAIL\"").arg(member));
}

Policy Policy::fromJson(const QJsonObject& json, const QString& prefix, FieldViolations* violations, QString* etag)
{
    Policy policy;
    auto violate = [&](const QString& field, const QString& description) {
        violations->append(FieldViolation { field, description });
    };
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString field = prefix + QLatin1Char('.') + it.key();
        if (it.key() == QLatin1String("version")) {
            // proto3 JSON: an int32 may come as a number or a string.
            bool ok = true;
            const int version = it->isString() ? it->toString().toInt(&ok) : it->toInt(-1);
            if (!ok || (version != 0 && version != 1))
                violate(field, QStringLiteral("only policy version 1 is supported (no conditions)"));
        } else if (it.key() == QLatin1String("etag")) {
            if (!it->isString())
                violate(field, QStringLiteral("must be a string"));
            else if (etag)
                *etag = it->toString();
        } else if (it.key() == QLatin1String("bindings")) {
            if (!it->isArray()) {
                violate(field, QStringLiteral("must be a list of bindings"));
                continue;
            }
            const QJsonArray bindings = it->toArray();
            for (qsizetype i = 0; i < bindings.size(); ++i) {
                const QString at = field + QStringLiteral("[%1]").arg(i);
                if (!bindings.at(i).isObject()) {
                    violate(at, QStringLiteral("must be an object with \"role\" and \"members\""));
                    continue;
                }
                const QJsonObject b = bindings.at(i).toObject();
                Binding binding;
                for (auto bit = b.begin(); bit != b.end(); ++bit) {
                    const QString bfield = at + QLatin1Char('.') + bit.key();
                    if (bit.key() == QLatin1String("role")) {
                        binding.role = bit->toString();
                        if (!knownRoles().contains(binding.role))
                            violate(bfield,
                                QStringLiteral("\"%1\" is not a role of this executor; known roles: %2")
                                    .arg(binding.role, knownRoles().join(QStringLiteral(", "))));
                    } else if (bit.key() == QLatin1String("members")) {
                        if (!bit->isArray()) {
                            violate(bfield, QStringLiteral("must be a list of members"));
                            continue;
                        }
                        const QJsonArray members = bit->toArray();
                        for (qsizetype m = 0; m < members.size(); ++m) {
                            QString why;
                            const QString member = members.at(m).toString();
                            if (!isValidMember(member, &why))
                                violate(bfield + QStringLiteral("[%1]").arg(m), why);
                            binding.members.append(member);
                        }
                    } else if (bit.key() == QLatin1String("condition")) {
                        violate(bfield, QStringLiteral("conditional role bindings are not supported"));
                    } else {
                        violate(bfield, QStringLiteral("unknown field"));
                    }
                }
                if (!b.contains(QLatin1String("role")))
                    violate(at + QStringLiteral(".role"), QStringLiteral("is required"));
                policy.bindings.append(binding);
            }
        } else {
            violate(field, QStringLiteral("unknown field (auditConfigs are not supported)"));
        }
    }
    return policy;
}

Policy Policy::normalized() const
{
    QMap<QString, QStringList> byRole; // sorted by role
    for (const Binding& b : bindings)
        byRole[b.role] += b.members;
    Policy out;
    out.version = 1;
    for (auto it = byRole.begin(); it != byRole.end(); ++it) {
        QStringList members = *it;
        members.sort();
        members.removeDuplicates();
        if (!members.isEmpty())
            out.bindings.append(Binding { it.key(), members });
    }
    return out;
}

QString Policy::etag() const
{
    QJsonArray list;
    for (const Binding& b : normalized().bindings)
        list.append(QJsonObject {
            { QStringLiteral("role"), b.role }, { QStringLiteral("members"), QJsonArray::fromStringList(b.members) } });
    const QByteArray digest
        = QCryptographicHash::hash(QJsonDocument(list).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256);
    return QString::fromLatin1(digest.left(8).toBase64());
}

QJsonObject Policy::toJson() const
{
    const Policy n = normalized();
    QJsonObject json { { QStringLiteral("version"), 1 }, { QStringLiteral("etag"), etag() } };
    QJsonArray list;
    for (const Binding& b : n.bindings)
        list.append(QJsonObject {
            { QStringLiteral("role"), b.role }, { QStringLiteral("members"), QJsonArray::fromStringList(b.members) } });
    if (!list.isEmpty())
        json.insert(QStringLiteral("bindings"), list);
    return json;
}

QStringList Policy::rolesOf(const QString& member) const
{
    QStringList roles;
    for (const Binding& b : bindings) {
        if (b.members.contains(member) && !roles.contains(b.role))
            roles.append(b.role);
    }
    return roles;
}

QSet<QString> effectivePermissions(
    const QString& member, const QString& tokenRole, const Policy& projectPolicy, const Policy* jobPolicy)
{
    QSet<QString> permissions = permissionsOf(tokenRole);
    for (const QString& role : projectPolicy.rolesOf(member))
        permissions += permissionsOf(role);
    if (jobPolicy) {
        for (const QString& role : jobPolicy->rolesOf(member))
            permissions += permissionsOf(role);
    }
    return permissions;
}

Policy defaultJobPolicy(const QString& creator)
{
    Policy policy;
    if (!creator.isEmpty())
        policy.bindings.append(Binding { Role::jobOwner(), { creator } });
    return policy;
}

} // namespace Trainyard::Iam
