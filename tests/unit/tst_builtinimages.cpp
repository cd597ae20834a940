// SPDX-License-Identifier: GPL-2.0-or-later
// The built-in algorithm image table (resources/algorithms/trainyard_algorithms/images.json) is written once: the
// programs compile it in (BuiltInAlgorithms::supported()) and the package reads the same file
// (trainyard_algorithms.common.IMAGES). Until issue 43 the table was written twice, in C++ and in Python.
#include "builtinalgorithm.h"

#include <QProcess>
#include <QTest>

using namespace Trainyard;

class TestBuiltInImages : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theProgramsReadTheTable()
    {
        const QList<BuiltInAlgorithm>& all = BuiltInAlgorithms::supported();
        QCOMPARE(all.size(), 6);
        QCOMPARE(all.first().imageUri, QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest"));
        QCOMPARE(all.first().module, QStringLiteral("trainyard_algorithms.xgboost"));
        QCOMPARE(all.first().framework, QStringLiteral("XGBOOST"));
        QVERIFY(all.first().preprocess);
        const BuiltInAlgorithm* dist = BuiltInAlgorithms::find(QStringLiteral("gcr.io/cloud-ml-algos/xgboost_dist"));
        QVERIFY(dist);
        QVERIFY(dist->distributed);
        QVERIFY(!dist->preprocess);
        const BuiltInAlgorithm* gpu = BuiltInAlgorithms::find(QStringLiteral("gcr.io/cloud-ml-algos/wide_deep_learner_gpu:latest"));
        QVERIFY(gpu);
        QVERIFY(gpu->gpu);
        QCOMPARE(gpu->name, QStringLiteral("Wide and deep (GPU)"));
        QVERIFY(!BuiltInAlgorithms::find(QStringLiteral("gcr.io/cloud-ml-algos/image_classification:latest")));
    }

    void thePackageReadsTheSameTable()
    {
        // What the package makes of images.json, line by line: "uri module variant".
        QProcess python;
        python.setWorkingDirectory(QStringLiteral(TRAINYARD_SOURCE_DIR "/resources/algorithms"));
        python.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-c"),
                QStringLiteral("import trainyard_algorithms.common as c\n"
                               "for uri, (module, variant) in c.IMAGES.items(): print(uri, module, variant)\n") });
        QVERIFY2(python.waitForFinished(60000), "python3 did not finish");
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QStringList fromCpp;
        for (const BuiltInAlgorithm& a : BuiltInAlgorithms::supported()) {
            const QString variant = a.module == QLatin1String("trainyard_algorithms.xgboost")
                ? (a.distributed ? QStringLiteral("distributed") : QStringLiteral("single"))
                : (a.gpu ? QStringLiteral("gpu") : QStringLiteral("cpu"));
            fromCpp << QStringList { a.imageUri, a.module, variant }.join(QLatin1Char(' '));
        }
        QCOMPARE(QString::fromUtf8(python.readAllStandardOutput()).trimmed().split(QLatin1Char('\n')), fromCpp);
    }

    void aMalformedTableNamesTheEntryAndField()
    {
        QString error;
        QVERIFY(BuiltInAlgorithms::fromImageTable("{", &error).isEmpty());
        QVERIFY(error.startsWith(QStringLiteral("not JSON")));
        QVERIFY(BuiltInAlgorithms::fromImageTable(R"({"images": {}})", &error).isEmpty());
        QCOMPARE(error, QStringLiteral("images: must be an array"));
        QVERIFY(BuiltInAlgorithms::fromImageTable(R"({"images": [{"imageUri": "gcr.io/cloud-ml-algos/x:latest",
            "module": "m", "name": "X", "framework": "XGBOOST", "variant": "tpu", "preprocess": true}]})",
            &error)
                    .isEmpty());
        QCOMPARE(error, QStringLiteral("images[0].variant: must be single, distributed, cpu or gpu, not \"tpu\""));
        QVERIFY(BuiltInAlgorithms::fromImageTable(R"({"images": [{"imageUri": "u", "name": "X", "framework": "F",
            "variant": "cpu", "preprocess": true}]})",
            &error)
                    .isEmpty());
        QCOMPARE(error, QStringLiteral("images[0].module: must be a non-empty string"));
    }
};

QTEST_GUILESS_MAIN(TestBuiltInImages)
#include "tst_builtinimages.moc"
