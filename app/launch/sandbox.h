// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "processgroup.h"

#include <QString>
#include <QStringList>

#include <optional>

class QProcess;

namespace Trainyard {

/// What one sandboxed process sees besides the read-only system folders every sandbox has (Sandbox). Paths are full
/// paths of this host, bound at the same path inside, so every path in the process's arguments and environment holds.
struct SandboxView {
    QStringList writable; ///< folders (or files) bound read-write: the job dir, a replica's folder, an output folder
    /// Files or folders bound read-only: the staged packages, a model's copy, input files; also one inside a writable
    /// folder, which it then covers.
    QStringList readable;
    /// False: a network namespace of its own with only a loopback that is down (prediction nodes, batch workers and
    /// pip talk through pipes and files only). True: the host's network, for a cluster's replicas, which reach each
    /// other (TF_CONFIG, NCCL, gloo) over loopback.
    bool network = true;
    bool gpus = false; ///< the host's NVIDIA devices (/dev/nvidia*) are bound in: a replica that holds GPUs
    QString workingDirectory; ///< where the process starts (bound as writable or readable by the caller)

    /// Appends `other`'s paths (kept in order, without duplicates), and its working folder where this has none; network
    /// and GPUs stay this one's.
    void merge(const SandboxView& other);
    bool operator==(const SandboxView&) const = default;
};

/// Where user code runs: every process that runs code a user deployed or submitted (a training job's replicas, a
/// batch prediction job's workers, a version's prediction nodes, pip building a package) runs inside bubblewrap
/// (`bwrap`, Debian's `bubblewrap`; https://github.com/containers/bubblewrap), as the service runs user code on
/// machines that cannot reach its control plane:
/// - its own PID, IPC and UTS namespaces (and a cgroup namespace where the kernel allows), and its own user namespace
///   with the executor's user mapped, or, when the executor runs as root, an unprivileged account of its own (below):
///   it cannot see, signal or ptrace the executor or another job's processes, nor read `/proc/<executor>/fd`;
/// - a root of its own: the system folders read-only (/usr and the /bin, /lib… links, /etc, /opt, /sys), a fresh
///   /proc and /dev (with a /dev/shm of its own), empty private /tmp, /var/tmp and $HOME, and only the paths its
///   SandboxView names; never the
///   executor's data, runtime or config folders nor its TLS files (the hidden paths: a hidden path under a bound one is
///   covered with an empty folder, or /dev/null for a file);
/// - when the executor runs as root, an unprivileged account (`trainyard-executor --sandbox-user`, by default the
///   `trainyard` system user the .deb makes, else `nobody`): bubblewrap runs as root to make the mounts (so a data
///   folder under /root can be bound), and the command drops to the account with setpriv before anything of the user's
///   runs (no groups, no capabilities, no-new-privs); the executor hands the folders the process writes over to it
///   (handOver()). A user namespace made by root would map its root to the host's root, which owns the token;
/// - every bound path is opened by the executor and passed as a descriptor (`--bind-fd`): bubblewrap checks that the
///   path it mounts is still what was opened, so a path swapped for a link after it was checked fails instead;
/// - bubblewrap reports a command killed by signal N as exit status 128 + N (its propagate_exit_status()): callers map
///   it back (exitSignal()). SIGTERM reaches the command, not bubblewrap (ChildSetup::ignoreTerm, then
///   `env --default-signal=TERM` inside), so a trainer's handler runs and the sandbox ends when the command ends.
///
/// Without bubblewrap, or where the kernel refuses unprivileged user namespaces, the sandbox is off (detect() says
/// why); the executor then refuses to serve anything but loopback unless `--sandbox=off` is given (executor.cpp).
/// Main thread (prepare() opens descriptors that the started process takes).
class Sandbox {
public:
    /// `--sandbox`: auto (on where it works), on (refuse to start without it), off (user code runs unconfined).
    enum class Mode { Auto, On, Off };
    struct Account {
        int uid = -1;
        int gid = -1;
        QString name;
    };

    /// An inactive sandbox: prepare() runs programs as they are.
    Sandbox() = default;

    /// Finds bwrap (PATH, /usr/bin), the account when this process runs as root (`accountName`, else `nobody`), and
    /// checks once that a sandbox starts here (`bwrap … -- /bin/true` as that account, at most 10 s). `hidden`: the
    /// executor's own folders and files. An inactive sandbox with *why set when the mode is Off or it cannot start;
    /// *why may also hold a warning for an active one (the account fell back to `nobody`).
    static Sandbox detect(Mode mode, const QStringList& hidden, const QString& accountName, QString* why);

    /// Paths every sandbox sees read-only besides the system folders: the interpreter's installation when it lies
    /// elsewhere (a virtual environment), the executor's own PYTHONPATH folders, which user code inherits (the
    /// executor's admin set them). A path that is or holds a hidden one is left out.
    void setSharedReadable(const QStringList& paths);
    QStringList sharedReadable() const { return m_shared; }

    bool isActive() const { return !m_bwrap.isEmpty(); }
    QString bwrap() const { return m_bwrap; }
    /// The account user code runs as, when the executor runs as root.
    std::optional<Account> account() const { return m_account; }
    QStringList hidden() const { return m_hidden; }

    /// Sets `process` to run `program arguments` (in `view`'s working directory) in a sandbox that sees `view`, in its
    /// own process group with `setup` (makeOwnProcessGroup()). Inactive: as it is, with `setup` only. False with
    /// *error when a path of `view` cannot be opened (it no longer exists) or is or holds a hidden one (a job's own
    /// folders inside the data folder may be bound); the process is then untouched.
    bool prepare(QProcess* process, const QString& program, const QStringList& arguments, const SandboxView& view,
        ChildSetup setup, QString* error) const;

    /// What runs inside after `--`: `program arguments`, with SIGTERM's default restored, and, when the executor runs
    /// as root, behind setpriv dropping to the account (no groups, no capabilities, no new privileges).
    QStringList command(const QString& program, const QStringList& arguments) const;

    /// bwrap's arguments for `view` with the descriptors `fds` (one per bound path: writable, then readable, in order,
    /// so that a readable path inside a writable folder stays read-only), up to `--` and the command. Pure: what prepare() runs, and what the unit
    /// test reads.
    QStringList arguments(const SandboxView& view, const QList<int>& fds) const;

    /// Makes `path` (a folder the executor made, and what it holds) writable for the account: when the executor runs as
    /// root, every entry of it that root owns is given to the account (lchown: links are not followed; a file with more
    /// than one link is left alone). Does nothing otherwise. False with *error when a chown fails.
    bool handOver(const QString& path, QString* error = nullptr) const;

    /// The signal that killed a sandboxed command whose bwrap exited with `exitCode` (128 + N), or 0.
    static int exitSignal(int exitCode) { return exitCode > 128 && exitCode < 128 + 65 ? exitCode - 128 : 0; }

private:
    QString m_bwrap;
    std::optional<Account> m_account;
    QStringList m_hidden;
    QStringList m_shared;
    QString m_home;
};

} // namespace Trainyard
