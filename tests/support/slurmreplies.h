// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the Slurm client tests answer a client with: replies recorded from a real slurmrestd 22.05.8
// (tests/data/slurm/replies, see its README) served through FakeHttpServer. Needs TRAINYARD_FIXTURES_DIR.

#include "fakehttpserver.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtGlobal>

namespace Trainyard::Test {

/// The recorded reply `tests/data/slurm/replies/<name>.json`; stops the test when it cannot be read.
inline QByteArray recorded(const char* name)
{
    QFile file(
        QStringLiteral(TRAINYARD_FIXTURES_DIR "/slurm/replies/") + QLatin1String(name) + QStringLiteral(".json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

/// A JSON answer with `status` and `body`.
inline FakeHttpServer::Response answer(int status, const QByteArray& body)
{
    return FakeHttpServer::Response { status, body, "application/json", FakeHttpServer::Response::Action::Answer };
}

} // namespace Trainyard::Test
