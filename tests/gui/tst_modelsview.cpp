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
#include "batchpredictionpanel.h"
#include "ctlrun.h"
#include "deploydialog.h"
#include "deployedmodelsmodel.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "jobview.h"
#include "mainwindow.h"
#include "modelsview.h"
#include "requireddependencies.h"
#include "submitwizard.h"
#include "versionchartspanel.h"
#include "wizardpages.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
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
    void whenDeployDialogShows(std::function<void(DeployDialog*)> fill)
    {
        auto* timer = new QTimer(this);
        timer->setInterval(50);
        connect(timer, &QTimer::timeout, this, [timer, fill] {
            auto* dialog = qobject_cast<DeployDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            timer->stop();
            timer->deleteLater();
            fill(dialog);
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        timer->start();
    }

private Q_SLOTS:
    void initTestCase()
    {
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
            detected = dialog->detectedLabel()->text();
            dialog->findChild<QComboBox*>(QStringLiteral("deployModel"))->setCurrentText(QStringLiteral("cancer"));
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
        // The Charts tab: the requests just made, their latency and no error.
        auto* tabs = view->findChild<QTabWidget*>(QStringLiteral("versionTabs"));
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
