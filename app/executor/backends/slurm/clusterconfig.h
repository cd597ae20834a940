// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The Slurm clusters the executor may run jobs on: `$XDG_CONFIG_HOME/trainyard/clusters.yaml` (by default
// ~/.config/trainyard/clusters.yaml). Trainyard's own format, one entry per cluster:
//
//   clusters:
//   - name: testcluster                        # required: [a-z]([-a-z0-9]*[a-z0-9])?, at most 63 characters;
//                                              #   not "local", not a Google Cloud region (a job's region picks it)
//     slurmrestd: http://127.0.0.1:16880       # required: http:// or https:// URL of slurmrestd (path prefix allowed)
//     user: slurmci                            # required: X-SLURM-USER-NAME, the user the jobs run as
//     tokenCommand: scontrol token username=slurmci lifespan=3600   # a shell command printing SLURM_JWT=… (or
//                                              #   the bare token); run again before the token expires
//     token: eyJhbGciOi…                       # or a fixed JWT (exactly one of token and tokenCommand)
//     slurmConf: /tmp/slurm-test/etc/slurm.conf   # optional, absolute: SLURM_CONF for tokenCommand, so its
//                                              #   scontrol talks to this cluster and not to /etc/slurm's
//     partition: debug                         # optional: the partition jobs go to (else the cluster's default)
//     sharedDir: /tmp/slurm-test/jobs          # required, absolute: seen at the same path by this host and every
//                                              #   node; staging, job dirs and logs live under it
//     account: ml                              # optional: Slurm account to charge
//     qos: normal                              # optional: Slurm QOS
//     timeLimitMinutes: 120                    # optional, > 0: time limit of every job (else the partition's)
//     restVersion: v0.0.38                     # optional: use this API version instead of the newest both speak
//     constraints:                             # optional: machine type → Slurm node feature expression
//       n1-standard-4: cpu
//       a2-highgpu-1g: a100
//     gpuTypes:                                # optional: accelerator type → the GRES type of its GPUs on the
//       NVIDIA_TESLA_T4: t4                    #   nodes (`gres: gpu:t4:N`); a type not listed asks for any GPU
//                                              #   (`gpu:N`), as does a cluster without this key
//     python: /usr/bin/python3                 # optional, absolute: the interpreter on the nodes (this default)
//
// Unknown keys are errors (a misspelt key would otherwise be silently ignored).

#include "slurmtypes.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace Trainyard::Slurm {

/// One cluster of clusters.yaml, checked (see the format above).
struct ClusterConfig {
    QString name;
    QUrl restUrl; ///< `slurmrestd`, without a trailing slash
    QString user;
    QString token; ///< a fixed JWT; empty when tokenCommand is set
    QString tokenCommand; ///< run with /bin/sh -c; empty when token is set
    QString slurmConf; ///< exported as SLURM_CONF to tokenCommand; empty: inherited
    QString partition; ///< empty: the cluster's default partition
    QString sharedDir; ///< absolute
    QString account;
    QString qos;
    int timeLimitMinutes = 0; ///< 0: the partition's
    std::optional<ApiVersion> restVersion; ///< nullopt: discovered
    QMap<QString, QString> constraints; ///< machine type (in the machine catalog) → node feature expression
    QMap<QString, QString> gpuTypes; ///< accelerator type (NVIDIA_TESLA_T4 …) → GRES type ("t4")
    QString python = QStringLiteral("/usr/bin/python3");

    bool operator==(const ClusterConfig&) const = default;

    /// `$XDG_CONFIG_HOME/trainyard/clusters.yaml` (XDG_CONFIG_HOME defaults to ~/.config).
    static QString defaultPath();
    /// Reads `path`. A missing file means no clusters (an empty list, no error). On any error returns nullopt and
    /// appends to *errors one line per problem, each naming the file, the cluster and the field with the rule:
    /// "clusters.yaml: cluster 'x': sharedDir must be an absolute path".
    static std::optional<QList<ClusterConfig>> loadFile(const QString& path, QStringList* errors);
    /// As loadFile, from text; `fileName` starts each error line.
    static std::optional<QList<ClusterConfig>> parse(
        const QByteArray& yaml, const QString& fileName, QStringList* errors);
    /// Whether `name` is reserved: "local" (this host's backend) or a region of the service (jobs name their
    /// region, so a cluster with a region's name would make a job's target ambiguous).
    static bool isReservedName(const QString& name);
};

} // namespace Trainyard::Slurm
