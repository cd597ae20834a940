// SPDX-License-Identifier: GPL-2.0-or-later
#include "translations.h"

#include <QCoreApplication>
#include <QFile>
#include <QLibraryInfo>
#include <QPointer>
#include <QRegularExpression>
#include <QSettings>
#include <QTranslator>

namespace Trainyard {

namespace {
// Translators installed by the last install(), kept so a second call can replace them.
QList<QPointer<QTranslator>>& installed()
{
    static QList<QPointer<QTranslator>> list;
    return list;
}
} // namespace

QString Translations::settingsKey()
{
    return QStringLiteral("ui/language");
}

QStringList Translations::availableLanguages()
{
    return { QStringLiteral("en"), QStringLiteral("es"), QStringLiteral("de") };
}

QString Translations::nativeName(const QString& code)
{
    // QLocale::nativeLanguageName() gives "español"/"Deutsch"; capitalise for a combo box entry.
    QString name = QLocale(code).nativeLanguageName();
    if (code == QLatin1String("en"))
        name = QStringLiteral("English");
    if (!name.isEmpty())
        name[0] = name.at(0).toUpper();
    return name;
}

QString Translations::languageOverride()
{
    const QString value = QSettings().value(settingsKey()).toString();
    return availableLanguages().contains(value) ? value : QString();
}

void Translations::setLanguageOverride(const QString& code)
{
    QSettings settings;
    if (code.isEmpty())
        settings.remove(settingsKey());
    else
        settings.setValue(settingsKey(), code);
}

QString Translations::pickLanguage(const QStringList& preferences)
{
    const QStringList shipped = availableLanguages();
    for (const QString& pref : preferences) {
        const QString lower = pref.toLower();
        if (shipped.contains(lower))
            return lower;
        const qsizetype cut = lower.indexOf(QRegularExpression(QStringLiteral("[-_]")));
        if (cut > 0 && shipped.contains(lower.left(cut)))
            return lower.left(cut);
    }
    return QStringLiteral("en");
}

QString Translations::effectiveLanguage()
{
    const QString override = languageOverride();
    if (!override.isEmpty())
        return override;
    return pickLanguage(QLocale::system().uiLanguages());
}

QString Translations::catalogPath(const QString& code)
{
    return QStringLiteral(":/i18n/trainyard_") + code + QStringLiteral(".qm");
}

QString Translations::install(QCoreApplication* app, const QString& code)
{
    for (const QPointer<QTranslator>& t : std::as_const(installed())) {
        if (t) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
    }
    installed().clear();

    const QString language = code.isEmpty() ? effectiveLanguage() : code;
    if (language == QLatin1String("en")) {
        // The source strings are English; its catalogue holds only the plural forms ("1 checkpoint").
        auto* plurals = new QTranslator(app);
        if (plurals->load(catalogPath(language))) {
            QCoreApplication::installTranslator(plurals);
            installed().append(plurals);
        } else {
            delete plurals;
        }
        return language;
    }

    auto* qt = new QTranslator(app);
    if (qt->load(QStringLiteral("qtbase_") + language, QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        installed().append(qt);
    } else {
        delete qt;
    }
    auto* own = new QTranslator(app);
    if (own->load(catalogPath(language))) {
        QCoreApplication::installTranslator(own);
        installed().append(own);
    } else {
        delete own;
    }
    return language;
}

} // namespace Trainyard
