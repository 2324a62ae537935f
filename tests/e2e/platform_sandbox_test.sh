#!/usr/bin/env bash
# End-to-end, issue 13's stage: examples/eks-sandbox's platform stage (the Spot interruption
# queue and its four rules, Cognito with Google as identity provider whose client secret is
# read from Secrets Manager, the zone and certificate lookups, kubeflow.<domain> as an alias
# to the ingress's load balancer, FSx for Lustre linked to an S3 bucket, EFS with a mount
# target in each private subnet, a log group and a dashboard) after stages account and eks,
# against `strata sandbox serve` refusing 20% of calls with throttling errors: planned,
# applied, re-planned clean, changed in place, destroyed. The load balancer is made with the
# AWS CLI, as the cluster's load-balancer controller makes it; the CLI also checks the world.
source "$(dirname "$0")/lib.sh"
command -v aws >/dev/null || { echo "SKIP: no aws CLI"; exit 77; }

proj="$work/platform"
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox" "$proj"
rm -rf "$proj/.strata"
sed -i 's/^sandbox: .*$/sandbox: { enabled: false }/' "$proj/strata.yaml"
serve_sandbox --memory --throttle-rate 0.2 --seed 13 --hosted-zone example.com --certificate '*.example.com' \
  --cluster-delay-ms 300 --nodegroup-delay-ms 300 --load-balancer-delay-ms 300 --route53-change-delay-ms 300 \
  --cognito-domain-delay-ms 300 --efs-delay-ms 200 --fsx-delay-ms 500 || { fail "sandbox serve"; finish; exit 1; }
export AWS_ENDPOINT_URL=$url AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
export AWS_DEFAULT_REGION=us-west-2 AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
export AWS_MAX_ATTEMPTS=10 AWS_RETRY_MODE=standard
unset AWS_SESSION_TOKEN AWS_PROFILE
s() { "$STRATA" -chdir="$proj" "$@"; }

run init 0 s init
expect "four stages" "$out" "Stage platform (03-platform)"
run "apply account" 0 s apply -auto-approve account
run "apply eks" 0 s apply -auto-approve eks

# The ingress's load balancer, as the load-balancer controller makes it: in the public subnets.
run "public subnets" 0 aws ec2 describe-subnets --filters Name=tag:Name,Values='ml-platform-public-*' \
  --query 'Subnets[].SubnetId' --output text
read -r -a public <<<"$out"
run "the controller's load balancer" 0 aws elbv2 create-load-balancer --name k8s-kubeflow-ingress --type application \
  --subnets "${public[@]}" --tags Key=elbv2.k8s.aws/cluster,Value=ml-platform --query 'LoadBalancers[0].DNSName' --output text
lb_dns=$out
v=(-var ingress_load_balancer=k8s-kubeflow-ingress)

run plan 2 s plan -detailed-exitcode "${v[@]}" platform
expect "every object of the stage" "$out" "Plan: 28 to add, 0 to change, 0 to destroy."
expect "the alias record" "$out" "# aws_route53_record.kubeflow_name[0] will be created"
run apply 0 s apply -auto-approve "${v[@]}" platform
expect "applied under throttling" "$out" "Apply complete! Resources: 28 added, 0 changed, 0 destroyed."
expect "FSx waits for AVAILABLE" "$out" "aws_fsx_lustre_file_system.scratch: Creation complete after"
expect "the client secret is an output, masked" "$out" "kubeflow_client_secret = <sensitive>"
if grep -q "sandbox-only-google-client-secret" <<<"$out$err"; then fail "the Google client secret was printed"; else
  pass "the Google client secret is never printed"; fi
run "plan after apply" 0 s plan -detailed-exitcode "${v[@]}" platform
converged "nothing to do, nothing changed outside"

# What the AWS CLI sees: the alias, the mount targets, the file systems, the queue's rules.
zone=$(aws route53 list-hosted-zones-by-name --dns-name example.com --query 'HostedZones[0].Id' --output text)
run "route53 alias" 0 aws route53 list-resource-record-sets --hosted-zone-id "$zone" \
  --query "ResourceRecordSets[?Name=='kubeflow.example.com.'].AliasTarget.DNSName" --output text
expect "kubeflow.example.com aliases the load balancer" "${out,,}" "${lb_dns,,}"
efs=$(s output -raw platform efs_id)
run "efs mount targets" 0 aws efs describe-mount-targets --file-system-id "$efs" --query 'length(MountTargets)'
expect "one per private subnet" "$out" "3"
run "fsx" 0 aws fsx describe-file-systems --query 'FileSystems[0].[Lifecycle,LustreConfiguration.DataRepositoryConfiguration.ImportPath]' --output text
expect "available and linked to the bucket" "$out" "AVAILABLE	s3://ml-platform-training-"
run "interruption rules" 0 aws events list-rules --name-prefix ml-platform- --query 'length(Rules)'
expect "four rules" "$out" "4"

# In place: the log retention and the Lustre capacity (an FSx storage increase).
c=("${v[@]}" -var log_retention_days=60 -var lustre_capacity_gib=2400)
run "plan change" 2 s plan -detailed-exitcode "${c[@]}" platform
expect "two in-place updates" "$out" "Plan: 0 to add, 2 to change, 0 to destroy."
run "apply change" 0 s apply -auto-approve "${c[@]}" platform
run "plan after change" 0 s plan -detailed-exitcode "${c[@]}" platform

run destroy 0 s destroy -auto-approve "${c[@]}" platform
expect "destroyed" "$out" "Destroy complete! Resources: 28 destroyed."
run "fsx gone" 0 aws fsx describe-file-systems --query 'length(FileSystems)'
expect "no file system left" "$out" "0"
run "destroy eks" 0 s destroy -auto-approve eks
run "destroy account" 0 s destroy -auto-approve account
grep -q "throttled" "$work/serve.log" || true
finish
