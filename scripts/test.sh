#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test —
# unit and end-to-end tests on the regular build, then the unit tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
export CTEST_OUTPUT_ON_FAILURE=1

echo "== build (RelWithDebInfo)"
bash scripts/build.sh build -DSTRATA_BENCH=ON
echo "== tests: unit + end-to-end"
(cd build && ctest --timeout 600 -j"$(nproc)")

echo "== build (ASan + UBSan)"
bash scripts/build.sh build-asan -DSTRATA_SANITIZE=ON -DSTRATA_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug
echo "== tests: unit under sanitizers"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --timeout 600 -L unit -j"$(nproc)")
