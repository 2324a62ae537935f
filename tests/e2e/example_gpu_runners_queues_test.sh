#!/usr/bin/env bash
# End-to-end: examples/gpu-runners-queues on the embedded sandbox — validate, `pipeline apply`
# of its three stages (cluster with an on-demand overhead group and GPU spot groups, the
# autoscaler and device plugin, the queues and runners), what the hand-built version got wrong
# checked in state (the queues' URLs in the runners' ConfigMap by reference, an IRSA role
# limited to the runners' service account and their queues, no AWS key in the runners, the
# autoscaler's least-waste expander and discovery on this cluster's name, GPU groups over
# every zone), a no-op `pipeline plan`, `pipeline destroy`.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/staged_example.sh"

example_copy gpu-runners-queues
start=$SECONDS
example_validate 3
example_apply 3

run "queue urls" 0 s output -json runners queue_urls
url=$(field "['training']" <<<"$out")
[[ $url == https://sqs.us-west-2.amazonaws.com/*/sqs_StudioML_training ]] && pass "queue sqs_StudioML_training made" || fail "queue url: $url"
run "the runners' ConfigMap" 0 s state show runners 'kubernetes_manifest.runner["core/ConfigMap/studioml/studioml-env"]'
has "its queue URLs by reference" "SQS_QUEUE_URLS += \".*$url"
has "the runners' queue pattern matches the queues" 'QUEUE_MATCH += "\^sqs_StudioML_\.\*\$"'
run "the runners' role" 0 s output -raw runners role_arn
role=$out
run "the runners' service account" 0 s state show runners 'kubernetes_manifest.runner["core/ServiceAccount/studioml/studioml-runner"]'
has "assumes the IRSA role" "eks.amazonaws.com/role-arn\"? += \"$role\""
run "the role" 0 s state show runners module.role.aws_iam_role.role
has "only the runners' service account may assume it" 'system:serviceaccount:studioml:studioml-runner'
run "its policy" 0 s state show runners 'module.role.aws_iam_policy.policy[0]'
has "it consumes only this project's queues" 'arn:aws:sqs:us-west-2:[0-9]+:sqs_StudioML_training'
run "the runners" 0 s state show runners 'kubernetes_manifest.runner["apps/Deployment/studioml/studioml-go-runner"]'
grep -qE 'AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|secretRef' <<<"$out" && fail "a runner carries AWS keys" || pass "no AWS key in the runners"
run "the autoscaler" 0 s state show addons \
  'module.cluster_autoscaler.kubernetes_manifest.manifests["apps/Deployment/kube-system/cluster-autoscaler"]'
has "least-waste, as by hand" '"--expander=least-waste"'
has "discovery on this cluster's name (one variable)" 'k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/test-eks"'
for g in gpu-1-spot gpu-4-spot; do
  run "group $g" 0 s state show eks "module.node_groups.aws_eks_node_group.nodes[\"$g\"]"
  [ "$(sed -n '/^ *subnet_ids *= \[/,/\]/p' <<<"$out" | grep -c '"subnet-')" = 3 ] &&
    pass "$g spans the three zones" || fail "$g: not in three subnets"
  has "$g is spot" 'capacity_type += "SPOT"'
done

example_noop_plan 3
example_destroy runners addons eks
echo "     (whole run: $((SECONDS - start)) s)"
finish
