// SPDX-License-Identifier: GPL-2.0-or-later
#include "yamlhighlighter.h"

#include <QTextDocument>

#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

namespace Trainyard {

namespace {
QTextCharFormat charFormat(const QColor& color, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}
} // namespace

YamlHighlighter::YamlHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document)
{
    // Later rules win where they overlap: scalars first, then keys, strings, comments.
    // A number is a whole plain scalar (YAML 1.2's core schema): after a blank, "[", "," or "{", and before the
    // line's end, a comment or a flow separator. The "-4" of n1-standard-4 is part of a name (issue 27).
    m_rules.append(
        { QRegularExpression(QStringLiteral("(?<![^\\s\\[,{])-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?(?=\\s*(?:$|[,\\]}]|#))")),
            charFormat(QColor(0x98, 0x41, 0x0a)) });
    m_rules.append({ QRegularExpression(QStringLiteral("\\b(true|false|null|yes|no|True|False|~)\\b")),
        charFormat(QColor(0x81, 0x3d, 0x9c), true) });
    m_rules.append({ QRegularExpression(QStringLiteral("^\\s*(?:-\\s+)?([\\w.\\-/]+|\"[^\"]*\")\\s*:(?=\\s|$)")),
        charFormat(QColor(0x1a, 0x5f, 0xb4), true), 1 });
    m_rules.append({ QRegularExpression(QStringLiteral("\"([^\"\\\\]|\\\\.)*\"(?!\\s*:)|'[^']*'")),
        charFormat(QColor(0x26, 0x80, 0x3a)) });
    m_rules.append(
        { QRegularExpression(QStringLiteral("(^|\\s)#.*$")), charFormat(QColor(0x77, 0x76, 0x7b), false, true) });
    m_rules.append({ QRegularExpression(QStringLiteral("^\\s*-(?=\\s)")), charFormat(QColor(0xc6, 0x46, 0x00), true) });
}

void YamlHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& rule : std::as_const(m_rules)) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            const int group = m.capturedStart(rule.group) >= 0 ? rule.group : 0;
            setFormat(int(m.capturedStart(group)), int(m.capturedLength(group)), rule.format);
        }
    }
}

QSyntaxHighlighter* attachHighlighter(QTextDocument* document, const QString& syntax)
{
#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
    static KSyntaxHighlighting::Repository repository;
    const KSyntaxHighlighting::Definition definition = repository.definitionForName(syntax);
    if (definition.isValid()) {
        auto* highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
        highlighter->setTheme(repository.defaultTheme(KSyntaxHighlighting::Repository::LightTheme));
        highlighter->setDefinition(definition);
        return highlighter;
    }
#else
    Q_UNUSED(syntax);
#endif
    return new YamlHighlighter(document);
}

} // namespace Trainyard
