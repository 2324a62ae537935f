#!/usr/bin/env bash
# End-to-end: the sandbox changes its world only when an API request asks it to. Starting
# the embedded sandbox (`-sandbox`) for a command — while `strata sandbox serve` serves the
# same world, or for a command then refused the stage's lock — leaves the world's CA and
# its recorded cluster endpoint port byte for byte as they were, and the world stays 0600.
source "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || { echo "skip: the sqlite3 command is missing (scripts/install-deps.sh installs it)"; exit 77; }

p="$work/p"
mkdir -p "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: world
stages:
  - { name: app, path: app }
YAML
cat >"$p/app/main.yaml" <<'YAML'
resources:
  wait:
    type: time_sleep
    properties: { create_duration: 4s }
YAML
cd "$p" || exit 1
world=.strata/sandbox.db
# What clients depend on: the CA (certificate and key) and the cluster endpoint's port.
recorded() { sqlite3 "$world" "SELECT name || '=' || hex(value) FROM settings ORDER BY name"; }
same_as_first() { # NAME
  if [ "$(recorded)" = "$first" ]; then pass "$1"; else fail "$1: the world's CA or cluster port changed"; fi
}

umask 000
run first-start 0 "$STRATA" plan -sandbox
first=$(recorded)
grep -q '^cluster_ca_key=' <<<"$first" && grep -q '^cluster_port=' <<<"$first" &&
  pass "a new world records its CA and cluster port" || fail "a new world records its CA and cluster port: $first"
[ "$(stat -c %a $world)" = 600 ] && pass "the world is 0600 under umask 000" || fail "world mode $(stat -c %a $world)"

run second-start 0 "$STRATA" plan -sandbox && same_as_first "a second start changes nothing"

"$STRATA" sandbox serve >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "Press Ctrl-C" "$work/serve.log" && break; sleep 0.1; done
expect "serve names the world's cluster endpoint" "$(cat "$work/serve.log")" \
  "EKS cluster endpoints on https://127.0.0.1:$(sqlite3 $world "SELECT value FROM settings WHERE name='cluster_port'")"
same_as_first "sandbox serve on the world changes nothing"

run plan-while-served 0 "$STRATA" plan -sandbox && same_as_first "-sandbox while serve holds the cluster port changes nothing"

"$STRATA" apply -auto-approve -sandbox >"$work/apply.log" 2>&1 &
apply=$!
for _ in $(seq 100); do grep -q "Creating" "$work/apply.log" && break; sleep 0.1; done
run refused-lock 1 "$STRATA" plan -sandbox && expect "the plan is refused the lock" "$err" "lock"
same_as_first "a command refused the lock changes nothing"
wait $apply && pass "the apply holding the lock finished" || fail "the apply failed: $(cat "$work/apply.log")"

kill -INT $server
wait $server
same_as_first "after everything stopped, the CA and cluster port are as first recorded"
[ "$(stat -c %a $world)" = 600 ] && pass "the world is still 0600" || fail "world mode $(stat -c %a $world)"
finish
