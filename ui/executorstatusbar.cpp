// SPDX-License-Identifier: GPL-2.0-or-later
#include "executorstatusbar.h"

#include "apitypes.h"
#include "clustersview.h"
#include "regioninfo.h"

#include <QLabel>
#include <QLocale>
#include <QStatusBar>

namespace Trainyard {

ExecutorStatusBar::ExecutorStatusBar(QStatusBar* bar, QObject* parent)
    : QObject(parent)
    , m_url(new QLabel(bar))
    , m_connection(new QLabel(bar))
    , m_host(new QLabel(bar))
    , m_clusters(new QLabel(bar))
{
    // The status bar must not set the window's minimum width (on a 1024-pixel screen it pushed the window
    // past the screen's edge): the executor's address gives way first, then the host figures.
    // (A minimum width below the text's lets the layout shrink them; they keep their natural width otherwise.)
    for (QLabel* label : { m_url, m_host })
        label->setMinimumWidth(40);
    bar->addPermanentWidget(m_url);
    bar->addPermanentWidget(m_connection);
    bar->addPermanentWidget(m_host);
    bar->addPermanentWidget(m_clusters);

    m_clusters->setObjectName(QStringLiteral("clustersLabel"));
    m_clusters->setMinimumWidth(40);
    m_clusters->setTextFormat(Qt::RichText);
    m_clusters->setToolTip(tr("The executor's Slurm clusters: idle nodes and GPUs in use. Click for the "
                              "Clusters view."));
    m_clusters->hide();
    connect(m_clusters, &QLabel::linkActivated, this, &ExecutorStatusBar::clustersActivated);
}

void ExecutorStatusBar::showConnection(ExecutorConnection::State state, const QString& url)
{
    m_url->setText(url.isEmpty() ? tr("Executor: –") : tr("Executor: %1").arg(url));
    switch (state) {
    case ExecutorConnection::State::Connected:
        m_connection->setText(QStringLiteral("<span style=\"color:#26a269\">● </span>") + tr("Connected"));
        break;
    case ExecutorConnection::State::Locating:
        m_connection->setText(QStringLiteral("<span style=\"color:#c67f00\">● </span>") + tr("Connecting…"));
        break;
    case ExecutorConnection::State::Disconnected:
        m_connection->setText(QStringLiteral("<span style=\"color:#c01c28\">● </span>") + tr("Disconnected"));
        break;
    }
}

void ExecutorStatusBar::showHost(const HostStatus& host)
{
    const QLocale locale;
    const Bytes memory = host.memory;
    // A part in use beyond what the host has is coloured, and the tooltip says what that means: the executor
    // starts a job alone on the host whatever it asks for, so "12 / 2 vCPUs" is possible and worth a warning.
    auto part = [](const QString& text, bool over) {
        return over ? QStringLiteral("<span style=\"color:#c64600\"><b>%1</b></span>").arg(text.toHtmlEscaped())
                    : text.toHtmlEscaped();
    };
    const bool cpuOver = host.vcpusInUse > host.cpus;
    const bool memoryOver = host.memoryInUse > memory;
    m_host->setText(
        tr("Host: %1, %2, %3 · %4 running, %5 queued")
            .arg(part(tr("%1 / %2 vCPUs").arg(host.vcpusInUse).arg(host.cpus), cpuOver),
                part(tr("%1 / %2 GB")
                         .arg(locale.toString(host.memoryInUse.gb(), 'f', 1), locale.toString(memory.gb(), 'f', 1)),
                    memoryOver),
                part(tr("%1 / %2 GPUs").arg(host.gpusInUse.size()).arg(host.gpus.size()), false))
            .arg(host.runningJobs)
            .arg(host.queuedJobs)
        + (host.predictionNodes > 0 ? tr(", %n prediction node(s)", nullptr, host.predictionNodes).toHtmlEscaped() : QString()));
    m_host->setProperty("oversubscribed", cpuOver || memoryOver);
    m_host->setToolTip(cpuOver || memoryOver
            ? tr("Running jobs and prediction nodes reserve more than this host has: they share the host's CPUs and "
                 "memory, run slower than their machine types promise, and may be killed if memory runs out.")
            : tr("What running jobs and prediction nodes reserve of this host (machine types' vCPUs and memory, "
                 "GPUs)."));
}

void ExecutorStatusBar::showClusters(const QList<RegionInfo>& regions)
{
    const QString summary = ClustersView::summary(regions);
    m_clusters->setText(QStringLiteral("<a href=\"clusters\">%1</a>").arg(summary.toHtmlEscaped()));
    m_clusters->setVisible(!summary.isEmpty());
}

} // namespace Trainyard
