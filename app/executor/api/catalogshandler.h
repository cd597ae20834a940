// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "httpapi.h"

#include <QObject>

namespace Trainyard {

class ApiContext;
class Scheduler;
/// The handler of a project's catalogs and this host (app/executor/API.md "Catalogs and host (under the project)"): `…/scaleTiers`,
/// `…/machineTypes`, `…/acceleratorTypes`, `…/runtimeVersions`, `…/host` (what this host has and holds: the
/// Scheduler's usage, prediction nodes included) and `…/images` (podman's local images, listed on the thread pool).
/// Main thread.
class CatalogsHandler : public QObject {
public:
    /// `context` and `scheduler` are not owned and outlive the handler.
    CatalogsHandler(ApiContext* context, Scheduler* scheduler, QObject* parent = nullptr);

    /// `what`: "scaleTiers", "machineTypes", "acceleratorTypes" or "runtimeVersions".
    HttpApi::Reply catalog(const QString& what);
    HttpApi::Reply host();
    /// `GET …/images`: the local podman store's images, for custom-container jobs (answered from the pool:
    /// podman takes a while).
    HttpApi::Reply images(const HttpChannelPtr& channel, bool* deferred);

private:
    ApiContext* m_context;
    Scheduler* m_scheduler;
};

} // namespace Trainyard
