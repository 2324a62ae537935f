#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test —
# unit and end-to-end tests on the regular build, then the unit tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
source scripts/configs.sh
export CTEST_OUTPUT_ON_FAILURE=1

# Every option the test run depends on is set here, not inherited from the build tree's
# cache: scripts/quickstart.sh configures build/ without tests, and a test run that found
# no test must fail, not pass (--no-tests=error).
echo "== build (RelWithDebInfo)"
bash scripts/build.sh build "${test_config[@]}"
echo "== tests: unit + end-to-end"
(cd build && ctest --no-tests=error --timeout 600 -j"$(nproc)")

echo "== build (ASan + UBSan)"
bash scripts/build.sh build-asan "${asan_config[@]}"
echo "== tests: unit under sanitizers"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --no-tests=error --timeout 600 -L unit -j"$(nproc)")
