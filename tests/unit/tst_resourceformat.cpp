// SPDX-License-Identifier: GPL-2.0-or-later
// gcloud's resource format language as trainyardctl implements it (app/ctl/resourceformat.h): the formats scripts
// use (value, csv, table, json, yaml, list, get), keys with indices and slices, the transforms, attributes, nested
// formats and the list flags, on resources shaped as the service's (a job, a version, a prediction answer).
#include "argparser.h"
#include "resourceformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QTimeZone>

using namespace Trainyard;

namespace {

QJsonArray jobs()
{
    return QJsonDocument::fromJson(R"([
        {"jobId": "census_1", "state": "SUCCEEDED", "createTime": "2026-11-02T10:00:00Z",
         "startTime": "2026-11-02T10:00:05Z", "endTime": "2026-11-02T11:02:03.500Z",
         "labels": {"team": "ads", "owner": "ana"},
         "trainingInput": {"scaleTier": "BASIC", "packageUris": ["/src/trainer-0.1.tar.gz", "/src/util-1.0.tar.gz"]},
         "trainingOutput": {"completedTrialCount": "2", "trials": [
            {"trialId": "1", "finalMetric": {"objectiveValue": 0.25}, "hyperparameters": {"lr": "0.1"}},
            {"trialId": "2", "finalMetric": {"objectiveValue": 0.5}, "hyperparameters": {"lr": "0.01"}}]}},
        {"jobId": "census_2", "state": "FAILED", "createTime": "2026-11-03T09:30:00Z",
         "errorMessage": "The replica master 0 exited with a non-zero status of 1.",
         "trainingInput": {"scaleTier": "CUSTOM"}}
    ])").array();
}

QString render(const QString& spec, const QJsonArray& resources, const ResourceFormat::Context& context = {})
{
    QString error;
    const std::optional<ResourceFormat> f = ResourceFormat::parse(spec, &error, context);
    if (!f)
        return QStringLiteral("ERROR: ") + error;
    return f->renderList(resources);
}

QString renderOne(const QString& spec, const QJsonValue& resource)
{
    QString error;
    const std::optional<ResourceFormat> f = ResourceFormat::parse(spec, &error);
    if (!f)
        return QStringLiteral("ERROR: ") + error;
    return f->renderOne(resource);
}

} // namespace

class TestResourceFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("TZ", "UTC"); }

    /// value(): tab-separated, no heading; a list's items joined by ";" (gcloud's csv_printer delimiter).
    void valueFormat()
    {
        QCOMPARE(render(QStringLiteral("value(jobId,state)"), jobs()),
            QStringLiteral("census_1\tSUCCEEDED\ncensus_2\tFAILED\n"));
        QCOMPARE(render(QStringLiteral("value(trainingInput.packageUris)"), jobs()),
            QStringLiteral("/src/trainer-0.1.tar.gz;/src/util-1.0.tar.gz\n\n"));
        QCOMPARE(render(QStringLiteral("value(labels)"), jobs()), QStringLiteral("owner=ana;team=ads\n\n"));
        QCOMPARE(render(QStringLiteral("value[separator=','](jobId,state)"), jobs()),
            QStringLiteral("census_1,SUCCEEDED\ncensus_2,FAILED\n"));
        // A prediction answer: value(predictions) is the list, items split by ";".
        const QJsonObject answer = QJsonDocument::fromJson(R"({"predictions": [0, 1, 1]})").object();
        QCOMPARE(renderOne(QStringLiteral("value(predictions)"), answer), QStringLiteral("0;1;1\n"));
        QCOMPARE(renderOne(QStringLiteral("value(predictions)"),
                     QJsonDocument::fromJson(R"({"predictions": [[0.25, 0.75], [1, 0]]})").object()),
            QStringLiteral("[0.25, 0.75];[1, 0]\n"));
    }

    /// csv: heading from the labels in lower case, quoting as RFC 4180 where needed; [no-heading].
    void csvFormat()
    {
        QCOMPARE(render(QStringLiteral("csv(jobId,state,createTime)"), jobs()),
            QStringLiteral("job_id,state,create_time\ncensus_1,SUCCEEDED,2026-11-02T10:00:00Z\n"
                           "census_2,FAILED,2026-11-03T09:30:00Z\n"));
        QCOMPARE(render(QStringLiteral("csv[no-heading](jobId,errorMessage)"), jobs()),
            QStringLiteral("census_1,\ncensus_2,The replica master 0 exited with a non-zero status of 1.\n"));
        const QJsonArray quoted { QJsonObject { { QStringLiteral("name"), QStringLiteral("a,b \"c\"") } } };
        QCOMPARE(render(QStringLiteral("csv[no-heading](name)"), quoted), QStringLiteral("\"a,b \"\"c\"\"\"\n"));
    }

    /// table: ANGRY_SNAKE_CASE headings, columns padded by two spaces; labels, [no-heading], [box], [title].
    void tableFormat()
    {
        QCOMPARE(render(QStringLiteral("table(jobId,state,createTime.date(\"%Y-%m-%d\"))"), jobs()),
            QStringLiteral("JOB_ID    STATE      CREATE_TIME\n"
                           "census_1  SUCCEEDED  2026-11-02\n"
                           "census_2  FAILED     2026-11-03\n"));
        QCOMPARE(render(QStringLiteral("table[no-heading](jobId, state:label=STATUS)"), jobs()),
            QStringLiteral("census_1  SUCCEEDED\ncensus_2  FAILED\n"));
        QCOMPARE(render(QStringLiteral("table[box,title=Jobs](jobId:label=ID)"), jobs()),
            QStringLiteral("┌──────────┐\n│ Jobs     │\n├──────────┤\n│ ID       │\n├──────────┤\n│ census_1 │\n"
                           "├──────────┤\n│ census_2 │\n└──────────┘\n"));
        // :sort and :reverse order the rows; :align pads.
        QCOMPARE(render(QStringLiteral("table(jobId:sort=1:reverse, trainingOutput.completedTrialCount:label=N:align=right)"),
                     jobs()),
            QStringLiteral("JOB_ID    N\ncensus_2\ncensus_1  2\n"));
        // A repeated heading takes its parents, as gcloud disambiguates.
        QCOMPARE(render(QStringLiteral("table(trainingOutput.trials[0].trialId, trainingOutput.trials[1].trialId)"),
                     { jobs().first() }),
            QStringLiteral("TRIAL_ID  TRIALS_TRIAL_ID\n1         2\n"));
        QCOMPARE(render(QStringLiteral("table[no-heading](jobId)"), {}), QString());
    }

    /// Keys: nested names, [N] (negative from the end), [] (every item), a name applied to a list's items.
    void keysAndSlices()
    {
        QCOMPARE(render(QStringLiteral("value(trainingOutput.trials[0].trialId, trainingOutput.trials[-1].trialId)"),
                     { jobs().first() }),
            QStringLiteral("1\t2\n"));
        QCOMPARE(render(QStringLiteral("value(trainingOutput.trials[].finalMetric.objectiveValue)"), { jobs().first() }),
            QStringLiteral("0.25;0.5\n"));
        QCOMPARE(render(QStringLiteral("value(trainingOutput.trials.trialId)"), { jobs().first() }),
            QStringLiteral("1;2\n"));
        QCOMPARE(render(QStringLiteral("value(trainingOutput.trials[7].trialId, nothing.here)"), { jobs().first() }),
            QStringLiteral("\t\n"));
    }

    /// The transforms gcloud scripts use.
    void transforms()
    {
        const QJsonArray one { jobs().first() };
        QCOMPARE(render(QStringLiteral("value(createTime.date(\"%Y-%m-%d %H:%M\"), createTime.date())"), one),
            QStringLiteral("2026-11-02 10:00\t2026-11-02T10:00:00\n"));
        QCOMPARE(render(QStringLiteral("value(createTime.date(format='%d.%m.%Y', tz=Europe/Berlin))"), one),
            QStringLiteral("02.11.2026\n"));
        QCOMPARE(render(QStringLiteral("value(createTime.date(format='%b %d, %Y'))"), one),
            QStringLiteral("Nov 02, 2026\n"));
        QCOMPARE(render(QStringLiteral("value(duration(start=startTime, end=endTime))"), one),
            QStringLiteral("PT1H1M58.5S\n"));
        QCOMPARE(render(QStringLiteral("value(trainingInput.packageUris.len(), trainingOutput.trials.len())"), one),
            QStringLiteral("2\t2\n"));
        QCOMPARE(render(QStringLiteral("value(trainingInput.packageUris.join(sep=' '))"), one),
            QStringLiteral("/src/trainer-0.1.tar.gz /src/util-1.0.tar.gz\n"));
        QCOMPARE(render(QStringLiteral("value(errorMessage.yesno(yes=failed, no=ok))"), jobs()),
            QStringLiteral("ok\nfailed\n"));
        QCOMPARE(render(QStringLiteral("value(trainingInput.packageUris[0].basename())"), one),
            QStringLiteral("trainer-0.1.tar.gz\n"));
        QCOMPARE(render(QStringLiteral("value(format('{0} is {1}', jobId, state))"), jobs()),
            QStringLiteral("census_1 is SUCCEEDED\ncensus_2 is FAILED\n"));
        QCOMPARE(render(QStringLiteral("value(trainingOutput.trials.sort(finalMetric.objectiveValue).limit(1).len())"),
                     one),
            QStringLiteral("1\n"));
        QCOMPARE(render(QStringLiteral("value(trainingOutput.trials.sort(trialId).limit(1))"), one).left(14),
            QStringLiteral("{'finalMetric'"));
        QCOMPARE(render(QStringLiteral("value(firstof(errorMessage, state))"), jobs()),
            QStringLiteral("SUCCEEDED\nThe replica master 0 exited with a non-zero status of 1.\n"));
        QCOMPARE(render(QStringLiteral("value(trainingInput.packageUris.list())"), one),
            QStringLiteral("/src/trainer-0.1.tar.gz,/src/util-1.0.tar.gz\n"));
        ResourceFormat::Context context;
        context.uriOf = [](const QJsonValue& r) {
            return QStringLiteral("https://x/v1/projects/p/jobs/") + r[QLatin1String("jobId")].toString();
        };
        QCOMPARE(render(QStringLiteral("value(uri())"), one, context), QStringLiteral("https://x/v1/projects/p/jobs/census_1\n"));
    }

    /// json and yaml with a projection keep the keys in their places; without one, the whole resource.
    void jsonAndYamlProjections()
    {
        QCOMPARE(renderOne(QStringLiteral("json(jobId, trainingOutput.trials[].trialId)"), jobs().first()),
            QStringLiteral("{\n    \"jobId\": \"census_1\",\n    \"trainingOutput\": {\n        \"trials\": [\n"
                           "            {\n                \"trialId\": \"1\"\n            },\n"
                           "            {\n                \"trialId\": \"2\"\n            }\n        ]\n    }\n}\n"));
        QCOMPARE(render(QStringLiteral("yaml(jobId,state)"), jobs()),
            QStringLiteral("jobId: census_1\nstate: SUCCEEDED\n---\njobId: census_2\nstate: FAILED\n"));
        QCOMPARE(renderOne(QStringLiteral("yaml(trainingInput.scaleTier)"), jobs().first()),
            QStringLiteral("trainingInput:\n  scaleTier: BASIC\n"));
    }

    /// list: " - " and the record's items; get: value's output.
    void listAndGet()
    {
        QCOMPARE(render(QStringLiteral("list(jobId,state)"), jobs()),
            QStringLiteral(" - census_1\n   SUCCEEDED\n - census_2\n   FAILED\n"));
        QCOMPARE(render(QStringLiteral("list[compact](jobId,state)"), jobs()),
            QStringLiteral(" - census_1 SUCCEEDED\n - census_2 FAILED\n"));
        QCOMPARE(render(QStringLiteral("get(jobId)"), jobs()), QStringLiteral("census_1\ncensus_2\n"));
    }

    /// gcloud's predict default for object predictions: a nested table of the list key.
    void nestedFormat()
    {
        const QJsonObject answer = QJsonDocument::fromJson(
            R"({"predictions": [{"label": "cat", "score": 0.9}, {"label": "dog", "score": 0.75}]})")
                                       .object();
        QCOMPARE(renderOne(QStringLiteral("table(predictions:format=\"table(label, score)\")"), answer),
            QStringLiteral("LABEL  SCORE\ncat    0.9\ndog    0.75\n"));
        QCOMPARE(renderOne(QStringLiteral("table[no-heading](predictions)"),
                     QJsonDocument::fromJson(R"({"predictions": [0, 1]})").object()),
            QStringLiteral("[0, 1]\n"));
    }

    /// Errors name the place and the rule, in gcloud's words.
    void errors()
    {
        QString error;
        QVERIFY(!ResourceFormat::parse(QStringLiteral("value"), &error));
        QCOMPARE(error, QStringLiteral("Format [value] requires a non-empty projection."));
        QVERIFY(!ResourceFormat::parse(QStringLiteral("table(jobId, state"), &error));
        QVERIFY2(error.startsWith(QLatin1String("Expected ) in projection expression")), qPrintable(error));
        QVERIFY(!ResourceFormat::parse(QStringLiteral("table(jobId.frobnicate())"), &error));
        QVERIFY2(error.contains(QLatin1String("Unknown transform function frobnicate")), qPrintable(error));
        QVERIFY(!ResourceFormat::parse(QStringLiteral("xml(jobId)"), &error));
        QVERIFY2(error.startsWith(QLatin1String("Invalid choice: 'xml'. Valid choices are [table, value")), qPrintable(error));
        QVERIFY(!ResourceFormat::parse(QStringLiteral("table(jobId:colour=red)"), &error));
        QVERIFY2(error.contains(QLatin1String("Unknown key attribute")), qPrintable(error));
        QVERIFY(ResourceFormat::parse(QStringLiteral("json"), &error)->isPlain());
        QVERIFY(!ResourceFormat::parse(QStringLiteral("table[box]"), &error)->isPlain());
    }

    /// --flatten, --sort-by, --limit as gcloud applies them (flatten, then sort, then limit).
    void listDisplay()
    {
        ArgParser p(QStringLiteral("t"), QStringLiteral("t"), QStringLiteral("t"));
        ListDisplay::addFlags(p);
        QVERIFY(p.parse({ QStringLiteral("--sort-by=~createTime"), QStringLiteral("--limit=1") }));
        ListDisplay d;
        QString error;
        QVERIFY(d.take(p, &error));
        QCOMPARE(d.apply(jobs()).size(), 1);
        QCOMPARE(d.apply(jobs()).first()[QLatin1String("jobId")].toString(), QStringLiteral("census_2"));

        ListDisplay flatten;
        flatten.flatten = QStringList { QStringLiteral("trainingOutput.trials") };
        flatten.sortBy = QStringList { QStringLiteral("~trainingOutput.trials.finalMetric.objectiveValue") };
        QCOMPARE(render(QStringLiteral("value(jobId, trainingOutput.trials.trialId)"), flatten.apply(jobs())),
            QStringLiteral("census_1\t2\ncensus_1\t1\ncensus_2\t\n"));

        ArgParser bad(QStringLiteral("t"), QStringLiteral("t"), QStringLiteral("t"));
        ListDisplay::addFlags(bad);
        QVERIFY(bad.parse({ QStringLiteral("--limit=0") }));
        QVERIFY(!ListDisplay().take(bad, &error));
        QVERIFY2(error.contains(QLatin1String("greater than or equal to 1")), qPrintable(error));
    }

    void headings()
    {
        QCOMPARE(ResourceFormat::angrySnakeCase(QStringLiteral("createTime")), QStringLiteral("CREATE_TIME"));
        QCOMPARE(ResourceFormat::angrySnakeCase(QStringLiteral("jobId")), QStringLiteral("JOB_ID"));
        QCOMPARE(ResourceFormat::angrySnakeCase(QStringLiteral("deploymentUri")), QStringLiteral("DEPLOYMENT_URI"));
        QCOMPARE(ResourceFormat::angrySnakeCase(QStringLiteral("state")), QStringLiteral("STATE"));
    }
};

QTEST_GUILESS_MAIN(TestResourceFormat)
#include "tst_resourceformat.moc"
