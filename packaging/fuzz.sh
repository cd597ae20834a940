#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzes every reader (tests/fuzz/fuzz_*.cpp: the checkpoint formats, Event records, and requests to the
# executor's API through its router and handlers) with libFuzzer for a bounded time: a clang build in
# build/fuzz with trainyard_formats and trainyard_executor_api instrumented (coverage + ASan/UBSan), each
# fuzzer seeded with the real fixtures of its format (valid requests for the API). A crash, leak, sanitizer report,
# timeout (> 10 s per input) or an allocation over 1 GiB fails the run; the reproducer is left in
# build/fuzz/tests/fuzz.
#   packaging/fuzz.sh                      each fuzzer runs 20 s
#   TRAINYARD_FUZZ_SECONDS=300 packaging/fuzz.sh
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
seconds=${TRAINYARD_FUZZ_SECONDS:-20}
build=$src/build/fuzz

launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" \
    -DTRAINYARD_FUZZ_INSTRUMENT=ON -DTRAINYARD_FUZZ_SECONDS="$seconds" >/dev/null
targets=$(cd "$src/tests/fuzz" && ls fuzz_*.cpp | sed 's/\.cpp$//')
# shellcheck disable=SC2086
cmake --build "$build" --target $targets
# One fuzzer per core: each still gets its full time on a core of its own.
ctest --test-dir "$build" -L fuzz --output-on-failure --no-tests=error -j "$(nproc)"
