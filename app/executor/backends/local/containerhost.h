// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "launchspec.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// One image in the host's local podman store, as `podman images --format json` lists it.
struct LocalImage {
    QStringList names; ///< its references ("localhost/trainer:1"); empty for a dangling image
    QString id; ///< the image ID, 64 hex digits
    qint64 sizeBytes = 0;
    QString created; ///< RFC 3339 UTC
};

/// Podman on this host, for the replicas of custom-container jobs (the service's `masterConfig.imageUri` …).
/// Everything here is synchronous and runs podman as a child process; callers on the executor's main thread
/// use only the quick calls (detect(), imageExists(), removeRunContainers() at recovery).
///
/// What a fresh host needs, found on this project's CI machines (../shared/containers/RECIPE.md) and applied
/// per command, never by rewriting the user's containers.conf:
/// - the `runc` runtime when it is installed: crun (podman's default on Debian 12) refuses hosts whose cgroups are
///   v1 with a v2 `unified` mount ("cgroups in hybrid mode not supported"), runc runs on both;
/// - ulimits capped at what this process may grant (`nofile` = its hard RLIMIT_NOFILE, `nproc` ≤ 32768, the
///   limit podman sets itself): podman's default asks for nofile=1048576, which fails where CAP_SYS_RESOURCE is not
///   in the bounding set (containers, VMs).
class ContainerHost {
public:
    /// podman's path (QStandardPaths, then /usr/bin, /usr/local/bin), runc's, and the limits above. An empty
    /// `podman` when it is not installed.
    static Launch::ContainerRuntime detect();

    /// The images of the local store, newest first. Empty with `*error` set when podman fails (its stderr).
    static QList<LocalImage> images(const Launch::ContainerRuntime& runtime, QString* error = nullptr);

    /// True when `reference` names an image in the local store (`podman image exists`; short names resolve as
    /// podman resolves them, e.g. "trainer:1" finds "localhost/trainer:1").
    static bool imageExists(const Launch::ContainerRuntime& runtime, const QString& reference);

    /// True when a CDI spec for NVIDIA GPUs (`kind: nvidia.com/gpu`, as `nvidia-ctk cdi generate` writes it) is in
    /// one of `cdiDirs` (default: podman's, /etc/cdi and /var/run/cdi).
    static bool hasNvidiaCdi(const QStringList& cdiDirs = {});

    /// What keeps the job's container replicas from running on this host, as field violations on the
    /// config that names the image: podman missing, an image not in the local store (named), GPUs asked for
    /// a container replica without the NVIDIA CDI spec. Empty for a job without images.
    static FieldViolations violations(const TrainingInput& input, const Launch::ContainerRuntime& runtime);

    /// Removes (`podman rm -f -t 0`) every container labelled with the run's `jobMarker`
    /// (Launch::containerFolderLabel()), running or not: what a `podman run` client killed with its executor left
    /// under conmon. Returns how many were removed; waits at most `timeoutMs` per podman call.
    static int removeRunContainers(
        const Launch::ContainerRuntime& runtime, const QString& jobMarker, int timeoutMs = 30000);

    /// The IDs of the containers, running or not, labelled with `jobMarker`.
    static QStringList runContainers(const Launch::ContainerRuntime& runtime, const QString& jobMarker, int timeoutMs = 30000);
};

} // namespace Trainyard
