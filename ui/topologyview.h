// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The cluster of one job as a graph, fed by a ReplicaModel (ARCHITECTURE.md "A job's life" names the
// roles). Edges follow the training topology:
// - without parameter servers (all-reduce through the master's address, as PyTorch DDP does): a star,
//   the master (or chief) in the centre and workers on rings around it, an edge master ↔ each worker;
// - with parameter servers (every worker and the master talk to every server): two tiers around a bus
//   line, servers above, the master in the middle of the row below with the workers on both sides of it
//   and in further rows; each node hangs on the bus by an orthogonal stub routed through the gaps between
//   nodes, so no line crosses a node and the picture stays readable at 1 + 64 + 16. edges() still lists
//   every server ↔ master/worker pair.
// Evaluators sit in a row below, apart, because they are not part of the cluster (TF_CONFIG leaves them
// out). The master is always at scene position (0, 0).
//
// Nodes cache their painting (QGraphicsItem::DeviceCoordinateCache) and only the nodes whose rows
// changed are repainted, so 1 + 64 + 16 replicas stay smooth. All edges are one path item.

#include "apiclient.h"

#include <QGraphicsView>
#include <QHash>
#include <QLineF>
#include <QPointer>
#include <QTimer>

class QAbstractItemModel;
class QGraphicsPathItem;
class QGraphicsSimpleTextItem;

namespace Trainyard {

class TopologyNode;

class TopologyView : public QGraphicsView {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);
    ~TopologyView() override;

    /// A ReplicaModel (or any model with its roles). Not owned.
    void setModel(QAbstractItemModel* model);

    /// Task names of the nodes shown.
    QStringList taskNames() const;
    /// Scene position of a node's centre; null point when absent.
    QPointF nodePosition(const QString& taskName) const;
    /// Edges as (a, b) task-name pairs, a < b.
    QList<QPair<QString, QString>> edges() const;
    /// The lines drawn for the edges (straight edges, or the bus and its stubs), in scene coordinates.
    QList<QLineF> drawnLines() const;
    /// The state a node shows; Unspecified when no node has that task name.
    ReplicaState nodeState(const QString& taskName) const;
    /// The detail lines a node shows under its state ("n1-standard-4 · no GPU", "up 3:07 · CPU 187 % · 412 MB").
    QStringList nodeDetails(const QString& taskName) const;
    QString selectedTask() const;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void fitAll();
    /// Selects and centres a node.
    void selectTask(const QString& taskName);
    /// Selects and centres the first FAILED replica; false if none.
    bool focusFailed();

Q_SIGNALS:
    /// A node was clicked or activated with Enter.
    void taskActivated(const QString& taskName);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void relayout();
    void onDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight);
    void scaleBy(double factor);
    void tickUptime();

    QTimer m_uptime;
    QGraphicsScene* m_scene;
    QPointer<QAbstractItemModel> m_model;
    QHash<QString, TopologyNode*> m_nodes;
    QList<QPair<QString, QString>> m_edges;
    QGraphicsPathItem* m_edgeItem = nullptr;
    QGraphicsSimpleTextItem* m_evaluatorLabel = nullptr;
    bool m_userZoomed = false;
    QPoint m_pressPos;
};

} // namespace Trainyard
