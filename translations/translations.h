// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Which language the console speaks, and installing the translators for it.
//
// The console's own catalogues (trainyard_<lang>.qm) are compiled from translations/*.ts at build time
// and embedded under ":/i18n/", so an uninstalled build finds them. Qt's own strings (standard dialog
// buttons, QLineEdit's context menu, …) come from qtbase_<lang>.qm in QLibraryInfo's TranslationsPath,
// when the system has them (Debian: qt6-translations-l10n).

#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace Trainyard {

/// Language selection and translator installation for the console.
class Translations {
public:
    /// QSettings key of the language override: "" = follow the system, else a code from
    /// availableLanguages() ("en", "es", "de").
    static QString settingsKey();

    /// Language codes the console ships, English (the source language) first.
    static QStringList availableLanguages();

    /// The language name in that language ("Español"), for the settings combo.
    static QString nativeName(const QString& code);

    /// The stored override ("" when none, or when the stored value is not a shipped language).
    static QString languageOverride();
    static void setLanguageOverride(const QString& code);

    /// The language the console will use: the override if set, else the first of the system's UI
    /// languages (QLocale::system().uiLanguages(), in the user's order of preference) that the console
    /// ships; "en" when none matches.
    static QString effectiveLanguage();

    /// Picks the shipped language for a preference list such as uiLanguages() ("es-ES", "de", "pt-BR"):
    /// exact code first, then the part before '-' or '_'. Returns "en" when none matches.
    static QString pickLanguage(const QStringList& preferences);

    /// Resource path of the console's compiled catalogue for a code (":/i18n/trainyard_es.qm").
    static QString catalogPath(const QString& code);

    /// Installs translators for effectiveLanguage() (or for `code` when not empty) into app: the console's
    /// catalogue and, when present, Qt's qtbase catalogue. Translators from an earlier call are removed
    /// first, so calling it again switches the language at run time (widgets then get
    /// QEvent::LanguageChange). Returns the language installed.
    static QString install(QCoreApplication* app, const QString& code = QString());
};

} // namespace Trainyard
