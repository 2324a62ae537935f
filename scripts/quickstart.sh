#!/usr/bin/env bash
# The README's main command: installs what is missing, builds strata, and runs the
# quickstart project (examples/quickstart): init, validate, the stage graph, and a few
# expressions in the console.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
bash scripts/build.sh build -DSTRATA_BENCH=OFF -DSTRATA_TESTS=OFF
strata="$root/build/strata"
project="$root/examples/quickstart"
set -x
"$strata" -chdir="$project" init
"$strata" -chdir="$project" validate
"$strata" -chdir="$project" graph
"$strata" -chdir="$project" graph platform
echo 'module.node_groups.priorities' | "$strata" -chdir="$project" console platform
echo 'cidrsubnet("10.0.0.0/16", 4, 2)' | "$strata" console
