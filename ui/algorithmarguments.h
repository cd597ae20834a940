// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

class QFormLayout;
class QLabel;

namespace Trainyard {

struct BuiltInAlgorithm;

/// One argument of a built-in algorithm as the wizard's form offers it. Names, defaults, ranges and choices are the
/// service's reference pages' (algorithms/reference/xgboost, linear-learner, wide-and-deep), as the bundled package
/// takes them (resources/algorithms/README.md §2); tst_wizardbuiltin compares this table with the package's parser.
struct AlgorithmArgument {
    enum Kind { Integer, Real, Choice, Flag, Text };
    QString name; ///< without the dashes: "max_depth"
    Kind kind = Text;
    QString defaultValue; ///< as the parser prints it ("6", "0.3", "auto"); empty: none (the algorithm decides)
    QStringList choices; ///< Choice: the values accepted
    std::optional<double> min, max; ///< Integer, Real: the accepted range
    bool minOpen = false, maxOpen = false; ///< an open end of the range
    bool required = false; ///< the job fails without it (model_type)
    QString help; ///< translated: what it does, for What's This? and the tooltip

    /// Why `text` is not a value of this argument ("" when it is, or when it is empty: the default).
    QString problem(const QString& text) const;
};

/// The arguments the form shows for `algorithm`, in the order of its reference page; the others are typed in the
/// page's free argument box.
QList<AlgorithmArgument> algorithmArguments(const BuiltInAlgorithm& algorithm);

/// The form itself: a field per argument, its default as the placeholder (an empty field, or a choice left at
/// "Default", is not passed: the algorithm's default applies, as on the service); What's This? and the tooltip
/// say what it does and its default. args() is `--name=value` for every field set, `--name` for a ticked flag.
class AlgorithmArgumentsForm : public QWidget {
    Q_OBJECT
public:
    explicit AlgorithmArgumentsForm(QWidget* parent = nullptr);

    /// Rebuilds the fields for `algorithm`, keeping the values of the arguments it shares with the last one.
    void setAlgorithm(const BuiltInAlgorithm& algorithm);
    /// The arguments set, in the form's order.
    QStringList args() const;
    /// Takes the form's arguments out of `args` (`--name=value`, `--name value`, a bare flag) into the fields;
    /// returns what is left, in order.
    QStringList load(const QStringList& args);
    /// Sets `name` (a Choice or a field) unless the user has set it: for what the CSV preview implies.
    void suggest(const QString& name, const QString& value);
    /// The value of `name` as the job will get it ("" when left at its default).
    QString value(const QString& name) const;
    /// Sets `name` as a user would (for tests and load()).
    void setValue(const QString& name, const QString& value);
    /// The field of `name`, or nullptr.
    QWidget* field(const QString& name) const;
    /// Every field's problem, one per line (empty when the form is valid).
    QString problems() const;
    bool isComplete() const;

Q_SIGNALS:
    void changed();

private:
    void rebuild();
    void onEdited(const QString& name);

    QList<AlgorithmArgument> m_arguments;
    QMap<QString, QWidget*> m_fields;
    QMap<QString, QString> m_values; ///< what each field holds, kept across algorithms
    QStringList m_userSet; ///< fields the user changed (a suggestion no longer replaces them)
    QFormLayout* m_form;
    QLabel* m_problems;
    bool m_filling = false;
};

} // namespace Trainyard
