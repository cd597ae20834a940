// SPDX-License-Identifier: GPL-2.0-or-later
// The project's catalogs: scale tiers, machine types, accelerator types (with this host's GPUs), runtime
// versions, and the host's capacity and use.
#include "catalogshandler.h"

#include "apicommon.h"
#include "apicontext.h"

#include "containerhost.h"
#include "scheduler.h"
#include "staging.h"

#include <QJsonArray>

#include <algorithm>

namespace Trainyard {

using namespace Api;
using Reply = HttpApi::Reply;

namespace {
QJsonArray intArray(const QList<int>& values)
{
    QJsonArray array;
    for (int v : values)
        array.append(v);
    return array;
}

QJsonObject gpuToJson(const GpuInfo& gpu)
{
    return QJsonObject {
        { QStringLiteral("index"), gpu.index },
        { QStringLiteral("uuid"), gpu.uuid },
        { QStringLiteral("name"), gpu.name },
        { QStringLiteral("acceleratorType"), gpu.acceleratorType },
        { QStringLiteral("memoryBytes"), QString::number(gpu.memoryBytes) },
    };
}

} // namespace

CatalogsHandler::CatalogsHandler(ApiContext* context, Scheduler* scheduler, QObject* parent)
    : QObject(parent)
    , m_context(context)
    , m_scheduler(scheduler)
{
}

HttpApi::Reply CatalogsHandler::catalog(const QString& what)
{
    const MachineCatalog& catalog = MachineCatalog::builtin();
    if (what == QLatin1String("scaleTiers")) {
        QJsonArray list;
        for (const ScaleTierInfo& t : catalog.scaleTiers())
            list.append(t.toJson());
        return jsonReply(QJsonObject { { QStringLiteral("scaleTiers"), list } });
    }
    if (what == QLatin1String("machineTypes")) {
        QJsonArray list;
        for (const MachineType& m : catalog.machineTypes()) {
            QJsonObject counts;
            for (auto it = m.acceleratorCounts.cbegin(); it != m.acceleratorCounts.cend(); ++it)
                counts.insert(it.key(), intArray(it.value()));
            list.append(QJsonObject {
                { QStringLiteral("name"), m.name },
                { QStringLiteral("family"), m.family },
                { QStringLiteral("vcpus"), m.vcpus },
                { QStringLiteral("memoryGb"), m.memory.gb() },
                { QStringLiteral("acceleratorCounts"), counts },
            });
        }
        return jsonReply(QJsonObject { { QStringLiteral("machineTypes"), list } });
    }
    if (what == QLatin1String("acceleratorTypes")) {
        QJsonArray list;
        for (const AcceleratorTypeInfo& a : catalog.acceleratorTypes()) {
            const auto onHost = std::count_if(m_context->hostInventory().gpus.cbegin(),
                m_context->hostInventory().gpus.cend(), [&](const GpuInfo& g) { return g.acceleratorType == a.name; });
            list.append(QJsonObject {
                { QStringLiteral("name"), a.name },
                { QStringLiteral("displayName"), a.displayName },
                { QStringLiteral("isTpu"), a.isTpu },
                { QStringLiteral("availableOnHost"), int(onHost) },
            });
        }
        QJsonArray gpus;
        for (const GpuInfo& g : m_context->hostInventory().gpus)
            gpus.append(gpuToJson(g));
        return jsonReply(
            QJsonObject { { QStringLiteral("acceleratorTypes"), list }, { QStringLiteral("gpus"), gpus } });
    }
    return jsonReply(QJsonObject { { QStringLiteral("runtimeVersions"), runtimeVersionsJson() } });
}

HttpApi::Reply CatalogsHandler::host()
{
    HostStatus host = m_scheduler->usage();
    host.jobDirRoots
        = m_context->pathPolicy().roots(); // so a client can check a job dir before it submits (the wizard)
    return jsonReply(host.toJson());
}

HttpApi::Reply CatalogsHandler::images(const HttpChannelPtr& channel, bool* deferred)
{
    *deferred = true;
    m_context->runLater(channel, [runtime = m_scheduler->containerRuntime()]() -> Reply {
        QString error;
        const QList<LocalImage> images = ContainerHost::images(runtime, &error);
        if (images.isEmpty() && !error.isEmpty())
            return errorReply(RpcCode::Unavailable, QStringLiteral("Cannot list the local images: ") + error);
        QJsonArray list;
        for (const LocalImage& image : images) {
            list.append(QJsonObject {
                { QStringLiteral("names"), QJsonArray::fromStringList(image.names) },
                { QStringLiteral("id"), image.id },
                { QStringLiteral("sizeBytes"), QString::number(image.sizeBytes) },
                { QStringLiteral("createTime"), image.created },
            });
        }
        return jsonReply(QJsonObject { { QStringLiteral("images"), list } });
    });
    return {};
}

} // namespace Trainyard
