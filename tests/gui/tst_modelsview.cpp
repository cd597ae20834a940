// SPDX-License-Identifier: GPL-2.0-or-later
// The console's Models view against a real executor in isolated XDG folders, as a user deploys and predicts: a
// built-in XGBoost job (trainyardctl, as the service's users submit one) succeeds; Job ▸ Deploy Model… opens the
// Models view and its Deploy dialog with the job's model folder, the framework detected and explained; the version
// becomes READY in the tree (under QAbstractItemModelTester); raw CSV rows typed in the Predict panel come back with
// the table's labels and each class's probability. A scikit-learn folder deployed from the dialog is detected as
// SCIKIT_LEARN and becomes a second version; Set Default moves the default; the Log tab shows the selected version's
// log. With TRAINYARD_SCREENSHOT_DIR set, the
// view goes to models-view.png and the dialog to deploy-dialog.png.
#include "apiclient.h"
#include "chartticks.h"
#include "configloader.h"
#include "batchpredictionpanel.h"
#include "ctlrun.h"
#include "deploydialog.h"
#include "deployedmodelsmodel.h"
#include "explanationspanel.h"
#include "explanationview.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "jobview.h"
#include "mainwindow.h"
#include "modelsview.h"
#include "requireddependencies.h"
#include "submitwizard.h"
#include "translations.h"
#include "versionchartspanel.h"
#include "versiondetailspanel.h"
#include "wizardpages.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QHeaderView>
#include <QChartView>
#include <QValueAxis>
#include <QSet>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QWizard>

#include <functional>

using namespace Trainyard;

class TestModelsView : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QList<qint64> m_pids;

    /// Runs `fill` on the Deploy dialog once it is shown (it is modal: exec()), then accepts it.
    /// Runs `fill` on the deploy dialog once it shows, then clicks OK (`clickOk`), which keeps it open until the server
    /// answers.
    void whenDeployDialogShows(std::function<void(DeployDialog*)> fill, bool clickOk = true)
    {
        auto* timer = new QTimer(this);
        timer->setInterval(50);
        connect(timer, &QTimer::timeout, this, [timer, fill, clickOk] {
            auto* dialog = qobject_cast<DeployDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            timer->stop();
            timer->deleteLater();
            fill(dialog);
            if (clickOk)
                dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        timer->start();
    }

private Q_SLOTS:
    void initTestCase()
    {
        // English plural forms ("Sampled Shapley, 10 paths"), as the console loads them.
        Translations::install(qApp, QStringLiteral("en"));
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("models") }));
        // The models are made and served by Debian's libraries (the Debian 13 build's chroot has none of them).
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-c"), QStringLiteral("import sklearn, xgboost, torch, pandas, joblib") });
        if (!probe.waitForFinished(60000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
            TRAINYARD_SKIP_OR_FAIL("the Models view's test trains and serves models with python3-sklearn, "
                                   "python3-xgboost, python3-torch and python3-pandas (packaging/setup-deps.sh)");
        QProcess python;
        python.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        python.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/integration/prediction_models.py"),
                m_root.filePath(QStringLiteral("models")) });
        QVERIFY(python.waitForFinished(300000));
        QCOMPARE(python.exitCode(), 0);
    }

    void cleanupTestCase() { Test::stopExecutors(m_pids); }

    void deployAndPredict()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.resize(1200, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ModelsView* view = window.modelsView();
        DeployedModelsModel* model = view->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        // A built-in algorithm's job, submitted as a user of gcloud does.
        const QString jobDir = m_root.filePath(QStringLiteral("models/job_xgb"));
        const Test::CtlRun run = Test::runCtl(QProcessEnvironment::systemEnvironment(),
            { QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"),
                QStringLiteral("cancer_xgb"), QStringLiteral("--master-image-uri"),
                QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest"), QStringLiteral("--region"),
                QStringLiteral("local"), QStringLiteral("--job-dir"), jobDir, QStringLiteral("--stream-logs"),
                QStringLiteral("--"), QStringLiteral("--preprocess"), QStringLiteral("--objective"),
                QStringLiteral("binary:logistic"), QStringLiteral("--training_data_path"),
                QStringLiteral(TRAINYARD_FIXTURES_DIR "/builtin/breast_cancer.csv") },
            300000);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(QStringLiteral("cancer_xgb")), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.deployAction()->isEnabled(), 30000);

        // Job ▸ Deploy Model…: the dialog has the job's model folder and the framework its files need.
        QString detected;
        whenDeployDialogShows([&](DeployDialog* dialog) {
            QCOMPARE(dialog->folderEdit()->text(), jobDir + QStringLiteral("/model"));
            QCOMPARE(dialog->frameworkBox()->currentText(), QStringLiteral("XGBOOST"));
            // Issue 46 item 5: a model named after the job and its first version are proposed.
            QCOMPARE(dialog->modelName(), QStringLiteral("cancer_xgb"));
            QCOMPARE(dialog->versionEdit()->text(), QStringLiteral("v1"));
            detected = dialog->detectedLabel()->text();
            dialog->findChild<QComboBox*>(QStringLiteral("deployModel"))->setCurrentText(QStringLiteral("cancer"));
            // Issue 47: explanations with sampled Shapley, the count's meaning and the cost said.
            QVERIFY(!dialog->explanationCount()->isVisible());
            dialog->explanationBox()->setCurrentIndex(
                dialog->explanationBox()->findData(int(ExplanationConfig::Method::SampledShapley)));
            QVERIFY(dialog->explanationCount()->isVisible());
            QCOMPARE(dialog->explanationCount()->value(), 50);
            QVERIFY2(dialog->explanationCost()->text().contains(QLatin1String("paths")),
                qPrintable(dialog->explanationCost()->text()));
            dialog->explanationCount()->setValue(10);
            const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
            if (!dir.isEmpty()) {
                QDir().mkpath(dir);
                dialog->grab().save(dir + QStringLiteral("/deploy-dialog.png"));
            }
        });
        window.deployAction()->trigger();
        QVERIFY2(detected.contains(QLatin1String("built-in algorithm")), qPrintable(detected));
        QVERIFY(window.modelsDock()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(model->versionAt(model->indexOf(QStringLiteral("cancer"), QStringLiteral("v1")))
                                     .value_or(VersionResource {})
                                     .state
                == VersionState::Ready,
            60000);
        QVERIFY(model->versionAt(model->indexOf(QStringLiteral("cancer"), QStringLiteral("v1")))->isDefault);
        // Its node reserves its machine type on the host: the status bar counts it.
        QTRY_VERIFY_WITH_TIMEOUT(window.hostLabel()->text().contains(QStringLiteral("prediction node")), 30000);
        // The view follows the executor's models stream: a model made elsewhere (trainyardctl, as gcloud's
        // `ai-platform models create`) is in the tree without a refresh, well before the 5 s a poll would take.
        QTRY_VERIFY_WITH_TIMEOUT(view->isFollowing(), 15000);
        const Test::CtlRun made = Test::runCtl(QProcessEnvironment::systemEnvironment(),
            { QStringLiteral("models"), QStringLiteral("create"), QStringLiteral("elsewhere") },
            60000);
        QVERIFY2(made.code == 0, qPrintable(made.err));
        QElapsedTimer shown;
        shown.start();
        QTRY_VERIFY_WITH_TIMEOUT(model->indexOf(QStringLiteral("elsewhere")).isValid(), 15000);
        QVERIFY2(view->isFollowing(), "the stream dropped: the model came from a poll");
        qInfo("the model created by trainyardctl showed after %lld ms", shown.elapsed());

        // Raw rows of the training table (label removed): rows 1 and 300.
        QFile csv(QStringLiteral(TRAINYARD_FIXTURES_DIR "/builtin/breast_cancer.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().split('\n');
        auto features = [&rows](int i) {
            const QByteArray row = rows.at(i).trimmed();
            return QString::fromUtf8(row.mid(row.indexOf(',') + 1));
        };
        view->select(QStringLiteral("cancer"));
        QTRY_VERIFY(view->predictButton()->isEnabled());
        view->instancesEdit()->setPlainText(features(0) + QLatin1Char('\n') + features(299));
        QSignalSpy predicted(view, &ModelsView::predicted);
        QTest::mouseClick(view->predictButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(predicted.count(), 1, 30000);
        QCOMPARE(predicted.first().first().toBool(), true);
        QTableWidget* table = view->predictions();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->columnCount(), 4);
        QCOMPARE(table->horizontalHeaderItem(2)->text(), QStringLiteral("P(benign)"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("malignant"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("benign"));
        QVERIFY(view->latencyLabel()->text().contains(QLatin1String("ms")));

        // The same row through the form of the training columns (30 numeric columns after the target, the means as
        // hints): "Add as Instance" makes the JSON row, and it predicts as the CSV text did.
        QTRY_VERIFY_WITH_TIMEOUT(view->columnForm()->isVisible(), 15000);
        QCOMPARE(view->columnFields().size(), 30);
        auto* first = qobject_cast<QLineEdit*>(view->columnFields().first());
        QVERIFY(first && first->placeholderText().startsWith(QStringLiteral("mean ")));
        const QStringList cells = features(0).split(QLatin1Char(','));
        for (int i = 0; i < 30; ++i)
            qobject_cast<QLineEdit*>(view->columnFields().at(i))->setText(cells.at(i));
        view->instancesEdit()->clear();
        QTest::mouseClick(view->findChild<QPushButton*>(QStringLiteral("addFormRow")), Qt::LeftButton);
        QVERIFY2(view->instancesEdit()->toPlainText().startsWith(QLatin1Char('[')),
            qPrintable(view->instancesEdit()->toPlainText()));
        QTest::mouseClick(view->predictButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(predicted.count(), 2, 30000);
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("malignant"));
        if (!qEnvironmentVariableIsEmpty("TRAINYARD_SCREENSHOT_DIR"))
            QVERIFY(view->grab().save(
                qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR") + QStringLiteral("/models-form.png")));

        // Issue 47: Explain draws the row's waterfall from the baseline score to its prediction, the largest
        // attributions first, the rest summed, each feature's value beside its name.
        QCOMPARE(model->versionAt(model->indexOf(QStringLiteral("cancer"), QStringLiteral("v1")))
                     ->explanationConfig.value_or(ExplanationConfig {})
                     .numPaths,
            10);
        QTRY_VERIFY(view->explainButton()->isEnabled());
        QSignalSpy explained(view, &ModelsView::explained);
        QTest::mouseClick(view->explainButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(explained.count(), 1, 60000);
        QCOMPARE(explained.first().first().toBool(), true);
        QVERIFY(view->explanationsPanel()->isVisible());
        QCOMPARE(view->explanationsPanel()->views().size(), 1);
        const ExplanationView* waterfall = view->explanationsPanel()->views().first();
        QVERIFY(!waterfall->showsImage());
        QCOMPARE(waterfall->bars().size(), ExplanationView::MaxBars + 1);
        QVERIFY2(waterfall->bars().last().label.startsWith(QLatin1String("15 other feature")),
            qPrintable(waterfall->bars().last().label));
        QVERIFY2(waterfall->bars().first().label.startsWith(QLatin1String("column ")) && waterfall->bars().first().label.contains(QLatin1String(" = ")),
            qPrintable(waterfall->bars().first().label));
        for (qsizetype i = 1; i < waterfall->bars().size(); ++i) {
            QVERIFY(std::abs(waterfall->bars().at(i).end - waterfall->bars().at(i).start)
                <= std::abs(waterfall->bars().at(i - 1).end - waterfall->bars().at(i - 1).start) + 1e-12
                || i == waterfall->bars().size() - 1);
            QCOMPARE(waterfall->bars().at(i).start, waterfall->bars().at(i - 1).end);
        }
        QVERIFY2(waterfall->caption().contains(QLatin1String("Sampled Shapley, 10 paths")), qPrintable(waterfall->caption()));
        if (!qEnvironmentVariableIsEmpty("TRAINYARD_SCREENSHOT_DIR")) {
            QVERIFY(view->grab().save(
                qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR") + QStringLiteral("/models-explain.png")));
            QVERIFY(view->explanationsPanel()->views().first()->grab().save(
                qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR") + QStringLiteral("/models-explain-waterfall.png")));
        }

        // Issue 46 item 5: a server refusal keeps the dialog open, its message beside the fields and what was typed
        // kept.
        QString refusal, keptVersion;
        bool stayedOpen = false;
        whenDeployDialogShows(
            [&](DeployDialog* dialog) {
                dialog->modelBox()->setCurrentText(QStringLiteral("cancer"));
                // The selected model's next free version is proposed, and a taken one is refused as typed.
                QCOMPARE(dialog->versionEdit()->text(), QStringLiteral("v2"));
                dialog->versionEdit()->clear();
                QTest::keyClicks(dialog->versionEdit(), QStringLiteral("v1"));
                QVERIFY2(dialog->problemLabel()->text().contains(QStringLiteral("already has a version v1")),
                    qPrintable(dialog->problemLabel()->text()));
                auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
                QVERIFY(!ok->isEnabled());
                dialog->versionEdit()->clear();
                QTest::keyClicks(dialog->versionEdit(), QStringLiteral("v7"));
                dialog->folderEdit()->setText(m_root.filePath(QStringLiteral("models/sklearn")));
                QVERIFY(ok->isEnabled());
                // Meanwhile someone else deploys v7 (trainyardctl, as gcloud's versions create): the server refuses.
                const Test::CtlRun other = Test::runCtl(QProcessEnvironment::systemEnvironment(),
                    { QStringLiteral("versions"), QStringLiteral("create"), QStringLiteral("v7"),
                        QStringLiteral("--model"), QStringLiteral("cancer"), QStringLiteral("--origin"),
                        m_root.filePath(QStringLiteral("models/sklearn")), QStringLiteral("--framework"),
                        QStringLiteral("scikit-learn"), QStringLiteral("--region"), QStringLiteral("local") },
                    120000);
                QVERIFY2(other.code == 0, qPrintable(other.err));
                ok->click();
                QTRY_VERIFY_WITH_TIMEOUT(dialog->problemLabel()->text().startsWith(QStringLiteral("Could not")), 15000);
                refusal = dialog->problemLabel()->text();
                stayedOpen = dialog->isVisible();
                keptVersion = dialog->versionEdit()->text();
                dialog->reject();
            },
            false);
        view->deploy();
        QVERIFY2(stayedOpen, qPrintable(refusal));
        QCOMPARE(keptVersion, QStringLiteral("v7"));
        // Issue 46 item 16: the audit log names the model and the version created, and which client made them
        // (the console's v1 and model, trainyardctl's v7; before: projects/local and a browser's user agent).
        const Test::CtlRun audit = Test::runCtl(QProcessEnvironment::systemEnvironment(),
            { QStringLiteral("audit"), QStringLiteral("list"),
                QStringLiteral("--filter=protoPayload.methodName:google.cloud.ml.v1.ModelService.Create"),
                QStringLiteral("--format=value(protoPayload.resourceName,"
                               "protoPayload.requestMetadata.callerSuppliedUserAgent)") },
            60000);
        QVERIFY2(audit.code == 0, qPrintable(audit.err));
        // The console's agent is its application's name: this test's here, "trainyard-console/…" in the console.
        const QString console = QString::fromUtf8(ApiClient::userAgent());
        const QString application = QCoreApplication::applicationName();
        QCoreApplication::setApplicationName(QStringLiteral("trainyard"));
        const QString consoleApp = QString::fromUtf8(ApiClient::userAgent());
        QCoreApplication::setApplicationName(application);
        QVERIFY2(consoleApp.startsWith(QLatin1String("trainyard-console/")), qPrintable(consoleApp));
        for (const QString& line : QStringList { QStringLiteral("projects/local/models/cancer\t") + console,
                 QStringLiteral("projects/local/models/cancer/versions/v1\t") + console,
                 QStringLiteral("projects/local/models/cancer/versions/v7\ttrainyardctl/") })
            QVERIFY2(audit.out.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + audit.out));

        // A scikit-learn folder through the dialog: detected, deployed as v2, made the default.
        whenDeployDialogShows([&](DeployDialog* dialog) {
            dialog->findChild<QComboBox*>(QStringLiteral("deployModel"))->setCurrentText(QStringLiteral("cancer"));
            dialog->versionEdit()->setText(QStringLiteral("v2"));
            dialog->folderEdit()->setText(m_root.filePath(QStringLiteral("models/sklearn")));
            QCOMPARE(dialog->frameworkBox()->currentText(), QStringLiteral("SCIKIT_LEARN"));
        });
        view->deploy();
        QTRY_VERIFY_WITH_TIMEOUT(model->versionAt(model->indexOf(QStringLiteral("cancer"), QStringLiteral("v2")))
                                     .value_or(VersionResource {})
                                     .state
                == VersionState::Ready,
            60000);
        view->select(QStringLiteral("cancer"), QStringLiteral("v2"));
        QTRY_VERIFY(view->findChild<QPushButton*>(QStringLiteral("modelsSetDefault"))->isEnabled());
        QTest::mouseClick(view->findChild<QPushButton*>(QStringLiteral("modelsSetDefault")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(model->versionAt(model->indexOf(QStringLiteral("cancer"), QStringLiteral("v2")))
                                     .value_or(VersionResource {})
                                     .isDefault,
            15000);
        // The selected version's log: its node's start and readiness.
        view->select(QStringLiteral("cancer"), QStringLiteral("v2"));
        QTRY_VERIFY_WITH_TIMEOUT(view->logView()->toPlainText().contains(QLatin1String("ready in")), 15000);
        QVERIFY(view->logView()->toPlainText().contains(QLatin1String("sklearn Pipeline from model.joblib")));
        // Predict with v1 again, for the screenshot.
        view->select(QStringLiteral("cancer"), QStringLiteral("v1"));
        QTRY_VERIFY(view->predictButton()->isEnabled());
        QTest::mouseClick(view->predictButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(predicted.count(), 3, 30000);

        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QVERIFY(QDir().mkpath(dir));
            QVERIFY(window.grab().save(dir + QStringLiteral("/models-window.png")));
            QVERIFY(view->grab().save(dir + QStringLiteral("/models-view.png")));
        }
        // Issue 46 item 13: a version had no page of its own. The Details tab is the Cloud Console's version page:
        // what it is, how it was made and serves, and its requests.
        auto* tabs = view->findChild<QTabWidget*>(QStringLiteral("versionTabs"));
        tabs->setCurrentWidget(view->detailsPanel());
        VersionDetailsPanel* details = view->detailsPanel();
        QCOMPARE(details->field(QStringLiteral("name")), QStringLiteral("projects/local/models/cancer/versions/v1"));
        QVERIFY2(details->field(QStringLiteral("state")).startsWith(QLatin1String("READY")),
            qPrintable(details->field(QStringLiteral("state"))));
        QVERIFY2(details->field(QStringLiteral("framework")).startsWith(QLatin1String("XGBOOST")),
            qPrintable(details->field(QStringLiteral("framework"))));
        QVERIFY(!details->field(QStringLiteral("deploymentUri")).isEmpty());
        QVERIFY(QFileInfo(details->field(QStringLiteral("deploymentUri"))).isDir());
        QVERIFY(!details->field(QStringLiteral("created")).isEmpty());
        QVERIFY(details->field(QStringLiteral("lastUse")) != QLatin1String("never"));
        QVERIFY(!details->field(QStringLiteral("machineType")).isEmpty());
        QVERIFY(!details->field(QStringLiteral("scaling")).isEmpty());
        view->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(details->field(QStringLiteral("requests")).contains(QLatin1String(" requests, 0 errors")), 15000);
        // At least the 3 predictions above (v1 answered two of them; the count is the version's, over the last hour).
        const int requests = details->field(QStringLiteral("requests")).section(QLatin1Char(' '), 0, 0).toInt();
        QVERIFY2(requests >= 2, qPrintable(details->field(QStringLiteral("requests"))));
        if (!dir.isEmpty())
            QVERIFY(view->grab().save(dir + QStringLiteral("/models-version-details.png")));
        // A model row shows its default version (v2 since Set Default above).
        view->select(QStringLiteral("cancer"));
        QTRY_COMPARE(details->field(QStringLiteral("name")), QStringLiteral("projects/local/models/cancer/versions/v2"));
        QVERIFY(details->field(QStringLiteral("state")).contains(QLatin1String("default version")));
        view->select(QStringLiteral("cancer"), QStringLiteral("v1"));

        // The Charts tab: the requests just made, their latency and no error.
        tabs->setCurrentWidget(view->chartsPanel());
        QSignalSpy charted(view, &ModelsView::chartsRefreshed);
        view->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(
            view->chartsPanel()->summaryLabel()->text().contains(QStringLiteral("requests/s")), 15000);
        QVERIFY2(view->chartsPanel()->summaryLabel()->text().contains(QStringLiteral(", 0 errors/s")),
            qPrintable(view->chartsPanel()->summaryLabel()->text()));
#if TRAINYARD_HAVE_QTCHARTS
        const QList<int> sizes = view->chartsPanel()->seriesSizes();
        QCOMPARE(sizes.size(), 5);
        QVERIFY(sizes.at(0) >= 1 && sizes.at(1) >= 1);
        // Every value axis reads distinct labels (none elided to "…", none repeated).
        for (auto* chartView : view->chartsPanel()->findChildren<QChartView*>()) {
            for (auto* axis : chartView->chart()->axes(Qt::Vertical)) {
                if (auto* v = qobject_cast<QValueAxis*>(axis)) {
                    const QStringList labels = Test::valueAxisLabels(v);
                    QCOMPARE(QSet<QString>(labels.cbegin(), labels.cend()).size(), labels.size());
                }
            }
        }
        // Issue 46 item 7: a single interval's point sat on the time axis's left end.
        QVERIFY2(view->chartsPanel()->pointsOnFrame().isEmpty(),
            qPrintable(view->chartsPanel()->pointsOnFrame().join(QStringLiteral("; "))));
#endif
        // The tree's Requests column: each READY version's latest rate ("0.2/s").
        const QModelIndex v1Row = model->indexOf(QStringLiteral("cancer"), QStringLiteral("v1"));
        QTRY_VERIFY_WITH_TIMEOUT(model->index(v1Row.row(), DeployedModelsModel::RequestRate, v1Row.parent())
                                     .data()
                                     .toString()
                                     .endsWith(QStringLiteral("/s")),
            15000);
        if (!dir.isEmpty())
            QVERIFY(view->grab().save(dir + QStringLiteral("/models-charts.png")));
        // Issue 46 item 13: a model's row has no state (it read "3 versions" under State): its count is beside its
        // name; a Last use that came after the listing widens its column (it was cut to "1 Dec …").
        const QModelIndex cancerRow = model->indexOf(QStringLiteral("cancer"));
        QVERIFY2(model->index(cancerRow.row(), DeployedModelsModel::Name).data().toString().startsWith(
                     QStringLiteral("cancer (3 version")),
            qPrintable(model->index(cancerRow.row(), DeployedModelsModel::Name).data().toString()));
        QCOMPARE(model->index(cancerRow.row(), DeployedModelsModel::State).data().toString(), QString());
        const QString lastUse
            = model->index(v1Row.row(), DeployedModelsModel::LastUse, v1Row.parent()).data().toString();
        QVERIFY(lastUse != QLatin1String("never"));
        auto* tree = view->findChild<QTreeView*>(QStringLiteral("modelsTree"));
        QTRY_VERIFY2(tree->header()->sectionSize(DeployedModelsModel::LastUse)
                >= tree->fontMetrics().horizontalAdvance(lastUse),
            qPrintable(QStringLiteral("%1 px for \"%2\"").arg(tree->header()->sectionSize(DeployedModelsModel::LastUse)).arg(lastUse)));
    }

    /// Issue 46 item 13: in a short dock at 1024×700 the buttons read "lew Model." and the tree showed a row and a
    /// half. The buttons keep their text; the tree keeps room for a few rows.
    void smallDock()
    {
        ModelsView view;
        view.resize(640, 260);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (auto* button : view.findChildren<QPushButton*>()) {
            if (!button->isVisible() || !button->objectName().startsWith(QLatin1String("models")))
                continue;
            QVERIFY2(button->width() >= button->sizeHint().width(),
                qPrintable(QStringLiteral("%1: %2 of %3 px").arg(button->text()).arg(button->width()).arg(
                    button->sizeHint().width())));
        }
        auto* tree = view.findChild<QTreeView*>(QStringLiteral("modelsTree"));
        QVERIFY(tree->height() >= tree->fontMetrics().height() * 7);
    }

    /// Run the sample → Job ▸ Deploy Model… → Predict: the Fashion-MNIST sample's <job-dir>/model (TorchScript) is
    /// detected as PYTORCH, deployed, and a raw test image comes back as its largest class. With
    /// TRAINYARD_SCREENSHOT_DIR set, the window goes to models-sample.png.
    void sampleDeployAndPredict()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.resize(1200, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ModelsView* view = window.modelsView();
        DeployedModelsModel* model = view->model();

        const QString jobDir = m_root.filePath(QStringLiteral("models/fmnist_sample"));
        const Test::CtlRun run = Test::runCtl(QProcessEnvironment::systemEnvironment(),
            { QStringLiteral("jobs"), QStringLiteral("submit"), QStringLiteral("training"),
                QStringLiteral("fmnist_sample"), QStringLiteral("--package-path"),
                QStringLiteral(TRAINYARD_SAMPLE_TRAINER), QStringLiteral("--module-name"),
                QStringLiteral("trainer.task"), QStringLiteral("--region"), QStringLiteral("local"),
                QStringLiteral("--job-dir"), jobDir, QStringLiteral("--stream-logs"), QStringLiteral("--"),
                QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--train-examples"),
                QStringLiteral("5000") },
            300000);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(QStringLiteral("fmnist_sample")), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.deployAction()->isEnabled(), 30000);
        whenDeployDialogShows([&](DeployDialog* dialog) {
            QCOMPARE(dialog->folderEdit()->text(), jobDir + QStringLiteral("/model"));
            QCOMPARE(dialog->frameworkBox()->currentText(), QStringLiteral("PYTORCH"));
            dialog->findChild<QComboBox*>(QStringLiteral("deployModel"))->setCurrentText(QStringLiteral("fmnist"));
            dialog->explanationBox()->setCurrentIndex(
                dialog->explanationBox()->findData(int(ExplanationConfig::Method::IntegratedGradients)));
        });
        window.deployAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(model->versionAt(model->indexOf(QStringLiteral("fmnist"), QStringLiteral("v1")))
                                     .value_or(VersionResource {})
                                     .state
                == VersionState::Ready,
            60000);

        // The test set's third image (a trouser: label 1), raw pixels as the dataset stores them.
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-c"),
                QStringLiteral(
                    "import gzip, json, numpy as np\n"
                    "raw = gzip.open('/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz').read()\n"
                    "print(json.dumps(np.frombuffer(raw, np.uint8, offset=16).reshape(-1, 784)[2].tolist()))") });
        QVERIFY(python.waitForFinished(60000));
        const QString image = QString::fromUtf8(python.readAllStandardOutput()).trimmed();
        QVERIFY(image.startsWith(QLatin1Char('[')));
        view->select(QStringLiteral("fmnist"), QStringLiteral("v1"));
        QTRY_VERIFY(view->predictButton()->isEnabled());
        view->instancesEdit()->setPlainText(image);
        QSignalSpy predicted(view, &ModelsView::predicted);
        QTest::mouseClick(view->predictButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(predicted.count(), 1, 30000);
        QCOMPARE(predicted.first().first().toBool(), true);
        QTableWidget* table = view->predictions();
        QCOMPARE(table->rowCount(), 1);
        QVERIFY2(
            table->item(0, 1)->text().startsWith(QLatin1String("class 1 (")), qPrintable(table->item(0, 1)->text()));
        QVERIFY(table->item(0, 1)->toolTip().startsWith(QLatin1Char('[')));

        // Issue 47: the image's integrated gradients, drawn as a heat map over it (the sample's model folder says
        // its input is an image, from a black baseline).
        QTRY_VERIFY(view->explainButton()->isEnabled());
        QSignalSpy explained(view, &ModelsView::explained);
        QTest::mouseClick(view->explainButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(explained.count(), 1, 60000);
        QVERIFY2(explained.first().first().toBool(), qPrintable(view->explanationsPanel()->messageLabel()->text()));
        QCOMPARE(view->explanationsPanel()->views().size(), 1);
        QVERIFY(view->explanationsPanel()->views().first()->showsImage());
        QVERIFY2(view->explanationsPanel()->views().first()->caption().contains(QLatin1String("Integrated gradients, 50 steps")),
            qPrintable(view->explanationsPanel()->views().first()->caption()));
        if (!qEnvironmentVariableIsEmpty("TRAINYARD_SCREENSHOT_DIR"))
            QVERIFY(view->explanationsPanel()->views().first()->grab().save(
                qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR") + QStringLiteral("/models-explain-image.png")));

        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QVERIFY(QDir().mkpath(dir));
            QVERIFY(window.grab().save(dir + QStringLiteral("/models-sample.png")));
        }
    }

    /// Batch prediction as a user takes it: the wizard's third job type, a deployed model picked from the list, an
    /// input file (its first instances previewed), an output folder; the job succeeds, the job list says what it is,
    /// and its Predictions tab shows every instance done, the counts, the output files and the results previewed. With
    /// TRAINYARD_SCREENSHOT_DIR set: wizard-batch.png and batch-job.png (the job's view).
    void batchPredictionFromTheWizard()
    {
        ExecutorConnection connection;
        MainWindow window(&connection);
        window.resize(1200, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();
        const QString models = m_root.filePath(QStringLiteral("models"));
        for (const QStringList& args :
            { QStringList { QStringLiteral("models"), QStringLiteral("create"), QStringLiteral("scoring") },
                QStringList { QStringLiteral("versions"), QStringLiteral("create"), QStringLiteral("v1"),
                    QStringLiteral("--model"), QStringLiteral("scoring"), QStringLiteral("--origin"),
                    models + QStringLiteral("/sklearn"), QStringLiteral("--framework"),
                    QStringLiteral("scikit-learn") } }) {
            const Test::CtlRun run = Test::runCtl(QProcessEnvironment::systemEnvironment(), args, 120000);
            QVERIFY2(run.code == 0, qPrintable(run.err));
        }
        // 300 instances of the table, and a line that is none.
        QFile expected(models + QStringLiteral("/expected.json"));
        QVERIFY(expected.open(QIODevice::ReadOnly));
        const QJsonArray rows
            = QJsonDocument::fromJson(expected.readAll()).object().value(QStringLiteral("allInstances")).toArray();
        const QString input = m_root.filePath(QStringLiteral("instances.json"));
        QFile in(input);
        QVERIFY(in.open(QIODevice::WriteOnly));
        for (int i = 0; i < 300; ++i)
            in.write(QJsonDocument(rows.at(i).toArray()).toJson(QJsonDocument::Compact) + '\n');
        in.write("oops\n");
        in.close();
        const QString output = m_root.filePath(QStringLiteral("predictions"));

        SubmitWizard w(client);
        w.resize(1000, 760);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString jobId = QStringLiteral("score_batch_1");
        QTest::keyClicks(w.jobPage()->jobIdEdit(), jobId);
        QTRY_VERIFY_WITH_TIMEOUT(w.jobPage()->uniquenessChecked(), 10000);
        QRadioButton* batch = w.jobPage()->batchPrediction();
        QTest::mouseClick(batch, Qt::LeftButton, {}, QPoint(5, batch->height() / 2));
        QVERIFY(batch->isChecked());
        QVERIFY2(w.windowTitle().contains(QStringLiteral("Batch Prediction"))
                && w.windowTitle().contains(QStringLiteral("of 3")),
            qPrintable(w.windowTitle()));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::BatchPageId));
        WizardBatchPage* page = w.batchPage();
        QTRY_VERIFY_WITH_TIMEOUT(page->modelBox()->findText(QStringLiteral("scoring")) >= 0, 10000);
        page->modelBox()->setCurrentIndex(page->modelBox()->findText(QStringLiteral("scoring")));
        QTRY_VERIFY_WITH_TIMEOUT(page->versionBox()->findData(QStringLiteral("v1")) >= 0, 10000);
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QTest::keyClicks(page->inputsEdit(), input);
        QTRY_VERIFY(page->preview()->toPlainText().startsWith(QLatin1Char('[')));
        QVERIFY2(page->inputSummary()->text().startsWith(QStringLiteral("1 file")),
            qPrintable(page->inputSummary()->text()));
        QTest::keyClicks(page->outputEdit(), output);
        page->workersBox()->setValue(2);
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(w.grab().save(dir + QStringLiteral("/wizard-batch.png")));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::ReviewPageId));
        const QString command = w.reviewPage()->commandView()->toPlainText();
        QVERIFY2(command.contains(QStringLiteral("trainyardctl jobs submit prediction score_batch_1 --model=scoring "
                                                 "--data-format=json --input-paths="))
                && command.contains(QStringLiteral("--max-worker-count=2")),
            qPrintable(command));
        // Issue 46 item 4: the config is the predictionInput the job gets (it was "{}"), and Export config… writes
        // what reads back as the same job.
        const QString yaml = w.reviewPage()->yamlView()->toPlainText();
        for (const QString& field : { QStringLiteral("predictionInput:"), QStringLiteral("modelName: "),
                 QStringLiteral("dataFormat: JSON"), QStringLiteral("inputPaths:"), QStringLiteral("outputPath: "),
                 QStringLiteral("maxWorkerCount: 2") })
            QVERIFY2(yaml.contains(field), qPrintable(field + QStringLiteral(" missing from:\n") + yaml));
        const QString exported = m_root.filePath(QStringLiteral("score_batch_1.yaml"));
        QVERIFY(w.reviewPage()->exportConfig(exported));
        QString error;
        const std::optional<Job> back = ConfigLoader::loadFile(exported, &error);
        QVERIFY2(back && back->predictionInput, qPrintable(error));
        QCOMPARE(back->predictionInput->inputPaths, w.job().predictionInput->inputPaths);
        QCOMPARE(back->predictionInput->outputPath, w.job().predictionInput->outputPath);
        QCOMPARE(back->predictionInput->modelName, w.job().predictionInput->modelName);
        QCOMPARE(back->predictionInput->maxWorkerCount, w.job().predictionInput->maxWorkerCount);
        QSignalSpy submitted(&w, &SubmitWizard::jobSubmitted);
        QSignalSpy refused(&w, &SubmitWizard::submitFailed);
        QTest::mouseClick(w.button(QWizard::FinishButton), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(submitted.count() + refused.count() > 0, 15000);
        QVERIFY2(refused.isEmpty(), refused.isEmpty() ? "" : qPrintable([&] {
            const ApiError e = refused.first().first().value<ApiError>();
            QString text = e.summary();
            for (const FieldViolation& v : e.violations)
                text += QStringLiteral("; ") + v.field + QStringLiteral(": ") + v.description;
            return text;
        }()));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const ApiResult<Job> r = client->getJobBlocking(jobId);
                return r.ok() && isFinal(r.value.state);
            }(),
            120000);
        QCOMPARE(client->getJobBlocking(jobId).value.state, JobState::Succeeded);

        QTRY_VERIFY_WITH_TIMEOUT(window.selectJob(jobId), 30000);
        JobView* view = window.jobView();
        QVERIFY(view);
        BatchPredictionPanel* panel = view->batchPanel();
        QVERIFY(panel);
        // "300 predictions, 1 error of 301 instances" (the plurals are the English translation's, which main()
        // installs).
        QTRY_VERIFY_WITH_TIMEOUT(panel->countsLabel()->text().contains(QStringLiteral(" of 301 instances")), 10000);
        QVERIFY2(panel->countsLabel()->text().startsWith(QStringLiteral("300 prediction"))
                && panel->countsLabel()->text().contains(QStringLiteral(", 1 error")),
            qPrintable(panel->countsLabel()->text()));
        QCOMPARE(panel->progressBar()->value(), 1000);
        QTRY_COMPARE(panel->filesView()->topLevelItemCount(), 2);
        QCOMPARE(
            panel->filesView()->topLevelItem(0)->text(0), QStringLiteral("prediction.errors_stats-00000-of-00001"));
        panel->filesView()->setCurrentItem(panel->filesView()->topLevelItem(1));
        QVERIFY2(panel->preview()->toPlainText().startsWith(QStringLiteral("{\"instance\": [")),
            qPrintable(panel->preview()->toPlainText().left(200)));
        view->findChild<QTabWidget*>()->setCurrentWidget(panel);
        QTRY_VERIFY(panel->isVisible() && panel->height() > 200);
        if (!dir.isEmpty())
            QVERIFY(view->grab().save(dir + QStringLiteral("/batch-job.png")));
    }
};

QTEST_MAIN(TestModelsView)
#include "tst_modelsview.moc"
