// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// gcloud-style argument parsing for one verb: `--flag VALUE`, `--flag=VALUE`, boolean `--flag`
/// (also `--flag=true|false`), positionals, and `--` after which every argument is a user argument passed
/// through verbatim (gcloud's `[-- USER_ARGS ...]`). QCommandLineParser is not used because it treats
/// `--` and single-dash options differently from gcloud and cannot keep the user args untouched.
///
/// Errors are usage errors (exit 2) with gcloud's wording: "unrecognized arguments: --x",
/// "argument --worker-count: expected one argument", "argument JOB: Must be specified.".
class ArgParser {
public:
    /// `command` is the dotted command path used in messages ("trainyardctl.jobs.submit.training"),
    /// `usage` the synopsis ("trainyardctl jobs submit training JOB [optional flags] [-- USER_ARGS ...]").
    ArgParser(const QString& command, const QString& usage, const QString& description);

    void addFlag(const QString& name, const QString& valueName, const QString& help);
    void addSwitch(const QString& name, const QString& help);
    void addPositional(const QString& name, const QString& help, bool required = true);
    /// Accept `-- USER_ARGS ...`.
    void allowUserArgs(const QString& help);

    /// Parses; false on a usage error (errorText() says why) or when --help was given (helpRequested()).
    bool parse(const QStringList& args);

    bool helpRequested() const { return m_help; }
    QString errorText() const { return m_error; }
    bool isSet(const QString& name) const { return m_values.contains(name); }
    /// True when a flag or switch of this name was added.
    bool hasOption(const QString& name) const { return option(name) != nullptr; }
    QString value(const QString& name) const { return m_values.value(name); }
    /// A boolean switch: set and not "false".
    bool isTrue(const QString& name) const;
    QString positional(const QString& name) const { return m_positionals.value(name); }
    QStringList userArgs() const { return m_userArgs; }

    /// The full --help text.
    QString helpText() const;
    /// gcloud's usage-error block: "ERROR: (cmd) <error>\nUsage: …\n…".
    QString usageError(const QString& error) const;
    QString command() const { return m_command; }

    /// Parses an integer flag value ≥ `minimum`; sets *error ("argument --x: …") on failure.
    static bool parseInt(const QString& flag, const QString& text, int minimum, int* out, QString* error);
    /// Parses `k=v,k2=v2` (gcloud's ArgDict); sets *error on a malformed item.
    static bool parseDict(const QString& flag, const QString& text, QMap<QString, QString>* out, QString* error);

private:
    struct Option {
        QString name;
        QString valueName; ///< empty for switches
        QString help;
    };
    struct Positional {
        QString name;
        QString help;
        bool required;
    };
    const Option* option(const QString& name) const;

    QString m_command;
    QString m_usage;
    QString m_description;
    QList<Option> m_options;
    QList<Positional> m_positionalSpecs;
    QString m_userArgsHelp;
    bool m_allowUserArgs = false;

    bool m_help = false;
    QString m_error;
    QMap<QString, QString> m_values;
    QMap<QString, QString> m_positionals;
    QStringList m_userArgs;
};

} // namespace Trainyard
