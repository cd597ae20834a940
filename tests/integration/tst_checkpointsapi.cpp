// SPDX-License-Identifier: GPL-2.0-or-later
// The real trainyard-executor serving `…/jobs/{id}/checkpoints` over a job dir made of copies of
// the shared fixtures (TF bundles with a `checkpoint` state file, torch.save archives, safetensors,
// a SavedModel), plus what must never be served: hidden temporaries, symlinks out of the job dir,
// `..` names. Checked against the fixtures' expected.json and against CheckpointReader on the
// original files, both over raw HTTP and through ApiClient.
#include "apiclient.h"
#include "apirequest.h"
#include "checkpointindex.h"
#include "checkpointreader.h"
#include "executorprocess.h"
#include "trainingpackage.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Trainyard;

namespace {
using Response = Trainyard::Test::ApiResponse;

QString errorStatus(const QJsonObject& json)
{
    return json.value(QStringLiteral("error")).toObject().value(QStringLiteral("status")).toString();
}

QString fixture(const QString& relative)
{
    return QStringLiteral(TRAINYARD_FIXTURES_DIR "/") + relative;
}

/// A tensor as a fixture's expected.json lists it: name, dtype, shape, and (TF) size and values.
struct ExpectedTensor {
    QString name;
    QString dtype;
    QList<qint64> shape;
    qint64 size = -1;
    QList<double> values;
};

/// Reads both shapes of expected.json: TF bundles' list (a header entry, then one object per tensor
/// with `shard_id`, `size`, `values`) and PyTorch's `{"tensors": [...], "scalars": {...}}`.
QList<ExpectedTensor> expectedTensors(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    const QJsonArray list = doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("tensors")).toArray();
    QList<ExpectedTensor> out;
    for (const QJsonValue& v : list) {
        const QJsonObject o = v.toObject();
        if (!o.contains(QStringLiteral("name")))
            continue; // the header entry
        ExpectedTensor t;
        t.name = o.value(QStringLiteral("name")).toString();
        t.dtype = o.value(QStringLiteral("dtype")).toString();
        const QJsonArray shape = o.value(QStringLiteral("shape")).toArray();
        for (const QJsonValue& d : shape)
            t.shape.append(d.toInteger());
        if (o.contains(QStringLiteral("size")))
            t.size = o.value(QStringLiteral("size")).toInteger();
        const QJsonArray values = o.value(QStringLiteral("values")).toArray();
        for (const QJsonValue& x : values)
            t.values.append(x.toDouble());
        out.append(t);
    }
    return out;
}
} // namespace

class TestCheckpointsApi : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_jobDir;
    QString m_packageDir;
    Trainyard::Test::ExecutorProcess m_executor { m_root.path() };
    QUrl m_url;
    QByteArray m_token;
    QNetworkAccessManager m_nam;
    QDateTime m_t0;
    /// Expected listing, newest first: name → total size of its files.
    QList<QPair<QString, qint64>> m_expected;

    Response get(const QString& path, const QString& query = {})
    {
        QUrl url = m_url;
        url.setPath(path, QUrl::TolerantMode);
        if (!query.isEmpty())
            url.setQuery(query);
        return Trainyard::Test::sendApiRequest(m_nam, "GET", url, {}, { { "Authorization", "Bearer " + m_token } });
    }

    QString jobPath(const QString& jobId, const QString& suffix = {}) const
    {
        return QStringLiteral("/v1/projects/local/jobs/") + jobId + suffix;
    }

    /// `…/checkpoints/<name URL-encoded as one segment>`.
    Response detail(const QString& name, const QString& query = {})
    {
        return get(jobPath(QStringLiteral("ckpt_job"), QStringLiteral("/checkpoints/"))
                + QString::fromLatin1(QUrl::toPercentEncoding(name)),
            query);
    }

    /// Copies a fixture into the job dir (writable, with a fixed mtime `offsetS` after m_t0).
    bool place(const QString& from, const QString& to, int offsetS)
    {
        const QString target = m_jobDir + QLatin1Char('/') + to;
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(fixture(from), target))
            return false;
        QFile file(target);
        if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) || !file.open(QIODevice::ReadWrite))
            return false;
        return file.setFileTime(m_t0.addSecs(offsetS), QFileDevice::FileModificationTime);
    }

    qint64 sizeOf(const QStringList& files) const
    {
        qint64 total = 0;
        for (const QString& f : files)
            total += QFileInfo(fixture(f)).size();
        return total;
    }

    QJsonObject jobJson(const QString& jobId, const QString& jobDir) const
    {
        QJsonObject input {
            { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
            { QStringLiteral("packageUris"), QJsonArray { m_packageDir } },
            { QStringLiteral("pythonModule"), QStringLiteral("ckpttest.task") },
            { QStringLiteral("region"), QStringLiteral("us-central1") },
        };
        if (!jobDir.isEmpty())
            input.insert(QStringLiteral("jobDir"), jobDir);
        return QJsonObject { { QStringLiteral("jobId"), jobId }, { QStringLiteral("trainingInput"), input } };
    }

    bool create(const QJsonObject& job)
    {
        QUrl url = m_url;
        url.setPath(QStringLiteral("/v1/projects/local/jobs"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + m_token);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply* reply = m_nam.post(request, QJsonDocument(job).toJson());
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            finished.wait(30000);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status != 200)
            qWarning() << reply->readAll();
        reply->deleteLater();
        return status == 200;
    }

    ApiClient client() { return ApiClient(m_url, m_token); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char* sub : { "run", "data", "config", "pkg/ckpttest", "job" })
            QVERIFY(QDir().mkpath(m_root.filePath(QString::fromLatin1(sub))));
        m_jobDir = QFileInfo(m_root.filePath(QStringLiteral("job"))).canonicalFilePath();
        m_packageDir = m_root.filePath(QStringLiteral("pkg"));
        auto write = [](const QString& path, const QByteArray& text) {
            QFile file(path);
            return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
        };
        QVERIFY(Trainyard::Test::writeTrainingPackage(m_packageDir, QStringLiteral("ckpttest"),
            "print('checkpoints test')\n", QStringLiteral("trainyard-ckpttest")));

        // The job dir, oldest first. Times are fixed so that "newest first" has one right answer.
        m_t0 = QDateTime::fromString(QStringLiteral("2026-01-02T03:04:05.678Z"), Qt::ISODateWithMs);
        const QString half = QStringLiteral("checkpoints/saved_model_half_plus_two_cpu/variables");
        const QString tf2 = QStringLiteral("checkpoints/saved_model_half_plus_two_tf2_cpu/variables");
        const QString counter = QStringLiteral("checkpoints/saved_model_counter/variables");
        const QString data = QStringLiteral(".data-00000-of-00001");
        const QString index = QStringLiteral(".index");
        QVERIFY(place(counter + index, QStringLiteral("export/1/variables/variables.index"), 10));
        QVERIFY(place(counter + data, QStringLiteral("export/1/variables/variables") + data, 10));
        {
            QFile pb(m_jobDir + QStringLiteral("/export/1/saved_model.pb"));
            QVERIFY(pb.open(QIODevice::WriteOnly));
            QCOMPARE(pb.write(QByteArray(100, 'x')), 100);
            QVERIFY(pb.flush()); // before the time is set: writing later would update it
            QVERIFY(pb.setFileTime(m_t0.addSecs(20), QFileDevice::FileModificationTime));
        }
        QVERIFY(place(half + index, QStringLiteral("model.ckpt-100.index"), 100));
        QVERIFY(place(half + data, QStringLiteral("model.ckpt-100") + data, 100));
        QVERIFY(place(tf2 + index, QStringLiteral("model.ckpt-200.index"), 200));
        QVERIFY(place(tf2 + data, QStringLiteral("model.ckpt-200") + data, 201));
        QVERIFY(write(m_jobDir + QStringLiteral("/checkpoint"),
            "model_checkpoint_path: \"model.ckpt-200\"\n"
            "all_model_checkpoint_paths: \"model.ckpt-100\"\n"
            "all_model_checkpoint_paths: \"model.ckpt-200\"\n"));
        QVERIFY(place(QStringLiteral("pytorch/test.pt"), QStringLiteral("checkpoints/ckpt-epoch-1.pt"), 300));
        QVERIFY(place(QStringLiteral("pytorch/mlp_epoch3.pt"), QStringLiteral("checkpoints/ckpt-epoch-3.pt"), 400));
        QVERIFY(place(QStringLiteral("safetensors/jfk-codes.safetensors"), QStringLiteral("codes.safetensors"), 500));
        // The exported model, written last (issue 46 item 3: it was listed first and selected as the newest).
        QVERIFY(place(QStringLiteral("pytorch/torchscript.pt"), QStringLiteral("model/model.pt"), 900));
        // What must not be listed: a trainer's temporary file, files that only look like checkpoints,
        // and everything symlinks lead to outside the job dir.
        QVERIFY(place(QStringLiteral("pytorch/test.pt"), QStringLiteral("checkpoints/.ckpt-epoch-4.pt.tmp42"), 600));
        QVERIFY(write(m_jobDir + QStringLiteral("/notes.txt"), "not a checkpoint\n"));
        QVERIFY(write(m_jobDir + QStringLiteral("/words.index"), "an index that is not a LevelDB table\n"));
        QVERIFY(QFile::link(fixture(QStringLiteral("pytorch/test.pt")), m_jobDir + QStringLiteral("/escape.pt")));
        QVERIFY(QFile::link(fixture(QStringLiteral("checkpoints")), m_jobDir + QStringLiteral("/outside")));
        // A folder link out to the host's /etc (issue 26, item 5): whether a name below it exists there or not must
        // not show in the answer.
        QVERIFY(QFile::link(QStringLiteral("/etc"), m_jobDir + QStringLiteral("/etc")));
        // Links out of the job dir to a path that does not exist: answered as those that do (no existence oracle).
        QVERIFY(QFile::link(QStringLiteral("/nonexistent-trainyard/model.pt"), m_jobDir + QStringLiteral("/gone.pt")));
        QVERIFY(QFile::link(
            QStringLiteral("/nonexistent-trainyard/bundle.index"), m_jobDir + QStringLiteral("/gone.index")));
        // A bundle whose index is here but whose shard is a symlink to a file elsewhere.
        QVERIFY(place(counter + index, QStringLiteral("leak.index"), 5));
        QVERIFY(QFile::link(fixture(counter + data), m_jobDir + QStringLiteral("/leak") + data));
        // A hard link to a file outside the job dir (its other name is outside; nothing in the job dir says so):
        // neither listed nor served, as no multiply-linked file is.
        const QString secret = m_root.filePath(QStringLiteral("secret.pt"));
        QVERIFY(QFile::copy(fixture(QStringLiteral("pytorch/test.pt")), secret));
        QCOMPARE(::link(QFile::encodeName(secret).constData(),
                     QFile::encodeName(m_jobDir + QStringLiteral("/hardlink.pt")).constData()),
            0);
        // Sharded safetensors indexes whose shards lie outside their folder: listed (the index is a file of the
        // job dir), refused when read.
        auto writeAt = [this, &write](const QString& name, const QByteArray& text, int offsetS) {
            QFile file(m_jobDir + QLatin1Char('/') + name);
            return write(file.fileName(), text) && file.open(QIODevice::ReadWrite)
                && file.setFileTime(m_t0.addSecs(offsetS), QFileDevice::FileModificationTime);
        };
        const QByteArray upIndex = "{\"metadata\":{},\"weight_map\":{\"codes\":\"../codes.safetensors\"}}";
        const QByteArray absoluteIndex = "{\"metadata\":{},\"weight_map\":{\"codes\":\""
            + QFile::encodeName(m_root.filePath(QStringLiteral("job/codes.safetensors"))) + "\"}}";
        QVERIFY(QDir().mkpath(m_jobDir + QStringLiteral("/shards")));
        QVERIFY(writeAt(QStringLiteral("shards/up.safetensors.index.json"), upIndex, 2));
        QVERIFY(writeAt(QStringLiteral("absolute.safetensors.index.json"), absoluteIndex, 1));

        m_expected = {
            { QStringLiteral("codes.safetensors"), sizeOf({ QStringLiteral("safetensors/jfk-codes.safetensors") }) },
            { QStringLiteral("checkpoints/ckpt-epoch-3.pt"), sizeOf({ QStringLiteral("pytorch/mlp_epoch3.pt") }) },
            { QStringLiteral("checkpoints/ckpt-epoch-1.pt"), sizeOf({ QStringLiteral("pytorch/test.pt") }) },
            { QStringLiteral("model.ckpt-200"), sizeOf({ tf2 + index, tf2 + data }) },
            { QStringLiteral("model.ckpt-100"), sizeOf({ half + index, half + data }) },
            { QStringLiteral("export/1"), sizeOf({ counter + index, counter + data }) + 100 },
            { QStringLiteral("leak"), sizeOf({ counter + index }) },
            { QStringLiteral("shards/up.safetensors.index.json"), qint64(upIndex.size()) },
            { QStringLiteral("absolute.safetensors.index.json"), qint64(absoluteIndex.size()) },
            { QStringLiteral("model/model.pt"), sizeOf({ QStringLiteral("pytorch/torchscript.pt") }) },
        };

        QString error;
        QVERIFY2(m_executor.start(&error), qPrintable(error));
        m_url = m_executor.url();
        m_token = m_executor.token();

        QVERIFY(create(jobJson(QStringLiteral("ckpt_job"), m_jobDir)));
        QVERIFY(create(jobJson(QStringLiteral("no_dir_job"), QString())));
        QVERIFY(create(jobJson(QStringLiteral("missing_dir_job"), m_root.filePath(QStringLiteral("never/made")))));
    }

    void listing()
    {
        const Response r = get(jobPath(QStringLiteral("ckpt_job"), QStringLiteral("/checkpoints")));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QStringLiteral("jobDir")).toString(), m_jobDir);
        QVERIFY(!r.json.contains(QStringLiteral("truncated")));
        const QJsonArray list = r.json.value(QStringLiteral("checkpoints")).toArray();
        QStringList names;
        for (const QJsonValue& v : list)
            names.append(v.toObject().value(QStringLiteral("name")).toString());
        QStringList expectedNames;
        for (const auto& [name, size] : std::as_const(m_expected))
            expectedNames.append(name);
        QCOMPARE(names, expectedNames);

        QHash<QString, QJsonObject> byName;
        for (const QJsonValue& v : list)
            byName.insert(v.toObject().value(QStringLiteral("name")).toString(), v.toObject());
        for (const auto& [name, size] : std::as_const(m_expected)) {
            const QJsonObject c = byName.value(name);
            QVERIFY2(c.value(QStringLiteral("sizeBytes")).isString(), qPrintable(name));
            QCOMPARE(c.value(QStringLiteral("sizeBytes")).toString(), QString::number(size));
            QCOMPARE(c.value(QStringLiteral("current")).toBool(), name == QLatin1String("model.ckpt-200"));
            QCOMPARE(c.value(QStringLiteral("exportedModel")).toBool(), name == QLatin1String("model/model.pt"));
        }

        auto field = [&](const char* name, const char* key) {
            return byName.value(QString::fromLatin1(name)).value(QString::fromLatin1(key)).toVariant();
        };
        QCOMPARE(field("model.ckpt-200", "format").toString(), QStringLiteral("tf-bundle"));
        QCOMPARE(field("export/1", "format").toString(), QStringLiteral("tf-saved-model"));
        QCOMPARE(field("checkpoints/ckpt-epoch-3.pt", "format").toString(), QStringLiteral("pytorch"));
        QCOMPARE(field("codes.safetensors", "format").toString(), QStringLiteral("safetensors"));
        // Steps: from the name, or the archive's global_step; epochs from the archive or the name.
        QCOMPARE(field("model.ckpt-100", "step").toString(), QStringLiteral("100"));
        QCOMPARE(field("model.ckpt-200", "step").toString(), QStringLiteral("200"));
        QCOMPARE(field("checkpoints/ckpt-epoch-3.pt", "step").toString(), QStringLiteral("1407"));
        QCOMPARE(field("checkpoints/ckpt-epoch-3.pt", "epoch").toString(), QStringLiteral("3"));
        QCOMPARE(field("checkpoints/ckpt-epoch-1.pt", "step").toString(), QStringLiteral("1"));
        QCOMPARE(field("checkpoints/ckpt-epoch-1.pt", "epoch").toString(), QStringLiteral("1"));
        QVERIFY(!byName.value(QStringLiteral("codes.safetensors")).contains(QStringLiteral("step")));
        QVERIFY(!byName.value(QStringLiteral("export/1")).contains(QStringLiteral("step")));
        // The newest file of a group decides its time (the shard of model.ckpt-200 is a second newer).
        QCOMPARE(field("model.ckpt-200", "updateTime").toString(), m_t0.addSecs(201).toString(Qt::ISODateWithMs));
        QCOMPARE(field("export/1", "updateTime").toString(), m_t0.addSecs(20).toString(Qt::ISODateWithMs));
        QCOMPARE(field("model.ckpt-100", "files").toStringList(),
            QStringList(
                { QStringLiteral("model.ckpt-100.data-00000-of-00001"), QStringLiteral("model.ckpt-100.index") }));
        QCOMPARE(field("leak", "files").toStringList(), QStringList { QStringLiteral("leak.index") });
        QCOMPARE(field("export/1", "files").toStringList().size(), 3);
    }

    void listingThroughClient()
    {
        ApiClient api = client();
        const ApiResult<CheckpointList> r = api.checkpointsBlocking(QStringLiteral("ckpt_job"));
        QVERIFY2(r.ok(), qPrintable(r.error.summary()));
        QCOMPARE(r.value.jobDir, m_jobDir);
        QCOMPARE(r.value.checkpoints.size(), m_expected.size());
        for (qsizetype i = 0; i < m_expected.size(); ++i) {
            QCOMPARE(r.value.checkpoints.at(i).name, m_expected.at(i).first);
            QCOMPARE(r.value.checkpoints.at(i).sizeBytes, m_expected.at(i).second);
        }
        const CheckpointSummary& current = r.value.checkpoints.at(3);
        QCOMPARE(current.name, QStringLiteral("model.ckpt-200"));
        QVERIFY(current.current);
        QCOMPARE(current.step, std::optional<qint64>(200));
        QCOMPARE(current.updateTimeMs, m_t0.addSecs(201).toMSecsSinceEpoch());
        QCOMPARE(r.value.checkpoints.at(1).epoch, std::optional<qint64>(3));
        QCOMPARE(r.value.checkpoints.at(0).step, std::nullopt);
    }

    void emptyListings_data()
    {
        QTest::addColumn<QString>("jobId");
        QTest::addRow("no job dir") << QStringLiteral("no_dir_job");
        QTest::addRow("job dir not made yet") << QStringLiteral("missing_dir_job");
    }

    void emptyListings()
    {
        QFETCH(QString, jobId);
        const Response r = get(jobPath(jobId, QStringLiteral("/checkpoints")));
        QCOMPARE(r.status, 200);
        QVERIFY(r.json.value(QStringLiteral("checkpoints")).isArray());
        QCOMPARE(r.json.value(QStringLiteral("checkpoints")).toArray().size(), 0);
    }

    void tensorsMatchFixtures_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("expected");
        QTest::addRow("tf1 bundle") << QStringLiteral("model.ckpt-100") << QStringLiteral("tf-bundle")
                                    << QStringLiteral("checkpoints/saved_model_half_plus_two_cpu/expected.json");
        QTest::addRow("tf2 bundle") << QStringLiteral("model.ckpt-200") << QStringLiteral("tf-bundle")
                                    << QStringLiteral("checkpoints/saved_model_half_plus_two_tf2_cpu/expected.json");
        QTest::addRow("saved model") << QStringLiteral("export/1") << QStringLiteral("tf-saved-model")
                                     << QStringLiteral("checkpoints/saved_model_counter/expected.json");
        QTest::addRow("torch.save") << QStringLiteral("checkpoints/ckpt-epoch-3.pt") << QStringLiteral("pytorch")
                                    << QStringLiteral("pytorch/mlp_epoch3.pt.expected.json");
        QTest::addRow("torch.save tensor") << QStringLiteral("checkpoints/ckpt-epoch-1.pt") << QStringLiteral("pytorch")
                                           << QStringLiteral("pytorch/test.pt.expected.json");
        QTest::addRow("torchscript model") << QStringLiteral("model/model.pt") << QStringLiteral("pytorch")
                                           << QStringLiteral("pytorch/torchscript.pt.expected.json");
    }

    void tensorsMatchFixtures()
    {
        QFETCH(QString, name);
        QFETCH(QString, format);
        QFETCH(QString, expected);
        const QList<ExpectedTensor> want = expectedTensors(fixture(expected));
        QVERIFY(!want.isEmpty());
        const Response r = detail(name);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QStringLiteral("name")).toString(), name);
        QCOMPARE(r.json.value(QStringLiteral("format")).toString(), format);
        const QJsonArray tensors = r.json.value(QStringLiteral("tensors")).toArray();
        QCOMPARE(tensors.size(), want.size());
        for (const ExpectedTensor& w : want) {
            const auto it = std::find_if(tensors.begin(), tensors.end(),
                [&](const QJsonValue& v) { return v.toObject().value(QStringLiteral("name")).toString() == w.name; });
            QVERIFY2(it != tensors.end(), qPrintable(w.name));
            const QJsonObject t = it->toObject();
            QCOMPARE(t.value(QStringLiteral("dtype")).toString(), w.dtype);
            QStringList shape;
            for (qint64 d : w.shape)
                shape.append(QString::number(d));
            QCOMPARE(t.value(QStringLiteral("shape")).toVariant().toStringList(), shape);
            if (w.size >= 0)
                QCOMPARE(t.value(QStringLiteral("sizeBytes")).toString(), QString::number(w.size));
            QCOMPARE(t.value(QStringLiteral("shard")).toInt(-1), 0);
            QVERIFY(!t.value(QStringLiteral("file")).toString().startsWith(QLatin1Char('/')));
            QVERIFY(QFileInfo::exists(m_jobDir + QLatin1Char('/') + t.value(QStringLiteral("file")).toString()));
        }
        if (format == QLatin1String("pytorch") && name.endsWith(QLatin1String("3.pt"))) {
            const QJsonObject scalars = r.json.value(QStringLiteral("scalars")).toObject();
            QCOMPARE(scalars.value(QStringLiteral("epoch")).toInteger(), 3);
            QCOMPARE(scalars.value(QStringLiteral("global_step")).toInteger(), 1407);
        }
    }

    void safetensorsHeader()
    {
        ApiClient api = client();
        const ApiResult<CheckpointDetail> r
            = api.checkpointDetailBlocking(QStringLiteral("ckpt_job"), QStringLiteral("codes.safetensors"));
        QVERIFY2(r.ok(), qPrintable(r.error.summary()));
        QCOMPARE(r.value.format, QStringLiteral("safetensors"));
        QCOMPARE(r.value.tensors.size(), 1);
        const CheckpointTensor& t = r.value.tensors.first();
        QCOMPARE(t.name, QStringLiteral("codes"));
        QCOMPARE(t.dtype, QStringLiteral("I64"));
        QCOMPARE(t.elementType, QStringLiteral("I64"));
        QCOMPARE(t.shape, QList<qint64>({ 1, 2, 828 }));
        QCOMPARE(t.sizeBytes, 1 * 2 * 828 * 8);
        QCOMPARE(r.value.totalBytes, t.sizeBytes);
        QCOMPARE(t.file, QStringLiteral("codes.safetensors"));
    }

    void values_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("original");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<int>("count");
        QTest::addRow("tf1 b") << QStringLiteral("model.ckpt-100")
                               << QStringLiteral("checkpoints/saved_model_half_plus_two_cpu/variables")
                               << QStringLiteral("b") << 5;
        QTest::addRow("tf2 a by object path")
            << QStringLiteral("model.ckpt-200")
            << QStringLiteral("checkpoints/saved_model_half_plus_two_tf2_cpu/variables") << QStringLiteral("a") << 5;
        QTest::addRow("torch bias") << QStringLiteral("checkpoints/ckpt-epoch-3.pt")
                                    << QStringLiteral("pytorch/mlp_epoch3.pt") << QStringLiteral("model.0.bias") << 7;
        QTest::addRow("torch weight, no values")
            << QStringLiteral("checkpoints/ckpt-epoch-3.pt") << QStringLiteral("pytorch/mlp_epoch3.pt")
            << QStringLiteral("model.2.weight") << 0;
        QTest::addRow("safetensors i64") << QStringLiteral("codes.safetensors")
                                         << QStringLiteral("safetensors/jfk-codes.safetensors")
                                         << QStringLiteral("codes") << 20;
    }

    void values()
    {
        QFETCH(QString, name);
        QFETCH(QString, original);
        QFETCH(QString, tensor);
        QFETCH(int, count);
        // The truth: the reader on the original fixture, in this process.
        QString error;
        const auto info = Formats::CheckpointReader::read(fixture(original), &error);
        QVERIFY2(info, qPrintable(error));
        const Formats::TensorInfo* t = info->find(tensor);
        QVERIFY(t);
        const auto truth = Formats::CheckpointReader::tensorStats(*info, *t, 1 << 26, count, &error);
        QVERIFY2(truth, qPrintable(error));

        const Response raw = detail(name, QStringLiteral("tensor=%1&values=%2").arg(tensor).arg(count));
        QCOMPARE(raw.status, 200);
        const QJsonObject stats = raw.json.value(QStringLiteral("statistics")).toObject();
        QCOMPARE(stats.value(QStringLiteral("count")).toString(), QString::number(truth->count));
        QVERIFY(!raw.json.contains(QStringLiteral("tensors")));
        QCOMPARE(raw.json.value(QStringLiteral("tensor")).toObject().value(QStringLiteral("name")).toString(), t->name);

        ApiClient api = client();
        const ApiResult<TensorValues> r = api.tensorValuesBlocking(QStringLiteral("ckpt_job"), name, tensor, count);
        QVERIFY2(r.ok(), qPrintable(r.error.summary()));
        QCOMPARE(r.value.checkpoint, name);
        QCOMPARE(r.value.tensor.name, t->name);
        QCOMPARE(r.value.count, truth->count);
        QCOMPARE(r.value.nanCount, truth->nanCount);
        QCOMPARE(r.value.infCount, truth->infCount);
        QCOMPARE(r.value.min, truth->min);
        QCOMPARE(r.value.max, truth->max);
        QCOMPARE(r.value.mean, truth->mean);
        QCOMPARE(r.value.std, truth->std);
        QCOMPARE(r.value.values, truth->firstValues);
        QCOMPARE(r.value.values.size(), std::min<qint64>(count, truth->count));
    }

    void fixtureValues()
    {
        // expected.json values of the TF fixtures, served from the copies (half_plus_two: y = 0.5·x + 2).
        for (const ExpectedTensor& w :
            expectedTensors(fixture(QStringLiteral("checkpoints/saved_model_half_plus_two_cpu/expected.json")))) {
            ApiClient api = client();
            const ApiResult<TensorValues> r
                = api.tensorValuesBlocking(QStringLiteral("ckpt_job"), QStringLiteral("model.ckpt-100"), w.name, 10);
            QVERIFY2(r.ok(), qPrintable(r.error.summary()));
            QCOMPARE(r.value.values, w.values);
        }
    }

    void refused_data()
    {
        QTest::addColumn<QString>("encodedName");
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("googleStatus");
        QTest::addRow("dot-dot encoded") << QStringLiteral("..%2F..%2Fetc%2Fpasswd") << QString() << 400
                                         << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("dot-dot inside") << QStringLiteral("checkpoints%2F..%2F..%2F..") << QString() << 400
                                        << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("absolute") << QStringLiteral("%2Fetc%2Fpasswd") << QString() << 400
                                  << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("symlinked file out")
            << QStringLiteral("escape.pt") << QString() << 403 << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("symlink out to nothing")
            << QStringLiteral("gone.pt") << QString() << 403 << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("bundle prefix whose index links out to nothing")
            << QStringLiteral("gone") << QString() << 403 << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("symlinked folder out") << QStringLiteral("outside%2Fsaved_model_counter") << QString() << 403
                                              << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("shard symlinked out")
            << QStringLiteral("leak") << QString() << 403 << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("shard symlinked out, values")
            << QStringLiteral("leak") << QStringLiteral("tensor=counter") << 403 << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("hard link out") << QStringLiteral("hardlink.pt") << QString() << 403
                                       << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("hard link out, values") << QStringLiteral("hardlink.pt") << QStringLiteral("tensor=weight")
                                               << 403 << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("index names a shard up and out of its folder") << QStringLiteral(
            "shards%2Fup.safetensors.index.json") << QString() << 403 << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("index names a shard by an absolute path")
            << QStringLiteral("absolute.safetensors.index.json") << QStringLiteral("tensor=codes") << 403
            << QStringLiteral("PERMISSION_DENIED");
        QTest::addRow("unknown") << QStringLiteral("nope.pt") << QString() << 404 << QStringLiteral("NOT_FOUND");
        QTest::addRow("unknown in a folder")
            << QStringLiteral("checkpoints%2Fno-such.pt") << QString() << 404 << QStringLiteral("NOT_FOUND");
        QTest::addRow("not a checkpoint")
            << QStringLiteral("notes.txt") << QString() << 404 << QStringLiteral("NOT_FOUND");
        QTest::addRow("unknown tensor") << QStringLiteral("model.ckpt-100") << QStringLiteral("tensor=zzz") << 404
                                        << QStringLiteral("NOT_FOUND");
        QTest::addRow("string tensor values")
            << QStringLiteral("model.ckpt-200") << QStringLiteral("tensor=_CHECKPOINTABLE_OBJECT_GRAPH") << 400
            << QStringLiteral("FAILED_PRECONDITION");
        QTest::addRow("negative values") << QStringLiteral("model.ckpt-100") << QStringLiteral("tensor=a&values=-1")
                                         << 400 << QStringLiteral("INVALID_ARGUMENT");
        QTest::addRow("empty tensor") << QStringLiteral("model.ckpt-100") << QStringLiteral("tensor=") << 400
                                      << QStringLiteral("INVALID_ARGUMENT");
    }

    void refused()
    {
        QFETCH(QString, encodedName);
        QFETCH(QString, query);
        QFETCH(int, status);
        QFETCH(QString, googleStatus);
        const Response r
            = get(jobPath(QStringLiteral("ckpt_job"), QStringLiteral("/checkpoints/")) + encodedName, query);
        QCOMPARE(r.status, status);
        QCOMPARE(errorStatus(r.json), googleStatus);
        QCOMPARE(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), status);
        // Nothing of the file outside may be in the answer (the message may name a *.safetensors file).
        QVERIFY(!r.body.contains("\"tensors\""));
        QVERIFY(!r.body.contains("\"statistics\""));
    }

    /// Issue 26, item 5: a name below a folder link out of the job dir gets the same answer whether the host has
    /// that file or not (before: 403 for etc/passwd, 404 for etc/noshadow_zz, an oracle for any path on the host).
    void linkOutAnswersAlike()
    {
        QVERIFY(QFile::exists(QStringLiteral("/etc/passwd")));
        QVERIFY(!QFile::exists(QStringLiteral("/etc/noshadow_zz")));
        const QString base = jobPath(QStringLiteral("ckpt_job"), QStringLiteral("/checkpoints/"));
        const Response there = get(base + QStringLiteral("etc%2Fpasswd"), QString());
        const Response absent = get(base + QStringLiteral("etc%2Fnoshadow_zz"), QString());
        const Response deeper = get(base + QStringLiteral("etc%2Fno_such_dir%2Fx.pt"), QString());
        for (const Response* r : { &there, &absent, &deeper }) {
            QCOMPARE(r->status, 403);
            QCOMPARE(errorStatus(r->json), QStringLiteral("PERMISSION_DENIED"));
        }
        auto reason = [](const Response& r) {
            const QString message
                = r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
            return message.mid(message.lastIndexOf(QLatin1String(": ")));
        };
        QCOMPARE(reason(absent), reason(there));
        QCOMPARE(reason(deeper), reason(there));
    }

    void refusedThroughClient()
    {
        ApiClient api = client();
        const ApiResult<CheckpointDetail> r
            = api.checkpointDetailBlocking(QStringLiteral("ckpt_job"), QStringLiteral("../ckpt_job/escape.pt"));
        QCOMPARE(r.error.httpStatus, 400);
        QCOMPARE(r.error.violations.size(), 1);
        QCOMPARE(r.error.violations.first().field, QStringLiteral("name"));
        const ApiResult<CheckpointDetail> out
            = api.checkpointDetailBlocking(QStringLiteral("ckpt_job"), QStringLiteral("escape.pt"));
        QCOMPARE(out.error.httpStatus, 403);
        QCOMPARE(out.error.status, QStringLiteral("PERMISSION_DENIED"));
        const ApiResult<CheckpointList> unknownJob = api.checkpointsBlocking(QStringLiteral("no_such_job"));
        QCOMPARE(unknownJob.error.httpStatus, 404);
    }

    void rawDotDotSegments()
    {
        // Literal `..` segments on the wire, which an HTTP client library might normalise away.
        QTcpSocket socket;
        socket.connectToHost(m_url.host(), quint16(m_url.port()));
        QVERIFY(socket.waitForConnected(10000));
        socket.write("GET /v1/projects/local/jobs/ckpt_job/checkpoints/checkpoints/../../../etc/passwd HTTP/1.1\r\n"
                     "Host: 127.0.0.1\r\nAuthorization: Bearer "
            + m_token + "\r\nConnection: close\r\n\r\n");
        // The executor keeps the connection open: read the head, then Content-Length bytes of body.
        QByteArray answer;
        auto complete = [&answer] {
            const qsizetype end = answer.indexOf("\r\n\r\n");
            if (end < 0)
                return false;
            const qsizetype at = answer.toLower().indexOf("content-length:");
            if (at < 0 || at > end)
                return true;
            const qsizetype eol = answer.indexOf("\r\n", at);
            const qsizetype length = answer.mid(at + 15, eol - at - 15).trimmed().toLongLong();
            return answer.size() >= end + 4 + length;
        };
        while (!complete() && socket.waitForReadyRead(10000))
            answer += socket.readAll();
        QVERIFY2(answer.startsWith("HTTP/1.1 400") || answer.startsWith("HTTP/1.1 404"), answer.constData());
        QVERIFY(!answer.contains("root:"));
    }

    void methodNotAllowed()
    {
        QUrl url = m_url;
        url.setPath(jobPath(QStringLiteral("ckpt_job"), QStringLiteral("/checkpoints")));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + m_token);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply* reply = m_nam.post(request, QByteArrayLiteral("{}"));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(reply->isFinished() || finished.wait(30000));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 405);
        reply->deleteLater();
    }

    // The scan's rules without HTTP: numbers in names, sharded safetensors, trial folders.
    void namesGiveStepAndEpoch_data()
    {
        QTest::addColumn<QString>("stem");
        QTest::addColumn<qint64>("step"); // -1: none
        QTest::addColumn<qint64>("epoch");
        QTest::addRow("tf manager") << QStringLiteral("ckpt-12") << qint64(12) << qint64(-1);
        QTest::addRow("tf1 saver") << QStringLiteral("model.ckpt-1000") << qint64(1000) << qint64(-1);
        QTest::addRow("sample trainer") << QStringLiteral("ckpt-epoch-3") << qint64(3) << qint64(3);
        QTest::addRow("lightning") << QStringLiteral("epoch=3-step=1000") << qint64(1000) << qint64(3);
        QTest::addRow("hugging face") << QStringLiteral("checkpoint-500") << qint64(500) << qint64(-1);
        QTest::addRow("underscore") << QStringLiteral("Epoch_7") << qint64(7) << qint64(7);
        QTest::addRow("version, not a step") << QStringLiteral("model_v2") << qint64(-1) << qint64(-1);
        QTest::addRow("no number") << QStringLiteral("final") << qint64(-1) << qint64(-1);
        QTest::addRow("bare number") << QStringLiteral("1700000000") << qint64(-1) << qint64(-1);
        QTest::addRow("word ending in epoch") << QStringLiteral("repoch5") << qint64(-1) << qint64(-1);
    }

    void namesGiveStepAndEpoch()
    {
        QFETCH(QString, stem);
        QFETCH(qint64, step);
        QFETCH(qint64, epoch);
        QCOMPARE(CheckpointIndex::stepFromName(stem).value_or(-1), step);
        QCOMPARE(CheckpointIndex::epochFromName(stem).value_or(-1), epoch);
    }

    void scanGroupsShardsAndTrials()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString codes = fixture(QStringLiteral("safetensors/jfk-codes.safetensors"));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("1/checkpoint-500"))));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("2"))));
        for (const char* shard : { "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors" })
            QVERIFY(QFile::copy(codes, dir.filePath(QStringLiteral("1/checkpoint-500/")) + QLatin1String(shard)));
        QVERIFY(QFile::copy(codes, dir.filePath(QStringLiteral("1/checkpoint-500/extra.safetensors"))));
        QFile index(dir.filePath(QStringLiteral("1/checkpoint-500/model.safetensors.index.json")));
        QVERIFY(index.open(QIODevice::WriteOnly));
        index.write(R"({"metadata": {}, "weight_map": {"a": "model-00001-of-00002.safetensors",
            "b": "model-00002-of-00002.safetensors", "c": "model-00001-of-00002.safetensors"}})");
        index.close();
        QVERIFY(QFile::copy(fixture(QStringLiteral("pytorch/test.pt")), dir.filePath(QStringLiteral("2/ckpt-5.pt"))));

        const CheckpointIndex scanner;
        QList<CheckpointEntry> entries = scanner.scan(dir.path(), true);
        std::sort(entries.begin(), entries.end(),
            [](const CheckpointEntry& a, const CheckpointEntry& b) { return a.name < b.name; });
        QCOMPARE(entries.size(), 3);
        QCOMPARE(entries.at(0).name, QStringLiteral("1/checkpoint-500/extra.safetensors"));
        QCOMPARE(entries.at(0).files.size(), 1);
        QCOMPARE(entries.at(1).name, QStringLiteral("1/checkpoint-500/model.safetensors.index.json"));
        QCOMPARE(entries.at(1).format, QStringLiteral("safetensors"));
        QCOMPARE(entries.at(1).files.size(), 3);
        QCOMPARE(entries.at(1).sizeBytes, 2 * QFileInfo(codes).size() + index.size());
        QCOMPARE(entries.at(1).step, std::optional<qint64>(500));
        QCOMPARE(entries.at(1).trialId, QStringLiteral("1"));
        QCOMPARE(entries.at(2).name, QStringLiteral("2/ckpt-5.pt"));
        QCOMPARE(entries.at(2).trialId, QStringLiteral("2"));
        QCOMPARE(entries.at(2).step, std::optional<qint64>(5));
        // Without hyperparameter tuning, numbered folders are just folders.
        for (const CheckpointEntry& e : scanner.scan(dir.path(), false))
            QVERIFY(e.trialId.isEmpty());
    }

    void cleanupTestCase() { m_executor.stop(); }
};

QTEST_GUILESS_MAIN(TestCheckpointsApi)
#include "tst_checkpointsapi.moc"
