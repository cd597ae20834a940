// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The Trials tab's parallel-coordinates plot (TensorBoard HParams' and Vizier's): one vertical axis per
// hyperparameter of a TrialsModel (in the spec's params order) and the objective's axis last; each trial is a
// polyline through its values, coloured by its objective on the viridis colour map (the objective's axis is
// drawn as that colour bar, so it doubles as the legend). Trials that have reported no objective yet are
// grey dashed lines.
//
// Axes follow the parameter's spec: DOUBLE and INTEGER span [minValue, maxValue] on the spec's scale
// (UNIT_LOG_SCALE: log10; UNIT_REVERSE_LOG_SCALE: the service's reverse log, fine near the maximum;
// otherwise linear), DISCRETE spans its values, CATEGORICAL spaces its categories evenly (value = the
// category's index). The objective's axis spans the objectives reported so far.
//
// Filtering: a drag along an axis brushes an interval of it (brushes on several axes are AND-ed), a click
// on an axis clears its brush, Escape clears every brush; "top k %" keeps the best k % of the trials that
// have an objective (by the goal). passingTrialsChanged() carries the trials that pass both. Hovering a line
// shows the trial's values in a tooltip; clicking one emits trialClicked().
//
// Coordinates: widget pixels (logical), y down. axisX() and valueToY() are public so that tests (and a
// future keyboard brush) can compute where an axis value is drawn.

#include "trialsmodel.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <optional>

namespace Trainyard {

class ParallelCoordinates : public QWidget {
    Q_OBJECT
public:
    enum class Scale { Linear, Log, ReverseLog, Categorical };
    Q_ENUM(Scale)

    explicit ParallelCoordinates(QWidget* parent = nullptr);
    ~ParallelCoordinates() override;

    /// The trials to draw; the widget follows the model's changes (redraws coalesced to one per 40 ms).
    void setModel(TrialsModel* model);
    TrialsModel* model() const { return m_model; }

    /// Parameters plus the objective; 0 while the model has no parameters.
    int axisCount() const { return int(m_axes.size()); }
    /// The objective's axis (the last), -1 when there is none.
    int objectiveAxis() const { return m_axes.isEmpty() ? -1 : int(m_axes.size()) - 1; }
    QString axisName(int axis) const;
    Scale axisScale(int axis) const;
    /// The axis' value range: [min, max] in the parameter's unit; a categorical axis' is [0, categories - 1].
    std::pair<double, double> axisRange(int axis) const;
    /// A categorical axis' categories, in the spec's order.
    QStringList axisCategories(int axis) const;

    /// x of an axis' line, in widget pixels.
    double axisX(int axis) const;
    /// y of the highest and lowest value of every axis (the plot's top and bottom).
    double plotTop() const;
    double plotBottom() const;
    /// y of `value` on an axis (a category's index on a categorical axis); values outside the axis' range
    /// are clamped to its ends.
    double valueToY(int axis, double value) const;
    /// The value drawn at `y` on an axis (inverse of valueToY(), clamped to the axis).
    double yToValue(int axis, double y) const;
    /// A trial's value on an axis (model row), nullopt when it has none.
    std::optional<double> trialValue(int row, int axis) const;

    /// The brushed interval [low, high] of an axis in its values, nullopt when it has no brush.
    std::optional<std::pair<double, double>> brush(int axis) const;
    void setBrush(int axis, double from, double to);
    void clearBrush(int axis);
    void clearBrushes();
    /// Keeps only the best `percent` % of the trials that have an objective (rounded up, at least one);
    /// 100 turns the filter off.
    void setTopPercent(int percent);
    int topPercent() const { return m_topPercent; }
    /// True while a brush or the top-k % filter is set.
    bool isFiltering() const;
    /// The trial IDs that pass the brushes and the top-k % filter (every trial when not filtering), in the
    /// model's row order.
    QStringList passingTrials() const;

    /// Trials drawn emphasised (the table's selection).
    void setHighlightedTrials(const QStringList& trialIds);
    /// The trial whose line passes nearest to `pos` (within a few pixels), or "".
    QString trialAt(const QPointF& pos) const;
    /// The hover tooltip of a trial (HTML): its state, every parameter value and its objective.
    QString tooltipText(const QString& trialId) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /// The viridis colour map at t in [0, 1] (matplotlib's, perceptually uniform; readable in grey).
    static QColor viridis(double t);

Q_SIGNALS:
    /// The trials that pass the filters changed, or filtering was turned on or off (see isFiltering()).
    void passingTrialsChanged(const QStringList& trialIds);
    void trialClicked(const QString& trialId);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Axis {
        QString name;
        QString subtitle; ///< "log", "↑ maximize", …
        Scale scale = Scale::Linear;
        double min = 0;
        double max = 1;
        QStringList categories;
        QList<double> ticks; ///< values to label (besides the ends)
        bool objective = false;
    };

    void modelReset();
    void scheduleRefresh();
    void refresh();
    void rebuildAxes();
    void updatePassing();
    double toUnit(const Axis& axis, double value) const;
    double fromUnit(const Axis& axis, double t) const;
    int axisAt(const QPointF& pos) const;
    double leftMargin() const;
    double rightMargin() const;
    std::pair<double, double> objectiveRange() const;

    QPointer<TrialsModel> m_model;
    QList<Axis> m_axes;
    QHash<int, std::pair<double, double>> m_brushes;
    int m_topPercent = 100;
    bool m_filtering = false;
    QSet<QString> m_passing;
    QStringList m_highlighted;
    QString m_hovered;
    QTimer m_refresh;

    int m_dragAxis = -1;
    double m_dragFrom = 0;
    bool m_dragMoved = false;
    QPointF m_pressPos;
};

} // namespace Trainyard
