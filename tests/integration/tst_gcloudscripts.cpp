// SPDX-License-Identifier: GPL-2.0-or-later
// gcloud-style shell scripts against a real executor, as users port them (issue 45, item 13): each script in
// tests/integration/gcloud-scripts/ runs under `sh -e` with this build's trainyardctl first on PATH, in an isolated
// account whose executor trainyardctl starts itself; every line must succeed. The scripts are the issue's model
// script, the README's model block and the service's training command, with their flags as written there.
#include "ctlrun.h"
#include "predictionmodels.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Trainyard::Test;

namespace {

bool writeText(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

} // namespace

class TestGcloudScripts : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_models;
    QJsonArray m_instances;

    /// Runs `script` with `sh -e` in a fresh working folder, `vars` in its environment; its whole output on failure.
    void runScript(const QString& script, const QStringList& vars)
    {
        const QString work = m_root.filePath(QStringLiteral("work/") + QFileInfo(script).baseName());
        QVERIFY(QDir().mkpath(work));
        QProcessEnvironment env = isolatedCtlEnvironment(m_root);
        env.insert(QStringLiteral("PATH"),
            QFileInfo(QStringLiteral(TRAINYARD_CTL_BIN)).absolutePath() + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        env.insert(QStringLiteral("OUT"), work);
        for (const QString& v : vars)
            env.insert(v.section(QLatin1Char('='), 0, 0), v.section(QLatin1Char('='), 1));
        QProcess sh;
        sh.setProcessEnvironment(env);
        sh.setWorkingDirectory(work);
        sh.setProcessChannelMode(QProcess::MergedChannels);
        sh.start(QStringLiteral("/bin/sh"),
            { QStringLiteral("-e"), QStringLiteral("-x"),
                QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/gcloud-scripts/") + script });
        QVERIFY(sh.waitForStarted());
        QVERIFY2(QTest::qWaitFor([&] { return sh.state() == QProcess::NotRunning; }, 600000), "the script hung");
        const QString output = QString::fromUtf8(sh.readAll());
        if (qEnvironmentVariableIsSet("TRAINYARD_TEST_VERBOSE"))
            qInfo().noquote() << output;
        QVERIFY2(sh.exitStatus() == QProcess::NormalExit && sh.exitCode() == 0, qPrintable(output));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(makeAccountFolders(m_root, { QStringLiteral("models") }));
        m_models = m_root.filePath(QStringLiteral("models"));
        // The models tst_predictionapi deploys, trained by the libraries themselves.
        const std::optional<QJsonObject> e = trainPredictionModels(m_models);
        QVERIFY(e);
        m_instances = e->value(QStringLiteral("instances")).toArray();
        QCOMPARE(m_instances.size(), 5);
        // gcloud's --json-instances: one JSON instance a line. The batch job's input: two files of five rows.
        QByteArray rows;
        for (const QJsonValue& row : std::as_const(m_instances))
            rows += QJsonDocument(row.toArray()).toJson(QJsonDocument::Compact) + '\n';
        QVERIFY(writeText(m_models + QStringLiteral("/rows.json"), rows));
        QVERIFY(writeText(m_models + QStringLiteral("/batch/rows-1.json"), rows));
        QVERIFY(writeText(m_models + QStringLiteral("/batch/rows-2.json"), rows));
        // The service's sample trainer layout: trainer/ with __init__.py and task.py, no setup.py.
        QVERIFY(writeText(m_root.filePath(QStringLiteral("src/trainer/__init__.py")), {}));
        QVERIFY(writeText(m_root.filePath(QStringLiteral("src/trainer/task.py")),
            "import argparse, os, sys\n"
            "p = argparse.ArgumentParser()\n"
            "p.add_argument('--job-dir')\n"
            "p.add_argument('--user_first_arg')\n"
            "a = p.parse_args()\n"
            "print('user_first_arg', a.user_first_arg)\n"
            "os.makedirs(a.job_dir, exist_ok=True)\n"
            "open(os.path.join(a.job_dir, 'done.txt'), 'w').write(' '.join(sys.argv[1:]))\n"));
    }

    void cleanupTestCase()
    {
        const qint64 pid = isolatedExecutorPid(m_root);
        if (pid > 0)
            ::kill(pid_t(pid), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(pid <= 0 || ::kill(pid_t(pid), 0) != 0, 30000);
    }

    /// Issue 45's script: models create with --region and --enable-logging, versions create with gcloud's
    /// --runtime-version/--python-version/--quiet, predict with value(predictions), versions list as csv[no-heading],
    /// jobs list with --filter, --sort-by=~createTime, --limit and a table() with date(), the deletes with --quiet.
    void issueScript()
    {
        runScript(QStringLiteral("census_model.sh"),
            { QStringLiteral("MODEL_DIR=") + m_models + QStringLiteral("/sklearn"),
                QStringLiteral("ROWS=") + m_models + QStringLiteral("/rows.json") });
    }

    /// The README's model block: deploy, predict (gcloud's default table), a second version scaled to zero, set-default,
    /// operations list, delete, a batch prediction job with two workers, and the describes a script checks with.
    void readmeScript()
    {
        runScript(QStringLiteral("readme_models.sh"),
            { QStringLiteral("XGB_DIR=") + m_models + QStringLiteral("/xgboost"),
                QStringLiteral("SK_DIR=") + m_models + QStringLiteral("/sklearn"),
                QStringLiteral("ROWS=") + m_models + QStringLiteral("/rows.json"),
                QStringLiteral("DATA=") + m_models + QStringLiteral("/batch") });
    }

    /// The verbs and flags a port from gcloud's reference reaches for: models update and its label flags, versions
    /// update --remove-labels, operations cancel, predict --signature-name, --page-size, local predict.
    void verbsAndFlagsScript()
    {
        runScript(QStringLiteral("verbs_and_flags.sh"),
            { QStringLiteral("SK_DIR=") + m_models + QStringLiteral("/sklearn"),
                QStringLiteral("ROWS=") + m_models + QStringLiteral("/rows.json") });
    }

    /// The service's training command: --package-path trainer/ (the package folder), --region, --python-version,
    /// --runtime-version, --job-dir, --stream-logs and the user's arguments after --.
    void trainingScript()
    {
        runScript(QStringLiteral("training_from_docs.sh"), { QStringLiteral("SRC=") + m_root.filePath(QStringLiteral("src")) });
    }
};

QTEST_GUILESS_MAIN(TestGcloudScripts)
#include "tst_gcloudscripts.moc"
