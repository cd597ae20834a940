// SPDX-License-Identifier: GPL-2.0-or-later
// trainyard: the desktop console. Wires the executor connection (find or start the bundled executor) to
// the main window; everything else lives in ui/ and models/.
//
// Test hooks: TRAINYARD_CONSOLE_EXIT_AFTER_START=1 quits once the window was shown and the event loop
// turned once (the smoke test starts the real program this way). TRAINYARD_CONSOLE_SCREENSHOTS=DIR with
// TRAINYARD_CONSOLE_SCREENSHOT_JOB=ID selects that job once listed and saves main.png, topology.png and
// logs.png (QWidget::grab) into DIR, then quits: screenshots for the documentation, taken under Xvfb.

#include "executorconnection.h"
#include "jobview.h"
#include "mainwindow.h"
#include "tokenstore.h"
#include "translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QTimer>

#include <memory>

void takeScreenshots(Trainyard::MainWindow* window, const QString& dir, const QString& jobId)
{
    auto shoot = [window, dir](const QString& name) { window->grab().save(QDir(dir).filePath(name)); };
    auto selected = std::make_shared<bool>(false);
    QObject::connect(window, &Trainyard::MainWindow::jobsRefreshed, window, [=] {
        if (*selected || !window->selectJob(jobId))
            return;
        *selected = true;
        // Give the streams a few seconds to fill the views, then shoot each tab.
        QTimer::singleShot(4000, window, [=] {
            shoot(QStringLiteral("main.png"));
            window->jobView()->showTab(Trainyard::JobView::TopologyTab);
            QTimer::singleShot(1000, window, [=] {
                shoot(QStringLiteral("topology.png"));
                window->jobView()->showTab(Trainyard::JobView::LogsTab);
                QTimer::singleShot(1000, window, [=] {
                    shoot(QStringLiteral("logs.png"));
                    QCoreApplication::quit();
                });
            });
        });
    });
}

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("trainyard"));
    QApplication::setOrganizationName(QStringLiteral("Trainyard"));
    QApplication::setDesktopFileName(QStringLiteral("trainyard"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/trainyard.svg")));
    // The "ui/language" setting, else the system's UI languages; catalogues from :/i18n/, Qt's own from
    // QLibraryInfo::TranslationsPath (see translations/translations.h).
    Trainyard::Translations::install(&app);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Trainyard console: submit and watch training jobs."));
    parser.addHelpOption();
    const QCommandLineOption executorOption(QStringLiteral("executor"),
        QApplication::translate("main", "Talk to the executor at URL (never auto-started)."), QStringLiteral("URL"));
    const QCommandLineOption noStartOption(QStringLiteral("no-auto-start"),
        QApplication::translate("main", "Do not start the bundled executor when none answers."));
    parser.addOption(executorOption);
    parser.addOption(noStartOption);
    parser.process(app);

    Trainyard::ExecutorConnection connection;
    connection.setExplicitUrl(parser.value(executorOption));
    connection.setAutoStart(!parser.isSet(noStartOption));
    Trainyard::MainWindow window(&connection);
    window.show();
    if (parser.isSet(executorOption)) {
        connection.start();
    } else {
        // The team executor of the last File > Connect to Executor…, else this computer's.
        auto* keyring = new Trainyard::KeychainTokenStore(&connection);
        connection.startWithSavedExecutor(keyring);
    }

    const QString screenshots = qEnvironmentVariable("TRAINYARD_CONSOLE_SCREENSHOTS");
    if (!screenshots.isEmpty())
        takeScreenshots(&window, screenshots, qEnvironmentVariable("TRAINYARD_CONSOLE_SCREENSHOT_JOB"));
    if (qEnvironmentVariableIntValue("TRAINYARD_CONSOLE_EXIT_AFTER_START") == 1)
        QTimer::singleShot(0, &app, &QCoreApplication::quit);
    return app.exec();
}
