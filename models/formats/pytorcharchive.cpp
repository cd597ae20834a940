// SPDX-License-Identifier: GPL-2.0-or-later
#include "pytorcharchive.h"

#include "picklereader.h"
#include "ziparchive.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <array>

namespace Trainyard::Formats {

namespace {

using Kind = PickleReader::Kind;
using Node = PickleReader::Node;
using Pickle = PickleReader::Pickle;

// A data.pkl holds only structure (a few hundred bytes per tensor); 1 GiB is millions of tensors.
constexpr qint64 kMaxPickleBytes = qint64(1) << 30;
constexpr int kMaxDepth = 200;

struct StorageType {
    const char* storage;
    const char* dtype;
    ElementType type;
    int bytes;
};

// torch/storage.py's legacy typed storage classes, which torch.save still names in data.pkl.
constexpr StorageType kStorageTypes[] = {
    { "FloatStorage", "float32", ElementType::F32, 4 },
    { "DoubleStorage", "float64", ElementType::F64, 8 },
    { "HalfStorage", "float16", ElementType::F16, 2 },
    { "BFloat16Storage", "bfloat16", ElementType::BF16, 2 },
    { "LongStorage", "int64", ElementType::I64, 8 },
    { "IntStorage", "int32", ElementType::I32, 4 },
    { "ShortStorage", "int16", ElementType::I16, 2 },
    { "CharStorage", "int8", ElementType::I8, 1 },
    { "ByteStorage", "uint8", ElementType::U8, 1 },
    { "BoolStorage", "bool", ElementType::Bool, 1 },
    { "ComplexFloatStorage", "complex64", ElementType::Other, 8 },
    { "ComplexDoubleStorage", "complex128", ElementType::Other, 16 },
    { "QInt8Storage", "qint8", ElementType::Other, 1 },
    { "QUInt8Storage", "quint8", ElementType::Other, 1 },
    { "QInt32Storage", "qint32", ElementType::Other, 4 },
    { "Float8_e5m2Storage", "float8_e5m2", ElementType::Other, 1 },
    { "Float8_e4m3fnStorage", "float8_e4m3fn", ElementType::Other, 1 },
};

const StorageType* storageType(const QString& name)
{
    for (const StorageType& s : kStorageTypes) {
        if (name == QLatin1String(s.storage))
            return &s;
    }
    return nullptr;
}

/// TensorInfo::dtype of a storage type: one shared QString per type, so that listing a tensor does not allocate
/// its dtype's name again.
const QString& dtypeName(const StorageType* type)
{
    static const std::vector<QString> names = [] {
        std::vector<QString> all;
        for (const StorageType& s : kStorageTypes)
            all.push_back(QString::fromLatin1(s.dtype));
        return all;
    }();
    return names[size_t(type - kStorageTypes)];
}

/// The entry `<archive>/data.pkl`; torch.save names the directory after the file, but any name is
/// valid. Null when there is no such entry.
const ZipArchive::Entry* findPickleEntry(const ZipArchive& zip)
{
    for (const ZipArchive::Entry& e : zip.entries()) {
        if (e.nameUtf8.endsWith("/data.pkl") && e.nameUtf8.count('/') == 1)
            return &e;
    }
    return nullptr;
}

/// `<archive>/` of the entry `<archive>/data.pkl`, as the archive's bytes (other entries are looked up by
/// bytes, so a name that is not valid UTF-8 still finds its siblings).
QByteArray archivePrefix(const ZipArchive::Entry& pickle)
{
    return pickle.nameUtf8.chopped(int(sizeof("data.pkl") - 1)).toByteArray();
}

/// A storage key that torch.save writes: a decimal number without leading zeros ("0", "17", …), as an index;
/// -1 for any other key.
int storageNumber(QByteArrayView key)
{
    if (key.isEmpty() || key.size() > 9 || (key.size() > 1 && key.front() == '0'))
        return -1;
    int n = 0;
    for (char c : key) {
        if (c < '0' || c > '9')
            return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

/// What the listing needs from the zip directory, gathered in one pass over it in file order: the sizes of the
/// storages `<archive>/data/<number>` by number, and the `byteorder` and `version` entries. Looking each of
/// 10,000 storages up by name in a hash touched the directory at random, a cache miss or two per tensor, which
/// was a tenth of the listing; this pass reads the directory front to back.
struct ArchiveDirectory {
    ArchiveDirectory(const ZipArchive& zip, QByteArrayView prefix)
    {
        const QByteArray data = prefix.toByteArray() + "data/";
        // Numbers beyond this are looked up by name: a hostile name cannot make the table large.
        const size_t limit = size_t(zip.entries().size()) * 2 + 16;
        for (const ZipArchive::Entry& e : zip.entries()) {
            const QByteArrayView name = e.nameUtf8;
            if (name.startsWith(data)) {
                const int n = storageNumber(name.sliced(data.size()));
                if (n >= 0 && size_t(n) < limit) {
                    if (size_t(n) >= storageSizes.size())
                        storageSizes.resize(std::max(size_t(n) + 1, 2 * storageSizes.size()), -1);
                    storageSizes[size_t(n)] = e.size;
                }
            } else if (name.startsWith(prefix)) {
                const QByteArrayView rest = name.sliced(prefix.size());
                if (rest == QByteArrayView("byteorder"))
                    byteorder = &e;
                else if (rest == QByteArrayView("version"))
                    version = &e;
            }
        }
        tableLimit = limit;
    }

    /// The bytes of storage `key`'s entry, -1 when the archive has none.
    qint64 storageSize(const ZipArchive& zip, QByteArrayView prefix, QByteArrayView key) const
    {
        const int n = storageNumber(key);
        if (n >= 0 && size_t(n) < tableLimit)
            return size_t(n) < storageSizes.size() ? storageSizes[size_t(n)] : -1;
        const ZipArchive::Entry* e = zip.findUtf8(QByteArray(prefix.toByteArray() + "data/" + key.toByteArray()));
        return e ? e->size : -1;
    }

    std::vector<qint64> storageSizes; ///< by storage number; -1 where no entry has that number
    size_t tableLimit = 0;
    const ZipArchive::Entry* byteorder = nullptr;
    const ZipArchive::Entry* version = nullptr;
};

class Walker {
public:
    Walker(const Pickle& pickle, const ZipArchive& zip, const ArchiveDirectory& directory,
        const QByteArray& archivePrefix, const QString& path, CheckpointInfo* info)
        : m_pickle(pickle)
        , m_zip(zip)
        , m_directory(directory)
        , m_prefix(archivePrefix)
        , m_path(path)
        , m_info(info)
        , m_budget(qint64(pickle.nodes.size()) * 4 + 100000)
    {
    }

    bool run(QString* error)
    {
        const Node& root = m_pickle.at(m_pickle.root);
        if (root.kind == Kind::Dict) {
            const auto items = m_pickle.items(root);
            for (size_t i = 0; i + 1 < items.size(); i += 2) {
                const Node& value = m_pickle.at(items[i + 1]);
                const QString key = keyName(m_pickle.at(items[i]));
                switch (value.kind) {
                case Kind::Int:
                    if (!value.bigInt)
                        m_info->scalars.insert(key, value.integer);
                    break;
                case Kind::Float:
                    m_info->scalars.insert(key, value.real);
                    break;
                case Kind::Bool:
                    m_info->scalars.insert(key, value.boolean);
                    break;
                case Kind::String:
                    m_info->scalars.insert(key, m_pickle.text(value));
                    break;
                default:
                    break;
                }
            }
        }
        if (!walk(m_pickle.root, QString(), 0))
            return fail(error);
        return true;
    }

private:
    bool fail(QString* error)
    {
        if (error)
            *error = m_path % QStringLiteral(": ") % m_error;
        return false;
    }

    QString keyName(const Node& key) const
    {
        switch (key.kind) {
        case Kind::String:
            return m_pickle.text(key);
        case Kind::Int:
            return key.bigInt ? QStringLiteral("<int>") : QString::number(key.integer);
        case Kind::Float:
            return QString::number(key.real);
        case Kind::Bool:
            return key.boolean ? QStringLiteral("True") : QStringLiteral("False");
        case Kind::None:
            return QStringLiteral("None");
        default:
            return QStringLiteral("<key>");
        }
    }

    static QString join(const QString& prefix, const QString& key)
    {
        return prefix.isEmpty() ? key : prefix % QLatin1Char('.') % key;
    }

    // join(prefix, keyName(key)) in one allocation for the usual key, an ASCII string (a state_dict's names).
    QString childName(const QString& prefix, const Node& key) const
    {
        if (key.kind == Kind::String) {
            const QByteArrayView bytes = m_pickle.utf8(key);
            if (std::all_of(bytes.begin(), bytes.end(), [](char c) { return uchar(c) < 0x80; })) {
                const QLatin1StringView ascii(bytes.data(), bytes.size());
                return prefix.isEmpty() ? QString(ascii) : prefix % QLatin1Char('.') % ascii;
            }
        }
        return join(prefix, keyName(key));
    }

    bool walk(int index, const QString& name, int depth)
    {
        if (depth > kMaxDepth) {
            m_error = QStringLiteral("%1: nested deeper than %2 levels").arg(name).arg(kMaxDepth);
            return false;
        }
        if (--m_budget < 0) {
            m_error = QStringLiteral("too many shared references in data.pkl");
            return false;
        }
        const Node& node = m_pickle.at(index);
        switch (node.kind) {
        case Kind::Dict: {
            const auto items = m_pickle.items(node);
            for (size_t i = 0; i + 1 < items.size(); i += 2) {
                if (!walk(items[i + 1], childName(name, m_pickle.at(items[i])), depth + 1))
                    return false;
            }
            return true;
        }
        case Kind::List:
        case Kind::Tuple: {
            const auto items = m_pickle.items(node);
            for (size_t i = 0; i < items.size(); ++i) {
                if (!walk(items[i], join(name, QString::number(i)), depth + 1))
                    return false;
            }
            return true;
        }
        case Kind::Call:
            return call(node, name, depth);
        default:
            return true;
        }
    }

    enum class Callable { Data, Parameter, Tensor, ScriptModule };

    // What a REDUCE's callable makes. The pickler memoises a global, so every tensor's call names the same node:
    // the last answer is kept by node index instead of comparing the names again for each tensor.
    Callable classify(int callable)
    {
        if (callable == m_lastCallable)
            return m_lastCallableKind;
        const Node& node = m_pickle.at(callable);
        const QByteArrayView callableName = m_pickle.nameUtf8(node);
        Callable kind = Callable::Tensor;
        const QByteArrayView module = m_pickle.utf8(node);
        if (module == QByteArrayView("__torch__") || module.startsWith("__torch__."))
            kind = Callable::ScriptModule; // a TorchScript module: its attributes are in its BUILD state
        else if (module != QByteArrayView("torch._utils"))
            kind = Callable::Data; // a device, dtype, numpy scalar…: data, not a tensor
        else if (callableName == QByteArrayView("_rebuild_parameter")
            || callableName == QByteArrayView("_rebuild_parameter_with_state"))
            kind = Callable::Parameter;
        m_lastCallable = callable;
        m_lastCallableKind = kind;
        return kind;
    }

    bool call(const Node& node, const QString& name, int depth)
    {
        const auto operands = m_pickle.items(node);
        const Node& callable = m_pickle.at(operands[0]);
        const Node& args = m_pickle.at(operands[1]);
        const Callable kind = classify(operands[0]);
        if (kind == Callable::Data)
            return true;
        if (kind == Callable::ScriptModule) // "net.0.weight": attributes named as the module's state_dict() names them
            return node.state < 0 || walk(node.state, name, depth + 1);
        if (kind == Callable::Parameter) {
            const QString& callableName = m_pickle.name(callable);
            if (args.itemCount == 0) {
                m_error = QStringLiteral("%1: %2 without arguments").arg(name, callableName);
                return false;
            }
            return walk(m_pickle.items(args)[0], name, depth + 1);
        }
        return tensor(args, name);
    }

    // A tuple of non-negative ints (a size or a stride) into `out`. Lists already made are shared (QList is
    // implicitly shared): a checkpoint has few distinct shapes (every layer of a kind has the same), so most
    // tensors take no allocation for theirs. `recent` holds the last few distinct ones.
    bool intTuple(const Node& node, QList<qint64>* out, std::array<QList<qint64>, 4>& recent)
    {
        if (node.kind != Kind::Tuple && node.kind != Kind::List)
            return false;
        const auto items = m_pickle.items(node);
        qint64 values[8];
        const bool small = items.size() <= std::size(values);
        for (size_t k = 0; k < items.size(); ++k) {
            const Node& n = m_pickle.at(items[k]);
            if (n.kind != Kind::Int || n.bigInt || n.integer < 0)
                return false;
            if (small)
                values[k] = n.integer;
        }
        if (small) {
            for (QList<qint64>& r : recent) {
                if (r.size() == qsizetype(items.size()) && std::equal(r.cbegin(), r.cend(), values)) {
                    *out = r;
                    std::rotate(recent.begin(), &r, &r + 1); // most recent first
                    return true;
                }
            }
        }
        out->reserve(qsizetype(items.size()));
        for (int i : items)
            out->append(m_pickle.at(i).integer);
        if (small) {
            std::rotate(recent.begin(), recent.end() - 1, recent.end());
            recent.front() = *out;
        }
        return true;
    }

    // torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
    // backward_hooks[, metadata]) and the older _rebuild_tensor(storage, offset, size, stride).
    bool tensor(const Node& args, const QString& name)
    {
        auto bad = [&](const QString& what) {
            m_error = QStringLiteral("tensor \"%1\": %2").arg(name, what);
            return false;
        };
        const auto rebuild = m_pickle.items(args);
        if (rebuild.size() < 4)
            return bad(QStringLiteral("rebuild call has %1 arguments (expected at least 4)").arg(rebuild.size()));
        const Node& storage = m_pickle.at(rebuild[0]);
        const Node& offset = m_pickle.at(rebuild[1]);
        TensorInfo t;
        if (storage.kind != Kind::PersistentId)
            return bad(QStringLiteral("storage is not a persistent id"));
        const Node& pid = m_pickle.at(m_pickle.items(storage)[0]);
        const auto pidItems = m_pickle.items(pid);
        // ('storage', <storage class>, key, location, numel)
        if (pid.kind != Kind::Tuple || pidItems.size() < 3
            || (pidItems[0] != m_storageTag && m_pickle.utf8(m_pickle.at(pidItems[0])) != QByteArrayView("storage"))
            || m_pickle.at(pidItems[1]).kind != Kind::Global || m_pickle.at(pidItems[2]).kind != Kind::String)
            return bad(QStringLiteral("persistent id is not ('storage', type, key, location, numel)"));
        m_storageTag = pidItems[0]; // memoised too: the next tensor's is likely the same node
        // The storage class, by node index as in classify().
        if (pidItems[1] != m_lastStorageClass) {
            const QString& storageName = m_pickle.name(m_pickle.at(pidItems[1]));
            m_lastStorageType = storageType(storageName);
            if (!m_lastStorageType)
                return bad(QStringLiteral("unknown storage type torch.%1").arg(storageName));
            m_lastStorageClass = pidItems[1];
        }
        const StorageType* type = m_lastStorageType;
        if (offset.kind != Kind::Int || offset.bigInt || offset.integer < 0)
            return bad(QStringLiteral("storage offset is not a non-negative integer"));
        if (!intTuple(m_pickle.at(rebuild[2]), &t.shape, m_recentShapes))
            return bad(QStringLiteral("size is not a tuple of non-negative integers"));
        if (!intTuple(m_pickle.at(rebuild[3]), &t.strides, m_recentStrides) || t.strides.size() != t.shape.size())
            return bad(QStringLiteral("stride is not a tuple of non-negative integers, one per dimension"));

        t.name = name;
        t.displayName = name;
        t.dtype = dtypeName(type);
        t.elementType = type->type;
        t.file = m_path;
        t.storageKey = m_pickle.text(m_pickle.at(pidItems[2]));
        t.storageOffset = offset.integer;
        t.storageBytes = m_directory.storageSize(m_zip, m_prefix, m_pickle.utf8(m_pickle.at(pidItems[2])));
        if (t.storageBytes < 0)
            return bad(QStringLiteral("storage data/%1 is missing from the archive").arg(t.storageKey));

        // Span of the view in elements: 1 + Σ (size_i − 1) × stride_i, 0 when any size is 0.
        qint64 span = 1;
        const qint64 limit = std::numeric_limits<qint64>::max() / 16;
        // Read through const references: the lists may be shared with other tensors' (intTuple()), and a
        // non-const operator[] would copy them.
        const QList<qint64>& shape = t.shape;
        const QList<qint64>& strides = t.strides;
        for (qsizetype i = 0; i < shape.size(); ++i) {
            if (shape[i] == 0) {
                span = 0;
                break;
            }
            if (strides[i] != 0 && shape[i] - 1 > (limit - span) / strides[i])
                return bad(QStringLiteral("shape × stride overflows"));
            span += (shape[i] - 1) * strides[i];
        }
        if (t.elementCount() < 0)
            return bad(QStringLiteral("element count overflows"));
        if (t.storageOffset > limit || span > limit - t.storageOffset
            || (t.storageOffset + span) * type->bytes > t.storageBytes)
            return bad(QStringLiteral("view of %1 elements at offset %2 exceeds storage data/%3 (%4 bytes)")
                           .arg(span)
                           .arg(t.storageOffset)
                           .arg(t.storageKey)
                           .arg(t.storageBytes));
        t.offset = t.storageOffset * type->bytes;
        t.size = span * type->bytes;
        m_info->tensors.append(std::move(t));
        return true;
    }

    const Pickle& m_pickle;
    const ZipArchive& m_zip;
    const ArchiveDirectory& m_directory;
    QByteArray m_prefix; ///< `<archive>/`
    QString m_path;
    CheckpointInfo* m_info;
    qint64 m_budget;
    QString m_error;
    int m_lastCallable = -1;
    Callable m_lastCallableKind = Callable::Data;
    int m_storageTag = -1; ///< a String node known to read "storage"
    int m_lastStorageClass = -1;
    const StorageType* m_lastStorageType = nullptr;
    std::array<QList<qint64>, 4> m_recentShapes;
    std::array<QList<qint64>, 4> m_recentStrides;
};

std::optional<CheckpointInfo> readArchive(const ZipArchive& zip, const QString& path, QString* error)
{
    auto fail = [&](const QString& message) -> std::optional<CheckpointInfo> {
        if (error)
            *error = path % QStringLiteral(": ") % message;
        return std::nullopt;
    };
    const ZipArchive::Entry* pklEntry = findPickleEntry(zip);
    if (!pklEntry) {
        for (const ZipArchive::Entry& e : zip.entries()) {
            if (e.nameUtf8.endsWith("/constants.pkl"))
                return fail(QStringLiteral("a TorchScript archive (torch.jit.save) without a data.pkl"));
        }
        return fail(QStringLiteral("no <archive>/data.pkl entry: not a torch.save archive"));
    }
    const QByteArray prefix = archivePrefix(*pklEntry);
    // torch.jit.save writes data.pkl beside constants.pkl and the module's code/: its objects are the script's own
    // classes, which hold the parameters and buffers (issue 46: the sample's exported model.pt could not be read).
    bool torchScript = false;
    int codeFiles = 0;
    for (const ZipArchive::Entry& e : zip.entries()) {
        if (!e.nameUtf8.startsWith(prefix))
            continue;
        const QByteArrayView rest = QByteArrayView(e.nameUtf8).sliced(prefix.size());
        torchScript = torchScript || rest == QByteArrayView("constants.pkl");
        codeFiles += rest.startsWith("code/") && rest.endsWith(".py") ? 1 : 0;
    }
    QString why;
    // In place: torch.save stores data.pkl uncompressed, and a copy of it cost a fresh megabyte of page faults
    // for each listing.
    QByteArray inflated;
    const auto pkl = zip.wholeEntry(*pklEntry, kMaxPickleBytes, &inflated, &why);
    if (!pkl)
        return fail(why);
    const auto pickle = PickleReader::parse(*pkl, &why, torchScript);
    if (!pickle)
        return fail(QStringLiteral("data.pkl: ") % why);

    CheckpointInfo info;
    // One storage entry per tensor, as torch.save writes them; views share storages.
    info.tensors.reserve(zip.entries().size());
    info.format = QStringLiteral("pytorch");
    info.path = path;
    info.files = QStringList { path };
    info.metadata.insert(QStringLiteral("archiveName"), QString::fromUtf8(prefix.chopped(1)));
    if (torchScript) {
        // Said plainly: the tensors are the module's parameters and buffers; its code and constants are not read.
        info.metadata.insert(QStringLiteral("archive"),
            QStringLiteral("TorchScript model (torch.jit.save): its parameters and buffers, named as state_dict() "
                           "names them; its code (%1 files under code/) and constants.pkl are not read")
                .arg(codeFiles));
    }
    QString byteOrder = QStringLiteral("little");
    const ArchiveDirectory directory(zip, prefix);
    if (const ZipArchive::Entry* e = directory.byteorder) {
        if (const auto bytes = zip.read(*e, 0, e->size, 64, &why))
            byteOrder = QString::fromLatin1(bytes->trimmed());
    }
    info.metadata.insert(QStringLiteral("byteorder"), byteOrder);
    if (const ZipArchive::Entry* e = directory.version) {
        if (const auto bytes = zip.read(*e, 0, e->size, 64, &why))
            info.metadata.insert(QStringLiteral("version"), QString::fromLatin1(bytes->trimmed()));
    }
    Walker walker(*pickle, zip, directory, prefix, path, &info);
    if (!walker.run(error))
        return std::nullopt;
    return info;
}

} // namespace

std::optional<CheckpointInfo> PyTorchArchive::read(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray head = file.read(4);
    file.close();
    if (head.startsWith("\x80\x02") || head.startsWith("\x80")) {
        if (error)
            *error = QStringLiteral("%1: legacy torch.save format (PyTorch < 1.6 or "
                                    "_use_new_zipfile_serialization=False) is not supported")
                         .arg(path);
        return std::nullopt;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const auto zip = ZipArchive::open(absolute, error);
    if (!zip)
        return std::nullopt;
    return readArchive(*zip, absolute, error);
}

std::optional<CheckpointInfo> PyTorchArchive::readMemory(QByteArrayView bytes, const QString& path, QString* error)
{
    const auto zip = ZipArchive::openMemory(bytes, error);
    if (!zip)
        return std::nullopt;
    return readArchive(*zip, path, error);
}

std::optional<QByteArray> PyTorchArchive::readTensorData(const TensorInfo& tensor, qint64 maxBytes, QString* error)
{
    const auto zip = ZipArchive::open(tensor.file, error);
    if (!zip)
        return std::nullopt;
    const ZipArchive::Entry* pklEntry = findPickleEntry(*zip);
    const QByteArray prefix = pklEntry ? archivePrefix(*pklEntry) : QByteArray();
    const ZipArchive::Entry* entry
        = pklEntry ? zip->findUtf8(QByteArray(prefix + "data/" + tensor.storageKey.toUtf8())) : nullptr;
    if (!entry) {
        if (error)
            *error = QStringLiteral("%1: storage data/%2 is missing").arg(tensor.file, tensor.storageKey);
        return std::nullopt;
    }
    if (const ZipArchive::Entry* e = zip->findUtf8(QByteArray(prefix + "byteorder"))) {
        const auto order = zip->read(*e, 0, e->size, 64, error);
        if (order && order->trimmed() == "big") {
            if (error)
                *error = QStringLiteral("%1: big-endian storages are not decoded").arg(tensor.file);
            return std::nullopt;
        }
    }
    return zip->read(*entry, tensor.offset, tensor.size, maxBytes, error);
}

bool PyTorchArchive::looksLikeArchive(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return file.read(4) == QByteArrayView("PK\x03\x04");
}

} // namespace Trainyard::Formats
