// SPDX-License-Identifier: GPL-2.0-or-later
#include "stateicons.h"

#include <QCoreApplication>
#include <QHash>

namespace Trainyard {

namespace {

// Job and replica states share looks: a pending replica waits as a queued job does, a stopped one
// ended as a cancelled job did.
enum class Look { Neutral, Queued, Preparing, Starting, Running, Restarting, Succeeded, Failed, Cancelled };

Look lookOf(JobState state)
{
    switch (state) {
    case JobState::StateUnspecified:
        return Look::Neutral;
    case JobState::Queued:
        return Look::Queued;
    case JobState::Preparing:
        return Look::Preparing;
    case JobState::Running:
        return Look::Running;
    case JobState::Succeeded:
        return Look::Succeeded;
    case JobState::Failed:
        return Look::Failed;
    case JobState::Cancelling:
    case JobState::Cancelled:
        return Look::Cancelled;
    }
    return Look::Neutral;
}

Look lookOf(ReplicaState state)
{
    switch (state) {
    case ReplicaState::Unspecified:
        return Look::Neutral;
    case ReplicaState::Pending:
        return Look::Queued;
    case ReplicaState::Starting:
        return Look::Starting;
    case ReplicaState::Running:
        return Look::Running;
    case ReplicaState::Restarting:
        return Look::Restarting;
    case ReplicaState::Succeeded:
        return Look::Succeeded;
    case ReplicaState::Failed:
        return Look::Failed;
    case ReplicaState::Stopped:
        return Look::Cancelled;
    }
    return Look::Neutral;
}

QString iconName(Look look)
{
    switch (look) {
    case Look::Neutral:
    case Look::Queued:
        return QStringLiteral("queued");
    case Look::Preparing:
        return QStringLiteral("preparing");
    case Look::Starting:
        return QStringLiteral("starting");
    case Look::Running:
        return QStringLiteral("running");
    case Look::Restarting:
        return QStringLiteral("restarting");
    case Look::Succeeded:
        return QStringLiteral("succeeded");
    case Look::Failed:
        return QStringLiteral("failed");
    case Look::Cancelled:
        return QStringLiteral("cancelled");
    }
    return QStringLiteral("queued");
}

QIcon iconOf(Look look)
{
    static QHash<QString, QIcon> cache;
    const QString name = iconName(look);
    auto it = cache.find(name);
    if (it == cache.end())
        it = cache.insert(name, QIcon(QStringLiteral(":/icons/state-%1.svg").arg(name)));
    return it.value();
}

QColor colorOf(Look look)
{
    switch (look) {
    case Look::Running:
        return QColor(0x1c, 0x71, 0xd8);
    case Look::Preparing:
    case Look::Starting:
        return QColor(0x35, 0x84, 0xe4);
    case Look::Restarting:
        return QColor(0xc6, 0x7f, 0x00);
    case Look::Succeeded:
        return QColor(0x26, 0xa2, 0x69);
    case Look::Failed:
        return QColor(0xc0, 0x1c, 0x28);
    case Look::Cancelled:
        return QColor(0x77, 0x76, 0x7b);
    case Look::Neutral:
    case Look::Queued:
        break;
    }
    return QColor(0x6b, 0x72, 0x80);
}

QString translated(const char* text)
{
    return QCoreApplication::translate("Trainyard::State", text);
}

} // namespace

QIcon stateIcon(JobState state)
{
    return iconOf(lookOf(state));
}

QIcon stateIcon(ReplicaState state)
{
    return iconOf(lookOf(state));
}

QColor stateColor(JobState state)
{
    return colorOf(lookOf(state));
}

QColor stateColor(ReplicaState state)
{
    return colorOf(lookOf(state));
}

QString stateDisplayName(JobState state)
{
    switch (state) {
    case JobState::StateUnspecified:
        break;
    case JobState::Queued:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Queued"));
    case JobState::Preparing:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Preparing"));
    case JobState::Running:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Running"));
    case JobState::Succeeded:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Succeeded"));
    case JobState::Failed:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Failed"));
    case JobState::Cancelling:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Cancelling"));
    case JobState::Cancelled:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Cancelled"));
    }
    return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Unknown"));
}

QString stateDisplayName(ReplicaState state)
{
    switch (state) {
    case ReplicaState::Unspecified:
        break;
    case ReplicaState::Pending:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Pending"));
    case ReplicaState::Starting:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Starting"));
    case ReplicaState::Running:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Running"));
    case ReplicaState::Restarting:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Restarting"));
    case ReplicaState::Succeeded:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Succeeded"));
    case ReplicaState::Failed:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Failed"));
    case ReplicaState::Stopped:
        return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Stopped"));
    }
    return translated(QT_TRANSLATE_NOOP("Trainyard::State", "Unknown"));
}

} // namespace Trainyard
