// SPDX-License-Identifier: GPL-2.0-or-later
// The man pages and trainyardctl's bash completion that packaging/manpages/gendocs.py writes at build time,
// against the real programs' --help, read here independently of the generator: every group's commands
// complete, every command's flags complete (and nothing else), a flag's value completes as a file name,
// every option any --help names is in its man page, and groff formats the pages without a warning.
#include "requireddependencies.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QString out;
    QString err;
};

QString manpagesDir()
{
    return QStringLiteral(TRAINYARD_MANPAGES_DIR);
}

/// A section's entries in trainyardctl's help: lines indented by exactly 4 (their text is indented by 8).
QStringList sectionEntries(const QString& help, const QString& section)
{
    QStringList entries;
    bool inside = false;
    const QStringList lines = help.split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        if (!line.isEmpty() && !line.startsWith(QLatin1Char(' '))) {
            inside = line == section;
            continue;
        }
        if (inside && line.startsWith(QLatin1String("    ")) && !line.startsWith(QLatin1String("     "))
            && !line.contains(QLatin1String(" is one of the following:")))
            entries.append(line.trimmed());
    }
    return entries;
}

/// The --names of a command's flags: FLAGS and GLOBAL FLAGS entries, or the options of a one-line usage.
QSet<QString> flagNames(const QString& help)
{
    QSet<QString> names;
    static const QRegularExpression name(QStringLiteral("^--([a-z][a-z0-9-]*)"));
    static const QRegularExpression usageOption(QStringLiteral("\\[--([a-z][a-z0-9-]*)"));
    if (help.startsWith(QLatin1String("usage: "))) {
        for (auto it = usageOption.globalMatch(help.section(QLatin1Char('\n'), 0, 0)); it.hasNext();)
            names.insert(it.next().captured(1));
        return names;
    }
    for (const char* section : { "FLAGS", "GLOBAL FLAGS" }) {
        const QStringList entries = sectionEntries(help, QLatin1String(section));
        for (const QString& entry : entries) {
            const QRegularExpressionMatch m = name.match(entry);
            if (m.hasMatch())
                names.insert(m.captured(1));
        }
    }
    return names;
}

/// Every --option a text names (descriptions included).
QSet<QString> mentionedOptions(const QString& text)
{
    QSet<QString> options;
    static const QRegularExpression option(QStringLiteral("(?<![\\w-])--([a-z][a-z0-9-]*)"));
    for (auto it = option.globalMatch(text); it.hasNext();)
        options.insert(it.next().captured(1));
    return options;
}

} // namespace

class TestManPages : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;

    Run run(const QString& program, const QStringList& args, const QString& workingDir = QString())
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // An empty home: a saved console language would translate the console's --help.
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_home.filePath(QStringLiteral("run")));
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(workingDir.isEmpty() ? m_home.path() : workingDir);
        p.start(program, args);
        Run r;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            r.err = QStringLiteral("timed out: ") + program;
            return r;
        }
        r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QString ctlHelp(const QStringList& path)
    {
        const Run r = run(QStringLiteral(TRAINYARD_CTL_BIN), path + QStringList { QStringLiteral("--help") });
        if (r.code != 0)
            qWarning(
                "trainyardctl %s --help: %d %s", qPrintable(path.join(QLatin1Char(' '))), r.code, qPrintable(r.err));
        return r.out;
    }

    /// Walks trainyardctl's groups through their --help: the groups with their command words, and the
    /// commands (leaves) with their help.
    void walk(const QStringList& path, QMap<QStringList, QStringList>* groups, QMap<QStringList, QString>* leaves)
    {
        const QString help = ctlHelp(path);
        const QStringList children
            = sectionEntries(help, QStringLiteral("GROUPS")) + sectionEntries(help, QStringLiteral("COMMANDS"));
        if (children.isEmpty()) {
            leaves->insert(path, help);
            return;
        }
        groups->insert(path, children);
        for (const QString& child : children)
            walk(path + QStringList { child }, groups, leaves);
    }

    /// COMPREPLY of the completion script for the command line `words` (the last one being completed).
    QStringList complete(const QStringList& words, const QString& workingDir = QString())
    {
        const QString script
            = QStringLiteral("source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                             "_trainyardctl 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"");
        const Run r = run(QStringLiteral("bash"),
            QStringList { QStringLiteral("-c"), script, QStringLiteral("bash"), completionFile() } + words, workingDir);
        return r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

    static QString completionFile() { return manpagesDir() + QStringLiteral("/trainyardctl.bash"); }

    static QSet<QString> withoutEquals(const QStringList& words)
    {
        QSet<QString> names;
        for (QString w : words)
            names.insert(w.remove(QLatin1Char('=')).mid(2));
        return names;
    }

    /// The page formatted as plain text; fails the test on any groff warning.
    QString formatted(const QString& page)
    {
        const QString file = manpagesDir() + QLatin1Char('/') + page + QStringLiteral(".1");
        const Run check = run(QStringLiteral("groff"),
            { QStringLiteral("-man"), QStringLiteral("-Tutf8"), QStringLiteral("-ww"), QStringLiteral("-z"), file });
        if (check.code != 0 || !check.err.isEmpty()) {
            qWarning("groff -ww %s: %d %s", qPrintable(file), check.code, qPrintable(check.err));
            return {};
        }
        const Run text = run(QStringLiteral("groff"),
            { QStringLiteral("-man"), QStringLiteral("-Tascii"), QStringLiteral("-P-cbou"), file });
        return text.code == 0 ? text.out : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral("run"))));
        if (!QFile::exists(completionFile()))
            TRAINYARD_SKIP_OR_FAIL("the man pages were not generated (python3 and gzip at configure time)");
        if (run(QStringLiteral("groff"), { QStringLiteral("--version") }).code != 0)
            TRAINYARD_SKIP_OR_FAIL("groff is missing: run packaging/setup-deps.sh (groff-base)");
    }

    void groupCompletion_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QStringList>("commands");
        QMap<QStringList, QStringList> groups;
        QMap<QStringList, QString> leaves;
        walk({}, &groups, &leaves);
        QVERIFY(groups.size() >= 4);
        for (auto it = groups.cbegin(); it != groups.cend(); ++it)
            QTest::addRow("trainyardctl %s", qPrintable(it.key().join(QLatin1Char(' ')))) << it.key() << it.value();
    }

    void groupCompletion()
    {
        QFETCH(QStringList, path);
        QFETCH(QStringList, commands);
        const QStringList offered
            = complete(QStringList { QStringLiteral("trainyardctl") } + path + QStringList { QString() });
        QCOMPARE(QSet<QString>(offered.cbegin(), offered.cend()), QSet<QString>(commands.cbegin(), commands.cend()));
    }

    void flagCompletion_data()
    {
        QTest::addColumn<QStringList>("path");
        QTest::addColumn<QString>("help");
        QMap<QStringList, QStringList> groups;
        QMap<QStringList, QString> leaves;
        walk({}, &groups, &leaves);
        QVERIFY(leaves.size() >= 10);
        for (auto it = leaves.cbegin(); it != leaves.cend(); ++it)
            QTest::addRow("trainyardctl %s", qPrintable(it.key().join(QLatin1Char(' ')))) << it.key() << it.value();
    }

    void flagCompletion()
    {
        QFETCH(QStringList, path);
        QFETCH(QString, help);
        // The global flags are accepted by every command; the root's synopsis names them.
        const QString globals = sectionEntries(ctlHelp({}), QStringLiteral("SYNOPSIS")).join(QLatin1Char(' '));
        const QStringList offered
            = complete(QStringList { QStringLiteral("trainyardctl") } + path + QStringList { QStringLiteral("--") });
        QCOMPARE(withoutEquals(offered), flagNames(help) | mentionedOptions(globals));
        // A flag that takes a value is offered with '=' and a switch without, as the help writes them
        // ("--name=VALUE", or "[--name VALUE]" in a one-line usage).
        const QString described = help + QLatin1Char('\n') + globals;
        for (const QString& word : offered) {
            const QString flag = word.endsWith(QLatin1Char('=')) ? word.chopped(1) : word;
            const bool takesValue = described.contains(flag + QLatin1Char('='))
                || described.contains(QRegularExpression(
                    QLatin1String("\\[") + QRegularExpression::escape(flag) + QLatin1String(" [^\\]\\s]+\\]")));
            QVERIFY2(takesValue == word.endsWith(QLatin1Char('=')), qPrintable(word));
        }
    }

    void valueCompletion()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile config(dir.filePath(QStringLiteral("config.yaml")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.close();
        const QStringList submit { QStringLiteral("trainyardctl"), QStringLiteral("jobs"), QStringLiteral("submit"),
            QStringLiteral("training"), QStringLiteral("job_1") };
        // bash splits "--config=con" into "--config", "=", "con".
        QCOMPARE(
            complete(submit + QStringList { QStringLiteral("--config"), QStringLiteral("="), QStringLiteral("con") },
                dir.path()),
            QStringList { QStringLiteral("config.yaml") });
        // "--config con": nothing from the script, so `complete -o default` completes file names.
        QCOMPARE(complete(submit + QStringList { QStringLiteral("--config"), QStringLiteral("con") }, dir.path()),
            QStringList());
        // A global flag's value is not a command word: the path continues after it.
        QCOMPARE(complete({ QStringLiteral("trainyardctl"), QStringLiteral("--format"), QStringLiteral("json"),
                     QStringLiteral("jobs"), QStringLiteral("sub") }),
            QStringList { QStringLiteral("submit") });
        // After `--` everything is the trainer's.
        QCOMPARE(complete(submit + QStringList { QStringLiteral("--"), QStringLiteral("--") }), QStringList());
    }

    void manPage_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("help");
        QTest::addColumn<QStringList>("commands");
        const Run console = run(QStringLiteral(TRAINYARD_CONSOLE_BIN), { QStringLiteral("--help") });
        QCOMPARE(console.code, 0);
        const Run executor = run(QStringLiteral(TRAINYARD_EXECUTOR_BIN), { QStringLiteral("--help") });
        QCOMPARE(executor.code, 0);
        QMap<QStringList, QStringList> groups;
        QMap<QStringList, QString> leaves;
        walk({}, &groups, &leaves);
        QString ctlHelps = ctlHelp({});
        QStringList commands;
        for (auto it = leaves.cbegin(); it != leaves.cend(); ++it) {
            ctlHelps += it.value();
            commands.append(it.key().join(QLatin1Char(' ')));
        }
        QTest::addRow("trainyard") << QStringLiteral("trainyard") << console.out << QStringList();
        QTest::addRow("trainyard-executor") << QStringLiteral("trainyard-executor") << executor.out << QStringList();
        QTest::addRow("trainyardctl") << QStringLiteral("trainyardctl") << ctlHelps << commands;
    }

    void manPage()
    {
        QFETCH(QString, page);
        QFETCH(QString, help);
        QFETCH(QStringList, commands);
        const QString text = formatted(page);
        QVERIFY2(!text.isEmpty(), qPrintable(page));
        const QSet<QString> options = mentionedOptions(help);
        QVERIFY(options.size() >= 4);
        for (const QString& option : options)
            QVERIFY2(text.contains(QStringLiteral("--") + option), qPrintable(page + QStringLiteral(": --") + option));
        // trainyardctl's page has a subsection per command, under its words.
        for (const QString& command : commands)
            QVERIFY2(text.contains(QStringLiteral("\n   ") + command + QLatin1Char('\n')), qPrintable(command));
        // The compressed page the package installs is this one.
        QVERIFY(QFile::exists(manpagesDir() + QLatin1Char('/') + page + QStringLiteral(".1.gz")));
    }
};

QTEST_GUILESS_MAIN(TestManPages)
#include "tst_manpages.moc"
