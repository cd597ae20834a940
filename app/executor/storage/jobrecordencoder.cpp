// SPDX-License-Identifier: GPL-2.0-or-later
#include "jobrecordencoder.h"

#include "sha256.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Trainyard {

namespace {

/// A string of control characters no job holds: Qt writes them escaped (`"\u0001…"`), and a string of the job that
/// spells that escape comes out with its backslash and quotes escaped too, so the member below is found only where
/// the placeholder was put.
QString placeholder(char16_t last)
{
    QString text;
    for (const char16_t c : { u'\x01', u'\x02', u'\x03', last })
        text += QChar(c);
    return text;
}

/// `"name":"…"` as a compact object writes that member.
QByteArray member(const QString& name, const QString& value)
{
    const QByteArray object = QJsonDocument(QJsonObject { { name, value } }).toJson(QJsonDocument::Compact);
    return object.mid(1, object.size() - 2);
}

const QString& etagPlaceholder()
{
    static const QString text = placeholder(u'\x04');
    return text;
}

const QString& trialsPlaceholder()
{
    static const QString text = placeholder(u'\x05');
    return text;
}

} // namespace

QString JobRecordEncoder::etagOf(QByteArrayView jsonWithoutEtag)
{
    // 9 bytes -> 12 base64 characters without padding: short, opaque, and collision-free in practice.
    const QByteArray digest = QByteArray::fromHex(sha256Hex(jsonWithoutEtag).left(18));
    return QString::fromLatin1(digest.toBase64());
}

QByteArray JobRecordEncoder::json(const Job& job)
{
    return QJsonDocument(JobJson::toJson(job)).toJson(QJsonDocument::Compact);
}

QByteArray JobRecordEncoder::trialArray(const QString& key, const QList<HyperparameterOutput>& trials)
{
    if (m_trials.size() >= MaxJobs && !m_trials.contains(key))
        m_trials.clear();
    const QHash<QString, Trial> kept = std::exchange(m_trials[key], {});
    QHash<QString, Trial>& now = m_trials[key];
    now.reserve(trials.size());
    QByteArray array = "[";
    for (const HyperparameterOutput& t : trials) {
        if (array.size() > 1)
            array += ',';
        const auto it = kept.constFind(t.trialId);
        // A trial is kept by its ID; two of one ID (not what the runner writes) are encoded each time.
        if (it != kept.cend() && it->trial == t && !now.contains(t.trialId)) {
            array += it->json;
            now.insert(t.trialId, *it);
            continue;
        }
        const QByteArray json = QJsonDocument(JobJson::toJson(t)).toJson(QJsonDocument::Compact);
        array += json;
        if (!now.contains(t.trialId))
            now.insert(t.trialId, Trial { t, json });
    }
    array += ']';
    return array;
}

std::pair<Job, QByteArray> JobRecordEncoder::encode(const QString& key, const Job& job)
{
    static const QByteArray etagMember = member(QStringLiteral("etag"), etagPlaceholder());
    // `"trials":"…"}}`: trials is the last key of trainingOutput, which is the job's last key when it has no
    // predictionOutput; that is where QJsonObject's sorted keys put the member, and nothing else ends the record.
    static const QByteArray trialsEnd = member(QStringLiteral("trials"), trialsPlaceholder()) + "}}";

    Job stored = job;
    stored.etag = etagPlaceholder();
    QByteArray bytes;
    if (stored.trainingOutput && !stored.trainingOutput->trials.isEmpty() && !stored.predictionOutput) {
        const QByteArray trials = trialArray(key, stored.trainingOutput->trials);
        Job rest = stored;
        rest.trainingOutput->trials.clear();
        QJsonObject object = JobJson::toJson(rest);
        QJsonObject output = object.value(QStringLiteral("trainingOutput")).toObject();
        output.insert(QStringLiteral("trials"), trialsPlaceholder());
        object.insert(QStringLiteral("trainingOutput"), output);
        bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
        if (bytes.endsWith(trialsEnd)) {
            bytes.chop(trialsEnd.size());
            bytes += "\"trials\":" + trials + "}}";
        } else { // cannot happen while the keys above sort last: then the job is encoded whole
            bytes = json(stored);
        }
    } else {
        m_trials.remove(key);
        bytes = json(stored);
    }

    const qsizetype at = bytes.indexOf(etagMember);
    if (at <= 0) { // cannot happen (toJson writes a non-empty etag): then two serialisations
        stored.etag.clear();
        QJsonObject object = JobJson::toJson(stored);
        stored.etag = etagOf(QJsonDocument(object).toJson(QJsonDocument::Compact));
        object.insert(QStringLiteral("etag"), stored.etag);
        return { stored, QJsonDocument(object).toJson(QJsonDocument::Compact) };
    }
    // A compact object is its members joined by commas: without the member (and one comma) it is the JSON of the job
    // without an etag, which etagOf() hashes; the member is then replaced by the etag's, where the sorted keys put it.
    QByteArray without = bytes;
    const qsizetype end = at + etagMember.size();
    if (end < without.size() && without.at(end) == ',')
        without.remove(at, end + 1 - at); // and the comma after it
    else if (without.at(at - 1) == ',')
        without.remove(at - 1, end - at + 1); // the last member: and the comma before it
    else
        without.remove(at, end - at); // the only member
    stored.etag = etagOf(without);
    bytes.replace(at, etagMember.size(), member(QStringLiteral("etag"), stored.etag));
    return { stored, bytes };
}

} // namespace Trainyard
