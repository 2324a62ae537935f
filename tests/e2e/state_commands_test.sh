#!/usr/bin/env bash
# End-to-end: the state, output and force-unlock verbs of the real binary, on a project whose
# state is loaded with `state push` (no cloud needed).
set -euo pipefail
: "${STRATA:?set STRATA to the strata binary}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_in() { grep -qF -- "$1" <<<"$2" || fail "expected '$1' in: $2"; }
expect_not_in() { ! grep -qF -- "$1" <<<"$2" || fail "did not expect '$1' in: $2"; }

new_project() {
  mkdir -p "$1/01-eks" "$1/02-addons"
  cat >"$1/strata.yaml" <<'YAML'
project: e2e-state
stages:
  - { name: eks, path: 01-eks }
  - { name: addons, path: 02-addons }
YAML
}

state_file() {
  cat <<'JSON'
{
  "format_version": 1, "stage": "eks", "lineage": "", "serial": 0,
  "resources": [
    { "address": "aws_vpc.main", "type": "aws_vpc", "provider": "aws", "status": "created",
      "attributes": { "id": "vpc-123", "cidr_block": "10.0.0.0/16" } },
    { "address": "aws_db_instance.main", "type": "aws_db_instance", "provider": "aws", "status": "created",
      "attributes": { "engine": "postgres", "password": "pw-SUPER-SECRET-42" },
      "sensitive_attributes": [["password"]], "dependencies": ["aws_vpc.main"] }
  ],
  "outputs": {
    "endpoint": { "value": "db.example", "sensitive": false },
    "token": { "value": "tok-OUTPUT-SECRET-7", "sensitive": true }
  }
}
JSON
}

# --- Reading and editing state -----------------------------------------------------------
cd "$work" && new_project p1 && cd p1
state_file >state.json
out=$("$STRATA" state push eks state.json)
expect_in "Pushed 2 resource instance(s) and 2 output(s) to stage eks (serial 1)" "$out"

out=$("$STRATA" state list eks)
expect_in "aws_vpc.main" "$out"
expect_in "aws_db_instance.main" "$out"
out=$(cd 01-eks && "$STRATA" state list aws_vpc)   # stage from the working directory, filter
[[ "$out" == "aws_vpc.main" ]] || fail "filtered list: $out"

out=$("$STRATA" state show eks aws_db_instance.main)
expect_in 'resource "aws_db_instance" "main"' "$out"
expect_in "(sensitive value)" "$out"
expect_not_in "pw-SUPER-SECRET-42" "$out"

out=$("$STRATA" state pull eks)
expect_in '"secrets_masked": true' "$out"
expect_not_in "pw-SUPER-SECRET-42" "$out"
out=$("$STRATA" state pull eks -show-sensitive)
expect_in "pw-SUPER-SECRET-42" "$out"

out=$("$STRATA" output eks)
expect_in 'endpoint = "db.example"' "$out"
expect_in "token = <sensitive>" "$out"
[[ "$("$STRATA" output eks endpoint -raw)" == "db.example" ]] || fail "output -raw"
expect_in '"tok-OUTPUT-SECRET-7"' "$("$STRATA" output eks token -json)"
if out=$("$STRATA" output addons 2>&1); then fail "output of an unapplied stage succeeded"; fi
expect_in "strata apply addons" "$out"
if out=$("$STRATA" output eks nope 2>&1); then fail "missing output succeeded"; fi
expect_in "endpoint, token" "$out"

"$STRATA" state mv eks aws_vpc.main aws_vpc.primary >/dev/null
out=$("$STRATA" state show eks aws_db_instance.main)
expect_in "depends on: aws_vpc.primary" "$out"
"$STRATA" state rm eks aws_vpc.primary >/dev/null
out=$("$STRATA" state list eks)
expect_not_in "aws_vpc" "$out"

out=$("$STRATA" state history eks)
expect_in "state rm" "$out"
expect_in "state mv aws_vpc.main aws_vpc.primary" "$out"
out=$("$STRATA" state rollback eks 1)
expect_in "rolled back to serial 1, recorded as serial 4" "$out"
expect_in "aws_vpc.main" "$("$STRATA" state list eks)"

# A pulled state pushed back unchanged is accepted; an older one is refused.
"$STRATA" state pull eks -show-sensitive >pulled.json
"$STRATA" state push eks pulled.json >/dev/null
if out=$("$STRATA" state push eks pulled.json 2>&1); then fail "stale push succeeded"; fi
expect_in "serial" "$out"
expect_in "-force" "$out"
"$STRATA" state pull eks >masked.json
if out=$("$STRATA" state push eks masked.json -force 2>&1); then fail "masked push succeeded"; fi
expect_in "-show-sensitive" "$out"

# --- Locks ---------------------------------------------------------------------------------
if command -v sqlite3 >/dev/null; then
  host=$(uname -n)
  # A lock held by a live process (this shell): refused after -lock-timeout, released by hand.
  sqlite3 .strata/state.db "INSERT INTO locks VALUES('eks', 'live-lock-id', 'ghost', '$host', $$, 0, 'apply', 1700000000000)"
  start=$(date +%s%N)
  if out=$("$STRATA" state rm eks aws_vpc.main -lock-timeout=1s 2>&1); then fail "rm under a held lock succeeded"; fi
  waited=$(( ($(date +%s%N) - start) / 1000000 ))
  (( waited >= 1000 )) || fail "-lock-timeout=1s waited only ${waited} ms"
  expect_in "locked by ghost@$host (pid $$)" "$out"
  expect_in '"apply"' "$out"
  expect_in "strata force-unlock live-lock-id" "$out"

  # plan loads the configuration while it tries the lock, then waits for the lock as long as
  # -lock-timeout says; a configuration error is reported at once, without that wait.
  printf 'locals:\n  a: 1\n' >01-eks/ok.yaml
  start=$(date +%s%N)
  if out=$("$STRATA" plan eks -lock-timeout=1s 2>&1); then fail "plan under a held lock succeeded"; fi
  waited=$(( ($(date +%s%N) - start) / 1000000 ))
  (( waited >= 1000 )) || fail "plan -lock-timeout=1s waited only ${waited} ms"
  expect_in "locked by ghost@$host (pid $$)" "$out"
  printf 'resources:\n  broken: [\n' >01-eks/broken.yaml
  start=$(date +%s%N)
  if out=$("$STRATA" plan eks -lock-timeout=20s 2>&1); then fail "plan of a broken file succeeded"; fi
  waited=$(( ($(date +%s%N) - start) / 1000000 ))
  rm 01-eks/broken.yaml 01-eks/ok.yaml
  (( waited < 10000 )) || fail "a configuration error waited ${waited} ms for the held lock"
  expect_in "Invalid YAML" "$out"
  expect_in "01-eks/broken.yaml" "$out"
  expect_not_in "locked by" "$out"

  if out=$(echo no | "$STRATA" force-unlock live-lock-id 2>&1); then fail "unconfirmed force-unlock succeeded"; fi
  expect_in "cancelled" "$out"
  out=$("$STRATA" force-unlock live-lock-id -force)
  expect_in "has been released" "$out"

  # A lock whose process is gone from this host (kill -9) is taken over, with one warning.
  sqlite3 .strata/state.db "INSERT INTO locks VALUES('eks', 'dead-lock-id', 'ghost', '$host', 999999, 0, 'apply', 1700000000000)"
  out=$("$STRATA" state rm eks aws_vpc.main 2>&1) || fail "rm did not take over a stale lock: $out"
  expect_in "Took over a stale lock" "$out"
  expect_in "ghost@$host (pid 999999)" "$out"
  expect_in "dead-lock-id" "$out"
fi

# Two writers at once: one waits for the other; both succeed, one serial each.
before=$("$STRATA" state pull eks | grep -o '"serial": [0-9]*' | grep -o '[0-9]*')
"$STRATA" state pull eks -show-sensitive >latest.json
"$STRATA" state push eks latest.json -force -lock-timeout=20s >/dev/null & a=$!
"$STRATA" state push eks latest.json -force -lock-timeout=20s >/dev/null & b=$!
wait $a || fail "first concurrent push failed"
wait $b || fail "second concurrent push failed"
after=$("$STRATA" state pull eks | grep -o '"serial": [0-9]*' | grep -o '[0-9]*')
(( after == before + 2 )) || fail "expected serial $((before + 2)), got $after"

# --- Secrets at rest -----------------------------------------------------------------------
cd "$work" && new_project p2 && cd p2
state_file >state.json
export STRATA_STATE_KEY=$(openssl rand -base64 32)
"$STRATA" state push eks state.json >/dev/null
for f in .strata/state.db*; do
  if grep -q "pw-SUPER-SECRET-42\|tok-OUTPUT-SECRET-7" "$f"; then fail "a secret is readable in $f"; fi
done
expect_in "pw-SUPER-SECRET-42" "$("$STRATA" state pull eks -show-sensitive)"
if out=$(STRATA_STATE_KEY= "$STRATA" state pull eks -show-sensitive 2>&1); then fail "pull without key succeeded"; fi
expect_in "no state key is configured" "$out"
if out=$(STRATA_STATE_KEY="wrong key" "$STRATA" output eks token 2>&1); then fail "wrong key succeeded"; fi
expect_in "encrypted with key id" "$out"
expect_in "aws_db_instance.main" "$(STRATA_STATE_KEY= "$STRATA" state list eks)"   # listing needs no key

# Rotation.
old=$STRATA_STATE_KEY
export STRATA_STATE_KEY=$(openssl rand -hex 32)
out=$(STRATA_STATE_OLD_KEY=$old "$STRATA" state rekey)
expect_in "Re-encrypted" "$out"
expect_in "pw-SUPER-SECRET-42" "$("$STRATA" state pull eks -show-sensitive)"

echo "state commands: ok"
