// SPDX-License-Identifier: GPL-2.0-or-later
#include "authcommands.h"

#include "accessclient.h"
#include "accountstore.h"
#include "argparser.h"
#include "ctlsession.h"
#include "printer.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>

namespace Trainyard {

std::optional<qint64> AuthCommands::parseExpires(const QString& text)
{
    if (text.size() < 2)
        return std::nullopt;
    static const QHash<QChar, qint64> units { { QLatin1Char('s'), 1 }, { QLatin1Char('m'), 60 },
        { QLatin1Char('h'), 3600 }, { QLatin1Char('d'), 86400 }, { QLatin1Char('w'), 7 * 86400 } };
    const auto unit = units.constFind(text.back().toLower());
    if (unit == units.cend())
        return std::nullopt;
    bool ok = false;
    const qint64 count = text.chopped(1).toLongLong(&ok);
    // Up to about 100 years: beyond that a token should simply not expire (leave --expires out).
    if (!ok || count <= 0 || count > 100LL * 366 * 86400 / *unit)
        return std::nullopt;
    return count * *unit;
}

int AuthCommands::createToken(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.auth.tokens.create");
    ArgParser p(command,
        QStringLiteral("trainyardctl auth tokens create --member=MEMBER --role=ROLE [--expires=DURATION]"),
        QStringLiteral("create an access token\nThe token authenticates MEMBER and grants ROLE on every project of "
                       "the executor. It is printed once (only its hash is kept): give it to its holder, who sends "
                       "it as \"Authorization: Bearer TOKEN\". Only the executor's admin may create tokens."));
    p.addFlag(QStringLiteral("member"), QStringLiteral("MEMBER"),
        QStringLiteral("The principal, as IAM writes it: user:EMAIL or serviceAccount:EMAIL."));
    p.addFlag(QStringLiteral("role"), QStringLiteral("ROLE"),
        QStringLiteral("roles/ml.admin, roles/ml.developer (create jobs; cancel and update its own) or "
                       "roles/ml.viewer (read only)."));
    p.addFlag(QStringLiteral("expires"), QStringLiteral("DURATION"),
        QStringLiteral("Lifetime: 30s, 10m, 12h, 7d, 2w (default: never expires)."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    for (const QString& required : { QStringLiteral("member"), QStringLiteral("role") }) {
        if (p.value(required).isEmpty()) {
            s.err() << p.usageError(QStringLiteral("argument --%1: Must be specified.").arg(required));
            return ExitCode::Usage;
        }
    }
    QDateTime expireTime; // invalid: never
    if (p.isSet(QStringLiteral("expires"))) {
        const std::optional<qint64> seconds = parseExpires(p.value(QStringLiteral("expires")));
        if (!seconds) {
            s.err() << p.usageError(QStringLiteral("argument --expires: Failed to parse duration: '%1'; expected a "
                                                   "number and a unit (s, m, h, d, w), such as 7d.")
                                        .arg(p.value(QStringLiteral("expires"))));
            return ExitCode::Usage;
        }
        expireTime = QDateTime::currentDateTimeUtc().addSecs(*seconds);
    }
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    const ApiResult<AccessToken> r = AccessClient(client).createTokenBlocking(
        p.value(QStringLiteral("member")), p.value(QStringLiteral("role")), expireTime);
    if (!r.ok()) {
        s.printApiError(command, r.error);
        return ExitCode::Error;
    }
    const AccessToken& token = r.value;
    if (s.printsResources())
        s.printResource(token.toJson());
    else
        s.out() << token.token << '\n';
    s.err() << "Created token [" << token.name << "] for [" << token.member << "] with role [" << token.role << "], "
            << (token.expireTime.isValid() ? QStringLiteral("expiring %1").arg(Printer::localDate(token.expireTime))
                                           : QStringLiteral("never expiring"))
            << ".\nThis is the only time the token is shown; it cannot be read back.\n";
    s.out().flush();
    s.err().flush();
    return ExitCode::Ok;
}

int AuthCommands::listTokens(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.auth.tokens.list");
    ArgParser p(command, QStringLiteral("trainyardctl auth tokens list"),
        QStringLiteral("list access tokens\nEvery token made with 'auth tokens create', oldest first, revoked and "
                       "expired ones included; never the tokens themselves."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    const ApiResult<QList<AccessToken>> r = AccessClient(client).listTokensBlocking();
    if (!r.ok()) {
        s.printApiError(command, r.error);
        return ExitCode::Error;
    }
    const QList<AccessToken>& tokens = r.value;
    if (s.printsResources()) {
        s.printResources(tokens);
    } else if (tokens.isEmpty()) {
        s.err() << "Listed 0 items.\n";
    } else {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QList<QStringList> rows;
        for (const AccessToken& t : tokens) {
            rows.append({ t.id(), t.member, t.role, Printer::localDate(t.createTime),
                t.expireTime.isValid() ? Printer::localDate(t.expireTime) : QStringLiteral("never"),
                AccessToken::stateName(t.state(now)) });
        }
        s.out() << Printer::table({ QStringLiteral("NAME"), QStringLiteral("MEMBER"), QStringLiteral("ROLE"),
                                      QStringLiteral("CREATED"), QStringLiteral("EXPIRES"), QStringLiteral("STATE") },
            rows);
    }
    s.out().flush();
    s.err().flush();
    return ExitCode::Ok;
}

int AuthCommands::revokeToken(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.auth.tokens.revoke");
    ArgParser p(command, QStringLiteral("trainyardctl auth tokens revoke TOKEN"),
        QStringLiteral("revoke an access token\nFrom now on the token is refused (401 UNAUTHENTICATED); its record "
                       "stays in the list as REVOKED."));
    p.addPositional(QStringLiteral("TOKEN"), QStringLiteral("The token's NAME as 'auth tokens list' shows it."));
    if (!p.parse(args))
        return s.usage(p);
    ApiClient* client = s.client(command);
    if (!client)
        return ExitCode::Error;
    QString id = p.positional(QStringLiteral("TOKEN"));
    if (id.startsWith(QLatin1String("tokens/")))
        id = id.mid(7);
    const ApiResult<bool> r = AccessClient(client).revokeTokenBlocking(id);
    if (!r.ok()) {
        s.printApiError(command, r.error);
        return ExitCode::Error;
    }
    s.err() << "Revoked token [tokens/" << id << "].\n";
    s.err().flush();
    return ExitCode::Ok;
}

} // namespace Trainyard

namespace Trainyard {

int AuthCommands::activateToken(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.auth.activate-token");
    ArgParser p(command, QStringLiteral("trainyardctl auth activate-token ACCOUNT --token-file=FILE"),
        QStringLiteral("keep an account's token for --account\nAs gcloud's auth activate-service-account: the token "
                       "an executor's admin created for ACCOUNT (auth tokens create --member) is kept in "
                       "$XDG_CONFIG_HOME/trainyard/accounts.json (0600) for --executor's URL, or for any executor "
                       "without it; --account ACCOUNT then picks it on any command."));
    p.addPositional(QStringLiteral("ACCOUNT"), QStringLiteral("The account (alice@example.org, user:… or serviceAccount:…)."));
    // --token-file is the global flag (the token for --executor): here it names the token to keep.
    if (!p.parse(args))
        return s.usage(p);
    const QString path = s.tokenFile();
    if (path.isEmpty()) {
        s.err() << p.usageError(QStringLiteral("argument --token-file: Must be specified."));
        return ExitCode::Usage;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        s.printError(command, QStringLiteral("--token-file %1: cannot read it: %2").arg(path, file.errorString()));
        return ExitCode::Error;
    }
    const QByteArray token = file.readAll().trimmed();
    if (token.isEmpty()) {
        s.printError(command, QStringLiteral("--token-file %1: the file is empty").arg(path));
        return ExitCode::Error;
    }
    AccountStore store;
    QString error;
    const QString account = p.positional(QStringLiteral("ACCOUNT"));
    if (!store.put({ account, s.executorUrl(), token }, &error)) {
        s.printError(command, error);
        return ExitCode::Error;
    }
    s.err() << "Activated token for [" << AccountStore::bare(account) << "]"
            << (s.executorUrl().isEmpty() ? QString() : QStringLiteral(" on [%1]").arg(s.executorUrl())) << ".\n";
    s.err().flush();
    return ExitCode::Ok;
}

int AuthCommands::listAccounts(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.auth.list");
    ArgParser p(command, QStringLiteral("trainyardctl auth list"),
        QStringLiteral("list the accounts kept for --account\nAs gcloud's auth list: each account and the executor its "
                       "token is for (the tokens themselves are not shown)."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    QString error;
    const QList<AccountStore::Account> accounts = AccountStore().accounts(&error);
    if (!error.isEmpty()) {
        s.printError(command, error);
        return ExitCode::Error;
    }
    QJsonArray list;
    for (const AccountStore::Account& a : accounts)
        list << QJsonObject { { QStringLiteral("account"), AccountStore::bare(a.account) },
            { QStringLiteral("executor"), a.executor.isEmpty() ? QStringLiteral("any") : a.executor } };
    s.printList(list, QStringLiteral("table(account, executor)"), ListDisplay());
    return ExitCode::Ok;
}

int AuthCommands::revokeAccount(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.auth.revoke");
    ArgParser p(command, QStringLiteral("trainyardctl auth revoke ACCOUNT"),
        QStringLiteral("forget an account's kept tokens\nAs gcloud's auth revoke: the tokens stay valid on the executor "
                       "(its admin revokes them there: auth tokens revoke)."));
    p.addPositional(QStringLiteral("ACCOUNT"), QStringLiteral("The account."));
    if (!p.parse(args))
        return s.usage(p);
    QString error;
    const QString account = p.positional(QStringLiteral("ACCOUNT"));
    const int removed = AccountStore().remove(account, &error);
    if (removed < 0) {
        s.printError(command, error);
        return ExitCode::Error;
    }
    if (removed == 0) {
        s.printError(command, QStringLiteral("No credentials kept for [%1] (trainyardctl auth list).").arg(AccountStore::bare(account)));
        return ExitCode::Error;
    }
    s.err() << "Revoked credentials:\n - " << AccountStore::bare(account) << '\n';
    s.err().flush();
    return ExitCode::Ok;
}

} // namespace Trainyard
