#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks the .deb the way a user gets it: built by CPack, checked by lintian, desktop-file-validate and
# appstreamcli, then installed with apt into a clean Debian 12 (bookworm) chroot twice, without and with
# Recommends. In each: the executor starts as the systemd user unit starts it, trainyardctl runs the
# pure-Python sample trainer against it, and the console, under the host's Xvfb, connects to that executor
# (--no-auto-start) and shows the job (its screenshot hook saves three PNGs, so it drew with the xcb plugin).
# With Recommends the Fashion-MNIST sample runs too (PyTorch and the data set come from them). Needs root.
#   packaging/debian12-install.sh          build the package from build/dev, check it, install it twice
#   packaging/debian12-install.sh --prepare only make the clean base chroot (CI runs this while it compiles)
#   TRAINYARD_BUILD_DIR=DIR                the configured build folder to package (default: <repo>/build/dev)
#   TRAINYARD_DEB=FILE                     check this .deb instead of building one
#   TRAINYARD_CHROOT_DIR=DIR               where the chroots live (default: <repo>/.chroot): bookworm (the
#                                          clean base, kept for the next run), bookworm-apt (downloaded
#                                          packages, kept), bookworm-test (each install, removed after)
#   TRAINYARD_DEBIAN_MIRROR=URL            Debian mirror (default: the host's own)
# Screenshots and logs go to <build>/debian12-install/{no-recommends,recommends}/.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${TRAINYARD_BUILD_DIR:-$src/build/dev}
chroots=${TRAINYARD_CHROOT_DIR:-$src/.chroot}
base=$chroots/bookworm
archives=$chroots/bookworm-apt
root=$chroots/bookworm-test
results=$build/debian12-install
started=$SECONDS

say() { echo "debian12-install: $*"; }
elapsed() { echo "$((SECONDS - started)) s"; }
fail() {
    say "FAILED: $*" >&2
    exit 1
}

. "$src/packaging/chroot.sh"
mirror=$(chroot_mirror)
chroot_use_host_proxy

xvfb_pid=
cleanup() {
    chroot_unmount "$root"
    [[ -d "$root" ]] && rm -rf --one-file-system "$root"
    [[ -n "$xvfb_pid" ]] && kill "$xvfb_pid" 2>/dev/null
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ "${1:-}" == "--prepare" ]]; then
    if [[ ! -f "$base/.trainyard-bootstrapped" ]]; then
        chroot_bootstrap bookworm "$base" "$mirror"
    fi
    say "the clean base chroot is ready after $(elapsed)"
    exit 0
fi

# --- the package ---------------------------------------------------------------------------------------------
if [[ -n "${TRAINYARD_DEB:-}" ]]; then
    deb=$(realpath "$TRAINYARD_DEB")
else
    rm -f "$build"/trainyard_*.deb
    cmake --build "$build" --target package >"$build/cpack.log" 2>&1 || { cat "$build/cpack.log"; fail "cpack"; }
    deb=$(ls "$build"/trainyard_*.deb)
fi
say "$(basename "$deb"): $(dpkg-deb -f "$deb" Installed-Size) KiB installed"
say "Depends: $(dpkg-deb -f "$deb" Depends)"
say "Recommends: $(dpkg-deb -f "$deb" Recommends)"

# --- static checks on the host -------------------------------------------------------------------------------
rm -rf "$results" && mkdir -p "$results"
contents=$results/contents
dpkg-deb -x "$deb" "$contents"
# lintian: errors and warnings fail; the overrides the package installs say why each overridden tag is expected.
lintian_ok=true
lintian --fail-on error,warning --display-info "$deb" >"$results/lintian.log" 2>&1 || lintian_ok=false
grep -v '^running with root privileges' "$results/lintian.log" || true
$lintian_ok || fail "lintian"
validation=$(desktop-file-validate "$contents/usr/share/applications/trainyard.desktop" 2>&1) &&
    [[ -z "$validation" ]] || fail "desktop-file-validate: $validation"
appstreamcli validate --no-net "$contents/usr/share/metainfo/io.trainyard.Trainyard.metainfo.xml" ||
    fail "appstreamcli validate"
# The user unit as systemd reads it (ExecStart pointed at the extracted program, which it checks is executable;
# the chroot below runs the installed path). systemd-analyze warns without failing, so any output fails.
mkdir -p "$results/unit" "$results/unit-runtime"
chmod 0700 "$results/unit-runtime"
sed "s#^ExecStart=/#ExecStart=$contents/#" "$contents/usr/lib/systemd/user/trainyard-executor.service" \
    >"$results/unit/trainyard-executor.service"
verified=$(XDG_RUNTIME_DIR=$results/unit-runtime systemd-analyze --user verify --man=no \
    "$results/unit/trainyard-executor.service" 2>&1) && [[ -z "$verified" ]] || fail "systemd-analyze verify: $verified"
# Installed programs and files name no source or build folder: they find their data through standard paths.
if grep -rlF -e "$src" -e "$build" "$contents"; then
    fail "the files above name the source or build folder"
fi
say "lintian, desktop-file-validate, appstreamcli, systemd-analyze and the path check passed after $(elapsed)"

# --- the clean Debian 12 -------------------------------------------------------------------------------------
if [[ ! -f "$base/.trainyard-bootstrapped" ]]; then
    chroot_bootstrap bookworm "$base" "$mirror"
    say "debootstrap done after $(elapsed)"
fi
mkdir -p "$archives/partial"

# An X server on the host, shared through its socket, so that nothing X-related is installed in the chroot
# beyond what the package pulls in. -displayfd picks a free display and writes its number when it listens.
mkfifo "$results/display"
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$results/display" >"$results/xvfb.log" 2>&1 &
xvfb_pid=$!
read -r -t 30 display <"$results/display" || fail "Xvfb did not start: $(cat "$results/xvfb.log")"
rm -f "$results/display"

# What runs inside, as the user "tester". The executor starts as the user unit starts it: the unit's ExecStart,
# from $HOME, with systemd's user environment (XDG_RUNTIME_DIR=/run/user/UID, no DISPLAY).
# shellcheck disable=SC2016
smoke='
set -euo pipefail
say() { echo "debian12-install [$MODE]: $*"; }
# Waits until a condition holds: wait_for SECONDS COMMAND...
wait_for() {
    local deadline=$((SECONDS + $1)); shift
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}
runtime_pid() { sed -n "s/.*\"pid\": *\([0-9]*\).*/\1/p" "$XDG_RUNTIME_DIR/trainyard/executor.json"; }
# The processes of this user whose program is trainyard-executor (argv[0], the text up to the first NUL of
# cmdline), of this user only: the chroot shares the process table of the host, where other executors may run.
executors() {
    local n=0 c argv0
    for c in /proc/[0-9]*/cmdline; do
        [[ -O $c ]] || continue
        argv0=
        IFS= read -r -d "" argv0 <"$c" 2>/dev/null || true
        [[ $argv0 == */trainyard-executor ]] && n=$((n + 1))
    done
    echo $n
}

exec_start=$(sed -n "s/^ExecStart=//p" /usr/lib/systemd/user/trainyard-executor.service)
[[ -x "$exec_start" ]] || { say "ExecStart=$exec_start is not an installed program"; exit 1; }
cd "$HOME"
$exec_start >"$HOME/executor.log" 2>&1 &
executor=$!
# A check that fails must not leave the executor running on the host (the chroot shares its process table).
trap '"'"'kill -TERM "$executor" 2>/dev/null || true'"'"' EXIT
listening_or_gone() { test -s "$XDG_RUNTIME_DIR/trainyard/executor.json" || ! kill -0 "$executor" 2>/dev/null; }
wait_for 30 listening_or_gone && test -s "$XDG_RUNTIME_DIR/trainyard/executor.json" ||
    { cat "$HOME/executor.log"; exit 1; }
say "the executor (pid $executor) listens: $(grep -o "\"url\": *\"[^\"]*\"" "$XDG_RUNTIME_DIR/trainyard/executor.json")"

trainyardctl jobs submit training linear_1 --package-path /usr/share/trainyard/trainers/linear \
    --module-name trainer.task --job-dir "$HOME/jobs/linear_1" --stream-logs -- --epochs 5 >"$HOME/linear_1.log" 2>&1 ||
    { cat "$HOME/linear_1.log"; exit 1; }
trainyardctl jobs describe linear_1 | grep -qx "state: SUCCEEDED"
test -s "$HOME/jobs/linear_1/model.json"
say "trainyardctl: linear_1 SUCCEEDED ($(grep -c "epoch [0-9]* loss" "$HOME/linear_1.log") epochs logged)"

if [[ $MODE == recommends ]]; then
    trainyardctl jobs submit training fmnist_1 --package-path /usr/share/trainyard/trainers/fmnist \
        --module-name trainer.task --job-dir "$HOME/jobs/fmnist_1" --stream-logs -- \
        --epochs 1 --train-examples 2000 >"$HOME/fmnist_1.log" 2>&1 || { tail -40 "$HOME/fmnist_1.log"; exit 1; }
    say "trainyardctl: fmnist_1 SUCCEEDED: $(grep -o "test_accuracy [0-9.]*" "$HOME/fmnist_1.log" | tail -1)"
    # A built-in algorithm, as the service'"'"'s example runs it: the installed package (/usr/share/trainyard/
    # algorithms, its links into trainers/ resolved) with XGBoost and pandas from the Recommends.
    trainyardctl jobs submit training xgb_1 --master-image-uri gcr.io/cloud-ml-algos/boosted_trees:latest \
        --job-dir "$HOME/jobs/xgb_1" --stream-logs -- --preprocess --training_data_path=/tmp/wine.csv \
        --objective=multi:softprob --num_boost_round=10 >"$HOME/xgb_1.log" 2>&1 || { tail -40 "$HOME/xgb_1.log"; exit 1; }
    test -s "$HOME/jobs/xgb_1/model/model.bst"
    trainyardctl jobs describe xgb_1 | grep -q "framework: XGBOOST"
    say "trainyardctl: xgb_1 (built-in XGBoost) SUCCEEDED"
fi

# The console finds the unit'"'"'s executor (it may not start one: --no-auto-start), lists the job, selects it and
# saves main.png, topology.png and logs.png, then quits.
mkdir -p "$HOME/shots"
TRAINYARD_CONSOLE_SCREENSHOTS=$HOME/shots TRAINYARD_CONSOLE_SCREENSHOT_JOB=linear_1 \
    timeout 120 trainyard --no-auto-start >"$HOME/console.log" 2>&1 || { cat "$HOME/console.log"; exit 1; }
for shot in main topology logs; do
    test -s "$HOME/shots/$shot.png" || { say "no $shot.png"; cat "$HOME/console.log"; exit 1; }
done
[[ "$(runtime_pid)" == "$executor" && "$(executors)" == 1 ]] ||
    { say "the console did not use the unit'"'"'s executor"; exit 1; }
say "the console connected to the executor and drew the job (screenshots)"

kill -TERM "$executor"
wait_for 30 test ! -e "$XDG_RUNTIME_DIR/trainyard/executor.json" || { say "the executor did not stop"; exit 1; }
say "the executor stopped on SIGTERM and removed its runtime file"
'

install_and_run() {
    local mode=$1 apt_options=()
    [[ $mode == no-recommends ]] && apt_options+=(--no-install-recommends)
    chroot_unmount "$root"
    rm -rf --one-file-system "$root"
    cp -a "$base" "$root"
    chroot_apt_config "$root" "$chroot_proxy"
    # A throwaway system: dpkg need not fsync every file it unpacks (about 570 packages with Recommends).
    echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/99trainyard-unsafe-io"
    chroot_mount "$root"
    mount --bind "$archives" "$root/var/cache/apt/archives"
    mkdir -p "$root/tmp/.X11-unix"
    mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
    cp "$deb" "$root/tmp/"
    cp "$src/tests/data/builtin/wine.csv" "$root/tmp/"

    local before after
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    before=$(chroot "$root" dpkg-query -W -f='.\n' | wc -l)
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${apt_options[@]}" \
        "/tmp/$(basename "$deb")" >"$results/$mode-apt.log" 2>&1 ||
        { cat "$results/$mode-apt.log"; fail "apt install"; }
    after=$(chroot "$root" dpkg-query -W -f='.\n' | wc -l)
    say "[$mode] apt installed trainyard and $((after - before - 1)) other packages after $(elapsed)"

    chroot "$root" useradd --create-home --uid 4242 --user-group tester
    install -d -m 0700 -o 4242 -g 4242 "$root/run/user/4242"
    chroot --userspec=4242:4242 "$root" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/tester USER=tester \
        LANG=C.UTF-8 XDG_RUNTIME_DIR=/run/user/4242 DISPLAY=":$display" MODE="$mode" bash -c "$smoke" ||
        { mkdir -p "$results/$mode" && cp -r "$root/home/tester/." "$results/$mode/" 2>/dev/null; fail "[$mode]"; }
    mkdir -p "$results/$mode"
    cp -r "$root/home/tester/shots" "$root/home/tester/"*.log "$results/$mode/"
    chroot_unmount "$root"
    rm -rf --one-file-system "$root"
}

install_and_run no-recommends
install_and_run recommends
say "passed after $(elapsed); screenshots in $results"
