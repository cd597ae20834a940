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
    int missing = 0; ///< empty cells over the whole file
    int distinct = 0; ///< distinct non-empty values over the whole file (column 0: its classes)
    bool numeric = false; ///< column 0: every target value is a number
    std::optional<double> min, max; ///< column 0, numeric: the range of the targets
};

/// What `trainyard_algorithms.preprocess.preview(path, max_rows)` returns (resources/algorithms/README.md §3,
/// "Console preview"): the first rows as text, and from the whole file each column's detected type by the rule
/// the training run applies, the target's task (classification or regression) by the package's one target rule
/// (`preprocess.target_task`), warnings (missing values, a header row) and the file's fatal error (not UTF-8,
/// ragged, empty), if any. The console computes none of these itself.
struct CsvPreview {
    QString path;
    qint64 totalRows = 0; ///< data rows in the whole file
    QList<QStringList> rows; ///< the first rows (at most the requested count), every row as many cells as the first
    QList<CsvColumnInfo> columns; ///< one per CSV column, in order
    QString task; ///< "classification" or "regression": the package's target rule over every row
    /// Which part of the rule decided: "text", "fractional", "many_integers", "thin_integers" or "few_integers".
    QString taskRule;
    QString taskReason; ///< the same in English (the package's words, for logs)
    QStringList labels; ///< classification: the target's classes sorted as training sorts them (at most 50)
    QStringList warnings;
    QString error; ///< empty when the file can be trained on

    /// Parses the JSON object preview() prints. Missing fields read as empty.
    static CsvPreview fromJson(const QJsonObject& o);
    /// True when the package's target rule reads the target as classes.
    bool looksLikeClassification() const { return task == QLatin1String("classification"); }
    /// The target's classes over the whole file, sorted (at most 50); empty for regression.
    QStringList classes() const { return looksLikeClassification() ? labels : QStringList(); }
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
