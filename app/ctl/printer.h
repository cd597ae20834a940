// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "apiclient.h"

#include <QDateTime>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// gcloud's output formats, reproduced for trainyardctl (googlecloudsdk/core/resource printers):
/// - yaml: keys in sorted order (as gcloud prints REST resources), strings quoted with single quotes
///   only where YAML would read them as something else (timestamps, numbers, booleans, `: `);
/// - table: upper-case headings, columns padded to the widest cell plus two spaces, no borders;
/// - box table (`--summarize`): a titled table drawn with box characters;
/// - log lines: `value(severity, timestamp.date("%Y-%m-%d %H:%M:%S %z", tz=LOCAL), task_name, trial_id,
///   message)`: tab-separated, one line per message line unless multi-line logs are allowed.
class Printer {
public:
    /// A YAML document for a JSON value (object → mapping, array → sequence), ending in a newline.
    static QString toYaml(const QJsonValue& value);
    /// A YAML scalar as gcloud writes it (quoted when needed).
    static QString yamlScalar(const QString& text);
    /// Plain table: `rows` of cells under `headings`.
    static QString table(const QStringList& headings, const QList<QStringList>& rows);
    /// gcloud's `table[box,title=…]`: one heading row and one value row per entry of `rows`; no title row when
    /// `title` is empty, no heading row when every heading is empty (`[no-heading]`).
    static QString boxTable(const QString& title, const QStringList& headings, const QList<QStringList>& rows);
    /// RFC 3339 (UTC) → gcloud's `.date(tz=LOCAL)`: "2026-11-22T06:04:43" in local time; input unchanged when
    /// unparsable, empty stays empty.
    static QString localDate(const QString& rfc3339);
    /// `time` as localDate() writes it; empty when invalid.
    static QString localDate(const QDateTime& time);
    /// Log entry → gcloud's stream-logs lines (one per message line unless `allowMultiline`).
    static QStringList logLines(const LogEntry& entry, bool allowMultiline);
};

} // namespace Trainyard
