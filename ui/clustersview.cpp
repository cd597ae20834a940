// SPDX-License-Identifier: GPL-2.0-or-later
#include "clustersview.h"

#include "apiclient.h"
#include "clustersmodel.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStandardPaths>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace Trainyard {

ClustersView::ClustersView(QWidget* parent)
    : QWidget(parent)
    , m_model(new ClustersModel(this))
    , m_tree(new QTreeView(this))
    , m_status(new QLabel(this))
    , m_refresh(new QPushButton(tr("&Refresh"), this))
    , m_empty(new QLabel(this))
{
    setObjectName(QStringLiteral("clustersView"));
    m_tree->setObjectName(QStringLiteral("clustersTree"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->header()->setStretchLastSection(true);
    m_status->setObjectName(QStringLiteral("clustersStatus"));
    m_status->setWordWrap(true);
    m_refresh->setObjectName(QStringLiteral("clustersRefresh"));
    auto* intro = new QLabel(tr("Where jobs run: this host, and the Slurm clusters of the executor's clusters.yaml "
                                "(a job's region picks one)."),
        this);
    intro->setWordWrap(true);
    m_empty->setObjectName(QStringLiteral("clustersEmptyState"));
    m_empty->setWordWrap(true);
    m_empty->setTextFormat(Qt::RichText);
    m_empty->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_empty->setOpenExternalLinks(true);
    m_empty->setFrameShape(QFrame::StyledPanel);
    m_empty->setMargin(8);
    m_empty->hide();
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_status, 1);
    bar->addWidget(m_refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(intro);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_empty);
    layout->addLayout(bar);

    m_poll.setInterval(10000);
    connect(&m_poll, &QTimer::timeout, this, &ClustersView::refresh);
    connect(m_refresh, &QPushButton::clicked, this, &ClustersView::refresh);
    // A node's state changes width as jobs come and go ("IDLE" → "ALLOCATED"): the columns follow every read.
    auto fit = [this] {
        for (int c = 0; c < ClustersModel::ColumnCount - 1; ++c)
            m_tree->resizeColumnToContents(c);
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, [this, fit] {
        m_tree->expandAll();
        fit();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, fit);
}

void ClustersView::setClient(ApiClient* client)
{
    m_client = client;
    m_pending = false;
    if (!client) {
        m_poll.stop();
        return;
    }
    m_poll.start();
    refresh();
}

void ClustersView::refresh()
{
    if (!m_client || m_pending)
        return;
    m_pending = true; // a slow slurmrestd must not pile up reads
    m_client->regions(
        QString(), this, [this, client = m_client.data()](const QList<RegionInfo>& regions, const ApiError& error) {
            if (client != m_client)
                return;
            m_pending = false;
            if (!error.isNull()) {
                m_status->setText(tr("Could not read the regions: %1").arg(error.message));
                return;
            }
            m_model->setRegions(regions);
            updateEmptyState();
            m_status->setText(tr("Updated %1").arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
            emit regionsChanged(regions);
        });
}

void ClustersView::setClustersFile(const QString& path)
{
    m_clustersFile = path;
    updateEmptyState();
}

void ClustersView::updateEmptyState()
{
    bool anyCluster = false;
    for (const RegionInfo& r : m_model->regions())
        anyCluster = anyCluster || r.isCluster();
    m_empty->setVisible(!anyCluster && !m_model->regions().isEmpty());
    if (anyCluster)
        return;
    const QString where = m_clustersFile.isEmpty()
        ? tr("<code>$XDG_CONFIG_HOME/trainyard/clusters.yaml</code> on the executor's host")
        : QStringLiteral("<code>%1</code>").arg(m_clustersFile.toHtmlEscaped());
    // The README's section: the installed copy (the package puts it in share/doc/trainyard), else the source tree's
    // above a build tree's program (build/<preset>/app/console/trainyard).
    QString readme;
    const QStringList candidates {
        QStandardPaths::locate(QStandardPaths::GenericDataLocation, QStringLiteral("doc/trainyard/README.md")),
        // A build tree, wherever it sits (build/dev, or the Debian 13 chroot's /work/build beside /work/src).
        QStringLiteral(TRAINYARD_SOURCE_README),
    };
    for (const QString& candidate : candidates) {
        if (candidate.isEmpty())
            continue;
        if (QFileInfo::exists(candidate)) {
            readme = QUrl::fromLocalFile(QFileInfo(candidate).canonicalFilePath()).toString();
            break;
        }
    }
    QString text = tr("<b>No Slurm cluster is set up: every job runs on this host.</b><br>To run jobs on a cluster, "
                      "describe it in %1, for example:")
                       .arg(where)
        + QStringLiteral("<pre>clusters:\n- name: mycluster\n  slurmrestd: http://head-node:6820\n  user: alice\n"
                         "  tokenCommand: scontrol token username=alice lifespan=3600\n  partition: gpu\n"
                         "  sharedDir: /shared/trainyard   # the same path on this host and every node</pre>")
        + tr("then restart the executor, and give the cluster's name as a job's region.");
    // The README's section is named whether or not its file is on this machine, so the way on never depends on
    // where the console was built or installed.
    const QString section = tr("Every key and what the nodes need: README, Slurm clusters");
    text += QLatin1Char(' ')
        + (readme.isEmpty() ? section.toHtmlEscaped() : QStringLiteral("<a href=\"%1\">%2</a>").arg(readme, section));
    m_empty->setText(text);
}

QString ClustersView::summary(const QList<RegionInfo>& regions)
{
    QStringList parts;
    for (const RegionInfo& r : regions) {
        if (!r.isCluster())
            continue;
        if (!r.isUp()) {
            parts << tr("%1: %2").arg(r.name, r.state.toLower());
            continue;
        }
        int usable = 0, idle = 0, gpus = 0, gpusInUse = 0;
        for (const RegionNodeInfo& n : r.partitionNodes()) {
            usable += n.usable() ? 1 : 0;
            idle += n.idle() ? 1 : 0;
            gpus += n.gpus;
            gpusInUse += n.gpusInUse;
        }
        QString text = tr("%1: %2 of %n node(s) idle", nullptr, usable).arg(r.name).arg(idle);
        if (gpus > 0)
            text += tr(", %1 / %2 GPUs").arg(gpusInUse).arg(gpus);
        parts << text;
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace Trainyard
