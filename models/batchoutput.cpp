// SPDX-License-Identifier: GPL-2.0-or-later
// BatchOutput (job.h): the names of a batch prediction job's output files, the service's ("Getting batch
// predictions": prediction.results-NNNNN-of-NNNNN and prediction.errors_stats-NNNNN-of-NNNNN).
#include "job.h"

namespace Trainyard::BatchOutput {

QString fileName(Kind kind, int shard, int shards)
{
    return QStringLiteral("prediction.%1-%2-of-%3")
        .arg(kind == Kind::Results ? QLatin1String("results") : QLatin1String("errors_stats"))
        .arg(shard, 5, 10, QLatin1Char('0'))
        .arg(shards, 5, 10, QLatin1Char('0'));
}

QString filePattern()
{
    return QStringLiteral("prediction.*-of-*");
}

} // namespace Trainyard::BatchOutput
