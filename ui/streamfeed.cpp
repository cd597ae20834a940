// SPDX-License-Identifier: GPL-2.0-or-later
#include "streamfeed.h"

#include "apistream.h"

#include <utility>

namespace Trainyard {

StreamFeed::StreamFeed(QObject* parent)
    : QObject(parent)
{
}

StreamFeed::~StreamFeed()
{
    close();
}

void StreamFeed::adopt(ApiStream* stream, bool dropKeepsSync)
{
    stream->setParent(this);
    m_stream = stream;
    connect(stream, &ApiStream::finished, this, [this, stream, dropKeepsSync] {
        if (m_stream == stream) {
            m_stream = nullptr;
            if (!dropKeepsSync)
                m_synced = false;
        }
        stream->deleteLater();
    });
}

void StreamFeed::close()
{
    if (ApiStream* stream = std::exchange(m_stream, nullptr)) {
        stream->disconnect(this);
        stream->abort();
        stream->deleteLater();
    }
    m_synced = false;
}

} // namespace Trainyard
