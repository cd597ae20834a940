// SPDX-License-Identifier: GPL-2.0-or-later
#include "resourceformat.h"

#include "argparser.h"
#include "printer.h"
#include "rfc3339.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace Trainyard {

namespace {

/// One step of a resource key: a name, an index (negative from the end) or `[]` (every item).
struct KeyPart {
    enum Kind { Name, Index, All } kind = Name;
    QString name;
    int index = 0;
};

struct Call {
    QString name;
    QStringList args; ///< as written, quotes removed; keyword arguments stay "name=value"
    bool isKeyword(qsizetype i) const
    {
        static const QRegularExpression kw(QStringLiteral("^[A-Za-z_][A-Za-z0-9_-]*="));
        return kw.match(args.value(i)).hasMatch();
    }
    /// The positional argument `position` or the keyword `keyword`'s value; `fallback` when neither is there.
    QString arg(int position, const QString& keyword, const QString& fallback = {}, bool* given = nullptr) const
    {
        int seen = 0;
        for (qsizetype i = 0; i < args.size(); ++i) {
            if (isKeyword(i)) {
                if (args.at(i).section(QLatin1Char('='), 0, 0) == keyword) {
                    if (given)
                        *given = true;
                    return args.at(i).section(QLatin1Char('='), 1);
                }
            } else if (seen++ == position) {
                if (given)
                    *given = true;
                return args.at(i);
            }
        }
        if (given)
            *given = false;
        return fallback;
    }
};

struct Column {
    QList<KeyPart> key;
    QList<Call> transforms;
    QString label;
    bool labelGiven = false;
    int sortOrder = 0; ///< 0: not a sort key
    bool reverse = false;
    QString align = QStringLiteral("left");
    QString subformat;
    std::shared_ptr<const ResourceFormat> nested; ///< `subformat`, parsed once with the format
};

QString angrySnake(const QString& name)
{
    // gcloud's resource_projection_parser: `_` before an upper-case run after a lower-case letter or digit, and
    // before an upper-case letter that starts a word.
    static const QRegularExpression re(QStringLiteral("((?<=[a-z0-9])[A-Z]+|(?!^)[A-Z](?=[a-z]))"));
    QString out = name;
    out.replace(re, QStringLiteral("_\\1"));
    return out.toUpper();
}

// ---- lexing -------------------------------------------------------------------------------------------------------

class Lexer {
public:
    explicit Lexer(const QString& text)
        : m_text(text)
    {
    }
    bool atEnd() const { return m_pos >= m_text.size(); }
    QChar peek() const { return atEnd() ? QChar() : m_text.at(m_pos); }
    void skipSpace()
    {
        while (!atEnd() && m_text.at(m_pos).isSpace())
            ++m_pos;
    }
    bool take(QChar c)
    {
        skipSpace();
        if (peek() == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    /// gcloud's annotation of where parsing stopped: "table(a *HERE* b)".
    QString annotate() const { return m_text.left(m_pos) + QStringLiteral(" *HERE* ") + m_text.mid(m_pos); }

    /// A quoted string ('…' or "…", a doubled or backslashed quote inside) or a bare token up to one of `stops`
    /// outside parentheses.
    bool token(const QString& stops, QString* out, QString* error)
    {
        skipSpace();
        out->clear();
        const QChar q = peek();
        if (q == QLatin1Char('\'') || q == QLatin1Char('"')) {
            ++m_pos;
            while (!atEnd()) {
                const QChar c = m_text.at(m_pos++);
                if (c == QLatin1Char('\\') && !atEnd()) {
                    out->append(m_text.at(m_pos++));
                } else if (c == q) {
                    if (peek() == q) {
                        out->append(q);
                        ++m_pos;
                    } else {
                        skipSpace();
                        return true;
                    }
                } else {
                    out->append(c);
                }
            }
            *error = QStringLiteral("Unterminated quoted string [%1].").arg(annotate());
            return false;
        }
        int depth = 0;
        QChar inQuote;
        while (!atEnd()) {
            const QChar c = m_text.at(m_pos);
            // A quoted part inside a bare token (format='%d, %b') keeps its separators.
            if (!inQuote.isNull()) {
                if (c == inQuote)
                    inQuote = QChar();
                out->append(c);
                ++m_pos;
                continue;
            }
            if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
                inQuote = c;
                out->append(c);
                ++m_pos;
                continue;
            }
            if (depth == 0 && stops.contains(c))
                break;
            if (c == QLatin1Char('('))
                ++depth;
            else if (c == QLatin1Char(')'))
                --depth;
            out->append(c);
            ++m_pos;
        }
        *out = out->trimmed();
        return true;
    }
    /// A name: letters, digits, `_`, `-`, `@`.
    QString name()
    {
        skipSpace();
        const qsizetype start = m_pos;
        while (!atEnd()
            && (m_text.at(m_pos).isLetterOrNumber() || m_text.at(m_pos) == QLatin1Char('_')
                || m_text.at(m_pos) == QLatin1Char('-') || m_text.at(m_pos) == QLatin1Char('@')))
            ++m_pos;
        return m_text.mid(start, m_pos - start);
    }
    qsizetype pos() const { return m_pos; }

private:
    QString m_text;
    qsizetype m_pos = 0;
};

bool parseCallArgs(Lexer& lex, Call* call, QString* error)
{
    // The '(' was taken.
    if (lex.take(QLatin1Char(')')))
        return true;
    while (true) {
        QString arg;
        if (!lex.token(QStringLiteral(",)"), &arg, error))
            return false;
        // A keyword argument with a quoted value, name="…" (read as one bare token): the quotes go.
        static const QRegularExpression quotedKeyword(QStringLiteral("^([A-Za-z_][A-Za-z0-9_-]*)=(['\"])(.*)\\2$"),
            QRegularExpression::DotMatchesEverythingOption);
        if (const QRegularExpressionMatch m = quotedKeyword.match(arg); m.hasMatch())
            arg = m.captured(1) + QLatin1Char('=') + m.captured(3);
        call->args << arg;
        if (lex.take(QLatin1Char(')')))
            return true;
        if (!lex.take(QLatin1Char(','))) {
            *error = QStringLiteral("Expected ) in transform arguments [%1].").arg(lex.annotate());
            return false;
        }
    }
}

const QStringList& knownTransforms()
{
    static const QStringList names { QStringLiteral("basename"), QStringLiteral("date"), QStringLiteral("duration"),
        QStringLiteral("firstof"), QStringLiteral("format"), QStringLiteral("join"), QStringLiteral("len"),
        QStringLiteral("limit"), QStringLiteral("list"), QStringLiteral("lower"), QStringLiteral("upper"),
        QStringLiteral("sort"), QStringLiteral("uri"), QStringLiteral("yesno") };
    return names;
}

} // namespace

struct ResourceFormat::Data {
    QString name;
    QHash<QString, QString> attributes; ///< "no-heading" → "", "separator" → "," …
    bool projected = false;
    QList<Column> columns;
    Context context;

    bool parseColumn(Lexer& lex, QString* error);
    QJsonValue evaluate(const Column& c, const QJsonValue& resource) const;
    QJsonValue applyTransform(const Call& call, const QJsonValue& value, const QJsonValue& resource) const;
    QList<QJsonValue> records(const QJsonArray& resources) const;
    QString renderRecords(const QJsonArray& resources, bool single) const;
    QString table(const QJsonArray& resources) const;
    QString separated(const QJsonArray& resources, bool csv) const;
    QString listed(const QJsonArray& resources) const;
    QJsonValue projectOne(const QJsonValue& resource) const;
    bool has(const QString& attribute) const { return attributes.contains(attribute); }
    QString attribute(const QString& a, const QString& fallback) const { return attributes.value(a, fallback); }
};

// ---- parsing ------------------------------------------------------------------------------------------------------

bool ResourceFormat::Data::parseColumn(Lexer& lex, QString* error)
{
    Column c;
    // Key parts, then transforms: `a.b[0].c.date("…").basename()`, or a transform alone: `uri()`.
    bool inTransforms = false;
    while (true) {
        lex.skipSpace();
        if (lex.peek() == QLatin1Char('[')) {
            lex.take(QLatin1Char('['));
            QString inside;
            if (!lex.token(QStringLiteral("]"), &inside, error))
                return false;
            if (!lex.take(QLatin1Char(']'))) {
                *error = QStringLiteral("Expected ] in key [%1].").arg(lex.annotate());
                return false;
            }
            KeyPart part;
            if (inside.isEmpty()) {
                part.kind = KeyPart::All;
            } else {
                bool ok = false;
                part.kind = KeyPart::Index;
                part.index = inside.toInt(&ok);
                if (!ok) {
                    *error = QStringLiteral("Non-integer index [%1] in key [%2].").arg(inside, lex.annotate());
                    return false;
                }
            }
            c.key << part;
        } else {
            const QString n = lex.name();
            if (n.isEmpty()) {
                *error = QStringLiteral("Key name expected [%1].").arg(lex.annotate());
                return false;
            }
            if (lex.peek() == QLatin1Char('(')) {
                lex.take(QLatin1Char('('));
                Call call;
                call.name = n;
                if (!knownTransforms().contains(n) && !context.extraTransforms.contains(n)) {
                    *error = QStringLiteral("Unknown transform function %1 [%2].").arg(n, lex.annotate());
                    return false;
                }
                if (!parseCallArgs(lex, &call, error))
                    return false;
                c.transforms << call;
                inTransforms = true;
            } else if (inTransforms) {
                *error = QStringLiteral("Transform function expected after [%1].").arg(lex.annotate());
                return false;
            } else {
                KeyPart part;
                part.name = n;
                c.key << part;
            }
        }
        if (lex.peek() == QLatin1Char('.')) {
            lex.take(QLatin1Char('.'));
            continue;
        }
        if (lex.peek() == QLatin1Char('['))
            continue;
        break;
    }
    // Key attributes: ":label=X:sort=1:reverse".
    while (lex.take(QLatin1Char(':'))) {
        QString attr;
        if (!lex.token(QStringLiteral("=:,)"), &attr, error))
            return false;
        QString value;
        const bool hasValue = lex.take(QLatin1Char('='));
        if (hasValue && !lex.token(QStringLiteral(":,)"), &value, error))
            return false;
        if (attr == QLatin1String("label")) {
            c.label = value;
            c.labelGiven = true;
        } else if (attr == QLatin1String("sort")) {
            c.sortOrder = qMax(1, value.toInt());
        } else if (attr == QLatin1String("reverse") || attr == QLatin1String("no-reverse")) {
            c.reverse = attr == QLatin1String("reverse");
        } else if (attr == QLatin1String("align")) {
            if (value != QLatin1String("left") && value != QLatin1String("center") && value != QLatin1String("right")) {
                *error = QStringLiteral("Unknown alignment [%1].").arg(lex.annotate());
                return false;
            }
            c.align = value;
        } else if (attr == QLatin1String("format")) {
            c.subformat = value;
        } else if (attr == QLatin1String("optional") || attr == QLatin1String("wrap") || attr == QLatin1String("alias")) {
            // Accepted and without effect here: no column is optional, none wraps, no alias is used.
        } else {
            *error = QStringLiteral("Unknown key attribute [%1].").arg(lex.annotate());
            return false;
        }
    }
    if (!c.labelGiven) {
        // gcloud's rule: the key's names in ANGRY_SNAKE_CASE, taken from the right until the heading is not one an
        // earlier column has ("trials[0].trialId, trials[1].trialId" → TRIAL_ID, then TRIALS_TRIAL_ID); a transform
        // alone is headed by its name.
        QStringList names;
        for (const KeyPart& p : std::as_const(c.key)) {
            if (p.kind == KeyPart::Name)
                names << p.name;
        }
        if (names.isEmpty() && !c.transforms.isEmpty())
            names << c.transforms.first().name;
        QStringList used;
        for (const Column& other : std::as_const(columns))
            used << other.label;
        QString label;
        for (qsizetype i = names.size() - 1; i >= 0; --i) {
            label = label.isEmpty() ? angrySnake(names.at(i)) : QString(angrySnake(names.at(i)) + QLatin1Char('_') + label);
            if (!used.contains(label))
                break;
        }
        c.label = label;
    }
    columns << c;
    return true;
}

ResourceFormat::ResourceFormat()
    : d(std::make_unique<Data>())
{
}

ResourceFormat::~ResourceFormat() = default;

ResourceFormat::ResourceFormat(const ResourceFormat& other)
    : d(std::make_unique<Data>(*other.d))
{
}

ResourceFormat& ResourceFormat::operator=(const ResourceFormat& other)
{
    if (this != &other)
        d = std::make_unique<Data>(*other.d);
    return *this;
}

std::optional<ResourceFormat> ResourceFormat::parse(const QString& spec, QString* error, const Context& context)
{
    ResourceFormat f;
    f.d->context = context;
    Lexer lex(spec.trimmed());
    f.d->name = lex.name().toLower();
    static const QStringList names { QStringLiteral("table"), QStringLiteral("value"), QStringLiteral("csv"),
        QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("json"), QStringLiteral("yaml") };
    if (!names.contains(f.d->name)) {
        *error = f.d->name.isEmpty()
            ? QStringLiteral("A format name is expected first (%1) [%2].")
                  .arg(names.join(QStringLiteral(", ")), lex.annotate())
            : QStringLiteral("Invalid choice: '%1'. Valid choices are [%2].")
                  .arg(f.d->name, names.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    if (lex.take(QLatin1Char('['))) {
        while (!lex.take(QLatin1Char(']'))) {
            QString attr;
            if (!lex.token(QStringLiteral("=,]"), &attr, error))
                return std::nullopt;
            QString value;
            if (lex.take(QLatin1Char('=')) && !lex.token(QStringLiteral(",]"), &value, error))
                return std::nullopt;
            // Escapes as gcloud reads them in attribute values.
            value.replace(QLatin1String("\\t"), QLatin1String("\t")).replace(QLatin1String("\\n"), QLatin1String("\n"));
            if (attr.startsWith(QLatin1String("no-")) && attr != QLatin1String("no-heading")
                && attr != QLatin1String("no-quote"))
                f.d->attributes.remove(attr.mid(3));
            else if (!attr.isEmpty())
                f.d->attributes.insert(attr, value);
            if (!lex.take(QLatin1Char(','))) {
                if (!lex.take(QLatin1Char(']'))) {
                    *error = QStringLiteral("Expected ] in attribute list [%1].").arg(lex.annotate());
                    return std::nullopt;
                }
                break;
            }
        }
    }
    if (lex.take(QLatin1Char('('))) {
        f.d->projected = true;
        if (!lex.take(QLatin1Char(')'))) {
            while (true) {
                if (!f.d->parseColumn(lex, error))
                    return std::nullopt;
                if (lex.take(QLatin1Char(')')))
                    break;
                if (!lex.take(QLatin1Char(','))) {
                    *error = QStringLiteral("Expected ) in projection expression [%1].").arg(lex.annotate());
                    return std::nullopt;
                }
            }
        }
    }
    lex.skipSpace();
    if (!lex.atEnd()) {
        *error = QStringLiteral("Unexpected text after the format (several formats in one --format are not "
                                "supported) [%1].")
                     .arg(lex.annotate());
        return std::nullopt;
    }
    const bool needsProjection = f.d->name == QLatin1String("value") || f.d->name == QLatin1String("csv")
        || f.d->name == QLatin1String("get");
    if (needsProjection && f.d->columns.isEmpty()) {
        *error = QStringLiteral("Format [%1] requires a non-empty projection.").arg(f.d->name);
        return std::nullopt;
    }
    for (Column& c : f.d->columns) {
        if (c.subformat.isEmpty())
            continue;
        std::optional<ResourceFormat> sub = parse(c.subformat, error, context);
        if (!sub)
            return std::nullopt;
        c.nested = std::make_shared<const ResourceFormat>(std::move(*sub));
    }
    return f;
}

QString ResourceFormat::name() const
{
    return d->name;
}

bool ResourceFormat::hasProjection() const
{
    return d->projected;
}

bool ResourceFormat::isPlain() const
{
    return !d->projected && d->attributes.isEmpty()
        && (d->name == QLatin1String("json") || d->name == QLatin1String("yaml") || d->name == QLatin1String("table"));
}

QString ResourceFormat::angrySnakeCase(const QString& name)
{
    return angrySnake(name);
}

// ---- evaluation ---------------------------------------------------------------------------------------------------

namespace {

QJsonValue walk(const QJsonValue& v, const QList<KeyPart>& key, qsizetype i)
{
    if (i >= key.size())
        return v;
    const KeyPart& part = key.at(i);
    if (part.kind == KeyPart::All || (part.kind == KeyPart::Name && v.isArray())) {
        // `[]`, and a name applied to a list (gcloud's `disks[].interface` written `disks.interface`): each item.
        if (!v.isArray())
            return QJsonValue::Undefined;
        QJsonArray out;
        const qsizetype next = part.kind == KeyPart::All ? i + 1 : i;
        for (const QJsonValue& item : v.toArray()) {
            const QJsonValue r = walk(item, key, next);
            if (!r.isUndefined())
                out << r;
        }
        return out;
    }
    if (part.kind == KeyPart::Index) {
        const QJsonArray a = v.toArray();
        const qsizetype at = part.index < 0 ? a.size() + part.index : part.index;
        if (!v.isArray() || at < 0 || at >= a.size())
            return QJsonValue::Undefined;
        return walk(a.at(at), key, i + 1);
    }
    if (!v.isObject())
        return QJsonValue::Undefined;
    const QJsonObject o = v.toObject();
    if (!o.contains(part.name))
        return QJsonValue::Undefined;
    return walk(o.value(part.name), key, i + 1);
}

QList<KeyPart> parseKeyText(const QString& text)
{
    QList<KeyPart> key;
    static const QRegularExpression part(QStringLiteral("([^.\\[\\]]+)|\\[(-?\\d*)\\]"));
    auto it = part.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        KeyPart p;
        if (!m.captured(1).isEmpty()) {
            p.name = m.captured(1);
        } else if (m.captured(2).isEmpty()) {
            p.kind = KeyPart::All;
        } else {
            p.kind = KeyPart::Index;
            p.index = m.captured(2).toInt();
        }
        key << p;
    }
    return key;
}

bool truthy(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Bool:
        return v.toBool();
    case QJsonValue::Double:
        return v.toDouble() != 0;
    case QJsonValue::String:
        return !v.toString().isEmpty();
    case QJsonValue::Array:
        return !v.toArray().isEmpty();
    case QJsonValue::Object:
        return !v.toObject().isEmpty();
    default:
        return false;
    }
}

QString numberText(double d)
{
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15)
        return QString::number(qint64(d));
    return QString::number(d, 'g', QLocale::FloatingPointShortest);
}

/// Python's repr() of a JSON value inside a container (str() of a list or dict writes its items this way).
QString pythonRepr(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("None");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    case QJsonValue::Double:
        return numberText(v.toDouble());
    case QJsonValue::String: {
        QString s = v.toString();
        s.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('\''), QLatin1String("\\'"));
        s.replace(QLatin1Char('\n'), QLatin1String("\\n"));
        return QLatin1Char('\'') + s + QLatin1Char('\'');
    }
    case QJsonValue::Array: {
        QStringList items;
        for (const QJsonValue& item : v.toArray())
            items << pythonRepr(item);
        return QLatin1Char('[') + items.join(QLatin1String(", ")) + QLatin1Char(']');
    }
    case QJsonValue::Object: {
        QStringList items;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            items << pythonRepr(it.key()) + QLatin1String(": ") + pythonRepr(it.value());
        return QLatin1Char('{') + items.join(QLatin1String(", ")) + QLatin1Char('}');
    }
    }
    return {};
}

/// strftime(3) over a broken-down time in `zone`, with gcloud's extension `%Nf` (N digits of the fraction, `%f`
/// six).
QString strftimeIn(const QDateTime& utc, const QString& format, const QTimeZone& zone)
{
    const QDateTime t = utc.toTimeZone(zone);
    const QDate date = t.date();
    const QTime time = t.time();
    const int offset = t.offsetFromUtc();
    QString out;
    for (qsizetype i = 0; i < format.size(); ++i) {
        const QChar c = format.at(i);
        if (c != QLatin1Char('%') || i + 1 >= format.size()) {
            out += c;
            continue;
        }
        QChar spec = format.at(++i);
        int digits = 6;
        if (spec.isDigit() && i + 1 < format.size() && format.at(i + 1) == QLatin1Char('f')) {
            digits = spec.digitValue();
            spec = format.at(++i);
        }
        const auto two = [](int n) { return QStringLiteral("%1").arg(n, 2, 10, QLatin1Char('0')); };
        switch (spec.toLatin1()) {
        case 'Y':
            out += QString::number(date.year());
            break;
        case 'y':
            out += two(date.year() % 100);
            break;
        case 'm':
            out += two(date.month());
            break;
        case 'd':
            out += two(date.day());
            break;
        case 'e':
            out += QStringLiteral("%1").arg(date.day(), 2);
            break;
        case 'j':
            out += QStringLiteral("%1").arg(date.dayOfYear(), 3, 10, QLatin1Char('0'));
            break;
        case 'H':
            out += two(time.hour());
            break;
        case 'I':
            out += two(time.hour() % 12 == 0 ? 12 : time.hour() % 12);
            break;
        case 'p':
            out += time.hour() < 12 ? QStringLiteral("AM") : QStringLiteral("PM");
            break;
        case 'M':
            out += two(time.minute());
            break;
        case 'S':
            out += two(time.second());
            break;
        case 'f':
            out += QStringLiteral("%1").arg(time.msec() * 1000, 6, 10, QLatin1Char('0')).left(qBound(1, digits, 6));
            break;
        case 's':
            out += QString::number(utc.toSecsSinceEpoch());
            break;
        case 'a':
            out += QLocale::c().dayName(date.dayOfWeek(), QLocale::ShortFormat);
            break;
        case 'A':
            out += QLocale::c().dayName(date.dayOfWeek());
            break;
        case 'b':
            out += QLocale::c().monthName(date.month(), QLocale::ShortFormat);
            break;
        case 'B':
            out += QLocale::c().monthName(date.month());
            break;
        case 'z':
            out += QStringLiteral("%1%2%3")
                       .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                       .arg(qAbs(offset) / 3600, 2, 10, QLatin1Char('0'))
                       .arg((qAbs(offset) % 3600) / 60, 2, 10, QLatin1Char('0'));
            break;
        case 'Z':
            out += t.timeZoneAbbreviation();
            break;
        case '%':
            out += QLatin1Char('%');
            break;
        default:
            out += QLatin1Char('%') + spec;
        }
    }
    return out;
}

/// Seconds of a duration as the service writes them ("12.5s"), ISO 8601 ("PT1H2M") or a number; nullopt otherwise.
std::optional<double> durationSeconds(const QJsonValue& v)
{
    if (v.isDouble())
        return v.toDouble();
    const QString s = v.toString().trimmed();
    static const QRegularExpression proto(QStringLiteral("^(-?\\d+(?:\\.\\d+)?)s$"));
    if (const auto m = proto.match(s); m.hasMatch())
        return m.captured(1).toDouble();
    static const QRegularExpression iso(
        QStringLiteral("^P(?:(\\d+)D)?(?:T(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+(?:\\.\\d+)?)S)?)?$"));
    if (const auto m = iso.match(s); m.hasMatch() && s.size() > 1)
        return m.captured(1).toDouble() * 86400 + m.captured(2).toDouble() * 3600 + m.captured(3).toDouble() * 60
            + m.captured(4).toDouble();
    bool ok = false;
    const double d = s.toDouble(&ok);
    return ok ? std::optional<double>(d) : std::nullopt;
}

/// gcloud's duration(): ISO 8601, the `parts` largest non-zero parts, seconds to `precision` digits with trailing
/// zeros dropped ("PT1H2M3.5S"; zero is "PT0S").
QString isoDuration(double seconds, int parts, int precision)
{
    QString sign;
    if (seconds < 0) {
        sign = QStringLiteral("-");
        seconds = -seconds;
    }
    const qint64 whole = qint64(seconds);
    const double fraction = seconds - double(whole);
    const qint64 days = whole / 86400;
    const qint64 hours = whole % 86400 / 3600;
    const qint64 minutes = whole % 3600 / 60;
    const double secs = double(whole % 60) + fraction;
    QString date;
    QString time;
    int used = 0;
    if (days && used < parts) {
        date += QString::number(days) + QLatin1Char('D');
        ++used;
    }
    if (hours && used < parts) {
        time += QString::number(hours) + QLatin1Char('H');
        ++used;
    }
    if (minutes && used < parts) {
        time += QString::number(minutes) + QLatin1Char('M');
        ++used;
    }
    if ((secs > 0 && used < parts) || (date.isEmpty() && time.isEmpty())) {
        QString text = QString::number(secs, 'f', qBound(0, precision, 9));
        if (text.contains(QLatin1Char('.'))) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(QLatin1Char('.')))
                text.chop(1);
        }
        time += text + QLatin1Char('S');
    }
    return sign + QLatin1Char('P') + date + (time.isEmpty() ? QString() : QString(QLatin1Char('T') + time));
}

QJsonValue sortedList(const QJsonValue& v, const QString& attr)
{
    if (!v.isArray())
        return v;
    QList<QJsonValue> items;
    for (const QJsonValue& item : v.toArray())
        items << item;
    const QList<KeyPart> key = parseKeyText(attr);
    std::stable_sort(items.begin(), items.end(), [&](const QJsonValue& a, const QJsonValue& b) {
        const QJsonValue ka = attr.isEmpty() ? a : walk(a, key, 0);
        const QJsonValue kb = attr.isEmpty() ? b : walk(b, key, 0);
        if (ka.isDouble() && kb.isDouble())
            return ka.toDouble() < kb.toDouble();
        return ResourceFormat::cellText(ka) < ResourceFormat::cellText(kb);
    });
    QJsonArray out;
    for (const QJsonValue& item : items)
        out << item;
    return out;
}

} // namespace

QString ResourceFormat::cellText(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    case QJsonValue::Double:
        return numberText(value.toDouble());
    default:
        return pythonRepr(value);
    }
}

QJsonValue ResourceFormat::Data::applyTransform(
    const Call& call, const QJsonValue& value, const QJsonValue& resource) const
{
    const QString& n = call.name;
    if (context.extraTransforms.contains(n))
        return context.extraTransforms.value(n)(value, resource, call.args);
    if (n == QLatin1String("basename")) {
        if (value.isUndefined() || value.isNull())
            return call.arg(0, QStringLiteral("undefined"));
        QString path = cellText(value);
        while (path.endsWith(QLatin1Char('/')))
            path.chop(1);
        return path.section(QLatin1Char('/'), -1);
    }
    if (n == QLatin1String("date")) {
        const QString format = call.arg(0, QStringLiteral("format"), QStringLiteral("%Y-%m-%dT%H:%M:%S"));
        QDateTime t;
        if (value.isDouble()) {
            const double unit = call.arg(1, QStringLiteral("unit"), QStringLiteral("1")).toDouble();
            t = QDateTime::fromMSecsSinceEpoch(qint64(value.toDouble() / (unit > 0 ? unit : 1) * 1000), QTimeZone::utc());
        } else {
            t = Rfc3339::parse(value.toString());
        }
        if (!t.isValid())
            return call.arg(2, QStringLiteral("undefined"));
        // gcloud's date(format, unit, undefined, tz, tz_default): no tz keeps the timestamp's own zone (UTC here).
        const QString tz = call.arg(3, QStringLiteral("tz"));
        QTimeZone zone = QTimeZone::utc();
        if (tz == QLatin1String("LOCAL"))
            zone = QTimeZone::systemTimeZone();
        else if (!tz.isEmpty() && tz != QLatin1String("UTC"))
            zone = QTimeZone(tz.toUtf8());
        if (!zone.isValid())
            zone = QTimeZone::utc();
        return strftimeIn(t.toUTC(), format, zone);
    }
    if (n == QLatin1String("duration")) {
        bool startGiven = false;
        const QString start = call.arg(0, QStringLiteral("start"), {}, &startGiven);
        std::optional<double> seconds;
        if (startGiven && !start.isEmpty()) {
            // duration(start=createTime, end=endTime): the time between two of the resource's timestamps (end: now).
            const QDateTime a = Rfc3339::parse(walk(resource, parseKeyText(start), 0).toString());
            const QString end = call.arg(1, QStringLiteral("end"));
            const QDateTime b = end.isEmpty() ? QDateTime::currentDateTimeUtc()
                                              : Rfc3339::parse(walk(resource, parseKeyText(end), 0).toString());
            if (a.isValid() && b.isValid())
                seconds = double(a.msecsTo(b)) / 1000.0;
        } else {
            seconds = durationSeconds(value);
            if (seconds)
                *seconds /= qMax(1e-9, call.arg(5, QStringLiteral("unit"), QStringLiteral("1")).toDouble());
        }
        if (!seconds)
            return call.arg(6, QStringLiteral("undefined"));
        return isoDuration(*seconds, call.arg(2, QStringLiteral("parts"), QStringLiteral("3")).toInt(),
            call.arg(3, QStringLiteral("precision"), QStringLiteral("3")).toInt());
    }
    if (n == QLatin1String("firstof")) {
        // firstof(key, …): the first of the resource's keys with a value.
        for (const QString& k : call.args) {
            const QJsonValue v = walk(resource, parseKeyText(k), 0);
            if (truthy(v))
                return v;
        }
        return QString();
    }
    if (n == QLatin1String("format")) {
        // format("{0}-{1}", key0, key1): Python's str.format with positional fields only.
        QStringList values;
        if (call.args.size() > 1) {
            for (qsizetype i = 1; i < call.args.size(); ++i)
                values << cellText(walk(resource, parseKeyText(call.args.at(i)), 0));
        } else if (value.isArray()) {
            for (const QJsonValue& v : value.toArray())
                values << cellText(v);
        } else {
            values << cellText(value);
        }
        QString out = call.arg(0, QStringLiteral("fmt"));
        static const QRegularExpression field(QStringLiteral("\\{(\\d+)\\}"));
        QString result;
        qsizetype last = 0;
        auto it = field.globalMatch(out);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            result += out.mid(last, m.capturedStart() - last) + values.value(m.captured(1).toInt());
            last = m.capturedEnd();
        }
        return QString(result + out.mid(last));
    }
    if (n == QLatin1String("join")) {
        const QString sep = call.arg(0, QStringLiteral("sep"), QStringLiteral("/"));
        if (!value.isArray())
            return value.isUndefined() ? QJsonValue(call.arg(1, QStringLiteral("undefined"))) : value;
        QStringList parts;
        for (const QJsonValue& v : value.toArray())
            parts << cellText(v);
        return parts.join(sep);
    }
    if (n == QLatin1String("len")) {
        if (value.isArray())
            return double(value.toArray().size());
        if (value.isObject())
            return double(value.toObject().size());
        if (value.isString())
            return double(value.toString().size());
        return 0.0;
    }
    if (n == QLatin1String("limit")) {
        const int count = call.arg(0, QStringLiteral("n"), QStringLiteral("0")).toInt();
        if (!value.isArray())
            return value;
        QJsonArray out;
        for (const QJsonValue& v : value.toArray()) {
            if (out.size() >= count)
                break;
            out << v;
        }
        return out;
    }
    if (n == QLatin1String("list")) {
        const QString sep = call.arg(2, QStringLiteral("separator"), QStringLiteral(","));
        QStringList parts;
        if (value.isArray()) {
            for (const QJsonValue& v : value.toArray())
                parts << cellText(v);
        } else if (value.isObject()) {
            const QJsonObject o = value.toObject();
            for (auto it = o.begin(); it != o.end(); ++it)
                parts << it.key() + QLatin1Char('=') + cellText(it.value());
        } else {
            return value.isUndefined() ? QJsonValue(call.arg(1, QStringLiteral("undefined"))) : value;
        }
        return parts.join(sep);
    }
    if (n == QLatin1String("lower"))
        return cellText(value).toLower();
    if (n == QLatin1String("upper"))
        return cellText(value).toUpper();
    if (n == QLatin1String("sort"))
        return sortedList(value, call.arg(0, QStringLiteral("attr")));
    if (n == QLatin1String("uri"))
        return context.uriOf ? context.uriOf(resource) : QString();
    if (n == QLatin1String("yesno")) {
        bool yesGiven = false;
        const QString yes = call.arg(0, QStringLiteral("yes"), QStringLiteral("Yes"), &yesGiven);
        return truthy(value) ? QJsonValue(yesGiven ? yes : QStringLiteral("Yes"))
                             : QJsonValue(call.arg(1, QStringLiteral("no"), QStringLiteral("No")));
    }
    return value;
}

QJsonValue ResourceFormat::Data::evaluate(const Column& c, const QJsonValue& resource) const
{
    QJsonValue v = walk(resource, c.key, 0);
    for (const Call& call : c.transforms)
        v = applyTransform(call, v, resource);
    return v;
}

// ---- printers -----------------------------------------------------------------------------------------------------

namespace {

QJsonValue mergeInto(const QJsonValue& into, const QJsonValue& add)
{
    if (into.isObject() && add.isObject()) {
        QJsonObject o = into.toObject();
        const QJsonObject a = add.toObject();
        for (auto it = a.begin(); it != a.end(); ++it)
            o.insert(it.key(), o.contains(it.key()) ? mergeInto(o.value(it.key()), it.value()) : it.value());
        return o;
    }
    if (into.isArray() && add.isArray()) {
        QJsonArray out;
        const QJsonArray a = into.toArray();
        const QJsonArray b = add.toArray();
        for (qsizetype i = 0; i < qMax(a.size(), b.size()); ++i)
            out << (i < a.size() && i < b.size() ? mergeInto(a.at(i), b.at(i)) : i < a.size() ? a.at(i) : b.at(i));
        return out;
    }
    return add;
}

/// The part of `v` that `key` reaches, in its place (json(trainingOutput.trials) keeps the two levels), with the
/// column's transforms applied at the leaf.
QJsonValue projectPath(const QJsonValue& v, const QList<KeyPart>& key, qsizetype i,
    const std::function<QJsonValue(const QJsonValue&)>& leaf)
{
    if (i >= key.size())
        return leaf(v);
    const KeyPart& part = key.at(i);
    if (part.kind == KeyPart::All || (part.kind == KeyPart::Name && v.isArray())) {
        if (!v.isArray())
            return QJsonValue::Undefined;
        QJsonArray out;
        for (const QJsonValue& item : v.toArray()) {
            const QJsonValue r = projectPath(item, key, part.kind == KeyPart::All ? i + 1 : i, leaf);
            if (!r.isUndefined())
                out << r;
        }
        return out;
    }
    if (part.kind == KeyPart::Index) {
        const QJsonArray a = v.toArray();
        const qsizetype at = part.index < 0 ? a.size() + part.index : part.index;
        if (!v.isArray() || at < 0 || at >= a.size())
            return QJsonValue::Undefined;
        const QJsonValue r = projectPath(a.at(at), key, i + 1, leaf);
        return r.isUndefined() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(QJsonArray { r });
    }
    if (!v.isObject() || !v.toObject().contains(part.name))
        return QJsonValue::Undefined;
    const QJsonValue r = projectPath(v.toObject().value(part.name), key, i + 1, leaf);
    if (r.isUndefined())
        return r;
    return QJsonObject { { part.name, r } };
}

QString alignCell(const QString& text, int width, const QString& align)
{
    const int pad = qMax(0, width - int(text.size()));
    if (align == QLatin1String("right"))
        return QString(pad, QLatin1Char(' ')) + text;
    if (align == QLatin1String("center"))
        return QString(pad / 2, QLatin1Char(' ')) + text + QString(pad - pad / 2, QLatin1Char(' '));
    return text + QString(pad, QLatin1Char(' '));
}

} // namespace

QJsonValue ResourceFormat::Data::projectOne(const QJsonValue& resource) const
{
    if (!projected)
        return resource;
    QJsonValue out = QJsonObject();
    for (const Column& c : columns) {
        if (c.key.isEmpty()) {
            // A transform on the whole resource (`uri()`): its label names it.
            out = mergeInto(out, QJsonObject { { c.label.toLower(), evaluate(c, resource) } });
            continue;
        }
        const QJsonValue part = projectPath(resource, c.key, 0, [&](const QJsonValue& leaf) {
            QJsonValue v = leaf;
            for (const Call& call : c.transforms)
                v = applyTransform(call, v, resource);
            return v;
        });
        if (!part.isUndefined())
            out = mergeInto(out, part);
    }
    return out;
}

QList<QJsonValue> ResourceFormat::Data::records(const QJsonArray& resources) const
{
    QList<QJsonValue> out;
    for (const QJsonValue& r : resources)
        out << r;
    // Columns with :sort=N order the records (N ascending precedence), :reverse descending.
    QList<const Column*> keys;
    for (const Column& c : columns) {
        if (c.sortOrder > 0)
            keys << &c;
    }
    std::stable_sort(keys.begin(), keys.end(), [](const Column* a, const Column* b) { return a->sortOrder < b->sortOrder; });
    if (!keys.isEmpty()) {
        std::stable_sort(out.begin(), out.end(), [&](const QJsonValue& a, const QJsonValue& b) {
            for (const Column* c : keys) {
                const QJsonValue va = evaluate(*c, a);
                const QJsonValue vb = evaluate(*c, b);
                const bool less = va.isDouble() && vb.isDouble() ? va.toDouble() < vb.toDouble()
                                                                 : cellText(va) < cellText(vb);
                const bool more = va.isDouble() && vb.isDouble() ? vb.toDouble() < va.toDouble()
                                                                 : cellText(vb) < cellText(va);
                if (less || more)
                    return c->reverse ? more : less;
            }
            return false;
        });
    }
    return out;
}

QString ResourceFormat::Data::table(const QJsonArray& resources) const
{
    const QList<QJsonValue> rows = records(resources);
    QList<const Column*> plain;
    QList<const Column*> nested;
    for (const Column& c : columns)
        (c.subformat.isEmpty() ? plain : nested) << &c;
    const bool heading = !has(QStringLiteral("no-heading"));
    const bool box = has(QStringLiteral("box"));
    const QString title = attribute(QStringLiteral("title"), {});
    auto render = [&](const QList<QJsonValue>& records) -> QString {
        QStringList headings;
        for (const Column* c : plain)
            headings << c->label;
        QList<QStringList> cells;
        for (const QJsonValue& r : records) {
            QStringList row;
            for (const Column* c : plain)
                row << cellText(evaluate(*c, r));
            cells << row;
        }
        if (box)
            return Printer::boxTable(title, heading ? headings : QStringList(headings.size(), QString()), cells);
        QList<int> widths;
        for (const QString& h : headings)
            widths << (heading ? int(h.size()) : 0);
        for (const QStringList& row : cells) {
            for (qsizetype i = 0; i < row.size(); ++i)
                widths[i] = qMax(widths.at(i), int(row.at(i).size()));
        }
        QString out = title.isEmpty() ? QString() : QString(title + QLatin1Char('\n'));
        auto line = [&](const QStringList& values) -> QString {
            QString l;
            for (qsizetype i = 0; i < values.size(); ++i) {
                const bool last = i + 1 == values.size();
                l += last && plain.at(i)->align == QLatin1String("left")
                    ? values.at(i)
                    : alignCell(values.at(i), widths.at(i), plain.at(i)->align);
                if (!last)
                    l += QStringLiteral("  ");
            }
            while (l.endsWith(QLatin1Char(' ')))
                l.chop(1);
            return l + QLatin1Char('\n');
        };
        if (heading)
            out += line(headings);
        for (const QStringList& row : cells)
            out += line(row);
        return out;
    };
    if (rows.isEmpty())
        return QString(); // gcloud prints no heading for an empty list (the command says "Listed 0 items.")
    if (nested.isEmpty())
        return render(rows);
    // A nested `:format=` column: each record's plain columns, then the nested format over that key's list (as
    // gcloud's predict prints `table(predictions:format="table(…)")`).
    QString out;
    for (const QJsonValue& r : rows) {
        if (!plain.isEmpty())
            out += render({ r });
        for (const Column* c : nested) {
            const QJsonValue v = evaluate(*c, r);
            out += v.isArray() ? c->nested->renderList(v.toArray()) : c->nested->renderOne(v);
        }
    }
    return out;
}

QString ResourceFormat::Data::separated(const QJsonArray& resources, bool csv) const
{
    // gcloud's csv_printer: csv quotes fields holding the separator, the delimiter, a quote or a line end, and heads
    // the lines with the labels in lower case; value has no heading, tabs and no quoting unless [quote].
    const QString separator = attribute(QStringLiteral("separator"), csv ? QStringLiteral(",") : QStringLiteral("\t"));
    const QString delimiter = attribute(QStringLiteral("delimiter"), QStringLiteral(";"));
    const QString terminator = attribute(QStringLiteral("terminator"), QStringLiteral("\n"));
    const bool quote = csv ? !has(QStringLiteral("no-quote")) : has(QStringLiteral("quote"));
    auto quoted = [&](const QString& field) -> QString {
        if (!quote || field.isEmpty())
            return field;
        if (!(field.contains(delimiter) || field.contains(QLatin1Char('"')) || field.contains(separator)
                || field.contains(terminator) || field.front().isSpace() || field.back().isSpace()))
            return field;
        return QString(QLatin1Char('"') + QString(field).replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"'));
    };
    QString out;
    // As gcloud's printer, the heading comes with the first record: an empty list prints nothing.
    if (csv && !has(QStringLiteral("no-heading")) && !resources.isEmpty()) {
        QStringList labels;
        for (const Column& c : columns)
            labels << quoted(c.label.toLower());
        out += labels.join(separator) + terminator;
    }
    for (const QJsonValue& r : records(resources)) {
        QStringList line;
        for (const Column& c : columns) {
            const QJsonValue v = evaluate(c, r);
            if (v.isObject()) {
                QStringList items;
                const QJsonObject o = v.toObject();
                for (auto it = o.begin(); it != o.end(); ++it)
                    items << quoted(it.key() + QLatin1Char('=') + cellText(it.value()));
                line << items.join(delimiter);
            } else if (v.isArray()) {
                QStringList items;
                for (const QJsonValue& item : v.toArray())
                    items << quoted(cellText(item));
                line << items.join(delimiter);
            } else {
                line << quoted(cellText(v));
            }
        }
        out += line.join(separator) + terminator;
    }
    return out;
}

QString ResourceFormat::Data::listed(const QJsonArray& resources) const
{
    // gcloud's list_printer: " - " and the record's items, one per line (indented) or on one line [compact].
    const QString sep = has(QStringLiteral("compact")) ? QStringLiteral(" ") : QStringLiteral("\n   ");
    QString out;
    const QString title = attribute(QStringLiteral("title"), {});
    if (!title.isEmpty() && (!resources.isEmpty() || has(QStringLiteral("always-display-title"))))
        out += title + QLatin1Char('\n');
    for (const QJsonValue& r : records(resources)) {
        QStringList items;
        if (projected) {
            for (const Column& c : columns)
                items << cellText(evaluate(c, r));
        } else if (r.isObject()) {
            const QJsonObject o = r.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (!it.value().isNull())
                    items << it.key() + QLatin1String(": ") + cellText(it.value());
            }
        } else if (r.isArray()) {
            for (const QJsonValue& v : r.toArray())
                items << cellText(v);
        } else {
            items << cellText(r);
        }
        out += QStringLiteral(" - ") + items.join(sep) + QLatin1Char('\n');
    }
    return out;
}

QString ResourceFormat::Data::renderRecords(const QJsonArray& resources, bool single) const
{
    if (name == QLatin1String("json") || name == QLatin1String("yaml")) {
        QJsonArray projectedResources;
        for (const QJsonValue& r : records(resources))
            projectedResources << projectOne(r);
        if (name == QLatin1String("json")) {
            const QJsonDocument doc = single && !projectedResources.isEmpty()
                ? (projectedResources.first().isArray() ? QJsonDocument(projectedResources.first().toArray())
                                                        : QJsonDocument(projectedResources.first().toObject()))
                : QJsonDocument(projectedResources);
            return QString::fromUtf8(doc.toJson(QJsonDocument::Indented));
        }
        QString out;
        for (qsizetype i = 0; i < projectedResources.size(); ++i) {
            if (!single && i > 0)
                out += QStringLiteral("---\n");
            out += Printer::toYaml(projectedResources.at(i));
        }
        return out;
    }
    if (name == QLatin1String("list"))
        return listed(resources);
    if (name == QLatin1String("table")) {
        if (!projected) {
            // A table without keys: the resources' own top-level keys, as gcloud's default table of a dict.
            QStringList keys;
            for (const QJsonValue& r : resources) {
                const QJsonObject o = r.toObject();
                for (auto it = o.begin(); it != o.end(); ++it) {
                    if (!keys.contains(it.key()))
                        keys << it.key();
                }
            }
            Data copy = *this;
            copy.projected = true;
            for (const QString& k : keys) {
                Column c;
                c.key = parseKeyText(k);
                c.label = angrySnake(k);
                copy.columns << c;
            }
            return copy.table(resources);
        }
        return table(resources);
    }
    return separated(resources, name == QLatin1String("csv"));
}

QString ResourceFormat::renderList(const QJsonArray& resources) const
{
    return d->renderRecords(resources, false);
}

QString ResourceFormat::renderOne(const QJsonValue& resource) const
{
    return d->renderRecords(QJsonArray { resource }, true);
}

// ---- list flags ---------------------------------------------------------------------------------------------------

void ListDisplay::addFlags(ArgParser& parser)
{
    if (!parser.hasOption(QStringLiteral("flatten")))
        parser.addFlag(QStringLiteral("flatten"), QStringLiteral("KEY"),
            QStringLiteral("One record per item of the list KEY (comma-separated for several), KEY holding the "
                           "item, as gcloud's --flatten."));
    if (!parser.hasOption(QStringLiteral("sort-by")))
        parser.addFlag(QStringLiteral("sort-by"), QStringLiteral("FIELD"),
            QStringLiteral("Sort by these keys (comma-separated; ~ before a key for descending), e.g. ~createTime."));
    if (!parser.hasOption(QStringLiteral("limit")))
        parser.addFlag(QStringLiteral("limit"), QStringLiteral("LIMIT"),
            QStringLiteral("At most this many (after --sort-by; default: all)."));
    if (!parser.hasOption(QStringLiteral("page-size")))
        parser.addFlag(QStringLiteral("page-size"), QStringLiteral("PAGE_SIZE"),
            QStringLiteral("Resources per request, as gcloud's (checked, at least 1); the list is read whole "
                           "either way."));
    if (!parser.hasOption(QStringLiteral("uri")))
        parser.addSwitch(QStringLiteral("uri"), QStringLiteral("Print each resource's URI instead of the list."));
}

bool ListDisplay::take(const ArgParser& parser, QString* error)
{
    const auto split = [](const QString& text) {
        QStringList out;
        for (const QString& s : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
            out << s.trimmed();
        return out;
    };
    flatten = split(parser.value(QStringLiteral("flatten")));
    sortBy = split(parser.value(QStringLiteral("sort-by")));
    uri = parser.isTrue(QStringLiteral("uri"));
    int pageSize = 0;
    if (parser.isSet(QStringLiteral("page-size"))
        && !ArgParser::parseInt(QStringLiteral("page-size"), parser.value(QStringLiteral("page-size")), 1, &pageSize, error))
        return false;
    if (parser.isSet(QStringLiteral("limit"))) {
        // gcloud: a positive integer, or "unlimited".
        if (parser.value(QStringLiteral("limit")) == QLatin1String("unlimited"))
            limit = -1;
        else if (!ArgParser::parseInt(QStringLiteral("limit"), parser.value(QStringLiteral("limit")), 1, &limit, error))
            return false;
    }
    return true;
}

QJsonArray ListDisplay::apply(const QJsonArray& resources) const
{
    QList<QJsonValue> records;
    for (const QJsonValue& r : resources)
        records << r;
    for (const QString& key : flatten) {
        const QList<KeyPart> path = parseKeyText(key);
        QList<QJsonValue> next;
        for (const QJsonValue& r : std::as_const(records)) {
            const QJsonValue list = walk(r, path, 0);
            if (!list.isArray() || list.toArray().isEmpty()) {
                next << r; // gcloud keeps a record whose list is empty or absent, once
                continue;
            }
            for (const QJsonValue& item : list.toArray()) {
                // Replace the value at `key` by the item: rebuild the objects on the way down.
                std::function<QJsonValue(const QJsonValue&, qsizetype)> put = [&](const QJsonValue& v, qsizetype i) {
                    if (i >= path.size())
                        return item;
                    if (path.at(i).kind != KeyPart::Name || !v.isObject())
                        return v;
                    QJsonObject o = v.toObject();
                    o.insert(path.at(i).name, put(o.value(path.at(i).name), i + 1));
                    return QJsonValue(o);
                };
                next << put(r, 0);
            }
        }
        records = next;
    }
    if (!sortBy.isEmpty()) {
        std::stable_sort(records.begin(), records.end(), [&](const QJsonValue& a, const QJsonValue& b) {
            for (const QString& spec : sortBy) {
                const bool descending = spec.startsWith(QLatin1Char('~'));
                const QList<KeyPart> path = parseKeyText(descending ? spec.mid(1) : spec);
                const QJsonValue va = walk(a, path, 0);
                const QJsonValue vb = walk(b, path, 0);
                const bool numeric = va.isDouble() && vb.isDouble();
                const bool less = numeric ? va.toDouble() < vb.toDouble()
                                          : ResourceFormat::cellText(va) < ResourceFormat::cellText(vb);
                const bool more = numeric ? vb.toDouble() < va.toDouble()
                                          : ResourceFormat::cellText(vb) < ResourceFormat::cellText(va);
                if (less || more)
                    return descending ? more : less;
            }
            return false;
        });
    }
    QJsonArray out;
    for (const QJsonValue& r : std::as_const(records)) {
        if (limit >= 0 && out.size() >= limit)
            break;
        out << r;
    }
    return out;
}

} // namespace Trainyard
