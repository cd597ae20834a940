#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the container images the custom-container tests and the README's example use, with no registry:
# only Debian's apt mirror (debootstrap) and the local podman store (podman import, podman build).
#
#   packaging/container-images.sh            build what is missing (cached: an image that exists is kept)
#   packaging/container-images.sh --rebuild  build both again
#   packaging/container-images.sh --print    print the image names and exit
#
# Images:
#   localhost/trainyard-py:bookworm      Debian 12 minbase + python3, numpy, PyTorch (CPU) and the Fashion-MNIST
#                                        dataset, from the mirror; CMD python3.             (about 1 GB, 3-6 min)
#   localhost/trainyard-fmnist:latest    FROM the above + the sample trainer (resources/trainers/fmnist) in
#                                        /opt/trainer, ENTRYPOINT python3 -m trainer.task: the service's way of
#                                        packaging a trainer as a custom container.                     (seconds)
# The trainer image is rebuilt when the trainer's files change (a label holds their hash).
#
# Needs root (rootful podman, debootstrap). Uses the runc runtime when it is installed (crun cannot run on
# hosts with hybrid cgroups; see the README's "Custom containers") and touches no system configuration.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=localhost/trainyard-py:bookworm
TRAINER=localhost/trainyard-fmnist:latest
if [[ "${1:-}" == "--print" ]]; then
    printf '%s\n' "$BASE" "$TRAINER"
    exit 0
fi
rebuild=0
[[ "${1:-}" == "--rebuild" ]] && rebuild=1

# One build at a time: CI starts this script in the background while it compiles, and tst_containers runs it
# again before its first job; the second waits here and then finds the images built.
exec 9>"${TMPDIR:-/tmp}/trainyard-container-images.lock"
flock 9

sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
podman=($sudo podman)
if command -v runc >/dev/null; then
    podman+=(--runtime "$(command -v runc)")
fi

if [[ $rebuild -eq 1 ]] || ! "${podman[@]}" image exists "$BASE"; then
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [[ -n "$mirror" ]] || mirror=$(awk '$1=="deb"{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
    [[ -n "$mirror" ]] || mirror=http://deb.debian.org/debian
    work=$(mktemp -d /var/tmp/trainyard-rootfs.XXXXXX)
    trap '$sudo rm -rf "$work"' EXIT
    echo "container-images: debootstrap of $BASE from $mirror"
    started=$SECONDS
    $sudo nice -n 10 debootstrap --variant=minbase \
        --include=python3,python3-numpy,python3-torch,libopenblas0-pthread,dataset-fashion-mnist \
        bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
        tail -n 30 "$work/debootstrap.log"
        exit 1
    }
    # The downloaded packages and the lists are not needed in the image (apt-get update restores the lists).
    $sudo rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*_Packages \
        "$work"/rootfs/var/lib/apt/lists/*_InRelease
    # `podman import` sets no PATH in the image's config: give one, as a Containerfile's base would have.
    $sudo tar -C "$work/rootfs" -c . | nice -n 10 "${podman[@]}" import \
        --change 'CMD ["python3"]' --change 'ENV PYTHONUNBUFFERED=1' \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$BASE" >/dev/null
    $sudo rm -rf "$work"
    trap - EXIT
    echo "container-images: $BASE built in $((SECONDS - started)) s"
fi

# The trainer image: only COPY/ENV/ENTRYPOINT, so the build runs no container and needs no network.
hash=$(cd resources/trainers/fmnist && find trainer -name '*.py' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
current=$("${podman[@]}" image inspect --format '{{index .Labels "io.trainyard.trainer-hash"}}' "$TRAINER" 2>/dev/null || true)
if [[ $rebuild -eq 1 || "$current" != "$hash" ]]; then
    context=$(mktemp -d /var/tmp/trainyard-fmnist.XXXXXX)
    cp -r resources/trainers/fmnist/trainer "$context/trainer"
    find "$context" -name __pycache__ -prune -exec rm -rf {} +
    cat >"$context/Containerfile" <<EOF
FROM $BASE
COPY trainer /opt/trainer/trainer
ENV PYTHONPATH=/opt/trainer
WORKDIR /opt/trainer
LABEL io.trainyard.trainer-hash=$hash
ENTRYPOINT ["python3", "-m", "trainer.task"]
EOF
    "${podman[@]}" build --network=none -q -t "$TRAINER" "$context" >/dev/null
    rm -rf "$context"
    echo "container-images: $TRAINER built (trainer $hash)"
fi
"${podman[@]}" images --filter reference='localhost/trainyard-*'
