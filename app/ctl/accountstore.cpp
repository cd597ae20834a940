// SPDX-License-Identifier: GPL-2.0-or-later
#include "accountstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace Trainyard {

AccountStore::AccountStore(QString path)
    : m_path(path.isEmpty()
              ? QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/trainyard/accounts.json")
              : std::move(path))
{
}

QString AccountStore::bare(const QString& account)
{
    for (const char* prefix : { "user:", "serviceAccount:" }) {
        if (account.startsWith(QLatin1String(prefix)))
            return account.mid(qstrlen(prefix));
    }
    return account;
}

QList<AccountStore::Account> AccountStore::accounts(QString* error) const
{
    QFile file(m_path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_path, file.errorString());
        return {};
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    if (!doc.isArray()) {
        if (error)
            *error = QStringLiteral("%1: not a JSON array of accounts (%2)").arg(m_path, parse.errorString());
        return {};
    }
    QList<Account> out;
    for (const QJsonValue& v : doc.array()) {
        const QJsonObject o = v.toObject();
        out << Account { o.value(QStringLiteral("account")).toString(), o.value(QStringLiteral("executor")).toString(),
            o.value(QStringLiteral("token")).toString().toUtf8() };
    }
    return out;
}

std::optional<AccountStore::Account> AccountStore::find(const QString& account, const QString& executorUrl) const
{
    std::optional<Account> anyExecutor;
    for (const Account& a : accounts()) {
        if (bare(a.account) != bare(account))
            continue;
        if (!executorUrl.isEmpty() && a.executor == executorUrl)
            return a;
        if (a.executor.isEmpty() || executorUrl.isEmpty())
            anyExecutor = anyExecutor ? anyExecutor : std::optional<Account>(a);
    }
    return anyExecutor;
}

bool AccountStore::put(const Account& account, QString* error)
{
    QString readError;
    QList<Account> all = accounts(&readError);
    if (!readError.isEmpty()) {
        *error = readError;
        return false;
    }
    all.erase(std::remove_if(all.begin(), all.end(),
                  [&](const Account& a) { return bare(a.account) == bare(account.account) && a.executor == account.executor; }),
        all.end());
    all << account;
    return write(all, error);
}

int AccountStore::remove(const QString& account, QString* error)
{
    QList<Account> all = accounts(error);
    const qsizetype before = all.size();
    all.erase(std::remove_if(all.begin(), all.end(), [&](const Account& a) { return bare(a.account) == bare(account); }),
        all.end());
    const int removed = int(before - all.size());
    if (removed && !write(all, error))
        return -1;
    return removed;
}

bool AccountStore::write(const QList<Account>& accounts, QString* error)
{
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create %1").arg(dir);
        return false;
    }
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QJsonArray array;
    for (const Account& a : accounts)
        array << QJsonObject { { QStringLiteral("account"), a.account }, { QStringLiteral("executor"), a.executor },
            { QStringLiteral("token"), QString::fromUtf8(a.token) } };
    QSaveFile file(m_path);
    // 0600 before a byte of a token is in it.
    if (!file.open(QIODevice::WriteOnly)
        || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || file.write(QJsonDocument(array).toJson()) < 0 || !file.commit()) {
        *error = QStringLiteral("%1: %2").arg(m_path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Trainyard
