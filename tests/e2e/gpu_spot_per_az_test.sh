#!/usr/bin/env bash
# End-to-end: examples/gpu-spot-per-az on the embedded sandbox through `strata pipeline` (the
# example and modules/ copied side by side). The ClusterConfig plus one GPU spot group per zone
# from one definition is applied with the device plugin and the autoscaler; what the
# hand-built version got wrong is checked in state (a GPU group per zone, each pinned to its
# zone's private subnet; node-template taint tags equal to the real taint; discovery on this
# cluster's tag, not `enabled` alone; the plugin placed by label); it re-plans clean and is
# destroyed, leaving no state.
source "$(dirname "$0")/lib.sh"

root="$work/repo"
proj="$root/examples/gpu-spot-per-az"
mkdir -p "$root/examples"
cp -r "$STRATA_SOURCE_DIR/examples/gpu-spot-per-az" "$proj"
cp -r "$STRATA_SOURCE_DIR/modules" "$root/modules"
rm -rf "$proj/.strata"
s() { "$STRATA" -chdir="$proj" "$@"; }
row() { awk -v st="$1" '$1 == st { print $2, $3, $4, $NF }' <<<"$out"; }

start=$SECONDS
run "pipeline apply" 0 s pipeline apply -auto-approve || { echo "$out$err" | tail -30; finish; exit 1; }
echo "     (apply: $((SECONDS - start)) s)"
expect "stage cluster" "$(row cluster)" "88 0 0 applied"
expect "stage addons" "$(row addons)" "11 0 0 applied"

run "pipeline plan" 0 s pipeline plan -detailed-exitcode
expect "cluster converged" "$(row cluster)" "0 0 0 changes"
expect "addons converged" "$(row addons)" "0 0 0 changes"

run "capacity" 0 s output -json cluster capacity_types
for az in a b c; do
  expect "a GPU spot group in us-west-2$az" "$out" "\"gpu-spot-us-west-2$az\": \"SPOT\""
done
expect "the general group is spot too" "$out" '"spot-ng": "SPOT"'
run "subnets" 0 s state show cluster 'module.cluster.module.vpc[0].aws_subnet.private[1]'
subnet_b=$(awk -F'"' '/^    id /{print $2}' <<<"$out")
run "gpu group b" 0 s state show cluster 'module.cluster.aws_eks_node_group.nodes["gpu-spot-us-west-2b"]'
expect "pinned to its zone's private subnet" "$out" "\"$subnet_b\""
expect "from zero" "$out" 'min_size     = 0'
run "taint tag" 0 s state show cluster \
  'module.cluster.aws_autoscaling_group_tag.asg_tag["gpu-spot-us-west-2b/k8s.io/cluster-autoscaler/node-template/taint/nvidia.com/gpu"]'
expect "the tag says what the taint says" "$out" '"true:NoSchedule"'
run "autoscaler" 0 s state show addons 'module.cluster_autoscaler.kubernetes_manifest.manifests["apps/Deployment/kube-system/cluster-autoscaler"]'
expect "discovers only this cluster's groups" "$out" \
  'asg:tag=k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/gaia-kube'
expect "least-waste" "$out" '--expander=least-waste'
run "device plugin" 0 s state show addons 'module.device_plugin.kubernetes_manifest.manifests["apps/DaemonSet/kube-system/nvidia-device-plugin-daemonset"]'
expect "placed by the GPU groups' label" "$out" '"nvidia.com/gpu" = "true"'

start=$SECONDS
run "pipeline destroy" 0 s pipeline destroy -auto-approve
echo "     (destroy: $((SECONDS - start)) s)"
expect "addons destroyed" "$(row addons)" "0 0 11 destroyed"
expect "cluster destroyed" "$(row cluster)" "0 0 88 destroyed"
for st in cluster addons; do
  run "$st state" 0 s state list $st
  [ -z "$out" ] && pass "nothing left in $st's state" || fail "$st state not empty: $out"
done
finish
