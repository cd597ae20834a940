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

/// Moves the folder `from` (of job ID `id`) into `<dataDir>/jobs.set-aside/` because of `why`, under `id` or, when
/// that is taken, `id.2`, `id.3`, …, and says so; when even that fails, it is left where it is, and that is said.
void setAside(const QString& dataDir, const QString& from, const QString& id, const QString& why)
{
    const QString aside = dataDir + QStringLiteral("/jobs.set-aside");
    QDir().mkpath(aside);
    QString to = aside + QLatin1Char('/') + id;
    for (int n = 2; QFileInfo::exists(to); ++n)
        to = aside + QLatin1Char('/') + id + QLatin1Char('.') + QString::number(n);
    if (QDir().rename(from, to))
        qCWarning(lcRuntime).noquote() << "the job folder" << from << "was set aside in" << to << "because" << why
                                       << "; the executor goes on without it";
    else
        qCWarning(lcRuntime).noquote() << "the job folder" << from << "cannot go into the per-project layout because"
                                       << why << "and cannot be set aside either; it is left where it is";
}

} // namespace

bool adoptLegacyLayout(const QString& dataDir, const JobStore& store, MetricsStore& metrics, QString* error)
{
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

    // From here on, no folder can stop the executor from starting: one that cannot go where it belongs is moved
    // aside (jobs.set-aside/<id>, numbered when taken), one that cannot even be moved stays where it is, and each is
    // logged with why. A data folder once had a job folder written outside its project's folder (a project ID of
    // "..", before every route checked project IDs), which made every later start exit.
    QDir dir(dataDir);
    if (QFileInfo(legacy).isDir()) {
        if (QFileInfo::exists(migrating)) {
            // An earlier start stopped half way, and the old layout's folder came back since: its folders are
            // moved in with the others.
            const QStringList more = QDir(legacy).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
            for (const QString& id : more) {
                if (!dir.rename(QStringLiteral("jobs/") + id, QStringLiteral("jobs.v1-migrating/") + id))
                    setAside(dataDir, legacy + QLatin1Char('/') + id, id,
                        QStringLiteral("%1 holds a folder of that name already").arg(migrating));
            }
            if (!dir.rmdir(QStringLiteral("jobs")))
                qCWarning(lcRuntime).noquote() << "cannot remove" << legacy << "(it is not empty); left as it is";
        } else if (!dir.rename(QStringLiteral("jobs"), QStringLiteral("jobs.v1-migrating"))) {
            qCWarning(lcRuntime).noquote()
                << "cannot rename" << legacy << "to" << migrating << "; its job folders stay in the old layout";
            return true;
        }
    }
    const QStringList ids = QDir(migrating).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    int moved = 0;
    QStringList unclaimed;
    for (const QString& id : ids) {
        const QString from = migrating + QLatin1Char('/') + id;
        QString to;
        if (const auto it = keys.constFind(id); it != keys.cend()) {
            to = it->folder(dataDir);
            if (to.isEmpty()) {
                setAside(dataDir, from, id,
                    QStringLiteral("its job's project \"%1\" is not a folder name").arg(it->project));
                continue;
            }
        } else {
            to = dataDir + QStringLiteral("/jobs.unclaimed/") + id;
            unclaimed.append(id);
        }
        if (QFileInfo::exists(to)) {
            setAside(dataDir, from, id, QStringLiteral("%1 exists already").arg(to));
            continue;
        }
        if (!QDir().mkpath(QFileInfo(to).absolutePath()) || !QDir().rename(from, to)) {
            setAside(dataDir, from, id, QStringLiteral("it cannot be moved to %1").arg(to));
            continue;
        }
        ++moved;
    }
    if (!QDir(migrating).removeRecursively())
        qCWarning(lcRuntime).noquote() << "cannot remove" << migrating << "; what is left in it stays there";
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
