// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobfolder.h"

#include <QDir>
#include <QFile>

#include <utility>

namespace Trainyard {

RunFolder::RunFolder(QString path)
    : m_path(std::move(path))
{
}

QString RunFolder::replicaRoot() const
{
    return m_path + QStringLiteral("/replicas");
}

QString RunFolder::replicaDir(const QString& taskName) const
{
    return replicaRoot() + QLatin1Char('/') + taskName;
}

QString RunFolder::hypertuneFile(const QString& taskName) const
{
    return hypertuneFileIn(replicaDir(taskName));
}

QString RunFolder::hypertuneFileIn(const QString& replicaDir)
{
    return replicaDir + QStringLiteral("/hypertune/output.metrics");
}

QString RunFolder::restartsFile() const
{
    return m_path + QStringLiteral("/restarts");
}

int RunFolder::readRestarts() const
{
    QFile f(restartsFile());
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return f.readAll().trimmed().toInt();
}

void RunFolder::writeRestarts(int restarts) const
{
    QDir().mkpath(m_path);
    QFile f(restartsFile());
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(QByteArray::number(restarts) + '\n');
}

JobFolder::JobFolder(QString path)
    : RunFolder(std::move(path))
{
}

QString JobFolder::stagingDir() const
{
    return path() + QStringLiteral("/staging");
}

QString JobFolder::stagedMarker() const
{
    return stagingDir() + QStringLiteral("/.trainyard-staged");
}

QString JobFolder::buildDir() const
{
    return path() + QStringLiteral("/build");
}

QString JobFolder::tmpDir() const
{
    return path() + QStringLiteral("/tmp");
}

QString JobFolder::outcomeFile() const
{
    return path() + QStringLiteral("/outcome.json");
}

QString JobFolder::trialsDir() const
{
    return path() + QStringLiteral("/trials");
}

QString JobFolder::batchDir() const
{
    return path() + QStringLiteral("/batch");
}

QString JobFolder::batchPlanFile() const
{
    return batchDir() + QStringLiteral("/plan.json");
}

RunFolder JobFolder::trial(const QString& trialId) const
{
    return RunFolder(trialsDir() + QLatin1Char('/') + trialId);
}

QStringList JobFolder::trialIds() const
{
    return QDir(trialsDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
}

QString JobFolder::stagingCacheDir(const QString& runFolderRoot)
{
    return runFolderRoot + QStringLiteral("/staging-cache");
}

} // namespace Trainyard
