#!/usr/bin/env bash
# kill -9 at random moments of applies (and destroys) whose state is on PostgreSQL, against a
# separately served sandbox (so the world outlives each killed strata). After every kill the
# same verb runs again and must finish at once (the dead holder's advisory lock died with its
# connection), the plan after an apply must be clean, the world (read with the AWS CLI) must
# match the state — nothing lost, nothing doubled — and no lock row may be left.
#
# STRATA_PG_KILLS (default 10: a lean CI run; 100 for issue 16's full run), and
# STRATA_PG_KILL_SEED to replay a run (the seed is printed).
source "$(dirname "$0")/lib.sh"
command -v aws >/dev/null || { echo "SKIPPED: no aws CLI"; exit 77; }
kills_wanted=${STRATA_PG_KILLS:-10}
seed=${STRATA_PG_KILL_SEED:-$(( (RANDOM << 15) | RANDOM ))}
RANDOM=$seed
echo "postgres kill test: seed $seed, $kills_wanted kills"

serve_sandbox --state "$work/world.db" --latency-ms 20 --seed "$seed" || { fail "sandbox serve"; finish; exit 1; }
start_pg_server
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" stop "$pgdir"; rm -rf "$work"' EXIT
export AWS_ENDPOINT_URL=$url AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_DEFAULT_REGION=us-west-2
export AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key AWS_PAGER=""
unset AWS_SESSION_TOKEN AWS_PROFILE STRATA_ENV
export STRATA_PG_URL="$conninfo"

p="$work/p"
mkdir -p "$p/net"
cat >"$p/strata.yaml" <<'YAML'
project: e2e-postgres-kill
stages:
  - { name: net, path: net }
YAML
# Twelve VPCs (a create sent twice makes two: a doubled create shows as an orphan) and a
# security group in each, so that the apply has several waves of parallel operations.
cat >"$p/net/main.yaml" <<'YAML'
providers:
  aws: { region: us-west-2 }
resources:
  vpc:
    type: aws_vpc
    count: 12
    properties: { cidr_block: "10.${count.index}.0.0/16" }
  sg:
    type: aws_security_group
    count: 12
    properties:
      name: "kill-test-${count.index}"
      description: kill test
      vpc_id: "${vpc[count.index].id}"
YAML
strata() { "$STRATA" -chdir="$p" "$@"; }
recover() {
  out=$(strata "$1" -auto-approve -lock-timeout=5s net 2>"$work/stderr") && code=0 || code=$?
  err=$(cat "$work/stderr")
  return "$code"
}
locks() { psql "$conninfo" -Atc "SELECT count(*) FROM strata.locks" 2>/dev/null; }
compare() {
  strata state pull net >"$work/state.json" 2>/dev/null || echo '{"resources": []}' >"$work/state.json"
  local report
  report=$(python3 "$STRATA_SOURCE_DIR/tests/e2e/tools/world_vs_state.py" "$work/state.json" 2>&1) &&
    pass "$1: world and state agree" || { fail "$1: $report"; bad=$((bad + 1)); }
}
timed() {
  local start
  start=$(date +%s%N)
  recover "$1"
  local rc=$?
  elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  return $rc
}
bad=0
locks_left=0
timed apply && pass "baseline apply (${elapsed_ms} ms)" || { fail "baseline apply: $err"; finish; exit 1; }
apply_ms=$elapsed_ms
timed destroy && pass "baseline destroy (${elapsed_ms} ms)" || fail "baseline destroy: $err"
destroy_ms=$elapsed_ms

kills=0
for i in $(seq 1 "$kills_wanted"); do
  # Odd kills hit an apply (from an empty world), even ones the destroy of what it made.
  if ((i % 2)); then verb=apply; window=$apply_ms; else verb=destroy; window=$destroy_ms; fi
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % (window + 1) ))
  "$STRATA" -chdir="$p" "$verb" -auto-approve net >"$work/killed.log" 2>&1 &
  pid=$!
  sleep "$(awk -v ms="$delay_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
  kill -9 $pid 2>/dev/null && kills=$((kills + 1))
  wait $pid 2>/dev/null
  label="kill $i ($verb at ${delay_ms} ms)"
  if ! recover "$verb"; then
    fail "$label: the $verb after the kill failed: $(tail -15 <<<"$out$err")"
    bad=$((bad + 1))
  elif [ "$verb" = apply ]; then
    out=$(strata plan -detailed-exitcode net 2>&1) && code=0 || code=$?
    [ "$code" = 0 ] && pass "$label: the next apply finished, the plan is clean" ||
      { fail "$label: plan after recovery exits $code: $(grep -E '^  # |Plan:|Error' <<<"$out" | head)"; bad=$((bad + 1)); }
  else
    [ -z "$(strata state list net 2>/dev/null)" ] && pass "$label: the next destroy finished, state is empty" ||
      { fail "$label: the destroy left $(strata state list net 2>&1 | head -3)"; bad=$((bad + 1)); }
  fi
  [ "$(locks)" = 0 ] || { fail "$label: a lock row is left behind"; bad=$((bad + 1)); locks_left=$((locks_left + 1)); }
  # The world is read with the AWS CLI (a dozen calls, seconds on a busy machine): after
  # every fifth kill and the last. An orphan stays in the world, so a later read finds it.
  if ((i % 5 == 0)) || [ "$i" = "$kills_wanted" ]; then compare "$label"; fi
done
[ "$locks_left" = 0 ] && pass "no lock row left behind after any of the $kills kills"
recover destroy >/dev/null || true
echo "postgres kill figures: seed $seed, $kills kills, $bad problems"
finish
