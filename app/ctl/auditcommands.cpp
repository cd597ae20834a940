// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditcommands.h"

#include "argparser.h"
#include "auditlog.h"
#include "ctlsession.h"
#include "executorlocator.h"
#include "printer.h"
#include "rpcstatus.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QUrl>
#include <QUrlQuery>

namespace Trainyard {

namespace {

/// Every entry of the audit file at `path` (app/executor/storage/auditstore.h, schema 1), oldest first, read through
/// a read-only SQLite connection (a running executor's WAL included; the file is never changed). False and *error
/// when the file is missing or not an audit log.
bool readAuditFile(const QString& path, QList<QJsonObject>* entries, QString* error)
{
    if (!QFileInfo(path).isFile()) {
        *error = QStringLiteral("%1 does not exist; --data-dir names the executor's data folder").arg(path);
        return false;
    }
    static int counter = 0;
    const QString name = QStringLiteral("trainyardctl-audit-%1").arg(++counter);
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open()) {
            *error = QStringLiteral("cannot open %1: %2").arg(path, db.lastError().text());
        } else {
            QSqlQuery query(db);
            query.setForwardOnly(true);
            if (!query.exec(QStringLiteral("SELECT seq, project, log_kind, json FROM entries ORDER BY seq"))) {
                *error = QStringLiteral("%1 is not a Trainyard audit log: %2").arg(path, query.lastError().text());
            } else {
                ok = true;
                while (query.next()) {
                    const QJsonObject entry = QJsonDocument::fromJson(query.value(3).toByteArray()).object();
                    // The columns are checked against the entry they belong to (the hash covers the entry alone).
                    const QString problem = Audit::rowProblem(
                        query.value(0).toLongLong(), query.value(1).toString(), query.value(2).toString(), entry);
                    if (!problem.isEmpty()) {
                        *error = QStringLiteral("the audit log does not verify: %1: the row was changed").arg(problem);
                        ok = false;
                        break;
                    }
                    entries->append(entry);
                }
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

/// Fetches entries of `project` newest first, page by page, until `limit` (0: all) are read. False after printing
/// the API's error.
bool fetch(CtlSession& s, const QString& command, const QString& project, const QString& filter, int limit,
    QList<Audit::Entry>* entries)
{
    ApiClient* client = s.client(command);
    if (!client)
        return false;
    QString pageToken;
    do {
        const int want = limit > 0 ? qMin(1000, limit - int(entries->size())) : 1000;
        const ApiResult<Audit::Page> r = client->auditLogsBlocking(project, filter, want, pageToken);
        if (!r.ok()) {
            s.printApiError(command, r.error);
            return false;
        }
        for (const Audit::Entry& e : r.value.entries)
            entries->append(e);
        pageToken = r.value.nextPageToken;
    } while (!pageToken.isEmpty() && (limit <= 0 || entries->size() < limit));
    return true;
}

} // namespace

int AuditCommands::list(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.audit.list");
    ArgParser p(command, QStringLiteral("trainyardctl audit list [--filter=FILTER] [--limit=N]"),
        QStringLiteral("list audit log entries\nThe executor's Admin Activity entries (and Data Access ones when it "
                       "runs with --audit-data-access and you may read them), newest first."));
    p.addFlag(QStringLiteral("filter"), QStringLiteral("FILTER"),
        QStringLiteral("Cloud Logging filter terms joined by AND, e.g. \"severity>=ERROR AND "
                       "resource.labels.job_id=j\". Fields: protoPayload.methodName, "
                       "protoPayload.authenticationInfo.principalEmail, resource.labels.job_id, logName, "
                       "timestamp, severity (=, !=, : for has, <, <=, >, >=)."));
    p.addFlag(QStringLiteral("limit"), QStringLiteral("N"), QStringLiteral("At most N entries (default 100)."));
    if (!p.parse(args))
        return s.usage(p);
    if (!s.checkFormat(p, { QStringLiteral("table"), QStringLiteral("yaml"), QStringLiteral("json") }))
        return ExitCode::Usage;
    int limit = 100;
    if (p.isSet(QStringLiteral("limit"))) {
        bool ok = false;
        limit = p.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || limit <= 0) {
            s.err() << "ERROR: (" << command << ") argument --limit: expected a positive whole number\n";
            return ExitCode::Usage;
        }
    }
    QList<Audit::Entry> entries;
    if (!fetch(s, command, s.project(), p.value(QStringLiteral("filter")), limit, &entries))
        return ExitCode::Error;
    if (s.printsResources()) {
        QJsonArray array;
        for (const Audit::Entry& e : std::as_const(entries))
            array.append(e.json);
        s.printResources(array); // as gcloud logging read: a YAML document per entry
        return ExitCode::Ok;
    }
    if (entries.isEmpty()) {
        s.err() << "Listed 0 items.\n";
        return ExitCode::Ok;
    }
    QList<QStringList> rows;
    for (const Audit::Entry& e : std::as_const(entries)) {
        // The code's name, as the console's Audit view shows it ("3" said nothing to a reader).
        rows.append({ e.timestamp, e.severity, e.principal, e.methodName, e.resourceName,
            Rpc::nameOfNumber(e.statusCode.value_or(0)), e.callerIp });
    }
    s.out() << Printer::table({ QStringLiteral("TIMESTAMP"), QStringLiteral("SEVERITY"), QStringLiteral("PRINCIPAL"),
                                  QStringLiteral("METHOD"), QStringLiteral("RESOURCE"), QStringLiteral("STATUS"),
                                  QStringLiteral("CALLER_IP") },
        rows);
    return ExitCode::Ok;
}

int AuditCommands::verify(CtlSession& s, const QStringList& args)
{
    const QString command = QStringLiteral("trainyardctl.audit.verify");
    ArgParser p(command, QStringLiteral("trainyardctl audit verify [--data-dir=DIR] [--head=INSERTID:SHA256]"),
        QStringLiteral("verify the audit log's hash chain\nReads every entry of every project and checks that none "
                       "was changed, removed or reordered (each entry's labels.\"trainyard.io/prev-hash\" is the "
                       "SHA-256 of the entry before it), and that the log still holds the head the executor last "
                       "wrote (kept in the runtime folder), so that entries removed from its end are found too. Prints "
                       "the head: keep it, and give it to --head later. Needs logging.privateLogEntries.list (the "
                       "admin's token), or --data-dir."));
    p.addFlag(QStringLiteral("data-dir"), QStringLiteral("DIR"),
        QStringLiteral("Read DIR/audit.sqlite itself, read-only, instead of asking the executor: the executor's "
                       "--data-dir (default $XDG_DATA_HOME/trainyard). For a log whose executor is stopped, or "
                       "not to take the executor's word for it."));
    p.addFlag(QStringLiteral("head"), QStringLiteral("INSERTID:SHA256"),
        QStringLiteral("A head printed by an earlier verify: the log must still hold that entry, unchanged."));
    if (!p.parse(args))
        return s.usage(p);
    std::optional<Audit::Head> given;
    if (p.isSet(QStringLiteral("head"))) {
        given = Audit::Head::parse(p.value(QStringLiteral("head")));
        if (!given) {
            s.err() << "ERROR: (" << command << ") argument --head: expected INSERTID:SHA256 as verify prints it "
                    << "(20 digits, a colon, 64 hex digits)\n";
            return ExitCode::Usage;
        }
    }
    QList<QJsonObject> entries;
    QString dataDir;
    if (p.isSet(QStringLiteral("data-dir"))) {
        dataDir = p.value(QStringLiteral("data-dir"));
        if (dataDir.isEmpty())
            dataDir
                = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/trainyard");
        dataDir = QDir(dataDir).absolutePath();
        QString problem;
        if (!readAuditFile(QDir(dataDir).filePath(QStringLiteral("audit.sqlite")), &entries, &problem)) {
            s.printError(command, problem);
            return ExitCode::Error;
        }
    } else {
        QList<Audit::Entry> page;
        if (!fetch(s, command, QStringLiteral("-"), QString(), 0, &page))
            return ExitCode::Error;
        // The chain is checked on the entries as sent, oldest first.
        for (auto it = page.crbegin(); it != page.crend(); ++it)
            entries.append(it->json);
        dataDir = s.executorDataDir();
    }
    std::optional<Audit::ChainProblem> problem = Audit::verifyChain(entries);
    if (!problem)
        problem = Audit::checkRecordedHeads(entries);
    // The heads recorded outside the log: the one the executor keeps in this user's runtime folder, and --head.
    std::optional<Audit::Head> anchored;
    if (!dataDir.isEmpty())
        anchored = Audit::readHeadAnchor(Audit::headAnchorPath(ExecutorLocator::runtimeDir(), dataDir), dataDir);
    if (!problem && anchored)
        problem = Audit::checkHead(entries, *anchored, QStringLiteral("the executor"));
    if (!problem && given)
        problem = Audit::checkHead(entries, *given, QStringLiteral("--head"));
    if (problem) {
        s.printError(command, QStringLiteral("the audit log does not verify: ") + problem->message + QLatin1Char('.'));
        return ExitCode::Error;
    }
    s.out() << "Verified " << entries.size() << " entries.\n";
    if (const std::optional<Audit::Head> head = Audit::headOf(entries))
        s.out() << "Head: " << head->text() << "\n";
    if (!anchored)
        s.err() << "WARNING: no head kept by an executor for "
                << (dataDir.isEmpty() ? QStringLiteral("this log") : dataDir) << " was found in "
                << ExecutorLocator::runtimeDir()
                << ", so entries removed from the log's end would not be found; give --head to check against one.\n";
    return ExitCode::Ok;
}

} // namespace Trainyard
