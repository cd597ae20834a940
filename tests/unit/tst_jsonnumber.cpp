// SPDX-License-Identifier: GPL-2.0-or-later
// jsonToDouble / doubleToJson (models/jsonnumber.h): doubles as protobuf's JSON mapping writes them.
#include "jsonnumber.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>

using namespace Trainyard;

class TestJsonNumber : public QObject {
    Q_OBJECT
private slots:
    void decodes_data()
    {
        QTest::addColumn<QByteArray>("json"); // one element of a JSON array
        QTest::addColumn<double>("value");
        QTest::addRow("number") << QByteArray("0.25") << 0.25;
        QTest::addRow("negative") << QByteArray("-3") << -3.0;
        QTest::addRow("exponent") << QByteArray("1e-3") << 1e-3;
        QTest::addRow("number as string") << QByteArray("\"0.5\"") << 0.5;
        QTest::addRow("exponent as string") << QByteArray("\"-2.5e3\"") << -2500.0;
        QTest::addRow("NaN") << QByteArray("\"NaN\"") << std::numeric_limits<double>::quiet_NaN();
        QTest::addRow("Infinity") << QByteArray("\"Infinity\"") << std::numeric_limits<double>::infinity();
        QTest::addRow("-Infinity") << QByteArray("\"-Infinity\"") << -std::numeric_limits<double>::infinity();
    }

    void decodes()
    {
        QFETCH(QByteArray, json);
        QFETCH(double, value);
        const QJsonValue v = QJsonDocument::fromJson("[" + json + "]").array().at(0);
        const std::optional<double> d = jsonToDouble(v);
        QVERIFY(d);
        if (std::isnan(value))
            QVERIFY(std::isnan(*d));
        else
            QCOMPARE(*d, value);
    }

    void refuses_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addRow("lowercase nan") << QByteArray("\"nan\"");
        QTest::addRow("inf") << QByteArray("\"inf\"");
        QTest::addRow("+Infinity") << QByteArray("\"+Infinity\"");
        QTest::addRow("word") << QByteArray("\"fast\"");
        QTest::addRow("empty string") << QByteArray("\"\"");
        QTest::addRow("overflow") << QByteArray("\"1e999\"");
        QTest::addRow("bool") << QByteArray("true");
        QTest::addRow("null") << QByteArray("null");
        QTest::addRow("object") << QByteArray("{}");
    }

    void refuses()
    {
        QFETCH(QByteArray, json);
        const QJsonValue v = QJsonDocument::fromJson("[" + json + "]").array().at(0);
        QVERIFY(!jsonToDouble(v));
    }

    void refusesAbsent() { QVERIFY(!jsonToDouble(QJsonObject().value(QLatin1String("missing")))); }

    void roundTrip_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("json");
        QTest::addRow("finite") << 0.1 << QByteArray("[0.1]");
        QTest::addRow("NaN") << std::numeric_limits<double>::quiet_NaN() << QByteArray("[\"NaN\"]");
        QTest::addRow("Infinity") << std::numeric_limits<double>::infinity() << QByteArray("[\"Infinity\"]");
        QTest::addRow("-Infinity") << -std::numeric_limits<double>::infinity() << QByteArray("[\"-Infinity\"]");
    }

    void roundTrip()
    {
        QFETCH(double, value);
        QFETCH(QByteArray, json);
        const QJsonValue encoded = doubleToJson(value);
        QCOMPARE(QJsonDocument(QJsonArray { encoded }).toJson(QJsonDocument::Compact), json);
        const double back = jsonToDouble(encoded).value();
        if (std::isnan(value))
            QVERIFY(std::isnan(back));
        else
            QCOMPARE(back, value);
    }
};

QTEST_GUILESS_MAIN(TestJsonNumber)
#include "tst_jsonnumber.moc"
