// SPDX-License-Identifier: GPL-2.0-or-later
#include "clusterconfig.h"

#include "machinecatalog.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>

#include <yaml-cpp/yaml.h>

namespace Trainyard::Slurm {

namespace {

// The regions AI Platform Training served (gcloud ai-platform's --region list: asia-east1 … us-west1).
const QStringList& serviceRegions()
{
    static const QStringList regions = { QStringLiteral("asia-east1"), QStringLiteral("asia-northeast1"),
        QStringLiteral("asia-southeast1"), QStringLiteral("australia-southeast1"), QStringLiteral("europe-west1"),
        QStringLiteral("europe-west2"), QStringLiteral("europe-west3"), QStringLiteral("europe-west4"),
        QStringLiteral("northamerica-northeast1"), QStringLiteral("us-central1"), QStringLiteral("us-east1"),
        QStringLiteral("us-east4"), QStringLiteral("us-west1"), QStringLiteral("global") };
    return regions;
}

// Every Google Cloud region is named <continent>-<direction><n> ("me-west1", "southamerica-east1"): names of that
// shape are kept free too, so that a region the list above lacks cannot collide with a cluster either.
bool looksLikeRegion(const QString& name)
{
    static const QRegularExpression shape(
        QStringLiteral("^(africa|asia|australia|europe|me|northamerica|southamerica|us)-"
                       "(central|east|north|northeast|northwest|south|southeast|southwest|west)[0-9]+$"));
    return shape.match(name).hasMatch();
}

const QStringList& knownKeys()
{
    static const QStringList keys = { QStringLiteral("name"), QStringLiteral("slurmrestd"), QStringLiteral("user"),
        QStringLiteral("token"), QStringLiteral("tokenCommand"), QStringLiteral("slurmConf"),
        QStringLiteral("partition"), QStringLiteral("sharedDir"), QStringLiteral("account"), QStringLiteral("qos"),
        QStringLiteral("timeLimitMinutes"), QStringLiteral("restVersion"), QStringLiteral("constraints"),
        QStringLiteral("gpuTypes"), QStringLiteral("python") };
    return keys;
}

QString scalar(const YAML::Node& node)
{
    return QString::fromStdString(node.Scalar());
}

// Reads one cluster entry; appends its problems to `problems` (each "FIELD RULE").
ClusterConfig readCluster(const YAML::Node& entry, QStringList* problems)
{
    ClusterConfig c;
    QMap<QString, YAML::Node> fields;
    for (const auto& kv : entry) {
        const QString key = kv.first.IsScalar() ? scalar(kv.first) : QString();
        if (!knownKeys().contains(key)) {
            problems->append(
                QStringLiteral("unknown key '%1' (known: %2)").arg(key, knownKeys().join(QLatin1String(", "))));
            continue;
        }
        fields.insert(key, kv.second);
    }
    // A string field: its text, or "" with a problem when it is not a scalar.
    auto text = [&](const char* key) -> QString {
        const QString k = QLatin1String(key);
        if (!fields.contains(k) || fields.value(k).IsNull())
            return {};
        const YAML::Node node = fields.value(k);
        if (!node.IsScalar()) {
            problems->append(QStringLiteral("%1 must be a string").arg(k));
            return {};
        }
        return scalar(node).trimmed();
    };
    auto absolutePath = [&](const char* key, const QString& value) {
        if (!value.isEmpty() && !value.startsWith(QLatin1Char('/')))
            problems->append(QStringLiteral("%1 must be an absolute path").arg(QLatin1String(key)));
        return value.isEmpty() ? value : QDir::cleanPath(value);
    };

    c.name = text("name");

    const QString url = text("slurmrestd");
    if (url.isEmpty()) {
        problems->append(QStringLiteral("slurmrestd is required (the URL of slurmrestd, e.g. http://host:6820)"));
    } else {
        QUrl u(url, QUrl::StrictMode);
        if (!u.isValid() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
            || u.host().isEmpty() || u.hasQuery() || u.hasFragment()) {
            problems->append(
                QStringLiteral("slurmrestd must be an http:// or https:// URL with a host, e.g. http://host:6820 "
                               "(got '%1')")
                    .arg(url));
        } else {
            QString path = u.path();
            while (path.endsWith(QLatin1Char('/')))
                path.chop(1);
            u.setPath(path);
            c.restUrl = u;
        }
    }

    c.user = text("user");
    static const QRegularExpression userName(QStringLiteral("^[A-Za-z0-9._][A-Za-z0-9._-]*\\$?$"));
    if (c.user.isEmpty())
        problems->append(QStringLiteral("user is required (the Slurm user the jobs run as)"));
    else if (!userName.match(c.user).hasMatch())
        problems->append(
            QStringLiteral("user must be a user name (letters, digits, '.', '_', '-'), got '%1'").arg(c.user));

    c.token = text("token");
    c.tokenCommand = text("tokenCommand");
    if (c.token.isEmpty() == c.tokenCommand.isEmpty()) {
        problems->append(c.token.isEmpty()
                ? QStringLiteral("token or tokenCommand is required (e.g. tokenCommand: scontrol token lifespan=3600)")
                : QStringLiteral("token and tokenCommand exclude each other: keep one"));
    }
    static const QRegularExpression space(QStringLiteral("\\s"));
    if (c.token.contains(space))
        problems->append(QStringLiteral("token must be one word (the JWT)"));

    c.slurmConf = absolutePath("slurmConf", text("slurmConf"));
    c.partition = text("partition");
    c.sharedDir = text("sharedDir");
    if (c.sharedDir.isEmpty())
        problems->append(
            QStringLiteral("sharedDir is required (a folder this host and every node see at the same path)"));
    c.sharedDir = absolutePath("sharedDir", c.sharedDir);
    c.account = text("account");
    c.qos = text("qos");

    const QString limit = text("timeLimitMinutes");
    if (!limit.isEmpty()) {
        bool ok = false;
        c.timeLimitMinutes = limit.toInt(&ok);
        if (!ok || c.timeLimitMinutes <= 0)
            problems->append(
                QStringLiteral("timeLimitMinutes must be a whole number of minutes above 0, got '%1'").arg(limit));
    }

    const QString version = text("restVersion");
    if (!version.isEmpty()) {
        c.restVersion = apiVersionFromName(version);
        if (!c.restVersion) {
            QStringList names;
            for (ApiVersion v : supportedApiVersions())
                names.append(apiVersionName(v));
            problems->append(QStringLiteral("restVersion must be one of %1, got '%2'")
                                 .arg(names.join(QLatin1String(", ")), version));
        }
    }

    if (fields.contains(QStringLiteral("constraints")) && !fields.value(QStringLiteral("constraints")).IsNull()) {
        const YAML::Node map = fields.value(QStringLiteral("constraints"));
        if (!map.IsMap()) {
            problems->append(QStringLiteral("constraints must be a map of machine type to node feature expression"));
        } else {
            for (const auto& kv : map) {
                const QString type = kv.first.IsScalar() ? scalar(kv.first) : QString();
                const QString feature = kv.second.IsScalar() ? scalar(kv.second).trimmed() : QString();
                if (!MachineCatalog::builtin().machineType(type))
                    problems->append(
                        QStringLiteral("constraints: '%1' is not a machine type of the catalog").arg(type));
                else if (feature.isEmpty())
                    problems->append(QStringLiteral("constraints: %1 needs a node feature expression").arg(type));
                else
                    c.constraints.insert(type, feature);
            }
        }
    }

    if (fields.contains(QStringLiteral("gpuTypes")) && !fields.value(QStringLiteral("gpuTypes")).IsNull()) {
        const YAML::Node map = fields.value(QStringLiteral("gpuTypes"));
        if (!map.IsMap()) {
            problems->append(QStringLiteral("gpuTypes must be a map of accelerator type to GRES type"));
        } else {
            static const QRegularExpression gres(QStringLiteral("^[A-Za-z0-9_.-]+$"));
            for (const auto& kv : map) {
                const QString type = kv.first.IsScalar() ? scalar(kv.first) : QString();
                const QString name = kv.second.IsScalar() ? scalar(kv.second).trimmed() : QString();
                if (!MachineCatalog::builtin().acceleratorType(type))
                    problems->append(
                        QStringLiteral("gpuTypes: '%1' is not an accelerator type of the catalog").arg(type));
                else if (!gres.match(name).hasMatch())
                    problems->append(QStringLiteral("gpuTypes: %1 needs a GRES type name (letters, digits, '_', "
                                                    "'.', '-'), got '%2'")
                                         .arg(type, name));
                else
                    c.gpuTypes.insert(type, name);
            }
        }
    }

    const QString python = text("python");
    if (!python.isEmpty())
        c.python = absolutePath("python", python);
    return c;
}

} // namespace

QString ClusterConfig::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
        + QStringLiteral("/trainyard/clusters.yaml");
}

std::optional<QList<ClusterConfig>> ClusterConfig::loadFile(const QString& path, QStringList* errors)
{
    QFile file(path);
    if (!file.exists())
        return QList<ClusterConfig>();
    if (!file.open(QIODevice::ReadOnly)) {
        errors->append(QStringLiteral("%1: cannot read it: %2").arg(path, file.errorString()));
        return std::nullopt;
    }
    return parse(file.readAll(), path, errors);
}

std::optional<QList<ClusterConfig>> ClusterConfig::parse(
    const QByteArray& yaml, const QString& fileName, QStringList* errors)
{
    YAML::Node root;
    try {
        root = YAML::Load(yaml.toStdString());
    } catch (const YAML::Exception& e) {
        errors->append(QStringLiteral("%1:%2:%3: %4")
                           .arg(fileName)
                           .arg(e.mark.line + 1)
                           .arg(e.mark.column + 1)
                           .arg(QString::fromStdString(e.msg)));
        return std::nullopt;
    }
    QList<ClusterConfig> clusters;
    if (root.IsNull())
        return clusters;
    const qsizetype before = errors->size();
    if (!root.IsMap()) {
        errors->append(QStringLiteral("%1: the top level must be a map with a 'clusters' list").arg(fileName));
        return std::nullopt;
    }
    for (const auto& kv : root) {
        const QString key = kv.first.IsScalar() ? scalar(kv.first) : QString();
        if (key != QLatin1String("clusters"))
            errors->append(QStringLiteral("%1: unknown top-level key '%2' (only 'clusters')").arg(fileName, key));
    }
    const YAML::Node list = static_cast<const YAML::Node&>(root)["clusters"];
    if (!list || list.IsNull())
        return errors->size() > before ? std::nullopt : std::optional(clusters);
    if (!list.IsSequence()) {
        errors->append(QStringLiteral("%1: clusters must be a list of clusters ('- name: …')").arg(fileName));
        return std::nullopt;
    }
    QSet<QString> names;
    int index = 0;
    for (const YAML::Node& entry : list) {
        ++index;
        if (!entry.IsMap()) {
            errors->append(QStringLiteral("%1: cluster #%2: must be a map of keys (name, slurmrestd, …)")
                               .arg(fileName)
                               .arg(index));
            continue;
        }
        QStringList problems;
        const ClusterConfig c = readCluster(entry, &problems);
        const QString label
            = c.name.isEmpty() ? QStringLiteral("cluster #%1").arg(index) : QStringLiteral("cluster '%1'").arg(c.name);
        static const QRegularExpression nameRule(QStringLiteral("^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$"));
        if (c.name.isEmpty()) {
            problems.prepend(QStringLiteral("name is required"));
        } else if (!nameRule.match(c.name).hasMatch()) {
            problems.prepend(QStringLiteral("name must be lower-case letters, digits and '-', start with a letter, "
                                            "not end with '-', at most 63 characters"));
        } else if (c.name == QLatin1String("local")) {
            problems.prepend(QStringLiteral("name 'local' is taken by this host's backend"));
        } else if (isReservedName(c.name)) {
            problems.prepend(QStringLiteral("name '%1' is a region of the service; a job's region picks where it "
                                            "runs, so a cluster cannot share a region's name")
                                 .arg(c.name));
        } else if (names.contains(c.name)) {
            problems.prepend(QStringLiteral("name '%1' is used by an earlier cluster").arg(c.name));
        }
        names.insert(c.name);
        for (const QString& p : std::as_const(problems))
            errors->append(QStringLiteral("%1: %2: %3").arg(fileName, label, p));
        clusters.append(c);
    }
    if (errors->size() > before)
        return std::nullopt;
    return clusters;
}

bool ClusterConfig::isReservedName(const QString& name)
{
    return name == QLatin1String("local") || serviceRegions().contains(name) || looksLikeRegion(name);
}

} // namespace Trainyard::Slurm
