// SPDX-License-Identifier: GPL-2.0-or-later
// The clients' trust in a TLS executor (models/executortrust.h): fingerprints as users paste them, and
// known_executors as trainyardctl and the console read and write it.
#include "executortrust.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace Trainyard;

class TestExecutorTrust : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void normalizeSha256_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray plain = "0cf9fffbe5ef7156360fe28258d89817ac0e7bdd27683f001122334455667788";
        QCOMPARE(plain.size(), 64);
        QTest::addRow("lower hex") << QString::fromLatin1(plain) << plain;
        QTest::addRow("upper case with colons (openssl)") << displaySha256(plain).toUpper() << plain;
        QTest::addRow("openssl's whole line prefix") << QStringLiteral("sha256:") + QString::fromLatin1(plain) << plain;
        QTest::addRow("surrounding spaces")
            << QStringLiteral("  ") + QString::fromLatin1(plain) + QStringLiteral("\n") << plain;
        QTest::addRow("too short") << QString::fromLatin1(plain.left(63)) << QByteArray();
        QTest::addRow("SHA-1 length") << QString::fromLatin1(plain.left(40)) << QByteArray();
        QTest::addRow("not hex") << QString::fromLatin1(plain.left(63)) + QLatin1Char('g') << QByteArray();
        QTest::addRow("empty") << QString() << QByteArray();
    }

    void normalizeSha256()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, expected);
        QCOMPARE(TlsTrust::normalizeSha256(text), expected);
    }

    void knownExecutorsKeys()
    {
        QCOMPARE(KnownExecutors::key(QUrl(QStringLiteral("https://GPU-Box.example.org:8443/x"))),
            QStringLiteral("gpu-box.example.org:8443"));
        QCOMPARE(KnownExecutors::key(QUrl(QStringLiteral("https://[::1]:9000"))), QStringLiteral("[::1]:9000"));
        QCOMPARE(KnownExecutors::key(QUrl(QStringLiteral("https://host"))), QStringLiteral("host:443"));
    }

    void knownExecutorsRememberLookupReplace()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("sub/known_executors"));
        KnownExecutors known(path);
        const QUrl a(QStringLiteral("https://a.example:8443"));
        const QUrl b(QStringLiteral("https://[::1]:9000"));
        QVERIFY(known.lookup(a).isEmpty()); // no file yet
        QString error;
        QVERIFY2(known.remember(a, QByteArray(64, 'a'), &error), qPrintable(error));
        QVERIFY2(known.remember(b, QByteArray(64, 'b'), &error), qPrintable(error));
        int line = 0;
        QCOMPARE(known.lookup(a, &line), QByteArray(64, 'a'));
        QCOMPARE(line, 2); // after the header comment
        QCOMPARE(known.lookup(b, &line), QByteArray(64, 'b'));
        QCOMPARE(line, 3);
        QVERIFY(known.lookup(QUrl(QStringLiteral("https://a.example:8444"))).isEmpty()); // another port
        // Replacing keeps one line per executor, in place.
        QVERIFY2(known.remember(a, QByteArray(64, 'c'), &error), qPrintable(error));
        QCOMPARE(known.lookup(a, &line), QByteArray(64, 'c'));
        QCOMPARE(line, 2);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QCOMPARE(text.count("a.example:8443"), 1);
        QVERIFY(text.startsWith("#"));
        QCOMPARE(file.permissions()
                & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup | QFileDevice::WriteOther),
            QFileDevice::Permissions());
        // A line the user wrote by hand with colons is read too; comments and blank lines are skipped.
        file.close();
        QVERIFY(file.open(QIODevice::Append));
        file.write("\n# a comment\nhand.example:443 " + displaySha256(QByteArray(64, 'd')).toUpper().toLatin1() + "\n");
        file.close();
        QCOMPARE(known.lookup(QUrl(QStringLiteral("https://hand.example"))), QByteArray(64, 'd'));
    }

    void caFileErrorsNameTheFile()
    {
        QTemporaryDir dir;
        TlsTrust trust;
        QString error;
        const QString missing = dir.filePath(QStringLiteral("missing.pem"));
        QVERIFY(!TlsTrust::loadCaFile(missing, &trust, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        const QString garbage = dir.filePath(QStringLiteral("garbage.pem"));
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a certificate\n");
        file.close();
        QVERIFY(!TlsTrust::loadCaFile(garbage, &trust, &error));
        QVERIFY2(error.contains(garbage) && error.contains(QLatin1String("no PEM certificate")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestExecutorTrust)
#include "tst_executortrust.moc"
