// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "explanation.h"

#include <QImage>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QWidget>

namespace Trainyard {

/// One explained output of one instance (projects.explain's attributions_by_label entry), drawn where people look
/// at predictions (issue 47):
/// - tabular: a waterfall from the baseline score to the instance's score, one bar per feature sorted by |attribution|
///   (the largest MaxBars; the rest summed in one bar), positive and negative in the palette's two signed colours,
///   each feature's value beside its name, and the method, its paths or steps and the approximation error above;
/// - an image (one attribution that is an [H][W] or [H][W][C] / [C][H][W] array): the instance as a grey image with
///   the attributions' magnitude laid over it as a heat map.
class ExplanationView : public QWidget {
    Q_OBJECT
public:
    /// Bars beyond this many are summed into one "N other features" bar.
    static constexpr int MaxBars = 15;

    /// One bar of the waterfall, from `start` to `end` on the score axis (end − start = its attribution).
    struct Bar {
        QString label; ///< "age = 38", "3 other features"
        double start = 0;
        double end = 0;
    };

    explicit ExplanationView(QWidget* parent = nullptr);

    /// Shows `attribution` for the instance `instance` (its JSON, for an image's pixels), titled `title`
    /// ("Instance 1 · output 2").
    void setExplanation(const LabelAttribution& attribution, const QJsonValue& instance, const QString& title);

    /// The waterfall's bars in drawing order (tests): the features' then, when there are more than MaxBars, the rest.
    const QList<Bar>& bars() const { return m_bars; }
    /// Whether an image heat map is shown instead of bars.
    bool showsImage() const { return !m_heat.isNull(); }
    /// The line above the chart: method, paths or steps, scores and approximation error.
    QString caption() const { return m_caption; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void paintWaterfall(QPainter& p, const QRect& area);
    void paintImage(QPainter& p, const QRect& area);

    QString m_title;
    QString m_caption;
    QString m_warning;
    bool m_xrai = false; ///< the heat map is XRAI's top regions
    double m_baseline = 0;
    double m_score = 0;
    QList<Bar> m_bars;
    QImage m_image; ///< the instance as grey levels (image inputs)
    QImage m_heat; ///< |attribution| as an alpha-weighted heat map of the same size
};

} // namespace Trainyard
