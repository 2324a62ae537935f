#!/usr/bin/env bash
# End-to-end: examples/torchelastic-efs on the embedded sandbox — validate, `pipeline apply`
# of its four stages (cluster, packages, EFS storage, training job), what the hand-built
# version got wrong checked in state (NFS from the nodes' security group only, one mount
# target per zone, the PV naming this file system, the ElasticJob's CPU within the node),
# a no-op `pipeline plan`, `pipeline destroy`; then the AWS CLI, where installed, finds no
# security group left in the sandbox (the hand-built teardown leaked the EFS one).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/staged_example.sh"

example_copy torchelastic-efs
start=$SECONDS
example_validate 4
example_apply 4

run "the nodes' security group" 0 s output -raw eks node_security_group_id
nodes_sg=$out
run "the NFS rule" 0 s state show storage module.efs.aws_security_group_rule.nfs_in
grep -qE "^ +from_port += 2049$" <<<"$out" && pass "NFS: TCP 2049" || fail "NFS rule: $out"
expect "from the nodes' security group (not the VPC CIDR)" "$out" "source_security_group_id = \"$nodes_sg\""
run "mount targets" 0 s output -json storage mount_target_ids
[ "$(grep -c '"fsmt-' <<<"$out")" = 2 ] && pass "a mount target in each of the two zones" || fail "mount targets: $out"
run "file system" 0 s output -raw storage file_system_id
fs=$out
run "the PV" 0 s state show storage 'module.efs.kubernetes_manifest.volume["core/PersistentVolume//do-eks-efs"]'
has "the PV names this file system, by reference" "volumeHandle += \"$fs\""
has "in class efs-sc" 'storageClassName += "efs-sc"'
run "the job" 0 s state show training 'kubernetes_manifest.train["elastic.pytorch.org/ElasticJob/elastic-job/cifar10-train"]'
has "its CPU fits a c5.4xlarge (16 vCPUs)" 'cpu += "15"'
has "it meets at the etcd of stage packages" 'rdzvEndpoint += "etcd-service:2379"'

example_noop_plan 4
example_destroy training storage packages eks
echo "     (whole run: $((SECONDS - start)) s)"

if command -v aws >/dev/null 2>&1 && serve_sandbox --state "$proj/.strata/sandbox.db"; then
  aws_cli_on_sandbox
  run "describe-security-groups" 0 awscli ec2 describe-security-groups --query 'length(SecurityGroups)'
  [ "$out" = 0 ] && pass "no security group left after destroy (the EFS one included)" ||
    fail "security groups left: $(awscli ec2 describe-security-groups --query 'SecurityGroups[].GroupName')"
fi
finish
