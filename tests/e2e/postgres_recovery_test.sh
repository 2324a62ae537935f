#!/usr/bin/env bash
# End-to-end: the state database goes away in the middle of an apply (issue 16, item 4).
#  - Stopped for good (pg_ctl stop -m immediate) while a slow create is in flight: the
#    apply starts nothing new, the create's result goes to a recovery file (0600, its secret
#    sealed, never in clear), the apply fails naming the file and `strata state recover`;
#    plan refuses while the file waits; once the server is back, `state recover` writes it,
#    the next apply does what was not started, a plan shows no changes, nothing is doubled
#    or lost, and a second `state recover` writes nothing.
#  - Back within state.retry_timeout: the apply simply succeeds.
#  - pg_terminate_backend of the holder's sessions mid-apply: it reconnects, takes its lock
#    again, and succeeds.
#  - The server's notice as it stops ("terminating connection ...") goes to STRATA_LOG, not
#    to the terminal.
source "$(dirname "$0")/lib.sh"
pgdir=$(mktemp -d /tmp/strata-e2e-pgrec-XXXXXX)
if ! conninfo=$(bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" start "$pgdir" 2>"$work/pg.err"); then
  echo "SKIPPED: $(cat "$work/pg.err")"
  rm -rf "$pgdir"
  exit 77
fi
trap 'bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" stop "$pgdir"; rm -rf "$work"' EXIT
export STRATA_PG_URL="$conninfo"
export STRATA_STATE_KEY=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0
pg_pause() { bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" pause "$pgdir"; }
pg_resume() { bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" resume "$pgdir"; }
# wait_pending SCHEMA ADDRESS: until the operation on ADDRESS is journaled as pending.
wait_pending() {
  for _ in $(seq 1 600); do
    [ "$(psql "$conninfo" -Atc "SELECT count(*) FROM $1.operations WHERE address = '$2' AND status = 'pending'" 2>/dev/null)" = 1 ] && return 0
    sleep 0.05
  done
  return 1
}

# A stage with a fast resource, then a slow one holding a secret, then one that waits for it.
project() {  # project DIR SCHEMA RETRY_TIMEOUT
  mkdir -p "$1/app"
  cat >"$1/strata.yaml" <<YAML
project: e2e-pg-recovery
state: { schema: $2, retry_timeout: $3 }
stages:
  - { name: app, path: app }
YAML
  cat >"$1/app/main.yaml" <<'YAML'
variables:
  token: { type: string, default: rec-S3CRET-token-42, sensitive: true }
resources:
  fast:
    type: terraform_data
    properties: { input: quick }
  slow:
    type: time_sleep
    properties:
      create_duration: 6s
      triggers: { token: "${var.token}", fast: "${fast.id}" }
  after:
    type: terraform_data
    properties: { input: "${slow.id}" }
outputs:
  slow_id: { value: "${slow.id}" }
YAML
}

# --- 1. The server stops for good mid-apply ---------------------------------------------
p="$work/p"
project "$p" rec_e2e 2s
cd "$p" || exit 1
STRATA_LOG="$work/strata.log" "$STRATA" apply -auto-approve -no-color >"$work/lost.out" 2>&1 &
apply=$!
if wait_pending rec_e2e time_sleep.slow; then pass "the slow create is in flight"; else fail "the slow create never started"; fi
pg_pause
wait "$apply" && code=0 || code=$?
lost=$(cat "$work/lost.out")
[ "$code" = 1 ] && pass "the apply fails once the database is gone" || { fail "apply exit $code"; echo "$lost" | tail -20; }
expect "the failure says the database was lost" "$lost" "lost the connection to the state database"
expect "the failure names the command" "$lost" "strata state recover app"
expect "the failure names the file" "$lost" ".strata/recovery/app-"
expect "the resource after the slow one was not started" "$lost" "not started"
# libpq's notices ("WARNING:  terminating connection due to immediate shutdown command")
# go to STRATA_LOG.
if grep -qF "terminating connection" <<<"$lost"; then fail "a server notice in the apply's output: $lost"; else pass "no server notice in the apply's output"; fi
expect "the server's notice is in STRATA_LOG" "$(cat "$work/strata.log" 2>/dev/null)" "terminating connection due to immediate shutdown"
files=(.strata/recovery/app-*.json)
if [ -f "${files[0]}" ]; then pass "a recovery file is written"; else fail "no recovery file in .strata/recovery"; fi
rec="${files[0]}"
[ "$(stat -c %a "$rec")" = 600 ] && pass "the recovery file is 0600" || fail "recovery file mode $(stat -c %a "$rec")"
if grep -qF "rec-S3CRET-token-42" "$rec"; then fail "the secret is in clear in the recovery file"; else pass "no secret in clear in the recovery file"; fi
expect "the file holds the slow create's result" "$(cat "$rec")" "time_sleep.slow"
expect "the file has a format version" "$(cat "$rec")" '"format_version": 1'
expect "the file lists what was not started" "$(cat "$rec")" "terraform_data.after"
if grep -qF "rec-S3CRET-token-42" <<<"$lost"; then fail "the secret is printed"; else pass "the secret is in no output"; fi

run recover-while-down 1 "$STRATA" state recover app
expect "recover says the database is still away" "$err" "cannot reach the state database"
[ -f "$rec" ] && pass "the file stays while the database is away" || fail "the file went away"

pg_resume
run plan-refused 1 "$STRATA" plan -no-color
expect "plan refuses while a recovery file waits" "$err" "Run \`strata state recover app\` first"
run recover 0 "$STRATA" state recover app
expect "recover writes the saved result" "$out" "recovered 1 write(s)"
[ -f "$rec" ] && fail "the recovery file is still pending" || pass "the recovery file is archived"
ls .strata/recovery/recovered/app-*.json >/dev/null 2>&1 && pass "the pushed file is kept in recovered/" || fail "no archived file"
run list-after-recover 0 "$STRATA" state list app
expect "the slow create is in state" "$out" "time_sleep.slow"
expect "the fast create is in state" "$out" "terraform_data.fast"
run history-after-recover 0 "$STRATA" state history app
expect "the history names the recovery" "$out" "state recover"
run recover-again 0 "$STRATA" state recover app
expect "a second recover finds nothing to push" "$out" "No recovery file"
archived=$(ls .strata/recovery/recovered/app-*.json | head -1)
cp "$archived" "$work/again.json"
run recover-same-file 0 "$STRATA" state recover app -file "$work/again.json"
expect "pushing the same file again writes nothing" "$out" "was recovered already"
run apply-rest 0 "$STRATA" apply -auto-approve -no-color
expect "the next apply creates only what was not started" "$out" "Resources: 1 added, 0 changed, 0 destroyed"
run plan-after 0 "$STRATA" plan -no-color
converged "after recovery and apply the plan has no changes"
run list-final 0 "$STRATA" state list app
[ "$(grep -c . <<<"$out")" = 3 ] && pass "each instance once" || fail "state after recovery: $out"
dump=$(psql "$conninfo" -Atc "SELECT string_agg(t::text, ' ') FROM rec_e2e.resources t")
if grep -qF "rec-S3CRET-token-42" <<<"$dump"; then fail "the recovered secret reached the database in clear"; else pass "the recovered secret is sealed in the database"; fi

# A recovery file from before a change of the stage is refused.
sed -e 's/"base_serial": [0-9]*/"base_serial": 0/' -e 's/"id": "[^"]*"/"id": "another-run"/' "$work/again.json" >"$work/stale.json"
run recover-stale 1 "$STRATA" state recover app -file "$work/stale.json"
expect "a file older than the stage's serial is refused" "$err" "the stage was changed since"

# --- 2. The server comes back within the retry deadline ----------------------------------
q="$work/q"
project "$q" back_e2e 30s
cd "$q" || exit 1
"$STRATA" apply -auto-approve -no-color >"$work/back.out" 2>&1 &
apply=$!
wait_pending back_e2e time_sleep.slow || fail "the slow create never started (retry case)"
pg_pause
sleep 4
pg_resume
wait "$apply" && pass "the apply succeeds when the database is back in time" || { fail "apply failed"; tail -20 "$work/back.out"; }
expect "all three created" "$(cat "$work/back.out")" "Resources: 3 added"
ls .strata/recovery/*.json >/dev/null 2>&1 && fail "a recovery file was written" || pass "no recovery file"
run plan-back 0 "$STRATA" plan -no-color
converged "after the retried apply the plan has no changes"

# --- 3. pg_terminate_backend of the lock holder's sessions --------------------------------
r="$work/r"
project "$r" term_e2e 30s
cd "$r" || exit 1
"$STRATA" apply -auto-approve -no-color >"$work/term.out" 2>&1 &
apply=$!
wait_pending term_e2e time_sleep.slow || fail "the slow create never started (terminate case)"
killed=$(psql "$conninfo" -Atc "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'strata' AND pid <> pg_backend_pid()")
[ "${killed:-0}" -ge 1 ] && pass "the holder's sessions were terminated ($killed)" || fail "no session terminated"
wait "$apply" && pass "the apply reconnects and succeeds" || { fail "apply failed after pg_terminate_backend"; tail -20 "$work/term.out"; }
run list-term 0 "$STRATA" state list app
[ "$(grep -c . <<<"$out")" = 3 ] && pass "after pg_terminate_backend: each instance once" || fail "state: $out"
[ "$(psql "$conninfo" -Atc "SELECT count(*) FROM term_e2e.locks")" = 0 ] && pass "no lock left behind" || fail "a lock is left"
finish
