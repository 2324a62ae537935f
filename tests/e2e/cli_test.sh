#!/usr/bin/env bash
# End-to-end: the CLI verbs of the engine core on the quickstart and on broken projects.
source "$(dirname "$0")/lib.sh"
cp -r "$STRATA_SOURCE_DIR/examples/quickstart" "$work/qs"
qs="$work/qs"
# Start from the example as committed, whatever scripts/quickstart.sh left in the tree.
rm -rf "$qs/.strata" "$qs"/*/generated

run version 0 "$STRATA" version && expect "version prints the version" "$out" "Strata v"
# libcurl and its two dozen libraries are loaded by the first HTTP request, not at start-up
# (README "Performance": what `version` costs).
if command -v readelf >/dev/null; then
  readelf -d "$STRATA" | grep -q 'NEEDED.*libcurl' && fail "strata links libcurl at start-up" || pass "libcurl is loaded on demand"
fi

run console 0 sh -c "echo 'cidrsubnet(\"10.0.0.0/16\", 4, 2)' | '$STRATA' console" && expect "console evaluates cidrsubnet" "$out" '"10.0.32.0/20"'
run console-multi 0 sh -c "printf '1 + 2\nupper(\"a\")\n[for x in [1,2] : x * 10]\n' | '$STRATA' console" &&
  expect "console evaluates line by line" "$out" $'3\n"A"\n[\n  10,\n  20,\n]'
run console-error 1 sh -c "printf 'lenght([])\n2\n' | '$STRATA' console" &&
  expect "console error suggests the function" "$err" 'Did you mean "length"?' && expect "console goes on after an error" "$out" "2"

run init 0 "$STRATA" -chdir="$qs" init && expect "init reports the stages" "$out" "Stage platform (02-platform): 3 resources, 1 module, reads from network"
[ -d "$qs/.strata" ] && pass "init creates .strata/" || fail "init creates .strata/"

run validate 0 "$STRATA" -chdir="$qs" validate && expect "validate succeeds" "$out" "Success! The configuration is valid (2 stages)."
run validate-stage 0 "$STRATA" validate -chdir="$qs" network && expect "validate one stage" "$out" "(stage network)"
run validate-json 0 "$STRATA" -chdir="$qs" validate -json && expect "validate -json" "$out" '"valid": true'

run graph-stages 0 "$STRATA" -chdir="$qs" graph && expect "graph of stages" "$out" '"stage.platform" -> "stage.network"'
run graph-stage 0 "$STRATA" -chdir="$qs" graph platform && expect "graph of a stage" "$out" '"module.node_groups.var.groups" -> "var.gpu_groups"'

run console-stage 0 sh -c "echo 'module.node_groups.spot_groups' | '$STRATA' -chdir='$qs' console platform" &&
  expect "console in a stage sees module outputs" "$out" '"gpu-spot-large-a",'
run var-flag 0 sh -c "echo 'var.cluster_name' | '$STRATA' -chdir='$qs' console network -var cluster_name=ml" && expect "-var sets a variable" "$out" '"ml"'
run var-env 0 sh -c "echo 'var.cluster_name' | STRATA_VAR_cluster_name=envname '$STRATA' -chdir='$qs' console network" &&
  expect "STRATA_VAR_ sets a variable" "$out" '"envname"'
# -var and -var-file apply in command-line order, a later one winning (Terraform's rule);
# STRATA_VAR_* comes before both whatever the order.
echo 'cluster_name: from-a' >"$work/a.yaml"
echo 'cluster_name: from-b' >"$work/b.yaml"
run var-order 0 sh -c "echo 'var.cluster_name' | '$STRATA' -chdir='$qs' console network -var-file '$work/a.yaml' -var cluster_name=from-cli -var-file '$work/b.yaml'" &&
  expect "a -var-file after a -var overrides it" "$out" '"from-b"'
run var-order-2 0 sh -c "echo 'var.cluster_name' | STRATA_VAR_cluster_name=envname '$STRATA' -chdir='$qs' console network -var-file='$work/b.yaml' --var cluster_name=from-cli" &&
  expect "a -var after a -var-file overrides it" "$out" '"from-cli"'
run var-order-3 0 sh -c "echo 'var.cluster_name' | STRATA_VAR_cluster_name=envname '$STRATA' -chdir='$qs' console network -var cluster_name=from-cli -var-file '$work/a.yaml'" &&
  expect "the environment and an earlier -var lose to a later file" "$out" '"from-a"'
echo 'cluster_name: this-name-is-far-too-long-for-an-eks-cluster-really' >"$work/long.yaml"
run var-order-source 1 "$STRATA" -chdir="$qs" validate network -var cluster_name=ok -var-file "$work/long.yaml" &&
  expect "the error points into the file that won" "$err" "long.yaml:1:15"
run var-invalid 1 "$STRATA" -chdir="$qs" validate network -var cluster_name=this-name-is-far-too-long-for-an-eks-cluster-really &&
  expect "validation rule message" "$err" "cluster_name must be at most 40 characters"
run var-undeclared 1 "$STRATA" -chdir="$qs" validate network -var clustr_name=x && expect "undeclared -var suggests" "$err" 'Did you mean "cluster_name"?'
run no-stage 1 "$STRATA" -chdir="$qs" validate netwrk && expect "unknown stage suggests" "$err" 'Did you mean "network"?'

# A broken project: every error is reported, each with its position.
mkdir -p "$work/broken/s1"
cat >"$work/broken/strata.yaml" <<'YAML'
project: broken
stages:
  - { name: one, path: s1 }
YAML
cat >"$work/broken/s1/main.yaml" <<'YAML'
variables:
  name: { type: strng }
locals:
  a: ${local.b}
  b: ${local.a}
  c: ${lenght(var.name)}
resources:
  r:
    type: null_resourse
outputs:
  o: { value: "${vpc.id}" }
YAML
run broken 1 "$STRATA" -chdir="$work/broken" validate
expect "bad type named with position" "$err" "on s1/main.yaml:2:17:"
expect "bad type message" "$err" 'unknown type "strng"'
expect "cycle as a chain" "$err" "local.a (s1/main.yaml:4:3)"
expect "unknown resource type suggests" "$err" 'Did you mean "null_resource"?'
expect "undeclared resource" "$err" 'No resource named "vpc" is declared in this module.'
expect "caret under the source" "$err" "      |   ^"
run broken-json 1 "$STRATA" -chdir="$work/broken" validate -json && expect "json diagnostics" "$out" '"error_count": '

# ${stage.S.X}: unknown until the stage has state, then its applied value.
run stage-unknown 0 sh -c "echo 'module.node_groups.discovery_tags' | '$STRATA' -chdir='$qs' console platform" &&
  expect "cross-stage value unknown before apply" "$out" '(known after apply)'
cat >"$work/network-state.json" <<'JSON'
{ "format_version": 1, "stage": "network", "lineage": "", "serial": 0, "resources": [],
  "outputs": { "cluster_name": { "value": "applied-name", "sensitive": false },
               "private_subnets": { "value": { "us-west-2a": "10.9.0.0/20" }, "sensitive": false },
               "public_subnets": { "value": {}, "sensitive": false },
               "subnet_tags": { "value": {}, "sensitive": false } } }
JSON
run push-network 0 "$STRATA" -chdir="$qs" state push network "$work/network-state.json"
run stage-known 0 sh -c "echo 'module.node_groups.discovery_tags' | '$STRATA' -chdir='$qs' console platform" &&
  expect "cross-stage value read from state" "$out" '"k8s.io/cluster-autoscaler/applied-name" = "owned"'

run no-project 1 "$STRATA" -chdir="$work" validate && expect "no project file" "$err" "There is no strata.yaml"
run bad-flag 1 "$STRATA" validate --bogus && expect "bad flag" "$err" "Error:"
finish
