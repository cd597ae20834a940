// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>
#include <span>
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
/// bounded by the input (each opcode makes at most one node and one item; lengths are checked
/// against the bytes left before anything is allocated).
///
/// Why the items of every node share one array (Pickle::itemIndices) instead of a vector per node: a
/// 10,000-tensor `torch.save` pickle has 150,000 nodes, and an allocation per tuple, a temporary vector per
/// MARK and a vector destructor per node made the parse cost ~40 ns a node, and its memory (64 bytes a
/// node) page faults that a young VM makes dear (issue 17's list_pt_10000).
class PickleReader {
public:
    enum class Kind : quint8 {
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

    /// Kept small (32 bytes, no allocation of its own): a checkpoint's pickle has ~15 nodes per
    /// tensor. Text lives in Pickle::stringBytes, bytes in Pickle::blobs, items in Pickle::itemIndices.
    struct Node {
        Kind kind = Kind::None;
        bool boolean = false;
        bool bigInt = false; ///< an integer that did not fit into 64 bits (integer holds 0)
        int state = -1; ///< BUILD state applied to this node, -1 when none
        /// String: its text; Global: the module, and the qualified name at text + 1 (indices into Pickle::strings;
        /// read them with Pickle::text() and Pickle::name(), or their UTF-8 bytes with utf8() and nameUtf8())
        int text = -1;
        int blob = -1; ///< Bytes: index into Pickle::blobs
        /// Pickle::items(): List/Tuple/Set elements; Dict keys and values alternating; Call: [callable, args];
        /// PersistentId: [pid]. Node indices, at Pickle::itemIndices[firstItem, firstItem + itemCount).
        int firstItem = 0;
        int itemCount = 0;
        union {
            qint64 integer = 0; ///< Int
            double real; ///< Float
        };
    };

    /// Where a text's UTF-8 bytes lie in Pickle::stringBytes.
    struct TextRange {
        int offset = 0;
        int size = 0;
    };

    struct Pickle {
        std::vector<Node> nodes;
        std::vector<int> itemIndices; ///< every node's items, one range per node (see Node::firstItem)
        /// The UTF-8 bytes of every text (String nodes, Globals' modules and names) back to back, copied from
        /// the pickle: one allocation instead of a QString each (20,000 of them for 10,000 tensors).
        QByteArray stringBytes;
        std::vector<TextRange> strings;
        std::vector<QByteArray> blobs;
        int root = -1;
        const Node& at(int index) const { return nodes[size_t(index)]; }
        /// The node indices `node` holds (see Node::firstItem).
        std::span<const int> items(const Node& node) const
        {
            return { itemIndices.data() + node.firstItem, size_t(node.itemCount) };
        }
        /// The UTF-8 bytes of a String node's text or a Global's module; empty for other nodes. Valid while
        /// the Pickle lives.
        QByteArrayView utf8(const Node& node) const
        {
            return node.text < 0 || (node.kind != Kind::String && node.kind != Kind::Global) ? QByteArrayView()
                                                                                             : range(node.text);
        }
        /// The UTF-8 bytes of a Global's qualified name; empty for other nodes.
        QByteArrayView nameUtf8(const Node& node) const
        {
            return node.kind != Kind::Global ? QByteArrayView() : range(node.text + 1);
        }
        /// utf8() as a QString.
        QString text(const Node& node) const { return QString::fromUtf8(utf8(node)); }
        /// nameUtf8() as a QString.
        QString name(const Node& node) const { return QString::fromUtf8(nameUtf8(node)); }

    private:
        QByteArrayView range(int index) const
        {
            const TextRange& r = strings[size_t(index)];
            return QByteArrayView(stringBytes.constData() + r.offset, r.size);
        }
    };

    /// Parses one pickle from the start of `data` up to its STOP opcode. `torchScriptClasses`: also accept the
    /// `__torch__.…` classes of a TorchScript archive's data.pkl (torch.jit.save), as Global nodes that NEWOBJ
    /// makes into Calls whose BUILD state holds their attributes; nothing is ever called.
    static std::optional<Pickle> parse(QByteArrayView data, QString* error, bool torchScriptClasses = false);

    /// The globals a checkpoint may name: collections.OrderedDict; torch._utils'
    /// _rebuild_tensor(_v2), _rebuild_parameter(_with_state); torch.<Type>Storage; torch.device,
    /// torch.Size and torch dtypes; builtins set/frozenset/slice; _codecs.encode;
    /// numpy.core.multiarray.scalar/_reconstruct, numpy.dtype, numpy.ndarray; argparse.Namespace.
    static bool isAllowedGlobal(const QString& module, const QString& name);
};

} // namespace Trainyard::Formats
