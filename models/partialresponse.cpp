// SPDX-License-Identifier: GPL-2.0-or-later
#include "partialresponse.h"

#include <QJsonArray>
#include <QJsonObject>

#include <functional>

namespace Trainyard {

namespace {

/// A recursive-descent reader of the selector's grammar (partialresponse.h).
class Reader {
public:
    explicit Reader(const QString& text)
        : m_text(text)
    {
    }

    bool atEnd() const { return m_at >= m_text.size(); }
    QChar peek() const { return atEnd() ? QChar() : m_text.at(m_at); }
    qsizetype position() const { return m_at; }
    void skip() { ++m_at; }

    /// A field name: letters, digits, '_', '@', '$', '.' and '-' (JSON names as the service spells them), or '*'.
    QString name()
    {
        const qsizetype start = m_at;
        if (peek() == QLatin1Char('*')) {
            ++m_at;
            return QStringLiteral("*");
        }
        while (!atEnd()) {
            const QChar c = m_text.at(m_at);
            if (!(c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('@') || c == QLatin1Char('$')
                    || c == QLatin1Char('.') || c == QLatin1Char('-')))
                break;
            ++m_at;
        }
        return m_text.mid(start, m_at - start);
    }

private:
    const QString& m_text;
    qsizetype m_at = 0;
};

} // namespace

std::optional<PartialResponse> PartialResponse::parse(const QString& text, QString* error)
{
    const QString trimmed = text.trimmed();
    Reader r(trimmed);
    const auto fail = [&](const QString& what) {
        *error = QStringLiteral("%1 at character %2 of \"%3\"").arg(what).arg(r.position() + 1).arg(trimmed);
        return false;
    };
    // list := item (',' item)* ; item := name ('/' name)* ('(' list ')')?
    std::function<bool(Node&, int)> list = [&](Node& into, int depth) -> bool {
        if (depth > 16)
            return fail(QStringLiteral("more than 16 nested selections"));
        for (;;) {
            Node* at = &into;
            for (;;) {
                const QString n = r.name();
                if (n.isEmpty())
                    return fail(QStringLiteral("a field name is expected"));
                if (n == QLatin1String("*")) {
                    at->all = true;
                    break;
                }
                std::shared_ptr<Node>& child = at->children[n];
                if (!child)
                    child = std::make_shared<Node>();
                at = child.get();
                if (r.peek() != QLatin1Char('/'))
                    break;
                r.skip();
            }
            if (r.peek() == QLatin1Char('(')) {
                r.skip();
                if (!list(*at, depth + 1))
                    return false;
                if (r.peek() != QLatin1Char(')'))
                    return fail(QStringLiteral("\")\" is expected"));
                r.skip();
            } else if (at != &into) {
                at->all = true; // a name without a sub-selection: the whole value
            }
            if (r.peek() != QLatin1Char(','))
                return true;
            r.skip();
        }
    };
    PartialResponse selector;
    selector.m_root = std::make_shared<Node>();
    if (trimmed.isEmpty()) {
        *error = QStringLiteral("the selector is empty");
        return std::nullopt;
    }
    if (!list(*selector.m_root, 0))
        return std::nullopt;
    if (!r.atEnd()) {
        fail(QStringLiteral("\"%1\" is not expected").arg(r.peek()));
        return std::nullopt;
    }
    return selector;
}

QJsonValue PartialResponse::apply(const QJsonValue& value) const
{
    return m_root ? select(value, *m_root) : value;
}

QJsonValue PartialResponse::select(const QJsonValue& value, const Node& node)
{
    if (node.all && node.children.isEmpty())
        return value;
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue& element : value.toArray())
            out.append(select(element, node));
        return out;
    }
    if (!value.isObject())
        return value;
    const QJsonObject in = value.toObject();
    if (node.all) {
        // `*` beside named sub-selections: every field, the named ones narrowed.
        QJsonObject out = in;
        for (auto it = node.children.cbegin(); it != node.children.cend(); ++it) {
            if (in.contains(it.key()))
                out.insert(it.key(), select(in.value(it.key()), *it.value()));
        }
        return out;
    }
    QJsonObject out;
    for (auto it = node.children.cbegin(); it != node.children.cend(); ++it) {
        if (in.contains(it.key()))
            out.insert(it.key(), select(in.value(it.key()), *it.value()));
    }
    return out;
}

} // namespace Trainyard
