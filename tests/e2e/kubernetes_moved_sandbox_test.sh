#!/usr/bin/env bash
# End-to-end, issue 17 item 3: moves between Terraform's typed Kubernetes resources and
# kubernetes_manifest of the same objects, on a sandbox EKS cluster, without touching the
# cluster. A typed Deployment and ConfigMap are applied; the configuration then writes them
# as kubernetes_manifest with `moved:` entries: the plan shows only the moves, the saved
# plan applies with the cluster unreachable (so no call was made) and the objects'
# resourceVersion is unchanged; the re-plan is clean. Back again with `strata state mv`;
# a move onto another kind is refused, by `moved:` and by `state mv`.
source "$(dirname "$0")/lib.sh"
command -v kubectl >/dev/null 2>&1 || { echo "*** SKIPPING: no kubectl on PATH"; exit 77; }
command -v aws >/dev/null 2>&1 || { echo "*** SKIPPING: no aws on PATH"; exit 77; }

serve_sandbox --memory --cluster-delay-ms 0 --nodegroup-delay-ms 0 --workload-delay-ms 100 || exit 1
aws_cli_on_sandbox
unset KUBECONFIG

sandbox_eks_cluster moved 41 || { finish; exit 1; }
token=$(AWS_ENDPOINT_URL_STS="$url" aws eks get-token --cluster-name moved --output json |
  python3 -c "import json,sys; print(json.load(sys.stdin)['status']['token'])")
kubeconfig() {  # kubeconfig SERVER
  cat >"$work/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: moved
  cluster: {server: "$1", certificate-authority-data: "$ca_data"}
users:
- name: admin
  user: {token: "$token"}
contexts:
- name: moved
  context: {cluster: moved, user: admin}
current-context: moved
EOF
}
kubeconfig "$endpoint"
k() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/kube-cache" --request-timeout=20s "$@"; }
versions() { k get -n apps configmap/settings deployment/web -o jsonpath='{range .items[*]}{.metadata.resourceVersion} {end}'; }

proj="$work/proj"
mkdir -p "$proj/apps"
cat >"$proj/strata.yaml" <<'EOF'
project: moved
state: { backend: sqlite, path: .strata/state.db }
stages:
  - { name: apps, path: apps }
EOF
provider="providers:
  kubernetes:
    config_path: $work/kubeconfig
"
typed="$provider
resources:
  ns:
    type: kubernetes_namespace
    properties:
      metadata: [{ name: apps }]
  settings:
    type: kubernetes_config_map
    properties:
      metadata: [{ name: settings, namespace: \"\${ns.metadata[0].name}\" }]
      data: { log_level: info }
  web:
    type: kubernetes_deployment
    properties:
      metadata: [{ name: web, namespace: \"\${ns.metadata[0].name}\", labels: { app: web } }]
      spec:
        - replicas: 1
          selector: [{ match_labels: { app: web } }]
          template:
            - metadata: [{ labels: { app: web } }]
              spec:
                - container:
                    - name: web
                      image: \"nginx:1.27\"
                      port: [{ container_port: 80, protocol: TCP }]
"
manifests="$provider
resources:
  ns:
    type: kubernetes_namespace
    properties:
      metadata: [{ name: apps }]
  settings_manifest:
    type: kubernetes_manifest
    properties:
      manifest: { apiVersion: v1, kind: ConfigMap, metadata: { name: settings, namespace: \"\${ns.metadata[0].name}\" }, data: { log_level: info } }
  web_manifest:
    type: kubernetes_manifest
    properties:
      wait: { rollout: true }
      manifest:
        apiVersion: apps/v1
        kind: Deployment
        metadata: { name: web, namespace: \"\${ns.metadata[0].name}\", labels: { app: web } }
        spec:
          replicas: 1
          selector: { matchLabels: { app: web } }
          template:
            metadata: { labels: { app: web } }
            spec:
              containers: [{ name: web, image: \"nginx:1.27\", ports: [{ containerPort: 80, protocol: TCP }] }]
"
s() { "$STRATA" -chdir="$proj" "$@"; }

echo "$typed" >"$proj/apps/main.yaml"
run init 0 s init
run "apply typed" 0 s apply -auto-approve apps || { echo "$out$err" | tail -30; finish; exit 1; }
expect "the typed objects are made" "$out" "Apply complete! Resources: 3 added"
run "typed: re-plan" 0 s plan -detailed-exitcode apps || echo "$out" | head -80
converged "typed: re-plan is clean"
before=$(versions)

# --- typed -> kubernetes_manifest with moved: entries.
cat >"$proj/apps/main.yaml" <<EOF
$manifests
moved:
  - { from: kubernetes_config_map.settings, to: kubernetes_manifest.settings_manifest }
  - { from: kubernetes_deployment.web, to: kubernetes_manifest.web_manifest }
EOF
run "plan the moves" 0 s plan -out="$work/moves.plan" apps || echo "$out$err" | tail -30
expect "the config map has moved" "$out" "kubernetes_config_map.settings has moved to kubernetes_manifest.settings_manifest"
expect "the deployment has moved" "$out" "kubernetes_deployment.web has moved to kubernetes_manifest.web_manifest"
expect "nothing else changes" "$out" "Plan: 0 to add, 0 to change, 0 to destroy."
if grep -qE "will be updated|must be replaced|will be created|will be destroyed" <<<"$out"; then
  fail "the plan changes an object:"; grep -E "^  # " <<<"$out"
else pass "the plan changes no object"; fi
# The saved plan applies with the cluster out of reach: the moves call nothing.
kubeconfig "https://127.0.0.1:9"
run "apply the moves without the cluster" 0 s apply "$work/moves.plan" || echo "$out$err" | tail -20
kubeconfig "$endpoint"
[ "$(versions)" = "$before" ] && pass "the objects' resourceVersion is unchanged" ||
  fail "resourceVersion changed: $before -> $(versions)"
run "state list after the moves" 0 s state list apps
expect "the manifest holds the config map" "$out" "kubernetes_manifest.settings_manifest"
if grep -qF "kubernetes_config_map.settings" <<<"$out"; then fail "the typed address is still in state"; else pass "the typed address left state"; fi
run "show the moved deployment" 0 s state show apps kubernetes_manifest.web_manifest
expect "the manifest's import id" "$out" "apiVersion=apps/v1,kind=Deployment,namespace=apps,name=web"
run "manifests: re-plan" 0 s plan -detailed-exitcode apps
converged "manifests: re-plan is clean"

# --- Back to the typed resources with state mv.
echo "$typed" >"$proj/apps/main.yaml"
run "state mv the config map back" 0 s state mv apps kubernetes_manifest.settings_manifest kubernetes_config_map.settings
expect "state mv reports the move" "$out" "Successfully moved"
run "state mv the deployment back" 0 s state mv apps kubernetes_manifest.web_manifest kubernetes_deployment.web
run "show the typed deployment" 0 s state show apps kubernetes_deployment.web
expect "Terraform's id again" "$out" "apps/web"
run "typed again: re-plan" 0 s plan -detailed-exitcode apps
converged "typed again: re-plan is clean"
[ "$(versions)" = "$before" ] && pass "still the same resourceVersion" || fail "resourceVersion changed: $before -> $(versions)"

# --- A move onto another kind is refused, naming both addresses.
cat >"$proj/apps/main.yaml" <<EOF
$provider
resources:
  ns:
    type: kubernetes_namespace
    properties:
      metadata: [{ name: apps }]
  web:
    type: kubernetes_deployment
    properties:
      metadata: [{ name: web, namespace: apps, labels: { app: web } }]
      spec: [{ replicas: 1, selector: [{ match_labels: { app: web } }], template: [{ metadata: [{ labels: { app: web } }], spec: [{ container: [{ name: web, image: "nginx:1.27", port: [{ container_port: 80, protocol: TCP }] }] }] }] }]
  settings:
    type: kubernetes_secret
    properties:
      metadata: [{ name: settings, namespace: apps }]
moved:
  - { from: kubernetes_config_map.settings, to: kubernetes_secret.settings }
EOF
run "a move onto another kind" 1 s plan apps
expect "refused across kinds" "$err" "kubernetes_config_map.settings (kubernetes_config_map) cannot move to kubernetes_secret.settings"
expect "at the moved entry" "$err" "main.yaml"
run "state mv onto another kind" 1 s state mv apps kubernetes_config_map.settings kubernetes_secret.settings
expect "state mv refuses it" "$err" "it holds v1 ConfigMap, which kubernetes_secret does not"
run "state mv onto an unrelated type" 1 s state mv apps kubernetes_config_map.settings terraform_data.settings
expect "an unrelated type is refused" "$err" "cannot move to terraform_data.settings"
finish
