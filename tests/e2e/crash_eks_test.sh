#!/usr/bin/env bash
# The crash promise, tried as a user would: `kill -9` at random moments of `apply` and
# `destroy` of examples/eks-sandbox against a separately served sandbox
# (`strata sandbox serve --latency-ms L`, reached through AWS_ENDPOINT_URL). After every
# kill the stage is recovered (the same command again, which takes over the dead process's
# lock), must converge
# (`plan -detailed-exitcode` exits 0 after an apply, state is empty after a destroy), and
# the world, read with the AWS CLI, must match the state: no orphan, no duplicate, no
# dangling entry (tests/e2e/tools/world_vs_state.py).
#
# Kills cycle through three moments: apply (from an empty world) recovered by apply,
# destroy (of the applied stage) recovered by destroy, and apply (from an empty world)
# recovered by destroy — the destroy must find and delete what the interrupted creates
# made.
# STRATA_CRASH_MOMENTS (default 10), STRATA_CRASH_LATENCY_MS (default 50) and
# STRATA_CRASH_SEED set the run; the seed is printed so a failure can be replayed.
# scripts/crash-test.sh runs the full version (50 moments at 300 ms).
source "$(dirname "$0")/lib.sh"
command -v aws >/dev/null || { echo "SKIP: no aws CLI"; exit 77; }
moments=${STRATA_CRASH_MOMENTS:-10}
latency=${STRATA_CRASH_LATENCY_MS:-50}
seed=${STRATA_CRASH_SEED:-$(( (RANDOM << 15) | RANDOM ))}
RANDOM=$seed
echo "crash test: seed $seed, $moments kills, ${latency} ms per AWS call"

proj="$work/eks"
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox" "$proj"
rm -rf "$proj/.strata"
sed -i 's/^sandbox: .*$/sandbox: { enabled: false }/' "$proj/strata.yaml"
serve_sandbox --state "$work/world.db" --latency-ms "$latency" --seed "$seed" \
  --cluster-delay-ms 1500 --nodegroup-delay-ms 800 || { fail "sandbox serve"; finish; exit 1; }
export AWS_ENDPOINT_URL=$url AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_DEFAULT_REGION=us-west-2
export AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key AWS_PAGER=""
unset AWS_SESSION_TOKEN AWS_PROFILE

strata() { "$STRATA" -chdir="$proj" "$@"; }

# Runs a verb to the end; the lock a killed process left behind is taken over by the run
# (its process is gone) and says so.
recover() {
  local verb=$1
  out=$(strata "$verb" -auto-approve eks 2>"$work/stderr") && code=0 || code=$?
  err=$(cat "$work/stderr")
  return "$code"
}

# Compares the world with the state; counts into the totals.
orphans_total=0
dangling_total=0
compare() {
  strata state pull eks >"$work/state.json" 2>/dev/null || echo '{"resources": []}' >"$work/state.json"
  local report
  report=$(python3 "$STRATA_SOURCE_DIR/tests/e2e/tools/world_vs_state.py" "$work/state.json" 2>&1)
  local o d
  o=$(sed -n 's/^world-vs-state: \([0-9]*\) orphans.*/\1/p' <<<"$report")
  d=$(sed -n 's/^world-vs-state: .* \([0-9]*\) dangling$/\1/p' <<<"$report")
  orphans_total=$((orphans_total + ${o:-1}))
  dangling_total=$((dangling_total + ${d:-1}))
  if [ "${o:-1}" = 0 ] && [ "${d:-1}" = 0 ]; then pass "$1: world and state agree"; else fail "$1: $report"; fi
}

# Times one full run of a verb, to aim the kills inside it.
timed() {
  local start end
  start=$(date +%s%N)
  recover "$1"
  local code=$?
  end=$(date +%s%N)
  elapsed_ms=$(( (end - start) / 1000000 ))
  return $code
}

timed apply && pass "baseline apply (${elapsed_ms} ms)" || fail "baseline apply: $err"
apply_ms=$elapsed_ms
timed destroy && pass "baseline destroy (${elapsed_ms} ms)" || fail "baseline destroy: $err"
destroy_ms=$elapsed_ms
compare "baseline"

kills=0
converged=0
for i in $(seq 1 "$moments"); do
  case $((i % 3)) in
    1) verb=apply; then=apply; window=$apply_ms ;;
    2) verb=destroy; then=destroy; window=$destroy_ms ;;
    0) verb=apply; then=destroy; window=$apply_ms ;;
  esac
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % (window + 1) ))
  # The binary itself in the background (not the shell function: $! would be a subshell,
  # and kill -9 would leave strata running).
  "$STRATA" -chdir="$proj" "$verb" -auto-approve eks >"$work/killed.log" 2>&1 &
  pid=$!
  sleep "$(awk -v ms="$delay_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
  kill -9 $pid 2>/dev/null && kills=$((kills + 1))
  wait $pid 2>/dev/null
  label="kill $i ($verb at ${delay_ms} ms, then $then)"
  if ! recover "$then"; then
    fail "$label: the $then after the kill failed: $(tail -25 <<<"$out$err")"
    compare "$label"
    continue
  fi
  if [ "$then" = apply ]; then
    out=$(strata plan -detailed-exitcode eks 2>&1) && code=0 || code=$?
    [ "$code" = 0 ] && converged=$((converged + 1)) && pass "$label: recovered, the next plan is clean" ||
      fail "$label: plan after recovery exits $code: $(grep -E '^  # |Plan:|Error' <<<"$out" | head -20)"
  else
    grep -q "Destroy complete!" <<<"$out" && [ -z "$(strata state list eks 2>/dev/null)" ] &&
      converged=$((converged + 1)) && pass "$label: recovered, state is empty" ||
      fail "$label: destroy after the kill left: $(strata state list eks 2>&1 | head)"
  fi
  compare "$label"
done
# Leave nothing behind whichever verb came last.
recover destroy >/dev/null || true
echo "crash figures: seed $seed, $kills kills at ${latency} ms latency, $converged converged, $orphans_total orphans, $dangling_total dangling"
finish
