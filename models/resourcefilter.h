// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Trainyard {

/// The `filter` of a list, as the service takes it on projects.jobs.list, .models.list and .models.versions.list
/// (a subset of https://google.aip.dev/160 that it documents), over whatever fields the list names:
///
///   filter := term { [AND] term }        (terms joined by AND; whitespace alone also means AND)
///   term   := field op value
///   op     := ":" | "=" | "!="            for text, enum and label fields (labels.KEY)
///           | "=" | "!=" | "<" | "<=" | ">" | ">="   for times (RFC 3339 values)
///   value  := bare word | "double-quoted string" (\" and \\ escapes)
///
/// `:` is "has": an exact match, or a prefix match when the value ends with `*`; `labels.k:*` means "has label k".
/// `=` is an exact match. Enum values are names, matched case-insensitively. OR, NOT and parentheses are refused with
/// an error rather than misread. Errors name the position (1-based) and the rule: "Invalid filter at position 1:
/// unknown field "owner"; use name, labels.KEY or createTime."
///
/// One grammar for every list (JobFilter is the jobs list's vocabulary over it; the executor's models, versions and
/// operations lists give theirs), so that no list borrows another's fields.
class ResourceFilter {
public:
    enum class Kind {
        Text, ///< compared as written
        Enum, ///< one of Field::values (upper-case names)
        Labels, ///< written `labels.KEY`
        Time, ///< RFC 3339
    };
    /// A field a list filters on.
    struct Field {
        QString name; ///< as written: "jobId", "name", "state", "createTime"; "labels" for labels.KEY
        QString alias; ///< the snake_case spelling the service also takes ("job_id", "create_time"), or empty
        Kind kind = Kind::Text;
        QStringList values; ///< Kind::Enum: every name, upper case
    };
    enum class Op { Has, Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual };
    /// One parsed term.
    struct Term {
        int field = 0; ///< index into the fields parse() was given
        QString labelKey; ///< Kind::Labels: KEY
        Op op = Op::Equal;
        QString value; ///< as written (unquoted, without a prefix's `*`); Kind::Enum: upper-cased
        bool prefix = false; ///< `:` with a trailing `*`: value holds the prefix
        QStringList values; ///< Kind::Enum: the names it matches (the one named, or every one with the prefix)
        QDateTime time; ///< Kind::Time
    };

    /// Parses `text` over `fields`; an empty or blank text matches everything. On an error returns nothing and sets
    /// `*error` to a message naming the position and the rule.
    static std::optional<ResourceFilter> parse(const QString& text, const QList<Field>& fields, QString* error);

    /// A resource's value for a term's field, as text: a Text field's value, an Enum's name, a Time in RFC 3339,
    /// the term's label's value; nothing when the resource has none (a label not set, a time not reached).
    using ValueOf = std::function<std::optional<QString>(const Term& term)>;
    /// Whether the resource `valueOf` describes passes every term.
    bool matches(const ValueOf& valueOf) const;

    const QList<Term>& terms() const { return m_terms; }
    /// The filter text as given to parse().
    const QString& text() const { return m_text; }

private:
    static bool matchTerm(const Term& term, Kind kind, const std::optional<QString>& actual);

    QList<Term> m_terms;
    QList<Kind> m_kinds; ///< the kind of each term's field
    QString m_text;
};

} // namespace Trainyard
