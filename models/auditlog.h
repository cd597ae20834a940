// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The executor's audit log as Cloud Audit Logs shapes it: each entry is a Cloud Logging LogEntry whose
// protoPayload is a google.cloud.audit.AuditLog (https://cloud.google.com/logging/docs/audit/understanding-audit-logs,
// https://cloud.google.com/logging/docs/reference/audit/auditlog/rest/Shared.Types/AuditLog). One type of helpers
// shared by the executor (which writes and serves entries), trainyardctl (audit list, audit verify) and the console
// (the Audit view): the log names, the hash chain that makes the log tamper-evident, and the filter of
// `GET /v1/projects/{p}/auditLogs?filter=`. Qt Core only.
//
// An entry (app/executor/API.md, "Audit logs"), keys as Cloud Logging's:
// {"logName": "projects/p/logs/cloudaudit.googleapis.com%2Factivity" | "…%2Fdata_access",
//  "timestamp": RFC 3339 UTC with microseconds, "receiveTimestamp": the same,
//  "insertId": 20 decimal digits, the entry's place in the executor's chain (1, 2, 3, … zero-padded),
//  "severity": "NOTICE" (admin activity) | "INFO" (data access) | "ERROR" (a failed call),
//  "resource": {"type": "ml_job", "labels": {"project_id", "job_id", "region"}} for a job's call,
//              {"type": "audited_resource", "labels": {"project_id", "service", "method"}} for any other,
//  "labels": {"trainyard.io/prev-hash": 64 hex digits},
//  "protoPayload": {"@type": "type.googleapis.com/google.cloud.audit.AuditLog", "serviceName", "methodName",
//     "resourceName", "authenticationInfo": {"principalEmail"}, "requestMetadata": {"callerIp",
//     "callerSuppliedUserAgent"}, "status": {} | {"code": google.rpc.Code number, "message"},
//     "authorizationInfo": [{"resource", "permission", "granted"}] (denials, and the permission a granted call
//     needed), "request": {"@type", …} (what identifies the call: the job ID, the update mask)}}
namespace Trainyard::Audit {

/// Which of Cloud Audit Logs' logs an entry belongs to.
enum class LogKind {
    Activity, ///< Admin Activity: calls that change something, always written
    DataAccess, ///< Data Access: calls that read, written only when the executor runs with --audit-data-access
};

/// `projects/{project}/logs/cloudaudit.googleapis.com%2Factivity` or `…%2Fdata_access` (the log ID is
/// URL-encoded in a log name, as Cloud Logging writes it).
QString logName(const QString& project, LogKind kind);
/// The kind a log name names; nullopt for a log name that is not one of the two.
std::optional<LogKind> logKindOf(const QString& logName);

/// The label that holds the hash of the entry before it in the chain.
inline QString prevHashLabel()
{
    return QStringLiteral("trainyard.io/prev-hash");
}
/// The label the executor puts on an entry it serves whose stored row's columns disagree with it (rowProblem()):
/// it says how, and verifyChain() reports it.
inline QString rowChangedLabel()
{
    return QStringLiteral("trainyard.io/row-changed");
}
/// The prev-hash of the first entry: 64 zeros.
QByteArray genesisHash();
/// An entry's canonical bytes: compact JSON with every object's keys in code-point order (QJsonObject keeps them
/// so), strings as QJsonDocument escapes them; numbers do not occur in entries except `status.code` (an integer).
QByteArray canonicalBytes(const QJsonObject& entry);
/// Lower-case hex SHA-256 of canonicalBytes(entry): what the next entry's prev-hash label holds.
QByteArray entryHash(const QJsonObject& entry);
/// entryHash() of the entry whose canonicalBytes() are `canonical` (saves serialising it twice).
QByteArray bytesHash(const QByteArray& canonical);
/// `insertId` of the entry at place `sequence` (1-based) in the chain: 20 decimal digits, zero-padded, so that
/// insert IDs sort as their places.
QString insertIdFor(qint64 sequence);
/// The place an insertId names; 0 when it is not one insertIdFor() makes.
qint64 sequenceOf(const QString& insertId);

/// The first problem verifyChain() found.
struct ChainProblem {
    qsizetype index = -1; ///< the entry's index in the list verified (oldest first)
    QString insertId; ///< the bad entry's insertId (as it is now)
    QString message; ///< English, names the entry and what is wrong with it
};
/// Checks a whole log, oldest first (as `insertId` orders it): the first entry's place is 1 and its prev-hash
/// the genesis hash; each next entry's place is one more than the one before (a gap: entries were removed; a
/// smaller place: entries were reordered), and its prev-hash label is entryHash() of the entry before it (else
/// that entry was changed, or this label). nullopt when all is well. The newest entry is covered only once an
/// entry follows it: the executor writes one when it stops (trainyard.v1.Executor.Stop).
std::optional<ChainProblem> verifyChain(const QList<QJsonObject>& oldestFirst);

/// The newest entry of a chain: its insertId and entryHash(). The chain cannot show that entries were removed from
/// its end, so the executor keeps its head outside the log (headAnchorPath()) and `audit verify` prints it: a head
/// kept from before is then checked with checkHead().
struct Head {
    QString insertId;
    QByteArray hash; ///< lower-case hex SHA-256
    /// "INSERTID:HASH", as `trainyardctl audit verify` prints it and its --head takes it.
    QString text() const { return insertId + QLatin1Char(':') + QString::fromLatin1(hash); }
    /// The text() form; nullopt when `text` is not one.
    static std::optional<Head> parse(const QString& text);
    bool operator==(const Head&) const = default;
};
/// The head of `oldestFirst` (its last entry); nullopt when it is empty.
std::optional<Head> headOf(const QList<QJsonObject>& oldestFirst);
/// Where the executor keeps the head of the audit log of `dataDir`: `<runtimeDir>/audit-head-<the first 16 hex
/// digits of SHA-256 of dataDir>.json`, in the user's private runtime folder, left there when the executor stops.
QString headAnchorPath(const QString& runtimeDir, const QString& dataDir);
/// Writes `head` of `dataDir`'s log to `path`, whole or not at all: `{"dataDir", "insertId", "hash", "time"}`
/// (mode 0600). False and *error when it cannot.
bool writeHeadAnchor(const QString& path, const QString& dataDir, const Head& head, QString* error);
/// The head kept at `path` for `dataDir`; nullopt when there is none, or when it is of another data folder.
std::optional<Head> readHeadAnchor(const QString& path, const QString& dataDir);
/// Whether `oldestFirst` (checked with verifyChain()) still holds `head`, the head recorded at some point by
/// `source` ("the executor", "--head"): an entry at head's place with head's hash. A log that ends before that
/// place lost entries from its end; another hash there means the log was changed from that entry on.
std::optional<ChainProblem> checkHead(const QList<QJsonObject>& oldestFirst, const Head& head, const QString& source);
/// The method name of the entry an executor writes when it starts (`protoPayload.metadata.previousHead` records the
/// head it found kept outside the log, Head's insertId and hash, when there was one).
inline QString executorStartMethod()
{
    return QStringLiteral("trainyard.v1.Executor.Start");
}
/// checkHead() for every head the log's own Start entries record (their `previousHead`): entries removed from the
/// log's end while no executor ran are found in every later verify, even once the log has grown past the cut.
std::optional<ChainProblem> checkRecordedHeads(const QList<QJsonObject>& oldestFirst);
/// What is wrong with a stored row's columns (AuditStore's `project`, `log_kind`) given its entry: each must say what
/// the entry's logName says, since reads select rows on them while the chain's hash covers the entry alone (`seq`,
/// the order, is checked by verifyChain() against the insertIds). Empty when all agree.
QString rowProblem(qint64 seq, const QString& project, const QString& logKind, const QJsonObject& entry);

/// The filter of `…/auditLogs?filter=` and `trainyardctl audit list --filter`: a subset of the Cloud Logging query
/// language (https://cloud.google.com/logging/docs/view/logging-query-language):
///   filter := term { [AND] term }
///   term   := path op value
///   path   := a dotted field path into the entry (`protoPayload.methodName`, `resource.labels.job_id`,
///             `protoPayload.authenticationInfo.principalEmail`, `logName`, `severity`, `timestamp`, `insertId`, …);
///             a label key with dots or slashes is written in double quotes: `labels."trainyard.io/prev-hash"`
///   op     := "=" | "!=" | ":" (has: substring, case-insensitive) | "<" | "<=" | ">" | ">="
///   value  := bare word | "double-quoted string"
/// `severity` compares by rank (`severity>=NOTICE`), `timestamp` as times (RFC 3339), other fields as text.
/// A path that an entry lacks matches only `!=`. OR, NOT and parentheses are refused with an error.
class Filter {
public:
    /// Parses `text`; blank text matches everything. nullopt with *error (position and problem) on a syntax error.
    static std::optional<Filter> parse(const QString& text, QString* error);
    bool matches(const QJsonObject& entry) const;
    bool isEmpty() const { return m_terms.isEmpty(); }

    enum class Op { Equal, NotEqual, Has, Less, LessEqual, Greater, GreaterEqual };
    struct Term {
        QStringList path;
        Op op = Op::Equal;
        QString value;
    };
    const QList<Term>& terms() const { return m_terms; }

private:
    QList<Term> m_terms;
};

/// One entry as the clients read it: the fields the console's Audit view and `trainyardctl audit list` show, decoded
/// once, leniently (a missing field is empty). `json` is the entry as it was sent: the chain's hash covers it
/// (canonicalBytes()), `audit verify` checks it, and the console shows it whole.
struct Entry {
    QJsonObject json;
    QString insertId;
    QString timestamp; ///< RFC 3339 UTC, as written
    QString logName;
    QString severity; ///< "NOTICE" | "INFO" | "ERROR"
    QString principal; ///< protoPayload.authenticationInfo.principalEmail ("system" for the executor's own actions)
    QString serviceName;
    QString methodName; ///< "google.cloud.ml.v1.JobService.CancelJob", "trainyard.v1.JobLifecycle.ExpireJob", …
    QString resourceName; ///< "projects/p/jobs/j"
    QString jobId; ///< resource.labels.job_id (a job's call)
    /// protoPayload.status.code, a google.rpc.Code number; absent when the call succeeded (`"status": {}`).
    std::optional<int> statusCode;
    QString statusMessage;
    QList<FieldViolation> violations; ///< status.details[].fieldViolations[] (why a request was invalid)
    struct Authorization {
        QString resource;
        QString permission;
        bool granted = false;
        bool operator==(const Authorization&) const = default;
    };
    QList<Authorization> authorizations; ///< protoPayload.authorizationInfo[]
    QString callerIp; ///< protoPayload.requestMetadata.callerIp
    QString userAgent; ///< protoPayload.requestMetadata.callerSuppliedUserAgent
    QString what; ///< protoPayload.metadata.message: what the executor did on its own, in words
    QString requestTruncated; ///< protoPayload.metadata.requestTruncated.message: a request too large to keep whole

    /// The call failed: a status code other than 0 (OK).
    bool failed() const { return statusCode && *statusCode != 0; }
    /// Decodes one entry (app/executor/API.md "Audit logs"; the shape at the top of this file).
    static Entry fromJson(const QJsonObject& json);
};

/// One page of `GET /v1/projects/{p}/auditLogs`: `{"entries": [LogEntry…] newest first, "nextPageToken"}` (the
/// token only when older entries follow, as Cloud Logging's entries.list).
struct Page {
    QList<Entry> entries;
    QString nextPageToken;

    static Page fromJson(const QJsonObject& json);
    /// The answer's JSON: each entry's `json` as it is.
    QJsonObject toJson() const;
};

} // namespace Trainyard::Audit
