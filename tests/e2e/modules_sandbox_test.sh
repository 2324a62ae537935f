#!/usr/bin/env bash
# End-to-end: every module of the top-level modules/, applied on the sandbox from the two
# stages of tests/e2e/fixtures/modules-platform. Stage platform calls vpc, eks, node-groups,
# cluster-autoscaler (with its irsa-role) and nvidia-device-plugin in one apply (the
# Kubernetes objects go to the cluster made in the same run); the AWS CLI then checks what
# matters: the subnets' ELB role and cluster tags, the access entries, every group's
# node-template label and taint tags derived from its labels and taints (the spot taint and
# lifecycle=Ec2Spot on the spot group only), the IRSA trust policy's sub and aud conditions
# and the autoscaler's Auto Scaling permissions. Stage services, reading stage platform, calls
# node-termination-handler, cognito-auth, kubeflow, dns-alias, dashboard, fsx-lustre and efs,
# after the test gave the account what it holds before a deployment (the Google client's
# secret, the ALB the load-balancer controller made): the queue's rules, the alias record, the
# app client, the Lustre link and ports, the EFS mount targets, the Cognito values in the
# ingress annotations, an irsa-role per key of a module for_each. Both stages re-plan clean and
# are destroyed. Also: every module's example call validates (modules/strata.yaml), and
# node-groups refuses an on-demand group that sets the lifecycle label itself.
source "$(dirname "$0")/lib.sh"

run "validate every module's example call" 0 "$STRATA" -chdir="$STRATA_SOURCE_DIR/modules" validate
expect "fourteen example stages" "$out" "Success! The configuration is valid (14 stages)."

proj="$work/proj"
cp -r "$STRATA_SOURCE_DIR/tests/e2e/fixtures/modules-platform" "$proj"
cp -r "$STRATA_SOURCE_DIR/modules" "$proj/modules"
rm -rf "$proj/.strata"
s() { "$STRATA" -chdir="$proj" "$@"; }

run "spot label on an on-demand group" 1 s validate -var 'extra_labels={lifecycle="Ec2Spot"}' platform
expect "node-groups refuses it" "$out$err" "the lifecycle label and the spotInstance taint are derived from capacity_type"

start=$SECONDS
run "apply platform" 0 s apply -auto-approve platform || { echo "$out" | tail -30; finish; exit 1; }
expect "everything is made in one apply" "$out" "Apply complete! Resources: 67 added, 0 changed, 0 destroyed."
echo "     (apply: $((SECONDS - start)) s)"
expect "the priority expander lists each group's ASG by name, highest first" "$out" \
  'priorities = "70:\n  - ^eks-cpu-ondemand-'
expect "then the spot GPU group, the on-demand one and the fallback" "$out" \
  '$\n50:\n  - ^eks-gpu-spot-small-a-'
expect "the fallback" "$out" '$\n10:\n  - .*\n"'
run "plan platform after apply" 0 s plan -detailed-exitcode platform
converged "nothing left to do, nothing changed outside"
run "the autoscaler's Deployment" 0 s state show platform \
  'module.cluster_autoscaler.kubernetes_manifest.manifests["apps/Deployment/kube-system/cluster-autoscaler"]'
expect "its image follows the cluster's version" "$out" "registry.k8s.io/autoscaling/cluster-autoscaler:v1.31.0"
expect "the reference's failover timing" "$out" "--max-node-provision-time=7m"

if command -v aws >/dev/null 2>&1 && serve_sandbox --state "$proj/.strata/sandbox.db"; then
  aws_cli_on_sandbox
  run "asg names" 0 s output -json platform asgs
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

  # --- Stage services. What the account holds before it: the Google client's secret, and
  # the ALB the load-balancer controller made for the Kubeflow ingress (found by its tags).
  run "the Google client secret" 0 awscli secretsmanager create-secret --name mods/google-client-secret \
    --secret-string sandbox-only-google-secret
  run "public subnets" 0 s output -json platform public_subnet_ids
  read -r -a public <<<"$(python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)))' <<<"$out")"
  run "the controller's ALB" 0 awscli elbv2 create-load-balancer --name k8s-istiosys-istioing-0123456789 \
    --type application --subnets "${public[@]}" \
    --tags Key=elbv2.k8s.aws/cluster,Value=mods Key=ingress.k8s.aws/stack,Value=istio-system/istio-ingress
  alb_dns=$(field "['LoadBalancers'][0]['DNSName']" <<<"$out")

  start=$SECONDS
  run "apply services" 0 s apply -auto-approve services || { echo "$out" | tail -30; }
  expect "every module of stage services is applied" "$out" "Apply complete! Resources: 83 added, 0 changed, 0 destroyed."
  echo "     (apply services: $((SECONDS - start)) s)"
  expect "the client secret is masked" "$out" "client_secret = <sensitive>"
  grep -qF sandbox-only-google-secret <<<"$out$err" && fail "the Google secret was printed" || pass "the Google secret is never printed"
  run "plan services after apply" 0 s plan -detailed-exitcode services
  converged "services: nothing left to do, nothing changed outside"

  run "termination rules" 0 awscli events list-rules --name-prefix mods-nth --query 'Rules[].Name' --output text
  for rule in spot-interruption rebalance state-change scheduled-change; do expect "rule $rule" "$out" "mods-nth-$rule"; done
  run "rule target" 0 awscli events list-targets-by-rule --rule mods-nth-spot-interruption --query 'Targets[0].Arn' --output text
  expect "the rule feeds the queue" "$out" "arn:aws:sqs:us-west-2:111122223333:mods-node-termination"
  run "handler role" 0 awscli iam get-role --role-name mods-node-termination-handler
  expect "the handler's role trusts its service account only" "$(field "['Role']['AssumeRolePolicyDocument']['Statement'][0]" <<<"$out")" \
    ":sub': 'system:serviceaccount:kube-system:aws-node-termination-handler'"

  run "reader role (module for_each)" 0 awscli iam get-role --role-name mods-notebook
  expect "each instance trusts its own service account" "$(field "['Role']['AssumeRolePolicyDocument']['Statement'][0]" <<<"$out")" \
    ":sub': 'system:serviceaccount:kubeflow-user:notebook'"

  run "zone" 0 awscli route53 list-hosted-zones-by-name --dns-name example.com --query 'HostedZones[0].Id' --output text
  run "alias record" 0 awscli route53 list-resource-record-sets --hosted-zone-id "$out" \
    --query "ResourceRecordSets[?Name=='kubeflow.example.com.'].AliasTarget | [0]"
  expect "kubeflow.example.com is an alias of the controller's ALB" "$(field "['DNSName']" <<<"$out")" "$alb_dns"

  run "user pools" 0 awscli cognito-idp list-user-pools --max-results 10 --query 'UserPools[0].Id' --output text
  pool=$out
  run "app clients" 0 awscli cognito-idp list-user-pool-clients --user-pool-id "$pool" --query 'UserPoolClients[0].ClientId' --output text
  run "app client" 0 awscli cognito-idp describe-user-pool-client --user-pool-id "$pool" --client-id "$out"
  client=$(field "['UserPoolClient']" <<<"$out")
  expect "the ALB's callback" "$client" "https://kubeflow.example.com/oauth2/idpresponse"
  expect "Google and Cognito sign-in" "$client" "'SupportedIdentityProviders': ['Google', 'COGNITO']"
  run "ingress" 0 s state show services 'module.kubeflow.kubernetes_manifest.manifests["networking.k8s.io/Ingress/istio-system/istio-ingress"]'
  expect "the ingress carries the user pool" "$out" "UserPoolArn\\\":\\\"arn:aws:cognito-idp:us-west-2:111122223333:userpool/$pool"

  run "lustre" 0 awscli fsx describe-file-systems --query 'FileSystems[0].LustreConfiguration.DataRepositoryConfiguration'
  expect "linked to the bucket" "$(field "['ImportPath']" <<<"$out")" "s3://mods-training-data"
  expect "exports under fsx-exports" "$(field "['ExportPath']" <<<"$out")" "s3://mods-training-data/fsx-exports"
  expect "imports new and changed objects" "$(field "['AutoImportPolicy']" <<<"$out")" "NEW_CHANGED"
  run "lustre ports" 0 awscli ec2 describe-security-groups --filters Name=group-name,Values=mods-fsx \
    --query 'SecurityGroups[0].IpPermissions[].[FromPort,ToPort]' --output text
  expect "TCP 988" "$out" $'988\t988'
  run "efs id" 0 s output -raw services efs_id
  run "mount targets" 0 awscli efs describe-mount-targets --file-system-id "$out" --query 'length(MountTargets)'
  expect "a mount target in each private subnet" "$out" "2"

  start=$SECONDS
  run "destroy services" 0 s destroy -auto-approve services
  expect "services destroyed" "$out" "Destroy complete! Resources: 83 destroyed."
  echo "     (destroy services: $((SECONDS - start)) s)"
else
  echo "*** no 'aws' on PATH (or the sandbox did not serve): the AWS CLI checks and stage services are skipped"
fi

start=$SECONDS
run "destroy platform" 0 s destroy -auto-approve platform
expect "destroy completes" "$out" "Destroy complete! Resources: 67 destroyed."
echo "     (destroy: $((SECONDS - start)) s)"
run "state empty" 0 s state list platform
[ -z "$out" ] && pass "nothing left in state" || fail "state not empty: $out"
run "services state empty" 0 s state list services
[ -z "$out" ] && pass "nothing left in services' state" || fail "services state not empty: $out"
finish
