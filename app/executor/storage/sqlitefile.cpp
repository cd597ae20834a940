// SPDX-License-Identifier: GPL-2.0-or-later
#include "sqlitefile.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>

namespace Trainyard {

SqliteFile::SqliteFile(const QString& prefix)
{
    static std::atomic<int> counter { 0 };
    m_name = QStringLiteral("%1-%2").arg(prefix).arg(counter.fetch_add(1));
}

SqliteFile::~SqliteFile()
{
    close();
}

bool SqliteFile::isOpen() const
{
    return QSqlDatabase::contains(m_name);
}

void SqliteFile::close()
{
    if (!QSqlDatabase::contains(m_name))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_name);
}

bool SqliteFile::open(const QString& path, const Options& options, QString* error)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        close();
        return false;
    };
    if (isOpen()) {
        // Refused without touching the connection that is open.
        if (error)
            *error = QStringLiteral("%1 is already open").arg(path);
        return false;
    }
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return fail(QStringLiteral("the Qt SQLite driver (QSQLITE) is not installed"));
    const QFileInfo info(path);
    const QString file = info.absoluteFilePath();
    if (!QDir().mkpath(info.absolutePath()))
        return fail(QStringLiteral("cannot create folder %1").arg(info.absolutePath()));
    QString problem;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(file);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open())
            return fail(QStringLiteral("cannot open %1: %2").arg(file, db.lastError().text()));
        QSqlQuery query(db);
        QStringList setup;
        // Before the journal mode: a page size takes effect only on a file that is still empty.
        if (options.pageSize > 0)
            setup << QStringLiteral("PRAGMA page_size=%1").arg(options.pageSize);
        setup << QStringLiteral("PRAGMA journal_mode=WAL")
              << QStringLiteral("PRAGMA synchronous=") + options.synchronous;
        if (options.schemaVersion > 0)
            setup << QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT)");
        for (const QString& statement : std::as_const(setup)) {
            if (problem.isEmpty() && !query.exec(statement))
                problem = QStringLiteral("cannot set up %1 (%2: %3)").arg(file, statement, query.lastError().text());
        }
        if (problem.isEmpty() && options.schemaVersion > 0) {
            int version = 0;
            if (query.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schemaVersion'")) && query.next())
                version = query.value(0).toInt();
            if (version > options.schemaVersion)
                problem = QStringLiteral("%1 was written by a newer Trainyard (schema %2, this one knows %3)")
                              .arg(file)
                              .arg(version)
                              .arg(options.schemaVersion);
        }
        QStringList schema = options.schema;
        if (options.schemaVersion > 0)
            schema << QStringLiteral("INSERT OR REPLACE INTO meta(key, value) VALUES ('schemaVersion', '%1')")
                          .arg(options.schemaVersion);
        for (const QString& statement : std::as_const(schema)) {
            if (problem.isEmpty() && !query.exec(statement))
                problem = QStringLiteral("cannot set up %1 (%2: %3)").arg(file, statement, query.lastError().text());
        }
    }
    if (!problem.isEmpty())
        return fail(problem);
    return true;
}

} // namespace Trainyard
