// SPDX-License-Identifier: GPL-2.0-or-later
// MetricRowWriter (models/formats/metricrows.h): the rows of `trainyardctl jobs metrics export` and `trainyardctl
// inspect events`, read back by a CSV reader's rules and by QJsonDocument.
#include "metricrows.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <limits>

using namespace Trainyard::Formats;

class TestMetricRows : public QObject {
    Q_OBJECT
private slots:
    void csvRows()
    {
        MetricRowWriter w(MetricRowWriter::Format::Csv);
        QByteArray out = w.begin();
        w.setRun("train");
        w.setTag("loss");
        out += w.row(1, 1763700000.5, 0.25);
        w.setRun("eval, \"final\"");
        w.setTag("acc\nuracy");
        out += w.row(2, 1763700001.0, std::numeric_limits<double>::quiet_NaN());
        out += w.end();
        QCOMPARE(out,
            QByteArray("run,tag,step,wall_time,value\n"
                       "train,loss,1,1763700000.5,0.25\n"
                       "\"eval, \"\"final\"\"\",\"acc\nuracy\",2,1763700001.0,nan\n"));
        QCOMPARE(w.rows(), 2);
    }

    void jsonRows()
    {
        MetricRowWriter w(MetricRowWriter::Format::Json);
        QByteArray out = w.begin();
        w.setRun("hypertune/master-replica-0@3");
        w.setTag("ta\"g\\\x01");
        w.setKind("hypertune");
        out += w.row(7, 1.5, std::numeric_limits<double>::infinity());
        w.setKind({});
        out += w.row(8, 2.0, -0.0);
        out += w.end();
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(out, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonArray rows = doc.array();
        QCOMPARE(rows.size(), 2);
        const QJsonObject first = rows.at(0).toObject();
        QCOMPARE(first.value(QLatin1String("kind")).toString(), QStringLiteral("hypertune"));
        QCOMPARE(first.value(QLatin1String("run")).toString(), QStringLiteral("hypertune/master-replica-0@3"));
        QCOMPARE(first.value(QLatin1String("tag")).toString(), QStringLiteral("ta\"g\\\x01"));
        QCOMPARE(first.value(QLatin1String("step")).toInteger(), 7);
        QCOMPARE(first.value(QLatin1String("wall_time")).toDouble(), 1.5);
        QCOMPARE(first.value(QLatin1String("value")).toString(), QStringLiteral("Infinity")); // proto3 JSON
        QVERIFY(!rows.at(1).toObject().contains(QLatin1String("kind")));
        QVERIFY(out.startsWith("[\n  {\"kind\":\"hypertune\",\"run\":"));
        QVERIFY(out.endsWith("}\n]\n"));
    }

    void emptyJson()
    {
        MetricRowWriter w(MetricRowWriter::Format::Json);
        QCOMPARE(w.begin() + w.end(), QByteArray("[]\n"));
        MetricRowWriter c(MetricRowWriter::Format::Csv);
        QCOMPARE(c.begin() + c.end(), QByteArray("run,tag,step,wall_time,value\n"));
    }

    void numbers()
    {
        QCOMPARE(MetricRowWriter::jsonNumber(0.1), QByteArray("0.1"));
        QCOMPARE(MetricRowWriter::jsonNumber(1e-5), QByteArray("1e-05"));
        QCOMPARE(MetricRowWriter::jsonNumber(std::numeric_limits<double>::quiet_NaN()), QByteArray("\"NaN\""));
        QCOMPARE(MetricRowWriter::jsonNumber(-std::numeric_limits<double>::infinity()), QByteArray("\"-Infinity\""));
    }
};

QTEST_GUILESS_MAIN(TestMetricRows)
#include "tst_metricrows.moc"
