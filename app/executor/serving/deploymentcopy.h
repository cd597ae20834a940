// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QString>

#include <atomic>

namespace Trainyard {

/// What a version's copy of its model may hold: the service's limits on a model's files ("Model files … at most
/// 1000 files"; a model of at most 500 MB on the legacy MLS1 machine types and 10 GB on Compute Engine (N1) types,
/// "Online prediction: machine types"), which here also bound what one deploy may take of the data disk.
struct DeploymentQuota {
    int maxFiles = 1000;
    qint64 maxBytes = qint64(500) * 1000 * 1000;
    /// The quota of a version of `machineType` ("" or mls1-…: 500 MB; n1-…: 10 GB).
    static DeploymentQuota forMachineType(const QString& machineType);
};

/// Copies a version's deploymentUri (`source`, a folder) to `target` in the executor's data folder, so that a deployed
/// model never changes under it (app/executor/API.md "Models and versions"). Thread-safe; runs on the thread pool.
///
/// The copy goes to `target`.partial and is renamed to `target` when whole; on any failure (the quota, a refused file,
/// a full disk, `cancelled`) the partial copy is removed, so a failed deploy leaves nothing behind. As the checkpoint
/// rule does, what the folder holds must be its own files: a symbolic link is copied as the file it leads to only when
/// that file lies in the folder too; a link that leaves the folder, a file with more than one name (a hard link may be
/// another folder's file), and anything that is not a file or a folder (a device, a FIFO, a socket) are refused,
/// naming the file. Returns "" or why not (one sentence, naming the file or the limit).
QString copyDeployment(
    const QString& source, const QString& target, const DeploymentQuota& quota, const std::atomic_bool* cancelled);

} // namespace Trainyard
