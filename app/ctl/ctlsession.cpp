// SPDX-License-Identifier: GPL-2.0-or-later
#include "ctlsession.h"

#include "argparser.h"

#include "executorlocator.h"
#include "printer.h"

namespace Trainyard {

CtlSession::CtlSession(QTextStream& out, QTextStream& err)
    : m_out(out)
    , m_err(err)
{
}

CtlSession::~CtlSession() = default;

bool CtlSession::takeGlobalFlags(QStringList* args, QString* error)
{
    static const QStringList globals { QStringLiteral("executor"), QStringLiteral("project"),
        QStringLiteral("format") };
    QStringList kept;
    for (qsizetype i = 0; i < args->size(); ++i) {
        const QString& a = args->at(i);
        if (a == QLatin1String("--")) {
            kept.append(args->mid(i));
            break;
        }
        QString name;
        QString value;
        bool matched = false;
        for (const QString& g : globals) {
            const QString flag = QStringLiteral("--") + g;
            if (a == flag) {
                if (i + 1 >= args->size() || args->at(i + 1).startsWith(QLatin1String("--"))) {
                    *error = QStringLiteral("argument %1: expected one argument").arg(flag);
                    return false;
                }
                name = g;
                value = args->at(++i);
                matched = true;
            } else if (a.startsWith(flag + QLatin1Char('='))) {
                name = g;
                value = a.mid(flag.size() + 1);
                matched = true;
            }
            if (matched)
                break;
        }
        if (!matched) {
            kept.append(a);
            continue;
        }
        if (name == QLatin1String("executor"))
            m_executorUrl = value;
        else if (name == QLatin1String("project"))
            m_project = value;
        else
            m_format = value.trimmed().toLower();
    }
    *args = kept;
    return true;
}

ApiClient* CtlSession::client(const QString& command)
{
    if (m_client)
        return m_client.get();
    ExecutorLocator locator;
    locator.setExplicitUrl(m_executorUrl);
    QObject::connect(&locator, &ExecutorLocator::starting,
        [this](const QString& binary) { m_err << "Starting the executor (" << binary << ")..." << Qt::endl; });
    QString error;
    const ExecutorEndpoint endpoint = locator.locateBlocking(&error);
    if (!endpoint.isValid()) {
        printError(command, error);
        return nullptr;
    }
    m_client = std::make_unique<ApiClient>(endpoint.url, endpoint.token);
    m_client->setProject(m_project);
    return m_client.get();
}

void CtlSession::printApiError(const QString& command, const ApiError& error)
{
    m_err << "ERROR: (" << command << ") " << error.summary() << '\n';
    if (!error.violations.isEmpty()) {
        // gcloud prints the error details as YAML (core/exceptions HttpException, `{details}`).
        m_err << "- '@type': type.googleapis.com/google.rpc.BadRequest\n  fieldViolations:\n";
        for (const FieldViolation& v : error.violations) {
            m_err << "  - description: " << Printer::yamlScalar(v.description) << '\n'
                  << "    field: " << Printer::yamlScalar(v.field) << '\n';
        }
    }
    m_err.flush();
}

void CtlSession::printError(const QString& command, const QString& message)
{
    m_err << "ERROR: (" << command << ") " << message << Qt::endl;
}

int CtlSession::usage(const ArgParser& parser)
{
    if (parser.helpRequested()) {
        m_out << parser.helpText();
        m_out.flush();
        return ExitCode::Ok;
    }
    m_err << parser.usageError(parser.errorText());
    m_err.flush();
    return ExitCode::Usage;
}

bool CtlSession::checkFormat(const ArgParser& parser, const QStringList& allowed)
{
    if (m_format.isEmpty() || allowed.contains(m_format))
        return true;
    m_err << parser.usageError(QStringLiteral("argument --format: Invalid choice: '%1'. Valid choices are [%2].")
                                   .arg(m_format, allowed.join(QStringLiteral(", "))));
    return false;
}

} // namespace Trainyard
