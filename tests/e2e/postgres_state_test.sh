#!/usr/bin/env bash
# End-to-end: a project whose state is on PostgreSQL (STRATA_PG_URL), on a server this test
# starts (pg_server.sh): apply, a no-op plan, state list and show, secrets sealed before they
# reach the database, the schema setting, and a password that appears in no message.
source "$(dirname "$0")/lib.sh"
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
finish
