#!/usr/bin/env bash
# End-to-end: modules/eksctl-cluster on the four ClusterConfigs of the reference
# (tests/e2e/fixtures/eksctl/configs, in our words) and one in given subnets: each plans (and
# not from a provider of another region; a group in a zone without a given subnet gets the
# module's own error and no other); the module's plan of
# gpu-runners has the same objects, value for value, as that cluster written by hand (stage
# hand); a config with fields the module does not build fails naming each field's path; the
# spot-per-AZ config (a general spot group over three zones, a GPU spot group per zone) is
# applied on the sandbox, its groups and ASG tags are checked in state (node-template tags
# derived from labels and taints, this cluster's discovery tag), it re-plans clean and is
# destroyed; so is the module's example config (a service-account role, add-ons, and a
# self-managed group of on-demand and spot instances: its Auto Scaling group's planned and
# applied values checked by tools/eksctl_self_managed.py).
source "$(dirname "$0")/lib.sh"

proj="$work/proj"
cp -r "$STRATA_SOURCE_DIR/tests/e2e/fixtures/eksctl" "$proj"
cp -r "$STRATA_SOURCE_DIR/modules" "$proj/modules"
rm -rf "$proj/.strata"
s() { "$STRATA" -chdir="$proj" "$@"; }

plans() { run "plan $1" 0 s plan cluster -var cluster_file=../configs/$1.yaml; expect "$1: $2" "$out" "$2"; }
plans p3-failover "Plan: 74 to add, 0 to change, 0 to destroy."
expect "p3spot is all spot" "$out" 'p3spot = "SPOT"'
expect "p3od is on demand" "$out" 'p3od   = "ON_DEMAND"'
plans gpu-runners "Plan: 57 to add, 0 to change, 0 to destroy."
plans torchelastic "Plan: 36 to add, 0 to change, 0 to destroy."
plans spot-per-az "Plan: 101 to add, 0 to change, 0 to destroy."
plans given-subnets "Plan: 13 to add, 0 to change, 0 to destroy."
expect "no VPC made: the group in the given subnet of its zone" "$out" '"subnet-0b",'
expect "private endpoint only" "$out" 'endpoint_public_access    = false'
run "a ClusterConfig of another region" 1 s plan cluster -var region=us-east-1 -var cluster_file=../configs/given-subnets.yaml
expect "refused by the caller's region" "$err" "data \"aws_region\" can only describe the provider's region \"us-east-1\", not \"us-west-2\""

# The module's objects against the same cluster written by hand (stage hand), one by one.
run "plan gpu-runners to a file" 0 s plan -out "$work/module.plan" cluster -var cluster_file=../configs/gpu-runners.yaml
run "plan the hand-written stage" 0 s plan -out "$work/hand.plan" hand
s show -json "$work/module.plan" >"$work/module.json"
s show -json "$work/hand.plan" >"$work/hand.json"
run "compare object by object" 0 python3 "$STRATA_SOURCE_DIR/tests/e2e/tools/compare_plan_objects.py" "$work/module.json" "$work/hand.json"
expect "the same 57 objects" "$out" "57 objects match: 9 aws_autoscaling_group_tag"

run "plan invalid" 1 s plan cluster -var cluster_file=../configs/invalid.yaml
expect "name outside metadata" "$err" "ClusterConfig: name is not supported yet"
expect "pod limit" "$err" "ClusterConfig: nodeGroups[1].maxPodsPerNode is not supported yet"
if grep -qE 'nodeGroups\[1\]\.instancesDistribution' <<<"$err"; then
  fail "a spot price, a mix and capacity rebalancing are taken (a self-managed group), not refused: $err"
else pass "spot price, mix and capacity rebalancing taken"; fi
expect "bootstrap commands" "$err" "ClusterConfig: nodeGroups[2].preBootstrapCommands is not supported yet"
run "plan invalid-values" 1 s plan cluster -var cluster_file=../configs/invalid-values.yaml
expect "unquoted version" "$err" 'ClusterConfig: metadata.version must be a quoted string such as "1.31"'
expect "one name twice" "$err" "ClusterConfig: node group name dup is used 2 times"
expect "custom AMI" "$err" "ClusterConfig: managedNodeGroups[0].ami ami-123 is not supported yet"
expect "taint effect" "$err" "ClusterConfig: managedNodeGroups[0].taints has effect NoSchedul"
expect "GPU and CPU" "$err" "ClusterConfig: managedNodeGroups[0] mixes GPU and non-GPU instance types"
expect "no such spot strategy" "$err" "ClusterConfig: nodeGroups[0].instancesDistribution.spotAllocationStrategy cheapest is not a spot allocation strategy"
expect "spot pools" "$err" "ClusterConfig: nodeGroups[0].instancesDistribution.spotInstancePools must be 1 to 20"
expect "spot price" "$err" "ClusterConfig: nodeGroups[0].instancesDistribution.maxPrice must be a price in USD per hour"
expect "sizes" "$err" "ClusterConfig: nodeGroups[0] needs minSize <= desiredCapacity <= maxSize"
expect "both type fields" "$err" "ClusterConfig: managedNodeGroups[0] sets both instanceType and instanceTypes: keep one"
expect "fifteen problems, one error" "$(grep -c '^ClusterConfig: ' <<<"$err")" "15"
run "plan invalid-network" 1 s plan cluster -var cluster_file=../configs/invalid-network.yaml
expect "taint field" "$err" "ClusterConfig: managedNodeGroups[0].taints[0].extra is not supported yet"
expect "label value" "$err" "ClusterConfig: managedNodeGroups[0].labels.x must be a string"
expect "no public subnet given" "$err" "ClusterConfig: managedNodeGroups[0] needs a public subnet under vpc.subnets (privateNetworking: false)"
expect "no subnet in the zone" "$err" "ClusterConfig: managedNodeGroups[1] needs a private subnet in us-west-2b under vpc.subnets"
errors=$(grep -c 'Error: ' <<<"$err")
[ "$errors" = 1 ] && pass "a zone without a given subnet: only the module's own error" || fail "$errors errors (an \"Invalid index\" after the clear one?): $err"

start=$SECONDS
run "apply spot-per-az" 0 s apply -auto-approve cluster -var cluster_file=../configs/spot-per-az.yaml || { echo "$out$err" | tail -30; finish; exit 1; }
expect "everything made" "$out" "Apply complete! Resources: 101 added, 0 changed, 0 destroyed."
echo "     (apply: $((SECONDS - start)) s)"
run "re-plan" 0 s plan -detailed-exitcode cluster -var cluster_file=../configs/spot-per-az.yaml
converged "nothing left to do"
run "gpu group" 0 s state show cluster 'module.cluster.aws_eks_node_group.nodes["gpu-spot-ng-b"]'
expect "spot" "$out" 'capacity_type          = "SPOT"'
expect "NVIDIA AMI" "$out" 'AL2023_x86_64_NVIDIA'
expect "taint in EKS's spelling" "$out" 'NO_SCHEDULE'
run "taint tag" 0 s state show cluster 'module.cluster.aws_autoscaling_group_tag.asg_tag["gpu-spot-ng-b/k8s.io/cluster-autoscaler/node-template/taint/nvidia.com/gpu"]'
expect "node-template taint tag from the taint" "$out" 'true:NoSchedule'
run "discovery tag" 0 s state show cluster 'module.cluster.aws_autoscaling_group_tag.asg_tag["spot-ng/k8s.io/cluster-autoscaler/gaia-kube"]'
expect "this cluster's discovery tag" "$out" '"owned"'
run "launch template" 0 s state show cluster 'module.cluster.aws_launch_template.template["spot-ng"]'
expect "100 GB gp2 encrypted" "$out" 'volume_size           = 100'

start=$SECONDS
run "destroy" 0 s destroy -auto-approve cluster -var cluster_file=../configs/spot-per-az.yaml
expect "destroy completes" "$out" "Destroy complete! Resources: 101 destroyed."
echo "     (destroy: $((SECONDS - start)) s)"

# The module's example config on the sandbox: a role for a service account, the ServiceAccount
# annotated with it (create_service_accounts), add-ons.
# Its group batch is self-managed (a base of one on-demand node, 25 % on-demand above it,
# lowest-price over three pools, a spot price cap): the ASG is planned with exactly those
# values, and the template's user data joins the cluster.
example=../modules/eksctl-cluster/example/eksctl/cluster.yaml
run "plan the module's example" 0 s plan -out "$work/example.plan" cluster -var service_accounts=true -var cluster_file=$example
s show -json "$work/example.plan" >"$work/example.json"
run "the self-managed group as planned" 0 python3 "$STRATA_SOURCE_DIR/tests/e2e/tools/eksctl_self_managed.py" plan "$work/example.json"
expect "every planned value checked" "$out" "0 failed"
expect "a mixed group" "$(s show "$work/example.plan")" 'batch  = "MIXED"'
run "apply the module's example" 0 s apply "$work/example.plan"
expect "example made" "$out" "Apply complete! Resources: 56 added, 0 changed, 0 destroyed."
run "re-plan the example" 0 s plan -detailed-exitcode cluster -var service_accounts=true -var cluster_file=$example
converged "example: nothing left to do"
s show -json cluster >"$work/example-state.json"
run "the self-managed group as applied" 0 python3 "$STRATA_SOURCE_DIR/tests/e2e/tools/eksctl_self_managed.py" state "$work/example-state.json"
expect "every applied value checked" "$out" "0 failed"
run "example objects" 0 s state list cluster
expect "wellKnownPolicies ebsCSIController is AWS's policy" "$out" \
  'module.cluster.module.service_account_role["kube-system/ebs-csi-controller-sa"].aws_iam_role_policy_attachment.attached["arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy"]'
expect "an add-on" "$out" 'module.cluster.aws_eks_addon.addon["aws-ebs-csi-driver"]'
run "the role's trust" 0 s state show cluster 'module.cluster.module.service_account_role["kube-system/ebs-csi-controller-sa"].aws_iam_role.role'
expect "only that service account may assume it" "$out" 'system:serviceaccount:kube-system:ebs-csi-controller-sa'
run "the service account" 0 s state show cluster 'module.cluster.kubernetes_manifest.service_account["kube-system/ebs-csi-controller-sa"]'
expect "annotated with its role" "$out" '"eks.amazonaws.com/role-arn" = "arn:aws:iam::111122223333:role/demo-kube-system-ebs-csi-controller-sa"'
run "destroy the example" 0 s destroy -auto-approve cluster -var service_accounts=true -var cluster_file=$example
expect "example destroyed" "$out" "Destroy complete! Resources: 56 destroyed."
finish
