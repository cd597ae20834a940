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
    struct Route {
        QByteArray method; ///< "GET", "POST", "PATCH", …
        QString pattern; ///< "/v1/projects/{project}/jobs/{job}:cancel"
        QString permission; ///< "ml.jobs.cancel"
        Handler handler;
        QStringList parts; ///< the pattern split at '/', once (match() runs for every request)
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
        m_routes.append(Route {
            method, pattern, permission, std::move(handler), pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts) });
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
            QHash<QString, QString> params;
            if (!matchesParts(route.parts, segments, &params))
                continue;
            if (route.method == method) {
                result.kind = Match::Kind::Found;
                result.route = &route;
                result.params = params;
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
        return !segments.contains(QString())
            && matchesParts(pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts), segments, params);
    }

private:
    /// matches() with the pattern split already, and no empty segment.
    static bool matchesParts(const QStringList& parts, const QStringList& segments, QHash<QString, QString>* params)
    {
        qsizetype i = 0;
        for (qsizetype p = 0; p < parts.size(); ++p) {
            const QString& part = parts.at(p);
            if (!part.startsWith(QLatin1Char('{'))) {
                if (i >= segments.size() || segments.at(i) != part)
                    return false;
                ++i;
                continue;
            }
            const qsizetype close = part.indexOf(QLatin1Char('}'));
            if (close < 0)
                return false;
            const QString name = part.mid(1, close - 1);
            const QString suffix = part.mid(close + 1); // ":cancel" or empty
            if (name.endsWith(QLatin1String("=**"))) {
                // The rest of the path: at least one segment; only as the pattern's last part.
                if (p != parts.size() - 1 || i >= segments.size())
                    return false;
                params->insert(name.chopped(3), segments.mid(i).join(QLatin1Char('/')));
                return true;
            }
            if (i >= segments.size())
                return false;
            const QString& segment = segments.at(i);
            if (suffix.isEmpty()) {
                // A custom verb can only end the path: "jobs/j1:cancel" is the verb, never a job "j1:cancel".
                if (i == segments.size() - 1 && segment.contains(QLatin1Char(':')))
                    return false;
                params->insert(name, segment);
            } else {
                if (!segment.endsWith(suffix) || segment.size() == suffix.size())
                    return false;
                params->insert(name, segment.chopped(suffix.size()));
            }
            ++i;
        }
        return i == segments.size();
    }

    QList<Route> m_routes;
};

} // namespace Trainyard
