// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apiclient.h"
#include "resourceformat.h"

#include <QJsonArray>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <memory>

namespace Trainyard {

class ArgParser;
struct TlsTrust;

/// Exit codes, as gcloud's: 0 success, 1 an error (API, I/O, a streamed job that did not succeed),
/// 2 a usage error (unknown flag, missing argument, bad flag value).
namespace ExitCode {
constexpr int Ok = 0;
constexpr int Error = 1;
constexpr int Usage = 2;
} // namespace ExitCode

/// What one trainyardctl invocation shares across its verbs: the global flags (`--executor`, `--project`,
/// `--format`, and for an https executor `--token-file`, `--pin-sha256`, `--ca-file`: README "Team mode"), the output
/// streams, and the API client connected on first use.
class CtlSession {
public:
    CtlSession(QTextStream& out, QTextStream& err);
    ~CtlSession();

    /// Removes the global flags (before any `--`) from `args` and remembers them: ours (`--executor`, `--project`,
    /// `--format`, `--token-file`, `--pin-sha256`, `--ca-file`) and gcloud's (`--quiet`/`-q`: no prompt is shown;
    /// `--log-http`: each request and answer on stderr, the token redacted; `--verbosity` LEVEL, checked and
    /// accepted; `--account` ACCOUNT, the token kept for it by `auth activate-token`; `--configuration`, accepted
    /// with a warning that it is not used here). Returns
    /// false and sets *error on a global flag without its value, or a --verbosity gcloud does not know.
    bool takeGlobalFlags(QStringList* args, QString* error);

    QString executorUrl() const { return m_executorUrl; }
    QString project() const { return m_project; }
    /// `--token-file` as given ("" when not).
    QString tokenFile() const { return m_tokenFile; }
    /// `--format`'s format name lower-cased ("json", "value" for `value(jobId)`; "" when not given).
    QString format() const { return m_format; }
    /// `--format` as given ("table(jobId,state)").
    QString formatSpec() const { return m_formatSpec; }
    /// True when the resources are to be printed through the format language (resourceformat.h): any --format but
    /// none or a bare `table`, which each command prints as its own default.
    bool printsResources() const;

    /// Finds or starts the executor and returns a client; nullptr after printing an error under `command`.
    ApiClient* client(const QString& command);
    /// Forgets the client, so that the next client() finds the executor again (after it restarted with a
    /// new address and token).
    void dropClient() { m_client.reset(); }
    /// The data folder of the executor client() found, when it found it through this user's runtime file (empty for
    /// an --executor URL): where that executor keeps its audit log, whose head it keeps in the runtime folder.
    QString executorDataDir() const { return m_executorDataDir; }

    /// gcloud's error output: `ERROR: (command) STATUS: message` and, when the error has field violations,
    /// the BadRequest details block as gcloud prints it.
    void printApiError(const QString& command, const ApiError& error);
    void printError(const QString& command, const QString& message);

    /// A verb's answer when its parser did not accept the arguments: the help text on stdout and ExitCode::Ok when
    /// --help was asked, else gcloud's usage error on stderr and ExitCode::Usage.
    int usage(const ArgParser& parser);
    /// True when --format is unset or one of `allowed`; a command that prints its resources (`allowed` holds yaml)
    /// takes every format of the format language (resourceformat.h) as well, checked here. Else
    /// prints gcloud's usage error ("argument --format: Invalid choice: 'x'. Valid choices are [a, b].", or the
    /// format's syntax error) and returns false.
    bool checkFormat(const ArgParser& parser, const QStringList& allowed);

    /// Prints one resource (a job, a policy, a region) as gcloud's `describe` does: indented JSON under
    /// `--format json`, else YAML (Printer::toYaml(): sorted keys, gcloud's quoting). Flushes.
    void printResource(const QJsonValue& resource);
    /// Prints a list of resources as gcloud's `list --format json|yaml` does: one indented JSON array under `json`,
    /// else one YAML document per resource, separated by `---` lines (nothing for an empty list). Flushes.
    void printResources(const QJsonArray& resources);
    /// A list verb's output, as gcloud's: `display` (--flatten, --sort-by, --limit, --uri) applied, then --format,
    /// or the command's `defaultFormat` (a format expression, with the command's own `transforms`) when none was
    /// given; "Listed 0 items." on stderr for an empty list under the default. Flushes.
    void printList(const QJsonArray& resources, const QString& defaultFormat, const ListDisplay& display,
        const QHash<QString, ResourceFormat::Transform>& transforms = {});
    /// Everything transforms need from this session: uri() as the executor's REST URL of a resource.
    ResourceFormat::Context formatContext() const;
    /// printResources() of wire types, each as its own toJson() writes it (models/: ModelResource, VersionResource,
    /// OperationResource, AccessToken, RegionInfo…), so that a command prints a typed list without handling JSON.
    template <typename Resource> void printResources(const QList<Resource>& resources)
    {
        QJsonArray array;
        for (const Resource& r : resources)
            array.append(r.toJson());
        printResources(array);
    }

    QTextStream& out() { return m_out; }

private:
    /// At a terminal (stdin and stderr), for an https executor with no pin, CA file or known_executors line whose
    /// certificate the system's CAs do not trust: shows the certificate and asks, as ssh does ("yes", or the
    /// fingerprint typed or pasted). True and `trust` pinned to it when the user accepts.
    bool askToTrust(TlsTrust* trust);
    /// A warning on stderr ("WARNING: …"), gcloud's way of saying a flag means nothing here.
    void notice(const QString& text);

public:
    QTextStream& err() { return m_err; }

private:
    QTextStream& m_out;
    QTextStream& m_err;
    QString m_executorUrl;
    QString m_project = QStringLiteral("local");
    QString m_format;
    QString m_formatSpec;
    /// The parsed --format, once checkFormat() or a print needed it.
    std::optional<ResourceFormat> m_resourceFormat;
    /// Parses --format on first use; nullptr (the error printed) when it does not parse.
    const ResourceFormat* resourceFormat(QString* error);
    QString m_tokenFile;
    QString m_pinSha256;
    QString m_caFile;
    bool m_quiet = false;
    bool m_logHttp = false;
    QString m_account; ///< --account: the kept token to use (AccountStore)
    std::unique_ptr<ApiClient> m_client;
    QString m_executorDataDir;
};

} // namespace Trainyard
