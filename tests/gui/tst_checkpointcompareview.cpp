// SPDX-License-Identifier: GPL-2.0-or-later
// The Checkpoints tab's compare view against a real executor (started by ExecutorConnection in isolated
// XDG folders): safetensors files written here with known changes (added, removed, reshaped, retyped,
// moved values, untouched values), the TF1 and TF2 half_plus_two fixtures (paired by display name), and a
// 3,000-tensor pair whose statistics are read only for the rows in view, a few at a time.

#include "apiclient.h"
#include "checkpointcompare.h"
#include "checkpointmodels.h"
#include "checkpointspanel.h"
#include "executorconnection.h"
#include "executorenvironment.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>


using namespace Trainyard;
using Change = CheckpointCompareModel::Change;
using Filter = CheckpointCompareFilterModel::Filter;
using State = CheckpointCompareModel::StatisticsState;

namespace {
struct StTensor {
    QString name;
    QString dtype; ///< F32, F64 or I64
    QList<qint64> shape;
    QList<double> values;
};

/// Writes a safetensors file (u64 LE header length, JSON header, contiguous data).
bool writeSafetensors(const QString& path, const QList<StTensor>& tensors)
{
    QJsonObject header;
    QByteArray data;
    for (const StTensor& t : tensors) {
        const qint64 begin = data.size();
        for (double v : t.values) {
            if (t.dtype == QLatin1String("F32")) {
                const float f = float(v);
                data.append(reinterpret_cast<const char*>(&f), 4);
            } else if (t.dtype == QLatin1String("F64")) {
                data.append(reinterpret_cast<const char*>(&v), 8);
            } else {
                const qint64 i = qint64(v);
                data.append(reinterpret_cast<const char*>(&i), 8);
            }
        }
        QJsonArray shape;
        for (qint64 d : t.shape)
            shape.append(d);
        header.insert(t.name,
            QJsonObject { { QStringLiteral("dtype"), t.dtype }, { QStringLiteral("shape"), shape },
                { QStringLiteral("data_offsets"), QJsonArray { begin, qint64(data.size()) } } });
    }
    const QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    QFile f(path);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()) || !f.open(QIODevice::WriteOnly))
        return false;
    const quint64 n = qToLittleEndian(quint64(json.size()));
    f.write(reinterpret_cast<const char*>(&n), 8);
    f.write(json);
    f.write(data);
    return f.flush();
}
} // namespace

class TestCheckpointCompareView : public QObject {
    Q_OBJECT
    QTemporaryDir m_root;
    QString m_jobDir;
    QList<qint64> m_pids;

    QString path(const QString& name) const { return m_root.filePath(name); }

    bool place(const QString& fixture, const QString& to)
    {
        return Test::placeFixture(fixture, m_jobDir + QLatin1Char('/') + to);
    }

    static QStringList shown(const QAbstractItemModel* proxy)
    {
        QStringList names;
        for (int r = 0; r < proxy->rowCount(); ++r)
            names << proxy->index(r, 0).data().toString();
        names.sort();
        return names;
    }

    static int rowsWithState(const CheckpointCompareModel* model, State state)
    {
        int n = 0;
        for (int r = 0; r < model->rowCount(); ++r)
            n += State(model->index(r, 0).data(CheckpointCompareModel::StatisticsStateRole).toInt()) == state;
        return n;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(Test::isolateExecutorEnvironment(m_root, { QStringLiteral("jobdir") }));
        m_jobDir = QFileInfo(path(QStringLiteral("jobdir"))).canonicalFilePath();

        const QString half = QStringLiteral("checkpoints/saved_model_half_plus_two_cpu/variables");
        const QString half2 = QStringLiteral("checkpoints/saved_model_half_plus_two_tf2_cpu/variables");
        QVERIFY(place(half + QStringLiteral(".index"), QStringLiteral("tf1/model.ckpt-100.index")));
        QVERIFY(place(
            half + QStringLiteral(".data-00000-of-00001"), QStringLiteral("tf1/model.ckpt-100.data-00000-of-00001")));
        QVERIFY(place(half2 + QStringLiteral(".index"), QStringLiteral("tf2/model.ckpt-200.index")));
        QVERIFY(place(
            half2 + QStringLiteral(".data-00000-of-00001"), QStringLiteral("tf2/model.ckpt-200.data-00000-of-00001")));

        // w: values +0.5 (mean +0.5, min +0.5, max +0.5, std same); b: untouched; gone: removed; emb: [4] → [2, 2];
        // s: F32 → F64; added: new.
        QVERIFY(writeSafetensors(m_jobDir + QStringLiteral("/st/model-1.safetensors"),
            { { QStringLiteral("w"), QStringLiteral("F32"), { 2, 3 }, { 0, 1, 2, 3, 4, 5 } },
                { QStringLiteral("b"), QStringLiteral("F32"), { 3 }, { 1, 1, 1 } },
                { QStringLiteral("gone"), QStringLiteral("F32"), { 2 }, { 7, 7 } },
                { QStringLiteral("emb"), QStringLiteral("F32"), { 4 }, { 1, 2, 3, 4 } },
                { QStringLiteral("s"), QStringLiteral("F32"), { 1 }, { 2 } } }));
        QVERIFY(writeSafetensors(m_jobDir + QStringLiteral("/st/model-2.safetensors"),
            { { QStringLiteral("w"), QStringLiteral("F32"), { 2, 3 }, { 0.5, 1.5, 2.5, 3.5, 4.5, 5.5 } },
                { QStringLiteral("b"), QStringLiteral("F32"), { 3 }, { 1, 1, 1 } },
                { QStringLiteral("emb"), QStringLiteral("F32"), { 2, 2 }, { 1, 2, 3, 4 } },
                { QStringLiteral("s"), QStringLiteral("F64"), { 1 }, { 2 } },
                { QStringLiteral("added"), QStringLiteral("I64"), { 2 }, { 1, 2 } } }));

        // Many tensors: statistics must be read lazily.
        QList<StTensor> many1, many2;
        for (int i = 0; i < 3000; ++i) {
            const QString name = QStringLiteral("layer%1.weight").arg(i, 4, 10, QLatin1Char('0'));
            many1.append({ name, QStringLiteral("F32"), { 2 }, { double(i), 1 } });
            many2.append({ name, QStringLiteral("F32"), { 2 }, { double(i), 2 } });
        }
        QVERIFY(writeSafetensors(m_jobDir + QStringLiteral("/big/a.safetensors"), many1));
        QVERIFY(writeSafetensors(m_jobDir + QStringLiteral("/big/b.safetensors"), many2));
    }

    void cleanupTestCase()
    {
        Test::releaseJob(m_jobDir);
        Test::stopExecutors(m_pids);
    }

    void compare()
    {
        ExecutorConnection connection;
        connection.start();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ExecutorConnection::State::Connected, 30000);
        m_pids << connection.endpoint().pid;

        Job job;
        job.jobId = QStringLiteral("checkpoint_compare_1");
        TrainingInput& in = job.trainingInput;
        in.scaleTier = QStringLiteral("BASIC");
        in.packageUris = { QStringLiteral(TRAINYARD_SOURCE_DIR "/tests/gui/trainers/consoletest") };
        in.pythonModule = QStringLiteral("consoletest.chatty");
        in.args = { QStringLiteral("--lines"), QStringLiteral("1") };
        in.region = QStringLiteral("us-central1");
        in.jobDir = m_jobDir;
        const ApiResult<Job> created = connection.client()->createJobBlocking(job);
        QVERIFY2(created.ok(), qPrintable(created.error.summary()));

        CheckpointsPanel panel(&connection, created.value);
        panel.resize(1100, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        CheckpointCompareModel* model = panel.compareModel();
        QAbstractItemModelTester modelTester(model);
        QAbstractItemModelTester proxyTester(panel.compareProxy());

        QTRY_COMPARE_WITH_TIMEOUT(panel.checkpointModel()->rowCount(), 6, 15000);
        QVERIFY(!panel.isComparing());
        QVERIFY(panel.selectCheckpoint(QStringLiteral("st/model-1.safetensors")));
        // The combo offers every other checkpoint.
        QTRY_COMPARE(panel.compareCombo()->count(), 1 + 5);
        QVERIFY(panel.compareCombo()->findData(QStringLiteral("st/model-2.safetensors")) > 0);
        QCOMPARE(panel.compareCombo()->findData(QStringLiteral("st/model-1.safetensors")), -1);
        QVERIFY(!panel.compareWith(QStringLiteral("st/model-1.safetensors"))); // not with itself
        QVERIFY(!panel.compareWith(QStringLiteral("nothing.pt")));

        // Added, removed, reshaped, retyped; values of the tensors in view.
        QSignalSpy loaded(&panel, &CheckpointsPanel::compareLoaded);
        QVERIFY(panel.compareWith(QStringLiteral("st/model-2.safetensors")));
        QVERIFY(panel.isComparing());
        QCOMPARE(panel.compareCombo()->currentData().toString(), QStringLiteral("st/model-2.safetensors"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 15000);
        QCOMPARE(model->checkpointA(), QStringLiteral("st/model-1.safetensors"));
        QCOMPARE(model->checkpointB(), QStringLiteral("st/model-2.safetensors"));
        QCOMPARE(model->rowCount(), 6);
        QCOMPARE(model->at(model->rowOf(QStringLiteral("added")))->change, Change::Added);
        QCOMPARE(model->at(model->rowOf(QStringLiteral("gone")))->change, Change::Removed);
        QCOMPARE(model->at(model->rowOf(QStringLiteral("emb")))->change, Change::ShapeChanged);
        QCOMPARE(model->at(model->rowOf(QStringLiteral("s")))->change, Change::DtypeChanged);
        const int w = model->rowOf(QStringLiteral("w"));
        const int b = model->rowOf(QStringLiteral("b"));
        QTRY_COMPARE_WITH_TIMEOUT(model->at(w)->change, Change::ValuesChanged, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(model->at(b)->change, Change::Unchanged, 15000);
        QCOMPARE(model->index(w, CheckpointCompareModel::MeanDeltaColumn).data().toString(), QStringLiteral("+0.5"));
        QCOMPARE(model->index(w, CheckpointCompareModel::MinDeltaColumn).data().toString(), QStringLiteral("+0.5"));
        QCOMPARE(model->index(w, CheckpointCompareModel::StdDeltaColumn).data().toString(), QStringLiteral("0"));
        QCOMPARE(model->index(b, CheckpointCompareModel::MaxDeltaColumn).data().toString(), QStringLiteral("0"));
        QTRY_VERIFY(panel.compareTitle()->text().contains(QStringLiteral("1 Added")));

        // Filter by kind of change (the combo drives the proxy).
        auto choose = [&panel](Filter filter) {
            panel.compareFilterCombo()->setCurrentIndex(panel.compareFilterCombo()->findData(int(filter)));
        };
        choose(Filter::Added);
        QCOMPARE(shown(panel.compareProxy()), QStringList { QStringLiteral("added") });
        choose(Filter::Removed);
        QCOMPARE(shown(panel.compareProxy()), QStringList { QStringLiteral("gone") });
        choose(Filter::ShapeOrDtype);
        QCOMPARE(shown(panel.compareProxy()), (QStringList { QStringLiteral("emb"), QStringLiteral("s") }));
        choose(Filter::ValuesChanged);
        QCOMPARE(shown(panel.compareProxy()), QStringList { QStringLiteral("w") });
        choose(Filter::Unchanged);
        QCOMPARE(shown(panel.compareProxy()), QStringList { QStringLiteral("b") });
        choose(Filter::All);
        QCOMPARE(panel.compareProxy()->rowCount(), 6);

        // TF1 and TF2 bundles of the same model: a, b, c pair up by display name with equal values.
        loaded.clear();
        QVERIFY(panel.selectCheckpoint(QStringLiteral("tf1/model.ckpt-100")));
        QVERIFY(panel.compareWith(QStringLiteral("tf2/model.ckpt-200")));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 15000);
        QCOMPARE(model->rowCount(), 6);
        for (const char* name : { "a", "b", "c" }) {
            const int row = model->rowOf(QLatin1String(name));
            QVERIFY(row >= 0);
            QTRY_COMPARE_WITH_TIMEOUT(model->at(row)->change, Change::Unchanged, 15000);
        }
        QCOMPARE(model->at(model->rowOf(QStringLiteral("a2")))->change, Change::Removed);
        QCOMPARE(model->at(model->rowOf(QStringLiteral("c2")))->change, Change::Removed);
        QCOMPARE(model->at(model->rowOf(QStringLiteral("_CHECKPOINTABLE_OBJECT_GRAPH")))->change, Change::Added);

        // Swap: B becomes A.
        loaded.clear();
        QTest::mouseClick(panel.compareSwapButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 15000);
        QCOMPARE(model->checkpointA(), QStringLiteral("tf2/model.ckpt-200"));
        QCOMPARE(model->checkpointB(), QStringLiteral("tf1/model.ckpt-100"));
        QCOMPARE(panel.selectedCheckpoint(), QStringLiteral("tf2/model.ckpt-200"));
        QCOMPARE(model->at(model->rowOf(QStringLiteral("a2")))->change, Change::Added);

        // 3,000 tensors: only the rows in view are read, at most MaxInFlight at a time.
        loaded.clear();
        QVERIFY(panel.selectCheckpoint(QStringLiteral("big/a.safetensors")));
        QVERIFY(panel.compareWith(QStringLiteral("big/b.safetensors")));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 15000);
        QCOMPARE(model->rowCount(), 3000);
        QVERIFY(model->inFlight() <= CheckpointCompareModel::MaxInFlight);
        QTRY_VERIFY_WITH_TIMEOUT(rowsWithState(model, State::Loaded) > 0 && model->inFlight() == 0, 30000);
        const int visible = rowsWithState(model, State::Loaded);
        qInfo("statistics read for %d of 3000 rows in view", visible);
        QVERIFY2(visible < 200, qPrintable(QString::number(visible)));
        QCOMPARE(model->at(0)->change, Change::ValuesChanged);
        QCOMPARE(model->at(2999)->change, Change::NotCompared);
        // Scrolling to the end reads the rows that come into view.
        panel.compareView()->scrollToBottom();
        QTRY_COMPARE_WITH_TIMEOUT(model->at(2999)->change, Change::ValuesChanged, 30000);
        QVERIFY(rowsWithState(model, State::Loaded) < 400);
        QVERIFY(panel.compareTitle()->text().contains(QStringLiteral("Not compared")));

        // Back to the tensor table.
        QVERIFY(panel.compareWith(QString()));
        QVERIFY(!panel.isComparing());
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(panel.compareCombo()->currentIndex(), 0);
    }
};

QTEST_MAIN(TestCheckpointCompareView)
#include "tst_checkpointcompareview.moc"
