// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "algorithmarguments.h"
#include "csvpreviewmodel.h"

#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProcess;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;

namespace Trainyard {

struct BuiltInAlgorithm;
struct TrainingInput;

/// The submit wizard's built-in algorithm choice (issue 29): which of the service's algorithm images the job names,
/// the training table (and optional validation and test tables), --preprocess, and a preview of the training table
/// as preprocessing will read it — its first rows, each column's detected type, the target's classes or range,
/// warnings and a fatal error — before anything is submitted.
///
/// The preview runs `trainyard_algorithms.preprocess.preview()` of the bundled package (the same rule the training
/// run applies) in /usr/bin/python3, off the GUI thread; a change of the path restarts it after a short pause.
/// The data arguments it produces are the service's (`--training_data_path=…` …), put in front of the algorithm's
/// own arguments, which the page's argument box holds.
class BuiltInAlgorithmForm : public QWidget {
    Q_OBJECT
public:
    explicit BuiltInAlgorithmForm(QWidget* parent = nullptr);
    ~BuiltInAlgorithmForm() override;

    /// The chosen algorithm's image URI (masterConfig.imageUri).
    QString imageUri() const;
    const BuiltInAlgorithm* algorithm() const;
    /// `[--preprocess] --training_data_path=… [--validation_data_path=…] [--test_data_path=…]`, then the arguments
    /// form's (`--objective=…`, `--max_depth=…`: only those set).
    QStringList dataArgs() const;
    /// Shows `input`'s algorithm, data arguments and the arguments the form knows; returns the other arguments.
    QStringList load(const TrainingInput& input);
    /// An algorithm, a readable training table whose preview found no fatal error, and valid arguments.
    bool isComplete() const;
    /// What the preview suggests: the objective (XGBoost) or model type (linear learner, wide and deep) the target
    /// implies, as `--name=value`. Empty until a preview has arrived.
    QStringList suggestedArgs() const;
    /// The algorithm's arguments as a form (its own tab beside the preview).
    AlgorithmArgumentsForm* argumentsForm() const { return m_arguments; }
    QTabWidget* tabs() const { return m_tabs; }

    QComboBox* algorithmBox() const { return m_algorithm; }
    QLineEdit* trainingEdit() const { return m_training; }
    QLineEdit* validationEdit() const { return m_validation; }
    QLineEdit* testEdit() const { return m_test; }
    QCheckBox* preprocessBox() const { return m_preprocess; }
    QTableView* previewView() const { return m_view; }
    CsvPreviewModel* previewModel() const { return m_model; }
    /// The target and column summary ("569 rows previewed; target: 2 classes …").
    QLabel* summaryLabel() const { return m_summary; }
    /// Warnings and the fatal error of the training table.
    QLabel* problemsLabel() const { return m_problems; }
    /// The preview's progress while it reads the file (hidden otherwise): percent of the file checked and parsed.
    QProgressBar* progressBar() const { return m_progress; }
    /// True while a preview runs or waits to run.
    bool previewPending() const;

Q_SIGNALS:
    /// The choice, a path or the preview changed: the page's completeness and suggestions may have.
    void changed();

private:
    void onAlgorithmChanged();
    void onTrainingChanged();
    void runPreview();
    void showPreview(const CsvPreview& preview);
    static QString describe(const BuiltInAlgorithm& algorithm);
    /// Why the preview reads the target as classes or a quantity, and how to choose the other task.
    static QString taskRule(const CsvPreview& preview);

    QComboBox* m_algorithm;
    QLabel* m_description;
    QLineEdit* m_training;
    QLineEdit* m_validation;
    QLineEdit* m_test;
    QCheckBox* m_preprocess;
    void applySuggestion();

    QTabWidget* m_tabs;
    AlgorithmArgumentsForm* m_arguments;
    QTableView* m_view;
    CsvPreviewModel* m_model;
    QLabel* m_summary;
    QLabel* m_problems;
    QProgressBar* m_progress;
    QTimer m_debounce;
    QPointer<QProcess> m_process;
    QString m_previewed; ///< the path the shown preview is of
    QString m_running; ///< the path the running preview reads
    QByteArray m_stderr; ///< the running preview's standard error, less its progress lines
};

} // namespace Trainyard
