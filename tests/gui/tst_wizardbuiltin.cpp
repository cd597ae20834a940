// SPDX-License-Identifier: GPL-2.0-or-later
// The submit wizard's built-in algorithm path (issue 29), with real key input: "Built-in algorithm" on the
// Training application page, the training CSV typed, its preview (first rows, each column's type as preprocessing
// reads it, the target's classes, warnings, a fatal error that blocks Next), the objective the target implies put
// into the arguments, and a submission to a real executor that trains XGBoost on the breast-cancer table to
// SUCCEEDED, then its Model tab (and a regression's). The preview's and the confusion matrix's models run under
// QAbstractItemModelTester. With TRAINYARD_SCREENSHOT_DIR set, the page
// as drawn goes to wizard-builtin-preview.png.
#include "algorithmarguments.h"
#include "apiclient.h"
#include "builtinalgorithm.h"
#include "builtinalgorithmform.h"
#include "csvpreviewmodel.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "modelpanel.h"
#include "requireddependencies.h"
#include "statenames.h"
#include "submitwizard.h"
#include "wizardcomputepage.h"
#include "wizardpages.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#if TRAINYARD_HAVE_QTCHARTS
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QHorizontalBarSeries>
#include <QBarSet>
#endif
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QProcess>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <csignal>

using namespace Trainyard;

namespace {

QString table(const char* name)
{
    return QStringLiteral(TRAINYARD_FIXTURES_DIR "/builtin/") + QLatin1String(name);
}

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

/// The preview and the training need Debian's pandas and xgboost (packaging/setup-deps.sh); the Debian 13
/// chroot build (console only) has neither.
bool havePythonLibraries()
{
    QProcess probe;
    probe.start(QStringLiteral("/usr/bin/python3"), { QStringLiteral("-c"), QStringLiteral("import pandas, xgboost") });
    return probe.waitForFinished(120000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
}

/// A public table with CSV column `targetColumn` moved to the front and the rows sorted by it, as many exports
/// are: its first 20 rows show one class, or a few values of a quantity. Written to `path`.
bool writeSortedByTarget(const QString& source, int targetColumn, bool numeric, const QString& path)
{
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QList<QList<QByteArray>> rows;
    for (const QByteArray& line : in.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QList<QByteArray> cells = line.split(',');
        cells.prepend(cells.takeAt(targetColumn));
        rows << cells;
    }
    std::stable_sort(rows.begin(), rows.end(), [numeric](const auto& a, const auto& b) {
        // A row without a target goes last (it is dropped in training, and shown last).
        if (a.first().isEmpty() != b.first().isEmpty())
            return b.first().isEmpty();
        return numeric ? a.first().toDouble() < b.first().toDouble() : a.first() < b.first();
    });
    QByteArray text;
    for (const QList<QByteArray>& row : rows)
        text += row.join(',') + '\n';
    return writeFile(path, text);
}

} // namespace

class TestWizardBuiltIn : public QObject {
    Q_OBJECT

    QTemporaryDir m_root;
    QList<qint64> m_pids;

    static void screenshot(QWidget& w, const QString& name)
    {
        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        w.grab().save(dir + QLatin1Char('/') + name);
    }

    /// A wizard without an executor at 1024×700 (a small screen), on the Training application page of a built-in
    /// algorithm job named `jobId`, as a user gets there. False when it is not there.
    static bool toBuiltInPage(SubmitWizard& w, const QString& jobId)
    {
        w.resize(1024, 700);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w))
            return false;
        QTest::keyClicks(w.jobPage()->jobIdEdit(), jobId);
        QTest::mouseClick(
            w.jobPage()->trainBuiltIn(), Qt::LeftButton, {}, QPoint(5, w.jobPage()->trainBuiltIn()->height() / 2));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        return w.currentId() == SubmitWizard::AppPageId;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root));
    }

    void cleanupTestCase() { Test::stopExecutors(m_pids); }

    /// The preview model as views use it, from what preprocess.preview() prints (no Python needed).
    void previewModel()
    {
        CsvPreviewModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QByteArray json = R"({"path": "/t.csv", "rows": [["a", "1.5", "x", ""], ["b", "2", "y", "7"]],
            "total_rows": 2,
            "columns": [{"index": 0, "type": "target", "classes": 2, "missing": 0, "numeric": false,
                         "task": "classification", "task_rule": "text", "labels": ["a", "b"]},
                        {"index": 1, "type": "numeric", "missing": 0, "distinct": 2},
                        {"index": 2, "type": "categorical", "treatment": "vocabulary", "missing": 0, "distinct": 2},
                        {"index": 3, "type": "key", "missing": 1, "distinct": 1}],
            "warnings": ["column 4: 1 of 2 values missing"], "error": null})";
        const CsvPreview preview = CsvPreview::fromJson(QJsonDocument::fromJson(json).object());
        model.setPreview(preview);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 4);
        QVERIFY(preview.looksLikeClassification());
        QCOMPARE(preview.classes(), (QStringList { QStringLiteral("a"), QStringLiteral("b") }));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("1\ntarget"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("3\ncategorical"));
        QVERIFY(model.headerData(2, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QStringLiteral("vocabulary")));
        // A missing cell is drawn as a dash and keeps its empty text for copying.
        QCOMPARE(model.index(0, 3).data().toString(), QStringLiteral("—"));
        QCOMPARE(model.index(0, 3).data(Qt::UserRole).toString(), QString());
        QCOMPARE(model.index(1, 3).data().toString(), QStringLiteral("7"));
        // A numeric target with many values is a quantity (regression).
        const CsvPreview numeric
            = CsvPreview::fromJson(QJsonDocument::fromJson(R"({"rows": [["151.5", "1"], ["75", "2"]],
            "columns": [{"index": 0, "type": "target", "classes": 2, "numeric": true, "min": 75, "max": 151.5,
                         "task": "regression", "task_rule": "fractional"},
                        {"index": 1, "type": "numeric"}]})")
                                       .object());
        QVERIFY(!numeric.looksLikeClassification());
        QVERIFY(numeric.classes().isEmpty());
        model.setPreview(numeric);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void previewReadsEveryRow_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("targetColumn");
        QTest::addColumn<bool>("numeric");
        QTest::addColumn<QString>("objective");
        QTest::addColumn<QString>("summary");
        // Sorted by the target: the first 20 rows show "benign" only (two classes in all).
        QTest::newRow("two classes, sorted") << table("breast_cancer.csv") << 0 << false
                                             << QStringLiteral("binary:logistic") << QStringLiteral("target: 2 class");
        // Wine's classes 0, 1, 2, sorted: the first 20 rows show class 0 only.
        QTest::newRow("three classes, sorted")
            << table("wine.csv") << 0 << true << QStringLiteral("multi:softprob") << QStringLiteral("target: 3 class");
        // An integer quantity in grams (sorted_gaps' mass), sorted: 20 rows show 16 values, which read as classes.
        QTest::newRow("integer grams, sorted") << table("sorted_gaps.csv") << 5 << true
                                               << QStringLiteral("reg:squarederror") << QStringLiteral("regression");
        // Diabetes' disease progression, an integer: regression from every row.
        QTest::newRow("integer quantity, sorted") << table("diabetes.csv") << 0 << true
                                                  << QStringLiteral("reg:squarederror") << QStringLiteral("regression");
    }

    /// Issue 46 item 1: the preview's task and classes come from every row of the file by the package's rule, so
    /// the objective it proposes is one the job accepts; item 2: at 1024×700 the summary and the warnings keep
    /// their own place below the table (the preview page scrolls) instead of being painted over its rows.
    void previewReadsEveryRow()
    {
        if (!havePythonLibraries())
            TRAINYARD_SKIP_OR_FAIL("the CSV preview needs python3-pandas (packaging/setup-deps.sh)");
        QFETCH(QString, source);
        QFETCH(int, targetColumn);
        QFETCH(bool, numeric);
        QFETCH(QString, objective);
        QFETCH(QString, summary);
        const QString path
            = m_root.filePath(QStringLiteral("sorted-%1.csv").arg(qHash(QString::fromLatin1(QTest::currentDataTag()))));
        QVERIFY(writeSortedByTarget(source, targetColumn, numeric, path));
        SubmitWizard w(nullptr);
        QVERIFY(toBuiltInPage(w, QStringLiteral("sorted_table")));
        BuiltInAlgorithmForm* form = w.appPage()->algorithmForm();
        QTRY_VERIFY(form->isVisible());
        QTest::keyClicks(form->trainingEdit(), path);
        QTRY_VERIFY_WITH_TIMEOUT(!form->previewPending() && form->previewModel()->rowCount() == 20, 60000);
        QVERIFY2(form->summaryLabel()->text().contains(summary), qPrintable(form->summaryLabel()->text()));
        QVERIFY2(form->summaryLabel()->text().contains(QStringLiteral("the first 20 shown")),
            qPrintable(form->summaryLabel()->text()));
        QTRY_COMPARE(form->argumentsForm()->value(QStringLiteral("objective")), objective);
        if (qstrcmp(QTest::currentDataTag(), "integer grams, sorted") == 0) {
            // sorted_gaps has blanks: the missing-value lines count over every row (342), below the table.
            QVERIFY2(form->problemsLabel()->text().contains(QStringLiteral(" of 342 values missing")),
                qPrintable(form->problemsLabel()->text()));
            QVERIFY(form->problemsLabel()->isVisible());
        }
        // Nothing overlaps: the table, the summary and the warnings each keep their own rows, at the height their
        // wrapped text needs.
        QApplication::processEvents();
        const QRect table = form->previewView()->geometry();
        for (QLabel* label : { form->summaryLabel(), form->problemsLabel() }) {
            if (!label->isVisible())
                continue;
            QVERIFY2(!label->geometry().intersects(table),
                qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 over the table's %6..%7")
                               .arg(label->objectName())
                               .arg(label->x())
                               .arg(label->y())
                               .arg(label->width())
                               .arg(label->height())
                               .arg(table.top())
                               .arg(table.bottom())));
            QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                qPrintable(QStringLiteral("%1: %2 px high, its text needs %3")
                               .arg(label->objectName())
                               .arg(label->height())
                               .arg(label->heightForWidth(label->width()))));
        }
        QVERIFY(!form->summaryLabel()->geometry().intersects(form->problemsLabel()->geometry())
            || !form->problemsLabel()->isVisible());
        QString name = QString::fromLatin1(QTest::currentDataTag());
        name.remove(QLatin1Char(',')).replace(QLatin1Char(' '), QLatin1Char('-'));
        screenshot(w, QStringLiteral("wizard-builtin-preview-%1.png").arg(name));
    }

    /// Issue 46 item 10, the same fault in the wizard: the arguments page scrolls, and the wheel over a drop-down the
    /// user passes on the way down changed its value (the predict form's columns did so too; ModelsView installs the
    /// same guard). Unfocused, the wheel scrolls the page; once clicked, the field takes it.
    void wheelScrollsPastFields()
    {
        SubmitWizard w(nullptr);
        QVERIFY(toBuiltInPage(w, QStringLiteral("wheel_job")));
        BuiltInAlgorithmForm* form = w.appPage()->algorithmForm();
        QTRY_VERIFY(form->isVisible());
        form->tabs()->setCurrentIndex(1);
        auto* scroll = form->findChild<QScrollArea*>(QStringLiteral("argumentsScroll"));
        QVERIFY(scroll);
        QComboBox* box = nullptr;
        for (auto* b : form->argumentsForm()->findChildren<QComboBox*>()) {
            if (b->isVisible() && b->count() > 2) {
                box = b;
                break;
            }
        }
        QVERIFY2(box, "no drop-down among the arguments");
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
        QCOMPARE(box->focusPolicy(), Qt::StrongFocus);
        const int index = box->currentIndex();
        const int scrolled = scroll->verticalScrollBar()->value();
        const auto wheel = [box](int delta) {
            const QPointF at(box->width() / 2.0, box->height() / 2.0);
            QWheelEvent e(at, box->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                Qt::NoScrollPhase, false);
            QApplication::sendEvent(box, &e);
        };
        wheel(-120);
        QCOMPARE(box->currentIndex(), index);
        QVERIFY2(scroll->verticalScrollBar()->value() > scrolled,
            qPrintable(QStringLiteral("%1 → %2").arg(scrolled).arg(scroll->verticalScrollBar()->value())));
        box->setFocus(Qt::MouseFocusReason);
        QTRY_VERIFY(box->hasFocus());
        wheel(box->currentIndex() + 1 < box->count() ? -120 : 120);
        QVERIFY(box->currentIndex() != index);
    }

    /// The form's arguments are the package's: every name is an option of its parser, with the same default and
    /// choices the parser accepts (so the form cannot offer what the job would refuse).
    void argumentsMatchThePackage()
    {
        if (!havePythonLibraries())
            TRAINYARD_SKIP_OR_FAIL("the check reads the package's parsers (python3-pandas, packaging/setup-deps.sh)");
        QProcess dump;
        dump.start(QStringLiteral("/usr/bin/python3"),
            { QStringLiteral("-c"),
                QStringLiteral(
                    "import json, sys\n"
                    "sys.path.insert(0, sys.argv[1])\n"
                    "from trainyard_algorithms import xgboost, linear_learner, wide_deep\n"
                    "out = {}\n"
                    "for key, parser in (('trainyard_algorithms.xgboost', xgboost.build_parser(False)),\n"
                    "        ('trainyard_algorithms.linear_learner', linear_learner.build_parser()),\n"
                    "        ('trainyard_algorithms.wide_deep', wide_deep.build_parser())):\n"
                    "    args = out.setdefault(key, {})\n"
                    "    for a in parser._actions:\n"
                    "        for o in a.option_strings:\n"
                    "            d = a.default\n"
                    "            d = ','.join(map(str, d)) if isinstance(d, list) else ('' if d is None else str(d))\n"
                    "            args[o[2:]] = {'default': d, 'choices': list(a.choices or []), 'required': "
                    "a.required}\n"
                    "print(json.dumps(out))\n"),
                BuiltInAlgorithms::packageDir() });
        QVERIFY(dump.waitForFinished(60000));
        const QJsonObject parsers = QJsonDocument::fromJson(dump.readAllStandardOutput()).object();
        QVERIFY2(!parsers.isEmpty(), dump.readAllStandardError().constData());
        for (const BuiltInAlgorithm& algorithm : BuiltInAlgorithms::supported()) {
            const QJsonObject options = parsers.value(algorithm.module).toObject();
            for (const AlgorithmArgument& a : algorithmArguments(algorithm)) {
                const QString what = algorithm.name + QStringLiteral(" --") + a.name;
                QVERIFY2(options.contains(a.name), qPrintable(what + QStringLiteral(": not an option of the package")));
                const QJsonObject option = options.value(a.name).toObject();
                QCOMPARE(option.value(QStringLiteral("default")).toString(), a.defaultValue);
                QCOMPARE(option.value(QStringLiteral("required")).toBool(), a.required);
                QStringList accepted;
                for (const QJsonValue& c : option.value(QStringLiteral("choices")).toArray())
                    accepted << c.toString();
                for (const QString& c : a.choices)
                    QVERIFY2(accepted.contains(c), qPrintable(what + QStringLiteral(": ") + c));
                QVERIFY2(!a.help.isEmpty(), qPrintable(what));
            }
        }
    }

    /// What the preview says of tables that are not right, before anything is submitted.
    void previewWarnsAndRefuses()
    {
        if (!havePythonLibraries())
            TRAINYARD_SKIP_OR_FAIL("the CSV preview needs python3-pandas (packaging/setup-deps.sh)");
        BuiltInAlgorithmForm form;
        form.show();
        // A header row above numbers: a warning, the table can still be trained on.
        const QString header = m_root.filePath(QStringLiteral("header.csv"));
        QVERIFY(writeFile(header, "label,size,weight\n1,2.5,3\n0,1.5,\n1,3.5,4\n"));
        QTest::keyClicks(form.trainingEdit(), header);
        QTRY_VERIFY_WITH_TIMEOUT(!form.previewPending() && form.previewModel()->rowCount() > 0, 60000);
        QVERIFY2(form.problemsLabel()->text().contains(QStringLiteral("header row")),
            qPrintable(form.problemsLabel()->text()));
        QVERIFY2(form.problemsLabel()->text().contains(QStringLiteral("Column 3: 1 of 4 values missing")),
            qPrintable(form.problemsLabel()->text()));
        QVERIFY(form.isComplete());
        // A ragged row: an error naming the line; the form is not complete.
        const QString ragged = m_root.filePath(QStringLiteral("ragged.csv"));
        QVERIFY(writeFile(ragged, "1,2.5,3\n0,1.5\n"));
        form.trainingEdit()->selectAll();
        QTest::keyClicks(form.trainingEdit(), ragged);
        QTRY_VERIFY_WITH_TIMEOUT(!form.previewPending() && !form.problemsLabel()->text().isEmpty(), 60000);
        QVERIFY2(form.problemsLabel()->text().contains(QStringLiteral("cannot be trained on"))
                && form.problemsLabel()->text().contains(QStringLiteral("line 2")),
            qPrintable(form.problemsLabel()->text()));
        QVERIFY(!form.isComplete());
        // A file that is not there.
        form.trainingEdit()->selectAll();
        QTest::keyClicks(form.trainingEdit(), m_root.filePath(QStringLiteral("none.csv")));
        QTRY_VERIFY_WITH_TIMEOUT(form.problemsLabel()->text().contains(QStringLiteral("is not a file")), 10000);
        QVERIFY(!form.isComplete());
    }

    /// The whole path as a user takes it, to a trained model.
    void submitXgboostFromTheWizard()
    {
        if (!havePythonLibraries())
            TRAINYARD_SKIP_OR_FAIL(
                "built-in algorithms need python3-pandas and python3-xgboost (packaging/setup-deps.sh)");
        ExecutorConnection connection;
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();

        SubmitWizard w(client);
        w.resize(1000, 760);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString jobId = QStringLiteral("wizard_xgboost_1");
        QTest::keyClicks(w.jobPage()->jobIdEdit(), jobId);
        QTRY_VERIFY_WITH_TIMEOUT(w.jobPage()->uniquenessChecked(), 10000);
        // What to train is asked first, as the Cloud Console did; the next page follows the answer.
        QVERIFY(w.jobPage()->trainApplication()->isChecked());
        QTest::mouseClick(
            w.jobPage()->trainBuiltIn(), Qt::LeftButton, {}, QPoint(5, w.jobPage()->trainBuiltIn()->height() / 2));
        QVERIFY(w.jobPage()->trainBuiltIn()->isChecked());
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::AppPageId));

        WizardAppPage* app = w.appPage();
        QVERIFY(app->isAlgorithmMode());
        QTRY_VERIFY(app->algorithmForm()->isVisible());
        // Issue 46 item 17: "Built-in algorithm" was both a job type here and a "Runs:" choice on this page. It is
        // chosen once, on the Job page: this page is the algorithm's, with no package/image choice and no other
        // way to a built-in algorithm.
        QCOMPARE(app->title(), QStringLiteral("Built-in algorithm"));
        QVERIFY(!app->packageMode()->isVisible() && !app->imageMode()->isVisible());
        for (QRadioButton* radio : app->findChildren<QRadioButton*>())
            QVERIFY2(!radio->text().remove(QLatin1Char('&')).contains(QLatin1String("uilt-in")), qPrintable(radio->text()));
        QTest::mouseClick(w.button(QWizard::BackButton), Qt::LeftButton);
        QTest::mouseClick(w.jobPage()->trainApplication(), Qt::LeftButton, {},
            QPoint(5, w.jobPage()->trainApplication()->height() / 2));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(app->title(), QStringLiteral("Training application"));
        QTRY_VERIFY(app->packageMode()->isVisible() && app->imageMode()->isVisible());
        QVERIFY(!app->algorithmForm()->isVisible());
        QTest::mouseClick(w.button(QWizard::BackButton), Qt::LeftButton);
        QTest::mouseClick(
            w.jobPage()->trainBuiltIn(), Qt::LeftButton, {}, QPoint(5, w.jobPage()->trainBuiltIn()->height() / 2));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QTRY_VERIFY(app->algorithmForm()->isVisible());
        QVERIFY(!app->packageEdit()->isVisible());
        BuiltInAlgorithmForm* form = app->algorithmForm();
        QCOMPARE(form->imageUri(), QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest"));
        QVERIFY(!w.button(QWizard::NextButton)->isEnabled()); // no table yet
        QTest::keyClicks(form->trainingEdit(), table("breast_cancer.csv"));
        QTRY_VERIFY_WITH_TIMEOUT(!form->previewPending() && form->previewModel()->rowCount() == 20, 60000);
        // Each column as preprocessing reads it: the target's two classes, thirty numeric features.
        QCOMPARE(form->previewModel()->columnCount(), 31);
        QCOMPARE(form->previewModel()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("1\ntarget"));
        QCOMPARE(form->previewModel()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("2\nnumeric"));
        QVERIFY2(form->summaryLabel()->text().contains(QStringLiteral("classification"))
                && form->summaryLabel()->text().contains(QStringLiteral("30 numeric")),
            qPrintable(form->summaryLabel()->text()));
        QVERIFY(form->preprocessBox()->isChecked());
        screenshot(w, QStringLiteral("wizard-builtin-preview.png"));
        // The objective the target implies, in the arguments form, which the user extends.
        AlgorithmArgumentsForm* arguments = form->argumentsForm();
        QTRY_COMPARE(arguments->value(QStringLiteral("objective")), QStringLiteral("binary:logistic"));
        QVERIFY(app->argsEdit()->toPlainText().isEmpty());
        form->tabs()->setCurrentIndex(1);
        auto* rounds = qobject_cast<QLineEdit*>(arguments->field(QStringLiteral("num_boost_round")));
        auto* depth = qobject_cast<QLineEdit*>(arguments->field(QStringLiteral("max_depth")));
        QVERIFY(rounds && depth);
        QCOMPARE(rounds->placeholderText(), QStringLiteral("100")); // the package's default, shown
        QTest::keyClicks(rounds, QStringLiteral("10"));
        // A value out of range names the argument and its range, and blocks Next until it is fixed.
        QTest::keyClicks(depth, QStringLiteral("-1"));
        QTRY_VERIFY(!w.button(QWizard::NextButton)->isEnabled());
        QVERIFY2(arguments->problems().contains(QStringLiteral("--max_depth: -1 is outside [0, ∞)")),
            qPrintable(arguments->problems()));
        depth->clear();
        QVERIFY2(app->argvPreview()->text().contains(QStringLiteral("'--preprocess', '--training_data_path="))
                && app->argvPreview()->text().contains(
                    QStringLiteral("'--objective=binary:logistic', '--num_boost_round=10'")),
            qPrintable(app->argvPreview()->text()));
        QTRY_VERIFY(w.button(QWizard::NextButton)->isEnabled());
        screenshot(w, QStringLiteral("wizard-builtin-arguments.png"));

        while (w.currentId() != SubmitWizard::ReviewPageId) {
            QTRY_VERIFY2(w.button(QWizard::NextButton)->isEnabled(), qPrintable(QString::number(w.currentId())));
            QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
            if (w.currentId() == SubmitWizard::ComputePageId) {
                // Issue 46 item 17: a single-replica algorithm is not offered the tiers with workers, and each says
                // why (the validation's rule, which refused STANDARD_1 at create).
                for (const char* tier : { "STANDARD_1", "PREMIUM_1" }) {
                    QToolButton* b = w.computePage()->tierButton(QString::fromLatin1(tier));
                    QVERIFY2(b && !b->isEnabled(), tier);
                    QVERIFY2(b->toolTip().contains(QLatin1String("trains on one replica")), qPrintable(b->toolTip()));
                }
                QVERIFY(w.computePage()->tierButton(QStringLiteral("BASIC"))->isEnabled());
                QVERIFY(w.computePage()->tierButton(QStringLiteral("BASIC"))->isChecked());
                screenshot(w, QStringLiteral("wizard-builtin-compute.png"));
            }
        }
        const QString command = w.reviewPage()->commandView()->toPlainText();
        QVERIFY2(command.contains(QStringLiteral("--master-image-uri=gcr.io/cloud-ml-algos/boosted_trees:latest"))
                && command.contains(QStringLiteral("-- --preprocess --training_data_path=")),
            qPrintable(command));
        QSignalSpy submitted(&w, &SubmitWizard::jobSubmitted);
        QTest::mouseClick(w.button(QWizard::FinishButton), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 15000);
        Job job;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const ApiResult<Job> r = client->getJobBlocking(jobId);
                job = r.value;
                return r.ok() && isFinal(job.state);
            }(),
            300000);
        QVERIFY2(job.state == JobState::Succeeded, qPrintable(job.errorMessage));
        QCOMPARE(
            job.trainingInput.masterConfig->imageUri, QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest"));
        QCOMPARE(job.trainingInput.args,
            (QStringList { QStringLiteral("--preprocess"),
                QStringLiteral("--training_data_path=") + table("breast_cancer.csv"),
                QStringLiteral("--objective=binary:logistic"), QStringLiteral("--num_boost_round=10") }));
        QVERIFY(job.trainingOutput && job.trainingOutput->builtInAlgorithmOutput);
        QCOMPARE(job.trainingOutput->builtInAlgorithmOutput->framework, QStringLiteral("XGBOOST"));

        // The Model tab: the test split's metrics, the confusion matrix (its counts add up to the split's rows),
        // XGBoost's feature importance and the model folder's files.
        {
            ModelPanel panel(&connection, job);
            panel.resize(1000, 700);
            panel.show();
            QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), 20000);
            QAbstractItemModelTester tester(
                panel.confusionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            QVERIFY2(panel.summaryLabel()->text().contains(QStringLiteral("test split")),
                qPrintable(panel.summaryLabel()->text()));
            QCOMPARE(panel.confusionModel()->rowCount(), 2);
            qint64 total = 0;
            for (int r = 0; r < 2; ++r)
                for (int c = 0; c < 2; ++c)
                    total += panel.confusionModel()->index(r, c).data(Qt::UserRole).toLongLong();
            QCOMPARE(total, panel.model().rows);
            QVERIFY(panel.confusionView()->isVisible());
            // Issue 46 item 11: the matrix says which way it reads.
            QVERIFY(panel.confusionTitle()->isVisible());
            QVERIFY(panel.confusionTitle()->text().contains(QLatin1String("actual"))
                && panel.confusionTitle()->text().contains(QLatin1String("predicted")));
            QCOMPARE(panel.confusionModel()->headerData(1, Qt::Vertical).toString(), QStringLiteral("malignant"));
            QVERIFY(!panel.model().importance.isEmpty());
#if TRAINYARD_HAVE_QTCHARTS
            QVERIFY(panel.importanceChart() && panel.importanceChart()->isVisible());
            // Issue 46 item 11: the bars said "column 3" where the preview heads the column "3 numeric": they name
            // each column as the preview does, from the model's preprocessing.json.
            QCOMPARE(panel.model().inputSchema.columns.size(), 31);
            auto* importanceView = qobject_cast<QChartView*>(panel.importanceChart());
            QVERIFY(importanceView);
            const QList<QAbstractAxis*> yAxes = importanceView->chart()->axes(Qt::Vertical);
            auto* names = yAxes.isEmpty() ? nullptr : qobject_cast<QBarCategoryAxis*>(yAxes.first());
            QVERIFY(names && !names->categories().isEmpty());
            // Issue 47: the explanations' global importance (mean |TreeSHAP| over the test split) beside the gain.
            QVERIFY2(panel.model().attributionMethod.contains(QLatin1String("TreeSHAP")),
                qPrintable(panel.model().attributionMethod));
            const auto barSeries = importanceView->chart()->series();
            QVERIFY(!barSeries.isEmpty());
            auto* bars = qobject_cast<QHorizontalBarSeries*>(barSeries.first());
            QVERIFY(bars && bars->count() == 2);
            QCOMPARE(bars->barSets().at(1)->label(), QStringLiteral("share of mean |attribution|"));
            for (const QString& name : names->categories()) {
                static const QRegularExpression numbered(QStringLiteral("^column ([0-9]+) · numeric$"));
                const QRegularExpressionMatch m = numbered.match(name);
                QVERIFY2(m.hasMatch() && m.captured(1).toInt() >= 2 && m.captured(1).toInt() <= 31, qPrintable(name));
            }
#endif
            QVERIFY(!panel.filesView()->findItems(QStringLiteral("model.bst"), Qt::MatchExactly).isEmpty());
            screenshot(panel, QStringLiteral("model-tab-classification.png"));
        }

        // A regression: predicted against actual instead of a matrix.
        Job regression;
        regression.jobId = QStringLiteral("model_tab_regression");
        regression.trainingInput.masterConfig = ReplicaConfig {};
        regression.trainingInput.masterConfig->imageUri = QStringLiteral("gcr.io/cloud-ml-algos/boosted_trees:latest");
        regression.trainingInput.jobDir = m_root.filePath(QStringLiteral("jobs/model_tab_regression"));
        regression.trainingInput.args
            = { QStringLiteral("--preprocess"), QStringLiteral("--training_data_path=") + table("diabetes.csv"),
                  QStringLiteral("--objective=reg:squarederror"), QStringLiteral("--num_boost_round=10") };
        const ApiResult<Job> created = client->createJobBlocking(regression);
        QVERIFY2(created.ok(), qPrintable(created.error.message));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const ApiResult<Job> r = client->getJobBlocking(regression.jobId);
                regression = r.value;
                return r.ok() && isFinal(regression.state);
            }(),
            300000);
        QVERIFY2(regression.state == JobState::Succeeded, qPrintable(regression.errorMessage));
        ModelPanel panel(&connection, regression);
        panel.resize(1000, 700);
        panel.show();
        QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), 20000);
        QVERIFY(!panel.confusionView()->isVisible());
        QVERIFY(!panel.model().actualPredicted.isEmpty());
        QCOMPARE(qint64(panel.model().actualPredicted.size()), panel.model().rows);
#if TRAINYARD_HAVE_QTCHARTS
        QVERIFY(panel.scatterChart() && panel.scatterChart()->isVisible());
#endif
        screenshot(panel, QStringLiteral("model-tab-regression.png"));
        // Issue 46 item 11: a failed job's Model tab points to the failure (it said the model appears once the job
        // has succeeded).
        Job failed = regression;
        failed.jobId = QStringLiteral("model_tab_failed");
        failed.state = JobState::Failed;
        failed.errorMessage = QStringLiteral("argument --objective: binary:logistic needs 2 classes, the target has 3");
        ModelPanel failedPanel(&connection, failed);
        QVERIFY2(failedPanel.summaryLabel()->text().contains(QLatin1String("the job failed"))
                && failedPanel.summaryLabel()->text().contains(QLatin1String("needs 2 classes")),
            qPrintable(failedPanel.summaryLabel()->text()));
        // The trial parameter names a trial of the job, never a path.
        bool answered = false;
        ApiError refused;
        client->trainedModel(
            regression.jobId, QStringLiteral("../../etc"), this, [&](const TrainedModel&, const ApiError& e) {
                answered = true;
                refused = e;
            });
        QTRY_VERIFY(answered);
        QVERIFY(!refused.isNull());
        QVERIFY2(refused.message.contains(QStringLiteral("is not a trial")), qPrintable(refused.message));

        // "Submit similar" brings the algorithm, the table and the own arguments back to their fields.
        SubmitWizard again(client);
        again.loadJob(job);
        again.show();
        again.next();
        QVERIFY(again.appPage()->isAlgorithmMode());
        QCOMPARE(again.appPage()->algorithmForm()->trainingEdit()->text(), table("breast_cancer.csv"));
        QCOMPARE(again.appPage()->algorithmForm()->argumentsForm()->value(QStringLiteral("num_boost_round")),
            QStringLiteral("10"));
        QCOMPARE(again.appPage()->algorithmForm()->argumentsForm()->value(QStringLiteral("objective")),
            QStringLiteral("binary:logistic"));
        QVERIFY(again.appPage()->args().isEmpty());
    }
};

QTEST_MAIN(TestWizardBuiltIn)
#include "tst_wizardbuiltin.moc"
