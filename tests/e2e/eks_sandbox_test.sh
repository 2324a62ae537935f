#!/usr/bin/env bash
# End-to-end: the EKS stage of examples/eks-sandbox (a VPC over three AZs, public and private
# subnets, NAT, IAM roles, an EKS cluster, an add-on and two node groups) against the
# sandbox cloud: planned, applied, changed in place (node group sizes), a CIDR change that
# forces replacement, applied again under 20% injected throttling through a separate
# `strata sandbox serve`, an EKS create killed with -9 and recovered by its token, and
# destroyed.
source "$(dirname "$0")/lib.sh"
export STRATA_PROGRESS_INTERVAL=1s

proj="$work/eks"
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox" "$proj"
rm -rf "$proj/.strata"

run init 0 "$STRATA" -chdir="$proj" init && expect "init finds the stage" "$out" "Stage eks (01-eks)"
run validate 0 "$STRATA" -chdir="$proj" validate
run plan 0 "$STRATA" -chdir="$proj" plan eks
expect "plan creates the cluster" "$out" "# aws_eks_cluster.cluster will be created"
expect "plan creates the GPU node group" "$out" "# aws_eks_node_group.gpu will be created"
expect "plan creates the NAT gateway" "$out" "# aws_nat_gateway.nat will be created"

run apply 0 "$STRATA" -chdir="$proj" apply -auto-approve eks
expect "apply completes" "$out" "Apply complete!"
expect "the cluster waits for ACTIVE" "$out" "aws_eks_cluster.cluster: Creation complete after"
expect "the endpoint is the sandbox's https endpoint" "$out" 'cluster_endpoint = "https://127.0.0.1:'
expect "the OIDC issuer is EKS-shaped" "$out" "https://oidc.eks.us-west-2.amazonaws.com/id/"
run "plan after apply" 0 "$STRATA" -chdir="$proj" plan -detailed-exitcode eks
converged "nothing left to do, nothing changed outside"

# Node group sizes change in place.
sizes=(-var 'gpu_size={min=0,max=6,desired=2}' -var 'general_size={min=1,max=4,desired=3}')
run "plan resize" 2 "$STRATA" -chdir="$proj" plan -detailed-exitcode "${sizes[@]}" eks
expect "gpu group updated in place" "$out" "# aws_eks_node_group.gpu will be updated in-place"
expect "general group updated in place" "$out" "# aws_eks_node_group.general will be updated in-place"
expect "resize is only two updates" "$out" "Plan: 0 to add, 2 to change, 0 to destroy."
run "apply resize" 0 "$STRATA" -chdir="$proj" apply -auto-approve "${sizes[@]}" eks
expect "resize applied" "$out" "Apply complete! Resources: 0 added, 2 changed, 0 destroyed."
run "plan after resize" 0 "$STRATA" -chdir="$proj" plan -detailed-exitcode "${sizes[@]}" eks

# A new VPC CIDR cannot be changed in place.
run "plan cidr change" 2 "$STRATA" -chdir="$proj" plan -detailed-exitcode "${sizes[@]}" -var vpc_cidr=10.1.0.0/16 eks
expect "vpc replaced" "$out" "# aws_vpc.vpc must be replaced"
expect "cidr forces replacement" "$out" "# forces replacement"

run destroy 0 "$STRATA" -chdir="$proj" destroy -auto-approve "${sizes[@]}" eks
expect "destroy completes" "$out" "Destroy complete!"
run "state empty" 0 "$STRATA" -chdir="$proj" state list eks
[ -z "$out" ] && pass "nothing left in state" || fail "state not empty: $out"

# --- The same apply with 20% of calls throttled, through a separately served sandbox
# reached with AWS_ENDPOINT_URL (what a user does with LocalStack or moto).
thr="$work/throttled"
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox" "$thr"
rm -rf "$thr/.strata"
sed -i 's/^sandbox: .*$/sandbox: { enabled: false }/' "$thr/strata.yaml"
"$STRATA" sandbox serve --state "$thr/world.db" --throttle-rate 0.2 --seed 7 \
  --cluster-delay-ms 1000 --nodegroup-delay-ms 500 >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^Strata sandbox serving AWS .* on \(http:[^ ]*\)$/\1/p' "$work/serve.log")
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -n "$url" ]; then
  export AWS_ENDPOINT_URL=$url AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001
  export AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
  unset AWS_SESSION_TOKEN AWS_PROFILE
  run "throttled apply" 0 "$STRATA" -chdir="$thr" apply -auto-approve eks
  expect "apply under 20% throttling completes" "$out" "Apply complete!"
  run "throttled destroy" 0 "$STRATA" -chdir="$thr" destroy -auto-approve eks
  expect "destroy under throttling completes" "$out" "Destroy complete!"
  kill -INT $server
  wait $server
  stats=$(cat "$work/serve.log")
  throttled=$(sed -n 's/.*call(s) (\([0-9]*\) throttled.*/\1/p' <<<"$stats")
  if [ "${throttled:-0}" -gt 0 ]; then pass "the sandbox throttled $throttled calls"; else fail "no call was throttled: $stats"; fi
  unset AWS_ENDPOINT_URL AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
else
  fail "the sandbox did not start: $(cat "$work/serve.log")"
fi

# --- kill -9 while the cluster is CREATING; the next apply finds it again by its token.
rec="$work/recover"
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox" "$rec"
rm -rf "$rec/.strata"
sed -i 's/cluster_delay_ms: [0-9]*/cluster_delay_ms: 6000/' "$rec/strata.yaml"
"$STRATA" -chdir="$rec" apply -auto-approve -target aws_eks_cluster.cluster eks >"$work/rec.log" 2>&1 &
apply_pid=$!
for _ in $(seq 1 300); do
  grep -q "aws_eks_cluster.cluster: Still creating" "$work/rec.log" && break
  sleep 0.1
done
kill -9 $apply_pid 2>/dev/null
wait $apply_pid 2>/dev/null
grep -q "aws_eks_cluster.cluster: Still creating" "$work/rec.log" && pass "killed while the cluster was creating" ||
  fail "the cluster create never started: $(tail -20 "$work/rec.log")"
# The killed process left its lock behind: the next run takes it over and says so.
run "plan after kill" 2 "$STRATA" -chdir="$rec" plan -detailed-exitcode -target aws_eks_cluster.cluster eks
expect "the plan says the create was interrupted" "$out" "interrupted"
expect "the stale lock is taken over" "$out$err" "Took over a stale lock"
run "apply after kill" 0 "$STRATA" -chdir="$rec" apply -auto-approve -target aws_eks_cluster.cluster eks
expect "the cluster is adopted, not duplicated" "$out" "aws_eks_cluster.cluster: Creation complete after"
run "state has the cluster" 0 "$STRATA" -chdir="$rec" state list eks
expect "cluster in state" "$out" "aws_eks_cluster.cluster"
run "destroy recovered" 0 "$STRATA" -chdir="$rec" destroy -auto-approve eks
expect "recovered stage destroyed" "$out" "Destroy complete!"

finish
