// SPDX-License-Identifier: GPL-2.0-or-later
// JobDirPolicy: the rule for trainingInput.jobDir (absolute, clean, strictly inside an allowed root after
// resolving symbolic links), on real folders and links in a temporary root.

#include "jobdirpolicy.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

class TestJobDirPolicy : public QObject {
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
        QTest::newRow("gs://") << QStringLiteral("gs://bucket/jobs/run1") << QStringLiteral("not a local folder");
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
        const JobDirPolicy policy({ m_root.path() });
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
        QCOMPARE(JobDirPolicy::defaultRoots(), (QStringList { QDir::homePath(), QDir::tempPath() }));
        QVERIFY(JobDirPolicy().allows(QDir::tempPath() + QStringLiteral("/trainyard-job")));
        QVERIFY(!JobDirPolicy().allows(QDir::homePath()));
    }

    void missingRootAllowsNothing()
    {
        const JobDirPolicy policy({ m_root.filePath(QStringLiteral("no-such-root")) });
        QVERIFY(!policy.allows(m_root.filePath(QStringLiteral("no-such-root/run1"))));
    }
};

QTEST_GUILESS_MAIN(TestJobDirPolicy)
#include "tst_jobdirpolicy.moc"
