#!/usr/bin/env bash
# End-to-end: `strata state migrate` moves a project's state from SQLite to PostgreSQL and
# back (every environment and stage, with history, journal and sealed secrets): equal
# per-stage digests on the three stores, equal `state pull`, `state history` and
# `show -json`, a no-op plan on each, a non-empty target refused unless -force, the source
# left as it was.
source "$(dirname "$0")/lib.sh"
start_pg_server
trap 'bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" stop "$pgdir"; rm -rf "$work"' EXIT
unset STRATA_PG_URL STRATA_ENV
export STRATA_STATE_KEY=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0
pgurl="postgresql://strata@/postgres?host=$pgdir&port=$(cat "$pgdir/port")"

p="$work/p"
mkdir -p "$p/net" "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: e2e-migrate
stages:
  - { name: net, path: net }
  - { name: app, path: app }
YAML
cat >"$p/net/main.yaml" <<'YAML'
variables:
  cidr: { type: string, default: 10.0.0.0/16 }
resources:
  vpc:
    type: terraform_data
    properties: { input: "${var.cidr}" }
outputs:
  vpc_id: { value: "${vpc.id}" }
YAML
cat >"$p/app/main.yaml" <<'YAML'
variables:
  token: { type: string, default: migrate-S3CRET-77, sensitive: true }
resources:
  server:
    type: terraform_data
    count: 3
    properties: { input: "${stage.net.vpc_id}-${count.index}" }
  secret:
    type: terraform_data
    properties: { input: "${var.token}" }
outputs:
  token: { value: "${var.token}", sensitive: true }
YAML
cd "$p" || exit 1
run apply 0 "$STRATA" pipeline apply -auto-approve || exit 1
run apply-net-again 0 "$STRATA" apply -auto-approve -var cidr=10.1.0.0/16 net
run apply-app-again 0 "$STRATA" apply -auto-approve app
run env-new 0 "$STRATA" env new staging
run apply-staging 0 "$STRATA" apply -auto-approve net
run env-back 0 "$STRATA" env select default

snapshot() {  # the state as the verbs see it
  for s in net app; do "$STRATA" state pull "$s"; "$STRATA" state history "$s"; "$STRATA" show -json "$s"; done
  "$STRATA" state pull app -show-sensitive | grep -c migrate-S3CRET-77
  "$STRATA" -env staging state pull net
}
before=$(snapshot 2>&1)
rows_before=$(sqlite3 .strata/state.db "SELECT count(*) FROM resources; SELECT count(*) FROM history; SELECT count(*) FROM operations;")

# SQLite -> PostgreSQL.
run to-pg 0 "$STRATA" state migrate -to "$pgurl" && expect "migrate names what it verified" "$out" "counts and digests verified"
expect "migrate prints the strata.yaml lines" "$out" "backend: postgres"
expect "migrate counts every stage of every environment" "$out" "3 stage(s) in 2 environment(s)"
grep -q "staging/net" <<<"$out" && pass "the staging environment's stage is copied" || fail "no staging/net in: $out"
echo "$out"
digests_pg=$(grep -E '^  (net|app|staging/net) ' <<<"$out")
if grep -qF "$pgdir" <<<"$out"; then pass "the target is named"; else fail "the target is not named: $out"; fi
[ "$(snapshot 2>&1)" = "$before" ] && pass "the source is unchanged" || fail "the source changed"
[ "$(sqlite3 .strata/state.db "SELECT count(*) FROM locks")" = 0 ] && pass "no lock left in the source" || fail "a lock is left in the source"
sealed=$(psql "$conninfo" -Atc "SELECT string_agg(t::text, ' ') FROM strata.resources t")
if grep -qF "migrate-S3CRET-77" <<<"$sealed"; then fail "the secret reached PostgreSQL in clear"; else pass "secrets arrive sealed"; fi
[ "$(psql "$conninfo" -Atc "SELECT count(*) FROM strata.locks")" = 0 ] && pass "no lock left in the target" || fail "a lock is left in the target"

run to-pg-again 1 "$STRATA" state migrate -to "$pgurl" && expect "a non-empty target is refused" "$err" "The target is not empty"
expect "the refusal says -force" "$err" "-force"
run to-pg-force 0 "$STRATA" state migrate -to "$pgurl" -force && pass "-force replaces the target"
run same 1 "$STRATA" state migrate -to .strata/state.db && expect "the source itself is refused" "$err" "Nothing to migrate"

# The project on PostgreSQL: the same state, and nothing to do.
cp strata.yaml strata.sqlite.yaml
printf 'state:\n  backend: postgres\n  url: %s\n' "$pgurl" >>strata.yaml
[ "$(snapshot 2>&1)" = "$before" ] && pass "state pull and history are equal on PostgreSQL" || {
  fail "the state differs on PostgreSQL"; diff <(echo "$before") <(snapshot 2>&1) | head -20; }
run plan-pg 0 "$STRATA" pipeline plan -no-color && converged "no changes after the migration to PostgreSQL"
run plan-pg-staging 0 "$STRATA" -env staging plan -no-color net && converged "no changes in staging on PostgreSQL"

# PostgreSQL -> SQLite, into a new file.
run to-sqlite 0 "$STRATA" state migrate -to sqlite:back.db && expect "back to SQLite" "$out" "backend: sqlite"
expect "the lines name the file" "$out" "path: back.db"
digests_back=$(grep -E '^  (net|app|staging/net) ' <<<"$out")
[ -n "$digests_pg" ] && [ "$digests_pg" = "$digests_back" ] && pass "equal digests SQLite -> PostgreSQL -> SQLite" || {
  fail "the digests differ"; echo "$digests_pg"; echo "$digests_back"; }
[ "$(sqlite3 back.db "SELECT count(*) FROM resources; SELECT count(*) FROM history; SELECT count(*) FROM operations;")" = "$rows_before" ] &&
  pass "the rows came back" || fail "row counts differ after the round trip"
cp strata.sqlite.yaml strata.yaml
printf 'state: { backend: sqlite, path: back.db }\n' >>strata.yaml
[ "$(snapshot 2>&1)" = "$before" ] && pass "state pull and history are equal back on SQLite" || fail "the state differs back on SQLite"
run plan-back 0 "$STRATA" pipeline plan -no-color && converged "no changes after the round trip"
# The copies go on: new change sets and operations get ids of their own.
run apply-back 0 "$STRATA" apply -auto-approve -var cidr=10.2.0.0/16 net && expect "an apply on the copy" "$out" "1 changed"
cp strata.sqlite.yaml strata.yaml
printf 'state:\n  backend: postgres\n  url: %s\n' "$pgurl" >>strata.yaml
run apply-pg 0 "$STRATA" apply -auto-approve -var cidr=10.3.0.0/16 net && expect "an apply on the PostgreSQL copy" "$out" "1 changed"
finish
