// SPDX-License-Identifier: GPL-2.0-or-later
// Anchor unit so the library always has an object file.
namespace Trainyard::Formats {
int formatsLibraryAnchor()
{
    return 0;
}
}
