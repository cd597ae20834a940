// SPDX-License-Identifier: GPL-2.0-or-later
#include "sandbox.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QProcess>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Trainyard {

namespace {

bool sameOrInside(const QString& folder, const QString& path)
{
    if (path == folder)
        return true;
    const QString prefix = folder.endsWith(QLatin1Char('/')) ? folder : folder + QLatin1Char('/');
    return path.startsWith(prefix);
}

void appendUnique(QStringList* list, const QStringList& more)
{
    for (const QString& p : more) {
        if (!p.isEmpty() && !list->contains(p))
            list->append(p);
    }
}

/// The descriptors a started process took: closed once it started (or could not).
class BoundDescriptors : public QObject {
public:
    BoundDescriptors(QList<int> fds, QProcess* process)
        : QObject(process)
        , m_fds(std::move(fds))
    {
    }
    ~BoundDescriptors() override { closeAll(); }
    void closeAll()
    {
        for (const int fd : std::as_const(m_fds))
            ::close(fd);
        m_fds.clear();
    }

private:
    QList<int> m_fds;
};

/// The system folders every sandbox sees read-only; a merged-/usr host's /bin, /lib… are links into /usr.
const char* const SystemFolders[] = { "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };

} // namespace

void SandboxView::merge(const SandboxView& other)
{
    appendUnique(&writable, other.writable);
    appendUnique(&readable, other.readable);
    if (workingDirectory.isEmpty())
        workingDirectory = other.workingDirectory;
}

Sandbox Sandbox::detect(Mode mode, const QStringList& hidden, const QString& accountName, QString* why)
{
    Sandbox sandbox;
    why->clear();
    if (mode == Mode::Off) {
        *why = QStringLiteral("the sandbox is off (--sandbox=off): user code runs with the executor's own rights");
        return sandbox;
    }
    QString bwrap = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
    if (bwrap.isEmpty() && QFileInfo(QStringLiteral("/usr/bin/bwrap")).isExecutable())
        bwrap = QStringLiteral("/usr/bin/bwrap");
    if (bwrap.isEmpty()) {
        *why = QStringLiteral("bubblewrap (bwrap) is not installed, so user code runs with the executor's own rights; "
                              "install it with: sudo apt install bubblewrap");
        return sandbox;
    }
    QString warning;
    std::optional<Account> account;
    if (::geteuid() == 0) {
        // Never root inside: a user namespace made by root maps its root to the host's root, which owns the token.
        const QByteArray wanted = accountName.toLocal8Bit();
        const passwd* pw = wanted.isEmpty() ? nullptr : ::getpwnam(wanted.constData());
        if (!pw || pw->pw_uid == 0) {
            pw = ::getpwnam("nobody");
            warning = QStringLiteral("there is no account '%1' (the .deb's trainyard system user; "
                                     "--sandbox-user names another): user code runs as nobody")
                          .arg(accountName);
        }
        if (!pw) {
            *why = QStringLiteral("the executor runs as root and neither '%1' nor nobody is an account of this host, so "
                                  "user code cannot run unprivileged")
                       .arg(accountName);
            return sandbox;
        }
        account = Account { int(pw->pw_uid), int(pw->pw_gid), QString::fromLocal8Bit(pw->pw_name) };
    }
    sandbox.m_hidden = hidden;
    sandbox.m_account = account;
    sandbox.m_home = QDir::homePath();
    sandbox.m_bwrap = bwrap;
    // One sandbox of the kind user code gets, running /bin/true: a kernel without unprivileged user namespaces (or an
    // AppArmor profile that forbids them) refuses here, not at a job's start.
    QProcess probe;
    SandboxView view;
    view.network = false;
    QString error;
    ChildSetup setup;
    if (!sandbox.prepare(&probe, QStringLiteral("/bin/true"), {}, view, setup, &error)) {
        *why = error;
        return Sandbox();
    }
    probe.setProcessChannelMode(QProcess::MergedChannels);
    probe.start();
    const bool finished = probe.waitForFinished(10000);
    if (!finished || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0) {
        *why = QStringLiteral("bubblewrap cannot start a sandbox here (%1: %2), so user code runs with the executor's "
                              "own rights; the kernel must allow unprivileged user namespaces "
                              "(sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0)")
                   .arg(bwrap,
                       finished ? QString::fromLocal8Bit(probe.readAll()).trimmed() : QStringLiteral("no answer in 10 s"));
        probe.kill();
        probe.waitForFinished(1000);
        return Sandbox();
    }
    *why = warning;
    return sandbox;
}

QStringList Sandbox::arguments(const SandboxView& view, const QList<int>& fds) const
{
    QStringList a;
    // As root, bubblewrap makes the mounts as root (it resolves each bound path by name, so the account need not reach
    // the data folder under /root) and the command drops to the account itself (command()); a user namespace made by
    // root would map its root to the host's. Otherwise an unprivileged user namespace, the executor's user mapped.
    if (!m_account)
        a << QStringLiteral("--unshare-user");
    a << QStringLiteral("--unshare-pid") << QStringLiteral("--unshare-ipc") << QStringLiteral("--unshare-uts")
      << QStringLiteral("--unshare-cgroup-try") << QStringLiteral("--die-with-parent");
    if (!view.network)
        a << QStringLiteral("--unshare-net");
    a << QStringLiteral("--ro-bind") << QStringLiteral("/usr") << QStringLiteral("/usr");
    for (const char* folder : SystemFolders) {
        const QString path = QLatin1String(folder);
        const QFileInfo info(path);
        if (info.isSymLink())
            a << QStringLiteral("--symlink") << info.symLinkTarget().remove(0, 1) << path; // "usr/lib", relative
        else if (info.isDir())
            a << QStringLiteral("--ro-bind") << path << path;
    }
    a << QStringLiteral("--ro-bind") << QStringLiteral("/etc") << QStringLiteral("/etc");
    a << QStringLiteral("--ro-bind-try") << QStringLiteral("/opt") << QStringLiteral("/opt");
    a << QStringLiteral("--ro-bind-try") << QStringLiteral("/sys") << QStringLiteral("/sys");
    a << QStringLiteral("--proc") << QStringLiteral("/proc") << QStringLiteral("--dev") << QStringLiteral("/dev");
    // bubblewrap's /dev/shm is root's 0755: the sandbox user could not make shared memory or a semaphore there
    // (PyTorch's DataLoader workers, multiprocessing, joblib). A tmpfs of the sandbox's own, sticky and writable.
    a << QStringLiteral("--perms") << QStringLiteral("01777") << QStringLiteral("--tmpfs") << QStringLiteral("/dev/shm");
    if (view.gpus) {
        const QStringList devices
            = QDir(QStringLiteral("/dev")).entryList({ QStringLiteral("nvidia*") }, QDir::System | QDir::AllEntries);
        for (const QString& d : devices) {
            const QString path = QStringLiteral("/dev/") + d;
            a << QStringLiteral("--dev-bind-try") << path << path;
        }
    }
    // Programs write caches under $HOME (torch, matplotlib, pip) and temporary files: empty ones of its own, writable
    // by whichever account runs inside (1777, as /tmp), gone with the sandbox.
    QStringList scratch { QStringLiteral("/tmp"), QStringLiteral("/var/tmp") };
    if (!m_home.isEmpty() && m_home != QLatin1String("/"))
        scratch << m_home;
    for (const QString& folder : std::as_const(scratch))
        a << QStringLiteral("--perms") << QStringLiteral("01777") << QStringLiteral("--tmpfs") << folder;
    int next = 0;
    // Writable first: a readable path inside a writable folder (a batch job's plan in its state folder) is bound over
    // it, read-only, and cannot be replaced either (a mount point cannot be renamed over).
    for (const QString& path : view.writable)
        a << QStringLiteral("--bind-fd") << QString::number(fds.value(next++)) << path;
    for (const QString& path : view.readable)
        a << QStringLiteral("--ro-bind-fd") << QString::number(fds.value(next++)) << path;
    // A hidden folder under a bound one (the data folder in /etc, say) is covered: bind mounts do not hide what lies
    // beneath them.
    QStringList bound { QStringLiteral("/usr"), QStringLiteral("/etc"), QStringLiteral("/opt"), QStringLiteral("/sys") };
    bound << view.readable << view.writable;
    for (const QString& hidden : m_hidden) {
        if (hidden.isEmpty())
            continue;
        bool under = false;
        for (const QString& b : std::as_const(bound))
            under = under || (sameOrInside(b, hidden) && hidden != b);
        if (!under || !QFileInfo::exists(hidden))
            continue;
        if (QFileInfo(hidden).isDir())
            a << QStringLiteral("--tmpfs") << hidden;
        else
            a << QStringLiteral("--ro-bind") << QStringLiteral("/dev/null") << hidden;
    }
    // The parents of bound folders are made in the sandbox's own root with the host's modes (/root is 0700): each is
    // made traversable (0755: it is an empty folder of the sandbox, holding only the bound one), or the account could
    // not reach what it was given.
    QStringList parents;
    for (const QString& path : view.writable + view.readable) {
        for (QString p = QFileInfo(path).path(); p != QLatin1String("/") && !p.isEmpty(); p = QFileInfo(p).path()) {
            bool real = false;
            for (const QString& b : std::as_const(bound))
                real = real || sameOrInside(b, p);
            if (real)
                break;
            if (!scratch.contains(p) && !parents.contains(p))
                parents << p;
        }
    }
    for (const QString& p : std::as_const(parents))
        a << QStringLiteral("--chmod") << QStringLiteral("0755") << p;
    // The account's switch needs these two, and nothing else: the command drops them at once (command()).
    if (m_account)
        a << QStringLiteral("--cap-add") << QStringLiteral("CAP_SETUID") << QStringLiteral("--cap-add")
          << QStringLiteral("CAP_SETGID");
    // The root is bubblewrap's own tmpfs (the parents of bound folders are made in it): read-only once set up, so
    // that what user code writes lands only in its bound folders, /tmp, /var/tmp and $HOME, all of them its own.
    a << QStringLiteral("--remount-ro") << QStringLiteral("/");
    if (!view.workingDirectory.isEmpty())
        a << QStringLiteral("--chdir") << view.workingDirectory;
    return a;
}

QStringList Sandbox::command(const QString& program, const QStringList& arguments) const
{
    QStringList c;
    if (m_account)
        // util-linux's setpriv: the account, no supplementary groups, no capabilities (none to inherit, none to
        // regain), and no privileges from set-user-ID programs either.
        c << QStringLiteral("/usr/bin/setpriv") << QStringLiteral("--reuid=%1").arg(m_account->uid)
          << QStringLiteral("--regid=%1").arg(m_account->gid) << QStringLiteral("--clear-groups")
          << QStringLiteral("--inh-caps=-all") << QStringLiteral("--bounding-set=-all") << QStringLiteral("--no-new-privs");
    // SIGTERM was ignored for bubblewrap (ChildSetup::ignoreTerm): the command gets it again.
    c << QStringLiteral("/usr/bin/env") << QStringLiteral("--default-signal=TERM") << program << arguments;
    return c;
}

void Sandbox::setSharedReadable(const QStringList& paths)
{
    m_shared.clear();
    for (const QString& path : paths) {
        bool touches = path.isEmpty() || !QFileInfo::exists(path);
        for (const QString& hidden : std::as_const(m_hidden))
            touches = touches || (!hidden.isEmpty() && (sameOrInside(path, hidden) || sameOrInside(hidden, path)));
        if (!touches && !m_shared.contains(path))
            m_shared << path;
    }
}

bool Sandbox::prepare(QProcess* process, const QString& program, const QStringList& arguments,
    const SandboxView& view, ChildSetup setup, QString* error) const
{
    if (!isActive()) {
        process->setProgram(program);
        process->setArguments(arguments);
        if (!view.workingDirectory.isEmpty())
            process->setWorkingDirectory(view.workingDirectory);
        makeOwnProcessGroup(process, setup);
        return true;
    }
    // Each path once: the same folder named twice (the job dir as an argument too) is bound once, writable winning.
    SandboxView v = view;
    appendUnique(&v.readable, m_shared);
    for (const QString& w : std::as_const(v.writable))
        v.readable.removeAll(w);
    const QStringList paths = v.writable + v.readable;
    QList<int> fds;
    for (const QString& path : std::as_const(paths)) {
        // A job's own folders lie in the data folder (a replica's, its staging, a version's copy of its model): the
        // executor binds those on purpose. What it never binds is a path that is or holds one of its own folders.
        for (const QString& hidden : m_hidden) {
            if (!hidden.isEmpty() && sameOrInside(path, hidden)) {
                for (const int fd : std::as_const(fds))
                    ::close(fd);
                *error = QStringLiteral("%1 is or holds one of the executor's own folders (%2), which no sandbox "
                                        "may see")
                             .arg(path, hidden);
                return false;
            }
        }
        // O_PATH: the executor need not read the path, only name it; bwrap binds /proc/self/fd/N.
        const int fd = ::open(QFile::encodeName(path).constData(), O_PATH | O_CLOEXEC);
        if (fd < 0) {
            const QString why = QString::fromLocal8Bit(std::strerror(errno));
            for (const int f : std::as_const(fds))
                ::close(f);
            *error = QStringLiteral("cannot give the sandbox %1: %2").arg(path, why);
            return false;
        }
        fds << fd;
    }
    // A token in the executor's environment (a user's TRAINYARD_TOKEN for trainyardctl) is a credential, not the job's.
    QProcessEnvironment env = process->processEnvironment();
    if (env.isEmpty())
        env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("TRAINYARD_TOKEN"));
    process->setProcessEnvironment(env);
    QStringList args = this->arguments(v, fds);
    args << QStringLiteral("--") << command(program, arguments);
    process->setProgram(m_bwrap);
    process->setArguments(args);
    // bwrap itself starts where the executor is (it changes into the working folder inside, --chdir).
    process->setWorkingDirectory(QStringLiteral("/"));
    setup.inheritFds += fds;
    setup.ignoreTerm = true;
    makeOwnProcessGroup(process, setup);
    auto* held = new BoundDescriptors(fds, process);
    QObject::connect(process, &QProcess::started, held, [held] { held->deleteLater(); held->closeAll(); });
    QObject::connect(process, &QProcess::errorOccurred, held, [held](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            held->closeAll();
            held->deleteLater();
        }
    });
    return true;
}

bool Sandbox::handOver(const QString& path, QString* error) const
{
    if (!m_account || ::geteuid() != 0 || path.isEmpty())
        return true;
    const auto give = [this, error](const QString& entry) {
        struct stat st { };
        const QByteArray native = QFile::encodeName(entry);
        if (::lstat(native.constData(), &st) != 0 || st.st_uid != 0)
            return true; // gone, or someone else's: whoever made it decided who writes to it
        if (!S_ISDIR(st.st_mode) && st.st_nlink > 1)
            return true; // a hard link may be another file's name too
        if (::lchown(native.constData(), uid_t(m_account->uid), gid_t(m_account->gid)) == 0)
            return true;
        if (error)
            *error = QStringLiteral("cannot give %1 to %2: %3")
                         .arg(entry, m_account->name, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    };
    bool ok = give(path);
    if (QFileInfo(path).isDir() && !QFileInfo(path).isSymLink()) {
        QDirIterator it(path, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
            QDirIterator::Subdirectories);
        while (it.hasNext())
            ok = give(it.next()) && ok;
    }
    return ok;
}

} // namespace Trainyard
