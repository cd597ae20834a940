// SPDX-License-Identifier: GPL-2.0-or-later
#include "ctlsession.h"

#include "accountstore.h"
#include "argparser.h"

#include "executorlocator.h"
#include "executortrust.h"
#include "printer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <unistd.h>

namespace Trainyard {

CtlSession::CtlSession(QTextStream& out, QTextStream& err)
    : m_out(out)
    , m_err(err)
{
}

CtlSession::~CtlSession() = default;

bool CtlSession::takeGlobalFlags(QStringList* args, QString* error)
{
    static const QStringList globals { QStringLiteral("executor"), QStringLiteral("project"), QStringLiteral("format"),
        QStringLiteral("token-file"), QStringLiteral("pin-sha256"), QStringLiteral("ca-file"),
        QStringLiteral("verbosity"), QStringLiteral("account"), QStringLiteral("configuration") };
    QStringList kept;
    for (qsizetype i = 0; i < args->size(); ++i) {
        const QString& a = args->at(i);
        if (a == QLatin1String("--")) {
            kept.append(args->mid(i));
            break;
        }
        // gcloud's global switches: --quiet (-q) answers every prompt with its default (here: no prompt is shown),
        // --log-http prints each request and answer (the token redacted) on stderr.
        if (a == QLatin1String("--quiet") || a == QLatin1String("-q")) {
            m_quiet = true;
            continue;
        }
        if (a == QLatin1String("--log-http") || a == QLatin1String("--log-http=true")) {
            m_logHttp = true;
            continue;
        }
        if (a == QLatin1String("--log-http=false") || a == QLatin1String("--no-log-http")) {
            m_logHttp = false;
            continue;
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
        else if (name == QLatin1String("token-file"))
            m_tokenFile = value;
        else if (name == QLatin1String("pin-sha256"))
            m_pinSha256 = value;
        else if (name == QLatin1String("ca-file"))
            m_caFile = value;
        else if (name == QLatin1String("verbosity")) {
            // gcloud's levels; trainyardctl prints warnings and errors whatever the level.
            static const QStringList levels { QStringLiteral("critical"), QStringLiteral("debug"),
                QStringLiteral("error"), QStringLiteral("info"), QStringLiteral("none"), QStringLiteral("warning") };
            if (!levels.contains(value)) {
                *error = QStringLiteral("argument --verbosity: Invalid choice: '%1'. Valid choices are [%2].")
                             .arg(value, levels.join(QStringLiteral(", ")));
                return false;
            }
        } else if (name == QLatin1String("account")) {
            m_account = value;
        } else if (name == QLatin1String("configuration")) {
            notice(QStringLiteral("--configuration is accepted and not used: trainyardctl has no gcloud "
                                  "configurations; the executor and project come from --executor and --project."));
        } else {
            m_formatSpec = value.trimmed();
            // The format's name: what a command's own printer and the checks compare.
            qsizetype end = 0;
            while (end < m_formatSpec.size() && (m_formatSpec.at(end).isLetterOrNumber() || m_formatSpec.at(end) == QLatin1Char('-')))
                ++end;
            m_format = m_formatSpec.left(end).toLower();
            m_resourceFormat.reset();
        }
    }
    *args = kept;
    return true;
}

void CtlSession::notice(const QString& text)
{
    m_err << "WARNING: " << text << '\n';
    m_err.flush();
}

ApiClient* CtlSession::client(const QString& command)
{
    if (m_client)
        return m_client.get();
    ExecutorLocator locator;
    locator.setExplicitUrl(m_executorUrl);
    // Team mode (README "Team mode"): the token from a file or TRAINYARD_TOKEN (never a flag: `ps` shows those),
    // the certificate checked against a pin or a CA file.
    if (!m_tokenFile.isEmpty()) {
        QFile file(m_tokenFile);
        if (!file.open(QIODevice::ReadOnly)) {
            printError(
                command, QStringLiteral("--token-file %1: cannot read it: %2").arg(m_tokenFile, file.errorString()));
            return nullptr;
        }
        const QByteArray token = file.readAll().trimmed();
        if (token.isEmpty()) {
            printError(command, QStringLiteral("--token-file %1: the file is empty").arg(m_tokenFile));
            return nullptr;
        }
        locator.setExplicitToken(token);
    }
    // The account's token, which also goes to this user's own executor (found by its runtime file, whose admin
    // token only says it is alive).
    QByteArray accountToken;
    if (!m_account.isEmpty() && m_tokenFile.isEmpty()) {
        // gcloud's --account: the token kept for that account (auth activate-token), for --executor's URL or any.
        const QString url = m_executorUrl.isEmpty() ? qEnvironmentVariable("TRAINYARD_EXECUTOR") : m_executorUrl;
        const std::optional<AccountStore::Account> kept = AccountStore().find(m_account, url);
        if (!kept) {
            printError(command,
                QStringLiteral("--account %1: no token is kept for this account%2; keep one with: trainyardctl auth "
                               "activate-token %1 --token-file=FILE")
                    .arg(m_account, url.isEmpty() ? QString() : QStringLiteral(" and %1").arg(url)));
            return nullptr;
        }
        if (url.isEmpty() && !kept->executor.isEmpty())
            locator.setExplicitUrl(kept->executor);
        locator.setExplicitToken(kept->token);
        accountToken = kept->token;
    }
    TlsTrust trust;
    if (!m_pinSha256.isEmpty() && !m_caFile.isEmpty()) {
        printError(command,
            QStringLiteral("give --pin-sha256 or --ca-file, not both: a pin accepts its certificate "
                           "whoever signed it, a CA file any certificate that CA signed"));
        return nullptr;
    }
    if (!m_pinSha256.isEmpty()) {
        trust.pinSha256 = TlsTrust::normalizeSha256(m_pinSha256);
        if (trust.pinSha256.isEmpty()) {
            printError(command,
                QStringLiteral("--pin-sha256 %1: expected a SHA-256 fingerprint, 64 hex digits (colons allowed)")
                    .arg(m_pinSha256));
            return nullptr;
        }
        trust.pinSource = QStringLiteral("--pin-sha256");
    }
    if (!m_caFile.isEmpty()) {
        QString problem;
        if (!TlsTrust::loadCaFile(m_caFile, &trust, &problem)) {
            printError(command, problem);
            return nullptr;
        }
    }
    if ((!trust.pinSha256.isEmpty() || !trust.caFile.isEmpty())
        && !QUrl(m_executorUrl.isEmpty() ? qEnvironmentVariable("TRAINYARD_EXECUTOR") : m_executorUrl)
                .scheme()
                .startsWith(QLatin1String("https"))) {
        printError(command,
            QStringLiteral("--pin-sha256 and --ca-file need an https executor (--executor https://HOST:PORT)"));
        return nullptr;
    }
    locator.setExplicitTrust(trust);
    QObject::connect(&locator, &ExecutorLocator::starting,
        [this](const QString& binary) { m_err << "Starting the executor (" << binary << ")..." << Qt::endl; });
    QString error;
    ExecutorEndpoint endpoint = locator.locateBlocking(&error);
    if (!endpoint.isValid() && askToTrust(&trust)) {
        locator.setExplicitTrust(trust);
        endpoint = locator.locateBlocking(&error);
    }
    if (!endpoint.isValid()) {
        printError(command, error);
        return nullptr;
    }
    m_executorDataDir = endpoint.dataDir;
    if (!accountToken.isEmpty())
        endpoint.token = accountToken;
    m_client = std::make_unique<ApiClient>(endpoint.url, endpoint.token);
    m_client->setTlsTrust(endpoint.trust);
    if (m_logHttp) {
        m_client->setHttpLog([this](const QString& text) {
            m_err << text << '\n';
            m_err.flush();
        });
    }
    m_client->setProject(m_project);
    if (!trust.pinSha256.isEmpty()) {
        // The user accepted this certificate: later runs check it without the flag, as ssh's known_hosts.
        KnownExecutors known;
        if (known.lookup(endpoint.url) != trust.pinSha256) {
            QString problem;
            if (known.remember(endpoint.url, trust.pinSha256, &problem))
                m_err << "Pinned the certificate of " << KnownExecutors::key(endpoint.url) << " (SHA-256 "
                      << trust.pinSha256 << ") in " << known.path() << Qt::endl;
            else
                m_err << "WARNING: cannot remember the pinned certificate: " << problem << Qt::endl;
        }
    }
    return m_client.get();
}

bool CtlSession::askToTrust(TlsTrust* trust)
{
    // ssh's first-use question, asked only of a person at a terminal (never with --quiet, gcloud's "no prompts");
    // scripts get the error with the fingerprint and --pin-sha256 instead.
    const QUrl url(m_executorUrl.isEmpty() ? qEnvironmentVariable("TRAINYARD_EXECUTOR") : m_executorUrl);
    if (m_quiet || url.scheme() != QLatin1String("https") || !trust->pinSha256.isEmpty() || !trust->caFile.isEmpty()
        || !KnownExecutors().lookup(url).isEmpty() || !::isatty(STDIN_FILENO) || !::isatty(STDERR_FILENO))
        return false;
    PresentedCertificate presented;
    QString problem;
    if (!CertificateProbe::fetchBlocking(url.host(), quint16(url.port(443)), &presented, &problem)
        || presented.errors.isEmpty())
        return false; // unreachable, or trusted by the system's CAs: the locator's error stands
    m_err << "The authenticity of executor '" << KnownExecutors::key(url) << "' can't be established.\n"
          << presented.describe() << "\nAre you sure you want to trust this certificate and continue connecting "
          << "(yes/no/[fingerprint])? " << Qt::flush;
    QFile in;
    if (!in.open(STDIN_FILENO, QIODevice::ReadOnly))
        return false;
    const QString answer = QString::fromLocal8Bit(in.readLine()).trimmed();
    if (answer.compare(QLatin1String("yes"), Qt::CaseInsensitive) != 0
        && TlsTrust::normalizeSha256(answer) != presented.sha256()) {
        m_err << "Certificate not accepted." << Qt::endl;
        return false;
    }
    trust->pinSha256 = presented.sha256();
    trust->pinSource = QStringLiteral("the certificate you accepted");
    return true;
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

bool CtlSession::printsResources() const
{
    if (m_formatSpec.isEmpty())
        return false;
    return !(m_format == QLatin1String("table") && m_formatSpec.size() == m_format.size());
}

const ResourceFormat* CtlSession::resourceFormat(QString* error)
{
    if (!m_resourceFormat && !m_formatSpec.isEmpty()) {
        m_resourceFormat = ResourceFormat::parse(m_formatSpec, error, formatContext());
        if (!m_resourceFormat)
            return nullptr;
    }
    return m_resourceFormat ? &*m_resourceFormat : nullptr;
}

ResourceFormat::Context CtlSession::formatContext() const
{
    ResourceFormat::Context context;
    context.uriOf = [this](const QJsonValue& resource) {
        // The resource's REST name under the executor's URL, as gcloud's uri() gives the service's self link; a job
        // has no name field, so its path is made from its jobId.
        const QJsonObject o = resource.toObject();
        QString path = o.value(QStringLiteral("name")).toString();
        if (!path.startsWith(QLatin1String("projects/")) && o.contains(QLatin1String("jobId")))
            path = QStringLiteral("projects/%1/jobs/%2").arg(m_project, o.value(QStringLiteral("jobId")).toString());
        if (path.isEmpty())
            return QString();
        QString base = m_client ? m_client->baseUrl().toString() : m_executorUrl;
        while (base.endsWith(QLatin1Char('/')))
            base.chop(1);
        return QString(base + QStringLiteral("/v1/") + path);
    };
    return context;
}

bool CtlSession::checkFormat(const ArgParser& parser, const QStringList& allowed)
{
    if (m_format.isEmpty() || (allowed.contains(m_format) && m_formatSpec.size() == m_format.size()))
        return true;
    // A command that prints its resources (it offers yaml) takes the whole format language; one with a format of its
    // own (jobs metrics: csv or json rows) takes only those.
    const bool printsOwnResources = allowed.contains(QLatin1String("yaml"));
    if (printsOwnResources) {
        QString error;
        if (resourceFormat(&error))
            return true;
        if (!error.isEmpty()) {
            m_err << parser.usageError(QStringLiteral("argument --format: %1").arg(error));
            return false;
        }
    }
    m_err << parser.usageError(QStringLiteral("argument --format: Invalid choice: '%1'. Valid choices are [%2].")
                                   .arg(m_format, allowed.join(QStringLiteral(", "))));
    return false;
}

void CtlSession::printResource(const QJsonValue& resource)
{
    QString error;
    const ResourceFormat* format = printsResources() ? resourceFormat(&error) : nullptr;
    if (format && !format->isPlain())
        m_out << format->renderOne(resource);
    else if (m_format == QLatin1String("json"))
        m_out << (resource.isArray() ? QJsonDocument(resource.toArray()) : QJsonDocument(resource.toObject()))
                     .toJson(QJsonDocument::Indented);
    else
        m_out << Printer::toYaml(resource);
    m_out.flush();
}

void CtlSession::printResources(const QJsonArray& resources)
{
    QString error;
    const ResourceFormat* format = printsResources() ? resourceFormat(&error) : nullptr;
    if (format && !format->isPlain()) {
        m_out << format->renderList(resources);
    } else if (m_format == QLatin1String("json")) {
        m_out << QJsonDocument(resources).toJson(QJsonDocument::Indented);
    } else {
        for (qsizetype i = 0; i < resources.size(); ++i) {
            if (i > 0)
                m_out << "---\n";
            m_out << Printer::toYaml(resources.at(i));
        }
    }
    m_out.flush();
}

void CtlSession::printList(const QJsonArray& resources, const QString& defaultFormat, const ListDisplay& display,
    const QHash<QString, ResourceFormat::Transform>& transforms)
{
    const QJsonArray shown = display.apply(resources);
    if (display.uri) {
        const ResourceFormat::Context context = formatContext();
        for (const QJsonValue& r : shown)
            m_out << context.uriOf(r) << '\n';
        m_out.flush();
        return;
    }
    if (printsResources()) {
        printResources(shown);
        if (shown.isEmpty() && m_format == QLatin1String("table")) {
            m_err << "Listed 0 items.\n";
            m_err.flush();
        }
        return;
    }
    if (shown.isEmpty()) {
        m_err << "Listed 0 items.\n";
        m_err.flush();
        return;
    }
    ResourceFormat::Context context = formatContext();
    context.extraTransforms = transforms;
    QString error;
    const std::optional<ResourceFormat> format = ResourceFormat::parse(defaultFormat, &error, context);
    Q_ASSERT_X(format, "printList", qPrintable(error)); // a command's own default format always parses
    if (format)
        m_out << format->renderList(shown);
    m_out.flush();
}

} // namespace Trainyard
