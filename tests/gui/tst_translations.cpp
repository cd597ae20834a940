// SPDX-License-Identifier: GPL-2.0-or-later
// Translations: the embedded catalogues (:/i18n/trainyard_<lang>.qm) load and translate the main window's
// strings; the .ts files in the source tree are complete (no unfinished entry, placeholders, accelerators
// and plural forms kept); the language choice follows the "ui/language" setting, else the system's UI
// languages.

#include "executorconnection.h"
#include "hostfit.h"
#include "jobview.h"
#include "machinecatalog.h"
#include "mainwindow.h"
#include "settingsdialog.h"
#include "translations.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonDocument>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace Trainyard;

namespace {
QString tsPath(const QString& lang)
{
    return QStringLiteral(TRAINYARD_SOURCE_DIR "/translations/trainyard_") + lang + QStringLiteral(".ts");
}

// The %1…%99 and %n placeholders of a string, sorted, so a translation may reorder them.
QStringList placeholders(const QString& text)
{
    QStringList found;
    static const QRegularExpression re(QStringLiteral("%(\\d{1,2}|n)"));
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    found.sort();
    found.removeDuplicates();
    return found;
}

// '&' followed by a letter or digit marks a keyboard accelerator ("&&" is a literal ampersand; "&amp;" is
// already decoded by the reader; HTML entities such as "&nbsp;" do not occur in our sources).
bool hasAccelerator(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("(^|[^&])&[\\w\\x{00C0}-\\x{024F}]"));
    return re.match(text).hasMatch();
}

struct TsMessage {
    QString context;
    QString source;
    bool numerus = false;
    QString type; // "unfinished", "vanished", "obsolete" or empty
    QStringList translations; // one, or the numerus forms
};

QList<TsMessage> readTs(const QString& path, QString* language, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return {};
    }
    QList<TsMessage> messages;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("TS")) {
            *language = xml.attributes().value(QLatin1String("language")).toString();
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            current = TsMessage {};
            current.context = context;
            current.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (name == QLatin1String("source")) {
            current.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            current.type = xml.attributes().value(QLatin1String("type")).toString();
            if (current.numerus) {
                while (xml.readNextStartElement())
                    current.translations << xml.readElementText();
            } else {
                current.translations << xml.readElementText();
            }
            messages << current;
        }
    }
    if (xml.hasError())
        *error = xml.errorString();
    return messages;
}
} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_root;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        qputenv("XDG_CONFIG_HOME", m_root.filePath(QStringLiteral("config")).toLocal8Bit());
        qputenv("XDG_DATA_HOME", m_root.filePath(QStringLiteral("data")).toLocal8Bit());
        qputenv("XDG_RUNTIME_DIR", m_root.filePath(QStringLiteral("run")).toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("TrainyardTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_translations"));
    }

    void cleanup()
    {
        Translations::setLanguageOverride(QString());
        Translations::install(QCoreApplication::instance(), QStringLiteral("en"));
    }

    void catalogTranslates_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("n");
        QTest::addColumn<QString>("expected");
        const auto add = [](const char* lang, const char* context, const char* source, int n, const char* expected) {
            QTest::addRow("%s: %s", lang, source) << QString::fromLatin1(lang) << QString::fromLatin1(context)
                                                  << QString::fromUtf8(source) << n << QString::fromUtf8(expected);
        };
        add("es", "Trainyard::MainWindow", "&File", -1, "&Archivo");
        add("es", "Trainyard::MainWindow", "&Job", -1, "&Trabajo");
        add("es", "Trainyard::ExecutorStatusBar", "Connected", -1, "Conectado");
        add("es", "Trainyard::ExecutorStatusBar", "Executor: %1", -1, "Ejecutor: %1");
        add("es", "Trainyard::JobListModel", "Job ID", -1, "ID del trabajo");
        add("es", "Trainyard::State", "Running", -1, "En ejecución");
        add("es", "Trainyard::TopologyView", "%n restart(s)", 1, "1 reinicio");
        add("es", "Trainyard::TopologyView", "%n restart(s)", 3, "3 reinicios");
        add("de", "Trainyard::MainWindow", "&File", -1, "&Datei");
        add("de", "Trainyard::MainWindow", "&Help", -1, "&Hilfe");
        add("de", "Trainyard::ExecutorStatusBar", "Disconnected", -1, "Getrennt");
        add("de", "Trainyard::ExecutorStatusBar", "Executor: %1", -1, "Executor: %1");
        add("de", "Trainyard::JobListModel", "Duration", -1, "Dauer");
        add("de", "Trainyard::WizardOutputPage", "%n checkpoint(s)", 1, "1 Checkpoint");
        add("es", "Trainyard::WizardOutputPage", "%n checkpoint(s)", 5, "5 puntos de control");
        add("de", "Trainyard::State", "Failed", -1, "Fehlgeschlagen");
        add("de", "Trainyard::TopologyView", "%n restart(s)", 1, "1 Neustart");
        add("de", "Trainyard::TopologyView", "%n restart(s)", 2, "2 Neustarts");
    }
    void catalogTranslates()
    {
        QFETCH(QString, lang);
        QFETCH(QString, context);
        QFETCH(QString, source);
        QFETCH(int, n);
        QFETCH(QString, expected);
        const QString path = Translations::catalogPath(lang);
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QTranslator translator;
        QVERIFY2(translator.load(path), qPrintable(path));
        QCOMPARE(translator.language(), lang);
        QString got = translator.translate(context.toUtf8().constData(), source.toUtf8().constData(), nullptr, n);
        if (n >= 0)
            got.replace(QLatin1String("%n"), QString::number(n)); // QTranslator leaves %n to tr()
        QCOMPARE(got, expected);
    }

    void tsComplete_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addRow("es") << QStringLiteral("es");
        QTest::addRow("de") << QStringLiteral("de");
        QTest::addRow("en") << QStringLiteral("en"); // the plural forms only
    }
    void tsComplete()
    {
        QFETCH(QString, lang);
        QString language;
        QString error;
        const QList<TsMessage> messages = readTs(tsPath(lang), &language, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(language.startsWith(lang));
        QVERIFY(messages.size() > (lang == QLatin1String("en") ? 20 : 100));
        int numerus = 0;
        for (const TsMessage& m : messages) {
            const QString where = m.context + QStringLiteral(": ") + m.source;
            QVERIFY2(m.type.isEmpty(), qPrintable(m.type + QStringLiteral(" ") + where));
            QVERIFY2(!m.translations.isEmpty(), qPrintable(where));
            if (m.numerus) {
                ++numerus;
                // Spanish and German have two plural forms (Qt's numerus rules: one, other).
                QCOMPARE(m.translations.size(), 2);
            }
            for (const QString& t : m.translations) {
                QVERIFY2(!t.trimmed().isEmpty() || m.source.trimmed().isEmpty(), qPrintable(where));
                QVERIFY2(placeholders(t) == placeholders(m.source) || (m.numerus && !t.contains(QLatin1String("%n"))),
                    qPrintable(QStringLiteral("placeholders differ: ") + where + QStringLiteral(" -> ") + t));
                QVERIFY2(hasAccelerator(t) == hasAccelerator(m.source),
                    qPrintable(QStringLiteral("accelerator: ") + where + QStringLiteral(" -> ") + t));
            }
        }
        QVERIFY(numerus > 0);
    }

    void englishPlurals()
    {
        // Issue 27, item 20: "2 checkpoint(s)", "1 replica(s)". The English catalogue gives every "%n …(s)" string
        // its two forms, and it has every plural string the other catalogues have (lupdate -pluralonly).
        QString language;
        QString error;
        QSet<QString> english;
        for (const TsMessage& m : readTs(tsPath(QStringLiteral("en")), &language, &error)) {
            QVERIFY2(m.numerus, qPrintable(m.source));
            english.insert(m.context + QLatin1Char('|') + m.source);
        }
        for (const TsMessage& m : readTs(tsPath(QStringLiteral("de")), &language, &error)) {
            if (m.numerus)
                QVERIFY2(english.contains(m.context + QLatin1Char('|') + m.source),
                    qPrintable(
                        QStringLiteral("not in trainyard_en.ts: ") + m.context + QStringLiteral(": ") + m.source));
        }
        QCOMPARE(Translations::install(qApp, QStringLiteral("en")), QStringLiteral("en"));
        QCOMPARE(HostFit::tr("Needs %n replica(s)", nullptr, 1), QStringLiteral("Needs 1 replica"));
        QCOMPARE(HostFit::tr("Needs %n replica(s)", nullptr, 2), QStringLiteral("Needs 2 replicas"));
        QCOMPARE(QCoreApplication::translate("Trainyard::CheckpointsPanel", "%n checkpoint(s) in %1", nullptr, 1),
            QStringLiteral("1 checkpoint in %1"));
        QCOMPARE(
            QCoreApplication::translate("Trainyard::TrialsPanel", "%n trials", nullptr, 1), QStringLiteral("1 trial"));
    }

    // validateJob()'s descriptions go through the catalogue: the submit wizard shows them in the console's
    // language, while without a translator (the executor, trainyardctl) they stay the API's exact English.
    void validationMessagesFollowLanguage()
    {
        FieldViolations parseErrors;
        const Job job = JobJson::fromJson(QJsonDocument::fromJson(R"({"jobId":"job_1","trainingInput":{
            "pythonModule":"trainer.task","packageUris":["/tmp/trainer"],"scaleTier":"CUSTOM",
            "masterType":"n1-standard-4","masterConfig":{"acceleratorConfig":{"count":"3","type":"NVIDIA_TESLA_T4"}},
            "workerType":"n1-standard-4","workerCount":1,
            "workerConfig":{"acceleratorConfig":{"count":"2","type":"NVIDIA_TESLA_T4"}}}})")
                                              .object(),
            &parseErrors);
        QVERIFY(parseErrors.isEmpty());
        HostInventory host;
        host.cpus = 16;
        host.memoryBytes = 64LL << 30;
        host.gpus = { GpuInfo {
            0, QStringLiteral("GPU-0"), QStringLiteral("Tesla T4"), QStringLiteral("NVIDIA_TESLA_T4"), 16LL << 30 } };
        const QString countPath = QStringLiteral("trainingInput.masterConfig.acceleratorConfig.count");

        QCOMPARE(Translations::install(QCoreApplication::instance(), QStringLiteral("es")), QStringLiteral("es"));
        FieldViolations v = validateJob(job, MachineCatalog::builtin(), host);
        QCOMPARE(v.size(), 1);
        QCOMPARE(v.first().field, countPath);
        QCOMPARE(v.first().description,
            QStringLiteral("El tipo de máquina n1-standard-4 admite 1, 2, 4 x NVIDIA_TESLA_T4, no 3."));
        // A plural form (%n GPU(s)) inside a message built of two translated parts.
        Job fixed = job;
        fixed.trainingInput.masterConfig->acceleratorConfig->count = 1;
        v = validateJob(fixed, MachineCatalog::builtin(), host);
        QVERIFY(!v.isEmpty());
        QCOMPARE(v.first().description,
            QStringLiteral("El rol master solicita 1 x NVIDIA_TESLA_T4 por réplica (3 en total); este host tiene 1 GPU "
                           "(0: Tesla T4 (NVIDIA_TESLA_T4)); aptas para NVIDIA_TESLA_T4: 1."));

        // The machine catalog's own texts (listed for lupdate in machinecatalog.cpp) are translated too.
        int catalogTexts = 0;
        for (const ScaleTierInfo& tier : MachineCatalog::builtin().scaleTiers()) {
            if (tier.unavailableReason.isEmpty())
                continue;
            ++catalogTexts;
            QVERIFY2(translatedCatalogText(tier.unavailableReason) != tier.unavailableReason,
                qPrintable(
                    QStringLiteral("not listed in machinecatalog.cpp or not translated: ") + tier.unavailableReason));
        }
        QVERIFY(catalogTexts > 0);
        Job tpu = job;
        tpu.trainingInput = TrainingInput();
        tpu.trainingInput.pythonModule = QStringLiteral("trainer.task");
        tpu.trainingInput.packageUris = { QStringLiteral("/tmp/trainer") };
        tpu.trainingInput.scaleTier = QStringLiteral("BASIC_TPU");
        v = validateJob(tpu, MachineCatalog::builtin(), host);
        QVERIFY(!v.isEmpty());
        QCOMPARE(v.first().description,
            QStringLiteral("BASIC_TPU no está disponible aquí: ")
                + translatedCatalogText(
                    MachineCatalog::builtin().scaleTier(QStringLiteral("BASIC_TPU"))->unavailableReason));

        QCOMPARE(Translations::install(QCoreApplication::instance(), QStringLiteral("de")), QStringLiteral("de"));
        v = validateJob(job, MachineCatalog::builtin(), host);
        QCOMPARE(v.size(), 1);
        QCOMPARE(v.first().description,
            QStringLiteral("Der Maschinentyp n1-standard-4 unterstützt 1, 2, 4 x NVIDIA_TESLA_T4, nicht 3."));

        // No translator: the API's English, "(s)" resolved to the singular.
        QCOMPARE(Translations::install(QCoreApplication::instance(), QStringLiteral("en")), QStringLiteral("en"));
        v = validateJob(job, MachineCatalog::builtin(), host);
        QCOMPARE(v.size(), 1);
        QCOMPARE(v.first().description,
            QStringLiteral("Machine type n1-standard-4 takes 1, 2, 4 x NVIDIA_TESLA_T4, not 3."));
        v = validateJob(fixed, MachineCatalog::builtin(), host);
        QVERIFY(!v.isEmpty());
        QCOMPARE(v.first().description,
            QStringLiteral("The master asks for 1 x NVIDIA_TESLA_T4 per replica (3 in all); this host has 1 GPU (0: "
                           "Tesla T4 (NVIDIA_TESLA_T4)), 1 of which can serve NVIDIA_TESLA_T4."));
        v = validateJob(tpu, MachineCatalog::builtin(), host);
        QVERIFY(!v.isEmpty());
        QCOMPARE(v.first().description,
            QStringLiteral("BASIC_TPU is not available here: Cloud TPUs exist only in Google Cloud; a workstation has "
                           "none."));
    }

    void pickLanguage_data()
    {
        QTest::addColumn<QStringList>("preferences");
        QTest::addColumn<QString>("expected");
        QTest::addRow("spanish region") << QStringList { QStringLiteral("es-MX"), QStringLiteral("en") }
                                        << QStringLiteral("es");
        QTest::addRow("german plain") << QStringList { QStringLiteral("de") } << QStringLiteral("de");
        QTest::addRow("underscore") << QStringList { QStringLiteral("de_AT") } << QStringLiteral("de");
        QTest::addRow("first shipped wins") << QStringList { QStringLiteral("pt-BR"), QStringLiteral("de-DE"),
            QStringLiteral("es") } << QStringLiteral("de");
        QTest::addRow("english first") << QStringList { QStringLiteral("en-GB"), QStringLiteral("es") }
                                       << QStringLiteral("en");
        QTest::addRow("none shipped") << QStringList { QStringLiteral("fr-FR"), QStringLiteral("ja") }
                                      << QStringLiteral("en");
        QTest::addRow("empty") << QStringList {} << QStringLiteral("en");
    }
    void pickLanguage()
    {
        QFETCH(QStringList, preferences);
        QFETCH(QString, expected);
        QCOMPARE(Translations::pickLanguage(preferences), expected);
    }

    void overrideSetting_data()
    {
        QTest::addColumn<QString>("stored");
        QTest::addColumn<QString>("expectedOverride");
        QTest::addRow("spanish") << QStringLiteral("es") << QStringLiteral("es");
        QTest::addRow("german") << QStringLiteral("de") << QStringLiteral("de");
        QTest::addRow("english") << QStringLiteral("en") << QStringLiteral("en");
        QTest::addRow("system") << QString() << QString();
        QTest::addRow("unknown language ignored") << QStringLiteral("xx") << QString();
    }
    void overrideSetting()
    {
        QFETCH(QString, stored);
        QFETCH(QString, expectedOverride);
        QSettings().setValue(Translations::settingsKey(), stored);
        QCOMPARE(Translations::languageOverride(), expectedOverride);
        const QString effective = Translations::effectiveLanguage();
        if (expectedOverride.isEmpty())
            QCOMPARE(effective, Translations::pickLanguage(QLocale::system().uiLanguages()));
        else
            QCOMPARE(effective, expectedOverride);
    }

    void mainWindowInLanguage_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QStringList>("menus");
        QTest::addRow("en") << QStringLiteral("en")
                            << QStringList { QStringLiteral("&File"), QStringLiteral("&View"), QStringLiteral("&Job"),
                                   QStringLiteral("&Help") };
        QTest::addRow("es") << QStringLiteral("es")
                            << QStringList { QStringLiteral("&Archivo"), QStringLiteral("&Ver"),
                                   QStringLiteral("&Trabajo"), QStringLiteral("Ay&uda") };
        QTest::addRow("de") << QStringLiteral("de")
                            << QStringList { QStringLiteral("&Datei"), QStringLiteral("&Ansicht"),
                                   QStringLiteral("&Job"), QStringLiteral("&Hilfe") };
    }
    void mainWindowInLanguage()
    {
        QFETCH(QString, lang);
        QFETCH(QStringList, menus);
        // Through the setting, as the console does at start-up.
        Translations::setLanguageOverride(lang);
        QCOMPARE(Translations::install(QCoreApplication::instance()), lang);
        ExecutorConnection connection;
        MainWindow window(&connection);
        QStringList titles;
        for (QAction* action : window.menuBar()->actions())
            titles << action->text();
        for (const QString& menu : menus)
            QVERIFY2(titles.contains(menu), qPrintable(titles.join(QLatin1Char(','))));
        // Issue 11: in every language the window and a failed job's view fit a 1024-pixel screen (the Logs
        // bar and the status bar set a minimum width past it).
        Job failed;
        failed.jobId = QStringLiteral("fmnist_first_try");
        failed.state = JobState::Failed;
        failed.errorMessage = QStringLiteral("The replica master 0 exited with a non-zero status of 2. Termination "
                                             "reason: Error.\nusage: python -m trainer.task [-h]");
        JobView view(nullptr, failed);
        QVERIFY2(view.minimumSizeHint().width() <= 1000, qPrintable(QString::number(view.minimumSizeHint().width())));
        QVERIFY2(
            window.minimumSizeHint().width() <= 1000, qPrintable(QString::number(window.minimumSizeHint().width())));
    }

    void settingsDialogStoresLanguage()
    {
        SettingsDialog dialog;
        auto* combo = dialog.findChild<QComboBox*>(QStringLiteral("languageCombo"));
        QVERIFY(combo);
        QCOMPARE(combo->count(), Translations::availableLanguages().size() + 1);
        QCOMPARE(dialog.selectedLanguage(), QString());
        combo->setFocus();
        // Real key input: End selects the last entry (German).
        QTest::keyClick(combo, Qt::Key_End);
        QCOMPARE(dialog.selectedLanguage(), QStringLiteral("de"));
        dialog.apply();
        QCOMPARE(QSettings().value(Translations::settingsKey()).toString(), QStringLiteral("de"));
        QCOMPARE(QCoreApplication::translate("Trainyard::MainWindow", "&File"), QStringLiteral("&Datei"));
        // The dialog retranslated itself on LanguageChange.
        QTRY_COMPARE(dialog.windowTitle(), QStringLiteral("Einstellungen"));
        QTest::keyClick(combo, Qt::Key_Home);
        QCOMPARE(dialog.selectedLanguage(), QString());
        dialog.apply();
        QVERIFY(!QSettings().contains(Translations::settingsKey()));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
