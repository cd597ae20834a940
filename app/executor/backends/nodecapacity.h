// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "units.h"

#include <QString>

namespace Trainyard {

/// Where online prediction's nodes reserve what their machine type says (models/prediction.h
/// PredictionMachineType: mls1-c1-m2 is 1 vCPU and 2 GB), beside the replicas of jobs: the host's one admission
/// (models/admission.h), so that `…/host`, the console's status bar, Clusters and the wizard's fit verdict count them
/// and a job that does not fit beside them waits (app/executor/README.md "Prediction nodes and jobs share the host").
///
/// The rule between a version and a job is the rule between two jobs, with one difference that keeps both usable on a
/// small workstation: a node is never the reason a job cannot start alone. So
/// - a job starts when it fits beside every reservation (jobs' and nodes'), or when no other job holds one (nodes do
///   not count as holders: a job alone beside deployed versions starts, oversubscribing the host);
/// - a version's first max(minNodes, 1) nodes, a node started for a request while none runs (a cold start) and a node
///   restarted after a crash start whatever the host holds (Need::Required: a version must load its model to be
///   READY, and a request must find a node); when they oversubscribe, the version's log says so;
/// - a node started for load (every node has requests waiting) follows a job's rule exactly (Need::IfFits): it starts
///   when it fits beside every reservation, or when no job holds one (beside other versions' nodes alone it starts,
///   and the version's log says it oversubscribes); otherwise, while a job runs, the requests wait for the nodes that
///   run, and the version's log says why. So a training job's CPUs are never taken by a load spike.
/// A node's release lets queued jobs start at once. Main thread.
class NodeCapacity {
public:
    enum class Need {
        Required, ///< start it whatever the host holds (oversubscribe, said in Grant::oversubscribes)
        IfFits, ///< a job's rule: start it when it fits beside every reservation, or when no job holds one
    };
    struct Grant {
        bool granted = false;
        /// Granted beyond what the host has free: what is reserved already, for the version's log (empty when it fits).
        QString oversubscribes;
        /// Not granted (Need::IfFits): why, for the version's log.
        QString refused;
    };

    virtual ~NodeCapacity() = default;
    /// Reserves `vcpus` and `memory` for the node `node` (an ID unique on this host while it is held; reserving it
    /// again replaces its reservation) when `need` allows it.
    virtual Grant reserveNode(const QString& node, int vcpus, Bytes memory, Need need) = 0;
    /// Gives the node's reservation back (nothing when it holds none).
    virtual void releaseNode(const QString& node) = 0;
};

} // namespace Trainyard
