#!/usr/bin/env bash
# End-to-end: diagnostics at apply time as good as at load time — a provider's error names
# the declaration's file:line:col and the instance; errors are shown in file and line
# order; a resource written under outputs: (or an output under resources:) gets a hint.
source "$(dirname "$0")/lib.sh"
p="$work/p"
mkdir -p "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: positions
stages:
  - { name: app, path: app }
YAML
cat >"$p/app/main.yaml" <<'YAML'
resources:
  fine: { type: terraform_data, properties: { input: ok } }
  bad:
    type: local_file
    properties:
      filename: /proc/strata-cannot-write-here/x
      content: never
YAML
cd "$p" || exit 1
run init 0 "$STRATA" init
run apply-fails 1 "$STRATA" apply -auto-approve -no-color
expect "an apply-time provider error names the declaration's position" "$err" "on app/main.yaml:3:3, in local_file.bad:"
expect "and shows the declaration" "$err" "3 |   bad:"

cat >"$p/app/main.yaml" <<'YAML'
outputs:
  vpc:
    type: terraform_data
    properties: { input: x }
YAML
cat >"$p/app/other.yaml" <<'YAML'
resources:
  name_out:
    value: "${1 + 1}"
YAML
run misplaced 1 "$STRATA" validate -no-color
expect "a resource under outputs: gets a hint" "$err" "it looks like a resource. Move it under resources:"
expect "an output under resources: gets a hint" "$err" "if it is an output, move it under outputs:"
first=$(grep -n "on app/main.yaml" <<<"$err" | head -1 | cut -d: -f1)
second=$(grep -n "on app/other.yaml" <<<"$err" | head -1 | cut -d: -f1)
if [ -n "$first" ] && [ -n "$second" ] && [ "$first" -lt "$second" ]; then pass "errors are shown in file order"; else
  fail "errors are not in file order: main.yaml at line ${first:-none}, other.yaml at ${second:-none}"; fi

# What Terraform's providers accept and Strata lacks is "not supported by Strata yet", at its
# position; a typo still gets a suggestion (providers/terraform_gaps.inc).
rm "$p/app/other.yaml"
cat >"$p/app/main.yaml" <<'YAML'
resources:
  site:
    type: aws_s3_bucket
    properties:
      bucket: site
      website: [{ index_document: index.html }]
      tagz: { a: b }
  domain: { type: aws_sagemaker_domain }
YAML
run not-supported-yet 1 "$STRATA" validate -no-color
expect "a Terraform argument Strata lacks names its position" "$err" "on app/main.yaml:6:7:"
expect "and says it is not supported yet" "$err" 'Argument "website" of aws_s3_bucket is not supported by Strata yet'
expect "a typo keeps its suggestion" "$err" 'An argument named "tagz" is not expected in resource "site" of type aws_s3_bucket. Did you mean "tags"?'
expect "a Terraform type Strata lacks is not supported yet" "$err" 'The resource type "aws_sagemaker_domain" is not supported by Strata yet'
finish
