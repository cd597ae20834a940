// SPDX-License-Identifier: GPL-2.0-or-later
// The real trainyardctl binary against the real executor (which it starts itself), isolated in temporary
// XDG folders: help and usage errors, submit/describe/list/filter/stream-logs/update/cancel, API errors
// naming the field, --config with a real gcloud config, local train, and nothing left running.
#include "ctlrun.h"
#include "fakehttpserver.h"
#include "trainingpackage.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <tuple>

#include <csignal>

namespace {

using Trainyard::Test::CtlRun;

bool processAlive(qint64 pid)
{
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close < 0 || text.mid(close + 2, 1) != "Z"; // a zombie is gone for our purposes
}

} // namespace

class TestCtl : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_package;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root.filePath(QStringLiteral("run")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_root.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_root.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("TRAINYARD_EXECUTOR_BIN"), QStringLiteral(TRAINYARD_EXECUTOR_BIN));
        env.remove(QStringLiteral("TRAINYARD_EXECUTOR"));
        env.remove(QStringLiteral("TRAINYARD_TOKEN"));
        return env;
    }

    /// Runs trainyardctl with `args` in this test's environment plus `extraEnv`. Waits on the event loop (not
    /// blocked), so that an in-process fake executor can answer it.
    CtlRun ctl(const QStringList& args, int timeoutMs = 180000, const QMap<QString, QString>& extraEnv = {})
    {
        QProcessEnvironment env = environment();
        for (auto it = extraEnv.cbegin(); it != extraEnv.cend(); ++it)
            env.insert(it.key(), it.value());
        return Trainyard::Test::runCtl(env, args, timeoutMs, m_root.path());
    }

    QJsonObject describeJson(const QString& jobId)
    {
        const CtlRun r
            = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), jobId, QStringLiteral("--format=json") });
        return QJsonDocument::fromJson(r.out.toUtf8()).object();
    }

    QStringList submitArgs(const QString& jobId, const QString& module) const
    {
        return { QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"), jobId,
            QStringLiteral("--package-path"), m_package, QStringLiteral("--module-name"), module,
            QStringLiteral("--job-dir"), m_root.filePath(QStringLiteral("jobs/") + jobId) };
    }

    qint64 executorPid() const { return Trainyard::Test::isolatedExecutorPid(m_root); }

    static void writeFile(const QString& path, const QByteArray& text)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

    /// Runs trainyardctl against `executor` (an explicit --executor URL with `token`).
    CtlRun ctlAgainst(const QUrl& executor, const QByteArray& token, const QStringList& args)
    {
        return ctl(QStringList { QStringLiteral("--executor"), executor.toString() } + args, 120000,
            { { QStringLiteral("TRAINYARD_TOKEN"), QString::fromLatin1(token) } });
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char* d : { "run", "data", "config" })
            QVERIFY(QDir().mkpath(m_root.filePath(QLatin1String(d))));
        QFile::setPermissions(m_root.filePath(QStringLiteral("run")),
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        // A tiny, real, pip-installable training package.
        m_package = m_root.filePath(QStringLiteral("pkg"));
        QVERIFY(Trainyard::Test::writeTrainingPackage(m_package, QStringLiteral("ctlhello"),
            "import json, os, sys\n"
            "tf = json.loads(os.environ.get('TF_CONFIG', '{}'))\n"
            "task = tf.get('task', {})\n"
            "print('hello from %s %s args=%s' % (task.get('type', 'none'), task.get('index', 0), "
            "' '.join(sys.argv[1:])), flush=True)\n"
            "print('a warning line', file=sys.stderr, flush=True)\n"
            // The master waits for the others to have said hello (each leaves a file in the job dir), so
            // that its exit, which ends a local cluster, cannot cut them off on a loaded machine.
            "jd = sys.argv[sys.argv.index('--job-dir') + 1] if '--job-dir' in sys.argv else None\n"
            "if jd:\n"
            "    import time\n"
            "    os.makedirs(jd, exist_ok=True)\n"
            "    open(os.path.join(jd, 'hello-%s-%s' % (task.get('type'), task.get('index'))), 'w').close()\n"
            "    if task.get('type') == 'master':\n"
            "        want = ['hello-%s-%d' % (t, i) for t, a in tf.get('cluster', {}).items() for i in range(len(a))]\n"
            "        end = time.time() + 120\n"
            "        while time.time() < end and not all(os.path.exists(os.path.join(jd, w)) for w in want):\n"
            "            time.sleep(0.05)\n"));
        // A trainer with children, as real ones have (data loaders, a shell): one in its process group and
        // one that left it with setsid. It records all three pids, then waits to be stopped.
        writeFile(m_package + QStringLiteral("/ctlhello/family.py"),
            "import os, subprocess, sys, time\n"
            "child = subprocess.Popen(['sleep', '600'])\n"
            "escaped = subprocess.Popen(['sleep', '601'], start_new_session=True)\n"
            "out = sys.argv[sys.argv.index('--pids') + 1]\n"
            "with open(out + '.tmp', 'w') as f:\n"
            "    f.write('%d %d %d' % (os.getpid(), child.pid, escaped.pid))\n"
            "os.rename(out + '.tmp', out)\n"
            "print('family ready', flush=True)\n"
            "time.sleep(600)\n");
        writeFile(m_package + QStringLiteral("/ctlhello/wait.py"),
            "import time\nprint('waiting', flush=True)\ntime.sleep(600)\n");
        writeFile(m_package + QStringLiteral("/ctlhello/exit3.py"),
            "import json, os, sys\n"
            "tf = json.loads(os.environ.get('TF_CONFIG', '{}'))\n"
            "print('giving up', flush=True)\nsys.exit(3)\n");
    }

    void cleanupTestCase()
    {
        const qint64 pid = executorPid();
        if (pid > 0) {
            ::kill(static_cast<pid_t>(pid), SIGTERM);
            QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 30000);
        }
        // No process of this test is left: nothing runs with our temporary folder in its command line.
        const QStringList procs = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
        for (const QString& p : procs) {
            bool ok = false;
            const qint64 pid = p.toLongLong(&ok);
            if (!ok)
                continue;
            QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
            if (!cmdline.open(QIODevice::ReadOnly))
                continue;
            const QByteArray cmd = cmdline.readAll();
            QVERIFY2(!cmd.contains(m_root.path().toUtf8()) || !processAlive(pid),
                qPrintable(QStringLiteral("left behind: pid %1 %2")
                               .arg(pid)
                               .arg(QString::fromUtf8(cmd).replace(QChar(u'\0'), QLatin1Char(' ')))));
        }
    }

    void help_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::addRow("root") << QStringList { QStringLiteral("--help") } << QStringLiteral("jobs");
        QTest::addRow("jobs") << QStringList { QStringLiteral("jobs"), QStringLiteral("--help") }
                              << QStringLiteral("stream-logs");
        QTest::addRow("submit group") << QStringList { QStringLiteral("jobs"), QStringLiteral("submit"),
            QStringLiteral("--help") } << QStringLiteral("training");
        QTest::addRow("submit training") << QStringList { QStringLiteral("jobs"), QStringLiteral("submit"),
            QStringLiteral("training"), QStringLiteral("--help") }
                                         << QStringLiteral("--parameter-server-count");
        QTest::addRow("describe") << QStringList { QStringLiteral("jobs"), QStringLiteral("describe"),
            QStringLiteral("--help") }
                                  << QStringLiteral("--summarize");
        QTest::addRow("list") << QStringList { QStringLiteral("jobs"), QStringLiteral("list"),
            QStringLiteral("--help") }
                              << QStringLiteral("--filter");
        QTest::addRow("cancel") << QStringList { QStringLiteral("jobs"), QStringLiteral("cancel"),
            QStringLiteral("--help") }
                                << QStringLiteral("JOB");
        QTest::addRow("stream-logs") << QStringList { QStringLiteral("jobs"), QStringLiteral("stream-logs"),
            QStringLiteral("--help") }
                                     << QStringLiteral("--task-name");
        QTest::addRow("update") << QStringList { QStringLiteral("jobs"), QStringLiteral("update"),
            QStringLiteral("--help") }
                                << QStringLiteral("--update-labels");
        QTest::addRow("local") << QStringList { QStringLiteral("local"), QStringLiteral("--help") }
                               << QStringLiteral("train");
        QTest::addRow("local train") << QStringList { QStringLiteral("local"), QStringLiteral("train"),
            QStringLiteral("--help") }
                                     << QStringLiteral("--distributed");
    }

    void help()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CtlRun r = ctl(args);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(expected), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("SYNOPSIS")));
        // Help never needs the executor.
        QCOMPARE(executorPid(), 0);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QStringList submit { QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training") };
        QTest::addRow("no verb") << QStringList {} << QStringLiteral("Command name argument expected");
        QTest::addRow("unknown group") << QStringList { QStringLiteral("endpoints") }
                                       << QStringLiteral("Invalid choice: 'endpoints'");
        QTest::addRow("missing job") << submit << QStringLiteral("argument JOB: Must be specified.");
        QTest::addRow("unknown flag") << (submit + QStringList { QStringLiteral("j1"), QStringLiteral("--bogus") })
                                      << QStringLiteral("unrecognized arguments: --bogus");
        QTest::addRow("flag without value")
            << (submit + QStringList { QStringLiteral("j1"), QStringLiteral("--module-name") })
            << QStringLiteral("argument --module-name: expected one argument");
        QTest::addRow("bad scale tier") << (submit
            + QStringList { QStringLiteral("j1"), QStringLiteral("--package-path"), QStringLiteral("."),
                QStringLiteral("--module-name=m"), QStringLiteral("--scale-tier=huge") })
                                        << QStringLiteral("argument --scale-tier: Invalid choice: 'huge'");
        QTest::addRow("bad count") << (submit
            + QStringList { QStringLiteral("j1"), QStringLiteral("--package-path=."), QStringLiteral("--module-name=m"),
                QStringLiteral("--worker-count=two") })
                                   << QStringLiteral("argument --worker-count: Invalid integer value [two]");
        QTest::addRow("bad accelerator") << (submit
            + QStringList { QStringLiteral("j1"), QStringLiteral("--package-path=."), QStringLiteral("--module-name=m"),
                QStringLiteral("--master-accelerator=count=1") })
                                         << QStringLiteral("Key [type] required");
        QTest::addRow("async and stream") << (submit
            + QStringList { QStringLiteral("j1"), QStringLiteral("--async"), QStringLiteral("--stream-logs") })
                                          << QStringLiteral("At most one of --async | --stream-logs");
        QTest::addRow("no module") << (submit
            + QStringList { QStringLiteral("j1"), QStringLiteral("--package-path=.") })
                                   << QStringLiteral("argument --module-name: Must be specified.");
        QTest::addRow("update without flags") << QStringList { QStringLiteral("jobs"), QStringLiteral("update"),
            QStringLiteral("j1") } << QStringLiteral("At least one of --update-labels");
        QTest::addRow("list bad limit") << QStringList { QStringLiteral("jobs"), QStringLiteral("list"),
            QStringLiteral("--limit=0") }
                                        << QStringLiteral("argument --limit: Value must be greater than or equal to 1");
        QTest::addRow("bad format") << QStringList { QStringLiteral("jobs"), QStringLiteral("describe"),
            QStringLiteral("j1"), QStringLiteral("--format=xml") }
                                    << QStringLiteral("argument --format: Invalid choice: 'xml'");
        QTest::addRow("local train without module") << QStringList { QStringLiteral("local"), QStringLiteral("train") }
                                                    << QStringLiteral("argument --module-name: Must be specified.");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CtlRun r = ctl(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY(r.err.startsWith(QLatin1String("ERROR: (trainyardctl")));
    }

    void submitStartsExecutorAndDescribes()
    {
        QCOMPARE(executorPid(), 0);
        const CtlRun r = ctl(submitArgs(QStringLiteral("hello_1"), QStringLiteral("ctlhello.task"))
            + QStringList { QStringLiteral("--labels=owner=alice,team=ml"), QStringLiteral("--async"),
                QStringLiteral("--"), QStringLiteral("--epochs"), QStringLiteral("1"),
                QStringLiteral("--flag=with=equals") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("Job [hello_1] submitted successfully.")), qPrintable(r.err));
        QVERIFY(
            r.err.contains(QLatin1String("Your job is still active. You may view the status of your job with the "
                                         "command\n\n  $ trainyardctl jobs describe hello_1\n\nor continue streaming "
                                         "the logs with the command\n\n  $ trainyardctl jobs stream-logs hello_1")));
        QVERIFY(r.err.contains(QLatin1String("deprecated")));
        QVERIFY2(r.out.startsWith(QLatin1String("jobId: hello_1\nstate: ")), qPrintable(r.out));
        const qint64 pid = executorPid();
        QVERIFY(pid > 0);
        QVERIFY(processAlive(pid));

        // stream-logs blocks until the job ends; gcloud's tab-separated line format.
        const CtlRun logs = ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), QStringLiteral("hello_1") });
        QVERIFY2(logs.code == 0, qPrintable(logs.err));
        static const QRegularExpression line(
            QStringLiteral(
                "^INFO\\t\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [+-]\\d{4}\\tmaster-replica-0\\t\\thello from "
                "master 0 args=--epochs 1 --flag=with=equals --job-dir \\S+$"),
            QRegularExpression::MultilineOption);
        QVERIFY2(line.match(logs.out).hasMatch(), qPrintable(logs.out));
        QVERIFY(logs.out.contains(QLatin1String("\tservice\t\t")));
        // --task-name filters.
        const CtlRun service = ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), QStringLiteral("hello_1"),
            QStringLiteral("--task-name=service") });
        QCOMPARE(service.code, 0);
        QVERIFY(!service.out.isEmpty());
        QVERIFY(!service.out.contains(QLatin1String("master-replica-0")));

        const QJsonObject job = describeJson(QStringLiteral("hello_1"));
        QCOMPARE(job.value(QStringLiteral("state")).toString(), QStringLiteral("SUCCEEDED"));
        const QJsonObject input = job.value(QStringLiteral("trainingInput")).toObject();
        QCOMPARE(input.value(QStringLiteral("pythonModule")).toString(), QStringLiteral("ctlhello.task"));
        QCOMPARE(input.value(QStringLiteral("packageUris")).toArray().first().toString(), m_package);
        QCOMPARE(input.value(QStringLiteral("args")).toArray().last().toString(), QStringLiteral("--flag=with=equals"));
        QCOMPARE(job.value(QStringLiteral("labels")).toObject().value(QStringLiteral("owner")).toString(),
            QStringLiteral("alice"));

        const CtlRun yaml = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), QStringLiteral("hello_1") });
        QCOMPARE(yaml.code, 0);
        QVERIFY2(yaml.out.contains(QLatin1String("\njobId: hello_1\n")), qPrintable(yaml.out));
        QVERIFY(yaml.out.contains(QLatin1String("\nstate: SUCCEEDED\n")));
        QVERIFY(yaml.out.contains(QLatin1String("\n  pythonModule: ctlhello.task\n")));
        QVERIFY2(yaml.out.contains(QLatin1String("\n  args:\n  - '--epochs'\n  - '1'\n")), qPrintable(yaml.out));

        const CtlRun summary = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), QStringLiteral("hello_1"),
            QStringLiteral("--summarize") });
        QCOMPARE(summary.code, 0);
        QVERIFY(summary.out.contains(QLatin1String("Job Overview")));
        QVERIFY(summary.out.contains(QLatin1String("Training Input Summary")));
        QVERIFY(summary.out.contains(QLatin1String("ctlhello.task")));
        // The same executor served every call.
        QCOMPARE(executorPid(), pid);
    }

    void streamLogsSubmit()
    {
        const CtlRun r = ctl(submitArgs(QStringLiteral("hello_stream"), QStringLiteral("ctlhello.task"))
            + QStringList { QStringLiteral("--stream-logs") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.err.contains(QLatin1String("Job [hello_stream] submitted successfully.")));
        QVERIFY(!r.err.contains(QLatin1String("Your job is still active")));
        QVERIFY2(r.err.contains(QLatin1String("\tmaster-replica-0\t\thello from master 0")), qPrintable(r.err));
        QVERIFY(r.err.contains(QLatin1String("\tmaster-replica-0\t\ta warning line")));
        QVERIFY2(
            r.out.startsWith(QLatin1String("jobId: hello_stream\nstate: SUCCEEDED\nstartTime: '")), qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("\nendTime: '")));

        // A job that fails: --stream-logs exits 1.
        const CtlRun failed = ctl(submitArgs(QStringLiteral("hello_exit3"), QStringLiteral("ctlhello.exit3"))
            + QStringList { QStringLiteral("--stream-logs") });
        QCOMPARE(failed.code, 1);
        QVERIFY(failed.out.contains(QLatin1String("state: FAILED")));
        QVERIFY(failed.err.contains(QLatin1String("giving up")));
    }

    void listAndFilter_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("absent");
        QTest::addRow("all") << QString() << QStringList { QStringLiteral("hello_1"), QStringLiteral("hello_stream") }
                             << QStringList {};
        QTest::addRow("prefix") << QStringLiteral("jobId:hello_s*") << QStringList { QStringLiteral("hello_stream") }
                                << QStringList { QStringLiteral("hello_1") };
        QTest::addRow("state") << QStringLiteral("state:FAILED") << QStringList { QStringLiteral("hello_exit3") }
                               << QStringList { QStringLiteral("hello_1"), QStringLiteral("hello_stream") };
        QTest::addRow("label") << QStringLiteral("labels.owner=alice") << QStringList { QStringLiteral("hello_1") }
                               << QStringList { QStringLiteral("hello_stream") };
    }

    void listAndFilter()
    {
        QFETCH(QString, filter);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, absent);
        QStringList args { QStringLiteral("jobs"), QStringLiteral("list") };
        if (!filter.isEmpty())
            args << QStringLiteral("--filter") << filter;
        const CtlRun r = ctl(args);
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        static const QRegularExpression header(QStringLiteral("^JOB_ID +STATUS +CREATED\n"));
        QVERIFY2(header.match(r.out).hasMatch(), qPrintable(r.out));
        for (const QString& id : expected) {
            const QRegularExpression row(
                QStringLiteral("^%1 +[A-Z]+ +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d$").arg(id),
                QRegularExpression::MultilineOption);
            QVERIFY2(row.match(r.out).hasMatch(), qPrintable(r.out));
        }
        for (const QString& id : absent)
            QVERIFY2(!r.out.contains(id + QLatin1Char(' ')), qPrintable(r.out));
    }

    void listFormatsAndLimit()
    {
        const CtlRun json = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--format=json"),
            QStringLiteral("--limit=2"), QStringLiteral("--page-size=1") });
        QCOMPARE(json.code, 0);
        const QJsonArray jobs = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QCOMPARE(jobs.size(), 2);
        // YAML: one document per job, as gcloud prints a list (`---` between them).
        const CtlRun yaml = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--format=yaml"),
            QStringLiteral("--limit=2") });
        QCOMPARE(yaml.code, 0);
        const QStringList documents = yaml.out.split(QStringLiteral("\n---\n"));
        QCOMPARE(documents.size(), 2);
        for (const QString& document : documents)
            QVERIFY2(document.contains(QLatin1String("\njobId: ")), qPrintable(yaml.out));
        const CtlRun none
            = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--filter=jobId:nothing*") });
        QCOMPARE(none.code, 0);
        QVERIFY(none.out.isEmpty());
        QVERIFY(none.err.contains(QLatin1String("Listed 0 items.")));
        const CtlRun bad = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--filter=((") });
        QCOMPARE(bad.code, 1);
        QVERIFY2(
            bad.err.startsWith(QLatin1String("ERROR: (trainyardctl.jobs.list) INVALID_ARGUMENT")), qPrintable(bad.err));
    }

    /// gcloud's --package-path (issue 45, item 0): the package folder itself ("trainer/", with __init__.py, as the
    /// service's samples give it), built with its parent's setup.py when there is one, else with a generated one; the
    /// job runs `python -m <package>.task`, which imports a sibling module. Both were refused before ("has neither
    /// setup.py nor pyproject.toml"); a folder that is neither still is, naming the field and the rule.
    void packagePathAsGcloud()
    {
        const QString alone = m_root.filePath(QStringLiteral("gcloud/alone"));
        writeFile(alone + QStringLiteral("/gtrainer/__init__.py"), {});
        writeFile(alone + QStringLiteral("/gtrainer/util.py"), "def word():\n    return 'sibling'\n");
        writeFile(alone + QStringLiteral("/gtrainer/task.py"),
            "from gtrainer import util\nprint('gcloud layout with a', util.word())\n");
        const QString project = m_root.filePath(QStringLiteral("gcloud/project"));
        QVERIFY(Trainyard::Test::writeTrainingPackage(project, QStringLiteral("gtrainer2"),
            "print('built with the parent setup.py')\n", QStringLiteral("gproject")));
        const QList<std::tuple<QString, QString, QString, QString>> cases {
            { QStringLiteral("gcloud_alone"), alone + QStringLiteral("/gtrainer/"), QStringLiteral("gtrainer.task"),
                QStringLiteral("gcloud layout with a sibling") },
            { QStringLiteral("gcloud_parent"), project + QStringLiteral("/gtrainer2"), QStringLiteral("gtrainer2.task"),
                QStringLiteral("built with the parent setup.py") },
        };
        for (const auto& [id, path, module, printed] : cases) {
            const CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"), id,
                QStringLiteral("--package-path"), path, QStringLiteral("--module-name"), module,
                QStringLiteral("--region=local"), QStringLiteral("--stream-logs") });
            QVERIFY2(r.code == 0, qPrintable(r.text()));
            QVERIFY2(r.text().contains(printed), qPrintable(r.text()));
            QCOMPARE(describeJson(id).value(QStringLiteral("state")).toString(), QStringLiteral("SUCCEEDED"));
        }
        const QString neither = m_root.filePath(QStringLiteral("gcloud/neither"));
        QVERIFY(QDir().mkpath(neither));
        const CtlRun refused = ctl({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"),
            QStringLiteral("gcloud_neither"), QStringLiteral("--package-path"), neither, QStringLiteral("--module-name"),
            QStringLiteral("x.task") });
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains(QLatin1String("field: trainingInput.packageUris[0]"))
                && refused.err.contains(QLatin1String("nor an __init__.py")),
            qPrintable(refused.err));
    }

    /// gcloud's training flags that were "unrecognized arguments" (issue 45, item 11): --network, --service-account
    /// and --enable-web-access set their fields (recorded; the job runs as here), --staging-bucket is accepted with one
    /// warning, and a --kms-* flag is refused rather than the data written without the key.
    void gcloudTrainingFlags()
    {
        const CtlRun r = ctl(submitArgs(QStringLiteral("gcloud_flags_1"), QStringLiteral("ctlhello.task"))
            + QStringList { QStringLiteral("--scale-tier=custom"), QStringLiteral("--master-machine-type=n1-standard-4"),
                QStringLiteral("--network=projects/12345/global/networks/default"),
                QStringLiteral("--service-account=trainer@p.iam.gserviceaccount.com"),
                QStringLiteral("--enable-web-access"), QStringLiteral("--staging-bucket=gs://my-bucket"),
                QStringLiteral("--stream-logs") });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QCOMPARE(r.err.count(QLatin1String("WARNING: --staging-bucket is accepted and not used")), 1);
        const QJsonObject input = describeJson(QStringLiteral("gcloud_flags_1")).value(QStringLiteral("trainingInput")).toObject();
        QCOMPARE(input.value(QStringLiteral("network")).toString(), QStringLiteral("projects/12345/global/networks/default"));
        QCOMPARE(input.value(QStringLiteral("serviceAccount")).toString(), QStringLiteral("trainer@p.iam.gserviceaccount.com"));
        QVERIFY(input.value(QStringLiteral("enableWebAccess")).toBool());
        const CtlRun kms = ctl(submitArgs(QStringLiteral("gcloud_flags_2"), QStringLiteral("ctlhello.task"))
            + QStringList { QStringLiteral("--kms-key=projects/p/locations/l/keyRings/r/cryptoKeys/k") });
        QCOMPARE(kms.code, 2);
        QVERIFY2(kms.err.contains(QLatin1String("argument --kms-key: this executor cannot encrypt")), qPrintable(kms.err));
        QCOMPARE(describeJson(QStringLiteral("gcloud_flags_2")).value(QStringLiteral("jobId")).toString(), QString());
    }

    /// gcloud's format language on every command, and its list flags (issue 45, item 10): value(), csv[no-heading],
    /// table() with a transform, json() of a projection, --sort-by, --limit, --flatten, --uri. Each was "Invalid
    /// choice" or "unrecognized arguments" before.
    void gcloudFormats()
    {
        const CtlRun all = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--format=json") });
        QVERIFY2(all.code == 0, qPrintable(all.text()));
        QStringList ids;
        QMap<QString, QString> states;
        for (const QJsonValue& j : QJsonDocument::fromJson(all.out.toUtf8()).array()) {
            ids << j[QLatin1String("jobId")].toString();
            states.insert(ids.last(), j[QLatin1String("state")].toString());
        }
        QVERIFY(ids.size() >= 2);
        QStringList sorted = ids;
        sorted.sort();

        const CtlRun value = ctl({ QStringLiteral("jobs"), QStringLiteral("list"),
            QStringLiteral("--format=value(jobId,state)"), QStringLiteral("--sort-by=jobId"), QStringLiteral("--limit=2") });
        QVERIFY2(value.code == 0, qPrintable(value.text()));
        QCOMPARE(value.out,
            sorted.at(0) + QLatin1Char('\t') + states.value(sorted.at(0)) + QLatin1Char('\n') + sorted.at(1)
                + QLatin1Char('\t') + states.value(sorted.at(1)) + QLatin1Char('\n'));

        const CtlRun descending = ctl({ QStringLiteral("jobs"), QStringLiteral("list"),
            QStringLiteral("--format=value(jobId)"), QStringLiteral("--sort-by=~jobId") });
        std::reverse(sorted.begin(), sorted.end());
        QCOMPARE(descending.out, sorted.join(QLatin1Char('\n')) + QLatin1Char('\n'));

        const CtlRun csv = ctl({ QStringLiteral("jobs"), QStringLiteral("list"),
            QStringLiteral("--format=csv[no-heading](jobId,createTime.date(\"%Y\"))"), QStringLiteral("--limit=1") });
        QVERIFY2(csv.code == 0, qPrintable(csv.text()));
        static const QRegularExpression csvLine(QStringLiteral("^[a-z0-9_]+,20\\d\\d\n$"));
        QVERIFY2(csvLine.match(csv.out).hasMatch(), qPrintable(csv.out));

        const CtlRun table = ctl({ QStringLiteral("jobs"), QStringLiteral("list"),
            QStringLiteral("--format=table(jobId,state,createTime.date(\"%Y-%m-%d\"))") });
        QVERIFY2(table.code == 0, qPrintable(table.text()));
        static const QRegularExpression tableHead(QStringLiteral("^JOB_ID +STATE +CREATE_TIME\n"));
        static const QRegularExpression tableRow(
            QStringLiteral("^[a-z0-9_]+ +[A-Z]+ +\\d{4}-\\d\\d-\\d\\d$"), QRegularExpression::MultilineOption);
        QVERIFY2(tableHead.match(table.out).hasMatch() && tableRow.match(table.out).hasMatch(), qPrintable(table.out));

        const CtlRun uri = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--uri"),
            QStringLiteral("--sort-by=jobId"), QStringLiteral("--limit=1") });
        QVERIFY2(uri.code == 0, qPrintable(uri.text()));
        QVERIFY2(uri.out.startsWith(QLatin1String("http")) && uri.out.count(QLatin1Char('\n')) == 1, qPrintable(uri.out));
        std::reverse(sorted.begin(), sorted.end());
        QVERIFY2(uri.out.trimmed().endsWith(QStringLiteral("/v1/projects/local/jobs/") + sorted.first()), qPrintable(uri.out));

        // A describe takes projections too: json() keeps the keys in their places, value() prints one.
        const CtlRun described = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), ids.first(),
            QStringLiteral("--format=json(jobId,trainingInput.pythonModule)") });
        QVERIFY2(described.code == 0, qPrintable(described.text()));
        const QJsonObject projected = QJsonDocument::fromJson(described.out.toUtf8()).object();
        QCOMPARE(projected.keys(), (QStringList { QStringLiteral("jobId"), QStringLiteral("trainingInput") }));
        QCOMPARE(projected[QLatin1String("trainingInput")].toObject().keys(), QStringList { QStringLiteral("pythonModule") });
        const CtlRun state = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), ids.first(),
            QStringLiteral("--format=value(state)") });
        QCOMPARE(state.out, states.value(ids.first()) + QLatin1Char('\n'));

        // --flatten: one record per item of a list key.
        const CtlRun flat = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), ids.first(),
            QStringLiteral("--format=value(trainingInput.args.len())") });
        QVERIFY2(flat.code == 0, qPrintable(flat.text()));
        const CtlRun flattened = ctl({ QStringLiteral("jobs"), QStringLiteral("list"),
            QStringLiteral("--filter=jobId:") + ids.first(), QStringLiteral("--flatten=trainingInput.args"),
            QStringLiteral("--format=value(trainingInput.args)") });
        QVERIFY2(flattened.code == 0, qPrintable(flattened.text()));
        QCOMPARE(qMax(qsizetype(1), qsizetype(flat.out.trimmed().toInt())), flattened.out.count(QLatin1Char('\n')));

        // A format that does not parse is a usage error naming where.
        const CtlRun bad = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--format=table(jobId") });
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(QLatin1String("argument --format: Expected ) in projection expression")),
            qPrintable(bad.err));
    }

    /// gcloud's global flags are accepted with gcloud's meaning (issue 45, item 9): --quiet/-q, --verbosity (checked),
    /// --log-http (each request and answer on stderr, the token redacted), and --account/--configuration (accepted,
    /// with one warning each that they mean nothing here). They were "unrecognized arguments" before.
    void gcloudGlobalFlags()
    {
        const CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--limit=1"),
            QStringLiteral("-q"), QStringLiteral("--verbosity=info"), QStringLiteral("--log-http"),
            QStringLiteral("--configuration=default") });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QVERIFY2(r.err.contains(QLatin1String("==== request start ===="))
                && r.err.contains(QLatin1String("method: GET"))
                && r.err.contains(QLatin1String("---- response start ----\nstatus: 200")),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("Authorization: --- Token Redacted ---")), qPrintable(r.err));
        QVERIFY(!r.err.contains(QLatin1String("Bearer ")));
        QCOMPARE(r.err.count(QLatin1String("WARNING: --configuration is accepted and not used")), 1);
        const CtlRun loud = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--verbosity=loud") });
        QCOMPARE(loud.code, 2);
        QVERIFY2(
            loud.err.contains(QLatin1String("argument --verbosity: Invalid choice: 'loud'")), qPrintable(loud.err));

        // --account: the token kept for that account by `auth activate-token` (gcloud's auth
        // activate-service-account), here a viewer's, so what a viewer may not do is refused; an account with no
        // token kept is an error saying how to keep one. It was accepted with a warning and meant nothing before.
        const CtlRun none = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--account=bob@example.org") });
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains(QLatin1String("--account bob@example.org: no token is kept for this account")),
            qPrintable(none.err));
        const CtlRun created = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("create"),
            QStringLiteral("--member=user:alice@example.org"), QStringLiteral("--role=roles/ml.viewer") });
        QVERIFY2(created.code == 0, qPrintable(created.text()));
        const QString tokenFile = m_root.filePath(QStringLiteral("alice.token"));
        writeFile(tokenFile, created.out.trimmed().toUtf8());
        const CtlRun activated = ctl({ QStringLiteral("auth"), QStringLiteral("activate-token"),
            QStringLiteral("alice@example.org"), QStringLiteral("--token-file"), tokenFile });
        QVERIFY2(activated.code == 0, qPrintable(activated.text()));
        QFile kept(m_root.filePath(QStringLiteral("config/trainyard/accounts.json")));
        QCOMPARE(kept.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
        const CtlRun listed = ctl({ QStringLiteral("auth"), QStringLiteral("list"), QStringLiteral("--format=value(account)") });
        QCOMPARE(listed.out, QStringLiteral("alice@example.org\n"));
        const CtlRun viewer = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--account=alice@example.org"),
            QStringLiteral("--limit=1") });
        QVERIFY2(viewer.code == 0, qPrintable(viewer.text()));
        const CtlRun denied = ctl({ QStringLiteral("--account=alice@example.org"), QStringLiteral("jobs"),
            QStringLiteral("cancel"), QStringLiteral("hello_1") });
        QCOMPARE(denied.code, 1);
        QVERIFY2(denied.err.contains(QLatin1String("PERMISSION_DENIED")), qPrintable(denied.err));
        QCOMPARE(ctl({ QStringLiteral("auth"), QStringLiteral("revoke"), QStringLiteral("alice@example.org") }).code, 0);
        QCOMPARE(ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--account=alice@example.org") }).code, 1);
    }

    /// gcloud takes --region on the model commands (its regional endpoints); scripts copied from the service's docs
    /// put it on every line (issue 45, item 8): any region but a Slurm cluster's means this host. They were
    /// "unrecognized arguments" before.
    void modelCommandsTakeRegion()
    {
        const QStringList region { QStringLiteral("--region=us-central1") };
        CtlRun r = ctl(QStringList { QStringLiteral("models"), QStringLiteral("create"), QStringLiteral("regional"),
                           QStringLiteral("--enable-logging") }
            + region);
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        r = ctl(QStringList { QStringLiteral("models"), QStringLiteral("describe"), QStringLiteral("regional"),
            QStringLiteral("--region"), QStringLiteral("us-central1") });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        r = ctl(QStringList { QStringLiteral("versions"), QStringLiteral("list"), QStringLiteral("--model=regional"),
                    QStringLiteral("--format=json") }
            + region);
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        r = ctl(QStringList { QStringLiteral("operations"), QStringLiteral("list") } + region);
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        r = ctl(QStringList { QStringLiteral("models"), QStringLiteral("delete"), QStringLiteral("regional"),
                    QStringLiteral("--quiet") }
            + region);
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        r = ctl({ QStringLiteral("models"), QStringLiteral("describe"), QStringLiteral("regional") });
        QCOMPARE(r.code, 1); // gone
    }

    void updateLabels()
    {
        CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("update"), QStringLiteral("hello_1"),
            QStringLiteral("--update-labels=stage=test"), QStringLiteral("--remove-labels=team") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.err.contains(QLatin1String("Updated job [hello_1].")));
        QJsonObject labels = describeJson(QStringLiteral("hello_1")).value(QStringLiteral("labels")).toObject();
        QCOMPARE(labels,
            (QJsonObject { { QStringLiteral("owner"), QStringLiteral("alice") },
                { QStringLiteral("stage"), QStringLiteral("test") } }));
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("update"), QStringLiteral("hello_1"),
            QStringLiteral("--update-labels=stage=test") });
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.contains(QLatin1String("No update to perform.")));
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("update"), QStringLiteral("hello_1"),
            QStringLiteral("--update-labels=Bad=x") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("field: labels.Bad")) || r.err.contains(QLatin1String("labels.Bad")),
            qPrintable(r.err));
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("update"), QStringLiteral("hello_1"),
            QStringLiteral("--clear-labels") });
        QCOMPARE(r.code, 0);
        QVERIFY(describeJson(QStringLiteral("hello_1")).value(QStringLiteral("labels")).toObject().isEmpty());
    }

    void cancel()
    {
        CtlRun r = ctl(submitArgs(QStringLiteral("hello_wait"), QStringLiteral("ctlhello.wait")));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QTRY_COMPARE_WITH_TIMEOUT(describeJson(QStringLiteral("hello_wait")).value(QStringLiteral("state")).toString(),
            QStringLiteral("RUNNING"), 120000);
        // RUNNING comes when the replica starts; its first line comes once its interpreter has: cancelled before
        // that (a fresh-clone run under ctest's load), the line the logs are checked for below was never written.
        // The executor's log store (logstore.h: <job folder>/logs/<task>.jsonl) has it once it is written.
        const QString masterLog
            = m_root.filePath(QStringLiteral("data/trainyard/projects/local/jobs/hello_wait/logs/master-replica-0.jsonl"));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QFile log(masterLog);
                return log.open(QIODevice::ReadOnly) && log.readAll().contains("waiting");
            }(),
            60000);
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("cancel"), QStringLiteral("hello_wait") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // stream-logs returns once the job is final.
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), QStringLiteral("hello_wait") });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QLatin1String("waiting")));
        QCOMPARE(describeJson(QStringLiteral("hello_wait")).value(QStringLiteral("state")).toString(),
            QStringLiteral("CANCELLED"));
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("cancel"), QStringLiteral("hello_wait") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("FAILED_PRECONDITION")), qPrintable(r.err));
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), QStringLiteral("no_such_job") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith(QLatin1String("ERROR: (trainyardctl.jobs.describe) NOT_FOUND: ")), qPrintable(r.err));
    }

    /// Issue 27, item 21: a job that asks for more vCPUs than this host has is submitted, and stderr says so with the
    /// console's verdict (before: not a word, while the console warned).
    void oversubscriptionIsSaid()
    {
        const int cpus = QThread::idealThreadCount();
        QString type;
        for (int n : { 4, 8, 16, 32, 64, 96 }) {
            if (n > cpus) {
                type = QStringLiteral("n1-standard-%1").arg(n);
                break;
            }
        }
        QVERIFY2(!type.isEmpty(), "this host has more than 96 CPUs");
        CtlRun r = ctl(submitArgs(QStringLiteral("hello_big"), QStringLiteral("ctlhello.wait"))
            << QStringLiteral("--scale-tier=CUSTOM") << QStringLiteral("--master-machine-type=") + type);
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QVERIFY2(r.err.contains(QLatin1String("WARNING: Oversubscribes this host.")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("on this host's %1").arg(cpus)), qPrintable(r.err));
        QVERIFY2(r.err.indexOf(QLatin1String("WARNING")) < r.err.indexOf(QLatin1String("submitted successfully")),
            qPrintable(r.err));
        // Issue 46 item 9: a job submitted while that one holds the host is told that it queues, and again that it
        // asks for more than the host has (before: not a word). Counts are English plurals, as the console's.
        r = ctl(submitArgs(QStringLiteral("hello_big_second"), QStringLiteral("ctlhello.wait"))
            << QStringLiteral("--scale-tier=CUSTOM") << QStringLiteral("--master-machine-type=") + type);
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QVERIFY2(r.err.contains(QLatin1String("WARNING: Will queue.")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("on this host's %1").arg(cpus)), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("Needs 1 replica,")) && !r.err.contains(QLatin1String("(s)")),
            qPrintable(r.err));
        for (const QString& job : { QStringLiteral("hello_big_second"), QStringLiteral("hello_big") }) {
            r = ctl({ QStringLiteral("jobs"), QStringLiteral("cancel"), job });
            QVERIFY2(r.code == 0, qPrintable(r.text()));
        }
    }

    /// Issue 27, item 22: `audit list` names a call's status as the console does ("NOT_FOUND"), not by its number.
    void auditListNamesStatuses()
    {
        QVERIFY(ctl({ QStringLiteral("jobs"), QStringLiteral("cancel"), QStringLiteral("no_such_job_for_audit") }).code
            == 1);
        const CtlRun r = ctl({ QStringLiteral("audit"), QStringLiteral("list"),
            QStringLiteral("--filter=resource.labels.job_id=no_such_job_for_audit") });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QVERIFY2(r.out.contains(QLatin1String(" NOT_FOUND ")), qPrintable(r.out));
        const CtlRun all = ctl({ QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--limit=20") });
        static const QRegularExpression ok(QStringLiteral("\\bOK\\b"));
        QVERIFY2(ok.match(all.out).hasMatch(), qPrintable(all.out));
        static const QRegularExpression bareCode(QStringLiteral("Z +\\d{1,2} +\\S"));
        QVERIFY2(!bareCode.match(all.out).hasMatch(), qPrintable(all.out));
    }

    /// Issue 27, item 23: `inspect checkpoint` of a folder (a job dir) lists the checkpoints in it, as the console's
    /// Checkpoints tab does (before: "not a recognised checkpoint").
    void inspectCheckpointFolder()
    {
        const QString dir = m_root.filePath(QStringLiteral("ckpt_folder"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/checkpoints")));
        for (const char* name : { "checkpoints/ckpt-epoch-1.pt", "checkpoints/ckpt-epoch-2.pt" })
            QVERIFY(QFile::copy(QStringLiteral(TRAINYARD_FIXTURES_DIR "/pytorch/test.pt"),
                dir + QLatin1Char('/') + QLatin1String(name)));
        const CtlRun r = ctl({ QStringLiteral("inspect"), QStringLiteral("checkpoint"), dir });
        QVERIFY2(r.code == 0, qPrintable(r.text()));
        QVERIFY2(r.out.startsWith(QLatin1String("NAME")), qPrintable(r.out));
        for (const char* name : { "checkpoints/ckpt-epoch-1.pt", "checkpoints/ckpt-epoch-2.pt" })
            QVERIFY2(r.out.contains(QLatin1String(name)), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("pytorch")), qPrintable(r.out));
        const CtlRun json
            = ctl({ QStringLiteral("inspect"), QStringLiteral("checkpoint"), dir, QStringLiteral("--format=json") });
        QCOMPARE(json.code, 0);
        QCOMPARE(
            QJsonDocument::fromJson(json.out.toUtf8()).object().value(QStringLiteral("checkpoints")).toArray().size(),
            2);
        QVERIFY(QDir().mkpath(m_root.filePath(QStringLiteral("empty_folder"))));
        const CtlRun empty = ctl({ QStringLiteral("inspect"), QStringLiteral("checkpoint"),
            m_root.filePath(QStringLiteral("empty_folder")) });
        QCOMPARE(empty.code, 1);
        QVERIFY2(empty.err.contains(QLatin1String("no checkpoint in this folder")), qPrintable(empty.err));
    }

    void invalidJobs_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("field");
        QTest::addRow("custom without master")
            << QStringList { QStringLiteral("--scale-tier=custom") } << QStringLiteral("trainingInput.masterType");
        QTest::addRow("workers without type") << QStringList { QStringLiteral("--scale-tier=custom"),
            QStringLiteral("--master-machine-type=n1-standard-4"), QStringLiteral("--worker-count=2") }
                                              << QStringLiteral("trainingInput.workerType");
        QTest::addRow("bad label") << QStringList { QStringLiteral("--labels=Owner=x") }
                                   << QStringLiteral("labels.Owner");
        QTest::addRow("unknown machine") << QStringList { QStringLiteral("--scale-tier=custom"),
            QStringLiteral("--master-machine-type=n9-giant") }
                                         << QStringLiteral("trainingInput.masterType");
    }

    void invalidJobs()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, field);
        const CtlRun r = ctl(submitArgs(QStringLiteral("bad_job"), QStringLiteral("ctlhello.task")) + extra);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith(QLatin1String("ERROR: (trainyardctl.jobs.submit.training) INVALID_ARGUMENT: ")),
            qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("field: ") + field), qPrintable(r.err));
        // Nothing was created.
        QCOMPARE(ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), QStringLiteral("bad_job") }).code, 1);
    }

    void configFile()
    {
        // A real gcloud --config file (scaleTier: BASIC); the command line adds labels and overrides nothing else.
        const QString config = QStringLiteral(TRAINYARD_FIXTURES_DIR)
            + QStringLiteral("/configs/cloudml-template_examples_classification_census_config.yaml");
        QVERIFY(QFile::exists(config));
        CtlRun r = ctl(submitArgs(QStringLiteral("hello_config"), QStringLiteral("ctlhello.task"))
            + QStringList { QStringLiteral("--config"), config, QStringLiteral("--region=europe-west1") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject input
            = describeJson(QStringLiteral("hello_config")).value(QStringLiteral("trainingInput")).toObject();
        QCOMPARE(input.value(QStringLiteral("scaleTier")).toString(), QStringLiteral("BASIC"));
        QCOMPARE(input.value(QStringLiteral("region")).toString(), QStringLiteral("europe-west1"));

        // Flags override the config: the config's CUSTOM master type is replaced.
        const QString own = m_root.filePath(QStringLiteral("config.yaml"));
        writeFile(own,
            "trainingInput:\n  scaleTier: CUSTOM\n  masterType: n1-standard-4\n  args: [--from-config]\n"
            "labels:\n  source: config\n");
        r = ctl(submitArgs(QStringLiteral("hello_override"), QStringLiteral("ctlhello.task"))
            + QStringList { QStringLiteral("--config"), own, QStringLiteral("--master-machine-type=n1-standard-8"),
                QStringLiteral("--"), QStringLiteral("--from-flags") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject job = describeJson(QStringLiteral("hello_override"));
        QCOMPARE(job.value(QStringLiteral("trainingInput")).toObject().value(QStringLiteral("masterType")).toString(),
            QStringLiteral("n1-standard-8"));
        QCOMPARE(job.value(QStringLiteral("trainingInput")).toObject().value(QStringLiteral("args")).toArray(),
            QJsonArray { QStringLiteral("--from-flags") });
        QCOMPARE(job.value(QStringLiteral("labels")).toObject().value(QStringLiteral("source")).toString(),
            QStringLiteral("config"));

        // A malformed config is an error naming the file.
        writeFile(own, "trainingInput:\n  workerCount: [1, 2\n");
        r = ctl(submitArgs(QStringLiteral("hello_badconfig"), QStringLiteral("ctlhello.task"))
            + QStringList { QStringLiteral("--config"), own });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("Invalid --config file")), qPrintable(r.err));
        // Wait for the submitted jobs so that none runs past the end of the test.
        QCOMPARE(
            ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), QStringLiteral("hello_config") }).code, 0);
        QCOMPARE(
            ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), QStringLiteral("hello_override") }).code, 0);
    }

    /// A hyperparameter tuning job from an hptuning config file, as a user runs one: submit with --config and
    /// --stream-logs, then describe --summarize (gcloud's "Training Output Trials" table), list (trial
    /// progress), stream-logs --trial and metrics --trial.
    void tuningJob()
    {
        const QString config = m_root.filePath(QStringLiteral("hptuning_config.yaml"));
        writeFile(config,
            "trainingInput:\n"
            "  scaleTier: BASIC\n"
            "  args: [--steps, '2']\n"
            "  hyperparameters:\n"
            "    goal: MAXIMIZE\n"
            "    hyperparameterMetricTag: score\n"
            "    algorithm: GRID_SEARCH\n"
            "    maxTrials: 4\n"
            "    maxParallelTrials: 2\n"
            "    params:\n"
            "    - parameterName: n\n"
            "      type: INTEGER\n"
            "      minValue: 2\n"
            "      maxValue: 3\n"
            "    - parameterName: opt\n"
            "      type: CATEGORICAL\n"
            "      categoricalValues: [a, b]\n");
        const QString id = QStringLiteral("hello_tuning");
        const QString trainer = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
        CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"), id,
            QStringLiteral("--package-path"), trainer, QStringLiteral("--module-name"),
            QStringLiteral("tytest.objective"), QStringLiteral("--job-dir"),
            m_root.filePath(QStringLiteral("jobs/") + id), QStringLiteral("--config"), config,
            QStringLiteral("--stream-logs") });
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.err.contains(QLatin1String("Trial 4 completed successfully.")), qPrintable(r.err));

        r = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), id, QStringLiteral("--summarize") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("Training Output Trials")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("TRIAL")) && r.out.contains(QLatin1String("OBJECTIVE_VALUE")),
            qPrintable(r.out));
        // Every row of a box is as wide as its frame.
        qsizetype frame = -1;
        for (const QString& line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            if (line.startsWith(QChar(0x250C)))
                frame = line.size();
            QVERIFY2(line.size() == frame, qPrintable(line));
        }
        // The best trial (n=3, opt=a: 1 - 0.09) comes first.
        const qsizetype best = r.out.indexOf(QLatin1String("0.91"));
        QVERIFY2(best > 0, qPrintable(r.out));
        QVERIFY2(r.out.indexOf(QLatin1String("opt=a"), best) > best, qPrintable(r.out));
        const QJsonObject output = describeJson(id).value(QStringLiteral("trainingOutput")).toObject();
        QCOMPARE(output.value(QStringLiteral("completedTrialCount")).toString(), QStringLiteral("4"));
        QCOMPARE(output.value(QStringLiteral("isHyperparameterTuningJob")).toBool(), true);
        QCOMPARE(output.value(QStringLiteral("trials")).toArray().size(), 4);

        r = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--filter=jobId:hello_tuning") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(
            r.out.contains(QLatin1String("TRIALS")) && r.out.contains(QLatin1String("4/4 ended")), qPrintable(r.out));

        r = ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), id, QStringLiteral("--trial=2") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("Trial 2 is running.")), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QLatin1String("Trial 1 ")) && !r.out.contains(QLatin1String("Trial 3 ")),
            qPrintable(r.out));
        for (const QString& line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(line.split(QLatin1Char('\t')).value(3) == QLatin1String("2"), qPrintable(line));

        // The metrics of one trial; the collector reads once a second, so wait for its reports.
        QTRY_VERIFY_WITH_TIMEOUT(
            ctl({ QStringLiteral("jobs"), QStringLiteral("metrics"), id, QStringLiteral("--trial=3") })
                .out.contains(QLatin1String("hypertune/master-replica-0@3,score,2,")),
            20000);
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("metrics"), id, QStringLiteral("--trial=3") });
        QVERIFY2(!r.out.contains(QLatin1String("@1,")) && !r.out.contains(QLatin1String("@2,")), qPrintable(r.out));

        // resumePreviousJobId must name a tuning job of the project with the same params and goal.
        auto resume = [&](const QString& newId, const QString& previous, const QByteArray& params) {
            const QString file = m_root.filePath(newId + QStringLiteral(".yaml"));
            writeFile(file,
                "trainingInput:\n  scaleTier: BASIC\n  hyperparameters:\n    goal: MAXIMIZE\n"
                "    hyperparameterMetricTag: score\n    algorithm: GRID_SEARCH\n    maxTrials: 4\n"
                "    resumePreviousJobId: "
                    + previous.toUtf8() + "\n    params:\n" + params);
            return ctl({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"), newId,
                QStringLiteral("--package-path"), trainer, QStringLiteral("--module-name"),
                QStringLiteral("tytest.objective"), QStringLiteral("--job-dir"),
                m_root.filePath(QStringLiteral("jobs/") + newId), QStringLiteral("--config"), file });
        };
        const QByteArray sameParams
            = "    - parameterName: n\n      type: INTEGER\n      minValue: 2\n      maxValue: 3\n"
              "    - parameterName: opt\n      type: CATEGORICAL\n      categoricalValues: [a, b]\n";
        r = resume(QStringLiteral("resume_missing"), QStringLiteral("no_such_job"), sameParams);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("resumePreviousJobId"))
                && r.err.contains(QLatin1String("no job \"no_such_job\"")),
            qPrintable(r.err));
        r = resume(QStringLiteral("resume_other_params"), id,
            "    - parameterName: n\n      type: INTEGER\n      minValue: 1\n      maxValue: 3\n");
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("searched other parameters")), qPrintable(r.err));
        // The grid of 4 points was searched whole: a resumed study has nothing left and ends at once.
        r = resume(QStringLiteral("resume_ok"), id, sameParams);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), QStringLiteral("resume_ok") }).code, 0);
        const QJsonObject resumed = describeJson(QStringLiteral("resume_ok"));
        QCOMPARE(resumed.value(QStringLiteral("state")).toString(), QStringLiteral("FAILED"));
        QVERIFY2(resumed.value(QStringLiteral("errorMessage"))
                     .toString()
                     .contains(QLatin1String("No trial ran: every point of the search space had been tried already by "
                                             "the job this one resumes.")),
            qPrintable(resumed.value(QStringLiteral("errorMessage")).toString()));
    }

    /// The executor is SIGKILLed mid-study and the next command starts a new one: the trial that was running is
    /// restarted with its own values (its replica died with the executor), the ended one is not run again, the
    /// numbering goes on, and the study succeeds with every trial once.
    void tuningSurvivesExecutorKill()
    {
        const QString config = m_root.filePath(QStringLiteral("hptuning_kill.yaml"));
        writeFile(config,
            "trainingInput:\n"
            "  scaleTier: BASIC\n"
            "  args: [--hold, 'release-{trial}']\n"
            "  hyperparameters:\n"
            "    goal: MAXIMIZE\n"
            "    hyperparameterMetricTag: score\n"
            "    algorithm: GRID_SEARCH\n"
            "    maxTrials: 3\n"
            "    params:\n"
            "    - parameterName: opt\n"
            "      type: CATEGORICAL\n"
            "      categoricalValues: [a, b, c]\n");
        const QString id = QStringLiteral("tuning_killed");
        const QString jobDir = m_root.filePath(QStringLiteral("jobs/") + id);
        const QString trainer = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/trainers/tytest");
        CtlRun r = ctl({ QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"), id,
            QStringLiteral("--package-path"), trainer, QStringLiteral("--module-name"),
            QStringLiteral("tytest.objective"), QStringLiteral("--job-dir"), jobDir, QStringLiteral("--config"),
            config });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto runs = [&](const QString& trial) {
            QFile f(jobDir + QStringLiteral("/runs.log"));
            int n = 0;
            if (f.open(QIODevice::ReadOnly)) {
                for (const QByteArray& line : f.readAll().split('\n'))
                    n += line.startsWith(QByteArray(trial.toUtf8() + ' ')) ? 1 : 0;
            }
            return n;
        };
        auto release = [&](const QString& trial) { writeFile(jobDir + QStringLiteral("/release-") + trial, ""); };
        QTRY_COMPARE_WITH_TIMEOUT(runs(QStringLiteral("1")), 1, 120000);
        release(QStringLiteral("1"));
        QTRY_COMPARE_WITH_TIMEOUT(runs(QStringLiteral("2")), 1, 60000);

        const qint64 pid = executorPid();
        QVERIFY(pid > 0);
        ::kill(pid_t(pid), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 10000);

        // Any command starts a new executor, which recovers the study.
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("describe"), id, QStringLiteral("--format=json") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(executorPid() != pid);
        QTRY_COMPARE_WITH_TIMEOUT(runs(QStringLiteral("2")), 2, 60000);
        release(QStringLiteral("2"));
        release(QStringLiteral("3"));
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("stream-logs"), id });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String(
                     "The executor restarted while trial 2 was running; restarting it (restart 1 of 3).")),
            qPrintable(r.out));
        const QJsonObject job = describeJson(id);
        QCOMPARE(job.value(QStringLiteral("state")).toString(), QStringLiteral("SUCCEEDED"));
        QCOMPARE(job.value(QStringLiteral("trainingOutput"))
                     .toObject()
                     .value(QStringLiteral("completedTrialCount"))
                     .toString(),
            QStringLiteral("3"));
        QCOMPARE(runs(QStringLiteral("1")), 1);
        QCOMPARE(runs(QStringLiteral("2")), 2);
        QCOMPARE(runs(QStringLiteral("3")), 1);
        QCOMPARE(runs(QStringLiteral("4")), 0);
    }

    void explicitExecutor()
    {
        QFile f(m_root.filePath(QStringLiteral("run/trainyard/executor.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString url = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("url")).toString();
        CtlRun r = ctl({ QStringLiteral("--executor"), url, QStringLiteral("jobs"), QStringLiteral("describe"),
            QStringLiteral("hello_1"), QStringLiteral("--format=json") });
        QCOMPARE(r.code, 0);
        // A wrong address is an error, and never starts a second executor.
        r = ctl({ QStringLiteral("jobs"), QStringLiteral("list"), QStringLiteral("--executor=http://127.0.0.1:1") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("No executor answers at http://127.0.0.1:1")), qPrintable(r.err));
    }

    void authTokens()
    {
        // Made by the admin (trainyardctl uses the token file): printed once, alone on stdout.
        CtlRun r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("create"),
            QStringLiteral("--member"), QStringLiteral("user:alice@example.org"), QStringLiteral("--role"),
            QStringLiteral("roles/ml.viewer"), QStringLiteral("--expires"), QStringLiteral("7d") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QByteArray token = r.out.trimmed().toLatin1();
        QVERIFY2(token.startsWith("tyk_") && !token.contains('\n'), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("Created token [tokens/")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("[roles/ml.viewer], expiring ")), qPrintable(r.err));

        // Listed with its state, never with the token.
        r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("list") });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("NAME ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("user:alice@example.org")) && r.out.contains(QStringLiteral("ACTIVE")),
            qPrintable(r.out));
        QVERIFY(!r.out.contains(QString::fromLatin1(token.mid(4))));
        r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("list"),
            QStringLiteral("--format=json") });
        QCOMPARE(r.code, 0);
        const QJsonArray tokens = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QVERIFY(!tokens.isEmpty());
        const QJsonObject alice = tokens.last().toObject();
        QCOMPARE(alice.value(QStringLiteral("member")).toString(), QStringLiteral("user:alice@example.org"));
        QVERIFY(!alice.contains(QStringLiteral("token")));
        const QString name = alice.value(QStringLiteral("name")).toString();
        r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("list"),
            QStringLiteral("--format=yaml") });
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.split(QStringLiteral("\n---\n")).size(), tokens.size()); // a document per token
        QVERIFY2(r.out.contains(QStringLiteral("member: user:alice@example.org\n")), qPrintable(r.out));

        // Its holder may read, not manage tokens or cancel.
        QFile f(m_root.filePath(QStringLiteral("run/trainyard/executor.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QUrl url(QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("url")).toString());
        r = ctlAgainst(url, token, { QStringLiteral("jobs"), QStringLiteral("list") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = ctlAgainst(url, token, { QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("list") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("PERMISSION_DENIED: Permission 'trainyard.tokens.list' denied")),
            qPrintable(r.err));

        // Revoked: listed as such, and refused.
        r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("revoke"), name });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("Revoked token [%1].").arg(name)), qPrintable(r.err));
        r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("list") });
        QVERIFY2(r.out.contains(QStringLiteral("REVOKED")), qPrintable(r.out));
        r = ctlAgainst(url, token, { QStringLiteral("jobs"), QStringLiteral("list") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("UNAUTHENTICATED")), qPrintable(r.err));
        r = ctl(
            { QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("revoke"), QStringLiteral("nosuch") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("NOT_FOUND")), qPrintable(r.err));

        // Usage errors (exit 2) and the executor's field violations (exit 1).
        r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("create"),
            QStringLiteral("--member"), QStringLiteral("user:bob@example.org") });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("argument --role: Must be specified.")), qPrintable(r.err));
        r = ctl({ QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("create"),
            QStringLiteral("--member"), QStringLiteral("user:bob@example.org"), QStringLiteral("--role"),
            QStringLiteral("roles/ml.viewer"), QStringLiteral("--expires"), QStringLiteral("7x") });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("argument --expires")), qPrintable(r.err));
        r = ctl(
            { QStringLiteral("auth"), QStringLiteral("tokens"), QStringLiteral("create"), QStringLiteral("--member"),
                QStringLiteral("bob"), QStringLiteral("--role"), QStringLiteral("roles/ml.viewer") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("field: member")), qPrintable(r.err));
    }

    void localTrain()
    {
        const CtlRun r
            = ctl({ QStringLiteral("local"), QStringLiteral("train"), QStringLiteral("--module-name=ctlhello.task"),
                QStringLiteral("--package-path"), m_package, QStringLiteral("--distributed"),
                QStringLiteral("--worker-count=2"), QStringLiteral("--parameter-server-count=1"),
                QStringLiteral("--start-port=29731"), QStringLiteral("--job-dir"),
                m_root.filePath(QStringLiteral("local")), QStringLiteral("--"), QStringLiteral("--x") });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const char* expected :
            { "master-replica-0: hello from master 0 args=--x --job-dir", "worker-replica-0: hello from worker 0",
                "worker-replica-1: hello from worker 1", "ps-replica-0: hello from ps 0" })
            QVERIFY2(r.out.contains(QLatin1String(expected)), qPrintable(r.out));
        QVERIFY(r.err.contains(QLatin1String("master-replica-0: a warning line")));

        const CtlRun single
            = ctl({ QStringLiteral("local"), QStringLiteral("train"), QStringLiteral("--module-name=ctlhello.task"),
                QStringLiteral("--package-path"), m_package + QStringLiteral("/ctlhello") });
        QCOMPARE(single.code, 0);
        QVERIFY2(
            single.out.contains(QLatin1String("master-replica-0: hello from none 0 args=")), qPrintable(single.out));

        const CtlRun failing = ctl({ QStringLiteral("local"), QStringLiteral("train"),
            QStringLiteral("--module-name=ctlhello.exit3"), QStringLiteral("--package-path"), m_package });
        QCOMPARE(failing.code, 3);
    }

    /// Ctrl-C on `local train` stops every replica and every process a replica started, also one that
    /// left its process group, before the command returns (issue 12: a trainer's `sleep` child used to
    /// keep running under PID 1).
    void localTrainCtrlCLeavesNothing()
    {
        const QString pids = m_root.filePath(QStringLiteral("family.pids"));
        QFile::remove(pids);
        QProcess p;
        p.setProcessEnvironment(environment());
        p.setWorkingDirectory(m_root.path());
        p.start(QStringLiteral(TRAINYARD_CTL_BIN),
            { QStringLiteral("local"), QStringLiteral("train"), QStringLiteral("--module-name=ctlhello.family"),
                QStringLiteral("--package-path"), m_package, QStringLiteral("--"), QStringLiteral("--pids"), pids });
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pids), 60000);
        QFile f(pids);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<qint64> family;
        for (const QByteArray& pid : f.readAll().split(' '))
            family << pid.toLongLong();
        QCOMPARE(family.size(), 3);
        for (qint64 pid : std::as_const(family))
            QVERIFY(processAlive(pid));
        ::kill(pid_t(p.processId()), SIGINT); // what Ctrl-C sends to the command
        QVERIFY(p.waitForFinished(30000));
        // Gone when the command returns, not some time later.
        for (qint64 pid : std::as_const(family))
            QVERIFY2(!processAlive(pid), qPrintable(QString::number(pid)));
        QVERIFY(p.exitCode() != 0);
        QVERIFY2(QString::fromUtf8(p.readAllStandardError()).contains(QLatin1String("Interrupted")),
            "the command says why it stopped");
    }

    void submitConfirmsACreateWhoseAnswerWasLost()
    {
        // An executor that stores the job and dies before answering: every POST loses its connection. As gcloud's
        // retries do, trainyardctl must look for the job by its ID before it reports a failure.
        using Fake = Trainyard::Test::FakeHttpServer;
        QByteArray storedJob; // what the fake "stored" (the first POST's body), answered by GET afterwards
        QString getAnswer = QStringLiteral("stored");
        Fake fake([&](const Fake::Request& r) {
            Fake::Response response;
            if (r.path.endsWith(QLatin1String("/host")))
                return response; // 200 {}: the locator's health check
            if (r.method == "POST") {
                if (storedJob.isEmpty()) {
                    QJsonObject job = QJsonDocument::fromJson(r.body).object();
                    job.insert(QStringLiteral("state"), QStringLiteral("QUEUED"));
                    job.insert(QStringLiteral("createTime"), QStringLiteral("2026-11-24T06:00:00Z"));
                    storedJob = QJsonDocument(job).toJson(QJsonDocument::Compact);
                }
                response.action = Fake::Response::Action::Close;
                return response;
            }
            if (r.method == "GET" && r.path == QLatin1String("/v1/projects/local/jobs/lost_answer")) {
                if (getAnswer == QLatin1String("stored") && !storedJob.isEmpty()) {
                    response.body = storedJob;
                } else if (getAnswer == QLatin1String("someone else's")) {
                    QJsonObject other = QJsonDocument::fromJson(storedJob).object();
                    QJsonObject input = other.value(QStringLiteral("trainingInput")).toObject();
                    input.insert(QStringLiteral("pythonModule"), QStringLiteral("other.task"));
                    other.insert(QStringLiteral("trainingInput"), input);
                    response.body = QJsonDocument(other).toJson(QJsonDocument::Compact);
                } else {
                    response.status = 404;
                    response.body = R"({"error":{"code":404,"message":"not found","status":"NOT_FOUND"}})";
                }
                return response;
            }
            response.status = 404;
            response.body = R"({"error":{"code":404,"message":"no such route","status":"NOT_FOUND"}})";
            return response;
        });
        const QStringList submit = submitArgs(QStringLiteral("lost_answer"), QStringLiteral("ctlhello.task"));
        auto posts = [&] {
            int n = 0;
            for (const Fake::Request& r : fake.requests())
                n += r.method == "POST" ? 1 : 0;
            return n;
        };

        // Stored, answer lost: found by its ID and reported as submitted.
        CtlRun r = ctlAgainst(fake.url(), "fake-token", submit);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("checking whether job [lost_answer] was created")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("Job [lost_answer] submitted successfully.")), qPrintable(r.err));
        QVERIFY(!fake.requestsFor(QStringLiteral("/v1/projects/local/jobs/lost_answer")).isEmpty());

        // Not stored: sent once more; when that answer is lost too, the job may exist, and the message says so.
        getAnswer = QStringLiteral("absent");
        const int before = posts();
        r = ctlAgainst(fake.url(), "fake-token", submit);
        QCOMPARE(r.code, 1);
        QVERIFY(posts() > before + 1);
        QVERIFY2(r.err.contains(QStringLiteral("may or may not have been created")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("trainyardctl jobs describe lost_answer")), qPrintable(r.err));

        // Another job holds the ID: that is no success of ours.
        getAnswer = QStringLiteral("someone else's");
        r = ctlAgainst(fake.url(), "fake-token", submit);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("ALREADY_EXISTS")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCtl)
#include "tst_ctl.moc"
