// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "nodecapacity.h"

#include <QMap>
#include <QStringList>

namespace Trainyard::Test {

/// The room a running job leaves on a host, `vcpus` CPUs, for prediction nodes (tst_versionnodes): a node fits
/// while the reserved vCPUs stay within it (LocalBackend's rule while a job holds a reservation); a Need::Required node
/// is granted beyond it, with an oversubscription text, as LocalBackend does. It records every reservation and release,
/// so a test can check that a node holds its machine type exactly while its process lives.
class FakeNodeCapacity : public NodeCapacity {
public:
    explicit FakeNodeCapacity(int vcpus)
        : vcpus(vcpus)
    {
    }

    int vcpus;
    QMap<QString, int> held; ///< node ID → its vCPUs
    QStringList reserved; ///< every granted reservation's node ID, in order
    QStringList released; ///< every release of a held reservation, in order
    int refusals = 0;

    int inUse() const
    {
        int sum = 0;
        for (int v : held)
            sum += v;
        return sum;
    }

    Grant reserveNode(const QString& node, int nodeVcpus, Bytes, Need need) override
    {
        held.remove(node);
        const bool fits = inUse() + nodeVcpus <= vcpus;
        Grant grant;
        const QString text = QStringLiteral("%1 of %2 vCPUs reserved").arg(inUse()).arg(vcpus);
        if (!fits && need == Need::IfFits) {
            ++refusals;
            grant.refused = text;
            return grant;
        }
        held.insert(node, nodeVcpus);
        reserved << node;
        grant.granted = true;
        if (!fits)
            grant.oversubscribes = text;
        return grant;
    }

    void releaseNode(const QString& node) override
    {
        if (held.remove(node) > 0)
            released << node;
    }
};

} // namespace Trainyard::Test
