#!/usr/bin/env bash
# End-to-end: the flagship, examples/kubeflow-eks, on the embedded sandbox through
# `strata pipeline`. The example and modules/ are copied side by side (the stages call
# ../../../modules/*).
# 1. `pipeline plan -out plans` of the never-applied project, then `pipeline apply plans` of
#    the seven stages; what the reference got wrong is checked in state
#    (the autoscaler's Auto Scaling permissions, no spot label or taint on an on-demand group,
#    the Cognito values in the Ingress by reference, one DNS owner); a no-op `pipeline plan`
#    (exit 0, every stage "No changes"); one change in stage addons that shows up in addons'
#    plan only; `pipeline destroy`, which leaves every stage's state empty.
# 2. A `pipeline apply` killed with SIGKILL in the middle of stage kubeflow's apply (its
#    Deployments waiting to roll out); the next `pipeline apply` takes over the stale lock and
#    finishes the job: the stages before it have nothing to do, stage kubeflow adds exactly
#    what the kill left and holds each object once, the stages after it are applied; then it
#    re-plans clean and is destroyed.
source "$(dirname "$0")/lib.sh"

root="$work/repo"
proj="$root/examples/kubeflow-eks"
mkdir -p "$root/examples"
cp -r "$STRATA_SOURCE_DIR/examples/kubeflow-eks" "$proj"
cp -r "$STRATA_SOURCE_DIR/modules" "$root/modules"
rm -rf "$proj/.strata"
s() { "$STRATA" -chdir="$proj" "$@"; }
stages=(eks addons auth kubeflow dns dashboard fsx)
# row STAGE: "ADDED CHANGED DESTROYED RESULT" of the summary table in $out.
row() { awk -v st="$1" '$1 == st { print $2, $3, $4, $NF }' <<<"$out"; }
no_secret() {
  grep -qF sandbox-only-google-secret <<<"$1" && fail "$2: the Google secret was printed" || pass "$2: the Google secret is never printed"
}
noop_plan() {
  local t=$SECONDS
  run "$1: no-op pipeline plan" 0 s pipeline plan -detailed-exitcode -no-color
  echo "     (no-op pipeline plan: $((SECONDS - t)) s)"
  expect "$1: every stage: no changes" "$out" "Pipeline plan: 7 no changes."
  [ "$(grep -c '^No changes. Your infrastructure matches the configuration.' <<<"$out")" = 7 ] &&
    pass "$1: seven plans say No changes" || fail "$1: not every stage's plan says No changes"
  grep -qF "changed outside" <<<"$out" && fail "$1: a stage notes changes outside Strata" || pass "$1: nothing changed outside Strata"
}
destroy_all() {
  local t=$SECONDS st
  run "$1: pipeline destroy" 0 s pipeline destroy -auto-approve -no-color || { echo "$out" | tail -30; }
  echo "     (pipeline destroy: $((SECONDS - t)) s)"
  expect "$1: every stage destroyed" "$out" "Pipeline destroy: 7 destroyed."
  for st in "${stages[@]}"; do
    run "$1: state of $st" 0 s state list "$st"
    [ -z "$out" ] && pass "$1: nothing left in stage $st" || fail "$1: stage $st still holds: $out"
  done
}

start=$SECONDS
run "validate all seven stages" 0 s validate
expect "seven stages" "$out" "Success! The configuration is valid (7 stages)."

# --- 1. Plan the never-applied project (later stages read earlier stages' planned outputs,
# unknown ones as unknown), apply exactly those saved plans (the CI way), check, re-plan,
# change, destroy.
run "pipeline plan -out of the never-applied project" 2 s pipeline plan -out plans -detailed-exitcode -no-color ||
  { echo "$out" | tail -30; }
expect "every stage planned" "$out" "Pipeline plan: 7 planned."
[ "$(ls "$proj/plans" | grep -c '\.plan$')" = 7 ] && pass "one saved plan per stage" || fail "saved plans: $(ls "$proj/plans")"
t=$SECONDS
run "pipeline apply of the saved plans" 0 s pipeline apply plans -no-color || { echo "$out" | tail -30; }
echo "     (pipeline apply: $((SECONDS - t)) s)"
expect "every stage applied" "$out" "Pipeline apply: 7 applied."
i=0
for n in 87 28 6 12 1 16 17; do
  st=${stages[$i]}; i=$((i + 1))
  [ "$(row "$st")" = "$n 0 0 applied" ] && pass "stage $st: $n added" || fail "stage $st: $(row "$st")"
done
no_secret "$out$err" "apply"

run "the autoscaler's policy" 0 s state show addons 'module.cluster_autoscaler.module.role.aws_iam_policy.policy[0]'
for action in autoscaling:DescribeAutoScalingGroups autoscaling:SetDesiredCapacity autoscaling:TerminateInstanceInAutoScalingGroup; do
  expect "the autoscaler may $action (the reference forgot)" "$out" "$action"
done
for group in cpu-ondemand gpu-ondemand-small-a gpu-ondemand-large-a; do
  run "group $group" 0 s state show eks "module.node_groups.aws_eks_node_group.nodes[\"$group\"]"
  grep -qE '^ +lifecycle += "OnDemand"$' <<<"$out" && pass "on-demand group $group: lifecycle OnDemand" ||
    fail "on-demand group $group: no lifecycle=OnDemand label"
  grep -qE 'Ec2Spot|spotInstance' <<<"$out" && fail "on-demand group $group carries a spot label or taint" ||
    pass "on-demand group $group: no spot label, no spot taint"
done
run "user pool" 0 s output -raw auth user_pool_arn
pool=$out
run "the ingress" 0 s state show kubeflow 'module.kubeflow.kubernetes_manifest.manifests["networking.k8s.io/Ingress/istio-system/istio-ingress"]'
expect "stage auth's user pool reaches stage kubeflow's Ingress by reference" "$out" "UserPoolArn\\\":\\\"$pool"
run "the record" 0 s output -raw dns fqdn
expect "stage dns owns kubeflow.example.com" "$out" "kubeflow.example.com"

noop_plan "after apply"

sed -i 's/max_node_provision_time: 7m/max_node_provision_time: 9m/' "$proj/02-addons/main.yaml"
run "pipeline plan after a change in addons" 2 s pipeline plan -detailed-exitcode -no-color
expect "one stage planned" "$out" "Pipeline plan: 6 no changes, 1 planned."
[ "$(row addons)" = "0 1 0 planned" ] && pass "addons: one change" || fail "addons: $(row addons)"
expect "the autoscaler's Deployment is updated" "$out" \
  'module.cluster_autoscaler.kubernetes_manifest.manifests["apps/Deployment/kube-system/cluster-autoscaler"] will be updated in-place'
expect "with the new flag" "$out" '"--max-node-provision-time=9m"'
for st in eks auth kubeflow dns dashboard fsx; do
  [ "$(row "$st")" = "0 0 0 changes" ] && pass "stage $st: no changes" || fail "stage $st: $(row "$st")"
done
sed -i 's/max_node_provision_time: 9m/max_node_provision_time: 7m/' "$proj/02-addons/main.yaml"

destroy_all "clean run"

# --- 2. kill -9 in the middle of stage kubeflow, then a pipeline apply finishes the job.
# Deployments take 1.5 s to roll out here, so the kill lands while stage kubeflow waits.
sed -i 's/workload_delay_ms: 200/workload_delay_ms: 1500/' "$proj/strata.yaml"
t=$SECONDS
"$STRATA" -chdir="$proj" pipeline apply -auto-approve >"$work/killed.out" 2>&1 &  # the binary itself: $! is its pid
pid=$!
marker='module.kubeflow.kubernetes_manifest.manifests["apps/Deployment/istio-system/istio-ingressgateway"]: Creating...'
for _ in $(seq 1800); do grep -qF "$marker" "$work/killed.out" 2>/dev/null && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if grep -qF "$marker" "$work/killed.out" && ! grep -qF 'Stage dns (5 of 7)' "$work/killed.out"; then
  pass "kill -9 landed in stage kubeflow's apply"
else
  fail "kill -9 did not land in stage kubeflow's apply:"; tail -20 "$work/killed.out"
fi
echo "     (until the kill: $((SECONDS - t)) s)"

t=$SECONDS
run "pipeline apply after kill -9" 0 s pipeline apply -auto-approve -no-color || { echo "$out" | tail -30; }
echo "     (recovery pipeline apply: $((SECONDS - t)) s)"
expect "every stage applied" "$out" "Pipeline apply: 7 applied."
expect "the killed apply's lock is taken over" "$out$err" "Took over a stale lock"
for st in eks addons auth; do
  [ "$(row "$st")" = "0 0 0 applied" ] && pass "stage $st had nothing left to do" || fail "stage $st: $(row "$st")"
done
i=4
for n in 1 16 17; do
  st=${stages[$i]}; i=$((i + 1))
  [ "$(row "$st")" = "$n 0 0 applied" ] && pass "stage $st applied after the recovery" || fail "stage $st: $(row "$st")"
done
no_secret "$out$err$(cat "$work/killed.out")" "kill and recovery"
# The recovery adds exactly what the killed run had not completed (an object in flight at
# the kill is found and adopted, not made twice). The killed run records a completion in
# state before it prints "Creation complete", so a kill between the two leaves one more
# object done than its output shows: the recovery adds at most what was not shown complete
# and at least what was never started.
done_before=$(grep -c '^module\.kubeflow\..*: Creation complete' "$work/killed.out")
started_before=$(grep -c '^module\.kubeflow\..*: Creating\.\.\.' "$work/killed.out")
recovered=$(row kubeflow)
if [[ $recovered =~ ^([0-9]+)\ 0\ 0\ applied$ ]] && ((BASH_REMATCH[1] <= 12 - done_before && BASH_REMATCH[1] >= 12 - started_before)); then
  pass "stage kubeflow: the recovery adds the ${BASH_REMATCH[1]} objects the kill left ($done_before shown made before it, $started_before started)"
else
  fail "stage kubeflow: the recovery's row $recovered, $done_before shown made and $started_before started before the kill"
fi
run "stage kubeflow's state" 0 s state list kubeflow
objects=$(grep '^module\.kubeflow\.' <<<"$out")
[ "$(grep -c . <<<"$objects")" = 12 ] && [ "$(sort <<<"$objects" | uniq -d)" = "" ] &&
  pass "stage kubeflow holds each of its 12 objects once" || fail "stage kubeflow's state: $out"

noop_plan "after the recovery"
destroy_all "after the recovery"
echo "     (whole test: $((SECONDS - start)) s)"
finish
