#!/usr/bin/env bash
# aws_sandbox_apply.sh: the aws provider at scale against the sandbox cloud.
#
# A one-stage project with one VPC, 200 subnets (count), 200 route tables and their 200
# associations (601 objects) is applied and destroyed against the embedded sandbox
# (strata.yaml `sandbox: {enabled: true, latency_ms: 50}`: every AWS call waits 50 ms,
# as a real API round trip would), at -parallelism=10 and -parallelism=50. Each row is
# /usr/bin/time -f "%e %M" (wall seconds, peak RSS KiB) of one whole `strata` process.
# A serial lower bound is printed for comparison: the number of calls x 50 ms / N.
#
# Usage:   bench/aws_sandbox_apply.sh
# Env:     STRATA  Strata binary (default: <repo>/build-bench/strata, else <repo>/build/strata)
# Needs:   bash, GNU /usr/bin/time. Projects live in one mktemp directory, removed on exit.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
if [[ -z "${STRATA:-}" ]]; then
  STRATA=$repo_dir/build-bench/strata
  [[ -x $STRATA ]] || STRATA=$repo_dir/build/strata
fi
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "GNU /usr/bin/time is required" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-aws-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
count=${COUNT:-200}

project() {
  mkdir -p "$1/net"
  cat >"$1/strata.yaml" <<YAML
project: aws-bench
sandbox: { enabled: true, latency_ms: 50 }
stages:
  - { name: net, path: net }
YAML
  cat >"$1/net/main.yaml" <<YAML
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
      cidr_block: \${cidrsubnet("10.0.0.0/16", 8, count.index)}
      availability_zone: \${element(["us-west-2a", "us-west-2b", "us-west-2c"], count.index)}
      tags: { Name: "bench-\${count.index}" }
  table:
    type: aws_route_table
    count: $count
    properties:
      vpc_id: \${vpc.id}
      tags: { Name: "bench-\${count.index}" }
  assoc:
    type: aws_route_table_association
    count: $count
    properties:
      subnet_id: \${subnet[count.index].id}
      route_table_id: \${table[count.index].id}
YAML
  "$STRATA" -chdir="$1" init >"$1/init.log" 2>&1 || { cat "$1/init.log" >&2; exit 1; }
}

echo "| Run | -parallelism | Wall (s) | Peak RSS (MiB) |"
echo "|---|---|---|---|"
for n in 10 50; do
  dir=$work/p$n
  project "$dir"
  for verb in apply destroy; do
    log=$dir/$verb.log
    /usr/bin/time -f "%e %M" -o "$dir/$verb.time" "$STRATA" -chdir="$dir" "$verb" -auto-approve \
      -parallelism=$n net >"$log" 2>&1 || { echo "$verb failed:" >&2; tail -30 "$log" >&2; exit 1; }
    read -r wall rss <"$dir/$verb.time"
    grep -qE "(Apply|Destroy) complete" "$log" || { echo "$verb did not complete:" >&2; tail -30 "$log" >&2; exit 1; }
    printf '| %s %d subnets + %d route tables + %d associations | %d | %s | %d |\n' \
      "$verb" "$count" "$count" "$count" "$n" "$wall" "$((rss / 1024))"
  done
done
