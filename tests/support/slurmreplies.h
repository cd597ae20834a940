// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the Slurm client tests answer a client with: replies recorded from a real slurmrestd 22.05.8
// (tests/data/slurm/replies, see its README) served through FakeHttpServer. Needs TRAINYARD_FIXTURES_DIR.

#include "fakehttpserver.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtGlobal>

#include <functional>
#include <optional>

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

/// What a test's fake slurmrestd answers itself, before the defaults of fakeSlurmrestd(); nothing: the default.
using SlurmRoute = std::function<std::optional<FakeHttpServer::Response>(const FakeHttpServer::Request&)>;

/// A fake slurmrestd 22.05 for the SlurmBackend's tests: `first` answers what the test cares about (the job's
/// states, its cancel, another submit reply …); everything else gets the recorded defaults: the OpenAPI document,
/// idle nodes and the het job's submission (Slurm job 10); any other path 404.
inline FakeHttpServer::Handler fakeSlurmrestd(SlurmRoute first = {})
{
    return [first = std::move(first)](const FakeHttpServer::Request& r) {
        if (first) {
            if (std::optional<FakeHttpServer::Response> reply = first(r))
                return *reply;
        }
        if (r.path == QLatin1String("/openapi/v3"))
            return answer(200, recorded("openapi-v3"));
        if (r.path.endsWith(QLatin1String("/nodes")))
            return answer(200, recorded("nodes-idle"));
        if (r.path.endsWith(QLatin1String("/job/submit")))
            return answer(200, recorded("submit-het"));
        return answer(404, "not here");
    };
}

} // namespace Trainyard::Test
