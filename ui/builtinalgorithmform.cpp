// SPDX-License-Identifier: GPL-2.0-or-later
#include "builtinalgorithmform.h"

#include "builtinalgorithm.h"
#include "job.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace Trainyard {

namespace {

/// The rows the preview shows (its figures come from every row of the file).
constexpr int PreviewRows = 20;

// preprocess.preview() of the bundled package, printed as JSON (resources/algorithms/README.md §3).
const char* PreviewScript = "import json, sys\n"
                            "sys.path.insert(0, sys.argv[1])\n"
                            "from trainyard_algorithms import preprocess\n"
                            "def progress(p):\n"
                            "    sys.stderr.write('progress %d\\n' % p)\n"
                            "    sys.stderr.flush()\n"
                            "print(json.dumps(preprocess.preview(sys.argv[2], int(sys.argv[3]), progress)))\n";

QString interpreter()
{
    // Debian's Python has pandas (packaging/setup-deps.sh); a python3 earlier on PATH may not.
    return QFileInfo::exists(QStringLiteral("/usr/bin/python3")) ? QStringLiteral("/usr/bin/python3")
                                                                 : QStringLiteral("python3");
}

/// The value of `--name=value` or `--name value` in `args`, removing it; nullopt when absent.
std::optional<QString> takeValue(QStringList& args, const QString& name)
{
    const QString flag = QStringLiteral("--") + name;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i).startsWith(flag + QLatin1Char('='))) {
            const QString value = args.at(i).mid(flag.size() + 1);
            args.removeAt(i);
            return value;
        }
        if (args.at(i) == flag && i + 1 < args.size()) {
            const QString value = args.at(i + 1);
            args.remove(i, 2);
            return value;
        }
    }
    return std::nullopt;
}

} // namespace

BuiltInAlgorithmForm::BuiltInAlgorithmForm(QWidget* parent)
    : QWidget(parent)
    , m_algorithm(new QComboBox(this))
    , m_description(new QLabel(this))
    , m_training(new QLineEdit(this))
    , m_validation(new QLineEdit(this))
    , m_test(new QLineEdit(this))
    , m_preprocess(new QCheckBox(tr("Pre&process: split off validation and test rows, fill in missing values, "
                                    "encode categorical columns"),
          this))
    , m_tabs(new QTabWidget(this))
    , m_arguments(new AlgorithmArgumentsForm(this))
    , m_view(new QTableView(this))
    , m_model(new CsvPreviewModel(this))
    , m_summary(new QLabel(this))
    , m_problems(new QLabel(this))
    , m_progress(new QProgressBar(this))
{
    m_algorithm->setObjectName(QStringLiteral("algorithmBox"));
    for (const BuiltInAlgorithm& a : BuiltInAlgorithms::supported()) {
        m_algorithm->addItem(a.name, a.imageUri);
        m_algorithm->setItemData(m_algorithm->count() - 1, a.imageUri, Qt::ToolTipRole);
    }
    m_algorithm->setWhatsThis(tr("<b>Built-in algorithm</b> (masterConfig.imageUri): one of the service's algorithm "
                                 "images. Trainyard runs its own implementation of it (XGBoost; the linear learner "
                                 "and wide and deep in PyTorch, as Debian ships no TensorFlow) with the service's "
                                 "arguments, so the same job runs on the service unchanged."));
    m_description->setObjectName(QStringLiteral("algorithmDescription"));
    m_description->setWordWrap(true);
    m_training->setObjectName(QStringLiteral("trainingDataEdit"));
    m_training->setPlaceholderText(tr("CSV: no header row, the target in the first column"));
    m_training->setWhatsThis(tr("<b>--training_data_path</b> (required): a UTF-8 CSV file without a header row, the "
                                "target in the first column, numeric and categorical columns; an empty cell is a "
                                "missing value."));
    m_validation->setObjectName(QStringLiteral("validationDataEdit"));
    m_validation->setPlaceholderText(tr("Optional: else preprocessing splits off 20 % of the training rows"));
    m_test->setObjectName(QStringLiteral("testDataEdit"));
    m_test->setPlaceholderText(tr("Optional: else preprocessing splits off 20 % of the training rows"));
    m_preprocess->setObjectName(QStringLiteral("preprocessBox"));
    m_preprocess->setChecked(true);
    m_preprocess->setWhatsThis(tr("<b>--preprocess</b>: the service's automatic preprocessing. Rows with more than "
                                  "10 % of their values missing are dropped, numeric gaps get the column's mean, "
                                  "categorical columns are one-hot encoded, an all-distinct integer column is "
                                  "dropped as a row key, and the validation and test rows are drawn at random "
                                  "(--validation_split, --test_split; 0.20 each)."));
    m_view->setObjectName(QStringLiteral("csvPreview"));
    m_view->setModel(m_model);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setMinimumHeight(120);
    m_view->setWordWrap(false);
    m_summary->setObjectName(QStringLiteral("csvSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_problems->setObjectName(QStringLiteral("csvProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->hide();
    m_progress->setObjectName(QStringLiteral("csvProgress"));
    m_progress->setRange(0, 100);
    m_progress->hide();

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    auto* algorithmLabel = new QLabel(tr("A&lgorithm:"), this);
    algorithmLabel->setBuddy(m_algorithm);
    form->addRow(algorithmLabel, m_algorithm);
    form->addRow(QString(), m_description);
    const auto pathRow = [this, form](const QString& label, QLineEdit* edit, const QString& title) {
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        auto* browse = new QPushButton(tr("Browse…"), this);
        browse->setObjectName(edit->objectName() + QStringLiteral("Browse"));
        row->addWidget(browse);
        auto* l = new QLabel(label, this);
        l->setBuddy(edit);
        form->addRow(l, row);
        connect(browse, &QPushButton::clicked, this, [this, edit, title] {
            const QString file
                = QFileDialog::getOpenFileName(this, title, edit->text(), tr("CSV files (*.csv);;All files (*)"));
            if (!file.isEmpty())
                edit->setText(QDir::toNativeSeparators(file));
        });
    };
    pathRow(tr("&Training data:"), m_training, tr("Training data"));
    pathRow(tr("&Validation data:"), m_validation, tr("Validation data"));
    pathRow(tr("T&est data:"), m_test, tr("Test data"));
    form->addRow(QString(), m_preprocess);

    // The table's preview and the algorithm's arguments side by side as tabs, so the page fits a small screen. The
    // preview scrolls rather than squeeze its labels over the table (issue 46: at 1024×700 the summary and the
    // missing-value lines were painted over the rows).
    // What the file holds comes first (the task, the classes, the missing values): on a small screen it is what is
    // seen without scrolling; the rows follow.
    auto* previewPage = new QWidget(this);
    auto* previewLayout = new QVBoxLayout(previewPage);
    previewLayout->addWidget(m_progress);
    previewLayout->addWidget(m_summary);
    previewLayout->addWidget(m_problems);
    previewLayout->addWidget(m_view, 1);
    auto* preview = new QScrollArea(this);
    preview->setObjectName(QStringLiteral("previewScroll"));
    preview->setWidgetResizable(true);
    preview->setFrameShape(QFrame::NoFrame);
    preview->setWidget(previewPage);
    auto* arguments = new QScrollArea(this);
    arguments->setObjectName(QStringLiteral("argumentsScroll"));
    arguments->setWidgetResizable(true);
    arguments->setFrameShape(QFrame::NoFrame);
    arguments->setWidget(m_arguments);
    m_arguments->setObjectName(QStringLiteral("argumentsForm"));
    m_tabs->setObjectName(QStringLiteral("algorithmTabs"));
    m_tabs->addTab(preview, tr("Table previe&w"));
    m_tabs->addTab(arguments, tr("Algor&ithm arguments"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_tabs, 1);
    connect(m_arguments, &AlgorithmArgumentsForm::changed, this, &BuiltInAlgorithmForm::changed);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(300);
    connect(&m_debounce, &QTimer::timeout, this, &BuiltInAlgorithmForm::runPreview);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, &BuiltInAlgorithmForm::onAlgorithmChanged);
    connect(m_training, &QLineEdit::textChanged, this, &BuiltInAlgorithmForm::onTrainingChanged);
    for (QLineEdit* edit : { m_validation, m_test })
        connect(edit, &QLineEdit::textChanged, this, &BuiltInAlgorithmForm::changed);
    connect(m_preprocess, &QCheckBox::toggled, this, &BuiltInAlgorithmForm::changed);
    onAlgorithmChanged();
}

BuiltInAlgorithmForm::~BuiltInAlgorithmForm()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

QString BuiltInAlgorithmForm::describe(const BuiltInAlgorithm& a)
{
    if (a.module.endsWith(QLatin1String(".xgboost")))
        return a.distributed ? tr("Gradient-boosted trees on a master and workers (XGBoost's collective, rows "
                                  "sharded). No preprocessing: give numeric tables, classes as 0…K−1.")
                             : tr("Gradient-boosted trees (XGBoost) for classification or regression: strong on "
                                  "tables of numeric and categorical columns.");
    if (a.module.endsWith(QLatin1String(".linear_learner")))
        return tr("A linear model (logistic or linear regression): fast, a baseline, readable weights.%1")
            .arg(a.gpu ? tr(" Trains on the job's GPU.") : QString());
    return tr("A linear part and a deep network over embeddings: for tables with many categorical columns.%1")
        .arg(a.gpu ? tr(" Trains on the job's GPU.") : QString());
}

const BuiltInAlgorithm* BuiltInAlgorithmForm::algorithm() const
{
    return BuiltInAlgorithms::find(m_algorithm->currentData().toString());
}

QString BuiltInAlgorithmForm::imageUri() const
{
    return m_algorithm->currentData().toString();
}

void BuiltInAlgorithmForm::onAlgorithmChanged()
{
    const BuiltInAlgorithm* a = algorithm();
    m_description->setText(a ? describe(*a) : QString());
    if (a)
        m_arguments->setAlgorithm(*a);
    applySuggestion();
    // Distributed XGBoost takes no --preprocess, as on the service.
    m_preprocess->setEnabled(a && a->preprocess);
    Q_EMIT changed();
}

QStringList BuiltInAlgorithmForm::dataArgs() const
{
    QStringList args;
    const BuiltInAlgorithm* a = algorithm();
    if (a && a->preprocess && m_preprocess->isChecked())
        args << QStringLiteral("--preprocess");
    args << QStringLiteral("--training_data_path=") + m_training->text().trimmed();
    if (!m_validation->text().trimmed().isEmpty())
        args << QStringLiteral("--validation_data_path=") + m_validation->text().trimmed();
    if (!m_test->text().trimmed().isEmpty())
        args << QStringLiteral("--test_data_path=") + m_test->text().trimmed();
    return args + m_arguments->args();
}

QStringList BuiltInAlgorithmForm::load(const TrainingInput& input)
{
    const BuiltInAlgorithm* a = BuiltInAlgorithms::forJob(input);
    if (a)
        m_algorithm->setCurrentIndex(m_algorithm->findData(a->imageUri));
    QStringList rest = input.args;
    m_training->setText(takeValue(rest, QStringLiteral("training_data_path")).value_or(QString()));
    m_validation->setText(takeValue(rest, QStringLiteral("validation_data_path")).value_or(QString()));
    m_test->setText(takeValue(rest, QStringLiteral("test_data_path")).value_or(QString()));
    bool preprocess = false;
    for (qsizetype i = rest.size() - 1; i >= 0; --i) {
        if (rest.at(i) == QLatin1String("--preprocess") || rest.at(i).startsWith(QLatin1String("--preprocess="))) {
            preprocess = rest.at(i) == QLatin1String("--preprocess")
                || rest.at(i).mid(13).compare(QLatin1String("false"), Qt::CaseInsensitive) != 0;
            rest.removeAt(i);
        }
    }
    m_preprocess->setChecked(preprocess);
    return m_arguments->load(rest);
}

bool BuiltInAlgorithmForm::previewPending() const
{
    return m_debounce.isActive() || m_process;
}

bool BuiltInAlgorithmForm::isComplete() const
{
    const QString path = m_training->text().trimmed();
    return algorithm() && !path.isEmpty() && m_previewed == path && m_model->preview().error.isEmpty()
        && m_model->rowCount() > 0 && m_arguments->isComplete();
}

QStringList BuiltInAlgorithmForm::suggestedArgs() const
{
    const BuiltInAlgorithm* a = algorithm();
    const CsvPreview& p = m_model->preview();
    if (!a || p.columns.isEmpty() || !p.error.isEmpty())
        return {};
    const bool classification = p.looksLikeClassification();
    if (a->module.endsWith(QLatin1String(".xgboost"))) {
        if (!classification)
            return { QStringLiteral("--objective=reg:squarederror") };
        return { p.columns.first().distinct <= 2 ? QStringLiteral("--objective=binary:logistic")
                                                 : QStringLiteral("--objective=multi:softprob") };
    }
    return { classification ? QStringLiteral("--model_type=classification")
                            : QStringLiteral("--model_type=regression") };
}

void BuiltInAlgorithmForm::applySuggestion()
{
    // The objective or model type the table implies, in the form while the user has not chosen one.
    for (const QString& arg : suggestedArgs()) {
        const QString name = arg.mid(2).section(QLatin1Char('='), 0, 0);
        m_arguments->suggest(name, arg.section(QLatin1Char('='), 1));
    }
}

void BuiltInAlgorithmForm::onTrainingChanged()
{
    m_model->clear();
    m_previewed.clear();
    m_summary->clear();
    m_problems->clear();
    m_problems->hide();
    if (!m_training->text().trimmed().isEmpty())
        m_debounce.start();
    Q_EMIT changed();
}

void BuiltInAlgorithmForm::runPreview()
{
    const QString path = m_training->text().trimmed();
    if (path.isEmpty())
        return;
    if (m_process) {
        // One at a time: the one running is of an older path; its end starts the next.
        m_debounce.start();
        return;
    }
    const QString package = BuiltInAlgorithms::packageDir();
    if (package.isEmpty()) {
        CsvPreview p;
        p.path = path;
        p.error = tr("The built-in algorithms package is not installed (trainyard/algorithms in the data folders), "
                     "so the table cannot be previewed.");
        showPreview(p);
        return;
    }
    if (!QFileInfo(path).isFile()) {
        CsvPreview p;
        p.path = path;
        p.error = tr("%1 is not a file.").arg(path);
        showPreview(p);
        return;
    }
    m_running = path;
    m_stderr.clear();
    //: %1 is a file name, %2 its size (e.g. "12.5 MiB").
    m_summary->setText(tr("Reading %1 (%2): every row, to count the classes and the missing values…")
                           .arg(QFileInfo(path).fileName(), QLocale().formattedDataSize(QFileInfo(path).size())));
    m_progress->setValue(0);
    m_progress->show();
    auto* process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        // "progress N" lines move the bar; anything else is kept for the error message.
        process->setReadChannel(QProcess::StandardError);
        while (process->canReadLine()) {
            const QByteArray line = process->readLine();
            if (line.startsWith("progress "))
                m_progress->setValue(line.mid(9).trimmed().toInt());
            else
                m_stderr += line;
        }
        process->setReadChannel(QProcess::StandardOutput);
    });
    connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
        process->deleteLater();
        m_process.clear();
        m_progress->hide();
        process->setReadChannel(QProcess::StandardError);
        for (const QByteArray& line : process->readAll().split('\n')) {
            if (!line.startsWith("progress "))
                m_stderr += line + '\n';
        }
        process->setReadChannel(QProcess::StandardOutput);
        const QString path = m_running;
        m_running.clear();
        if (path != m_training->text().trimmed()) {
            // The path changed meanwhile: preview the new one.
            if (!m_training->text().trimmed().isEmpty())
                m_debounce.start();
            return;
        }
        const QJsonDocument doc = QJsonDocument::fromJson(process->readAllStandardOutput());
        CsvPreview p;
        if (status == QProcess::NormalExit && code == 0 && doc.isObject()) {
            p = CsvPreview::fromJson(doc.object());
        } else {
            // trainyard_algorithms says what is missing as "ERROR: …" (e.g. the apt line for pandas).
            const QStringList lines = QString::fromUtf8(m_stderr).trimmed().split(QLatin1Char('\n'));
            p.path = path;
            p.error = tr("The preview failed: %1").arg(lines.isEmpty() ? tr("no output") : lines.last());
        }
        showPreview(p);
    });
    connect(process, &QProcess::errorOccurred, this, [process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            Q_EMIT process->finished(127, QProcess::CrashExit);
    });
    process->start(interpreter(),
        { QStringLiteral("-c"), QString::fromLatin1(PreviewScript), package, path, QString::number(PreviewRows) });
    Q_EMIT changed();
}

QString BuiltInAlgorithmForm::taskRule(const CsvPreview& preview)
{
    // The package's target rule (preprocess.target_task) in the console's words; the objective it proposes is
    // only a proposal, so say how to train the other task.
    const int k = preview.columns.isEmpty() ? 0 : preview.columns.first().distinct;
    QString why;
    if (preview.taskRule == QLatin1String("text"))
        why = tr("Classification because the target holds text.");
    else if (preview.taskRule == QLatin1String("fractional"))
        why = tr("Regression because the target has fractional values.");
    else if (preview.taskRule == QLatin1String("many_integers"))
        //: %1 is the distinct integer count; 20 is the rule's limit.
        why = tr("Regression because the target has %1 distinct integers (more than 20 reads as a quantity).")
                  .arg(k);
    else if (preview.taskRule == QLatin1String("thin_integers"))
        why = tr("Regression because the target's %1 distinct integers are more than 10 and more than 5 % of the "
                 "rows (too few rows per value to be classes).")
                  .arg(k);
    else if (preview.taskRule == QLatin1String("few_integers"))
        why = tr("Classification because the target has %1 distinct integers (at most 20 read as classes).").arg(k);
    if (why.isEmpty())
        return {};
    return why + QLatin1Char(' ')
        + tr("To train the other task, change the objective (XGBoost) or the model type under Algorithm arguments.");
}

void BuiltInAlgorithmForm::showPreview(const CsvPreview& preview)
{
    m_previewed = preview.path;
    m_model->setPreview(preview);
    m_view->resizeColumnsToContents();
    if (!preview.error.isEmpty()) {
        m_summary->clear();
        //: %1 is the reason, naming the file, line and column where it can.
        m_problems->setText(tr("This table cannot be trained on: %1").arg(preview.error));
        m_problems->show();
        Q_EMIT changed();
        return;
    }
    int numeric = 0, categorical = 0, dropped = 0;
    for (const CsvColumnInfo& c : preview.columns) {
        if (c.index == 0)
            continue;
        numeric += c.type == QLatin1String("numeric") ? 1 : 0;
        categorical += c.type == QLatin1String("categorical") ? 1 : 0;
        dropped += c.type == QLatin1String("key") || c.type == QLatin1String("constant") ? 1 : 0;
    }
    QString target;
    if (!preview.columns.isEmpty()) {
        const CsvColumnInfo& t = preview.columns.first();
        if (preview.looksLikeClassification()) {
            QStringList classes = preview.classes();
            if (classes.size() > 6)
                classes = classes.mid(0, 6) << QStringLiteral("…");
            //: %1 lists the first classes, e.g. "benign, malignant".
            target = tr("target: %n class(es) (%1): classification", nullptr, t.distinct)
                         .arg(classes.join(QStringLiteral(", ")));
        } else if (t.min && t.max) {
            //: %1 and %2 are the smallest and largest target values in the file.
            target = tr("target: numbers from %1 to %2: regression")
                         .arg(QLocale().toString(*t.min), QLocale().toString(*t.max));
        }
    }
    //: %1 says what the target is; then the counts of feature columns by type. %n counts the file's rows.
    m_summary->setText(tr("%n row(s), the first %1 shown; %2; features: %3 numeric, %4 categorical, %5 dropped (key "
                          "or constant).",
        nullptr, int(preview.totalRows))
                           .arg(preview.rows.size())
                           .arg(target)
                           .arg(numeric)
                           .arg(categorical)
                           .arg(dropped)
        + QLatin1Char(' ') + taskRule(preview));
    // The warnings in the console's words (preview() says them in English for its own log).
    QStringList warnings;
    for (const QString& w : preview.warnings) {
        if (w.contains(QLatin1String("header row")))
            warnings << tr("Line 1 looks like a header row (text above numbers): remove it; the service's tables "
                           "have none, and it would be trained on as data.");
    }
    for (const CsvColumnInfo& c : preview.columns) {
        if (c.index > 0 && c.missing > 0)
            //: %1 is a 1-based column number; %n the missing cells; %2 the file's rows.
            warnings << tr("Column %1: %n of %2 values missing", nullptr, c.missing)
                            .arg(c.index + 1)
                            .arg(QLocale().toString(preview.totalRows));
    }
    m_problems->setText(warnings.join(QLatin1Char('\n')));
    m_problems->setVisible(!warnings.isEmpty());
    applySuggestion();
    Q_EMIT changed();
}

} // namespace Trainyard
