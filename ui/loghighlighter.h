// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QColor>
#include <QList>
#include <QString>

#include <memory>

namespace Trainyard {

/// Colours inside a log line's message for the log view: numbers, quoted strings and file names stand
/// out of a replica's output. With KDE KSyntaxHighlighting (TRAINYARD_HAVE_KSYNTAXHIGHLIGHTING) the
/// "Log File (advanced)" definition and the default light theme decide; only its value styles (numbers,
/// strings, constants, attributes, keywords, data types) are kept, since the view already shows the
/// severity and the level colour of whole lines would drown everything else. Without KF6 (Debian 12)
/// built-in rules colour numbers, quoted strings and paths with the same theme's colours.
///
/// Lines are highlighted one at a time and independently (a replica's lines are interleaved with other
/// replicas', so no state carries over). Not thread-safe: one instance per view.
class LogMessageHighlighter {
public:
    /// A coloured run of characters: [start, start + length) in UTF-16 code units of the text given.
    struct Span {
        int start = 0;
        int length = 0;
        QColor color;
        bool bold = false;
    };

    LogMessageHighlighter();
    ~LogMessageHighlighter();
    LogMessageHighlighter(const LogMessageHighlighter&) = delete;
    LogMessageHighlighter& operator=(const LogMessageHighlighter&) = delete;

    /// The spans of `text`, sorted by start and not overlapping; characters outside them keep the line's
    /// own colour.
    QList<Span> spans(const QString& text);

    /// "KSyntaxHighlighting: Log File (advanced)" or "built-in" (for diagnostics and tests).
    QString backendName() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Trainyard
