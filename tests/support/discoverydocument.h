// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A Google API Discovery document (https://developers.google.com/discovery/v1/reference/apis), read to drive an
// API from its published description and to check answers against its schemas: field names, JSON types, enums,
// int64 as strings, RFC 3339 times, durations, and `@type` on every google.protobuf.Any. tst_conformance reads
// tests/data/discovery/ml.v1.json with it.

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Trainyard::Test {

class DiscoveryDocument {
public:
    /// One method of the description: its id ("ml.projects.jobs.get"), HTTP method, flat path
    /// ("v1/projects/{projectsId}/jobs/{jobsId}"), query parameters and the schemas of its body and answer (empty
    /// when none).
    struct Method {
        QString id;
        QString httpMethod;
        QString flatPath;
        QStringList queryParameters;
        QString request;
        QString response;
    };

    explicit DiscoveryDocument(const QJsonObject& document)
        : m_schemas(document.value(QStringLiteral("schemas")).toObject())
    {
        collect(document.value(QStringLiteral("resources")).toObject());
    }

    const QHash<QString, Method>& methods() const { return m_methods; }

    /// The extensions allowed in answers: "Schema.field" (a field the description lacks) or "Schema.field=VALUE" (an
    /// enum value it lacks).
    void allow(const QStringList& extensions) { m_allowed = QSet<QString>(extensions.cbegin(), extensions.cend()); }
    /// The extensions validate() met, to check that the allow-list has none that is unused.
    const QSet<QString>& usedExtensions() const { return m_used; }

    /// The URL path of `method` with its path parameters in order ("/v1/projects/local/jobs/j1"); empty when the
    /// count differs.
    QString path(const Method& method, const QStringList& values) const
    {
        static const QRegularExpression parameter(QStringLiteral("\\{[^}]+\\}"));
        QString out = QLatin1Char('/') + method.flatPath;
        qsizetype i = 0;
        for (auto m = parameter.match(out); m.hasMatch(); m = parameter.match(out)) {
            if (i >= values.size())
                return {};
            out.replace(m.capturedStart(), m.capturedLength(), values.at(i++));
        }
        return i == values.size() ? out : QString();
    }

    /// Every way `value` departs from schema `ref` ("GoogleCloudMlV1__Job"), one line each naming the JSON path.
    QStringList validate(const QJsonValue& value, const QString& ref, const QString& at = QStringLiteral("$"))
    {
        QStringList problems;
        check(value, QJsonObject { { QStringLiteral("$ref"), ref } }, ref, QString(), at, &problems);
        return problems;
    }

private:
    void collect(const QJsonObject& resources)
    {
        for (auto r = resources.begin(); r != resources.end(); ++r) {
            const QJsonObject resource = r.value().toObject();
            const QJsonObject methods = resource.value(QStringLiteral("methods")).toObject();
            for (auto m = methods.begin(); m != methods.end(); ++m) {
                const QJsonObject o = m.value().toObject();
                Method method;
                method.id = o.value(QStringLiteral("id")).toString();
                method.httpMethod = o.value(QStringLiteral("httpMethod")).toString();
                method.flatPath = o.value(QStringLiteral("flatPath")).toString();
                const QJsonObject parameters = o.value(QStringLiteral("parameters")).toObject();
                for (auto p = parameters.begin(); p != parameters.end(); ++p) {
                    if (p.value().toObject().value(QStringLiteral("location")).toString() == QLatin1String("query"))
                        method.queryParameters << p.key();
                }
                method.request = o.value(QStringLiteral("request")).toObject().value(QStringLiteral("$ref")).toString();
                method.response
                    = o.value(QStringLiteral("response")).toObject().value(QStringLiteral("$ref")).toString();
                m_methods.insert(method.id, method);
            }
            collect(resource.value(QStringLiteral("resources")).toObject());
        }
    }

    bool allowed(const QString& extension)
    {
        if (!m_allowed.contains(extension))
            return false;
        m_used.insert(extension);
        return true;
    }

    /// google.protobuf.Any as the description writes it: an object of `any` values that "Contains field @type".
    static bool isAny(const QJsonObject& schema)
    {
        const QJsonObject extra = schema.value(QStringLiteral("additionalProperties")).toObject();
        return extra.value(QStringLiteral("type")).toString() == QLatin1String("any")
            && extra.value(QStringLiteral("description")).toString().contains(QLatin1String("@type"));
    }

    void check(const QJsonValue& value, QJsonObject schema, QString owner, const QString& field, const QString& at,
        QStringList* problems)
    {
        if (schema.contains(QLatin1String("$ref"))) {
            owner = schema.value(QStringLiteral("$ref")).toString();
            if (!m_schemas.contains(owner)) {
                *problems << at + QStringLiteral(": the description has no schema ") + owner;
                return;
            }
            schema = m_schemas.value(owner).toObject();
        }
        const QString type = schema.value(QStringLiteral("type")).toString();
        const QString format = schema.value(QStringLiteral("format")).toString();
        const auto problem = [&](const QString& what) { *problems << at + QStringLiteral(": ") + what; };
        if (type == QLatin1String("any"))
            return;
        if (type == QLatin1String("object")) {
            if (!value.isObject()) {
                problem(QStringLiteral("an object expected (%1)").arg(owner));
                return;
            }
            const QJsonObject o = value.toObject();
            if (isAny(schema)) {
                // An Any: its @type names the message; a message of this API is checked against its schema.
                const QString typeUrl = o.value(QStringLiteral("@type")).toString();
                if (typeUrl.isEmpty()) {
                    problem(QStringLiteral("a google.protobuf.Any without @type"));
                    return;
                }
                static const QString ml = QStringLiteral("type.googleapis.com/google.cloud.ml.v1.");
                QJsonObject rest = o;
                rest.remove(QStringLiteral("@type"));
                if (typeUrl.startsWith(ml)) {
                    check(rest, QJsonObject { { QStringLiteral("$ref"), QString(QStringLiteral("GoogleCloudMlV1__") + typeUrl.mid(ml.size())) } },
                        owner, field, at, problems);
                } else if (typeUrl == QLatin1String("type.googleapis.com/google.protobuf.Empty") && !rest.isEmpty()) {
                    problem(QStringLiteral("a google.protobuf.Empty with fields"));
                }
                return;
            }
            const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
            const QJsonObject extra = schema.value(QStringLiteral("additionalProperties")).toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                const QString where = at + QLatin1Char('.') + it.key();
                if (properties.contains(it.key()))
                    check(it.value(), properties.value(it.key()).toObject(), owner, it.key(), where, problems);
                else if (!extra.isEmpty())
                    check(it.value(), extra, owner, it.key(), where, problems);
                else if (!allowed(owner + QLatin1Char('.') + it.key()))
                    *problems << where + QStringLiteral(": a field %1 does not have").arg(owner);
            }
            return;
        }
        if (type == QLatin1String("array")) {
            if (!value.isArray()) {
                problem(QStringLiteral("an array expected"));
                return;
            }
            const QJsonArray a = value.toArray();
            for (qsizetype i = 0; i < a.size(); ++i)
                check(a.at(i), schema.value(QStringLiteral("items")).toObject(), owner, field,
                    at + QStringLiteral("[%1]").arg(i), problems);
            return;
        }
        if (type == QLatin1String("boolean")) {
            if (!value.isBool())
                problem(QStringLiteral("a boolean expected"));
            return;
        }
        if (type == QLatin1String("integer")) {
            if (!value.isDouble() || value.toDouble() != double(qint64(value.toDouble())))
                problem(QStringLiteral("an integer expected (%1)").arg(format));
            return;
        }
        if (type == QLatin1String("number")) {
            // Doubles are numbers; JSON has no NaN or infinities, which proto3's JSON writes as strings.
            static const QStringList special { QStringLiteral("NaN"), QStringLiteral("Infinity"), QStringLiteral("-Infinity") };
            if (!value.isDouble() && !special.contains(value.toString()))
                problem(QStringLiteral("a number expected"));
            return;
        }
        if (type == QLatin1String("string")) {
            if (!value.isString()) {
                problem(format == QLatin1String("int64") || format == QLatin1String("uint64")
                        ? QStringLiteral("an int64 must be a JSON string")
                        : QStringLiteral("a string expected"));
                return;
            }
            const QString s = value.toString();
            static const QRegularExpression int64(QStringLiteral("^-?\\d+$"));
            static const QRegularExpression duration(QStringLiteral("^-?\\d+(\\.\\d{1,9})?s$"));
            static const QRegularExpression base64(QStringLiteral("^[A-Za-z0-9+/_-]*=*$"));
            // RFC 3339 allows nanoseconds; Qt reads milliseconds.
            static const QRegularExpression fraction(QStringLiteral("(\\.\\d{3})\\d+"));
            if ((format == QLatin1String("int64") || format == QLatin1String("uint64")) && !int64.match(s).hasMatch())
                problem(QStringLiteral("an int64 string expected, not '%1'").arg(s));
            else if (format == QLatin1String("google-datetime")
                && !QDateTime::fromString(QString(s).replace(fraction, QStringLiteral("\\1")), Qt::ISODateWithMs).isValid())
                problem(QStringLiteral("an RFC 3339 time expected, not '%1'").arg(s));
            else if (format == QLatin1String("google-duration") && !duration.match(s).hasMatch())
                problem(QStringLiteral("a duration (\"1.5s\") expected, not '%1'").arg(s));
            else if (format == QLatin1String("byte") && !base64.match(s).hasMatch())
                problem(QStringLiteral("base64 expected"));
            const QJsonArray values = schema.value(QStringLiteral("enum")).toArray();
            if (!values.isEmpty() && !values.contains(s) && !allowed(owner + QLatin1Char('.') + field + QLatin1Char('=') + s))
                problem(QStringLiteral("'%1' is not a value of %2.%3").arg(s, owner, field));
            return;
        }
        problem(QStringLiteral("a schema of type '%1' the checker does not know").arg(type));
    }

    QJsonObject m_schemas;
    QHash<QString, Method> m_methods;
    QSet<QString> m_allowed;
    QSet<QString> m_used;
};

} // namespace Trainyard::Test
