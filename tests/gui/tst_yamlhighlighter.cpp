// SPDX-License-Identifier: GPL-2.0-or-later
// attachHighlighter(): a YAML and a JSON job document get keys, strings, numbers and comments coloured
// apart from plain text, by KDE KSyntaxHighlighting where the build has it and by the built-in
// YamlHighlighter otherwise. With TRAINYARD_EXPECT_KSYNTAXHIGHLIGHTING=1 in the environment (the
// Debian 13 chroot build sets it) the test fails unless the KF6 highlighter is the one in use.

#include "yamlhighlighter.h"

#include <QPlainTextEdit>
#include <QSyntaxHighlighter>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace Trainyard;

namespace {
/// The foreground colour the highlighter gave to the first character of `needle` in `doc`; invalid
/// when the character carries no format of the highlighter's.
QColor colourAt(QTextDocument* doc, const QString& needle)
{
    const QTextCursor found = doc->find(needle);
    if (found.isNull())
        return {};
    const QTextBlock block = found.block();
    const int pos = found.selectionStart() - block.position();
    const QList<QTextLayout::FormatRange> ranges = block.layout()->formats();
    for (const QTextLayout::FormatRange& r : ranges) {
        if (pos >= r.start && pos < r.start + r.length && r.format.hasProperty(QTextFormat::ForegroundBrush))
            return r.format.foreground().color();
    }
    return {};
}

bool expectKf6()
{
    return qEnvironmentVariableIntValue("TRAINYARD_EXPECT_KSYNTAXHIGHLIGHTING") == 1;
}
} // namespace

class TestYamlHighlighter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void backend_data()
    {
        QTest::addColumn<QString>("syntax");
        QTest::addRow("YAML") << QStringLiteral("YAML");
        QTest::addRow("JSON") << QStringLiteral("JSON");
    }
    void backend()
    {
        QFETCH(QString, syntax);
        QTextDocument doc;
        QSyntaxHighlighter* highlighter = attachHighlighter(&doc, syntax);
        QVERIFY(highlighter);
        QCOMPARE(highlighter->parent(), &doc);
        const QString className = QString::fromLatin1(highlighter->metaObject()->className());
        qInfo("highlighter for %s: %s", qPrintable(syntax), qPrintable(className));
        if (expectKf6())
            QCOMPARE(className, QStringLiteral("KSyntaxHighlighting::SyntaxHighlighter"));
    }

    void yamlIsColoured()
    {
        QPlainTextEdit edit; // a laid-out document, as in the Overview tab
        edit.resize(600, 400);
        attachHighlighter(edit.document(), QStringLiteral("YAML"));
        edit.setPlainText(QStringLiteral("# the job\n"
                                         "jobId: fmnist_1\n"
                                         "trainingInput:\n"
                                         "  scaleTier: CUSTOM\n"
                                         "  workerCount: 2\n"
                                         "  args:\n"
                                         "  - \"--epochs\"\n"));
        QTextDocument* doc = edit.document();
        const QColor key = colourAt(doc, QStringLiteral("jobId"));
        const QColor number = colourAt(doc, QStringLiteral("2")); // the first "2" is workerCount's value
        const QColor comment = colourAt(doc, QStringLiteral("# the job"));
        const QColor string = colourAt(doc, QStringLiteral("\"--epochs\""));
        QVERIFY2(key.isValid(), "keys are coloured");
        QVERIFY2(comment.isValid(), "comments are coloured");
        QVERIFY2(string.isValid(), "strings are coloured");
        QVERIFY2(number.isValid(), "numbers are coloured");
        QVERIFY(key != comment);
        QVERIFY(comment != string);
        QVERIFY(key != number);
    }

    void jsonIsColoured()
    {
        QPlainTextEdit edit;
        edit.resize(600, 400);
        attachHighlighter(edit.document(), QStringLiteral("JSON"));
        edit.setPlainText(QStringLiteral("{\n  \"jobId\": \"fmnist_1\",\n  \"workerCount\": 2,\n  \"ok\": true\n}\n"));
        QTextDocument* doc = edit.document();
        const QColor key = colourAt(doc, QStringLiteral("\"jobId\""));
        const QColor value = colourAt(doc, QStringLiteral("\"fmnist_1\""));
        QVERIFY2(key.isValid(), "keys are coloured");
        QVERIFY2(value.isValid(), "string values are coloured");
        QVERIFY2(key != value, "keys and string values differ");
    }
};

QTEST_MAIN(TestYamlHighlighter)
#include "tst_yamlhighlighter.moc"
