// SPDX-License-Identifier: GPL-2.0-or-later
// PackageModules (models/packagemodules.h): the modules `python -m` can run from a trainer package, found in a
// project folder and in an sdist, as the submit wizard offers them.

#include "packagemodules.h"
#include "trainingpackage.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;
using Trainyard::Test::writeTextFile;
using Trainyard::Test::writeTrainingPackage;

class TestPackageModules : public QObject {
    Q_OBJECT

private slots:
    void moduleNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::addRow("dotted") << QStringLiteral("trainer.task") << true;
        QTest::addRow("one segment") << QStringLiteral("train") << true;
        QTest::addRow("underscores and digits") << QStringLiteral("_pkg.v2_task") << true;
        QTest::addRow("empty") << QString() << false;
        QTest::addRow("segment starts with a digit") << QStringLiteral("trainer.2task") << false;
        QTest::addRow("empty segment") << QStringLiteral("trainer..task") << false;
        QTest::addRow("trailing dot") << QStringLiteral("trainer.") << false;
        QTest::addRow("a path") << QStringLiteral("trainer/task.py") << false;
        QTest::addRow("a dash") << QStringLiteral("my-trainer.task") << false;
        QTest::addRow("non-ASCII") << QStringLiteral("trainér.task") << false;
    }

    void moduleNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QCOMPARE(PackageModules::isModuleName(name), valid);
    }

    void projectFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString root = dir.path();
        QVERIFY(writeTrainingPackage(root, QStringLiteral("trainer"), "print(1)\n"));
        QVERIFY(writeTextFile(root + QStringLiteral("/trainer/model.py"), {}));
        // A subpackage, and a folder inside the package that is not one (no __init__.py): its files cannot run.
        QVERIFY(writeTextFile(root + QStringLiteral("/trainer/data/__init__.py"), {}));
        QVERIFY(writeTextFile(root + QStringLiteral("/trainer/data/input.py"), {}));
        QVERIFY(writeTextFile(root + QStringLiteral("/trainer/scripts/plot.py"), {}));
        // Another package whose task sorts after trainer's: every *.task comes first, then the rest by name.
        QVERIFY(writeTextFile(root + QStringLiteral("/zeta/__init__.py"), {}));
        QVERIFY(writeTextFile(root + QStringLiteral("/zeta/task.py"), {}));
        // Not the project's own modules: build outputs, environments, caches, hidden folders, egg-info.
        for (const char* skipped : { "build/lib/trainer", "dist/x", "venv/lib/site", ".venv/pkg", "__pycache__/c",
                 ".git/hooks", "trainer.egg-info/p" }) {
            const QString folder = root + QLatin1Char('/') + QLatin1String(skipped);
            QVERIFY(writeTextFile(folder + QStringLiteral("/__init__.py"), {}));
            QVERIFY(writeTextFile(folder + QStringLiteral("/task.py"), {}));
        }
        // A module file whose name `python -m` cannot take.
        QVERIFY(writeTextFile(root + QStringLiteral("/trainer/my-model.py"), {}));
        // setup.py at the top is not in a package.
        QCOMPARE(PackageModules::discover(root),
            (QStringList { QStringLiteral("trainer.task"), QStringLiteral("zeta.task"),
                QStringLiteral("trainer.data.input"), QStringLiteral("trainer.model") }));
    }

    void sdist()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString project = dir.filePath(QStringLiteral("pkg-0.1"));
        QVERIFY(writeTrainingPackage(project, QStringLiteral("pkg"), "print(1)\n"));
        QVERIFY(writeTextFile(project + QStringLiteral("/pkg/util.py"), {}));
        QProcess tar;
        tar.setWorkingDirectory(dir.path());
        tar.start(QStringLiteral("tar"),
            { QStringLiteral("-czf"), QStringLiteral("pkg-0.1.tar.gz"), QStringLiteral("pkg-0.1") });
        QVERIFY(tar.waitForFinished());
        QCOMPARE(tar.exitCode(), 0);
        QCOMPARE(PackageModules::discover(dir.filePath(QStringLiteral("pkg-0.1.tar.gz"))),
            (QStringList { QStringLiteral("pkg.task"), QStringLiteral("pkg.util") }));
    }

    void nothingToOffer()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A corrupt archive: tar fails, and the list is empty rather than half a listing.
        QVERIFY(writeTextFile(dir.filePath(QStringLiteral("broken.tar.gz")), "not gzip at all"));
        QVERIFY(PackageModules::discover(dir.filePath(QStringLiteral("broken.tar.gz"))).isEmpty());
        // A plain file that is no sdist, a missing path, a folder of scripts without packages.
        QVERIFY(writeTextFile(dir.filePath(QStringLiteral("train.py")), "print(1)\n"));
        QVERIFY(PackageModules::discover(dir.filePath(QStringLiteral("train.py"))).isEmpty());
        QVERIFY(PackageModules::discover(dir.filePath(QStringLiteral("missing"))).isEmpty());
        QVERIFY(PackageModules::discover(dir.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPackageModules)
#include "tst_packagemodules.moc"
