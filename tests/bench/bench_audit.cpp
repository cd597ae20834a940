// SPDX-License-Identifier: GPL-2.0-or-later
// bench_audit: the cost of one Data Access audit entry (issue 28: `api_acl_audit_on_vs_off_requests_per_s`).
//
// With `--audit-data-access` every read the API answers hands an entry to the audit store (AuditStore, API.md
// "Audit logs"): the API's thread takes the call's facts and queues them; the store's writer thread builds the
// entry's canonical bytes (AuditRecorder::chainedEntry), chains it (SHA-256 of the entry before), inserts it, commits
// the batch (WAL, synchronous=FULL) and rewrites the head anchor. On the 2-core machines both threads share the
// cores with the requests, so what matters is the CPU all of it takes per entry.
//
//   audit_data_access_cpu_us_per_entry
//     ours:     BENCH_AUDIT_ENTRIES (default 100,000) entries through AuditRecorder::writeLater()'s path: the call's
//               facts as the router has them (a job's GET by a viewer token) encoded by AuditRecorder::record(),
//               AuditStore::appendDeferred(), flush() at the end; the process's CPU time (both threads,
//               CLOCK_PROCESS_CPUTIME_ID) over the entries.
//     baseline: the same number of rows of the same bytes (one entry as ours writes it, made once) inserted into a
//               file of the same schema and pragmas by one prepared QSqlQuery, committed every AuditStore::FlushBatch
//               rows: what storing the entries costs with no facts, no building, no chain and no anchor.
//     ratio = ours / baseline (1: the entries cost what storing their bytes costs).
//
// Median of BENCH_RUNS (default 5) runs after a warm-up, ours and the baseline alternating; each run a fresh file.
// Nothing asserts on time.
#include "apicommon.h"
#include "auditlog.h"
#include "auditrecorder.h"
#include "auditstore.h"
#include "benchreport.h"
#include "httpapi.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QVariant>

#include <cstdio>
#include <ctime>

using namespace Trainyard;

namespace {

double processCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// `GET /v1/projects/local/jobs/live` by a roles/ml.viewer token, as the router sees it.
struct Read {
    ApiRequest request { "GET", QUrl(QStringLiteral("/v1/projects/local/jobs/live")),
        { { QByteArray("User-Agent"), QByteArray("bench_api/1") } } };
    HttpApi::Caller caller { QStringLiteral("user:viewer@bench.example"), QStringLiteral("roles/ml.viewer"),
        QStringLiteral("3f9a0c12d4e5b6a7") };
    AuditRecorder::Method method = AuditRecorder::methodOf(
        "GET", QStringLiteral("/v1/projects/{project}/jobs/{job}"), QStringLiteral("ml.jobs.get"));
    QString permission = QStringLiteral("ml.jobs.get");
    QHash<QString, QString> params { { QStringLiteral("project"), QStringLiteral("local") },
        { QStringLiteral("job"), QStringLiteral("live") } };
    HttpApi::Reply reply;
    QString region = QStringLiteral("us-central1");
    Read()
    {
        request.setRemoteAddress(QStringLiteral("127.0.0.1"));
        reply.status = 200;
    }
    /// AuditRecorder::record() of the call now.
    void record(std::string* out) const
    {
        const qint64 us = QDateTime::currentMSecsSinceEpoch() * 1000;
        AuditRecorder::record(request, caller, method, permission, params, reply, true, region, us, out);
    }
};

/// CPU µs per entry of `entries` Data Access entries through the audit store, or -1 when it failed.
double oursRun(const QString& dir, int entries)
{
    const Read read;
    AuditStore store;
    store.setHeadAnchor(dir + QStringLiteral("/head"), dir);
    QString error;
    if (!store.open(dir + QStringLiteral("/audit.sqlite"), &error)) {
        std::fprintf(stderr, "bench_audit: %s\n", qPrintable(error));
        return -1;
    }
    const double start = processCpuSeconds();
    std::string record;
    for (int i = 0; i < entries; ++i) {
        // What AuditRecorder::writeLater() hands over.
        read.record(&record);
        if (!store.appendDeferred(
                QByteArrayView(record.data(), qsizetype(record.size())), &AuditRecorder::chainedRecord, &error))
            return -1;
    }
    if (!store.flush(&error)) {
        std::fprintf(stderr, "bench_audit: %s\n", qPrintable(error));
        return -1;
    }
    return (processCpuSeconds() - start) * 1e6 / entries;
}

/// CPU µs per row of `entries` rows of `bytes` stored plainly, or -1 when it failed.
double baselineRun(const QString& dir, int entries, const QByteArray& bytes)
{
    const QString name = QStringLiteral("bench-baseline");
    double result = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dir + QStringLiteral("/plain.sqlite"));
        if (!db.open())
            return -1;
        QSqlQuery setup(db);
        for (const char* statement : { "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                 "CREATE TABLE entries (seq INTEGER PRIMARY KEY NOT NULL, project TEXT NOT NULL, "
                 "log_kind TEXT NOT NULL, json TEXT NOT NULL)",
                 "CREATE INDEX entries_project ON entries(project, seq)" }) {
            if (!setup.exec(QString::fromLatin1(statement))) {
                std::fprintf(stderr, "bench_audit: %s\n", qPrintable(setup.lastError().text()));
                return -1;
            }
        }
        const double start = processCpuSeconds();
        QSqlQuery insert(db);
        insert.prepare(
            QStringLiteral("INSERT INTO entries(seq, project, log_kind, json) VALUES (?, ?, ?, CAST(? AS TEXT))"));
        const QString project = QStringLiteral("local");
        const QString kind = QStringLiteral("data_access");
        bool ok = db.transaction();
        for (int i = 0; ok && i < entries; ++i) {
            insert.bindValue(0, qint64(i + 1));
            insert.bindValue(1, project);
            insert.bindValue(2, kind);
            insert.bindValue(3, bytes);
            ok = insert.exec();
            if (ok && (i + 1) % AuditStore::FlushBatch == 0)
                ok = db.commit() && db.transaction();
        }
        ok = ok && db.commit();
        if (ok)
            result = (processCpuSeconds() - start) * 1e6 / entries;
        else
            std::fprintf(stderr, "bench_audit: %s\n", qPrintable(insert.lastError().text()));
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    BenchReport::printHost();
    const int entries = int(qEnvironmentVariableIntValue("BENCH_AUDIT_ENTRIES") > 0
            ? qEnvironmentVariableIntValue("BENCH_AUDIT_ENTRIES")
            : 100000);
    const int timed = BenchReport::runs(5);
    constexpr int Warmups = 1;
    std::string record;
    Read().record(&record);
    const QByteArray bytes
        = AuditRecorder::chainedRecord(QByteArrayView(record.data(), qsizetype(record.size())), 1, Audit::genesisHash())
              .bytes;
    std::printf("audit_context: %d Data Access entries a run (a job's GET by a viewer token), %lld bytes each\n",
        entries, static_cast<long long>(bytes.size()));
    std::fflush(stdout);

    QTemporaryDir dir;
    if (!dir.isValid())
        return 1;
    int run = 0;
    // Each run a fresh folder: a file that grows run by run would make the later runs dearer.
    auto fresh = [&dir, &run](const char* side) {
        const QString path = dir.filePath(QStringLiteral("%1-%2").arg(QLatin1String(side)).arg(++run));
        QDir().mkpath(path);
        return path;
    };
    const BenchReport::Samples samples = BenchReport::alternate(
        Warmups, timed, [&] { return oursRun(fresh("ours"), entries); },
        [&] { return baselineRun(fresh("plain"), entries, bytes); });
    if (samples.ours.size() != std::size_t(timed))
        return 1;
    BenchReport::printLine("audit_data_access_cpu_us_per_entry", samples, "us",
        BenchReport::median(samples.ours) / BenchReport::median(samples.baseline), Warmups,
        "process CPU (all threads) per entry");
    return 0;
}
