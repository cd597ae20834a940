#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds and tests the console against Debian 13 (trixie): Qt 6.8 and KF6 KSyntaxHighlighting,
# the path Debian 12 cannot build. Runs in a debootstrap chroot kept under .chroot/trixie
# (reused when present). Needs root (debootstrap, chroot, mount).
#   packaging/debian13-build.sh           create/refresh the chroot, build, run the console's tests
#   TRAINYARD_CHROOT=/path packaging/debian13-build.sh
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
root=${TRAINYARD_CHROOT:-$src/.chroot/trixie}
mirror=${TRAINYARD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
shared=$(cd "$src/../shared" 2>/dev/null && pwd || true)

packages=(
    cmake ninja-build g++ pkg-config ca-certificates
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-httpserver-dev qt6-websockets-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libqt6sql6-sqlite
    libxkbcommon-dev libgl-dev
    libkf6syntaxhighlighting-dev
    libyaml-cpp-dev libleveldb-dev libprotobuf-dev protobuf-compiler libboost-dev
    python3 python3-pip python3-setuptools
)

if [[ ! -x "$root/usr/bin/apt-get" ]]; then
    echo "debian13-build: creating the trixie chroot in $root"
    mkdir -p "$root"
    debootstrap --variant=minbase trixie "$root" "$mirror"
fi

cleanup() {
    for m in "$root/work/shared" "$root/work/src" "$root/dev" "$root/proc"; do
        if mountpoint -q "$m"; then umount -l "$m"; fi
    done
}
trap cleanup EXIT

mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
mkdir -p "$root/work/src" "$root/work/shared"
mountpoint -q "$root/work/src" || mount --bind "$src" "$root/work/src"
if [[ -n "$shared" ]]; then
    mountpoint -q "$root/work/shared" || mount --bind "$shared" "$root/work/shared"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

missing=$(chroot "$root" dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null |
    awk '$NF != "installed" {print $1}' || true)
if ! chroot "$root" dpkg-query -W "${packages[@]}" >/dev/null 2>&1 || [[ -n "$missing" ]]; then
    echo "debian13-build: installing build packages in the chroot"
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

# The build folder lives inside the chroot (not in the bind-mounted source tree), so the host's
# build/ and the chroot's never mix.
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash -euo pipefail -c '
    cmake -S /work/src -B /work/build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DTRAINYARD_FIXTURES_DIR=/work/shared/fixtures
    grep -q "KF6SyntaxHighlighting_FOUND:INTERNAL=1\|KF6SyntaxHighlighting_DIR:PATH=/usr" /work/build/CMakeCache.txt ||
        { echo "debian13-build: KF6SyntaxHighlighting was not found" >&2; exit 1; }
    cmake --build /work/build --target trainyard trainyard_ui $(cd /work/src/tests/gui && ls tst_*.cpp 2>/dev/null | sed "s/\.cpp$//")
    cd /work/build && ctest -L gui --output-on-failure --no-tests=error
'
echo "debian13-build: Qt $(chroot "$root" dpkg-query -W -f='${Version}' qt6-base-dev), KF6 SyntaxHighlighting $(chroot "$root" dpkg-query -W -f='${Version}' libkf6syntaxhighlighting-dev): OK"
