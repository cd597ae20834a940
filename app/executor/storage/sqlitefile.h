// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// One store's own connection to its SQLite file (Qt's QSQLITE driver), opened the way every executor store opens
/// one: the store's folder made, a 5 s busy timeout, WAL, the store's `synchronous`, and a schema version it checks
/// and records. The connection has a name of its own ("<prefix>-N"), so stores never share one, and is closed and
/// removed from Qt's registry when this object goes (AccessStore, AuditStore, MetricsStore; JobStore keeps its own
/// migrations). Used on the thread that opened it, as QtSql requires.
class SqliteFile {
public:
    /// `prefix`: the connection's name before its number, e.g. "trainyard-audit".
    explicit SqliteFile(const QString& prefix);
    ~SqliteFile();
    SqliteFile(const SqliteFile&) = delete;
    SqliteFile& operator=(const SqliteFile&) = delete;

    struct Options {
        /// SQLite's PRAGMA synchronous: "FULL" where an answer says a write happened (a job, a token, an audit
        /// entry), "NORMAL" where a crash may lose the last moments (metric points, read again from event files).
        QString synchronous = QStringLiteral("FULL");
        /// > 0: `meta(key TEXT PRIMARY KEY, value TEXT)` holds `schemaVersion`; a file of a newer version is refused
        /// and left as it is, an older or new one gets `schema` and this version. 0: no meta table is kept here.
        int schemaVersion = 0;
        /// Statements run in order once the version is checked (CREATE TABLE IF NOT EXISTS …).
        QStringList schema;
        /// > 0: SQLite's page size (bytes, a power of two from 512 to 65536) for a file this open creates; a file
        /// that exists keeps its own. 0: SQLite's default (4096).
        int pageSize = 0;
    };

    /// Opens `path` (creating its folder). False and *error on failure, naming the file and what failed ("cannot
    /// open …", "… was written by a newer Trainyard (schema 3, this one knows 2)", "cannot set up … (STATEMENT:
    /// SQLite's message)"); the connection is removed again then.
    bool open(const QString& path, const Options& options, QString* error);
    bool isOpen() const;
    /// Closes and removes the connection (the destructor does too). Every QSqlQuery on it must be gone.
    void close();

    const QString& connectionName() const { return m_name; }
    QSqlDatabase database() const { return QSqlDatabase::database(m_name, false); }

private:
    QString m_name;
};

} // namespace Trainyard
