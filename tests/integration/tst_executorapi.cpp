// SPDX-License-Identifier: GPL-2.0-or-later
// The real trainyard-executor binary, isolated in temporary XDG folders, driven over HTTP:
// authentication, malformed and invalid requests, create/get/list/filter/paging, labels with etags,
// cancel, logs (JSON and SSE), catalogs, and that the executor survives all of it.
#include "apirequest.h"
#include "childprocess.h"
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
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <csignal>
#include <functional>
#include <memory>

namespace {
using Response = Trainyard::Test::ApiResponse;

QStringList violationFields(const QJsonObject& json)
{
    QStringList fields;
    const QJsonArray details
        = json.value(QStringLiteral("error")).toObject().value(QStringLiteral("details")).toArray();
    for (const QJsonValue& detail : details) {
        const QJsonArray violations = detail.toObject().value(QStringLiteral("fieldViolations")).toArray();
        for (const QJsonValue& v : violations)
            fields << v.toObject().value(QStringLiteral("field")).toString();
    }
    return fields;
}

QString errorStatus(const QJsonObject& json)
{
    return json.value(QStringLiteral("error")).toObject().value(QStringLiteral("status")).toString();
}

QString errorMessage(const QJsonObject& json)
{
    return json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
}
} // namespace

class TestExecutorApi : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_runtimeDir;
    QString m_packageDir;
    QString m_dataDir; ///< the executor's data folder
    Trainyard::Test::ExecutorProcess m_executor { m_root.path() };
    QUrl m_url;
    QByteArray m_token;
    QNetworkAccessManager m_nam;

    QProcessEnvironment isolatedEnvironment() const { return m_executor.environment(); }

    Response send(const QByteArray& verb, const QString& path, const QByteArray& body = {},
        const std::optional<QByteArray>& authorization = std::nullopt)
    {
        return Trainyard::Test::sendApiRequest(m_nam, verb, Trainyard::Test::apiUrl(m_url, path), body,
            { { "Authorization", authorization.value_or("Bearer " + m_token) } });
    }

    Response get(const QString& path) { return send("GET", path); }

    QJsonObject jobJson(const QString& jobId, const QStringList& args = {}) const
    {
        QJsonObject input {
            { QStringLiteral("scaleTier"), QStringLiteral("BASIC") },
            { QStringLiteral("packageUris"), QJsonArray { m_packageDir } },
            { QStringLiteral("pythonModule"), QStringLiteral("apitest.task") },
            { QStringLiteral("region"), QStringLiteral("us-central1") },
        };
        if (!args.isEmpty())
            input.insert(QStringLiteral("args"), QJsonArray::fromStringList(args));
        return QJsonObject {
            { QStringLiteral("jobId"), jobId },
            { QStringLiteral("labels"), QJsonObject { { QStringLiteral("suite"), QStringLiteral("api") } } },
            { QStringLiteral("trainingInput"), input },
        };
    }

    Response create(const QJsonObject& job)
    {
        return send("POST", QStringLiteral("/v1/projects/local/jobs"), QJsonDocument(job).toJson());
    }

    QString stateOf(const QString& jobId)
    {
        return get(QStringLiteral("/v1/projects/local/jobs/") + jobId).json.value(QStringLiteral("state")).toString();
    }

    bool isFinal(const QString& state)
    {
        return state == QLatin1String("SUCCEEDED") || state == QLatin1String("FAILED")
            || state == QLatin1String("CANCELLED");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const char* sub : { "run", "data", "config", "pkg/apitest" })
            QVERIFY(QDir().mkpath(m_root.filePath(QString::fromLatin1(sub))));
        m_runtimeDir = m_root.filePath(QStringLiteral("run/trainyard"));
        m_packageDir = m_root.filePath(QStringLiteral("pkg"));
        QVERIFY(Trainyard::Test::writeTrainingPackage(m_packageDir, QStringLiteral("apitest"),
            "import sys, time\n"
            "print('hello from apitest', sys.argv[1:], flush=True)\n"
            "if '--sleep' in sys.argv:\n"
            "    time.sleep(float(sys.argv[sys.argv.index('--sleep') + 1]))\n"
            "sys.exit(0)\n",
            QStringLiteral("trainyard-apitest")));

        QString error;
        QVERIFY2(m_executor.start(&error), qPrintable(error));
        const QString runtimeFile = m_executor.runtimeFile();
        QCOMPARE(runtimeFile, m_runtimeDir + QStringLiteral("/executor.json"));
        const QJsonObject runtime = m_executor.runtime();
        m_url = QUrl(runtime.value(QStringLiteral("url")).toString());
        QCOMPARE(m_url.host(), QStringLiteral("127.0.0.1"));
        QVERIFY(m_url.port() > 0);
        QCOMPARE(runtime.value(QStringLiteral("pid")).toInteger(), m_executor.pid());
        m_dataDir = m_root.filePath(QStringLiteral("data/trainyard"));
        QCOMPARE(runtime.value(QStringLiteral("dataDir")).toString(), m_dataDir);
        QVERIFY(!runtime.value(QStringLiteral("version")).toString().isEmpty());
        QFile tokenFile(runtime.value(QStringLiteral("tokenFile")).toString());
        QVERIFY(tokenFile.open(QIODevice::ReadOnly));
        m_token = tokenFile.readAll().trimmed();
        QCOMPARE(m_token.size(), 64);
        QCOMPARE(
            tokenFile.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions {});
        QCOMPARE(QFile(runtimeFile).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
            QFileDevice::Permissions {});
    }

    void unauthorized_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("authorization");
        QTest::addRow("no token") << QStringLiteral("/v1/projects/local/jobs") << QByteArray();
        QTest::addRow("wrong token") << QStringLiteral("/v1/projects/local/jobs")
                                     << QByteArray("Bearer 0123456789abcdef");
        QTest::addRow("token without scheme") << QStringLiteral("/v1/projects/local/host") << QByteArray("TOKEN");
        QTest::addRow("basic auth") << QStringLiteral("/v1/projects/local/host") << QByteArray("Basic dXNlcjpwYXNz");
        QTest::addRow("unknown path") << QStringLiteral("/nowhere") << QByteArray();
    }

    void unauthorized()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, authorization);
        if (authorization == "TOKEN")
            authorization = m_token;
        const Response r = send("GET", path, {}, authorization);
        QCOMPARE(r.status, 401);
        QCOMPARE(errorStatus(r.json), QStringLiteral("UNAUTHENTICATED"));
        QCOMPARE(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), 401);
        QVERIFY(r.header("WWW-Authenticate").startsWith("Bearer"));
    }

    void badCreate_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("messagePart");
        QTest::addColumn<QString>("fieldPrefix"); // a violation's field must start with this; empty = no check

        const QJsonObject good = jobJson(QStringLiteral("never_stored"));
        auto with = [&](const std::function<void(QJsonObject&)>& edit) {
            QJsonObject job = good;
            edit(job);
            return QJsonDocument(job).toJson();
        };
        auto input = [&](const std::function<void(QJsonObject&)>& edit) {
            return with([&](QJsonObject& job) {
                QJsonObject ti = job.value(QStringLiteral("trainingInput")).toObject();
                edit(ti);
                job.insert(QStringLiteral("trainingInput"), ti);
            });
        };
        QTest::addRow("malformed json") << QByteArray("{\"jobId\": ") << QStringLiteral("Invalid JSON payload")
                                        << QString();
        QTest::addRow("empty body") << QByteArray() << QStringLiteral("Invalid JSON payload") << QString();
        QTest::addRow("array body") << QByteArray("[1,2]") << QStringLiteral("Invalid JSON payload") << QString();
        QTest::addRow("unknown top-level field")
            << with([](QJsonObject& j) { j.insert(QStringLiteral("jobIdd"), QStringLiteral("x")); })
            << QStringLiteral("jobIdd") << QStringLiteral("jobIdd");
        QTest::addRow("unknown nested field")
            << input([](QJsonObject& ti) { ti.insert(QStringLiteral("masterTyp"), QStringLiteral("n1-standard-4")); })
            << QStringLiteral("masterTyp") << QStringLiteral("trainingInput.masterTyp");
        QTest::addRow("wrong type") << input(
            [](QJsonObject& ti) { ti.insert(QStringLiteral("args"), QStringLiteral("--epochs 2")); })
                                    << QStringLiteral("Invalid JSON payload") << QStringLiteral("trainingInput.args");
        QTest::addRow("job id with a dash")
            << with([](QJsonObject& j) { j.insert(QStringLiteral("jobId"), QStringLiteral("bad-id")); })
            << QStringLiteral("invalid argument") << QStringLiteral("jobId");
        QTest::addRow("job id starting with a digit")
            << with([](QJsonObject& j) { j.insert(QStringLiteral("jobId"), QStringLiteral("1job")); })
            << QStringLiteral("invalid argument") << QStringLiteral("jobId");
        QTest::addRow("upper-case label key") << with([](QJsonObject& j) {
            j.insert(QStringLiteral("labels"), QJsonObject { { QStringLiteral("Owner"), QStringLiteral("x") } });
        }) << QStringLiteral("invalid argument")
                                              << QStringLiteral("labels");
        // trainingInput.jobDir: absolute, clean, inside the executor's job dir roots (home and temp by default).
        for (const char* dir : { "../../etc", "~/x", "relative/dir", "/", "/etc", "/proc/self", "gs://bucket/run1" }) {
            const QString jobDir = QString::fromLatin1(dir);
            QTest::addRow("jobDir %s", dir)
                << input([jobDir](QJsonObject& ti) { ti.insert(QStringLiteral("jobDir"), jobDir); })
                << QStringLiteral("invalid argument") << QStringLiteral("trainingInput.jobDir");
        }
        QTest::addRow("TPU scale tier") << input(
            [](QJsonObject& ti) { ti.insert(QStringLiteral("scaleTier"), QStringLiteral("BASIC_TPU")); })
                                        << QStringLiteral("invalid argument") << QStringLiteral("trainingInput");
        QTest::addRow("TPU worker") << input([](QJsonObject& ti) {
            ti.insert(QStringLiteral("scaleTier"), QStringLiteral("CUSTOM"));
            ti.insert(QStringLiteral("masterType"), QStringLiteral("n1-standard-4"));
            ti.insert(QStringLiteral("workerType"), QStringLiteral("cloud_tpu"));
            ti.insert(QStringLiteral("workerCount"), QStringLiteral("1"));
        }) << QStringLiteral("invalid argument")
                                    << QStringLiteral("trainingInput");
        QTest::addRow("CUSTOM without masterType")
            << input([](QJsonObject& ti) { ti.insert(QStringLiteral("scaleTier"), QStringLiteral("CUSTOM")); })
            << QStringLiteral("invalid argument") << QStringLiteral("trainingInput.masterType");
    }

    void badCreate()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, messagePart);
        QFETCH(QString, fieldPrefix);
        const Response r = send("POST", QStringLiteral("/v1/projects/local/jobs"), body);
        QCOMPARE(r.status, 400);
        QCOMPARE(errorStatus(r.json), QStringLiteral("INVALID_ARGUMENT"));
        QVERIFY2(errorMessage(r.json).contains(messagePart, Qt::CaseInsensitive), qPrintable(errorMessage(r.json)));
        if (!fieldPrefix.isEmpty()) {
            const QStringList fields = violationFields(r.json);
            QVERIFY2(std::any_of(
                         fields.cbegin(), fields.cend(), [&](const QString& f) { return f.startsWith(fieldPrefix); }),
                qPrintable(QString::fromUtf8(r.body)));
        }
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs/never_stored")).status, 404);
    }

    void createAndRun()
    {
        const Response created = create(jobJson(QStringLiteral("api_first")));
        QVERIFY2(created.status == 200, created.body.constData());
        QCOMPARE(created.json.value(QStringLiteral("jobId")).toString(), QStringLiteral("api_first"));
        QVERIFY(!created.json.value(QStringLiteral("createTime")).toString().isEmpty());
        QVERIFY(!created.json.value(QStringLiteral("etag")).toString().isEmpty());
        QVERIFY(!created.json.value(QStringLiteral("state")).toString().isEmpty());
        QCOMPARE(created.json.value(QStringLiteral("trainingInput")).toObject().value(QStringLiteral("pythonModule")),
            QJsonValue(QStringLiteral("apitest.task")));

        const Response duplicate = create(jobJson(QStringLiteral("api_first")));
        QCOMPARE(duplicate.status, 409);
        QCOMPARE(errorStatus(duplicate.json), QStringLiteral("ALREADY_EXISTS"));
        QVERIFY(violationFields(duplicate.json).contains(QStringLiteral("jobId")));

        QTRY_VERIFY_WITH_TIMEOUT(isFinal(stateOf(QStringLiteral("api_first"))), 120000);
        const Response job = get(QStringLiteral("/v1/projects/local/jobs/api_first"));
        QVERIFY2(
            job.json.value(QStringLiteral("state")).toString() == QLatin1String("SUCCEEDED"), job.body.constData());
        QVERIFY(!job.json.value(QStringLiteral("startTime")).toString().isEmpty());
        QVERIFY(!job.json.value(QStringLiteral("endTime")).toString().isEmpty());

        const Response logs = get(QStringLiteral("/v1/projects/local/jobs/api_first/logs"));
        QCOMPARE(logs.status, 200);
        QVERIFY2(logs.body.contains("hello from apitest"), logs.body.constData());
        const QJsonArray entries = logs.json.value(QStringLiteral("entries")).toArray();
        QVERIFY(!entries.isEmpty());
        for (const QJsonValue& e : entries) {
            const QJsonObject entry = e.toObject();
            QVERIFY(!entry.value(QStringLiteral("timestamp")).toString().isEmpty());
            QVERIFY(!entry.value(QStringLiteral("severity")).toString().isEmpty());
            QVERIFY(!entry.value(QStringLiteral("taskName")).toString().isEmpty());
        }

        // Filters: only the master's lines; paging one entry at a time gives the same entries.
        const Response master = get(QStringLiteral("/v1/projects/local/jobs/api_first/logs?taskName=master-replica-0"));
        const QJsonArray masterEntries = master.json.value(QStringLiteral("entries")).toArray();
        QVERIFY(!masterEntries.isEmpty());
        for (const QJsonValue& e : masterEntries)
            QCOMPARE(e.toObject().value(QStringLiteral("taskName")).toString(), QStringLiteral("master-replica-0"));
        QJsonArray paged;
        QString token;
        do {
            const Response page
                = get(QStringLiteral("/v1/projects/local/jobs/api_first/logs?pageSize=1&pageToken=") + token);
            QCOMPARE(page.status, 200);
            const QJsonArray part = page.json.value(QStringLiteral("entries")).toArray();
            QVERIFY(part.size() <= 1);
            for (const QJsonValue& v : part)
                paged.append(v);
            token = page.json.value(QStringLiteral("nextPageToken")).toString();
        } while (!token.isEmpty() && paged.size() <= entries.size());
        QCOMPARE(paged, entries);
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs/api_first/logs?severity=LOUD")).status, 400);
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs/api_first/logs?pageToken=%21%21")).status, 400);

        // Cancelling a finished job is a failed precondition, as the service answers.
        const Response cancel = send("POST", QStringLiteral("/v1/projects/local/jobs/api_first:cancel"));
        QCOMPARE(cancel.status, 400);
        QCOMPARE(errorStatus(cancel.json), QStringLiteral("FAILED_PRECONDITION"));

        const Response replicas = get(QStringLiteral("/v1/projects/local/jobs/api_first/replicas"));
        QCOMPARE(replicas.status, 200);
        QVERIFY(replicas.json.value(QStringLiteral("replicas")).isArray());
    }

    void followLogs()
    {
        // A finished job: the stream sends every entry and then the end event, and closes.
        QUrl url = m_url;
        url.setPath(QStringLiteral("/v1/projects/local/jobs/api_first/logs"));
        url.setQuery(QStringLiteral("follow=true"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + m_token);
        QNetworkReply* reply = m_nam.get(request);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(30000));
        const QByteArray body = reply->readAll();
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QVERIFY(reply->header(QNetworkRequest::ContentTypeHeader)
                    .toString()
                    .startsWith(QStringLiteral("text/event-stream")));
        QVERIFY2(body.contains("data: {\"timestamp\""), body.constData());
        QVERIFY2(body.contains("hello from apitest"), body.constData());
        QVERIFY2(body.endsWith("event: end\ndata: {\"state\":\"SUCCEEDED\"}\n\n"), body.constData());
        reply->deleteLater();
    }

    void followLiveJobAndCancel()
    {
        const Response created
            = create(jobJson(QStringLiteral("api_sleeper"), { QStringLiteral("--sleep"), QStringLiteral("300") }));
        QVERIFY2(created.status == 200, created.body.constData());

        QUrl url = m_url;
        url.setPath(QStringLiteral("/v1/projects/local/jobs/api_sleeper:events"));
        url.setQuery(QStringLiteral("follow=true"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer " + m_token);
        QNetworkReply* events = m_nam.get(request);
        QByteArray received;
        connect(events, &QIODevice::readyRead, this, [&] { received += events->readAll(); });
        QTRY_VERIFY_WITH_TIMEOUT(received.contains("event: job\n"), 30000);
        QVERIFY(received.contains("event: replicas\n"));

        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("api_sleeper")), QStringLiteral("RUNNING"), 120000);
        const Response cancel = send("POST", QStringLiteral("/v1/projects/local/jobs/api_sleeper:cancel"), "{}");
        QCOMPARE(cancel.status, 200);
        QCOMPARE(cancel.json, QJsonObject {});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("api_sleeper")), QStringLiteral("CANCELLED"), 60000);
        QSignalSpy finished(events, &QNetworkReply::finished);
        QVERIFY(events->isFinished() || finished.wait(30000));
        received += events->readAll();
        QVERIFY2(received.contains("\"state\":\"CANCELLING\"") || received.contains("\"state\":\"CANCELLED\""),
            received.constData());
        QVERIFY2(received.contains("event: end\ndata: {\"state\":\"CANCELLED\"}"), received.constData());
        events->deleteLater();

        const Response again = send("POST", QStringLiteral("/v1/projects/local/jobs/api_sleeper:cancel"));
        QCOMPARE(again.status, 400);
        QCOMPARE(errorStatus(again.json), QStringLiteral("FAILED_PRECONDITION"));
    }

    void listFilterAndPaging()
    {
        // Two more jobs with their own labels (they run the trivial module and finish).
        for (const QString& id : { QStringLiteral("api_list_a"), QStringLiteral("api_list_b") }) {
            QJsonObject job = jobJson(id);
            job.insert(QStringLiteral("labels"), QJsonObject { { QStringLiteral("suite"), QStringLiteral("list") } });
            const Response r = create(job);
            QVERIFY2(r.status == 200, r.body.constData());
        }
        const Response all = get(QStringLiteral("/v1/projects/local/jobs"));
        QCOMPARE(all.status, 200);
        QStringList ids;
        for (const QJsonValue& v : all.json.value(QStringLiteral("jobs")).toArray())
            ids << v.toObject().value(QStringLiteral("jobId")).toString();
        // Newest first.
        QCOMPARE(ids,
            (QStringList { QStringLiteral("api_list_b"), QStringLiteral("api_list_a"), QStringLiteral("api_sleeper"),
                QStringLiteral("api_first") }));
        QVERIFY(!all.json.contains(QStringLiteral("nextPageToken")));

        QStringList paged;
        QString token;
        int pages = 0;
        do {
            const Response page = get(QStringLiteral("/v1/projects/local/jobs?pageSize=3&pageToken=") + token);
            QCOMPARE(page.status, 200);
            for (const QJsonValue& v : page.json.value(QStringLiteral("jobs")).toArray())
                paged << v.toObject().value(QStringLiteral("jobId")).toString();
            token = page.json.value(QStringLiteral("nextPageToken")).toString();
            ++pages;
        } while (!token.isEmpty() && pages < 10);
        QCOMPARE(paged, ids);
        QCOMPARE(pages, 2);

        auto filtered = [&](const QString& filter) {
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("filter"), filter);
            const Response r = get(QStringLiteral("/v1/projects/local/jobs?")
                + query.toString(QUrl::FullyEncoded).replace(QLatin1Char('+'), QStringLiteral("%2B")));
            QStringList result;
            for (const QJsonValue& v : r.json.value(QStringLiteral("jobs")).toArray())
                result << v.toObject().value(QStringLiteral("jobId")).toString();
            return result;
        };
        QCOMPARE(filtered(QStringLiteral("labels.suite=list")),
            (QStringList { QStringLiteral("api_list_b"), QStringLiteral("api_list_a") }));
        QCOMPARE(filtered(QStringLiteral("jobId:api_f*")), QStringList { QStringLiteral("api_first") });
        QCOMPARE(filtered(QStringLiteral("state:CANCELLED")), QStringList { QStringLiteral("api_sleeper") });

        const Response badFilter = get(QStringLiteral("/v1/projects/local/jobs?filter=%3D%3D%3D"));
        QCOMPARE(badFilter.status, 400);
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs?pageSize=-1")).status, 400);
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs?pageToken=bm90LWEtdG9rZW4")).status, 400);
    }

    void patchLabels()
    {
        const Response before = get(QStringLiteral("/v1/projects/local/jobs/api_first"));
        const QString etag = before.json.value(QStringLiteral("etag")).toString();
        QVERIFY(!etag.isEmpty());
        const QString path = QStringLiteral("/v1/projects/local/jobs/api_first?updateMask=labels");
        auto body = [](const QJsonObject& labels, const QString& etag) {
            QJsonObject o { { QStringLiteral("labels"), labels } };
            if (!etag.isEmpty())
                o.insert(QStringLiteral("etag"), etag);
            return QJsonDocument(o).toJson();
        };
        const QJsonObject labels { { QStringLiteral("owner"), QStringLiteral("alice") } };

        const Response stale = send("PATCH", path, body(labels, QStringLiteral("c3RhbGU=")));
        QCOMPARE(stale.status, 409);
        QCOMPARE(errorStatus(stale.json), QStringLiteral("ABORTED"));

        const Response badLabel
            = send("PATCH", path, body({ { QStringLiteral("Owner!"), QStringLiteral("x") } }, etag));
        QCOMPARE(badLabel.status, 400);
        QVERIFY(!violationFields(badLabel.json).isEmpty());

        const Response badMask
            = send("PATCH", QStringLiteral("/v1/projects/local/jobs/api_first?updateMask=jobId"), body(labels, etag));
        QCOMPARE(badMask.status, 400);
        QVERIFY(violationFields(badMask.json).contains(QStringLiteral("updateMask")));

        const Response ok = send("PATCH", path, body(labels, etag));
        QVERIFY2(ok.status == 200, ok.body.constData());
        QCOMPARE(ok.json.value(QStringLiteral("labels")).toObject(), labels);
        const QString newEtag = ok.json.value(QStringLiteral("etag")).toString();
        QVERIFY(!newEtag.isEmpty() && newEtag != etag);
        QCOMPARE(
            get(QStringLiteral("/v1/projects/local/jobs/api_first")).json.value(QStringLiteral("labels")).toObject(),
            labels);

        // The old etag is stale now.
        const Response again = send("PATCH", path, body({}, etag));
        QCOMPARE(again.status, 409);

        // `etag` in the mask asks for the check (the service's API description's form of an etag-checked update); it
        // is never a field to change. Without an etag in the body, that is refused, naming etag.
        const QString etagged = QStringLiteral("/v1/projects/local/jobs/api_first?updateMask=labels,etag");
        const QJsonObject team { { QStringLiteral("team"), QStringLiteral("vision") } };
        const Response checked = send("PATCH", etagged, body(team, newEtag));
        QVERIFY2(checked.status == 200, checked.body.constData());
        QCOMPARE(checked.json.value(QStringLiteral("labels")).toObject(), team);
        const Response unchecked = send("PATCH", etagged, body(labels, QString()));
        QCOMPARE(unchecked.status, 400);
        QVERIFY2(violationFields(unchecked.json).contains(QStringLiteral("etag")), unchecked.body.constData());
        QCOMPARE(send("PATCH", etagged, body(labels, newEtag)).status, 409);
        const Response onlyEtag
            = send("PATCH", QStringLiteral("/v1/projects/local/jobs/api_first?updateMask=etag"), body(labels, newEtag));
        QCOMPARE(onlyEtag.status, 400);
    }

    /// The standard system parameters a generated client sends: `fields` (partial responses) applies to the whole
    /// answer; `alt=json`, `prettyPrint` and `$.xgafv` are accepted as the service accepts them; malformed ones are
    /// 400.
    void systemParameters()
    {
        const Response list = get(QStringLiteral("/v1/projects/local/jobs?fields=jobs(jobId,state),nextPageToken"));
        QVERIFY2(list.status == 200, list.body.constData());
        const QJsonArray jobs = list.json.value(QStringLiteral("jobs")).toArray();
        QVERIFY(!jobs.isEmpty());
        for (const QJsonValue& j : jobs) {
            QStringList keys = j.toObject().keys();
            QCOMPARE(keys, (QStringList { QStringLiteral("jobId"), QStringLiteral("state") }));
        }
        const Response job = get(QStringLiteral("/v1/projects/local/jobs/api_first?fields=jobId,trainingInput/region"));
        QCOMPARE(job.status, 200);
        QCOMPARE(job.json,
            (QJsonObject { { QStringLiteral("jobId"), QStringLiteral("api_first") },
                { QStringLiteral("trainingInput"),
                    QJsonObject { { QStringLiteral("region"),
                        get(QStringLiteral("/v1/projects/local/jobs/api_first"))
                            .json.value(QStringLiteral("trainingInput"))
                            .toObject()
                            .value(QStringLiteral("region")) } } } }));
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs/api_first?alt=json&prettyPrint=false&%24.xgafv=2")).status,
            200);
        const Response badFields = get(QStringLiteral("/v1/projects/local/jobs?fields=jobs(jobId"));
        QCOMPARE(badFields.status, 400);
        QVERIFY(violationFields(badFields.json).contains(QStringLiteral("fields")));
        const Response proto = get(QStringLiteral("/v1/projects/local/jobs?alt=proto"));
        QCOMPARE(proto.status, 400);
        QVERIFY(violationFields(proto.json).contains(QStringLiteral("alt")));
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs?%24.xgafv=3")).status, 400);
    }

    /// The service's projects.locations and projects.getConfig: this host is a location (training, batch and online
    /// prediction), an unknown one is NOT_FOUND, and the config has the service's shape (the service account, its
    /// project number as an int64 string), stable for a project.
    void locationsAndConfig()
    {
        const Response list = get(QStringLiteral("/v1/projects/local/locations"));
        QVERIFY2(list.status == 200, list.body.constData());
        const QJsonArray locations = list.json.value(QStringLiteral("locations")).toArray();
        QVERIFY(!locations.isEmpty());
        const QJsonObject local = locations.first().toObject();
        QCOMPARE(local.value(QStringLiteral("name")).toString(), QStringLiteral("projects/local/locations/local"));
        QStringList types;
        for (const QJsonValue& c : local.value(QStringLiteral("capabilities")).toArray())
            types << c.toObject().value(QStringLiteral("type")).toString();
        QCOMPARE(types,
            (QStringList {
                QStringLiteral("TRAINING"), QStringLiteral("BATCH_PREDICTION"), QStringLiteral("ONLINE_PREDICTION") }));
        const Response one = get(QStringLiteral("/v1/projects/local/locations/local"));
        QCOMPARE(one.status, 200);
        QCOMPARE(one.json, local);
        const Response nowhere = get(QStringLiteral("/v1/projects/local/locations/nowhere"));
        QCOMPARE(nowhere.status, 404);
        QCOMPARE(errorStatus(nowhere.json), QStringLiteral("NOT_FOUND"));

        const Response config = get(QStringLiteral("/v1/projects/local:getConfig"));
        QVERIFY2(config.status == 200, config.body.constData());
        const QString number = config.json.value(QStringLiteral("serviceAccountProject")).toString();
        QVERIFY2(QRegularExpression(QStringLiteral("^[1-9][0-9]{11}$")).match(number).hasMatch(), qPrintable(number));
        QCOMPARE(config.json.value(QStringLiteral("serviceAccount")).toString(),
            QStringLiteral("service-%1@cloud-ml.google.com.iam.gserviceaccount.com").arg(number));
        QCOMPARE(get(QStringLiteral("/v1/projects/local:getConfig")).json, config.json);
        QVERIFY(
            get(QStringLiteral("/v1/projects/elsewhere:getConfig")).json.value(QStringLiteral("serviceAccountProject"))
            != config.json.value(QStringLiteral("serviceAccountProject")));
    }

    /// A Cloud Storage path is refused at create wherever the service takes one, by one rule with one message that
    /// names the field, once per field: a training job's packageUris and jobDir, a batch prediction job's uri,
    /// inputPaths and outputPath, a version's deploymentUri.
    void cloudStoragePathsAreRefusedAtCreate()
    {
        QJsonObject training = jobJson(QStringLiteral("api_gs_training"));
        QJsonObject input = training.value(QStringLiteral("trainingInput")).toObject();
        input.insert(QStringLiteral("packageUris"), QJsonArray { QStringLiteral("gs://bucket/trainer-0.1.tar.gz") });
        input.insert(QStringLiteral("jobDir"), QStringLiteral("gs://bucket/out"));
        training.insert(QStringLiteral("trainingInput"), input);
        const QJsonObject batch {
            { QStringLiteral("jobId"), QStringLiteral("api_gs_batch") },
            { QStringLiteral("predictionInput"),
                QJsonObject { { QStringLiteral("dataFormat"), QStringLiteral("JSON") },
                    { QStringLiteral("inputPaths"), QJsonArray { QStringLiteral("gs://bucket/in*") } },
                    { QStringLiteral("outputPath"), QStringLiteral("gs://bucket/out") },
                    { QStringLiteral("uri"), QStringLiteral("gs://bucket/model") },
                    { QStringLiteral("region"), QStringLiteral("us-central1") } } },
        };
        QVERIFY(send("POST", QStringLiteral("/v1/projects/local/models"),
                    QJsonDocument(QJsonObject { { QStringLiteral("name"), QStringLiteral("gs_model") } }).toJson())
                    .status
            == 200);
        const QJsonObject version { { QStringLiteral("name"), QStringLiteral("v1") },
            { QStringLiteral("deploymentUri"), QStringLiteral("gs://bucket/model") },
            { QStringLiteral("framework"), QStringLiteral("SCIKIT_LEARN") },
            { QStringLiteral("runtimeVersion"), QStringLiteral("2.11") } };
        const struct {
            QString path;
            QJsonObject body;
            QStringList fields;
        } cases[] = {
            { QStringLiteral("/v1/projects/local/jobs"), training,
                { QStringLiteral("trainingInput.jobDir"), QStringLiteral("trainingInput.packageUris[0]") } },
            { QStringLiteral("/v1/projects/local/jobs"), batch,
                { QStringLiteral("predictionInput.inputPaths[0]"), QStringLiteral("predictionInput.outputPath"),
                    QStringLiteral("predictionInput.uri") } },
            { QStringLiteral("/v1/projects/local/models/gs_model/versions"), version,
                { QStringLiteral("version.deploymentUri") } },
        };
        for (const auto& c : cases) {
            const Response r = send("POST", c.path, QJsonDocument(c.body).toJson());
            QCOMPARE(r.status, 400);
            QStringList fields = violationFields(r.json);
            fields.sort();
            QCOMPARE(fields, c.fields);
            const QJsonArray violations = r.json.value(QStringLiteral("error"))
                                              .toObject()
                                              .value(QStringLiteral("details"))
                                              .toArray()
                                              .first()
                                              .toObject()
                                              .value(QStringLiteral("fieldViolations"))
                                              .toArray();
            for (const QJsonValue& v : violations) {
                const QString description = v.toObject().value(QStringLiteral("description")).toString();
                QVERIFY2(description.contains(QLatin1String("is in Cloud Storage, which this executor cannot reach")),
                    qPrintable(description));
            }
        }
    }

    void projects()
    {
        // A job belongs to the project it was created in: other projects do not see it.
        QJsonObject job = jobJson(QStringLiteral("api_elsewhere"));
        const Response created
            = send("POST", QStringLiteral("/v1/projects/elsewhere/jobs"), QJsonDocument(job).toJson());
        QVERIFY2(created.status == 200, created.body.constData());
        QCOMPARE(get(QStringLiteral("/v1/projects/elsewhere/jobs/api_elsewhere")).status, 200);
        const Response wrong = get(QStringLiteral("/v1/projects/local/jobs/api_elsewhere"));
        QCOMPARE(wrong.status, 404);
        QCOMPARE(errorStatus(wrong.json), QStringLiteral("NOT_FOUND"));
        QVERIFY2(wrong.body.contains("projects/local/jobs/api_elsewhere"), wrong.body.constData());
        QCOMPARE(get(QStringLiteral("/v1/projects/elsewhere/jobs/api_first")).status, 404);
        QCOMPARE(send("POST", QStringLiteral("/v1/projects/elsewhere/jobs/api_first:cancel")).status, 404);
        QCOMPARE(get(QStringLiteral("/v1/projects/elsewhere/jobs/api_first/logs")).status, 404);
        const Response listed = get(QStringLiteral("/v1/projects/elsewhere/jobs"));
        QCOMPARE(listed.json.value(QStringLiteral("jobs")).toArray().size(), 1);

        // A job ID is unique within its project only, as in the service: local's api_first (SUCCEEDED by now) and
        // a second api_first in "elsewhere" are two jobs, each with its own run, log, state and job folder.
        const Response twin = send("POST", QStringLiteral("/v1/projects/elsewhere/jobs"),
            QJsonDocument(jobJson(QStringLiteral("api_first"), { QStringLiteral("--twin") })).toJson());
        QVERIFY2(twin.status == 200, twin.body.constData());
        const auto twinState = [&] {
            return get(QStringLiteral("/v1/projects/elsewhere/jobs/api_first"))
                .json.value(QStringLiteral("state"))
                .toString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(twinState()), 120000);
        QCOMPARE(twinState(), QStringLiteral("SUCCEEDED"));
        QCOMPARE(stateOf(QStringLiteral("api_first")), QStringLiteral("SUCCEEDED"));
        const Response twinLogs = get(QStringLiteral("/v1/projects/elsewhere/jobs/api_first/logs"));
        QVERIFY2(twinLogs.body.contains("--twin"), twinLogs.body.constData());
        QCOMPARE(twinLogs.body.count("Job api_first is queued."), 1);
        const Response firstLogs = get(QStringLiteral("/v1/projects/local/jobs/api_first/logs"));
        QVERIFY2(!firstLogs.body.contains("--twin"), firstLogs.body.constData());
        QCOMPARE(firstLogs.body.count("Job api_first is queued."), 1);
        QVERIFY(QFileInfo(m_dataDir + QStringLiteral("/projects/elsewhere/jobs/api_first/logs")).isDir());
        QVERIFY(QFileInfo(m_dataDir + QStringLiteral("/projects/local/jobs/api_first/logs")).isDir());
        // Twice in one project is still refused.
        const Response taken = send("POST", QStringLiteral("/v1/projects/elsewhere/jobs"),
            QJsonDocument(jobJson(QStringLiteral("api_first"))).toJson());
        QCOMPARE(taken.status, 409);
        QCOMPARE(errorStatus(taken.json), QStringLiteral("ALREADY_EXISTS"));
    }

    void watchJobs()
    {
        struct Event {
            QByteArray id;
            QByteArray name;
            QJsonObject data;
        };
        // Opens the stream and returns a function that reads the events received so far.
        auto open = [&](const QString& query, QNetworkReply** replyOut) {
            QUrl url = m_url;
            url.setPath(QStringLiteral("/v1/projects/local/jobs"));
            url.setQuery(query);
            QNetworkRequest request(url);
            request.setRawHeader("Authorization", "Bearer " + m_token);
            QNetworkReply* reply = m_nam.get(request);
            auto buffer = std::make_shared<QByteArray>();
            connect(reply, &QIODevice::readyRead, reply, [reply, buffer] { *buffer += reply->readAll(); });
            *replyOut = reply;
            return std::function<QList<Event>()>([buffer] {
                QList<Event> events;
                const QList<QByteArray> blocks = buffer->split('\n');
                Event current;
                for (const QByteArray& line : blocks) {
                    if (line.isEmpty()) {
                        if (!current.name.isEmpty())
                            events << current;
                        current = {};
                    } else if (line.startsWith("id: ")) {
                        current.id = line.mid(4);
                    } else if (line.startsWith("event: ")) {
                        current.name = line.mid(7);
                    } else if (line.startsWith("data: ")) {
                        current.data = QJsonDocument::fromJson(line.mid(6)).object();
                    }
                }
                return events;
            });
        };
        auto synced = [](const QList<Event>& events) { return !events.isEmpty() && events.last().name == "synced"; };

        // Every job of the project is final first, so that only this test's changes are streamed.
        auto allFinal = [&] {
            const QJsonArray jobs = get(QStringLiteral("/v1/projects/local/jobs?pageSize=100"))
                                        .json.value(QStringLiteral("jobs"))
                                        .toArray();
            for (const QJsonValue& v : jobs) {
                if (!isFinal(v.toObject().value(QStringLiteral("state")).toString()))
                    return false;
            }
            return !jobs.isEmpty();
        };
        QTRY_VERIFY_WITH_TIMEOUT(allFinal(), 120000);

        // The snapshot: every job of the project (not of others), then `synced` with the cursor.
        QNetworkReply* reply = nullptr;
        auto events = open(QStringLiteral("follow=true"), &reply);
        QTRY_VERIFY_WITH_TIMEOUT(synced(events()), 30000);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QSet<QString> ids;
        for (const Event& e : events()) {
            if (e.name == "job") {
                ids << e.data.value(QStringLiteral("jobId")).toString();
                QVERIFY(!e.id.isEmpty());
            }
        }
        const QJsonArray listed
            = get(QStringLiteral("/v1/projects/local/jobs?pageSize=100")).json.value(QStringLiteral("jobs")).toArray();
        QSet<QString> expected;
        for (const QJsonValue& v : listed)
            expected << v.toObject().value(QStringLiteral("jobId")).toString();
        QCOMPARE(ids, expected);
        QVERIFY(!ids.contains(QStringLiteral("api_elsewhere")));
        const QByteArray cursor = events().last().data.value(QStringLiteral("cursor")).toString().toLatin1();
        QCOMPARE(events().last().id, cursor);

        // A change is sent as it is stored: the whole job.
        const int before = int(events().size());
        const Response patched = send("PATCH", QStringLiteral("/v1/projects/local/jobs/api_first?updateMask=labels"),
            QJsonDocument(QJsonObject { { QStringLiteral("labels"),
                              QJsonObject { { QStringLiteral("watched"), QStringLiteral("yes") } } } })
                .toJson());
        QCOMPARE(patched.status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(events().size() > before, 10000);
        const Event change = events().at(before);
        QCOMPARE(change.name, QByteArray("job"));
        QCOMPARE(change.data, patched.json);
        reply->abort();
        reply->deleteLater();

        // Resuming from the cursor sends only what changed since, then `synced`.
        events = open(QStringLiteral("follow=true&since=") + QString::fromLatin1(cursor), &reply);
        QTRY_VERIFY_WITH_TIMEOUT(synced(events()), 30000);
        QCOMPARE(events().size(), 2);
        QCOMPARE(events().first().data.value(QStringLiteral("jobId")).toString(), QStringLiteral("api_first"));
        reply->abort();
        reply->deleteLater();

        // A cursor of another database: `reset`, then everything.
        events = open(QStringLiteral("follow=true&since=another-store.3"), &reply);
        QTRY_VERIFY_WITH_TIMEOUT(synced(events()), 30000);
        QCOMPARE(events().first().name, QByteArray("reset"));
        QCOMPARE(events().size(), expected.size() + 2);
        reply->abort();
        reply->deleteLater();

        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs?follow=true&since=nonsense")).status, 400);
        QCOMPARE(get(QStringLiteral("/v1/projects/local/jobs?follow=true&filter=state:FAILED")).status, 400);
    }

    void notFoundAndMethods_data()
    {
        QTest::addColumn<QByteArray>("verb");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("status");
        QTest::addRow("get unknown job") << QByteArray("GET") << QStringLiteral("/v1/projects/local/jobs/nope") << 404;
        QTest::addRow("cancel unknown job")
            << QByteArray("POST") << QStringLiteral("/v1/projects/local/jobs/nope:cancel") << 404;
        QTest::addRow("replicas of unknown job")
            << QByteArray("GET") << QStringLiteral("/v1/projects/local/jobs/nope/replicas") << 404;
        QTest::addRow("logs of unknown job")
            << QByteArray("GET") << QStringLiteral("/v1/projects/local/jobs/nope/logs") << 404;
        QTest::addRow("events of unknown job")
            << QByteArray("GET") << QStringLiteral("/v1/projects/local/jobs/nope:events") << 404;
        QTest::addRow("unknown verb") << QByteArray("POST")
                                      << QStringLiteral("/v1/projects/local/jobs/api_first:explode") << 404;
        QTest::addRow("unknown path") << QByteArray("GET") << QStringLiteral("/v2/anything") << 404;
        QTest::addRow("unknown collection") << QByteArray("GET") << QStringLiteral("/v1/projects/local/studies") << 404;
        QTest::addRow("double slash") << QByteArray("GET") << QStringLiteral("/v1/projects//jobs") << 404;
        QTest::addRow("delete a job") << QByteArray("DELETE") << QStringLiteral("/v1/projects/local/jobs/api_first")
                                      << 405;
        QTest::addRow("get cancel") << QByteArray("GET") << QStringLiteral("/v1/projects/local/jobs/api_first:cancel")
                                    << 405;
        QTest::addRow("put jobs") << QByteArray("PUT") << QStringLiteral("/v1/projects/local/jobs") << 405;
    }

    void notFoundAndMethods()
    {
        QFETCH(QByteArray, verb);
        QFETCH(QString, path);
        QFETCH(int, status);
        const Response r = send(verb, path);
        QCOMPARE(r.status, status);
        QCOMPARE(r.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), status);
        if (status == 404)
            QCOMPARE(errorStatus(r.json), QStringLiteral("NOT_FOUND"));
        else
            QVERIFY(!r.header("Allow").isEmpty());
    }

    void oversizedBody()
    {
        const QByteArray huge = "{\"jobId\":\"" + QByteArray(5 * 1024 * 1024, 'a') + "\"}";
        const Response r = send("POST", QStringLiteral("/v1/projects/local/jobs"), huge);
        QCOMPARE(r.status, 413);
    }

    void catalogsAndHost_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("key");
        QTest::addRow("scale tiers") << QStringLiteral("/v1/projects/local/scaleTiers") << QStringLiteral("scaleTiers");
        QTest::addRow("machine types") << QStringLiteral("/v1/projects/local/machineTypes")
                                       << QStringLiteral("machineTypes");
        QTest::addRow("accelerator types")
            << QStringLiteral("/v1/projects/local/acceleratorTypes") << QStringLiteral("acceleratorTypes");
        QTest::addRow("runtime versions")
            << QStringLiteral("/v1/projects/local/runtimeVersions") << QStringLiteral("runtimeVersions");
        QTest::addRow("host") << QStringLiteral("/v1/projects/other-project/host") << QStringLiteral("cpus");
    }

    void catalogsAndHost()
    {
        QFETCH(QString, path);
        QFETCH(QString, key);
        const Response r = get(path);
        QCOMPARE(r.status, 200);
        QVERIFY2(r.json.contains(key), r.body.constData());
        if (r.json.value(key).isArray())
            QVERIFY(!r.json.value(key).toArray().isEmpty());
        else
            QVERIFY(r.json.value(key).toInt() > 0);
    }

    void secondExecutorRefuses()
    {
        QProcess second;
        second.setProcessEnvironment(isolatedEnvironment());
        Trainyard::Test::dieWithParent(&second);
        second.start(QStringLiteral(TRAINYARD_EXECUTOR_BIN), {});
        QVERIFY(second.waitForFinished(30000));
        QCOMPARE(second.exitCode(), 1);
        QVERIFY2(second.readAllStandardError().contains("already running"), "no clear message");
    }

    void refusesNonLoopback()
    {
        QProcess other;
        other.setProcessEnvironment(isolatedEnvironment());
        Trainyard::Test::dieWithParent(&other);
        other.start(
            QStringLiteral(TRAINYARD_EXECUTOR_BIN), { QStringLiteral("--listen"), QStringLiteral("0.0.0.0:0") });
        QVERIFY(other.waitForFinished(30000));
        QCOMPARE(other.exitCode(), 2);
        QVERIFY(other.readAllStandardError().contains("loopback"));
    }

    void garbageOnTheWire()
    {
        // Bytes that are not HTTP at all, and a request cut off mid-header: the executor shrugs.
        for (const QByteArray& bytes : { QByteArray("\x01\x02\xff NOT HTTP\r\n\r\n"), QByteArray("GET /v1/proj") }) {
            QTcpSocket socket;
            socket.connectToHost(m_url.host(), quint16(m_url.port()));
            QVERIFY(socket.waitForConnected(10000));
            socket.write(bytes);
            QVERIFY(socket.waitForBytesWritten(10000));
            socket.abort();
        }
        QCOMPARE(get(QStringLiteral("/v1/projects/local/host")).status, 200);
    }

    void stillUpAndCleanShutdown()
    {
        QVERIFY(m_executor.running());
        QCOMPARE(get(QStringLiteral("/v1/projects/local/host")).status, 200);
        QVERIFY(m_executor.stop()); // SIGTERM; exits by itself with status 0
        QVERIFY(!QFile::exists(m_runtimeDir + QStringLiteral("/executor.json")));
        QVERIFY(!QFile::exists(m_runtimeDir + QStringLiteral("/token")));
    }

    void cleanupTestCase() { m_executor.kill(); }
};

QTEST_GUILESS_MAIN(TestExecutorApi)
#include "tst_executorapi.moc"
