// SPDX-License-Identifier: GPL-2.0-or-later
#include "joblistfeed.h"

#include "apiclient.h"
#include "apistream.h"
#include "joblistmodel.h"

namespace Trainyard {

JobListFeed::JobListFeed(JobListModel* model, QObject* parent)
    : StreamFeed(parent)
    , m_model(model)
{
}

void JobListFeed::open(ApiClient* client)
{
    if (!client || m_stream)
        return;
    ApiStream* stream = client->followJobs(m_cursor);
    // A drop keeps the model and m_synced: the next open() resumes from the cursor.
    adopt(stream, true);
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
}

} // namespace Trainyard
