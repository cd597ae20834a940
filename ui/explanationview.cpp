// SPDX-License-Identifier: GPL-2.0-or-later
#include "explanationview.h"

#include <QJsonArray>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {

/// `value`'s numbers in row-major order and its shape ([28, 28], [1, 28, 28]); false when it is not a rectangular
/// array of numbers.
bool flatten(const QJsonValue& value, QList<double>* out, QList<int>* shape, int depth = 0)
{
    if (value.isDouble()) {
        out->append(value.toDouble());
        return depth == shape->size();
    }
    if (!value.isArray() || depth > 4)
        return false;
    const QJsonArray a = value.toArray();
    if (depth == shape->size())
        shape->append(int(a.size()));
    else if (shape->at(depth) != a.size())
        return false;
    for (const QJsonValue& v : a) {
        if (!flatten(v, out, shape, depth + 1))
            return false;
    }
    return true;
}

/// (height, width, channels, channels-first) of an image shape: [H, W], [H, W, C], [C, H, W] with C 1 or 3, or a
/// flat square of at least 8 × 8; height 0 when it is none of these.
struct ImageShape {
    int height = 0;
    int width = 0;
    int channels = 1;
    bool channelsFirst = false;
};
ImageShape imageShape(const QList<int>& shape)
{
    ImageShape s;
    if (shape.size() == 1) {
        const int side = int(std::lround(std::sqrt(double(shape[0]))));
        if (side >= 8 && side * side == shape[0])
            s.height = s.width = side;
    } else if (shape.size() == 2) {
        s.height = shape[0];
        s.width = shape[1];
    } else if (shape.size() == 3 && (shape[0] == 1 || shape[0] == 3)) {
        s = { shape[1], shape[2], shape[0], true };
    } else if (shape.size() == 3 && (shape[2] == 1 || shape[2] == 3)) {
        s = { shape[0], shape[1], shape[2], false };
    }
    if (s.height < 2 || s.width < 2)
        s.height = s.width = 0;
    return s;
}

/// Per pixel: the mean over channels of `values` (|values| with `absolute`).
QList<double> perPixel(const QList<double>& values, const ImageShape& s, bool absolute)
{
    QList<double> pixels(qsizetype(s.height) * s.width, 0.0);
    for (int y = 0; y < s.height; ++y) {
        for (int x = 0; x < s.width; ++x) {
            double sum = 0;
            for (int c = 0; c < s.channels; ++c) {
                const qsizetype i = s.channelsFirst ? (qsizetype(c) * s.height + y) * s.width + x
                                                    : (qsizetype(y) * s.width + x) * s.channels + c;
                const double v = values.value(i);
                sum += absolute ? std::abs(v) : v;
            }
            pixels[qsizetype(y) * s.width + x] = sum / s.channels;
        }
    }
    return pixels;
}

QString number(double v)
{
    return QLocale().toString(v, 'g', 4);
}

} // namespace

ExplanationView::ExplanationView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("explanationView"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void ExplanationView::setExplanation(const LabelAttribution& a, const QJsonValue& instance, const QString& title)
{
    m_title = title;
    m_baseline = a.baselineScore;
    m_score = a.exampleScore;
    m_bars.clear();
    m_image = QImage();
    m_heat = QImage();
    m_warning = a.warning;
    m_xrai = a.method == QLatin1String("xrai");
    QString how;
    if (a.method == QLatin1String("sampledShapley"))
        how = tr("Sampled Shapley, %n path(s)", nullptr, a.numPaths);
    else if (a.method == QLatin1String("integratedGradients"))
        how = tr("Integrated gradients, %n step(s)", nullptr, a.numIntegralSteps);
    else if (a.method == QLatin1String("xrai"))
        how = tr("XRAI, %n step(s)", nullptr, a.numIntegralSteps);
    else if (a.method == QLatin1String("exactShapley"))
        how = tr("Exact Shapley values");
    else if (a.method == QLatin1String("treeShap"))
        how = tr("TreeSHAP (margin space)");
    else
        how = a.method;
    m_caption = tr("%1 · score %2 from baseline %3 · approximation error %4")
                    .arg(how, number(a.exampleScore), number(a.baselineScore), number(a.approxError));

    // An image: one attribution that is an array shaped as one.
    if (a.attributions.size() == 1 && a.attributions.first().second.isArray()) {
        QList<double> phi, pixels;
        QList<int> phiShape, pixelShape;
        if (flatten(a.attributions.first().second, &phi, &phiShape)
            && flatten(instance, &pixels, &pixelShape) && phiShape == pixelShape) {
            const ImageShape s = imageShape(phiShape);
            if (s.height > 0) {
                const QList<double> grey = perPixel(pixels, s, false);
                QList<double> heat = perPixel(phi, s, true);
                // XRAI: only its top regions are lit (its saliency ranks regions; the rest is context).
                QList<double> regions;
                QList<int> regionsShape;
                if (a.method == QLatin1String("xrai") && flatten(a.xraiTopRegions, &regions, &regionsShape)
                    && regions.size() == heat.size()) {
                    const QList<double> rank = perPixel(phi, s, false);
                    const double least = *std::min_element(rank.cbegin(), rank.cend());
                    for (qsizetype i = 0; i < heat.size(); ++i)
                        heat[i] = regions[i] > 0 ? rank[i] - least : 0.0;
                }
                const auto [lo, hi] = std::minmax_element(grey.cbegin(), grey.cend());
                const double top = *std::max_element(heat.cbegin(), heat.cend());
                m_image = QImage(s.width, s.height, QImage::Format_Grayscale8);
                m_heat = QImage(s.width, s.height, QImage::Format_ARGB32);
                for (int y = 0; y < s.height; ++y) {
                    for (int x = 0; x < s.width; ++x) {
                        const qsizetype i = qsizetype(y) * s.width + x;
                        const double g = *hi > *lo ? (grey[i] - *lo) / (*hi - *lo) : 0.5;
                        m_image.setPixel(x, y, qRgb(int(g * 255), int(g * 255), int(g * 255)));
                        const double h = top > 0 ? heat[i] / top : 0;
                        // Warm colours for the pixels that moved the score most, transparent for the rest.
                        m_heat.setPixel(x, y, qRgba(255, int(200 * (1 - h)), 0, int(210 * h)));
                    }
                }
                updateGeometry();
                update();
                return;
            }
        }
    }

    // A waterfall: the largest |attributions| first, the rest summed in one bar.
    QList<std::pair<QString, double>> items;
    for (const auto& [name, value] : a.attributions) {
        if (!value.isDouble())
            continue;
        const QJsonValue shown = a.inputValues.value(name);
        QString label = name;
        if (shown.isDouble())
            label = tr("%1 = %2").arg(name, number(shown.toDouble()));
        else if (shown.isString())
            label = tr("%1 = %2").arg(name, shown.toString());
        else if (a.inputValues.contains(name))
            label = tr("%1 = (missing)").arg(name);
        items.append({ label, value.toDouble() });
    }
    std::stable_sort(items.begin(), items.end(),
        [](const auto& x, const auto& y) { return std::abs(x.second) > std::abs(y.second); });
    double running = m_baseline;
    double rest = 0;
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (i < MaxBars || items.size() == MaxBars + 1) {
            m_bars.append({ items[i].first, running, running + items[i].second });
            running += items[i].second;
        } else {
            rest += items[i].second;
        }
    }
    if (items.size() > MaxBars + 1)
        m_bars.append({ tr("%n other feature(s)", nullptr, int(items.size() - MaxBars)), running, running + rest });
    updateGeometry();
    update();
}

QSize ExplanationView::sizeHint() const
{
    const int line = fontMetrics().height();
    if (showsImage())
        return { 420, 4 * line + 248 };
    return { 560, int(3 + m_bars.size() + 2) * (line + 4) + line };
}

QSize ExplanationView::minimumSizeHint() const
{
    const QSize hint = sizeHint();
    return { 300, hint.height() };
}

void ExplanationView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int line = fontMetrics().height();
    QRect text = rect().adjusted(4, 2, -4, 0);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(text, Qt::AlignLeft | Qt::AlignTop, m_title);
    p.setFont(font());
    text.setTop(text.top() + line + 2);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_caption);
    text.setTop(text.top() + line + 2);
    if (!m_warning.isEmpty()) {
        p.setPen(QColor(0xda, 0x44, 0x53));
        p.drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_warning);
        text.setTop(text.top() + line + 2);
    }
    p.setPen(palette().color(QPalette::WindowText));
    if (showsImage())
        paintImage(p, text);
    else
        paintWaterfall(p, text);
}

void ExplanationView::paintImage(QPainter& p, const QRect& area)
{
    const int line = fontMetrics().height();
    const int side = std::max(32, std::min(area.width() / 2 - 12, area.height() - 12 - line));
    const QRect left(area.left(), area.top() + 4, side, side);
    const QRect right(left.right() + 16, left.top(), side, side);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(left.left(), left.bottom() + 4, side, line), Qt::AlignHCenter, tr("Instance"));
    p.drawText(QRect(right.left(), right.bottom() + 4, side, line), Qt::AlignHCenter,
        m_xrai ? tr("XRAI's top regions") : tr("Attribution (|value|) over it"));
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(left, m_image);
    p.drawImage(right, m_image);
    p.drawImage(right, m_heat);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(left);
    p.drawRect(right);
}

void ExplanationView::paintWaterfall(QPainter& p, const QRect& area)
{
    if (m_bars.isEmpty())
        return;
    const int line = fontMetrics().height();
    const int rowHeight = line + 4;
    int labelWidth = fontMetrics().horizontalAdvance(tr("Baseline"));
    for (const Bar& b : m_bars)
        labelWidth = std::max(labelWidth, fontMetrics().horizontalAdvance(b.label));
    labelWidth = std::min(labelWidth + 12, area.width() / 2);
    const int valueWidth = fontMetrics().horizontalAdvance(QStringLiteral("−0.0000e-00")) + 8;
    const QRect plot(area.left() + labelWidth, area.top(), area.width() - labelWidth - valueWidth, area.height());
    double lo = std::min(m_baseline, m_score), hi = std::max(m_baseline, m_score);
    for (const Bar& b : m_bars) {
        lo = std::min({ lo, b.start, b.end });
        hi = std::max({ hi, b.start, b.end });
    }
    if (hi - lo <= 0) {
        lo -= 0.5;
        hi += 0.5;
    }
    const double pad = (hi - lo) * 0.04;
    lo -= pad;
    hi += pad;
    const auto xOf = [&](double v) { return plot.left() + (v - lo) / (hi - lo) * plot.width(); };
    // Signed colours as KDE's Breeze uses them for positive and negative values.
    const QColor up(0x3d, 0xae, 0xe9), down(0xda, 0x44, 0x53);
    int y = plot.top();
    const auto row = [&](const QString& label, double from, double to, const QColor& colour, bool total) {
        const QRect labelRect(area.left(), y, labelWidth - 8, rowHeight);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(labelRect, Qt::AlignRight | Qt::AlignVCenter,
            fontMetrics().elidedText(label, Qt::ElideMiddle, labelRect.width()));
        const double x0 = xOf(std::min(from, to)), x1 = xOf(std::max(from, to));
        // A total (the baseline's and the instance's score) is a mark where it lies; a feature a bar of its step.
        const QRectF bar = total ? QRectF(xOf(to) - 2.5, y + 2, 5, rowHeight - 4)
                                 : QRectF(x0, y + 3, std::max(1.5, x1 - x0), rowHeight - 6);
        p.fillRect(bar, total ? palette().color(QPalette::WindowText) : colour);
        p.setPen(palette().color(QPalette::PlaceholderText));
        const double shown = total ? to : to - from;
        const QString value = total ? number(shown) : (shown >= 0 ? QStringLiteral("+") : QString()) + number(shown);
        p.drawText(QRectF(bar.right() + 4, y, valueWidth, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, value);
        y += rowHeight;
    };
    row(tr("Baseline"), lo + pad, m_baseline, palette().color(QPalette::Mid), true);
    for (const Bar& b : m_bars)
        row(b.label, b.start, b.end, b.end >= b.start ? up : down, false);
    row(tr("Prediction"), lo + pad, m_score, palette().color(QPalette::Mid), true);
    // The baseline's and the prediction's lines through the bars.
    p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
    p.drawLine(QPointF(xOf(m_baseline), plot.top()), QPointF(xOf(m_baseline), y));
    p.drawLine(QPointF(xOf(m_score), plot.top()), QPointF(xOf(m_score), y));
}

} // namespace Trainyard
