// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The cluster of one job as a graph, fed by a ReplicaModel (ARCHITECTURE.md "A job's life" names the
// roles): the master (or chief) in the centre, parameter servers on an inner ring, workers on outer
// rings; evaluators in a row below, apart, because they are not part of the cluster (TF_CONFIG leaves
// them out). Edges follow the training topology: workers ↔ parameter servers when there are any,
// otherwise workers ↔ master (all-reduce through the master's address, as PyTorch DDP does).
//
// Nodes cache their painting (QGraphicsItem::DeviceCoordinateCache) and only the nodes whose rows
// changed are repainted, so 1 + 64 + 16 replicas stay smooth. All edges are one path item.

#include <QGraphicsView>
#include <QHash>
#include <QPointer>

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
    /// The state a node shows.
    QString nodeState(const QString& taskName) const;
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
