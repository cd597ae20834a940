// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QObject>
#include <QSocketNotifier>
#include <QTimer>

#include <functional>
#include <memory>

namespace Trainyard {

/// A pipe that carries one output stream (stdout or stderr) of a replica to the executor, read in
/// batches: after a read the executor waits `batchMs` before reading again, so a chatty trainer costs one
/// wake-up per batch (≤ 1000/s per stream at 1 ms) instead of one per write, and each read takes up to
/// 1 MiB. QProcess reads on every notification and cannot be told to wait, hence this class.
///
/// Use: open(); in the child (QProcess::setChildProcessModifier) dup2(writeFd(), 1 or 2); after the
/// child started, closeWriteEnd(); when the child has exited, drain() delivers what is left.
/// The sink gets each chunk as it was read (lines may be split across chunks). Main thread only.
class OutputPipe : public QObject {
    Q_OBJECT
public:
    using Sink = std::function<void(const QByteArray& chunk)>;
    OutputPipe(Sink sink, int batchMs, QObject* parent = nullptr);
    ~OutputPipe() override;

    /// Creates the pipe (1 MiB when the kernel allows). False on failure (errno kept).
    bool open();
    int writeFd() const { return m_writeFd; }
    /// Closes the executor's copy of the write end (the child keeps its own).
    void closeWriteEnd();
    /// Reads everything the pipe holds now and closes it. Nothing is delivered afterwards.
    void drain();

private:
    void readAvailable();
    void close();

    Sink m_sink;
    int m_batchMs;
    int m_readFd = -1;
    int m_writeFd = -1;
    std::unique_ptr<QSocketNotifier> m_notifier;
    QTimer m_resume;
    QByteArray m_buffer;
};

} // namespace Trainyard
