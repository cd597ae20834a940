// SPDX-License-Identifier: GPL-2.0-or-later
#include "outputpipe.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace Trainyard {

namespace {
constexpr qsizetype ReadChunk = 1 << 20;
}

OutputPipe::OutputPipe(Sink sink, int batchMs, QObject* parent)
    : QObject(parent)
    , m_sink(std::move(sink))
    , m_batchMs(batchMs)
{
    m_resume.setSingleShot(true);
    connect(&m_resume, &QTimer::timeout, this, [this] {
        if (m_notifier)
            m_notifier->setEnabled(true);
    });
}

OutputPipe::~OutputPipe()
{
    close();
    if (m_writeFd >= 0)
        ::close(m_writeFd);
}

bool OutputPipe::open()
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return false;
    m_readFd = fds[0];
    m_writeFd = fds[1];
    fcntl(m_readFd, F_SETFL, fcntl(m_readFd, F_GETFL) | O_NONBLOCK);
    fcntl(m_readFd, F_SETPIPE_SZ, 1 << 20); // best effort: /proc/sys/fs/pipe-max-size may be lower
    m_notifier = std::make_unique<QSocketNotifier>(m_readFd, QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, [this] {
        readAvailable();
        // Wait before the next read, so that the next one finds a batch, not a line.
        if (m_notifier && m_batchMs > 0) {
            m_notifier->setEnabled(false);
            m_resume.start(m_batchMs);
        }
    });
    return true;
}

void OutputPipe::closeWriteEnd()
{
    if (m_writeFd >= 0) {
        ::close(m_writeFd);
        m_writeFd = -1;
    }
}

void OutputPipe::readAvailable()
{
    if (m_readFd < 0)
        return;
    if (m_buffer.size() != ReadChunk)
        m_buffer.resize(ReadChunk);
    // A few full reads at most, so that one flooding replica cannot hold the event loop.
    for (int reads = 0; reads < 8; ++reads) {
        const ssize_t n = ::read(m_readFd, m_buffer.data(), size_t(ReadChunk));
        if (n > 0) {
            // No copy: the sink sees the bytes in our buffer and must not keep the QByteArray.
            m_sink(QByteArray::fromRawData(m_buffer.constData(), qsizetype(n)));
            if (n < ReadChunk)
                return;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) // every writer closed it
            close();
        return;
    }
}

void OutputPipe::drain()
{
    readAvailable();
    close();
}

void OutputPipe::close()
{
    m_resume.stop();
    m_notifier.reset();
    if (m_readFd >= 0) {
        ::close(m_readFd);
        m_readFd = -1;
    }
}

} // namespace Trainyard
