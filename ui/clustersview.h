// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "regioninfo.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeView;

namespace Trainyard {

class ApiClient;
class ClustersModel;

/// The Clusters view: where jobs run — this host and each Slurm cluster of the executor's clusters.yaml —
/// with each cluster's state, nodes (state, CPUs and GPUs in use, memory, partitions) and the project's live
/// Trainyard jobs there. Reads `GET …/regions` (app/executor/API.md "Regions") every `intervalMs` and on
/// refresh(); the console's status bar follows regionsChanged().
class ClustersView final : public QWidget {
    Q_OBJECT
public:
    explicit ClustersView(QWidget* parent = nullptr);

    /// The client to ask; nullptr stops the polling. Asks at once.
    void setClient(ApiClient* client);
    /// How often the regions are read again, in milliseconds (default 10 s: each read asks every cluster's
    /// slurmrestd for its nodes and partitions).
    void setInterval(int intervalMs) { m_poll.setInterval(intervalMs); }

    ClustersModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    QLabel* statusLabel() const { return m_status; }
    /// Shown instead of an empty list while the executor has no cluster: where clusters.yaml is, an example, and
    /// the README's section.
    QLabel* emptyState() const { return m_empty; }
    /// The clusters.yaml the executor reads, when the console knows it (a local executor's: this user's
    /// `$XDG_CONFIG_HOME/trainyard/clusters.yaml`); empty: said as "on the executor's host".
    void setClustersFile(const QString& path);

    /// One line for the status bar: each cluster with its idle and usable nodes and GPUs in use ("testcluster:
    /// 3 of 4 nodes idle, 1 / 4 GPUs"), a cluster that is down said so; empty when no cluster is configured.
    static QString summary(const QList<RegionInfo>& regions);

public slots:
    void refresh();

signals:
    /// A read of the regions arrived (the model holds them).
    void regionsChanged(const QList<Trainyard::RegionInfo>& regions);

private:
    QPointer<ApiClient> m_client;
    ClustersModel* m_model;
    QTreeView* m_tree;
    QLabel* m_status;
    QPushButton* m_refresh;
    QLabel* m_empty;
    QString m_clustersFile;
    void updateEmptyState();
    QTimer m_poll;
    bool m_pending = false;
};

} // namespace Trainyard
