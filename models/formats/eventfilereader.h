// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "tfrecordreader.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <vector>

namespace Trainyard::Formats {

/// What one Event record is, as far as scalar accumulators care (TensorBoard's
/// EventAccumulator looks at exactly these to decide its purges).
struct EventInfo {
    enum class Kind {
        Other, ///< graph, metadata, log message, …
        FileVersion, ///< `file_version` (the first record, "brain.Event:2")
        Summary, ///< `summary`, whatever its values are
        SessionStart, ///< `session_log` with status START: a (re)started training session
        SessionLog, ///< any other `session_log`
    };
    Kind kind = Kind::Other;
    qint64 step = 0;
    double wallTime = 0; ///< seconds since the Unix epoch
    qint64 offset = 0; ///< file offset of the record
};

/// Receives what EventFileReader decodes, in file order. For each Event record beginEvent() is
/// called once, then scalar() for each of its scalar values. `tag` is UTF-8 and points into the
/// reader's buffer: copy it if you keep it.
class ScalarSink {
public:
    virtual ~ScalarSink() = default;
    virtual void beginEvent(const EventInfo& event) { Q_UNUSED(event) }
    virtual void scalar(QByteArrayView tag, qint64 step, double wallTime, double value) = 0;
};

/// Decodes one Event record (tensorflow/core/util/event.proto; our event.proto has the same
/// field numbers) and passes its scalars to `sink`.
///
/// A Summary.Value is a scalar when
/// - it has `simple_value` (float; TF1 `tf.summary.scalar`, PyTorch's SummaryWriter), or
/// - it has a `tensor` of rank 0 (a shape without dims; `unknown_rank` is not rank 0) whose dtype
///   is DT_FLOAT, DT_DOUBLE, DT_HALF, DT_BFLOAT16, DT_INT32 or DT_INT64, and its
///   `metadata.plugin_data.plugin_name` is "scalars" or empty (TF2 `tf.summary.scalar`,
///   TensorBoard's `scalar_pb`). A tensor that another plugin owns (histograms, text, hparams,
///   pr_curves, …) is not parsed at all.
/// The element comes from `tensor_content` (little-endian bytes) or the typed field: `float_val`,
/// `double_val`, `int_val`, `int64_val`, and `half_val` for half and bfloat16 (16 bits per int32).
/// No element at all means 0, as TensorFlow's MakeNdarray reads it. int64 values above 2^53 are
/// rounded to the nearest double.
///
/// Images, audio, histograms and graphs are skipped by length without being parsed. A record laid out
/// the way writers serialize a `simple_value` scalar (most records of a training run) is read at fixed
/// positions; any other goes through a field loop on libprotobuf's CodedInputStream (no message
/// objects, no allocations). Tests check both against the generated classes and against each other.
///
/// Returns false, with `*error` set, when the bytes are not a valid Event message; scalars already
/// passed to the sink before the damage was found are not taken back, so call it on CRC-verified
/// records.
bool decodeEventRecord(const char* data, size_t size, qint64 offset, ScalarSink& sink, QString* error);

namespace Detail {
/// decodeEventRecord() without its fast path for the usual `simple_value` layout (wall_time, step,
/// one summary value with a tag and a simple_value, nothing else): the general field loop alone. For
/// tst_eventfile and fuzz_eventrecord, which check that both paths give the same result.
bool decodeEventRecordGeneral(const char* data, size_t size, qint64 offset, ScalarSink& sink, QString* error);
} // namespace Detail

/// Reads the scalars of one event file (`*tfevents*`), incrementally: each readAvailable() call
/// decodes the records appended since the previous call. Framing, CRC and partial-record rules are
/// TfRecordReader's; a record whose CRC matches but that is not an Event is reported
/// (RecordIssue::BadRecord) and skipped.
class EventFileReader {
public:
    explicit EventFileReader(const QString& path);

    QString path() const { return m_records.path(); }

    /// Decodes every complete record available now, in file order, into `sink`. Returns the
    /// number of records consumed (decoded or skipped). Never throws; problems go to takeIssues().
    /// A ScalarRun sink is fed by a loop of its own that inlines the CRCs, the decoding and its calls
    /// (bench_metrics' 200 MB file: 93 → 58 ms a pass, against virtual calls per record).
    qint64 readAvailable(ScalarSink& sink);

    qint64 offset() const { return m_records.offset(); }
    /// True once the framing is lost (see TfRecordReader): later calls read nothing.
    bool isStopped() const { return m_records.isStopped(); }
    std::vector<RecordIssue> takeIssues() { return m_records.takeIssues(); }

private:
    template <typename Crc, typename Sink> static qint64 readRecords(TfRecordReader& records, Sink& sink);
    template <typename Sink> qint64 read(Sink& sink);
    template <typename Sink> qint64 readSse42(Sink& sink);
    /// A record that is not the usual `simple_value` layout: the general decoder, and a BadRecord
    /// issue when it is not an Event.
    static void decodeGeneralOrReport(TfRecordReader& records, const char* data, size_t size, ScalarSink& sink);

    TfRecordReader m_records;
};

/// Whether TensorBoard treats a file as an event file: its basename contains "tfevents".
bool isEventFileName(const QString& fileName);

/// The event files of one run.
struct EventRunFiles {
    QString run; ///< directory relative to the searched path, '/'-separated; "." for the path itself
    QStringList files; ///< absolute paths, sorted by file name (the order TensorBoard reads them in)
};

/// TensorBoard's run discovery: every directory at or below `path` that directly holds event
/// files (isEventFileName()) is a run named by its path relative to `path`. When `path` is a file,
/// it is the one file of run "." whatever its name. Runs come sorted by name; symbolic links to
/// directories are not followed (no cycles). Returns an empty list and sets `*error` when `path`
/// does not exist; an existing directory without event files gives an empty list and no error.
std::vector<EventRunFiles> findEventRuns(const QString& path, QString* error);

} // namespace Trainyard::Formats
