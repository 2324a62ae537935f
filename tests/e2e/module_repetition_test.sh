#!/usr/bin/env bash
# End-to-end: modules called with for_each and count through the real binary — instance
# addresses in plans and state (module.ng["gpu"].terraform_data.group), inputs that read
# each.key / each.value / count.index, module.ng["gpu"].x and for expressions over the
# instances, a removed key destroyed with Terraform's reason, -target and state mv of a
# keyed module address, and the errors (a key missing, a provider block inside a repeated
# module). The plan's headlines are compared with Terraform 1.11's for the same
# configuration when terraform is installed.
source "$(dirname "$0")/lib.sh"
p="$work/p"
mkdir -p "$p/app" "$p/modules/group"
cat >"$p/strata.yaml" <<'YAML'
project: modrep
stages:
  - { name: app, path: app }
YAML
cat >"$p/modules/group/main.yaml" <<'YAML'
variables:
  name: { type: string }
  size: { type: number }
resources:
  group:
    type: terraform_data
    properties:
      input: { name: "${var.name}", size: "${var.size}" }
outputs:
  label: { value: "${var.name}-${var.size}" }
YAML
write_app() {  # $1: the for_each map's entries; $2: the count
  cat >"$p/app/main.yaml" <<YAML
variables:
  groups: { type: "map(number)", default: { $1 } }
modules:
  ng:
    source: ../modules/group
    for_each: \${var.groups}
    inputs: { name: "\${each.key}", size: "\${each.value}" }
  extra:
    source: ../modules/group
    count: $2
    inputs: { name: "extra\${count.index}", size: "\${count.index}" }
resources:
  summary:
    type: terraform_data
    properties:
      input: "\${[for k, m in module.ng : m.label]}"
outputs:
  gpu_label: { value: "\${module.ng[\"gpu\"].label}" }
  extra_labels: { value: "\${module.extra[*].label}" }
YAML
}
cd "$p" || exit 1
write_app 'cpu: 1, gpu: 2' 2
run init 0 "$STRATA" init
run plan 0 "$STRATA" plan -no-color
expect "a for_each instance's resource is addressed with its key" "$out" '# module.ng["gpu"].terraform_data.group will be created'
expect "a count instance's resource is addressed with its index" "$out" '# module.extra[1].terraform_data.group will be created'
expect "each instance is planned" "$out" 'Plan: 5 to add, 0 to change, 0 to destroy.'
run apply 0 "$STRATA" apply -auto-approve -no-color
run state-list 0 "$STRATA" state list app
expect "state records module instance addresses" "$out" 'module.ng["cpu"].terraform_data.group'
expect "state records count instances of modules" "$out" 'module.extra[0].terraform_data.group'
run output 0 "$STRATA" output app gpu_label
expect "module.ng[\"gpu\"].label reads one instance's output" "$out" 'gpu-2'
run output-splat 0 "$STRATA" output -json app extra_labels
expect "module.extra[*].label reads every count instance" "$(tr -d ' \n' <<<"$out")" '["extra0-0","extra1-1"]'
run replan 0 "$STRATA" plan -no-color
expect "a plan right after apply has nothing to do" "$out" "No changes."

# A key removed from for_each: its module instance's resources are destroyed, with
# Terraform's reason.
write_app 'gpu: 2' 2
run plan-removed 0 "$STRATA" plan -no-color
expect "the removed instance's resource is destroyed" "$out" '# module.ng["cpu"].terraform_data.group will be destroyed'
expect "the reason names the module instance" "$out" '# (because module.ng["cpu"] is not in configuration)'
expect "the for expression over instances changes" "$out" 'terraform_data.summary will be updated in-place'

# -target with a keyed module address plans only that instance (and what it needs).
write_app 'cpu: 1, gpu: 3' 2
run plan-target 0 "$STRATA" plan -no-color '-target=module.ng["gpu"]'
expect "-target=module.ng[\"gpu\"] plans the gpu instance" "$out" '# module.ng["gpu"].terraform_data.group will be updated in-place'
if grep -q 'module.extra' <<<"$out"; then fail "-target of one instance plans others"; else pass "-target of one instance leaves the others"; fi

# state mv of a module instance's resource to another key.
write_app 'cpu: 1, gpu: 2' 2
run state-mv 0 "$STRATA" state mv app 'module.ng["cpu"].terraform_data.group' 'module.ng["cpu2"].terraform_data.group'
write_app 'cpu2: 1, gpu: 2' 2
run plan-after-mv 0 "$STRATA" plan -no-color
expect "after state mv to the new key, only the inputs that read the key change" "$out" '# module.ng["cpu2"].terraform_data.group will be updated in-place'
if grep -q 'will be created\|will be destroyed' <<<"$out"; then fail "state mv to a new key still recreates"; else pass "state mv to a new key keeps the object"; fi

# Errors: an output of a repeated module without a key; a provider block in one.
cp "$p/app/main.yaml" "$work/good.yaml"
sed -i 's/module.ng\[\\"gpu\\"\].label/module.ng.label/' "$p/app/main.yaml"
run missing-key 1 "$STRATA" validate -no-color
expect "a repeated module's output read without a key is an error" "$err" "Missing module instance key"
expect "the error has the position" "$err" "main.yaml:"
cp "$work/good.yaml" "$p/app/main.yaml"
cat >>"$p/modules/group/main.yaml" <<'YAML'
providers:
  builtin: {}
YAML
run provider-in-repeated 1 "$STRATA" validate -no-color
expect "a provider block in a repeated module is refused" "$err" "Module is incompatible with count and for_each"
sed -i '/^providers:/,$d' "$p/modules/group/main.yaml"

# Terraform plans the same configuration with the same headlines.
if command -v terraform >/dev/null 2>&1; then
  tf="$work/tf"
  mkdir -p "$tf/modules/group" && cd "$tf" || exit 1
  cat >modules/group/main.tf <<'TF'
variable "name" { type = string }
variable "size" { type = number }
resource "terraform_data" "group" {
  input = { name = var.name, size = var.size }
}
output "label" { value = "${var.name}-${var.size}" }
TF
  cat >main.tf <<'TF'
variable "groups" {
  type    = map(number)
  default = { cpu = 1, gpu = 2 }
}
module "ng" {
  source   = "./modules/group"
  for_each = var.groups
  name     = each.key
  size     = each.value
}
module "extra" {
  source = "./modules/group"
  count  = 2
  name   = "extra${count.index}"
  size   = count.index
}
resource "terraform_data" "summary" {
  input = [for k, m in module.ng : m.label]
}
TF
  export TF_IN_AUTOMATION=1 TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1
  if terraform init -input=false >/dev/null 2>&1 && tf_plan=$(terraform plan -no-color 2>&1); then
    headlines() { grep -E '^  # |^Plan:' | sort; }
    cd "$p" && rm -rf .strata && "$STRATA" init >/dev/null 2>&1
    write_app 'cpu: 1, gpu: 2' 2
    strata_plan=$("$STRATA" plan -no-color 2>&1)
    if diff <(headlines <<<"$tf_plan") <(headlines <<<"$strata_plan") >"$work/diff"; then
      pass "plan headlines match Terraform's"
    else
      fail "plan headlines differ from Terraform's:"; cat "$work/diff"
    fi
  else
    fail "terraform could not plan the reference configuration"
  fi
fi
finish
