// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "executorconnection.h"

#include <QList>
#include <QObject>

class QLabel;
class QStatusBar;

namespace Trainyard {

struct HostStatus;
struct RegionInfo;

/// The main window's permanent status bar fields about the executor, left to right: its address, the connection
/// state, what running jobs reserve of its host, and a summary of its Slurm clusters (a link; hidden while it has
/// none). The window's transient messages ("Starting the executor…") share the bar and are not this class's.
class ExecutorStatusBar : public QObject {
    Q_OBJECT
public:
    /// Adds the fields to `bar` (they belong to it; this object only updates them).
    explicit ExecutorStatusBar(QStatusBar* bar, QObject* parent = nullptr);

    /// The address (`url`, "" when none) and a coloured dot with the state's name.
    void showConnection(ExecutorConnection::State state, const QString& url);
    /// "Host: 12 / 16 vCPUs, 20.0 / 62.5 GB, 1 / 2 GPUs · 2 running, 1 queued, 2 prediction nodes", from the
    /// executor's `…/host` answer (what prediction nodes reserve is in the vCPUs and GB; their count only when any). A CPU or memory figure beyond the host's is coloured and the tooltip says what that means (the
    /// executor starts a job alone on the host whatever it asks for); the label's `oversubscribed` property is
    /// true then.
    void showHost(const HostStatus& host);
    /// ClustersView::summary() of `regions` as a link; hidden when it is empty.
    void showClusters(const QList<RegionInfo>& regions);

    QLabel* urlLabel() const { return m_url; }
    QLabel* connectionLabel() const { return m_connection; }
    QLabel* hostLabel() const { return m_host; }
    QLabel* clustersLabel() const { return m_clusters; }

signals:
    /// The clusters summary was clicked.
    void clustersActivated();

private:
    QLabel* m_url;
    QLabel* m_connection;
    QLabel* m_host;
    QLabel* m_clusters;
};

} // namespace Trainyard
