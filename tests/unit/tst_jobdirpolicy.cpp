// SPDX-License-Identifier: GPL-2.0-or-later
// PathPolicy: the rule for trainingInput.jobDir (absolute, clean, strictly inside an allowed root after
// resolving symbolic links), on real folders and links in a temporary root.

#include "packagesource.h"
#include "pathpolicy.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestPathPolicy : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(QDir().mkpath(m_root.filePath(QStringLiteral("jobs/run1"))));
        // A link inside the root that leads out of it.
        QVERIFY(QFile::link(QStringLiteral("/etc"), m_root.filePath(QStringLiteral("escape"))));
        // A link inside the root that stays inside.
        QVERIFY(QFile::link(m_root.filePath(QStringLiteral("jobs")), m_root.filePath(QStringLiteral("alias"))));
    }

    void rules_data()
    {
        QTest::addColumn<QString>("jobDir");
        QTest::addColumn<QString>("problem"); // a word the violation must hold; empty: allowed
        const QString r = m_root.path();
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("inside, existing") << r + QStringLiteral("/jobs/run1") << QString();
        QTest::newRow("inside, new") << r + QStringLiteral("/jobs/run2/deeper") << QString();
        QTest::newRow("trailing slash") << r + QStringLiteral("/jobs/run1/") << QString();
        QTest::newRow("link staying inside") << r + QStringLiteral("/alias/run3") << QString();
        // One rule for every field (PathPolicy::urlProblem()): Cloud Storage said as such, any other URL no path here.
        QTest::newRow("gs://") << QStringLiteral("gs://bucket/jobs/run1")
                               << QStringLiteral("is in Cloud Storage, which this executor cannot reach");
        QTest::newRow("another URL") << QStringLiteral("https://example.org/jobs/run1")
                                     << QStringLiteral("not a local folder");
        QTest::newRow("relative") << QStringLiteral("jobs/run1") << QStringLiteral("not an absolute path");
        QTest::newRow("tilde") << QStringLiteral("~/x") << QStringLiteral("not an absolute path");
        QTest::newRow("dot dot") << QStringLiteral("../../etc") << QStringLiteral("not an absolute path");
        QTest::newRow("absolute with ..")
            << r + QStringLiteral("/jobs/../../etc") << QStringLiteral("not a clean path");
        QTest::newRow("absolute with .") << r + QStringLiteral("/./jobs") << QStringLiteral("not a clean path");
        QTest::newRow("double slash") << r + QStringLiteral("//jobs") << QStringLiteral("not a clean path");
        QTest::newRow("the root itself") << r << QStringLiteral("lies outside");
        QTest::newRow("/") << QStringLiteral("/") << QStringLiteral("lies outside");
        QTest::newRow("/etc") << QStringLiteral("/etc") << QStringLiteral("lies outside");
        QTest::newRow("/proc/self") << QStringLiteral("/proc/self") << QStringLiteral("lies outside");
        QTest::newRow("link leading out") << r + QStringLiteral("/escape/ssl") << QStringLiteral("lies outside");
        QTest::newRow("sibling with the root's prefix")
            << r + QStringLiteral("-other/run1") << QStringLiteral("lies outside");
        // Issue 26, item 7: what the kernel cannot take as a path was accepted and ran.
        QTest::newRow("NUL") << r + QStringLiteral("/jobs/a") + QChar(0) + QStringLiteral("/../../etc")
                             << QStringLiteral("NUL character");
        QTest::newRow("a 5,000-character component")
            << r + QStringLiteral("/jobs/") + QString(5000, QLatin1Char('x')) << QStringLiteral("at most 255");
        QTest::newRow("a 256-byte component (128 two-byte characters)")
            << r + QStringLiteral("/jobs/") + QString(128, QChar(0xe9)) << QStringLiteral("at most 255");
        QTest::newRow("a 255-byte component")
            << r + QStringLiteral("/jobs/") + QString(255, QLatin1Char('y')) << QString();
        QString deep = r;
        while (deep.size() < 4200)
            deep += QStringLiteral("/") + QString(200, QLatin1Char('d'));
        QTest::newRow("a path of 4,200 bytes") << deep << QStringLiteral("fewer than 4096");
    }

    void rules()
    {
        QFETCH(QString, jobDir);
        QFETCH(QString, problem);
        const PathPolicy policy({ m_root.path() });
        const FieldViolations violations = policy.violations(jobDir);
        QString why;
        QCOMPARE(policy.allows(jobDir, &why), problem.isEmpty());
        if (problem.isEmpty()) {
            QVERIFY2(violations.isEmpty(), qPrintable(violations.value(0).description));
            return;
        }
        QCOMPARE(violations.size(), 1);
        QCOMPARE(violations.first().field, QStringLiteral("trainingInput.jobDir"));
        QVERIFY2(violations.first().description.contains(problem), qPrintable(violations.first().description));
        QCOMPARE(why, violations.first().description);
        if (problem == QLatin1String("lies outside"))
            QVERIFY(why.contains(m_root.path())); // names the allowed roots
    }

    void defaultRootsAreHomeAndTemp()
    {
        QCOMPARE(PathPolicy::defaultRoots(), (QStringList { QDir::homePath(), QDir::tempPath() }));
        QVERIFY(PathPolicy().allows(QDir::tempPath() + QStringLiteral("/trainyard-job")));
        QVERIFY(!PathPolicy().allows(QDir::homePath()));
    }

    /// Issue 42, items 2 and 5: the executor's own folders never pass, nor any path in /proc, whatever the roots.
    void executorFoldersAndProc_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("use");
        QTest::addColumn<QString>("problem"); // empty: allowed
        const QString r = m_root.path();
        const int jobDir = int(PathUse::JobDir);
        QTest::newRow("the data folder") << r + QStringLiteral("/home/.local/share/trainyard") << jobDir
                                         << QStringLiteral("executor's own folders");
        QTest::newRow("inside the data folder")
            << r + QStringLiteral("/home/.local/share/trainyard/projects/p/jobs/j") << int(PathUse::OutputFolder)
            << QStringLiteral("executor's own folders");
        QTest::newRow("a folder holding the data folder")
            << r + QStringLiteral("/home/.local") << int(PathUse::ModelFolder)
            << QStringLiteral("executor's own folders");
        QTest::newRow("the runtime folder") << r + QStringLiteral("/run/trainyard") << int(PathUse::ModelFolder)
                                            << QStringLiteral("executor's own folders");
        QTest::newRow("the TLS key") << r + QStringLiteral("/keys/tls.key") << int(PathUse::InputFile)
                                     << QStringLiteral("executor's own folders");
        QTest::newRow("a link into the runtime folder")
            << r + QStringLiteral("/runlink/token") << int(PathUse::InputFile)
            << QStringLiteral("executor's own folders");
        QTest::newRow("a sibling of the data folder")
            << r + QStringLiteral("/home/.local/share/other") << jobDir << QString();
        QTest::newRow("/proc/self/cwd") << QStringLiteral("/proc/self/cwd/x") << int(PathUse::OutputFolder)
                                        << QStringLiteral("/proc");
        QTest::newRow("/proc/self/root as a package")
            << QStringLiteral("/proc/self/root/usr") << int(PathUse::Package) << QStringLiteral("/proc");
        QTest::newRow("/sys") << QStringLiteral("/sys/kernel") << int(PathUse::InputFile) << QStringLiteral("/proc");
        QTest::newRow("a package outside the roots")
            << QStringLiteral("/usr/share") << int(PathUse::Package) << QString();
        QTest::newRow("a model folder outside the roots")
            << QStringLiteral("/usr/share") << int(PathUse::ModelFolder) << QStringLiteral("lies outside");
        QTest::newRow("an output folder's words")
            << QStringLiteral("out") << int(PathUse::OutputFolder) << QStringLiteral("the output folder");
        QTest::newRow("a model folder's words")
            << QStringLiteral("gs://b/m") << int(PathUse::ModelFolder) << QStringLiteral("the model folder");
    }

    void executorFoldersAndProc()
    {
        QFETCH(QString, path);
        QFETCH(int, use);
        QFETCH(QString, problem);
        const QString r = m_root.path();
        QVERIFY(QDir().mkpath(r + QStringLiteral("/home/.local/share/trainyard")));
        QVERIFY(QDir().mkpath(r + QStringLiteral("/run/trainyard")));
        QVERIFY(QDir().mkpath(r + QStringLiteral("/keys")));
        QFile::link(r + QStringLiteral("/run/trainyard"), r + QStringLiteral("/runlink"));
        PathPolicy policy({ r });
        policy.setExecutorFolders({ r + QStringLiteral("/home/.local/share/trainyard"),
            r + QStringLiteral("/run/trainyard"), r + QStringLiteral("/keys/tls.key") });
        const QString why = policy.problem(path, PathUse(use));
        if (problem.isEmpty())
            QVERIFY2(why.isEmpty(), qPrintable(why));
        else
            QVERIFY2(why.contains(problem), qPrintable(why));
    }

    /// Issue 42, item 6: a package is a folder with setup.py or pyproject.toml, an sdist or a wheel, that exists.
    void packages_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("problem");
        const QString r = m_root.path();
        QTest::newRow("a folder with setup.py") << r + QStringLiteral("/pkg") << QString();
        QTest::newRow("an sdist") << r + QStringLiteral("/trainer-0.1.tar.gz") << QString();
        QTest::newRow("as a file:// URL") << QStringLiteral("file://") + r + QStringLiteral("/pkg") << QString();
        QTest::newRow("/etc") << QStringLiteral("/etc") << QStringLiteral("neither setup.py nor pyproject.toml");
        // gcloud's --package-path (issue 45, item 0): the package folder itself, with __init__.py, with or without
        // its parent's setup.py ("neither setup.py nor pyproject.toml" before).
        QTest::newRow("gcloud's package folder") << r + QStringLiteral("/alone/trainer") << QString();
        QTest::newRow("package folder of a project") << r + QStringLiteral("/pkg/trainer/") << QString();
        QTest::newRow("missing") << r + QStringLiteral("/nothing") << QStringLiteral("does not exist");
        QTest::newRow("a text file") << r + QStringLiteral("/notes.txt") << QStringLiteral("neither a source");
        QTest::newRow("relative") << QStringLiteral("pkg") << QStringLiteral("not an absolute path");
        QTest::newRow("dot dot") << r + QStringLiteral("/pkg/../pkg") << QStringLiteral("not a clean path");
        QTest::newRow("NUL") << r + QStringLiteral("/pkg") + QChar(0) << QStringLiteral("NUL character");
        QTest::newRow("in /proc") << QStringLiteral("/proc/self/cwd") << QStringLiteral("/proc");
    }

    void packages()
    {
        QFETCH(QString, uri);
        QFETCH(QString, problem);
        const QString r = m_root.path();
        QVERIFY(QDir().mkpath(r + QStringLiteral("/pkg")));
        QVERIFY(QDir().mkpath(r + QStringLiteral("/alone/trainer")) && QDir().mkpath(r + QStringLiteral("/pkg/trainer")));
        for (const char* name : { "/pkg/setup.py", "/trainer-0.1.tar.gz", "/notes.txt", "/alone/trainer/__init__.py",
                 "/pkg/trainer/__init__.py" }) {
            QFile f(r + QLatin1String(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const FieldViolations v = PathPolicy({ r }).packageViolations(QStringLiteral("version.packageUris"), { uri });
        if (problem.isEmpty()) {
            QVERIFY2(v.isEmpty(), qPrintable(v.value(0).description));
            return;
        }
        QCOMPARE(v.size(), 1);
        QCOMPARE(v.first().field, QStringLiteral("version.packageUris[0]"));
        QVERIFY2(v.first().description.contains(problem), qPrintable(v.first().description));
    }

    /// What PackageSource says each kind of path is, and the setup.py gcloud writes for a package folder alone.
    void packageSource()
    {
        const QString r = m_root.path();
        QVERIFY(QDir().mkpath(r + QStringLiteral("/src/census/trainer")));
        QFile init(r + QStringLiteral("/src/census/trainer/__init__.py"));
        QVERIFY(init.open(QIODevice::WriteOnly));
        init.close();
        PackageSource alone = PackageSource::inspect(r + QStringLiteral("/src/census/trainer/"));
        QCOMPARE(int(alone.kind), int(PackageSource::Kind::PackageFolder));
        QCOMPARE(alone.path, r + QStringLiteral("/src/census/trainer"));
        QCOMPARE(alone.packageName, QStringLiteral("trainer"));
        QVERIFY(alone.projectDir.isEmpty());
        QFile setup(r + QStringLiteral("/src/census/setup.py"));
        QVERIFY(setup.open(QIODevice::WriteOnly));
        setup.close();
        QCOMPARE(PackageSource::inspect(r + QStringLiteral("/src/census/trainer")).projectDir, r + QStringLiteral("/src/census"));
        QCOMPARE(int(PackageSource::inspect(r + QStringLiteral("/src/census")).kind), int(PackageSource::Kind::ProjectFolder));
        QCOMPARE(int(PackageSource::inspect(r + QStringLiteral("/src")).kind), int(PackageSource::Kind::Unknown));
        QCOMPARE(int(PackageSource::inspect(r + QStringLiteral("/none")).kind), int(PackageSource::Kind::Missing));
        QCOMPARE(PackageSource::generatedSetupPy(QStringLiteral("trainer")),
            QByteArray("from setuptools import find_packages, setup\n\nif __name__ == \"__main__\":\n"
                       "    setup(name=\"trainer\", version=\"0.0.0\", packages=find_packages(include=[\"trainer\", "
                       "\"trainer.*\"]))\n"));
    }

    void missingRootAllowsNothing()
    {
        const PathPolicy policy({ m_root.filePath(QStringLiteral("no-such-root")) });
        QVERIFY(!policy.allows(m_root.filePath(QStringLiteral("no-such-root/run1"))));
    }
};

QTEST_GUILESS_MAIN(TestPathPolicy)
#include "tst_jobdirpolicy.moc"
