// SPDX-License-Identifier: GPL-2.0-or-later
#include "legacylayout.h"

#include "jobstore.h"
#include "metricsstore.h"
#include "runtimelogging.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>

namespace Trainyard {

namespace {

/// Job ID → its key, the oldest job of an ID first (only one existed when the legacy data was written).
QHash<QString, JobKey> keysById(const JobStore& store)
{
    QHash<QString, JobKey> keys;
    const QList<StoredJob> jobs = store.jobs();
    for (const StoredJob& stored : jobs) {
        if (!keys.contains(stored.job.jobId))
            keys.insert(stored.job.jobId, stored.key());
    }
    return keys;
}

} // namespace

bool adoptLegacyLayout(const QString& dataDir, const JobStore& store, MetricsStore& metrics, QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const QString legacy = dataDir + QStringLiteral("/jobs");
    const QString migrating = dataDir + QStringLiteral("/jobs.v1-migrating");
    const bool folders = QFileInfo(legacy).isDir() || QFileInfo(migrating).isDir();
    const bool rows = !metrics.legacyJobIds().isEmpty();
    if (!folders && !rows)
        return true;

    const QHash<QString, JobKey> keys = keysById(store);
    if (rows && !metrics.adoptLegacyJobIds(keys, error))
        return false;
    if (!folders)
        return true;

    QDir dir(dataDir);
    if (QFileInfo(legacy).isDir()) {
        if (QFileInfo::exists(migrating))
            return fail(QStringLiteral("cannot move the job folders: both %1 and %2 exist").arg(legacy, migrating));
        if (!dir.rename(QStringLiteral("jobs"), QStringLiteral("jobs.v1-migrating")))
            return fail(QStringLiteral("cannot rename %1 to %2").arg(legacy, migrating));
    }
    const QStringList ids = QDir(migrating).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    int moved = 0;
    QStringList unclaimed;
    for (const QString& id : ids) {
        const QString from = migrating + QLatin1Char('/') + id;
        QString to;
        if (const auto it = keys.constFind(id); it != keys.cend()) {
            to = it->folder(dataDir);
        } else {
            to = dataDir + QStringLiteral("/jobs.unclaimed/") + id;
            unclaimed.append(id);
        }
        if (QFileInfo::exists(to))
            return fail(QStringLiteral("cannot move %1: %2 exists already").arg(from, to));
        if (!QDir().mkpath(QFileInfo(to).absolutePath()) || !QDir().rename(from, to))
            return fail(QStringLiteral("cannot move %1 to %2").arg(from, to));
        ++moved;
    }
    if (!QDir(migrating).removeRecursively())
        return fail(QStringLiteral("cannot remove %1 (everything in it was moved)").arg(migrating));
    qCInfo(lcRuntime).noquote() << QStringLiteral("moved %1 job folder(s) from %2 into %3/projects/<project>/jobs")
                                       .arg(moved)
                                       .arg(legacy, dataDir);
    if (!unclaimed.isEmpty())
        qCWarning(lcRuntime).noquote() << QStringLiteral("%1 folder(s) of jobs the job store does not know are in "
                                                         "%2/jobs.unclaimed: %3")
                                              .arg(unclaimed.size())
                                              .arg(dataDir, unclaimed.join(QStringLiteral(", ")));
    return true;
}

} // namespace Trainyard
