// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target: any bytes as one request to the executor's API, answered in this process by HttpApi::serve()
// (authentication, the router, the resource handlers; no socket) against real, empty stores in a temporary folder.
//
// Input: "METHOD TARGET" on the first line, then "Name: value" header lines up to an empty line, then the body
// (the seeds in seeds/fuzz_apirequest/ are valid requests with the fuzzer's token, some with encoded project and path
// segments that must be refused). The target becomes the URL as the transport makes it (requestUrl()). Every answer
// must be JSON in Google's shape or an event stream, and never a 500: anything else traps. So does a file or folder
// made outside the data folder: it is nested four folders deep in the temporary folder, and each level above it must
// hold nothing but the next (a path built from "..%2F.." in a project or job segment landed there). The host has no
// CPUs, so no job it accepts can start a process.
#include "httpapi.h"
#include "httpconnection.h"
#include "jobstore.h"
#include "logstore.h"
#include "metricsstore.h"
#include "scheduler.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTemporaryDir>

#include <cstdlib>
#include <memory>

using namespace Trainyard;

namespace {

const QByteArray Token = "fuzz-token";

struct Api {
    QTemporaryDir dir;
    std::unique_ptr<JobStore> store;
    std::unique_ptr<LogStore> logs;
    std::unique_ptr<MetricsStore> metrics;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<HttpApi> api;
};

Api* makeApi()
{
    static int argc = 1;
    static char name[] = "fuzz_apirequest";
    static char* argv[] = { name, nullptr };
    static QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("*.debug=false\n*.info=false\n*.warning=false"));
    auto* api = new Api;
    if (!api->dir.isValid())
        std::abort();
    const QString data = api->dir.path() + QStringLiteral("/a/b/c/d");
    if (!QDir().mkpath(data))
        std::abort();
    qputenv("XDG_DATA_HOME", QFile::encodeName(data));
    QString error;
    api->store = std::make_unique<JobStore>();
    if (!api->store->open(data + QStringLiteral("/trainyard.sqlite"), &error))
        std::abort();
    api->logs = std::make_unique<LogStore>(data);
    api->metrics = std::make_unique<MetricsStore>();
    if (!api->metrics->open(data + QStringLiteral("/metrics.sqlite"), &error))
        std::abort();
    HostInventory host; // no CPUs, no memory: nothing is ever started
    api->scheduler = std::make_unique<Scheduler>(api->store.get(), api->logs.get(), host, data);
    api->api = std::make_unique<HttpApi>(api->store.get(), api->logs.get(), api->scheduler.get(), host, Token);
    api->api->setMetricsStore(api->metrics.get());
    api->api->setPathPolicy(PathPolicy(QStringList { data }));
    // Before the application goes (registered after it was made): the stores close, the folder is removed.
    static Api* const made = api;
    std::atexit([] { delete made; });
    return api;
}

struct Answer {
    bool done = false;
    int status = 0;
    HttpHeaderList headers;
    QByteArray body;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static Api* const api = makeApi();
    const QByteArray input(reinterpret_cast<const char*>(data), qsizetype(size));

    // "METHOD TARGET\n", headers, "\n", body.
    const qsizetype lineEnd = input.indexOf('\n');
    const QByteArray line = input.left(lineEnd < 0 ? input.size() : lineEnd);
    const qsizetype space = line.indexOf(' ');
    const QByteArray method = space < 0 ? QByteArray("GET") : line.left(space);
    const QByteArray target = space < 0 ? line : line.mid(space + 1);
    HttpHeaderList headers;
    qsizetype at = lineEnd < 0 ? input.size() : lineEnd + 1;
    while (at < input.size()) {
        qsizetype end = input.indexOf('\n', at);
        if (end < 0)
            end = input.size();
        const QByteArray header = input.mid(at, end - at);
        at = end + 1;
        if (header.isEmpty())
            break;
        const qsizetype colon = header.indexOf(':');
        headers.append(qMakePair(header.left(colon < 0 ? header.size() : colon),
            colon < 0 ? QByteArray() : header.mid(colon + 1).trimmed()));
    }
    const QByteArray body = at < input.size() ? input.mid(at) : QByteArray();

    const QUrl url = requestUrl(target, QStringLiteral("127.0.0.1"), 8080);
    if (!url.isValid())
        return 0; // the transport answers 400 before the API sees it

    auto answer = std::make_shared<Answer>();
    api->api->serve(ApiRequest(method, url, headers, body),
        [answer](int status, const HttpHeaderList& answerHeaders, const QByteArray& answerBody) {
            answer->done = true;
            answer->status = status;
            answer->headers = answerHeaders;
            answer->body = answerBody;
        });
    // Deferred answers come from the thread pool; a stream (follow) ends only when its job does, so streams are
    // ended after a short while and hand over what they wrote.
    QDeadlineTimer deadline(20);
    while (!answer->done && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    if (!answer->done)
        api->api->closeStreams();
    deadline.setRemainingTime(10000);
    while (!answer->done && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    // Outside QCoreApplication::exec() nothing deletes what deleteLater() was called on (ended streams, watchers).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    if (!answer->done)
        __builtin_trap(); // a request that is never answered
    if (answer->status < 200 || answer->status > 599 || answer->status == 500)
        __builtin_trap();
    // Nothing beside the path to the data folder, at any level above it.
    QString level = api->dir.path();
    for (const char* next : { "a", "b", "c", "d" }) {
        if (QDir(level).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)
            != QStringList { QLatin1String(next) })
            __builtin_trap(); // a path outside the data folder was made
        level += QLatin1Char('/') + QLatin1String(next);
    }
    QByteArray contentType;
    for (const auto& [key, value] : answer->headers) {
        if (key.compare("Content-Type", Qt::CaseInsensitive) == 0)
            contentType = value;
    }
    if (contentType.startsWith("application/json")) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(answer->body, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            __builtin_trap(); // an answer that is not the JSON it says it is
        if (answer->status >= 400 && !document.object().value(QStringLiteral("error")).isObject())
            __builtin_trap(); // an error not in Google's shape
    } else if (!contentType.startsWith("text/event-stream")) {
        __builtin_trap();
    }
    return 0;
}
