#!/usr/bin/env bash
# End-to-end: plan, apply, change, saved plans, destroy and refresh of the built-in
# providers through the real binary, with the human plan checked against golden files.
source "$(dirname "$0")/lib.sh"
golden="$STRATA_SOURCE_DIR/tests/golden/e2e"
p="$work/p"
mkdir -p "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: e2e
stages:
  - { name: app, path: app }
YAML
cat >"$p/app/main.yaml" <<'YAML'
variables:
  greeting: { type: string, default: hello }
  token: { type: string, default: s3cr3t-value, sensitive: true }
resources:
  config:
    type: local_file
    properties:
      filename: out/config.txt
      content: "${var.greeting} world"
  marker:
    type: null_resource
    properties:
      triggers: { greeting: "${var.greeting}", file: "${config.filename}" }
  secret:
    type: terraform_data
    properties:
      input: ${var.token}
data:
  strata_yaml:
    type: local_file
    properties: { filename: strata.yaml }
  written:
    type: local_file
    properties: { filename: "${config.filename}" }
outputs:
  project_line: { value: "${split(\"\\n\", data.strata_yaml.content)[0]}" }
  written: { value: "${data.written.content}" }
  file: { value: "${config.filename}" }
  greeting: { value: "${var.greeting}" }
YAML
cd "$p" || exit 1
# Golden files compare the text with ids that change from run to run blanked out, and
# without the refresh lines (their order follows the parallel refreshes).
normalise() { grep -v ': Refreshing state\.\.\.' | sed -E 's/\[id=[^]]*\]/[id=ID]/g; s/"[0-9]{10,}"/"NUM"/g; s/"[0-9a-f]{8}-[0-9a-f-]{27}"/"UUID"/g'; }
check_golden() {
  local name=$1 actual=$2
  if [ -n "${UPDATE_GOLDEN:-}" ]; then printf '%s\n' "$actual" >"$golden/$name"; fi
  if diff -u "$golden/$name" <(printf '%s\n' "$actual") >"$work/diff"; then pass "golden $name"; else
    fail "golden $name differs:"; cat "$work/diff"; fi
}

run init 0 "$STRATA" init
run plan-create 0 "$STRATA" plan -no-color && check_golden plan_create.txt "$(normalise <<<"$out")"
expect "plan masks the sensitive input" "$out" "(sensitive value)"
if grep -q "s3cr3t-value" <<<"$out"; then fail "plan prints the secret"; else pass "plan never prints the secret"; fi
expect "a data source with known config is read at plan time" "$out" '+ project_line = "project: e2e"'
expect "a data source depending on a pending change is read during apply" "$out" "data.local_file.written will be read during apply"
run plan-exitcode 2 "$STRATA" plan -detailed-exitcode && pass "-detailed-exitcode is 2 with changes"

run apply-no-tty 1 "$STRATA" apply </dev/null && expect "apply refuses without a terminal" "$err" "pass -auto-approve"
run apply 0 "$STRATA" apply -auto-approve -parallelism=1 && check_golden apply_create.txt "$(normalise <<<"$out")"
[ "$(cat out/config.txt)" = "hello world" ] && pass "local_file wrote the file" || fail "local_file wrote the file"
expect "the data source read at apply sees the new file" "$out" 'written = "hello world"' 
run plan-noop 0 "$STRATA" plan -detailed-exitcode && expect "plan after apply shows no changes" "$out" "No changes."
run state-list 0 "$STRATA" state list && expect "state lists the instances" "$out" "null_resource.marker"
run output 0 "$STRATA" output greeting && expect "outputs are in state" "$out" "hello"

# Change one input: exactly that change (and what follows from it) is planned.
sed -i 's/default: hello/default: howdy/' app/main.yaml
run plan-change 0 "$STRATA" plan -no-color && check_golden plan_change.txt "$(normalise <<<"$out")"
expect "plan refreshes each object, as Terraform says it" "$out" "local_file.config: Refreshing state... [id="
run apply-change 0 "$STRATA" apply -auto-approve && expect "change applied" "$out" "Apply complete! Resources: 2 added, 0 changed, 2 destroyed."
[ "$(cat out/config.txt)" = "howdy world" ] && pass "file replaced with the new content" || fail "file replaced"

# Drift: the file edited outside is seen by refresh and put back; deleted, it is re-created.
echo tampered >out/config.txt
run plan-drift 0 "$STRATA" plan -no-color && expect "drift is reported" "$out" "# local_file.config has changed" &&
  expect "drift is undone by a replace" "$out" "must be replaced"
run refresh-only 0 "$STRATA" plan -refresh-only -no-color && expect "refresh-only plan" "$out" "This is a refresh-only plan"
run plan-norefresh 2 "$STRATA" plan -refresh=false -detailed-exitcode -no-color
if grep -q "must be replaced" <<<"$out"; then fail "-refresh=false looked at the edited file"; else
  pass "-refresh=false trusts state (only the data source output changes)"; fi
rm out/config.txt
run plan-gone 0 "$STRATA" plan -no-color && expect "a deleted object is re-created, and the plan says why" "$out" \
  "(because the object no longer exists: it was deleted outside of Strata)"
run apply-recreate 0 "$STRATA" apply -auto-approve && [ -f out/config.txt ] && pass "re-created the deleted file"

# -target and -replace.
run plan-target 0 "$STRATA" plan -replace=null_resource.marker -target=null_resource.marker -no-color &&
  expect "-replace plans a replacement" "$out" "null_resource.marker will be replaced, as requested" &&
  expect "-target limits the plan" "$out" "Plan: 1 to add, 0 to change, 1 to destroy."

# Saved plans: applied as saved; refused once stale.
run plan-out 0 "$STRATA" plan -replace=terraform_data.secret -out saved.plan && expect "plan -out says how to apply" "$out" "strata apply saved.plan"
if grep -q "s3cr3t-value" saved.plan; then pass "without a state key the plan file holds the secret in its plain form (as the state does)"; fi
run apply-saved 0 "$STRATA" apply saved.plan && expect "saved plan applied" "$out" "Apply complete! Resources: 1 added, 0 changed, 1 destroyed."
run apply-stale 1 "$STRATA" apply saved.plan && expect "stale plan refused" "$err" "Saved plan is stale"
run plan-out-2 0 "$STRATA" plan -out saved2.plan
echo "# edited" >>app/main.yaml
run apply-edited 1 "$STRATA" apply saved2.plan && expect "plan of edited config refused" "$err" "configuration files changed"

# JSON plan: Terraform's shape.
sed -i 's/default: howdy/default: hi/' app/main.yaml
run plan-json 0 "$STRATA" plan -json
if python3 - "$out" <<'PY'
import json, sys
p = json.loads(sys.argv[1])
assert p["format_version"] == "1.2", p["format_version"]
assert p["terraform_version"] == "1.11.0"
for key in ["planned_values", "resource_changes", "output_changes", "prior_state", "configuration", "variables"]:
    assert key in p, key
rc = {c["address"]: c for c in p["resource_changes"]}
cfg = rc["local_file.config"]
assert cfg["change"]["actions"] == ["delete", "create"], cfg["change"]["actions"]
assert cfg["change"]["replace_paths"] == [["content"]], cfg["change"]["replace_paths"]
assert cfg["change"]["after_unknown"]["id"] is True
assert cfg["action_reason"] == "replace_because_cannot_update"
sec = rc["terraform_data.secret"]
assert sec["change"]["actions"] == ["no-op"]
assert sec["change"]["after_sensitive"]["input"] is True
assert p["output_changes"]["greeting"]["actions"] == ["update"]
assert p["output_changes"]["greeting"]["after"] == "hi"
assert p["variables"]["greeting"]["value"] == "hi" or "greeting" not in p["variables"]
PY
then pass "plan -json has Terraform's keys and values"; else fail "plan -json shape"; fi

# Destroy: everything goes, state is empty.
run destroy-no-tty 1 "$STRATA" destroy </dev/null && expect "destroy refuses without a terminal" "$err" "-auto-approve"
run destroy 0 "$STRATA" destroy -auto-approve && expect "destroy reports" "$out" "Destroy complete! Resources: 3 destroyed."
[ ! -f out/config.txt ] && pass "destroy removed the file" || fail "destroy removed the file"
run state-empty 0 "$STRATA" state list && [ -z "$out" ] && pass "state is empty after destroy" || fail "state empty: [$out]"

# prevent_destroy names the resource and where it is declared.
cat >app/kept.yaml <<'YAML'
resources:
  kept:
    type: null_resource
    lifecycle: { prevent_destroy: true }
YAML
run apply-kept 0 "$STRATA" apply -auto-approve
run destroy-kept 1 "$STRATA" destroy -auto-approve && expect "prevent_destroy error" "$err" "null_resource.kept has lifecycle.prevent_destroy" &&
  expect "prevent_destroy names the file" "$err" "app/kept.yaml:4"

finish
