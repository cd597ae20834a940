// SPDX-License-Identifier: GPL-2.0-or-later
#include "explanationview.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {

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
    if (const std::optional<ExplanationImage> image = a.image(instance)) {
        const auto [lo, hi] = std::minmax_element(image->grey.cbegin(), image->grey.cend());
        const double top = *std::max_element(image->heat.cbegin(), image->heat.cend());
        m_image = QImage(image->width, image->height, QImage::Format_Grayscale8);
        m_heat = QImage(image->width, image->height, QImage::Format_ARGB32);
        for (int y = 0; y < image->height; ++y) {
            for (int x = 0; x < image->width; ++x) {
                const qsizetype i = qsizetype(y) * image->width + x;
                const double g = *hi > *lo ? (image->grey[i] - *lo) / (*hi - *lo) : 0.5;
                m_image.setPixel(x, y, qRgb(int(g * 255), int(g * 255), int(g * 255)));
                const double h = top > 0 ? image->heat[i] / top : 0;
                // Warm colours for the pixels that moved the score most, transparent for the rest.
                m_heat.setPixel(x, y, qRgba(255, int(200 * (1 - h)), 0, int(210 * h)));
            }
        }
        updateGeometry();
        update();
        return;
    }

    // A waterfall: the largest |attributions| first, the rest summed in one bar.
    QList<std::pair<QString, double>> items = a.byMagnitude();
    for (auto& [name, value] : items) {
        const QString shown = a.inputValueText(name);
        name = shown.isNull() ? name
            : shown.isEmpty() ? tr("%1 = (missing)").arg(name)
                              : tr("%1 = %2").arg(name, shown);
    }
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
        const QRectF bar = total ? QRectF(xOf(to) - 2, y + 2, 4, rowHeight - 4)
                                 : QRectF(x0, y + 3, std::max(1.5, x1 - x0), rowHeight - 6);
        if (total) {
            p.setPen(QPen(palette().color(QPalette::WindowText), 3, Qt::SolidLine, Qt::FlatCap));
            p.drawLine(QPointF(xOf(to), y + 2), QPointF(xOf(to), y + rowHeight - 2));
        } else {
            p.fillRect(bar, colour);
        }
        p.setPen(palette().color(QPalette::PlaceholderText));
        const double shown = total ? to : to - from;
        const QString value = total ? number(shown) : (shown >= 0 ? QStringLiteral("+") : QString()) + number(shown);
        p.drawText(QRectF(bar.right() + 4, y, valueWidth, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, value);
        y += rowHeight;
    };
    // The baseline's and the prediction's lines through the bars, under them.
    const int bottom = y + int(m_bars.size() + 2) * rowHeight;
    p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
    p.drawLine(QPointF(xOf(m_baseline), plot.top()), QPointF(xOf(m_baseline), bottom));
    p.drawLine(QPointF(xOf(m_score), plot.top()), QPointF(xOf(m_score), bottom));
    row(tr("Baseline"), lo + pad, m_baseline, palette().color(QPalette::Mid), true);
    for (const Bar& b : m_bars)
        row(b.label, b.start, b.end, b.end >= b.start ? up : down, false);
    row(tr("Prediction"), lo + pad, m_score, palette().color(QPalette::Mid), true);
}

} // namespace Trainyard
