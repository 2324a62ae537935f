#!/usr/bin/env bash
# End-to-end: a for_each over another stage's output, as Terraform's validate treats an
# unknown for_each. `validate` before that stage is applied checks the body once with
# each.key / each.value unknown (and still reports a mistake in it at file:line:col); `plan`
# asks for the stage to be applied first, and after its apply expands to its keys. A
# for_each over a resource not created yet passes validate and is refused by plan.
source "$(dirname "$0")/lib.sh"
p="$work/p"
mkdir -p "$p/a" "$p/b" "$p/c"
cat >"$p/strata.yaml" <<'YAML'
project: unknownrep
stages:
  - { name: a, path: a }
  - { name: b, path: b }
  - { name: c, path: c }
YAML
cat >"$p/a/main.yaml" <<'YAML'
variables:
  zones: { type: "set(string)", default: [us-west-2a, us-west-2b] }
resources:
  subnet:
    type: terraform_data
    for_each: ${var.zones}
    properties: { input: "subnet-${each.key}" }
outputs:
  subnet_ids_by_zone: { value: "${{for z, s in subnet : z => s.output}}" }
YAML
write_b() {  # $1: the name of the node's property (input, or a mistake)
  cat >"$p/b/main.yaml" <<YAML
resources:
  node:
    type: terraform_data
    for_each: \${stage.a.subnet_ids_by_zone}
    properties:
      $1: { zone: "\${each.key}", subnet: "\${each.value}" }
  group:
    type: terraform_data
    count: \${length(stage.a.subnet_ids_by_zone)}
    properties: { input: "group-\${count.index}" }
outputs:
  nodes: { value: "\${length(node)}" }
YAML
}
cat >"$p/c/main.yaml" <<'YAML'
resources:
  r: { type: random_id, properties: { byte_length: 2 } }
  x:
    type: terraform_data
    for_each: ${toset([r.hex])}
    properties: { input: "${each.key}" }
YAML
cd "$p" || exit 1
write_b input
run init 0 "$STRATA" init
run validate 0 "$STRATA" validate -no-color && pass "validate accepts a for_each and a count over a stage not applied"
run validate-c 0 "$STRATA" validate c -no-color && pass "validate accepts a for_each over a resource not created"
write_b inptu
run validate-mistake 1 "$STRATA" validate b -no-color
expect "a mistake in the body is still reported at its position" "$err" "b/main.yaml:6:"
expect "...naming the argument" "$err" "inptu"
write_b input
run plan-b-first 1 "$STRATA" plan b -no-color
expect "plan of b before a is applied says to apply a first" "$err" "run \`strata apply a\` first"
run plan-c 1 "$STRATA" plan c -no-color
expect "plan refuses for_each keys not known until apply" "$err" "Invalid for_each argument"
run apply-a 0 "$STRATA" apply a -auto-approve -no-color
run plan-b 0 "$STRATA" plan b -no-color
expect "after a's apply, b expands to a's keys" "$out" '# terraform_data.node["us-west-2a"] will be created'
expect "...each of them" "$out" '# terraform_data.node["us-west-2b"] will be created'
expect "...and the count to their number" "$out" '# terraform_data.group[1] will be created'
expect "...and nothing more" "$out" 'Plan: 4 to add, 0 to change, 0 to destroy.'
finish
