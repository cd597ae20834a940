// SPDX-License-Identifier: GPL-2.0-or-later
// trainyard: the desktop console. Wires the executor connection (find or start the bundled executor) to
// the main window; everything else lives in ui/ and models/.
//
// Test hook: TRAINYARD_CONSOLE_EXIT_AFTER_START=1 quits once the window was shown and the event loop
// turned once (the smoke test starts the real program this way).

#include "executorconnection.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTimer>
#include <QTranslator>

namespace {
// Translations: the "ui/language" setting (e.g. "es") overrides the system locale. The .qm files are
// looked up in the resources (":/i18n") and next to the installed data.
void installTranslators(QApplication& app)
{
    const QString override = QSettings().value(QStringLiteral("ui/language")).toString();
    const QLocale locale = override.isEmpty() ? QLocale::system() : QLocale(override);
    auto* qt = new QTranslator(&app);
    if (qt->load(
            locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
    auto* own = new QTranslator(&app);
    const QStringList dirs { QStringLiteral(":/i18n"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/trainyard/translations"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../../translations") };
    for (const QString& dir : dirs) {
        if (own->load(locale, QStringLiteral("trainyard"), QStringLiteral("_"), dir)) {
            QApplication::installTranslator(own);
            break;
        }
    }
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("trainyard"));
    QApplication::setOrganizationName(QStringLiteral("Trainyard"));
    QApplication::setDesktopFileName(QStringLiteral("trainyard"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/trainyard.svg")));
    installTranslators(app);

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
    connection.start();

    if (qEnvironmentVariableIntValue("TRAINYARD_CONSOLE_EXIT_AFTER_START") == 1)
        QTimer::singleShot(0, &app, &QCoreApplication::quit);
    return app.exec();
}
