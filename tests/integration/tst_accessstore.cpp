// SPDX-License-Identifier: GPL-2.0-or-later
// AccessStore on a real SQLite file: tokens are kept only as hashes and found by the token's bytes, revoked and
// expired tokens are told apart, policies per resource survive a reopen, and a newer schema is refused.
#include "accessstore.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestAccessStore : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;

    /// Every byte of the database's files (main file, WAL), to look for a token's text in them.
    QByteArray fileBytes() const
    {
        QByteArray all;
        for (const QString& suffix : { QString(), QStringLiteral("-wal") }) {
            QFile file(m_path + suffix);
            if (file.open(QIODevice::ReadOnly))
                all += file.readAll();
        }
        return all;
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_path = m_dir->filePath(QStringLiteral("data/access.sqlite"));
    }

    void tokensAreHashed()
    {
        AccessStore store;
        QString error;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QByteArray secret;
        const auto record = store.createToken(QStringLiteral("user:alice@example.org"), Iam::Role::viewer(), {},
            QStringLiteral("user:root@localhost"), &secret, &error);
        QVERIFY2(record, qPrintable(error));
        // "tyk_" and 256 bits in base64url.
        QVERIFY(secret.startsWith("tyk_"));
        QCOMPARE(secret.size(), 4 + 43);
        QCOMPARE(record->id.size(), 16);
        QVERIFY(!record->expireTime.isValid());
        // Found by its bytes, by nothing else; the file holds the hash, never the token.
        const auto found = store.findToken(secret);
        QVERIFY(found);
        QCOMPARE(found->member, QStringLiteral("user:alice@example.org"));
        QCOMPARE(found->role, Iam::Role::viewer());
        QCOMPARE(found->createdBy, QStringLiteral("user:root@localhost"));
        QVERIFY(!store.findToken(secret.chopped(1)));
        QVERIFY(!store.findToken(QByteArray()));
        QVERIFY(!fileBytes().contains(secret));
        QVERIFY(!fileBytes().contains(secret.mid(4)));
        QVERIFY(fileBytes().contains(AccessStore::hashOf(secret)));
        // Two tokens never share bytes or IDs.
        QByteArray second;
        const auto other
            = store.createToken(QStringLiteral("user:alice@example.org"), Iam::Role::viewer(), {}, {}, &second, &error);
        QVERIFY(other);
        QVERIFY(second != secret);
        QVERIFY(other->id != record->id);
        QCOMPARE(store.tokens().size(), 2);
        // The record's JSON never carries the token.
        QVERIFY(!record->toJson().contains(QStringLiteral("token")));
        QCOMPARE(record->toJson().value(QStringLiteral("name")).toString(), QStringLiteral("tokens/") + record->id);
    }

    void revokeAndExpiry()
    {
        QString error;
        QByteArray secret;
        QByteArray expiring;
        QString id;
        {
            AccessStore store;
            QVERIFY2(store.open(m_path, &error), qPrintable(error));
            const auto record = store.createToken(
                QStringLiteral("user:bob@example.org"), Iam::Role::developer(), {}, {}, &secret, &error);
            QVERIFY(record);
            id = record->id;
            const QDateTime soon = QDateTime::currentDateTimeUtc().addSecs(3600);
            const auto timed = store.createToken(
                QStringLiteral("user:bob@example.org"), Iam::Role::viewer(), soon, {}, &expiring, &error);
            QVERIFY(timed);
            QVERIFY(!timed->isExpired(QDateTime::currentDateTimeUtc()));
            QVERIFY(timed->isExpired(soon));
            QVERIFY(timed->isExpired(soon.addSecs(1)));
            // Looked up once (and so remembered) before it is revoked: the revocation holds at once.
            QVERIFY(!store.findToken(secret)->revoked);
            bool found = false;
            QVERIFY2(store.revokeToken(id, &found, &error), qPrintable(error));
            QVERIFY(store.findToken(secret)->revoked);
            QVERIFY(found);
            QVERIFY(store.revokeToken(id, &found, &error)); // again: no change
            QVERIFY(!store.revokeToken(QStringLiteral("0000000000000000"), &found, &error));
            QVERIFY(!found);
        }
        // Reopened: the revocation and the expiry time are on disk.
        AccessStore store;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QVERIFY(store.findToken(secret)->revoked);
        QVERIFY(store.token(id)->revoked);
        const auto timed = store.findToken(expiring);
        QVERIFY(timed && !timed->revoked);
        QVERIFY(timed->expireTime.isValid());
        QVERIFY(timed->isExpired(QDateTime::currentDateTimeUtc().addSecs(3601)));
        QVERIFY(timed->toJson().contains(QStringLiteral("expireTime")));
    }

    void policies()
    {
        QString error;
        Iam::Policy policy;
        policy.bindings
            = { { Iam::Role::viewer(), { QStringLiteral("user:b@x.org"), QStringLiteral("user:a@x.org") } } };
        {
            AccessStore store;
            QVERIFY2(store.open(m_path, &error), qPrintable(error));
            QVERIFY(!store.policy(QStringLiteral("projects/local")));
            QVERIFY2(store.setPolicy(QStringLiteral("projects/local"), policy, &error), qPrintable(error));
            QCOMPARE(store.policy(QStringLiteral("projects/local"))->etag(), policy.etag());
            QVERIFY(!store.policy(QStringLiteral("projects/other")));
            QVERIFY(store.setPolicy(QStringLiteral("projects/local/jobs/j1"), Iam::defaultJobPolicy({}), &error));
        }
        AccessStore store;
        QVERIFY2(store.open(m_path, &error), qPrintable(error));
        QCOMPARE(*store.policy(QStringLiteral("projects/local")), policy.normalized());
        // A policy set to nothing is still set (the job's creator no longer owns it).
        QVERIFY(store.policy(QStringLiteral("projects/local/jobs/j1")));
        QVERIFY(store.policy(QStringLiteral("projects/local/jobs/j1"))->bindings.isEmpty());
    }

    void refusesNewerSchema()
    {
        QString error;
        {
            AccessStore store;
            QVERIFY2(store.open(m_path, &error), qPrintable(error));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("newer"));
            db.setDatabaseName(m_path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("UPDATE meta SET value = '99' WHERE key = 'schemaVersion'")));
            query = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("newer"));
        AccessStore store;
        QVERIFY(!store.open(m_path, &error));
        QVERIFY2(error.contains(QStringLiteral("newer")), qPrintable(error));
        QByteArray secret;
        QVERIFY(!store.createToken(QStringLiteral("user:a@x.org"), Iam::Role::viewer(), {}, {}, &secret, &error));
    }
};

QTEST_GUILESS_MAIN(TestAccessStore)
#include "tst_accessstore.moc"
