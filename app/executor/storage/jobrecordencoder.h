// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>

#include <utility>

namespace Trainyard {

/// Turns a job into the record the job store keeps: the service's Job as compact JSON (JobJson::toJson(), keys
/// sorted as QJsonObject sorts them) with its `etag` member set to etagOf() the same JSON without that member.
///
/// A tuning job's record holds every trial and is rewritten a few times per trial (a trial added, its outcome, the
/// running trials' reports each second), so encoding it whole made each write O(trials): in bench_study's runner
/// half of the CPU was the job store's writes, most of it building and serialising the trials' JSON again and
/// hashing the result. The encoder keeps, per job, each trial's JSON bytes with the trial they were made from, and
/// splices them into the JSON of the rest of the job; a trial that changed since is encoded again. The bytes are
/// the same as encoding the job whole (tst_jobstore checks them against that).
///
/// Not thread-safe: one encoder per job store, used by its single writer.
class JobRecordEncoder {
public:
    /// `job` with its etag set, and the bytes to store. `key` names the job ("<project>/<jobId>"): the trials'
    /// bytes are kept under it until its next encode (those of trials no longer in the job are dropped then), for
    /// the last MaxJobs jobs encoded.
    std::pair<Job, QByteArray> encode(const QString& key, const Job& job);

    /// The job's compact JSON as JobJson::toJson() gives it, encoded whole (no kept bytes, etag as it is).
    static QByteArray json(const Job& job);

    /// The etag of a record: base64 of the first 9 bytes of SHA-256 (FIPS 180-4, by OpenSSL) over the job's compact
    /// JSON without its `etag` member; 12 characters, opaque to clients, as the service's.
    static QString etagOf(QByteArrayView jsonWithoutEtag);

    /// How many jobs' trials are kept at most; more, and all are dropped (the next write of each encodes it whole).
    static constexpr qsizetype MaxJobs = 16;

private:
    struct Trial {
        HyperparameterOutput trial;
        QByteArray json;
    };
    /// `trials` as the JSON array JobJson::toJson() writes for `trainingOutput.trials`, from the bytes kept under
    /// `key` where a trial is unchanged; keeps the bytes of these trials only.
    QByteArray trialArray(const QString& key, const QList<HyperparameterOutput>& trials);

    QHash<QString, QHash<QString, Trial>> m_trials; ///< by job key, then by trialId
};

} // namespace Trainyard
