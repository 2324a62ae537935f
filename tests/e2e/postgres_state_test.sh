#!/usr/bin/env bash
# End-to-end: a project whose state is on PostgreSQL (STRATA_PG_URL), on a server this test
# starts (pg_server.sh): apply, a no-op plan, state list and show, secrets sealed before they
# reach the database, the schema setting, a password that appears in no message, TLS with
# verify-full, two applies of one stage at once, kill -9 of an apply holding the lock, and
# eight applies of eight stages side by side.
source "$(dirname "$0")/lib.sh"
# libpq and its two dozen libraries are loaded when a PostgreSQL state is opened, not at
# start-up (README "State").
if command -v readelf >/dev/null; then
  readelf -d "$STRATA" | grep -q 'NEEDED.*libpq' && fail "strata links libpq at start-up" || pass "libpq is loaded on demand"
fi
pgdir=$(mktemp -d /tmp/strata-e2e-pg-XXXXXX)
if ! conninfo=$(bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" start "$pgdir" 2>"$work/pg.err"); then
  echo "SKIPPED: $(cat "$work/pg.err")"
  rm -rf "$pgdir"
  exit 77
fi
trap 'bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" stop "$pgdir"; rm -rf "$work"' EXIT
export STRATA_PG_URL="$conninfo"
export STRATA_STATE_KEY=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0

p="$work/p"
mkdir -p "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: e2e-postgres
stages:
  - { name: app, path: app }
YAML
cat >"$p/app/main.yaml" <<'YAML'
variables:
  token: { type: string, default: pg-S3CRET-token-99, sensitive: true }
resources:
  marker:
    type: null_resource
    properties:
      triggers: { greeting: hello }
  secret:
    type: terraform_data
    properties:
      input: ${var.token}
outputs:
  token: { value: "${var.token}", sensitive: true }
  greeting: { value: "${marker.triggers.greeting}" }
YAML
cd "$p" || exit 1

run init 0 "$STRATA" init && expect "init names the PostgreSQL state" "$out" "schema strata (postgres)"
run apply 0 "$STRATA" apply -auto-approve && expect "apply on PostgreSQL" "$out" "Apply complete! Resources: 2 added, 0 changed, 0 destroyed."
run plan-noop 0 "$STRATA" plan -detailed-exitcode && expect "the next plan has nothing to do" "$out" "No changes."
run state-list 0 "$STRATA" state list && expect "state list reads PostgreSQL" "$out" "terraform_data.secret" &&
  expect "state list has both" "$out" "null_resource.marker"
run state-show 0 "$STRATA" state show app terraform_data.secret && expect "state show masks the secret" "$out" "(sensitive value)"
run history 0 "$STRATA" state history app && expect "the history has the apply" "$out" "apply"
if [ -e .strata/state.db ]; then fail "no SQLite file is written"; else pass "no SQLite file is written"; fi

# The database holds the secret sealed only.
dump=$(psql "$conninfo" -At -c "SELECT string_agg(t::text, ' ') FROM strata.resources t" \
            -c "SELECT string_agg(t::text, ' ') FROM strata.outputs t" -c "SELECT string_agg(t::text, ' ') FROM strata.history t")
if grep -qF "pg-S3CRET-token-99" <<<"$dump"; then fail "the secret reached the database in clear"; else pass "the secret is sealed in the database"; fi
expect "the database has the rows" "$dump" "terraform_data.secret"

# Another schema of the same database is another state.
cat >>strata.yaml <<'YAML'
state: { schema: other_project }
YAML
run plan-other-schema 0 "$STRATA" plan -no-color && expect "another schema starts empty" "$out" "Plan: 2 to add"

# A wrong password: the error says where, never the password.
port=$(cat "$pgdir/port")
STRATA_PG_URL="postgresql://strata:WRONG-pw-4711@127.0.0.1:$port/postgres" run bad-password 1 "$STRATA" state list app
expect "the error names the masked URL" "$err" "postgresql://strata:***@127.0.0.1:$port/postgres"
if grep -qF "WRONG-pw-4711" <<<"$out$err"; then fail "the password is printed"; else pass "the password is in no output"; fi
# TLS with sslmode=verify-full: the server's certificate verified against its CA and name;
# another CA is refused.
if [ -f "$pgdir/ca.crt" ]; then
  tls="host=localhost port=$port user=strata dbname=postgres sslmode=verify-full sslrootcert=$pgdir/ca.crt"
  PGPASSWORD=$(cat "$pgdir/password") STRATA_PG_URL="$tls" run tls-verify-full 0 "$STRATA" state list app &&
    pass "state over verify-full TLS"
  (cd "$work" && openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=another CA" -keyout other.key \
     -out other.crt >/dev/null 2>&1)
  PGPASSWORD=$(cat "$pgdir/password") STRATA_PG_URL="${tls%sslrootcert=*}sslrootcert=$work/other.crt" \
    run tls-other-ca 1 "$STRATA" state list app && expect "a server another CA signed is refused" "$err" "certificate verify failed"
else
  echo "SKIPPED the TLS cases: openssl could not make the test CA (see $pgdir/tls.log)"
fi

# Two processes applying one stage at once: exactly one writes, the other names the holder.
q="$work/q"
mkdir -p "$q/slow"
cat >"$q/strata.yaml" <<'YAML'
project: e2e-postgres-locks
state: { schema: locks_e2e }
stages:
  - { name: slow, path: slow }
YAML
cat >"$q/slow/main.yaml" <<'YAML'
resources:
  wait:
    type: time_sleep
    properties: { create_duration: 4s }
  after:
    type: terraform_data
    properties: { input: "${wait.id}" }
YAML
cd "$q" || exit 1
locked() { [ "$(psql "$conninfo" -Atc "SELECT count(*) FROM locks_e2e.locks WHERE stage = 'slow'" 2>/dev/null)" = 1 ]; }
wait_locked() { for _ in $(seq 1 200); do locked && return 0; sleep 0.05; done; return 1; }
"$STRATA" apply -auto-approve slow >"$work/first.out" 2>&1 &
first=$!
if wait_locked; then pass "the first apply holds the stage's lock"; else fail "the first apply never locked the stage"; fi
run second-apply 1 "$STRATA" apply -auto-approve slow
expect "the second apply is refused naming the holder" "$err" "is locked by"
expect "the refusal says how to force-unlock" "$err" "strata force-unlock"
wait "$first" && pass "the first apply completes" || { fail "the first apply failed"; cat "$work/first.out"; }
run list-after-race 0 "$STRATA" state list slow
[ "$(grep -c . <<<"$out")" = 2 ] && pass "each instance once" || fail "state after the race: $out"

# kill -9 of an apply holding the lock: its lock dies with its connection; the next apply
# takes the stage over at once and finishes the work, nothing doubled.
"$STRATA" destroy -auto-approve slow >/dev/null 2>&1
"$STRATA" apply -auto-approve slow >"$work/killed.out" 2>&1 &
victim=$!
wait_locked && sleep 0.5
kill -9 "$victim"; wait "$victim" 2>/dev/null
run takeover 0 "$STRATA" apply -auto-approve -lock-timeout=10s slow
expect "the dead holder's lock is taken over" "$out$err" "Took over a stale lock"
run list-after-kill 0 "$STRATA" state list slow
[ "$(grep -c . <<<"$out")" = 2 ] && pass "after kill -9: each instance once" || fail "state after kill -9: $out"
locked && fail "a lock is left behind" || pass "no lock is left behind"

# force-unlock of a live holder: its writes are refused, but nobody gets in before its
# session ends; then the next apply reconciles what it left.
cd "$q" || exit 1
"$STRATA" apply -auto-approve -replace=time_sleep.wait slow >"$work/forced.out" 2>&1 &
holder=$!
wait_locked
id=$(psql "$conninfo" -Atc "SELECT id FROM locks_e2e.locks WHERE stage = 'slow'")
run force-unlock 0 "$STRATA" force-unlock -force "$id"
expect "force-unlock says the stage stays locked while its holder lives" "$out" "stays locked until that session ends"
run apply-after-force 1 "$STRATA" apply -auto-approve slow
expect "nobody gets in while the holder's session lives" "$err" "force-unlocked"
wait "$holder" && fail "the force-unlocked apply went on writing" || pass "the force-unlocked apply stops at its next write"
expect "it says it lost its lock" "$(cat "$work/forced.out")" "does not hold its lock"
run apply-after-holder 0 "$STRATA" apply -auto-approve -lock-timeout=10s slow && pass "the next apply runs once the holder is gone"
run list-after-force 0 "$STRATA" state list slow
[ "$(grep -c . <<<"$out")" = 2 ] && pass "after force-unlock: each instance once" || fail "state after force-unlock: $out"

# Eight processes applying eight stages of one project at once: each has its own lock.
r="$work/r"
mkdir -p "$r"
{ echo "project: e2e-postgres-eight"; echo "state: { schema: eight_e2e }"; echo "stages:"; } >"$r/strata.yaml"
for i in 1 2 3 4 5 6 7 8; do
  mkdir -p "$r/s$i"
  echo "  - { name: s$i, path: s$i }" >>"$r/strata.yaml"
  cat >"$r/s$i/main.yaml" <<'YAML'
resources:
  wait:
    type: time_sleep
    properties: { create_duration: 2s }
  mark:
    type: terraform_data
    properties: { input: "${wait.id}" }
YAML
done
cd "$r" || exit 1
start=$(date +%s)
pids=()
for i in 1 2 3 4 5 6 7 8; do "$STRATA" apply -auto-approve "s$i" >"$work/eight-$i.out" 2>&1 & pids+=($!); done
ok=0
for pid in "${pids[@]}"; do wait "$pid" && ok=$((ok + 1)); done
elapsed=$(( $(date +%s) - start ))
[ "$ok" = 8 ] && pass "eight applies of eight stages at once all succeed" || { fail "$ok of 8 applies succeeded"; cat "$work"/eight-*.out | head -20; }
# Side by side, not one after the other (8 x 2 s one at a time would be 16 s).
[ "$elapsed" -lt 14 ] && pass "the eight stages applied side by side (${elapsed} s)" || fail "eight stages took ${elapsed} s: serialised?"
rows=$(psql "$conninfo" -Atc "SELECT count(*) FROM eight_e2e.resources")
[ "$rows" = 16 ] && pass "sixteen instances recorded" || fail "eight stages recorded $rows instances"
finish
