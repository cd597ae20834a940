// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "nodelauncher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QTimer>

namespace Trainyard::Test {

/// A scripted prediction node (tst_versionnodes): it records the request lines VersionNodes writes and answers only
/// when the test says so, as prediction_server.py would (its protocol: one JSON line each way). No process runs.
class FakeNode : public NodeProcess {
public:
    int slot = 0; ///< VersionNodes' node index
    NodeCommand command;
    QList<QJsonObject> requests; ///< every request line written, parsed
    QByteArray written; ///< every byte written, as written (a warm spare's adopt line and model files)
    bool running = true;
    bool stopAsked = false; ///< stop() was called (scale down)
    bool killed = false;
    qint64 fakePid = 0;

    using NodeProcess::NodeProcess;

    /// The server's first line: it loaded the model.
    void sayReady(const QString& kind = QStringLiteral("scikit-learn LogisticRegression from model.joblib"))
    {
        say(QJsonObject { { QStringLiteral("ready"), true }, { QStringLiteral("kind"), kind },
            { QStringLiteral("loadSeconds"), 0.25 } });
    }
    /// The ready line with its timing split: main() began at `startedAt` (CLOCK_MONOTONIC seconds, QElapsedTimer's
    /// clock), then `imports` s of imports and `model` s of the model's load.
    void sayReadyAt(double startedAt, double imports, double model)
    {
        say(QJsonObject { { QStringLiteral("ready"), true }, { QStringLiteral("kind"), QStringLiteral("timed") },
            { QStringLiteral("loadSeconds"), imports + model }, { QStringLiteral("startedAt"), startedAt },
            { QStringLiteral("importSeconds"), imports }, { QStringLiteral("modelSeconds"), model } });
    }
    /// A warm spare's first line (prediction_server.py --spare): its framework is imported, it waits for a model.
    void saySpare() { say(QJsonObject { { QStringLiteral("spare"), true }, { QStringLiteral("importSeconds"), 0.5 } }); }
    /// A spare that took a model folder loaded it: the ready line of an adopted spare.
    void sayAdopted(double copySeconds, double modelSeconds)
    {
        say(QJsonObject { { QStringLiteral("ready"), true }, { QStringLiteral("kind"), QStringLiteral("adopted") },
            { QStringLiteral("spare"), true }, { QStringLiteral("copySeconds"), copySeconds },
            { QStringLiteral("modelSeconds"), modelSeconds } });
    }
    /// The server could not load the model: it says why, then exits 1.
    void sayCannotLoad(const QString& error)
    {
        say(QJsonObject { { QStringLiteral("ready"), false }, { QStringLiteral("error"), error } });
        exit(QStringLiteral("exited with status 1"));
    }
    /// Answers request `index` (in the order received) with `predictions`.
    void answer(int index, const QJsonArray& predictions)
    {
        say(QJsonObject { { QStringLiteral("id"), requests.at(index).value(QStringLiteral("id")) },
            { QStringLiteral("predictions"), predictions } });
    }
    /// Writes `reply` as one line on its stdout, split in two chunks (VersionNodes must join them).
    void say(const QJsonObject& reply)
    {
        const QByteArray line = QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n';
        Q_EMIT output(line.left(line.size() / 2));
        Q_EMIT output(line.mid(line.size() / 2));
    }
    void printError(const QString& line) { Q_EMIT errorLine(line); }
    /// The node's process ends (a crash, an OOM kill: `why` as VersionNodes logs it).
    void exit(const QString& why = QStringLiteral("was killed by a signal"))
    {
        if (!running)
            return;
        running = false;
        Q_EMIT finished(why);
    }

    void write(const QByteArray& bytes) override
    {
        written += bytes;
        for (const QByteArray& line : bytes.split('\n')) {
            if (!line.isEmpty())
                requests << QJsonDocument::fromJson(line).object();
        }
    }
    /// As the server does at its stdin's end: it exits 0, from the event loop.
    void stop(int) override
    {
        stopAsked = true;
        QTimer::singleShot(0, this, [this] { exit(QStringLiteral("exited with status 0")); });
    }
    void kill() override
    {
        killed = true;
        QTimer::singleShot(0, this, [this] { exit(QStringLiteral("was killed by a signal")); });
    }
    void killAndWait() override
    {
        killed = true;
        running = false;
    }
    bool isRunning() const override { return running; }
    qint64 pid() const override { return running ? fakePid : 0; }
};

/// Starts FakeNodes and keeps every one it started, in order (`nodes`), for the test to script.
class FakeNodeLauncher : public NodeLauncher {
public:
    QList<QPointer<FakeNode>> nodes;

    NodeProcess* start(int slot, const NodeCommand& command, QObject* parent) override
    {
        auto* node = new FakeNode(parent);
        node->slot = slot;
        node->command = command;
        node->fakePid = 1000 + nodes.size();
        nodes << node;
        return node;
    }
    /// The node started last.
    FakeNode* last() const { return nodes.isEmpty() ? nullptr : nodes.last().data(); }
    /// Nodes started and still running.
    int running() const
    {
        int n = 0;
        for (const auto& node : nodes)
            n += node && node->running ? 1 : 0;
        return n;
    }
};

} // namespace Trainyard::Test
