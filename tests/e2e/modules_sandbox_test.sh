#!/usr/bin/env bash
# End-to-end: the top-level modules/ (vpc, eks, node-groups, cluster-autoscaler with its
# irsa-role, nvidia-device-plugin) called together from one stage
# (tests/e2e/fixtures/modules-platform) and applied on the sandbox in one apply — the
# Kubernetes objects go to the cluster made in the same run. The AWS CLI then checks what
# matters: the subnets' ELB role and cluster tags, the access entries, every group's
# node-template label and taint tags derived from its labels and taints (the spot taint and
# lifecycle=Ec2Spot on the spot group only), the IRSA trust policy's sub and aud conditions
# and the autoscaler's Auto Scaling permissions. Re-planned clean, then destroyed. Also: every
# module's example call validates (modules/strata.yaml), and node-groups refuses an on-demand
# group that sets the lifecycle label itself.
source "$(dirname "$0")/lib.sh"

run "validate every module's example call" 0 "$STRATA" -chdir="$STRATA_SOURCE_DIR/modules" validate
expect "six example stages" "$out" "Success! The configuration is valid (6 stages)."

proj="$work/proj"
cp -r "$STRATA_SOURCE_DIR/tests/e2e/fixtures/modules-platform" "$proj"
cp -r "$STRATA_SOURCE_DIR/modules" "$proj/modules"
rm -rf "$proj/.strata"
s() { "$STRATA" -chdir="$proj" "$@"; }

run "spot label on an on-demand group" 1 s validate -var 'extra_labels={lifecycle="Ec2Spot"}' platform
expect "node-groups refuses it" "$out$err" "the lifecycle label and the spotInstance taint are derived from capacity_type"

start=$SECONDS
run apply 0 s apply -auto-approve platform || { echo "$out" | tail -30; finish; exit 1; }
expect "everything is made in one apply" "$out" "Apply complete! Resources: 65 added, 0 changed, 0 destroyed."
echo "     (apply: $((SECONDS - start)) s)"
expect "the priority expander lists each group's ASG by name, highest first" "$out" \
  'priorities = "70:\n  - ^eks-cpu-ondemand-'
expect "then the spot GPU group, the on-demand one and the fallback" "$out" \
  '$\n50:\n  - ^eks-gpu-spot-small-a-'
expect "the fallback" "$out" '$\n10:\n  - .*\n"'
run "plan after apply" 0 s plan -detailed-exitcode platform
converged "nothing left to do, nothing changed outside"

if command -v aws >/dev/null 2>&1 && serve_sandbox --state "$proj/.strata/sandbox.db"; then
  aws_cli_on_sandbox
  run "asg names" 0 s output -json asgs
  spot_asg=$(field "['gpu-spot-small-a']" <<<"$out")
  ondemand_asg=$(field "['gpu-ondemand-small-a']" <<<"$out")
  cpu_asg=$(field "['cpu-ondemand']" <<<"$out")
  tags() { awscli autoscaling describe-tags --filters "Name=auto-scaling-group,Values=$1" \
    --query 'Tags[].[Key,Value]' --output text; }
  t=$(tags "$spot_asg")
  expect "discovery tag" "$t" $'k8s.io/cluster-autoscaler/enabled\ttrue'
  expect "cluster discovery tag" "$t" $'k8s.io/cluster-autoscaler/mods\towned'
  expect "spot: lifecycle label template" "$t" $'k8s.io/cluster-autoscaler/node-template/label/lifecycle\tEc2Spot'
  expect "spot: accelerator label template" "$t" $'node-template/label/k8s.amazonaws.com/accelerator\tnvidia-tesla-v100'
  expect "spot: spot taint template" "$t" $'k8s.io/cluster-autoscaler/node-template/taint/spotInstance\ttrue:PreferNoSchedule'
  expect "spot: GPU taint template" "$t" $'k8s.io/cluster-autoscaler/node-template/taint/nvidia.com/gpu\ttrue:NoSchedule'
  expect "spot: GPU resource template" "$t" $'k8s.io/cluster-autoscaler/node-template/resources/nvidia.com/gpu\t1'
  t=$(tags "$ondemand_asg")
  expect "on-demand GPU: lifecycle OnDemand" "$t" $'node-template/label/lifecycle\tOnDemand'
  expect "on-demand GPU: the GPU taint" "$t" $'node-template/taint/nvidia.com/gpu\ttrue:NoSchedule'
  grep -qF spotInstance <<<"$t" && fail "on-demand GPU group carries the spot taint: $t" || pass "on-demand GPU group: no spot taint"
  grep -qF Ec2Spot <<<"$(tags "$cpu_asg")" && fail "on-demand CPU group carries a spot label" || pass "on-demand CPU group: no spot label"

  run "describe-nodegroup" 0 awscli eks describe-nodegroup --cluster-name mods --nodegroup-name gpu-ondemand-small-a
  expect "the group's labels are the tags' labels" "$(field "['nodegroup']['labels']" <<<"$out")" "'lifecycle': 'OnDemand'"
  expect "the group runs the cluster's version" "$(field "['nodegroup']['version']" <<<"$out")" "1.31"
  expect "and the NVIDIA AMI" "$(field "['nodegroup']['amiType']" <<<"$out")" "AL2023_x86_64_NVIDIA"
  expect "the group's taints (EKS's spelling)" "$(field "['nodegroup']['taints']" <<<"$out")" "'effect': 'NO_SCHEDULE'"

  run "private subnets" 0 awscli ec2 describe-subnets --filters Name=tag:kubernetes.io/role/internal-elb,Values=1 \
    Name=tag:kubernetes.io/cluster/mods,Values=shared --query 'length(Subnets)'
  expect "two private subnets tagged for internal ELBs and the cluster" "$out" "2"
  run "public subnets" 0 awscli ec2 describe-subnets --filters Name=tag:kubernetes.io/role/elb,Values=1 \
    Name=tag:kubernetes.io/cluster/mods,Values=shared --query 'length(Subnets)'
  expect "two public subnets tagged for internet-facing ELBs" "$out" "2"

  run "access entries" 0 awscli eks list-access-entries --cluster-name mods
  expect "the admin role" "$out" "arn:aws:iam::111122223333:role/platform-admin"
  expect "the CI user" "$out" "arn:aws:iam::111122223333:user/ci"

  run "autoscaler role" 0 awscli iam get-role --role-name mods-cluster-autoscaler
  trust=$(field "['Role']['AssumeRolePolicyDocument']['Statement'][0]" <<<"$out")
  expect "trusted through the cluster's OIDC provider" "$trust" "'Federated': 'arn:aws:iam::111122223333:oidc-provider/oidc.eks.us-west-2.amazonaws.com/id/"
  expect "by the autoscaler's service account only (sub)" "$trust" ":sub': 'system:serviceaccount:kube-system:cluster-autoscaler'"
  expect "for STS (aud)" "$trust" ":aud': 'sts.amazonaws.com'"
  run "autoscaler policy" 0 awscli iam get-policy-version \
    --policy-arn arn:aws:iam::111122223333:policy/mods-cluster-autoscaler --version-id v1
  policy=$(field "['PolicyVersion']['Document']" <<<"$out")
  for action in autoscaling:DescribeAutoScalingGroups autoscaling:DescribeTags ec2:DescribeLaunchTemplateVersions \
    ec2:DescribeInstanceTypes eks:DescribeNodegroup autoscaling:SetDesiredCapacity autoscaling:TerminateInstanceInAutoScalingGroup; do
    expect "the autoscaler may $action" "$policy" "'$action'"
  done
  expect "scaling only the cluster's own groups" "$policy" "'aws:ResourceTag/k8s.io/cluster-autoscaler/mods': 'owned'"
else
  echo "*** no 'aws' on PATH (or the sandbox did not serve): the AWS CLI checks are skipped"
fi

start=$SECONDS
run destroy 0 s destroy -auto-approve platform
expect "destroy completes" "$out" "Destroy complete! Resources: 65 destroyed."
echo "     (destroy: $((SECONDS - start)) s)"
run "state empty" 0 s state list platform
[ -z "$out" ] && pass "nothing left in state" || fail "state not empty: $out"
finish
