// SPDX-License-Identifier: GPL-2.0-or-later
#include "argparser.h"

#include "gcloudflags.h"

namespace Trainyard {

ArgParser::ArgParser(const QString& command, const QString& usage, const QString& description)
    : m_command(command)
    , m_usage(usage)
    , m_description(description)
{
}

void ArgParser::addFlag(const QString& name, const QString& valueName, const QString& help)
{
    m_options.append({ name, valueName, help });
}

void ArgParser::addSwitch(const QString& name, const QString& help)
{
    m_options.append({ name, QString(), help });
}

void ArgParser::addPositional(const QString& name, const QString& help, bool required)
{
    m_positionalSpecs.append({ name, help, required });
}

void ArgParser::allowUserArgs(const QString& help)
{
    m_allowUserArgs = true;
    m_userArgsHelp = help;
}

const ArgParser::Option* ArgParser::option(const QString& name) const
{
    for (const Option& o : m_options) {
        if (o.name == name)
            return &o;
    }
    return nullptr;
}

bool ArgParser::isTrue(const QString& name) const
{
    if (!m_values.contains(name))
        return false;
    const QString v = m_values.value(name).toLower();
    return v != QLatin1String("false") && v != QLatin1String("0") && v != QLatin1String("no");
}

bool ArgParser::parse(const QStringList& args)
{
    m_values.clear();
    m_positionals.clear();
    m_userArgs.clear();
    m_error.clear();
    m_help = false;
    QStringList unrecognized;
    qsizetype positionalIndex = 0;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args.at(i);
        if (arg == QLatin1String("--")) {
            if (!m_allowUserArgs) {
                unrecognized.append(args.mid(i));
                break;
            }
            m_userArgs = args.mid(i + 1);
            break;
        }
        if (arg == QLatin1String("--help") || arg == QLatin1String("-h")) {
            m_help = true;
            return false;
        }
        if (arg.startsWith(QLatin1String("--"))) {
            const qsizetype eq = arg.indexOf(QLatin1Char('='));
            const QString name = arg.mid(2, eq < 0 ? -1 : eq - 2);
            const Option* o = option(name);
            if (!o) {
                unrecognized.append(arg);
                continue;
            }
            if (o->valueName.isEmpty()) {
                const QString v = eq < 0 ? QStringLiteral("true") : arg.mid(eq + 1).toLower();
                if (v != QLatin1String("true") && v != QLatin1String("false")) {
                    m_error = QStringLiteral("argument --%1: Invalid flag value [%2], expected one of [true, false]")
                                  .arg(name, arg.mid(eq + 1));
                    return false;
                }
                m_values.insert(name, v);
                continue;
            }
            QString v;
            if (eq >= 0) {
                v = arg.mid(eq + 1);
            } else if (i + 1 < args.size() && args.at(i + 1) != QLatin1String("--")
                && !(args.at(i + 1).startsWith(QLatin1String("--")) && args.at(i + 1).size() > 2)) {
                v = args.at(++i);
            } else {
                m_error = QStringLiteral("argument --%1: expected one argument").arg(name);
                return false;
            }
            m_values.insert(name, v);
            continue;
        }
        if (positionalIndex < m_positionalSpecs.size()) {
            m_positionals.insert(m_positionalSpecs.at(positionalIndex++).name, arg);
            continue;
        }
        unrecognized.append(arg);
    }
    if (!unrecognized.isEmpty()) {
        m_error = QStringLiteral("unrecognized arguments: ") + unrecognized.join(QLatin1Char(' '));
        return false;
    }
    for (; positionalIndex < m_positionalSpecs.size(); ++positionalIndex) {
        if (m_positionalSpecs.at(positionalIndex).required) {
            m_error = QStringLiteral("argument %1: Must be specified.").arg(m_positionalSpecs.at(positionalIndex).name);
            return false;
        }
    }
    return true;
}

QString ArgParser::helpText() const
{
    QString text = QStringLiteral("NAME\n    ") + QString(m_command).replace(QLatin1Char('.'), QLatin1Char(' '))
        + QStringLiteral(" - ") + m_description.section(QLatin1Char('\n'), 0, 0) + QStringLiteral("\n\nSYNOPSIS\n    ")
        + m_usage + QStringLiteral("\n");
    const QString rest = m_description.section(QLatin1Char('\n'), 1).trimmed();
    if (!rest.isEmpty()) {
        text += QStringLiteral("\nDESCRIPTION\n");
        const QStringList lines = rest.split(QLatin1Char('\n'));
        for (const QString& line : lines)
            text += (line.isEmpty() ? QString() : QStringLiteral("    ") + line) + QLatin1Char('\n');
    }
    if (!m_positionalSpecs.isEmpty()) {
        text += QStringLiteral("\nPOSITIONAL ARGUMENTS\n");
        for (const Positional& p : m_positionalSpecs)
            text += QStringLiteral("    ") + p.name + QStringLiteral("\n        ") + p.help + QLatin1Char('\n');
    }
    text += QStringLiteral("\nFLAGS\n");
    for (const Option& o : m_options) {
        text += QStringLiteral("    --") + o.name + (o.valueName.isEmpty() ? QString() : QLatin1Char('=') + o.valueName)
            + QStringLiteral("\n        ") + QString(o.help).replace(QLatin1Char('\n'), QStringLiteral("\n        "))
            + QLatin1Char('\n');
    }
    text += QStringLiteral(
        "\nGLOBAL FLAGS\n    --executor=URL\n        The executor to talk to (default: the "
        "running one, started when none answers; or $TRAINYARD_EXECUTOR).\n    --project=PROJECT\n"
        "        The project (default: local).\n    --format=FORMAT\n        gcloud's format language: json, yaml, "
        "table, value, csv, get or list, with [attributes] (no-heading, separator=, box, title=) and a "
        "(projection) of keys (a.b[0].c, a[].b) and transforms (date, duration, len, join, yesno, basename, format, "
        "sort, limit, list, firstof, lower, upper, uri), e.g. 'value(jobId,state)' or "
        "'table(jobId,createTime.date(\"%Y-%m-%d\"))'. Not here: flattened, config, diff, several formats at "
        "once, if().\n    --token-file=FILE\n        The bearer token for "
        "--executor (default: $TRAINYARD_TOKEN; for a loopback executor, its token file).\n"
        "    --pin-sha256=SHA256\n        Accept the https executor's certificate with this SHA-256 "
        "fingerprint and remember it in $XDG_CONFIG_HOME/trainyard/known_executors.\n"
        "    --ca-file=FILE\n        Verify the https executor's certificate against the CA "
        "certificates in this PEM file.\n    --quiet\n        Show no prompt, as gcloud's -q (a first-use "
        "certificate question is an error instead).\n    --log-http\n        Print each request and answer on "
        "stderr, the token redacted.\n    --verbosity=LEVEL\n        Accepted as gcloud's (critical, debug, error, "
        "info, none, warning); warnings and errors are always printed.\n    --account=ACCOUNT\n        Act as this "
        "account: the token kept for it by auth activate-token.\n    --configuration=CONFIGURATION\n        "
        "Accepted and not used, with a warning: --executor and --project choose.\n    --help\n        Display this "
        "help.\n");
    if (m_allowUserArgs)
        text += QStringLiteral("\n    -- USER_ARGS ...\n        ") + m_userArgsHelp + QLatin1Char('\n');
    return text;
}

QString ArgParser::usageError(const QString& error) const
{
    return QStringLiteral("ERROR: (") + m_command + QStringLiteral(") ") + error + QStringLiteral("\nUsage: ") + m_usage
        + QStringLiteral("\n\nFor detailed information on this command and its flags, run:\n  ")
        + QString(m_command).replace(QLatin1Char('.'), QLatin1Char(' ')) + QStringLiteral(" --help\n");
}

bool ArgParser::parseInt(const QString& flag, const QString& text, int minimum, int* out, QString* error)
{
    return GcloudFlags::parseInt(flag, text, minimum, out, error);
}

bool ArgParser::parseDict(const QString& flag, const QString& text, QMap<QString, QString>* out, QString* error)
{
    return GcloudFlags::parseDict(flag, text, out, error);
}

} // namespace Trainyard
