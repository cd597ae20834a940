// SPDX-License-Identifier: GPL-2.0-or-later
#include "stateicons.h"

#include <QCoreApplication>
#include <QHash>

namespace Trainyard {

namespace {
QString iconName(const QString& state)
{
    if (state == QLatin1String("QUEUED") || state == QLatin1String("PENDING"))
        return QStringLiteral("queued");
    if (state == QLatin1String("PREPARING"))
        return QStringLiteral("preparing");
    if (state == QLatin1String("STARTING"))
        return QStringLiteral("starting");
    if (state == QLatin1String("RUNNING"))
        return QStringLiteral("running");
    if (state == QLatin1String("RESTARTING"))
        return QStringLiteral("restarting");
    if (state == QLatin1String("SUCCEEDED"))
        return QStringLiteral("succeeded");
    if (state == QLatin1String("FAILED"))
        return QStringLiteral("failed");
    if (state == QLatin1String("CANCELLING") || state == QLatin1String("CANCELLED")
        || state == QLatin1String("STOPPED"))
        return QStringLiteral("cancelled");
    return QStringLiteral("queued");
}
} // namespace

QIcon stateIcon(const QString& state)
{
    static QHash<QString, QIcon> cache;
    const QString name = iconName(state);
    auto it = cache.find(name);
    if (it == cache.end())
        it = cache.insert(name, QIcon(QStringLiteral(":/icons/state-%1.svg").arg(name)));
    return it.value();
}

QColor stateColor(const QString& state)
{
    const QString name = iconName(state);
    if (name == QLatin1String("running"))
        return QColor(0x1c, 0x71, 0xd8);
    if (name == QLatin1String("preparing") || name == QLatin1String("starting"))
        return QColor(0x35, 0x84, 0xe4);
    if (name == QLatin1String("restarting"))
        return QColor(0xc6, 0x7f, 0x00);
    if (name == QLatin1String("succeeded"))
        return QColor(0x26, 0xa2, 0x69);
    if (name == QLatin1String("failed"))
        return QColor(0xc0, 0x1c, 0x28);
    if (name == QLatin1String("cancelled"))
        return QColor(0x77, 0x76, 0x7b);
    return QColor(0x6b, 0x72, 0x80);
}

QString stateDisplayName(const QString& state)
{
    static const struct {
        const char* state;
        const char* text;
    } names[] = {
        { "QUEUED", QT_TRANSLATE_NOOP("Trainyard::State", "Queued") },
        { "PREPARING", QT_TRANSLATE_NOOP("Trainyard::State", "Preparing") },
        { "RUNNING", QT_TRANSLATE_NOOP("Trainyard::State", "Running") },
        { "SUCCEEDED", QT_TRANSLATE_NOOP("Trainyard::State", "Succeeded") },
        { "FAILED", QT_TRANSLATE_NOOP("Trainyard::State", "Failed") },
        { "CANCELLING", QT_TRANSLATE_NOOP("Trainyard::State", "Cancelling") },
        { "CANCELLED", QT_TRANSLATE_NOOP("Trainyard::State", "Cancelled") },
        { "PENDING", QT_TRANSLATE_NOOP("Trainyard::State", "Pending") },
        { "STARTING", QT_TRANSLATE_NOOP("Trainyard::State", "Starting") },
        { "RESTARTING", QT_TRANSLATE_NOOP("Trainyard::State", "Restarting") },
        { "STOPPED", QT_TRANSLATE_NOOP("Trainyard::State", "Stopped") },
    };
    for (const auto& n : names) {
        if (state == QLatin1String(n.state))
            return QCoreApplication::translate("Trainyard::State", n.text);
    }
    return state;
}

} // namespace Trainyard
