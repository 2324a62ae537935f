#!/usr/bin/env bash
# The sandbox must satisfy a real AWS client, not only Strata's own: `strata sandbox serve`
# is driven with the AWS CLI (botocore signs, parses and checks every answer) for STS, EC2
# (launch templates included), IAM, EKS, Auto Scaling, SQS, Systems Manager, KMS and
# EventBridge, and a bad secret key must be refused with AWS's SignatureDoesNotMatch.
source "$(dirname "$0")/lib.sh"

if ! command -v aws >/dev/null 2>&1; then
  echo "**********************************************************************"
  echo "*** SKIPPING the AWS CLI sandbox test: no 'aws' on PATH."
  echo "*** Install it (apt-get install awscli) to run it."
  echo "**********************************************************************"
  exit 77
fi

serve_sandbox --memory --cluster-delay-ms 300 --nodegroup-delay-ms 300 || exit 1

aws_cli_on_sandbox

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

# Launch templates: the data as the EKS GPU group has it (an encrypted 100 GB gp3 root volume,
# user data, IMDSv2), the client token answered with the same template, versions and the default.
userdata=$(printf '#!/bin/bash\necho hello\n' | base64 -w0)
ltdata='{"InstanceType":"g5.xlarge","UserData":"'$userdata'","BlockDeviceMappings":[{"DeviceName":"/dev/xvda",'
ltdata+='"Ebs":{"VolumeSize":100,"VolumeType":"gp3","Encrypted":true,"DeleteOnTermination":true}}],'
ltdata+='"MetadataOptions":{"HttpTokens":"required","HttpPutResponseHopLimit":2},'
ltdata+='"TagSpecifications":[{"ResourceType":"instance","Tags":[{"Key":"Name","Value":"gpu-node"}]}]}'
create_lt() {
  awscli ec2 create-launch-template --launch-template-name cli-gpu --client-token cli-gpu-1 \
    --launch-template-data "$ltdata" --tag-specifications 'ResourceType=launch-template,Tags=[{Key=Team,Value=ml}]'
}
if run "ec2 create-launch-template" 0 create_lt; then
  lt=$(field "['LaunchTemplate']['LaunchTemplateId']" <<<"$out")
  expect "launch template id shape" "$lt" "lt-"
  expect "first version is the default" "$(field "['LaunchTemplate']['DefaultVersionNumber']" <<<"$out")" "1"
  run "create-launch-template again with its client token" 0 create_lt &&
    expect "same client token, same template" "$(field "['LaunchTemplate']['LaunchTemplateId']" <<<"$out")" "$lt"
  refused "a second template of the same name is refused" awscli ec2 create-launch-template \
    --launch-template-name cli-gpu --launch-template-data '{"InstanceType":"t3.small"}'
  expect "same name: AlreadyExistsException" "$err" "InvalidLaunchTemplateName.AlreadyExistsException"
  run "ec2 describe-launch-templates" 0 awscli ec2 describe-launch-templates --launch-template-names cli-gpu &&
    expect "describe-launch-templates tags" "$(field "['LaunchTemplates'][0]['Tags']" <<<"$out")" "'Value': 'ml'"
  run "describe-launch-templates by tag" 0 awscli ec2 describe-launch-templates --filters Name=tag:Team,Values=ml &&
    expect "tag filter finds it" "$(field "['LaunchTemplates'][0]['LaunchTemplateId']" <<<"$out")" "$lt"
  run "ec2 create-launch-template-version" 0 awscli ec2 create-launch-template-version --launch-template-id "$lt" \
    --source-version 1 --version-description bigger --launch-template-data '{"InstanceType":"g5.2xlarge"}' &&
    expect "new version number" "$(field "['LaunchTemplateVersion']['VersionNumber']" <<<"$out")" "2"
  run "ec2 modify-launch-template" 0 awscli ec2 modify-launch-template --launch-template-id "$lt" --default-version 2 &&
    expect "default version moved" "$(field "['LaunchTemplate']['DefaultVersionNumber']" <<<"$out")" "2"
  if run "ec2 describe-launch-template-versions" 0 awscli ec2 describe-launch-template-versions \
    --launch-template-id "$lt" --versions '$Latest'; then
    version=$(field "['LaunchTemplateVersions'][0]" <<<"$out")
    expect "latest is the default" "$version" "'DefaultVersion': True"
    expect "instance type from the new data" "$version" "'InstanceType': 'g5.2xlarge'"
    expect "volume kept from the source version" "$version" "'VolumeSize': 100, 'VolumeType': 'gp3'"
    expect "volume encrypted" "$version" "'Encrypted': True"
    expect "user data kept" "$version" "'UserData': '$userdata'"
    expect "metadata options" "$version" "'HttpTokens': 'required'"
  fi
  run "describe-launch-template-versions (all)" 0 awscli ec2 describe-launch-template-versions --launch-template-name cli-gpu &&
    expect "two versions" "$(field "['LaunchTemplateVersions'].__len__()" <<<"$out")" "2"
  refused "an unknown version is refused" awscli ec2 describe-launch-template-versions --launch-template-id "$lt" --versions 9
  expect "unknown version: VersionNotFound" "$err" "InvalidLaunchTemplateId.VersionNotFound"
  run "ec2 delete-launch-template" 0 awscli ec2 delete-launch-template --launch-template-id "$lt" &&
    expect "deleted template named" "$(field "['LaunchTemplate']['LaunchTemplateName']" <<<"$out")" "cli-gpu"
  refused "a deleted template is not found" awscli ec2 describe-launch-templates --launch-template-ids "$lt"
  expect "deleted: InvalidLaunchTemplateId.NotFound" "$err" "InvalidLaunchTemplateId.NotFound"
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

# SQS over awsJson 1.0 (the AWS CLI's current protocol for it).
if run "sqs create-queue" 0 awscli sqs create-queue --queue-name cli-interruptions \
  --attributes VisibilityTimeout=60,MessageRetentionPeriod=300 --tags team=ml; then
  queue_url=$(field "['QueueUrl']" <<<"$out")
  expect "queue url" "$queue_url" "/111122223333/cli-interruptions"
  run "sqs create-queue again (same attributes)" 0 awscli sqs create-queue --queue-name cli-interruptions \
    --attributes VisibilityTimeout=60,MessageRetentionPeriod=300 &&
    expect "the same queue" "$(field "['QueueUrl']" <<<"$out")" "$queue_url"
  refused "sqs create-queue with another value" awscli sqs create-queue --queue-name cli-interruptions \
    --attributes VisibilityTimeout=61
  expect "other value: QueueNameExists" "$err" "QueueNameExists"
  run "sqs get-queue-url" 0 awscli sqs get-queue-url --queue-name cli-interruptions &&
    expect "get-queue-url" "$(field "['QueueUrl']" <<<"$out")" "$queue_url"
  if run "sqs get-queue-attributes" 0 awscli sqs get-queue-attributes --queue-url "$queue_url" --attribute-names All; then
    expect "visibility timeout" "$(field "['Attributes']['VisibilityTimeout']" <<<"$out")" "60"
    expect "queue arn" "$(field "['Attributes']['QueueArn']" <<<"$out")" "arn:aws:sqs:us-west-2:111122223333:cli-interruptions"
  fi
  policy='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"events.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"*"}]}'
  run "sqs set-queue-attributes policy" 0 awscli sqs set-queue-attributes --queue-url "$queue_url" \
    --attributes "{\"Policy\": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$policy")}"
  run "sqs get-queue-attributes policy" 0 awscli sqs get-queue-attributes --queue-url "$queue_url" --attribute-names Policy &&
    expect "policy set" "$(field "['Attributes']['Policy']" <<<"$out")" "events.amazonaws.com"
  refused "sqs bad attribute value" awscli sqs set-queue-attributes --queue-url "$queue_url" --attributes DelaySeconds=901
  expect "bad value: InvalidAttributeValue" "$err" "InvalidAttributeValue"
  run "sqs list-queue-tags" 0 awscli sqs list-queue-tags --queue-url "$queue_url" &&
    expect "queue tag" "$(field "['Tags']['team']" <<<"$out")" "ml"
  run "sqs list-queues" 0 awscli sqs list-queues --queue-name-prefix cli- &&
    expect "listed" "$(field "['QueueUrls'][0]" <<<"$out")" "$queue_url"
  run "sqs delete-queue" 0 awscli sqs delete-queue --queue-url "$queue_url"
  refused "sqs get-queue-url after delete" awscli sqs get-queue-url --queue-name cli-interruptions
  expect "deleted: QueueDoesNotExist" "$err" "QueueDoesNotExist"
fi

# Systems Manager parameters (awsJson 1.1): the EKS-optimized AMI ids AWS publishes, and
# the account's own.
gpu_ami=/aws/service/eks/optimized-ami/1.31/amazon-linux-2-gpu/recommended/image_id
run "ssm get-parameter (EKS GPU AMI)" 0 awscli ssm get-parameter --name "$gpu_ami" &&
  expect "an AMI id" "$(field "['Parameter']['Value']" <<<"$out")" "ami-"
refused "ssm no AL2 AMI from 1.33" awscli ssm get-parameter \
  --name /aws/service/eks/optimized-ami/1.33/amazon-linux-2-gpu/recommended/image_id
expect "1.33 AL2: ParameterNotFound" "$err" "ParameterNotFound"
run "ec2 describe-images (EKS GPU AMI by name)" 0 awscli ec2 describe-images --owners amazon \
  --filters "Name=name,Values=amazon-eks-gpu-node-1.31-v*" &&
  expect "the image SSM names" "$(field "['Images'][0]['ImageId']" <<<"$out")" \
    "$(awscli ssm get-parameter --name "$gpu_ami" --query Parameter.Value --output text)"
run "ssm put-parameter" 0 awscli ssm put-parameter --name /cli/secret --type SecureString --value hunter2
run "ssm get-parameter decrypted" 0 awscli ssm get-parameter --name /cli/secret --with-decryption &&
  expect "decrypted" "$(field "['Parameter']['Value']" <<<"$out")" "hunter2"
run "ssm get-parameter sealed" 0 awscli ssm get-parameter --name /cli/secret &&
  [ "$(field "['Parameter']['Value']" <<<"$out")" != hunter2 ] && pass "sealed value is not the secret"
refused "ssm put-parameter again without overwrite" awscli ssm put-parameter --name /cli/secret --type SecureString --value x
expect "exists: ParameterAlreadyExists" "$err" "ParameterAlreadyExists"
run "ssm delete-parameter" 0 awscli ssm delete-parameter --name /cli/secret

# KMS (awsJson 1.1): a key, its alias, its deletion.
if run "kms create-key" 0 awscli kms create-key --description "cli secrets" --tags TagKey=team,TagValue=ml; then
  key_id=$(field "['KeyMetadata']['KeyId']" <<<"$out")
  expect "key enabled" "$(field "['KeyMetadata']['KeyState']" <<<"$out")" "Enabled"
  run "kms create-alias" 0 awscli kms create-alias --alias-name alias/cli-secrets --target-key-id "$key_id"
  run "kms describe-key by alias" 0 awscli kms describe-key --key-id alias/cli-secrets &&
    expect "alias names the key" "$(field "['KeyMetadata']['KeyId']" <<<"$out")" "$key_id"
  run "kms enable-key-rotation" 0 awscli kms enable-key-rotation --key-id "$key_id"
  run "kms get-key-rotation-status" 0 awscli kms get-key-rotation-status --key-id "$key_id" &&
    expect "rotation on" "$(field "['KeyRotationEnabled']" <<<"$out")" "True"
  refused "kms reserved alias" awscli kms create-alias --alias-name alias/aws/ebs --target-key-id "$key_id"
  run "kms delete-alias" 0 awscli kms delete-alias --alias-name alias/cli-secrets
  refused "kms deletion window too short" awscli kms schedule-key-deletion --key-id "$key_id" --pending-window-in-days 3
  run "kms schedule-key-deletion" 0 awscli kms schedule-key-deletion --key-id "$key_id" --pending-window-in-days 7 &&
    expect "pending deletion" "$(field "['KeyState']" <<<"$out")" "PendingDeletion"
  refused "kms a key pending deletion refuses use" awscli kms enable-key-rotation --key-id "$key_id"
  expect "pending: KMSInvalidStateException" "$err" "KMSInvalidStateException"
fi

# EventBridge: the node termination handler's Spot interruption rule with a queue as its
# target; a rule with targets cannot be deleted.
spot_pattern='{"source":["aws.ec2"],"detail-type":["EC2 Spot Instance Interruption Warning"]}'
queue_arn=arn:aws:sqs:us-west-2:111122223333:nth-queue
if run "events put-rule" 0 awscli events put-rule --name nth-spot --event-pattern "$spot_pattern" \
  --description "Spot interruption" --tags Key=team,Value=ml; then
  expect "rule arn" "$(field "['RuleArn']" <<<"$out")" "arn:aws:events:us-west-2:111122223333:rule/nth-spot"
  run "events describe-rule" 0 awscli events describe-rule --name nth-spot &&
    expect "rule state" "$(field "['State']" <<<"$out")" "ENABLED" &&
    expect "rule pattern" "$(field "['EventPattern']" <<<"$out")" "EC2 Spot Instance Interruption Warning"
  run "events put-targets" 0 awscli events put-targets --rule nth-spot --targets "Id=queue,Arn=$queue_arn" &&
    expect "put-targets failures" "$(field "['FailedEntryCount']" <<<"$out")" "0"
  run "events list-targets-by-rule" 0 awscli events list-targets-by-rule --rule nth-spot &&
    expect "target arn" "$(field "['Targets'][0]['Arn']" <<<"$out")" "$queue_arn"
  refused "rule with targets cannot be deleted" awscli events delete-rule --name nth-spot
  expect "delete-rule: ValidationException" "$err" "ValidationException"
  run "events remove-targets" 0 awscli events remove-targets --rule nth-spot --ids queue
  run "events delete-rule" 0 awscli events delete-rule --name nth-spot
  refused "events describe-rule gone" awscli events describe-rule --name nth-spot
  expect "gone rule: ResourceNotFoundException" "$err" "ResourceNotFoundException"
fi
refused "events put-rule with a bad pattern" awscli events put-rule --name bad --event-pattern '{"source":"aws.ec2"}'
expect "bad pattern: InvalidEventPatternException" "$err" "InvalidEventPatternException"

AWS_SECRET_ACCESS_KEY=wrong refused "bad secret is refused" awscli sts get-caller-identity
expect "bad secret: SignatureDoesNotMatch" "$err" "SignatureDoesNotMatch"

finish
