// SPDX-License-Identifier: GPL-2.0-or-later
#include "locationshandler.h"

#include "apicommon.h"
#include "backend.h"
#include "scheduler.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QUrlQuery>

namespace Trainyard {

using namespace Api;

namespace {

QJsonObject location(
    const QString& project, const QString& name, const QStringList& types, const QStringList& accelerators)
{
    QJsonArray capabilities;
    for (const QString& type : types) {
        QJsonObject capability { { QStringLiteral("type"), type } };
        // The service lists accelerators on the capabilities that can use them: training and batch prediction here.
        if (type != QLatin1String("ONLINE_PREDICTION") && !accelerators.isEmpty())
            capability.insert(QStringLiteral("availableAccelerators"), QJsonArray::fromStringList(accelerators));
        capabilities.append(capability);
    }
    return QJsonObject { { QStringLiteral("name"), QStringLiteral("projects/%1/locations/%2").arg(project, name) },
        { QStringLiteral("capabilities"), capabilities } };
}

} // namespace

LocationsHandler::LocationsHandler(Scheduler* scheduler)
    : m_scheduler(scheduler)
{
}

QList<QJsonObject> LocationsHandler::locations(const QString& project) const
{
    QList<QJsonObject> list;
    list << location(project, QStringLiteral("local"),
        { QStringLiteral("TRAINING"), QStringLiteral("BATCH_PREDICTION"), QStringLiteral("ONLINE_PREDICTION") },
        m_scheduler->hostBackend()->acceleratorTypes());
    for (const Backend* cluster : m_scheduler->clusterBackends())
        list << location(project, cluster->name(), { QStringLiteral("TRAINING"), QStringLiteral("BATCH_PREDICTION") },
            cluster->acceleratorTypes());
    return list;
}

HttpApi::Reply LocationsHandler::listLocations(const ApiRequest& request, const QString& project)
{
    // A handful of locations: one page, whatever pageSize asks (a valid one), and no nextPageToken.
    int pageSize = 0;
    if (!parsePageSize(queryValue(request.query(), QStringLiteral("pageSize")), 100, 1000, &pageSize))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative integer"));
    QJsonArray list;
    for (const QJsonObject& l : locations(project))
        list.append(l);
    return jsonReply(QJsonObject { { QStringLiteral("locations"), list } });
}

HttpApi::Reply LocationsHandler::getLocation(const QString& project, const QString& name)
{
    const QString wanted = QStringLiteral("projects/%1/locations/%2").arg(project, name);
    for (const QJsonObject& l : locations(project)) {
        if (l.value(QLatin1String("name")).toString() == wanted)
            return jsonReply(l);
    }
    return errorReply(RpcCode::NotFound,
        QStringLiteral("Field: name Error: The location \"%1\" is not one of this executor's (local, and the Slurm "
                       "clusters of clusters.yaml).")
            .arg(printable(wanted)));
}

HttpApi::Reply LocationsHandler::getConfig(const QString& project)
{
    const QByteArray digest = QCryptographicHash::hash(project.toUtf8(), QCryptographicHash::Sha256);
    quint64 number = 0;
    for (int i = 0; i < 8; ++i)
        number = (number << 8) | quint8(digest.at(i));
    const QString projectNumber = QString::number(100000000000ULL + number % 900000000000ULL);
    return jsonReply(QJsonObject {
        { QStringLiteral("serviceAccount"),
            QStringLiteral("service-%1@cloud-ml.google.com.iam.gserviceaccount.com").arg(projectNumber) },
        { QStringLiteral("serviceAccountProject"), projectNumber },
        { QStringLiteral("config"), QJsonObject {} },
    });
}

} // namespace Trainyard
