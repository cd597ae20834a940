// SPDX-License-Identifier: GPL-2.0-or-later
#include "algorithmarguments.h"

#include "builtinalgorithm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include <cmath>

namespace Trainyard {

namespace {

AlgorithmArgument integer(const char* name, const char* def, std::optional<double> min, const QString& help)
{
    AlgorithmArgument a;
    a.name = QLatin1String(name);
    a.kind = AlgorithmArgument::Integer;
    a.defaultValue = QLatin1String(def);
    a.min = min;
    a.help = help;
    return a;
}

AlgorithmArgument real(const char* name, const char* def, std::optional<double> min, std::optional<double> max,
    bool minOpen, bool maxOpen, const QString& help)
{
    AlgorithmArgument a;
    a.name = QLatin1String(name);
    a.kind = AlgorithmArgument::Real;
    a.defaultValue = QLatin1String(def);
    a.min = min;
    a.max = max;
    a.minOpen = minOpen;
    a.maxOpen = maxOpen;
    a.help = help;
    return a;
}

AlgorithmArgument choice(const char* name, const char* def, const QStringList& choices, const QString& help)
{
    AlgorithmArgument a;
    a.name = QLatin1String(name);
    a.kind = AlgorithmArgument::Choice;
    a.defaultValue = QLatin1String(def);
    a.choices = choices;
    a.help = help;
    return a;
}

AlgorithmArgument flag(const char* name, const QString& help)
{
    AlgorithmArgument a;
    a.name = QLatin1String(name);
    a.kind = AlgorithmArgument::Flag;
    a.defaultValue = QStringLiteral("False");
    a.help = help;
    return a;
}

AlgorithmArgument text(const char* name, const char* def, const QString& help)
{
    AlgorithmArgument a;
    a.name = QLatin1String(name);
    a.kind = AlgorithmArgument::Text;
    a.defaultValue = QLatin1String(def);
    a.help = help;
    return a;
}

/// The linear learner's and wide and deep's training arguments (the estimators' common part).
QList<AlgorithmArgument> estimatorArguments()
{
    AlgorithmArgument modelType
        = choice("model_type", "", { QStringLiteral("classification"), QStringLiteral("regression") },
            AlgorithmArgumentsForm::tr(
                "Required: classification (the target is classes) or regression (the target is a quantity)."));
    modelType.required = true;
    return {
        modelType,
        integer("max_steps", "", 1, AlgorithmArgumentsForm::tr("Training steps, each one batch.")),
        integer("batch_size", "100", 1, AlgorithmArgumentsForm::tr("Rows per training step.")),
        real("learning_rate", "", 0, std::nullopt, true, false,
            AlgorithmArgumentsForm::tr("The optimiser's step size.")),
        choice("optimizer_type", "ftrl", { QStringLiteral("ftrl"), QStringLiteral("adam"), QStringLiteral("sgd") },
            AlgorithmArgumentsForm::tr("The optimiser: FTRL (the service's default), Adam or plain gradient descent.")),
        real("l1_regularization_strength", "0.0", 0, std::nullopt, false, false,
            AlgorithmArgumentsForm::tr("L1 regularisation (FTRL): drives weights to exactly zero.")),
        real("l2_regularization_strength", "0.0", 0, std::nullopt, false, false,
            AlgorithmArgumentsForm::tr("L2 regularisation (FTRL).")),
        integer("eval_frequency_secs", "600", 1,
            AlgorithmArgumentsForm::tr(
                "Seconds of training between evaluations on the validation split (and at the end).")),
    };
}

QString argumentNumber(double v)
{
    return QString::number(v, 'g', 10);
}

} // namespace

QString AlgorithmArgument::problem(const QString& value) const
{
    const QString v = value.trimmed();
    if (v.isEmpty())
        return required ? AlgorithmArgumentsForm::tr("--%1 is required.").arg(name) : QString();
    if (kind == Choice && !choices.contains(v))
        //: %1 the argument, %2 the value, %3 the accepted values.
        return AlgorithmArgumentsForm::tr("--%1: %2 is not one of %3.")
            .arg(name, v, choices.join(QStringLiteral(", ")));
    if (kind != Integer && kind != Real)
        return {};
    bool ok = false;
    const double x = kind == Integer ? double(v.toLongLong(&ok)) : v.toDouble(&ok);
    if (!ok || !std::isfinite(x))
        //: %1 the argument, %2 the value.
        return kind == Integer ? AlgorithmArgumentsForm::tr("--%1: %2 is not a whole number.").arg(name, v)
                               : AlgorithmArgumentsForm::tr("--%1: %2 is not a number.").arg(name, v);
    const bool low = min && (minOpen ? x <= *min : x < *min);
    const bool high = max && (maxOpen ? x >= *max : x > *max);
    if (low || high) {
        const QString range = QStringLiteral("%1%2, %3%4")
                                  .arg(minOpen ? QStringLiteral("(") : QStringLiteral("["),
                                      min ? argumentNumber(*min) : QStringLiteral("−∞"),
                                      max ? argumentNumber(*max) : QStringLiteral("∞"),
                                      maxOpen || !max ? QStringLiteral(")") : QStringLiteral("]"));
        //: %1 the argument, %2 the value, %3 the range, e.g. [0, 1].
        return AlgorithmArgumentsForm::tr("--%1: %2 is outside %3.").arg(name, v, range);
    }
    return {};
}

QList<AlgorithmArgument> algorithmArguments(const BuiltInAlgorithm& algorithm)
{
    if (algorithm.module.endsWith(QLatin1String(".xgboost"))) {
        // XGBoost 0.81's defaults, as the service's reference page gives them.
        const QStringList objectives { QStringLiteral("binary:logistic"), QStringLiteral("multi:softprob"),
            QStringLiteral("multi:softmax"), QStringLiteral("reg:linear"), QStringLiteral("reg:squarederror"),
            QStringLiteral("reg:logistic"), QStringLiteral("reg:gamma"), QStringLiteral("reg:tweedie"),
            QStringLiteral("count:poisson"), QStringLiteral("binary:logitraw"), QStringLiteral("binary:hinge"),
            QStringLiteral("rank:pairwise"), QStringLiteral("rank:ndcg"), QStringLiteral("rank:map") };
        return {
            choice("objective", "reg:linear", objectives,
                AlgorithmArgumentsForm::tr("The learning task: binary:logistic for two classes, multi:softprob for "
                                           "several, reg:linear (squared "
                                           "error) for a quantity.")),
            integer("num_boost_round", "100", 1, AlgorithmArgumentsForm::tr("Boosting rounds: the number of trees.")),
            integer("max_depth", "6", 0,
                AlgorithmArgumentsForm::tr("The deepest a tree grows; deeper trees fit more and overfit sooner.")),
            real("eta", "0.1", 0, 1, false, false,
                AlgorithmArgumentsForm::tr("The learning rate: how much each tree's prediction counts.")),
            real("subsample", "1.0", 0, 1, true, false,
                AlgorithmArgumentsForm::tr("The share of rows each tree is grown on.")),
            real("colsample_bytree", "1.0", 0, 1, true, false,
                AlgorithmArgumentsForm::tr("The share of columns each tree may split on.")),
            real("lambda", "1.0", 0, std::nullopt, false, false,
                AlgorithmArgumentsForm::tr("L2 regularisation of the leaf weights.")),
            real("alpha", "0.0", 0, std::nullopt, false, false,
                AlgorithmArgumentsForm::tr("L1 regularisation of the leaf weights.")),
            real("gamma", "0.0", 0, std::nullopt, false, false,
                AlgorithmArgumentsForm::tr("The smallest loss reduction a split must bring.")),
            real("min_child_weight", "1.0", 0, std::nullopt, false, false,
                AlgorithmArgumentsForm::tr("The smallest sum of instance weights (Hessians) a leaf may hold.")),
            choice("tree_method", "auto",
                { QStringLiteral("auto"), QStringLiteral("exact"), QStringLiteral("approx"), QStringLiteral("hist"),
                    QStringLiteral("gpu_hist"), QStringLiteral("gpu_exact") },
                AlgorithmArgumentsForm::tr(
                    "How splits are found: hist is fast on large tables; gpu_hist trains on the job's GPU.")),
            text("eval_metric", "",
                AlgorithmArgumentsForm::tr(
                    "XGBoost's evaluation metrics, comma-separated (default: the objective's).")),
        };
    }
    QList<AlgorithmArgument> list = estimatorArguments();
    if (algorithm.module.endsWith(QLatin1String(".wide_deep"))) {
        list << text("hidden_units", "30,30,30",
            AlgorithmArgumentsForm::tr("The deep part's hidden layer sizes, comma-separated."))
             << flag("use_wide",
                    AlgorithmArgumentsForm::tr("Use the categorical columns in the wide (linear) part as well."))
             << flag("embed_categories",
                    AlgorithmArgumentsForm::tr(
                        "Embed the categorical columns in the deep part (dimension: the square root of the number of "
                        "categories) instead of one-hot encoding them."))
             << real("dnn_learning_rate", "", 0, std::nullopt, true, false,
                    AlgorithmArgumentsForm::tr("The deep part's step size."))
             << choice("dnn_optimizer_type", "ftrl",
                    { QStringLiteral("ftrl"), QStringLiteral("adam"), QStringLiteral("sgd") },
                    AlgorithmArgumentsForm::tr("The deep part's optimiser."))
             << real("dnn_dropout", "0.0", 0, 1, false, true,
                    AlgorithmArgumentsForm::tr("The share of the deep part's units dropped in training."));
    }
    return list;
}

AlgorithmArgumentsForm::AlgorithmArgumentsForm(QWidget* parent)
    : QWidget(parent)
    , m_form(new QFormLayout)
    , m_problems(new QLabel(this))
{
    m_problems->setObjectName(QStringLiteral("argumentProblems"));
    m_problems->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_problems->setWordWrap(true);
    m_problems->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_form->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_form);
    layout->addWidget(m_problems);
}

void AlgorithmArgumentsForm::setAlgorithm(const BuiltInAlgorithm& algorithm)
{
    m_arguments = algorithmArguments(algorithm);
    rebuild();
}

void AlgorithmArgumentsForm::rebuild()
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (const AlgorithmArgument& a : std::as_const(m_arguments)) {
        QWidget* field = nullptr;
        const QString name = a.name;
        //: The tooltip of an argument's field: what it does, then its default.
        const QString tip = a.defaultValue.isEmpty() || a.kind == AlgorithmArgument::Flag
            ? a.help
            : tr("%1 Default: %2.").arg(a.help, a.defaultValue);
        switch (a.kind) {
        case AlgorithmArgument::Choice: {
            auto* box = new QComboBox(this);
            //: The first entry of an argument's list: the algorithm's own default applies.
            box->addItem(a.required ? tr("Choose…") : tr("Default (%1)").arg(a.defaultValue), QString());
            for (const QString& c : a.choices)
                box->addItem(c, c);
            connect(box, &QComboBox::currentIndexChanged, this, [this, name] { onEdited(name); });
            field = box;
            break;
        }
        case AlgorithmArgument::Flag: {
            auto* check = new QCheckBox(this);
            connect(check, &QCheckBox::toggled, this, [this, name] { onEdited(name); });
            field = check;
            break;
        }
        default: {
            auto* edit = new QLineEdit(this);
            edit->setFont(fixed);
            edit->setPlaceholderText(a.defaultValue.isEmpty() ? tr("the algorithm's default") : a.defaultValue);
            connect(edit, &QLineEdit::textChanged, this, [this, name] { onEdited(name); });
            field = edit;
            break;
        }
        }
        field->setObjectName(QStringLiteral("arg_") + name);
        field->setToolTip(tip);
        field->setWhatsThis(QStringLiteral("<b>--%1</b>: %2").arg(name, tip.toHtmlEscaped()));
        auto* label = new QLabel(QStringLiteral("--%1:").arg(name), this);
        label->setFont(fixed);
        label->setToolTip(tip);
        m_form->addRow(label, field);
        m_fields.insert(name, field);
    }
    // The values this algorithm shares with the last one stay.
    m_filling = true;
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it)
        setValue(it.key(), it.value());
    m_filling = false;
    onEdited(QString());
}

void AlgorithmArgumentsForm::onEdited(const QString& name)
{
    if (!name.isEmpty()) {
        m_values.insert(name, value(name));
        if (!m_filling && !m_userSet.contains(name))
            m_userSet << name;
    }
    m_problems->setText(problems());
    m_problems->setVisible(!m_problems->text().isEmpty());
    Q_EMIT changed();
}

QString AlgorithmArgumentsForm::value(const QString& name) const
{
    QWidget* field = m_fields.value(name);
    if (auto* box = qobject_cast<QComboBox*>(field))
        return box->currentData().toString();
    if (auto* check = qobject_cast<QCheckBox*>(field))
        return check->isChecked() ? QStringLiteral("true") : QString();
    if (auto* edit = qobject_cast<QLineEdit*>(field))
        return edit->text().trimmed();
    return {};
}

void AlgorithmArgumentsForm::setValue(const QString& name, const QString& value)
{
    QWidget* field = m_fields.value(name);
    if (auto* box = qobject_cast<QComboBox*>(field)) {
        int index = box->findData(value);
        if (index < 0 && !value.isEmpty()) {
            // A value the list does not know (a config written for the service): kept, and the problem shown.
            box->addItem(value, value);
            index = box->count() - 1;
        }
        box->setCurrentIndex(std::max(0, index));
    } else if (auto* check = qobject_cast<QCheckBox*>(field)) {
        check->setChecked(!value.isEmpty() && value.compare(QLatin1String("false"), Qt::CaseInsensitive) != 0);
    } else if (auto* edit = qobject_cast<QLineEdit*>(field)) {
        edit->setText(value);
    }
}

QWidget* AlgorithmArgumentsForm::field(const QString& name) const
{
    return m_fields.value(name);
}

void AlgorithmArgumentsForm::suggest(const QString& name, const QString& value)
{
    if (m_userSet.contains(name) || !m_fields.contains(name))
        return;
    m_filling = true;
    setValue(name, value);
    m_filling = false;
    onEdited(name);
}

QStringList AlgorithmArgumentsForm::args() const
{
    QStringList list;
    for (const AlgorithmArgument& a : m_arguments) {
        const QString v = value(a.name);
        if (v.isEmpty())
            continue;
        list << (a.kind == AlgorithmArgument::Flag ? QStringLiteral("--") + a.name
                                                   : QStringLiteral("--%1=%2").arg(a.name, v));
    }
    return list;
}

QStringList AlgorithmArgumentsForm::load(const QStringList& args)
{
    QStringList rest;
    m_filling = true;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& word = args.at(i);
        bool taken = false;
        for (const AlgorithmArgument& a : std::as_const(m_arguments)) {
            const QString flagName = QStringLiteral("--") + a.name;
            if (word.startsWith(flagName + QLatin1Char('='))) {
                setValue(a.name, word.mid(flagName.size() + 1));
                taken = true;
            } else if (word == flagName) {
                if (a.kind == AlgorithmArgument::Flag) {
                    setValue(a.name, QStringLiteral("true"));
                } else if (i + 1 < args.size()) {
                    setValue(a.name, args.at(++i));
                }
                taken = true;
            }
            if (taken) {
                m_values.insert(a.name, value(a.name));
                m_userSet << a.name; // a loaded value is the user's
                break;
            }
        }
        if (!taken)
            rest << word;
    }
    m_filling = false;
    onEdited(QString());
    return rest;
}

QString AlgorithmArgumentsForm::problems() const
{
    QStringList list;
    for (const AlgorithmArgument& a : m_arguments) {
        const QString p = a.problem(value(a.name));
        if (!p.isEmpty())
            list << p;
    }
    return list.join(QLatin1Char('\n'));
}

bool AlgorithmArgumentsForm::isComplete() const
{
    return problems().isEmpty();
}

} // namespace Trainyard
