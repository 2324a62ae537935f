#!/usr/bin/env bash
# platform_refresh.sh: the refresh (a no-op plan) of examples/eks-sandbox's platform stage —
# 28 objects over eleven AWS services plus five data sources — with every AWS call taking
# 50 ms, as a round trip to AWS does, at -parallelism=10 (Terraform's default). The stages
# account, eks and platform are applied to a `strata sandbox serve --state` world first; a
# second server with --latency-ms 50 then answers only the refresh, so its closing line
# counts exactly the refresh's calls. Prints the wall time, CPU, peak RSS, the calls and the
# calls per refreshed object; then the same for stage eks (38 objects) for comparison.
#
# Usage:   bench/platform_refresh.sh
# Env:     STRATA  Strata binary (default: <repo>/build/strata)
# Needs:   bash, GNU /usr/bin/time, the AWS CLI (it makes the ingress's load balancer, as the
#          cluster's load-balancer controller would).
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
STRATA=${STRATA:-$repo_dir/build/strata}
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "GNU /usr/bin/time is required" >&2; exit 1; }
command -v aws >/dev/null || { echo "the AWS CLI is required" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-refresh-bench.XXXXXX")
sandbox_args=(--hosted-zone example.com --certificate '*.example.com' --cluster-delay-ms 100 --nodegroup-delay-ms 100
  --load-balancer-delay-ms 100 --route53-change-delay-ms 100 --cognito-domain-delay-ms 100 --efs-delay-ms 100
  --fsx-delay-ms 100)
# shellcheck source=bench/sandbox_server.sh
source "$script_dir/sandbox_server.sh"

export AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
export AWS_DEFAULT_REGION=us-west-2 AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_SESSION_TOKEN AWS_PROFILE

proj=$work/project
cp -r "$repo_dir/examples/eks-sandbox" "$proj"
rm -rf "$proj/.strata"
sed -i 's/^sandbox: .*$/sandbox: { enabled: false }/' "$proj/strata.yaml"
s=("$STRATA" -chdir="$proj")
v=(-var ingress_load_balancer=k8s-kubeflow-ingress)

serve "$work/setup.log"
"${s[@]}" init >/dev/null
"${s[@]}" apply -auto-approve account >/dev/null
"${s[@]}" apply -auto-approve eks >/dev/null
read -r -a public <<<"$(aws ec2 describe-subnets --filters Name=tag:Name,Values='ml-platform-public-*' \
  --query 'Subnets[].SubnetId' --output text)"
aws elbv2 create-load-balancer --name k8s-kubeflow-ingress --subnets "${public[@]}" >/dev/null
"${s[@]}" apply -auto-approve "${v[@]}" platform >"$work/apply.log" 2>&1 ||
  { tail -30 "$work/apply.log" >&2; exit 1; }
stop "$work/setup.log"

echo "| Stage | Objects (+ data sources) | Wall (s) | CPU (s) | Peak RSS (MiB) | AWS calls | Calls per object |"
echo "|---|---|---|---|---|---|---|"
for stage in platform eks; do
  vars=()
  [[ $stage == platform ]] && vars=("${v[@]}")
  objects=$("${s[@]}" state list "$stage" | wc -l)
  data=$(grep -c "^    type: aws_" <(sed -n '/^data:/,/^[a-z]/p' "$proj"/*-"$stage"/*.yaml) || true)
  serve "$work/refresh-$stage.log" --latency-ms 50
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "${s[@]}" plan -detailed-exitcode -parallelism=10 "${vars[@]}" "$stage" \
    >"$work/plan.log" 2>&1 || { echo "the refresh of $stage was not a clean no-op plan:" >&2; tail -30 "$work/plan.log" >&2; exit 1; }
  stop "$work/refresh-$stage.log"
  read -r wall user sys rss <"$work/time"
  printf '| %s | %d (+ %d) | %s | %.2f | %d | %d | %.2f |\n' "$stage" "$objects" "$data" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$((rss / 1024))" "$calls" \
    "$(awk -v c="$calls" -v o="$objects" -v d="$data" 'BEGIN { print c / (o + d) }')"
done
