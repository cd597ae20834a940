// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The console's settings: for now the user-interface language (QSettings "ui/language").

#include <QDialog>

class QComboBox;
class QLabel;

namespace Trainyard {

/// Edits the console's settings. Accepting stores the language override and installs the new
/// translators at once (Translations::install): windows opened afterwards (and this dialog, which handles
/// QEvent::LanguageChange) use the new language; windows that set their texts once when built show it
/// after a restart, which the dialog says.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);

    /// The language code chosen in the combo ("" = system default).
    QString selectedLanguage() const;
    void setSelectedLanguage(const QString& code);

    /// Stores the choice and, when it changed, switches the translators.
    void apply();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateNote();

    QComboBox* m_language;
    QLabel* m_languageLabel;
    QLabel* m_note;
    QString m_initial;
};

} // namespace Trainyard
