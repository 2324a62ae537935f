#!/usr/bin/env bash
# The full crash test (README "Crash safety"): 50 kill -9 moments of apply and destroy of
# examples/eks-sandbox against `strata sandbox serve --latency-ms 300`, each recovered and
# compared with the world through the AWS CLI. Needs a built tree (scripts/test.sh or
# scripts/build.sh build). STRATA_CRASH_SEED replays a run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export STRATA=${STRATA:-$root/build/strata} STRATA_SOURCE_DIR=$root
export STRATA_CRASH_MOMENTS=${STRATA_CRASH_MOMENTS:-50} STRATA_CRASH_LATENCY_MS=${STRATA_CRASH_LATENCY_MS:-300}
exec bash "$root/tests/e2e/crash_eks_test.sh"
