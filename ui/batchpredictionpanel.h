// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace Trainyard {

/// The Predictions tab of a batch prediction job (predictionInput, issue 30): its progress (instances done of the
/// input's, from predictionOutput as the executor stores it every 2 s), its counts and node hours, what it reads
/// (the model, the input paths and format), and its output folder: the service's prediction.results-NNNNN-of-NNNNN
/// and prediction.errors_stats-… files with their sizes, the selected one's first lines previewed (JSON
/// highlighted). The files are read from this machine's disk (the console beside its executor); a folder that is not
/// here says so.
class BatchPredictionPanel : public QWidget {
    Q_OBJECT
public:
    explicit BatchPredictionPanel(const Job& job, QWidget* parent = nullptr);

    /// The job changed: progress, counts and the output files again.
    void setJob(const Job& job);

    QProgressBar* progressBar() const { return m_progress; }
    QLabel* countsLabel() const { return m_counts; }
    QTreeWidget* filesView() const { return m_files; }
    QPlainTextEdit* preview() const { return m_preview; }

    /// "1,200 predictions, 2 errors of 1,202 instances": the counts as the panel says them (empty before any).
    static QString countsText(const PredictionOutput& output);

private:
    void refreshFiles();
    void showPreview();

    Job m_job;
    QProgressBar* m_progress;
    QLabel* m_counts;
    QLabel* m_source;
    QLabel* m_folder;
    QPushButton* m_open;
    QTreeWidget* m_files;
    QPlainTextEdit* m_preview;
};

} // namespace Trainyard
