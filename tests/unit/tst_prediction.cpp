// SPDX-License-Identifier: GPL-2.0-or-later
// The prediction wire types (models/prediction.h): the ID rule, a version's create body and its violations
// (TENSORFLOW refused with the reason, a framework or a predictionClass, scaling), output-only fields ignored on
// create and kept in a stored record, an operation's round trip, and the framework a folder's files need.
#include "prediction.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

bool hasField(const FieldViolations& violations, const QString& field)
{
    for (const FieldViolation& v : violations) {
        if (v.field == field)
            return true;
    }
    return false;
}

} // namespace

class TestPrediction : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void idRule_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>("valid");
        QTest::addRow("plain") << QStringLiteral("census") << true;
        QTest::addRow("digits and underscores") << QStringLiteral("v2_final_3") << true;
        QTest::addRow("capitals") << QStringLiteral("MyModel") << true;
        QTest::addRow("digit first") << QStringLiteral("1st") << false;
        QTest::addRow("dash") << QStringLiteral("my-model") << false;
        QTest::addRow("empty") << QString() << false;
        QTest::addRow("slash") << QStringLiteral("a/b") << false;
        QTest::addRow("129 characters") << QString(129, QLatin1Char('a')) << false;
        QTest::addRow("non-ASCII") << QStringLiteral("modèle") << false;
    }
    void idRule()
    {
        QFETCH(QString, id);
        QFETCH(bool, valid);
        QCOMPARE(PredictionJson::idProblems(id).isEmpty(), valid);
    }

    void resourceNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("version");
        QTest::addRow("model") << QStringLiteral("projects/p-1/models/census") << true << QStringLiteral("census")
                               << QString();
        QTest::addRow("version") << QStringLiteral("projects/p/models/census/versions/v_2") << true
                                 << QStringLiteral("census") << QStringLiteral("v_2");
        QTest::addRow("model ID breaks the ID rule")
            << QStringLiteral("projects/p/models/1st") << false << QString() << QString();
        QTest::addRow("version ID breaks the ID rule")
            << QStringLiteral("projects/p/models/m/versions/v-1") << false << QString() << QString();
        QTest::addRow("129-character model ID")
            << (QStringLiteral("projects/p/models/") + QString(129, QLatin1Char('a'))) << false << QString()
            << QString();
        QTest::addRow("no project") << QStringLiteral("projects//models/m") << false << QString() << QString();
        QTest::addRow("a job's name") << QStringLiteral("projects/p/jobs/j") << false << QString() << QString();
        QTest::addRow("versions without an ID")
            << QStringLiteral("projects/p/models/m/versions") << false << QString() << QString();
        QTest::addRow("trailing slash") << QStringLiteral("projects/p/models/m/") << false << QString() << QString();
        QTest::addRow("an ID alone") << QStringLiteral("census") << false << QString() << QString();
    }
    void resourceNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QFETCH(QString, model);
        QFETCH(QString, version);
        const std::optional<PredictionJson::ResourceName> r = PredictionJson::parseResourceName(name);
        QCOMPARE(r.has_value(), valid);
        if (!r)
            return;
        QCOMPARE(r->model, model);
        QCOMPARE(r->version, version);
        // What is parsed is written back the same way.
        QCOMPARE(version.isEmpty() ? PredictionJson::modelResourceName(r->project, r->model)
                                   : PredictionJson::versionResourceName(r->project, r->model, r->version),
            name);
    }

    void versionCreateBody()
    {
        FieldViolations v;
        VersionResource version = VersionResource::fromJson(
            QJsonObject { { QStringLiteral("name"), QStringLiteral("v1") },
                { QStringLiteral("deploymentUri"), QStringLiteral("/tmp/m") },
                { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") },
                { QStringLiteral("manualScaling"), QJsonObject { { QStringLiteral("nodes"), QStringLiteral("3") } } },
                { QStringLiteral("state"), QStringLiteral("READY") }, // output only: ignored
                { QStringLiteral("labels"), QJsonObject { { QStringLiteral("team"), QStringLiteral("ml") } } } },
            QStringLiteral("p"), QStringLiteral("m"), &v);
        QVERIFY2(v.isEmpty(), qPrintable(v.value(0).field + QLatin1Char(' ') + v.value(0).description));
        QCOMPARE(version.state, VersionState::Unknown);
        QCOMPARE(version.nodes(), 3);
        QCOMPARE(version.resourceName(), QStringLiteral("projects/p/models/m/versions/v1"));
        QCOMPARE(version.toJson().value(QStringLiteral("framework")).toString(), QStringLiteral("SCIKIT_LEARN"));

        // The stored record keeps the output-only fields.
        version.state = VersionState::Failed;
        version.errorMessage = QStringLiteral("why");
        version.isDefault = true;
        const VersionResource stored
            = VersionResource::fromJson(version.toJson(), QStringLiteral("p"), QStringLiteral("m"), &v, true);
        QCOMPARE(stored.state, VersionState::Failed);
        QCOMPARE(stored.errorMessage, QStringLiteral("why"));
        QVERIFY(stored.isDefault);
        QCOMPARE(stored.labels.value(QStringLiteral("team")), QStringLiteral("ml"));
    }

    void versionViolations()
    {
        auto violations = [](const QJsonObject& body) {
            FieldViolations v;
            VersionResource::fromJson(body, QStringLiteral("p"), QStringLiteral("m"), &v);
            return v;
        };
        const QJsonObject base { { QStringLiteral("name"), QStringLiteral("v1") },
            { QStringLiteral("deploymentUri"), QStringLiteral("/tmp/m") } };
        QJsonObject tf = base;
        tf.insert(QStringLiteral("framework"), QStringLiteral("TENSORFLOW"));
        const FieldViolations tfv = violations(tf);
        QVERIFY(hasField(tfv, QStringLiteral("version.framework")));
        QVERIFY(tfv.first().description.contains(QLatin1String("TensorFlow runtime")));
        // Neither framework nor class decodes: create detects the framework from the files (resolveFramework()).
        QVERIFY(!hasField(violations(base), QStringLiteral("version.framework")));
        QJsonObject both = base;
        both.insert(QStringLiteral("framework"), QStringLiteral("XGBOOST"));
        both.insert(QStringLiteral("predictionClass"), QStringLiteral("m.P"));
        QVERIFY(hasField(violations(both), QStringLiteral("version.predictionClass")));
        QJsonObject routine = base;
        routine.insert(QStringLiteral("predictionClass"), QStringLiteral("m.P"));
        QVERIFY(violations(routine).isEmpty());
        QJsonObject scaling = base;
        scaling.insert(QStringLiteral("framework"), QStringLiteral("XGBOOST"));
        scaling.insert(QStringLiteral("autoScaling"),
            QJsonObject { { QStringLiteral("minNodes"), 3 }, { QStringLiteral("maxNodes"), 2 } });
        QVERIFY(hasField(violations(scaling), QStringLiteral("version.autoScaling.maxNodes")));
        QJsonObject unknown = base;
        unknown.insert(QStringLiteral("framework"), QStringLiteral("XGBOOST"));
        unknown.insert(QStringLiteral("container"), QJsonObject());
        unknown.insert(QStringLiteral("bogus"), 1);
        QVERIFY(hasField(violations(unknown), QStringLiteral("version.container")));
        QVERIFY(hasField(violations(unknown), QStringLiteral("version.bogus")));
        QJsonObject noFolder { { QStringLiteral("name"), QStringLiteral("v1") },
            { QStringLiteral("framework"), QStringLiteral("XGBOOST") } };
        QVERIFY(hasField(violations(noFolder), QStringLiteral("version.deploymentUri")));
    }

    void modelAndOperation()
    {
        FieldViolations v;
        const ModelResource m = ModelResource::fromJson(
            QJsonObject { { QStringLiteral("name"), QStringLiteral("projects/p/models/census") },
                { QStringLiteral("regions"), QJsonArray { QStringLiteral("a"), QStringLiteral("b") } } },
            QStringLiteral("p"), &v);
        QCOMPARE(m.name, QStringLiteral("census"));
        QVERIFY(hasField(v, QStringLiteral("model.regions")));

        OperationResource op;
        op.project = QStringLiteral("p");
        op.id = QStringLiteral("create_census_v1-1");
        op.operationType = QStringLiteral("CREATE_VERSION");
        op.modelName = QStringLiteral("projects/p/models/census");
        op.done = true;
        op.errorCode = RpcCode::InvalidArgument;
        op.errorMessage = QStringLiteral("Create Version failed.");
        const QJsonObject json = op.toJson();
        QCOMPARE(
            json.value(QStringLiteral("name")).toString(), QStringLiteral("projects/p/operations/create_census_v1-1"));
        QCOMPARE(json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), 3);
        const OperationResource back = OperationResource::fromJson(json);
        QCOMPARE(back.id, op.id);
        QCOMPARE(back.operationType, op.operationType);
        QVERIFY(back.done);
        QCOMPARE(back.errorMessage, op.errorMessage);
    }

    void detectFramework_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<int>("framework");
        QTest::addColumn<bool>("builtIn");
        QTest::addRow("joblib") << QStringList { QStringLiteral("model.joblib") }
                                << int(PredictionFramework::ScikitLearn) << false;
        QTest::addRow("pickle") << QStringList { QStringLiteral("model.pkl") } << int(PredictionFramework::ScikitLearn)
                                << false;
        QTest::addRow("booster") << QStringList { QStringLiteral("model.bst") } << int(PredictionFramework::XGBoost)
                                 << false;
        QTest::addRow("built-in xgboost")
            << QStringList { QStringLiteral("model.bst"), QStringLiteral("preprocessing.json") }
            << int(PredictionFramework::XGBoost) << true;
        QTest::addRow("built-in torch") << QStringList { QStringLiteral("model.pt"),
            QStringLiteral("preprocessing.json") }
                                        << int(PredictionFramework::PyTorch) << true;
        QTest::addRow("saved model") << QStringList { QStringLiteral("saved_model.pb") }
                                     << int(PredictionFramework::Unspecified) << false;
        QTest::addRow("nothing") << QStringList { QStringLiteral("notes.txt") } << int(PredictionFramework::Unspecified)
                                 << false;
    }
    void detectFramework()
    {
        QFETCH(QStringList, files);
        QFETCH(int, framework);
        QFETCH(bool, builtIn);
        QTemporaryDir dir;
        for (const QString& name : files) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const FrameworkGuess g = PredictionJson::detectFramework(dir.path());
        QCOMPARE(int(g.framework), framework);
        QCOMPARE(g.builtInAlgorithm, builtIn);
        QVERIFY(!g.explanation.isEmpty());
        QVERIFY(PredictionJson::detectFramework(dir.filePath(QStringLiteral("missing")))
                    .explanation.contains(QLatin1String("does not exist")));
    }
};

QTEST_GUILESS_MAIN(TestPrediction)
#include "tst_prediction.moc"
