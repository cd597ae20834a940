// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QObject>
#include <QPointer>

namespace Trainyard {

class ApiStream;

/// What the console's followers of one executor stream share (JobListFeed, ModelListFeed): the one stream a feed
/// holds, owned, forgotten once it finishes (a drop or a refusal: its owner opens again), closed on request or when
/// the feed goes, and whether what the stream listed is complete (`synced`). Main thread.
class StreamFeed : public QObject {
    Q_OBJECT
public:
    ~StreamFeed() override;

    /// Ends the stream (aborted, no further signal from it); a feed's state for the next open is its own.
    void close();
    bool isOpen() const { return !m_stream.isNull(); }

protected:
    explicit StreamFeed(QObject* parent);

    /// Holds `stream` (a new one, from the client): the feed's parent of it until it finishes. `dropKeepsSync`: a
    /// stream that drops keeps the listing synced (its successor resumes from a cursor); otherwise it is no longer.
    void adopt(ApiStream* stream, bool dropKeepsSync);

    QPointer<ApiStream> m_stream;
    bool m_synced = false;
};

} // namespace Trainyard
