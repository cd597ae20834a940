// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace Trainyard {

/// The executor's API surface as data: each route names its HTTP method, its path pattern and the IAM
/// permission a caller needs (the service's names: `ml.jobs.create`, `ml.jobs.get`, `ml.jobs.list`,
/// `ml.jobs.update`, `ml.jobs.cancel`, and `ml.projects.getConfig` for the project's catalogs), so that
/// authorisation and audit happen once, in the router, and a new route cannot forget either.
///
/// Patterns are Google API path templates, segment by segment:
/// - `jobs`: a literal segment;
/// - `{job}`: one segment (percent-decoded), captured as "job"; as the path's last segment it never holds
///   a ':' (that is a custom verb);
/// - `{job}:cancel`: one segment ending in the custom verb `:cancel` (AIP-136), the rest captured;
/// - `{name=**}`: the rest of the path, one or more segments, joined with "/" (a checkpoint's path).
/// Matching is exact: no trailing slash, no empty segment.
///
/// `Handler` is whatever the server dispatches to (an enum, a member-function pointer, a lambda).
template <typename Handler> class RouteTable {
public:
    /// One segment of a pattern, parsed once when the route is added (match() runs for every request, and parsing
    /// the pattern and filling a hash for every route it tried was a tenth of the executor's CPU on `:predict`).
    struct Part {
        enum class Kind { Literal, Capture, Rest };
        Kind kind = Kind::Literal;
        QString text; ///< Literal: the segment; Capture and Rest: the capture's name
        QString suffix; ///< Capture: the custom verb it ends with (":cancel"), or empty
    };
    struct Route {
        QByteArray method; ///< "GET", "POST", "PATCH", …
        QString pattern; ///< "/v1/projects/{project}/jobs/{job}:cancel"
        QString permission; ///< "ml.jobs.cancel"
        Handler handler;
        QList<Part> parts; ///< the pattern, parsed once; empty for a malformed pattern ("{job"), which never matches
    };
    /// The outcome of match(): a route and its captures, or why none matched.
    struct Match {
        enum class Kind { Found, NotFound, MethodNotAllowed };
        Kind kind = Kind::NotFound;
        const Route* route = nullptr;
        QHash<QString, QString> params; ///< captures, percent-decoded
        QByteArray allowed; ///< MethodNotAllowed: the methods the path takes ("GET, POST"), for `Allow`
    };

    void add(const QByteArray& method, const QString& pattern, const QString& permission, Handler handler)
    {
        m_routes.append(Route { method, pattern, permission, std::move(handler), compile(pattern) });
    }
    const QList<Route>& routes() const { return m_routes; }

    /// Finds the route for `method` and `segments` (the path split at '/', already percent-decoded,
    /// without the leading empty one: "/v1/projects/p/jobs" → {"v1", "projects", "p", "jobs"}).
    Match match(const QByteArray& method, const QStringList& segments) const
    {
        Match result;
        QList<QByteArray> methods;
        if (segments.contains(QString()))
            return result;
        for (const Route& route : m_routes) {
            if (!matchesParts(route.parts, segments, nullptr))
                continue;
            if (route.method == method) {
                result.kind = Match::Kind::Found;
                result.route = &route;
                matchesParts(route.parts, segments, &result.params);
                return result;
            }
            if (!methods.contains(route.method))
                methods << route.method;
        }
        if (!methods.isEmpty()) {
            result.kind = Match::Kind::MethodNotAllowed;
            for (const QByteArray& m : std::as_const(methods))
                result.allowed += (result.allowed.isEmpty() ? QByteArray() : QByteArray(", ")) + m;
        }
        return result;
    }

    /// True when `segments` fit `pattern` (see the class comment); fills `params`.
    static bool matches(const QString& pattern, const QStringList& segments, QHash<QString, QString>* params)
    {
        QHash<QString, QString> found;
        if (segments.contains(QString()) || !matchesParts(compile(pattern), segments, &found))
            return false;
        params->insert(found);
        return true;
    }

private:
    /// `pattern`'s parts; empty when a part is malformed (a '{' without its '}', a rest capture before the end).
    static QList<Part> compile(const QString& pattern)
    {
        QList<Part> parts;
        const QStringList texts = pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        for (qsizetype p = 0; p < texts.size(); ++p) {
            const QString& text = texts.at(p);
            if (!text.startsWith(QLatin1Char('{'))) {
                parts.append(Part { Part::Kind::Literal, text, {} });
                continue;
            }
            const qsizetype close = text.indexOf(QLatin1Char('}'));
            if (close < 0)
                return {};
            const QString name = text.mid(1, close - 1);
            if (name.endsWith(QLatin1String("=**"))) {
                if (p != texts.size() - 1)
                    return {};
                parts.append(Part { Part::Kind::Rest, name.chopped(3), {} });
            } else {
                parts.append(Part { Part::Kind::Capture, name, text.mid(close + 1) });
            }
        }
        return parts;
    }

    /// True when `segments` (no empty one) fit `parts`; fills `params` when it is not null.
    static bool matchesParts(const QList<Part>& parts, const QStringList& segments, QHash<QString, QString>* params)
    {
        if (parts.isEmpty())
            return false;
        qsizetype i = 0;
        for (const Part& part : parts) {
            if (part.kind == Part::Kind::Rest) {
                // The rest of the path: at least one segment (compile() keeps it last).
                if (i >= segments.size())
                    return false;
                if (params)
                    params->insert(part.text, segments.mid(i).join(QLatin1Char('/')));
                return true;
            }
            if (i >= segments.size())
                return false;
            const QString& segment = segments.at(i);
            if (part.kind == Part::Kind::Literal) {
                if (segment != part.text)
                    return false;
            } else if (part.suffix.isEmpty()) {
                // A custom verb can only end the path: "jobs/j1:cancel" is the verb, never a job "j1:cancel".
                if (i == segments.size() - 1 && segment.contains(QLatin1Char(':')))
                    return false;
                if (params)
                    params->insert(part.text, segment);
            } else {
                if (!segment.endsWith(part.suffix) || segment.size() == part.suffix.size())
                    return false;
                if (params)
                    params->insert(part.text, segment.chopped(part.suffix.size()));
            }
            ++i;
        }
        return i == segments.size();
    }

    QList<Route> m_routes;
};

} // namespace Trainyard
