// SPDX-License-Identifier: GPL-2.0-or-later
// ModelStore (app/executor/serving/modelstore.h) alone, on a real SQLite file: models, versions and operations kept
// per project in creation order, a version and its model's default written in one transaction (a refused write
// changes neither), and everything read back by a store that opens the same file again (an executor's restart).
// Until issue 43 only end-to-end tests that deploy real models covered it.
#include "modelstore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

ModelResource makeModel(const QString& project, const QString& name)
{
    ModelResource m;
    m.project = project;
    m.name = name;
    m.description = QStringLiteral("the %1 model").arg(name);
    m.labels = { { QStringLiteral("team"), QStringLiteral("risk") } };
    m.etag = m.computeEtag();
    return m;
}

VersionResource makeVersion(const QString& project, const QString& model, const QString& name)
{
    VersionResource v;
    v.project = project;
    v.model = model;
    v.name = name;
    v.deploymentUri = QStringLiteral("/srv/models/") + model;
    v.framework = PredictionFramework::ScikitLearn;
    v.state = VersionState::Creating;
    v.manualScalingNodes = 2;
    v.createTime = QStringLiteral("2026-12-01T10:00:00Z");
    v.etag = v.computeEtag();
    return v;
}

QStringList modelNames(const QList<ModelResource>& models)
{
    QStringList names;
    for (const ModelResource& m : models)
        names << m.project + QLatin1Char('/') + m.name;
    return names;
}

QStringList versionNames(const QList<VersionResource>& versions)
{
    QStringList names;
    for (const VersionResource& v : versions)
        names << v.model + QLatin1Char('/') + v.name;
    return names;
}

} // namespace

class TestModelStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keepsModelsVersionsAndOperations()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("models.sqlite"));
        QString error;
        {
            ModelStore store;
            QVERIFY2(store.open(file, &error), qPrintable(error));
            for (const auto& [project, name] : { std::pair { "lab", "census" }, std::pair { "other", "census" },
                     std::pair { "lab", "alpha" } })
                QVERIFY2(store.insertModel(makeModel(QLatin1String(project), QLatin1String(name)), &error),
                    qPrintable(error));
            // Creation order, not name order; each project its own; an empty project lists every one.
            QCOMPARE(modelNames(store.models(QStringLiteral("lab"))),
                QStringList({ QStringLiteral("lab/census"), QStringLiteral("lab/alpha") }));
            QCOMPARE(store.models(QString()).size(), 3);
            QVERIFY(!store.model(QStringLiteral("lab"), QStringLiteral("nope")));

            // The first version and its model's default in one write.
            ModelResource census = *store.model(QStringLiteral("lab"), QStringLiteral("census"));
            census.defaultVersion = QStringLiteral("v1");
            QVERIFY2(store.insertVersion(makeVersion(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1")),
                         &census, &error),
                qPrintable(error));
            QVERIFY2(store.insertVersion(makeVersion(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v2")),
                         nullptr, &error),
                qPrintable(error));
            QVERIFY2(store.insertVersion(makeVersion(QStringLiteral("lab"), QStringLiteral("alpha"), QStringLiteral("v1")),
                         nullptr, &error),
                qPrintable(error));
            QCOMPARE(versionNames(store.versions(QStringLiteral("lab"), QStringLiteral("census"))),
                QStringList({ QStringLiteral("census/v1"), QStringLiteral("census/v2") }));
            QCOMPARE(store.versions(QStringLiteral("lab"), QString()).size(), 3);

            // A version updated in place keeps its place.
            VersionResource v1 = *store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1"));
            v1.state = VersionState::Ready;
            QVERIFY2(store.updateVersion(v1, &error), qPrintable(error));

            OperationResource first;
            first.project = QStringLiteral("lab");
            first.id = QStringLiteral("create_census_v1-1");
            first.operationType = QStringLiteral("CREATE_VERSION");
            first.modelName = census.resourceName();
            OperationResource second = first;
            second.id = QStringLiteral("create_census_v2-2");
            QVERIFY2(store.putOperation(first, &error), qPrintable(error));
            QVERIFY2(store.putOperation(second, &error), qPrintable(error));
            first.done = true; // replaced, not added
            QVERIFY2(store.putOperation(first, &error), qPrintable(error));
        }

        // A store that opens the file again (the executor restarted) reads what the first one wrote.
        ModelStore store;
        QVERIFY2(store.open(file, &error), qPrintable(error));
        const std::optional<ModelResource> census = store.model(QStringLiteral("lab"), QStringLiteral("census"));
        QVERIFY(census);
        QCOMPARE(census->defaultVersion, QStringLiteral("v1"));
        QCOMPARE(census->labels.value(QStringLiteral("team")), QStringLiteral("risk"));
        const std::optional<VersionResource> v1
            = store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1"));
        QVERIFY(v1);
        QCOMPARE(v1->state, VersionState::Ready);
        QCOMPARE(v1->manualScalingNodes, 2);
        QCOMPARE(v1->framework, PredictionFramework::ScikitLearn);
        QCOMPARE(versionNames(store.versions(QStringLiteral("lab"), QStringLiteral("census"))),
            QStringList({ QStringLiteral("census/v1"), QStringLiteral("census/v2") }));
        // Operations: newest first, the replaced one once.
        const QList<OperationResource> ops = store.operations(QStringLiteral("lab"));
        QCOMPARE(ops.size(), 2);
        QCOMPARE(ops.first().id, QStringLiteral("create_census_v2-2"));
        QVERIFY(store.operation(QStringLiteral("lab"), QStringLiteral("create_census_v1-1"))->done);
        QVERIFY(store.operations(QStringLiteral("other")).isEmpty());
    }

    void aRefusedWriteChangesNothing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ModelStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("models.sqlite")), &error), qPrintable(error));
        QVERIFY2(store.insertModel(makeModel(QStringLiteral("lab"), QStringLiteral("census")), &error), qPrintable(error));
        QVERIFY(!store.insertModel(makeModel(QStringLiteral("lab"), QStringLiteral("census")), &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(store.models(QStringLiteral("lab")).size(), 1);

        ModelResource census = *store.model(QStringLiteral("lab"), QStringLiteral("census"));
        census.defaultVersion = QStringLiteral("v1");
        const VersionResource v1 = makeVersion(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1"));
        QVERIFY2(store.insertVersion(v1, &census, &error), qPrintable(error));
        // The same version again with a new default: SQLite refuses the version, so the model keeps its default.
        ModelResource changed = census;
        changed.defaultVersion = QStringLiteral("v9");
        error.clear();
        QVERIFY(!store.insertVersion(v1, &changed, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(store.model(QStringLiteral("lab"), QStringLiteral("census"))->defaultVersion, QStringLiteral("v1"));

        // Deleting the last version clears the default in the same write; deleting the model leaves nothing.
        census.defaultVersion.clear();
        QVERIFY2(store.deleteVersion(v1, &census, &error), qPrintable(error));
        QVERIFY(!store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1")));
        QVERIFY(store.model(QStringLiteral("lab"), QStringLiteral("census"))->defaultVersion.isEmpty());
        QVERIFY2(store.deleteModel(QStringLiteral("lab"), QStringLiteral("census"), &error), qPrintable(error));
        QVERIFY(store.models(QString()).isEmpty());
    }

    void readsFromMemoryAndSeesEveryWrite()
    {
        // model() and version() answer from memory once read (issue 48): every write through the store is seen by
        // the next read, a model's delete included; a name that does not exist is asked of SQLite each time.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ModelStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("models.sqlite")), &error), qPrintable(error));
        QVERIFY(!store.model(QStringLiteral("lab"), QStringLiteral("census")));
        QVERIFY2(store.insertModel(makeModel(QStringLiteral("lab"), QStringLiteral("census")), &error), qPrintable(error));
        QCOMPARE(store.model(QStringLiteral("lab"), QStringLiteral("census"))->description, QStringLiteral("the census model"));
        QVERIFY(!store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1")));
        VersionResource v1 = makeVersion(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1"));
        QVERIFY2(store.insertVersion(v1, nullptr, &error), qPrintable(error));
        QCOMPARE(store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1"))->state,
            VersionState::Creating);
        v1.state = VersionState::Ready;
        QVERIFY2(store.updateVersion(v1, &error), qPrintable(error));
        QCOMPARE(store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1"))->state,
            VersionState::Ready);
        ModelResource census = *store.model(QStringLiteral("lab"), QStringLiteral("census"));
        census.description = QStringLiteral("patched");
        QVERIFY2(store.updateModel(census, &error), qPrintable(error));
        QCOMPARE(store.model(QStringLiteral("lab"), QStringLiteral("census"))->description, QStringLiteral("patched"));
        // Another model's write leaves this one's records as they are.
        QVERIFY2(store.insertModel(makeModel(QStringLiteral("lab"), QStringLiteral("other")), &error), qPrintable(error));
        QCOMPARE(store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1"))->state,
            VersionState::Ready);
        QVERIFY2(store.deleteVersion(v1, nullptr, &error), qPrintable(error));
        QVERIFY(!store.version(QStringLiteral("lab"), QStringLiteral("census"), QStringLiteral("v1")));
        QVERIFY2(store.deleteModel(QStringLiteral("lab"), QStringLiteral("census"), &error), qPrintable(error));
        QVERIFY(!store.model(QStringLiteral("lab"), QStringLiteral("census")));
        QVERIFY(store.model(QStringLiteral("lab"), QStringLiteral("other")));
    }

    void refusesAFileItCannotOpen()
    {
        ModelStore store;
        QString error;
        QVERIFY(!store.open(QStringLiteral("/proc/trainyard-no-such-folder/models.sqlite"), &error));
        // The error names what could not be made: the folder the file would be in.
        QVERIFY2(error.contains(QLatin1String("/proc/trainyard-no-such-folder")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestModelStore)
#include "tst_modelstore.moc"
