// SPDX-License-Identifier: GPL-2.0-or-later
#include "joblistfeed.h"

#include "apiclient.h"
#include "apistream.h"
#include "joblistmodel.h"

#include <utility>

namespace Trainyard {

JobListFeed::JobListFeed(JobListModel* model, QObject* parent)
    : QObject(parent)
    , m_model(model)
{
}

JobListFeed::~JobListFeed()
{
    close();
}

void JobListFeed::open(ApiClient* client)
{
    if (!client || m_stream)
        return;
    ApiStream* stream = client->followJobs(m_cursor);
    stream->setParent(this);
    m_stream = stream;
    connect(stream, &ApiStream::jobsReset, this, [this] {
        // The cursor is from another database (a different data folder): start over.
        m_synced = false;
        m_model->clear();
    });
    connect(stream, &ApiStream::jobsChanged, this, [this, stream](const QList<Job>& jobs) {
        m_model->updateJobs(jobs);
        m_cursor = stream->lastEventId();
        if (m_synced)
            emit applied();
    });
    connect(stream, &ApiStream::jobsSynced, this, [this](const QByteArray& cursor) {
        m_cursor = cursor;
        m_synced = true;
        m_listedOnce = true;
        emit applied();
    });
    connect(stream, &ApiStream::failed, this, &JobListFeed::failed);
    connect(stream, &ApiStream::finished, this, [this, stream] {
        // A drop keeps the model and m_synced: the next open() resumes from the cursor.
        if (m_stream == stream)
            m_stream = nullptr;
        stream->deleteLater();
    });
}

void JobListFeed::close()
{
    if (ApiStream* stream = std::exchange(m_stream, nullptr)) {
        stream->disconnect(this);
        stream->abort();
        stream->deleteLater();
    }
    m_synced = false;
}

} // namespace Trainyard
