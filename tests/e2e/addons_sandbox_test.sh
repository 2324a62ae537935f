#!/usr/bin/env bash
# End-to-end, issue 12's story: stage eks of examples/eks-sandbox, then stage addons, which
# applies through the kubernetes provider (the EKS token from data aws_eks_cluster_auth)
# the cluster-autoscaler, the NVIDIA device plugin, a CRD and a custom resource of it in one
# apply (the CRD does not exist at plan time), a file with a namespace and what lives in it,
# and reads an Ingress's host name back into an output. Then kubectl (the real client,
# through `strata sandbox serve --kubeconfig`) checks what Strata applied, and the drift
# rules are exercised: a changed value is one in-place update, `kubectl scale` (another
# manager owns replicas) is no drift, a field Strata owns changed by kubectl is shown and
# put back, a field another manager owns is a conflict, a removed document is one delete,
# kill -9 while a Deployment rolls out is recovered (same object, nothing doubled);
# destroy deletes in reverse (namespaces and CRDs last).
source "$(dirname "$0")/lib.sh"
command -v kubectl >/dev/null 2>&1 || { echo "*** SKIPPING: no kubectl on PATH"; exit 77; }
export STRATA_PROGRESS_INTERVAL=1s

proj="$work/platform"
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox" "$proj"
rm -rf "$proj/.strata"
sed -i 's/cluster_delay_ms: [0-9]*, nodegroup_delay_ms: [0-9]*/cluster_delay_ms: 200, nodegroup_delay_ms: 200/' "$proj/strata.yaml"
s() { "$STRATA" -chdir="$proj" "$@"; }

run init 0 s init && expect "init finds both stages" "$out" "Stage addons (02-addons)"
run "apply eks" 0 s apply -auto-approve eks || { finish; exit 1; }

# kubectl reaches the cluster through a separately served sandbox on the same world.
# It holds the cluster's endpoint, so its workload delay (3 s) is the one Strata waits for.
serve_sandbox --state "$proj/.strata/sandbox.db" --kubeconfig "$work/kubeconfig" --workload-delay-ms 3000 || { finish; exit 1; }
for _ in $(seq 1 50); do grep -q "server:" "$work/kubeconfig" 2>/dev/null && break; sleep 0.2; done
k() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/kube-cache" --request-timeout=20s "$@"; }

run "plan addons" 0 s plan addons
expect "the profile is planned although its CRD does not exist yet" "$out" \
  '# kubernetes_manifest.profiles["kubeflow.org/Profile//ml-team"] will be created'
expect "keyed by object identity" "$out" \
  'kubernetes_manifest.autoscaler["apps/Deployment/kube-system/cluster-autoscaler"] will be created'
expect "fourteen objects" "$out" "Plan: 14 to add, 0 to change, 0 to destroy."

run "apply addons" 0 s apply -auto-approve addons || { echo "$out" | tail -30; finish; exit 1; }
expect "apply completes" "$out" "Apply complete! Resources: 14 added"
expect "the ingress host name is read back" "$out" 'ingress_host = "k8s-platform-platform-'
expect "the deployment was waited for" "$out" \
  'kubernetes_manifest.autoscaler["apps/Deployment/kube-system/cluster-autoscaler"]: Creation complete'
# The namespace before what lives in it, the CRD before its profile.
order=$(grep -n "Creation complete" <<<"$out")
ns_line=$(grep -F 'core/Namespace//platform' <<<"$order" | cut -d: -f1)
cm_line=$(grep -F 'core/ConfigMap/platform/platform-settings' <<<"$order" | cut -d: -f1)
crd_line=$(grep -F 'CustomResourceDefinition//profiles.kubeflow.org' <<<"$order" | cut -d: -f1)
profile_line=$(grep -F 'kubeflow.org/Profile//ml-team' <<<"$order" | cut -d: -f1)
[ -n "$ns_line" ] && [ -n "$cm_line" ] && [ "$ns_line" -lt "$cm_line" ] && pass "the namespace is created first" ||
  fail "namespace ($ns_line) before its configmap ($cm_line)"
[ -n "$crd_line" ] && [ -n "$profile_line" ] && [ "$crd_line" -lt "$profile_line" ] && pass "the CRD is created before its profile" ||
  fail "CRD ($crd_line) before profile ($profile_line)"

run "plan after apply" 0 s plan -detailed-exitcode addons
converged "nothing left to do, nothing changed outside"

# kubectl agrees with what Strata applied.
run "kubectl get configmap" 0 k get configmap platform-settings -n platform -o jsonpath='{.data.log_level}'
expect "kubectl sees the value" "$out" "info"
run "kubectl managedFields" 0 k get deploy cluster-autoscaler -n kube-system --show-managed-fields \
  -o jsonpath='{.metadata.managedFields[*].manager}'
expect "strata is the field manager" "$out" "strata"
run "kubectl get profile" 0 k get profiles.kubeflow.org ml-team -o jsonpath='{.spec.owner.name}'
expect "the custom resource is there" "$out" "ml-admin@example.com"

# A changed value: one update in place.
run "plan a change" 2 s plan -detailed-exitcode -var log_level=debug addons
expect "one in-place update" "$out" "Plan: 0 to add, 1 to change, 0 to destroy."
run "apply the change" 0 s apply -auto-approve -var log_level=debug addons
run "kubectl sees the change" 0 k get configmap platform-settings -n platform -o jsonpath='{.data.log_level}'
expect "log_level is debug" "$out" "debug"

# kubectl scale: another manager owns replicas, which Strata does not set: no drift.
run "kubectl scale" 0 k scale deploy cluster-autoscaler -n kube-system --replicas=3
run "plan after kubectl scale" 0 s plan -detailed-exitcode -var log_level=debug addons
expect "scaling is not drift" "$out" "No changes."

# A field Strata owns, changed with kubectl: shown and put back.
run "kubectl patch" 0 k patch configmap platform-settings -n platform --type merge -p '{"data":{"log_level":"trace"}}'
run "plan after kubectl patch" 2 s plan -detailed-exitcode -var log_level=debug addons
expect "drift is named with its manager" "$out$err" '.data.log_level (changed by "kubectl-patch")'
expect "one update puts it back" "$out" "Plan: 0 to add, 1 to change, 0 to destroy."
run "apply puts it back" 0 s apply -auto-approve -var log_level=debug addons
run "kubectl sees it back" 0 k get configmap platform-settings -n platform -o jsonpath='{.data.log_level}'
expect "log_level is debug again" "$out" "debug"

# A field another manager owns that Strata now wants: a conflict the user decides.
cat >"$work/helm.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: { name: platform-settings, namespace: platform }
data: { owner: helm }
YAML
run "another manager applies a field" 0 k apply --server-side --field-manager=helm -f "$work/helm.yaml"
sed -i 's/^  log_level: \${log_level}$/  log_level: ${log_level}\n  owner: strata/' "$proj/02-addons/manifests/platform.yaml"
run "plan a conflicting field" 1 s plan -var log_level=debug addons
expect "the conflict is a diagnostic" "$err" "Field manager conflict"
expect "it names the manager and the field" "$err" '.data.owner: conflict with "helm"'
expect "it says how to force" "$err" "force_conflicts"
sed -i '/^  owner: strata$/d' "$proj/02-addons/manifests/platform.yaml"

# A document removed from the file: that object is deleted.
python3 - "$proj/02-addons/manifests/platform.yaml" <<'PY'
import sys
path = sys.argv[1]
docs = open(path).read().split("\n---\n")
open(path, "w").write("\n---\n".join(d for d in docs if "kind: Service\n" not in d))
PY
run "plan a removed document" 2 s plan -detailed-exitcode -var log_level=debug addons
expect "one delete" "$out" "Plan: 0 to add, 0 to change, 1 to destroy."
expect "the service goes" "$out" 'kubernetes_manifest.platform["core/Service/platform/dashboard"] will be destroyed'
run "apply the removal" 0 s apply -auto-approve -var log_level=debug addons
run "kubectl: the service is gone" 1 k get service dashboard -n platform

# kill -9 while a new Deployment waits for its rollout: the next apply finds the
# object the interrupted create made (its natural key) and waits for it; nothing doubled,
# nothing recreated, nothing lost.
cat >>"$proj/02-addons/manifests/platform.yaml" <<'YAML'
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: trainer, namespace: platform }
spec:
  selector: { matchLabels: { app: trainer } }
  template:
    metadata: { labels: { app: trainer } }
    spec: { containers: [{ name: trainer, image: "busybox:1.36" }] }
YAML
trainer='kubernetes_manifest.platform["apps/Deployment/platform/trainer"]'
"$STRATA" -chdir="$proj" apply -auto-approve -var log_level=debug addons >"$work/killed.out" 2>&1 &
victim=$!
for _ in $(seq 1 150); do grep -qF "$trainer: Still creating" "$work/killed.out" && break; sleep 0.1; done
kill -9 "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
expect "killed while the deployment waits" "$(cat "$work/killed.out")" "$trainer: Still creating"
run "kubectl: the interrupted create made the deployment" 0 k get deploy trainer -n platform -o jsonpath='{.metadata.uid}'
uid_before=$out
run "apply after kill -9" 0 s apply -auto-approve -var log_level=debug addons
expect "the dead process's lock is taken over" "$out$err" "Took over a stale lock"
expect "the interrupted create is finished, not repeated" "$out" "$trainer: Creation complete"
run "plan after recovery" 0 s plan -detailed-exitcode -var log_level=debug addons
expect "converged" "$out" "No changes."
run "kubectl: still the same deployment" 0 k get deploy trainer -n platform -o jsonpath='{.metadata.uid} {.status.readyReplicas}'
expect "same uid (not recreated) and rolled out" "$out" "$uid_before 1"
run "kubectl: one trainer" 0 k get deploy -n platform -o name
[ "$(grep -c trainer <<<"$out")" = 1 ] && pass "one trainer deployment" || fail "trainer deployments: $out"
run "state list" 0 s state list addons
[ "$(grep -cF "$trainer" <<<"$out")" = 1 ] && pass "one trainer in state" || fail "state entries: $out"

# Destroy: what lives in a namespace before the namespace, the profile before its CRD.
run "destroy addons" 0 s destroy -auto-approve -var log_level=debug addons
expect "destroy completes" "$out" "Destroy complete!"
order=$(grep -n "Destruction complete" <<<"$out")
ns_line=$(grep -F 'core/Namespace//platform' <<<"$order" | cut -d: -f1)
cm_line=$(grep -F 'core/ConfigMap/platform/platform-settings' <<<"$order" | cut -d: -f1)
crd_line=$(grep -F 'CustomResourceDefinition//profiles.kubeflow.org' <<<"$order" | cut -d: -f1)
profile_line=$(grep -F 'kubeflow.org/Profile//ml-team' <<<"$order" | cut -d: -f1)
[ -n "$ns_line" ] && [ -n "$cm_line" ] && [ "$cm_line" -lt "$ns_line" ] && pass "the namespace is deleted last" ||
  fail "configmap ($cm_line) before its namespace ($ns_line)"
[ -n "$crd_line" ] && [ -n "$profile_line" ] && [ "$profile_line" -lt "$crd_line" ] && pass "the CRD is deleted after its profile" ||
  fail "profile ($profile_line) before CRD ($crd_line)"
run "kubectl: the namespace is gone" 1 k get namespace platform
run "destroy eks" 0 s destroy -auto-approve eks
finish
