#!/usr/bin/env bash
# state_backends.sh: the same applies and no-op plans with the state on SQLite and on
# PostgreSQL, in one run (issue 16, item 8).
#
# For N in 1,000 and 10,000 (STRATA_BENCH_SIZES to change): a one-stage project of N
# independent terraform_data (via `count`) applied from empty with -parallelism=10, then a
# no-op plan (-refresh=false, and with refresh on), once with the state in a SQLite file and
# once on a PostgreSQL server started for the run (tests/e2e/pg_server.sh, fsync=on, over its
# Unix socket), with the server's commit count for the PostgreSQL apply (the group commit of
# parallel operations' checkpoints shows as far fewer commits than 2 per resource). Each
# measurement is repeated STRATA_BENCH_REPEAT times (default 3; the apply on a fresh state
# each time) and the medians are printed in a Markdown table.
#
# Usage:   bench/state_backends.sh
# Env:     STRATA (default <repo>/build/strata), STRATA_BENCH_SIZES ("1000 10000"),
#          STRATA_BENCH_REPEAT (3)
# Needs:   initdb/pg_ctl (Debian's postgresql), psql, GNU date.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
STRATA=${STRATA:-$repo_dir/build/strata}
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
sizes=${STRATA_BENCH_SIZES:-1000 10000}
repeat=${STRATA_BENCH_REPEAT:-3}

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-backends.XXXXXX")
pgdir=$(mktemp -d /tmp/strata-bench-pg-XXXXXX)
trap 'bash "$repo_dir/tests/e2e/pg_server.sh" stop "$pgdir"; rm -rf "$work"' EXIT
conninfo=$(PG_SERVER_FSYNC=on bash "$repo_dir/tests/e2e/pg_server.sh" start "$pgdir")
unset STRATA_PG_URL STRATA_ENV STRATA_STATE_KEY

# millis CMD...: runs CMD (it must succeed) and prints its wall time in ms.
millis() {
  local start end
  start=$(date +%s%N)
  "$@" >"$work/last.log" 2>&1 || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
# The server's committed transactions so far (pg_stat_database; the apply's sessions have
# ended, so their counts are in): how many commits an apply's checkpoints took.
commits() { sleep 1; psql "$conninfo" -Atc "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"; }
median() { tr ' ' '\n' <<<"$*" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { awk -v ms="$1" 'BEGIN { printf "%.2f s", ms / 1000 }'; }

rows=()
commit_counts=()
for n in $sizes; do
  for backend in sqlite postgres; do
    applies=() plans=() refreshes=() commit_counts=()
    for run in $(seq 1 "$repeat"); do
      p="$work/p-$n-$backend-$run"
      mkdir -p "$p/main"
      schema="bench_${n}_${run}"
      if [[ $backend = postgres ]]; then
        printf 'project: bench\nstate: { backend: postgres, url: "%s", schema: %s }\nstages:\n  - { name: main, path: main }\n' \
          "$conninfo" "$schema" >"$p/strata.yaml"
      else
        printf 'project: bench\nstages:\n  - { name: main, path: main }\n' >"$p/strata.yaml"
      fi
      printf 'resources:\n  item:\n    type: terraform_data\n    count: %s\n    properties: { input: "item-${count.index}" }\n' \
        "$n" >"$p/main/main.yaml"
      [[ $backend = postgres ]] && commits_before=$(commits)
      applies+=("$(millis "$STRATA" -chdir="$p" apply -auto-approve -parallelism=10)")
      [[ $backend = postgres ]] && commit_counts+=($(( $(commits) - commits_before )))
      plans+=("$(millis "$STRATA" -chdir="$p" plan -refresh=false -detailed-exitcode)")
      refreshes+=("$(millis "$STRATA" -chdir="$p" plan -detailed-exitcode)")
      rm -rf "$p"
      [[ $backend = postgres ]] && psql "$conninfo" -qc "DROP SCHEMA $schema CASCADE" >/dev/null 2>&1
    done
    commits_cell="-"
    [[ $backend = postgres ]] && commits_cell=$(median "${commit_counts[@]}")
    rows+=("| $n | $backend | $(seconds "$(median "${applies[@]}")") | $commits_cell | $(seconds "$(median "${plans[@]}")") | $(seconds "$(median "${refreshes[@]}")") |")
  done
done
echo "Medians of $repeat runs; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%d)."
echo
echo "| terraform_data | state | apply from empty (-parallelism=10) | server commits in the apply | no-op plan -refresh=false | no-op plan (refresh) |"
echo "|---:|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
