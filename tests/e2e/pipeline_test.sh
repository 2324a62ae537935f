#!/usr/bin/env bash
# End-to-end: `strata pipeline plan|apply|destroy` on tests/e2e/fixtures/pipeline (net ← app
# ← web, and db beside app reading net): dependency order, later stages planned with the
# earlier stages' planned outputs (known ones known, the rest unknown), -out DIR then apply
# DIR and the refusal of stale plans, exit codes, slices, a failing stage stopping the
# pipeline with the list of stages not run, stages side by side, -json events (golden) and
# destroy in reverse order.
source "$(dirname "$0")/lib.sh"
golden="$STRATA_SOURCE_DIR/tests/golden/e2e/pipeline"
p="$work/p"
cp -r "$STRATA_SOURCE_DIR/tests/e2e/fixtures/pipeline" "$p"
cd "$p" || exit 1
export STRATA_UI_TIME=2026-01-02T03:04:05Z  # fixed timestamps, and every duration 0s
check_golden() {
  local name=$1 actual=$2
  if [ -n "${UPDATE_GOLDEN:-}" ]; then mkdir -p "$golden" && printf '%s\n' "$actual" >"$golden/$name"; fi
  if diff -u "$golden/$name" <(printf '%s\n' "$actual") >"$work/diff"; then pass "golden $name"; else
    fail "golden $name differs:"; cat "$work/diff"; fi
}
# stages_in_order NAME TEXT A B ...: the "Stage X (i of n)" headers in TEXT are A, B, ...
stages_in_order() {
  local name=$1 text=$2
  shift 2
  local got
  got=$(sed -n 's/^Stage \([a-z]*\) ([0-9]* of [0-9]*)$/\1/p' <<<"$text" | tr '\n' ' ')
  if [ "$got" = "$* " ]; then pass "$name"; else fail "$name: stages ran as [$got], expected [$*]"; fi
}
# line_of TEXT TYPE STAGE: the line number of the first -json message of TYPE for STAGE.
line_of() { grep -n "\"stage\":\"$3\",\"type\":\"$2\"" <<<"$1" | head -1 | cut -d: -f1; }

run init 0 "$STRATA" init

# --- Plan of a project never applied: every stage, later ones with unknown upstream values ---
run plan-fresh 2 "$STRATA" pipeline plan -detailed-exitcode -no-color
check_golden plan_fresh.txt "$out"
stages_in_order "pipeline plan runs the stages in dependency order" "$out" net app db web
expect "a later stage reads an earlier stage's known planned output" "$out" '+ input  = "app in net-10.0.0.0/16"'
expect "an output known only after the earlier stage's apply is unknown" "$out" \
  '+ triggers = {
          + "vpc" = (known after apply)'
expect "the summary table" "$out" "  STAGE  ADD  CHANGE  DESTROY  DURATION  RESULT"
run plan-json 0 "$STRATA" pipeline plan -json
check_golden plan_fresh.jsonl "$out"
if python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <<<"$out"; then pass "-json: one JSON object a line"; else
  fail "-json lines do not parse"; fi
expect "-json: each stage's messages carry the stage" "$out" '"stage":"web","type":"planned_change"'

# --- Apply in order, then a plan with nothing to do ---
run apply 0 "$STRATA" pipeline apply -auto-approve -no-color
stages_in_order "pipeline apply runs the stages in dependency order" "$out" net app db web
expect "web was applied with its upstream values" "$out" 'input  = "http://app in net-10.0.0.0/16 -> db in net-10.0.0.0/16"'
expect "apply summary" "$out" "Pipeline apply: 4 applied."
run plan-noop 0 "$STRATA" pipeline plan -detailed-exitcode -no-color
expect "no-op pipeline plan" "$out" "Pipeline plan: 4 no changes."

# --- plan -out DIR, apply DIR; the same plans again are stale ---
sed -i 's#10.0.0.0/16#10.1.0.0/16#' net/main.yaml
run plan-out 2 "$STRATA" pipeline plan -out plans -detailed-exitcode -no-color
n=$(ls plans/*.plan 2>/dev/null | wc -l)
if [ "$n" = 4 ]; then pass "-out DIR holds one saved plan per stage"; else fail "-out DIR holds $n plans"; fi
expect "the plan says how to apply the saved plans" "$out" "strata pipeline apply plans"
expect "a value the earlier stage's update leaves unknown is unknown downstream" "$out" \
  '~ input  = "http://app in net-10.0.0.0/16 -> db in net-10.0.0.0/16" -> (known after apply)'
run apply-dir 0 "$STRATA" pipeline apply plans -no-color
stages_in_order "the saved plans are applied in dependency order" "$out" net app db web
expect "apply DIR applies the saved plans" "$out" "Applying the saved plan plans/web.plan"
run state-web 0 "$STRATA" state show web terraform_data.site
expect "the unknown upstream value of the saved plan was applied known" "$out" "http://app in net-10.1.0.0/16 -> db in net-10.1.0.0/16"
run apply-dir-stale 1 "$STRATA" pipeline apply plans -no-color
expect "stale plans are refused" "$err" "Saved plan is stale"
expect "every stale plan is named" "$err" "The plan in plans/web.plan cannot be applied"
expect "nothing was applied" "$err" "Nothing was applied: every saved plan in plans must still fit its stage"
run apply-dir-missing 1 "$STRATA" pipeline apply nowhere -no-color
expect "a missing plan directory" "$err" "nowhere is not a directory"

# --- Slices ---
run slice-target 0 "$STRATA" pipeline plan -target-stage db -target-stage net -no-color
stages_in_order "-target-stage runs only those stages, in order" "$out" net db
run slice-from-to 0 "$STRATA" pipeline plan -from app -to db -no-color
stages_in_order "-from/-to run a slice" "$out" app db
run slice-empty 1 "$STRATA" pipeline plan -from web -to net -no-color
expect "-from after -to is refused" "$err" "-from web comes after -to net"
run slice-unknown 1 "$STRATA" pipeline plan -target-stage nope -no-color
expect "an unknown stage is named with the stages there are" "$err" 'the project has no stage "nope". Its stages, in order: net, app, db, web.'

# --- A failing stage stops the pipeline and says what was not run ---
sed -i 's#10.1.0.0/16#10.2.0.0/16#' net/main.yaml
cat >app/fail.yaml <<'YAML'
resources:
  broken: { type: exec, properties: { command: ["false"] } }
YAML
run apply-fails 1 "$STRATA" pipeline apply -auto-approve -no-color
expect "the failing stage is marked" "$(tail -12 <<<"$out")" "  app        0        1          0  0s        failed"
expect "later stages are listed as not run" "$out" "Not run: db, web (the pipeline stopped after stage app did not complete)"
stages_in_order "no stage started after the failure" "$out" net app
rm app/fail.yaml

# --- Stages that do not read each other run side by side ---
cat >app/slow.yaml <<'YAML'
resources:
  wait: { type: time_sleep, properties: { create_duration: 2s } }
YAML
run apply-parallel 0 "$STRATA" pipeline apply -auto-approve -json -stage-parallelism 2
if [ "$(line_of "$out" stage_start db)" -lt "$(line_of "$out" stage_complete app)" ]; then
  pass "-stage-parallelism 2: db starts while app is running"; else fail "db waited for app:"; echo "$out" | grep stage_; fi
if [ "$(line_of "$out" stage_start web)" -gt "$(line_of "$out" stage_complete app)" ] &&
  [ "$(line_of "$out" stage_start web)" -gt "$(line_of "$out" stage_complete db)" ]; then
  pass "a stage still waits for the stages it reads"; else fail "web started early:"; echo "$out" | grep stage_; fi
expect "-json ends with the pipeline summary" "$(tail -1 <<<"$out")" '"type":"pipeline_summary"'
run json-needs-approval 1 "$STRATA" pipeline apply -json
expect "-json apply without -auto-approve is refused" "$out" "-json needs -auto-approve"
run no-tty 1 "$STRATA" pipeline destroy -no-color </dev/null
expect "no approval without a terminal" "$err" "pass -auto-approve"

# --- On a terminal, the approval is asked per stage with changes ---
if command -v script >/dev/null; then
  sed -i 's#10.2.0.0/16#10.3.0.0/16#' net/main.yaml
  printf 'yes\nno\n' >"$work/answers"
  out=$(script -qec "$STRATA pipeline apply -no-color -to app" /dev/null <"$work/answers" 2>&1)
  expect "the approval is asked for the first stage" "$out" "Do you want to perform these actions in stage net?"
  expect "and again for the next stage, after its plan" "$out" "Do you want to perform these actions in stage app?"
  expect "a declined stage is cancelled and changes nothing" "$out" "  app        0        0          0  0s        cancelled"
  expect "the summary counts it" "$out" "Pipeline apply: 1 applied, 1 cancelled."
else
  echo "SKIP approval on a terminal: no \`script\` command"
fi

# --- Destroy, last stage first; plan -destroy -out plans the readers first ---
run plan-destroy 2 "$STRATA" pipeline plan -destroy -out dplans -detailed-exitcode -no-color
stages_in_order "pipeline plan -destroy goes in reverse order" "$out" web db app net
expect "a stage read by stages planned to go before it may be planned to go" "$out" "Pipeline plan: 4 planned."
run apply-destroy-plans 0 "$STRATA" pipeline apply dplans -no-color
stages_in_order "saved destroy plans are applied in reverse order" "$out" web db app net
expect "saved destroy plans destroy" "$out" "Pipeline destroy: 4 destroyed."
run apply-again 0 "$STRATA" pipeline apply -auto-approve -no-color -stage-parallelism 4
run destroy 0 "$STRATA" pipeline destroy -auto-approve -no-color
stages_in_order "pipeline destroy goes in reverse order" "$out" web db app net
expect "destroy summary" "$out" "Pipeline destroy: 4 destroyed."
run state-empty 0 "$STRATA" state list net
if [ -z "$out" ]; then pass "nothing left in state"; else fail "state still holds: $out"; fi

# --- Environments: -env as for the other verbs ---
run env-new 0 "$STRATA" env new staging
run env-apply 0 "$STRATA" pipeline apply -env staging -auto-approve -to net -no-color
expect "the stage header names the environment" "$out" "Stage net (1 of 1), environment staging"
run env-default 2 "$STRATA" pipeline plan -env default -target-stage net -detailed-exitcode -no-color
expect "the default environment is its own" "$out" "Pipeline plan: 1 planned."
# Only net was applied in staging: the stages reading stages never applied still go (their
# outputs are unknown to a destroy), and the whole environment is destroyed.
run env-destroy-json 0 "$STRATA" pipeline destroy -env staging -auto-approve -json
check_golden destroy_staging.jsonl "$(sed -E 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/UUID/g' <<<"$out")"

run help 0 "$STRATA" pipeline plan --help
expect "help lists -stage-parallelism" "$out" "--stage-parallelism"
finish
