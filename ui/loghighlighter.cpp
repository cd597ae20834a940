// SPDX-License-Identifier: GPL-2.0-or-later
#include "loghighlighter.h"

#include <QRegularExpression>

#include <algorithm>

#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>
#endif

namespace Trainyard {

namespace {
// KSyntaxHighlighting's default light theme ("Breeze Light"): decimal/float, string, attribute.
const QColor NumberColor(0xb0, 0x80, 0x00);
const QColor StringColor(0xbf, 0x03, 0x03);
const QColor PathColor(0x00, 0x57, 0xae);

#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
/// Collects the value-style formats of one line.
class KfLineHighlighter final : public KSyntaxHighlighting::AbstractHighlighter {
public:
    QList<LogMessageHighlighter::Span> run(const QString& text)
    {
        m_spans.clear();
        highlightLine(text, KSyntaxHighlighting::State());
        return m_spans;
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format& format) override
    {
        using Theme = KSyntaxHighlighting::Theme;
        if (length <= 0 || !format.hasTextColor(theme()))
            return;
        switch (format.textStyle()) {
        case Theme::DecVal:
        case Theme::BaseN:
        case Theme::Float:
        case Theme::Constant:
        case Theme::String:
        case Theme::VerbatimString:
        case Theme::SpecialString:
        case Theme::Attribute:
        case Theme::Keyword:
        case Theme::DataType:
            m_spans.append({ offset, length, format.textColor(theme()), format.isBold(theme()) });
            break;
        default:
            break;
        }
    }

private:
    QList<LogMessageHighlighter::Span> m_spans;
};
#endif
} // namespace

struct LogMessageHighlighter::Private {
#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
    std::unique_ptr<KSyntaxHighlighting::Repository> repository;
    std::unique_ptr<KfLineHighlighter> kf;
    QString definitionName;
#endif
    // Built-in rules, in priority order: a later match never overlaps an earlier one.
    QRegularExpression strings { QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'") };
    QRegularExpression paths { QStringLiteral("(?<![\\w.])(?:/[\\w.+\\-@]+)+/?") };
    QRegularExpression numbers { QStringLiteral("(?<![\\w.])[-+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?%?(?![\\w])") };
};

LogMessageHighlighter::LogMessageHighlighter()
    : d(std::make_unique<Private>())
{
#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
    d->repository = std::make_unique<KSyntaxHighlighting::Repository>();
    for (const QString& name : { QStringLiteral("Log File (advanced)"), QStringLiteral("Log File (simplified)") }) {
        const KSyntaxHighlighting::Definition definition = d->repository->definitionForName(name);
        if (definition.isValid()) {
            d->kf = std::make_unique<KfLineHighlighter>();
            d->kf->setTheme(d->repository->defaultTheme(KSyntaxHighlighting::Repository::LightTheme));
            d->kf->setDefinition(definition);
            d->definitionName = name;
            break;
        }
    }
#endif
    d->strings.optimize();
    d->paths.optimize();
    d->numbers.optimize();
}

LogMessageHighlighter::~LogMessageHighlighter() = default;

QString LogMessageHighlighter::backendName() const
{
#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
    if (d->kf)
        return QStringLiteral("KSyntaxHighlighting: ") + d->definitionName;
#endif
    return QStringLiteral("built-in");
}

QList<LogMessageHighlighter::Span> LogMessageHighlighter::spans(const QString& text)
{
    if (text.isEmpty())
        return {};
#ifdef TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING
    if (d->kf) {
        QList<Span> result = d->kf->run(text);
        std::sort(result.begin(), result.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
        return result;
    }
#endif
    QList<Span> result;
    auto overlaps = [&result](int start, int length) {
        return std::any_of(result.cbegin(), result.cend(),
            [&](const Span& s) { return start < s.start + s.length && s.start < start + length; });
    };
    const std::pair<const QRegularExpression*, QColor> rules[] = {
        { &d->strings, StringColor },
        { &d->paths, PathColor },
        { &d->numbers, NumberColor },
    };
    for (const auto& [re, color] : rules) {
        auto it = re->globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            const int start = int(m.capturedStart());
            const int length = int(m.capturedLength());
            if (length > 0 && !overlaps(start, length))
                result.append({ start, length, color, false });
        }
    }
    std::sort(result.begin(), result.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    return result;
}

} // namespace Trainyard
