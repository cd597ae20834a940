// SPDX-License-Identifier: GPL-2.0-or-later
#include "settingsdialog.h"

#include "translations.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace Trainyard {

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent)
    , m_language(new QComboBox(this))
    , m_languageLabel(new QLabel(this))
    , m_note(new QLabel(this))
    , m_initial(Translations::languageOverride())
{
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_language->addItem(QString(), QString());
    for (const QString& code : Translations::availableLanguages())
        m_language->addItem(Translations::nativeName(code), code);
    m_languageLabel->setBuddy(m_language);
    m_note->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(m_languageLabel, m_language);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addStretch();
    layout->addWidget(buttons);

    setSelectedLanguage(m_initial);
    connect(m_language, &QComboBox::currentIndexChanged, this, &SettingsDialog::updateNote);
    retranslate();
}

QString SettingsDialog::selectedLanguage() const
{
    return m_language->currentData().toString();
}

void SettingsDialog::setSelectedLanguage(const QString& code)
{
    const int index = m_language->findData(code);
    m_language->setCurrentIndex(index < 0 ? 0 : index);
}

void SettingsDialog::apply()
{
    const QString chosen = selectedLanguage();
    if (chosen == m_initial)
        return;
    Translations::setLanguageOverride(chosen);
    Translations::install(QCoreApplication::instance());
    m_initial = chosen;
}

void SettingsDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

void SettingsDialog::retranslate()
{
    setWindowTitle(tr("Settings"));
    m_languageLabel->setText(tr("&Language:"));
    const QString system = Translations::nativeName(Translations::pickLanguage(QLocale::system().uiLanguages()));
    m_language->setItemText(0, tr("System default (%1)").arg(system));
    m_language->setToolTip(tr("The language of the console. \"System default\" follows the desktop's language "
                              "settings (LANGUAGE, LC_MESSAGES, LANG)."));
    updateNote();
}

void SettingsDialog::updateNote()
{
    m_note->setText(selectedLanguage() == m_initial
            ? QString()
            : tr("The new language applies to windows opened from now on; restart Trainyard to see it "
                 "everywhere."));
}

} // namespace Trainyard
