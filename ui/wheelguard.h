// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

namespace Trainyard {

/// Keeps a scrolled form's combo boxes and spin boxes from changing value under the mouse wheel while the user scrolls
/// past them (issue 46: the predict form's columns changed as the form scrolled). Inside a scroll area such a field
/// takes the wheel only once it has the focus (a click or Tab first: they get Qt::StrongFocus); unfocused, the wheel
/// scrolls the area instead, as KDE's settings pages and Qt Creator's option pages behave. Fields outside any scroll
/// area keep Qt's behaviour. Installs one application-wide event filter, once, however often it is called; it looks
/// only at wheel events.
void installWheelGuard();

} // namespace Trainyard
