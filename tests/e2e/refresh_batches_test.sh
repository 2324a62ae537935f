#!/usr/bin/env bash
# Refresh in batches through the real binary: 250 subnets applied to a `strata sandbox serve
# --state` world; a server that answers only the next plan counts its calls. A no-op plan
# and a destroy plan read the subnets in a few DescribeSubnets (not one per subnet); a
# subnet deleted behind Strata's back is gone in the batch answer and planned again.
source "$(dirname "$0")/lib.sh"
command -v aws >/dev/null || { echo "SKIP: no aws CLI"; exit 77; }
count=250

proj="$work/proj"
mkdir -p "$proj/net"
cat >"$proj/strata.yaml" <<YAML
project: batches
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
    properties: { cidr_block: 10.0.0.0/16 }
  subnet:
    type: aws_subnet
    count: $count
    properties:
      vpc_id: \${vpc.id}
      cidr_block: \${cidrsubnet("10.0.0.0/16", 8, count.index)}
YAML
aws_cli_on_sandbox

# plan_counting NAME EXPECTED_EXIT ARGS...: one plan against a fresh server on the world;
# sets $calls to the calls it answered.
plan_counting() {
  local name=$1 expected=$2
  shift 2
  serve_sandbox --state "$work/world.db" || { fail "$name: sandbox serve"; return 1; }
  export AWS_ENDPOINT_URL=$url
  run "$name" "$expected" "$STRATA" -chdir="$proj" plan -parallelism=10 "$@" net
  local status=$?
  kill -INT "$server" && wait "$server" 2>/dev/null
  calls=$(sed -n 's/^Sandbox stopped after \([0-9]*\) call.*/\1/p' "$work/serve.log")
  return $status
}
# at_most NAME LIMIT: passes when the last plan made at most LIMIT calls.
at_most() {
  if [ "${calls:-999999}" -le "$2" ]; then pass "$1 ($calls AWS calls)"; else fail "$1: $calls AWS calls, expected at most $2"; fi
}

serve_sandbox --state "$work/world.db" || { fail "sandbox serve"; finish; exit 1; }
export AWS_ENDPOINT_URL=$url
"$STRATA" -chdir="$proj" init >/dev/null 2>&1
run "apply $count subnets" 0 "$STRATA" -chdir="$proj" apply -auto-approve -parallelism=20 net && pass "applied"
subnet=$(awscli ec2 describe-subnets --filters Name=cidr-block,Values=10.0.7.0/24 | field "['Subnets'][0]['SubnetId']")
kill -INT "$server" && wait "$server" 2>/dev/null

# 250 subnets in batches of 25 at -parallelism=10: ten DescribeSubnets, and the VPC's reads.
plan_counting "no-op plan" 0 -detailed-exitcode && pass "no-op plan is clean"
at_most "a no-op plan reads the subnets in batches" 20
plan_counting "destroy plan" 0 -destroy && expect "the destroy plan deletes them all" "$out" "$((count + 1)) to destroy"
at_most "a destroy plan reads the subnets in batches" 20

serve_sandbox --state "$work/world.db" || { fail "sandbox serve"; finish; exit 1; }
awscli ec2 delete-subnet --subnet-id "$subnet" >/dev/null || fail "delete a subnet behind Strata's back"
kill -INT "$server" && wait "$server" 2>/dev/null
plan_counting "plan after an outside delete" 2 -detailed-exitcode &&
  expect "the subnet missing from the batch answer is gone and created again" "$out" "1 to add, 0 to change, 0 to destroy"
at_most "still in batches" 20
finish
