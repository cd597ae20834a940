// SPDX-License-Identifier: GPL-2.0-or-later
#include "picklereader.h"

#include <QtEndian>

#include <bit>
#include <cstring>

namespace Trainyard::Formats {

namespace {

using Kind = PickleReader::Kind;
using Node = PickleReader::Node;

// Python's pickle has no limit; a checkpoint's pickle with more than this many open MARKs
// or memo entries is not one torch.save wrote.
constexpr size_t kMaxMarks = 100000;

class Parser {
public:
    Parser(QByteArrayView data, QString* error, bool torchScriptClasses)
        : m_data(data)
        , m_error(error)
        , m_torchScriptClasses(torchScriptClasses)
        // Every BINPUT takes at least 2 bytes, so keys below the input size bound the array.
        , m_denseLimit(quint32(std::min<qsizetype>(data.size(), 1 << 26)))
    {
        // torch.save pickles make about one node and one item per 7 bytes; reserving avoids regrowing (capacity
        // that stays unused is never touched, so it costs no page faults).
        m_pickle.nodes.reserve(size_t(std::min<qsizetype>(data.size() / 4 + 16, 1 << 22)));
        m_pickle.itemIndices.reserve(size_t(std::min<qsizetype>(data.size() / 4 + 16, 1 << 22)));
        // Texts are copied from the input, so they never take more bytes than it has (a Global's two texts are
        // ranges that are already there).
        m_pickle.stringBytes.reserve(data.size());
    }

    std::optional<PickleReader::Pickle> run()
    {
        while (true) {
            if (m_pos >= m_data.size())
                return fail(QStringLiteral("pickle ends without a STOP opcode"));
            m_opPos = m_pos;
            const quint8 op = quint8(m_data[m_pos++]);
            if (op == '.') {
                if (m_stack.size() != 1)
                    return fail(QStringLiteral("STOP with %1 values on the stack (expected 1)").arg(m_stack.size()));
                m_pickle.root = m_stack.back();
                flattenContainers();
                return std::move(m_pickle);
            }
            // The memo opcodes are a third to a half of a torch.save pickle (a BINPUT or LONG_BINPUT after nearly
            // every value, a BINGET for every repeated one): tested before the switch, they take a well-predicted
            // branch instead of the switch's indirect jump, which mispredicted often enough to be a quarter of
            // the parse.
            if (op == 'r' || op == 'q') [[likely]] {
                quint32 key = 0;
                if (op == 'r' ? !takeLe(&key) : !takeByte(&key))
                    return std::nullopt;
                if (!memoPut(key))
                    return std::nullopt;
                continue;
            }
            if (op == 'h') {
                quint32 key = 0;
                if (!takeByte(&key) || !memoGet(key))
                    return std::nullopt;
                continue;
            }
            if (!step(op))
                return std::nullopt;
        }
    }

private:
    std::nullopt_t fail(const QString& message)
    {
        if (m_error)
            *m_error = QStringLiteral("pickle byte %1: %2").arg(m_opPos).arg(message);
        return std::nullopt;
    }
    bool error(const QString& message)
    {
        fail(message);
        return false;
    }

    // The helpers below are forced inline: step() is one large switch, and the compiler kept them out of line,
    // a call per opcode or more for 300,000 opcodes in a 10,000-tensor pickle.
    Q_ALWAYS_INLINE bool take(qsizetype n, const char** out)
    {
        if (n < 0 || n > m_data.size() - m_pos)
            return error(QStringLiteral("opcode argument of %1 bytes runs past the end of the data").arg(n));
        *out = m_data.data() + m_pos;
        m_pos += n;
        return true;
    }
    Q_ALWAYS_INLINE bool takeByte(quint32* value)
    {
        quint8 byte;
        if (!takeLe(&byte))
            return false;
        *value = byte;
        return true;
    }
    template <typename T> Q_ALWAYS_INLINE bool takeLe(T* value)
    {
        const char* p;
        if (!take(sizeof(T), &p))
            return false;
        T v;
        std::memcpy(&v, p, sizeof v);
        *value = qFromLittleEndian(v);
        return true;
    }
    bool takeLine(QByteArray* line)
    {
        const qsizetype end = m_data.indexOf('\n', m_pos);
        if (end < 0)
            return error(QStringLiteral("unterminated text argument"));
        *line = m_data.sliced(m_pos, end - m_pos).toByteArray();
        m_pos = end + 1;
        return true;
    }

    // Appends a node of `kind` and returns it to be filled in place (valid until the next node is added).
    // Built in place on purpose: a Node built on the stack field by field and then copied into the vector made
    // the CPU wait on store-to-load forwarding (narrow stores read back by 16-byte loads) for every node.
    Q_ALWAYS_INLINE Node& newNode(Kind kind)
    {
        Node& n = m_pickle.nodes.emplace_back();
        n.kind = kind;
        return n;
    }
    int lastNode() const { return int(m_pickle.nodes.size() - 1); }
    Q_ALWAYS_INLINE int addKind(Kind kind)
    {
        newNode(kind);
        return lastNode();
    }
    // A node whose items are fixed when it is made (Tuple, Call, PersistentId): they go straight to the end of
    // Pickle::itemIndices.
    Q_ALWAYS_INLINE int addFixed(Kind kind, const int* items, size_t count)
    {
        Node& n = newNode(kind);
        n.firstItem = int(m_pickle.itemIndices.size());
        n.itemCount = int(count);
        m_pickle.itemIndices.insert(m_pickle.itemIndices.end(), items, items + count);
        return lastNode();
    }
    // A Dict, List or Set, which SETITEM(S), APPEND(S) and ADDITEMS may grow at any later point: its items
    // wait in m_containers[firstItem] until STOP, when flattenContainers() moves them to Pickle::itemIndices.
    // An empty vector allocates nothing, and most containers of a checkpoint stay empty (each tensor's
    // backward-hooks OrderedDict), so this costs an allocation per filled container, and no node's range ever
    // has to move.
    int addContainer(Kind kind, const int* items = nullptr, size_t count = 0)
    {
        newNode(kind).firstItem = int(m_containers.size());
        m_containers.emplace_back(items, items + count);
        return lastNode();
    }
    void flattenContainers()
    {
        for (Node& n : m_pickle.nodes) {
            if (n.kind != Kind::Dict && n.kind != Kind::List && n.kind != Kind::Set)
                continue;
            const std::vector<int>& items = m_containers[size_t(n.firstItem)];
            n.firstItem = int(m_pickle.itemIndices.size());
            n.itemCount = int(items.size());
            m_pickle.itemIndices.insert(m_pickle.itemIndices.end(), items.begin(), items.end());
        }
        m_containers.clear();
    }
    Q_ALWAYS_INLINE void push(int index) { m_stack.push_back(index); }
    Q_ALWAYS_INLINE bool pop(int* index)
    {
        if (m_stack.size() <= stackFloor())
            return error(QStringLiteral("stack underflow"));
        *index = m_stack.back();
        m_stack.pop_back();
        return true;
    }
    Q_ALWAYS_INLINE bool top(int* index)
    {
        if (m_stack.size() <= stackFloor())
            return error(QStringLiteral("stack underflow"));
        *index = m_stack.back();
        return true;
    }
    size_t stackFloor() const { return m_marks.empty() ? 0 : m_marks.back(); }
    // Pops the topmost MARK; the values above it are m_stack[*from, end), for the caller to use and then drop
    // with m_stack.resize(*from).
    Q_ALWAYS_INLINE bool popMark(size_t* from)
    {
        if (m_marks.empty())
            return error(QStringLiteral("no MARK on the stack"));
        *from = m_marks.back();
        m_marks.pop_back();
        return true;
    }
    // The value just below the MARK popped at `from` (a container that SETITEMS and the like fill), as top()
    // would see it once the values above the MARK are gone.
    Q_ALWAYS_INLINE bool belowMark(size_t from, int* index)
    {
        if (from <= stackFloor())
            return error(QStringLiteral("stack underflow"));
        *index = m_stack[from - 1];
        return true;
    }

    Q_ALWAYS_INLINE bool pushString(qsizetype length, Kind kind)
    {
        const char* p;
        if (!take(length, &p))
            return false;
        if (kind == Kind::String) {
            const int text = addText(QByteArrayView(p, length));
            newNode(kind).text = text;
        } else {
            newNode(kind).blob = int(m_pickle.blobs.size());
            m_pickle.blobs.emplace_back(p, length);
        }
        push(lastNode());
        return true;
    }

    // A Tuple of the values m_stack[from, end), which it pops.
    Q_ALWAYS_INLINE void pushTupleFrom(size_t from)
    {
        const int tuple = addFixed(Kind::Tuple, m_stack.data() + from, m_stack.size() - from);
        m_stack.resize(from);
        push(tuple);
    }

    Q_ALWAYS_INLINE bool pushTupleN(size_t count)
    {
        if (m_stack.size() < stackFloor() + count)
            return error(QStringLiteral("stack underflow"));
        pushTupleFrom(m_stack.size() - count);
        return true;
    }

    Q_ALWAYS_INLINE bool memoPut(quint32 key)
    {
        int index;
        if (!top(&index))
            return false;
        // Memo keys are small and sequential in practice; a dense array avoids hashing.
        if (key < m_denseLimit) {
            // Keys come one by one (BINPUT 0, 1, 2, …): grow geometrically, not by one each time.
            if (key >= m_denseMemo.size())
                m_denseMemo.resize(std::max<size_t>(size_t(key) + 1, 2 * m_denseMemo.size()), -1);
            if (m_denseMemo[key] < 0)
                ++m_memoCount;
            m_denseMemo[key] = index;
        } else {
            if (!m_memo.contains(key))
                ++m_memoCount;
            m_memo.insert(key, index);
        }
        return true;
    }
    Q_ALWAYS_INLINE bool memoGet(quint32 key)
    {
        int index = -1;
        if (key < m_denseLimit) {
            if (key < m_denseMemo.size())
                index = m_denseMemo[key];
        } else {
            index = m_memo.value(key, -1);
        }
        if (index < 0)
            return error(QStringLiteral("memo key %1 was never stored").arg(key));
        push(index);
        return true;
    }

    // A text's bytes appended to Pickle::stringBytes; returns its index in Pickle::strings.
    Q_ALWAYS_INLINE int addText(QByteArrayView bytes)
    {
        const PickleReader::TextRange range { int(m_pickle.stringBytes.size()), int(bytes.size()) };
        m_pickle.stringBytes.append(bytes);
        m_pickle.strings.push_back(range);
        return int(m_pickle.strings.size() - 1);
    }

    // GLOBAL and STACK_GLOBAL: `module` and `name` are indices into Pickle::strings.
    bool pushGlobal(int module, int name)
    {
        const QByteArrayView bytes(m_pickle.stringBytes);
        const PickleReader::TextRange moduleRange = m_pickle.strings[size_t(module)],
                                      nameRange = m_pickle.strings[size_t(name)];
        const QByteArrayView moduleBytes = bytes.sliced(moduleRange.offset, moduleRange.size),
                             nameBytes = bytes.sliced(nameRange.offset, nameRange.size);
        const QString moduleText = QString::fromUtf8(moduleBytes), nameText = QString::fromUtf8(nameBytes);
        // A TorchScript archive's modules are classes of its own code (`__torch__.…`): nodes that only carry their
        // BUILD state, never called.
        const bool scriptClass = m_torchScriptClasses
            && (moduleText == QLatin1String("__torch__") || moduleText.startsWith(QLatin1String("__torch__.")));
        if (!scriptClass && !PickleReader::isAllowedGlobal(moduleText, nameText))
            return error(QStringLiteral("global %1.%2 is not allowed (only checkpoint data types are read)")
                             .arg(moduleText, nameText));
        // The module at text and the name at text + 1 (Pickle::name()): the two ranges again, side by side.
        newNode(Kind::Global).text = int(m_pickle.strings.size());
        m_pickle.strings.push_back(moduleRange);
        m_pickle.strings.push_back(nameRange);
        push(lastNode());
        return true;
    }

    Q_ALWAYS_INLINE bool isOrderedDict(int index)
    {
        // Globals are memoised, so a pickle's REDUCEs name the same few nodes: the last answer is kept by index.
        if (index == m_lastReduced)
            return m_lastReducedIsOrderedDict;
        const Node& n = m_pickle.nodes[size_t(index)];
        m_lastReduced = index;
        m_lastReducedIsOrderedDict = n.kind == Kind::Global && m_pickle.utf8(n) == QByteArrayView("collections")
            && m_pickle.nameUtf8(n) == QByteArrayView("OrderedDict");
        return m_lastReducedIsOrderedDict;
    }

    bool setItems(int dict, const int* items, size_t count)
    {
        if (count % 2 != 0)
            return error(QStringLiteral("SETITEMS with an odd number of values"));
        const Node& d = m_pickle.nodes[size_t(dict)];
        if (d.kind != Kind::Dict)
            return error(QStringLiteral("SETITEM(S) on a value that is not a dict"));
        std::vector<int>& held = m_containers[size_t(d.firstItem)];
        held.insert(held.end(), items, items + count);
        return true;
    }

    bool appendItems(int list, const int* items, size_t count, Kind expected)
    {
        const Node& l = m_pickle.nodes[size_t(list)];
        if (l.kind != expected)
            return error(expected == Kind::List ? QStringLiteral("APPEND(S) on a value that is not a list")
                                                : QStringLiteral("ADDITEMS on a value that is not a set"));
        std::vector<int>& held = m_containers[size_t(l.firstItem)];
        held.insert(held.end(), items, items + count);
        return true;
    }

    // SETITEMS, APPENDS, ADDITEMS: the values above the topmost MARK go into the container just below it.
    bool fillFromMark(Kind kind)
    {
        size_t from;
        int container;
        if (!popMark(&from) || !belowMark(from, &container))
            return false;
        const int* items = m_stack.data() + from;
        const size_t count = m_stack.size() - from;
        const bool ok
            = kind == Kind::Dict ? setItems(container, items, count) : appendItems(container, items, count, kind);
        m_stack.resize(from);
        return ok;
    }

    // LIST, DICT, FROZENSET: a new container of the values above the topmost MARK.
    bool containerFromMark(Kind kind)
    {
        size_t from;
        if (!popMark(&from))
            return false;
        const size_t count = m_stack.size() - from;
        if (kind == Kind::Dict && count % 2 != 0)
            return error(QStringLiteral("DICT with an odd number of values"));
        const int container = addContainer(kind, m_stack.data() + from, count);
        m_stack.resize(from);
        push(container);
        return true;
    }

    bool step(quint8 op)
    {
        switch (op) {
        case 0x80: { // PROTO
            quint8 version;
            if (!takeLe(&version))
                return false;
            if (version > 5)
                return error(QStringLiteral("unsupported pickle protocol %1").arg(version));
            return true;
        }
        case 0x95: { // FRAME: only a size hint for buffered readers
            quint64 size;
            return takeLe(&size);
        }
        case '}':
            push(addContainer(Kind::Dict));
            return true;
        case ']':
            push(addContainer(Kind::List));
            return true;
        case ')':
            pushTupleFrom(m_stack.size());
            return true;
        case 0x8f: // EMPTY_SET
            push(addContainer(Kind::Set));
            return true;
        case '(':
            if (m_marks.size() >= kMaxMarks)
                return error(QStringLiteral("too many nested MARKs"));
            m_marks.push_back(m_stack.size());
            return true;
        case 'N':
            push(addKind(Kind::None));
            return true;
        case 0x88: // NEWTRUE
        case 0x89: { // NEWFALSE
            newNode(Kind::Bool).boolean = op == 0x88;
            push(lastNode());
            return true;
        }
        case 'J': { // BININT
            qint32 v;
            if (!takeLe(&v))
                return false;
            newNode(Kind::Int).integer = v;
            push(lastNode());
            return true;
        }
        case 'K': { // BININT1
            quint8 v;
            if (!takeLe(&v))
                return false;
            newNode(Kind::Int).integer = v;
            push(lastNode());
            return true;
        }
        case 'M': { // BININT2
            quint16 v;
            if (!takeLe(&v))
                return false;
            newNode(Kind::Int).integer = v;
            push(lastNode());
            return true;
        }
        case 0x8a: // LONG1
        case 0x8b: { // LONG4
            qint64 length;
            if (op == 0x8a) {
                quint8 l;
                if (!takeLe(&l))
                    return false;
                length = l;
            } else {
                qint32 l;
                if (!takeLe(&l))
                    return false;
                length = l;
            }
            const char* p;
            if (!take(length, &p))
                return false;
            Node& n = newNode(Kind::Int);
            if (length > 8) {
                n.bigInt = true;
            } else if (length > 0) {
                // Little-endian two's complement of `length` bytes, sign-extended.
                quint64 v = (quint8(p[length - 1]) & 0x80) ? ~quint64(0) : 0;
                for (qint64 i = length - 1; i >= 0; --i)
                    v = (v << 8) | quint8(p[i]);
                n.integer = qint64(v);
            }
            push(lastNode());
            return true;
        }
        case 'G': { // BINFLOAT: big-endian IEEE double
            const char* p;
            if (!take(8, &p))
                return false;
            const quint64 bits = qFromBigEndian<quint64>(p);
            newNode(Kind::Float).real = std::bit_cast<double>(bits);
            push(lastNode());
            return true;
        }
        case 'X': // BINUNICODE
        case 'T': // BINSTRING
        case 'B': { // BINBYTES
            quint32 length;
            if (!takeLe(&length))
                return false;
            return pushString(qsizetype(length), op == 'B' ? Kind::Bytes : Kind::String);
        }
        case 0x8c: // SHORT_BINUNICODE
        case 'U': // SHORT_BINSTRING
        case 'C': { // SHORT_BINBYTES
            quint8 length;
            if (!takeLe(&length))
                return false;
            return pushString(length, op == 'C' ? Kind::Bytes : Kind::String);
        }
        case 0x8d: // BINUNICODE8
        case 0x8e: { // BINBYTES8
            quint64 length;
            if (!takeLe(&length))
                return false;
            if (length > quint64(m_data.size()))
                return error(QStringLiteral("string of %1 bytes runs past the end of the data").arg(length));
            return pushString(qsizetype(length), op == 0x8d ? Kind::String : Kind::Bytes);
        }
        case 't': {
            size_t from;
            if (!popMark(&from))
                return false;
            pushTupleFrom(from);
            return true;
        }
        case 0x85:
            return pushTupleN(1);
        case 0x86:
            return pushTupleN(2);
        case 0x87:
            return pushTupleN(3);
        case 'l': // LIST
            return containerFromMark(Kind::List);
        case 'd': // DICT
            return containerFromMark(Kind::Dict);
        case 0x91: // FROZENSET
            return containerFromMark(Kind::Set);
        case 's': { // SETITEM
            int pair[2], dict;
            if (!pop(&pair[1]) || !pop(&pair[0]) || !top(&dict))
                return false;
            return setItems(dict, pair, 2);
        }
        case 'u': // SETITEMS
            return fillFromMark(Kind::Dict);
        case 'a': { // APPEND
            int value, list;
            if (!pop(&value) || !top(&list))
                return false;
            return appendItems(list, &value, 1, Kind::List);
        }
        case 'e': // APPENDS
            return fillFromMark(Kind::List);
        case 0x90: // ADDITEMS
            return fillFromMark(Kind::Set);
        case 'q': { // BINPUT
            quint8 key;
            return takeLe(&key) && memoPut(key);
        }
        case 'r': { // LONG_BINPUT
            quint32 key;
            return takeLe(&key) && memoPut(key);
        }
        case 0x94: // MEMOIZE
            return memoPut(m_memoCount);
        case 'h': { // BINGET
            quint8 key;
            return takeLe(&key) && memoGet(key);
        }
        case 'j': { // LONG_BINGET
            quint32 key;
            return takeLe(&key) && memoGet(key);
        }
        case '0': { // POP
            int ignored;
            if (m_stack.size() == stackFloor() && !m_marks.empty()) {
                m_marks.pop_back(); // POP of a MARK, as Python does
                return true;
            }
            return pop(&ignored);
        }
        case '1': { // POP_MARK
            size_t from;
            if (!popMark(&from))
                return false;
            m_stack.resize(from);
            return true;
        }
        case '2': { // DUP
            int index;
            if (!top(&index))
                return false;
            push(index);
            return true;
        }
        case 'c': { // GLOBAL "module\nname\n"
            QByteArray module, name;
            if (!takeLine(&module) || !takeLine(&name))
                return false;
            return pushGlobal(addText(module), addText(name));
        }
        case 0x93: { // STACK_GLOBAL
            int nameIndex, moduleIndex;
            if (!pop(&nameIndex) || !pop(&moduleIndex))
                return false;
            const Node& module = m_pickle.nodes[size_t(moduleIndex)];
            const Node& name = m_pickle.nodes[size_t(nameIndex)];
            if (module.kind != Kind::String || name.kind != Kind::String)
                return error(QStringLiteral("STACK_GLOBAL needs two strings"));
            return pushGlobal(module.text, name.text);
        }
        case 'R': // REDUCE
        case 0x81: { // NEWOBJ
            int args, callable;
            if (!pop(&args) || !pop(&callable))
                return false;
            if (m_pickle.nodes[size_t(args)].kind != Kind::Tuple)
                return error(QStringLiteral("%1 arguments are not a tuple")
                                 .arg(op == 'R' ? QStringLiteral("REDUCE") : QStringLiteral("NEWOBJ")));
            if (m_pickle.nodes[size_t(callable)].kind != Kind::Global)
                return error(QStringLiteral("%1 of a value that is not an allowed global")
                                 .arg(op == 'R' ? QStringLiteral("REDUCE") : QStringLiteral("NEWOBJ")));
            if (isOrderedDict(callable)) {
                push(addContainer(Kind::Dict));
                return true;
            }
            const int operands[] = { callable, args };
            push(addFixed(Kind::Call, operands, 2));
            return true;
        }
        case 'b': { // BUILD
            int state, object;
            if (!pop(&state) || !top(&object))
                return false;
            m_pickle.nodes[size_t(object)].state = state;
            return true;
        }
        case 'Q': { // BINPERSID
            int pid;
            if (!pop(&pid))
                return false;
            push(addFixed(Kind::PersistentId, &pid, 1));
            return true;
        }
        default:
            break;
        }
        return error(QStringLiteral("unsupported opcode 0x%1 ('%2')")
                         .arg(op, 2, 16, QLatin1Char('0'))
                         .arg(op >= 0x20 && op < 0x7f ? QString(QLatin1Char(char(op))) : QStringLiteral("?")));
    }

    QByteArrayView m_data;
    QString* m_error;
    bool m_torchScriptClasses = false;
    qsizetype m_pos = 0;
    qsizetype m_opPos = 0;
    PickleReader::Pickle m_pickle;
    std::vector<int> m_stack;
    std::vector<std::vector<int>> m_containers; ///< items of Dict, List and Set nodes until STOP
    int m_lastReduced = -1; ///< isOrderedDict()'s last node and answer
    bool m_lastReducedIsOrderedDict = false;
    std::vector<size_t> m_marks;
    QHash<quint32, int> m_memo;
    std::vector<int> m_denseMemo;
    quint32 m_denseLimit = 0;
    quint32 m_memoCount = 0; // MEMOIZE's next key: the number of memo entries
};

} // namespace

std::optional<PickleReader::Pickle> PickleReader::parse(QByteArrayView data, QString* error, bool torchScriptClasses)
{
    return Parser(data, error, torchScriptClasses).run();
}

bool PickleReader::isAllowedGlobal(const QString& module, const QString& name)
{
    if (module == QLatin1String("collections"))
        return name == QLatin1String("OrderedDict");
    if (module == QLatin1String("torch._utils"))
        return name == QLatin1String("_rebuild_tensor") || name == QLatin1String("_rebuild_tensor_v2")
            || name == QLatin1String("_rebuild_parameter") || name == QLatin1String("_rebuild_parameter_with_state");
    if (module == QLatin1String("torch")) {
        static const QStringList dtypes {
            QStringLiteral("float16"),
            QStringLiteral("bfloat16"),
            QStringLiteral("float32"),
            QStringLiteral("float64"),
            QStringLiteral("int8"),
            QStringLiteral("int16"),
            QStringLiteral("int32"),
            QStringLiteral("int64"),
            QStringLiteral("uint8"),
            QStringLiteral("bool"),
            QStringLiteral("complex64"),
            QStringLiteral("complex128"),
            QStringLiteral("half"),
            QStringLiteral("float"),
            QStringLiteral("double"),
            QStringLiteral("long"),
            QStringLiteral("int"),
        };
        return name.endsWith(QLatin1String("Storage")) || name == QLatin1String("device")
            || name == QLatin1String("Size") || dtypes.contains(name);
    }
    if (module == QLatin1String("builtins") || module == QLatin1String("__builtin__"))
        return name == QLatin1String("set") || name == QLatin1String("frozenset") || name == QLatin1String("slice");
    if (module == QLatin1String("_codecs"))
        return name == QLatin1String("encode");
    if (module == QLatin1String("numpy.core.multiarray") || module == QLatin1String("numpy._core.multiarray"))
        return name == QLatin1String("scalar") || name == QLatin1String("_reconstruct");
    if (module == QLatin1String("numpy"))
        return name == QLatin1String("dtype") || name == QLatin1String("ndarray");
    if (module == QLatin1String("argparse"))
        return name == QLatin1String("Namespace");
    return false;
}

} // namespace Trainyard::Formats
