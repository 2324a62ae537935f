#!/usr/bin/env bash
# kubernetes_apply.sh: the kubernetes provider at scale, side by side with kubectl.
#
# Stage eks of examples/eks-sandbox makes a cluster in a separately served sandbox
# (`strata sandbox serve --kubeconfig`), then a directory of DOCS documents (default 500: a
# namespace, then ConfigMaps, ServiceAccounts, Services and Roles, 50 per file) is applied
# twice: by Strata (a stage whose one kubernetes_manifest takes
# kubernetes_documents("manifests")) and by `kubectl apply --server-side -f DIR` (the same
# documents in another namespace), both against the same API server in the same run. Then
# the no-op cases: Strata's `plan` against `kubectl diff --server-side`, and a second apply
# of each. Each row is /usr/bin/time of one whole client process: wall seconds, its own CPU
# seconds (user + system; the rest of the wall time is the API server's) and peak RSS;
# kubectl starts with an empty discovery cache, as Strata does.
#
# Usage:   bench/kubernetes_apply.sh
# Env:     STRATA   Strata binary (default: <repo>/build-bench/strata, else <repo>/build/strata)
#          DOCS     documents per directory (default 500)
#          PARALLEL Strata's -parallelism (default 10)
#          KUBECTL  kubectl binary (default: kubectl on PATH)
# Needs:   bash, GNU /usr/bin/time, kubectl. Everything lives in one mktemp directory,
#          removed on exit; the sandbox listens on 127.0.0.1 only.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$script_dir")
if [[ -z "${STRATA:-}" ]]; then
  STRATA=$repo_dir/build-bench/strata
  [[ -x $STRATA ]] || STRATA=$repo_dir/build/strata
fi
KUBECTL=${KUBECTL:-kubectl}
docs=${DOCS:-500}
parallel=${PARALLEL:-10}
[[ -x $STRATA ]] || { echo "Strata binary not found: $STRATA (set STRATA)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "GNU /usr/bin/time is required" >&2; exit 1; }
command -v "$KUBECTL" >/dev/null || { echo "kubectl not found: $KUBECTL (set KUBECTL)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-k8s-bench.XXXXXX")
server=""
cleanup() {
  [[ -n $server ]] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT

# manifests DIR NAMESPACE: DOCS documents in files of 50, the namespace first.
manifests() {
  local dir=$1 ns=$2 i file kind
  mkdir -p "$dir"
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: { name: %s }\n' "$ns" >"$dir/f000.yaml"
  for ((i = 1; i < docs; i++)); do
    file=$(printf '%s/f%03d.yaml' "$dir" $((i / 50)))
    [[ -s $file ]] && echo '---' >>"$file"
    case $((i % 4)) in
      0) kind=ConfigMap
         printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: obj-%d, namespace: %s, labels: { bench: "yes" } }\ndata: { index: "%d", mode: batch, owner: platform }\n' "$i" "$ns" "$i" >>"$file" ;;
      1) printf 'apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: obj-%d, namespace: %s, labels: { bench: "yes" } }\n' "$i" "$ns" >>"$file" ;;
      2) printf 'apiVersion: v1\nkind: Service\nmetadata: { name: obj-%d, namespace: %s }\nspec:\n  selector: { app: obj-%d }\n  ports: [{ name: http, port: 80, targetPort: 8080, protocol: TCP }]\n' "$i" "$ns" "$i" >>"$file" ;;
      3) printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: { name: obj-%d, namespace: %s }\nrules:\n  - { apiGroups: [""], resources: [configmaps], verbs: [get, list] }\n' "$i" "$ns" >>"$file" ;;
    esac
  done
}

# timed NAME CMD...: one row, the command's wall time and peak RSS; stops the run on failure.
timed() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/last.log" 2>&1 ||
    { echo "$name failed:" >&2; tail -30 "$work/last.log" >&2; exit 1; }
  local wall user sys rss
  read -r wall user sys rss <"$work/time"
  printf '| %s | %s | %.2f | %d |\n' "$name" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$((rss / 1024))"
}

proj=$work/project
cp -r "$repo_dir/examples/eks-sandbox" "$proj"
rm -rf "$proj/.strata" "$proj/02-addons"
sed -i 's/^sandbox: .*$/sandbox: { enabled: false }/' "$proj/strata.yaml"
sed -i 's/^  - { name: addons, path: 02-addons }$/  - { name: bench, path: bench }/' "$proj/strata.yaml"
mkdir -p "$proj/bench"
cat >"$proj/bench/main.yaml" <<'YAML'
providers:
  aws: { region: us-west-2 }
  kubernetes:
    host: ${stage.eks.cluster_endpoint}
    cluster_ca_certificate: ${base64decode(stage.eks.cluster_ca)}
    token: ${data.auth.token}
data:
  auth:
    type: aws_eks_cluster_auth
    properties: { name: "${stage.eks.cluster_name}" }
resources:
  objects:
    type: kubernetes_manifest
    for_each: ${kubernetes_documents("manifests", {})}
    properties: { manifest: "${each.value}" }
YAML
manifests "$proj/bench/manifests" bench-strata
manifests "$work/kubectl" bench-kubectl

"$STRATA" sandbox serve --state "$work/world.db" --kubeconfig "$work/kubeconfig" \
  --cluster-delay-ms 100 --nodegroup-delay-ms 100 >"$work/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^Strata sandbox serving AWS .* on \(http:[^ ]*\)$/\1/p' "$work/serve.log")
  [[ -n $url ]] && break
  sleep 0.1
done
[[ -n $url ]] || { echo "the sandbox did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
export AWS_ENDPOINT_URL=$url AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_DEFAULT_REGION=us-west-2
export AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
unset AWS_SESSION_TOKEN AWS_PROFILE

s=("$STRATA" -chdir="$proj")
k=("$KUBECTL" --kubeconfig "$work/kubeconfig" --cache-dir "$work/kube-cache")
"${s[@]}" init >"$work/init.log" 2>&1 || { cat "$work/init.log" >&2; exit 1; }
"${s[@]}" apply -auto-approve eks >"$work/eks.log" 2>&1 || { tail -30 "$work/eks.log" >&2; exit 1; }
for _ in $(seq 1 50); do grep -q "server:" "$work/kubeconfig" 2>/dev/null && break; sleep 0.2; done

echo "$docs documents, Strata -parallelism=$parallel, $("$KUBECTL" version --client 2>/dev/null | head -1)"
echo
echo "| Run | Wall (s) | Client CPU (s) | Peak RSS (MiB) |"
echo "|---|---|---|---|"
timed "strata apply (creates)" "${s[@]}" apply -auto-approve -parallelism="$parallel" bench
grep -q "Resources: $docs added" "$work/last.log" || { echo "strata did not add $docs objects" >&2; tail "$work/last.log" >&2; exit 1; }
rm -rf "$work/kube-cache"
timed "kubectl apply --server-side (creates)" "${k[@]}" apply --server-side --field-manager=kubectl-bench -f "$work/kubectl"
[[ $(grep -c "serverside-applied" "$work/last.log") == "$docs" ]] || { echo "kubectl did not apply $docs objects" >&2; exit 1; }
timed "strata plan (no changes)" "${s[@]}" plan -detailed-exitcode -parallelism="$parallel" bench
rm -rf "$work/kube-cache"
timed "kubectl diff --server-side (no changes)" "${k[@]}" diff --server-side --field-manager=kubectl-bench -f "$work/kubectl"
timed "strata apply (no changes)" "${s[@]}" apply -auto-approve -parallelism="$parallel" bench
rm -rf "$work/kube-cache"
timed "kubectl apply --server-side (no changes)" "${k[@]}" apply --server-side --field-manager=kubectl-bench -f "$work/kubectl"
