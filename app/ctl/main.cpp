// SPDX-License-Identifier: GPL-2.0-or-later
// trainyardctl: gcloud ai-platform's verbs over the executor's API (see dispatcher.h).
#include "dispatcher.h"

#include <QCoreApplication>
#include <QTextStream>
#include <QTranslator>

#include <cstdio>

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("trainyardctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TRAINYARD_VERSION));
#ifdef TRAINYARD_HAVE_EN_PLURALS
    // English plural forms of the shared texts ("%n replica(s)" → "1 replica"), as the console shows them.
    QTranslator plurals;
    if (plurals.load(QStringLiteral(":/i18n/trainyard_en.qm")))
        QCoreApplication::installTranslator(&plurals);
#endif
    QTextStream out(stdout);
    QTextStream err(stderr);
    return Trainyard::Dispatcher::run(QCoreApplication::arguments().mid(1), out, err);
}
