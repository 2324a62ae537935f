#!/usr/bin/env bash
# Builds the libFuzzer target with clang (ASan + UBSan) and runs it for a bounded time.
#   tests/fuzz/run_fuzz.sh [SECONDS]   (default 60)
# Crashes are written to tests/fuzz/crash-*; the corpus grows in tests/fuzz/corpus-run/.
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build-fuzz"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_FUZZ=ON >/dev/null
ninja -C "$build" loader_fuzz
mkdir -p "$root/tests/fuzz/corpus-run"
cd "$root/tests/fuzz"
"$build/tests/fuzz/loader_fuzz" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$root/tests/fuzz/crash-" corpus-run corpus
