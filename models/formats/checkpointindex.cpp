// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointindex.h"

#include "checkpointstate.h"
#include "pytorcharchive.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <functional>

#include <sys/stat.h>

namespace Trainyard {

using namespace Trainyard::Formats;

namespace {

/// Footer magic of a LevelDB table (`kTableMagicNumber`, little-endian fixed64), which a TF
/// bundle's `.index` is; tells a bundle index from any other file that ends in `.index`.
constexpr char kTableMagic[] = "\x57\xfb\x80\x8b\x24\x75\x47\xdb";
/// The scan's cache forgets everything beyond this many archives (a job dir's worth many times over).
constexpr qsizetype kMaxCachedArchives = 4096;

bool hasTableMagic(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() < 8 || !file.seek(file.size() - 8))
        return false;
    return file.read(8) == QByteArray(kTableMagic, 8);
}

bool startsWithZip(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(4) == QByteArrayLiteral("PK\x03\x04");
}

QString joinRel(const QString& rel, const QString& name)
{
    return rel.isEmpty() ? name : rel + QLatin1Char('/') + name;
}

/// The part of a file name that carries the step: without the format's extensions.
QString stemOf(const QString& fileName)
{
    static const QStringList suffixes = {
        QStringLiteral(".safetensors.index.json"),
        QStringLiteral(".safetensors"),
        QStringLiteral(".keras"),
        QStringLiteral(".pth.tar"),
        QStringLiteral(".pt"),
        QStringLiteral(".pth"),
        QStringLiteral(".ckpt"),
        QStringLiteral(".bin"),
        QStringLiteral(".tar"),
        QStringLiteral(".index"),
    };
    for (const QString& s : suffixes) {
        if (fileName.endsWith(s, Qt::CaseInsensitive) && fileName.size() > s.size())
            return fileName.chopped(s.size());
    }
    return fileName;
}

/// The walk over one job dir: collects entries; `root` is canonical.
class Walker {
public:
    explicit Walker(const QString& root)
        : m_root(root)
    {
    }

    QList<CheckpointEntry> entries;
    bool truncated = false;
    bool trialFolders = false;
    std::function<CheckpointIndex::ArchiveNumbers(const QString&, qint64, qint64)> archiveNumbers;

    void walk(const QString& dirPath, const QString& rel, int depth)
    {
        if (truncated)
            return;
        const QDir dir(dirPath);
        // No QDir::Hidden: dot files are temporaries and tool state, never a finished checkpoint.
        const QFileInfoList list
            = dir.entryInfoList(QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot | QDir::System, QDir::Name);
        m_seen += list.size();
        if (m_seen > CheckpointIndex::MaxEntries) {
            truncated = true;
            return;
        }

        QHash<QString, QFileInfo> files; // by file name: regular files (or symlinks to ones inside the root)
        QList<QFileInfo> dirs;
        for (const QFileInfo& fi : list) {
            if (fi.isSymLink() && !CheckpointIndex::isInside(m_root, fi.canonicalFilePath()))
                continue;
            if (fi.isDir()) {
                if (!fi.isSymLink()) // a symlinked folder could loop; its checkpoints are listed where they are
                    dirs.append(fi);
            } else if (fi.isFile() && !CheckpointIndex::hardLinks(fi.absoluteFilePath())) {
                files.insert(fi.fileName(), fi);
            }
        }

        if (isSavedModel(dir, files)) {
            addSavedModel(dirPath, rel);
            return;
        }

        QSet<QString> used;
        const qsizetype bundlesBegin = entries.size();
        static const QRegularExpression shardRe(QStringLiteral("^(.*)\\.data-\\d{5}-of-\\d{5}$"));
        QHash<QString, QStringList> shards;
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            const auto m = shardRe.match(it.key());
            if (m.hasMatch())
                shards[m.captured(1)].append(it.key());
        }
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            const QString& fileName = it.key();
            if (!fileName.endsWith(QLatin1String(".index")) || fileName.size() <= 6
                || !hasTableMagic(it->absoluteFilePath()))
                continue;
            const QString prefix = fileName.chopped(6);
            QStringList parts { fileName };
            parts += shards.value(prefix);
            if (files.contains(prefix + QStringLiteral(".meta")))
                parts.append(prefix + QStringLiteral(".meta"));
            CheckpointEntry e;
            e.name = joinRel(rel, prefix);
            e.format = QStringLiteral("tf-bundle");
            finish(&e, rel, prefix, parts, files);
            for (const QString& p : std::as_const(parts))
                used.insert(p);
            entries.append(e);
        }
        markCurrent(dirPath, files, bundlesBegin, entries.size());

        // Sharded safetensors first, so their shards are not listed on their own.
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            if (!it.key().endsWith(QLatin1String(".safetensors.index.json")))
                continue;
            QStringList parts { it.key() };
            for (const QString& shard : safetensorsShards(it->absoluteFilePath())) {
                if (files.contains(shard) && !parts.contains(shard))
                    parts.append(shard);
            }
            CheckpointEntry e;
            e.name = joinRel(rel, it.key());
            e.format = QStringLiteral("safetensors");
            finish(&e, rel, stemOf(it.key()), parts, files);
            for (const QString& p : std::as_const(parts))
                used.insert(p);
            entries.append(e);
        }
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            const QString& fileName = it.key();
            if (used.contains(fileName))
                continue;
            QString format;
            const QString lower = fileName.toLower();
            if (lower.endsWith(QLatin1String(".safetensors")))
                format = QStringLiteral("safetensors");
            else if (lower.endsWith(QLatin1String(".pt")) || lower.endsWith(QLatin1String(".pth")))
                format = QStringLiteral("pytorch");
            else if (lower.endsWith(QLatin1String(".keras")))
                format = QStringLiteral("keras");
            else if ((lower.endsWith(QLatin1String(".ckpt")) || lower.endsWith(QLatin1String(".bin"))
                         || lower.endsWith(QLatin1String(".tar")))
                && startsWithZip(it->absoluteFilePath()))
                format = QStringLiteral("pytorch");
            if (format.isEmpty())
                continue;
            CheckpointEntry e;
            e.name = joinRel(rel, fileName);
            e.format = format;
            finish(&e, rel, stemOf(fileName), { fileName }, files);
            if (format == QLatin1String("pytorch")) {
                const CheckpointIndex::ArchiveNumbers s
                    = archiveNumbers(it->absoluteFilePath(), it->size(), it->lastModified().toMSecsSinceEpoch());
                if (s.step)
                    e.step = s.step;
                if (s.epoch)
                    e.epoch = s.epoch;
            }
            entries.append(e);
        }

        if (depth >= CheckpointIndex::MaxDepth)
            return;
        for (const QFileInfo& d : std::as_const(dirs))
            walk(d.absoluteFilePath(), joinRel(rel, d.fileName()), depth + 1);
    }

private:
    static bool isSavedModel(const QDir& dir, const QHash<QString, QFileInfo>& files)
    {
        return (files.contains(QStringLiteral("saved_model.pb")) || files.contains(QStringLiteral("saved_model.pbtxt")))
            && QFileInfo(dir.filePath(QStringLiteral("variables/variables.index"))).isFile();
    }

    /// Every file under a SavedModel folder (assets included), without leaving the root.
    void addSavedModel(const QString& dirPath, const QString& rel)
    {
        CheckpointEntry e;
        e.name = rel.isEmpty() ? QStringLiteral(".") : rel;
        e.format = QStringLiteral("tf-saved-model");
        QList<QPair<QString, QString>> stack { { dirPath, rel } };
        int guard = 0;
        while (!stack.isEmpty() && ++guard < 1000) {
            const auto [path, r] = stack.takeLast();
            const QFileInfoList list
                = QDir(path).entryInfoList(QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot | QDir::System);
            for (const QFileInfo& fi : list) {
                if (fi.isSymLink() && !CheckpointIndex::isInside(m_root, fi.canonicalFilePath()))
                    continue;
                if (fi.isDir() && !fi.isSymLink())
                    stack.append({ fi.absoluteFilePath(), joinRel(r, fi.fileName()) });
                else if (fi.isFile() && !CheckpointIndex::hardLinks(fi.absoluteFilePath()))
                    add(&e, joinRel(r, fi.fileName()), fi);
            }
        }
        std::sort(e.files.begin(), e.files.end());
        const QString base = QFileInfo(dirPath).fileName();
        e.step = CheckpointIndex::stepFromName(base);
        e.epoch = CheckpointIndex::epochFromName(base);
        setTrial(&e);
        entries.append(e);
    }

    static void add(CheckpointEntry* e, const QString& relPath, const QFileInfo& fi)
    {
        e->files.append(relPath);
        e->sizeBytes += fi.size();
        const QDateTime m = fi.lastModified().toUTC();
        if (!e->updateTime.isValid() || m > e->updateTime)
            e->updateTime = m;
    }

    void finish(CheckpointEntry* e, const QString& rel, const QString& stem, const QStringList& parts,
        const QHash<QString, QFileInfo>& files)
    {
        for (const QString& p : parts)
            add(e, joinRel(rel, p), files.value(p));
        std::sort(e->files.begin(), e->files.end());
        e->step = CheckpointIndex::stepFromName(stem);
        e->epoch = CheckpointIndex::epochFromName(stem);
        if (!e->step && !rel.isEmpty()) // Hugging Face's `checkpoint-500/model.safetensors`
            e->step = CheckpointIndex::stepFromName(rel.section(QLatin1Char('/'), -1));
        setTrial(e);
    }

    void setTrial(CheckpointEntry* e) const
    {
        // The exported model's folder, `model/`, below the job dir or a trial's folder.
        const QString inside = e->name.section(QLatin1Char('/'), trialFolders && isTrialFolder(e->name) ? 1 : 0);
        e->exportedModel = inside.startsWith(QLatin1String("model/"));
        if (!trialFolders)
            return;
        const qsizetype slash = e->name.indexOf(QLatin1Char('/'));
        if (slash <= 0)
            return;
        const QString first = e->name.left(slash);
        if (std::all_of(first.cbegin(), first.cend(), [](QChar c) { return c.isDigit(); }))
            e->trialId = first;
    }

    static bool isTrialFolder(const QString& name)
    {
        const qsizetype slash = name.indexOf(QLatin1Char('/'));
        return slash > 0 && std::all_of(name.cbegin(), name.cbegin() + slash, [](QChar c) { return c.isDigit(); });
    }

    /// Marks the bundle a `checkpoint` state file in this folder names. TensorFlow writes the path
    /// relative to the folder or absolute; an absolute path that is not here any more (the job dir was
    /// moved) is matched by its last component, as CheckpointReader does.
    void markCurrent(const QString& dirPath, const QHash<QString, QFileInfo>& files, qsizetype begin, qsizetype end)
    {
        if (!files.contains(QStringLiteral("checkpoint")) || begin >= end)
            return;
        QString error;
        const auto state
            = CheckpointState::readFile(files.value(QStringLiteral("checkpoint")).absoluteFilePath(), &error);
        if (!state || state->modelCheckpointPath.isEmpty())
            return;
        const QString target = QDir::cleanPath(CheckpointState::resolve(state->modelCheckpointPath, dirPath));
        const QString byName = QFileInfo(state->modelCheckpointPath).fileName();
        for (qsizetype i = begin; i < end; ++i) {
            CheckpointEntry& e = entries[i];
            const QString prefixName = e.name.section(QLatin1Char('/'), -1);
            const QString prefixPath = QDir(dirPath).filePath(prefixName);
            if (prefixPath == target || (!QFileInfo::exists(target + QStringLiteral(".index")) && prefixName == byName))
                e.current = true;
        }
    }

    /// The shard file names a `model.safetensors.index.json` maps its tensors to (same folder only).
    static QStringList safetensorsShards(const QString& indexPath)
    {
        QFile file(indexPath);
        if (!file.open(QIODevice::ReadOnly) || file.size() > 64 * 1024 * 1024)
            return {};
        const QJsonObject map
            = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("weight_map")).toObject();
        QStringList out;
        for (auto it = map.constBegin(); it != map.constEnd(); ++it) {
            const QString shard = it.value().toString();
            if (!shard.isEmpty() && !shard.contains(QLatin1Char('/')) && !out.contains(shard))
                out.append(shard);
        }
        return out;
    }

    QString m_root;
    qsizetype m_seen = 0;
};

} // namespace

QList<CheckpointEntry> CheckpointIndex::scan(const QString& jobDir, bool trialFolders, bool* truncated) const
{
    if (truncated)
        *truncated = false;
    const QFileInfo dirInfo(jobDir);
    if (jobDir.isEmpty() || !dirInfo.isDir())
        return {};
    const QString root = dirInfo.canonicalFilePath();
    Walker walker(root);
    walker.trialFolders = trialFolders;
    walker.archiveNumbers
        = [this](const QString& path, qint64 size, qint64 mtimeMs) { return pytorchNumbers(path, size, mtimeMs); };
    walker.walk(root, QString(), 0);
    if (truncated)
        *truncated = walker.truncated;
    QList<CheckpointEntry> out = std::move(walker.entries);
    std::sort(out.begin(), out.end(), [](const CheckpointEntry& a, const CheckpointEntry& b) {
        // Checkpoints first: the exported model is written last, and was listed (and selected) as the newest.
        if (a.exportedModel != b.exportedModel)
            return b.exportedModel;
        if (a.updateTime != b.updateTime)
            return a.updateTime > b.updateTime;
        if (a.step.value_or(-1) != b.step.value_or(-1))
            return a.step.value_or(-1) > b.step.value_or(-1);
        return a.name < b.name;
    });
    return out;
}

CheckpointIndex::ArchiveNumbers CheckpointIndex::pytorchNumbers(const QString& path, qint64 size, qint64 mtimeMs) const
{
    {
        QMutexLocker lock(&m_mutex);
        const auto it = m_scalars.constFind(path);
        if (it != m_scalars.cend() && it->size == size && it->mtimeMs == mtimeMs)
            return *it;
    }
    // Listing an archive reads its zip directory and data.pkl only, never the tensors' bytes.
    ArchiveNumbers s;
    s.size = size;
    s.mtimeMs = mtimeMs;
    QString error;
    if (const auto info = PyTorchArchive::read(path, &error)) {
        auto integer = [&](const char* key) -> std::optional<qint64> {
            const QVariant v = info->scalars.value(QString::fromLatin1(key));
            bool ok = false;
            const qint64 n = v.toLongLong(&ok);
            if (!v.isValid() || !ok || v.typeId() == QMetaType::Bool || v.typeId() == QMetaType::QString)
                return std::nullopt;
            return n;
        };
        s.step = integer("global_step");
        if (!s.step)
            s.step = integer("step");
        s.epoch = integer("epoch");
    }
    QMutexLocker lock(&m_mutex);
    if (m_scalars.size() >= kMaxCachedArchives)
        m_scalars.clear();
    m_scalars.insert(path, s);
    return s;
}

qint64 CheckpointIndex::hardLinks(const QString& path)
{
    struct stat st { };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink <= 1)
        return 0;
    return qint64(st.st_nlink);
}

QString CheckpointIndex::shardOutside(const QString& root, const QString& indexPath)
{
    if (!indexPath.endsWith(QLatin1String(".safetensors.index.json")))
        return {};
    QFile file(indexPath);
    if (!file.open(QIODevice::ReadOnly) || file.size() > 64 * 1024 * 1024)
        return {}; // the reader says what is wrong with it
    const QJsonObject map
        = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("weight_map")).toObject();
    const QDir folder = QFileInfo(indexPath).absoluteDir();
    for (auto it = map.constBegin(); it != map.constEnd(); ++it) {
        const QString shard = it.value().toString();
        if (shard.isEmpty())
            continue;
        if (QDir::isAbsolutePath(shard) || shard.contains(QLatin1Char('/')) || shard.contains(QLatin1Char('\\'))
            || shard == QLatin1String("..") || shard == QLatin1String("."))
            return shard;
        const QFileInfo target(folder.filePath(shard));
        if (target.isSymLink() && !isInside(root, target.canonicalFilePath()))
            return shard;
    }
    return {};
}

bool CheckpointIndex::isInside(const QString& root, const QString& path)
{
    if (path.isEmpty() || root.isEmpty())
        return false;
    if (path == root)
        return true;
    const QString base = root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/');
    return path.startsWith(base);
}

CheckpointIndex::Resolution CheckpointIndex::resolve(
    const QString& jobDir, const QString& name, QString* path, QString* why)
{
    if (name.isEmpty() || name.startsWith(QLatin1Char('/')) || name.contains(QChar(0))) {
        *why = QStringLiteral("must be a path relative to the job dir");
        return Resolution::Invalid;
    }
    const QStringList parts = name.split(QLatin1Char('/'));
    for (const QString& p : parts) {
        if (p.isEmpty() || p == QLatin1String(".") || p == QLatin1String("..")) {
            // "." alone names a job dir that is itself a SavedModel.
            if (parts.size() == 1 && p == QLatin1String("."))
                continue;
            *why = QStringLiteral("must be a plain relative path (no empty, \".\" or \"..\" components)");
            return Resolution::Invalid;
        }
    }
    const QFileInfo dirInfo(jobDir);
    if (jobDir.isEmpty() || !dirInfo.isDir()) {
        *why = QStringLiteral("the job dir does not exist");
        return Resolution::NotFound;
    }
    const QString root = dirInfo.canonicalFilePath();
    const QString lexical = root + QLatin1Char('/') + name;
    QString canonical;
    const QFileInfo target(lexical);
    if (target.exists()) {
        canonical = target.canonicalFilePath();
    } else {
        // A bundle prefix is no file itself: its .index is.
        const QFileInfo index(lexical + QStringLiteral(".index"));
        if (index.exists() && index.canonicalFilePath().endsWith(QLatin1String(".index")))
            canonical = index.canonicalFilePath().chopped(6);
    }
    if (canonical.isEmpty()) {
        // The deepest folder of the path that exists, resolved: when a link above the name leads out of the job dir,
        // so does every name below it, whether it exists there or not. Answering "outside" for "etc/shadow" and
        // "no such checkpoint" for "etc/noshadow" through a link etc -> /etc told which files exist on the host.
        QString existing = lexical.left(lexical.lastIndexOf(QLatin1Char('/')));
        while (existing.size() > root.size() && !QFileInfo::exists(existing))
            existing = existing.left(existing.lastIndexOf(QLatin1Char('/')));
        if (existing.size() > root.size() && !isInside(root, QFileInfo(existing).canonicalFilePath())) {
            *why = QStringLiteral("resolves to a path outside the job dir");
            return Resolution::Outside;
        }
        for (const QString& link : QStringList { lexical, lexical + QStringLiteral(".index") }) {
            const QFileInfo info(link);
            if (!info.isSymLink())
                continue;
            // A link out of the job dir is refused whether its target exists or not: answering "broken" for
            // one and "outside" for another would tell API clients which paths exist on the host.
            if (!isInside(root, QDir::cleanPath(info.symLinkTarget()))) {
                *why = QStringLiteral("resolves to a path outside the job dir");
                return Resolution::Outside;
            }
            *why = QStringLiteral("is a broken symbolic link");
            return Resolution::NotFound;
        }
        *why = QStringLiteral("no such checkpoint in the job dir");
        return Resolution::NotFound;
    }
    if (!isInside(root, canonical)) {
        *why = QStringLiteral("resolves to a path outside the job dir");
        return Resolution::Outside;
    }
    *path = canonical;
    return Resolution::Ok;
}

std::optional<qint64> CheckpointIndex::stepFromName(const QString& stem)
{
    static const QRegularExpression re(QStringLiteral("[-_.=](\\d{1,18})$"));
    const auto m = re.match(stem);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toLongLong();
}

std::optional<qint64> CheckpointIndex::epochFromName(const QString& stem)
{
    static const QRegularExpression re(
        QStringLiteral("(?:^|[^a-z])epoch[-_=]?(\\d{1,18})(?!\\d)"), QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(stem);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toLongLong();
}

} // namespace Trainyard
