// SPDX-License-Identifier: GPL-2.0-or-later
// TuningPreview (the wizard's grid count and trial-1 values) against the executor's optimiser: the same
// specs through both must give the same grid size, the same centre (the Bayesian optimiser's first trial)
// and the same first grid point, formatted as the trainer gets them.
#include "bayesianoptimizer.h"
#include "gridsearch.h"
#include "tuningpreview.h"

#include <QTest>

#include <limits>

using namespace Trainyard;

namespace {

ParameterSpec numeric(const char* name, const char* type, double lo, double hi, const char* scale = "UNIT_LINEAR_SCALE")
{
    ParameterSpec p;
    p.parameterName = QString::fromLatin1(name);
    p.type = QString::fromLatin1(type);
    p.minValue = lo;
    p.maxValue = hi;
    p.scaleType = QString::fromLatin1(scale);
    return p;
}

ParameterSpec discrete(const char* name, QList<double> values, const char* scale = "")
{
    ParameterSpec p;
    p.parameterName = QString::fromLatin1(name);
    p.type = QStringLiteral("DISCRETE");
    p.discreteValues = std::move(values);
    p.scaleType = QString::fromLatin1(scale);
    return p;
}

ParameterSpec categorical(const char* name, QStringList values)
{
    ParameterSpec p;
    p.parameterName = QString::fromLatin1(name);
    p.type = QStringLiteral("CATEGORICAL");
    p.categoricalValues = std::move(values);
    return p;
}

Tuning::ParameterSpec toOptimizer(const ParameterSpec& p)
{
    Tuning::ParameterSpec o;
    o.name = p.parameterName.toStdString();
    static const QMap<QString, Tuning::ParameterType> types { { QStringLiteral("DOUBLE"),
                                                                  Tuning::ParameterType::Double },
        { QStringLiteral("INTEGER"), Tuning::ParameterType::Integer },
        { QStringLiteral("DISCRETE"), Tuning::ParameterType::Discrete },
        { QStringLiteral("CATEGORICAL"), Tuning::ParameterType::Categorical } };
    static const QMap<QString, Tuning::ScaleType> scales { { QStringLiteral("UNIT_LINEAR_SCALE"),
                                                               Tuning::ScaleType::UnitLinear },
        { QStringLiteral("UNIT_LOG_SCALE"), Tuning::ScaleType::UnitLog },
        { QStringLiteral("UNIT_REVERSE_LOG_SCALE"), Tuning::ScaleType::UnitReverseLog } };
    o.type = types.value(p.type, Tuning::ParameterType::Unspecified);
    o.scaleType = scales.value(p.scaleType, Tuning::ScaleType::None);
    o.minValue = p.minValue.value_or(0);
    o.maxValue = p.maxValue.value_or(0);
    o.discreteValues.assign(p.discreteValues.cbegin(), p.discreteValues.cend());
    for (const QString& c : p.categoricalValues)
        o.categoricalValues.push_back(c.toStdString());
    return o;
}

std::vector<Tuning::ParameterSpec> toOptimizer(const QList<ParameterSpec>& params)
{
    std::vector<Tuning::ParameterSpec> out;
    for (const ParameterSpec& p : params)
        out.push_back(toOptimizer(p));
    return out;
}

QStringList formatted(const Tuning::Assignment& a)
{
    QStringList out;
    for (const Tuning::ParameterValue& v : a)
        out << QString::fromStdString(Tuning::formatValue(v));
    return out;
}

QStringList previewValues(const HyperparameterSpec& spec)
{
    QStringList out;
    for (const auto& [name, value] : TuningPreview::trialOneValues(spec))
        out << value.value_or(QStringLiteral("?"));
    return out;
}

} // namespace

class TestTuningPreview : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void centreMatchesTheOptimizer_data()
    {
        QTest::addColumn<QList<ParameterSpec>>("params");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("log double: geometric mean")
            << QList<ParameterSpec> { numeric("lr", "DOUBLE", 1e-4, 1e-1, "UNIT_LOG_SCALE") }
            << QStringList { QStringLiteral("0.0031622776601683794") };
        QTest::addRow("linear double: midpoint")
            << QList<ParameterSpec> { numeric("m", "DOUBLE", 0, 1) } << QStringList { QStringLiteral("0.5") };
        QTest::addRow("reverse log double")
            << QList<ParameterSpec> { numeric("s", "DOUBLE", 0.1, 1.0, "UNIT_REVERSE_LOG_SCALE") }
            << QStringList { TuningPreview::formatNumber(1.1 - std::sqrt(0.1)) };
        QTest::addRow("integer: rounded centre") << QList<ParameterSpec> { numeric("units", "INTEGER", 32, 512),
            numeric("layers", "INTEGER", 1, 4) } << QStringList { QStringLiteral("272"), QStringLiteral("3") };
        QTest::addRow("integer on a log scale")
            << QList<ParameterSpec> { numeric("units", "INTEGER", 1, 1000, "UNIT_LOG_SCALE") }
            << QStringList { QStringLiteral("22") };
        QTest::addRow("discrete: nearest the centre in its scale") << QList<ParameterSpec> {
            discrete("batch", { 32, 64, 128, 256 }, "UNIT_LOG_SCALE"), discrete("k", { 1, 2, 10 })
        } << QStringList { QStringLiteral("64"), QStringLiteral("2") };
        QTest::addRow("categorical: the first")
            << QList<ParameterSpec> { categorical("opt", { QStringLiteral("adam"), QStringLiteral("sgd") }) }
            << QStringList { QStringLiteral("adam") };
        QTest::addRow("the sample's tuning config")
            << QList<ParameterSpec> { numeric("learning-rate", "DOUBLE", 1e-4, 1e-1, "UNIT_LOG_SCALE"),
                   discrete("batch-size", { 32, 64, 128, 256 }), numeric("hidden-units", "INTEGER", 32, 512),
                   categorical(
                       "optimizer", { QStringLiteral("adam"), QStringLiteral("sgd"), QStringLiteral("rmsprop") }) }
            << QStringList { QStringLiteral("0.0031622776601683794"), QStringLiteral("128"), QStringLiteral("272"),
                   QStringLiteral("adam") };
    }

    void centreMatchesTheOptimizer()
    {
        QFETCH(QList<ParameterSpec>, params);
        QFETCH(QStringList, expected);
        HyperparameterSpec spec;
        spec.params = params;
        QCOMPARE(TuningPreview::firstTrial(spec.algorithm), TuningPreview::FirstTrial::Centre);
        QCOMPARE(previewValues(spec), expected);

        // The Bayesian optimiser's first suggestion is the same point, in the same text.
        std::string error;
        auto optimizer = Tuning::makeOptimizer(
            Tuning::Algorithm::Unspecified, toOptimizer(params), Tuning::Goal::Maximize, 7, &error);
        QVERIFY2(optimizer, error.c_str());
        const Tuning::Suggestions s = optimizer->suggest({}, {}, 1);
        QCOMPARE(s.assignments.size(), std::size_t(1));
        QCOMPARE(formatted(s.assignments.front()), expected);
    }

    void gridMatchesTheOptimizer()
    {
        HyperparameterSpec spec;
        spec.algorithm = QStringLiteral("GRID_SEARCH");
        spec.params = { numeric("units", "INTEGER", 32, 40), discrete("batch", { 32, 64, 128, 256 }),
            categorical("opt", { QStringLiteral("adam"), QStringLiteral("sgd"), QStringLiteral("rmsprop") }) };
        const TuningPreview::Grid grid = TuningPreview::grid(spec);
        QCOMPARE(grid.kind, TuningPreview::Grid::Kind::Finite);
        QCOMPARE(grid.points, quint64(9 * 4 * 3));
        const Tuning::SearchSpace space(toOptimizer(spec.params));
        QCOMPARE(grid.points, Tuning::GridSearch::gridSize(space));
        QCOMPARE(TuningPreview::firstTrial(spec.algorithm), TuningPreview::FirstTrial::FirstGridPoint);
        QCOMPARE(previewValues(spec), formatted(Tuning::GridSearch(space).point(0)));
    }

    void gridKinds()
    {
        HyperparameterSpec spec;
        QCOMPARE(TuningPreview::grid(spec).kind, TuningPreview::Grid::Kind::Incomplete);
        spec.params = { numeric("units", "INTEGER", 1, 4), numeric("lr", "DOUBLE", 0.1, 1) };
        TuningPreview::Grid grid = TuningPreview::grid(spec);
        QCOMPARE(grid.kind, TuningPreview::Grid::Kind::Infinite);
        QCOMPARE(grid.doubleParameter, QStringLiteral("lr"));
        spec.params = { numeric("units", "INTEGER", 4, 1) }; // inverted
        QCOMPARE(TuningPreview::grid(spec).kind, TuningPreview::Grid::Kind::Incomplete);
        spec.params = { discrete("k", { 1, 3, 2 }) }; // not increasing
        QCOMPARE(TuningPreview::grid(spec).kind, TuningPreview::Grid::Kind::Incomplete);
        // 10 INTEGER parameters of a million values each: more than 2^64 points.
        spec.params.clear();
        for (int i = 0; i < 10; ++i)
            spec.params << numeric(qPrintable(QStringLiteral("p%1").arg(i)), "INTEGER", 1, 1e6);
        grid = TuningPreview::grid(spec);
        QCOMPARE(grid.kind, TuningPreview::Grid::Kind::Finite);
        QVERIFY(grid.saturated);
        QCOMPARE(grid.points, std::numeric_limits<quint64>::max());
    }

    void incompleteParameters()
    {
        HyperparameterSpec spec;
        ParameterSpec noMax = numeric("a", "DOUBLE", 1, 2);
        noMax.maxValue.reset();
        spec.params = { noMax, numeric("b", "DOUBLE", 0, 1, "UNIT_LOG_SCALE"), numeric("c", "INTEGER", 1, 3) };
        const auto values = TuningPreview::trialOneValues(spec);
        QCOMPARE(values.size(), 3);
        QVERIFY(!values.at(0).second);
        QVERIFY(!values.at(1).second); // a log scale from 0
        QCOMPARE(values.at(2).second.value_or(QString()), QStringLiteral("2"));
    }
};

QTEST_GUILESS_MAIN(TestTuningPreview)
#include "tst_tuningpreview.moc"
