// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal to the API's files: one page of a list of the prediction half's resources (models, versions, operations),
// filtered with ResourceFilter's grammar (models/resourcefilter.h) and paged by name, as the service's lists are.

#include "apicommon.h"
#include "prediction.h"
#include "resourcefilter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

#include <optional>

namespace Trainyard::Api {

/// Default and maximum `pageSize` of the models, versions and operations lists (the service's numbers).
constexpr int DefaultModelsPageSize = 20;
constexpr int MaxModelsPageSize = 100;

/// The fields the models, versions and operations lists filter on, as the service's models and versions lists
/// take them ("labels.team=vision", "name:census*"); an operation's name is its ID.
inline const QList<ResourceFilter::Field>& listFields()
{
    using K = ResourceFilter::Kind;
    static const QList<ResourceFilter::Field> fields { { QStringLiteral("name"), QString(), K::Text, {} },
        { QStringLiteral("labels"), QString(), K::Labels, {} },
        { QStringLiteral("createTime"), QStringLiteral("create_time"), K::Time, {} } };
    return fields;
}

enum ListField { NameField, LabelsField, CreateTimeField }; ///< listFields()' order

/// What a filter term reads of a listed item: its name, a label (none when it lacks it), its creation time.
template <typename T>
std::optional<QString> listFieldOf(const ResourceFilter::Term& term, const QString& name, const T& item)
{
    switch (term.field) {
    case NameField:
        return name;
    case LabelsField:
        if constexpr (requires { item.labels; }) {
            if (item.labels.contains(term.labelKey))
                return item.labels.value(term.labelKey);
        }
        return std::nullopt;
    case CreateTimeField:
        if constexpr (requires { item.createTime; })
            return item.createTime;
        return std::nullopt; // a model keeps no creation time
    }
    return std::nullopt;
}

/// A page of `items` that pass the request's `filter` (ResourceFilter's grammar over listFields()), after the item
/// named by the page token, with `nextPageToken` when more follow.
template <typename T, typename Name, typename Json>
HttpApi::Reply page(const ApiRequest& request, const QList<T>& all, const QString& kind, const QString& listField,
    Name nameOf, Json jsonOf)
{
    const QString filterText = queryValue(request.query(), QStringLiteral("filter"));
    QString why;
    const std::optional<ResourceFilter> filter = ResourceFilter::parse(filterText, listFields(), &why);
    if (!filter)
        return invalidArgument(QStringLiteral("filter"), why);
    QList<T> items;
    for (const T& item : all) {
        if (filter->matches([&](const ResourceFilter::Term& term) { return listFieldOf(term, nameOf(item), item); }))
            items.append(item);
    }
    int size = 0;
    if (!parsePageSize(
            queryValue(request.query(), QStringLiteral("pageSize")), DefaultModelsPageSize, MaxModelsPageSize, &size))
        return invalidArgument(QStringLiteral("pageSize"), QStringLiteral("must be a non-negative whole number"));
    const QString token = queryValue(request.query(), QStringLiteral("pageToken"));
    QString after;
    if (!token.isEmpty() && !decodePageToken(token, kind, &after))
        return invalidArgument(QStringLiteral("pageToken"), QStringLiteral("is not a page token of this list"));
    qsizetype start = 0;
    if (!after.isEmpty()) {
        start = -1;
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (nameOf(items.at(i)) == after)
                start = i + 1;
        }
        if (start < 0)
            return invalidArgument(
                QStringLiteral("pageToken"), QStringLiteral("names an item that is gone; list again"));
    }
    // Bounded by bytes as well as by count: a page ends after the item that takes it past MaxListPageBytes.
    QJsonArray list;
    qsizetype i = start;
    qsizetype bytes = 0;
    for (; i < items.size() && list.size() < size && bytes < PredictionLimits::MaxListPageBytes; ++i) {
        const QJsonObject item = jsonOf(items.at(i));
        bytes += QJsonDocument(item).toJson(QJsonDocument::Compact).size();
        list.append(item);
    }
    QJsonObject body;
    if (!list.isEmpty())
        body.insert(listField, list);
    if (i < items.size())
        body.insert(QStringLiteral("nextPageToken"), encodePageToken(kind, nameOf(items.at(i - 1))));
    return jsonReply(body);
}

} // namespace Trainyard::Api
