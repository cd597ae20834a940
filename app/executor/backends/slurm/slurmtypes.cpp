// SPDX-License-Identifier: GPL-2.0-or-later
#include "slurmtypes.h"

namespace Trainyard::Slurm {

QString apiVersionName(ApiVersion version)
{
    switch (version) {
    case ApiVersion::V0_0_38:
        return QStringLiteral("v0.0.38");
    case ApiVersion::V0_0_39:
        return QStringLiteral("v0.0.39");
    case ApiVersion::V0_0_40:
        return QStringLiteral("v0.0.40");
    }
    return {};
}

std::optional<ApiVersion> apiVersionFromName(QStringView name)
{
    for (ApiVersion v : supportedApiVersions()) {
        if (name == apiVersionName(v))
            return v;
    }
    return std::nullopt;
}

QList<ApiVersion> supportedApiVersions()
{
    return { ApiVersion::V0_0_38, ApiVersion::V0_0_39, ApiVersion::V0_0_40 };
}

QString RestError::text() const
{
    // 22.05 puts the specific part in `description` ("Unable to find JobId=9") or only an `error`; 24.11 a
    // generic `description` ("Batch job submission failed") and the specific `error`. -1's error is always
    // "Unspecified error", which says nothing.
    const bool errorSaysSomething = !error.isEmpty() && error != QLatin1String("Unspecified error");
    if (description.isEmpty() || description == error)
        return error.isEmpty() ? QStringLiteral("error number %1").arg(number) : error;
    return errorSaysSomething ? description + QStringLiteral(": ") + error : description;
}

WaitStatus WaitStatus::fromRaw(int status)
{
    WaitStatus s;
    if ((status & 0x7f) == 0) {
        s.code = (status >> 8) & 0xff;
    } else {
        s.signalled = true;
        s.signal = status & 0x7f;
    }
    return s;
}

bool Node::isIdle() const
{
    if (state.isEmpty() || state.first() != QLatin1String("IDLE"))
        return false;
    for (const QString& flag : state) {
        if (flag.startsWith(QLatin1String("DRAIN")) || flag == QLatin1String("DOWN") || flag == QLatin1String("FAIL")
            || flag == QLatin1String("MAINTENANCE") || flag == QLatin1String("MAINT")
            || flag == QLatin1String("NOT_RESPONDING"))
            return false;
    }
    return true;
}

bool isFinishedState(QStringView state)
{
    static const QStringList finished
        = { QStringLiteral("COMPLETED"), QStringLiteral("FAILED"), QStringLiteral("CANCELLED"),
              QStringLiteral("TIMEOUT"), QStringLiteral("NODE_FAIL"), QStringLiteral("PREEMPTED"),
              QStringLiteral("BOOT_FAIL"), QStringLiteral("DEADLINE"), QStringLiteral("OUT_OF_MEMORY") };
    for (const QString& s : finished) {
        if (state == s)
            return true;
    }
    return false;
}

bool JobComponent::isFinished() const
{
    // While its last processes are cleaned up a job is COMPLETING: v0.0.38 says so instead of the base state,
    // v0.0.40 adds the flag to it (["COMPLETED", "COMPLETING"]). Either way it is not finished yet, so that
    // "finished" also means that no process of the job is left.
    return isFinishedState(state) && !stateFlags.contains(QLatin1String("COMPLETING"));
}

} // namespace Trainyard::Slurm
