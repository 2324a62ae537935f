#!/usr/bin/env bash
# The README's main command: installs what is missing, builds strata, and runs the
# quickstart project (examples/quickstart): init, validate, the stage graph, then for each
# stage in order plan, apply and plan again (which must show no changes), and a few
# expressions in the console; then examples/eks-sandbox against the embedded sandbox cloud:
# stage eks (plan, apply, plan again: no changes), stage addons on its cluster (the same),
# and both destroyed; then the flagship, examples/kubeflow-eks, through `strata pipeline`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
source scripts/configs.sh
bash scripts/build.sh build "${quickstart_config[@]}"
strata="$root/build/strata"
project="$root/examples/quickstart"
set -x
"$strata" -chdir="$project" init
"$strata" -chdir="$project" validate
"$strata" -chdir="$project" graph
"$strata" -chdir="$project" graph platform
for stage in network platform; do
  "$strata" -chdir="$project" plan "$stage"
  "$strata" -chdir="$project" apply -auto-approve "$stage"
  "$strata" -chdir="$project" plan -detailed-exitcode "$stage"  # exit 2 (changes) fails the script
done
"$strata" -chdir="$project" state list platform
echo 'module.node_groups.priorities' | "$strata" -chdir="$project" console platform
echo 'cidrsubnet("10.0.0.0/16", 4, 2)' | "$strata" console

# The EKS stage (VPC over three AZs, NAT, IAM, an EKS cluster, two node groups) against the
# embedded sandbox cloud (examples/eks-sandbox/strata.yaml `sandbox:`): no AWS account needed.
eks="$root/examples/eks-sandbox"
"$strata" -chdir="$eks" init
"$strata" -chdir="$eks" plan eks
"$strata" -chdir="$eks" apply -auto-approve eks
"$strata" -chdir="$eks" plan -detailed-exitcode eks  # exit 2 (changes) fails the script
"$strata" -chdir="$eks" output eks cluster_endpoint
# Stage addons: Kubernetes objects on that cluster through the kubernetes provider.
"$strata" -chdir="$eks" plan addons
"$strata" -chdir="$eks" apply -auto-approve addons
"$strata" -chdir="$eks" plan -detailed-exitcode addons  # exit 2 (changes) fails the script
"$strata" -chdir="$eks" output addons ingress_host
"$strata" -chdir="$eks" destroy -auto-approve addons
"$strata" -chdir="$eks" destroy -auto-approve eks

# The flagship (examples/kubeflow-eks): the seven stages of a Kubeflow platform on EKS
# (cluster, add-ons, Cognito auth, Kubeflow, DNS, dashboard, FSx for Lustre), each built
# from modules/, applied on the embedded sandbox in dependency order by one pipeline, then
# planned again (no changes in any stage) and destroyed in reverse.
flagship="$root/examples/kubeflow-eks"
"$strata" -chdir="$flagship" init
"$strata" -chdir="$flagship" validate
"$strata" -chdir="$flagship" pipeline apply -auto-approve
"$strata" -chdir="$flagship" pipeline plan -detailed-exitcode  # exit 2 (changes) fails the script
"$strata" -chdir="$flagship" output dns fqdn
"$strata" -chdir="$flagship" pipeline destroy -auto-approve
