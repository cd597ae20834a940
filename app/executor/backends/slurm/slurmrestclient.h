// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "clusterconfig.h"
#include "slurmtypes.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace Trainyard::Slurm {

/// An asynchronous client of one cluster's slurmrestd (Slurm's REST daemon), for the Slurm backend: version
/// discovery, ping, nodes, partitions, submitting a (het) job, reading a job's components, cancelling or
/// signalling a job. Built on QNetworkAccessManager and QProcess; nothing blocks the event loop.
///
/// Threading and delivery: create and call it on one thread with an event loop (the executor's main thread).
/// Every method returns at once. Its callback runs later, from the event loop, never inside the call, exactly
/// once; it is dropped instead when `context` (which must live on the same thread; nullptr: the client itself) is
/// destroyed first, and when the client is destroyed first (in-flight requests are aborted then). Calls run
/// concurrently; callbacks come in the order answers arrive.
///
/// Before the first request: the API version, the cluster's `restVersion` or else the newest of
/// supportedApiVersions() that `GET /openapi/v3` announces (asked once; calls made meanwhile wait for it;
/// asked again on the next call when it failed). Then the token: the cluster's `token`, or what `tokenCommand`
/// prints (run with `/bin/sh -c`, SLURM_CONF set to `slurmConf` when given, one run at a time, its output read by
/// Codec::tokenFromCommandOutput), kept until 60 s before its `exp` claim and then minted again. Every request
/// carries `X-SLURM-USER-NAME` and `X-SLURM-USER-TOKEN`.
///
/// Errors (ClientError::message names the URL): no connection → Unreachable ("slurmrestd at URL refused the
/// connection …"); a connection dropped before the answer → ConnectionClosed ("… closed the connection (it may
/// have crashed)"; slurmrestd 22.05.8 dies on some requests). Qt sends a GET again on a new connection first (so a
/// slurmrestd that died reads as Unreachable), but never a submission: slurmrestd may have created the job before
/// the connection dropped, so the caller must look before submitting again. No answer within the request timeout
/// → Timeout (the request may still take effect: same caution). A refused token (Codec::isRefusedToken) → minted
/// again and the request sent once more when the cluster has a tokenCommand, else, or when that fails too,
/// Authentication ("slurmrestd at URL refused user 'u''s token: …"); error 2017 on a job's call → NoSuchJob; any
/// other errors[] entry, on any HTTP status → SlurmError, except for a submit that returned a job ID (the job
/// exists: SubmitResult keeps those errors).
class SlurmRestClient : public QObject {
    Q_OBJECT
public:
    template <typename T> using Callback = std::function<void(const Result<T>&)>;

    explicit SlurmRestClient(const ClusterConfig& cluster, QObject* parent = nullptr);
    ~SlurmRestClient() override;

    const ClusterConfig& cluster() const;
    /// The API version in use: the pinned one at once, a discovered one after the first successful discovery.
    std::optional<ApiVersion> apiVersion() const;
    /// How long one HTTP request may take from sending to its last byte (default 30 s); then Timeout.
    void setRequestTimeout(std::chrono::milliseconds timeout);
    /// How long tokenCommand may run (default 30 s); then it is killed and the calls waiting for it fail
    /// with TokenCommand.
    void setTokenCommandTimeout(std::chrono::milliseconds timeout);

    /// The API version the calls use (discovering it if needed, see above).
    void discoverVersion(QObject* context, Callback<ApiVersion> done);
    /// `GET …/ping`: slurmctld's answer through slurmrestd, one entry per controller. 24.11 answers a refused token
    /// here with the controller DOWN and no error (other calls say Authentication).
    void ping(QObject* context, Callback<QList<ControllerPing>> done);
    /// `GET …/nodes`: every node of the cluster.
    void nodes(QObject* context, Callback<QList<Node>> done);
    /// `GET …/partitions`.
    void partitions(QObject* context, Callback<QList<Partition>> done);
    /// `POST …/job/submit`: a batch `script` (it must start with "#!") and one component per het group (one
    /// component: a plain job). The SubmitResult's jobId is the het job's leader. Refused before sending with
    /// InvalidRequest: no component, a script without "#!", component 0 without environment.
    void submitHetJob(const QString& script, const QList<JobComponentRequest>& components, QObject* context,
        Callback<SubmitResult> done);
    /// `GET …/job/{jobId}`: the job's components (for a het job's leader all of them, by offset). NoSuchJob when
    /// slurmctld does not know the ID (never existed, or forgotten MinJobAge after it ended: without slurmdbd
    /// nothing tells how it ended then).
    void job(qint64 jobId, QObject* context, Callback<QList<JobComponent>> done);
    /// `GET …/jobs`: every job slurmctld knows now (pending, running, and ended less than MinJobAge ago), one entry
    /// per het component, as job() decodes them.
    void jobs(QObject* context, Callback<QList<JobComponent>> done);
    /// `DELETE …/job/{hetLeaderId}[?signal=N]`: cancels the job, every component of a het job (always pass the
    /// leader: a component's own ID cancels only that component), or with `signal` > 0 only sends that signal.
    /// Cancelling a finished job succeeds again; for an ID slurmctld does not know 22.05 answers NoSuchJob, 24.11
    /// success. A signal sent right after the job turned RUNNING can be lost: slurmd may not have started the
    /// batch script yet.
    void cancel(qint64 hetLeaderId, QObject* context, Callback<Acknowledged> done, int signal = 0);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard::Slurm
