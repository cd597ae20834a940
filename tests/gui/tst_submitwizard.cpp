// SPDX-License-Identifier: GPL-2.0-or-later
// The submit wizard with real key input: each page's validation (job ID rules, labels, package, module
// scan of the sample trainer, CUSTOM without a master type, job dir), config import of every fixture config
// and the Review YAML round trip, and a full submission against a real executor (isolated XDG folders) of a
// tiny package that reaches SUCCEEDED, plus executor errors mapped back to their page and field.

#include "apiclient.h"
#include "configloader.h"
#include "containerimages.h"
#include "executorconnection.h"
#include "executorenvironment.h"
#include "gcloudflags.h"
#include "machinecatalog.h"
#include "packagemodules.h"
#include "requireddependencies.h"
#include "statenames.h"
#include "submitwizard.h"
#include "trainingpackage.h"
#include "wizardpages.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <unistd.h>

using namespace Trainyard;

namespace {
bool writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

bool nextEnabled(QWizard& w)
{
    return w.button(QWizard::NextButton)->isEnabled();
}
} // namespace

class TestSubmitWizard : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QList<qint64> m_pids;

    QString path(const QString& name) const { return m_root.filePath(name); }

    /// With TRAINYARD_SCREENSHOT_DIR set, the wizard as drawn goes there as `name`.
    static void screenshot(QWidget& w, const QString& name)
    {
        const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        w.grab().save(dir + QLatin1Char('/') + name);
    }

    // A wizard without an executor, on its first page, with a valid ID typed.
    static void typeValidId(SubmitWizard& w)
    {
        w.jobPage()->jobIdEdit()->clear();
        QTest::keyClicks(w.jobPage()->jobIdEdit(), QStringLiteral("wizard_job"));
    }

    // Shows `w` and fills the first two pages as a user would (a valid ID; the sample trainer's package),
    // then goes Next up to `page`. False when a page blocks Next.
    static bool walkTo(SubmitWizard& w, SubmitWizard::PageId page)
    {
        if (!w.isVisible()) {
            w.show();
            if (!QTest::qWaitForWindowExposed(&w))
                return false;
        }
        typeValidId(w);
        w.next();
        QTest::keyClicks(w.appPage()->packageEdit(), QStringLiteral(TRAINYARD_SAMPLE_TRAINER));
        // Next waits for the module scan, which runs Python: slow on a busy machine.
        if (!QTest::qWaitFor([&w] { return nextEnabled(w); }, 60000))
            return false;
        while (w.currentId() < page && nextEnabled(w))
            w.next();
        return w.currentId() == page;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root));
    }

    void cleanupTestCase() { Test::stopExecutors(m_pids); }

    void jobId_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("problem"); // empty = valid
        QTest::addRow("empty") << QString() << QStringLiteral("required");
        QTest::addRow("digit first") << QStringLiteral("1job") << QStringLiteral("start with a letter");
        QTest::addRow("dash") << QStringLiteral("my-job") << QStringLiteral("only letters, digits and underscores");
        QTest::addRow("space and dot") << QStringLiteral("a b.c") << QStringLiteral("not \" .\"");
        QTest::addRow("too long") << QStringLiteral("j").repeated(129) << QStringLiteral("at most 128");
        QTest::addRow("valid") << QStringLiteral("fmnist_20261122_061500") << QString();
    }

    void jobId()
    {
        QFETCH(QString, typed);
        QFETCH(QString, problem);
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.currentId(), int(SubmitWizard::JobPageId));
        QLineEdit* edit = w.jobPage()->jobIdEdit();
        edit->setFocus();
        QTest::keyClicks(edit, typed);
        if (typed.isEmpty()) { // typed and erased: "required" shows only after the user touched the field
            QTest::keyClicks(edit, QStringLiteral("x"));
            QTest::keyClick(edit, Qt::Key_Backspace);
        }
        QCOMPARE(edit->text(), typed);
        QLabel* problems = w.jobPage()->jobIdProblems();
        if (problem.isEmpty()) {
            QVERIFY2(problems->text().isEmpty(), qPrintable(problems->text()));
            QVERIFY(nextEnabled(w));
        } else {
            QVERIFY2(problems->text().contains(problem), qPrintable(problems->text()));
            QVERIFY(!problems->isHidden());
            QVERIFY(!nextEnabled(w));
        }
    }

    // Waits (polling, at most 5 s) for a modal message box and clicks its button whose text contains `button`.
    static void answerMessageBox(const QString& button, bool* answered)
    {
        auto* timer = new QTimer;
        auto* deadline = new QElapsedTimer;
        deadline->start();
        QObject::connect(timer, &QTimer::timeout, [=] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (box && box->isVisible()) {
                for (QAbstractButton* b : box->buttons()) {
                    if (b->text().remove(QLatin1Char('&')).contains(button)) {
                        *answered = true;
                        QTest::mouseClick(b, Qt::LeftButton);
                        break;
                    }
                }
            }
            if (*answered || deadline->elapsed() > 5000) {
                timer->stop();
                timer->deleteLater();
                delete deadline;
            }
        });
        timer->start(10);
    }

    void closingAsksAndKeepsADraft()
    {
        // Issue 11, item 5: Escape closed a filled-in wizard without asking. Now: unchanged closes at once;
        // changed asks, "Continue Editing" keeps it open, "Keep Draft" closes and the next wizard reopens it.
        SubmitWizard::removeDraft();
        {
            SubmitWizard w(nullptr);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            // No error before the user typed anything; Next is blocked all the same.
            QVERIFY(w.jobPage()->jobIdProblems()->text().isEmpty());
            QVERIFY(!nextEnabled(w));
            QVERIFY2(w.windowTitle().contains(QStringLiteral("Step 1 of 6")), qPrintable(w.windowTitle()));
            QTest::keyClick(&w, Qt::Key_Escape);
            QTRY_VERIFY(!w.isVisible());
        }
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::keyClicks(w.jobPage()->jobIdEdit(), QStringLiteral("draft_job"));
        QTest::keyClicks(w.appPage()->packageEdit(), QStringLiteral(TRAINYARD_SAMPLE_TRAINER));
        bool answered = false;
        answerMessageBox(QStringLiteral("Continue Editing"), &answered);
        QTest::keyClick(w.jobPage()->jobIdEdit(), Qt::Key_Escape);
        QVERIFY(answered);
        QVERIFY(w.isVisible());
        QVERIFY(!QFileInfo::exists(SubmitWizard::draftPath()));
        // Erasing the ID now says it is required.
        QTest::keyClick(w.jobPage()->jobIdEdit(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(w.jobPage()->jobIdEdit(), Qt::Key_Backspace);
        QVERIFY(w.jobPage()->jobIdProblems()->text().contains(QStringLiteral("required")));
        QTest::keyClicks(w.jobPage()->jobIdEdit(), QStringLiteral("draft_job"));
        w.next();
        QVERIFY2(w.windowTitle().contains(QStringLiteral("Step 2 of 6")), qPrintable(w.windowTitle()));
        answered = false;
        answerMessageBox(QStringLiteral("Keep Draft"), &answered);
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(answered);
        QTRY_VERIFY(!w.isVisible());
        const std::optional<Job> draft = SubmitWizard::loadDraft();
        QVERIFY(draft);
        QCOMPARE(draft->jobId, QStringLiteral("draft_job"));
        QCOMPARE(draft->trainingInput.packageUris, QStringList { QStringLiteral(TRAINYARD_SAMPLE_TRAINER) });
        QVERIFY(w.draftKept());

        // Another wizard that is not the draft: discarding it leaves the draft alone.
        {
            SubmitWizard other(nullptr);
            other.show();
            QVERIFY(QTest::qWaitForWindowExposed(&other));
            QTest::keyClicks(other.jobPage()->jobIdEdit(), QStringLiteral("other_job"));
            answered = false;
            answerMessageBox(QStringLiteral("Discard"), &answered);
            QTest::keyClick(&other, Qt::Key_Escape);
            QVERIFY(answered);
            QVERIFY(QFileInfo::exists(SubmitWizard::draftPath()));
        }
        // The draft reopened: closing it unchanged still asks (so it can be discarded), and Discard removes it.
        SubmitWizard again(nullptr);
        QVERIFY(again.restoreDraft());
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.jobPage()->jobIdEdit()->text(), QStringLiteral("draft_job"));
        answered = false;
        answerMessageBox(QStringLiteral("Discard"), &answered);
        QTest::keyClick(&again, Qt::Key_Escape);
        QVERIFY(answered);
        QTRY_VERIFY(!again.isVisible());
        QVERIFY(!QFileInfo::exists(SubmitWizard::draftPath()));
    }

    void popupsStayOpenWhileTheHostRefreshes()
    {
        // Issue 27, item 1: the Module, Runtime version and Machine type lists closed by themselves within a
        // second of opening, with no input: a refresh rebuilt them. Each list is opened with a click on its
        // arrow, and stays open across two host refreshes (every 2 s) and a module rescan, its selection kept.
        ExecutorConnection connection;
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        SubmitWizard w(connection.client());
        QSignalSpy refreshes(&w, &SubmitWizard::hostStatusChanged);
        QSignalSpy catalogs(&w, &SubmitWizard::hostInfoChanged);
        QVERIFY(walkTo(w, SubmitWizard::AppPageId));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        WizardAppPage* app = w.appPage();
        QTRY_VERIFY_WITH_TIMEOUT(app->moduleBox()->count() > 0 && app->runtimeBox()->count() > 1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(catalogs.count() >= 3, 20000); // the runtimes, tiers and accelerators arrived
        {
            // Issue 46 item 17: "2.11 (Python 3.7, /usr/bin/python3)" where that interpreter is 3.11. The service's
            // nominal version stays (a job may ask for it) beside what the interpreter really is.
            QProcess python; // asked here as a user would ask it
            const QString interpreter = qEnvironmentVariable("TRAINYARD_PYTHON", QStringLiteral("/usr/bin/python3"));
            python.start(interpreter, { QStringLiteral("-c"), QStringLiteral("import sys; print('%d.%d.' % sys.version_info[:2])") });
            QVERIFY(python.waitForFinished(20000));
            const QString real = QString::fromUtf8(python.readAllStandardOutput()).trimmed();
            QVERIFY(real.startsWith(QLatin1String("3.")));
            const int at = app->runtimeBox()->findData(QStringLiteral("2.11"));
            QVERIFY(at > 0);
            const QString text = app->runtimeBox()->itemText(at);
            QVERIFY2(text.contains(QStringLiteral("the service's Python 3.7; runs Python ") + real), qPrintable(text));
            app->runtimeBox()->setCurrentIndex(at);
            QVERIFY(app->pythonBox()->findData(QStringLiteral("3.7")) > 0);
            QVERIFY2(app->pythonBox()->itemText(app->pythonBox()->findData(QStringLiteral("3.7")))
                         .startsWith(QStringLiteral("3.7 (runs as Python ") + real),
                qPrintable(app->pythonBox()->itemText(app->pythonBox()->findData(QStringLiteral("3.7")))));
            app->runtimeBox()->setCurrentIndex(0);
        }
        const auto staysOpen = [&](QComboBox* box) {
            const QString before = box->currentText();
            const QRect arrow(box->width() - 16, 0, 16, box->height());
            QTest::mouseClick(box, Qt::LeftButton, {}, arrow.center());
            if (!QTest::qWaitFor([box] { return box->view()->isVisible(); }))
                return QStringLiteral("%1 did not open").arg(box->objectName());
            const int seen = int(refreshes.count());
            if (!QTest::qWaitFor([&] { return refreshes.count() >= seen + 2 || !box->view()->isVisible(); }, 15000))
                return QStringLiteral("no host refresh");
            if (!box->view()->isVisible())
                return QStringLiteral("%1 closed by itself after %2 refreshes")
                    .arg(box->objectName())
                    .arg(refreshes.count() - seen);
            QTest::keyClick(box->view(), Qt::Key_Escape);
            if (!QTest::qWaitFor([box] { return !box->view()->isVisible(); }))
                return QStringLiteral("%1 did not close on Esc").arg(box->objectName());
            if (box->currentText() != before)
                return QStringLiteral("%1 lost its selection: %2 -> %3")
                    .arg(box->objectName(), before, box->currentText());
            return QString();
        };
        QString problem = staysOpen(app->moduleBox());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        problem = staysOpen(app->runtimeBox());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(nextEnabled(w));
        w.next();
        QCOMPARE(w.currentId(), int(SubmitWizard::ComputePageId));
        QTest::mouseClick(w.computePage()->tierButton(QStringLiteral("CUSTOM")), Qt::LeftButton);
        problem = staysOpen(w.computePage()->machineBox(WizardComputePage::Master));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void jobDirOnTheOutputPage()
    {
        // Issue 27, items 7 and 8: the executor's job dir roots were checked only at Submit, which sent the user
        // back; and "Use a new folder" after choosing a folder of one's own reset to the default location.
        ExecutorConnection connection;
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        SubmitWizard w(connection.client());
        QSignalSpy catalogs(&w, &SubmitWizard::hostInfoChanged);
        QVERIFY(walkTo(w, SubmitWizard::OutputPageId));
        QTRY_VERIFY_WITH_TIMEOUT(w.hostInfo().host && !w.hostInfo().host->jobDirRoots.isEmpty(), 20000);
        WizardOutputPage* output = w.outputPage();
        QLineEdit* edit = output->jobDirEdit();
        // A folder outside the roots (/etc is writable by root, so only the executor's rule refuses it): the
        // executor's own message, here, before Submit, and Next waits.
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("/etc/trainyard_outside"));
        QTRY_VERIFY(!output->jobDirProblems()->text().isEmpty());
        QVERIFY(output->jobDirProblems()->isVisible());
        QVERIFY(!nextEnabled(w));
        Job probe = w.job();
        probe.jobId = QStringLiteral("wizard_roots_probe");
        const ApiResult<Job> refused = connection.client()->createJobBlocking(probe);
        QVERIFY(!refused.ok());
        QString executorSays;
        for (const FieldViolation& v : refused.error.violations)
            if (v.field == QLatin1String("trainingInput.jobDir"))
                executorSays = v.description;
        QCOMPARE(output->jobDirProblems()->text(), executorSays);
        screenshot(w, QStringLiteral("wizard-jobdir-outside-roots.png"));

        // A folder of the user's own that holds checkpoints: "Use a new folder" proposes a sibling named after
        // the job, in the same parent.
        const QString own = path(QStringLiteral("mine/exp1"));
        QVERIFY(writeFile(own + QStringLiteral("/model.pt"), "x"));
        edit->selectAll();
        QTest::keyClicks(edit, own);
        QTRY_VERIFY(output->checkpointWarning()->isVisible());
        QVERIFY(nextEnabled(w));
        QTest::mouseClick(output->freshJobDirButton(), Qt::LeftButton);
        const QString id = w.jobPage()->jobIdEdit()->text();
        QCOMPARE(QDir::fromNativeSeparators(edit->text()), path(QStringLiteral("mine/")) + id);
        QVERIFY(!output->checkpointWarning()->isVisible());
    }

    void importSaysWhatAndProposesThePackage()
    {
        // Issue 27, item 11: an imported config opened the wizard on step 1 with no sign of the import, and the
        // package field empty though the file sat in the trainer's folder.
        QVERIFY(Trainyard::Test::writeTrainingPackage(
            path(QStringLiteral("imported")), QStringLiteral("trainer"), "print('hi')\n", QStringLiteral("t")));
        QVERIFY(writeFile(path(QStringLiteral("imported/configs/gpu.yaml")),
            "trainingInput:\n  scaleTier: BASIC_GPU\n  pythonModule: trainer.task\n  args: [--epochs, '3']\n"));
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        typeValidId(w);
        QString error;
        QVERIFY2(w.importConfig(path(QStringLiteral("imported/configs/gpu.yaml")), &error), qPrintable(error));
        QCOMPARE(w.currentId(), int(SubmitWizard::JobPageId));
        QLabel* status = w.jobPage()->importStatus();
        QVERIFY(status->isVisible());
        QVERIFY2(status->text().contains(QStringLiteral("Imported gpu.yaml: scale tier BASIC_GPU"))
                && status->text().contains(QStringLiteral("module trainer.task"))
                && status->text().contains(path(QStringLiteral("imported"))),
            qPrintable(status->text()));
        QCOMPARE(w.appPage()->packageEdit()->text(), path(QStringLiteral("imported")));
        // All of it shows: the label gets the height its wrapped lines need.
        QTRY_VERIFY2(status->height() >= status->heightForWidth(status->width()),
            qPrintable(QStringLiteral("%1 < %2").arg(status->height()).arg(status->heightForWidth(status->width()))));
        screenshot(w, QStringLiteral("wizard-imported.png"));
        QCOMPARE(w.job().trainingInput.packageUris, QStringList { path(QStringLiteral("imported")) });
    }

    void returnInAPopupStaysOnThePage()
    {
        // Issue 11, item 5: Return in a machine-type list also pressed Next.
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int openedWidth = w.width();
        QVERIFY(walkTo(w, SubmitWizard::ComputePageId));
        WizardComputePage* compute = w.computePage();
        QTest::mouseClick(compute->tierButton(QStringLiteral("CUSTOM")), Qt::LeftButton);
        // The tier cards wrap their long lines: the compute page does not widen the wizard (it grew and stayed
        // wide).
        // (It opens at 900 pixels, less on a small screen; either way it stays within 900 and the screen.)
        const int limit = std::max(openedWidth, std::min(900, w.screen()->availableGeometry().width()));
        QVERIFY2(w.width() <= limit, qPrintable(QStringLiteral("%1 > %2").arg(w.width()).arg(limit)));
        QComboBox* master = compute->machineBox(WizardComputePage::Master);
        master->setFocus();
        master->showPopup();
        QTRY_VERIFY(master->view()->isVisible());
        const int row = master->findData(QStringLiteral("n1-highmem-8"));
        QVERIFY(row > 0);
        master->view()->setCurrentIndex(master->model()->index(row, 0));
        QTest::keyClick(master, Qt::Key_Return);
        QCOMPARE(w.currentId(), int(SubmitWizard::ComputePageId));
        QTRY_VERIFY(!master->view()->isVisible());
        QCOMPARE(master->currentData().toString(), QStringLiteral("n1-highmem-8"));
        // Grouped by family, headers not selectable, no TPU machine types (TPUs never run here).
        QCOMPARE(master->findData(QStringLiteral("cloud_tpu")), -1);
        const int header = master->findText(QStringLiteral("n1-highmem"));
        QVERIFY(header > 0);
        QVERIFY(!(master->model()->flags(master->model()->index(header, 0)) & Qt::ItemIsEnabled));
        // No mnemonic is shared by two buttons the user can see at once (Browse… and < Back were).
        w.next();
        QCOMPARE(w.currentId(), int(SubmitWizard::OutputPageId));
        QMap<QChar, QString> seen;
        for (QAbstractButton* b : w.findChildren<QAbstractButton*>()) {
            if (!b->isVisibleTo(&w) || (b->window() != &w))
                continue;
            const QString text = b->text();
            const qsizetype amp = text.indexOf(QRegularExpression(QStringLiteral("&[^&]")));
            if (amp < 0)
                continue;
            const QChar key = text.at(amp + 1).toLower();
            QVERIFY2(!seen.contains(key), qPrintable(seen.value(key) + QStringLiteral(" and ") + text));
            seen.insert(key, text);
        }
    }

    void suggest()
    {
        SubmitWizard w(nullptr);
        w.show();
        QTest::keyClicks(w.jobPage()->jobIdEdit(), QStringLiteral("my-run_20200101_000000"));
        const QString id = w.jobPage()->suggestedId(QDateTime(QDate(2026, 11, 22), QTime(6, 15, 0)));
        QCOMPARE(id, QStringLiteral("my_run_20261122_061500"));
        w.jobPage()->jobIdEdit()->clear();
        QTest::keyClicks(w.appPage()->packageEdit(), QStringLiteral(TRAINYARD_SAMPLE_TRAINER));
        QCOMPARE(w.jobPage()->suggestedId(QDateTime(QDate(2026, 11, 22), QTime(6, 15, 0))),
            QStringLiteral("fmnist_20261122_061500"));
        QTest::mouseClick(w.jobPage()->suggestButton(), Qt::LeftButton);
        QVERIFY(jobIdProblems(w.jobPage()->jobIdEdit()->text()).isEmpty());
        QVERIFY(w.jobPage()->jobIdEdit()->text().startsWith(QStringLiteral("fmnist_")));
    }

    void labels_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("valid");
        QTest::addRow("good") << QStringLiteral("team") << QStringLiteral("vision") << true;
        QTest::addRow("upper-case key") << QStringLiteral("Team") << QStringLiteral("x") << false;
        QTest::addRow("space in value") << QStringLiteral("team") << QStringLiteral("a b") << false;
        QTest::addRow("value without key") << QString() << QStringLiteral("orphan") << false;
    }

    void labels()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(bool, valid);
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        typeValidId(w);
        QVERIFY(nextEnabled(w));
        QTest::mouseClick(w.findChild<QPushButton*>(), Qt::LeftButton); // any button: focus leaves the edit
        QPushButton* add = nullptr;
        for (QPushButton* b : w.jobPage()->findChildren<QPushButton*>())
            if (b->text().contains(QStringLiteral("Add label")))
                add = b;
        QVERIFY(add);
        QTest::mouseClick(add, Qt::LeftButton);
        QTableWidget* table = w.jobPage()->labelsTable();
        QCOMPARE(table->rowCount(), 1);
        // "Add label" opened the key's editor; the value's is opened as a user would, with F2.
        for (int column = 0; column < 2; ++column) {
            if (column == 1) {
                table->setCurrentCell(0, 1);
                QTest::keyClick(table, Qt::Key_F2);
            }
            QWidget* editor = nullptr;
            QTRY_VERIFY((editor = qobject_cast<QLineEdit*>(QApplication::focusWidget()))
                && editor->parentWidget() == table->viewport());
            QTest::keyClicks(editor, column == 0 ? key : value);
            QTest::keyClick(editor, Qt::Key_Return);
            QTRY_COMPARE(table->item(0, column)->text(), column == 0 ? key : value);
        }
        QCOMPARE(table->item(0, 1)->text(), value);
        QLabel* problems = w.jobPage()->labelProblems();
        QCOMPARE(problems->text().isEmpty(), valid);
        QCOMPARE(nextEnabled(w), valid);
        if (valid)
            QCOMPARE(w.job().labels.value(key), value);
    }

    void package()
    {
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        typeValidId(w);
        w.next();
        QCOMPARE(w.currentId(), int(SubmitWizard::AppPageId));
        WizardAppPage* page = w.appPage();
        QVERIFY(!nextEnabled(w));
        // Nothing typed yet: no red on the page (issue 27, item 12, as step 1 does: KDE HIG, validate after
        // input), though Next waits for a package and a module.
        QVERIFY2(page->packageProblems()->text().isEmpty(), qPrintable(page->packageProblems()->text()));
        QVERIFY2(page->moduleProblems()->text().isEmpty(), qPrintable(page->moduleProblems()->text()));
        QVERIFY(!page->packageProblems()->isVisible() && !page->moduleProblems()->isVisible());
        // Typed and erased: now it is required.
        QTest::keyClick(page->packageEdit(), Qt::Key_X);
        QTest::keyClick(page->packageEdit(), Qt::Key_Backspace);
        QVERIFY(page->packageProblems()->text().contains(QStringLiteral("Choose the package")));
        QVERIFY(page->packageProblems()->isVisible());
        QTest::keyClick(page->moduleBox()->lineEdit(), Qt::Key_X);
        QTest::keyClick(page->moduleBox()->lineEdit(), Qt::Key_Backspace);
        QVERIFY(page->moduleProblems()->text().contains(QStringLiteral("Name the module")));

        QTest::keyClicks(page->packageEdit(), path(QStringLiteral("missing")));
        QVERIFY(page->packageProblems()->text().contains(QStringLiteral("does not exist")));
        QVERIFY(!nextEnabled(w));

        // A folder that is not a package.
        QVERIFY(QDir().mkpath(path(QStringLiteral("notapackage"))));
        page->packageEdit()->clear();
        QTest::keyClicks(page->packageEdit(), path(QStringLiteral("notapackage")));
        QVERIFY(page->packageProblems()->text().contains(QStringLiteral("setup.py")));
        QVERIFY(!nextEnabled(w));

        // The sample trainer: its modules are offered, trainer.task first.
        page->packageEdit()->clear();
        QTest::keyClicks(page->packageEdit(), QStringLiteral(TRAINYARD_SAMPLE_TRAINER));
        QVERIFY2(page->packageProblems()->text().isEmpty(), qPrintable(page->packageProblems()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(page->modulesScanned(), 60000); // the scan runs Python
        QStringList offered;
        for (int i = 0; i < page->moduleBox()->count(); ++i)
            offered << page->moduleBox()->itemText(i);
        QVERIFY2(offered.contains(QStringLiteral("trainer.ps_task")), qPrintable(offered.join(QLatin1Char(' '))));
        QCOMPARE(offered.first(), QStringLiteral("trainer.task"));
        QVERIFY(!offered.contains(QStringLiteral("setup")));
        QVERIFY(!offered.contains(QStringLiteral("launch_local")));
        QCOMPARE(page->moduleBox()->currentText(), QStringLiteral("trainer.task"));
        QVERIFY(nextEnabled(w));

        // A module name that is not one.
        page->moduleBox()->lineEdit()->selectAll();
        QTest::keyClicks(page->moduleBox()->lineEdit(), QStringLiteral("trainer/task"));
        QVERIFY(page->moduleProblems()->text().contains(QStringLiteral("not a Python module name")));
        QVERIFY(!nextEnabled(w));
        page->moduleBox()->lineEdit()->selectAll();
        QTest::keyClicks(page->moduleBox()->lineEdit(), QStringLiteral("trainer.ps_task"));
        QVERIFY(nextEnabled(w));

        // Arguments are typed as on gcloud's command line: shell words. Typing "--epochs 2" on one line used
        // to pass one argument '--epochs 2' (issue 11, item 1); the page shows the argv the trainer gets.
        QTest::keyClicks(page->argsEdit(), QStringLiteral("--epochs 2 --name 'a b"));
        QVERIFY(page->argsProblems()->text().contains(QStringLiteral("quote is not closed")));
        QVERIFY(!nextEnabled(w));
        QTest::keyClicks(page->argsEdit(), QStringLiteral("'"));
        QVERIFY(page->argsProblems()->text().isEmpty());
        QVERIFY(nextEnabled(w));
        QCOMPARE(page->argvPreview()->text(),
            QStringLiteral("The trainer's arguments (sys.argv[1:]): ['--epochs', '2', '--name', 'a b']"));
        // A new line separates words as a blank does; a backslash-new line joins lines.
        QTest::keyClick(page->argsEdit(), Qt::Key_Return);
        QTest::keyClicks(page->argsEdit(), QStringLiteral("--x \\"));
        QTest::keyClick(page->argsEdit(), Qt::Key_Return);
        QTest::keyClicks(page->argsEdit(), QStringLiteral("y"));
        QCOMPARE(page->args(),
            (QStringList { QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--name"),
                QStringLiteral("a b"), QStringLiteral("--x"), QStringLiteral("y") }));
        for (int i = 0; i < 8; ++i) // "\n--x \\\ny"
            QTest::keyClick(page->argsEdit(), Qt::Key_Backspace);
        QCOMPARE(page->args().size(), 4);
        QCOMPARE(w.job().trainingInput.args,
            (QStringList {
                QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--name"), QStringLiteral("a b") }));
        QCOMPARE(w.job().trainingInput.packageUris, QStringList { QStringLiteral(TRAINYARD_SAMPLE_TRAINER) });
        QCOMPARE(w.job().trainingInput.pythonModule, QStringLiteral("trainer.ps_task"));
    }

    /// gcloud's --package-path form (issue 45, item 0): the package folder itself ("trainer/" with __init__.py) is a
    /// package here too (PackageSource, the rule the executor builds by); its modules are offered under its name, or
    /// its parent project's when the parent has setup.py. "Not a Python package" before.
    void gcloudPackageFolder()
    {
        QVERIFY(writeFile(path(QStringLiteral("gpkg/trainer/__init__.py")), ""));
        QVERIFY(writeFile(path(QStringLiteral("gpkg/trainer/task.py")), "print(1)\n"));
        QVERIFY(writeFile(path(QStringLiteral("gpkg/trainer/util.py")), "X = 1\n"));
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        typeValidId(w);
        w.next();
        WizardAppPage* page = w.appPage();
        QTest::keyClicks(page->packageEdit(), path(QStringLiteral("gpkg/trainer")));
        QVERIFY2(page->packageProblems()->text().isEmpty(), qPrintable(page->packageProblems()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(page->modulesScanned(), 60000);
        QCOMPARE(page->moduleBox()->itemText(0), QStringLiteral("trainer.task"));
        QCOMPARE(page->moduleBox()->currentText(), QStringLiteral("trainer.task"));
        QVERIFY(nextEnabled(w));
        QCOMPARE(w.job().trainingInput.packageUris, QStringList { path(QStringLiteral("gpkg/trainer")) });
        // For looking, not for asserting: with TRAINYARD_SCREENSHOT_DIR set, the page as drawn.
        if (const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(w.grab().save(dir + QStringLiteral("/wizard-gcloud-package-folder.png")));
        // With the parent's setup.py, the parent project is what pip builds: its modules.
        QVERIFY(writeFile(path(QStringLiteral("gproj/setup.py")), "from setuptools import setup\n"));
        QVERIFY(writeFile(path(QStringLiteral("gproj/other/__init__.py")), ""));
        QVERIFY(writeFile(path(QStringLiteral("gproj/other/run.py")), "print(2)\n"));
        QVERIFY(writeFile(path(QStringLiteral("gproj/trainer/__init__.py")), ""));
        QVERIFY(writeFile(path(QStringLiteral("gproj/trainer/task.py")), "print(1)\n"));
        QCOMPARE(PackageModules::discover(path(QStringLiteral("gproj/trainer"))),
            (QStringList { QStringLiteral("trainer.task"), QStringLiteral("other.run") }));
        QVERIFY(WizardAppPage::packageProblem(path(QStringLiteral("gproj/trainer"))).isEmpty());
    }

    void sdistModules()
    {
        // An sdist: modules are read from the archive listing.
        QVERIFY(writeFile(path(QStringLiteral("sd/pkg-0.1/setup.py")), "from setuptools import setup\n"));
        QVERIFY(writeFile(path(QStringLiteral("sd/pkg-0.1/pkg/__init__.py")), ""));
        QVERIFY(writeFile(path(QStringLiteral("sd/pkg-0.1/pkg/train.py")), "print(1)\n"));
        QProcess tar;
        tar.setWorkingDirectory(path(QStringLiteral("sd")));
        tar.start(QStringLiteral("tar"),
            { QStringLiteral("-czf"), QStringLiteral("pkg-0.1.tar.gz"), QStringLiteral("pkg-0.1") });
        QVERIFY(tar.waitForFinished());
        QCOMPARE(tar.exitCode(), 0);
        const QString sdist = path(QStringLiteral("sd/pkg-0.1.tar.gz"));
        QVERIFY(WizardAppPage::packageProblem(sdist).isEmpty());
        QCOMPARE(PackageModules::discover(sdist), QStringList { QStringLiteral("pkg.train") });
        QVERIFY(!WizardAppPage::packageProblem(path(QStringLiteral("sd/pkg-0.1/setup.py"))).isEmpty());
    }

    void customWithoutMaster()
    {
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        typeValidId(w);
        w.next();
        QTest::keyClicks(w.appPage()->packageEdit(), QStringLiteral(TRAINYARD_SAMPLE_TRAINER));
        QTRY_VERIFY(nextEnabled(w));
        w.next();
        QCOMPARE(w.currentId(), int(SubmitWizard::ComputePageId));
        WizardComputePage* page = w.computePage();
        QVERIFY(page->tierButton(QStringLiteral("BASIC"))->isChecked());
        QVERIFY(!page->tierButton(QStringLiteral("BASIC_TPU"))->isEnabled());
        QVERIFY(page->tierButton(QStringLiteral("BASIC_TPU"))->text().contains(QStringLiteral("Unavailable")));
        QVERIFY(nextEnabled(w));
        QVERIFY(!page->machineBox(WizardComputePage::Master)->isEnabled());

        QTest::mouseClick(page->tierButton(QStringLiteral("CUSTOM")), Qt::LeftButton);
        QCOMPARE(page->selectedTier(), QStringLiteral("CUSTOM"));
        QVERIFY(page->machineBox(WizardComputePage::Master)->isEnabled());
        QVERIFY(page->roleProblems(WizardComputePage::Master)->text().contains(QStringLiteral("master machine type")));
        QVERIFY(!nextEnabled(w));

        // Pick a master type by keyboard; two workers need a type too.
        QComboBox* master = page->machineBox(WizardComputePage::Master);
        master->setFocus();
        QTest::keyClick(master, Qt::Key_Down);
        QVERIFY(!master->currentData().toString().isEmpty());
        QVERIFY(page->roleProblems(WizardComputePage::Master)->text().isEmpty());
        QVERIFY(nextEnabled(w));
        QSpinBox* workers = page->countBox(WizardComputePage::Worker);
        workers->setFocus();
        QTest::keyClick(workers, Qt::Key_Up);
        QTest::keyClick(workers, Qt::Key_Up);
        QCOMPARE(workers->value(), 2);
        QVERIFY(page->roleProblems(WizardComputePage::Worker)->text().contains(QStringLiteral("machine type")));
        QVERIFY(!nextEnabled(w));
        QComboBox* workerType = page->machineBox(WizardComputePage::Worker);
        workerType->setCurrentIndex(workerType->findData(QStringLiteral("n1-standard-4")));
        QVERIFY(nextEnabled(w));
        const TrainingInput in = w.job().trainingInput;
        QCOMPARE(in.scaleTier, QStringLiteral("CUSTOM"));
        QCOMPARE(in.workerCount, std::optional<qint64>(2));
        QCOMPARE(in.workerType, QStringLiteral("n1-standard-4"));
        QVERIFY(!in.masterType.isEmpty());
    }

    void jobDir_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("problem");
        QTest::addColumn<bool>("warn");
        QTest::addRow("empty is optional") << QString() << QString() << false;
        QTest::addRow("missing, creatable") << QStringLiteral("out/new/deeper") << QString() << false;
        QTest::addRow("under a file") << QStringLiteral("afile/sub") << QStringLiteral("not a folder") << false;
        QTest::addRow("a file") << QStringLiteral("afile") << QStringLiteral("is a file") << false;
        QTest::addRow("read-only") << QStringLiteral("readonly/sub") << QStringLiteral("not writable") << false;
        QTest::addRow("holds checkpoints") << QStringLiteral("withckpt") << QString() << true;
    }

    void jobDir()
    {
        QFETCH(QString, dir);
        QFETCH(QString, problem);
        QFETCH(bool, warn);
        if (dir.startsWith(QLatin1String("readonly")) && ::geteuid() == 0)
            QSKIP("root writes to read-only folders; the permission check cannot fail");
        QVERIFY(writeFile(path(QStringLiteral("afile")), "x"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("readonly"))));
        QFile::setPermissions(path(QStringLiteral("readonly")), QFile::ReadOwner | QFile::ExeOwner);
        // A real torch.save archive (tests/data/pytorch), and a file the old file-name rule took for a checkpoint
        // though the executor's rule (CheckpointIndex) does not: one checkpoint.
        QVERIFY(QDir().mkpath(path(QStringLiteral("withckpt/checkpoints"))));
        QFile::remove(path(QStringLiteral("withckpt/checkpoints/epoch-3.pt"))); // from the previous row
        QVERIFY(QFile::copy(QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/data/pytorch/test.pt"),
            path(QStringLiteral("withckpt/checkpoints/epoch-3.pt"))));
        QVERIFY(writeFile(path(QStringLiteral("withckpt/ckpt_notes.txt")), "lr 0.1 diverged"));

        SubmitWizard w(nullptr);
        QVERIFY(walkTo(w, SubmitWizard::OutputPageId));
        QCOMPARE(w.currentId(), int(SubmitWizard::OutputPageId));
        WizardOutputPage* page = w.outputPage();
        // Issue 11, item 4: the page proposes a fresh folder named after the job (an empty job dir made the
        // sample trainer fail after staging).
        QCOMPARE(page->jobDirEdit()->text(), WizardOutputPage::defaultJobDir(QStringLiteral("wizard_job")));
        QVERIFY(page->defaultJobDir(QStringLiteral("x"))
                    .startsWith(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)));
        if (!dir.isEmpty()) {
            page->jobDirEdit()->setFocus();
            QTest::keyClick(page->jobDirEdit(), Qt::Key_A, Qt::ControlModifier); // select all, then type over it
            QTest::keyClicks(page->jobDirEdit(), path(dir));
            QCOMPARE(page->jobDirEdit()->text(), path(dir));
        }
        QVERIFY2(problem.isEmpty() ? page->jobDirProblems()->text().isEmpty()
                                   : page->jobDirProblems()->text().contains(problem),
            qPrintable(page->jobDirProblems()->text()));
        QCOMPARE(nextEnabled(w), problem.isEmpty());
        // The checkpoint scan runs on the thread pool: its answer, whatever it is, comes after typing.
        QTRY_VERIFY_WITH_TIMEOUT(!page->checkpointScanPending(), 60000); // a worker thread: slow on a busy machine
        QCOMPARE(!page->checkpointWarning()->isHidden(), warn);
        if (warn) {
            QVERIFY2(
                page->checkpointWarning()->text().contains(QStringLiteral("1 checkpoint(s) (checkpoints/epoch-3.pt)")),
                qPrintable(page->checkpointWarning()->text()));
            // "Use a new folder" leaves the old run's checkpoints alone, beside them in the folder the user chose.
            QVERIFY(!page->freshJobDirButton()->isHidden());
            QTest::mouseClick(page->freshJobDirButton(), Qt::LeftButton);
            QCOMPARE(page->jobDirEdit()->text(), QFileInfo(path(dir)).absolutePath() + QStringLiteral("/wizard_job"));
            QVERIFY(page->checkpointWarning()->isHidden());
        }
    }

    void jobDirNamesTheJobThatWroteIt()
    {
        // The warning counts the checkpoints and names the job that wrote them, from the console's list.
        // Real checkpoints of two formats (tests/data): four torch.save archives and a TF tensor bundle, whose
        // .index and .data shard are one checkpoint (the executor's rule, as the job's Checkpoints tab lists them).
        const QString dir = path(QStringLiteral("written/by/old"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/checkpoints")));
        for (int epoch = 1; epoch <= 4; ++epoch) {
            const QString file = dir + QStringLiteral("/checkpoints/ckpt-epoch-%1.pt").arg(epoch);
            QVERIFY(QFile::copy(QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/data/pytorch/test.pt"), file));
            // Older than the bundle, which the warning then names first (newest first, as the tab lists them).
            QFile archive(file);
            QVERIFY(archive.open(QIODevice::ReadWrite));
            QVERIFY(archive.setFileTime(
                QDateTime::currentDateTimeUtc().addSecs(-3600 + epoch), QFileDevice::FileModificationTime));
        }
        const QString bundle = QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/data/checkpoints/saved_model_counter/");
        QVERIFY(QFile::copy(bundle + QStringLiteral("variables.index"), dir + QStringLiteral("/model.ckpt-100.index")));
        QVERIFY(QFile::copy(bundle + QStringLiteral("variables.data-00000-of-00001"),
            dir + QStringLiteral("/model.ckpt-100.data-00000-of-00001")));
        Job old;
        old.jobId = QStringLiteral("fmnist_old");
        old.state = JobState::Succeeded;
        old.createTime = QStringLiteral("2026-11-20T10:00:00Z");
        old.trainingInput.jobDir = dir + QLatin1Char('/');
        SubmitWizard w(nullptr);
        w.setKnownJobs({ old });
        QVERIFY(walkTo(w, SubmitWizard::OutputPageId));
        QLineEdit* edit = w.outputPage()->jobDirEdit();
        edit->setFocus();
        QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(edit, dir);
        QTRY_VERIFY_WITH_TIMEOUT(!w.outputPage()->checkpointScanPending(), 60000);
        const QString warning = w.outputPage()->checkpointWarning()->text();
        QVERIFY2(warning.contains(QStringLiteral("5 checkpoint(s) (")), qPrintable(warning));
        QVERIFY2(warning.contains(QStringLiteral("(model.ckpt-100, checkpoints/ckpt-epoch-4.pt, "
                                                 "checkpoints/ckpt-epoch-3.pt, …)")),
            qPrintable(warning));
        screenshot(w, QStringLiteral("wizard-output-checkpoints.png"));
        QVERIFY2(warning.contains(QStringLiteral("job fmnist_old (Succeeded)")), qPrintable(warning));
        // A folder the user typed is theirs: going back and changing the ID does not rename it.
        w.back();
        w.back();
        w.back();
        typeValidId(w);
        QTest::keyClicks(w.jobPage()->jobIdEdit(), QStringLiteral("_2"));
        w.next();
        w.next();
        w.next();
        QCOMPARE(w.outputPage()->jobDirEdit()->text(), dir);
    }

    void importRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        const QDir dir(QStringLiteral(TRAINYARD_FIXTURES_DIR "/configs"));
        const QStringList files = dir.entryList({ QStringLiteral("*.yaml"), QStringLiteral("*.json") }, QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString& f : files)
            QTest::addRow("%s", qPrintable(f)) << dir.filePath(f);
    }

    void importRoundTrip()
    {
        QFETCH(QString, file);
        QString error;
        // Every fixture config must load (tests/data/README.md): a loader regression fails here, it is not
        // skipped.
        const std::optional<Job> expected = ConfigLoader::loadFile(file, &error);
        QVERIFY2(expected, qPrintable(QStringLiteral("does not load: ") + error));
        SubmitWizard w(nullptr);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(w.importConfig(file, &error), qPrintable(error));

        // Pages filled.
        const TrainingInput& in = expected->trainingInput;
        const QString tier = in.scaleTier.isEmpty() ? QStringLiteral("BASIC") : in.scaleTier;
        if (QToolButton* b = w.computePage()->tierButton(tier))
            QVERIFY(b->isChecked());
        QCOMPARE(w.appPage()->moduleBox()->currentText(), in.pythonModule);
        QCOMPARE(w.appPage()->args(), in.args);
        QCOMPARE(w.outputPage()->jobDirEdit()->text(), in.jobDir);
        QCOMPARE(w.computePage()->machineBox(WizardComputePage::Master)->currentData().toString(), in.masterType);
        QCOMPARE(w.computePage()->countBox(WizardComputePage::Worker)->value(), int(in.workerCount.value_or(0)));
        QCOMPARE(w.jobPage()->labels(), expected->labels);

        // Review YAML round-trips.
        while (w.currentId() != SubmitWizard::ReviewPageId)
            w.next();
        const QString yaml = w.reviewPage()->yamlView()->toPlainText();
        QVERIFY(!yaml.isEmpty());
        const std::optional<Job> back = ConfigLoader::loadText(yaml.toUtf8(), ConfigLoader::Format::Yaml, &error);
        QVERIFY2(back, qPrintable(error + QLatin1Char('\n') + yaml));
        QCOMPARE(back->labels, expected->labels);
        // A config without a job dir gets the Output page's proposal (a fresh folder named after the job);
        // everything else comes back as it was.
        TrainingInput expectedInput = expected->trainingInput;
        if (expectedInput.jobDir.isEmpty()) {
            QCOMPARE(w.outputPage()->jobDirEdit()->text(),
                WizardOutputPage::defaultJobDir(w.jobPage()->jobIdEdit()->text()));
            expectedInput.jobDir = w.outputPage()->jobDirEdit()->text();
        }
        QVERIFY2(back->trainingInput == expectedInput, qPrintable(yaml));
        QVERIFY(w.reviewPage()->commandView()->toPlainText().startsWith(
            QStringLiteral("trainyardctl jobs submit training ")));

        // Export writes the same YAML.
        const QString exported = path(QStringLiteral("export-") + QFileInfo(file).fileName());
        QVERIFY2(w.reviewPage()->exportTo(exported, &error), qPrintable(error));
        const std::optional<Job> reread = ConfigLoader::loadFile(exported, &error);
        QVERIFY2(reread, qPrintable(error));
        QVERIFY(reread->trainingInput == expectedInput);
    }

    void commandLine()
    {
        Job job;
        job.jobId = QStringLiteral("j1");
        job.labels.insert(QStringLiteral("team"), QStringLiteral("vision"));
        job.trainingInput.scaleTier = QStringLiteral("BASIC_GPU");
        job.trainingInput.packageUris = { QStringLiteral("/home/me/my trainer") };
        job.trainingInput.pythonModule = QStringLiteral("trainer.task");
        job.trainingInput.args = { QStringLiteral("--name"), QStringLiteral("it's"), QStringLiteral("--x=1") };
        QCOMPARE(SubmitWizard::commandLine(job),
            QStringLiteral("trainyardctl jobs submit training j1 '--package-path=/home/me/my trainer' "
                           "--module-name=trainer.task --scale-tier=basic-gpu --labels=team=vision -- --name "
                           "'it'\\''s' --x=1"));
        // The words split back as a shell would.
        const std::optional<QStringList> split = SubmitWizard::splitShellWords(SubmitWizard::commandLine(job));
        QVERIFY(split);
        const QStringList words = *split;
        QCOMPARE(words.at(5), QStringLiteral("--package-path=/home/me/my trainer"));
        QCOMPARE(words.last(), QStringLiteral("--x=1"));

        // The command's flags are trainyardctl's (one table, GcloudFlags): they read back into the job's fields.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        Job rich = job;
        rich.trainingInput.packageUris = { tmp.path() };
        rich.trainingInput.scaleTier = QStringLiteral("CUSTOM");
        rich.trainingInput.masterType = QStringLiteral("n1-standard-8");
        rich.trainingInput.masterConfig = ReplicaConfig {};
        rich.trainingInput.masterConfig->acceleratorConfig = AcceleratorConfig { 2, QStringLiteral("NVIDIA_TESLA_T4") };
        rich.trainingInput.workerCount = 2;
        rich.trainingInput.workerType = QStringLiteral("n1-standard-4");
        rich.trainingInput.jobDir = tmp.filePath(QStringLiteral("out"));
        rich.trainingInput.region = QStringLiteral("testcluster");
        rich.trainingInput.useChiefInTfConfig = true;
        const std::optional<QStringList> richWords = SubmitWizard::splitShellWords(SubmitWizard::commandLine(rich));
        QVERIFY(richWords);
        Job back;
        back.jobId = richWords->at(4);
        QStringList flags = richWords->mid(5);
        flags = flags.mid(0, flags.indexOf(QStringLiteral("--"))); // the trainer's arguments follow
        QString error;
        QVERIFY2(GcloudFlags::applyWords(back, flags, &error), qPrintable(error));
        back.trainingInput.args = rich.trainingInput.args;
        QCOMPARE(back.jobId, rich.jobId);
        QCOMPARE(back.labels, rich.labels);
        QVERIFY(back.trainingInput == rich.trainingInput);
    }

    void pageForField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("page");
        QTest::addRow("jobId") << QStringLiteral("jobId") << int(SubmitWizard::JobPageId);
        QTest::addRow("label") << QStringLiteral("labels.Team") << int(SubmitWizard::JobPageId);
        QTest::addRow("package") << QStringLiteral("trainingInput.packageUris[0]") << int(SubmitWizard::AppPageId);
        QTest::addRow("whole cluster") << QStringLiteral("trainingInput") << int(SubmitWizard::ComputePageId);
        QTest::addRow("module") << QStringLiteral("trainingInput.pythonModule") << int(SubmitWizard::AppPageId);
        QTest::addRow("workerType") << QStringLiteral("trainingInput.workerType") << int(SubmitWizard::ComputePageId);
        QTest::addRow("accel") << QStringLiteral("trainingInput.masterConfig.acceleratorConfig.count")
                               << int(SubmitWizard::ComputePageId);
        QTest::addRow("jobDir") << QStringLiteral("trainingInput.jobDir") << int(SubmitWizard::OutputPageId);
        QTest::addRow("hyperparameters") << QStringLiteral("trainingInput.hyperparameters.params[0].minValue")
                                         << int(SubmitWizard::TuningPageId);
        QTest::addRow("hyperparameters goal")
            << QStringLiteral("trainingInput.hyperparameters.goal") << int(SubmitWizard::TuningPageId);
        QTest::addRow("scheduling") << QStringLiteral("trainingInput.scheduling.priority")
                                    << int(SubmitWizard::ReviewPageId);
    }

    void pageForField()
    {
        QFETCH(QString, field);
        QFETCH(int, page);
        QCOMPARE(int(SubmitWizard::pageForField(field)), page);
    }

    /// A custom-container job through the wizard: the App page offers the executor host's images (podman images),
    /// typing filters them, a missing one is flagged; the review shows gcloud's --master-image-uri; the job runs.
    void containerImage()
    {
        const QString whyNot = Test::ensureContainerImages();
        if (!whyNot.isEmpty())
            TRAINYARD_SKIP_OR_FAIL_BECAUSE(whyNot);
        ExecutorConnection connection;
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();
        SubmitWizard w(client);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString jobId = QStringLiteral("wizard_container_1");
        QTest::keyClicks(w.jobPage()->jobIdEdit(), jobId);
        QTRY_VERIFY_WITH_TIMEOUT(w.jobPage()->uniquenessChecked(), 10000);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::AppPageId));
        WizardAppPage* app = w.appPage();
        QVERIFY(app->packageEdit()->isVisible());
        QVERIFY(!app->imageBox()->isVisible());
        QTest::mouseClick(app->imageMode(), Qt::LeftButton);
        QVERIFY(app->imageBox()->isVisible());
        QVERIFY(app->commandEdit()->isVisible());
        QVERIFY(!app->packageEdit()->isVisible());
        QVERIFY(!app->moduleBox()->isVisible());
        QVERIFY(!nextEnabled(w)); // no image yet
        QTRY_VERIFY_WITH_TIMEOUT(app->imageBox()->findData(Test::containerTrainerImage()) >= 0, 30000);
        // A name that is not there is flagged, but not refused here (it may be built before Finish).
        QTest::keyClicks(app->imageBox()->lineEdit(), QStringLiteral("localhost/no-such-image:1"));
        QTRY_VERIFY(app->imageProblems()->text().contains(QStringLiteral("is not among the host's images")));
        // Typing part of a name filters the host's images.
        app->imageBox()->lineEdit()->clear();
        QTest::keyClicks(app->imageBox()->lineEdit(), QStringLiteral("fmnist"));
        QCompleter* completer = app->imageBox()->completer();
        QTRY_COMPARE(completer->completionCount(), 1);
        QCOMPARE(completer->currentCompletion(), Test::containerTrainerImage());
        app->imageBox()->setCurrentIndex(app->imageBox()->findData(Test::containerTrainerImage()));
        QTRY_VERIFY(app->imageProblems()->text().isEmpty());
        QTest::keyClicks(app->argsEdit(), QStringLiteral("--epochs 1 --train-examples 3000"));
        QVERIFY(nextEnabled(w));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::ComputePageId));
        QTest::mouseClick(w.computePage()->tierButton(QStringLiteral("BASIC")), Qt::LeftButton);
        QTRY_VERIFY(nextEnabled(w));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QTest::keyClick(w.outputPage()->jobDirEdit(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(w.outputPage()->jobDirEdit(), path(QStringLiteral("containerout")));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::ReviewPageId));
        const QString command = w.reviewPage()->commandView()->toPlainText();
        QVERIFY2(command.contains(QStringLiteral("--master-image-uri=") + Test::containerTrainerImage()),
            qPrintable(command));
        QVERIFY2(
            !command.contains(QStringLiteral("--module-name")) && !command.contains(QStringLiteral("--package-path")),
            qPrintable(command));
        QVERIFY(w.reviewPage()->yamlView()->toPlainText().contains(QStringLiteral("imageUri")));
        QSignalSpy submitted(&w, &SubmitWizard::jobSubmitted);
        QTest::mouseClick(w.button(QWizard::FinishButton), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 15000);
        JobState state = JobState::StateUnspecified;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const ApiResult<Job> r = client->getJobBlocking(jobId);
                state = r.value.state;
                return r.ok() && isFinal(state);
            }(),
            180000);
        QCOMPARE(state, JobState::Succeeded);
        QCOMPARE(
            client->getJobBlocking(jobId).value.trainingInput.masterConfig->imageUri, Test::containerTrainerImage());
    }

    void submitToExecutor()
    {
        // The sample trainer (Fashion-MNIST, PyTorch), cut short to one epoch over 3,000 examples. It needs
        // Debian's PyTorch and dataset-fashion-mnist, which packaging/setup-deps.sh installs; the Debian 13
        // chroot build (console only) has neither, and there the test stops before submitting.
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"), { QStringLiteral("-c"), QStringLiteral("import torch") });
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0
            || !QFileInfo::exists(QStringLiteral("/usr/share/datasets/fashion-mnist")))
            TRAINYARD_SKIP_OR_FAIL(
                "the sample trainer needs python3-torch and dataset-fashion-mnist (packaging/setup-deps.sh)");
        const QString pkg = QStringLiteral(TRAINYARD_SAMPLE_TRAINER);
        ExecutorConnection connection;
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;
        ApiClient* client = connection.client();
        QVERIFY(client);

        SubmitWizard w(client);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.focusWidget(), w.jobPage()->jobIdEdit()); // typing starts with the job ID
        const QString jobId = QStringLiteral("wizard_submit_1");
        QTest::keyClicks(w.jobPage()->jobIdEdit(), jobId);
        QTRY_VERIFY_WITH_TIMEOUT(w.jobPage()->uniquenessChecked(), 10000);
        QVERIFY(!w.jobPage()->idTaken());
        QVERIFY(nextEnabled(w));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::AppPageId));

        QTest::keyClicks(w.appPage()->packageEdit(), pkg);
        // The module scan runs Python: slow on a busy machine.
        QTRY_VERIFY_WITH_TIMEOUT(w.appPage()->moduleBox()->findText(QStringLiteral("trainer.task")) >= 0, 60000);
        w.appPage()->moduleBox()->setCurrentIndex(w.appPage()->moduleBox()->findText(QStringLiteral("trainer.task")));
        QTest::keyClicks(w.appPage()->argsEdit(), QStringLiteral("--epochs 1 --train-examples 3000"));
        QCOMPARE(w.appPage()->args().size(), 4); // typed as on a command line, split into four words
        QTRY_VERIFY(w.appPage()->runtimeBox()->count() > 1); // the executor's runtime catalog arrived
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::ComputePageId));

        WizardComputePage* compute = w.computePage();
        QTRY_VERIFY_WITH_TIMEOUT(w.hostInfo().host.has_value(), 10000);
        // BASIC fits a host with its vCPUs and memory; on a smaller host (CI's has 2 vCPUs) the wizard says that
        // it oversubscribes the host instead of a green "fits" (issue 11, item 3).
        const HostStatus host = *w.hostInfo().host;
        auto expectedAlone = [&host](const Job& job) {
            const ClusterPlan plan = planCluster(job.trainingInput, MachineCatalog::builtin());
            return plan.totalVcpus() > host.cpus || plan.totalMemory() > host.memory
                ? WizardComputePage::Verdict::Oversubscribed
                : WizardComputePage::Verdict::Fits;
        };
        QTRY_COMPARE(compute->verdict(), expectedAlone(w.job()));
        QVERIFY(compute->summaryLabel()->text().contains(compute->verdict() == WizardComputePage::Verdict::Fits
                ? QStringLiteral("Fits this host now")
                : QStringLiteral("Oversubscribes this host")));
        // The accelerator picker offers only what this host has.
        QTest::mouseClick(compute->tierButton(QStringLiteral("CUSTOM")), Qt::LeftButton);
        QComboBox* master = compute->machineBox(WizardComputePage::Master);
        master->setCurrentIndex(master->findData(QStringLiteral("n1-standard-4")));
        QComboBox* accel = compute->acceleratorTypeBox(WizardComputePage::Master);
        if (w.hostInfo().host->gpus.isEmpty()) {
            QCOMPARE(accel->currentText(), QStringLiteral("No GPUs on this host"));
            QVERIFY(!accel->isEnabled());
        } else {
            QVERIFY(accel->isEnabled());
            for (int i = 1; i < accel->count(); ++i)
                QVERIFY(
                    MachineCatalog::builtin().hostGpusFor(w.hostInfo().inventory(), accel->itemData(i).toString()) > 0);
        }
        // 60 complex_model_m workers can never run here.
        QComboBox* workerType = compute->machineBox(WizardComputePage::Worker);
        workerType->setCurrentIndex(workerType->findData(QStringLiteral("n1-highmem-96")));
        compute->countBox(WizardComputePage::Worker)->setValue(900);
        QTRY_COMPARE(compute->verdict(), WizardComputePage::Verdict::Never);
        QVERIFY(compute->summaryLabel()->text().contains(QStringLiteral("Can never run here")));
        QVERIFY(!nextEnabled(w));
        // 3 × n1-standard-4 = 12 vCPUs: more than a small host has, far less than "never" (the host policy lets
        // a job overcommit).
        workerType->setCurrentIndex(workerType->findData(QStringLiteral("n1-standard-4")));
        compute->countBox(WizardComputePage::Worker)->setValue(2);
        master->setCurrentIndex(master->findData(QStringLiteral("n1-standard-4")));
        if (host.cpus < 12) {
            QTRY_COMPARE(compute->verdict(), WizardComputePage::Verdict::Oversubscribed);
            QVERIFY(compute->summaryLabel()->text().contains(QStringLiteral("Oversubscribes this host")));
            QVERIFY(
                compute->summaryLabel()->text().contains(QStringLiteral("12 vCPUs on this host's %1").arg(host.cpus)));
            QVERIFY(nextEnabled(w)); // it can run: a warning, not a refusal
        }
        QTest::mouseClick(compute->tierButton(QStringLiteral("BASIC")), Qt::LeftButton);
        QTRY_COMPARE(compute->verdict(), expectedAlone(w.job()));
        QVERIFY(nextEnabled(w));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);

        QCOMPARE(w.currentId(), int(SubmitWizard::OutputPageId));
        QTest::keyClick(w.outputPage()->jobDirEdit(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(w.outputPage()->jobDirEdit(), path(QStringLiteral("tinyout")));
        QVERIFY(nextEnabled(w));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        // No tuning unless asked for (tests/gui/tst_wizardtuning covers the page).
        QCOMPARE(w.currentId(), int(SubmitWizard::TuningPageId));
        QVERIFY(nextEnabled(w));
        QTest::mouseClick(w.button(QWizard::NextButton), Qt::LeftButton);
        QCOMPARE(w.currentId(), int(SubmitWizard::ReviewPageId));
        QVERIFY(!w.reviewPage()->yamlView()->toPlainText().contains(QStringLiteral("hyperparameters")));
        QVERIFY(w.reviewPage()->yamlView()->toPlainText().contains(QStringLiteral("trainer.task")));
        QVERIFY(w.reviewPage()->commandView()->toPlainText().contains(QStringLiteral("--module-name=trainer.task")));
        QVERIFY2(w.reviewPage()->commandView()->toPlainText().endsWith(
                     QStringLiteral("-- --epochs 1 --train-examples 3000")),
            qPrintable(w.reviewPage()->commandView()->toPlainText()));

        QSignalSpy submitted(&w, &SubmitWizard::jobSubmitted);
        QTest::mouseClick(w.button(QWizard::FinishButton), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 15000);
        QCOMPARE(w.result(), int(QDialog::Accepted));
        QCOMPARE(w.submittedJob().jobId, jobId);
        JobState state = JobState::StateUnspecified;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const ApiResult<Job> r = client->getJobBlocking(jobId);
                state = r.value.state;
                return r.ok() && isFinal(state);
            }(),
            180000);
        QCOMPARE(state, JobState::Succeeded);

        // The ID is now taken: the live check says so and blocks Next.
        SubmitWizard again(client);
        again.show();
        QTest::keyClicks(again.jobPage()->jobIdEdit(), jobId);
        QTRY_VERIFY_WITH_TIMEOUT(again.jobPage()->idTaken(), 10000);
        QVERIFY(again.jobPage()->jobIdProblems()->text().contains(QStringLiteral("already exists")));
        QVERIFY(!nextEnabled(again));

        // Executor errors map back to their page and field. The executor validates before it looks the ID
        // up (as the service does), so a bad worker type wins over the duplicate ID → page 3 ...
        Job bad = w.submittedJob();
        bad.trainingInput.scaleTier = QStringLiteral("CUSTOM");
        bad.trainingInput.masterType = QStringLiteral("n1-standard-4");
        bad.trainingInput.workerType = QStringLiteral("no_such_machine");
        bad.trainingInput.workerCount = 1;
        SubmitWizard third(client);
        third.show();
        third.loadJob(bad);
        while (third.currentId() != SubmitWizard::ReviewPageId)
            third.next();
        QSignalSpy failed(&third, &SubmitWizard::submitFailed);
        third.accept();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 15000);
        QCOMPARE(third.currentId(), int(SubmitWizard::ComputePageId));
        QLabel* workerProblems = third.computePage()->roleProblems(WizardComputePage::Worker);
        QVERIFY2(
            workerProblems->text().contains(QStringLiteral("no_such_machine")), qPrintable(workerProblems->text()));
        QVERIFY(!workerProblems->isHidden());
        QCOMPARE(third.result(), int(QDialog::Rejected));

        // ... and a valid job whose ID is taken (submitted before the live check could say so) → page 1.
        SubmitWizard fourth(client);
        fourth.show();
        fourth.loadJob(w.submittedJob());
        while (fourth.currentId() != SubmitWizard::ReviewPageId)
            fourth.next();
        QSignalSpy failed4(&fourth, &SubmitWizard::submitFailed);
        fourth.accept();
        QTRY_COMPARE_WITH_TIMEOUT(failed4.count(), 1, 15000);
        QCOMPARE(fourth.currentId(), int(SubmitWizard::JobPageId));
        QVERIFY2(fourth.jobPage()->jobIdProblems()->text().contains(QStringLiteral("already exists")),
            qPrintable(fourth.jobPage()->jobIdProblems()->text()));
    }
};

QTEST_MAIN(TestSubmitWizard)
#include "tst_submitwizard.moc"
