// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace Trainyard::Formats {

/// A safe reader of Python pickles: it builds a tree of plain data and never runs code.
///
/// Covers the opcodes `torch.save` emits (protocol 2) and the common ones of protocols 3–5
/// (Python's Lib/pickletools.py is the reference). `GLOBAL`/`STACK_GLOBAL` are accepted only
/// for a fixed list of names (see isAllowedGlobal()) and become `Global` nodes; `REDUCE`,
/// `NEWOBJ` and `BUILD` are recorded as `Call`/`state`, never performed. The one exception is
/// `collections.OrderedDict()`, which becomes a `Dict` so `SETITEMS` can fill it, as in Python.
/// Anything else is an error naming the opcode (and its byte offset) or the global.
///
/// Nodes live in one array and refer to each other by index, so a hostile pickle with shared
/// or cyclic references cannot cause deep recursive destruction or leaks; the allocation is
/// bounded by the input (each opcode makes at most one node; lengths are checked against the
/// bytes left before anything is allocated).
class PickleReader {
public:
    enum class Kind {
        None,
        Bool,
        Int,
        Float,
        String,
        Bytes,
        List,
        Tuple,
        Dict,
        Set,
        Global, ///< `text` = module, `name` = qualified name
        Call, ///< items = [callable, args]; REDUCE and NEWOBJ
        PersistentId, ///< items = [pid]
    };

    /// Kept small (64 bytes): a checkpoint's pickle has ~10 nodes per tensor. Text lives in
    /// Pickle::strings, bytes in Pickle::blobs.
    struct Node {
        Kind kind = Kind::None;
        bool boolean = false;
        bool bigInt = false; ///< an integer that did not fit into 64 bits (integer holds 0)
        int state = -1; ///< BUILD state applied to this node, -1 when none
        int text = -1; ///< String: its text; Global: the module (index into Pickle::strings)
        int name = -1; ///< Global: the qualified name (index into Pickle::strings)
        int blob = -1; ///< Bytes: index into Pickle::blobs
        qint64 integer = 0;
        double real = 0;
        std::vector<int> items; ///< List/Tuple/Set elements; Dict keys and values alternating; Call/PersistentId
    };

    struct Pickle {
        std::vector<Node> nodes;
        std::vector<QString> strings;
        std::vector<QByteArray> blobs;
        int root = -1;
        const Node& at(int index) const { return nodes[size_t(index)]; }
        /// The text of a String node or a Global's module; empty for other nodes.
        const QString& text(const Node& node) const { return node.text < 0 ? m_empty : strings[size_t(node.text)]; }
        /// A Global's qualified name; empty for other nodes.
        const QString& name(const Node& node) const { return node.name < 0 ? m_empty : strings[size_t(node.name)]; }

    private:
        QString m_empty;
    };

    /// Parses one pickle from the start of `data` up to its STOP opcode.
    static std::optional<Pickle> parse(QByteArrayView data, QString* error);

    /// The globals a checkpoint may name: collections.OrderedDict; torch._utils'
    /// _rebuild_tensor(_v2), _rebuild_parameter(_with_state); torch.<Type>Storage; torch.device,
    /// torch.Size and torch dtypes; builtins set/frozenset/slice; _codecs.encode;
    /// numpy.core.multiarray.scalar/_reconstruct, numpy.dtype, numpy.ndarray; argparse.Namespace.
    static bool isAllowedGlobal(const QString& module, const QString& name);
};

} // namespace Trainyard::Formats
