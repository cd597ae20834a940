// SPDX-License-Identifier: GPL-2.0-or-later
#include "batchinputs.h"

#include <QDir>
#include <QFileInfo>

namespace Trainyard::BatchInputs {

QStringList expand(const QString& pattern)
{
    const QFileInfo info(pattern);
    QStringList matched;
    if (info.fileName().contains(QLatin1Char('*'))) {
        const QDir dir = info.dir();
        for (const QString& name : dir.entryList({ info.fileName() }, QDir::Files | QDir::Readable, QDir::Name))
            matched << dir.filePath(name);
    } else if (info.isFile() && info.isReadable()) {
        matched << info.absoluteFilePath();
    }
    return matched;
}

} // namespace Trainyard::BatchInputs
