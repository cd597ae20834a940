// SPDX-License-Identifier: GPL-2.0-or-later
// Wire types of models/apitypes.h whose one encoder and decoder the executor and its clients share (app/executor/API.md
// "Checkpoints", "Metrics"): a checkpoint list, a checkpoint's tensors, a tensor's values and a metric series
// round-trip whole, with int64 as strings, optional fields omitted when unset, and NaN and ±Inf among the values.
#include "apitypes.h"
#include "checkpointindex.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <limits>

using namespace Trainyard;

class TestWireTypes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void listRoundTrips()
    {
        CheckpointEntry e;
        e.name = QStringLiteral("3/ckpt-1200");
        e.format = QStringLiteral("tf-bundle");
        e.step = 1200;
        e.updateTime = QDateTime(QDate(2026, 11, 28), QTime(12, 30, 5, 250), QTimeZone::utc());
        e.sizeBytes = 5'000'000'000;
        e.current = true;
        e.trialId = QStringLiteral("3");
        e.files = { QStringLiteral("3/ckpt-1200.index"), QStringLiteral("3/ckpt-1200.data-00000-of-00001") };
        CheckpointList list;
        list.checkpoints = { CheckpointSummary::fromEntry(e) };
        CheckpointSummary plain;
        plain.name = QStringLiteral("model.pt");
        plain.format = QStringLiteral("pytorch");
        plain.epoch = 4;
        plain.updateTimeMs = 1'700'000'000'123;
        plain.sizeBytes = 12;
        plain.files = { QStringLiteral("model.pt") };
        list.checkpoints << plain;
        list.jobDir = QStringLiteral("/data/jobs/j1");
        list.truncated = true;

        const QJsonObject json = list.toJson();
        const QJsonObject first = json.value(QStringLiteral("checkpoints")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("updateTime")).toString(), QStringLiteral("2026-11-28T12:30:05.250Z"));
        QCOMPARE(first.value(QStringLiteral("sizeBytes")).toString(), QStringLiteral("5000000000"));
        QCOMPARE(first.value(QStringLiteral("step")).toString(), QStringLiteral("1200"));
        QVERIFY(!first.contains(QStringLiteral("epoch")));
        const QJsonObject second = json.value(QStringLiteral("checkpoints")).toArray().at(1).toObject();
        for (const char* unset : { "step", "current", "trialId" })
            QVERIFY2(!second.contains(QLatin1String(unset)), unset);
        QCOMPARE(CheckpointList::fromJson(json), list);

        // An empty scan: no job dir, not truncated, and neither key is sent.
        const QJsonObject empty = CheckpointList().toJson();
        QCOMPARE(empty.keys(), QStringList { QStringLiteral("checkpoints") });
    }

    void detailRoundTrips()
    {
        CheckpointTensor kernel;
        kernel.name = QStringLiteral("layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE");
        kernel.displayName = QStringLiteral("dense/kernel");
        kernel.dtype = QStringLiteral("DT_FLOAT");
        kernel.elementType = QStringLiteral("F32");
        kernel.shape = { 784, 128 };
        kernel.sizeBytes = 401408;
        kernel.file = QStringLiteral("ckpt-1.data-00000-of-00001");
        CheckpointTensor graph;
        graph.name = QStringLiteral("_CHECKPOINTABLE_OBJECT_GRAPH");
        graph.dtype = QStringLiteral("DT_STRING");
        graph.shard = 1;
        graph.metadata = true;
        CheckpointDetail detail;
        detail.name = QStringLiteral("ckpt-1");
        detail.format = QStringLiteral("tf-bundle");
        detail.totalBytes = 401408;
        detail.files = { QStringLiteral("ckpt-1.index") };
        detail.tensors = { kernel, graph };
        detail.scalars = QJsonObject { { QStringLiteral("epoch"), 3 } };
        const QJsonObject json = detail.toJson();
        QCOMPARE(json.value(QStringLiteral("totalBytes")).toString(), QStringLiteral("401408"));
        const QJsonObject k = json.value(QStringLiteral("tensors")).toArray().at(0).toObject();
        QCOMPARE(
            k.value(QStringLiteral("shape")).toArray(), (QJsonArray { QStringLiteral("784"), QStringLiteral("128") }));
        // A size the format does not say, and a type whose values are not decoded, are not sent.
        const QJsonObject g = json.value(QStringLiteral("tensors")).toArray().at(1).toObject();
        QVERIFY(!g.contains(QStringLiteral("sizeBytes")));
        QVERIFY(!g.contains(QStringLiteral("elementType")));
        QVERIFY(!json.contains(QStringLiteral("metadata")));
        QCOMPARE(CheckpointDetail::fromJson(json), detail);
    }

    void valuesRoundTripWithNonFinite()
    {
        TensorValues v;
        v.checkpoint = QStringLiteral("model.pt");
        v.tensor.name = QStringLiteral("fc.bias");
        v.tensor.dtype = QStringLiteral("float32");
        v.tensor.elementType = QStringLiteral("F32");
        v.tensor.shape = { 4 };
        v.count = 2;
        v.nanCount = 1;
        v.infCount = 1;
        v.min = -0.5;
        v.max = 0.25;
        v.mean = -0.125;
        v.std = 0.375;
        v.values = { -0.5, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 0.25 };
        const QJsonObject json = v.toJson();
        const QJsonObject s = json.value(QStringLiteral("statistics")).toObject();
        QCOMPARE(s.value(QStringLiteral("nanCount")).toString(), QStringLiteral("1"));
        QCOMPARE(s.value(QStringLiteral("values")).toArray().at(2).toString(), QStringLiteral("Infinity"));
        const TensorValues back = TensorValues::fromJson(json);
        QCOMPARE(back.checkpoint, v.checkpoint);
        QCOMPARE(back.tensor, v.tensor);
        QCOMPARE(back.count, 2);
        QCOMPARE(back.nanCount, 1);
        QCOMPARE(back.infCount, 1);
        QCOMPARE(back.mean, -0.125);
        QCOMPARE(back.values.size(), 4);
        QVERIFY(std::isnan(back.values.at(1)));
        QVERIFY(std::isinf(back.values.at(2)) && back.values.at(2) > 0);
        QCOMPARE(back.values.at(3), 0.25);
    }

    void seriesInfoRoundTrips()
    {
        SeriesInfo s;
        s.name = QStringLiteral("hypertune/master-replica-0/accuracy");
        s.kind = QStringLiteral("hypertune");
        s.tag = QStringLiteral("accuracy");
        s.taskName = QStringLiteral("master-replica-0");
        s.trialId = QStringLiteral("7");
        s.pointCount = 3'000'000'000;
        s.lastSeq = 42;
        const QJsonObject json = s.toJson();
        QCOMPARE(json.value(QStringLiteral("points")).toString(), QStringLiteral("3000000000"));
        QVERIFY(!json.contains(QStringLiteral("run")));
        QCOMPARE(SeriesInfo::fromJson(json), s);
        // A scalar series of the job dir: its run, no replica, no trial.
        SeriesInfo scalar;
        scalar.name = QStringLiteral("scalar/./train/loss");
        scalar.kind = QStringLiteral("scalar");
        scalar.run = QStringLiteral(".");
        scalar.tag = QStringLiteral("train/loss");
        QCOMPARE(scalar.toJson().keys(),
            (QStringList { QStringLiteral("kind"), QStringLiteral("lastSeq"), QStringLiteral("name"),
                QStringLiteral("points"), QStringLiteral("run"), QStringLiteral("tag") }));
        QCOMPARE(SeriesInfo::fromJson(scalar.toJson()), scalar);
    }

    /// Issue 46 item 11: a built-in model's columns are named as the table preview heads them (API.md `columns`).
    void trainedModelColumnNames()
    {
        const QJsonDocument doc = QJsonDocument::fromJson(R"({"framework": "XGBOOST",
            "featureImportance": {"columns": [{"column": 2, "total_gain": 3.5, "splits": 4}]},
            "inputSchema": {"task": "classification", "numColumns": 5, "columns": [
                {"column": 1, "type": "target", "treatment": "target"},
                {"column": 2, "type": "numeric", "treatment": "numeric", "mean": 14.5},
                {"column": 3, "type": "categorical", "treatment": "vocabulary",
                 "vocabulary": ["a", "b", "c", "d", "e", "f", "g"]},
                {"column": 4, "type": "categorical", "treatment": "identity", "vocabulary": [1, 2]},
                {"column": 5, "type": "key", "treatment": "row_identifier"}]}})");
        const TrainedModel model = TrainedModel::fromJson(doc.object());
        QCOMPARE(model.inputSchema.columns.size(), 5);
        QCOMPARE(model.inputSchema.columns.at(1).mean, std::optional<double>(14.5));
        QCOMPARE(model.columnName(1), QStringLiteral("column 2 · numeric"));
        QCOMPARE(model.columnName(2), QStringLiteral("column 3 · categorical (a, b, c, d, e, …)"));
        // An integer column's categories are numbers in the JSON: their text, not "" (the Predict form's too).
        QCOMPARE(model.columnName(3), QStringLiteral("column 4 · categorical (1, 2)"));
        QCOMPARE(model.columnName(4), QStringLiteral("column 5"));
        QCOMPARE(model.columnName(9), QStringLiteral("column 10")); // no metadata: the position alone
        QCOMPARE(model.importance.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestWireTypes)
#include "tst_wiretypes.moc"
