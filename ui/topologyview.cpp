// SPDX-License-Identifier: GPL-2.0-or-later
#include "topologyview.h"

#include "replicamodel.h"
#include "stateicons.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QGraphicsItem>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QPainter>
#include <QShortcut>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <cmath>

namespace Trainyard {

namespace {
constexpr qreal NodeWidth = 190;
constexpr qreal NodeHeight = 90;
/// "Fit" never scales below this: 8 pt node text stays above 6 pt.
constexpr qreal MinFitScale = 0.75;
// Centres at least this far apart never overlap (the box diagonal is ~203).
constexpr qreal MinSpacing = 215;
constexpr qreal FirstRing = 230;

struct NodeData {
    QString taskName;
    QString role;
    ReplicaState state = ReplicaState::Unspecified;
    QString gpus;
    int restarts = 0;
    QString exitText;
    QString machineType;
    QString node; ///< the cluster node it runs on; empty on the executor's host
    QDateTime runningSince; ///< invalid unless running
    double cpuPercent = -1; ///< latest sample; < 0 when none
    qint64 rssBytes = -1;
};

/// "42 s", "3:07", "1:02:03": how long a replica has run.
QString formatUptime(qint64 seconds)
{
    if (seconds < 60)
        return QCoreApplication::translate("Trainyard::TopologyView", "%1 s").arg(seconds);
    if (seconds < 3600)
        return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2:%3")
        .arg(seconds / 3600)
        .arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(seconds % 60, 2, 10, QLatin1Char('0'));
}
} // namespace

class TopologyNode final : public QGraphicsItem {
public:
    explicit TopologyNode(const NodeData& data)
        : m_data(data)
    {
        setFlags(ItemIsSelectable | ItemIsFocusable);
        setCacheMode(DeviceCoordinateCache);
        setAcceptHoverEvents(true);
        setCursor(Qt::PointingHandCursor);
    }

    QRectF boundingRect() const override
    {
        return QRectF(-NodeWidth / 2 - 3, -NodeHeight / 2 - 3, NodeWidth + 6, NodeHeight + 6);
    }

    void setData(const NodeData& data)
    {
        if (data.taskName == m_data.taskName && data.role == m_data.role && data.state == m_data.state
            && data.gpus == m_data.gpus && data.restarts == m_data.restarts && data.exitText == m_data.exitText
            && data.machineType == m_data.machineType && data.node == m_data.node
            && data.runningSince == m_data.runningSince && data.cpuPercent == m_data.cpuPercent
            && data.rssBytes == m_data.rssBytes)
            return;
        m_data = data;
        update(); // only this node's cache is redrawn
    }
    const NodeData& nodeData() const { return m_data; }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override
    {
        const QColor accent = stateColor(m_data.state);
        QColor fill = accent;
        fill.setAlpha(34);
        const QRectF box(-NodeWidth / 2, -NodeHeight / 2, NodeWidth, NodeHeight);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setBrush(Qt::white);
        painter->setPen(Qt::NoPen);
        painter->drawRoundedRect(box, 8, 8);
        painter->setBrush(fill);
        const bool selected = option->state & QStyle::State_Selected;
        painter->setPen(QPen(selected ? QColor(0x24, 0x1f, 0x31) : accent, selected ? 3.5 : 2));
        painter->drawRoundedRect(box, 8, 8);

        const QRectF iconRect(box.left() + 8, box.top() + 8, 18, 18);
        stateIcon(m_data.state).paint(painter, iconRect.toRect());

        QFont font = painter->font();
        font.setPointSizeF(9);
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(QColor(0x24, 0x1f, 0x31));
        const QRectF title(iconRect.right() + 6, box.top() + 6, box.right() - iconRect.right() - 12, 22);
        painter->drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
            painter->fontMetrics().elidedText(m_data.taskName, Qt::ElideMiddle, int(title.width())));

        font.setBold(false);
        font.setPointSizeF(8);
        painter->setFont(font);
        painter->setPen(accent.darker(130));
        QString stateLine = stateDisplayName(m_data.state);
        if (!m_data.exitText.isEmpty())
            stateLine += QStringLiteral(" · ") + m_data.exitText;
        painter->drawText(
            QRectF(box.left() + 10, box.top() + 28, box.width() - 20, 18), Qt::AlignLeft | Qt::AlignVCenter, stateLine);

        painter->setPen(QColor(0x5e, 0x5c, 0x64));
        const QStringList lines = detailLines();
        for (int i = 0; i < lines.size(); ++i)
            painter->drawText(QRectF(box.left() + 10, box.top() + 47 + 19 * i, box.width() - 20, 18),
                Qt::AlignLeft | Qt::AlignVCenter,
                painter->fontMetrics().elidedText(lines.at(i), Qt::ElideRight, int(box.width() - 20)));
    }

    /// The node's detail lines under its state: what the replica runs on (machine type, GPUs, restarts),
    /// then, while it runs, its uptime and latest CPU and memory samples.
    QStringList detailLines() const
    {
        QStringList details;
        if (!m_data.node.isEmpty())
            details << QCoreApplication::translate("Trainyard::TopologyView", "on %1").arg(m_data.node);
        if (!m_data.machineType.isEmpty())
            details << m_data.machineType;
        details << (m_data.gpus.isEmpty()
                ? QCoreApplication::translate("Trainyard::TopologyView", "no GPU")
                : QCoreApplication::translate("Trainyard::TopologyView", "GPU %1").arg(m_data.gpus));
        if (m_data.restarts > 0)
            details << QCoreApplication::translate("Trainyard::TopologyView", "%n restart(s)", nullptr, m_data.restarts);
        QStringList live;
        if (m_data.runningSince.isValid())
            live << QCoreApplication::translate("Trainyard::TopologyView", "up %1")
                        .arg(formatUptime(m_data.runningSince.secsTo(QDateTime::currentDateTimeUtc())));
        if (m_data.cpuPercent >= 0)
            live << QCoreApplication::translate("Trainyard::TopologyView", "CPU %1 %")
                        .arg(QLocale().toString(m_data.cpuPercent, 'f', 0));
        if (m_data.rssBytes >= 0)
            live << QLocale().formattedDataSize(m_data.rssBytes, 0, QLocale::DataSizeTraditionalFormat);
        QStringList lines { details.join(QStringLiteral(" · ")) };
        if (!live.isEmpty())
            lines << live.join(QStringLiteral(" · "));
        return lines;
    }

private:
    NodeData m_data;
};

namespace {
NodeData nodeDataAt(const QAbstractItemModel* model, int row)
{
    const QModelIndex index = model->index(row, 0);
    NodeData d;
    d.taskName = index.data(ReplicaModel::TaskNameRole).toString();
    d.role = index.data(ReplicaModel::RoleRole).toString();
    d.state = index.data(ReplicaModel::StateRole).value<ReplicaState>();
    QStringList gpus;
    const QVariantList list = index.data(ReplicaModel::GpusRole).toList();
    for (const QVariant& g : list)
        gpus << g.toString();
    d.gpus = gpus.join(QLatin1Char(','));
    d.restarts = index.data(ReplicaModel::RestartsRole).toInt();
    d.exitText = index.data(ReplicaModel::ExitStatusTextRole).toString();
    d.machineType = index.data(ReplicaModel::MachineTypeRole).toString();
    d.node = index.data(ReplicaModel::NodeRole).toString();
    d.runningSince = index.data(ReplicaModel::RunningSinceRole).toDateTime();
    const QVariant cpu = index.data(ReplicaModel::CpuPercentRole);
    d.cpuPercent = cpu.isValid() ? cpu.toDouble() : -1;
    const QVariant rss = index.data(ReplicaModel::RssBytesRole);
    d.rssBytes = rss.isValid() ? rss.toLongLong() : -1;
    return d;
}

QString toolTipAt(const QAbstractItemModel* model, int row)
{
    const QModelIndex index = model->index(row, 0);
    const qint64 pid = index.data(ReplicaModel::PidRole).toLongLong();
    const QString address = index.data(ReplicaModel::AddressRole).toString();
    const QString machine = index.data(ReplicaModel::MachineTypeRole).toString();
    const QString node = index.data(ReplicaModel::NodeRole).toString();
    QString text
        = QCoreApplication::translate("Trainyard::TopologyView", "%1\nPID: %2\nAddress: %3\nMachine type: %4")
              .arg(index.data(ReplicaModel::TaskNameRole).toString(),
                  pid > 0 ? QString::number(pid) : QCoreApplication::translate("Trainyard::TopologyView", "none"),
                  address.isEmpty() ? QCoreApplication::translate("Trainyard::TopologyView", "none") : address,
                  machine.isEmpty() ? QStringLiteral("-") : machine);
    if (!node.isEmpty())
        text += QLatin1Char('\n') + QCoreApplication::translate("Trainyard::TopologyView", "Node: %1").arg(node);
    return text;
}

// Places `count` nodes on rings from `radius` outwards; returns the radius after the last ring.
qreal placeOnRings(QList<QPointF>* out, int count, qreal radius, qreal angleOffset)
{
    int placed = 0;
    while (placed < count) {
        const int capacity = std::max(1, int(std::floor(M_PI / std::asin(std::min(1.0, MinSpacing / 2 / radius)))));
        const int onRing = std::min(capacity, count - placed);
        for (int i = 0; i < onRing; ++i) {
            const qreal angle = angleOffset - M_PI / 2 + 2 * M_PI * i / onRing;
            out->append(QPointF(radius * std::cos(angle), radius * std::sin(angle)));
        }
        placed += onRing;
        radius += MinSpacing;
        angleOffset += M_PI / std::max(onRing, 1); // stagger rings so edges do not run through nodes
    }
    return radius;
}
} // namespace

TopologyView::TopologyView(QWidget* parent)
    : QGraphicsView(parent)
    , m_scene(new QGraphicsScene(this))
{
    m_uptime.setInterval(1000);
    connect(&m_uptime, &QTimer::timeout, this, &TopologyView::tickUptime);
    m_uptime.start();
    setScene(m_scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
    setBackgroundBrush(QColor(0xf6, 0xf5, 0xf4));
    setFocusPolicy(Qt::StrongFocus);

    m_edgeItem = m_scene->addPath(QPainterPath(), QPen(QColor(0x9a, 0x99, 0x96), 1.2));
    m_edgeItem->setZValue(-1);

    auto* in = new QShortcut(QKeySequence::ZoomIn, this, this, &TopologyView::zoomIn, Qt::WidgetWithChildrenShortcut);
    auto* in2 = new QShortcut(
        QKeySequence(Qt::CTRL | Qt::Key_Equal), this, this, &TopologyView::zoomIn, Qt::WidgetWithChildrenShortcut);
    auto* out
        = new QShortcut(QKeySequence::ZoomOut, this, this, &TopologyView::zoomOut, Qt::WidgetWithChildrenShortcut);
    auto* fit = new QShortcut(
        QKeySequence(Qt::CTRL | Qt::Key_0), this, this, &TopologyView::fitAll, Qt::WidgetWithChildrenShortcut);
    Q_UNUSED(in);
    Q_UNUSED(in2);
    Q_UNUSED(out);
    Q_UNUSED(fit);
}

TopologyView::~TopologyView() = default;

void TopologyView::tickUptime()
{
    // Running replicas show their uptime: repaint them once a second (nothing when none runs).
    for (TopologyNode* node : std::as_const(m_nodes)) {
        if (node->nodeData().runningSince.isValid())
            node->update();
    }
}

void TopologyView::setModel(QAbstractItemModel* model)
{
    if (m_model)
        m_model->disconnect(this);
    m_model = model;
    if (model) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &TopologyView::relayout);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &TopologyView::relayout);
        connect(model, &QAbstractItemModel::modelReset, this, &TopologyView::relayout);
        connect(model, &QAbstractItemModel::layoutChanged, this, &TopologyView::relayout);
        connect(model, &QAbstractItemModel::dataChanged, this, &TopologyView::onDataChanged);
    }
    relayout();
}

void TopologyView::onDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight)
{
    if (!m_model)
        return;
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        const NodeData data = nodeDataAt(m_model, row);
        TopologyNode* node = m_nodes.value(data.taskName);
        if (!node || node->nodeData().role != data.role) {
            relayout(); // a new task name or a changed role changes the picture
            return;
        }
        node->setData(data);
        node->setToolTip(toolTipAt(m_model, row));
    }
}

void TopologyView::relayout()
{
    const QString selected = selectedTask();
    qDeleteAll(m_nodes);
    m_nodes.clear();
    m_edges.clear();
    delete m_evaluatorLabel;
    m_evaluatorLabel = nullptr;
    QPainterPath edgePath;
    if (!m_model) {
        m_edgeItem->setPath(edgePath);
        return;
    }

    QList<int> masters, workers, servers, evaluators;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QString role = m_model->index(row, 0).data(ReplicaModel::RoleRole).toString();
        if (role == QLatin1String("master") || role == QLatin1String("chief"))
            masters << row;
        else if (role == QLatin1String("ps"))
            servers << row;
        else if (role == QLatin1String("evaluator"))
            evaluators << row;
        else
            workers << row;
    }

    auto addNode = [this](int row, const QPointF& pos) {
        auto* node = new TopologyNode(nodeDataAt(m_model, row));
        node->setToolTip(toolTipAt(m_model, row));
        node->setPos(pos);
        m_scene->addItem(node);
        m_nodes.insert(node->nodeData().taskName, node);
        return node;
    };

    auto taskOf = [this](int row) { return m_model->index(row, 0).data(ReplicaModel::TaskNameRole).toString(); };
    auto addEdge = [&](int a, int b) {
        const QString ta = taskOf(a);
        const QString tb = taskOf(b);
        if (m_nodes.contains(ta) && m_nodes.contains(tb))
            m_edges.append(ta < tb ? qMakePair(ta, tb) : qMakePair(tb, ta));
    };
    qreal clusterBottom = NodeHeight / 2;
    qreal clusterCentreX = 0;

    if (servers.isEmpty()) {
        // All-reduce (or a single replica): a star. The master in the centre (several would be an odd job,
        // so they sit side by side), workers on rings around it, an edge from the master to each.
        for (int i = 0; i < masters.size(); ++i)
            addNode(masters.at(i), QPointF((i - (masters.size() - 1) / 2.0) * MinSpacing, 0));
        QList<QPointF> workerPos;
        const qreal outer = placeOnRings(&workerPos, int(workers.size()), FirstRing, M_PI / 8);
        for (int i = 0; i < workers.size(); ++i)
            addNode(workers.at(i), workerPos.at(i));
        for (int m : std::as_const(masters)) {
            for (int w : std::as_const(workers)) {
                addEdge(m, w);
                edgePath.moveTo(m_nodes.value(taskOf(m))->pos());
                edgePath.lineTo(m_nodes.value(taskOf(w))->pos());
            }
        }
        if (!workers.isEmpty())
            clusterBottom = outer - MinSpacing + NodeHeight / 2;
    } else {
        // Parameter servers: every worker (and the master) talks to every server, a complete bipartite
        // graph whose straight edges would cross the whole picture. So the servers get a tier of their own
        // above a bus line, the master and the workers a tier below it, and every node hangs on the bus by
        // an orthogonal stub that runs down the gaps between nodes, never through one (the layered "bus"
        // drawing of network diagrams). The logical edges (edges()) stay server ↔ master/worker pairs.
        const int clusterCount = int(masters.size() + workers.size());
        const qsizetype widest = std::max<qsizetype>(clusterCount, servers.size());
        const int perRow = std::clamp(int(std::ceil(std::sqrt(double(widest) * 4))), 5, 12);
        const qreal columnGap = MinSpacing - NodeWidth; // free space between two nodes of a row
        const qreal rowPitch = NodeHeight + 56;
        const qreal busGap = 70; // from a tier's edge to the bus
        // A tier that fits in one row is centred on x = 0. A wider one uses a grid of perRow columns centred
        // the same way, its last row starting at the left column, so that a stub from a far row always
        // finds the gap beside its column free.
        auto tierX = [&](int i, qsizetype count) {
            const qsizetype inRow = std::min<qsizetype>(perRow, count);
            return (i % perRow - (inRow - 1) / 2.0) * MinSpacing;
        };

        // Server tier: row 0 next to the bus, further rows upwards.
        const qreal busY = 0; // shifted below so the master ends up at (0, 0)
        QList<QPointF> serverPos;
        for (int i = 0; i < servers.size(); ++i) {
            const int row = i / perRow;
            serverPos << QPointF(tierX(i, servers.size()), busY - busGap - NodeHeight / 2 - row * rowPitch);
        }
        // Cluster tier: row 0 next to the bus, further rows downwards.
        // The master sits in the middle of the row next to the bus, workers on both sides of it and in the
        // rows below: the master at the centre, servers and workers around it.
        const qsizetype firstRow = std::min<qsizetype>(perRow, clusterCount);
        const qsizetype masterSlot = std::clamp<qsizetype>((firstRow - masters.size()) / 2, 0, workers.size());
        QList<int> cluster = workers.mid(0, masterSlot);
        cluster += masters;
        cluster += workers.mid(masterSlot);
        QList<QPointF> clusterPos;
        for (int i = 0; i < cluster.size(); ++i) {
            const int row = i / perRow;
            clusterPos << QPointF(tierX(i, cluster.size()), busY + busGap + NodeHeight / 2 + row * rowPitch);
        }
        const QPointF shift = masters.isEmpty() ? QPointF(0, -clusterPos.value(0).y()) : -clusterPos.at(masterSlot);
        for (int i = 0; i < servers.size(); ++i)
            addNode(servers.at(i), serverPos.at(i) + shift);
        for (int i = 0; i < cluster.size(); ++i)
            addNode(cluster.at(i), clusterPos.at(i) + shift);
        clusterBottom = clusterPos.value(cluster.size() - 1, QPointF()).y() + shift.y() + NodeHeight / 2;
        clusterCentreX = shift.x();

        // Stubs: straight to the bus from the row next to it; from rows further away, to the middle of the
        // gap between rows, sideways to the gap between columns, then along that gap to the bus.
        const qreal bus = busY + shift.y();
        qreal busLeft = 0;
        qreal busRight = 0;
        bool first = true;
        auto stub = [&](const QPointF& centre, int row, int direction) { // direction: -1 above the bus, +1 below
            const qreal edgeY = centre.y() - direction * NodeHeight / 2; // the node's side that faces the bus
            qreal x = centre.x();
            edgePath.moveTo(x, edgeY);
            if (row > 0) {
                const qreal midY = edgeY - direction * (rowPitch - NodeHeight) / 2;
                edgePath.lineTo(x, midY);
                x += NodeWidth / 2 + columnGap / 2;
                edgePath.lineTo(x, midY);
            }
            edgePath.lineTo(x, bus);
            busLeft = first ? x : std::min(busLeft, x);
            busRight = first ? x : std::max(busRight, x);
            first = false;
        };
        for (int i = 0; i < servers.size(); ++i)
            stub(serverPos.at(i) + shift, i / perRow, -1);
        for (int i = 0; i < cluster.size(); ++i)
            stub(clusterPos.at(i) + shift, i / perRow, +1);
        edgePath.moveTo(busLeft, bus);
        edgePath.lineTo(busRight, bus);

        for (int s : std::as_const(servers)) {
            for (int c : std::as_const(cluster))
                addEdge(c, s);
        }
    }
    m_edgeItem->setPath(edgePath);

    // Evaluators: a row below the cluster, not connected (they read checkpoints, not the cluster).
    if (!evaluators.isEmpty()) {
        const qreal y = clusterBottom + NodeHeight / 2 + 120;
        m_evaluatorLabel = m_scene->addSimpleText(tr("Evaluators (not part of the cluster)"));
        m_evaluatorLabel->setBrush(QColor(0x5e, 0x5c, 0x64));
        const int perRow = std::max(4, int(std::ceil(std::sqrt(double(evaluators.size()) * 2))));
        const qreal rowWidth = (std::min<int>(perRow, int(evaluators.size())) - 1) * MinSpacing;
        const qreal left = clusterCentreX - rowWidth / 2;
        m_evaluatorLabel->setPos(left - NodeWidth / 2, y - NodeHeight / 2 - 28);
        for (int i = 0; i < evaluators.size(); ++i) {
            const int col = i % perRow;
            const int line = i / perRow;
            addNode(evaluators.at(i), QPointF(left + col * MinSpacing, y + line * (NodeHeight + 30)));
        }
    }

    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-40, -40, 40, 40));
    if (!selected.isEmpty())
        if (TopologyNode* node = m_nodes.value(selected))
            node->setSelected(true);
    if (!m_userZoomed)
        fitAll();
}

QStringList TopologyView::nodeDetails(const QString& taskName) const
{
    const TopologyNode* node = m_nodes.value(taskName);
    return node ? node->detailLines() : QStringList();
}

QStringList TopologyView::taskNames() const
{
    QStringList names = m_nodes.keys();
    names.sort();
    return names;
}

QPointF TopologyView::nodePosition(const QString& taskName) const
{
    const TopologyNode* node = m_nodes.value(taskName);
    return node ? node->pos() : QPointF();
}

QList<QPair<QString, QString>> TopologyView::edges() const
{
    return m_edges;
}

QList<QLineF> TopologyView::drawnLines() const
{
    QList<QLineF> lines;
    const QPainterPath path = m_edgeItem->path();
    for (int i = 1; i < path.elementCount(); ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        if (e.isLineTo())
            lines.append(QLineF(path.elementAt(i - 1), e));
    }
    return lines;
}

ReplicaState TopologyView::nodeState(const QString& taskName) const
{
    const TopologyNode* node = m_nodes.value(taskName);
    return node ? node->nodeData().state : ReplicaState::Unspecified;
}

QString TopologyView::selectedTask() const
{
    for (auto it = m_nodes.cbegin(); it != m_nodes.cend(); ++it) {
        if (it.value()->isSelected())
            return it.key();
    }
    return {};
}

void TopologyView::scaleBy(double factor)
{
    const double current = transform().m11();
    const double target = std::clamp(current * factor, 0.05, 4.0);
    scale(target / current, target / current);
    m_userZoomed = true;
}

void TopologyView::zoomIn()
{
    scaleBy(1.25);
}

void TopologyView::zoomOut()
{
    scaleBy(1 / 1.25);
}

void TopologyView::fitAll()
{
    if (m_nodes.isEmpty())
        return;
    fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
    // Never blow a small cluster up beyond its natural size, nor shrink its text below legibility (a big
    // cluster scrolls instead).
    if (transform().m11() > 1.0)
        setTransform(QTransform());
    else if (transform().m11() < MinFitScale)
        setTransform(QTransform::fromScale(MinFitScale, MinFitScale));
    centerOn(m_scene->sceneRect().center());
    m_userZoomed = false;
}

void TopologyView::selectTask(const QString& taskName)
{
    TopologyNode* node = m_nodes.value(taskName);
    if (!node)
        return;
    m_scene->clearSelection();
    node->setSelected(true);
    node->setFocus();
    centerOn(node);
}

bool TopologyView::focusFailed()
{
    if (!m_model)
        return false;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex index = m_model->index(row, 0);
        if (index.data(ReplicaModel::StateRole).value<ReplicaState>() == ReplicaState::Failed) {
            selectTask(index.data(ReplicaModel::TaskNameRole).toString());
            return true;
        }
    }
    return false;
}

void TopologyView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        scaleBy(std::pow(1.15, steps));
    event->accept();
}

void TopologyView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        const QString task = selectedTask();
        if (!task.isEmpty()) {
            emit taskActivated(task);
            return;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

void TopologyView::mouseReleaseEvent(QMouseEvent* event)
{
    QGraphicsView::mouseReleaseEvent(event);
    // A drag pans the view; only a click (little movement) opens the node's logs.
    if (event->button() != Qt::LeftButton || (event->pos() - m_pressPos).manhattanLength() > 6)
        return;
    for (QGraphicsItem* item : items(event->pos())) {
        if (auto* node = dynamic_cast<TopologyNode*>(item)) {
            emit taskActivated(node->nodeData().taskName);
            return;
        }
    }
}

void TopologyView::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->pos();
    QGraphicsView::mousePressEvent(event);
}

void TopologyView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (!m_userZoomed)
        fitAll();
}

} // namespace Trainyard
