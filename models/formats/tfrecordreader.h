// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QFile>
#include <QString>

#include <cstddef>
#include <vector>

namespace Trainyard::Formats {

/// A problem found while reading a TFRecord file. Offsets are byte offsets in the file of the
/// first byte of the record's 8-byte length field.
struct RecordIssue {
    enum class Kind {
        LengthCrc, ///< the masked CRC of the length field does not match: framing lost, reading stops
        DataCrc, ///< the masked CRC of the payload does not match: that record is skipped
        BadRecord, ///< the framing is intact but the payload is not what the reader expects (skipped)
        TooLarge, ///< a length above TfRecordReader::maxRecordSize: reading stops
        Io, ///< the file could not be opened or read, or it shrank below what was already read
    };
    Kind kind;
    qint64 offset;
    QString message; ///< plain English, names the file, the offset and the rule
};

/// Incremental reader of TFRecord framing (tensorflow/core/lib/io/record_reader.cc):
///
///     u64 length (little-endian) | u32 masked CRC-32C of the 8 length bytes |
///     length bytes of data       | u32 masked CRC-32C of the data
///
/// The reader keeps its file offset and an open file handle, so calling next() again after it
/// returned End picks up what a writer appended since. A partial record at the end of the file is
/// not an error: it is read again, whole, once the writer has finished it.
///
/// Damage handling, chosen to match TensorFlow's RecordReader and TensorBoard's loader where they
/// are defined:
/// - payload CRC mismatch: the length was verified, so the next record's position is known; the
///   record is reported (RecordIssue::DataCrc) and skipped, and reading goes on.
/// - length CRC mismatch: the position of every later record is unknown. TensorFlow raises
///   DataLossError and TensorBoard stops reading the file there (it retries that offset forever).
///   We do the same without the retries: report RecordIssue::LengthCrc once and stop; the reader
///   stays stopped at that offset (isStopped()). We do not scan for a plausible next header: a
///   false resync would invent records.
///
/// Not thread-safe; one reader per file, used from one thread at a time.
class TfRecordReader {
public:
    enum class Result {
        Record, ///< a verified record is available (data stays valid until the next call)
        End, ///< no complete record after offset() yet; call again when the file has grown
        Stopped, ///< framing lost or an I/O error; see takeIssues(). Only I/O errors are retried.
    };

    /// Records above this size stop the reader (RecordIssue::TooLarge) instead of allocating
    /// whatever a damaged-but-CRC-matching header asks for. TensorFlow writes no record anywhere
    /// near this for events.
    static constexpr quint64 maxRecordSize = quint64(1) << 30;

    explicit TfRecordReader(const QString& path);
    TfRecordReader(const TfRecordReader&) = delete;
    TfRecordReader& operator=(const TfRecordReader&) = delete;

    QString path() const { return m_path; }

    /// Reads the next verified record. On Result::Record, *data and *size point at the payload
    /// inside the reader's buffer, valid until the next call, and recordOffset() is its offset.
    Result next(const char** data, size_t* size);

    /// File offset just past the last record consumed (returned or skipped): where the next
    /// record starts.
    qint64 offset() const { return m_bufferOffset + qint64(m_begin); }
    /// File offset of the record last returned by next().
    qint64 recordOffset() const { return m_recordOffset; }
    bool isStopped() const { return m_stopped; }

    /// The problems found since the last call, in file order.
    std::vector<RecordIssue> takeIssues();
    /// Adds an issue found by a caller that decodes the payload (RecordIssue::BadRecord).
    void reportIssue(RecordIssue issue);

private:
    friend class EventFileReader;
    /// next() with the CRC-32C of `Crc::of(data, n)` (Detail::PortableCrc, Detail::Sse42Crc), defined
    /// in tfrecordreader_p.h so that a reader's record loop can inline it; next() picks the SSE4.2
    /// instantiation when the CPU has the instruction, so the CRCs of short records are inlined
    /// instead of called.
    template <typename Crc> Result nextVerified(const char** data, size_t* size);
    Result nextSse42(const char** data, size_t* size);
    // The rare outcomes of nextVerified(), out of its loop: report, then stop or skip the record.
    Result stopAtLengthCrc();
    Result stopAtTooLarge(quint64 length);
    void skipAtDataCrc(qint64 at, quint64 length);
    bool fill(size_t need);
    void addIssue(RecordIssue::Kind kind, qint64 offset, const QString& message);

    QString m_path;
    QFile m_file;
    std::vector<char> m_buffer;
    size_t m_begin = 0; ///< first unconsumed byte in m_buffer
    size_t m_end = 0; ///< one past the last byte read into m_buffer
    qint64 m_bufferOffset = 0; ///< file offset of m_buffer[0]
    qint64 m_recordOffset = -1;
    bool m_stopped = false;
    bool m_ioFailed = false;
    std::vector<RecordIssue> m_issues;
};

/// Appends one TFRecord-framed record holding `size` bytes of `data` to `out`.
void appendTfRecord(QByteArray& out, const char* data, size_t size);

} // namespace Trainyard::Formats
