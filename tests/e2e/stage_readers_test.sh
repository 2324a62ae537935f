#!/usr/bin/env bash
# End-to-end: a stage whose outputs an applied later stage reads cannot be destroyed before
# that stage (the error names it), unless -force; destroyed in reverse order, both go.
source "$(dirname "$0")/lib.sh"
p="$work/p"
mkdir -p "$p/net" "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: readers
stages:
  - { name: net, path: net }
  - { name: app, path: app }
YAML
cat >"$p/net/main.yaml" <<'YAML'
resources:
  vpc: { type: terraform_data, properties: { input: vpc-1 } }
outputs:
  vpc_id: { value: "${vpc.output}" }
YAML
cat >"$p/app/main.yaml" <<'YAML'
resources:
  svc: { type: terraform_data, properties: { input: "${stage.net.vpc_id}" } }
YAML
cd "$p" || exit 1
run init 0 "$STRATA" init
run apply-net 0 "$STRATA" apply net -auto-approve -no-color
run destroy-net-alone 0 "$STRATA" destroy net -auto-approve -no-color
run apply-net-again 0 "$STRATA" apply net -auto-approve -no-color
run apply-app 0 "$STRATA" apply app -auto-approve -no-color
run destroy-net-refused 1 "$STRATA" destroy net -auto-approve -no-color
expect "destroying a stage an applied stage reads is refused" "$err" "Stage is read by applied stages"
expect "the error names the reader" "$err" "stage app reads its outputs"
run state-intact 0 "$STRATA" state list net
expect "nothing was destroyed" "$out" "terraform_data.vpc"
run plan-destroy-refused 1 "$STRATA" plan net -destroy -no-color
expect "plan -destroy says so too" "$err" "Stage is read by applied stages"
run destroy-app 0 "$STRATA" destroy app -auto-approve -no-color
run destroy-net 0 "$STRATA" destroy net -auto-approve -no-color
expect "in reverse order, the destroy goes ahead" "$out" "Destroy complete!"
run apply-both-net 0 "$STRATA" apply net -auto-approve -no-color
run apply-both-app 0 "$STRATA" apply app -auto-approve -no-color
run destroy-forced 0 "$STRATA" destroy net -force -auto-approve -no-color
expect "-force destroys it anyway" "$out" "Destroy complete!"
# The stage it read is gone: its outputs read as unknown, and the reader still goes.
run plan-destroy-orphaned 0 "$STRATA" plan app -destroy -no-color
expect "plan -destroy of a reader whose stage is gone" "$out" "1 to destroy"
run destroy-orphaned 0 "$STRATA" destroy app -auto-approve -no-color
expect "a reader whose stage is gone is destroyed" "$out" "Destroy complete! Resources: 1 destroyed."
# Nothing applied at all: destroying the reader is a no-op, not an error.
run destroy-never-applied 0 "$STRATA" destroy app -auto-approve -no-color
expect "destroying a never-applied reader changes nothing" "$out" "Destroy complete! Resources: 0 destroyed."
run plan-still-needs-net 1 "$STRATA" plan app -no-color
expect "a normal plan still asks for the stage it reads" "$err" "run \`strata apply net\` first"
finish
