#!/usr/bin/env bash
# apply_latency.sh: Strata scheduling latency and no-op plan cost.
#
# Measures with /usr/bin/time -f "%e %M" (wall seconds, peak RSS KiB):
#   - apply -auto-approve of 1,000 independent time_sleep (create_duration
#     50ms, via `count: 1000`) at -parallelism=10 and -parallelism=50; the
#     ideal wall time is 1000 x 50ms / parallelism (5.0s and 1.0s), so the
#     gap to it is the engine's per-resource overhead;
#   - a no-op plan over 1,000 and 10,000 independent null_resource (via
#     `count`), with -refresh=false and with refresh on (the default); the
#     apply that creates them first is reported as a setup row.
# and prints a Markdown table.
#
# Usage:   bench/apply_latency.sh
# Env:     STRATA  Strata binary (default: <repo>/build-bench/strata, else
#                  <repo>/build-rel/strata); build it in Release mode
# Needs:   bash, GNU /usr/bin/time, awk. Projects are generated under one
#          mktemp directory, removed on exit.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
case "${1:-}" in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "usage: $0 (no arguments; set STRATA to pick the binary)" >&2; exit 2 ;;
esac

if [[ -z "${STRATA:-}" ]]; then
  STRATA=$repo_dir/build-bench/strata
  [[ -x $STRATA ]] || STRATA=$repo_dir/build-rel/strata
fi
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "GNU /usr/bin/time is required" >&2; exit 1; }
STRATA=$(cd "$(dirname "$STRATA")" && pwd)/$(basename "$STRATA")

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-latency.XXXXXX")
trap 'rm -rf "$work"' EXIT

# project DIR RESOURCE_YAML: write a one-stage project and run `strata init`.
project() {
  mkdir -p "$1/main"
  printf 'project: bench\nstages:\n  - { name: main, path: main }\n' >"$1/strata.yaml"
  printf '%s\n' "$2" >"$1/main/main.yaml"
  "$STRATA" -chdir="$1" init >"$1/init.log" 2>&1 || { cat "$1/init.log" >&2; exit 1; }
}

rows=()
# run LABEL IDEAL DIR EXPECT ARGS...: time `strata -chdir=DIR ARGS...`, add a
# table row; EXPECT is a string the output must contain (sanity check).
run() {
  local label=$1 ideal=$2 dir=$3 expect=$4; shift 4
  local log=$dir/run.log rc=0
  /usr/bin/time -f "%e %M" -o "$log.time" "$STRATA" -chdir="$dir" "$@" >"$log" 2>&1 || rc=$?
  if ((rc != 0)); then
    { echo "--- failed (exit $rc): strata $*"; tail -n 20 "$log"; } >&2
    rows+=("| $label | FAIL (exit $rc) | - | $ideal |")
    return
  fi
  grep -q -- "$expect" "$log" || echo "warning: '$label' output lacks '$expect': $(grep -m1 -E '^(Plan|Apply)' "$log" || true)" >&2
  local t k
  read -r t k < <(tail -n 1 "$log.time")
  echo "$label: ${t}s ${k}KiB" >&2
  rows+=("| $label | $t | $(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }') | $ideal |")
}

sleeps='resources:
  w:
    type: time_sleep
    count: 1000
    properties: { create_duration: 50ms }'
for p in 10 50; do
  project "$work/sleep-$p" "$sleeps"
  run "apply 1,000 time_sleep 50ms, -parallelism=$p" \
    "$(awk -v p="$p" 'BEGIN { printf "%.1f", 1000 * 0.05 / p }')" \
    "$work/sleep-$p" "Resources: 1000 added" apply -auto-approve -parallelism="$p"
  rm -rf "$work/sleep-$p"
done

for n in 1000 10000; do
  d=$work/null-$n
  project "$d" "resources:
  n:
    type: null_resource
    count: $n"
  run "(setup) apply $n null_resource" - "$d" "Resources: $n added" apply -auto-approve
  run "no-op plan $n null_resource, -refresh=false" - "$d" "No changes" plan -refresh=false
  run "no-op plan $n null_resource, refresh on" - "$d" "No changes" plan
  rm -rf "$d"
done

echo
echo "$("$STRATA" version 2>/dev/null | head -n1), $(nproc) CPUs"
echo
echo "| case | wall s | peak RSS MiB | ideal s |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
