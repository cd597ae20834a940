// SPDX-License-Identifier: GPL-2.0-or-later
#include "picklereader.h"

#include <QtEndian>

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
    Parser(QByteArrayView data, QString* error)
        : m_data(data)
        , m_error(error)
        // Every BINPUT takes at least 2 bytes, so keys below the input size bound the array.
        , m_denseLimit(quint32(std::min<qsizetype>(data.size(), 1 << 26)))
    {
        // torch.save pickles make about one node per 7 bytes; reserving avoids regrowing.
        m_pickle.nodes.reserve(size_t(std::min<qsizetype>(data.size() / 4 + 16, 1 << 22)));
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
                return std::move(m_pickle);
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

    bool take(qsizetype n, const char** out)
    {
        if (n < 0 || n > m_data.size() - m_pos)
            return error(QStringLiteral("opcode argument of %1 bytes runs past the end of the data").arg(n));
        *out = m_data.data() + m_pos;
        m_pos += n;
        return true;
    }
    template <typename T> bool takeLe(T* value)
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

    int add(Node node)
    {
        m_pickle.nodes.push_back(std::move(node));
        return int(m_pickle.nodes.size() - 1);
    }
    int addKind(Kind kind)
    {
        Node n;
        n.kind = kind;
        return add(std::move(n));
    }
    void push(int index) { m_stack.push_back(index); }
    bool pop(int* index)
    {
        if (m_stack.size() <= stackFloor())
            return error(QStringLiteral("stack underflow"));
        *index = m_stack.back();
        m_stack.pop_back();
        return true;
    }
    bool top(int* index)
    {
        if (m_stack.size() <= stackFloor())
            return error(QStringLiteral("stack underflow"));
        *index = m_stack.back();
        return true;
    }
    size_t stackFloor() const { return m_marks.empty() ? 0 : m_marks.back(); }
    // Pops everything above the topmost MARK and the MARK itself.
    bool popMark(std::vector<int>* items)
    {
        if (m_marks.empty())
            return error(QStringLiteral("no MARK on the stack"));
        const size_t mark = m_marks.back();
        m_marks.pop_back();
        items->assign(m_stack.begin() + qsizetype(mark), m_stack.end());
        m_stack.resize(mark);
        return true;
    }

    bool pushString(qsizetype length, Kind kind)
    {
        const char* p;
        if (!take(length, &p))
            return false;
        Node n;
        n.kind = kind;
        if (kind == Kind::String) {
            n.text = int(m_pickle.strings.size());
            m_pickle.strings.push_back(QString::fromUtf8(p, length));
        } else {
            n.blob = int(m_pickle.blobs.size());
            m_pickle.blobs.emplace_back(p, length);
        }
        push(add(std::move(n)));
        return true;
    }

    bool pushTuple(std::vector<int> items)
    {
        Node n;
        n.kind = Kind::Tuple;
        n.items = std::move(items);
        push(add(std::move(n)));
        return true;
    }

    bool pushTupleN(size_t count)
    {
        if (m_stack.size() < stackFloor() + count)
            return error(QStringLiteral("stack underflow"));
        std::vector<int> items(m_stack.end() - qsizetype(count), m_stack.end());
        m_stack.resize(m_stack.size() - count);
        return pushTuple(std::move(items));
    }

    bool memoPut(quint32 key)
    {
        int index;
        if (!top(&index))
            return false;
        // Memo keys are small and sequential in practice; a dense array avoids hashing.
        if (key < m_denseLimit) {
            if (key >= m_denseMemo.size())
                m_denseMemo.resize(size_t(key) + 1, -1);
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
    bool memoGet(quint32 key)
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

    bool pushGlobal(const QString& module, const QString& name)
    {
        if (!PickleReader::isAllowedGlobal(module, name))
            return error(
                QStringLiteral("global %1.%2 is not allowed (only checkpoint data types are read)").arg(module, name));
        Node n;
        n.kind = Kind::Global;
        n.text = int(m_pickle.strings.size());
        m_pickle.strings.push_back(module);
        n.name = int(m_pickle.strings.size());
        m_pickle.strings.push_back(name);
        push(add(std::move(n)));
        return true;
    }

    bool isOrderedDict(int index) const
    {
        const Node& n = m_pickle.nodes[size_t(index)];
        return n.kind == Kind::Global && m_pickle.text(n) == QLatin1String("collections")
            && m_pickle.name(n) == QLatin1String("OrderedDict");
    }

    bool setItems(int dict, const std::vector<int>& items)
    {
        if (items.size() % 2 != 0)
            return error(QStringLiteral("SETITEMS with an odd number of values"));
        Node& d = m_pickle.nodes[size_t(dict)];
        if (d.kind != Kind::Dict)
            return error(QStringLiteral("SETITEM(S) on a value that is not a dict"));
        d.items.insert(d.items.end(), items.begin(), items.end());
        return true;
    }

    bool appendItems(int list, const std::vector<int>& items, Kind expected)
    {
        Node& l = m_pickle.nodes[size_t(list)];
        if (l.kind != expected)
            return error(expected == Kind::List ? QStringLiteral("APPEND(S) on a value that is not a list")
                                                : QStringLiteral("ADDITEMS on a value that is not a set"));
        l.items.insert(l.items.end(), items.begin(), items.end());
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
            push(addKind(Kind::Dict));
            return true;
        case ']':
            push(addKind(Kind::List));
            return true;
        case ')':
            return pushTuple({});
        case 0x8f: // EMPTY_SET
            push(addKind(Kind::Set));
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
            Node n;
            n.kind = Kind::Bool;
            n.boolean = op == 0x88;
            push(add(std::move(n)));
            return true;
        }
        case 'J': { // BININT
            qint32 v;
            if (!takeLe(&v))
                return false;
            Node n;
            n.kind = Kind::Int;
            n.integer = v;
            push(add(std::move(n)));
            return true;
        }
        case 'K': { // BININT1
            quint8 v;
            if (!takeLe(&v))
                return false;
            Node n;
            n.kind = Kind::Int;
            n.integer = v;
            push(add(std::move(n)));
            return true;
        }
        case 'M': { // BININT2
            quint16 v;
            if (!takeLe(&v))
                return false;
            Node n;
            n.kind = Kind::Int;
            n.integer = v;
            push(add(std::move(n)));
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
            Node n;
            n.kind = Kind::Int;
            if (length > 8) {
                n.bigInt = true;
            } else if (length > 0) {
                // Little-endian two's complement of `length` bytes, sign-extended.
                quint64 v = (quint8(p[length - 1]) & 0x80) ? ~quint64(0) : 0;
                for (qint64 i = length - 1; i >= 0; --i)
                    v = (v << 8) | quint8(p[i]);
                n.integer = qint64(v);
            }
            push(add(std::move(n)));
            return true;
        }
        case 'G': { // BINFLOAT: big-endian IEEE double
            const char* p;
            if (!take(8, &p))
                return false;
            const quint64 bits = qFromBigEndian<quint64>(p);
            Node n;
            n.kind = Kind::Float;
            std::memcpy(&n.real, &bits, sizeof n.real);
            push(add(std::move(n)));
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
            std::vector<int> items;
            return popMark(&items) && pushTuple(std::move(items));
        }
        case 0x85:
            return pushTupleN(1);
        case 0x86:
            return pushTupleN(2);
        case 0x87:
            return pushTupleN(3);
        case 'l': { // LIST
            std::vector<int> items;
            if (!popMark(&items))
                return false;
            Node n;
            n.kind = Kind::List;
            n.items = std::move(items);
            push(add(std::move(n)));
            return true;
        }
        case 'd': { // DICT
            std::vector<int> items;
            if (!popMark(&items))
                return false;
            if (items.size() % 2 != 0)
                return error(QStringLiteral("DICT with an odd number of values"));
            Node n;
            n.kind = Kind::Dict;
            n.items = std::move(items);
            push(add(std::move(n)));
            return true;
        }
        case 0x91: { // FROZENSET
            std::vector<int> items;
            if (!popMark(&items))
                return false;
            Node n;
            n.kind = Kind::Set;
            n.items = std::move(items);
            push(add(std::move(n)));
            return true;
        }
        case 's': { // SETITEM
            int key, value, dict;
            if (!pop(&value) || !pop(&key) || !top(&dict))
                return false;
            return setItems(dict, { key, value });
        }
        case 'u': { // SETITEMS
            std::vector<int> items;
            int dict;
            return popMark(&items) && top(&dict) && setItems(dict, items);
        }
        case 'a': { // APPEND
            int value, list;
            if (!pop(&value) || !top(&list))
                return false;
            return appendItems(list, { value }, Kind::List);
        }
        case 'e': { // APPENDS
            std::vector<int> items;
            int list;
            return popMark(&items) && top(&list) && appendItems(list, items, Kind::List);
        }
        case 0x90: { // ADDITEMS
            std::vector<int> items;
            int set;
            return popMark(&items) && top(&set) && appendItems(set, items, Kind::Set);
        }
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
            std::vector<int> ignored;
            return popMark(&ignored);
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
            return pushGlobal(QString::fromUtf8(module), QString::fromUtf8(name));
        }
        case 0x93: { // STACK_GLOBAL
            int nameIndex, moduleIndex;
            if (!pop(&nameIndex) || !pop(&moduleIndex))
                return false;
            const Node& module = m_pickle.nodes[size_t(moduleIndex)];
            const Node& name = m_pickle.nodes[size_t(nameIndex)];
            if (module.kind != Kind::String || name.kind != Kind::String)
                return error(QStringLiteral("STACK_GLOBAL needs two strings"));
            return pushGlobal(m_pickle.text(module), m_pickle.text(name));
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
                push(addKind(Kind::Dict));
                return true;
            }
            Node n;
            n.kind = Kind::Call;
            n.items = { callable, args };
            push(add(std::move(n)));
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
            Node n;
            n.kind = Kind::PersistentId;
            n.items = { pid };
            push(add(std::move(n)));
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
    qsizetype m_pos = 0;
    qsizetype m_opPos = 0;
    PickleReader::Pickle m_pickle;
    std::vector<int> m_stack;
    std::vector<size_t> m_marks;
    QHash<quint32, int> m_memo;
    std::vector<int> m_denseMemo;
    quint32 m_denseLimit = 0;
    quint32 m_memoCount = 0; // MEMOIZE's next key: the number of memo entries
};

} // namespace

std::optional<PickleReader::Pickle> PickleReader::parse(QByteArrayView data, QString* error)
{
    return Parser(data, error).run();
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
