// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>

namespace Trainyard::Formats {

/// The length of the valid UTF-8 sequence of 2 to 4 bytes that starts at `p` (before `end`), or 0 when the
/// bytes there are none: no overlong form, no surrogate (U+D800–U+DFFF), nothing above U+10FFFF, as RFC 3629
/// section 4 defines well-formed UTF-8. The log store's encoder (LogJson::appendEscaped()) writes such a sequence
/// as it is and any other byte as U+FFFD, and its index's fast path (LogIndex) accepts what it wrote by the same
/// rule, so the two cannot disagree. Inline: it runs for every non-ASCII byte of every log line.
inline size_t utf8SequenceLength(const unsigned char* p, const unsigned char* end)
{
    const unsigned char c = *p;
    size_t len = 0;
    unsigned int cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (size_t(end - p) < len)
        return 0;
    for (size_t i = 1; i < len; ++i) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return len;
}

} // namespace Trainyard::Formats
