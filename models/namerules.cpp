// SPDX-License-Identifier: GPL-2.0-or-later
// jobIdProblems(), projectIdProblems(), labelViolations() (machinecatalog.h): the service's rules for the names a
// caller picks and for labels. Sources:
// - REST v1 projects.jobs, Job.jobId:
// https://cloud.google.com/ai-platform/training/docs/reference/rest/v1/projects.jobs
// - Resource Manager's project IDs and labels (keys/values ≤ 63 chars of [a-z0-9_-], keys start with a letter, ≤ 64
//   labels).
// The texts are translated in the context "Trainyard::JobValidation", as jobvalidation.cpp's.
#include "machinecatalog.h"

#include <QCoreApplication>

namespace Trainyard {

namespace {

bool isLabelChar(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
        || c == QLatin1Char('_') || c == QLatin1Char('-');
}

} // namespace

// The job ID and label rules are shown live in the console's submit wizard: translated there (the
// console installs translators), English in the executor's API errors (it installs none).
QStringList jobIdProblems(const QString& jobId)
{
    QStringList problems;
    if (jobId.isEmpty()) {
        problems.append(QCoreApplication::translate("Trainyard::JobValidation", "A job ID is required."));
        return problems;
    }
    if (jobId.size() > 128)
        problems.append(QCoreApplication::translate(
            "Trainyard::JobValidation", "A job ID may be at most 128 characters long (this one has %1).")
                            .arg(jobId.size()));
    const QChar first = jobId.at(0);
    if (!(first.isLetter() && first.unicode() < 128))
        problems.append(QCoreApplication::translate("Trainyard::JobValidation", "A job ID must start with a letter."));
    QString bad;
    for (const QChar c : jobId) {
        const bool ok = c.unicode() < 128 && (c.isLetterOrNumber() || c == QLatin1Char('_'));
        if (!ok && !bad.contains(c))
            bad += c;
    }
    if (!bad.isEmpty())
        problems.append(QCoreApplication::translate(
            "Trainyard::JobValidation", "A job ID may contain only letters, digits and underscores, not \"%1\".")
                            .arg(bad));
    return problems;
}

QStringList projectIdProblems(const QString& project)
{
    if (project == defaultProjectId())
        return {};
    QStringList problems;
    if (project.isEmpty()) {
        problems.append(QCoreApplication::translate("Trainyard::JobValidation", "A project ID is required."));
        return problems;
    }
    if (project.size() < 6 || project.size() > 30)
        problems.append(QCoreApplication::translate(
            "Trainyard::JobValidation", "A project ID has 6 to 30 characters (this one has %1), or is \"%2\".")
                            .arg(project.size())
                            .arg(defaultProjectId()));
    const QChar first = project.at(0);
    if (!(first >= QLatin1Char('a') && first <= QLatin1Char('z')))
        problems.append(QCoreApplication::translate(
            "Trainyard::JobValidation", "A project ID must start with a lowercase letter."));
    else if (project.endsWith(QLatin1Char('-')))
        problems.append(
            QCoreApplication::translate("Trainyard::JobValidation", "A project ID cannot end with a hyphen."));
    QString bad;
    for (const QChar c : project) {
        const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
            || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('-');
        if (!ok && !bad.contains(c))
            bad += c;
    }
    if (!bad.isEmpty()) {
        // Shown escaped: a NUL, a newline or a '/' must be visible in the message.
        QString shown;
        for (const QChar c : std::as_const(bad))
            shown
                += c.unicode() < 0x20 ? QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0')) : QString(c);
        problems.append(QCoreApplication::translate("Trainyard::JobValidation",
            "A project ID may contain only lowercase letters, digits and hyphens, not \"%1\".")
                            .arg(shown));
    }
    return problems;
}

FieldViolations labelViolations(const QMap<QString, QString>& labels)
{
    FieldViolations v;
    if (labels.size() > 64)
        v.append({ QStringLiteral("labels"),
            QCoreApplication::translate(
                "Trainyard::JobValidation", "A job may have at most 64 labels (this one has %1).")
                .arg(labels.size()) });
    for (auto it = labels.constBegin(); it != labels.constEnd(); ++it) {
        // One violation per label, naming every rule it breaks.
        QStringList problems;
        const QString& key = it.key();
        if (key.isEmpty()) {
            problems.append(QCoreApplication::translate("Trainyard::JobValidation", "A label key must not be empty."));
        } else {
            if (key.size() > 63)
                problems.append(QCoreApplication::translate(
                    "Trainyard::JobValidation", "A label key may be at most 63 characters long."));
            if (!(key.at(0) >= QLatin1Char('a') && key.at(0) <= QLatin1Char('z')))
                problems.append(QCoreApplication::translate(
                    "Trainyard::JobValidation", "A label key must start with a lowercase letter."));
            if (!std::all_of(key.cbegin(), key.cend(), isLabelChar))
                problems.append(QCoreApplication::translate("Trainyard::JobValidation",
                    "A label key may contain only lowercase letters, digits, '_' and '-'."));
        }
        const QString& value = it.value();
        if (value.size() > 63)
            problems.append(QCoreApplication::translate(
                "Trainyard::JobValidation", "A label value may be at most 63 characters long."));
        if (!std::all_of(value.cbegin(), value.cend(), isLabelChar))
            problems.append(QCoreApplication::translate("Trainyard::JobValidation",
                "A label value may contain only lowercase letters, digits, '_' and '-' (\"%1\").")
                                .arg(value));
        if (!problems.isEmpty())
            v.append({ QStringLiteral("labels.") + key, problems.join(QLatin1Char(' ')) });
    }
    return v;
}

} // namespace Trainyard
