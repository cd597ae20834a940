# SPDX-License-Identifier: GPL-2.0-or-later
# Debian chroots for the CI steps that need another Debian than the host's: sourced by debian13-build.sh
# (the console against Qt 6.8) and debian12-install.sh (the .deb installed into a clean Debian 12). Needs root.
#
#   chroot_mirror                       the Debian mirror to use (TRAINYARD_DEBIAN_MIRROR, else the host's own)
#   chroot_use_host_proxy               sets chroot_proxy to the host's apt proxy ("" when none) and exports it
#                                       as http_proxy for debootstrap
#   chroot_bootstrap SUITE ROOT MIRROR  debootstrap --variant=minbase into ROOT unless a finished one is there
#                                       (a snapshot.debian.org mirror gets apt settings for its stale dates)
#   chroot_apt_config ROOT PROXY        the host's apt proxy for apt inside ROOT
#   chroot_mount ROOT                   /proc and /dev inside ROOT, the host's resolv.conf
#   chroot_unmount ROOT                 every mount below ROOT, deepest first

# The URI of the host's Debian archive (the entry for the host's own release, so neither -security nor
# third-party repositories), from one-line .list files and deb822 .sources files. Empty on non-Debian hosts.
chroot_host_mirror() {
    local id codename f
    id=$(. /etc/os-release && echo "${ID:-}")
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [[ "$id" == debian && -n "$codename" ]] || return 0
    {
        for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
            [[ -f "$f" ]] || continue
            awk -v s="$codename" '$1 == "deb" {
                i = 2
                if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                if ($(i + 1) == s) print $i
            }' "$f"
        done
        for f in /etc/apt/sources.list.d/*.sources; do
            [[ -f "$f" ]] || continue
            awk -v s="$codename" 'BEGIN { RS = "" } {
                types = uris = suites = ""; enabled = 1
                n = split($0, lines, "\n")
                for (k = 1; k <= n; k++) {
                    l = lines[k]
                    if (l ~ /^#/) continue
                    if (l ~ /^Types:/) types = l " "
                    else if (l ~ /^URIs:/) uris = l
                    else if (l ~ /^Suites:/) suites = l " "
                    else if (l ~ /^Enabled:[ \t]*[Nn]o/) enabled = 0
                }
                if (enabled && types ~ /[ \t]deb[ \t]/ && suites ~ ("[ \t]" s "[ \t]")) {
                    sub(/^URIs:[ \t]*/, "", uris); split(uris, u, /[ \t]+/); print u[1]
                }
            }' "$f"
        done
    } | head -n 1
}

chroot_mirror() {
    local mirror=${TRAINYARD_DEBIAN_MIRROR:-$(chroot_host_mirror)}
    echo "${mirror:-http://deb.debian.org/debian}"
}

# The host's apt proxy, if any, serves debootstrap and the chroot's apt as well.
chroot_use_host_proxy() {
    chroot_proxy=$(apt-config dump Acquire::http::Proxy 2>/dev/null |
        sed -n 's/^Acquire::http::Proxy "\(.*\)";$/\1/p' || true)
    if [[ -n "$chroot_proxy" && -z "${http_proxy:-}" ]]; then
        export http_proxy=$chroot_proxy
    fi
}

# Every mount below $1, deepest first (a failed debootstrap can leave its own proc/sys mounts).
chroot_mounts_under() {
    awk -v r="$1" 'index($2, r "/") == 1 { print $2 }' /proc/self/mounts | sort -r
}

chroot_unmount() {
    local m
    for m in $(chroot_mounts_under "$1"); do
        umount "$m" 2>/dev/null || umount -l "$m" || echo "chroot: cannot unmount $m" >&2
    done
}

# A chroot whose debootstrap did not finish is removed and made again; never while anything is mounted in
# it (a build bind-mounts the source tree there).
chroot_bootstrap() {
    local suite=$1 root=$2 mirror=$3
    if [[ -d "$root" && ! -f "$root/.trainyard-bootstrapped" ]]; then
        chroot_unmount "$root"
        if [[ -n "$(chroot_mounts_under "$root")" ]]; then
            echo "chroot: $root has mounts that will not go away; not removing it" >&2
            return 1
        fi
        echo "chroot: removing the unfinished chroot in $root"
        rm -rf --one-file-system "$root"
    fi
    if [[ ! -d "$root" ]]; then
        echo "chroot: creating the $suite chroot in $root from $mirror"
        mkdir -p "$root"
        debootstrap --variant=minbase "$suite" "$root" "$mirror"
        if [[ "$mirror" == *snapshot.debian.org* ]]; then
            # snapshot.debian.org serves Release files whose Valid-Until has passed.
            echo 'Acquire::Check-Valid-Until "false";' > "$root/etc/apt/apt.conf.d/99trainyard-snapshot"
        fi
        touch "$root/.trainyard-bootstrapped"
    fi
}

chroot_apt_config() {
    local root=$1 proxy=$2
    if [[ -n "$proxy" ]]; then
        echo "Acquire::http::Proxy \"$proxy\";" > "$root/etc/apt/apt.conf.d/99trainyard-proxy"
    fi
}

chroot_mount() {
    local root=$1
    mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
    mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}
