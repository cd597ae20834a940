// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace Trainyard {

class ArgParser;

/// gcloud's resource format language (`gcloud topic formats`, `gcloud topic projections`, `gcloud topic
/// resource-keys`), the subset trainyardctl implements, over a resource as `--format json` prints it (the wire types'
/// toJson()). Written once here; every command prints through it.
///
/// A format is `NAME[ATTRIBUTES](PROJECTION)`:
/// - NAME: `table`, `value`, `csv`, `get` (value without default transforms: the same here, as no command has any),
///   `list`, `json`, `yaml`;
/// - ATTRIBUTES: `[no-heading]`, `[separator=S]`, `[delimiter=S]` (between a list's items, default ";"),
///   `[terminator=S]`, `[quote]` and `[no-quote]`, `[box]`, `[title=T]`, `[compact]` (list); others are ignored, as
///   gcloud ignores attributes it does not know;
/// - PROJECTION: comma-separated keys, each `a.b[0].c` / `a[].b` (`[]`: every item; `[-1]`: the last) with
///   transforms chained after it (`createTime.date("%Y-%m-%d")`, `name.basename()`) or standing alone on the whole
///   resource (`format("{0}/{1}", a, b)`, `uri()`), and key attributes `:label=L`, `:sort=N`, `:reverse`,
///   `:align=left|center|right`, `:format='table(…)'` (a nested format for a list key, as gcloud's predict table).
///   Headings are gcloud's: the key's last name in ANGRY_SNAKE_CASE (csv lower-cases them).
/// - Transforms: basename, date(format, tz=LOCAL|UTC|IANA name), duration(parts, precision; from numbers of
///   seconds, "1.5s" protobuf durations or ISO 8601), firstof, format, join(sep), len, limit(n), list(separator),
///   lower, upper, sort(attr), uri, yesno(yes, no); and what a command registers (extraTransforms()).
///
/// Left out (refused with a message naming it, or ignored as gcloud ignores unknown attributes): the formats
/// `flattened`, `config`, `diff`, `default`, `object`, `multi`, `none`, `disable`; several formats in one `--format`;
/// the `if()` conditional and the filter-on-projection `:(…)`; the transforms gcloud has beyond those above.
class ResourceFormat {
public:
    /// A transform a command adds: `value` is the key's value (the whole resource when the transform stands alone),
    /// `resource` the resource, `args` the call's arguments as written (quotes removed).
    using Transform = std::function<QJsonValue(const QJsonValue& value, const QJsonValue& resource,
        const QStringList& args)>;

    /// What transforms need from the command: the resource's URI (uri(), `--uri`) and command-specific transforms.
    struct Context {
        /// The URI of a resource as its REST path: "https://host:port/v1/projects/p/jobs/x"; empty when unknown.
        std::function<QString(const QJsonValue& resource)> uriOf;
        QHash<QString, Transform> extraTransforms;
    };

    ResourceFormat();
    ~ResourceFormat();
    ResourceFormat(const ResourceFormat& other);
    ResourceFormat& operator=(const ResourceFormat& other);

    /// Parses `spec`; nullopt and *error (gcloud's words: "Expected ) in projection expression [table(a *HERE*]")
    /// on a syntax error, an unknown format name or transform, or a format that needs a projection without one.
    static std::optional<ResourceFormat> parse(const QString& spec, QString* error, const Context& context = {});

    /// The format's name, lower case ("table", "value" …).
    QString name() const;
    bool hasProjection() const;
    /// True when the spec is a bare `json`/`yaml`/`table` (no attributes, no projection): a command's own printer
    /// serves it as before.
    bool isPlain() const;

    /// Renders a list command's resources (one record each; json: one array; yaml: documents split by `---`).
    QString renderList(const QJsonArray& resources) const;
    /// Renders one resource (a describe): json an object, yaml one document, table/value/csv one record.
    QString renderOne(const QJsonValue& resource) const;

    /// A cell as gcloud's printers write it: strings as they are, numbers shortest, booleans "True"/"False", lists and
    /// dicts as Python's str() writes them, null as "".
    static QString cellText(const QJsonValue& value);
    /// gcloud's default heading for a key: its last name in ANGRY_SNAKE_CASE ("createTime" → "CREATE_TIME").
    static QString angrySnakeCase(const QString& name);

private:
    struct Data;
    std::unique_ptr<Data> d;
};

/// gcloud's list flags, applied to a list command's resources before its format (`gcloud topic flags`):
/// `--flatten=KEY[,…]` (one record per item of each list key, the key holding the item), `--sort-by=[~]KEY[,…]`
/// (stable, `~` descending, numbers as numbers), `--limit=N` (after sorting), `--uri` (print each resource's URI
/// instead), `--page-size` (checked; a command that pages by it adds its own first). `--filter` stays each command's
/// own (the server filters).
struct ListDisplay {
    QStringList flatten;
    QStringList sortBy;
    int limit = -1;
    bool uri = false;

    /// Adds --flatten, --sort-by, --limit and --uri to a list verb's parser (skipping those it has already).
    static void addFlags(ArgParser& parser);
    /// Reads the flags; false and *error (gcloud's usage words) for a bad --limit.
    bool take(const ArgParser& parser, QString* error);
    /// Flatten, sort, limit, in gcloud's order.
    QJsonArray apply(const QJsonArray& resources) const;
};

} // namespace Trainyard
