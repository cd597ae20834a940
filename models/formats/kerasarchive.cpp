// SPDX-License-Identifier: GPL-2.0-or-later
#include "kerasarchive.h"

#include "ziparchive.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QMutexLocker>

#include <limits>

#ifdef TRAINYARD_HAVE_HDF5
#include <hdf5.h>
#endif

namespace Trainyard::Formats {

namespace {

const QString kConfig = QStringLiteral("config.json");
const QString kMetadata = QStringLiteral("metadata.json");
const QString kWeights = QStringLiteral("model.weights.h5");
constexpr qint64 kMaxJsonBytes = 64 << 20;

/// The weights file's bytes: mapped in place for a stored entry, inflated otherwise.
struct WeightsBytes {
    QByteArray copy;
    QByteArrayView view;
};

std::optional<WeightsBytes> weightsBytes(
    const ZipArchive& zip, const ZipArchive::Entry& entry, const QString& path, QString* error)
{
    WeightsBytes out;
    if (entry.stored) {
        QString why;
        if (const auto view = zip.storedView(entry, &why)) {
            out.view = *view;
            return out;
        }
        if (error)
            *error = QStringLiteral("%1: %2: %3").arg(path, kWeights, why);
        return std::nullopt;
    }
    QString why;
    auto bytes = zip.read(entry, 0, entry.size, KerasArchive::kMaxWeightsBytes, &why);
    if (!bytes) {
        if (error)
            *error = QStringLiteral("%1: %2: %3").arg(path, kWeights, why);
        return std::nullopt;
    }
    out.copy = std::move(*bytes);
    out.view = out.copy;
    return out;
}

#ifdef TRAINYARD_HAVE_HDF5
/// Builds of libhdf5 without its thread-safe option exist; the executor reads on a thread pool.
QMutex& hdf5Mutex()
{
    static QMutex mutex;
    return mutex;
}

/// Closes an HDF5 handle with the right function when it goes out of scope.
class Handle {
public:
    Handle(hid_t id, herr_t (*close)(hid_t))
        : m_id(id)
        , m_close(close)
    {
    }
    ~Handle()
    {
        if (m_id >= 0)
            m_close(m_id);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    hid_t get() const { return m_id; }
    bool ok() const { return m_id >= 0; }

private:
    hid_t m_id;
    herr_t (*m_close)(hid_t);
};

/// An HDF5 file image in memory, handed to the core driver without a copy: every buffer HDF5 asks for is
/// this one (read-only opens never write or grow it). H5LTopen_file_image does the same but leaks its
/// bookkeeping (72 bytes per open in 1.10) when the caller keeps the buffer.
struct Image {
    void* data;
    size_t size;
};

void* imageMalloc(size_t size, H5FD_file_image_op_t, void* udata)
{
    auto* image = static_cast<Image*>(udata);
    return size == image->size ? image->data : nullptr;
}

void* imageMemcpy(void* dest, const void* src, size_t, H5FD_file_image_op_t, void*)
{
    return dest == src ? dest : nullptr; // only ever "copies" the image onto itself
}

void* imageRealloc(void*, size_t, H5FD_file_image_op_t, void*)
{
    return nullptr;
}

herr_t imageFree(void*, H5FD_file_image_op_t, void*)
{
    return 0;
}

void* udataCopy(void* udata)
{
    return udata;
}

herr_t udataFree(void*)
{
    return 0;
}

/// Opens HDF5 bytes read-only without copying them; `image` and the bytes must outlive the file handle.
hid_t openImage(QByteArrayView bytes, Image* image)
{
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); // errors come back as return values, not on stderr
    if (bytes.size() < 8 || !bytes.startsWith(QByteArrayView("\x89HDF\r\n\x1a\n", 8)))
        return -1;
    *image = { const_cast<char*>(bytes.data()), size_t(bytes.size()) };
    const Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5FD_file_image_callbacks_t callbacks
        = { imageMalloc, imageMemcpy, imageRealloc, imageFree, udataCopy, udataFree, image };
    if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), 1 << 20, false) < 0
        || H5Pset_file_image_callbacks(fapl.get(), &callbacks) < 0
        || H5Pset_file_image(fapl.get(), image->data, image->size) < 0)
        return -1;
    // The core driver refuses an image whose name stat() finds on disk ("file already exists"): a name
    // under /dev/null never exists, whatever the working directory holds.
    return H5Fopen("/dev/null/model.weights.h5", H5F_ACC_RDONLY, fapl.get());
}

/// IEEE binary16, little-endian: HDF5 has no predefined half type before 1.14 (h5py builds it this way).
hid_t f16Type()
{
    static const hid_t type = [] {
        const hid_t t = H5Tcopy(H5T_IEEE_F32LE);
        H5Tset_fields(t, 15, 10, 5, 0, 10);
        H5Tset_precision(t, 16);
        H5Tset_size(t, 2);
        H5Tset_ebias(t, 15);
        return t;
    }();
    return type;
}

/// A dataset's element type as Trainyard names and decodes it; the memory type to read it with
/// (little-endian, the layout TensorStats expects) or -1 when its values are not decoded.
struct TypeInfo {
    QString dtype;
    ElementType type = ElementType::Other;
    hid_t memType = -1;
    qint64 elementBytes = 0;
};

TypeInfo describe(hid_t fileType)
{
    TypeInfo t;
    const size_t size = H5Tget_size(fileType);
    t.elementBytes = qint64(size);
    switch (H5Tget_class(fileType)) {
    case H5T_FLOAT:
        if (size == 2) {
            t.dtype = QStringLiteral("float16");
            t.type = ElementType::F16;
            t.memType = f16Type();
        } else if (size == 4) {
            t.dtype = QStringLiteral("float32");
            t.type = ElementType::F32;
            t.memType = H5T_IEEE_F32LE;
        } else if (size == 8) {
            t.dtype = QStringLiteral("float64");
            t.type = ElementType::F64;
            t.memType = H5T_IEEE_F64LE;
        } else {
            t.dtype = QStringLiteral("float%1").arg(size * 8);
        }
        break;
    case H5T_INTEGER: {
        const bool isSigned = H5Tget_sign(fileType) != H5T_SGN_NONE;
        t.dtype = QStringLiteral("%1int%2").arg(isSigned ? QString() : QStringLiteral("u")).arg(size * 8);
        switch (size) {
        case 1:
            t.type = isSigned ? ElementType::I8 : ElementType::U8;
            t.memType = isSigned ? H5T_STD_I8LE : H5T_STD_U8LE;
            break;
        case 2:
            t.type = isSigned ? ElementType::I16 : ElementType::U16;
            t.memType = isSigned ? H5T_STD_I16LE : H5T_STD_U16LE;
            break;
        case 4:
            t.type = isSigned ? ElementType::I32 : ElementType::U32;
            t.memType = isSigned ? H5T_STD_I32LE : H5T_STD_U32LE;
            break;
        case 8:
            t.type = isSigned ? ElementType::I64 : ElementType::U64;
            t.memType = isSigned ? H5T_STD_I64LE : H5T_STD_U64LE;
            break;
        default:
            break;
        }
        break;
    }
    case H5T_ENUM:
        t.dtype = QStringLiteral("enum"); // h5py stores numpy bool as an int8 enum
        break;
    case H5T_STRING:
        t.dtype = QStringLiteral("string");
        break;
    default:
        t.dtype = QStringLiteral("h5-class-%1").arg(int(H5Tget_class(fileType)));
        break;
    }
    return t;
}
#endif

} // namespace

#ifdef TRAINYARD_HAVE_HDF5
namespace {
struct VisitState {
    QList<TensorInfo>* tensors;
    QString path;
    bool truncated = false;
};

herr_t visitLink(hid_t group, const char* name, const H5L_info_t* info, void* data)
{
    auto* state = static_cast<VisitState*>(data);
    if (info->type != H5L_TYPE_HARD)
        return 0;
    if (state->tensors->size() >= KerasArchive::kMaxTensors) {
        state->truncated = true;
        return 1;
    }
    const Handle object(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
    if (!object.ok() || H5Iget_type(object.get()) != H5I_DATASET)
        return 0;
    const Handle type(H5Dget_type(object.get()), H5Tclose);
    const Handle space(H5Dget_space(object.get()), H5Sclose);
    if (!type.ok() || !space.ok())
        return 0;
    TensorInfo t;
    t.name = QString::fromUtf8(name);
    t.displayName = t.name;
    const TypeInfo described = describe(type.get());
    t.dtype = described.dtype;
    t.elementType = described.type;
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank > 0 && rank <= H5S_MAX_RANK) {
        hsize_t dims[H5S_MAX_RANK];
        H5Sget_simple_extent_dims(space.get(), dims, nullptr);
        for (int d = 0; d < rank; ++d)
            t.shape.append(qint64(dims[d]));
    }
    const qint64 count = t.elementCount();
    t.size = count >= 0 && described.elementBytes > 0
            && count <= std::numeric_limits<qint64>::max() / described.elementBytes
        ? count * described.elementBytes
        : -1;
    t.file = state->path;
    t.storageKey = kWeights;
    state->tensors->append(std::move(t));
    return 0;
}
} // namespace
#endif

bool KerasArchive::hasHdf5()
{
#ifdef TRAINYARD_HAVE_HDF5
    return true;
#else
    return false;
#endif
}

namespace {
std::optional<CheckpointInfo> readArchive(
    const ZipArchive* zip, const QString& path, const QString& openError, QString* error)
{
    QString why;
    if (!zip) {
        if (error)
            *error = QStringLiteral("%1: not a Keras archive: %2").arg(path, openError);
        return std::nullopt;
    }
    const ZipArchive::Entry* config = zip->find(kConfig);
    if (!config) {
        if (error)
            *error = QStringLiteral("%1: not a Keras archive: no %2").arg(path, kConfig);
        return std::nullopt;
    }
    const auto configBytes = zip->read(*config, 0, config->size, kMaxJsonBytes, &why);
    if (!configBytes) {
        if (error)
            *error = QStringLiteral("%1: %2: %3").arg(path, kConfig, why);
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument configDoc = QJsonDocument::fromJson(*configBytes, &parseError);
    if (!configDoc.isObject()) {
        if (error)
            *error
                = QStringLiteral("%1: %2 is not a JSON object%3")
                      .arg(path, kConfig,
                          parseError.error != QJsonParseError::NoError
                              ? QStringLiteral(" (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset)
                              : QString());
        return std::nullopt;
    }

    CheckpointInfo info;
    info.format = QStringLiteral("keras");
    info.path = path;
    info.files = { path };
    const QJsonObject c = configDoc.object();
    info.metadata.insert(QStringLiteral("className"), c.value(QLatin1String("class_name")).toString());
    info.metadata.insert(
        QStringLiteral("name"), c.value(QLatin1String("config")).toObject().value(QLatin1String("name")).toString());
    if (const ZipArchive::Entry* meta = zip->find(kMetadata)) {
        if (const auto bytes = zip->read(*meta, 0, meta->size, kMaxJsonBytes, &why)) {
            const QJsonObject m = QJsonDocument::fromJson(*bytes).object();
            for (const char* key : { "keras_version", "date_saved" }) {
                if (m.contains(QLatin1String(key)))
                    info.metadata.insert(QString::fromLatin1(key), m.value(QLatin1String(key)));
            }
        }
    }

    const ZipArchive::Entry* weights = zip->find(kWeights);
    if (!weights) {
        info.metadata.insert(QStringLiteral("weights"), QStringLiteral("no %1 in the archive").arg(kWeights));
        return info;
    }
#ifdef TRAINYARD_HAVE_HDF5
    const auto bytes = weightsBytes(*zip, *weights, path, error);
    if (!bytes)
        return std::nullopt;
    QMutexLocker lock(&hdf5Mutex());
    Image image;
    const Handle file(openImage(bytes->view, &image), H5Fclose);
    if (!file.ok()) {
        if (error)
            *error = QStringLiteral("%1: %2 is not an HDF5 file HDF5 can open").arg(path, kWeights);
        return std::nullopt;
    }
    VisitState state { &info.tensors, path };
    if (H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, visitLink, &state) < 0) {
        if (error)
            *error = QStringLiteral("%1: %2: its groups cannot be read").arg(path, kWeights);
        return std::nullopt;
    }
    if (state.truncated)
        info.metadata.insert(QStringLiteral("truncated"), true);
#else
    Q_UNUSED(weightsBytes);
    info.metadata.insert(
        QStringLiteral("weights"), QStringLiteral("%1 not listed: built without libhdf5").arg(kWeights));
#endif
    return info;
}
} // namespace

std::optional<CheckpointInfo> KerasArchive::read(const QString& path, QString* error)
{
    QString why;
    const auto zip = ZipArchive::open(path, &why);
    return readArchive(zip.get(), path, why, error);
}

std::optional<CheckpointInfo> KerasArchive::readMemory(QByteArrayView bytes, const QString& path, QString* error)
{
    QString why;
    const auto zip = ZipArchive::openMemory(bytes, &why);
    return readArchive(zip.get(), path, why, error);
}

std::optional<QByteArray> KerasArchive::readTensorData(const TensorInfo& tensor, qint64 maxBytes, QString* error)
{
#ifdef TRAINYARD_HAVE_HDF5
    if (tensor.size < 0 || tensor.size > maxBytes) {
        if (error)
            *error = QStringLiteral("tensor \"%1\": %2 bytes, more than the limit of %3")
                         .arg(tensor.name)
                         .arg(tensor.size)
                         .arg(maxBytes);
        return std::nullopt;
    }
    QString why;
    const auto zip = ZipArchive::open(tensor.file, &why);
    const ZipArchive::Entry* entry = zip ? zip->find(kWeights) : nullptr;
    if (!entry) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(tensor.file, zip ? QStringLiteral("no %1").arg(kWeights) : why);
        return std::nullopt;
    }
    const auto bytes = weightsBytes(*zip, *entry, tensor.file, error);
    if (!bytes)
        return std::nullopt;
    QMutexLocker lock(&hdf5Mutex());
    Image image;
    const Handle file(openImage(bytes->view, &image), H5Fclose);
    const Handle dataset(
        file.ok() ? H5Dopen2(file.get(), tensor.name.toUtf8().constData(), H5P_DEFAULT) : -1, H5Dclose);
    const Handle type(dataset.ok() ? H5Dget_type(dataset.get()) : -1, H5Tclose);
    if (!type.ok()) {
        if (error)
            *error = QStringLiteral("%1: no dataset \"%2\" in %3").arg(tensor.file, tensor.name, kWeights);
        return std::nullopt;
    }
    const TypeInfo described = describe(type.get());
    const Handle space(H5Dget_space(dataset.get()), H5Sclose);
    const hssize_t count = space.ok() ? H5Sget_simple_extent_npoints(space.get()) : -1;
    if (described.memType < 0 || count < 0 || qint64(count) * described.elementBytes != tensor.size) {
        if (error)
            *error = QStringLiteral("tensor \"%1\": values of dtype %2 are not decoded").arg(tensor.name, tensor.dtype);
        return std::nullopt;
    }
    QByteArray out(tensor.size, Qt::Uninitialized);
    if (tensor.size > 0 && H5Dread(dataset.get(), described.memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) {
        if (error)
            *error = QStringLiteral("%1: %2: dataset \"%3\" cannot be read").arg(tensor.file, kWeights, tensor.name);
        return std::nullopt;
    }
    return out;
#else
    Q_UNUSED(maxBytes);
    if (error)
        *error = QStringLiteral("tensor \"%1\": Keras weights need libhdf5, which this build lacks").arg(tensor.name);
    return std::nullopt;
#endif
}

} // namespace Trainyard::Formats
