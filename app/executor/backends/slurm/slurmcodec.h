// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// slurmrestd's JSON, both ways, as pure functions (no network: SlurmRestClient sends and receives, this reads
// and writes). Sources: the OpenAPI documents slurmrestd serves at `GET /openapi/v3` and SchedMD's
// https://slurm.schedmd.com/rest_api.html. v0.0.38 is verified against slurmrestd 22.05.8 (replies recorded in
// tests/data/slurm/replies/); v0.0.40 against slurmrestd 24.11.5 (Debian 13's, replies in replies-24.11/);
// v0.0.39 follows its published schema and real 23.02 output quoted in public code, not a running server.
//
// What differs between the versions (v0.0.38: Slurm 22.05; v0.0.39: 23.02; v0.0.40: 23.11, 24.05, 24.11):
// clang-format off
// - submit `environment`: v0.0.38 an object {"K": "V"} (an array is refused, HTTP 400); v0.0.39+ an array ["K=V"]
// - submit `nodes`: v0.0.38 an integer; v0.0.39+ a string ("2", sbatch -N's syntax)
// - submit `time_limit`, `memory_per_node`: v0.0.38 integers; v0.0.39+ {"set", "infinite", "number"}
// - submit GPUs: v0.0.38 `gres` "gpu:t4:1" (`tres_per_node` is refused); v0.0.39 `tres_per_node` "gres:gpu:t4:1";
//   v0.0.40 `tres_per_node` "gres/gpu:t4:1"
// - `job_state`: a string up to v0.0.39; v0.0.40 an array, base state first, then flags (["CANCELLED", "COMPLETING"])
// - `exit_code`: v0.0.38 an integer (raw wait status); v0.0.39 {"set", "number"} (raw); v0.0.40
//   {"status": […], "return_code": {…}, "signal": {"id": {…}, "name"}}
// - times, `het_job_id`, `het_job_offset`: integers in v0.0.38; {"set", "number"} in v0.0.40 (v0.0.39: both)
// - node `state`: v0.0.38 "idle" plus `state_flags`; v0.0.39+ ["IDLE", …]
// - ping: v0.0.38 `ping`; v0.0.39+ `pinged`
// - errors[] number: v0.0.38 `error_number`, `error_code` or `errno`; v0.0.39+ `error_number`
// clang-format on
//
// The decoders accept every shape above whatever the version, so they need no version; the encoders must write
// the one the server's version parses.

#include "slurmtypes.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard::Slurm::Codec {

/// "/slurm/v0.0.38": what every path of that version starts with.
QString pathPrefix(ApiVersion version);

/// The versions whose `/slurm/vX.Y.Z/…` paths a `GET /openapi/v3` document lists, oldest first, each once
/// (versions this client does not speak included, for messages).
QStringList announcedVersions(const QJsonObject& openapi);
/// The newest of `announced` this client speaks; nullopt when none.
std::optional<ApiVersion> newestSupported(const QStringList& announced);

/// One component as `job_properties` (v0.0.38) or `job_desc_msg` (v0.0.39+). Empty strings and zero counts are
/// left out (Slurm's defaults apply). Never writes `argv`.
QJsonObject encodeComponent(ApiVersion version, const JobComponentRequest& component);
/// The body of `POST …/job/submit`: {"script", "job": {…}} for one component, {"script", "jobs": [{…}, …]} for
/// a het job. Slurm requires `environment` on every component but uses only component 0's, and 24.11 also
/// requires `current_working_directory` on every one: a component without them is sent with component 0's.
QJsonObject encodeSubmission(ApiVersion version, const QString& script, const QList<JobComponentRequest>& components);

/// A reply's `errors` (absent: none).
QList<RestError> decodeErrors(const QJsonObject& reply);
/// A reply's `warnings` (absent: none).
QList<RestWarning> decodeWarnings(const QJsonObject& reply);

/// Whether a failed reply means that slurmctld refused the request's token. slurmrestd itself only checks that
/// the headers are there (HTTP 401 "Authentication failure" when not); it forwards the token, and a token that
/// slurmctld rejects (bad signature, expired, minted for another user) comes back, all observed:
/// - 22.05.8: HTTP 500 with errors that carry no reason, by endpoint: ping/job `error_number` -1 ("slurmctld
///   config is unable to load", "Unable to find JobId=1"), nodes `errno` -1, job/submit and DELETE job 5005
///   ("Zero Bytes were transmitted or received"). GETs answer the same way when slurmctld is down, so this reads
///   "refused, or slurmctld is not answering".
/// - 24.11.5 (v0.0.40): HTTP 511 with 1007 "Protocol authentication error" — except ping, which answers HTTP 200
///   with the controller "DOWN".
bool isRefusedToken(int httpStatus, const QList<RestError>& errors);
/// Whether errors[] holds 2017 "Invalid job id specified": the job never existed, or slurmctld forgot it
/// MinJobAge after it ended.
bool isNoSuchJob(const QList<RestError>& errors);

/// `GET …/ping`: {"pings": [{"hostname", "ping"|"pinged", "mode"}]}.
std::optional<QList<ControllerPing>> decodePing(const QJsonObject& reply, QString* error = nullptr);
/// `GET …/nodes`: {"nodes": [{"name", "state", "cpus", "alloc_cpus", "real_memory", "gres", …}]}.
std::optional<QList<Node>> decodeNodes(const QJsonObject& reply, QString* error = nullptr);
/// `GET …/partitions`: {"partitions": [{"name", "nodes", …}]}.
std::optional<QList<Partition>> decodePartitions(const QJsonObject& reply, QString* error = nullptr);
/// `POST …/job/submit`: {"job_id", "step_id", "job_submit_user_msg", "errors", "warnings"} (v0.0.40 also
/// inside "result", whose non-zero error_code joins the errors: 2042 for a held job). nullopt when it holds no job
/// ID: then nothing was created.
std::optional<SubmitResult> decodeSubmit(const QJsonObject& reply, QString* error = nullptr);
/// `GET …/job/{id}`: {"jobs": [{…}, …]}, one entry per het component, ordered by het_job_offset.
std::optional<QList<JobComponent>> decodeJob(const QJsonObject& reply, QString* error = nullptr);

/// The token in a token command's output: the value of a `SLURM_JWT=…` line (what `scontrol token` prints), or
/// the output itself when it is a single word. Empty when neither.
QString tokenFromCommandOutput(const QByteArray& output);
/// The `exp` claim of a JWT (RFC 7519 §4.1.4: seconds since the epoch), read without checking the signature;
/// nullopt when the token is not a JWT or has no `exp`.
std::optional<QDateTime> jwtExpiry(QStringView token);

} // namespace Trainyard::Slurm::Codec
