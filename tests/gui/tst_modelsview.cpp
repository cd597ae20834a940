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
#include "ctlrun.h"
#include "deploydialog.h"
#include "deployedmodelsmodel.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "mainwindow.h"
#include "modelsview.h"
#include "requireddependencies.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

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
        QTRY_COMPARE_WITH_TIMEOUT(predicted.count(), 2, 30000);

        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QVERIFY(QDir().mkpath(dir));
            QVERIFY(window.grab().save(dir + QStringLiteral("/models-window.png")));
            QVERIFY(view->grab().save(dir + QStringLiteral("/models-view.png")));
        }
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
};

QTEST_MAIN(TestModelsView)
#include "tst_modelsview.moc"
