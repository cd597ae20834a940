// SPDX-License-Identifier: GPL-2.0-or-later
#include "containerhost.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>

#include <sys/resource.h>

#include <algorithm>

namespace Trainyard {

namespace {

/// podman itself lowers its RLIMIT_NPROC to this at start, so a container cannot be given more.
constexpr rlim_t PodmanNprocCap = 32768;

/// Runs podman with `args`; returns its stdout, or nothing (with `*error` = its stderr or why it did not run).
std::optional<QByteArray> podman(
    const Launch::ContainerRuntime& runtime, const QStringList& args, int timeoutMs, QString* error = nullptr)
{
    QProcess p;
    // conmon drops an `oom` file in its client's working folder after an OOM kill (containers/conmon#504):
    // not in the executor's.
    p.setWorkingDirectory(QDir::tempPath());
    p.start(runtime.podman, runtime.globalArgs + args);
    if (!p.waitForStarted(timeoutMs) || !p.waitForFinished(timeoutMs)) {
        if (error)
            *error = p.errorString();
        p.kill();
        p.waitForFinished(1000);
        return std::nullopt;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        if (error)
            *error = QString::fromUtf8(p.readAllStandardError()).trimmed();
        return std::nullopt;
    }
    return p.readAllStandardOutput();
}

QString findProgram(const QString& name)
{
    QString path = QStandardPaths::findExecutable(name);
    if (path.isEmpty())
        path = QStandardPaths::findExecutable(name, { QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"),
                                                        QStringLiteral("/usr/local/bin"), QStringLiteral("/sbin") });
    return path;
}

} // namespace

Launch::ContainerRuntime ContainerHost::detect()
{
    Launch::ContainerRuntime runtime;
    runtime.podman = findProgram(QStringLiteral("podman"));
    if (runtime.podman.isEmpty())
        return runtime;
    const QString runc = findProgram(QStringLiteral("runc"));
    if (!runc.isEmpty())
        runtime.globalArgs << QStringLiteral("--runtime") << runc;
    rlimit files {};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_max != RLIM_INFINITY) {
        const QString n = QString::number(qulonglong(files.rlim_max));
        runtime.runArgs << QStringLiteral("--ulimit") << QStringLiteral("nofile=%1:%1").arg(n);
    }
    rlimit procs {};
    rlim_t nproc = PodmanNprocCap;
    if (getrlimit(RLIMIT_NPROC, &procs) == 0 && procs.rlim_max != RLIM_INFINITY)
        nproc = std::min(nproc, procs.rlim_max);
    runtime.runArgs << QStringLiteral("--ulimit") << QStringLiteral("nproc=%1:%1").arg(qulonglong(nproc));
    return runtime;
}

QList<LocalImage> ContainerHost::images(const Launch::ContainerRuntime& runtime, QString* error)
{
    if (runtime.podman.isEmpty()) {
        if (error)
            *error = QCoreApplication::translate("Trainyard::ContainerHost", "podman is not installed on the executor's host.");
        return {};
    }
    const std::optional<QByteArray> out = podman(runtime, { QStringLiteral("images"), QStringLiteral("--format"), QStringLiteral("json") }, 30000, error);
    if (!out)
        return {};
    QList<LocalImage> list;
    const QJsonArray array = QJsonDocument::fromJson(*out).array();
    for (const QJsonValue& v : array) {
        const QJsonObject o = v.toObject();
        LocalImage image;
        image.id = o.value(QLatin1String("Id")).toString();
        for (const QJsonValue& n : o.value(QLatin1String("Names")).toArray())
            image.names << n.toString();
        image.sizeBytes = qint64(o.value(QLatin1String("Size")).toDouble());
        image.created = QDateTime::fromSecsSinceEpoch(qint64(o.value(QLatin1String("Created")).toDouble())).toUTC()
                            .toString(Qt::ISODate);
        list << image;
    }
    std::stable_sort(list.begin(), list.end(), [](const LocalImage& a, const LocalImage& b) { return a.created > b.created; });
    return list;
}

bool ContainerHost::imageExists(const Launch::ContainerRuntime& runtime, const QString& reference)
{
    return !runtime.podman.isEmpty()
        && podman(runtime, { QStringLiteral("image"), QStringLiteral("exists"), reference }, 30000).has_value();
}

bool ContainerHost::hasNvidiaCdi(const QStringList& cdiDirs)
{
    const QStringList dirs = cdiDirs.isEmpty() ? QStringList { QStringLiteral("/etc/cdi"), QStringLiteral("/var/run/cdi") } : cdiDirs;
    // A CDI spec names its device kind on a top-level `kind:` line (YAML) or as "kind" (JSON).
    static const QRegularExpression kind(QStringLiteral(R"((^|[\n,{])\s*"?kind"?\s*:\s*"?nvidia\.com/gpu"?)"));
    for (const QString& dir : dirs) {
        const QFileInfoList specs = QDir(dir).entryInfoList(
            { QStringLiteral("*.yaml"), QStringLiteral("*.yml"), QStringLiteral("*.json") }, QDir::Files | QDir::Readable);
        for (const QFileInfo& spec : specs) {
            QFile f(spec.absoluteFilePath());
            if (f.size() < 4 * 1024 * 1024 && f.open(QIODevice::ReadOnly) && kind.match(QString::fromUtf8(f.readAll())).hasMatch())
                return true;
        }
    }
    return false;
}

FieldViolations ContainerHost::violations(const TrainingInput& input, const Launch::ContainerRuntime& runtime)
{
    FieldViolations v;
    const struct {
        const char* field;
        const char* role;
        const std::optional<ReplicaConfig>* config;
        bool present;
    } roles[] = {
        { "masterConfig", "master", &input.masterConfig, true },
        { "workerConfig", "worker", &input.workerConfig, input.workerCount.value_or(0) > 0 },
        { "parameterServerConfig", "ps", &input.parameterServerConfig, input.parameterServerCount.value_or(0) > 0 },
        { "evaluatorConfig", "evaluator", &input.evaluatorConfig, input.evaluatorCount.value_or(0) > 0 },
    };
    QSet<QString> checked;
    for (const auto& r : roles) {
        const ContainerSpec spec = containerFor(input, QLatin1String(r.role));
        if (!r.present || spec.isEmpty())
            continue;
        // The violation goes on the config that names the image (a worker may run the master's).
        const bool own = r.config->has_value() && !(*r.config)->imageUri.isEmpty();
        const QString field = QStringLiteral("trainingInput.") + QLatin1String(own ? r.field : "masterConfig");
        if (runtime.podman.isEmpty()) {
            if (!checked.contains(QString()))
                v.append({ field + QStringLiteral(".imageUri"),
                    QCoreApplication::translate("Trainyard::ContainerHost", "Custom containers need podman on the executor's host, and it is not installed "
                       "(Debian/Ubuntu: apt install podman runc).") });
            checked.insert(QString());
            continue;
        }
        if (!checked.contains(spec.image)) {
            checked.insert(spec.image);
            if (!imageExists(runtime, spec.image))
                //: %1 is an image reference (localhost/trainer:1).
                v.append({ field + QStringLiteral(".imageUri"),
                    QCoreApplication::translate("Trainyard::ContainerHost", "The image \"%1\" is not in the executor host's local image store; build or load it first "
                       "(podman build -t …, podman load) and check with podman images.")
                        .arg(spec.image) });
        }
        const std::optional<ReplicaConfig>& accelerated = *r.config;
        if (accelerated && accelerated->acceleratorConfig && accelerated->acceleratorConfig->count.value_or(0) > 0
            && !hasNvidiaCdi())
            v.append({ QStringLiteral("trainingInput.") + QLatin1String(r.field) + QStringLiteral(".acceleratorConfig"),
                QCoreApplication::translate("Trainyard::ContainerHost", "GPUs for a container replica come through CDI, and this host has no NVIDIA CDI spec in /etc/cdi or "
                   "/var/run/cdi: install the NVIDIA Container Toolkit and run nvidia-ctk cdi generate "
                   "--output=/etc/cdi/nvidia.yaml.") });
    }
    return v;
}

QStringList ContainerHost::runContainers(const Launch::ContainerRuntime& runtime, const QString& jobMarker, int timeoutMs)
{
    if (runtime.podman.isEmpty() || jobMarker.isEmpty())
        return {};
    const std::optional<QByteArray> out = podman(runtime,
        { QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("-q"), QStringLiteral("--no-trunc"), QStringLiteral("--filter"),
            QStringLiteral("label=") + Launch::containerFolderLabel() + QLatin1Char('=') + jobMarker },
        timeoutMs);
    if (!out)
        return {};
    return QString::fromUtf8(*out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

int ContainerHost::removeRunContainers(const Launch::ContainerRuntime& runtime, const QString& jobMarker, int timeoutMs)
{
    const QStringList ids = runContainers(runtime, jobMarker, timeoutMs);
    if (ids.isEmpty())
        return 0;
    podman(runtime, QStringList { QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("-t"), QStringLiteral("0") } + ids, timeoutMs);
    return int(ids.size() - runContainers(runtime, jobMarker, timeoutMs).size());
}

} // namespace Trainyard
