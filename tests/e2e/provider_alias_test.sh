#!/usr/bin/env bash
# End-to-end: provider aliases against the sandbox cloud. A second aws block,
# `aws.us_east_1`, configures the resource that names it (`provider: aws.us_east_1`), the
# default block the others; the re-plan is clean; removing the aliased resource from the
# configuration deletes it through the alias block it was made with (its region), which
# state records. A mistyped provider is refused at its position before anything runs.
source "$(dirname "$0")/lib.sh"

proj="$work/alias"
mkdir -p "$proj/s"
cat >"$proj/strata.yaml" <<'YAML'
project: alias
state: { backend: sqlite, path: .strata/state.db }
sandbox: { enabled: true, path: .strata/sandbox.db }
stages:
  - { name: s, path: s }
YAML
write_main() {
  cat >"$proj/s/main.yaml" <<YAML
providers:
  aws: { region: us-west-2 }
  aws.us_east_1: { region: us-east-1 }
resources:
$1
  west: { type: aws_vpc, properties: { cidr_block: 10.1.0.0/16 } }
outputs:
  west_arn: { value: "\${west.arn}" }
$2
YAML
}
write_main '  east: { type: aws_vpc, provider: aws.us_east_1, properties: { cidr_block: 10.0.0.0/16 } }' \
  '  east_arn: { value: "${east.arn}" }'

run init 0 "$STRATA" -chdir="$proj" init
run apply 0 "$STRATA" -chdir="$proj" apply -auto-approve
expect "the aliased VPC is made in us-east-1" "$out" 'east_arn = "arn:aws:ec2:us-east-1:'
expect "the other VPC in the default block's region" "$out" 'west_arn = "arn:aws:ec2:us-west-2:'
run "plan after apply" 0 "$STRATA" -chdir="$proj" plan -detailed-exitcode
run "plan -json" 0 "$STRATA" -chdir="$proj" plan -json
expect "provider_name has no alias, as Terraform's" "$out" '"provider_name":"strata/aws"'
expect "provider_config_key names the alias block" "$out" '"provider_config_key":"aws.us_east_1"'

# Removed from the configuration, the aliased VPC is read and deleted in its own region.
write_main "" ""
run "apply without east" 0 "$STRATA" -chdir="$proj" apply -auto-approve
expect "the orphan is refreshed in us-east-1 and deleted" "$out" "Apply complete! Resources: 0 added, 0 changed, 1 destroyed."
run "state after" 0 "$STRATA" -chdir="$proj" state list
[ "$out" = "aws_vpc.west" ] && pass "only the default-region VPC is left" || fail "state: $out"

# A module served with the alias (providers: { aws: aws.us_east_1 }) makes its VPC in
# us-east-1; once the call is gone, that VPC is still deleted through the alias block.
mkdir -p "$proj/s/edge"
cat >"$proj/s/edge/main.yaml" <<'YAML'
resources:
  v: { type: aws_vpc, properties: { cidr_block: 10.2.0.0/16 } }
outputs:
  arn: { value: "${v.arn}" }
YAML
write_main "" '  edge_arn: { value: "${module.edge.arn}" }
modules:
  edge: { source: ./edge, providers: { aws: aws.us_east_1 } }'
run "apply the module" 0 "$STRATA" -chdir="$proj" apply -auto-approve
expect "the module's VPC is in the alias's region" "$out" 'edge_arn = "arn:aws:ec2:us-east-1:'
write_main "" ""
run "apply without the module" 0 "$STRATA" -chdir="$proj" apply -auto-approve
expect "the module's VPC is deleted in us-east-1" "$out" "Apply complete! Resources: 0 added, 0 changed, 1 destroyed."

# A provider: that names no block is an error with its position, not the default block.
write_main '  east: { type: aws_vpc, provider: aws.us_east_2, properties: { cidr_block: 10.0.0.0/16 } }' ""
run "missing alias block" 1 "$STRATA" -chdir="$proj" plan
expect "names the file and line" "$err" "s/main.yaml:5"
expect "says the block is missing" "$err" 'names the provider block "aws.us_east_2"'
write_main "" ""
run "destroy" 0 "$STRATA" -chdir="$proj" destroy -auto-approve
finish
