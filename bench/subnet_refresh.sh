#!/usr/bin/env bash
# subnet_refresh.sh: the refresh of 1,000 aws_subnets (and their VPC) — a no-op plan and a
# destroy plan — with every AWS call taking 50 ms, as a round trip to AWS does, at
# -parallelism=10 (Terraform's default). The stage is applied to a `strata sandbox serve
# --state` world first; a server with --latency-ms 50 then answers only one plan, so its
# closing line counts exactly that plan's calls. Prints, per binary, the wall time, peak
# RSS and AWS calls of each plan, then the no-op plan without refresh (the part that is not
# AWS). Refresh batching (engine/core/refresh_batches.h, the EC2 types' ReadMany) reads the
# subnets in a few DescribeSubnets filtered on up to 200 ids each; set BASELINE to a binary
# without it for the "before" rows.
#
# Usage:   bench/subnet_refresh.sh
# Env:     STRATA    Strata binary (default: <repo>/build/strata)
#          BASELINE  a second binary measured on the same world (optional)
#          COUNT     subnets (default 1000)
#          PARALLELISM  -parallelism of the plans (default 10)
# Needs:   bash, GNU /usr/bin/time.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
STRATA=${STRATA:-$repo_dir/build/strata}
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
[[ -z ${BASELINE:-} || -x $BASELINE ]] || { echo "BASELINE is not an executable: $BASELINE" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "GNU /usr/bin/time is required" >&2; exit 1; }
count=${COUNT:-1000}
parallelism=${PARALLELISM:-10}

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-subnet-bench.XXXXXX")
# shellcheck source=bench/sandbox_server.sh
source "$script_dir/sandbox_server.sh"

export AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
export AWS_DEFAULT_REGION=us-west-2 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_SESSION_TOKEN AWS_PROFILE

proj=$work/project
mkdir -p "$proj/net"
cat >"$proj/strata.yaml" <<YAML
project: subnet-bench
sandbox: { enabled: false }
stages:
  - { name: net, path: net }
YAML
cat >"$proj/net/main.yaml" <<YAML
providers:
  aws: { region: us-west-2 }
resources:
  vpc:
    type: aws_vpc
    properties: { cidr_block: 10.0.0.0/16, tags: { Name: bench } }
  subnet:
    type: aws_subnet
    count: $count
    properties:
      vpc_id: \${vpc.id}
      cidr_block: \${cidrsubnet("10.0.0.0/16", 10, count.index)}
      availability_zone: \${element(["us-west-2a", "us-west-2b", "us-west-2c"], count.index)}
      tags: { Name: "bench-\${count.index}" }
YAML

serve "$work/setup.log"
"$STRATA" -chdir="$proj" init >/dev/null
"$STRATA" -chdir="$proj" apply -auto-approve -parallelism=20 net >"$work/apply.log" 2>&1 ||
  { tail -30 "$work/apply.log" >&2; exit 1; }
stop "$work/setup.log"

echo "| Binary | Plan of $count subnets + 1 VPC, -parallelism=$parallelism | Wall (s) | Peak RSS (MiB) | AWS calls |"
echo "|---|---|---|---|---|"
# measure LABEL BINARY KIND ARGS...: one plan against a server with 50 ms per call.
measure() {
  local label=$1 binary=$2 kind=$3 status=0
  shift 3
  serve "$work/$label-$kind.log" --latency-ms 50
  /usr/bin/time -f "%e %M" -o "$work/time" "$binary" -chdir="$proj" plan -parallelism="$parallelism" "$@" net \
    >"$work/plan.log" 2>&1 || status=$?
  stop "$work/$label-$kind.log"
  [[ $status == 0 ]] || { echo "the $kind plan ($label) failed or changed something ($status):" >&2; tail -30 "$work/plan.log" >&2; exit 1; }
  read -r wall rss <"$work/time"
  printf '| %s | %s | %s | %d | %d |\n' "$label" "$kind" "$wall" "$((rss / 1024))" "$calls"
}
if [[ -n ${BASELINE:-} ]]; then
  measure before "$BASELINE" no-op -detailed-exitcode
  measure before "$BASELINE" destroy -destroy
fi
measure after "$STRATA" no-op -detailed-exitcode
measure after "$STRATA" destroy -destroy
measure after "$STRATA" "no-op, -refresh=false" -detailed-exitcode -refresh=false
