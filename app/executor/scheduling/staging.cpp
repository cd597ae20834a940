// SPDX-License-Identifier: GPL-2.0-or-later
#include "staging.h"

#include "packagesource.h"

#include "jobfolder.h"

#include "processgroup.h"
#include "runtimelogging.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QRegularExpression>
#include <QUrl>

#include <csignal>

namespace Trainyard {

namespace {

QString defaultInterpreter()
{
    const QString env = qEnvironmentVariable("TRAINYARD_PYTHON");
    return env.isEmpty() ? QStringLiteral("/usr/bin/python3") : env;
}

/// Copies a package folder, leaving out what a build or VCS leaves there (build/, dist/, *.egg-info,
/// __pycache__, hidden entries), which pip would otherwise pick up or trip over.
bool copyPackageDir(const QString& from, const QString& to, QString* error)
{
    const QDir src(from);
    if (!QDir().mkpath(to)) {
        *error = QStringLiteral("cannot create %1").arg(to);
        return false;
    }
    const QFileInfoList entries = src.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::System);
    for (const QFileInfo& e : entries) {
        const QString name = e.fileName();
        if (name.startsWith(QLatin1Char('.')) || name == QLatin1String("__pycache__")
            || name.endsWith(QLatin1String(".egg-info"))
            || (e.isDir() && (name == QLatin1String("build") || name == QLatin1String("dist"))))
            continue;
        const QString target = to + QLatin1Char('/') + name;
        if (e.isDir() && !e.isSymLink()) {
            if (!copyPackageDir(e.absoluteFilePath(), target, error))
                return false;
        } else if (e.isFile()) {
            if (!QFile::copy(e.absoluteFilePath(), target)) {
                *error = QStringLiteral("cannot copy %1 to %2").arg(e.absoluteFilePath(), target);
                return false;
            }
        }
    }
    return true;
}

/// Adds `path`'s files under `relative` to `hash`, in name order: each file's relative path and size, then its
/// bytes. Returns false once more than `*budget` bytes were read.
bool hashTree(const QString& path, const QString& relative, QCryptographicHash* hash, qint64* budget)
{
    const QFileInfoList entries = QDir(path).entryInfoList(
        QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
    for (const QFileInfo& e : entries) {
        const QString name = relative.isEmpty() ? e.fileName() : relative + QLatin1Char('/') + e.fileName();
        if (e.isDir() && !e.isSymLink()) {
            hash->addData(QByteArrayView("d\0"));
            hash->addData(QByteArray(name.toUtf8() + '\0'));
            if (!hashTree(e.absoluteFilePath(), name, hash, budget))
                return false;
            continue;
        }
        QFile file(e.absoluteFilePath());
        *budget -= e.size();
        if (*budget < 0 || !file.open(QIODevice::ReadOnly))
            return false;
        hash->addData(QByteArrayView("f\0"));
        hash->addData(QByteArray(name.toUtf8() + '\0' + QByteArray::number(e.size()) + '\0'));
        if (!hash->addData(&file))
            return false;
    }
    return true;
}

} // namespace

namespace {
/// The interpreter's own version ("3.11.2"), asked once (about 20 ms) and kept: the console showed the service's
/// nominal "Python 3.7" beside an interpreter that is 3.11 (issue 46 item 17). Empty when it does not run.
QString interpreterVersion(const QString& python)
{
    static QMutex mutex;
    static QHash<QString, QString> known;
    const QMutexLocker lock(&mutex);
    if (auto it = known.constFind(python); it != known.constEnd())
        return *it;
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(python, { QStringLiteral("-c"), QStringLiteral("import sys; print('%d.%d.%d' % sys.version_info[:3])") });
    QString version;
    if (p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) {
        static const QRegularExpression dotted(QStringLiteral("^[0-9]+\\.[0-9]+\\.[0-9]+$"));
        const QString out = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        if (dotted.match(out).hasMatch())
            version = out;
    } else {
        p.kill();
        p.waitForFinished(1000);
    }
    known.insert(python, version);
    return version;
}
} // namespace

QList<RuntimeVersion> runtimeVersions()
{
    const QString python = defaultInterpreter();
    const QString real = interpreterVersion(python);
    QList<RuntimeVersion> list;
    // The service's runtime versions for training (ml.googleapis.com runtime version list).
    list.append({ QStringLiteral("1.15"), { QStringLiteral("3.7") }, python, real });
    for (int minor = 1; minor <= 11; ++minor)
        list.append({ QStringLiteral("2.%1").arg(minor), { QStringLiteral("3.7") }, python, real });
    return list;
}

QJsonArray runtimeVersionsJson()
{
    QJsonArray array;
    for (const RuntimeVersion& v : runtimeVersions()) {
        QJsonObject o;
        o.insert(QStringLiteral("runtimeVersion"), v.runtimeVersion);
        o.insert(QStringLiteral("pythonVersions"), QJsonArray::fromStringList(v.pythonVersions));
        o.insert(QStringLiteral("interpreter"), v.interpreter);
        if (!v.interpreterPythonVersion.isEmpty())
            o.insert(QStringLiteral("interpreterPythonVersion"), v.interpreterPythonVersion);
        array.append(o);
    }
    return array;
}

QString interpreterFor(const TrainingInput& input, QString* error)
{
    if (input.runtimeVersion.isEmpty())
        return defaultInterpreter();
    const QList<RuntimeVersion> all = runtimeVersions();
    for (const RuntimeVersion& v : all) {
        if (v.runtimeVersion != input.runtimeVersion)
            continue;
        if (!input.pythonVersion.isEmpty() && !v.pythonVersions.contains(input.pythonVersion)) {
            *error = QStringLiteral("trainingInput.pythonVersion: runtime version %1 offers Python %2, not %3")
                         .arg(v.runtimeVersion, v.pythonVersions.join(QLatin1String(", ")), input.pythonVersion);
            return {};
        }
        return v.interpreter;
    }
    QStringList names;
    for (const RuntimeVersion& v : all)
        names << v.runtimeVersion;
    *error = QStringLiteral("trainingInput.runtimeVersion: %1 is not a supported runtime version (supported: %2)")
                 .arg(input.runtimeVersion, names.join(QLatin1String(", ")));
    return {};
}

Staging::Staging(const QString& jobFolder, const QString& interpreter, const QStringList& packageUris, QObject* parent)
    : QObject(parent)
    , m_jobFolder(jobFolder)
    , m_interpreter(interpreter)
    , m_packageUris(packageUris)
{
}

Staging::~Staging()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        signalGroup(m_process->processId(), SIGKILL);
        m_process->waitForFinished(1000);
    }
}

QString Staging::stagingDir() const
{
    return JobFolder(m_jobFolder).stagingDir();
}

void Staging::fail(const QString& message)
{
    if (m_done)
        return;
    m_done = true;
    // Emitted from the event loop so that a caller never sees finished() inside start().
    QMetaObject::invokeMethod(
        this, [this, message] { Q_EMIT finished(false, message); }, Qt::QueuedConnection);
}

void Staging::start()
{
    if (m_packageUris.isEmpty()) {
        fail(QStringLiteral("trainingInput.packageUris is empty: nothing to install"));
        return;
    }
    const QString build = JobFolder(m_jobFolder).buildDir();
    const QString tmp = JobFolder(m_jobFolder).tmpDir();
    QDir(build).removeRecursively();
    QDir(stagingDir()).removeRecursively();
    QDir(tmp).removeRecursively();
    if (!QDir().mkpath(stagingDir()) || !QDir().mkpath(build) || !QDir().mkpath(tmp)) {
        fail(QStringLiteral("cannot create the staging folders under %1").arg(m_jobFolder));
        return;
    }
    QStringList packages;
    int n = 0;
    for (const QString& uri : std::as_const(m_packageUris)) {
        QString path = uri;
        if (uri.startsWith(QLatin1String("file:")))
            path = QUrl(uri).toLocalFile();
        else if (uri.contains(QLatin1String("://"))) {
            fail(QStringLiteral("trainingInput.packageUris: %1: only local paths are supported on a workstation")
                     .arg(uri));
            return;
        }
        const PackageSource source = PackageSource::inspect(path);
        if (source.kind == PackageSource::Kind::Missing) {
            fail(QStringLiteral("trainingInput.packageUris: %1 does not exist").arg(uri));
            return;
        }
        if (source.kind == PackageSource::Kind::Unknown && QFileInfo(source.path).isDir()) {
            fail(QStringLiteral("trainingInput.packageUris: %1 has neither setup.py nor pyproject.toml, nor an "
                                "__init__.py (a package folder, as gcloud's --package-path)")
                     .arg(uri));
            return;
        }
        if (source.isFolder()) {
            // pip builds a copy: the project folder (a package folder's parent project, as gcloud builds it), or a
            // package folder beside gcloud's generated setup.py.
            const QString copy = build + QStringLiteral("/src%1").arg(n++);
            QString error;
            bool copied = false;
            if (!source.projectDir.isEmpty()) {
                copied = copyPackageDir(source.projectDir, copy, &error);
            } else {
                QFile setup(copy + QStringLiteral("/setup.py"));
                copied = QDir().mkpath(copy) && setup.open(QIODevice::WriteOnly)
                    && setup.write(PackageSource::generatedSetupPy(source.packageName)) >= 0;
                setup.close();
                if (!copied)
                    error = QStringLiteral("cannot write %1").arg(setup.fileName());
                copied = copied && copyPackageDir(source.path, copy + QLatin1Char('/') + source.packageName, &error);
                if (copied)
                    Q_EMIT outputLine(QStringLiteral("%1 is a package folder without setup.py: building it with a "
                                                     "generated one (package %2), as gcloud does")
                                          .arg(source.path, source.packageName));
            }
            if (!copied) {
                fail(QStringLiteral("trainingInput.packageUris: %1: %2").arg(uri, error));
                return;
            }
            packages << copy;
        } else {
            packages << source.path;
        }
    }

    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setWorkingDirectory(build);

    if (!m_cacheDir.isEmpty() && QDir().mkpath(m_cacheDir)) {
        const QString key = cacheKey(packages);
        if (!key.isEmpty()) {
            m_cacheEntry = m_cacheDir + QLatin1Char('/') + key;
            m_cacheHit = QFileInfo(m_cacheEntry).isDir();
        }
    }
    if (m_cacheHit) {
        // The same packages were installed by this interpreter before: a copy of that install (cp -a keeps the
        // files' times, so Python's bytecode caches stay valid), and the entry is marked used.
        Q_EMIT outputLine(QStringLiteral("Reusing the install of the same package(s) from %1 (no pip run: the "
                                         "packages' files and the interpreter are those of an earlier job)")
                              .arg(m_cacheEntry));
        makeOwnProcessGroup(m_process);
        connect(m_process, &QProcess::readyRead, this, &Staging::readOutput);
        connect(m_process, &QProcess::finished, this, &Staging::onFinished);
        connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                fail(QStringLiteral("cannot start /bin/sh: %1").arg(m_process->errorString()));
        });
        m_process->start(QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"), QStringLiteral("cp -a \"$1/.\" \"$2/\" && touch \"$1\""),
                QStringLiteral("trainyard-staging-cache"), m_cacheEntry, stagingDir() });
        return;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PIP_CONFIG_FILE"), QStringLiteral("/dev/null"));
    env.insert(QStringLiteral("PIP_DISABLE_PIP_VERSION_CHECK"), QStringLiteral("1"));
    env.insert(QStringLiteral("PIP_ROOT_USER_ACTION"), QStringLiteral("ignore"));
    env.insert(QStringLiteral("PIP_NO_INPUT"), QStringLiteral("1"));
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    env.insert(QStringLiteral("TMPDIR"), tmp);
    env.insert(jobMarkerVariable(), m_jobFolder);
    env.remove(QStringLiteral("PYTHONPATH"));
    m_process->setProcessEnvironment(env);
    QStringList args { QStringLiteral("-m"), QStringLiteral("pip"), QStringLiteral("install"),
        QStringLiteral("--no-index"), QStringLiteral("--no-deps"), QStringLiteral("--no-build-isolation"),
        QStringLiteral("--no-cache-dir"), QStringLiteral("--upgrade"), QStringLiteral("--target"), stagingDir() };
    args << packages;
    if (m_sandbox && m_sandbox->isActive()) {
        SandboxView view;
        view.network = false;
        view.writable = { build, stagingDir(), tmp };
        for (const QString& package : std::as_const(packages)) {
            if (!package.startsWith(build + QLatin1Char('/')))
                view.readable << package; // an sdist or a wheel where the user keeps it
        }
        view.workingDirectory = build;
        QString error;
        for (const QString& folder : std::as_const(view.writable)) {
            if (!m_sandbox->handOver(folder, &error)) {
                fail(QStringLiteral("cannot prepare the staging folders for pip: %1").arg(error));
                return;
            }
        }
        if (!m_sandbox->prepare(m_process, m_interpreter, args, view, ChildSetup(), &error)) {
            fail(QStringLiteral("cannot start pip in its sandbox: %1").arg(error));
            return;
        }
    } else {
        m_process->setProgram(m_interpreter);
        m_process->setArguments(args);
        makeOwnProcessGroup(m_process);
    }
    connect(m_process, &QProcess::readyRead, this, &Staging::readOutput);
    connect(m_process, &QProcess::finished, this, &Staging::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            fail(QStringLiteral("cannot start %1: %2").arg(m_interpreter, m_process->errorString()));
    });
    Q_EMIT outputLine(m_interpreter + QLatin1Char(' ') + args.join(QLatin1Char(' ')));
    m_process->start();
}

QString Staging::cacheKey(const QStringList& packages) const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    // What decides pip's result besides the packages: the interpreter (its Python and setuptools) and the
    // options, which are fixed (start()).
    hash.addData(QByteArrayView("trainyard-staging-1\0"));
    hash.addData(QByteArray(m_interpreter.toUtf8() + '\0'));
    qint64 budget = CacheMaxBytes;
    for (const QString& package : packages) {
        const QFileInfo info(package);
        if (info.isDir()) {
            hash.addData(QByteArrayView("package-dir\0"));
            if (!hashTree(package, QString(), &hash, &budget))
                return {};
        } else {
            QFile file(package);
            budget -= info.size();
            if (budget < 0 || !file.open(QIODevice::ReadOnly))
                return {};
            // pip reads the name (name-version.tar.gz, a wheel's tags) as well as the bytes.
            hash.addData(QByteArrayView("package-file\0"));
            hash.addData(QByteArray(info.fileName().toUtf8() + '\0'));
            if (!hash.addData(&file))
                return {};
        }
    }
    return QString::fromLatin1(hash.result().toHex());
}

void Staging::fillCache()
{
    if (m_cacheEntry.isEmpty() || m_cacheHit || QFileInfo::exists(m_cacheEntry))
        return;
    // Least recently used entries beyond CacheEntries go (an entry's mtime is its last use: start() touches it);
    // so do copies left behind by an executor that died while filling.
    QFileInfoList entries
        = QDir(m_cacheDir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time); // newest first
    int kept = 0;
    for (const QFileInfo& e : std::as_const(entries)) {
        const bool partial = e.fileName().contains(QLatin1String(".tmp"));
        if (partial ? e.lastModified().secsTo(QDateTime::currentDateTime()) > 3600 : ++kept >= CacheEntries)
            QDir(e.absoluteFilePath()).removeRecursively();
    }
    // In the background: the job's replicas start meanwhile. A copy under a temporary name, then one rename, so
    // that a reader sees a whole entry or none; when another job filled it first, the rename fails and the copy
    // goes.
    QProcess::startDetached(QStringLiteral("/bin/sh"),
        { QStringLiteral("-c"),
            QStringLiteral(
                "tmp=\"$1.tmp.$$\"; cp -a \"$2\" \"$tmp\" && mv -T \"$tmp\" \"$1\" 2>/dev/null || rm -rf \"$tmp\""),
            QStringLiteral("trainyard-staging-cache"), m_cacheEntry, stagingDir() });
}

void Staging::cancel()
{
    m_cancelled = true;
    if (m_process && m_process->state() != QProcess::NotRunning)
        signalGroup(m_process->processId(), SIGKILL);
    else
        fail(QStringLiteral("cancelled"));
}

void Staging::readOutput()
{
    m_partial += m_process->readAll();
    qsizetype start = 0;
    for (;;) {
        const qsizetype nl = m_partial.indexOf('\n', start);
        if (nl < 0)
            break;
        const QString line = QString::fromUtf8(m_partial.constData() + start, nl - start).trimmed();
        start = nl + 1;
        if (line.isEmpty())
            continue;
        // pip 23 frames a failing build step's own output between "╰─> [N lines of output]" and
        // "[end of output]"; with its "error:"/"ERROR:"/"×" lines that is what a user needs to see.
        if (line.endsWith(QLatin1String("lines of output]"))) {
            m_inOutputBlock = true;
        } else if (line == QLatin1String("[end of output]")) {
            m_inOutputBlock = false;
        } else if (m_inOutputBlock || line.startsWith(QLatin1String("ERROR:"))
            || line.startsWith(QLatin1String("error:")) || line.startsWith(QChar(0x00D7))) {
            m_errors << line;
        }
        m_tail << line;
        if (m_tail.size() > 8)
            m_tail.removeFirst();
        Q_EMIT outputLine(line);
    }
    m_partial.remove(0, start);
}

void Staging::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_partial.isEmpty()) {
        m_partial += '\n'; // pip's last line had no newline
        readOutput();
    }
    if (m_done)
        return;
    if (m_cancelled) {
        fail(QStringLiteral("cancelled"));
        return;
    }
    if (status == QProcess::NormalExit && exitCode == 0) {
        m_done = true;
        fillCache();
        Q_EMIT finished(true, QString());
        return;
    }
    // pip's own errors say what went wrong; its "note:"/"hint:" lines add nothing.
    QStringList meaningful = m_errors.mid(std::max<qsizetype>(0, m_errors.size() - 10));
    if (meaningful.isEmpty())
        meaningful = m_tail.mid(std::max<qsizetype>(0, m_tail.size() - 4));
    const QString why
        = status == QProcess::NormalExit ? QStringLiteral("exit status %1").arg(exitCode) : QStringLiteral("crashed");
    fail(QStringLiteral("Installing the training package with pip failed (%1): %2")
             .arg(why, meaningful.join(QLatin1String(" | "))));
}

bool Staging::copyModule(const QString& packageDir, const QString& module, const QString& stagingDir, QString* error)
{
    const QString from = packageDir + QLatin1Char('/') + module;
    const QString to = stagingDir + QLatin1Char('/') + module;
    QDir(to).removeRecursively();
    QDirIterator it(
        from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
    int copied = 0;
    while (it.hasNext()) {
        const QString file = it.next();
        const QString relative = QDir(from).relativeFilePath(file);
        if (relative.contains(QLatin1String("__pycache__")))
            continue;
        const QString target = to + QLatin1Char('/') + relative;
        QDir().mkpath(QFileInfo(target).absolutePath());
        // QFile::copy reads a symbolic link's target: the copy holds plain files, as pip's install would.
        if (!QFile::copy(file, target)) {
            *error = QStringLiteral("cannot copy %1 to %2").arg(file, target);
            return false;
        }
        ++copied;
    }
    if (copied == 0) {
        *error = QStringLiteral("%1 holds no files").arg(from);
        return false;
    }
    return true;
}

} // namespace Trainyard
