// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QJsonValue>
#include <QMap>
#include <QString>

#include <memory>
#include <optional>

namespace Trainyard {

/// The standard `fields` system parameter of Google's JSON APIs (partial responses; "Performance tips: partial
/// response" of the Google API docs, the ml v1 discovery document's `fields` parameter): a selector such as
/// `jobs(jobId,state),nextPageToken` or `trainingOutput/trials/trialId,etag` keeps only the named fields of a JSON
/// answer. Grammar: a comma-separated list of paths; a path is names joined by `/` (each a sub-field of the one
/// before), optionally followed by a parenthesised list that selects within it; `*` selects every field at its level.
/// A selection applies to each element of an array. Fields the answer lacks are left out, not errors (as the service
/// does).
class PartialResponse {
public:
    /// The selector `text` parses to; nullopt with *error (where and what) for a malformed one: an empty name, an
    /// unbalanced parenthesis, a character that is no part of a field name.
    static std::optional<PartialResponse> parse(const QString& text, QString* error);

    /// `value` with only the selected fields (objects filtered, arrays element by element).
    QJsonValue apply(const QJsonValue& value) const;

private:
    struct Node {
        bool all = false; ///< `*`, or a name selected without a sub-selection: the whole value
        QMap<QString, std::shared_ptr<Node>> children;
    };
    std::shared_ptr<Node> m_root;
    static QJsonValue select(const QJsonValue& value, const Node& node);
};

} // namespace Trainyard
