// SPDX-License-Identifier: GPL-2.0-or-later
// The `fields` system parameter (models/partialresponse.h): selectors as Google's partial-response docs and gcloud
// scripts write them, applied to a jobs list and a job, and the malformed ones refused with where they went wrong.
#include "partialresponse.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Trainyard;

namespace {

QJsonObject json(const char* text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

const char* jobsList = R"({"jobs": [
    {"jobId": "a", "state": "SUCCEEDED", "etag": "e1", "trainingInput": {"region": "us-central1", "args": ["x"]},
     "trainingOutput": {"trials": [{"trialId": "1", "finalMetric": {"objectiveValue": 0.9}}, {"trialId": "2"}]}},
    {"jobId": "b", "state": "RUNNING", "etag": "e2"}],
  "nextPageToken": "t"})";

} // namespace

class TestPartialResponse : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void selects_data()
    {
        QTest::addColumn<QString>("fields");
        QTest::addColumn<QString>("expected");
        QTest::addRow("a list's items and its token") << "jobs(jobId,state),nextPageToken"
                                                      << R"({"jobs":[{"jobId":"a","state":"SUCCEEDED"},)"
                                                         R"({"jobId":"b","state":"RUNNING"}],"nextPageToken":"t"})";
        QTest::addRow("a path through objects and arrays")
            << "jobs/trainingOutput/trials/trialId"
            << R"({"jobs":[{"trainingOutput":{"trials":[{"trialId":"1"},{"trialId":"2"}]}},{}]})";
        QTest::addRow("nested selections") << "jobs(jobId,trainingInput(region))"
                                           << R"({"jobs":[{"jobId":"a","trainingInput":{"region":"us-central1"}},)"
                                              R"({"jobId":"b"}]})";
        QTest::addRow("a whole field") << "nextPageToken"
                                       << R"({"nextPageToken":"t"})";
        QTest::addRow("every field") << "*"
                                     << QString::fromUtf8(QJsonDocument(json(jobsList)).toJson(QJsonDocument::Compact));
        QTest::addRow("fields the answer lacks") << "jobs(nothing),nowhere"
                                                 << R"({"jobs":[{},{}]})";
        QTest::addRow("spaces around") << " nextPageToken "
                                       << R"({"nextPageToken":"t"})";
    }

    void selects()
    {
        QFETCH(QString, fields);
        QFETCH(QString, expected);
        QString error;
        const std::optional<PartialResponse> selector = PartialResponse::parse(fields, &error);
        QVERIFY2(selector, qPrintable(error));
        const QJsonValue out = selector->apply(json(jobsList));
        QCOMPARE(QString::fromUtf8(QJsonDocument(out.toObject()).toJson(QJsonDocument::Compact)), expected);
    }

    void refusesMalformed_data()
    {
        QTest::addColumn<QString>("fields");
        QTest::addColumn<QString>("where");
        QTest::addRow("empty") << ""
                               << "empty";
        QTest::addRow("unbalanced") << "jobs(jobId"
                                    << "\")\" is expected at character 11";
        QTest::addRow("empty name") << "jobs,,state"
                                    << "a field name is expected at character 6";
        QTest::addRow("stray character") << "jobs)"
                                         << "\")\" is not expected at character 5";
        QTest::addRow("a query, not a selector") << "state=RUNNING"
                                                 << "\"=\" is not expected";
    }

    void refusesMalformed()
    {
        QFETCH(QString, fields);
        QFETCH(QString, where);
        QString error;
        QVERIFY(!PartialResponse::parse(fields, &error));
        QVERIFY2(error.contains(where), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestPartialResponse)
#include "tst_partialresponse.moc"
