// SPDX-License-Identifier: GPL-2.0-or-later
// MainWindow's context menu and its actions on the selected job, its help windows (shortcuts, filter syntax) and the
// audit log window; the window itself, its actions and the job list are mainwindow.cpp's.
#include "mainwindow.h"
#include "screenfit.h"

#include "apiclient.h"
#include "clustersview.h"
#include "connectdialog.h"
#include "executorconnection.h"
#include "jobfilterproxymodel.h"
#include "joblistmodel.h"
#include "jobview.h"
#include "modelsview.h"
#if TRAINYARD_HAVE_QTCHARTS
#include "metricspanel.h"
#endif
#include "auditview.h"
#include "settingsdialog.h"
#include "stateicons.h"
#include "submitwizard.h"
#include "tokenstore.h"
#include "wizardpages.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMetaMethod>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>
#include <QWhatsThis>

#include <algorithm>
#include <memory>

namespace Trainyard {

bool MainWindow::submitSimilarWanted()
{
    // Offered only once something (the submit wizard) handles it: no action that does nothing.
    return isSignalConnected(QMetaMethod::fromSignal(&MainWindow::submitSimilarRequested));
}

void MainWindow::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    if (!index.isValid())
        return;
    const Job* job = currentJob();
    if (!job)
        return;
    QMenu menu(this);
    menu.addAction(tr("Describe"), this, &MainWindow::describeSelected);
    QAction* cancel = menu.addAction(tr("&Cancel Job…"), this, &MainWindow::cancelSelected);
    cancel->setEnabled(!isFinal(job->state) && job->state != JobState::Cancelling);
    if (submitSimilarWanted()) {
        const Job copy = *job;
        menu.addAction(tr("Submit similar…"), this, [this, copy] { emit submitSimilarRequested(copy); });
    }
    menu.addSeparator();
    menu.addAction(tr("Copy job ID"), this, &MainWindow::copySelectedId);
    QAction* openDir = menu.addAction(tr("Open job directory"), this, &MainWindow::openSelectedDir);
    openDir->setEnabled(!job->trainingInput.jobDir.isEmpty());
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void MainWindow::describeSelected()
{
    onSelectionChanged();
    if (m_jobView) {
        m_jobView->showTab(JobView::OverviewTab);
        m_jobView->setFocus();
    }
}

void MainWindow::cancelSelected()
{
    onSelectionChanged();
    if (m_jobView)
        m_jobView->cancelJob();
}

void MainWindow::copySelectedId()
{
    const QString id = selectedJobId();
    if (id.isEmpty())
        return;
    QApplication::clipboard()->setText(id);
    showMessage(tr("Copied %1").arg(id), 3000);
}

void MainWindow::openSelectedDir()
{
    onSelectionChanged();
    if (m_jobView)
        m_jobView->openJobDir();
}

void MainWindow::showShortcuts()
{
    QStringList rows;
    auto row = [&rows](const QString& keys, const QString& what) {
        rows
            << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    for (QAction* menu : menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction* action : menu->menu()->actions()) {
            if (!action->shortcut().isEmpty())
                row(action->shortcut().toString(QKeySequence::NativeText),
                    menu->text().remove(QLatin1Char('&')) + QStringLiteral(" → ")
                        + action->text().remove(QLatin1Char('&')));
        }
    }
    for (QAction* action : m_stateGroup->actions())
        row(action->shortcut().toString(QKeySequence::NativeText), action->toolTip());
    row(tr("F8 / Shift+F8"), tr("Logs: next / previous error"));
    row(tr("End"), tr("Logs: follow new lines again"));
    row(tr("Ctrl+C"), tr("Logs: copy the selected lines"));
    row(tr("Ctrl++ / Ctrl+- / Ctrl+0"), tr("Topology: zoom in / out / fit"));
    row(tr("Ctrl+wheel, drag"), tr("Metrics: zoom a chart (double-click resets)"));
    row(tr("Drag / click on an axis, Esc"), tr("Trials: filter by an interval of an axis / clear it / clear all"));
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Keyboard Shortcuts"));
    auto* browser = new QTextBrowser(&dialog);
    browser->setHtml(QStringLiteral("<table cellpadding=3>") + rows.join(QString()) + QStringLiteral("</table>"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    resizeWithinScreen(&dialog, QSize(560, 520));
    dialog.exec();
}

void MainWindow::showFilterHelp()
{
    QMessageBox::information(this, tr("Filter Syntax"),
        tr("<p>The job list's filter uses the service's syntax (gcloud ai-platform jobs list --filter):</p>"
           "<ul><li><b>field:value</b> matches a value, <b>value*</b> a prefix: <tt>jobId:fmnist*</tt></li>"
           "<li><b>field=value</b> matches exactly: <tt>labels.owner=alice</tt></li>"
           "<li>fields: <tt>jobId</tt>, <tt>state</tt>, <tt>labels.KEY</tt>, <tt>createTime</tt> "
           "(also with &lt; &gt; &lt;= &gt;=)</li>"
           "<li>terms are joined with <b>AND</b>: <tt>jobId:fmnist* AND state:FAILED</tt></li></ul>"
           "<p>Ctrl+F goes to the filter; Alt+1…6 show all, running, queued, succeeded, failed or cancelled "
           "jobs.</p>"));
}

void MainWindow::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void MainWindow::showAuditLog()
{
    // One window, kept: its filters survive closing it.
    if (!m_auditView) {
        m_auditView = new AuditView(this);
        m_auditView->setWindowFlag(Qt::Window);
        if (m_connection)
            connect(m_connection, &ExecutorConnection::clientChanged, m_auditView, &AuditView::setClient);
    }
    m_auditView->setClient(m_connection ? m_connection->client() : nullptr);
    m_auditView->show();
    m_auditView->raise();
    m_auditView->activateWindow();
}

} // namespace Trainyard
