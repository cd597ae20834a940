// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "wizardpage.h"

namespace Trainyard {

/// 5. Hyperparameter tuning (issue 13): off by default; when on, the job's `hyperparameters` (goal, metric tag,
/// algorithm, trial limits, early stopping, a previous study to resume, and the parameter table). The
/// service's HyperparameterSpec and ParameterSpec rules (JobValidation, models/jobvalidation.cpp) are checked
/// as the user types: a violation marks its cell or field (red, with the rule as tooltip) and is listed under
/// the table; Next is disabled while there is one. Below the table the page says how many grid points the
/// space has and shows trial 1's command line (TuningPreview, models/tuningpreview.h).
///
/// Table columns: name, type, min, max, values (comma-separated, for DISCRETE and CATEGORICAL) and scale. The
/// type and scale cells hold the API's enum name in Qt::UserRole and a readable label as their text; cells
/// that do not apply to a row's type are not editable. Numbers are read in the C locale (a dot for decimals),
/// as the API writes them, because a comma separates values.
class WizardTuningPage final : public WizardPage {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, MinColumn, MaxColumn, ValuesColumn, ScaleColumn, ColumnCount };

    explicit WizardTuningPage(SubmitWizard* wizard);
    void load(const Job& job) override;
    void apply(Job& job) const override;
    QWidget* showFieldError(const QString& field, const QString& message) override;
    void clearFieldErrors() override;
    bool isComplete() const override;
    void initializePage() override;

    QGroupBox* tuningBox() const { return m_box; }
    QComboBox* goalBox() const { return m_goal; }
    QLineEdit* metricTagEdit() const { return m_metricTag; }
    QComboBox* algorithmBox() const { return m_algorithm; }
    QSpinBox* maxTrialsBox() const { return m_maxTrials; }
    QSpinBox* maxParallelTrialsBox() const { return m_maxParallel; }
    QSpinBox* maxFailedTrialsBox() const { return m_maxFailed; }
    QCheckBox* earlyStoppingBox() const { return m_earlyStopping; }
    QComboBox* resumeBox() const { return m_resume; }
    QTableWidget* parameterTable() const { return m_params; }
    QPushButton* addParameterButton() const { return m_addParam; }
    QPushButton* removeParameterButton() const { return m_removeParam; }
    /// The violations of the spec as typed, one per line.
    QLabel* problemsLabel() const { return m_problems; }
    QLabel* gridLabel() const { return m_grid; }
    QLabel* trialCommandLabel() const { return m_command; }

    /// Whether "Tune hyperparameters" is on.
    bool tuningEnabled() const;
    /// The spec as the page holds it: the loaded spec with each field the user changed replaced (a new spec
    /// takes every field from the widgets). Meaningful only while tuning is on.
    HyperparameterSpec spec() const;
    /// The violations of spec() under trainingInput.hyperparameters (JobValidation's, plus numbers that do not
    /// parse), as shown.
    const FieldViolations& violations() const { return m_violations; }
    /// Appends a parameter row (type DOUBLE, linear scale) and starts editing its name.
    void addParameter();

private:
    /// What the widgets showed right after load(), to tell which fields the user changed.
    struct Shown {
        bool enabled = false;
        QString goal;
        QString metricTag;
        QString algorithm;
        int maxTrials = 0;
        int maxParallel = 0;
        int maxFailed = 0;
        bool earlyStopping = false;
        QString resume;
        QList<ParameterSpec> params;
        bool operator==(const Shown&) const = default;
    };
    Shown shown() const;
    void addRow(const ParameterSpec& p);
    /// The table's parameters; numbers that do not parse become violations in `parseProblems`.
    QList<ParameterSpec> tableParameters(FieldViolations* parseProblems) const;
    void updateRowFlags(int row);
    void fillResumeJobs();
    /// Re-checks the spec, marks cells and fields, and refreshes the grid and trial-1 texts.
    void revalidate();
    void updatePreview(const HyperparameterSpec& spec);
    void markField(QWidget* widget, const QStringList& messages);
    /// The cell a field path under params[i] names, or {-1, -1}.
    static std::pair<int, int> cellFor(const QString& field);

    QGroupBox* m_box;
    QComboBox* m_goal;
    QLineEdit* m_metricTag;
    QComboBox* m_algorithm;
    QSpinBox* m_maxTrials;
    QSpinBox* m_maxParallel;
    QSpinBox* m_maxFailed;
    QCheckBox* m_earlyStopping;
    QComboBox* m_resume;
    QTableWidget* m_params;
    QPushButton* m_addParam;
    QPushButton* m_removeParam;
    QLabel* m_problems;
    QLabel* m_grid;
    QLabel* m_command;
    QLabel* m_commandNote;
    std::optional<HyperparameterSpec> m_loadedSpec;
    Shown m_shown;
    QString m_loadedResume; ///< kept in the resume list even when the executor does not list it
    FieldViolations m_violations;
    FieldViolations m_serverViolations;
    bool m_loading = false;
};

} // namespace Trainyard
