#!/usr/bin/env bash
# compare_terraform.sh: wall time and peak memory of Strata vs Terraform on a
# chain of N `terraform_data` resources (r_i.input = r_{i-1}.id).
#
# For each size N it generates, in a temporary directory, a Strata project and
# the equivalent Terraform configuration, then measures for both tools, with
# /usr/bin/time -f "%e %M" (wall seconds, peak RSS KiB):
#   1. apply -auto-approve -parallelism=10     (creates the N resources)
#   2. plan -parallelism=10                    (no-op, refresh on: the default)
#   3. plan -refresh=false -parallelism=10     (no-op, no refresh)
# and prints a Markdown table plus each tool's apply-time growth factor from
# the smallest to the largest N (a chain is strictly sequential, so both tools
# run one resource at a time; the growth shows how per-resource cost scales).
#
# Usage:
#   bench/compare_terraform.sh [--max-terraform N] [--terraform-timeout SECS]
#                              [--repeat R] [SIZES...]
#     SIZES                    chain lengths (default: 1000 3000 10000)
#     --max-terraform N        skip Terraform for sizes above N (default 10000);
#                              (Terraform's chain apply grows ~N^2.2: on a
#                              2-core VM N=1000 took 6-8 min and N=3000 had
#                              created 1212 resources after 15 min; its state
#                              lists every transitive dependency, O(N^2) for a
#                              chain. Combine with --terraform-timeout)
#     --terraform-timeout SECS kill a Terraform command after SECS seconds and
#                              report it as "timeout" with how many resources
#                              its apply had created (default 0: no limit)
#     --repeat R               run each Strata case R times (fresh project each
#                              time) and keep the fastest (default 1); Strata's
#                              apply is fsync-bound, so it is noisy on a busy
#                              disk. Terraform always runs once (minutes each).
#
# Environment:
#   STRATA     Strata binary (default: <repo>/build-bench/strata, else
#              <repo>/build-rel/strata); build it in Release mode
#   TERRAFORM  Terraform binary (default: terraform on PATH, >= 1.4 for the
#              built-in terraform_data; `terraform init` needs no download)
#
# Needs: bash, GNU /usr/bin/time, timeout (coreutils), awk.
# Every generated project lives under one mktemp directory, removed on exit.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

max_terraform=10000
tf_timeout=0
repeat=1
sizes=()
while (($#)); do
  case "$1" in
    --max-terraform) max_terraform=$2; shift 2 ;;
    --max-terraform=*) max_terraform=${1#*=}; shift ;;
    --terraform-timeout) tf_timeout=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --repeat=*) repeat=${1#*=}; shift ;;
    --terraform-timeout=*) tf_timeout=${1#*=}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
((${#sizes[@]})) || sizes=(1000 3000 10000)

if [[ -z "${STRATA:-}" ]]; then
  STRATA=$repo_dir/build-bench/strata
  [[ -x $STRATA ]] || STRATA=$repo_dir/build-rel/strata
fi
TERRAFORM=${TERRAFORM:-terraform}
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
command -v "$TERRAFORM" >/dev/null || { echo "terraform not found (set TERRAFORM)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "GNU /usr/bin/time is required" >&2; exit 1; }
STRATA=$(cd "$(dirname "$STRATA")" && pwd)/$(basename "$STRATA")

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-vs-tf.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

# measure LOG TIMEOUT CMD... -> prints "SECONDS KIB"; "FAIL SECONDS" when the
# command fails; "timeout SECONDSs (K created)" when TIMEOUT (0: none) expired.
# The command's output goes to LOG.
measure() {
  local log=$1 limit=$2; shift 2
  local tfile=$log.time start=$SECONDS rc=0
  if ((limit > 0)); then
    timeout --signal=INT --kill-after=30 "$limit" \
      /usr/bin/time -f "%e %M" -o "$tfile" "$@" >"$log" 2>&1 || rc=$?
  else
    /usr/bin/time -f "%e %M" -o "$tfile" "$@" >"$log" 2>&1 || rc=$?
  fi
  if ((rc == 124 || rc == 137)); then
    # Report how far an apply got: the number of resources it had created.
    local done_count
    done_count=$(grep -c "Creation complete" "$log" || true)
    echo "timeout $((SECONDS - start))s${done_count:+ ($done_count created)}"
  elif ((rc != 0)); then
    echo "FAIL after $((SECONDS - start))s"
    { echo "--- failed (exit $rc): $*"; tail -n 20 "$log"; } >&2
  else
    tail -n 1 "$tfile"
  fi
}

# best A B: the faster of two measure results (A may be empty); a failure wins.
best() {
  if [[ -z $1 ]]; then echo "$2"
  elif ! [[ $1 =~ ^[0-9] ]]; then echo "$1"
  elif ! [[ $2 =~ ^[0-9] ]]; then echo "$2"
  else awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " "); print (y[1] + 0 < x[1] + 0 ? b : a) }'
  fi
}

# Warn when an apply did not create exactly N resources.
check_created() { # LOG N
  grep -q "Resources: $2 added" "$1" || echo "warning: apply did not report $2 added: $(grep -m1 'Resources:' "$1" || true)" >&2
}

# Warn when a plan that should be a no-op is not.
check_noop() {
  grep -q "No changes" "$1" || echo "warning: plan was not a no-op, see above: $(grep -m1 '^Plan:' "$1" || true)" >&2
}

gen_strata() { # DIR N
  local dir=$1 n=$2
  mkdir -p "$dir/main"
  printf 'project: bench\nstages:\n  - { name: main, path: main }\n' >"$dir/strata.yaml"
  awk -v n="$n" 'BEGIN {
    print "resources:"
    for (i = 0; i < n; i++) {
      printf "  r%d:\n    type: terraform_data\n    properties:\n", i
      if (i == 0) print "      input: \"seed\""
      else printf "      input: \"${r%d.id}\"\n", i - 1
    }
  }' >"$dir/main/main.yaml"
}

gen_terraform() { # DIR N
  local dir=$1 n=$2
  mkdir -p "$dir"
  awk -v n="$n" 'BEGIN {
    print "resource \"terraform_data\" \"r0\" { input = \"seed\" }"
    for (i = 1; i < n; i++)
      printf "resource \"terraform_data\" \"r%d\" { input = terraform_data.r%d.id }\n", i, i - 1
  }' >"$dir/main.tf"
}

declare -A res  # res[tool,N,op] = output of measure, or "skipped"
ops=(apply plan plan-refresh-false)

for n in "${sizes[@]}"; do
  echo "== N=$n" >&2
  # Strata: `repeat` rounds on a fresh project each, keeping the fastest.
  sd=$work/strata-$n
  for ((rep = 1; rep <= repeat; rep++)); do
    rm -rf "$sd"
    gen_strata "$sd" "$n"
    "$STRATA" -chdir="$sd" init >"$sd/init.log" 2>&1 || { cat "$sd/init.log" >&2; exit 1; }
    r=$(measure "$sd/apply.log" 0 "$STRATA" -chdir="$sd" apply -auto-approve -parallelism=10)
    res[strata,$n,apply]=$(best "${res[strata,$n,apply]:-}" "$r")
    if ! [[ $r =~ ^[0-9] ]]; then
      res[strata,$n,plan]=skipped; res[strata,$n,plan-refresh-false]=skipped
      break
    fi
    check_created "$sd/apply.log" "$n"
    r=$(measure "$sd/plan.log" 0 "$STRATA" -chdir="$sd" plan -parallelism=10)
    check_noop "$sd/plan.log"
    res[strata,$n,plan]=$(best "${res[strata,$n,plan]:-}" "$r")
    r=$(measure "$sd/plan-nr.log" 0 "$STRATA" -chdir="$sd" plan -refresh=false -parallelism=10)
    check_noop "$sd/plan-nr.log"
    res[strata,$n,plan-refresh-false]=$(best "${res[strata,$n,plan-refresh-false]:-}" "$r")
  done
  echo "   strata apply: ${res[strata,$n,apply]}  plan: ${res[strata,$n,plan]}  plan -refresh=false: ${res[strata,$n,plan-refresh-false]}" >&2
  rm -rf "$sd"

  if ((n > max_terraform)); then
    for op in "${ops[@]}"; do res[terraform,$n,$op]=skipped; done
    continue
  fi
  td=$work/tf-$n
  gen_terraform "$td" "$n"
  "$TERRAFORM" -chdir="$td" init -input=false -no-color >"$td/init.log" 2>&1 || { cat "$td/init.log" >&2; exit 1; }
  res[terraform,$n,apply]=$(measure "$td/apply.log" "$tf_timeout" "$TERRAFORM" -chdir="$td" apply -auto-approve -input=false -no-color -parallelism=10)
  echo "   terraform apply: ${res[terraform,$n,apply]}" >&2
  if [[ ${res[terraform,$n,apply]} =~ ^[0-9] ]]; then
    check_created "$td/apply.log" "$n"
    res[terraform,$n,plan]=$(measure "$td/plan.log" "$tf_timeout" "$TERRAFORM" -chdir="$td" plan -input=false -no-color -parallelism=10)
    check_noop "$td/plan.log"
    res[terraform,$n,plan-refresh-false]=$(measure "$td/plan-nr.log" "$tf_timeout" "$TERRAFORM" -chdir="$td" plan -refresh=false -input=false -no-color -parallelism=10)
    check_noop "$td/plan-nr.log"
  else
    res[terraform,$n,plan]=skipped; res[terraform,$n,plan-refresh-false]=skipped
  fi
  echo "   terraform plan: ${res[terraform,$n,plan]}  plan -refresh=false: ${res[terraform,$n,plan-refresh-false]}" >&2
  rm -rf "$td"
done

secs() { [[ $1 =~ ^[0-9] ]] && echo "${1%% *}" || echo "${1}"; }            # "12.3 456" -> 12.3
mib() { [[ $1 =~ ^[0-9] ]] && awk -v k="${1##* }" 'BEGIN { printf "%.1f", k / 1024 }' || echo "-"; }
ratio() { [[ $1 =~ ^[0-9] && $2 =~ ^[0-9] ]] && awk -v t="${2%% *}" -v s="${1%% *}" 'BEGIN { printf (s > 0 ? "%.1fx" : "-"), t / s }' || echo "-"; }

echo
echo "Chain of N terraform_data resources, -parallelism=10 ($("$STRATA" version 2>/dev/null | head -n1) vs $("$TERRAFORM" version 2>/dev/null | head -n1)$( ((repeat > 1)) && echo "; Strata: best of $repeat runs"))"
echo
echo "| N | operation | strata s | strata MiB | terraform s | terraform MiB | ratio (tf/strata time) |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  for op in "${ops[@]}"; do
    s=${res[strata,$n,$op]} t=${res[terraform,$n,$op]}
    label=$op; [[ $op == plan ]] && label="plan (no-op, refresh)"; [[ $op == plan-refresh-false ]] && label="plan -refresh=false"
    echo "| $n | $label | $(secs "$s") | $(mib "$s") | $(secs "$t") | $(mib "$t") | $(ratio "$s" "$t") |"
  done
done

# Apply growth factor: apply time at the largest N the tool completed over the
# smallest N; compare with the size factor (linear scaling = same factor).
echo
growth() { # TOOL
  local first="" last="" n
  for n in "${sizes[@]}"; do
    [[ ${res[$1,$n,apply]} =~ ^[0-9] ]] || continue
    [[ -n $first ]] || first=$n
    last=$n
  done
  if [[ -z $first || $first == "$last" ]]; then
    echo "- $1: apply growth n/a (fewer than two completed sizes)"
    return
  fi
  awk -v tool="$1" -v a="$first" -v b="$last" -v ta="${res[$1,$first,apply]%% *}" -v tb="${res[$1,$last,apply]%% *}" 'BEGIN {
    printf "- %s: apply %ss (N=%d) -> %ss (N=%d): time x%.1f for size x%.1f", tool, ta, a, tb, b, (ta > 0 ? tb / ta : 0), b / a
    printf " (per resource %.2f ms -> %.2f ms)\n", 1000 * ta / a, 1000 * tb / b
  }'
}
echo "Apply growth, smallest to largest N:"
growth strata
growth terraform
for n in "${sizes[@]}"; do  # sizes the growth above could not include
  for tool in strata terraform; do
    [[ ${res[$tool,$n,apply]} =~ ^[0-9]|^skipped ]] || echo "- $tool N=$n: apply ${res[$tool,$n,apply]}"
  done
done
