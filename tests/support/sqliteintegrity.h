// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// SQLite's own check of a database file (https://www.sqlite.org/pragma.html#pragma_integrity_check), for tests that
// kill or starve the executor and then assert that its databases survived.

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

namespace Trainyard::Test {

enum class OpenMode { ReadOnly, ReadWrite };

/// The result of `PRAGMA integrity_check` on `file`: "ok" for a sound database, else SQLite's findings, or
/// "cannot open: …" / "cannot check: …". `mode` ReadOnly never writes (a killed executor's WAL is left as it was);
/// ReadWrite lets SQLite recover the WAL first, as the next executor would.
inline QString sqliteIntegrity(const QString& file, OpenMode mode = OpenMode::ReadOnly)
{
    const QString name = QStringLiteral("trainyard-integrity-check-") + file;
    QString result;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(file);
        if (mode == OpenMode::ReadOnly)
            db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (!db.open()) {
            result = QStringLiteral("cannot open: ") + db.lastError().text();
        } else {
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("PRAGMA integrity_check")))
                result = QStringLiteral("cannot check: ") + q.lastError().text();
            while (q.next())
                result += q.value(0).toString();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

} // namespace Trainyard::Test
