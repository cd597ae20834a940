// SPDX-License-Identifier: GPL-2.0-or-later
#include "auditlog.h"
#include "logentry.h"
#include "rfc3339.h"
#include "sha256.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

namespace Trainyard::Audit {

namespace {
const QLatin1String activityId("cloudaudit.googleapis.com%2Factivity");
const QLatin1String dataAccessId("cloudaudit.googleapis.com%2Fdata_access");
} // namespace

QString logName(const QString& project, LogKind kind)
{
    return QStringLiteral("projects/") + project + QStringLiteral("/logs/")
        + (kind == LogKind::Activity ? activityId : dataAccessId);
}

std::optional<LogKind> logKindOf(const QString& logName)
{
    if (logName.endsWith(QLatin1String("/logs/") + activityId))
        return LogKind::Activity;
    if (logName.endsWith(QLatin1String("/logs/") + dataAccessId))
        return LogKind::DataAccess;
    return std::nullopt;
}

QByteArray genesisHash()
{
    return QByteArray(64, '0');
}

QByteArray canonicalBytes(const QJsonObject& entry)
{
    // QJsonObject iterates and serialises its keys sorted, at every depth: the compact form is canonical.
    return QJsonDocument(entry).toJson(QJsonDocument::Compact);
}

QByteArray entryHash(const QJsonObject& entry)
{
    return bytesHash(canonicalBytes(entry));
}

QByteArray bytesHash(const QByteArray& canonical)
{
    return sha256Hex(canonical);
}

QString insertIdFor(qint64 sequence)
{
    return QStringLiteral("%1").arg(sequence, 20, 10, QLatin1Char('0'));
}

qint64 sequenceOf(const QString& insertId)
{
    if (insertId.size() != 20)
        return 0;
    bool ok = false;
    const qint64 value = insertId.toLongLong(&ok);
    return ok && value > 0 ? value : 0;
}

std::optional<ChainProblem> verifyChain(const QList<QJsonObject>& oldestFirst)
{
    auto prevHashOf = [](const QJsonObject& entry) {
        return entry.value(QLatin1String("labels")).toObject().value(prevHashLabel()).toString().toLatin1();
    };
    auto idOf = [](const QJsonObject& entry) { return entry.value(QLatin1String("insertId")).toString(); };
    QSet<qint64> places;
    for (const QJsonObject& entry : oldestFirst)
        places.insert(sequenceOf(idOf(entry)));
    for (qsizetype i = 0; i < oldestFirst.size(); ++i) {
        const QJsonObject& entry = oldestFirst.at(i);
        const QString id = idOf(entry);
        const qint64 place = sequenceOf(id);
        // The executor marks an entry whose stored row disagrees with it (AuditStore::read(), rowProblem()).
        const QString rowChanged = entry.value(QLatin1String("labels")).toObject().value(rowChangedLabel()).toString();
        if (!rowChanged.isEmpty())
            return ChainProblem { i, id, rowChanged + QStringLiteral(": the row was changed") };
        if (place == 0)
            return ChainProblem { i, id,
                QStringLiteral("entry %1 (insertId \"%2\"): the insertId is not a place in the "
                               "chain (20 decimal digits)")
                    .arg(i + 1)
                    .arg(id) };
        if (i == 0) {
            if (place != 1)
                return ChainProblem { i, id,
                    QStringLiteral("entry %1: the log starts at place %2; the entries before it were removed")
                        .arg(id)
                        .arg(place) };
            if (prevHashOf(entry) != genesisHash())
                return ChainProblem {
                    i, id,
                    QStringLiteral("entry %1: the first entry's prev-hash is not the genesis hash (64 zeros)").arg(id)
                };
            continue;
        }
        const QJsonObject& before = oldestFirst.at(i - 1);
        const qint64 placeBefore = sequenceOf(idOf(before));
        if (place <= placeBefore)
            return ChainProblem { i, id,
                QStringLiteral("entry %1 is out of order: it follows entry %2 (entries were reordered)")
                    .arg(id, idOf(before)) };
        // A place skipped here that comes later: the entries were reordered, not removed.
        if (place != placeBefore + 1 && places.contains(placeBefore + 1))
            return ChainProblem { i, id,
                QStringLiteral("entry %1 is out of order: it follows entry %2, and entry %3 comes later (entries were "
                               "reordered)")
                    .arg(id, idOf(before), insertIdFor(placeBefore + 1)) };
        if (place != placeBefore + 1)
            return ChainProblem { i, id,
                QStringLiteral("entry %1 follows entry %2: %3 entries between them were removed")
                    .arg(id, idOf(before))
                    .arg(place - placeBefore - 1) };
        if (prevHashOf(entry) != entryHash(before))
            return ChainProblem { i - 1, idOf(before),
                QStringLiteral("entry %1 was changed: its hash is not the prev-hash that entry %2 records")
                    .arg(idOf(before), id) };
    }
    return std::nullopt;
}

std::optional<Head> Head::parse(const QString& text)
{
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    if (colon < 0)
        return std::nullopt;
    Head head { text.left(colon), text.mid(colon + 1).toLatin1().toLower() };
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (sequenceOf(head.insertId) == 0 || !hex.match(QString::fromLatin1(head.hash)).hasMatch())
        return std::nullopt;
    return head;
}

std::optional<Head> headOf(const QList<QJsonObject>& oldestFirst)
{
    if (oldestFirst.isEmpty())
        return std::nullopt;
    const QJsonObject& last = oldestFirst.last();
    return Head { last.value(QLatin1String("insertId")).toString(), entryHash(last) };
}

QString headAnchorPath(const QString& runtimeDir, const QString& dataDir)
{
    const QByteArray digest = QCryptographicHash::hash(dataDir.toUtf8(), QCryptographicHash::Sha256).toHex();
    return runtimeDir + QStringLiteral("/audit-head-") + QString::fromLatin1(digest.left(16)) + QStringLiteral(".json");
}

bool writeHeadAnchor(const QString& path, const QString& dataDir, const Head& head, QString* error)
{
    QSaveFile file(path);
    const QJsonObject json {
        { QStringLiteral("dataDir"), dataDir },
        { QStringLiteral("insertId"), head.insertId },
        { QStringLiteral("hash"), QString::fromLatin1(head.hash) },
        { QStringLiteral("time"), Rfc3339::now() },
    };
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson(QJsonDocument::Compact)) < 0
        || !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<Head> readHeadAnchor(const QString& path, const QString& dataDir)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    if (json.value(QLatin1String("dataDir")).toString() != dataDir)
        return std::nullopt;
    return Head::parse(json.value(QLatin1String("insertId")).toString() + QLatin1Char(':')
        + json.value(QLatin1String("hash")).toString());
}

std::optional<ChainProblem> checkHead(const QList<QJsonObject>& oldestFirst, const Head& head, const QString& source)
{
    const qint64 place = sequenceOf(head.insertId);
    const qint64 last
        = oldestFirst.isEmpty() ? 0 : sequenceOf(oldestFirst.last().value(QLatin1String("insertId")).toString());
    if (last < place)
        return ChainProblem { oldestFirst.size() - 1, head.insertId,
            QStringLiteral("the log ends at entry %1, but %2 recorded its head at entry %3: %4 entries were removed "
                           "from its end")
                .arg(last == 0 ? QStringLiteral("0") : insertIdFor(last), source, head.insertId)
                .arg(place - last) };
    // verifyChain() found the places consecutive from 1: entry `place` is at index place - 1.
    const qsizetype index = qsizetype(place - 1);
    if (index < 0 || index >= oldestFirst.size() || entryHash(oldestFirst.at(index)) != head.hash)
        return ChainProblem { index, head.insertId,
            QStringLiteral("entry %1 is not the entry %2 recorded as the head (its hash differs): the log was "
                           "rewritten from there on")
                .arg(head.insertId, source) };
    return std::nullopt;
}

std::optional<ChainProblem> checkRecordedHeads(const QList<QJsonObject>& oldestFirst)
{
    for (qsizetype i = 0; i < oldestFirst.size(); ++i) {
        const QJsonObject payload = oldestFirst.at(i).value(QLatin1String("protoPayload")).toObject();
        if (payload.value(QLatin1String("methodName")).toString() != executorStartMethod())
            continue;
        const QJsonObject previous
            = payload.value(QLatin1String("metadata")).toObject().value(QLatin1String("previousHead")).toObject();
        if (previous.isEmpty())
            continue;
        const std::optional<Head> head = Head::parse(previous.value(QLatin1String("insertId")).toString()
            + QLatin1Char(':') + previous.value(QLatin1String("hash")).toString());
        const QString startId = oldestFirst.at(i).value(QLatin1String("insertId")).toString();
        if (!head)
            return ChainProblem { i, startId,
                QStringLiteral("entry %1 (an executor's start) records a head that is not one").arg(startId) };
        // The log as that executor found it: the entries before its Start entry.
        if (std::optional<ChainProblem> problem = checkHead(
                oldestFirst.mid(0, i), *head, QStringLiteral("the executor stopped before entry %1").arg(startId))) {
            problem->message += QStringLiteral(" (while no executor ran)");
            return problem;
        }
    }
    return std::nullopt;
}

QString rowProblem(qint64 seq, const QString& project, const QString& logKind, const QJsonObject& entry)
{
    // The place column is the chain's order, which verifyChain() checks against each entry's insertId (a reorder
    // is told as one); here only the columns reads select on.
    Q_UNUSED(seq);
    const QString insertId = entry.value(QLatin1String("insertId")).toString();
    const QString name = entry.value(QLatin1String("logName")).toString();
    const QStringList parts = name.split(QLatin1Char('/'));
    const QString entryProject
        = parts.size() >= 2 && parts.first() == QLatin1String("projects") ? parts.at(1) : QStringLiteral("-");
    if (project != entryProject)
        return QStringLiteral("entry %1's project column says \"%2\" but its logName names project \"%3\"")
            .arg(insertId, project, entryProject);
    const std::optional<LogKind> kind = logKindOf(name);
    const QString entryKind = !kind    ? QString()
        : *kind == LogKind::DataAccess ? QStringLiteral("data_access")
                                       : QStringLiteral("activity");
    if (logKind != entryKind)
        return QStringLiteral("entry %1's log_kind column says \"%2\" but its logName names \"%3\"")
            .arg(insertId, logKind, entryKind);
    return {};
}

namespace {

/// The value at `path` in `entry`, as text (numbers and booleans as JSON writes them); nullopt when absent.
std::optional<QString> valueAt(const QJsonObject& entry, const QStringList& path)
{
    QJsonValue value(entry);
    for (const QString& key : path) {
        if (!value.isObject())
            return std::nullopt;
        const QJsonObject object = value.toObject();
        const auto it = object.constFind(key);
        if (it == object.constEnd())
            return std::nullopt;
        value = *it;
    }
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double:
        return QString::number(value.toInteger());
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    default:
        return std::nullopt;
    }
}

int compareAs(const QStringList& path, const QString& a, const QString& b)
{
    if (path == QStringList { QStringLiteral("severity") }) {
        const int ra = logSeverityRank(logSeverityFromName(a));
        const int rb = logSeverityRank(logSeverityFromName(b));
        return ra < rb ? -1 : ra > rb ? 1 : 0;
    }
    if (path == QStringList { QStringLiteral("timestamp") }
        || path == QStringList { QStringLiteral("receiveTimestamp") }) {
        const qint64 ta = LogJson::parseTimestamp(a);
        const qint64 tb = LogJson::parseTimestamp(b);
        return ta < tb ? -1 : ta > tb ? 1 : 0;
    }
    return a.compare(b);
}

} // namespace

std::optional<Filter> Filter::parse(const QString& text, QString* error)
{
    Filter filter;
    qsizetype i = 0;
    const qsizetype n = text.size();
    auto fail = [&](const QString& message) {
        if (error)
            *error = QStringLiteral("filter, position %1: %2").arg(i + 1).arg(message);
        return std::nullopt;
    };
    auto skipSpace = [&] {
        while (i < n && text.at(i).isSpace())
            ++i;
    };
    // A quoted string (after its opening quote): \" and \\ escapes.
    auto quoted = [&](QString* out) {
        ++i;
        while (i < n && text.at(i) != QLatin1Char('"')) {
            if (text.at(i) == QLatin1Char('\\') && i + 1 < n)
                ++i;
            out->append(text.at(i));
            ++i;
        }
        if (i >= n)
            return false;
        ++i;
        return true;
    };
    auto isOpChar = [](QChar c) {
        return c == QLatin1Char('=') || c == QLatin1Char('!') || c == QLatin1Char(':') || c == QLatin1Char('<')
            || c == QLatin1Char('>');
    };
    while (true) {
        skipSpace();
        if (i >= n)
            break;
        if (text.at(i) == QLatin1Char('(') || text.at(i) == QLatin1Char(')'))
            return fail(QStringLiteral("parentheses are not supported; join terms with AND"));
        if (text.at(i) == QLatin1Char('-'))
            return fail(QStringLiteral("NOT (-) is not supported"));
        // A path: dotted parts, each bare or quoted.
        Term term;
        while (true) {
            QString part;
            if (i < n && text.at(i) == QLatin1Char('"')) {
                if (!quoted(&part))
                    return fail(QStringLiteral("unterminated quoted field name"));
            } else {
                while (i < n && !text.at(i).isSpace() && !isOpChar(text.at(i)) && text.at(i) != QLatin1Char('.')
                    && text.at(i) != QLatin1Char('"'))
                    part.append(text.at(i++));
            }
            if (part.isEmpty())
                return fail(QStringLiteral("expected a field name"));
            term.path.append(part);
            if (i < n && text.at(i) == QLatin1Char('.')) {
                ++i;
                continue;
            }
            break;
        }
        const QString word = term.path.size() == 1 ? term.path.first() : QString();
        if (word == QLatin1String("AND")) {
            if (filter.m_terms.isEmpty())
                return fail(QStringLiteral("AND must join two terms"));
            continue;
        }
        if (word == QLatin1String("OR") || word == QLatin1String("NOT"))
            return fail(QStringLiteral("%1 is not supported; join terms with AND").arg(word));
        skipSpace();
        static const QList<QPair<QLatin1String, Op>> ops {
            { QLatin1String("!="), Op::NotEqual },
            { QLatin1String("<="), Op::LessEqual },
            { QLatin1String(">="), Op::GreaterEqual },
            { QLatin1String("="), Op::Equal },
            { QLatin1String(":"), Op::Has },
            { QLatin1String("<"), Op::Less },
            { QLatin1String(">"), Op::Greater },
        };
        bool found = false;
        for (const auto& [symbol, op] : ops) {
            if (QStringView(text).mid(i).startsWith(symbol)) {
                term.op = op;
                i += symbol.size();
                found = true;
                break;
            }
        }
        if (!found)
            return fail(QStringLiteral("expected an operator (=, !=, :, <, <=, >, >=) after %1")
                            .arg(term.path.join(QLatin1Char('.'))));
        skipSpace();
        if (i < n && text.at(i) == QLatin1Char('"')) {
            if (!quoted(&term.value))
                return fail(QStringLiteral("unterminated quoted value"));
        } else {
            while (i < n && !text.at(i).isSpace())
                term.value.append(text.at(i++));
            if (term.value.isEmpty())
                return fail(QStringLiteral("expected a value after the operator"));
        }
        const QStringList& p = term.path;
        if (p == QStringList { QStringLiteral("severity") } && term.op != Op::Has && !parseLogSeverity(term.value))
            return fail(
                QStringLiteral("severity must be one of %1").arg(logSeverityNames().join(QStringLiteral(", "))));
        if ((p == QStringList { QStringLiteral("timestamp") }
                || p == QStringList { QStringLiteral("receiveTimestamp") })
            && term.op != Op::Has && LogJson::parseTimestamp(term.value) == 0)
            return fail(QStringLiteral("%1 must be an RFC 3339 time (2026-11-24T12:00:00Z)").arg(p.first()));
        filter.m_terms.append(term);
    }
    return filter;
}

bool Filter::matches(const QJsonObject& entry) const
{
    for (const Term& term : m_terms) {
        const std::optional<QString> value = valueAt(entry, term.path);
        if (!value) {
            if (term.op == Op::NotEqual)
                continue;
            return false;
        }
        bool ok = false;
        switch (term.op) {
        case Op::Equal:
            ok = compareAs(term.path, *value, term.value) == 0;
            break;
        case Op::NotEqual:
            ok = compareAs(term.path, *value, term.value) != 0;
            break;
        case Op::Has:
            ok = value->contains(term.value, Qt::CaseInsensitive);
            break;
        case Op::Less:
            ok = compareAs(term.path, *value, term.value) < 0;
            break;
        case Op::LessEqual:
            ok = compareAs(term.path, *value, term.value) <= 0;
            break;
        case Op::Greater:
            ok = compareAs(term.path, *value, term.value) > 0;
            break;
        case Op::GreaterEqual:
            ok = compareAs(term.path, *value, term.value) >= 0;
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

Entry Entry::fromJson(const QJsonObject& json)
{
    const auto object = [](const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toObject(); };
    const auto text = [](const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toString(); };
    Entry e;
    e.json = json;
    e.insertId = text(json, "insertId");
    e.timestamp = text(json, "timestamp");
    e.logName = text(json, "logName");
    e.severity = text(json, "severity");
    e.jobId = text(object(object(json, "resource"), "labels"), "job_id");
    const QJsonObject payload = object(json, "protoPayload");
    e.principal = text(object(payload, "authenticationInfo"), "principalEmail");
    e.serviceName = text(payload, "serviceName");
    e.methodName = text(payload, "methodName");
    e.resourceName = text(payload, "resourceName");
    const QJsonObject status = object(payload, "status");
    if (status.contains(QLatin1String("code")))
        e.statusCode = status.value(QLatin1String("code")).toInt();
    e.statusMessage = text(status, "message");
    for (const QJsonValue& detail : status.value(QLatin1String("details")).toArray()) {
        for (const QJsonValue& v : detail.toObject().value(QLatin1String("fieldViolations")).toArray())
            e.violations.append({ text(v.toObject(), "field"), text(v.toObject(), "description") });
    }
    for (const QJsonValue& v : payload.value(QLatin1String("authorizationInfo")).toArray()) {
        const QJsonObject a = v.toObject();
        e.authorizations.append(
            { text(a, "resource"), text(a, "permission"), a.value(QLatin1String("granted")).toBool() });
    }
    const QJsonObject metadata = object(payload, "requestMetadata");
    e.callerIp = text(metadata, "callerIp");
    e.userAgent = text(metadata, "callerSuppliedUserAgent");
    const QJsonObject more = object(payload, "metadata");
    e.what = text(more, "message");
    e.requestTruncated = text(object(more, "requestTruncated"), "message");
    return e;
}

Page Page::fromJson(const QJsonObject& json)
{
    Page page;
    const QJsonArray entries = json.value(QLatin1String("entries")).toArray();
    page.entries.reserve(entries.size());
    for (const QJsonValue& v : entries)
        page.entries.append(Entry::fromJson(v.toObject()));
    page.nextPageToken = json.value(QLatin1String("nextPageToken")).toString();
    return page;
}

QJsonObject Page::toJson() const
{
    QJsonArray list;
    for (const Entry& e : entries)
        list.append(e.json);
    QJsonObject answer { { QStringLiteral("entries"), list } };
    if (!nextPageToken.isEmpty())
        answer.insert(QStringLiteral("nextPageToken"), nextPageToken);
    return answer;
}

} // namespace Trainyard::Audit
