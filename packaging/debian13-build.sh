#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds and tests the console against Debian 13 (trixie): Qt 6.8 and KF6 KSyntaxHighlighting,
# the path Debian 12 cannot build. Runs in a debootstrap chroot kept under .chroot/trixie
# (reused when present). Needs root (debootstrap, chroot, mount). Builds the three programs and
# the GUI tests only, and runs the GUI tests (ctest -L gui); exits non-zero when anything fails.
#   packaging/debian13-build.sh           create/refresh the chroot, build, run the console's tests
#   packaging/debian13-build.sh --prepare only create/refresh the chroot (CI runs this while it compiles)
#   TRAINYARD_CHROOT=/path                where the chroot lives (default: <repo>/.chroot/trixie)
#   TRAINYARD_DEBIAN_MIRROR=URL           Debian mirror (default: the host's own Debian mirror from
#                                         its apt sources, else http://deb.debian.org/debian)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
root=${TRAINYARD_CHROOT:-$src/.chroot/trixie}
started=$SECONDS
prepare=0
[[ "${1:-}" == "--prepare" ]] && prepare=1

say() { echo "debian13-build: $*"; }
elapsed() { echo "$((SECONDS - started)) s"; }

. "$src/packaging/chroot.sh"
mirror=$(chroot_mirror)
chroot_use_host_proxy

packages=(
    cmake ninja-build g++ lld pkg-config ca-certificates
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    # (Debian 13 folds libqt6opengl6-dev into qt6-base-dev)
    qt6-httpserver-dev qt6-websockets-dev qt6-charts-dev qt6-svg-dev libqt6sql6-sqlite
    libqt6svg6 qt6-svg-plugins qt6-qpa-plugins fonts-dejavu-core
    libxkbcommon-dev libgl-dev
    libkf6syntaxhighlighting-dev
    qtkeychain-qt6-dev libssl-dev openssl dbus gnome-keyring libsqlite3-dev
    libyaml-cpp-dev libleveldb-dev libprotobuf-dev protobuf-compiler libboost-dev zlib1g-dev libsimdjson-dev
    libeigen3-dev liblbfgspp-dev
    python3 python3-pip python3-setuptools python3-wheel
    # the Trials tab's hyperparameter importance (trainyard_algorithms.importance: Optuna's fANOVA on scikit-learn)
    python3-optuna python3-sklearn
)

cleanup() { chroot_unmount "$root"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ ! -f "$root/.trainyard-bootstrapped" ]]; then
    chroot_bootstrap trixie "$root" "$mirror"
    say "debootstrap done after $(elapsed)"
fi
chroot_apt_config "$root" "$chroot_proxy"
chroot_mount "$root"
mkdir -p "$root/work/src"
mountpoint -q "$root/work/src" || mount --bind "$src" "$root/work/src"

missing=$(chroot "$root" dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null |
    awk '$2 != "installed" { print $1 }' || true)
if ! chroot "$root" dpkg-query -W "${packages[@]}" >/dev/null 2>&1 || [[ -n "$missing" ]]; then
    say "installing build packages in the chroot"
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}"
    chroot "$root" apt-get clean
    say "packages installed after $(elapsed)"
fi

if [[ $prepare -eq 1 ]]; then
    say "chroot ready after $(elapsed)"
    exit 0
fi

qt_version=$(chroot "$root" dpkg-query -W -f='${Version}' qt6-base-dev)
kf6_version=$(chroot "$root" dpkg-query -W -f='${Version}' libkf6syntaxhighlighting-dev)
say "Qt $qt_version, KF6 SyntaxHighlighting $kf6_version"

# This build checks that the console compiles against Qt 6.8 and KF6 and that its tests pass there; nobody
# debugs it, so it is built without debug info and at -O1 (still with NDEBUG, as the build type's): a batch of the
# console's files compiles in 17 s instead of 24. At -O1, GCC 14 warns that a std::optional<double> compared in
# Study::sortBestFirst() "may be used uninitialized" (22 times; it is read only after has_value(): GCC's known false
# positive with std::optional, bug 80635), so that warning is off in this build only. Its GUI tests run three at a
# time, as the main build's do.
# The build folder lives inside the chroot (not in the bind-mounted source tree), so the host's
# build/ and the chroot's never mix. TRAINYARD_EXPECT_KSYNTAXHIGHLIGHTING makes tst_yamlhighlighter
# fail unless the console was built with the KF6 highlighter. Every test runs under trainyard-test-reaper (ctest's
# launcher, tests/CMakeLists.txt), so it is built with them: without it ctest reports each test "Not Run".
gui_tests=$(cd "$src/tests/gui" && ls tst_*.cpp | sed 's/\.cpp$//' | tr '\n' ' ')
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    TRAINYARD_EXPECT_KSYNTAXHIGHLIGHTING=1 GUI_TESTS="$gui_tests" bash -euo pipefail -c '
    cmake -S /work/src -B /work/build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG -Wno-maybe-uninitialized" -DTRAINYARD_FIXTURES_DIR=/work/src/tests/data
    grep -q "^KF6SyntaxHighlighting_DIR:PATH=/usr" /work/build/CMakeCache.txt ||
        { echo "debian13-build: KF6SyntaxHighlighting was not found" >&2; exit 1; }
    cmake --build /work/build -j "$(nproc)" --target trainyard trainyard-executor trainyardctl trainyard-test-reaper $GUI_TESTS
    cd /work/build && ctest -L gui --output-on-failure --no-tests=error -j 3
'
say "Qt $qt_version, KF6 SyntaxHighlighting $kf6_version: OK after $(elapsed)"
