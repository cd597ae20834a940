// SPDX-License-Identifier: GPL-2.0-or-later
#include "outcomejournal.h"

#include "jobstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace Trainyard::OutcomeJournal {

bool write(const QString& path, const JobOutcome& outcome)
{
    QSaveFile file(path);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()) || !file.open(QIODevice::WriteOnly))
        return false;
    const QJsonObject o { { QStringLiteral("state"), jobStateName(outcome.state) },
        { QStringLiteral("errorMessage"), outcome.errorMessage }, { QStringLiteral("endTime"), outcome.endTime } };
    file.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    return file.commit();
}

std::optional<JobOutcome> read(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    const std::optional<JobState> state = jobStateFromName(o.value(QStringLiteral("state")).toString());
    if (!state || !isFinal(*state))
        return std::nullopt;
    return JobOutcome { *state, o.value(QStringLiteral("errorMessage")).toString(),
        o.value(QStringLiteral("endTime")).toString() };
}

bool record(JobStore& store, const JobKey& key, const JobOutcome& outcome, QString* error)
{
    std::optional<Job> job = store.job(key);
    if (!job)
        return true; // nothing left to record it on
    job->state = outcome.state;
    job->jobPosition.reset();
    job->endTime = outcome.endTime;
    if (!outcome.errorMessage.isEmpty() || outcome.state != JobState::Cancelled)
        job->errorMessage = outcome.errorMessage;
    return store.update(key.project, *job, error);
}

} // namespace Trainyard::OutcomeJournal
