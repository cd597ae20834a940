// SPDX-License-Identifier: GPL-2.0-or-later
// The submit wizard's hyperparameter tuning page (issue 13) with real key input: parameters typed into the
// table's editors (F2 on a clicked cell, then keys), the service's rules shown as they are broken and Next
// blocked until they are fixed, the grid-point count and trial 1's command line, import of a tuning config,
// the resume list, and a submission to a real executor whose created job carries what was typed.

#include "configloader.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "submitwizard.h"
#include "wizardpages.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyleOptionGroupBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Trainyard;

namespace {

bool nextEnabled(QWizard& w)
{
    return w.button(QWizard::NextButton)->isEnabled();
}

QPoint cellCentre(QTableWidget* table, int row, int column)
{
    return table->visualItemRect(table->item(row, column)).center();
}

/// Clicks the cell, opens its editor with F2 (the view's edit key) and returns the editor, which then has the
/// keyboard focus; nullptr when no editor opened.
QWidget* openEditor(QTableWidget* table, int row, int column)
{
    table->scrollToItem(table->item(row, column));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCentre(table, row, column));
    QTest::keyClick(table, Qt::Key_F2);
    QWidget* editor = nullptr;
    const bool opened = QTest::qWaitFor([&] {
        editor = table->window()->focusWidget();
        return editor && editor != table && table->isAncestorOf(editor);
    });
    return opened ? editor : nullptr;
}

/// Types `text` into a text cell (replacing what it held) and commits it with Return.
bool typeInCell(QTableWidget* table, int row, int column, const QString& text)
{
    auto* edit = qobject_cast<QLineEdit*>(openEditor(table, row, column));
    if (!edit)
        return false;
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    // The delegate commits and closes on Return through a queued call.
    const QPointer<QLineEdit> editor(edit);
    return QTest::qWaitFor([&] { return !editor || !editor->isVisible(); }) && table->item(row, column)->text() == text;
}

/// Picks the entry whose enum name is `value` in a type or scale cell with the arrow keys, then Return.
bool chooseInCell(QTableWidget* table, int row, int column, const QString& value)
{
    auto* box = qobject_cast<QComboBox*>(openEditor(table, row, column));
    if (!box)
        return false;
    const int target = box->findData(value);
    if (target < 0)
        return false;
    while (box->currentIndex() != target) {
        const int before = box->currentIndex();
        QTest::keyClick(box, box->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
        if (box->currentIndex() == before)
            return false;
    }
    QTest::keyClick(box, Qt::Key_Return);
    const QPointer<QComboBox> editor(box);
    return QTest::qWaitFor([&] { return !editor || !editor->isVisible(); })
        && table->item(row, column)->data(Qt::UserRole).toString() == value;
}

/// Sets a spin box as a user does: select all, type, Tab away.
void typeInSpinBox(QSpinBox* box, int value)
{
    box->setFocus();
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, QString::number(value));
    QTest::keyClick(box, Qt::Key_Tab);
}

/// Picks `value` (item data) in a combo box with the arrow keys.
bool chooseInBox(QComboBox* box, const QString& value)
{
    const int target = box->findData(value);
    if (target < 0)
        return false;
    box->setFocus();
    while (box->currentIndex() != target) {
        const int before = box->currentIndex();
        QTest::keyClick(box, box->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
        if (box->currentIndex() == before)
            return false;
    }
    return true;
}

/// Clicks the check box in a checkable group box's title.
void clickGroupCheck(QGroupBox* box)
{
    QStyleOptionGroupBox option;
    option.initFrom(box);
    option.subControls = QStyle::SC_GroupBoxCheckBox | QStyle::SC_GroupBoxLabel;
    option.text = box->title();
    option.features = QStyleOptionFrame::None;
    const QRect check = box->style()->subControlRect(QStyle::CC_GroupBox, &option, QStyle::SC_GroupBoxCheckBox, box);
    QTest::mouseClick(box, Qt::LeftButton, {}, check.center());
}

ParameterSpec numeric(const QString& name, const QString& type, double lo, double hi, const QString& scale)
{
    ParameterSpec p;
    p.parameterName = name;
    p.type = type;
    p.minValue = lo;
    p.maxValue = hi;
    p.scaleType = scale;
    return p;
}

} // namespace

class TestWizardTuning : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QList<qint64> m_pids;

    // Shows `w`, fills the first pages as a user would (a valid ID, the sample trainer, `args`, a job dir)
    // and goes Next to the tuning page. False when a page blocks Next.
    bool walkToTuning(SubmitWizard& w, const QString& args = QStringLiteral("--epochs 2"))
    {
        w.show();
        if (!QTest::qWaitForWindowExposed(&w))
            return false;
        QTest::keyClicks(w.jobPage()->jobIdEdit(), QStringLiteral("tuning_job"));
        w.next();
        QTest::keyClicks(w.appPage()->packageEdit(), QStringLiteral(TRAINYARD_SAMPLE_TRAINER));
        // The module scan runs Python: slow on a busy machine (5 s was not enough in the Debian 13 chroot under load).
        if (!QTest::qWaitFor(
                [&w] { return w.appPage()->moduleBox()->currentText() == QLatin1String("trainer.task"); }, 60000))
            return false;
        QTest::keyClicks(w.appPage()->argsEdit(), args);
        w.next();
        w.next();
        QTest::keyClick(w.outputPage()->jobDirEdit(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(w.outputPage()->jobDirEdit(), m_root.filePath(QStringLiteral("out")));
        if (!QTest::qWaitFor([&w] { return nextEnabled(w); }, 60000))
            return false;
        w.next();
        return w.currentId() == SubmitWizard::TuningPageId;
    }

    // Turns tuning on and types one valid parameter: lr, DOUBLE, 0.001 … 0.1, log scale.
    static bool startWithOneParameter(SubmitWizard& w)
    {
        WizardTuningPage* page = w.tuningPage();
        clickGroupCheck(page->tuningBox());
        if (!page->tuningBox()->isChecked())
            return false;
        QTest::mouseClick(page->addParameterButton(), Qt::LeftButton);
        QTableWidget* t = page->parameterTable();
        // "Add parameter" opens the new row's name for typing.
        auto* name = qobject_cast<QLineEdit*>(w.focusWidget());
        if (!name || !t->isAncestorOf(name))
            return false;
        QTest::keyClicks(name, QStringLiteral("lr"));
        QTest::keyClick(name, Qt::Key_Return);
        if (!QTest::qWaitFor([t] { return t->item(0, WizardTuningPage::NameColumn)->text() == QLatin1String("lr"); }))
            return false;
        return typeInCell(t, 0, WizardTuningPage::MinColumn, QStringLiteral("0.001"))
            && typeInCell(t, 0, WizardTuningPage::MaxColumn, QStringLiteral("0.1"))
            && chooseInCell(t, 0, WizardTuningPage::ScaleColumn, QStringLiteral("UNIT_LOG_SCALE"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root));
    }

    void cleanupTestCase() { Test::stopExecutors(m_pids); }

    void offByDefault()
    {
        SubmitWizard w(nullptr);
        QVERIFY(walkToTuning(w));
        WizardTuningPage* page = w.tuningPage();
        QVERIFY(!page->tuningBox()->isChecked());
        QVERIFY(!page->goalBox()->isEnabled()); // the group's fields follow its check box
        QVERIFY(nextEnabled(w));
        QVERIFY(!w.job().trainingInput.hyperparameters);

        // On: a spec with no parameters yet is refused, and says why.
        clickGroupCheck(page->tuningBox());
        QVERIFY(page->tuningBox()->isChecked());
        QVERIFY(page->goalBox()->isEnabled());
        QVERIFY(!nextEnabled(w));
        QVERIFY2(page->problemsLabel()->text().contains(QStringLiteral("At least one parameter is required")),
            qPrintable(page->problemsLabel()->text()));
        QVERIFY(w.job().trainingInput.hyperparameters);
        QCOMPARE(page->metricTagEdit()->placeholderText(), QStringLiteral("training/hptuning/metric"));

        // Off again: no hyperparameters, Next open.
        clickGroupCheck(page->tuningBox());
        QVERIFY(!page->tuningBox()->isChecked());
        QVERIFY(nextEnabled(w));
        QVERIFY(!w.job().trainingInput.hyperparameters);
        QVERIFY(page->problemsLabel()->isHidden());
    }

    void violationsBlockNext_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("row"); // the row whose cell turns red; -1 for a field above the table
        QTest::addColumn<int>("column");
        QTest::addRow("inverted range") << QStringLiteral("inverted") << QStringLiteral("must be greater than minValue")
                                        << 0 << int(WizardTuningPage::MaxColumn);
        QTest::addRow("DOUBLE under GRID_SEARCH")
            << QStringLiteral("grid") << QStringLiteral("cannot be searched with algorithm GRID_SEARCH") << 0
            << int(WizardTuningPage::TypeColumn);
        QTest::addRow("non-positive log range")
            << QStringLiteral("log") << QStringLiteral("needs values greater than 0") << 0
            << int(WizardTuningPage::MinColumn);
        QTest::addRow("duplicate names") << QStringLiteral("duplicate") << QStringLiteral("Duplicate parameter name")
                                         << 1 << int(WizardTuningPage::NameColumn);
        QTest::addRow("discrete values not increasing")
            << QStringLiteral("discrete") << QStringLiteral("strictly increasing") << 1
            << int(WizardTuningPage::ValuesColumn);
        QTest::addRow("maxFailedTrials above maxTrials")
            << QStringLiteral("failures") << QStringLiteral("must not be more than maxTrials") << -1 << -1;
        QTest::addRow("a number that does not parse")
            << QStringLiteral("unparsable") << QStringLiteral("is not a number") << 0
            << int(WizardTuningPage::MinColumn);
    }

    void violationsBlockNext()
    {
        QFETCH(QString, rule);
        QFETCH(QString, message);
        QFETCH(int, row);
        QFETCH(int, column);
        SubmitWizard w(nullptr);
        QVERIFY(walkToTuning(w));
        QVERIFY(startWithOneParameter(w));
        WizardTuningPage* page = w.tuningPage();
        QTableWidget* t = page->parameterTable();
        QVERIFY2(nextEnabled(w), qPrintable(page->problemsLabel()->text()));
        QVERIFY(page->problemsLabel()->isHidden());

        // Break the rule.
        if (rule == QLatin1String("inverted")) {
            QVERIFY(typeInCell(t, 0, WizardTuningPage::MaxColumn, QStringLiteral("0.0001")));
        } else if (rule == QLatin1String("grid")) {
            QVERIFY(chooseInBox(page->algorithmBox(), QStringLiteral("GRID_SEARCH")));
        } else if (rule == QLatin1String("log")) {
            QVERIFY(typeInCell(t, 0, WizardTuningPage::MinColumn, QStringLiteral("0")));
        } else if (rule == QLatin1String("duplicate")) {
            QTest::mouseClick(page->addParameterButton(), Qt::LeftButton);
            QVERIFY(typeInCell(t, 1, WizardTuningPage::NameColumn, QStringLiteral("lr")));
            QVERIFY(typeInCell(t, 1, WizardTuningPage::MinColumn, QStringLiteral("1")));
            QVERIFY(typeInCell(t, 1, WizardTuningPage::MaxColumn, QStringLiteral("2")));
        } else if (rule == QLatin1String("discrete")) {
            QTest::mouseClick(page->addParameterButton(), Qt::LeftButton);
            QVERIFY(typeInCell(t, 1, WizardTuningPage::NameColumn, QStringLiteral("batch-size")));
            QVERIFY(chooseInCell(t, 1, WizardTuningPage::TypeColumn, QStringLiteral("DISCRETE")));
            QVERIFY(!(t->item(1, WizardTuningPage::MinColumn)->flags() & Qt::ItemIsEditable));
            QVERIFY(typeInCell(t, 1, WizardTuningPage::ValuesColumn, QStringLiteral("32, 128, 64")));
        } else if (rule == QLatin1String("failures")) {
            typeInSpinBox(page->maxTrialsBox(), 4);
            typeInSpinBox(page->maxFailedTrialsBox(), 5);
            QCOMPARE(page->maxFailedTrialsBox()->value(), 5);
        } else if (rule == QLatin1String("unparsable")) {
            QVERIFY(typeInCell(t, 0, WizardTuningPage::MinColumn, QStringLiteral("0,001")));
        }
        QTRY_VERIFY(!nextEnabled(w));
        QVERIFY2(page->problemsLabel()->text().contains(message), qPrintable(page->problemsLabel()->text()));
        QVERIFY(!page->problemsLabel()->isHidden());
        if (row >= 0) {
            // The offending cell is marked and says why.
            QVERIFY2(t->item(row, column)->toolTip().contains(message), qPrintable(t->item(row, column)->toolTip()));
            QVERIFY(
                t->item(row, column)->background().color().red() > t->item(row, column)->background().color().green());
        } else {
            QVERIFY2(page->maxFailedTrialsBox()->toolTip().contains(message),
                qPrintable(page->maxFailedTrialsBox()->toolTip()));
            QVERIFY(page->maxFailedTrialsBox()->property("invalid").toBool());
        }

        // Fix it.
        if (rule == QLatin1String("inverted")) {
            QVERIFY(typeInCell(t, 0, WizardTuningPage::MaxColumn, QStringLiteral("1")));
        } else if (rule == QLatin1String("grid")) {
            QVERIFY(chooseInCell(t, 0, WizardTuningPage::TypeColumn, QStringLiteral("DISCRETE")));
            QVERIFY(typeInCell(t, 0, WizardTuningPage::ValuesColumn, QStringLiteral("0.001, 0.01, 0.1")));
        } else if (rule == QLatin1String("log")) {
            QVERIFY(typeInCell(t, 0, WizardTuningPage::MinColumn, QStringLiteral("1e-4")));
        } else if (rule == QLatin1String("duplicate")) {
            QVERIFY(typeInCell(t, 1, WizardTuningPage::NameColumn, QStringLiteral("momentum")));
        } else if (rule == QLatin1String("discrete")) {
            QVERIFY(typeInCell(t, 1, WizardTuningPage::ValuesColumn, QStringLiteral("32, 64, 128")));
        } else if (rule == QLatin1String("failures")) {
            typeInSpinBox(page->maxFailedTrialsBox(), 2);
        } else if (rule == QLatin1String("unparsable")) {
            QVERIFY(typeInCell(t, 0, WizardTuningPage::MinColumn, QStringLiteral("0.001")));
        }
        QTRY_VERIFY2(nextEnabled(w), qPrintable(page->problemsLabel()->text()));
        QVERIFY(page->problemsLabel()->isHidden());
        for (int r = 0; r < t->rowCount(); ++r) {
            for (int c = 0; c < t->columnCount(); ++c)
                QVERIFY(t->item(r, c)->toolTip().isEmpty());
        }
        QVERIFY(!page->maxFailedTrialsBox()->toolTip().contains(message));
        QVERIFY(!page->maxFailedTrialsBox()->property("invalid").toBool());
    }

    void gridPointsAndTrialCommand()
    {
        SubmitWizard w(nullptr);
        QVERIFY(walkToTuning(w, QStringLiteral("--epochs 2 --train-examples 6000")));
        WizardTuningPage* page = w.tuningPage();
        QTableWidget* t = page->parameterTable();
        clickGroupCheck(page->tuningBox());
        // The sample's tuning config, typed (resources/trainers/fmnist/hptuning_config.yaml).
        struct Row {
            const char* name;
            const char* type;
            const char* min;
            const char* max;
            const char* values;
            const char* scale;
        };
        const Row rows[] = { { "learning-rate", "DOUBLE", "1e-4", "1e-1", nullptr, "UNIT_LOG_SCALE" },
            { "batch-size", "DISCRETE", nullptr, nullptr, "32, 64, 128, 256", "" },
            { "hidden-units", "INTEGER", "32", "512", nullptr, "UNIT_LINEAR_SCALE" },
            { "optimizer", "CATEGORICAL", nullptr, nullptr, "adam, sgd, rmsprop", nullptr } };
        int r = 0;
        for (const Row& row : rows) {
            QTest::mouseClick(page->addParameterButton(), Qt::LeftButton);
            QVERIFY(typeInCell(t, r, WizardTuningPage::NameColumn, QString::fromLatin1(row.name)));
            QVERIFY(chooseInCell(t, r, WizardTuningPage::TypeColumn, QString::fromLatin1(row.type)));
            if (row.min) {
                QVERIFY(typeInCell(t, r, WizardTuningPage::MinColumn, QString::fromLatin1(row.min)));
                QVERIFY(typeInCell(t, r, WizardTuningPage::MaxColumn, QString::fromLatin1(row.max)));
            } else {
                QVERIFY(typeInCell(t, r, WizardTuningPage::ValuesColumn, QString::fromLatin1(row.values)));
            }
            if (row.scale)
                QVERIFY(chooseInCell(t, r, WizardTuningPage::ScaleColumn, QString::fromLatin1(row.scale)));
            ++r;
        }
        QTRY_VERIFY2(nextEnabled(w), qPrintable(page->problemsLabel()->text()));

        // A DOUBLE: no grid, and the page says why.
        QVERIFY2(page->gridLabel()->text().startsWith(QStringLiteral("Grid points: —")),
            qPrintable(page->gridLabel()->text()));
        QVERIFY(page->gridLabel()->text().contains(QStringLiteral("\"learning-rate\" takes infinitely many values")));
        // Trial 1 at the centre: the geometric mean of the log range, the discrete value nearest the middle, the
        // rounded middle of the integers, the first category; then the job dir.
        const QString dir = m_root.filePath(QStringLiteral("out"));
        QCOMPARE(page->trialCommandLabel()->text(),
            QStringLiteral(
                "python -m trainer.task --epochs 2 --train-examples 6000 --learning-rate=0.0031622776601683794 "
                "--batch-size=128 --hidden-units=272 --optimizer=adam --job-dir ")
                + dir);
        QVERIFY(
            page->findChild<QLabel*>(QStringLiteral("trialCommandNote"))->text().contains(QStringLiteral("centre")));

        // learning-rate as three DISCRETE values: 3 × 4 × 481 × 3 grid points.
        QVERIFY(chooseInCell(t, 0, WizardTuningPage::TypeColumn, QStringLiteral("DISCRETE")));
        QVERIFY(t->item(0, WizardTuningPage::MinColumn)->text().isEmpty()); // what no longer applies is cleared
        QVERIFY(typeInCell(t, 0, WizardTuningPage::ValuesColumn, QStringLiteral("0.0001, 0.001, 0.01")));
        QTRY_VERIFY(page->gridLabel()->text().startsWith(QStringLiteral("Grid points: 17316 ")));
        // Under grid search trial 1 takes every first value (numbers in the executor's shortest form).
        QVERIFY(chooseInBox(page->algorithmBox(), QStringLiteral("GRID_SEARCH")));
        QTRY_VERIFY2(page->trialCommandLabel()->text().contains(
                         QStringLiteral("--learning-rate=1e-04 --batch-size=32 --hidden-units=32 --optimizer=adam")),
            qPrintable(page->trialCommandLabel()->text()));
        QVERIFY(nextEnabled(w));
    }

    void importFillsThePage()
    {
        const QString file = QStringLiteral(TRAINYARD_FIXTURES_DIR "/configs/census_hptuning_config.yaml");
        QString error;
        const std::optional<Job> expected = ConfigLoader::loadFile(file, &error);
        QVERIFY2(expected && expected->trainingInput.hyperparameters, qPrintable(error));
        SubmitWizard w(nullptr);
        QVERIFY(walkToTuning(w));
        QVERIFY2(w.importConfig(file, &error), qPrintable(error));
        WizardTuningPage* page = w.tuningPage();
        QVERIFY(page->tuningBox()->isChecked());
        QCOMPARE(page->goalBox()->currentData().toString(), QStringLiteral("MAXIMIZE"));
        QCOMPARE(page->metricTagEdit()->text(), QStringLiteral("accuracy"));
        QCOMPARE(page->maxTrialsBox()->value(), 4);
        QCOMPARE(page->maxParallelTrialsBox()->value(), 2);
        QCOMPARE(page->algorithmBox()->currentData().toString(), QString());
        QTableWidget* t = page->parameterTable();
        QCOMPARE(t->rowCount(), 3);
        QCOMPARE(t->item(0, WizardTuningPage::NameColumn)->text(), QStringLiteral("first-layer-size"));
        QCOMPARE(t->item(0, WizardTuningPage::TypeColumn)->data(Qt::UserRole).toString(), QStringLiteral("INTEGER"));
        QCOMPARE(t->item(0, WizardTuningPage::MinColumn)->text(), QStringLiteral("50"));
        QCOMPARE(t->item(0, WizardTuningPage::MaxColumn)->text(), QStringLiteral("500"));
        QCOMPARE(t->item(2, WizardTuningPage::NameColumn)->text(), QStringLiteral("scale-factor"));
        QCOMPARE(t->item(2, WizardTuningPage::MinColumn)->text(), QStringLiteral("0.1"));
        QCOMPARE(t->item(2, WizardTuningPage::ScaleColumn)->data(Qt::UserRole).toString(),
            QStringLiteral("UNIT_REVERSE_LOG_SCALE"));
        QCOMPARE(page->spec(), *expected->trainingInput.hyperparameters);
        QCOMPARE(*w.job().trainingInput.hyperparameters, *expected->trainingInput.hyperparameters);
        while (w.currentId() != SubmitWizard::TuningPageId)
            w.next();
        QVERIFY2(nextEnabled(w), qPrintable(page->problemsLabel()->text()));

        // Export, import again: the same spec (the Review page's YAML is what export writes).
        w.next();
        QCOMPARE(w.currentId(), int(SubmitWizard::ReviewPageId));
        QVERIFY(
            w.reviewPage()->yamlView()->toPlainText().contains(QStringLiteral("hyperparameterMetricTag: accuracy")));
        // The command line needs a config file for the tuning spec: it says which, and that Export config… writes
        // it; once exported, the command reads that very file (issue 27, item 10).
        QLabel* note = w.reviewPage()->commandNote();
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QStringLiteral("Export config")), qPrintable(note->text()));
        if (const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR"); !dir.isEmpty()) {
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QDir().mkpath(dir);
            w.grab().save(dir + QStringLiteral("/wizard-review-config-note.png"));
        }
        const QString exported = m_root.filePath(QStringLiteral("census-export.yaml"));
        QVERIFY(w.reviewPage()->exportConfig(exported));
        QVERIFY(QFileInfo::exists(exported));
        QVERIFY2(w.reviewPage()->commandView()->toPlainText().contains(QStringLiteral("--config=") + exported),
            qPrintable(w.reviewPage()->commandView()->toPlainText()));
        QVERIFY2(note->text().contains(exported) && note->text().contains(QStringLiteral("wrote")),
            qPrintable(note->text()));
        SubmitWizard again(nullptr);
        QVERIFY2(again.importConfig(exported, &error), qPrintable(error));
        QCOMPARE(again.tuningPage()->spec(), *expected->trainingInput.hyperparameters);
        QCOMPARE(*again.job().trainingInput.hyperparameters, *expected->trainingInput.hyperparameters);

        // A changed field is written; the others keep their imported form.
        w.back();
        QCOMPARE(w.currentId(), int(SubmitWizard::TuningPageId));
        typeInSpinBox(page->maxTrialsBox(), 6);
        HyperparameterSpec changed = *expected->trainingInput.hyperparameters;
        changed.maxTrials = 6;
        QCOMPARE(*w.job().trainingInput.hyperparameters, changed);
    }

    void sampleTuningConfig()
    {
        // resources/trainers/fmnist/hptuning_config.yaml: valid, and trial 1 runs the centre of its space.
        SubmitWizard w(nullptr);
        QVERIFY(walkToTuning(w));
        QString error;
        QVERIFY2(w.importConfig(QStringLiteral(TRAINYARD_SAMPLE_TRAINER "/hptuning_config.yaml"), &error),
            qPrintable(error));
        WizardTuningPage* page = w.tuningPage();
        QVERIFY(page->tuningBox()->isChecked());
        QCOMPARE(page->parameterTable()->rowCount(), 4);
        QVERIFY2(page->violations().isEmpty(), qPrintable(page->problemsLabel()->text()));
        QCOMPARE(w.job().trainingInput.args,
            (QStringList { QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--train-examples"),
                QStringLiteral("6000") }));
        // The config has no job dir (the Output page proposes one when it is shown), so no --job-dir yet.
        QCOMPARE(page->trialCommandLabel()->text(),
            QStringLiteral("python -m trainer.task --epochs 2 --train-examples 6000 "
                           "--learning-rate=0.0031622776601683794 --batch-size=128 --hidden-units=272 "
                           "--optimizer=adam"));
    }

    void resumeListsTuningJobs()
    {
        Job plain;
        plain.jobId = QStringLiteral("plain_1");
        plain.createTime = QStringLiteral("2026-01-01T10:00:00Z");
        Job older = plain;
        older.jobId = QStringLiteral("study_1");
        older.trainingInput.hyperparameters = HyperparameterSpec {};
        older.state = JobState::Succeeded;
        Job newer = older;
        newer.jobId = QStringLiteral("study_2");
        newer.createTime = QStringLiteral("2026-01-02T10:00:00Z");
        newer.state = JobState::Running;
        newer.trainingOutput = TrainingOutput {};
        newer.trainingOutput->completedTrialCount = 3;

        SubmitWizard w(nullptr);
        QComboBox* resume = w.tuningPage()->resumeBox();
        QCOMPARE(resume->count(), 1); // "none" only
        QCOMPARE(resume->itemData(0).toString(), QString());
        w.setKnownJobs({ plain, older, newer });
        QCOMPARE(resume->count(), 3);
        QCOMPARE(resume->itemData(1).toString(), QStringLiteral("study_2")); // newest first
        QVERIFY2(resume->itemText(1).contains(QStringLiteral("3 trials")), qPrintable(resume->itemText(1)));
        QCOMPARE(resume->itemData(2).toString(), QStringLiteral("study_1"));

        QVERIFY(walkToTuning(w));
        clickGroupCheck(w.tuningPage()->tuningBox());
        QVERIFY(chooseInBox(resume, QStringLiteral("study_1")));
        QCOMPARE(w.job().trainingInput.hyperparameters->resumePreviousJobId, QStringLiteral("study_1"));
        QVERIFY(chooseInBox(resume, QString()));
        QCOMPARE(w.job().trainingInput.hyperparameters->resumePreviousJobId, QString());
    }

    void submitsWhatWasTyped()
    {
        ExecutorConnection connection;
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();
        QVERIFY(client);

        SubmitWizard w(client);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString jobId = QStringLiteral("tuning_submit_1");
        QTest::keyClicks(w.jobPage()->jobIdEdit(), jobId);
        QTRY_VERIFY_WITH_TIMEOUT(w.jobPage()->uniquenessChecked(), 10000);
        w.next();
        // The console tests' trainer: it waits for <job-dir>/release, so the job stays short and harmless.
        QTest::keyClicks(
            w.appPage()->packageEdit(), QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/gui/trainers/consoletest"));
        // The module scan runs Python: slow on a busy machine.
        QTRY_VERIFY_WITH_TIMEOUT(w.appPage()->moduleBox()->findText(QStringLiteral("consoletest.chatty")) >= 0, 60000);
        w.appPage()->moduleBox()->setCurrentIndex(
            w.appPage()->moduleBox()->findText(QStringLiteral("consoletest.chatty")));
        QTRY_VERIFY(nextEnabled(w));
        w.next();
        w.next();
        const QString jobDir = m_root.filePath(QStringLiteral("submitted"));
        QTest::keyClick(w.outputPage()->jobDirEdit(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(w.outputPage()->jobDirEdit(), jobDir);
        w.next();
        QCOMPARE(w.currentId(), int(SubmitWizard::TuningPageId));

        QVERIFY(startWithOneParameter(w));
        WizardTuningPage* page = w.tuningPage();
        QTableWidget* t = page->parameterTable();
        QTest::mouseClick(page->addParameterButton(), Qt::LeftButton);
        QVERIFY(typeInCell(t, 1, WizardTuningPage::NameColumn, QStringLiteral("optimizer")));
        QVERIFY(chooseInCell(t, 1, WizardTuningPage::TypeColumn, QStringLiteral("CATEGORICAL")));
        QVERIFY(typeInCell(t, 1, WizardTuningPage::ValuesColumn, QStringLiteral("adam, sgd")));
        QVERIFY(chooseInBox(page->goalBox(), QStringLiteral("MINIMIZE")));
        page->metricTagEdit()->setFocus();
        QTest::keyClicks(page->metricTagEdit(), QStringLiteral("loss"));
        QVERIFY(chooseInBox(page->algorithmBox(), QStringLiteral("RANDOM_SEARCH")));
        typeInSpinBox(page->maxTrialsBox(), 6);
        typeInSpinBox(page->maxParallelTrialsBox(), 2);
        typeInSpinBox(page->maxFailedTrialsBox(), 3);
        page->earlyStoppingBox()->setFocus();
        QTest::keyClick(page->earlyStoppingBox(), Qt::Key_Space);
        QVERIFY(page->earlyStoppingBox()->isChecked());
        QTRY_VERIFY2(nextEnabled(w), qPrintable(page->problemsLabel()->text()));

        HyperparameterSpec typed;
        typed.goal = QStringLiteral("MINIMIZE");
        typed.hyperparameterMetricTag = QStringLiteral("loss");
        typed.algorithm = QStringLiteral("RANDOM_SEARCH");
        typed.maxTrials = 6;
        typed.maxParallelTrials = 2;
        typed.maxFailedTrials = 3;
        typed.enableTrialEarlyStopping = true;
        ParameterSpec optimizer;
        optimizer.parameterName = QStringLiteral("optimizer");
        optimizer.type = QStringLiteral("CATEGORICAL");
        optimizer.categoricalValues = { QStringLiteral("adam"), QStringLiteral("sgd") };
        typed.params
            = { numeric(QStringLiteral("lr"), QStringLiteral("DOUBLE"), 0.001, 0.1, QStringLiteral("UNIT_LOG_SCALE")),
                  optimizer };

        w.next();
        QCOMPARE(w.currentId(), int(SubmitWizard::ReviewPageId));
        QVERIFY(w.reviewPage()->yamlView()->toPlainText().contains(QStringLiteral("algorithm: RANDOM_SEARCH")));
        QSignalSpy submitted(&w, &SubmitWizard::jobSubmitted);
        QTest::mouseClick(w.button(QWizard::FinishButton), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 15000);
        QVERIFY(w.submittedJob().trainingInput.hyperparameters);
        QCOMPARE(*w.submittedJob().trainingInput.hyperparameters, typed);
        const ApiResult<Job> stored = client->getJobBlocking(jobId);
        QVERIFY(stored.ok());
        QCOMPARE(*stored.value.trainingInput.hyperparameters, typed);

        // A new wizard on this executor offers the job to resume, from the executor's own job list.
        SubmitWizard next(client);
        QTRY_VERIFY_WITH_TIMEOUT(next.tuningPage()->resumeBox()->findData(jobId) > 0, 10000);

        QVERIFY(Test::releaseJob(jobDir));
        QVERIFY(client->cancelJobBlocking(jobId).ok() || isFinal(client->getJobBlocking(jobId).value.state));
    }
};

QTEST_MAIN(TestWizardTuning)
#include "tst_wizardtuning.moc"
