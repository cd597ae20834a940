// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Slurm's compact notations for node lists and task counts, expanded as `scontrol show hostnames` and
// SLURM_TASKS_PER_NODE's readers do (Slurm's src/common/hostlist.c; sbatch(1) "OUTPUT ENVIRONMENT VARIABLES").
// A job's nodes arrive as `"nodes": "node[2-3]"` in `GET …/job/{id}`, and the batch script sees
// SLURM_JOB_NODELIST_HET_GROUP_n and SLURM_TASKS_PER_NODE_HET_GROUP_n in the same notations.

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard::Slurm {

/// Expands a hostlist expression into host names, in order, duplicates kept: `node[2-3],gpu[01-02]` →
/// node2, node3, gpu01, gpu02. Commas separate hosts outside brackets; a bracket holds comma-separated numbers
/// and ranges `a-b` (a ≤ b), and a range keeps the zero padding of its lower bound (`[08-10]` → 08, 09, 10);
/// several bracket groups in one host expand as a product, leftmost slowest (`r[1-2]n[1-2]` → r1n1, r1n2, r2n1,
/// r2n2). An empty expression is no host. Returns nullopt, with *error saying what is wrong, for unbalanced
/// brackets, an empty or non-numeric range, or more than `limit` hosts.
std::optional<QStringList> expandHostlist(QStringView expression, QString* error = nullptr, int limit = 1 << 20);

/// Expands a tasks-per-node string into one count per node: `2` → [2], `1(x2)` → [1, 1], `2(x3),1` → [2, 2, 2, 1].
/// Returns nullopt for anything else (a zero repeat, a negative count, stray text).
std::optional<QList<int>> expandTasksPerNode(QStringView text);

/// One host per task, in block distribution order (the first node's tasks first): the hosts of `nodes` each
/// repeated by its entry of `tasksPerNode`. Returns nullopt when the two lists differ in length.
std::optional<QStringList> hostsPerTask(const QStringList& nodes, const QList<int>& tasksPerNode);

} // namespace Trainyard::Slurm
