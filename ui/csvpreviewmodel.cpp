// SPDX-License-Identifier: GPL-2.0-or-later
#include "csvpreviewmodel.h"

#include <QBrush>
#include <QGuiApplication>
#include <QJsonArray>
#include <QPalette>


namespace Trainyard {

CsvPreview CsvPreview::fromJson(const QJsonObject& o)
{
    CsvPreview p;
    p.path = o.value(QStringLiteral("path")).toString();
    p.error = o.value(QStringLiteral("error")).toString();
    for (const QJsonValue& w : o.value(QStringLiteral("warnings")).toArray())
        p.warnings << w.toString();
    for (const QJsonValue& c : o.value(QStringLiteral("columns")).toArray()) {
        const QJsonObject column = c.toObject();
        CsvColumnInfo info;
        info.index = column.value(QStringLiteral("index")).toInt();
        info.type = column.value(QStringLiteral("type")).toString();
        info.treatment = column.value(QStringLiteral("treatment")).toString();
        info.missing = column.value(QStringLiteral("missing")).toInt();
        // Column 0 counts its classes; the others their distinct values.
        info.distinct = column.value(info.index == 0 ? QStringLiteral("classes") : QStringLiteral("distinct")).toInt();
        info.numeric = column.value(QStringLiteral("numeric")).toBool();
        if (column.value(QStringLiteral("min")).isDouble())
            info.min = column.value(QStringLiteral("min")).toDouble();
        if (column.value(QStringLiteral("max")).isDouble())
            info.max = column.value(QStringLiteral("max")).toDouble();
        if (info.index == 0) {
            p.task = column.value(QStringLiteral("task")).toString();
            p.taskRule = column.value(QStringLiteral("task_rule")).toString();
            p.taskReason = column.value(QStringLiteral("task_reason")).toString();
            for (const QJsonValue& label : column.value(QStringLiteral("labels")).toArray())
                p.labels << label.toString();
        }
        p.columns << info;
    }
    p.totalRows = o.value(QStringLiteral("total_rows")).toInteger();
    const int width = int(p.columns.size());
    for (const QJsonValue& r : o.value(QStringLiteral("rows")).toArray()) {
        QStringList cells;
        for (const QJsonValue& cell : r.toArray())
            cells << cell.toString();
        // Every row as wide as the column list, so that the table model is rectangular.
        while (cells.size() < width)
            cells << QString();
        if (width > 0 && cells.size() > width)
            cells.resize(width);
        p.rows << cells;
    }
    return p;
}

void CsvPreviewModel::setPreview(const CsvPreview& preview)
{
    beginResetModel();
    m_preview = preview;
    endResetModel();
}

void CsvPreviewModel::clear()
{
    setPreview(CsvPreview {});
}

int CsvPreviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_preview.rows.size());
}

int CsvPreviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_preview.columns.size());
}

QVariant CsvPreviewModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString cell = m_preview.rows.at(index.row()).value(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return cell.isEmpty() ? QStringLiteral("—") : cell;
    case Qt::UserRole:
        return cell;
    case Qt::ForegroundRole:
        if (cell.isEmpty())
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::ToolTipRole:
        return cell.isEmpty() ? tr("Missing: preprocessing fills it in (numeric columns: the mean)") : QVariant();
    case Qt::TextAlignmentRole: {
        const QString type = m_preview.columns.value(index.column()).type;
        const bool number = type == QLatin1String("numeric") || type == QLatin1String("key")
            || (type == QLatin1String("target") && m_preview.columns.value(0).numeric);
        return QVariant::fromValue(Qt::AlignVCenter | (number ? Qt::AlignRight : Qt::AlignLeft));
    }
    default:
        return {};
    }
}

QString CsvPreviewModel::typeName(const QString& type)
{
    if (type == QLatin1String("target"))
        return tr("target");
    if (type == QLatin1String("numeric"))
        return tr("numeric");
    if (type == QLatin1String("categorical"))
        return tr("categorical");
    if (type == QLatin1String("key"))
        return tr("key (dropped)");
    if (type == QLatin1String("constant"))
        return tr("constant (dropped)");
    return type;
}

QVariant CsvPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical) {
        // The CSV's line numbers (no header row: the first row is line 1).
        if (role == Qt::DisplayRole && section >= 0 && section < rowCount())
            return section + 1;
        return {};
    }
    if (section < 0 || section >= columnCount())
        return {};
    const CsvColumnInfo& c = m_preview.columns.at(section);
    switch (role) {
    case Qt::DisplayRole:
        //: A CSV column's header: its 1-based position, then its detected type on a second line.
        return tr("%1\n%2").arg(section + 1).arg(typeName(c.type));
    case Qt::ToolTipRole: {
        if (section == 0) {
            if (c.numeric && c.min && c.max)
                //: %1 and %2 are the smallest and largest target values among the previewed rows.
                return tr("The target (first column): numbers from %1 to %2, %n distinct", nullptr, c.distinct)
                    .arg(QLocale().toString(*c.min), QLocale().toString(*c.max));
            return tr("The target (first column): %n class(es)", nullptr, c.distinct);
        }
        QString text = tr("%n distinct value(s)", nullptr, c.distinct);
        if (c.missing > 0)
            text += QStringLiteral(", ") + tr("%n missing", nullptr, c.missing);
        if (!c.treatment.isEmpty())
            text += QStringLiteral(", ") + tr("treatment: %1").arg(c.treatment);
        return text;
    }
    default:
        return {};
    }
}

} // namespace Trainyard
