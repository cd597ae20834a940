// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard {

/// One checkpoint found under a job dir: the files that belong together, named by one path.
///
/// Grouping (what counts as one checkpoint):
/// - a TF tensor bundle: `<prefix>.index` (a LevelDB table: its footer magic is checked), every
///   `<prefix>.data-NNNNN-of-NNNNN` shard and a TF1 `<prefix>.meta`; named by the prefix
///   (`model.ckpt-1000`, `ckpts/ckpt-12`);
/// - a SavedModel folder (`saved_model.pb` or `.pbtxt` beside `variables/variables.index`): every
///   file under it; named by the folder;
/// - a `torch.save` archive: `.pt`, `.pth` always; `.ckpt`, `.bin`, `.tar` when they start with a
///   zip signature;
/// - safetensors: a `*.safetensors.index.json` with the shards its `weight_map` names, named by the
///   index; every other `.safetensors` file on its own.
/// Hidden files and folders (a leading `.`: the sample trainer's `.ckpt-epoch-N.pt.tmpPID` while it
/// writes) are skipped, and so is anything a symlink leads out of the job dir.
struct CheckpointEntry {
    QString name; ///< relative to the job dir, `/`-separated; what `…/checkpoints/{name}` takes
    QString format; ///< `tf-bundle`, `tf-saved-model`, `pytorch` or `safetensors`
    /// Training step: a PyTorch `global_step` (or `step`) scalar when the archive has one, else the
    /// number that ends the name (`ckpt-12`, `model.ckpt-1000`, `ckpt-epoch-3.pt`,
    /// `epoch=3-step=1000.ckpt`), else the one that ends its folder's name (`checkpoint-500/model.safetensors`).
    std::optional<qint64> step;
    /// Epoch: a PyTorch `epoch` scalar, else `epoch[-_=]N` in the name.
    std::optional<qint64> epoch;
    QDateTime updateTime; ///< newest modification time of its files, UTC
    qint64 sizeBytes = 0; ///< sum of its files' sizes
    bool current = false; ///< the `model_checkpoint_path` of a TF `checkpoint` state file in its folder
    QString trialId; ///< the first folder of `name` when the job tunes hyperparameters and that folder is a number
    /// In the job's exported-model folder, `model/` (or a trial's `<trial>/model/`): the service's convention for
    /// what a version deploys (a TorchScript model.pt, a built-in algorithm's model), not a training checkpoint.
    /// scan() lists these after every checkpoint.
    bool exportedModel = false;
    QStringList files; ///< its files, relative to the job dir, sorted
    // Its API JSON is CheckpointSummary's (models/apitypes.h: CheckpointSummary::fromEntry(), toJson()).
};

/// Finds the checkpoints under a job dir, and checks names that clients send against it.
///
/// Threading: every member may be called from any thread at the same time (the executor runs
/// scans on the thread pool); the only shared state is the PyTorch scalar cache, behind a mutex.
class CheckpointIndex {
public:
    /// A scan descends at most this many folders below the job dir and looks at this many
    /// directory entries in all, so a job dir holding a data set stays cheap to list.
    static constexpr int MaxDepth = 8;
    static constexpr int MaxEntries = 100000;

    /// The checkpoints under `jobDir` (absolute, or relative to the current directory), newest
    /// first (by updateTime, then step, then name). An empty list when the folder does not exist.
    /// `trialFolders`: numbered first-level folders are trials (sets CheckpointEntry::trialId).
    /// `truncated` (optional) is set when MaxEntries stopped the walk.
    QList<CheckpointEntry> scan(const QString& jobDir, bool trialFolders, bool* truncated = nullptr) const;

    /// What resolving a client's checkpoint name found.
    enum class Resolution {
        Ok, ///< `*path` is the absolute path to hand to CheckpointReader
        Invalid, ///< not a plain relative path (empty, absolute, `.`/`..`/empty segments, NUL)
        Outside, ///< resolves (symlinks followed) to a place outside the job dir
        NotFound, ///< nothing of that name (nor a `<name>.index` bundle prefix) in the job dir
    };
    /// Checks `name` (relative, `/`-separated) against `jobDir` and gives the canonical path to
    /// open (for a bundle prefix: the canonical `.index` path without its suffix). `why` explains
    /// what is wrong, for the error message.
    static Resolution resolve(const QString& jobDir, const QString& name, QString* path, QString* why);

    /// True when `path` (after canonicalisation) is `root` or lies below it; `root` must be canonical.
    static bool isInside(const QString& root, const QString& path);
    /// The number of hard links of `path` when it is a regular file with more than one (lstat's st_nlink), else 0.
    /// A second link to a file can lie anywhere on the same file system, and nothing tells where from inside the
    /// job dir; so such a file is neither listed nor served (API.md, "Checkpoints"): a hard link in a job dir to a
    /// file outside it would serve that file as a symlink would.
    static qint64 hardLinks(const QString& path);
    /// For a `*.safetensors.index.json` (any other path: empty): the first shard its `weight_map` names that lies
    /// outside the index's folder (an absolute path, a `..` component, a subfolder, or a symlink that leads out
    /// of `root`, which must be canonical), as named there; empty when every shard lies in the folder.
    static QString shardOutside(const QString& root, const QString& indexPath);

    /// The number ending a name's stem after a separator (`-`, `_`, `.`, `=`), e.g. 1000 for
    /// `model.ckpt-1000`; none for `model_v2` or `final`.
    static std::optional<qint64> stepFromName(const QString& stem);
    /// N of `epoch-N`, `epoch_N`, `epochN` or `epoch=N` (case-insensitive) in a name.
    static std::optional<qint64> epochFromName(const QString& stem);

    /// What a torch.save archive says about its progress (top-level scalars), with the file's
    /// size and mtime it was read at.
    struct ArchiveNumbers {
        qint64 size = -1;
        qint64 mtimeMs = 0;
        std::optional<qint64> step; ///< `global_step`, else `step`
        std::optional<qint64> epoch;
    };

private:
    /// ArchiveNumbers of an archive, cached by path, size and mtime (the sample trainer replaces a
    /// checkpoint by rename, which changes both).
    ArchiveNumbers pytorchNumbers(const QString& path, qint64 size, qint64 mtimeMs) const;

    mutable QMutex m_mutex;
    mutable QHash<QString, ArchiveNumbers> m_scalars;
};

} // namespace Trainyard
