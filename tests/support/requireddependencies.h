// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Skips that cannot hide a regression in CI. A test may skip when an optional dependency is missing on a
// developer's machine (PyTorch and Fashion-MNIST for the sample trainer, libhdf5 for Keras weights);
// CI installs all of them with packaging/setup-deps.sh and sets TRAINYARD_REQUIRE_ALL=1, so there a
// missing one means the setup broke, and the test fails instead of turning into a silent skip.

#include <QtGlobal>
#include <QTest>

namespace Trainyard::Test {

/// True when every optional dependency must be present (TRAINYARD_REQUIRE_ALL=1: .ci/run's first step).
inline bool requireAllDependencies()
{
    return qEnvironmentVariableIntValue("TRAINYARD_REQUIRE_ALL") == 1;
}

} // namespace Trainyard::Test

/// QSKIP(reason), or QFAIL(reason) when Test::requireAllDependencies().
#define TRAINYARD_SKIP_OR_FAIL(reason)                                                                        \
    do {                                                                                                      \
        if (Trainyard::Test::requireAllDependencies())                                                        \
            QFAIL("required by TRAINYARD_REQUIRE_ALL=1: " reason);                                             \
        QSKIP(reason);                                                                                        \
    } while (false)

/// As TRAINYARD_SKIP_OR_FAIL, with a reason known only at run time (a QString: what a setup script printed).
#define TRAINYARD_SKIP_OR_FAIL_BECAUSE(reason)                                                                \
    do {                                                                                                      \
        const QByteArray whyNot_ = QString(reason).toUtf8();                                                  \
        if (Trainyard::Test::requireAllDependencies())                                                        \
            QFAIL(QByteArray(QByteArray("required by TRAINYARD_REQUIRE_ALL=1: ") + whyNot_).constData());      \
        QSKIP(whyNot_.constData());                                                                           \
    } while (false)
