// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "backend.h"
#include "nodecapacity.h"
#include "sandbox.h"

#include <map>
#include <memory>

namespace Trainyard {

/// The `local` backend: replicas are processes on this host.
///
/// - Admission: models/admission.h against the host inventory (GPUs exclusive, vCPU and memory
///   reservations, a run alone always fits).
/// - Placement: one free loopback port per replica (each bound to port 0 and held until all are picked,
///   so no two replicas of a run share one), host 127.0.0.1.
/// - Launch: every replica in its own process group with PR_SET_PDEATHSIG=SIGKILL (processgroup.h), its
///   stdout/stderr through batched OutputPipes (≤ 1 read per 5 ms per stream).
/// - Stop: SIGTERM to each replica's group, SIGKILL after the grace period, then SIGKILL to every process
///   still carrying the run's TRAINYARD_JOB_FOLDER marker (a child that left the group with setsid); the
///   run counts as stopped only when /proc lists none of them any more (polled every 20 ms), so a job is
///   never final while one of its processes lives.
/// - Containers (a replica with an image, launchspec.h): its process is the `podman run` client, attached, so
///   its output, exit status and SIGTERM (forwarded to the container's init) behave as a process replica's.
///   Exit 125/126 is podman's own failure to run it (FailedToStart). When the grace period ends the container
///   is `podman kill`ed as well as its client; after every replica exited, the run's containers are removed
///   (`podman rm -f`, which also takes one whose client died) before stopped(). reclaim() removes the containers
///   that carry the run's marker label (a SIGKILLed executor's clients die with it; the containers do not).
/// - Prediction nodes (NodeCapacity): a deployed version's nodes reserve their machine type's vCPUs and memory in the
///   same load as runs (usage() counts them), but never hold a run back from starting alone (they are not holders);
///   nodeReleased() says when one gave its reservation back, so that the queue can be tried again.
class LocalBackend : public Backend, public NodeCapacity {
    Q_OBJECT
public:
    /// `outputBatchMs`: how long a pipe waits after a read before reading again.
    explicit LocalBackend(const HostInventory& host, int outputBatchMs = 5, QObject* parent = nullptr);
    ~LocalBackend() override;

    QString name() const override;
    QStringList acceleratorTypes() const override;
    std::optional<Reservation> admit(const RunId& run, const ClusterPlan& plan) override;
    void release(const RunId& run) override;
    void place(const RunId& run, const Launch::ReplicaSet& set) override;
    void launch(const RunId& run, const QList<Launch::ReplicaLaunch>& replicas) override;
    void stop(const RunId& run, std::chrono::milliseconds grace) override;
    void stopAll(std::chrono::milliseconds budget) override;
    void reclaim(const RunId& run, const QString& jobMarker) override;
    BackendUsage usage() const override;
    Grant reserveNode(const QString& node, int vcpus, Bytes memory, Need need) override;
    void releaseNode(const QString& node) override;
    Launch::ContainerRuntime containers() const override;
    /// Replaces what ContainerHost::detect() found at construction (tests: a host without podman).
    void setContainerRuntime(const Launch::ContainerRuntime& runtime);
    /// Runs every process replica in `sandbox` (app/launch/sandbox.h; inactive by default), each seeing its own
    /// ReplicaLaunch::sandbox. Exit status 128 + N of a sandboxed replica is reported as signal N.
    void setSandbox(const Sandbox& sandbox);
    const Sandbox& sandbox() const;
    /// Hands the job dir to the sandbox's account when the executor runs as root (Sandbox::handOver()).
    QString adoptJobDir(const QString& path) override;

Q_SIGNALS:
    /// A prediction node gave its reservation back (emitted from the event loop, never inside releaseNode()).
    void nodeReleased();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
