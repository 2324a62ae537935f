#!/usr/bin/env bash
# End-to-end: aws_autoscaling_group on a served sandbox (`strata sandbox serve --latency-ms`,
# through AWS_ENDPOINT_URL, read behind Strata's back with the AWS CLI): a group with a mixed
# instances policy whose apply is killed with -9 right after CreateAutoScalingGroup made it;
# the next apply finds it by name and its token tag instead of making a second one (or
# failing on AlreadyExists); re-planned clean; resized in place; forgotten and imported by
# name; destroyed.
source "$(dirname "$0")/lib.sh"
command -v aws >/dev/null || { echo "SKIP: no aws CLI"; exit 77; }

proj="$work/asg"
mkdir -p "$proj/s"
printf 'project: asg\nstages:\n  - { name: s, path: s }\n' >"$proj/strata.yaml"
write_config() {
  cat >"$proj/s/main.yaml" <<YAML
providers:
  aws: { region: us-west-2 }
resources:
  vpc: { type: aws_vpc, properties: { cidr_block: 10.40.0.0/16 } }
  subnet:
    type: aws_subnet
    count: 2
    properties:
      vpc_id: \${vpc.id}
      cidr_block: \${cidrsubnet("10.40.0.0/16", 8, count.index)}
      availability_zone: \${["us-west-2a", "us-west-2b"][count.index]}
  lt:
    type: aws_launch_template
    properties: { name: asg-e2e, image_id: ami-12c6146b, instance_type: m5.large }
  asg:
    type: aws_autoscaling_group
    properties:
      name: asg-e2e
      min_size: $1
      max_size: $2
      desired_capacity: $3
      vpc_zone_identifier: \${subnet[*].id}
      mixed_instances_policy:
        - instances_distribution:
            - { on_demand_base_capacity: 1, on_demand_percentage_above_base_capacity: 25, spot_allocation_strategy: lowest-price, spot_max_price: "0.12" }
          launch_template:
            - launch_template_specification: [{ launch_template_id: "\${lt.id}", version: "\$Latest" }]
              override: [{ instance_type: m5.large, weighted_capacity: "1" }, { instance_type: m5a.large, weighted_capacity: "1" }]
      tag: [{ key: team, value: infra, propagate_at_launch: true }]
YAML
}
write_config 1 4 2

serve_sandbox --state "$work/world.db" --latency-ms 400 || { fail "sandbox serve"; finish; exit 1; }
aws_cli_on_sandbox
export AWS_ENDPOINT_URL=$url
strata() { "$STRATA" -chdir="$proj" "$@"; }
groups() { awscli autoscaling describe-auto-scaling-groups --auto-scaling-group-names asg-e2e | field "['AutoScalingGroups']"; }
asg_json() { python3 -c "import json,sys; d=json.load(sys.stdin)['AutoScalingGroups']; print(eval(sys.argv[1]))" "$1"; }
count_groups() { awscli autoscaling describe-auto-scaling-groups --auto-scaling-group-names asg-e2e | asg_json "len(d)"; }

# kill -9 once CreateAutoScalingGroup has made the group, before the apply records it.
strata apply -auto-approve s >"$work/first.log" 2>&1 &
apply_pid=$!
for _ in $(seq 1 300); do
  [ "$(count_groups 2>/dev/null)" = 1 ] && break
  sleep 0.05
done
kill -9 "$apply_pid" 2>/dev/null
wait "$apply_pid" 2>/dev/null
[ "$(count_groups)" = 1 ] && pass "the killed apply had made the group" || fail "no group before the kill: $(cat "$work/first.log")"

run recover-apply 0 strata apply -auto-approve s && pass "the apply after the kill completes"
[ "$(count_groups)" = 1 ] && pass "one group, not two" || fail "groups after recovery: $(groups)"
run replan 0 strata plan -detailed-exitcode s && converged "re-plan after the recovered apply is clean"
expect "the sandbox launched the desired capacity" \
  "$(awscli autoscaling describe-auto-scaling-groups --auto-scaling-group-names asg-e2e | asg_json "len(d[0]['Instances'])")" "2"

write_config 0 5 3
run resize 0 strata apply -auto-approve s
expect "the resize is an update in place" "$out" "0 added, 1 changed, 0 destroyed"
expect "AWS holds the new size" "$(awscli autoscaling describe-auto-scaling-groups --auto-scaling-group-names asg-e2e | asg_json "d[0]['MaxSize']")" "5"
run replan-resized 0 strata plan -detailed-exitcode s && converged "re-plan after the resize is clean"

run forget 0 strata state rm s aws_autoscaling_group.asg
run import 0 strata import s aws_autoscaling_group.asg asg-e2e
expect "the group is imported by name" "$out" "Import successful!"
run replan-imported 0 strata plan -detailed-exitcode s && converged "re-plan after the import is clean"

run destroy 0 strata destroy -auto-approve s
[ "$(count_groups)" = 0 ] && pass "destroy removed the group" || fail "group left after destroy: $(groups)"
finish
