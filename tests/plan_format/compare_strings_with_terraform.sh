#!/usr/bin/env bash
# Compares how Strata and Terraform 1.11 draw string values in a plan: strings holding JSON
# (jsonencode(...) with a structural diff), multi-line strings (<<-EOT heredocs with a line
# diff), and map keys in dynamically typed attributes and outputs. The scenario
# (strings_scenario.py) uses only terraform_data (no provider download): both tools apply
# its phase 1, then plan its phase 2, and the two plan texts must be equal after
# normalisation ("Terraform" -> "Strata", object ids -> <id>, refresh lines and Strata's
# footer dropped) and the documented differences below.
#
# Usage: tests/plan_format/compare_strings_with_terraform.sh [OUTDIR]
#   OUTDIR (default: a temp dir, removed afterwards) keeps terraform.plan.txt,
#   strata.plan.txt, their *.norm.txt (terraform.allowed.txt: with the allowed differences
#   applied) and the logs. STRATA=/path/to/strata overrides the
#   binary (default: build/strata of this checkout).
# Exit: 0 equal, 1 different (the diff is printed), 2 a step failed, 77 (the ctest "skip"
# code) with a loud message when terraform is not installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scenario="$here/strings_scenario.py"

# terraform and python3 present (else exit 77 / 2), work, out, strata, fail (setup.sh).
source "$here/setup.sh" "${1:-}"

mkdir -p "$work/tf" && cd "$work/tf"
python3 "$scenario" terraform 1 > main.tf.json
terraform init -input=false > "$out/terraform.log" 2>&1 || fail "terraform init" "$out/terraform.log"
terraform apply -input=false -auto-approve -no-color >> "$out/terraform.log" 2>&1 ||
  fail "terraform apply" "$out/terraform.log"
python3 "$scenario" terraform 2 > main.tf.json
terraform plan -input=false -no-color > "$out/terraform.plan.txt" 2>> "$out/terraform.log" ||
  fail "terraform plan" "$out/terraform.log"

mkdir -p "$work/st/main" && cd "$work/st"
printf 'project: strings\nstages:\n  - { name: main, path: main }\n' > strata.yaml
python3 "$scenario" strata 1 > main/main.yaml
"$strata" init > "$out/strata.log" 2>&1 || fail "strata init" "$out/strata.log"
"$strata" apply -auto-approve -no-color >> "$out/strata.log" 2>&1 || fail "strata apply" "$out/strata.log"
python3 "$scenario" strata 2 > main/main.yaml
"$strata" plan -no-color > "$out/strata.plan.txt" 2>> "$out/strata.log" || fail "strata plan" "$out/strata.log"

cd "$out"
python3 - <<'PY'
import difflib, re, sys

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

def norm(path):
    text = open(path).read()
    text = text.split("\n" + "\u2500" * 77)[0]          # Strata's footer (compared elsewhere)
    lines = [l for l in text.splitlines() if "Refreshing state..." not in l]
    text = "\n".join(lines).strip("\n") + "\n"
    text = UUID.sub("<id>", text).replace("Terraform", "Strata").replace("terraform apply", "strata apply")
    return text

tf, st = norm("terraform.plan.txt"), norm("strata.plan.txt")
# Terraform's text as it is: tests/golden/plan/strings_terraform.txt is a copy of it, which
# tests/unit/plan/render_strings_test.cc checks the renderer's blocks against.
open("terraform.norm.txt", "w").write(tf)

# Documented differences: (Terraform's text, Strata's text, why).
ALLOWED = [
    ("""  ~ resource "terraform_data" "secret" {
        id     = "<id>"
      ~ input  = (sensitive value)
      ~ output = jsonencode(
            {
              - a = 1
            }
        ) -> (known after apply)""",
     """  ~ resource "terraform_data" "secret" {
        id     = "<id>"
      ~ input  = (sensitive value)
      ~ output = (sensitive value)""",
     "terraform_data's output copies a sensitive input: Terraform does not mark the copy in its state "
     "and prints it; Strata keeps it sensitive"),
]
for t, s, why in ALLOWED:
    if t in tf and s in st:
        tf = tf.replace(t, s)
        print(f"allowed: {why}")

open("terraform.allowed.txt", "w").write(tf)
open("strata.norm.txt", "w").write(st)
if tf == st:
    print(f"OK: Strata's plan text equals Terraform's ({len(tf.splitlines())} lines)")
    sys.exit(0)
sys.stdout.writelines(difflib.unified_diff(tf.splitlines(True), st.splitlines(True), "terraform", "strata"))
print("DIFF: Strata's plan text differs from Terraform's")
sys.exit(1)
PY
