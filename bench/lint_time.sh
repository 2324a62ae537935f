#!/usr/bin/env bash
# lint_time.sh: how long `strata validate` (which runs lint's rules) and `strata lint` take on
# the largest example, examples/kubeflow-eks (seven stages, the modules it calls, their
# manifest files). Goal: under 150 ms each.
#
# Runs each command once to warm the file cache, then N times (default 20) and prints the
# median and the minimum of the wall time, and the median CPU time (user + sys), in a
# Markdown table. A loaded machine moves the wall time; the CPU time is the steadier figure.
#
# Usage:   bench/lint_time.sh [N]
# Env:     STRATA  Strata binary (default: <repo>/build/strata)
# Needs:   bash, GNU /usr/bin/time, awk, sort.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
runs=${1:-20}
STRATA=${STRATA:-$repo_dir/build/strata}
project=$repo_dir/examples/kubeflow-eks
[[ -x "$STRATA" ]] || { echo "no strata binary at $STRATA (set STRATA)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure NAME ARGS...: one row of the table.
measure() {
  local name=$1
  shift
  (cd "$project" && "$STRATA" "$@" >/dev/null 2>&1) || true
  : >"$tmp/times"
  for _ in $(seq "$runs"); do
    (cd "$project" && /usr/bin/time -f "%e %U %S" -a -o "$tmp/times" "$STRATA" "$@" >/dev/null 2>&1) || true
  done
  awk '{ print $1 * 1000, ($2 + $3) * 1000 }' "$tmp/times" | sort -n >"$tmp/sorted"
  local median min cpu
  median=$(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' "$tmp/sorted")
  min=$(head -1 "$tmp/sorted" | awk '{ print $1 }')
  cpu=$(awk '{ print $2 }' "$tmp/sorted" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  printf '| `strata %s` | %s ms | %s ms | %s ms |\n' "$*" "$median" "$min" "$cpu"
}

echo "examples/kubeflow-eks, $runs runs each, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| command | median wall | min wall | median CPU |"
echo "|---|---|---|---|"
measure validate validate
measure lint lint
