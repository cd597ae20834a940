// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "jobkey.h"

#include <QString>

#include <optional>

namespace Trainyard {

class JobStore;

/// How a job ended, as the scheduler decided it: a final state, its error message, its end time (RFC 3339).
struct JobOutcome {
    JobState state = JobState::StateUnspecified;
    QString errorMessage;
    QString endTime;
    bool operator==(const JobOutcome&) const = default;
};

/// The durable end of a job. The scheduler writes a job's outcome to a file in its folder (JobFolder::outcomeFile())
/// before it stores it in the job database, and removes the file once the database took it. So a job whose end the
/// database refused (a full disk) still ends, and stays ended, when the executor stops meanwhile: the next one reads
/// the file, stores the outcome and never runs the job again.
///
/// The file is one compact JSON object: {"state": a final JobState name, "errorMessage": …, "endTime": …}.
namespace OutcomeJournal {

/// Writes `outcome` to `path` atomically (QSaveFile), making its folder. Best effort: false when the disk refuses it
/// too.
bool write(const QString& path, const JobOutcome& outcome);

/// The outcome kept at `path`; nullopt when there is none, it is not JSON, or it names no final state.
std::optional<JobOutcome> read(const QString& path);

/// Stores `outcome` on the job `key` in `store` (state, end time, error message; a cancelled job without a message
/// keeps the one it had; its queue position goes). True when stored, or when the job no longer exists; false with
/// `*error` (the store's message) when the store refused the write, which leaves the job as it was there.
bool record(JobStore& store, const JobKey& key, const JobOutcome& outcome, QString* error);

} // namespace OutcomeJournal

} // namespace Trainyard
