#!/usr/bin/env bash
# The sandbox's EFS (REST-JSON) and FSx (awsJson 1.1) must satisfy a real AWS client: driven
# with the AWS CLI (botocore signs, parses and checks every answer) — a file system made
# once per creation token, waited until available, a mount target in a subnet made with
# `aws ec2`, a file system with mount targets refused deletion; a Lustre file system made,
# waited until AVAILABLE, a bad storage capacity refused, deleted.
source "$(dirname "$0")/lib.sh"

if ! command -v aws >/dev/null 2>&1; then
  echo "**********************************************************************"
  echo "*** SKIPPING the AWS CLI storage sandbox test: no 'aws' on PATH."
  echo "*** Install it (apt-get install awscli) to run it."
  echo "**********************************************************************"
  exit 77
fi

serve_sandbox --memory --efs-delay-ms 300 --fsx-delay-ms 600 || exit 1

aws_cli_on_sandbox
# until_state NAME WANT CMD...: polls CMD (its output's first line of `state` via $query) up to 5 s.
until_state() {
  local name=$1 want=$2 query=$3
  shift 3
  local seen=""
  for _ in $(seq 1 50); do
    if out=$("$@" 2>"$work/stderr"); then seen=$(field "$query" <<<"$out"); fi
    [ "$seen" = "$want" ] && { pass "$name"; return 0; }
    sleep 0.1
  done
  fail "$name: last state [$seen], expected [$want]"
  return 1
}

run "ec2 create-vpc" 0 awscli ec2 create-vpc --cidr-block 10.50.0.0/16 && vpc=$(field "['Vpc']['VpcId']" <<<"$out")
run "ec2 create-subnet" 0 awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.50.1.0/24 \
  --availability-zone us-west-2a && subnet=$(field "['Subnet']['SubnetId']" <<<"$out")
run "ec2 create-security-group" 0 awscli ec2 create-security-group --vpc-id "$vpc" --group-name nfs \
  --description "NFS from the nodes" && group=$(field "['GroupId']" <<<"$out")

# EFS
if run "efs create-file-system" 0 awscli efs create-file-system --creation-token cli-shared \
  --encrypted --tags Key=Name,Value=shared; then
  fs=$(field "['FileSystemId']" <<<"$out")
  expect "file system id shape" "$fs" "fs-"
  expect "file system starts creating" "$(field "['LifeCycleState']" <<<"$out")" "creating"
  refused "a repeated creation token is refused" awscli efs create-file-system --creation-token cli-shared
  expect "repeated token: FileSystemAlreadyExists" "$err" "FileSystemAlreadyExists"
  until_state "file system becomes available" available "['FileSystems'][0]['LifeCycleState']" \
    awscli efs describe-file-systems --file-system-id "$fs"
  run "efs describe-file-systems by token" 0 awscli efs describe-file-systems --creation-token cli-shared &&
    expect "described by token" "$(field "['FileSystems'][0]['FileSystemId']" <<<"$out")" "$fs" &&
    expect "name from the Name tag" "$(field "['FileSystems'][0]['Name']" <<<"$out")" "shared"
  if run "efs create-mount-target" 0 awscli efs create-mount-target --file-system-id "$fs" --subnet-id "$subnet" \
    --security-groups "$group"; then
    mt=$(field "['MountTargetId']" <<<"$out")
    expect "mount target id shape" "$mt" "fsmt-"
    expect "mount target address in the subnet" "$(field "['IpAddress']" <<<"$out")" "10.50.1."
    refused "a second mount target in the zone is refused" awscli efs create-mount-target --file-system-id "$fs" \
      --subnet-id "$subnet"
    expect "same zone: MountTargetConflict" "$err" "MountTargetConflict"
    until_state "mount target becomes available" available "['MountTargets'][0]['LifeCycleState']" \
      awscli efs describe-mount-targets --file-system-id "$fs"
    run "efs describe-mount-target-security-groups" 0 awscli efs describe-mount-target-security-groups \
      --mount-target-id "$mt" && expect "mount target groups" "$out" "$group"
    refused "a file system with mount targets cannot be deleted" awscli efs delete-file-system --file-system-id "$fs"
    expect "delete: FileSystemInUse" "$err" "FileSystemInUse"
    run "efs delete-mount-target" 0 awscli efs delete-mount-target --mount-target-id "$mt"
  fi
  refused "a mount target in no subnet is refused" awscli efs create-mount-target --file-system-id "$fs" \
    --subnet-id subnet-0123456789abcdef0
  expect "no subnet: SubnetNotFound" "$err" "SubnetNotFound"
fi

# FSx for Lustre
refused "fsx bad storage capacity is refused" awscli fsx create-file-system --file-system-type LUSTRE \
  --storage-capacity 1000 --subnet-ids "$subnet" --lustre-configuration DeploymentType=SCRATCH_2
expect "bad capacity: BadRequest" "$err" "BadRequest"
if run "fsx create-file-system" 0 awscli fsx create-file-system --file-system-type LUSTRE --storage-capacity 1200 \
  --subnet-ids "$subnet" --security-group-ids "$group" --lustre-configuration DeploymentType=SCRATCH_2 \
  --tags Key=Name,Value=scratch; then
  lustre=$(field "['FileSystem']['FileSystemId']" <<<"$out")
  expect "lustre starts CREATING" "$(field "['FileSystem']['Lifecycle']" <<<"$out")" "CREATING"
  expect "lustre vpc" "$(field "['FileSystem']['VpcId']" <<<"$out")" "$vpc"
  until_state "lustre becomes AVAILABLE" AVAILABLE "['FileSystems'][0]['Lifecycle']" \
    awscli fsx describe-file-systems --file-system-ids "$lustre"
  run "fsx list-tags-for-resource" 0 awscli fsx list-tags-for-resource \
    --resource-arn "$(field "['FileSystems'][0]['ResourceARN']" <<<"$out")" && expect "lustre tags" "$out" "scratch"
  run "fsx delete-file-system" 0 awscli fsx delete-file-system --file-system-id "$lustre" &&
    expect "lustre DELETING" "$(field "['Lifecycle']" <<<"$out")" "DELETING"
  for _ in $(seq 1 50); do
    awscli fsx describe-file-systems --file-system-ids "$lustre" >/dev/null 2>"$work/stderr" || break
    sleep 0.1
  done
  refused "a deleted Lustre file system is gone" awscli fsx describe-file-systems --file-system-ids "$lustre"
  expect "gone: FileSystemNotFound" "$err" "FileSystemNotFound"
fi

finish
