#!/usr/bin/env bash
# Produces a Terraform plan covering the actions Strata renders (create, update in place,
# replace with a forced attribute, delete of a resource no longer in configuration,
# outputs incl. a sensitive one) using only the built-in terraform_data resource, then
# prints the human plan text and the key structure of `terraform show -json`.
#
# Usage: tests/plan_format/compare_with_terraform.sh [OUTDIR]
#   OUTDIR (default: a temp dir) receives plan.txt, plan.json and keys.txt.
# Exit 77 (the ctest "skip" code) with a loud message when terraform is not installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v terraform >/dev/null 2>&1; then
  echo "SKIPPED: terraform is not installed; the Terraform format comparison did not run." >&2
  exit 77
fi

work=$(mktemp -d)
out=${1:-$work/out}
mkdir -p "$out"
trap 'rm -rf "$work"' EXIT
export TF_IN_AUTOMATION=1 TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1
cd "$work"

# Phase 1: the prior state.
cat > main.tf <<'TF'
resource "terraform_data" "upd" {
  input = { name = "a", tags = { env = "dev", team = "x" }, list = ["p", "q"] }
}
resource "terraform_data" "rep" {
  input            = "same"
  triggers_replace = "v1"
}
resource "terraform_data" "gone" {
  input = "bye"
}
resource "terraform_data" "same" {
  input = "unchanged"
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "s3cret"
}
output "kept" { value = "k" }
output "changed" { value = "old" }
output "dropped" { value = "d" }
TF
terraform init -input=false >/dev/null
terraform apply -input=false -auto-approve -no-color >/dev/null

# Phase 2: the configuration to plan.
cat > main.tf <<'TF'
resource "terraform_data" "upd" {
  input = { name = "b", tags = { env = "prod", team = "x" }, list = ["p", "r"] }
}
resource "terraform_data" "rep" {
  input            = "same"
  triggers_replace = "v2"
}
resource "terraform_data" "same" {
  input = "unchanged"
}
resource "terraform_data" "new" {
  input = "hello"
}
resource "terraform_data" "many" {
  count = 1
  input = var.secret
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "s3cret"
}
output "kept" { value = "k" }
output "changed" { value = "new" }
output "secret" {
  value     = var.secret
  sensitive = true
}
output "unknown" { value = terraform_data.new.id }
TF
terraform plan -input=false -no-color -out=tfplan > "$out/plan.txt"
terraform show -json tfplan > "$out/plan.json"
terraform show -no-color tfplan > "$out/show.txt"

# Key structure: every JSON path with its value type (arrays collapsed to [*]).
if command -v jq >/dev/null 2>&1; then
  jq -r '[paths(..) | map(if type == "number" then "[*]" else . end) | join(".")] | unique[]' \
    "$out/plan.json" > "$out/keys.txt"
else
  python3 - "$out/plan.json" > "$out/keys.txt" <<'PY'
import json, sys
def walk(v, p, acc):
    acc.add(p)
    if isinstance(v, dict):
        for k, x in v.items(): walk(x, p + "." + k if p else k, acc)
    elif isinstance(v, list):
        for x in v: walk(x, p + ".[*]", acc)
acc = set(); walk(json.load(open(sys.argv[1])), "", acc)
print("\n".join(sorted(a for a in acc if a)))
PY
fi
echo "== human plan ($out/plan.txt)"; cat "$out/plan.txt"
echo "== JSON keys ($out/keys.txt)"; cat "$out/keys.txt"

# Side by side with Strata's renderings of the same plan (tests/golden/plan/terraform_data.*,
# made by tests/unit/plan from plan_fixtures.h's TerraformDataPlan).
golden="$here/../golden/plan"
python3 - "$out/plan.json" "$golden/terraform_data.json" <<'PY'
import json, sys
def keys(f):
    acc = set()
    def walk(v, p):
        acc.add(p)
        if isinstance(v, dict):
            for k, x in v.items(): walk(x, p + "." + k if p else k)
        elif isinstance(v, list):
            for x in v: walk(x, p + ".[*]")
    walk(json.load(open(f)), "")
    return acc - {""}
tf, st = keys(sys.argv[1]), keys(sys.argv[2])
print("== JSON keys only in Terraform's plan")
print("\n".join(sorted(tf - st)) or "(none)")
print("== JSON keys only in Strata's plan")
print("\n".join(sorted(st - tf)) or "(none)")
PY
normalize() {
  sed -E -e '/Refreshing state/d' -e 's/Terraform/Strata/g' \
      -e 's/"[0-9a-f]{4,8}(-[0-9a-f]{4,12}){0,4}"/"<id>"/g' "$1" |
    sed -e '/^─/,$d' | sed -e '/./,$!d'
}
echo "== human plan: diff Terraform (normalized) vs Strata golden"
diff <(normalize "$out/plan.txt") <(normalize "$golden/terraform_data.txt") && echo "(identical)" || true
