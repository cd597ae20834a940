// SPDX-License-Identifier: GPL-2.0-or-later
#include "hypertunereader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cmath>
#include <cstring>

namespace Trainyard::Formats {

namespace {

bool toDouble(const QJsonValue& v, double* out)
{
    if (v.isDouble()) {
        *out = v.toDouble();
        return true;
    }
    if (v.isString()) {
        bool ok = false;
        *out = v.toString().trimmed().toDouble(&ok);
        return ok;
    }
    return false;
}

bool toInt64(const QJsonValue& v, qint64* out)
{
    if (v.isString()) {
        bool ok = false;
        *out = v.toString().trimmed().toLongLong(&ok);
        return ok;
    }
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d != std::floor(d) || std::abs(d) > 9007199254740992.0)
            return false;
        *out = qint64(d);
        return true;
    }
    return false;
}

} // namespace

HypertuneReader::HypertuneReader(const QString& path)
    : m_path(path)
{
}

QStringList HypertuneReader::takeIssues()
{
    QStringList issues;
    issues.swap(m_issues);
    return issues;
}

bool HypertuneReader::parseLine(const QByteArray& line, HypertuneReport* report, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not JSON: %1 at character %2").arg(parseError.errorString()).arg(parseError.offset);
        return false;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("not a JSON object");
        return false;
    }
    const QJsonObject object = doc.object();
    HypertuneReport r;
    const QJsonValue step = object.value(QLatin1String("global_step"));
    if (!step.isUndefined() && !toInt64(step, &r.step)) {
        *error = QStringLiteral("global_step must be an integer (as a string or a number)");
        return false;
    }
    if (!toDouble(object.value(QLatin1String("timestamp")), &r.timestamp)) {
        *error = QStringLiteral("timestamp is missing or not a number");
        return false;
    }
    r.trial = object.value(QLatin1String("trial")).toVariant().toString();
    r.checkpointPath = object.value(QLatin1String("checkpoint_path")).toString();
    QStringList metricKeys;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = it.key();
        if (key != QLatin1String("global_step") && key != QLatin1String("timestamp") && key != QLatin1String("trial")
            && key != QLatin1String("checkpoint_path"))
            metricKeys.append(key);
    }
    if (metricKeys.size() != 1) {
        *error = QStringLiteral("expected exactly one metric key besides global_step, timestamp, trial and "
                                "checkpoint_path, found %1")
                     .arg(metricKeys.isEmpty() ? QStringLiteral("none") : metricKeys.join(QStringLiteral(", ")));
        return false;
    }
    r.tag = metricKeys.constFirst();
    if (!toDouble(object.value(r.tag), &r.value)) {
        *error = QStringLiteral("the value of metric \"%1\" must be a number (as a string or a number)").arg(r.tag);
        return false;
    }
    *report = r;
    return true;
}

QList<HypertuneReport> HypertuneReader::readNew()
{
    QList<HypertuneReport> reports;
    QFile file(m_path);
    if (!file.exists())
        return reports;
    if (!file.open(QIODevice::ReadOnly)) {
        m_issues.append(QStringLiteral("%1: cannot open: %2").arg(m_path, file.errorString()));
        return reports;
    }
    const QByteArray content = file.readAll();
    qsizetype start = 0;
    int lineNumber = 0;
    while (start < content.size()) {
        qsizetype end = content.indexOf('\n', start);
        const bool complete = end >= 0;
        if (!complete)
            end = content.size();
        ++lineNumber;
        const QByteArray line = content.mid(start, end - start).trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        HypertuneReport report;
        QString error;
        if (!parseLine(line, &report, &error)) {
            if (complete)
                m_issues.append(QStringLiteral("%1:%2: %3; line skipped").arg(m_path).arg(lineNumber).arg(error));
            continue;
        }
        quint64 timestampBits;
        std::memcpy(&timestampBits, &report.timestamp, sizeof timestampBits);
        const QPair<qint64, quint64> key(report.step, timestampBits);
        if (m_seen.contains(key))
            continue;
        m_seen.insert(key);
        reports.append(report);
    }
    return reports;
}

} // namespace Trainyard::Formats
