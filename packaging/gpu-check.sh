#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The GPU check: the executor and the Fashion-MNIST sample on a real NVIDIA GPU, on a machine that has the driver,
# CUDA and PyTorch but no Qt and no build tree (issue 28). It packs what a built tree made, carries it there, and
# runs two jobs through trainyardctl: BASIC_GPU (one master with a GPU), then CUSTOM with a GPU master and two CPU
# workers (DDP; the trainer picks NCCL when every member has a GPU, else gloo). It prints a summary: the GPUs the
# executor and nvidia-smi see, each replica's CUDA_VISIBLE_DEVICES (read from the replica's own environment), the
# executor's NVML samples (gpu_utilization_percent, gpu_memory_bytes), nvidia-smi's samples, the test accuracy and
# the time of each job.
#
#   packaging/gpu-check.sh --pack FILE   pack the build's trainyard, trainyard-executor and trainyardctl, stripped,
#                                        with the shared libraries they load (glibc aside), the Qt plugins they need
#                                        (SQLite, offscreen), the sample trainer and a Fashion-MNIST subset into FILE
#                                        (.tar.xz, at most 64 MiB: what the device machine's carry takes)
#   packaging/gpu-check.sh --run FILE    unpack FILE and run the check on this machine's GPU
#   packaging/gpu-check.sh               both, here
#   packaging/gpu-check.sh --dry-run     both, here, against the NVML stand-in (tests/fakenvml: one "Tesla T4"), with
#                                        PyTorch on CPUs and fewer examples: what CI runs (about 3 minutes on 2 cores)
#   TRAINYARD_BUILD_DIR=DIR              the built tree to pack (default: <repo>/build/dev)
#   TRAINYARD_PYTHON=PYTHON              the Python with PyTorch (default: the first of /usr/bin/python3 and python3 on
#                                        PATH that imports torch; with a GPU, one whose torch sees CUDA)
#   GPU_CHECK_WORK=DIR                   the work folder (default: a new one under /tmp, removed after a success)
# Exit status 0 only when every check passed; the reason of a failure is the last line printed.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${TRAINYARD_BUILD_DIR:-$src/build/dev}
started=$SECONDS
say() { echo "gpu-check: $*"; }
fail() {
    echo "gpu-check: FAILED: $*" >&2
    exit 1
}
elapsed() { echo "$((SECONDS - started)) s"; }

mode=both pack_file= run_file= dry_run=0
while (($#)); do
    case $1 in
    --pack) mode=pack pack_file=${2:?--pack needs a FILE}; shift ;;
    --run) mode=run run_file=${2:?--run needs a FILE}; shift ;;
    --dry-run) dry_run=1 ;;
    -h | --help) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) fail "unknown argument $1 (see --help)" ;;
    esac
    shift
done

work=${GPU_CHECK_WORK:-$(mktemp -d /tmp/trainyard-gpu-check.XXXXXX)}
mkdir -p "$work"
work=$(realpath "$work")
executor_pid= sampler_pid= smi_pid=
cleanup() {
    local status=$?
    for pid in $sampler_pid $smi_pid; do kill "$pid" 2>/dev/null || true; done
    if [[ -n "$executor_pid" ]] && kill -0 "$executor_pid" 2>/dev/null; then
        # SIGTERM: the executor stops its replicas and removes its runtime file.
        kill -TERM "$executor_pid" 2>/dev/null || true
        for _ in $(seq 300); do kill -0 "$executor_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$executor_pid" 2>/dev/null || true
    fi
    if ((status == 0)) && [[ -z "${GPU_CHECK_WORK:-}" ]]; then
        rm -rf --one-file-system "$work"
    else
        echo "gpu-check: logs and job dirs kept in $work" >&2
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- packing -----------------------------------------------------------------------------------------------------
# glibc stays the target's own (a program cannot carry its dynamic loader and still be found by its own path);
# MANIFEST records the newest glibc symbol version the bundle needs, checked before anything runs there.
glibc_sonames='^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libresolv|libutil|libanl|libnsl|libBrokenLocale|libmvec)\.so'

pack() {
    local out=$1 bundle=$work/pack/trainyard-gpu-check
    local programs=("$build/app/console/trainyard" "$build/app/executor/trainyard-executor" "$build/app/ctl/trainyardctl")
    for p in "${programs[@]}"; do
        [[ -x "$p" ]] || fail "$p is missing: build first (cmake --preset dev && cmake --build --preset dev)"
    done
    command -v patchelf >/dev/null || fail "patchelf is missing (packaging/setup-deps.sh installs it)"
    rm -rf "$bundle"
    mkdir -p "$bundle"/{bin,lib,plugins,share}
    local plugins
    plugins=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
    local objects=()
    for p in "${programs[@]}"; do
        objcopy --strip-debug "$p" "$bundle/bin/$(basename "$p")"
        objects+=("$bundle/bin/$(basename "$p")")
    done
    # The executor's SQLite driver; the offscreen platform, so that the console starts without a display; TLS.
    for plugin in sqldrivers/libqsqlite.so platforms/libqoffscreen.so tls/libqopensslbackend.so; do
        [[ -f "$plugins/$plugin" ]] || fail "the Qt plugin $plugins/$plugin is missing"
        mkdir -p "$bundle/plugins/$(dirname "$plugin")"
        objcopy --strip-debug "$plugins/$plugin" "$bundle/plugins/$plugin"
        objects+=("$bundle/plugins/$plugin")
    done
    # Every library the programs and plugins load, by soname, glibc aside; ldd resolves the whole closure.
    local line name path
    while read -r name path; do
        [[ "$name" =~ $glibc_sonames ]] && continue
        [[ -f "$bundle/lib/$name" ]] && continue
        objcopy --strip-debug "$path" "$bundle/lib/$name"
    done < <(for o in "${objects[@]}"; do ldd "$o"; done | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u)
    if ldd "${objects[@]}" | grep -q "not found"; then
        fail "a library the programs need is not found here: $(ldd "${objects[@]}" | grep "not found" | sort -u)"
    fi
    # The programs find the libraries beside them (DT_RPATH, which, unlike RUNPATH, also serves the libraries'
    # own dependencies), and Qt finds its plugins through qt.conf; nothing goes into the environment, so the
    # replicas (the target's Python and PyTorch) load none of these libraries.
    for o in "$bundle"/bin/trainyard*; do patchelf --force-rpath --set-rpath '$ORIGIN/../lib' "$o"; done
    for o in "$bundle"/lib/*.so* "$bundle"/plugins/*/*.so; do
        patchelf --force-rpath --set-rpath "\$ORIGIN$([[ $o == */plugins/* ]] && echo /../../lib || true)" "$o"
    done
    printf '[Paths]\nPrefix=..\nPlugins=plugins\n' >"$bundle/bin/qt.conf"
    # The sample trainer (links into common files resolved) and its data: the whole test set (10,000 images) and
    # the first 12,000 training images, in the data set's own IDX format, gzip'd; a machine with
    # /usr/share/datasets/fashion-mnist trains on all 60,000 instead.
    cp -rL "$src/resources/trainers/fmnist" "$bundle/share/fmnist"
    find "$bundle/share/fmnist" -name __pycache__ -prune -exec rm -rf {} +
    local data=/usr/share/datasets/fashion-mnist
    [[ -f "$data/train-images-idx3-ubyte.gz" ]] || fail "$data is missing (apt install dataset-fashion-mnist)"
    mkdir -p "$bundle/share/fashion-mnist"
    /usr/bin/python3 - "$data" "$bundle/share/fashion-mnist" <<'PY'
import gzip, struct, sys
src, dst = sys.argv[1], sys.argv[2]
for split, keep in (("train", 12000), ("t10k", 10000)):
    for kind, item in (("images-idx3", 28 * 28), ("labels-idx1", 1)):
        name = f"{split}-{kind}-ubyte.gz"
        with gzip.open(f"{src}/{name}", "rb") as f:
            magic, count = struct.unpack(">II", f.read(8))
            dims = f.read(8) if item > 1 else b""
            body = f.read(keep * item)
        with gzip.open(f"{dst}/{name}", "wb", compresslevel=9) as f:
            f.write(struct.pack(">II", magic, min(count, keep)) + dims + body)
PY
    local needs
    needs=$(for o in "$bundle"/bin/trainyard* "$bundle"/lib/*.so* "$bundle"/plugins/*/*.so; do objdump -T "$o"; done |
        grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
    # Shell assignments (printf %q quotes them), read back with `.` by --run.
    {
        printf 'built_on=%q\n' "$(. /etc/os-release && echo "$PRETTY_NAME")"
        printf 'commit=%q\n' "$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)"
        printf 'glibc_needed=%q\n' "$needs"
    } >"$bundle/MANIFEST"
    mkdir -p "$(dirname "$out")"
    tar -C "$work/pack" -cf - trainyard-gpu-check | xz -T0 -6 >"$out"
    local size
    size=$(stat -c %s "$out")
    say "packed $(find "$bundle/lib" -type f | wc -l) libraries, $(du -sh "$bundle" | cut -f1) unpacked, into $out" \
        "($((size / 1024 / 1024)) MiB; glibc ≥ $needs) after $(elapsed)"
    ((size <= 64 * 1024 * 1024)) || fail "$out is $size bytes, over 64 MiB"
}

# --- running -----------------------------------------------------------------------------------------------------
version_ge() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" == "$2" ]]; }

# The first Python that imports torch (and, on a GPU machine, whose torch sees CUDA).
pick_python() {
    local want_cuda=$1 c
    for c in ${TRAINYARD_PYTHON:-} /usr/bin/python3 "$(command -v python3 || true)"; do
        [[ -n "$c" && -x "$c" ]] || continue
        if ((want_cuda)); then
            "$c" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null && { echo "$c"; return; }
        else
            "$c" -c 'import torch' 2>/dev/null && { echo "$c"; return; }
        fi
    done
    return 1
}

# Every second: each replica of the sample (a process whose command line holds trainer.task) with its TF_CONFIG
# task and CUDA_VISIBLE_DEVICES, as the process itself sees them.
sample_replicas() {
    local out=$1 pid env job task cvd line
    local -A seen=()
    : >"$out"
    while true; do
        for pid in $(pgrep -f 'trainer\.task' || true); do
            env=$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null) || continue
            job=$(sed -n 's/^CLOUD_ML_JOB_ID=//p' <<<"$env")
            [[ -n "$job" ]] || continue
            # TF_CONFIG's "task": {"type": …, "index": …}, in either order.
            task=$(sed -n 's/^TF_CONFIG=.*"task": *{\([^}]*\)}.*/\1/p' <<<"$env")
            task="$(sed -n 's/.*"type": *"\([a-z]*\)".*/\1/p' <<<"$task")-$(sed -n 's/.*"index": *\([0-9]*\).*/\1/p' <<<"$task")"
            if grep -q '^CUDA_VISIBLE_DEVICES=' <<<"$env"; then
                cvd="CUDA_VISIBLE_DEVICES=$(sed -n 's/^CUDA_VISIBLE_DEVICES=//p' <<<"$env")"
            else
                cvd="CUDA_VISIBLE_DEVICES unset"
            fi
            line="$job $task $cvd"
            [[ -z "${seen[$line]:-}" ]] || continue
            seen[$line]=1
            echo "$line" >>"$out"
        done
        sleep 0.5
    done
}

run_check() {
    local archive=$1
    local root=$work/run
    rm -rf "$root"
    mkdir -p "$root"
    xz -dc "$archive" | tar -C "$root" -xf -
    local bundle=$root/trainyard-gpu-check
    [[ -f "$bundle/MANIFEST" ]] || fail "$archive is not a gpu-check bundle"
    # shellcheck disable=SC1091
    . "$bundle/MANIFEST"
    local have
    have=$(getconf GNU_LIBC_VERSION | awk '{ print $2 }')
    version_ge "$have" "$glibc_needed" ||
        fail "this machine has glibc $have; the bundle (built on $built_on) needs $glibc_needed or newer"
    say "bundle of $commit (built on $built_on); this machine: $(. /etc/os-release && echo "$PRETTY_NAME"), glibc $have"
    # Every Qt library must come from the bundle, even where the machine has Qt of its own.
    local foreign
    foreign=$(ldd "$bundle"/bin/trainyard* | awk '$1 ~ /^libQt6/ { print $3 }' | sort -u | xargs -r realpath |
        grep -v "^$bundle/lib/" || true)
    [[ -z "$foreign" ]] || fail "Qt libraries from outside the bundle: $foreign"
    ! ldd "$bundle"/bin/trainyard* | grep -q "not found" ||
        fail "unresolved libraries: $(ldd "$bundle"/bin/trainyard* | grep "not found" | sort -u)"
    QT_QPA_PLATFORM=offscreen "$bundle/bin/trainyard" --help >/dev/null 2>&1 || fail "the console does not start: $(
        QT_QPA_PLATFORM=offscreen "$bundle/bin/trainyard" --help 2>&1 | tail -3)"

    local -a nvml_env=()
    local smi=0 python
    if ((dry_run)); then
        local fake=$build/tests/fakenvml/lib
        [[ -f "$fake/libnvidia-ml.so.1" ]] || fail "the NVML stand-in $fake/libnvidia-ml.so.1 is missing (build the fakenvml target)"
        # The stand-in puts each process whose command line holds trainer.task on the GPU its CUDA_VISIBLE_DEVICES
        # names (tests/fakenvml/fakenvml.cpp).
        nvml_env=(LD_LIBRARY_PATH="$fake" FAKE_NVML_GPU_COUNT=1 FAKE_NVML_MATCH=trainer.task)
        python=$(pick_python 0) || fail "no Python here imports torch (apt install python3-torch)"
        say "dry run: the NVML stand-in ($fake) in place of a driver; PyTorch on CPUs"
    else
        command -v nvidia-smi >/dev/null || fail "nvidia-smi is missing: no NVIDIA driver here (use --dry-run)"
        nvidia-smi -L >"$work/nvidia-smi-L.txt" 2>&1 || fail "nvidia-smi -L: $(cat "$work/nvidia-smi-L.txt")"
        grep -q '^GPU ' "$work/nvidia-smi-L.txt" || fail "nvidia-smi lists no GPU"
        python=$(pick_python 1) || fail "no Python here has a PyTorch that sees CUDA (set TRAINYARD_PYTHON)"
        smi=1
    fi
    say "python: $python, $("$python" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda,
        "available" if torch.cuda.is_available() else "not available",
        *(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())))')"

    # The data: the machine's own copy when it has one, else the bundle's subset.
    local data=/usr/share/datasets/fashion-mnist
    [[ -f "$data/train-images-idx3-ubyte.gz" ]] || data=$bundle/share/fashion-mnist

    # An account of its own: the executor's runtime file, database and job dirs, and trainyardctl's token.
    local home=$work/home
    mkdir -p "$home"/{run,data,config,cache,jobs}
    chmod 700 "$home/run"
    local -a account=(HOME="$home" XDG_RUNTIME_DIR="$home/run" XDG_DATA_HOME="$home/data"
        XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" TRAINYARD_PYTHON="$python")
    env "${account[@]}" "${nvml_env[@]}" "$bundle/bin/trainyard-executor" >"$work/executor.log" 2>&1 &
    executor_pid=$!
    local i
    for i in $(seq 300); do
        [[ -s "$home/run/trainyard/executor.json" ]] && break
        kill -0 "$executor_pid" 2>/dev/null || fail "the executor exited: $(tail -5 "$work/executor.log")"
        sleep 0.1
    done
    [[ -s "$home/run/trainyard/executor.json" ]] || fail "the executor wrote no runtime file in 30 s"
    ctl() { env "${account[@]}" "$bundle/bin/trainyardctl" "$@"; }
    ctl clusters describe local --format json >"$work/local.json" || fail "clusters describe local failed"
    say "the executor (pid $executor_pid) listens; it sees: $("$python" - "$work/local.json" <<'PY'
import json, sys
nodes = json.load(open(sys.argv[1])).get("nodes", [])
print("; ".join("node %s: %s CPUs, %s GPUs" % (n.get("name"), n.get("cpus"), n.get("gpus", 0)) for n in nodes))
PY
)"

    sample_replicas "$work/replicas.txt" &
    sampler_pid=$!
    if ((smi)); then
        nvidia-smi --query-gpu=timestamp,index,utilization.gpu,memory.used --format=csv,noheader,nounits -lms 500 \
            >"$work/nvidia-smi.csv" 2>&1 &
        smi_pid=$!
    fi

    local -a basic_args custom_args
    if ((dry_run)); then
        basic_args=(--epochs 1 --train-examples 4000)
        custom_args=(--epochs 1 --train-examples 3000)
    else
        basic_args=(--epochs 2)
        custom_args=(--epochs 1)
    fi
    local -A took
    submit() {
        local job=$1; shift
        local t0=$SECONDS
        say "$job: submitted"
        ctl jobs submit training "$job" --package-path "$bundle/share/fmnist" --module-name trainer.task \
            --job-dir "$home/jobs/$job" --stream-logs "$@" >"$work/$job.log" 2>&1 ||
            fail "$job: $(tail -15 "$work/$job.log")"
        ctl jobs describe "$job" | grep -qx "state: SUCCEEDED" || fail "$job did not succeed: $(ctl jobs describe "$job")"
        took[$job]=$((SECONDS - t0))
    }
    submit gpu_check_basic_gpu --scale-tier BASIC_GPU -- "${basic_args[@]}" --data-dir "$data"
    submit gpu_check_custom --scale-tier CUSTOM --master-machine-type n1-standard-8 \
        --master-accelerator count=1,type=nvidia-tesla-t4 --worker-machine-type n1-standard-4 --worker-count 2 \
        -- "${custom_args[@]}" --data-dir "$data"
    kill "$sampler_pid" 2>/dev/null || true
    [[ -n "$smi_pid" ]] && kill "$smi_pid" 2>/dev/null || true

    # --- the summary ---
    echo
    echo "=== GPU check summary ($( ((dry_run)) && echo "dry run: NVML stand-in, CPUs" || echo "NVIDIA GPU")) ==="
    if ((smi)); then
        echo "GPUs (nvidia-smi -L):"
        sed 's/^/  /' "$work/nvidia-smi-L.txt"
    fi
    echo "replicas (their own environment):"
    sed 's/^/  /' "$work/replicas.txt"
    local job failed=0
    for job in gpu_check_basic_gpu gpu_check_custom; do
        echo "$job: SUCCEEDED in ${took[$job]} s; $(grep -o 'training finished after epoch [0-9]*: test_accuracy [0-9.]*' \
            "$work/$job.log" | tail -1 || grep -o 'test_accuracy [0-9.]*' "$work/$job.log" | tail -1)"
        echo "  devices: $(grep -o '[a-z]*-replica-[0-9]*: process group ready ([^)]*)' "$work/$job.log" | sort -u |
            paste -sd ';' | sed 's/;/; /g')"
        ctl jobs metrics "$job" --format csv >"$work/$job.metrics.csv" || fail "$job: jobs metrics failed"
        "$python" - "$work/$job.metrics.csv" <<'PY' || failed=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
util = {}; mem = {}
for r in rows:
    run, tag, value = r["run"], r["tag"], float(r["value"])
    if tag.endswith("gpu_utilization_percent"):
        util.setdefault(run, []).append(value)
    elif tag.endswith("gpu_memory_bytes"):
        mem.setdefault(run, []).append(value)
if not util and not mem:
    print("  executor's NVML samples: none (no replica was seen on a GPU)")
    sys.exit(1)
for run in sorted(set(util) | set(mem)):
    u, m = util.get(run, []), mem.get(run, [])
    print(f"  executor's NVML samples, {run}: {len(u)} utilization (median {statistics.median(u) if u else 0:.0f} %, "
          f"max {max(u) if u else 0:.0f} %), {len(m)} memory (max {max(m) / 2**20 if m else 0:.0f} MiB)")
PY
    done
    if ((smi)); then
        "$python" - "$work/nvidia-smi.csv" <<'PY'
import sys
rows = [l.split(", ") for l in open(sys.argv[1]) if l.count(",") == 3]
by = {}
for ts, index, util, mem in rows:
    by.setdefault(index, []).append((float(util), float(mem)))
for index, s in sorted(by.items()):
    print(f"nvidia-smi GPU {index}: {len(s)} samples, utilization max {max(u for u, _ in s):.0f} %, "
          f"memory max {max(m for _, m in s):.0f} MiB")
PY
    fi
    echo "data: $data; total $(elapsed)"
    ((failed == 0)) || fail "the executor recorded no GPU samples for a job that had a GPU"
    grep -q 'gpu_check_basic_gpu master-0 CUDA_VISIBLE_DEVICES=[0-9]' "$work/replicas.txt" ||
        fail "the BASIC_GPU master did not get a GPU (CUDA_VISIBLE_DEVICES)"
    grep -q 'gpu_check_custom master-0 CUDA_VISIBLE_DEVICES=[0-9]' "$work/replicas.txt" ||
        fail "the CUSTOM master did not get a GPU (CUDA_VISIBLE_DEVICES)"
    say "passed"
}

case $mode in
pack) pack "$pack_file" ;;
run) run_check "$run_file" ;;
both)
    pack "$work/trainyard-gpu-check.tar.xz"
    run_check "$work/trainyard-gpu-check.tar.xz"
    ;;
esac
