#!/usr/bin/env bash
# End-to-end, issue 17: Terraform's typed Kubernetes resources (kubernetes_namespace,
# kubernetes_service_account, kubernetes_cluster_role(_binding), kubernetes_config_map,
# kubernetes_secret, kubernetes_deployment, kubernetes_daemonset) on a sandbox EKS cluster.
# The typed stack is applied (the Secret's data masked), re-planned clean and read back by
# kubectl; destroyed; then the same objects written as kubernetes_manifest are applied and
# kubectl must show them identical (their managedFields too, but for the time); the
# manifests are then taken over by the typed resources (removed + import) without a change;
# an import by Terraform's ids. Then the reference add-ons (cluster-autoscaler, NVIDIA
# device plugin, dashboard) typed against the example's manifests, the same way.
source "$(dirname "$0")/lib.sh"
command -v kubectl >/dev/null 2>&1 || { echo "*** SKIPPING: no kubectl on PATH"; exit 77; }
command -v aws >/dev/null 2>&1 || { echo "*** SKIPPING: no aws on PATH"; exit 77; }

serve_sandbox --memory --cluster-delay-ms 0 --nodegroup-delay-ms 0 --workload-delay-ms 300 || exit 1
aws_cli_on_sandbox
unset KUBECONFIG

# --- A cluster, and a kubeconfig for both kubectl and the provider block.
sandbox_eks_cluster typed 40 || { finish; exit 1; }
token=$(AWS_ENDPOINT_URL_STS="$url" aws eks get-token --cluster-name typed --output json |
  python3 -c "import json,sys; print(json.load(sys.stdin)['status']['token'])")
cat >"$work/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: typed
  cluster: {server: "$endpoint", certificate-authority-data: "$ca_data"}
users:
- name: admin
  user: {token: "$token"}
contexts:
- name: typed
  context: {cluster: typed, user: admin}
current-context: typed
EOF
k() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/kube-cache" --request-timeout=20s "$@"; }

# --- Two stages: the typed stack, and the same objects as manifests.
proj="$work/proj"
mkdir -p "$proj/typed" "$proj/manifest"
cat >"$proj/strata.yaml" <<'EOF'
project: typed
state: { backend: sqlite, path: .strata/state.db }
stages:
  - { name: typed, path: typed }
  - { name: manifest, path: manifest }
EOF
provider="providers:
  kubernetes:
    config_path: $work/kubeconfig
"
cat >"$proj/typed/main.yaml" <<EOF
$provider
resources:
  ns:
    type: kubernetes_namespace
    properties:
      metadata: [{ name: agents, labels: { team: infra } }]
  sa:
    type: kubernetes_service_account_v1
    properties:
      metadata: [{ name: agent, namespace: "\${ns.metadata[0].name}" }]
  reader:
    type: kubernetes_cluster_role
    properties:
      metadata: [{ name: agent-reader }]
      rule:
        - { api_groups: [""], resources: [pods, nodes], verbs: [get, list, watch] }
  reader_binding:
    type: kubernetes_cluster_role_binding_v1
    properties:
      metadata: [{ name: agent-reader }]
      role_ref: [{ api_group: rbac.authorization.k8s.io, kind: ClusterRole, name: agent-reader }]
      subject: [{ kind: ServiceAccount, name: agent, namespace: agents }]
  settings:
    type: kubernetes_config_map
    properties:
      metadata: [{ name: settings, namespace: agents }]
      data: { log_level: info }
  token:
    type: kubernetes_secret
    properties:
      metadata: [{ name: token, namespace: agents }]
      data: { token: s3cret-value }
      binary_data: { raw: AAEC }
  web:
    type: kubernetes_deployment
    properties:
      metadata: [{ name: web, namespace: agents, labels: { app: web } }]
      spec:
        - replicas: 2
          selector: [{ match_labels: { app: web } }]
          strategy: [{ type: RollingUpdate, rolling_update: [{ max_surge: "1", max_unavailable: "0" }] }]
          template:
            - metadata: [{ labels: { app: web } }]
              spec:
                - service_account_name: agent
                  container:
                    - name: web
                      image: "nginx:1.27"
                      port: [{ container_port: 80, name: http, protocol: TCP }]
                      env: [{ name: LOG_LEVEL, value: info }]
                      resources: [{ limits: { cpu: 100m, memory: 64Mi } }]
  agent:
    type: kubernetes_daemonset
    properties:
      metadata: [{ name: agent, namespace: agents }]
      spec:
        - selector: [{ match_labels: { app: agent } }]
          template:
            - metadata: [{ labels: { app: agent } }]
              spec:
                - service_account_name: agent
                  toleration: [{ operator: Exists }]
                  container:
                    - name: agent
                      image: "busybox:1.36"
                      args: [sleep, "3600"]
                      volume_mount: [{ name: host, mount_path: /host, read_only: true }]
                  volume: [{ name: host, host_path: [{ path: / }] }]
EOF
cat >"$proj/manifest/main.yaml" <<EOF
$provider
resources:
  ns:
    type: kubernetes_manifest
    properties:
      manifest: { apiVersion: v1, kind: Namespace, metadata: { name: agents, labels: { team: infra } } }
  sa:
    type: kubernetes_manifest
    properties:
      manifest: { apiVersion: v1, kind: ServiceAccount, metadata: { name: agent, namespace: agents } }
  reader:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: { name: agent-reader }
        rules: [{ apiGroups: [""], resources: [pods, nodes], verbs: [get, list, watch] }]
  reader_binding:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        metadata: { name: agent-reader }
        roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: agent-reader }
        subjects: [{ kind: ServiceAccount, name: agent, namespace: agents }]
  settings:
    type: kubernetes_manifest
    properties:
      manifest: { apiVersion: v1, kind: ConfigMap, metadata: { name: settings, namespace: agents }, data: { log_level: info } }
  token:
    type: kubernetes_manifest
    properties:
      manifest: { apiVersion: v1, kind: Secret, metadata: { name: token, namespace: agents }, data: { token: czNjcmV0LXZhbHVl, raw: AAEC } }
  web:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: apps/v1
        kind: Deployment
        metadata: { name: web, namespace: agents, labels: { app: web } }
        spec:
          replicas: 2
          selector: { matchLabels: { app: web } }
          strategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
          template:
            metadata: { labels: { app: web } }
            spec:
              serviceAccountName: agent
              containers:
                - name: web
                  image: "nginx:1.27"
                  ports: [{ containerPort: 80, name: http, protocol: TCP }]
                  env: [{ name: LOG_LEVEL, value: info }]
                  resources: { limits: { cpu: 100m, memory: 64Mi } }
  agent:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: { name: agent, namespace: agents }
        spec:
          selector: { matchLabels: { app: agent } }
          template:
            metadata: { labels: { app: agent } }
            spec:
              serviceAccountName: agent
              tolerations: [{ operator: Exists }]
              containers:
                - name: agent
                  image: "busybox:1.36"
                  args: [sleep, "3600"]
                  volumeMounts: [{ name: host, mountPath: /host, readOnly: true }]
              volumes: [{ name: host, hostPath: { path: / } }]
EOF
s() { "$STRATA" -chdir="$proj" "$@"; }

# snapshot FILE [NAMESPACE/KIND/NAME ...]: the objects as kubectl shows them (the small
# stack's by default; "-" for a cluster-scoped one), without what differs between any two
# applies (uid, versions, times, status, a Service's allocated IPs). One kubectl call per
# namespace.
snapshot() {
  local into=$1
  shift
  local objects=("$@")
  [ ${#objects[@]} -gt 0 ] || objects=(-/namespace/agents agents/serviceaccount/agent -/clusterrole/agent-reader
    -/clusterrolebinding/agent-reader agents/configmap/settings agents/secret/token agents/deployment/web
    agents/daemonset/agent)
  local files=() ns
  for ns in $(printf '%s\n' "${objects[@]}" | cut -d/ -f1 | sort -u); do
    local refs=() scope=(-n "$ns") obj
    [ "$ns" = - ] && scope=()
    for obj in "${objects[@]}"; do [ "${obj%%/*}" = "$ns" ] && refs+=("${obj#*/}"); done
    k get "${scope[@]}" "${refs[@]}" -o yaml >"$work/objects-$ns.yaml" || echo "missing in $ns" >>"$into"
    files+=("$work/objects-$ns.yaml")
  done
  python3 - "${files[@]}" >"$into" <<'PY'
import sys, yaml
items = []
for path in sys.argv[1:]:
    items += yaml.safe_load(open(path)).get("items", [])
for o in sorted(items, key=lambda o: (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])):
    m = o["metadata"]
    for key in ("uid", "resourceVersion", "creationTimestamp", "generation"):
        m.pop(key, None)
    for entry in m.get("managedFields", []):
        entry.pop("time", None)
    o.pop("status", None)
    for key in ("clusterIP", "clusterIPs"):
        o.get("spec", {}).pop(key, None)
    print(yaml.safe_dump(o, sort_keys=True))
print(len(items), "objects")
PY
}

run init 0 s init
run "plan typed" 0 s plan typed
expect "eight typed objects" "$out" "Plan: 8 to add, 0 to change, 0 to destroy."
if grep -qF "s3cret-value" <<<"$out$err"; then fail "the secret's data is printed"; else pass "the secret's data is masked"; fi
expect "Terraform's attribute shape in the plan" "$out" "container_port"
run "apply typed" 0 s apply -auto-approve typed || { echo "$out$err" | tail -30; finish; exit 1; }
expect "apply completes" "$out" "Apply complete! Resources: 8 added"
order=$(grep -n "Creation complete" <<<"$out")
ns_line=$(grep -F 'kubernetes_namespace.ns:' <<<"$order" | cut -d: -f1)
sa_line=$(grep -F 'kubernetes_service_account_v1.sa:' <<<"$order" | cut -d: -f1)
[ -n "$ns_line" ] && [ -n "$sa_line" ] && [ "$ns_line" -lt "$sa_line" ] && pass "the namespace first (ordering classes)" ||
  fail "namespace ($ns_line) before service account ($sa_line)"
run "plan after apply" 0 s plan -detailed-exitcode typed
converged "typed: re-plan is clean"
run "kubectl: rolled out" 0 k get deploy web -n agents -o jsonpath='{.status.readyReplicas}'
expect "waited for the rollout" "$out" "2"
run "state show" 0 s state show typed kubernetes_deployment.web
expect "the uid is read back" "$out" "uid"
snapshot "$work/typed.yaml"
expect "kubectl reads the eight objects" "$(tail -1 "$work/typed.yaml")" "8 objects"
run "kubectl: the secret as sent" 0 k get secret token -n agents -o jsonpath='{.data.token}'
expect "base64 of the plain value" "$out" "czNjcmV0LXZhbHVl"

# Drift on a field Strata owns shows in Terraform's attribute names.
run "kubectl patch" 0 k patch configmap settings -n agents --type merge -p '{"data":{"log_level":"trace"}}'
run "plan after patch" 2 s plan -detailed-exitcode typed
expect "one update" "$out" "Plan: 0 to add, 1 to change, 0 to destroy."
expect "the typed attribute changes back" "$out" '"log_level" = "trace" -> "info"'
run "apply puts it back" 0 s apply -auto-approve typed

run "destroy typed" 0 s destroy -auto-approve typed
expect "destroy completes" "$out" "Destroy complete! Resources: 8 destroyed."
order=$(grep -n "Destruction complete" <<<"$out")
ns_line=$(grep -F 'kubernetes_namespace.ns:' <<<"$order" | cut -d: -f1)
cm_line=$(grep -F 'kubernetes_config_map.settings:' <<<"$order" | cut -d: -f1)
[ -n "$ns_line" ] && [ -n "$cm_line" ] && [ "$cm_line" -lt "$ns_line" ] && pass "the namespace last" ||
  fail "config map ($cm_line) before namespace ($ns_line)"
run "kubectl: the namespace is gone" 1 k get namespace agents

# The same objects as kubernetes_manifest: kubectl shows the same objects.
run "apply manifests" 0 s apply -auto-approve manifest || { echo "$out$err" | tail -30; finish; exit 1; }
snapshot "$work/manifest.yaml"
if diff -u "$work/manifest.yaml" "$work/typed.yaml" >"$work/objects.diff"; then
  pass "kubectl shows the typed objects identical to the manifest ones"
else
  fail "the objects differ:"; head -60 "$work/objects.diff"
fi

# From kubernetes_manifest to the typed resources without touching the cluster: `removed`
# (destroy: false) forgets the manifests, `import` takes the same objects by Terraform's ids.
uid_before=$(k get deploy web -n agents -o jsonpath='{.metadata.uid} {.metadata.resourceVersion}')
cp "$proj/typed/main.yaml" "$proj/manifest/main.yaml"
cat >>"$proj/manifest/main.yaml" <<'EOF'
removed:
  - { from: kubernetes_manifest.ns, lifecycle: { destroy: false } }
  - { from: kubernetes_manifest.sa, lifecycle: { destroy: false } }
  - { from: kubernetes_manifest.reader, lifecycle: { destroy: false } }
  - { from: kubernetes_manifest.reader_binding, lifecycle: { destroy: false } }
  - { from: kubernetes_manifest.settings, lifecycle: { destroy: false } }
  - { from: kubernetes_manifest.token, lifecycle: { destroy: false } }
  - { from: kubernetes_manifest.web, lifecycle: { destroy: false } }
  - { from: kubernetes_manifest.agent, lifecycle: { destroy: false } }
import:
  - { to: kubernetes_namespace.ns, id: agents }
  - { to: kubernetes_service_account_v1.sa, id: agents/agent }
  - { to: kubernetes_cluster_role.reader, id: agent-reader }
  - { to: kubernetes_cluster_role_binding_v1.reader_binding, id: agent-reader }
  - { to: kubernetes_config_map.settings, id: agents/settings }
  - { to: kubernetes_secret.token, id: agents/token }
  - { to: kubernetes_deployment.web, id: agents/web }
  - { to: kubernetes_daemonset.agent, id: agents/agent }
EOF
run "plan the switch" 0 s plan manifest
expect "imported, nothing changed" "$out" "Plan: 8 to import, 0 to add, 0 to change, 0 to destroy."
expect "the manifests are forgotten" "$out" "will no longer be managed by Strata"
run "apply the switch" 0 s apply -auto-approve manifest
run "plan after the switch" 0 s plan -detailed-exitcode manifest
converged "switched: re-plan is clean"
expect "the cluster was not touched" "$(k get deploy web -n agents -o jsonpath='{.metadata.uid} {.metadata.resourceVersion}')" "$uid_before"
run "destroy the switched stage" 0 s destroy -auto-approve manifest
expect "destroyed as typed resources" "$out" "Destroy complete! Resources: 8 destroyed."

# Import by Terraform's ids: namespace/name, and name for a cluster-scoped kind.
run "kubectl create" 0 k create configmap imported -n default --from-literal=a=1
run "kubectl create clusterrole" 0 k create clusterrole imported --verb=get --resource=pods
cat >>"$proj/typed/main.yaml" <<'EOF'
  imported:
    type: kubernetes_config_map_v1
    properties:
      metadata: [{ name: imported, namespace: default }]
      data: { a: "1" }
  imported_role:
    type: kubernetes_cluster_role_v1
    properties:
      metadata: [{ name: imported }]
      rule: [{ api_groups: [""], resources: [pods], verbs: [get] }]
EOF
run "import without the namespace" 1 s import typed kubernetes_config_map_v1.imported imported
expect "Terraform's id is asked for" "$err" 'its import id is "namespace/name"'
run "import namespace/name" 0 s import typed kubernetes_config_map_v1.imported default/imported
run "import name" 0 s import typed kubernetes_cluster_role_v1.imported_role imported
run "state show imported" 0 s state show typed kubernetes_config_map_v1.imported
expect "the data is read back" "$out" 'a = "1"'
run "destroy" 0 s destroy -auto-approve typed
run "kubectl: imported object deleted" 1 k get configmap imported -n default

# --- The reference add-ons (issue 17): examples/eks-sandbox's cluster-autoscaler, NVIDIA
# device plugin and dashboard, written with typed resources as a Terraform configuration
# writes them (tests/e2e/fixtures/typed-addons), against the example's own manifests.
mkdir -p "$proj/ref_typed" "$proj/ref_manifest"
{ echo "$provider"; cat "$STRATA_SOURCE_DIR/tests/e2e/fixtures/typed-addons/main.yaml"; } >"$proj/ref_typed/main.yaml"
{ echo "$provider"; cat /dev/stdin; } >"$proj/ref_manifest/main.yaml" <<'EOF'
variables:
  cluster_name: { type: string, default: typed }
  image: { type: string, default: "registry.k8s.io/autoscaling/cluster-autoscaler:v1.31.0" }
  log_level: { type: string, default: info }
resources:
  autoscaler:
    type: kubernetes_manifest
    for_each: ${kubernetes_documents("manifests/cluster-autoscaler.yaml", { cluster_name = var.cluster_name, image = var.image })}
    properties: { manifest: "${each.value}" }
  device_plugin:
    type: kubernetes_manifest
    for_each: ${kubernetes_documents("manifests/nvidia-device-plugin.yaml", {})}
    properties: { manifest: "${each.value}" }
  platform:
    type: kubernetes_manifest
    for_each: ${kubernetes_documents("manifests/platform.yaml", { log_level = var.log_level })}
    properties: { manifest: "${each.value}" }
EOF
cp -r "$STRATA_SOURCE_DIR/examples/eks-sandbox/02-addons/manifests" "$proj/ref_manifest/"
cat >>"$proj/strata.yaml" <<'EOF'
  - { name: ref_typed, path: ref_typed }
  - { name: ref_manifest, path: ref_manifest }
EOF
ref_objects="kube-system/serviceaccount/cluster-autoscaler -/clusterrole/cluster-autoscaler kube-system/role/cluster-autoscaler
  -/clusterrolebinding/cluster-autoscaler kube-system/rolebinding/cluster-autoscaler
  kube-system/configmap/cluster-autoscaler-priority-expander kube-system/deployment/cluster-autoscaler
  kube-system/daemonset/nvidia-device-plugin-daemonset -/namespace/platform platform/configmap/platform-settings
  platform/service/dashboard platform/ingress/platform"
run "init with the reference stages" 0 s init
run "apply the typed add-ons" 0 s apply -auto-approve ref_typed || { echo "$out$err" | tail -30; finish; exit 1; }
expect "twelve typed objects" "$out" "Apply complete! Resources: 12 added"
run "plan the typed add-ons again" 0 s plan -detailed-exitcode ref_typed
converged "typed add-ons: re-plan is clean"
snapshot "$work/ref_typed.yaml" $ref_objects
expect "kubectl reads the twelve add-ons" "$(tail -1 "$work/ref_typed.yaml")" "12 objects"
run "destroy the typed add-ons" 0 s destroy -auto-approve ref_typed
expect "twelve destroyed" "$out" "Destroy complete! Resources: 12 destroyed."
run "apply the add-on manifests" 0 s apply -auto-approve ref_manifest || { echo "$out$err" | tail -30; finish; exit 1; }
snapshot "$work/ref_manifest.yaml" $ref_objects
if diff -u "$work/ref_manifest.yaml" "$work/ref_typed.yaml" >"$work/ref.diff"; then
  pass "kubectl shows the typed add-ons identical to the example's manifests"
else
  fail "the add-ons differ:"; head -60 "$work/ref.diff"
fi
run "destroy the add-on manifests" 0 s destroy -auto-approve ref_manifest
finish
