// SPDX-License-Identifier: GPL-2.0-or-later
// Sandbox::arguments() (app/launch/sandbox.h), issue 42 item 1: what bubblewrap is told for a view, as data. The
// end-to-end proof (user code of every kind against a real executor) is integration/tst_sandbox.
#include "sandbox.h"

#include <QTest>

using namespace Trainyard;

class TestSandboxArgs : public QObject {
    Q_OBJECT

    /// The value after `option` whose next value is `destination`, e.g. ("--bind-fd", "/jobs/j") → the fd's text.
    static QString bound(const QStringList& args, const QString& option, const QString& destination)
    {
        for (qsizetype i = 0; i + 2 < args.size(); ++i) {
            if (args.at(i) == option && args.at(i + 2) == destination)
                return args.at(i + 1);
        }
        return {};
    }

private Q_SLOTS:
    void namespacesAndSystemFolders()
    {
        const Sandbox sandbox;
        SandboxView view;
        view.network = false;
        const QStringList args = sandbox.arguments(view, {});
        for (const char* option : { "--unshare-user", "--unshare-pid", "--unshare-ipc", "--die-with-parent",
                 "--unshare-net" })
            QVERIFY2(args.contains(QLatin1String(option)), option);
        QCOMPARE(bound(args, QStringLiteral("--ro-bind"), QStringLiteral("/usr")), QStringLiteral("/usr"));
        QCOMPARE(bound(args, QStringLiteral("--ro-bind"), QStringLiteral("/etc")), QStringLiteral("/etc"));
        QVERIFY(args.contains(QStringLiteral("--proc")));
        QVERIFY(args.contains(QStringLiteral("--dev")));
        // A replica's view keeps the host's network (its cluster talks over loopback).
        view.network = true;
        QVERIFY(!sandbox.arguments(view, {}).contains(QStringLiteral("--unshare-net")));
    }

    void boundPathsInOrder()
    {
        const Sandbox sandbox;
        SandboxView view;
        view.writable = { QStringLiteral("/jobs/j"), QStringLiteral("/data/jobs/j/replicas/master-replica-0") };
        view.readable = { QStringLiteral("/data/jobs/j/staging"), QStringLiteral("/jobs/j/plan.json") };
        view.workingDirectory = QStringLiteral("/data/jobs/j/replicas/master-replica-0");
        const QStringList args = sandbox.arguments(view, { 10, 11, 12, 13 });
        // Writable first, so that a readable file inside a writable folder is bound over it, read-only.
        QCOMPARE(bound(args, QStringLiteral("--bind-fd"), QStringLiteral("/jobs/j")), QStringLiteral("10"));
        QCOMPARE(bound(args, QStringLiteral("--bind-fd"), QStringLiteral("/data/jobs/j/replicas/master-replica-0")),
            QStringLiteral("11"));
        QCOMPARE(bound(args, QStringLiteral("--ro-bind-fd"), QStringLiteral("/data/jobs/j/staging")), QStringLiteral("12"));
        QCOMPARE(bound(args, QStringLiteral("--ro-bind-fd"), QStringLiteral("/jobs/j/plan.json")), QStringLiteral("13"));
        QVERIFY(args.indexOf(QStringLiteral("/jobs/j")) < args.indexOf(QStringLiteral("/jobs/j/plan.json")));
        QCOMPARE(args.value(args.indexOf(QStringLiteral("--chdir")) + 1), view.workingDirectory);
    }

    void exitSignal()
    {
        QCOMPARE(Sandbox::exitSignal(137), 9);
        QCOMPARE(Sandbox::exitSignal(143), 15);
        QCOMPARE(Sandbox::exitSignal(1), 0);
        QCOMPARE(Sandbox::exitSignal(128), 0);
    }

    void mergeKeepsNetworkAndOrder()
    {
        SandboxView a;
        a.network = false;
        a.readable = { QStringLiteral("/a") };
        SandboxView b;
        b.readable = { QStringLiteral("/a"), QStringLiteral("/b") };
        b.workingDirectory = QStringLiteral("/w");
        a.merge(b);
        QCOMPARE(a.readable, (QStringList { QStringLiteral("/a"), QStringLiteral("/b") }));
        QVERIFY(!a.network);
        QCOMPARE(a.workingDirectory, QStringLiteral("/w"));
    }
};

QTEST_GUILESS_MAIN(TestSandboxArgs)
#include "tst_sandboxargs.moc"
