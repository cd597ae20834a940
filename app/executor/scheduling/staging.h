// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "job.h"
#include "sandbox.h"

#include <QJsonArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// A runtime version of the service and the interpreter that runs it here.
/// The service pins Python per runtime version (3.7 for the 2.x runtimes); a workstation has one
/// system Python, so every runtime version maps to the same interpreter: a job asking for
/// pythonVersion "3.7" is accepted as the service accepts it and runs on the host's python3.
struct RuntimeVersion {
    QString runtimeVersion; ///< "2.11"
    QStringList pythonVersions; ///< what the service accepts for it: {"3.7"}
    QString interpreter; ///< absolute path, "/usr/bin/python3"
    /// What that interpreter is: "3.11.2" (sys.version_info), asked once per executor; empty when it cannot run.
    /// The service's pythonVersions stay what a job may ask for (its configs carry over); this says what runs.
    QString interpreterPythonVersion;
};

/// The runtime versions this executor accepts (the service's list: 1.15 and 2.1 … 2.11).
/// The interpreter is /usr/bin/python3, or $TRAINYARD_PYTHON when set (for hosts whose system Python
/// lives elsewhere).
QList<RuntimeVersion> runtimeVersions();
/// `/v1/projects/{p}/runtimeVersions` body's array:
/// [{"runtimeVersion":"2.11","pythonVersions":["3.7"],"interpreter":"/usr/bin/python3",
///   "interpreterPythonVersion":"3.11.2"}, …] (the last omitted when the interpreter does not run).
QJsonArray runtimeVersionsJson();
/// The interpreter for a job. Empty runtimeVersion = the default interpreter. Returns an empty string
/// and sets *error (naming the field) for an unknown runtime version or a Python version it does not offer.
QString interpreterFor(const TrainingInput& input, QString* error);

/// Stages a job's training packages with pip, offline, into `<jobFolder>/staging`:
/// `<python> -m pip install --no-index --no-deps --no-build-isolation --upgrade --target <staging> <pkg…>`.
/// A package is a directory with setup.py or pyproject.toml (copied to `<jobFolder>/build/` first, so
/// pip's in-tree build never writes into the user's folder), an sdist (.tar.gz, .zip) or a wheel.
/// pip runs with PIP_CONFIG_FILE=/dev/null, PIP_DISABLE_PIP_VERSION_CHECK=1 and TMPDIR inside the job
/// folder, in its own process group (killed as a group by cancel()).
///
/// Emits outputLine() for every line pip prints, then finished() once. On failure `errorMessage` holds
/// pip's last meaningful lines (its "ERROR:" lines, or the last lines of output).
///
/// With a cache folder (setCacheDir()), what pip installed is kept there under the SHA-256 of its input (the
/// interpreter, and each package's files as pip sees them), and a later job with the same input gets a copy
/// instead of running pip again (seconds per job: every trial of a tuning study, every resubmit). The cache keeps
/// the CacheEntries most recently used installs; an entry appears by an atomic rename, so a job never sees half
/// of one, and a package over CacheMaxBytes is never cached.
class Staging : public QObject {
    Q_OBJECT
public:
    Staging(const QString& jobFolder, const QString& interpreter, const QStringList& packageUris,
        QObject* parent = nullptr);
    ~Staging() override;

    /// `<jobFolder>/staging`, the PYTHONPATH of the replicas.
    QString stagingDir() const;
    /// Keeps and reuses installs in `dir` (created when missing); empty (the default) = pip for every job.
    void setCacheDir(const QString& dir) { m_cacheDir = dir; }
    /// Runs pip (which runs the package's setup.py: user code) in `sandbox` (not owned; null or inactive: as the
    /// executor), seeing only the build, staging and temporary folders (written) and the sdists and wheels it installs
    /// (read), without network.
    void setSandbox(const Sandbox* sandbox) { m_sandbox = sandbox; }
    /// The cache entry this staging used or filled (`<cacheDir>/<sha256 hex>`); empty without a cache, or
    /// before start() hashed the packages.
    QString cacheEntry() const { return m_cacheEntry; }
    /// Whether start() found the packages in the cache (no pip).
    bool cacheHit() const { return m_cacheHit; }
    /// Copies the pure-Python package folder `packageDir/<module>` (symbolic links followed, __pycache__ left out)
    /// into `stagingDir/<module>`, replacing what is there: the bundled trainyard_algorithms for a batch prediction
    /// job, whose workers need it importable and nothing installed (pip's build and install cost a second of every
    /// such job's start). False with *error when a file cannot be copied.
    static bool copyModule(const QString& packageDir, const QString& module, const QString& stagingDir, QString* error);

    static constexpr int CacheEntries = 32;
    static constexpr qint64 CacheMaxBytes = qint64(256) << 20;
    /// Starts pip (asynchronously). finished() follows, also for errors found before pip starts.
    void start();
    /// Kills pip's process group; finished(false, "cancelled") follows.
    void cancel();

Q_SIGNALS:
    void outputLine(const QString& line);
    void finished(bool ok, const QString& errorMessage);

private:
    void fail(const QString& message);
    void readOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);

    /// Hashes `packages` (the build copies of folders, or sdist/wheel files) with the interpreter; empty when
    /// they are over CacheMaxBytes or unreadable.
    QString cacheKey(const QStringList& packages) const;
    /// Copies stagingDir() into the cache (in the background), then drops the least recently used entries.
    void fillCache();

    QString m_jobFolder;
    QString m_cacheDir;
    QString m_cacheEntry;
    bool m_cacheHit = false;
    QString m_interpreter;
    QStringList m_packageUris;
    QProcess* m_process = nullptr;
    const Sandbox* m_sandbox = nullptr;
    QByteArray m_partial;
    QStringList m_tail; // last lines, for the error message
    QStringList m_errors; // "ERROR:" lines
    bool m_inOutputBlock = false;
    bool m_done = false;
    bool m_cancelled = false;
};

} // namespace Trainyard
