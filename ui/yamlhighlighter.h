// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Highlighting of YAML and JSON documents (the job in the Overview tab; the wizard's review page).
// With KDE KSyntaxHighlighting (TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING) its "YAML"/"JSON" definitions and
// default theme are used; without it (Debian 12) the built-in YamlHighlighter colours keys, strings,
// numbers, booleans and comments.

#include <QRegularExpression>
#include <QSyntaxHighlighter>

class QTextDocument;

namespace Trainyard {

class YamlHighlighter final : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit YamlHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    QList<Rule> m_rules;
};

/// Attaches the best available highlighter for `syntax` ("YAML" or "JSON") to `document`; the
/// highlighter is a child of the document.
QSyntaxHighlighter* attachHighlighter(QTextDocument* document, const QString& syntax);

} // namespace Trainyard
