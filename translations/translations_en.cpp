// SPDX-License-Identifier: GPL-2.0-or-later
// The English catalogue's library (translations/CMakeLists.txt): it holds only the compiled trainyard_en.qm, the
// plural forms of the console's "%n …(s)" strings, as a resource; this file gives the library a source.
namespace Trainyard::Translations::English {
}
