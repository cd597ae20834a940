// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// slurmrestd's JSON, both ways, as pure functions (no network: SlurmRestClient sends and receives, this reads
// and writes). Sources: the OpenAPI documents slurmrestd serves at `GET /openapi/v3` and SchedMD's
// https://slurm.schedmd.com/rest_api.html. v0.0.38 is verified against slurmrestd 22.05.8 (replies recorded in
// tests/data/slurm/replies/); v0.0.39 and v0.0.40 follow their published schemas and real replies of 23.02 and
// 23.11 quoted in public code (see tests/data/slurm/README.md), not a running server.
//
// What differs between the versions, and how it is handled:
//
// | | v0.0.38 (22.05) | v0.0.39 (23.02) | v0.0.40 (23.11) |
// |---|---|---|---|
// | submit `environment` | object {"K":"V"} (an array is refused, HTTP 400) | array ["K=V"] | array ["K=V"] |
// | submit `nodes` | integer | string ("2") | string |
// | submit `time_limit`, `memory_per_node` | integer | {"set","infinite","number"} | same |
// | submit GPUs | `gres`: "gpu:t4:1" (`tres_per_node` is refused) | `tres_per_node`: "gres:gpu:t4:1" | "gres/gpu:t4:1"
// | | `job_state` | string | string | array: base state, then flags | | `exit_code` | integer (raw wait status) |
// {"set","number"} (raw) | {"status":[…],"return_code":{…},"signal":{"id":{…},"name"}} | | times, `het_job_id`,
// `het_job_offset` | integers | integers / {"set","number"} | {"set","number"} | | node `state` | "idle" +
// `state_flags` | ["IDLE", …] | same | | ping | `ping` | `pinged` | `pinged` | | errors[] number | `error_number`,
// `error_code` or `errno` | `error_number` | `error_number` |
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
/// a het job. Slurm requires `environment` on every component but uses only component 0's, so a component
/// with an empty environment is sent with component 0's.
QJsonObject encodeSubmission(ApiVersion version, const QString& script, const QList<JobComponentRequest>& components);

/// A reply's `errors` (absent: none).
QList<RestError> decodeErrors(const QJsonObject& reply);
/// A reply's `warnings` (absent: none).
QList<RestWarning> decodeWarnings(const QJsonObject& reply);

/// Whether a failed reply means that slurmctld refused the request's token. slurmrestd itself only checks that
/// the headers are there (HTTP 401 "Authentication failure" when not); it forwards the token, and a token that
/// slurmctld rejects (bad signature, expired, minted for another user) comes back as HTTP 500 with errors that
/// carry no reason, by endpoint (22.05.8, all observed): ping/job `error_number` -1 ("slurmctld config is unable
/// to load", "Unable to find JobId=1"), nodes `errno` -1, job/submit and DELETE job 5005 ("Zero Bytes were
/// transmitted or received"); 1007 ("Protocol authentication error") is taken as well. GETs answer the same
/// way when slurmctld is down, so this reads "refused, or slurmctld is not answering".
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
/// inside "result"). nullopt when it holds no job ID: then nothing was created.
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
