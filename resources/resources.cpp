// SPDX-License-Identifier: GPL-2.0-or-later
// The resource library has no code of its own; this unit gives the static library an object file.
namespace Trainyard {
int resourcesLibraryAnchor()
{
    return 0;
}
}
