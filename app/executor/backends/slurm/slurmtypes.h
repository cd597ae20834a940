// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The values the Slurm REST client takes and gives: plain structs, the same for every slurmrestd API version.
// The wire shapes they come from are Slurm's OpenAPI schemas (slurmrestd `GET /openapi/v3`; SchedMD's
// https://slurm.schedmd.com/rest_api.html): v0.0.38 (Slurm 22.05, verified against slurmrestd 22.05.8), v0.0.40
// (23.11, verified against slurmrestd 24.11.5) and v0.0.39 (23.02, from its schema), whose differences
// slurmcodec.h lists. Recorded replies: tests/data/slurm/.

#include "units.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace Trainyard::Slurm {

/// The slurmrestd OpenAPI plugin versions this client speaks, oldest first. A server announces the ones it
/// loaded (`-s openapi/v0.0.38,…`) as path prefixes `/slurm/v0.0.NN/` in `GET /openapi/v3`.
enum class ApiVersion {
    V0_0_38, ///< Slurm 22.05 (Debian 12)
    V0_0_39, ///< Slurm 23.02
    V0_0_40, ///< Slurm 23.11 (and still served by 24.05 and 24.11, beside v0.0.41 and v0.0.42)
};

/// "v0.0.38", "v0.0.39", "v0.0.40".
QString apiVersionName(ApiVersion version);
/// The version of a name as apiVersionName() writes it; nullopt for any other text.
std::optional<ApiVersion> apiVersionFromName(QStringView name);
/// Every version this client speaks, oldest first.
QList<ApiVersion> supportedApiVersions();

/// One entry of a reply's `errors` array. Slurm names the number `error_number` (most replies), `error_code`
/// (v0.0.38 job/submit) or `errno` (v0.0.38 nodes); all three land in `number`.
struct RestError {
    int number = 0; ///< slurm_errno.h: 2017 "Invalid job id specified", 2042 held, -1 unspecified …; 0 when absent
    QString error; ///< the short text: "Invalid job id specified"
    QString description; ///< the long text, often empty: "Unable to find JobId=999999"
    QString source; ///< the Slurm call that failed, often empty: "slurm_load_job"

    /// "description: error" ("Unable to find JobId=9: Invalid job id specified", "Batch job submission failed:
    /// Invalid partition name specified"), or the one that is there; "error number N" when both are empty.
    QString text() const;
    bool operator==(const RestError&) const = default;
};

/// One entry of a reply's `warnings` array.
struct RestWarning {
    QString description;
    QString source;
    bool operator==(const RestWarning&) const = default;
};

/// How a client call failed. `message` is one English sentence that names the slurmrestd URL and, where it
/// matters, the user; it is what the executor logs and shows (the executor's messages are plain English,
/// not translated).
struct ClientError {
    enum class Kind {
        Unreachable, ///< no connection: refused (slurmrestd not running, wrong port), host not found, no route
        ConnectionClosed, ///< the connection dropped before a whole answer: slurmrestd may have crashed
        Timeout, ///< no whole answer within the request timeout
        Authentication, ///< the token was refused: HTTP 401, or Slurm's 500/511 that mean it (Codec::isRefusedToken)
        TokenCommand, ///< the cluster's tokenCommand failed, timed out or printed no token
        NoSuchJob, ///< Slurm error 2017: the job never existed, or finished more than MinJobAge ago (no slurmdbd)
        SlurmError, ///< slurmrestd answered with errors[] and no result (HTTP 4xx/5xx, or 200 without the result)
        BadReply, ///< an answer this client cannot read: not JSON, or without the fields it must have
        UnsupportedVersion, ///< the server announces none of supportedApiVersions()
        InvalidRequest, ///< refused before sending: the request breaks a rule Slurm enforces (no components …)
    };
    Kind kind = Kind::SlurmError;
    int httpStatus = 0; ///< 0 when no HTTP answer arrived
    QList<RestError> errors; ///< the reply's errors[], when there was a reply
    QString message;
};

/// A call's outcome: a value, or why there is none.
template <typename T> class Result {
public:
    Result(T value)
        : m_value(std::move(value))
    {
    }
    Result(ClientError error)
        : m_error(std::move(error))
    {
    }
    bool ok() const { return m_value.has_value(); }
    /// The value; only when ok().
    const T& value() const { return *m_value; }
    const T* operator->() const { return &*m_value; }
    /// Why there is no value; only when !ok().
    const ClientError& error() const { return m_error; }

private:
    std::optional<T> m_value;
    ClientError m_error;
};

/// What a call that returns no data answers with: the reply's warnings (usually none).
struct Acknowledged {
    QList<RestWarning> warnings;
};

/// A raw wait status, as slurmctld reports a job's `exit_code` and `derived_exit_code` (the same bits as
/// waitpid's status): exited when `status & 0x7f == 0`, with code `status >> 8`; otherwise killed by signal
/// `status & 0x7f`. Observed: 768 = exit 3, 9 = SIGKILL, 15 = cancelled or timed out (SIGTERM), 1280 = exit 5.
struct WaitStatus {
    bool signalled = false;
    int code = 0; ///< the exit code when !signalled
    int signal = 0; ///< the signal when signalled

    static WaitStatus fromRaw(int status);
    /// The inverse of fromRaw (for replies that give code and signal apart, v0.0.40).
    int raw() const { return signalled ? (signal & 0x7f) : ((code & 0xff) << 8); }
    bool operator==(const WaitStatus&) const = default;
};

/// `GET …/ping`: one per slurmctld (primary, backups).
struct ControllerPing {
    QString hostname;
    QString state; ///< "UP" or "DOWN" (v0.0.38 `ping`, v0.0.39+ `pinged`)
    QString mode; ///< "primary", "backup1" …
    bool isUp() const { return state == QLatin1String("UP"); }
    bool operator==(const ControllerPing&) const = default;
};

/// One node of `GET …/nodes`.
struct Node {
    QString name; ///< the Slurm node name (what job node lists hold)
    QString hostname;
    QString address;
    /// Upper case, base state first ("IDLE", "MIXED", "ALLOCATED", "DOWN", …), then flags ("DRAIN", …). v0.0.38
    /// gives `state` in lower case plus `state_flags`; v0.0.39+ one array.
    QStringList state;
    int cpus = 0;
    int allocatedCpus = 0;
    Bytes realMemory; ///< Slurm's RealMemory: MiB on the wire
    Bytes allocatedMemory; ///< what running jobs hold (`alloc_memory`, MiB on the wire); 0 when not reported
    QString gres; ///< configured GRES: "gpu:t4:1"
    QString gresUsed; ///< "gpu:t4:0(IDX:N/A)"
    QStringList partitions;
    QStringList features; ///< active features (what a `constraints` expression matches)

    /// IDLE with no DRAIN, DOWN, FAIL or MAINT flag: free for a new job now.
    bool isIdle() const;
    bool operator==(const Node&) const = default;
};

/// One partition of `GET …/partitions`.
struct Partition {
    QString name;
    QString nodes; ///< hostlist: "node[1-4]"
    QStringList state; ///< "UP", "DOWN", "DRAIN", "INACTIVE"; empty when the version does not report it (v0.0.39)
    int totalCpus = 0;
    int totalNodes = 0;
    std::optional<int> maxTimeMinutes; ///< nullopt when unlimited or not set
    bool operator==(const Partition&) const = default;
};

/// One component of a job to submit; a plain job is a het job of one component. Every field is encoded for the
/// server's API version by slurmcodec.h (`argv` never: it crashes slurmrestd 22.05.8; arguments go in the script
/// or the environment).
struct JobComponentRequest {
    QString name;
    QString partition; ///< empty: the cluster's default partition
    int nodes = 1; ///< exactly this many nodes. The components of a het job never share a node (Slurm 22.05).
    int tasks = 1;
    int tasksPerNode = 0; ///< 0: as Slurm distributes them
    int cpusPerTask = 0; ///< 0: Slurm's default (1)
    Bytes memoryPerNode; ///< 0: the partition's default; sent in MiB, rounded up
    int gpusPerNode = 0; ///< a `gpu` GRES per node; 0: none
    QString gpuType; ///< "t4", "a100": only nodes with that GPU type; empty: any type
    int timeLimitMinutes = 0; ///< 0: the partition's default
    QString currentWorkingDirectory; ///< absolute, as the nodes see it
    QString standardOutput; ///< absolute path pattern on the nodes (%j = job ID, %x = job name …)
    QString standardError; ///< empty: with standardOutput
    /// The whole environment of the batch script besides the SLURM_* variables (22.05 passes nothing else).
    /// Slurm requires it on every component but uses only component 0's in the batch script.
    QMap<QString, QString> environment;
    QString account;
    QString qos;
    QString constraints; ///< a node feature expression: "a100&ib"
    bool operator==(const JobComponentRequest&) const = default;
};

/// `POST …/job/submit` answered with a job ID. Slurm may create the job and still fill errors[] (HTTP 200 with
/// 2042 "Job is in held state" for a held job; 2015 when it can never run in the partition's current
/// configuration): those are kept here for the caller to judge; the job exists.
struct SubmitResult {
    qint64 jobId = 0; ///< the het job's leader (component 0), which cancel() takes
    QString stepId; ///< "BATCH"
    QString userMessage; ///< the job_submit plugin's message to the user, usually empty
    QList<RestError> errors;
    QList<RestWarning> warnings;
};

/// One component of `GET …/job/{id}` (a plain job has one; a het job one per component, in offset order).
struct JobComponent {
    qint64 jobId = 0; ///< this component's own ID (leader + offset)
    qint64 hetJobId = 0; ///< the leader's ID; 0 for a job that is not heterogeneous
    int hetJobOffset = 0;
    QString name;
    /// The base state: PENDING, CONFIGURING, RUNNING, COMPLETING, SUSPENDED, COMPLETED, FAILED, CANCELLED,
    /// TIMEOUT, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE, OUT_OF_MEMORY. (v0.0.40's array: its first entry.)
    QString state;
    QStringList stateFlags; ///< v0.0.40: the array's other entries (COMPLETING, CONFIGURING …); else empty
    QString stateReason; ///< "None", "Resources", "Priority", "JobHeldUser", "NonZeroExitCode", "TimeLimit" …
    /// The batch script's raw wait status (see WaitStatus); meaningful once isFinished(). For a het job every
    /// component reports the batch script's status. A job cancelled while running reports SIGTERM (15), or exit
    /// 143 when the shell saw its child die of it first; one cancelled before its script started reports 0. The
    /// state, not this, says that it was cancelled.
    int exitCode = 0;
    int derivedExitCode = 0; ///< the highest raw wait status of the job's steps
    QString nodes; ///< hostlist of the allocated nodes ("node[2-3]"); empty until allocated
    QString batchHost; ///< the node that runs (ran) the batch script: component 0's first node
    QString partition;
    QDateTime submitTime; ///< UTC; invalid when not reported
    /// When it started; while PENDING, the scheduler's estimate once it made one (else invalid).
    QDateTime startTime;
    /// When it ended; before that, when its time limit will end it (while PENDING: estimated, or invalid).
    QDateTime endTime;

    /// The state is one a job never leaves, and no process of it is left (not COMPLETING).
    bool isFinished() const;
    WaitStatus exitStatus() const { return WaitStatus::fromRaw(exitCode); }
    bool operator==(const JobComponent&) const = default;
};

/// The states a job never leaves (COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, PREEMPTED, BOOT_FAIL,
/// DEADLINE, OUT_OF_MEMORY).
bool isFinishedState(QStringView state);

} // namespace Trainyard::Slurm
