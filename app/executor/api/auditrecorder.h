// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "auditstore.h"
#include "httpapi.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QJsonObject>
#include <QString>

#include <string>

namespace Trainyard {

class JobStore;

/// What the audit log records of the API and of the executor (app/executor/API.md "Audit logs"; Cloud Audit Logs'
/// LogEntry with a google.cloud.audit.AuditLog payload): what each route is called there (methodOf()), the entry of a
/// routed call (entry(), entryOf(): principal, resource, request metadata, status) and of an action the executor takes
/// on its own (systemAction()), and how entries reach the AuditStore: an Admin Activity entry written before the call
/// is answered (write(), inside the store's transaction the router opens), a Data Access entry handed over as bytes
/// (record(), writeLater()) and built on the store's writer thread (chainedRecord()). The router (router.cpp) records
/// every call through it; `…/auditLogs` is the AuditLogsHandler's. Main thread, except the static functions, which
/// are pure and may run on any thread.
class AuditRecorder {
public:
    /// What the audit log records for a route: the method name (Cloud Audit Logs' `protoPayload.methodName`, the
    /// service's RPC name where it has one), the service that owns it, and whether it is an Admin Activity call
    /// (it changes something) or a Data Access one (it reads).
    struct Method {
        QString methodName; ///< "google.cloud.ml.v1.JobService.CreateJob"
        QString serviceName; ///< "ml.googleapis.com"
        bool adminActivity = false;
        bool explicitlyMapped = false; ///< false: derived from the permission (a route the table below lacks)
    };

    /// What an audit entry of a routed call is made of, taken when the call is answered (values only, so that the
    /// entry can be built on the audit writer's thread): entryOf() makes the entry.
    struct Facts {
        QString timestamp; ///< RFC 3339, when the call was answered
        QByteArray httpMethod;
        Method method;
        QString permission;
        QString member; ///< the caller's IAM member
        bool granted = true;
        int replyStatus = 0; ///< 0: streamed or answered later (OK)
        QByteArray replyBody; ///< only when the entry reads it: a failure, CreateToken
        QByteArray requestBody; ///< only for CreateJob
        QString project, jobId, token;
        bool hasToken = false;
        QString region; ///< of the job the path names
        QString callerIp;
        QByteArray userAgent;
        QString updateMask; ///< PATCH
        /// The model or version the call names, `projects/P/models/M[/versions/V]` (a create's from its body's
        /// name); empty for other calls, whose resource is the job, the project or the token.
        QString resource;
    };

    /// The largest request body an audit entry records whole (a CreateJob's job): a larger one is recorded by its
    /// job ID and labels, with `protoPayload.metadata.requestTruncated` saying so (API.md, "Audit logs").
    static constexpr qsizetype MaxRecordedRequestBytes = 16 * 1024;

    /// `jobs` (not owned, outlives the recorder) gives a job's region for its entries' resource labels.
    explicit AuditRecorder(const JobStore* jobs);

    /// Where entries go (not owned; null: nothing is recorded): Admin Activity entries always, Data Access entries
    /// when `dataAccess` is set (`trainyard-executor --audit-data-access`).
    void setStore(AuditStore* store, bool dataAccess);
    AuditStore* store() const { return m_store; }
    /// A call of `method` is recorded.
    bool records(const Method& method) const { return m_store && (method.adminActivity || m_dataAccess); }

    /// The audit method of a route (`method` "GET", `pattern` as HttpApi::routes() has it, `permission` its IAM
    /// permission). A route the mapping does not know gets one derived from its permission
    /// ("trainyard.v1.ml.jobs.get"), Admin Activity unless it is a GET, so that no route goes unrecorded; tst_audit
    /// checks every route is mapped.
    static Method methodOf(const QByteArray& method, const QString& pattern, const QString& permission);

    /// One audit entry of a routed call: `reply` its answer (a default one: streamed or answered later: OK),
    /// `granted` false for a denied call.
    QJsonObject entry(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
        const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply,
        bool granted) const;
    /// Writes `entry` (entry()) before the call is answered; false with *error when it could not (logged).
    bool write(const QJsonObject& entry, QString* error);
    /// Hands a Data Access entry to the audit store, which builds and writes it up to AuditStore::FlushInterval
    /// later (group commit); false when it could not (logged).
    bool writeLater(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
        const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply, bool granted);

    /// Records an action the executor takes on its own (principal `system`; API.md lists the methods:
    /// trainyard.v1.Executor.Start, trainyard.v1.JobLifecycle.ExpireJob, …) as an Admin Activity entry of the job
    /// `project`/`jobId` (empty jobId: executor-wide, project "-"); `message` goes into protoPayload.metadata.message,
    /// `trialId` the trial it concerns, `metadata` more of protoPayload.metadata (the Start entry's previousHead).
    /// False with *error when the entry could not be written; true when nothing is recorded.
    bool systemAction(const QString& project, const QString& jobId, const QString& methodName, const QString& message,
        const QString& trialId, QString* error, const QJsonObject& metadata);

    /// The Cloud Audit Logs entry of `facts` (API.md, "Audit logs"); pure, so any thread may call it.
    static QJsonObject entryOf(const Facts& facts);
    /// AuditStore::chain() of entryOf(facts) at place `seq`, the common Data Access entry written straight into its
    /// bytes (the same bytes); pure. *direct (when given) says whether it was.
    static AuditStore::Chained chainedEntry(
        const Facts& facts, qint64 seq, const QByteArray& prevHash, bool* direct = nullptr);
    /// The facts of a routed call (as entry() takes them; `region` the region of the job the path names, `timeUs`
    /// when the call was answered, µs since the Unix epoch) as the bytes of an audit store record
    /// (AuditStore::appendDeferred()), written over `*record`: how a Data Access entry is handed to the audit writer.
    /// Plain bytes rather than Facts, so that the API's thread shares no string with the writer.
    static void record(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
        const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply, bool granted,
        const QString& region, qint64 timeUs, std::string* record);
    /// chainedEntry() of the facts record() wrote into `record` (an AuditStore::RecordBuilder).
    static AuditStore::Chained chainedRecord(QByteArrayView record, qint64 seq, const QByteArray& prevHash);

private:
    Facts facts(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
        const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply,
        bool granted) const;
    /// record() of a call now, with its job's region.
    void recordNow(const ApiRequest& request, const HttpApi::Caller& caller, const Method& method,
        const QString& permission, const QHash<QString, QString>& params, const HttpApi::Reply& reply, bool granted,
        std::string* record) const;
    /// The region of a job that exists (empty when it does not), for its entries' resource labels.
    QString regionOf(const QString& project, const QString& jobId) const;

    const JobStore* m_jobs;
    AuditStore* m_store = nullptr;
    bool m_dataAccess = false;
    /// writeLater()'s encoding of the facts, kept so that its memory is reused.
    std::string m_record;
    /// "project/job" → trainingInput.region (a job's region never changes; reading the job for it cost a fifth of a
    /// Data Access read). Cleared when it reaches 4,096 jobs.
    mutable QHash<QString, QString> m_jobRegions;
};

} // namespace Trainyard
