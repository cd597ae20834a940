// SPDX-License-Identifier: GPL-2.0-or-later
// CheckpointCompareModel without widgets or an executor: pairing of tensors (stored names, then TF2
// display names), the kinds of change, statistics fetched on demand with a bounded number in flight
// (a fake fetcher that answers when the test says), stale answers dropped, and the filter proxy.

#include "checkpointcompare.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Trainyard;
using Change = CheckpointCompareModel::Change;
using Filter = CheckpointCompareFilterModel::Filter;
using State = CheckpointCompareModel::StatisticsState;

namespace {
CheckpointTensor tensor(const QString& name, const QString& dtype, const QList<qint64>& shape,
    const QString& display = {}, bool metadata = false)
{
    CheckpointTensor t;
    t.name = name;
    t.displayName = display.isEmpty() ? name : display;
    t.dtype = dtype;
    t.shape = shape;
    t.metadata = metadata;
    return t;
}

CheckpointDetail detail(const QString& name, const QList<CheckpointTensor>& tensors)
{
    CheckpointDetail d;
    d.name = name;
    d.tensors = tensors;
    return d;
}

TensorValues stats(double mean, double std, double min, double max, qint64 count = 10)
{
    TensorValues v;
    v.count = count;
    v.mean = mean;
    v.std = std;
    v.min = min;
    v.max = max;
    v.values = { min, max };
    return v;
}

/// A fetcher whose answers the test gives, in any order.
struct FakeFetcher {
    struct Call {
        QString checkpoint;
        QString tensor;
        CheckpointCompareModel::StatisticsCallback done;
    };
    QList<Call> calls;
    CheckpointCompareModel::Fetcher fetcher()
    {
        return
            [this](const QString& checkpoint, const QString& tensor, CheckpointCompareModel::StatisticsCallback done) {
                calls.append({ checkpoint, tensor, std::move(done) });
            };
    }
    /// Answers the call for `tensor` of `checkpoint`; false when there is none.
    bool answer(const QString& checkpoint, const QString& tensor, const TensorValues& values, const QString& error = {})
    {
        for (qsizetype i = 0; i < calls.size(); ++i) {
            if (calls.at(i).checkpoint == checkpoint && calls.at(i).tensor == tensor) {
                const Call call = calls.takeAt(i);
                call.done(values, error);
                return true;
            }
        }
        return false;
    }
};
} // namespace

class TestCheckpointCompare : public QObject {
    Q_OBJECT

    // A: w [4,4] F32, b [4] F32, step I64, old [2]; B: w [4,4] F32, b [8] F32, step F32, new [3].
    static CheckpointDetail a()
    {
        return detail(QStringLiteral("ckpt-1"),
            { tensor(QStringLiteral("w"), QStringLiteral("F32"), { 4, 4 }),
                tensor(QStringLiteral("b"), QStringLiteral("F32"), { 4 }),
                tensor(QStringLiteral("step"), QStringLiteral("I64"), {}),
                tensor(QStringLiteral("old"), QStringLiteral("F32"), { 2 }) });
    }
    static CheckpointDetail b()
    {
        return detail(QStringLiteral("ckpt-2"),
            { tensor(QStringLiteral("new"), QStringLiteral("F32"), { 3 }),
                tensor(QStringLiteral("w"), QStringLiteral("F32"), { 4, 4 }),
                tensor(QStringLiteral("b"), QStringLiteral("F32"), { 8 }),
                tensor(QStringLiteral("step"), QStringLiteral("F32"), {}) });
    }

private Q_SLOTS:
    void kindsOfChange()
    {
        CheckpointCompareModel model;
        QAbstractItemModelTester tester(&model);
        model.setCheckpoints(a(), b());
        QCOMPARE(model.rowCount(), 5);
        // A's order, then what only B has.
        QCOMPARE(model.at(0)->displayName, QStringLiteral("w"));
        QCOMPARE(model.at(0)->change, Change::NotCompared);
        QCOMPARE(model.at(1)->change, Change::ShapeChanged);
        QCOMPARE(model.at(2)->change, Change::DtypeChanged);
        QCOMPARE(model.at(3)->change, Change::Removed);
        QCOMPARE(model.at(4)->displayName, QStringLiteral("new"));
        QCOMPARE(model.at(4)->change, Change::Added);
        QCOMPARE(model.index(1, CheckpointCompareModel::ShapeColumn).data().toString(), QStringLiteral("[4] → [8]"));
        QCOMPARE(model.index(2, CheckpointCompareModel::DtypeColumn).data().toString(), QStringLiteral("I64 → F32"));
        QCOMPARE(model.index(0, CheckpointCompareModel::ShapeColumn).data().toString(), QStringLiteral("[4, 4]"));
        QCOMPARE(model.index(4, 0).data(CheckpointCompareModel::NameARole).toString(), QString());
        QCOMPARE(model.index(4, 0).data(CheckpointCompareModel::NameBRole).toString(), QStringLiteral("new"));
        QCOMPARE(model.index(3, 0).data(CheckpointCompareModel::NameBRole).toString(), QString());
        const QMap<Change, int> counts = model.counts();
        QCOMPARE(counts.value(Change::Added), 1);
        QCOMPARE(counts.value(Change::Removed), 1);
        QCOMPARE(counts.value(Change::ShapeChanged), 1);
        QCOMPARE(counts.value(Change::DtypeChanged), 1);
        QCOMPARE(counts.value(Change::NotCompared), 1);
        QCOMPARE(model.checkpointA(), QStringLiteral("ckpt-1"));
        QCOMPARE(model.checkpointB(), QStringLiteral("ckpt-2"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void pairsTf2DisplayNames()
    {
        // TF1 `a`, `b` vs TF2 `a/.ATTRIBUTES/VARIABLE_VALUE` (shown as `a`), plus the object graph entry.
        const CheckpointDetail tf1 = detail(QStringLiteral("tf1"),
            { tensor(QStringLiteral("a"), QStringLiteral("DT_FLOAT"), {}),
                tensor(QStringLiteral("a2"), QStringLiteral("DT_FLOAT"), {}),
                tensor(QStringLiteral("b"), QStringLiteral("DT_FLOAT"), {}) });
        const CheckpointDetail tf2 = detail(QStringLiteral("tf2"),
            { tensor(QStringLiteral("_CHECKPOINTABLE_OBJECT_GRAPH"), QStringLiteral("DT_STRING"), {}, {}, true),
                tensor(QStringLiteral("a/.ATTRIBUTES/VARIABLE_VALUE"), QStringLiteral("DT_FLOAT"), {},
                    QStringLiteral("a")),
                tensor(QStringLiteral("b"), QStringLiteral("DT_FLOAT"), {}) });
        CheckpointCompareModel model;
        QAbstractItemModelTester tester(&model);
        model.setCheckpoints(tf1, tf2);
        QCOMPARE(model.rowCount(), 4);
        const int rowA = model.rowOf(QStringLiteral("a"));
        QVERIFY(rowA >= 0);
        QCOMPARE(model.at(rowA)->change, Change::NotCompared);
        QCOMPARE(model.at(rowA)->b.tensor->name, QStringLiteral("a/.ATTRIBUTES/VARIABLE_VALUE"));
        QVERIFY(model.index(rowA, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Stored in B as")));
        QCOMPARE(model.at(model.rowOf(QStringLiteral("a2")))->change, Change::Removed);
        QCOMPARE(model.at(model.rowOf(QStringLiteral("_CHECKPOINTABLE_OBJECT_GRAPH")))->change, Change::Added);
    }

    void statisticsOnDemand()
    {
        // 20 tensors in both: the first 10 requested, at most MaxInFlight at a time.
        QList<CheckpointTensor> tensors;
        for (int i = 0; i < 20; ++i)
            tensors << tensor(QStringLiteral("t%1").arg(i), QStringLiteral("F32"), { 2 });
        CheckpointCompareModel model;
        QAbstractItemModelTester tester(&model);
        FakeFetcher fake;
        model.setFetcher(fake.fetcher());
        model.setCheckpoints(detail(QStringLiteral("A"), tensors), detail(QStringLiteral("B"), tensors));
        QList<int> rows;
        for (int i = 0; i < 10; ++i)
            rows << i;
        model.requestStatistics(rows);
        QCOMPARE(fake.calls.size(), CheckpointCompareModel::MaxInFlight);
        QCOMPARE(model.inFlight(), CheckpointCompareModel::MaxInFlight);
        QCOMPARE(model.queued(), 20 - CheckpointCompareModel::MaxInFlight);
        QCOMPARE(fake.calls.at(0).checkpoint, QStringLiteral("A"));
        QCOMPARE(fake.calls.at(1).checkpoint, QStringLiteral("B"));
        QCOMPARE(fake.calls.at(0).tensor, QStringLiteral("t0"));
        QCOMPARE(State(model.index(0, 0).data(CheckpointCompareModel::StatisticsStateRole).toInt()), State::Loading);
        QCOMPARE(model.index(0, CheckpointCompareModel::MeanDeltaColumn).data().toString(), QStringLiteral("…"));

        // t0 moved; t1 did not.
        QSignalSpy progress(&model, &CheckpointCompareModel::statisticsProgress);
        QVERIFY(fake.answer(QStringLiteral("A"), QStringLiteral("t0"), stats(1.0, 0.5, -1, 3)));
        QCOMPARE(fake.calls.size(), CheckpointCompareModel::MaxInFlight); // the next one started
        QVERIFY(fake.answer(QStringLiteral("B"), QStringLiteral("t0"), stats(1.25, 0.5, -2, 3)));
        QVERIFY(fake.answer(QStringLiteral("A"), QStringLiteral("t1"), stats(7, 1, 6, 8)));
        QVERIFY(fake.answer(QStringLiteral("B"), QStringLiteral("t1"), stats(7, 1, 6, 8)));
        QCOMPARE(progress.size(), 4);
        QCOMPARE(model.at(0)->change, Change::ValuesChanged);
        QCOMPARE(model.at(1)->change, Change::Unchanged);
        QCOMPARE(model.index(0, CheckpointCompareModel::MeanDeltaColumn).data().toString(), QStringLiteral("+0.25"));
        QCOMPARE(model.index(0, CheckpointCompareModel::StdDeltaColumn).data().toString(), QStringLiteral("0"));
        QCOMPARE(model.index(0, CheckpointCompareModel::MinDeltaColumn).data().toString(), QStringLiteral("-1"));
        QCOMPARE(model.index(0, CheckpointCompareModel::MinDeltaColumn).data(CheckpointSortRole).toDouble(), 1.0);
        QVERIFY(model.index(0, CheckpointCompareModel::MeanDeltaColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("1.25")));
        QVERIFY(model.at(0)->a.stats.values.isEmpty()); // only statistics are kept

        // The user scrolled: rows 15..17 replace what was still queued; in-flight ones finish.
        model.requestStatistics({ 15, 16, 17 });
        QCOMPARE(model.queued() + model.inFlight(), 6 + CheckpointCompareModel::MaxInFlight);
        QCOMPARE(State(model.index(9, 0).data(CheckpointCompareModel::StatisticsStateRole).toInt()), State::None);
        while (!fake.calls.isEmpty()) {
            const auto call = fake.calls.first();
            QVERIFY(fake.answer(call.checkpoint, call.tensor, stats(0, 1, -1, 1)));
            QVERIFY(model.inFlight() <= CheckpointCompareModel::MaxInFlight);
        }
        QCOMPARE(model.queued(), 0);
        QCOMPARE(model.inFlight(), 0);
        QCOMPARE(model.at(17)->change, Change::Unchanged);
        QCOMPARE(model.at(9)->change, Change::NotCompared);
        QCOMPARE(model.index(9, CheckpointCompareModel::MeanDeltaColumn).data().toString(), QString());

        // Loaded rows are not fetched again; a failure is shown, not retried.
        model.requestStatistics({ 0, 1, 15, 18 });
        QCOMPARE(fake.calls.size(), 2);
        QVERIFY(fake.answer(QStringLiteral("A"), QStringLiteral("t18"), {}, QStringLiteral("DATA_LOSS: crc mismatch")));
        QVERIFY(fake.answer(QStringLiteral("B"), QStringLiteral("t18"), stats(0, 1, -1, 1)));
        QCOMPARE(State(model.index(18, 0).data(CheckpointCompareModel::StatisticsStateRole).toInt()), State::Failed);
        QCOMPARE(model.index(18, CheckpointCompareModel::MaxDeltaColumn).data().toString(), QStringLiteral("—"));
        QVERIFY(model.index(18, CheckpointCompareModel::MaxDeltaColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("crc mismatch")));
        model.requestStatistics({ 18 });
        QCOMPARE(fake.calls.size(), 0);

        // Everything: the rest, still bounded.
        model.requestAllStatistics();
        QCOMPARE(fake.calls.size(), CheckpointCompareModel::MaxInFlight);
        while (!fake.calls.isEmpty()) {
            const auto call = fake.calls.first();
            QVERIFY(fake.answer(call.checkpoint, call.tensor, stats(0, 1, -1, 1)));
        }
        QCOMPARE(model.counts().value(Change::NotCompared), 1); // t18, failed
    }

    void staleAnswersDropped()
    {
        const QList<CheckpointTensor> tensors = { tensor(QStringLiteral("x"), QStringLiteral("F32"), { 2 }) };
        CheckpointCompareModel model;
        QAbstractItemModelTester tester(&model);
        FakeFetcher fake;
        model.setFetcher(fake.fetcher());
        model.setCheckpoints(detail(QStringLiteral("A"), tensors), detail(QStringLiteral("B"), tensors));
        model.requestStatistics({ 0 });
        QCOMPARE(fake.calls.size(), 2);
        const QList<FakeFetcher::Call> old = fake.calls;
        fake.calls.clear();
        // Another comparison; the old answers arrive afterwards and must not land in it.
        model.setCheckpoints(detail(QStringLiteral("A"), tensors), detail(QStringLiteral("C"), tensors));
        QCOMPARE(model.inFlight(), 0);
        old.at(0).done(stats(1, 1, 1, 1), {});
        old.at(1).done(stats(2, 1, 1, 1), {});
        QCOMPARE(model.inFlight(), 0);
        QCOMPARE(State(model.index(0, 0).data(CheckpointCompareModel::StatisticsStateRole).toInt()), State::None);
        // And answers for a destroyed model are dropped too.
        auto* doomed = new CheckpointCompareModel;
        doomed->setFetcher(fake.fetcher());
        doomed->setCheckpoints(detail(QStringLiteral("A"), tensors), detail(QStringLiteral("B"), tensors));
        doomed->requestStatistics({ 0 });
        delete doomed;
        for (const auto& call : std::as_const(fake.calls))
            call.done(stats(1, 1, 1, 1), {});
    }

    void filterByChange()
    {
        CheckpointCompareModel model;
        FakeFetcher fake;
        model.setFetcher(fake.fetcher());
        CheckpointCompareFilterModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy);
        model.setCheckpoints(a(), b());
        auto shown = [&proxy] {
            QStringList names;
            for (int r = 0; r < proxy.rowCount(); ++r)
                names << proxy.index(r, 0).data().toString();
            return names;
        };
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setFilter(Filter::Added);
        QCOMPARE(shown(), QStringList { QStringLiteral("new") });
        proxy.setFilter(Filter::Removed);
        QCOMPARE(shown(), QStringList { QStringLiteral("old") });
        proxy.setFilter(Filter::ShapeOrDtype);
        QCOMPARE(shown(), (QStringList { QStringLiteral("b"), QStringLiteral("step") }));
        proxy.setFilter(Filter::ValuesChanged);
        QCOMPARE(proxy.rowCount(), 0);
        // The filter follows the statistics as they arrive.
        model.requestStatistics({ 0 });
        QVERIFY(fake.answer(QStringLiteral("ckpt-1"), QStringLiteral("w"), stats(0, 1, -1, 1)));
        QVERIFY(fake.answer(QStringLiteral("ckpt-2"), QStringLiteral("w"), stats(0.5, 1, -1, 1)));
        QCOMPARE(shown(), QStringList { QStringLiteral("w") });
        proxy.setFilter(Filter::Unchanged);
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setFilter(Filter::Differences);
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setFilter(Filter::All);
        proxy.setFilterText(QStringLiteral("NE"));
        QCOMPARE(shown(), QStringList { QStringLiteral("new") });
        proxy.setFilterText(QString());

        // Sorting by |Δ mean|: known deltas above unknown ones in descending order.
        proxy.sort(CheckpointCompareModel::MeanDeltaColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("w"));
    }
};

QTEST_GUILESS_MAIN(TestCheckpointCompare)
#include "tst_checkpointcompare.moc"
