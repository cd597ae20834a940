// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A Server-Sent Events stream of the executor's HTTP API (ApiClient::followLogs(), followEvents(), followJobs(),
// followMetrics()).

#include "apitypes.h"
#include "predictionresults.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

class QNetworkReply;

namespace Trainyard {

/// A Server-Sent Events stream of the executor (`text/event-stream`). Parses events incrementally as
/// bytes arrive (`event:` / `data:` lines, blank line ends an event, `:` comments ignored) and emits
/// them in batches: all complete events of one network read become one signal per kind, so a
/// fast producer costs one slot call per read, not one per line.
///
/// Emits `finished()` exactly once: after `ended` (the server's `end` event), after `failed`, or when the
/// server closes the stream. Deleting the stream aborts the connection.
class ApiStream : public QObject {
    Q_OBJECT
public:
    ~ApiStream() override;
    /// Closes the connection; no further signals except finished() (if not yet emitted).
    void abort();
    bool isFinished() const { return m_finished; }
    /// The `id:` of the last event received (SSE's "last event ID"); empty when none had one.
    QByteArray lastEventId() const { return m_lastEventId; }

Q_SIGNALS:
    /// Log entries, in arrival order.
    void logEntries(const QList<Trainyard::LogEntry>& entries);
    /// The `end` event of a log stream: the job's final state (Succeeded, Failed, Cancelled); StateUnspecified
    /// when the event names none (the job was deleted) or a name this client does not know (logged).
    void ended(Trainyard::JobState finalState);
    /// `event: job` of an events stream.
    void jobChanged(const Trainyard::Job& job);
    /// The `event: job`s of one network read, in order (job list and events streams).
    void jobsChanged(const QList<Trainyard::Job>& jobs);
    /// `event: synced` of a job list stream: every job of the snapshot was sent; `cursor` is where a
    /// reconnect resumes (also lastEventId()).
    void jobsSynced(const QByteArray& cursor);
    /// `event: reset` of a job list stream: forget the jobs seen so far, a full snapshot follows.
    void jobsReset();
    /// `event: synced` of a list stream (jobs or models): the first listing is complete.
    void synced();
    /// `event: model` of a models stream: a model and all its versions, as they are now.
    void modelChanged(const Trainyard::ModelChange& change);
    /// `event: modelDeleted` of a models stream: the model's ID ("census").
    void modelDeleted(const QString& model);
    /// `event: rates` of a models stream: every READY version's current requests per second.
    void versionRates(const Trainyard::VersionRates& rates);
    /// `event: replicas` of an events stream.
    void replicasChanged(const QString& jobId, const QList<Trainyard::ReplicaInfo>& replicas);
    /// `event: series` of a metrics stream: a series (all stored ones first, then each new one).
    void metricSeriesAdded(const Trainyard::SeriesInfo& series);
    /// `event: points` of a metrics stream: points of one series, in stored order.
    void metricPoints(const QString& series, const QList<Trainyard::SeriesPoint>& points);
    /// `event: purge` of a metrics stream: a trainer restarted from an earlier step, so the points of
    /// `series` with step ≥ `fromStep` were removed (TensorBoard's rule); new ones follow.
    void metricsPurged(const QString& series, qint64 fromStep);
    /// An HTTP error answer or a transport failure.
    void failed(const Trainyard::ApiError& error);
    void finished();

private:
    friend class ApiClient;
    ApiStream(QNetworkReply* reply, const QString& jobId, QObject* parent);
    void onReadyRead();
    void onFinished();
    void dispatch(const QString& event, const QByteArray& data, QList<LogEntry>* logBatch, QList<Job>* jobBatch);
    void flushJobs(QList<Job>* jobBatch);
    void finish();

    QPointer<QNetworkReply> m_reply;
    QString m_jobId;
    QString m_project; ///< a models stream's project, for decoding its records
    QByteArray m_buffer;
    QString m_event;
    QByteArray m_data;
    QByteArray m_lastEventId;
    bool m_finished = false;
    bool m_sawEnd = false;
};

} // namespace Trainyard
