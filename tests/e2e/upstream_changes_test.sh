#!/usr/bin/env bash
# End-to-end: a stage's plan notes each output of an earlier stage it read at its last full
# apply that has changed since — also when the plan has no change, as here, where the
# values are only used in ignore_changes attributes — without ever printing a value; an
# apply of the stage records the new values and the note goes away; a complete destroy
# forgets what the stage read; an output gone since is noted with the reason.
source "$(dirname "$0")/lib.sh"
p="$work/p"
mkdir -p "$p/net" "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: upstream
stages:
  - { name: net, path: net }
  - { name: app, path: app }
YAML
cat >"$p/net/main.yaml" <<'YAML'
variables:
  vpc: { type: string, default: vpc-1 }
  token: { type: string, default: first-secret-9f3a, sensitive: true }
resources:
  vpc: { type: terraform_data, properties: { input: "${var.vpc}" } }
outputs:
  vpc_id: { value: "${vpc.output}" }
  token: { value: "${var.token}", sensitive: true }
  unread: { value: "${var.vpc}-unread" }
YAML
cat >"$p/app/main.yaml" <<'YAML'
resources:
  svc:
    type: terraform_data
    properties: { input: "${stage.net.vpc_id}" }
    lifecycle: { ignore_changes: [input] }
  client:
    type: terraform_data
    properties: { input: "${stage.net.token}" }
    lifecycle: { ignore_changes: [input] }
YAML
cd "$p" || exit 1
vpc_note='Note: stage "net" output "vpc_id" has changed since stage "app" was last applied (net serial 1 → 2).'
token_note='Note: stage "net" output "token" (sensitive value) has changed since stage "app" was last applied (net serial 1 → 2).'
run init 0 "$STRATA" init
run apply-net 0 "$STRATA" apply net -auto-approve -no-color
run apply-app 0 "$STRATA" apply app -auto-approve -no-color
run plan-app-unchanged 0 "$STRATA" plan app -no-color
if grep -q "Note: stage" <<<"$out"; then fail "no note while net is as app read it"; else pass "no note while net is as app read it"; fi

run apply-net-changed 0 "$STRATA" apply net -auto-approve -no-color -var vpc=vpc-2 -var token=second-secret-7c1e
run plan-app-noted 0 "$STRATA" plan app -no-color -detailed-exitcode
expect "the plan notes the changed output" "$out" "$vpc_note"
expect "a sensitive output is noted as such" "$out" "$token_note"
expect "the plan itself has no change (ignore_changes)" "$out" "No changes."
if grep -q '"unread"' <<<"$out"; then fail "an output app does not read is not noted"; else pass "an output app does not read is not noted"; fi
if grep -qE 'secret-|vpc-[12]' <<<"$out"; then fail "no value is printed: $out"; else pass "no value is printed"; fi
run plan-app-json 0 "$STRATA" plan app -json
expect "plan -json carries the notes" "$out" '"strata_upstream_changes":[{"stage":"net","output":"token","sensitive":true,"serial_then":1,"serial_now":2},{"stage":"net","output":"vpc_id","sensitive":false,"serial_then":1,"serial_now":2}]'
# (app's own state shows its sensitive values in plan -json, as Terraform's does; what net
# holds now is app's business only through the note.)
if grep -qE 'second-secret|digest' <<<"$out"; then fail "plan -json shows neither net's value nor a digest"; else pass "plan -json shows neither net's value nor a digest"; fi
run plan-app-out 0 "$STRATA" plan app -no-color -out app.plan
run show-plan 0 "$STRATA" show -no-color app.plan
expect "show of the saved plan notes it too" "$out" "$vpc_note"
run apply-app-interactive 0 "$STRATA" apply app -auto-approve -no-color
expect "apply shows the notes with its plan" "$out" "$vpc_note"
run plan-app-recorded 0 "$STRATA" plan app -no-color
if grep -q "Note: stage" <<<"$out"; then fail "after apply app, no note: $out"; else pass "after apply app, no note"; fi

run destroy-app 0 "$STRATA" destroy app -auto-approve -no-color
run apply-net-third 0 "$STRATA" apply net -auto-approve -no-color -var vpc=vpc-3
run plan-app-destroyed 0 "$STRATA" plan app -no-color
if grep -q "Note: stage" <<<"$out"; then fail "a destroyed stage keeps no reads: $out"; else pass "a destroyed stage keeps no reads"; fi

# An output the stage read that is gone now: the note says so and why.
run apply-net-fourth 0 "$STRATA" apply net -auto-approve -no-color
run apply-app-again 0 "$STRATA" apply app -auto-approve -no-color
sed -i '/token: { value/d' net/main.yaml
sed -i 's/"\${stage.net.token}"/fixed/' app/main.yaml
run apply-net-without-token 0 "$STRATA" apply net -auto-approve -no-color
run plan-app-gone 0 "$STRATA" plan app -no-color
expect "an output gone since is noted with the reason" "$out" \
  'Note: stage "net" output "token" (sensitive value) can no longer be read since stage "app" was last applied (net serial 4 → 5): stage "net" has no output "token"'
finish
