#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs every Debian/Ubuntu package Trainyard's build, tests, benchmarks and sample trainer
# need. Idempotent and non-interactive; run as root or with sudo available.
#   packaging/setup-deps.sh            build + run + test dependencies
#   packaging/setup-deps.sh --print    print the package list and exit
set -euo pipefail

packages=(
    # toolchain
    cmake ninja-build g++ pkg-config ccache lld
    # packaging/gpu-check.sh: the bundle's programs find their libraries beside them (RPATH), xz packs it
    patchelf xz-utils
    # Qt 6 (>= 6.4): Core/Network/Sql/Concurrent/Widgets/HttpServer/Charts/Test/LinguistTools
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    qt6-httpserver-dev qt6-websockets-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
    libqt6sql6-sqlite libqt6svg6 libxkbcommon-dev libgl-dev qt6-qpa-plugins
    # the console keeps team executors' tokens in the desktop keyring (QtKeychain); the audit chain's SHA-256
    qtkeychain-qt6-dev libssl-dev
    # the audit writer's SQLite connection (the system libsqlite3 that Qt's QSQLITE driver links)
    libsqlite3-dev
    # libraries for formats
    libyaml-cpp-dev libleveldb-dev libprotobuf-dev protobuf-compiler libboost-dev zlib1g-dev libhdf5-dev
    # safetensors headers and index files (simdjson: several times QJsonDocument's speed on 10,000 tensors)
    libsimdjson-dev
    # the tuning optimiser: linear algebra and bounded L-BFGS (Boost.Random's Sobol comes with libboost-dev)
    libeigen3-dev liblbfgspp-dev
    # sample trainer and its data (Debian's Python, not PyPI)
    python3 python3-torch python3-numpy python3-pip python3-setuptools python3-wheel dataset-fashion-mnist
    # an optimised BLAS for torch on CPUs (Debian's default reference BLAS is ~5x slower for the MLP)
    libopenblas0-pthread
    # bench_tuning's baselines (tests/bench/tuning_baselines.py): Optuna's TPE and a scikit-learn GP-EI loop; the
    # Trials tab's hyperparameter importance (Optuna's fANOVA evaluator)
    python3-optuna python3-sklearn
    # the built-in algorithms (resources/algorithms): XGBoost, and pandas for the service's CSV input
    python3-xgboost python3-pandas
    # explanations' XRAI: Felzenszwalb segmentation from scikit-image (trainyard_algorithms/explanations.py)
    python3-skimage
    # the benches' anchors (issue 48): nginx serving a job's bytes as a file (bench_api), FastAPI on uvicorn with
    # uvloop and httptools around the model (bench_predict); perf to profile the request path
    nginx-light python3-fastapi python3-uvicorn python3-uvloop python3-httptools linux-perf
    # GUI tests and screenshots
    xvfb xauth openbox
    # team mode's tests: certificates made at test time (openssl), a keyring of the test's own for QtKeychain
    # (tests/support/with-keyring.sh: dbus-run-session, gnome-keyring-daemon)
    openssl dbus gnome-keyring
    # the Debian 13 (trixie) build of the KSyntaxHighlighting path, and the .deb's clean Debian 12 installs
    debootstrap
    # the .deb: CPack's DEB generator (file, dpkg-shlibdeps), the man pages' check (tst_manpages formats them)
    # and the package's checks (packaging/debian12-install.sh)
    file dpkg-dev groff-base lintian desktop-file-utils appstream systemd
    # the checkpoint readers' libFuzzer targets (tests/fuzz, packaging/fuzz.sh)
    clang libclang-rt-dev
    # the Slurm test cluster of packaging/slurm-testcluster.sh (integration/tst_slurmrest): slurmrestd's JWT
    # authentication needs slurm-wlm-jwt-plugin, which no other package pulls in
    slurmctld slurmd slurm-client slurmrestd slurm-wlm-jwt-plugin munge
    # the sandbox user code runs in (app/launch/sandbox.h): bubblewrap, unprivileged user and PID namespaces
    bubblewrap
    # custom containers (integration/tst_containers, packaging/container-images.sh): rootful podman with runc
    # (podman's default crun refuses hybrid cgroup hosts); the images are built offline with debootstrap.
    # catatonit is the init that `podman run --init` starts as PID 1: only a Recommends of podman, so an install
    # without recommends (as here) lacks it and every container replica fails with "container-init binary not found"
    podman runc catatonit
)

if [[ "${1:-}" == "--print" ]]; then
    printf '%s\n' "${packages[@]}"
    exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
    sudo="sudo"
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "setup-deps: all ${#packages[@]} packages are installed"
else
    echo "setup-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
    # The benches start nginx themselves on a free port; Debian's package also enables a site on port 80 at boot,
    # which this script does not want on a developer's machine. Only an nginx this run installed is stopped.
    if [[ " ${missing[*]} " == *" nginx-light "* ]] && command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
        $sudo systemctl disable --now nginx.service || true
    fi
fi

# An executor run as root runs user code as this system account (trainyard-executor --sandbox-user), as the .deb's
# sysusers.d file makes it (packaging/trainyard.sysusers); without it, as nobody.
if ! getent passwd trainyard >/dev/null; then
    echo "setup-deps: adding the system user trainyard (the account an executor run as root runs user code as)"
    # An absolute path: systemd-sysusers resolves a relative one against the root directory, not the working one
    # (./packaging/trainyard.sysusers was "not found" on a fresh machine, and set -e stopped the README's command).
    $sudo systemd-sysusers "$(cd "$(dirname "$0")" && pwd)/trainyard.sysusers"
fi
