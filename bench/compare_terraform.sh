#!/usr/bin/env bash
# compare_terraform.sh: Strata vs Terraform 1.11, side by side in one run, on N
# `terraform_data` resources — wall time and peak memory of every step of a
# resource's life, and the growth of each from the smallest N to the largest.
#
# Shape (the same for both tools): N/10 independent chains of 10 resources, each
# reading the previous one's id (--chain: one chain of N, strictly sequential).
# For each N, each tool runs, with -parallelism=10 and /usr/bin/time -f "%e %M":
#   plan          the first plan (nothing exists yet)
#   apply         apply -auto-approve (creates the N resources)
#   noop-plan     plan with refresh on (the default): nothing to do
#   noop-plan-nr  plan -refresh=false
#   destroy       destroy -auto-approve
# Strata runs each N --repeat times on a fresh project and reports the median of
# every step (the machine is shared and noisy); Terraform runs --tf-repeat times
# (default 1: minutes per size). Then, once: `version` of each tool and
# `validate` of a seven-stage Strata project (the median of 20 runs each).
# Strata's state store keeps its default, synchronous=FULL (every journal write
# fsync'd before the provider call it records is sent).
#
# Usage:
#   bench/compare_terraform.sh [--repeat R] [--tf-repeat R] [--chain]
#                              [--max-terraform N] [--terraform-timeout SECS]
#                              [SIZES...]
#     SIZES                     resource counts (default: 1000 3000 10000)
#     --repeat R                Strata runs per size, median reported (default 3)
#     --tf-repeat R             Terraform runs per size (default 1)
#     --chain                   one chain of N instead of N/10 chains of 10
#                               (Terraform grows ~N^2.2 there: its state lists
#                               every transitive dependency; combine with
#                               --max-terraform / --terraform-timeout)
#     --max-terraform N         skip Terraform above N resources (default: none)
#     --terraform-timeout SECS  stop a Terraform step after SECS seconds and
#                               report "timeout" (default 0: no limit)
#     --tf-seed                 when Terraform's apply times out, write the state
#                               it would have written (Terraform's format v4:
#                               each object's id, input and output, and its
#                               transitive dependencies, as Terraform records
#                               them) and go on, so that Terraform's no-op plans
#                               and destroy are measured at sizes whose apply
#                               takes it most of an hour (chains of 10 only)
#
# Environment:
#   STRATA     Strata binary (default: <repo>/build-rel/strata, else
#              <repo>/build/strata); an optimised build
#   TERRAFORM  Terraform binary (default: terraform on PATH; terraform_data is
#              built in, `terraform init` downloads nothing)
#
# Needs bash, GNU /usr/bin/time, timeout, awk. Everything is generated in one
# mktemp directory, removed on exit. Prints a Markdown table on stdout and the
# progress on stderr.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")

repeat=3
tf_repeat=1
shape=chains10
max_terraform=0
tf_timeout=0
tf_seed=0
sizes=()
while (($#)); do
  case "$1" in
    --repeat) repeat=$2; shift 2 ;;
    --repeat=*) repeat=${1#*=}; shift ;;
    --tf-repeat) tf_repeat=$2; shift 2 ;;
    --tf-repeat=*) tf_repeat=${1#*=}; shift ;;
    --chain) shape=chain; shift ;;
    --max-terraform) max_terraform=$2; shift 2 ;;
    --max-terraform=*) max_terraform=${1#*=}; shift ;;
    --terraform-timeout) tf_timeout=$2; shift 2 ;;
    --terraform-timeout=*) tf_timeout=${1#*=}; shift ;;
    --tf-seed) tf_seed=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $1" >&2; exit 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
((${#sizes[@]})) || sizes=(1000 3000 10000)
[[ $tf_seed == 1 && $shape == chain ]] && { echo "--tf-seed needs chains of 10 (not --chain)" >&2; exit 2; }

if [[ -z "${STRATA:-}" ]]; then
  STRATA=$repo_dir/build-rel/strata
  [[ -x $STRATA ]] || STRATA=$repo_dir/build/strata
fi
TERRAFORM=${TERRAFORM:-terraform}
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
command -v "$TERRAFORM" >/dev/null || { echo "terraform not found (set TERRAFORM)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "GNU /usr/bin/time is required" >&2; exit 1; }
STRATA=$(cd "$(dirname "$STRATA")" && pwd)/$(basename "$STRATA")

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-vs-tf.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

# measure LOG TIMEOUT CMD... -> "SECONDS KIB", or "timeout" / "FAIL"; output to LOG.
measure() {
  local log=$1 limit=$2; shift 2
  local tfile=$log.time rc=0
  if ((limit > 0)); then
    timeout --signal=INT --kill-after=30 "$limit" /usr/bin/time -f "%e %M" -o "$tfile" "$@" >"$log" 2>&1 || rc=$?
  else
    /usr/bin/time -f "%e %M" -o "$tfile" "$@" >"$log" 2>&1 || rc=$?
  fi
  if ((rc == 124 || rc == 137)); then
    echo "timeout"
  elif ((rc != 0)); then
    { echo "--- failed (exit $rc): $*"; tail -n 20 "$log"; } >&2
    echo "FAIL"
  else
    tail -n 1 "$tfile"
  fi
}

# median "S K" "S K" ... -> the pair with the median time (a failure wins).
median() {
  local v
  for v in "$@"; do [[ $v =~ ^[0-9] ]] || { echo "$v"; return; }; done
  printf '%s\n' "$@" | sort -n -k1,1 | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'
}

expect_in() { # LOG TEXT WHAT: warn when a step did not do what it should
  grep -q "$2" "$1" || echo "warning: $3: $(grep -m1 -E 'Resources:|Plan:|Error' "$1" || true)" >&2
}

gen_strata() { # DIR N
  local dir=$1 n=$2
  mkdir -p "$dir/main"
  printf 'project: bench\nstages:\n  - { name: main, path: main }\n' >"$dir/strata.yaml"
  awk -v n="$n" -v shape="$shape" 'BEGIN {
    print "resources:"
    for (i = 0; i < n; i++) {
      printf "  r%d:\n    type: terraform_data\n    properties:\n", i
      if (i == 0 || (shape == "chains10" && i % 10 == 0)) print "      input: \"seed\""
      else printf "      input: \"${r%d.id}\"\n", i - 1
    }
  }' >"$dir/main/main.yaml"
}

gen_terraform() { # DIR N
  local dir=$1 n=$2
  mkdir -p "$dir"
  awk -v n="$n" -v shape="$shape" 'BEGIN {
    for (i = 0; i < n; i++) {
      if (i == 0 || (shape == "chains10" && i % 10 == 0)) printf "resource \"terraform_data\" \"r%d\" { input = \"seed\" }\n", i
      else printf "resource \"terraform_data\" \"r%d\" { input = terraform_data.r%d.id }\n", i, i - 1
    }
  }' >"$dir/main.tf"
}

# The state Terraform's apply of gen_terraform's N/10 chains of 10 writes: resources sorted
# by name, each instance's dependencies every earlier resource of its chain (transitive,
# sorted as strings). Checked against a real apply of 12 (`terraform plan` says "No changes").
seed_terraform_state() { # DIR N
  local dir=$1 n=$2
  rm -f "$dir/terraform.tfstate" "$dir/terraform.tfstate.backup" "$dir/.terraform.tfstate.lock.info"
  {
    printf '{"version":4,"terraform_version":"%s","serial":1,"lineage":"%s","outputs":{},"resources":[\n' \
      "$("$TERRAFORM" version -json 2>/dev/null | awk -F'"' '/terraform_version/ { print $4; exit }')" \
      "$(cat /proc/sys/kernel/random/uuid)"
    awk -v n="$n" 'BEGIN {
      srand(n)
      for (i = 0; i < n; i++) id[i] = sprintf("%08x-%04x-%04x-%04x-%04x%08x", rand() * 4294967295, rand() * 65535,
                                              rand() * 65535, rand() * 65535, rand() * 65535, rand() * 4294967295)
      for (i = 0; i < n; i++) {
        first = i - i % 10
        input = (i == first) ? "seed" : id[i - 1]
        deps = ""
        for (j = first; j < i; j++) deps = deps (deps == "" ? "" : " ") "r" j
        printf "r%d\t%s\t%s\t%s\n", i, id[i], input, deps
      }
    }' | LC_ALL=C sort -t "$(printf '\t')" -k1,1 | awk -F '\t' 'BEGIN { sep = "" } {
      printf "%s{\"mode\":\"managed\",\"type\":\"terraform_data\",\"name\":\"%s\",", sep, $1
      printf "\"provider\":\"provider[\\\"terraform.io/builtin/terraform\\\"]\",\"instances\":[{\"schema_version\":0,"
      printf "\"attributes\":{\"id\":\"%s\",\"input\":{\"value\":\"%s\",\"type\":\"string\"},", $2, $3
      printf "\"output\":{\"value\":\"%s\",\"type\":\"string\"},\"triggers_replace\":null},\"sensitive_attributes\":[]", $3
      if ($4 != "") {
        m = split($4, d, " "); list = ""
        for (a = 2; a <= m; a++) for (b = a; b > 1 && d[b] < d[b - 1]; b--) { t = d[b]; d[b] = d[b - 1]; d[b - 1] = t }
        for (k = 1; k <= m; k++) list = list (k > 1 ? "," : "") "\"terraform_data." d[k] "\""
        printf ",\"dependencies\":[%s]", list
      }
      printf "}]}\n"; sep = ","
    }'
    printf '],"check_results":null}\n'
  } >"$dir/terraform.tfstate"
}

# A seven-stage project (each stage reads the previous one's output), for `validate`.
gen_seven_stages() { # DIR
  local dir=$1 s
  mkdir -p "$dir"
  printf 'project: seven\nstages:\n' >"$dir/strata.yaml"
  for s in 1 2 3 4 5 6 7; do
    printf '  - { name: s%d, path: s%d }\n' "$s" "$s" >>"$dir/strata.yaml"
    mkdir -p "$dir/s$s"
    awk -v s="$s" 'BEGIN {
      print "variables:\n  prefix: { type: string, default: \"p\" }\nresources:"
      for (i = 0; i < 30; i++) {
        printf "  r%d:\n    type: terraform_data\n    properties:\n", i
        if (i == 0 && s > 1) printf "      input: \"${stage.s%d.last}\"\n", s - 1
        else if (i == 0) print "      input: \"${var.prefix}\""
        else printf "      input: \"${r%d.id}-${var.prefix}\"\n", i - 1
      }
      print "outputs:\n  last:\n    value: \"${r29.id}\""
    }' >"$dir/s$s/main.yaml"
  done
}

# A step's arguments per tool.
strata_step() { # STEP -> arguments after the binary
  case $1 in
    plan|noop-plan) echo "plan -parallelism=10" ;;
    noop-plan-nr) echo "plan -refresh=false -parallelism=10" ;;
    apply) echo "apply -auto-approve -parallelism=10" ;;
    destroy) echo "destroy -auto-approve -parallelism=10" ;;
  esac
}
terraform_step() {
  case $1 in
    plan|noop-plan) echo "plan -input=false -no-color -parallelism=10" ;;
    noop-plan-nr) echo "plan -refresh=false -input=false -no-color -parallelism=10" ;;
    apply) echo "apply -auto-approve -input=false -no-color -parallelism=10" ;;
    destroy) echo "destroy -auto-approve -input=false -no-color -parallelism=10" ;;
  esac
}

steps=(plan apply noop-plan noop-plan-nr destroy)
declare -A runs res  # runs[tool,N,step] = "S K" per run; res = the median
declare -A seeded    # seeded[N] = 1: Terraform's state at N was written by seed_terraform_state

run_tool() { # TOOL N DIR LIMIT
  local tool=$1 n=$2 dir=$3 limit=$4 step r
  for step in "${steps[@]}"; do
    if [[ $tool == strata ]]; then
      # shellcheck disable=SC2046
      r=$(measure "$dir/$step.log" "$limit" "$STRATA" -chdir="$dir" $(strata_step "$step"))
    else
      # shellcheck disable=SC2046
      r=$(measure "$dir/$step.log" "$limit" "$TERRAFORM" -chdir="$dir" $(terraform_step "$step"))
    fi
    runs[$tool,$n,$step]+="$r;"
    if [[ $tool == terraform && $step == apply && $r == timeout && $tf_seed == 1 ]]; then
      seed_terraform_state "$dir" "$n"
      seeded[$n]=1
      continue
    fi
    [[ $r =~ ^[0-9] ]] || return 0
    case $step in
      apply) expect_in "$dir/$step.log" "Resources: $n added" "$tool apply did not create $n" ;;
      noop-plan*) expect_in "$dir/$step.log" "No changes" "$tool $step was not a no-op" ;;
      destroy) expect_in "$dir/$step.log" "Resources: $n destroyed\|$n destroyed" "$tool destroy did not destroy $n" ;;
    esac
  done
}

for n in "${sizes[@]}"; do
  for ((rep = 1; rep <= repeat; rep++)); do
    d=$work/strata-$n-$rep
    gen_strata "$d" "$n"
    "$STRATA" -chdir="$d" init >"$d/init.log" 2>&1 || { cat "$d/init.log" >&2; exit 1; }
    run_tool strata "$n" "$d" 0
    rm -rf "$d"
  done
  if ((max_terraform == 0 || n <= max_terraform)); then
    for ((rep = 1; rep <= tf_repeat; rep++)); do
      d=$work/tf-$n-$rep
      gen_terraform "$d" "$n"
      "$TERRAFORM" -chdir="$d" init -input=false -no-color >"$d/init.log" 2>&1 || { cat "$d/init.log" >&2; exit 1; }
      run_tool terraform "$n" "$d" "$tf_timeout"
      rm -rf "$d"
    done
  fi
  for tool in strata terraform; do
    for step in "${steps[@]}"; do
      IFS=';' read -r -a list <<<"${runs[$tool,$n,$step]:-}"
      if ((${#list[@]})); then res[$tool,$n,$step]=$(median "${list[@]}"); else res[$tool,$n,$step]=-; fi
    done
  done
  echo "N=$n strata: $(for s in "${steps[@]}"; do printf '%s=%s ' "$s" "${res[strata,$n,$s]}"; done)" >&2
  echo "N=$n terraform: $(for s in "${steps[@]}"; do printf '%s=%s ' "$s" "${res[terraform,$n,$s]}"; done)" >&2
done

# Start-up: the median of 20 runs of `version`, and of `validate` of seven stages.
startup() { # CMD... -> median wall milliseconds
  local i t0 t1
  for ((i = 0; i < 20; i++)); do
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))
  done | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1000 }'
}
seven=$work/seven
gen_seven_stages "$seven"
"$STRATA" -chdir="$seven" init >/dev/null 2>&1
"$STRATA" -chdir="$seven" validate >"$work/validate.log" 2>&1 || { cat "$work/validate.log" >&2; exit 1; }
strata_version_ms=$(startup "$STRATA" version)
terraform_version_ms=$(startup "$TERRAFORM" version)
strata_validate_ms=$(startup "$STRATA" -chdir="$seven" validate)

secs() { [[ $1 =~ ^[0-9] ]] && echo "${1%% *}" || echo "$1"; }
mib() { [[ $1 =~ ^[0-9] ]] && awk -v k="${1##* }" 'BEGIN { printf "%.0f", k / 1024 }' || echo "-"; }
ratio() { [[ $1 =~ ^[0-9] && $2 =~ ^[0-9] ]] && awk -v t="${2%% *}" -v s="${1%% *}" 'BEGIN { printf (s > 0 ? "%.0fx" : "-"), t / s }' || echo "-"; }
label() {
  case $1 in
    plan) echo "plan (nothing exists)" ;;
    apply) echo "apply" ;;
    noop-plan) echo "no-op plan (refresh)" ;;
    noop-plan-nr) echo "no-op plan -refresh=false" ;;
    destroy) echo "destroy" ;;
  esac
}

shape_text="N/10 chains of 10"
[[ $shape == chain ]] && shape_text="one chain of N"
echo "$shape_text \`terraform_data\`, -parallelism=10; $("$STRATA" version 2>/dev/null | head -n1) (median of $repeat) vs $("$TERRAFORM" version 2>/dev/null | head -n1) ($tf_repeat run$( ((tf_repeat > 1)) && echo s)); $(date -u +%Y-%m-%d), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| N | step | Strata s | Strata MiB | Terraform s | Terraform MiB | Terraform / Strata |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  for step in "${steps[@]}"; do
    s=${res[strata,$n,$step]} t=${res[terraform,$n,$step]}
    echo "| $n | $(label "$step") | $(secs "$s") | $(mib "$s") | $(secs "$t") | $(mib "$t") | $(ratio "$s" "$t") |"
  done
done
for n in "${sizes[@]}"; do
  [[ -n ${seeded[$n]:-} ]] && echo && echo "Terraform's apply of $n did not finish in $tf_timeout s: the script wrote the state that apply writes (--tf-seed), and Terraform's no-op plans and destroy of $n ran on it."
done
echo
echo "| start-up (median of 20) | Strata | Terraform |"
echo "|---|---:|---:|"
echo "| \`version\` | $strata_version_ms ms | $terraform_version_ms ms |"
echo "| \`validate\` of seven stages (30 resources each, each stage reading the previous one's output) | $strata_validate_ms ms | - |"
echo
first=${sizes[0]} last=${sizes[${#sizes[@]} - 1]}
if [[ $first != "$last" ]]; then
  echo "Growth from N=$first to N=$last (x$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.0f", b / a }') resources): time factor per step"
  echo
  echo "| step | Strata | Terraform |"
  echo "|---|---:|---:|"
  growth() { # A B -> factor
    [[ $1 =~ ^[0-9] && $2 =~ ^[0-9] ]] && awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { printf (a > 0 ? "x%.1f" : "-"), b / a }' || echo "-"
  }
  for step in "${steps[@]}"; do
    echo "| $(label "$step") | $(growth "${res[strata,$first,$step]}" "${res[strata,$last,$step]}") | $(growth "${res[terraform,$first,$step]}" "${res[terraform,$last,$step]}") |"
  done
fi
