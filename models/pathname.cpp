// SPDX-License-Identifier: GPL-2.0-or-later
#include "pathname.h"

namespace Trainyard::PathName {

QString problem(const QString& name)
{
    if (name.isEmpty())
        return QStringLiteral("it is empty");
    if (name == QLatin1String(".") || name == QLatin1String(".."))
        return QStringLiteral("\"%1\" names a folder itself or its parent").arg(name);
    if (name.contains(QLatin1Char('/')))
        return QStringLiteral("it contains '/'");
    if (name.contains(QChar(0)))
        return QStringLiteral("it contains a NUL character");
    const qsizetype bytes = name.toUtf8().size();
    if (bytes > NameMax)
        return QStringLiteral("it is %1 bytes long; a file name may have at most %2").arg(bytes).arg(NameMax);
    return {};
}

QString child(const QString& parent, std::initializer_list<QString> names)
{
    QString path = parent;
    for (const QString& name : names) {
        if (!isSafe(name))
            return {};
        if (!path.isEmpty() && !path.endsWith(QLatin1Char('/')))
            path += QLatin1Char('/');
        path += name;
    }
    return path;
}

} // namespace Trainyard::PathName
