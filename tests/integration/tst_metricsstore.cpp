// SPDX-License-Identifier: GPL-2.0-or-later
// MetricsStore's blocks on a real SQLite file: points across block boundaries, paging by seq, purges inside
// and across blocks (also of points of the same batch), seqs that never come back after a purge or a reopen,
// points stored bit for bit, and the migrations of databases of the row-per-point schema and of the first block
// schema (32-byte points).
#include "jobkeys.h"
#include "metricsstore.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cmath>
#include <limits>

using namespace Trainyard;

namespace {
const MetricSeriesKey Loss { QStringLiteral("scalar"), QStringLiteral("."), QStringLiteral("loss"), {}, {} };
const MetricSeriesKey Accuracy { QStringLiteral("scalar"), QStringLiteral("."), QStringLiteral("accuracy"), {}, {} };

void appendPoints(MetricBatch& batch, const MetricSeriesKey& key, qint64 fromStep, qint64 count)
{
    const int index = batch.seriesIndex(key);
    for (qint64 step = fromStep; step < fromStep + count; ++step)
        batch.append(index, step, 1000.0 + double(step), double(step) / 2);
}

QList<qint64> steps(const QList<MetricPoint>& points)
{
    QList<qint64> out;
    for (const MetricPoint& p : points)
        out << p.step;
    return out;
}
} // namespace

class TestMetricsStore : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_db = 0;
    QString nextPath() { return m_dir.filePath(QStringLiteral("metrics_%1.sqlite").arg(++m_db)); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void blocksPagingAndPurges()
    {
        const QString path = nextPath();
        const qint64 n = 3 * MetricsStore::BlockPoints + 17;
        qint64 lastSeq = 0;
        {
            MetricsStore store;
            QString error;
            QVERIFY2(store.open(path, &error), qPrintable(error));
            // Two series interleaved (their seqs interleave too), in several batches that each fill part of a block.
            for (qint64 from = 0; from < n; from += 700) {
                MetricBatch batch;
                batch.job = Test::localJob(QStringLiteral("j"));
                appendPoints(batch, Loss, from, std::min<qint64>(700, n - from));
                appendPoints(batch, Accuracy, from, 1);
                QVERIFY(store.apply(batch, &error));
            }
            const std::optional<MetricSeriesInfo> loss
                = store.findSeries(Test::localJob(QStringLiteral("j")), Loss.name());
            QVERIFY(loss);
            QCOMPARE(loss->pointCount, n);
            // Every page, by seq cursor, in step order, none twice.
            QList<MetricPoint> all;
            qint64 after = 0;
            for (;;) {
                const QList<MetricPoint> page = store.points(loss->id, after, 333);
                if (page.isEmpty())
                    break;
                all += page;
                after = page.last().seq;
            }
            QCOMPARE(all.size(), n);
            for (qint64 i = 0; i < n; ++i) {
                QCOMPARE(all[i].step, i);
                QCOMPARE(all[i].wallTime, 1000.0 + double(i));
                QCOMPARE(all[i].value, double(i) / 2);
                if (i > 0)
                    QVERIFY(all[i].seq > all[i - 1].seq);
            }
            QCOMPARE(loss->lastSeq, all.last().seq);

            // A restarted trainer: points from step 1500 go (inside the second block, the rest of it and the
            // blocks after), and this batch's own points before the purge go with them.
            MetricBatch restart;
            restart.job = Test::localJob(QStringLiteral("j"));
            appendPoints(restart, Loss, n, 5);
            restart.purgeSeries(restart.seriesIndex(Loss), 1500);
            appendPoints(restart, Loss, 1500, 2);
            QVERIFY(store.apply(restart, &error));
            const QList<MetricPoint> after1500 = store.points(loss->id, 0, 1000000);
            QCOMPARE(after1500.size(), 1502);
            QCOMPARE(after1500.at(1499).step, 1499);
            QCOMPARE(steps(after1500.mid(1500)), (QList<qint64> { 1500, 1501 }));
            QVERIFY(after1500.at(1500).seq > all.last().seq + 5); // seqs are never given twice
            QCOMPARE(store.findSeries(Test::localJob(QStringLiteral("j")), Loss.name())->pointCount, 1502);
            lastSeq = after1500.last().seq;
            // A NaN survives the blob.
            MetricBatch nan;
            nan.job = Test::localJob(QStringLiteral("j"));
            nan.append(nan.seriesIndex(Loss), 1502, 1.0, std::nan(""));
            QVERIFY(store.apply(nan, &error));
            QVERIFY(std::isnan(store.points(loss->id, lastSeq, 10).value(0).value));
            ++lastSeq;
        }
        // Reopened: the counter goes on after the last seq given.
        MetricsStore again;
        QString error;
        QVERIFY(again.open(path, &error));
        MetricBatch batch;
        batch.job = Test::localJob(QStringLiteral("j"));
        appendPoints(batch, Loss, 1503, 1);
        QVERIFY(again.apply(batch, &error));
        const std::optional<MetricSeriesInfo> loss = again.findSeries(Test::localJob(QStringLiteral("j")), Loss.name());
        QCOMPARE(loss->pointCount, 1504);
        QVERIFY(loss->lastSeq > lastSeq);
    }

    void purgesTakeTheBatchsEarlierPointsOnly()
    {
        // A restarted run (SessionLog START at step 5): every scalar series of the run loses its points from step 5,
        // stored or appended by the batch before the purge; points appended after it stay, also of a series
        // the batch names only after the purge.
        const MetricSeriesKey Lr { QStringLiteral("scalar"), QStringLiteral("."), QStringLiteral("lr"), {}, {} };
        const MetricSeriesKey Eval { QStringLiteral("scalar"), QStringLiteral("eval"), QStringLiteral("loss"), {}, {} };
        MetricsStore store;
        QString error;
        QVERIFY2(store.open(nextPath(), &error), qPrintable(error));
        MetricBatch first;
        first.job = Test::localJob(QStringLiteral("j"));
        for (const MetricSeriesKey& key : { Loss, Accuracy, Lr, Eval })
            appendPoints(first, key, 0, 10);
        QVERIFY(store.apply(first, &error));
        MetricBatch restart;
        restart.job = Test::localJob(QStringLiteral("j"));
        appendPoints(restart, Loss, 10, 1);
        appendPoints(restart, Accuracy, 10, 2);
        restart.purgeRun(QStringLiteral("."), 5);
        appendPoints(restart, Accuracy, 5, 1);
        appendPoints(restart, Loss, 5, 2);
        appendPoints(restart, Lr, 5, 1);
        QVERIFY(store.apply(restart, &error));
        bool countsMatch = true; // each series' point_count and last_seq are those of its points
        auto stepsOf = [&](const MetricSeriesKey& key) {
            const std::optional<MetricSeriesInfo> s = store.findSeries(Test::localJob(QStringLiteral("j")), key.name());
            const QList<MetricPoint> points = store.points(s->id, 0, 1000);
            countsMatch = countsMatch && s->pointCount == points.size() && s->lastSeq == points.last().seq;
            return steps(points);
        };
        QCOMPARE(stepsOf(Loss), (QList<qint64> { 0, 1, 2, 3, 4, 5, 6 }));
        QCOMPARE(stepsOf(Accuracy), (QList<qint64> { 0, 1, 2, 3, 4, 5 }));
        QCOMPARE(stepsOf(Lr), (QList<qint64> { 0, 1, 2, 3, 4, 5 }));
        QCOMPARE(stepsOf(Eval).size(), 10); // another run
        QVERIFY(countsMatch);
    }

    void storesPointsBitForBit_data()
    {
        QTest::addColumn<QList<MetricPoint>>("points");
        QTest::addRow("floats") << QList<MetricPoint> { { 0, 0, 1795317519.0123, 0.5 },
            { 0, 1, 1795317519.0124, 0.25f } };
        QTest::addRow("doubles, steps back and far") << QList<MetricPoint> { { 0, 1LL << 40, 1795317519.0123, 0.1 },
            { 0, -5, 0.0, -1e300 }, { 0, std::numeric_limits<qint64>::max(), -1.5, 1.0 / 3 },
            { 0, std::numeric_limits<qint64>::min(), 1e-300, std::numeric_limits<double>::infinity() } };
        QTest::addRow("a NaN with a payload")
            << QList<MetricPoint> { { 0, 3, 1.0, std::bit_cast<double>(0x7ff0000000000123ULL) },
                   { 0, 4, std::nextafter(1.0, 2.0), -0.0 } };
    }

    void storesPointsBitForBit()
    {
        QFETCH(QList<MetricPoint>, points);
        MetricsStore store;
        QString error;
        QVERIFY2(store.open(nextPath(), &error), qPrintable(error));
        MetricBatch batch;
        batch.job = Test::localJob(QStringLiteral("j"));
        const int index = batch.seriesIndex(Loss);
        for (const MetricPoint& p : std::as_const(points))
            batch.append(index, p.step, p.wallTime, p.value);
        QVERIFY(store.apply(batch, &error));
        const QList<MetricPoint> stored
            = store.points(store.findSeries(Test::localJob(QStringLiteral("j")), Loss.name())->id, 0, 100);
        QCOMPARE(stored.size(), points.size());
        for (qsizetype i = 0; i < stored.size(); ++i) {
            QCOMPARE(stored[i].step, points[i].step);
            QCOMPARE(std::bit_cast<quint64>(stored[i].wallTime), std::bit_cast<quint64>(points[i].wallTime));
            QCOMPARE(std::bit_cast<quint64>(stored[i].value), std::bit_cast<quint64>(points[i].value));
        }
    }

    void upgradesFixed32Blocks()
    {
        // A database of the first block schema: a WITHOUT ROWID table of 32-byte points. Its blocks are read as
        // they are, and the last one is rewritten in the current encoding when points are appended to it.
        const QString path = nextPath();
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fixed32"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral(
                "CREATE TABLE series (id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, name TEXT NOT NULL, kind TEXT "
                "NOT NULL, run TEXT NOT NULL, tag TEXT NOT NULL, task_name TEXT NOT NULL, trial_id TEXT NOT NULL, "
                "point_count INTEGER NOT NULL, last_seq INTEGER NOT NULL, UNIQUE(job_id, name))")));
            QVERIFY(q.exec(QStringLiteral(
                "CREATE TABLE blocks (series_id INTEGER NOT NULL, block INTEGER NOT NULL, count INTEGER NOT NULL, "
                "first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, min_step INTEGER NOT NULL, max_step INTEGER "
                "NOT NULL, data BLOB NOT NULL, PRIMARY KEY(series_id, block)) WITHOUT ROWID")));
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")));
            QVERIFY(q.exec(QStringLiteral("INSERT INTO meta VALUES ('next_seq', 3001)")));
            const int n = MetricsStore::BlockPoints + 10;
            QVERIFY(q.exec(QStringLiteral("INSERT INTO series VALUES (1, 'j', 'scalar/./loss', 'scalar', '.', 'loss', "
                                          "'', '', %1, %2)")
                               .arg(n)
                               .arg(2 * n)));
            for (int block = 0; block < 2; ++block) {
                QByteArray data;
                const int from = block * MetricsStore::BlockPoints;
                const int to = std::min(n, from + MetricsStore::BlockPoints);
                for (int i = from; i < to; ++i) {
                    const struct {
                        qint64 seq, step;
                        double wallTime, value;
                    } p { 2 * i + 2, i, 1000.0 + i, double(i) / 3 };
                    data.append(reinterpret_cast<const char*>(&p), sizeof p);
                }
                q.prepare(QStringLiteral("INSERT INTO blocks VALUES (1, ?, ?, ?, ?, ?, ?, ?)"));
                for (const QVariant& v : { QVariant(block), QVariant(to - from), QVariant(2 * from + 2),
                         QVariant(2 * to), QVariant(from), QVariant(to - 1), QVariant(data) })
                    q.addBindValue(v);
                QVERIFY(q.exec());
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("fixed32"));

        MetricsStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        // Rows of that time hold the bare job ID; the executor hands them to their projects at start.
        QCOMPARE(store.legacyJobIds(), QStringList { QStringLiteral("j") });
        QVERIFY2(store.adoptLegacyJobIds({}, &error), qPrintable(error));
        const qint64 id = store.findSeries(Test::localJob(QStringLiteral("j")), Loss.name())->id;
        QList<MetricPoint> points = store.points(id, 0, 100000);
        QCOMPARE(points.size(), MetricsStore::BlockPoints + 10);
        QCOMPARE(points.at(1030).seq, 2062);
        QCOMPARE(points.at(1030).value, 1030.0 / 3);
        MetricBatch batch;
        batch.job = Test::localJob(QStringLiteral("j"));
        appendPoints(batch, Loss, MetricsStore::BlockPoints + 10, 5);
        QVERIFY(store.apply(batch, &error));
        points = store.points(id, 2000, 100000);
        QList<qint64> expected; // the old points past seq 2000, then the new ones
        for (qint64 step = 1000; step < MetricsStore::BlockPoints + 15; ++step)
            expected << step;
        QCOMPARE(steps(points), expected);
        QCOMPARE(points.at(30).seq, 2062);
        QCOMPARE(points.at(30).value, 1030.0 / 3);
        QCOMPARE(points.last().seq, 3005);
    }

    void migratesRowPerPointDatabases()
    {
        const QString path = nextPath();
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral(
                "CREATE TABLE series (id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, name TEXT NOT NULL, kind TEXT "
                "NOT NULL, run TEXT NOT NULL, tag TEXT NOT NULL, task_name TEXT NOT NULL, trial_id TEXT NOT NULL, "
                "point_count INTEGER NOT NULL, last_seq INTEGER NOT NULL, UNIQUE(job_id, name))")));
            QVERIFY(q.exec(
                QStringLiteral("CREATE TABLE points (seq INTEGER PRIMARY KEY AUTOINCREMENT, series_id "
                               "INTEGER NOT NULL, step INTEGER NOT NULL, wall_time REAL NOT NULL, value REAL)")));
            QVERIFY(q.exec(QStringLiteral("INSERT INTO series VALUES (1, 'j', 'scalar/./loss', 'scalar', '.', 'loss', "
                                          "'', '', 2500, 5000)")));
            QVERIFY(db.transaction());
            for (int i = 0; i < 2500; ++i)
                QVERIFY(q.exec(QStringLiteral("INSERT INTO points (seq, series_id, step, wall_time, value) VALUES "
                                              "(%1, 1, %2, %3, %4)")
                                   .arg(2 * i + 2)
                                   .arg(i)
                                   .arg(1000 + i)
                                   .arg(i == 7 ? QStringLiteral("NULL") : QString::number(i))));
            // A purge had removed the newest rows: their seqs must not come back.
            QVERIFY(q.exec(QStringLiteral("INSERT INTO points (seq, series_id, step, wall_time, value) VALUES "
                                          "(9000, 1, 9000, 0, 0)")));
            QVERIFY(q.exec(QStringLiteral("DELETE FROM points WHERE seq = 9000")));
            QVERIFY(db.commit());
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("old"));

        MetricsStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        // Rows of that time hold the bare job ID; the executor hands them to their projects at start.
        QCOMPARE(store.legacyJobIds(), QStringList { QStringLiteral("j") });
        QVERIFY2(store.adoptLegacyJobIds({}, &error), qPrintable(error));
        const std::optional<MetricSeriesInfo> loss
            = store.findSeries(Test::localJob(QStringLiteral("j")), QStringLiteral("scalar/./loss"));
        QVERIFY(loss);
        const QList<MetricPoint> points = store.points(loss->id, 0, 100000);
        QCOMPARE(points.size(), 2500);
        QCOMPARE(points.at(10).seq, 22);
        QCOMPARE(points.at(10).step, 10);
        QCOMPARE(points.at(10).wallTime, 1010.0);
        QVERIFY(std::isnan(points.at(7).value));
        QCOMPARE(store.points(loss->id, 4000, 5).first().seq, 4002);
        MetricBatch batch;
        batch.job = Test::localJob(QStringLiteral("j"));
        appendPoints(batch, Loss, 2500, 1);
        QVERIFY(store.apply(batch, &error));
        QCOMPARE(store.findSeries(Test::localJob(QStringLiteral("j")), Loss.name())->lastSeq, 9001);
    }
};

QTEST_GUILESS_MAIN(TestMetricsStore)
#include "tst_metricsstore.moc"
