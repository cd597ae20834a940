// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "streamfeed.h"

#include <QByteArray>

namespace Trainyard {

class ApiClient;
class JobListModel;
struct ApiError;

/// The console's job list, kept current from the executor through one stream: `GET …/jobs?follow=true`
/// (ApiClient::followJobs(), API.md "Jobs stream") lists every job written after a cursor, says `synced`, then
/// sends every change; each batch goes into a JobListModel.
///
/// Reopened with open() after it dropped, it resumes from the last event ID it saw, so a reconnect costs the
/// changes it missed rather than a new listing. A cursor from another database (the executor restarted on a
/// different data folder) empties the model and lists again. One stream at a time; not thread-safe (GUI thread).
class JobListFeed : public StreamFeed {
    Q_OBJECT
public:
    explicit JobListFeed(JobListModel* model, QObject* parent = nullptr);

    /// Opens the stream on `client` (from the last cursor) unless one is open. close() keeps the cursor.
    void open(ApiClient* client);
    /// The model holds a complete listing: from a stream's `synced` until close() or a reset of the cursor (a
    /// stream that dropped keeps it: its successor resumes from the cursor).
    bool isSynced() const { return m_synced; }
    /// Some stream's listing completed once (before it, an empty model says nothing about the executor).
    bool hasListed() const { return m_listedOnce; }

signals:
    /// The model took a complete listing or, once synced, a change.
    void applied();
    /// The stream failed (it closes itself; open() again to resume).
    void failed(const ApiError& error);

private:
    JobListModel* m_model;
    QByteArray m_cursor; ///< where the stream resumes (ApiStream::lastEventId())
    bool m_listedOnce = false;
};

} // namespace Trainyard
