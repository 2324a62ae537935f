#!/usr/bin/env bash
# End-to-end: examples/kubeflow-p3-failover on the embedded sandbox — validate, `pipeline
# apply` of its four stages (cluster with m5 spot and P3 spot/on-demand groups from one list;
# priority-expander autoscaler, device plugin, interruption queue; CloudWatch dashboard;
# Karpenter CRDs, NodePool and EC2NodeClass), what the hand-built version got wrong checked
# (every group's real ASG name in the priority tiers — spot P3 above on-demand P3 — and in the
# dashboard, never pasted; no spot label or taint on an on-demand group; the interruption
# queue fed by its EventBridge rules; Karpenter's node class on this cluster's role), a no-op
# `pipeline plan`, `pipeline destroy`.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/staged_example.sh"

example_copy kubeflow-p3-failover
start=$SECONDS
example_validate 4
example_apply 4

run "the groups' ASGs" 0 s output -json eks asg_names
asgs=$out
run "the priority tiers" 0 s output -raw addons priorities
tiers=$out
run "the dashboard" 0 s state show dashboard aws_cloudwatch_dashboard.dashboard
dashboard=$out
# tier GROUP: the priority under which the group's ASG is listed.
tier() {
  awk -v asg="  - ^$(field "['$1']" <<<"$asgs")\$" '/^[0-9]+:$/ { t = $1 } $0 == asg { sub(":", "", t); print t }' <<<"$tiers"
}
for g in p3-2xl-spot p3-8xl-spot; do [ "$(tier "$g")" = 60 ] && pass "$g: tier 60 (spot first)" || fail "$g: tier $(tier "$g")"; done
for g in p3-2xl-od p3-8xl-od; do [ "$(tier "$g")" = 20 ] && pass "$g: tier 20 (on-demand failover)" || fail "$g: tier $(tier "$g")"; done
[ "$(tier m5spot)" = 40 ] && pass "m5spot: tier 40" || fail "m5spot: tier $(tier m5spot)"
for g in m5spot p3-2xl-spot p3-8xl-spot p3-2xl-od p3-8xl-od; do
  grep -qF "$(field "['$g']" <<<"$asgs")" <<<"$dashboard" && pass "the dashboard charts $g's ASG" || fail "$g's ASG not on the dashboard"
done
for g in p3-2xl-od p3-8xl-od; do
  run "group $g" 0 s state show eks "module.node_groups.aws_eks_node_group.nodes[\"$g\"]"
  grep -qE 'Ec2Spot|spotInstance' <<<"$out" && fail "on-demand $g carries a spot label or taint" || pass "on-demand $g: no spot label or taint"
done
run "the interruption rules" 0 s state list addons
[ "$(grep -c '^module.interruptions.aws_cloudwatch_event_target.target\[' <<<"$out")" = 4 ] &&
  pass "four EventBridge rules deliver to the interruption queue" || fail "interruption targets: $out"
run "the node role" 0 s output -raw eks node_role_name
role=$out
run "the node class" 0 s state show karpenter 'kubernetes_manifest.node_class'
has "Karpenter's nodes take the groups' node role, by reference" "role += \"$role\""
has "300 GiB gp3 root volumes" 'volumeSize += "300Gi"'
run "the node pool" 0 s state show karpenter 'kubernetes_manifest.karpenter["karpenter.sh/NodePool//amd-neuron"]'
has "Trainium instance types" '"trn1n.32xlarge"'

example_noop_plan 4
example_destroy karpenter dashboard addons eks
echo "     (whole run: $((SECONDS - start)) s)"
finish
