// SPDX-License-Identifier: GPL-2.0-or-later
#include "checkpointstate.h"

#include "tensor_bundle.pb.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

namespace Trainyard::Formats {

namespace {

class CollectFirstError : public google::protobuf::io::ErrorCollector {
public:
    void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override
    {
        if (m_message.isEmpty())
            m_message = QStringLiteral("line %1, column %2: %3")
                            .arg(line + 1)
                            .arg(column + 1)
                            .arg(QString::fromStdString(message));
    }
    void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override { }
    QString m_message;
};

// A `checkpoint` file is a few lines; anything this large is not one.
constexpr qint64 kMaxStateFileBytes = 16 * 1024 * 1024;

} // namespace

std::optional<CheckpointState> CheckpointState::parse(const QByteArray& text, QString* error)
{
    trainyard::tfckpt::CheckpointState proto;
    google::protobuf::TextFormat::Parser parser;
    CollectFirstError collector;
    parser.RecordErrorsTo(&collector);
    if (!parser.ParseFromString(std::string(text.constData(), size_t(text.size())), &proto)) {
        if (error)
            *error = QStringLiteral("not a text-format CheckpointState: %1")
                         .arg(collector.m_message.isEmpty() ? QStringLiteral("parse error") : collector.m_message);
        return std::nullopt;
    }
    CheckpointState state;
    state.modelCheckpointPath = QString::fromStdString(proto.model_checkpoint_path());
    for (const std::string& p : proto.all_model_checkpoint_paths())
        state.allModelCheckpointPaths.append(QString::fromStdString(p));
    for (double t : proto.all_model_checkpoint_timestamps())
        state.allModelCheckpointTimestamps.append(t);
    state.lastPreservedTimestamp = proto.last_preserved_timestamp();
    return state;
}

std::optional<CheckpointState> CheckpointState::readFile(const QString& path, QString* error)
{
    QString filePath = path;
    if (QFileInfo(path).isDir())
        filePath = QDir(path).filePath(QStringLiteral("checkpoint"));
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1: %2").arg(filePath, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxStateFileBytes) {
        if (error)
            *error = QStringLiteral("%1: %2 bytes is too large for a checkpoint state file (limit %3)")
                         .arg(filePath)
                         .arg(file.size())
                         .arg(kMaxStateFileBytes);
        return std::nullopt;
    }
    QString parseError;
    auto state = parse(file.readAll(), &parseError);
    if (!state && error)
        *error = filePath % QStringLiteral(": ") % parseError;
    return state;
}

QString CheckpointState::resolve(const QString& path, const QString& directory)
{
    if (path.isEmpty() || QFileInfo(path).isAbsolute())
        return path;
    return QDir(directory).filePath(path);
}

} // namespace Trainyard::Formats
