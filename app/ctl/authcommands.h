// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QStringList>

#include <optional>

namespace Trainyard {

class CtlSession;

/// `trainyardctl auth tokens create|list|revoke`: the executor's access tokens (app/executor/API.md, "Access
/// tokens"), which only its admin (the holder of the token file, which trainyardctl uses) may manage. Exit codes
/// as ExitCode: 0, 1 on an API error, 2 on a usage error.
namespace AuthCommands {
/// `create --member=MEMBER --role=ROLE [--expires=DURATION]`: prints the new token (stdout, alone on its line,
/// the only time it is shown; `--format=json|yaml`: the whole record with `token`) and what it grants (stderr).
int createToken(CtlSession& s, const QStringList& args);
/// `list`: NAME, MEMBER, ROLE, CREATED, EXPIRES and STATE (ACTIVE, EXPIRED, REVOKED) of every token.
int listTokens(CtlSession& s, const QStringList& args);
/// `revoke TOKEN`: TOKEN is the ID of `list`'s NAME, with or without "tokens/".
int revokeToken(CtlSession& s, const QStringList& args);
/// `auth activate-token ACCOUNT --token-file=FILE`: keeps the account's token for --account (AccountStore).
int activateToken(CtlSession& s, const QStringList& args);
/// `auth list`: the accounts kept, as gcloud's auth list.
int listAccounts(CtlSession& s, const QStringList& args);
/// `auth revoke ACCOUNT`: forgets the account's kept tokens.
int revokeAccount(CtlSession& s, const QStringList& args);

/// Parses `--expires`: a positive whole number of seconds, minutes, hours, days or weeks ("30s", "10m", "12h",
/// "7d", "2w"), as gcloud's durations; returns seconds, nullopt when malformed.
std::optional<qint64> parseExpires(const QString& text);
} // namespace AuthCommands

} // namespace Trainyard
