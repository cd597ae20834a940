#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs "$@" (a test) in a private D-Bus session with an unlocked GNOME Keyring of its own, so that QtKeychain's real
# Secret Service path works headless (CI, Xvfb) and never meets the user's keyring. The keyring lives in a temporary
# folder removed afterwards. TRAINYARD_TEST_KEYRING=gnome-keyring tells the test that a keyring runs; without
# dbus-run-session or gnome-keyring-daemon (packages dbus, gnome-keyring) the test runs without one and says so.
if [ -z "$TRAINYARD_IN_KEYRING_SESSION" ] && command -v dbus-run-session >/dev/null 2>&1 \
    && command -v gnome-keyring-daemon >/dev/null 2>&1; then
    TRAINYARD_IN_KEYRING_SESSION=1 exec dbus-run-session -- "$0" "$@"
fi
if [ -n "$TRAINYARD_IN_KEYRING_SESSION" ]; then
    dir=$(mktemp -d)
    mkdir -p "$dir/data" "$dir/run"
    chmod 700 "$dir/run"
    # An empty password makes gnome-keyring ask a GUI prompter to create the login keyring; any other creates it
    # unlocked without one.
    if printf 'trainyard-test' | XDG_DATA_HOME="$dir/data" XDG_RUNTIME_DIR="$dir/run" \
        gnome-keyring-daemon --unlock --components=secrets >/dev/null; then
        export TRAINYARD_TEST_KEYRING=gnome-keyring
    fi
    "$@"
    rc=$?
    rm -rf "$dir"
    exit $rc
fi
exec "$@"
