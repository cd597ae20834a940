// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Where the console keeps the bearer tokens of executors it connects to (team mode, README "Team mode"): the desktop
// keyring, never a settings file.

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

namespace Trainyard {

/// A store of executor tokens keyed by the executor's URL ("https://host:port"). Asynchronous, as keyrings are:
/// each call answers once through its callback on the caller's thread; `error` is empty on success and otherwise
/// says why, in words for a message box. Main thread.
class TokenStore : public QObject {
    Q_OBJECT
public:
    using ReadDone = std::function<void(const QByteArray& token, const QString& error)>;
    using WriteDone = std::function<void(const QString& error)>;

    using QObject::QObject;
    /// `token` empty with no error: none is stored for `url`.
    virtual void read(const QString& url, ReadDone done) = 0;
    virtual void write(const QString& url, const QByteArray& token, WriteDone done) = 0;
    virtual void remove(const QString& url, WriteDone done) = 0;
};

/// The desktop keyring through QtKeychain (Secret Service: GNOME Keyring, KWallet), service "trainyard", one entry per
/// executor URL. QtKeychain's insecure fallback (a plain file) stays off: without a keyring service every call fails
/// with QtKeychain's reason, and the caller keeps the token for the session only (SessionTokenStore).
class KeychainTokenStore : public TokenStore {
    Q_OBJECT
public:
    using TokenStore::TokenStore;
    void read(const QString& url, ReadDone done) override;
    void write(const QString& url, const QByteArray& token, WriteDone done) override;
    void remove(const QString& url, WriteDone done) override;
};

/// Tokens in this process's memory only, gone when it exits: where the console keeps a token the keyring would not
/// take. Never written to disk.
class SessionTokenStore : public TokenStore {
    Q_OBJECT
public:
    using TokenStore::TokenStore;
    void read(const QString& url, ReadDone done) override;
    void write(const QString& url, const QByteArray& token, WriteDone done) override;
    void remove(const QString& url, WriteDone done) override;

private:
    QHash<QString, QByteArray> m_tokens;
};

} // namespace Trainyard
