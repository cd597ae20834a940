// SPDX-License-Identifier: GPL-2.0-or-later
#include "tokenstore.h"

#include <QPointer>
#include <QTimer>

#include <qt6keychain/keychain.h>

namespace Trainyard {

namespace {
const QString Service = QStringLiteral("trainyard");

/// Answers on the next event-loop turn, as a keyring would: callers never see their callback run inside the call.
void later(QObject* context, std::function<void()> work)
{
    QTimer::singleShot(0, context, std::move(work));
}
} // namespace

void KeychainTokenStore::read(const QString& url, ReadDone done)
{
    auto* job = new QKeychain::ReadPasswordJob(Service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(url);
    connect(job, &QKeychain::Job::finished, this, [job, done = std::move(done)] {
        if (job->error() == QKeychain::EntryNotFound)
            done({}, {});
        else if (job->error() != QKeychain::NoError)
            done({}, job->errorString());
        else
            done(job->binaryData(), {});
    });
    job->start();
}

void KeychainTokenStore::write(const QString& url, const QByteArray& token, WriteDone done)
{
    auto* job = new QKeychain::WritePasswordJob(Service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(url);
    job->setBinaryData(token);
    connect(job, &QKeychain::Job::finished, this,
        [job, done = std::move(done)] { done(job->error() == QKeychain::NoError ? QString() : job->errorString()); });
    job->start();
}

void KeychainTokenStore::remove(const QString& url, WriteDone done)
{
    auto* job = new QKeychain::DeletePasswordJob(Service, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(url);
    connect(job, &QKeychain::Job::finished, this, [job, done = std::move(done)] {
        const bool ok = job->error() == QKeychain::NoError || job->error() == QKeychain::EntryNotFound;
        done(ok ? QString() : job->errorString());
    });
    job->start();
}

void SessionTokenStore::read(const QString& url, ReadDone done)
{
    later(this, [this, url, done = std::move(done)] { done(m_tokens.value(url), {}); });
}

void SessionTokenStore::write(const QString& url, const QByteArray& token, WriteDone done)
{
    m_tokens.insert(url, token);
    later(this, [done = std::move(done)] { done({}); });
}

void SessionTokenStore::remove(const QString& url, WriteDone done)
{
    m_tokens.remove(url);
    later(this, [done = std::move(done)] { done({}); });
}

} // namespace Trainyard
