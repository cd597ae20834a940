// SPDX-License-Identifier: GPL-2.0-or-later
// ExplanationView and ExplanationsPanel (issue 47): what the Predict panel's Explain draws from an answer of
// projects.explain. The waterfall starts at the baseline score, steps through the features largest |attribution|
// first, sums what is past ExplanationView::MaxBars into one bar, and ends at the instance's score; each feature shows
// its value; an image's attributions are drawn as a heat map over it. With TRAINYARD_SCREENSHOT_DIR set:
// explanation-waterfall.png and explanation-image.png.
#include "explanationspanel.h"
#include "explanationview.h"
#include "translations.h"

#include <QApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QTest>

#include <cmath>

using namespace Trainyard;

namespace {

/// An answer's entry of `n` features "f1" … with attributions (−1)^i · i / 10, as explanations.py writes it.
QJsonObject entry(int n)
{
    QJsonObject attributions, values;
    double sum = 0;
    for (int i = 1; i <= n; ++i) {
        const double a = (i % 2 ? -1.0 : 1.0) * i / 10.0;
        attributions.insert(QStringLiteral("f%1").arg(i), a);
        values.insert(QStringLiteral("f%1").arg(i), i * 1.5);
        sum += a;
    }
    values.insert(QStringLiteral("f1"), QStringLiteral("red")); // a category, shown as text
    return { { QStringLiteral("label_index"), 1 }, { QStringLiteral("example_score"), 0.25 + sum },
        { QStringLiteral("baseline_score"), 0.25 }, { QStringLiteral("approx_error"), 0.01 },
        { QStringLiteral("method"), QStringLiteral("sampledShapley") }, { QStringLiteral("numPaths"), 10 },
        { QStringLiteral("attributions"), attributions }, { QStringLiteral("input_values"), values } };
}

void save(QWidget* w, const char* name)
{
    const QString dir = qEnvironmentVariable("TRAINYARD_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    w->grab().save(dir + QLatin1Char('/') + QLatin1String(name));
}

} // namespace

class TestExplanationView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // English plural forms ("5 other features"), as the console loads them.
        Translations::install(qApp, QStringLiteral("en"));
    }

    void waterfallSortsSumsAndEndsAtTheScore()
    {
        const LabelAttribution a = LabelAttribution::fromJson(entry(20));
        ExplanationView view;
        view.setExplanation(a, QJsonArray(), QStringLiteral("Instance 1 · output 1"));
        view.resize(640, view.sizeHint().height());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.showsImage());
        const QList<ExplanationView::Bar>& bars = view.bars();
        QCOMPARE(bars.size(), ExplanationView::MaxBars + 1);
        QCOMPARE(bars.first().start, 0.25);
        QCOMPARE(bars.first().label, QStringLiteral("f20 = 30"));
        QCOMPARE(bars.at(1).label, QStringLiteral("f19 = 28.5"));
        QCOMPARE(bars.last().label, QStringLiteral("5 other features"));
        for (qsizetype i = 1; i < bars.size(); ++i)
            QCOMPARE(bars.at(i).start, bars.at(i - 1).end);
        for (qsizetype i = 1; i + 1 < bars.size(); ++i)
            QVERIFY(std::abs(bars.at(i).end - bars.at(i).start) <= std::abs(bars.at(i - 1).end - bars.at(i - 1).start));
        // The last bar ends at the instance's score: the attributions are complete.
        QVERIFY(std::abs(bars.last().end - a.exampleScore) < 1e-12);
        QVERIFY2(view.caption().contains(QLatin1String("Sampled Shapley, 10 paths")), qPrintable(view.caption()));
        save(&view, "explanation-waterfall.png");

        // Few features: every one its own bar, a category's value as text.
        ExplanationView small;
        small.setExplanation(LabelAttribution::fromJson(entry(3)), QJsonArray(), QStringLiteral("x"));
        QCOMPARE(small.bars().size(), 3);
        QCOMPARE(small.bars().last().label, QStringLiteral("f1 = red"));
    }

    void imageHeatMap()
    {
        // A 28 × 28 image given flat (as the Fashion-MNIST sample's model takes it) with its attribution array.
        QJsonArray pixels, phi;
        for (int i = 0; i < 784; ++i) {
            pixels.append(i % 28 < 14 ? 200 : 10);
            phi.append(i / 28 == 14 ? 0.5 : 0.0);
        }
        LabelAttribution a;
        a.method = QStringLiteral("integratedGradients");
        a.numIntegralSteps = 50;
        a.exampleScore = 0.9;
        a.attributions.append({ QStringLiteral("pixels"), phi });
        a.warning = QStringLiteral("the attributions miss the score difference by 7.0 %");
        ExplanationsPanel panel;
        ExplainResponse answer;
        answer.reply.kind = PredictResponse::Kind::Predictions;
        answer.explanations.append(Explanation { { a } });
        panel.showExplanations(answer, QJsonArray { pixels });
        panel.resize(640, 420);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.views().size(), 1);
        QVERIFY(panel.views().first()->showsImage());
        QVERIFY(panel.messageLabel()->isHidden());
        QVERIFY2(panel.views().first()->caption().contains(QLatin1String("Integrated gradients, 50 steps")),
            qPrintable(panel.views().first()->caption()));
        save(&panel, "explanation-image.png");

        // A shape that is no image (7 values) is a waterfall of nothing numeric: no image, no bars.
        LabelAttribution odd = a;
        odd.attributions = { { QStringLiteral("pixels"), QJsonArray { 1, 2, 3, 4, 5, 6, 7 } } };
        ExplanationView view;
        view.setExplanation(odd, QJsonArray { 1, 2, 3, 4, 5, 6, 7 }, QStringLiteral("x"));
        QVERIFY(!view.showsImage());
        QVERIFY(view.bars().isEmpty());

        panel.showMessage(QStringLiteral("Explanation failed: no"));
        QVERIFY(panel.views().isEmpty());
        QVERIFY(!panel.messageLabel()->isHidden());
    }
};

QTEST_MAIN(TestExplanationView)
#include "tst_explanationview.moc"
