#!/usr/bin/env bash
# `strata providers` lists the providers compiled in; `strata providers schema -json` prints
# every type's schema in `terraform providers schema -json`'s shape: terraform_data's block
# is exactly Terraform 1.11's (when terraform is on PATH), configurable lists of objects are
# block_types, computed-only ones attributes; without -json it refuses, as Terraform does.
source "$(dirname "$0")/lib.sh"

run providers 0 "$STRATA" providers
expect "aws is listed" "$out" "provider[strata/aws]:"
expect "kubernetes is listed" "$out" "provider[strata/kubernetes]:"
run "schema without -json" 1 "$STRATA" providers schema
expect "says -json is required" "$err" "The -json flag is required"
run "schema -json" 0 "$STRATA" providers schema -json
echo "$out" >"$work/strata.json"
check() {  # check NAME PYTHON-EXPR: the expression over the document `d` must be true
  if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$work/strata.json"; then
    pass "$1"
  else fail "$1"; fi
}
check "format 1.0" "d['format_version'] == '1.0'"
eks="d['provider_schemas']['strata/aws']['resource_schemas']['aws_eks_cluster']['block']"
check "vpc_config is a list block" "$eks['block_types']['vpc_config']['nesting_mode'] == 'list'"
check "certificate_authority (computed) is an attribute" "$eks['attributes']['certificate_authority']['computed']"
check "name is required" "$eks['attributes']['name']['required']"
check "the provider's settings are there" "'region' in d['provider_schemas']['strata/aws']['provider']['block']['attributes']"

if command -v terraform >/dev/null 2>&1; then
  mkdir -p "$work/tf"
  echo 'resource "terraform_data" "x" {}' >"$work/tf/main.tf"
  (cd "$work/tf" && TF_CLI_CONFIG_FILE=/dev/null terraform init -input=false >/dev/null 2>&1 &&
    TF_CLI_CONFIG_FILE=/dev/null terraform providers schema -json >"$work/tf.json" 2>/dev/null)
  if python3 - "$work/strata.json" "$work/tf.json" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))["provider_schemas"]["strata/builtin"]["resource_schemas"]["terraform_data"]
theirs = json.load(open(sys.argv[2]))["provider_schemas"]["terraform.io/builtin/terraform"]["resource_schemas"]["terraform_data"]
sys.exit(0 if ours == theirs else 1)
PY
  then pass "terraform_data's schema is Terraform's"; else fail "terraform_data's schema differs from Terraform's"; fi
fi
finish
