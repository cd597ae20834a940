// SPDX-License-Identifier: GPL-2.0-or-later
// File > Connect to Executor… (ConnectDialog) driven as a user would, against a real trainyard-executor serving HTTPS
// with a certificate made at test time: the presented certificate is shown, trusting it pins it (known_executors) and
// tests the token; a wrong token is refused with the executor's 401; a certificate that differs from the pinned one
// is shown as such; a CA file works without a pin. The token goes to the desktop keyring through QtKeychain — a GNOME
// Keyring of the test's own (gui/tst_connectdialog_keyring) — or, where no keyring answers (gui/tst_connectdialog),
// QtKeychain's failure is shown and the token is kept for the session only, written to no file.
#include "apiclient.h"
#include "connectdialog.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "requireddependencies.h"
#include "tlsexecutor.h"
#include "tokenstore.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDirIterator>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestConnectDialog : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    Test::TlsExecutor m_executor;
    QString m_cert;
    bool m_keyring = false; ///< a keyring service answers QtKeychain

    template <typename T> static T* child(QWidget* dialog, const char* name)
    {
        T* widget = dialog->findChild<T*>(QString::fromLatin1(name));
        if (!widget)
            qWarning("no %s", name);
        return widget;
    }

    static QPushButton* connectButton(QWidget* dialog)
    {
        return dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    }

    /// Types the URL and token into `dialog` and presses Test Connection, as a user would.
    void fillAndTest(ConnectDialog* dialog, const QByteArray& token)
    {
        QLineEdit* url = child<QLineEdit>(dialog, "url");
        url->clear();
        QTest::keyClicks(url, m_executor.url.toString());
        QLineEdit* tokenEdit = child<QLineEdit>(dialog, "token");
        tokenEdit->clear();
        QTest::keyClicks(tokenEdit, QString::fromLatin1(token));
        QCOMPARE(tokenEdit->echoMode(), QLineEdit::Password);
        QPushButton* test = child<QPushButton>(dialog, "testConnection");
        QVERIFY(test->isEnabled());
        QTest::mouseClick(test, Qt::LeftButton);
    }

    static void screenshot(QWidget* widget, const QString& name)
    {
        // For looking, not for asserting: with TRAINYARD_SCREENSHOT_DIR set, the dialog as drawn.
        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            widget->grab().save(QDir(dir).filePath(name));
    }

    /// Files under the test's XDG folders that hold `bytes` (the token must be in none).
    QStringList filesHolding(const QByteArray& bytes) const
    {
        QStringList found;
        for (const QString& top : { QStringLiteral("config"), QStringLiteral("data"), QStringLiteral("run") }) {
            QDirIterator it(m_root.filePath(top), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile file(it.next());
                if (file.open(QIODevice::ReadOnly) && file.readAll().contains(bytes))
                    found.append(file.fileName());
            }
        }
        return found;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(Test::isolateExecutorEnvironment(m_root));
        QString error;
        if (!Test::makeSelfSignedCertificate(
                m_root.path(), QStringLiteral("executor"), QStringLiteral("trainyard-team"), &error))
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(error);
        m_cert = m_root.filePath(QStringLiteral("executor.pem"));
        // The executor's own runtime folder is apart from the console's, as on another machine. No user code runs
        // here (the subject is TLS, tokens and the keyring), so the sandbox is off, as said: team mode refuses to
        // start without one otherwise, and the Debian 13 build chroot (packaging/debian13-build.sh) has none.
        QVERIFY2(m_executor.start(m_root.path(), QStringLiteral("team"),
                     { QStringLiteral("--sandbox=off"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                         QStringLiteral("--tls-cert"), m_cert,
                         QStringLiteral("--tls-key"), m_root.filePath(QStringLiteral("executor.key")) },
                     &error),
            qPrintable(error));

        // Does a keyring answer? The real QtKeychain, asked once.
        KeychainTokenStore probe;
        bool done = false;
        QString keyringError;
        probe.write(QStringLiteral("https://probe.invalid:1"), "probe", [&](const QString& e) {
            keyringError = e;
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
        m_keyring = keyringError.isEmpty();
        qInfo("keyring: %s", m_keyring ? "answers" : qPrintable(QStringLiteral("none (%1)").arg(keyringError)));
        if (qEnvironmentVariableIntValue("TRAINYARD_TEST_WANTS_KEYRING") == 1 && !m_keyring)
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(
                QStringLiteral("no keyring for QtKeychain (packages gnome-keyring, dbus): ") + keyringError);
    }

    void firstUseShowsPinsAndConnects()
    {
        KeychainTokenStore keyring;
        ConnectDialog dialog(&keyring);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(child<QRadioButton>(&dialog, "trustFirstUse")->isChecked());
        QVERIFY(child<QLabel>(&dialog, "trustExplanation")->text().contains(QLatin1String("first use")));
        QVERIFY(!connectButton(&dialog)->isEnabled());

        QSignalSpy tested(&dialog, &ConnectDialog::tested);
        fillAndTest(&dialog, m_executor.adminToken);
        // The presented certificate: subject, issuer, validity and the fingerprint openssl computes.
        QLabel* sha = child<QLabel>(&dialog, "certificateSha256");
        QTRY_VERIFY_WITH_TIMEOUT(child<QGroupBox>(&dialog, "certificate")->isVisible(), 30000);
        QCOMPARE(sha->text().replace(QLatin1Char('\n'), QLatin1Char(':')), displaySha256(Test::opensslSha256(m_cert)));
        QVERIFY(child<QLabel>(&dialog, "certificateSubject")->text().contains(QLatin1String("CN=trainyard-team")));
        QVERIFY(child<QLabel>(&dialog, "certificateIssuer")->text().contains(QLatin1String("CN=trainyard-team")));
        QVERIFY(!child<QLabel>(&dialog, "certificateValidity")->text().isEmpty());
        QVERIFY(child<QLabel>(&dialog, "pinNote")->text().contains(QLatin1String("No certificate is pinned")));
        QVERIFY(!connectButton(&dialog)->isEnabled());

        // Trusting it tests the token over the pinned connection.
        QTest::mouseClick(child<QCheckBox>(&dialog, "acceptPin"), Qt::LeftButton, {}, QPoint(8, 8));
        QTRY_VERIFY_WITH_TIMEOUT(!tested.isEmpty(), 30000);
        QVERIFY2(tested.last().at(0).toBool(), qPrintable(tested.last().at(1).toString()));
        QVERIFY(child<QLabel>(&dialog, "status")->text().contains(QLatin1String("accepted the token")));
        QVERIFY(connectButton(&dialog)->isEnabled());
        screenshot(&dialog, QStringLiteral("connect-dialog.png"));

        QTest::mouseClick(connectButton(&dialog), Qt::LeftButton);
        if (m_keyring) {
            QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), 30000);
            QVERIFY(dialog.tokenPersisted());
            // In the keyring, under the URL, as the console reads it at its next start.
            QByteArray stored;
            bool read = false;
            keyring.read(m_executor.url.toString(), [&](const QByteArray& token, const QString& error) {
                QVERIFY2(error.isEmpty(), qPrintable(error));
                stored = token;
                read = true;
            });
            QTRY_VERIFY_WITH_TIMEOUT(read, 30000);
            QCOMPARE(stored, m_executor.adminToken);
        } else {
            // QtKeychain failed for real: the dialog says so and offers the session.
            QLabel* status = child<QLabel>(&dialog, "status");
            QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QLatin1String("keyring did not store")), 30000);
            QVERIFY(status->text().contains(QLatin1String("this session only")));
            QVERIFY(dialog.isVisible());
            QTest::mouseClick(connectButton(&dialog), Qt::LeftButton);
            QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
            QVERIFY(!dialog.tokenPersisted());
        }
        QCOMPARE(dialog.url(), m_executor.url);
        QCOMPARE(dialog.token(), m_executor.adminToken);
        QCOMPARE(dialog.trust().pinSha256, m_executor.sha256);
        QCOMPARE(KnownExecutors().lookup(m_executor.url), m_executor.sha256);
        QSettings settings;
        settings.sync();
        QCOMPARE(settings.value(ConnectDialog::urlKey()).toString(), m_executor.url.toString());
        // Never in a settings file (nor any other file of the console's).
        QVERIFY2(filesHolding(m_executor.adminToken).isEmpty(),
            qPrintable(filesHolding(m_executor.adminToken).join(QLatin1Char(' '))));
    }

    void consoleStartsWithTheSavedExecutor()
    {
        // What the console does at its next start (ExecutorConnection::startWithSavedExecutor): the URL from the
        // settings, the token from the keyring, the pin from known_executors.
        KeychainTokenStore keyring;
        ExecutorConnection connection;
        connection.setAutoStart(false); // no local executor may be started for this test
        QSignalSpy messages(&connection, &ExecutorConnection::message);
        connection.startWithSavedExecutor(&keyring);
        if (m_keyring) {
            QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
            QCOMPARE(connection.endpoint().url, m_executor.url);
            QCOMPARE(connection.endpoint().token, m_executor.adminToken);
            QCOMPARE(connection.endpoint().trust.pinSha256, m_executor.sha256);
            bool answered = false;
            connection.client()->host(this, [&](const HostStatus& host, const ApiError& error) {
                QVERIFY2(error.isNull(), qPrintable(error.message));
                QVERIFY(host.cpus > 0);
                answered = true;
            });
            QTRY_VERIFY_WITH_TIMEOUT(answered, 30000);
        } else {
            // The keyring does not answer: said so, and the local executor is looked for instead.
            QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 30000);
            QVERIFY2(messages.first().at(0).toString().contains(QLatin1String("keyring did not give the token")),
                qPrintable(messages.first().at(0).toString()));
            QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Disconnected, 30000);
            QVERIFY(!connection.client());
        }
    }

    void connectionSwitchesToTheTeamExecutor()
    {
        // File > Connect to Executor…'s result handed to the console's connection (a session token).
        ExecutorConnection connection;
        connection.setAutoStart(false);
        TlsTrust trust;
        trust.pinSha256 = m_executor.sha256;
        connection.connectTo(m_executor.url, m_executor.adminToken, trust);
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        QVERIFY(connection.client());
        QCOMPARE(connection.client()->baseUrl(), m_executor.url);
        // A wrong pin: never connected, the reason names both fingerprints.
        ExecutorConnection wrong;
        wrong.setAutoStart(false);
        trust.pinSha256 = QByteArray(64, 'e');
        wrong.connectTo(m_executor.url, m_executor.adminToken, trust);
        QTRY_VERIFY_WITH_TIMEOUT(!wrong.lastError().isEmpty(), 30000);
        QVERIFY2(wrong.lastError().contains(QString::fromLatin1(m_executor.sha256))
                && wrong.lastError().contains(QString::fromLatin1(trust.pinSha256)),
            qPrintable(wrong.lastError()));
        QVERIFY(wrong.state() != ExecutorConnection::State::Connected);
    }

    void pinnedCertificateIsRecognised()
    {
        // After firstUseShowsPinsAndConnects pinned it: the same certificate is known and tested at once.
        QVERIFY(!KnownExecutors().lookup(m_executor.url).isEmpty());
        SessionTokenStore session;
        ConnectDialog dialog(&session);
        dialog.show();
        QSignalSpy tested(&dialog, &ConnectDialog::tested);
        fillAndTest(&dialog, m_executor.adminToken);
        QTRY_VERIFY_WITH_TIMEOUT(!tested.isEmpty(), 30000);
        QVERIFY2(tested.last().at(0).toBool(), qPrintable(tested.last().at(1).toString()));
        QVERIFY(child<QLabel>(&dialog, "pinNote")->text().contains(QLatin1String("you pinned")));
    }

    void wrongTokenIsRefused()
    {
        SessionTokenStore session;
        ConnectDialog dialog(&session);
        dialog.show();
        QSignalSpy tested(&dialog, &ConnectDialog::tested);
        fillAndTest(&dialog, "tyk_wrong");
        QTRY_VERIFY_WITH_TIMEOUT(!tested.isEmpty(), 30000);
        QVERIFY(!tested.last().at(0).toBool());
        QVERIFY2(
            tested.last().at(1).toString().contains(QLatin1String("401")), qPrintable(tested.last().at(1).toString()));
        QVERIFY(!connectButton(&dialog)->isEnabled());
    }

    void changedCertificateIsShownWithBothFingerprints()
    {
        const QByteArray stale(64, 'b');
        QString error;
        QVERIFY2(KnownExecutors().remember(m_executor.url, stale, &error), qPrintable(error));
        SessionTokenStore session;
        ConnectDialog dialog(&session);
        dialog.show();
        QSignalSpy tested(&dialog, &ConnectDialog::tested);
        fillAndTest(&dialog, m_executor.adminToken);
        QTRY_VERIFY_WITH_TIMEOUT(!tested.isEmpty(), 30000);
        QVERIFY(!tested.last().at(0).toBool());
        const QString note = child<QLabel>(&dialog, "pinNote")->text();
        QVERIFY2(note.contains(displaySha256(stale)) && note.contains(QLatin1String("WARNING")), qPrintable(note));
        QCOMPARE(child<QLabel>(&dialog, "certificateSha256")->text().replace(QLatin1Char('\n'), QLatin1Char(':')),
            displaySha256(m_executor.sha256));
        QVERIFY(!child<QCheckBox>(&dialog, "acceptPin")->isChecked());
        QVERIFY(!connectButton(&dialog)->isEnabled());
        // Accepting the new certificate re-pins it on Connect.
        QTest::mouseClick(child<QCheckBox>(&dialog, "acceptPin"), Qt::LeftButton, {}, QPoint(8, 8));
        QTRY_VERIFY_WITH_TIMEOUT(connectButton(&dialog)->isEnabled(), 30000);
        QTest::mouseClick(connectButton(&dialog), Qt::LeftButton);
        QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(KnownExecutors().lookup(m_executor.url), m_executor.sha256);
    }

    void caFile()
    {
        SessionTokenStore session;
        ConnectDialog dialog(&session);
        dialog.show();
        QTest::mouseClick(child<QRadioButton>(&dialog, "trustCaFile"), Qt::LeftButton, {}, QPoint(8, 8));
        QVERIFY(child<QRadioButton>(&dialog, "trustCaFile")->isChecked());
        QLineEdit* ca = child<QLineEdit>(&dialog, "caFile");
        QVERIFY(ca->isEnabled());
        ca->clear();
        QTest::keyClicks(ca, m_cert);
        QSignalSpy tested(&dialog, &ConnectDialog::tested);
        fillAndTest(&dialog, m_executor.adminToken);
        QTRY_VERIFY_WITH_TIMEOUT(!tested.isEmpty(), 30000);
        QVERIFY2(tested.last().at(0).toBool(), qPrintable(tested.last().at(1).toString()));
        QVERIFY(dialog.trust().pinSha256.isEmpty());
        QCOMPARE(dialog.trust().caCertificates.size(), 1);
    }
};

QTEST_MAIN(TestConnectDialog)
#include "tst_connectdialog.moc"
