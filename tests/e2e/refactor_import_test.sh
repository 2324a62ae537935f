#!/usr/bin/env bash
# End-to-end: refactoring without destroy and taking objects in, through the real binary —
# moved entries (a rename, a rename with a change, a chain, a module rename), a removed
# entry with destroy: false, import entries (with for_each) and `strata import`, and
# plan -generate-config-out — with the plan text compared with Terraform 1.11's for the
# same configuration, and the errors a user can make.
source "$(dirname "$0")/lib.sh"
p="$work/p"
mkdir -p "$p/app" "$p/mod"
cat >"$p/strata.yaml" <<'YAML'
project: refactor
stages:
  - { name: app, path: app }
YAML
cat >"$p/mod/main.yaml" <<'YAML'
resources:
  inner: { type: terraform_data, properties: { input: in } }
YAML
cat >"$p/app/main.yaml" <<'YAML'
resources:
  a: { type: terraform_data, properties: { input: x } }
  b: { type: terraform_data, properties: { input: y } }
  c: { type: terraform_data, properties: { input: z } }
  chain: { type: terraform_data, properties: { input: w } }
modules:
  old: { source: ../mod }
YAML
cd "$p" || exit 1
normalise() { grep -v ': Refreshing state\.\.\.\|: Preparing import\.\.\.' | sed -E 's/"[0-9a-f]{8}-[0-9a-f-]{27}"/"UUID"/g'; }
run init 0 "$STRATA" init
run apply-1 0 "$STRATA" apply -auto-approve -no-color
ids_before=$("$STRATA" state list app)

cat >"$p/app/main.yaml" <<'YAML'
resources:
  a2: { type: terraform_data, properties: { input: x } }
  b2: { type: terraform_data, properties: { input: y2 } }
  chain3: { type: terraform_data, properties: { input: w } }
  imp: { type: terraform_data, properties: { input: q } }
modules:
  renamed: { source: ../mod }
moved:
  - { from: terraform_data.a, to: terraform_data.a2 }
  - { from: terraform_data.b, to: terraform_data.b2 }
  - { from: terraform_data.chain, to: terraform_data.chain2 }
  - { from: terraform_data.chain2, to: terraform_data.chain3 }
  - { from: module.old, to: module.renamed }
removed:
  - { from: terraform_data.c, lifecycle: { destroy: false } }
import:
  - { to: terraform_data.imp, id: abc }
YAML
run plan 0 "$STRATA" plan -no-color
strata_plan=$(normalise <<<"$out")
expect "a rename without changes is shown as a move" "$out" "# terraform_data.a has moved to terraform_data.a2"
expect "a rename with a change says where it moved from" "$out" "# (moved from terraform_data.b)"
expect "a chain of moves lands at its end" "$out" "# terraform_data.chain has moved to terraform_data.chain3"
expect "a module rename moves its resources" "$out" "# module.old.terraform_data.inner has moved to module.renamed.terraform_data.inner"
expect "a removed entry with destroy: false forgets" "$out" "will no longer be managed by Strata, but will not be destroyed"
expect "an import is planned with its id" "$out" '# (imported from "abc")'
expect "imports are counted" "$out" "Plan: 1 to import, 0 to add, 2 to change, 0 to destroy."
if grep -q "will be destroyed\|will be created" <<<"$out"; then fail "a refactoring plan destroys or creates"; else pass "nothing is destroyed or created"; fi
run plan-json 0 "$STRATA" plan -json
expect "JSON carries previous_address" "$out" '"previous_address":"terraform_data.b"'
expect "JSON carries the import" "$out" '"importing":{"id":"abc"}'
expect "JSON spells the forget" "$out" '"actions":["forget"]'

run apply-2 0 "$STRATA" apply -auto-approve -no-color
expect "apply counts the import" "$out" "Resources: 1 imported, 0 added, 2 changed, 0 destroyed."
run list-2 0 "$STRATA" state list app
expect "the moved objects are at their new addresses" "$out" "terraform_data.a2"
expect "the module's object moved" "$out" "module.renamed.terraform_data.inner"
expect "the imported object is in state" "$out" "terraform_data.imp"
if grep -q "terraform_data.c$\|terraform_data.a$" <<<"$out"; then fail "old addresses remain in state"; else pass "the old and the forgotten addresses left state"; fi
run replan 0 "$STRATA" plan -no-color
expect "after the refactoring apply, nothing is left to do" "$out" "No changes."

# Errors: a move onto an object that exists; a move from something config still declares.
cat >"$p/app/main.yaml" <<'YAML'
resources:
  b2: { type: terraform_data, properties: { input: y2 } }
  imp: { type: terraform_data, properties: { input: q } }
moved:
  - { from: terraform_data.a2, to: terraform_data.b2 }
  - { from: terraform_data.imp, to: terraform_data.other }
YAML
run move-errors 1 "$STRATA" plan -no-color
expect "a move onto an existing object is an error" "$err" "Move onto an existing object"
expect "a move of a declared resource is an error" "$err" "Moved object still exists"
expect "the errors have positions" "$err" "app/main.yaml:"

# strata import, and an import entry whose resource has no configuration.
cat >"$p/app/main.yaml" <<'YAML'
resources:
  later: { type: terraform_data, properties: { input: v } }
YAML
run import-cli 0 "$STRATA" import app terraform_data.later id-123
expect "strata import says it worked" "$out" "Import successful!"
run import-again 1 "$STRATA" import app terraform_data.later id-456
expect "importing to an address state holds is refused" "$err" "Resource already managed by Strata"
run import-undeclared 1 "$STRATA" import app terraform_data.nowhere id-1
expect "importing to an undeclared address is refused" "$err" "Configuration for import target does not exist"
cat >>"$p/app/main.yaml" <<'YAML'
import:
  - { to: 'terraform_data.gen', id: gen-1 }
YAML
run no-config 1 "$STRATA" plan -no-color
expect "an import entry without configuration is an error" "$err" "-generate-config-out"
run generate 0 "$STRATA" plan -no-color -generate-config-out=generated.yaml
expect "the generated import is shown" "$out" "# (config will be generated)"
if grep -q "type: terraform_data" generated.yaml 2>/dev/null; then pass "the configuration is written"; else fail "no generated.yaml"; fi
run generate-again 1 "$STRATA" plan -no-color -generate-config-out=generated.yaml
expect "an existing file is never overwritten" "$err" "already exists"
mv generated.yaml app/generated.yaml
run plan-generated 0 "$STRATA" plan -no-color
expect "with the generated file in the stage, the import plans cleanly" "$out" "# terraform_data.gen will be imported"

# Terraform, on the same refactoring, prints the same plan.
if command -v terraform >/dev/null 2>&1; then
  tf="$work/tf"
  mkdir -p "$tf/mod" && cd "$tf" || exit 1
  export TF_IN_AUTOMATION=1 TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1
  echo 'resource "terraform_data" "inner" { input = "in" }' >mod/main.tf
  cat >main.tf <<'TF'
resource "terraform_data" "a" { input = "x" }
resource "terraform_data" "b" { input = "y" }
resource "terraform_data" "c" { input = "z" }
resource "terraform_data" "chain" { input = "w" }
module "old" { source = "./mod" }
TF
  terraform init -input=false >/dev/null 2>&1 && terraform apply -auto-approve >/dev/null 2>&1
  cat >main.tf <<'TF'
resource "terraform_data" "a2" { input = "x" }
resource "terraform_data" "b2" { input = "y2" }
resource "terraform_data" "chain3" { input = "w" }
resource "terraform_data" "imp" { input = "q" }
module "renamed" { source = "./mod" }
moved {
  from = terraform_data.a
  to   = terraform_data.a2
}
moved {
  from = terraform_data.b
  to   = terraform_data.b2
}
moved {
  from = terraform_data.chain
  to   = terraform_data.chain2
}
moved {
  from = terraform_data.chain2
  to   = terraform_data.chain3
}
moved {
  from = module.old
  to   = module.renamed
}
removed {
  from = terraform_data.c
  lifecycle { destroy = false }
}
import {
  to = terraform_data.imp
  id = "abc"
}
TF
  terraform init -input=false >/dev/null 2>&1
  if tf_plan=$(terraform plan -no-color 2>&1); then
    # Terraform's plan up to its summary line, against ours; ids and the product name aside.
    body() { sed -n '/will perform the following actions/,/^Plan:/p' | sed -E 's/Terraform/Strata/g; s/"[0-9a-f]{8}-[0-9a-f-]{27}"/"UUID"/g'; }
    if diff <(body <<<"$tf_plan") <(body <<<"$strata_plan") >"$work/diff"; then
      pass "the refactoring plan matches Terraform's"
    else
      fail "the refactoring plan differs from Terraform's:"; cat "$work/diff"
    fi
  else
    fail "terraform could not plan the reference refactoring"; echo "$tf_plan" | tail -20
  fi
fi
finish
