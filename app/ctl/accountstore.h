// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace Trainyard {

/// The accounts trainyardctl can act as, for gcloud's `--account`: each an account (the principal an executor's token
/// was created for: `alice@example.org`, or `user:…`/`serviceAccount:…`), the executor's URL ("" for whichever
/// executor the command finds) and that token. As gcloud keeps credentials in its configuration folder, they are in
/// `$XDG_CONFIG_HOME/trainyard/accounts.json` (a JSON array), the file 0600 in a 0700 folder, written whole through a
/// temporary file. Never a flag's value: `ps` shows those.
class AccountStore {
public:
    struct Account {
        QString account;
        QString executor;
        QByteArray token;
    };

    /// The store at `path` (default: accounts.json under QStandardPaths::GenericConfigLocation/trainyard).
    explicit AccountStore(QString path = {});

    QString path() const { return m_path; }
    /// Every account, in the order they were added; empty and *error when the file exists but cannot be read.
    QList<Account> accounts(QString* error = nullptr) const;
    /// The account's credential for `executorUrl` (an entry of that URL, else one for any executor); nullopt when
    /// there is none.
    std::optional<Account> find(const QString& account, const QString& executorUrl) const;
    /// Adds or replaces (same account and executor) an entry; false and *error when it cannot be written.
    bool put(const Account& account, QString* error);
    /// Removes the account's entries (every executor's); the number removed, -1 and *error on a write failure.
    int remove(const QString& account, QString* error);

    /// gcloud writes accounts without a prefix; an executor's members have one. "user:alice@x" → "alice@x".
    static QString bare(const QString& account);

private:
    bool write(const QList<Account>& accounts, QString* error);
    QString m_path;
};

} // namespace Trainyard
