#!/usr/bin/env bash
# The sandbox must satisfy a real AWS client, not only Strata's own: `strata sandbox serve`
# is driven with the AWS CLI (botocore signs, parses and checks every answer) for STS, EC2,
# IAM, EKS and Auto Scaling, and a bad secret key must be refused with AWS's SignatureDoesNotMatch.
source "$(dirname "$0")/lib.sh"

if ! command -v aws >/dev/null 2>&1; then
  echo "**********************************************************************"
  echo "*** SKIPPING the AWS CLI sandbox test: no 'aws' on PATH."
  echo "*** Install it (apt-get install awscli) to run it."
  echo "**********************************************************************"
  exit 77
fi

serve_sandbox --memory --cluster-delay-ms 300 --nodegroup-delay-ms 300 || exit 1

export AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
export AWS_DEFAULT_REGION=us-west-2 AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL
awscli() { aws --endpoint-url "$url" --output json "$@"; }
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d'+sys.argv[1]))" "$1"; }
# refused NAME CMD...: CMD must fail as a service error (the AWS CLI exits 254; v1 exits 255).
refused() {
  local name=$1
  shift
  out=$("$@" 2>"$work/stderr") && code=0 || code=$?
  err=$(cat "$work/stderr")
  if [ "$code" = 254 ] || [ "$code" = 255 ]; then pass "$name"; else fail "$name: exit $code${err:+ ($err)}"; fi
}

if run "sts get-caller-identity" 0 awscli sts get-caller-identity; then
  expect "sts account" "$(field "['Account']" <<<"$out")" "111122223333"
  expect "sts arn" "$(field "['Arn']" <<<"$out")" "arn:aws:iam::111122223333:"
fi

if run "ec2 create-vpc" 0 awscli ec2 create-vpc --cidr-block 10.20.0.0/16 \
  --tag-specifications 'ResourceType=vpc,Tags=[{Key=Name,Value=cli}]'; then
  vpc=$(field "['Vpc']['VpcId']" <<<"$out")
  expect "vpc id shape" "$vpc" "vpc-"
  run "ec2 describe-vpcs" 0 awscli ec2 describe-vpcs --vpc-ids "$vpc" &&
    expect "describe-vpcs cidr" "$(field "['Vpcs'][0]['CidrBlock']" <<<"$out")" "10.20.0.0/16"
  run "ec2 create-subnet" 0 awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.20.1.0/24 \
    --availability-zone us-west-2a && subnet_a=$(field "['Subnet']['SubnetId']" <<<"$out")
  run "ec2 create-subnet b" 0 awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.20.2.0/24 \
    --availability-zone us-west-2b && subnet_b=$(field "['Subnet']['SubnetId']" <<<"$out")
  refused "subnet outside the VPC is refused" awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.99.0.0/24
  expect "subnet outside the VPC: InvalidSubnet.Range" "$err" "InvalidSubnet.Range"
  refused "vpc with subnets cannot be deleted" awscli ec2 delete-vpc --vpc-id "$vpc"
  expect "delete-vpc: DependencyViolation" "$err" "DependencyViolation"
  run "describe-availability-zones" 0 awscli ec2 describe-availability-zones &&
    expect "three zones" "$(field "['AvailabilityZones'].__len__()" <<<"$out")" "3"
fi

trust='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"eks.amazonaws.com"},"Action":"sts:AssumeRole"}]}'
if run "iam create-role" 0 awscli iam create-role --role-name cli-cluster --assume-role-policy-document "$trust"; then
  role_arn=$(field "['Role']['Arn']" <<<"$out")
  expect "role arn" "$role_arn" "arn:aws:iam::111122223333:role/cli-cluster"
  run "iam get-role" 0 awscli iam get-role --role-name cli-cluster &&
    expect "get-role trust policy" "$(field "['Role']['AssumeRolePolicyDocument']['Statement'][0]['Principal']['Service']" <<<"$out")" "eks.amazonaws.com"
  run "iam attach-role-policy" 0 awscli iam attach-role-policy --role-name cli-cluster \
    --policy-arn arn:aws:iam::aws:policy/AmazonEKSClusterPolicy
fi

if [ -n "${role_arn:-}" ] && [ -n "${subnet_a:-}" ] && [ -n "${subnet_b:-}" ]; then
  if run "eks create-cluster" 0 awscli eks create-cluster --name cli --role-arn "$role_arn" \
    --resources-vpc-config "subnetIds=$subnet_a,$subnet_b"; then
    expect "create-cluster status" "$(field "['cluster']['status']" <<<"$out")" "CREATING"
  fi
  sleep 0.5
  if run "eks describe-cluster" 0 awscli eks describe-cluster --name cli; then
    expect "cluster ACTIVE" "$(field "['cluster']['status']" <<<"$out")" "ACTIVE"
    expect "cluster endpoint is https on loopback" "$(field "['cluster']['endpoint']" <<<"$out")" "https://127.0.0.1:"
    expect "cluster OIDC issuer" "$(field "['cluster']['identity']['oidc']['issuer']" <<<"$out")" "https://oidc.eks.us-west-2.amazonaws.com/id/"
    field "['cluster']['certificateAuthority']['data']" <<<"$out" | base64 -d >"$work/ca.pem"
    endpoint=$(field "['cluster']['endpoint']" <<<"$out")
    # The endpoint is served by the sandbox with a certificate its own CA signed.
    if curl -sS --cacert "$work/ca.pem" -o /dev/null -w '%{http_code}' "$endpoint/version" >"$work/code" 2>"$work/curl.err"; then
      pass "cluster endpoint verifies with the cluster's CA"
    else
      fail "cluster endpoint TLS: $(cat "$work/curl.err")"
    fi
  fi
  # EKS makes an Auto Scaling group for each node group, with its own tags; the
  # cluster-autoscaler's node-template tags go on it through the Auto Scaling API.
  gpu_label=k8s.io/cluster-autoscaler/node-template/label/nvidia.com/gpu
  if run "eks create-nodegroup" 0 awscli eks create-nodegroup --cluster-name cli --nodegroup-name gpu \
    --node-role "$role_arn" --subnets "$subnet_a" "$subnet_b" --capacity-type SPOT --instance-types g5.xlarge \
    --scaling-config minSize=0,maxSize=3,desiredSize=0; then
    asg=$(field "['nodegroup']['resources']['autoScalingGroups'][0]['name']" <<<"$out")
    expect "node group's group name" "$asg" "eks-gpu-"
    if run "autoscaling describe-auto-scaling-groups" 0 awscli autoscaling describe-auto-scaling-groups \
      --auto-scaling-group-names "$asg"; then
      expect "group max size" "$(field "['AutoScalingGroups'][0]['MaxSize']" <<<"$out")" "3"
      expect "group zones" "$(field "['AutoScalingGroups'][0]['AvailabilityZones']" <<<"$out")" "['us-west-2a', 'us-west-2b']"
      expect "group spot distribution" \
        "$(field "['AutoScalingGroups'][0]['MixedInstancesPolicy']['InstancesDistribution']['SpotAllocationStrategy']" <<<"$out")" \
        "capacity-optimized"
    fi
    run "autoscaling describe-auto-scaling-groups by tag" 0 awscli autoscaling describe-auto-scaling-groups \
      --filters Name=tag:k8s.io/cluster-autoscaler/cli,Values=owned &&
      expect "found by EKS's discovery tag" "$(field "['AutoScalingGroups'][0]['AutoScalingGroupName']" <<<"$out")" "$asg"
    run "autoscaling create-or-update-tags" 0 awscli autoscaling create-or-update-tags \
      --tags "ResourceId=$asg,ResourceType=auto-scaling-group,Key=$gpu_label,Value=true,PropagateAtLaunch=true"
    run "autoscaling describe-tags" 0 awscli autoscaling describe-tags \
      --filters "Name=auto-scaling-group,Values=$asg" "Name=key,Values=$gpu_label" &&
      expect "node-template tag" "$(field "['Tags'][0]['Value']" <<<"$out")" "true"
    run "autoscaling delete-tags" 0 awscli autoscaling delete-tags \
      --tags "ResourceId=$asg,ResourceType=auto-scaling-group,Key=$gpu_label"
    run "autoscaling describe-tags after delete" 0 awscli autoscaling describe-tags \
      --filters "Name=auto-scaling-group,Values=$asg" "Name=key,Values=$gpu_label" &&
      expect "tag deleted" "$(field "['Tags'].__len__()" <<<"$out")" "0"
    refused "tag on a missing group is refused" awscli autoscaling create-or-update-tags \
      --tags "ResourceId=nope,ResourceType=auto-scaling-group,Key=a,Value=b,PropagateAtLaunch=false"
    expect "missing group: ValidationError" "$err" "ValidationError"
  fi
  refused "eks describe-cluster unknown" awscli eks describe-cluster --name nope
  expect "unknown cluster: ResourceNotFoundException" "$err" "ResourceNotFoundException"
fi

AWS_SECRET_ACCESS_KEY=wrong refused "bad secret is refused" awscli sts get-caller-identity
expect "bad secret: SignatureDoesNotMatch" "$err" "SignatureDoesNotMatch"

finish
