#!/usr/bin/env bash
# Answers lost after the work was done: examples/eks-sandbox applied and destroyed against
# `strata sandbox serve --lost-reply-rate 0.3`, where three in ten calls that change the
# world commit the change and answer 500 (as when a connection drops after AWS made the
# object). Each verb must succeed the first time — creates without a client token are not
# sent twice, what a lost create made is found and adopted, a retried attach or delete
# that finds its work done counts as done — and the world, read with the AWS CLI, must
# match the state: no orphan, no duplicate, no dangling entry.
source "$(dirname "$0")/lib.sh"
command -v aws >/dev/null || { echo "SKIP: no aws CLI"; exit 77; }
seed=${STRATA_LOST_REPLY_SEED:-$(( (RANDOM << 15) | RANDOM ))}
echo "lost-reply test: seed $seed"

proj="$work/eks"
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox" "$proj"
rm -rf "$proj/.strata"
sed -i 's/^sandbox: .*$/sandbox: { enabled: false }/' "$proj/strata.yaml"
serve_sandbox --memory --lost-reply-rate 0.3 --seed "$seed" --cluster-delay-ms 500 --nodegroup-delay-ms 300 ||
  { fail "sandbox serve"; finish; exit 1; }
export AWS_ENDPOINT_URL=$url AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_DEFAULT_REGION=us-west-2
export AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key AWS_PAGER=""
unset AWS_SESSION_TOKEN AWS_PROFILE

agree() {
  "$STRATA" -chdir="$proj" state pull eks >"$work/state.json" 2>/dev/null || echo '{"resources": []}' >"$work/state.json"
  local report
  report=$(python3 "$STRATA_SOURCE_DIR/tests/e2e/tools/world_vs_state.py" "$work/state.json" 2>&1)
  expect "$1: world and state agree" "$report" "world-vs-state: 0 orphans, 0 dangling"
}

run "apply with lost answers" 0 "$STRATA" -chdir="$proj" apply -auto-approve eks && pass "apply succeeds at once"
expect "lost create answers were found and adopted" "$out" "the create's answer was lost, but the object it made was found"
run "no-op plan" 0 "$STRATA" -chdir="$proj" plan -detailed-exitcode eks && pass "the apply converged"
agree "after apply"
run "destroy with lost answers" 0 "$STRATA" -chdir="$proj" destroy -auto-approve eks && pass "destroy succeeds at once"
agree "after destroy"
kill -INT "$server" && wait "$server" 2>/dev/null
lost=$(sed -n 's/.* \([0-9]*\) answers lost after the change.*/\1/p' "$work/serve.log")
if [ "${lost:-0}" -gt 0 ]; then pass "the sandbox lost $lost answers"; else fail "the sandbox lost no answer: $(tail -2 "$work/serve.log")"; fi
finish
