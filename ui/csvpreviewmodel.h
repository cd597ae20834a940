// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Trainyard {

/// One column of a built-in algorithm's training table as preprocessing will see it. Column 0 is the target.
struct CsvColumnInfo {
    int index = 0; ///< 0-based position in the CSV (0 = the target)
    /// "target" for column 0; else "numeric", "categorical", "key" (all-distinct integers: dropped as a row
    /// identifier) or "constant" (at most one distinct value: dropped).
    QString type;
    QString treatment; ///< preprocessing's treatment ("identity", "vocabulary", "hashing" …); may be empty
    int missing = 0; ///< empty cells among the previewed rows
    int distinct = 0; ///< distinct non-empty values among them (column 0: its classes)
    bool numeric = false; ///< column 0: every target value is a number
    std::optional<double> min, max; ///< column 0, numeric: the range of the previewed targets
};

/// What `trainyard_algorithms.preprocess.preview(path, max_rows)` returns (resources/algorithms/README.md §3,
/// "Console preview"): the first rows as text, each column's detected type by the same rule the training run
/// applies, warnings (missing values, a header row) and the file's fatal error (not UTF-8, ragged, empty), if any.
struct CsvPreview {
    QString path;
    QList<QStringList> rows; ///< at most the requested rows, every row as many cells as the first
    QList<CsvColumnInfo> columns; ///< one per CSV column, in order
    QStringList warnings;
    QString error; ///< empty when the file can be trained on

    /// Parses the JSON object preview() prints. Missing fields read as empty.
    static CsvPreview fromJson(const QJsonObject& o);
    /// True when the target looks like classes (not all numbers, or integers with at most 20 distinct values)
    /// rather than a quantity. Wider than the package's rule for an integer feature (categorical up to 10 values):
    /// a target of 11 to 20 integer classes is still classes, where such a feature is read as a scale.
    bool looksLikeClassification() const;
    /// The target's classes among the previewed rows, sorted; empty for a numeric target with many values.
    QStringList classes() const;
};

/// The CSV preview as a table: one row per previewed CSV row, one column per CSV column. The horizontal header
/// names each column's position (1-based, as the service's docs count them) and its detected type; its ToolTipRole
/// says the treatment and the missing and distinct counts. An empty cell is shown as "—" in the disabled text colour
/// (it is missing for preprocessing), with Qt::UserRole holding the cell's raw text.
class CsvPreviewModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setPreview(const CsvPreview& preview);
    const CsvPreview& preview() const { return m_preview; }
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// A column's type as the header shows it, translated ("target", "numeric", "categorical", "key", "constant").
    static QString typeName(const QString& type);

private:
    CsvPreview m_preview;
};

} // namespace Trainyard
