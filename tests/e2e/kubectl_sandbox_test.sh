#!/usr/bin/env bash
# The Kubernetes API of a sandbox EKS cluster, driven by the real client: a cluster made
# with the AWS CLI, a kubeconfig naming its endpoint and the sandbox CA, and the machine's
# kubectl for discovery, namespaces, server-side apply (a Deployment, a ConfigMap, a CRD and
# one of its objects), managedFields, diff, conflicts between field managers, label
# selectors, wait and delete — then kubectl 1.27 (OpenAPI v2 era) through discovery and
# apply. A disagreement between kubectl and the sandbox is a sandbox bug.
source "$(dirname "$0")/lib.sh"

skip() {
  echo "**********************************************************************"
  echo "*** SKIPPING the kubectl sandbox test: $1"
  echo "**********************************************************************"
  exit 77
}
command -v kubectl >/dev/null 2>&1 || skip "no 'kubectl' on PATH."
command -v aws >/dev/null 2>&1 || skip "no 'aws' on PATH (the cluster is made with the AWS CLI)."

serve_sandbox --memory --cluster-delay-ms 0 --nodegroup-delay-ms 0 --workload-delay-ms 500 || exit 1

export AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
export AWS_DEFAULT_REGION=us-west-2 AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL KUBECONFIG
awscli() { aws --endpoint-url "$url" --output text "$@"; }

# --- An EKS cluster in the sandbox.
sandbox_eks_cluster k8s 30 || { finish; exit 1; }
expect "the cluster endpoint is the sandbox's https endpoint" "$endpoint" "https://127.0.0.1:"
base_path=${endpoint#https://*/}  # clusters/k8s: --raw paths are relative to the host

# --- A kubeconfig as `aws eks update-kubeconfig` writes one, with the token `aws eks
# get-token` makes against the sandbox's STS (valid 15 minutes: longer than this test).
token=$(AWS_ENDPOINT_URL_STS="$url" aws eks get-token --cluster-name k8s --output json |
  python3 -c "import json,sys; print(json.load(sys.stdin)['status']['token'])")
expect "aws eks get-token" "$token" "k8s-aws-v1."
cat >"$work/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: k8s
  cluster:
    server: $endpoint
    certificate-authority-data: $ca_data
users:
- name: admin
  user:
    token: $token
contexts:
- name: k8s
  context: {cluster: k8s, user: admin}
current-context: k8s
EOF
export KUBECONFIG="$work/kubeconfig"
# A discovery cache of its own: kubectl keys it by host:port, and ports are reused.
k() { kubectl --cache-dir "$work/kube-cache" --request-timeout=20s "$@"; }

m="$work/manifests"
mkdir -p "$m"
cat >"$m/app.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: team
  labels: {app: x}
spec:
  replicas: 2
  selector:
    matchLabels: {app: x}
  template:
    metadata:
      labels: {app: x}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: team
  labels: {app: x}
data:
  mode: fast
EOF
cat >"$m/crd.yaml" <<'EOF'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              tags: {type: array, items: {type: string}}
EOF
cat >"$m/widget.yaml" <<'EOF'
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1, namespace: team, labels: {app: x}}
spec: {size: 3, tags: [a, b]}
EOF

# --- Discovery.
run "get --raw /apis" 0 k get --raw "/$base_path/apis" &&
  expect "/apis lists apps" "$out" '"name":"apps"'
run "get --raw /version" 0 k get --raw "/$base_path/version" && expect "version 1.31" "$out" '"minor":"31"'
run "api-resources" 0 k api-resources &&
  expect "api-resources: deployments" "$out" "deployments                         deploy       apps/v1" &&
  expect "api-resources: crds" "$out" "customresourcedefinitions           crd,crds     apiextensions.k8s.io/v1"
run "no alpha versions" 0 k api-versions && { grep -q alpha <<<"$out" && fail "alpha versions served: $out" || pass "no alpha version is served"; }

# --- Namespaces and server-side apply.
run "create namespace" 0 k create namespace team && expect "namespace created" "$out" "namespace/team created"
run "default namespaces" 0 k get namespaces -o name &&
  expect "kube-system exists" "$out" "namespace/kube-system" && expect "team exists" "$out" "namespace/team"
run "apply deployment + configmap" 0 k apply --server-side -f "$m/app.yaml" &&
  expect "deployment applied" "$out" "deployment.apps/web serverside-applied" &&
  expect "configmap applied" "$out" "configmap/settings serverside-applied"
run "apply crd" 0 k apply --server-side -f "$m/crd.yaml" &&
  expect "crd applied" "$out" "customresourcedefinition.apiextensions.k8s.io/widgets.example.com serverside-applied"
run "wait for Established" 0 k wait --for=condition=Established crd/widgets.example.com --timeout=10s &&
  expect "crd established" "$out" "condition met"
run "apply custom resource" 0 k apply --server-side -f "$m/widget.yaml" &&
  expect "widget applied" "$out" "widget.example.com/w1 serverside-applied"
run "get by short name" 0 k get wd -n team -o name && expect "widget listed" "$out" "widget.example.com/w1"

run "get -o yaml" 0 k get deployment web -n team -o yaml --show-managed-fields
expect "managedFields shown" "$out" "managedFields:"
expect "kubectl's Apply entry" "$out" "manager: kubectl"
expect "Apply operation" "$out" "operation: Apply"
expect "containers keyed by name" "$out" 'k:{"name":"nginx"}:'
expect "generation set" "$out" "generation: 1"
run "crd status" 0 k get crd widgets.example.com -o jsonpath='{.status.conditions[?(@.type=="Established")].status}' &&
  expect "Established True" "$out" "True"
run "namespace phase" 0 k get namespace team -o jsonpath='{.status.phase}' && expect "namespace Active" "$out" "Active"

# --- diff: 0 when equal, 1 with a change.
run "diff unchanged" 0 k diff --server-side -f "$m/app.yaml"
sed 's/mode: fast/mode: slow/' "$m/app.yaml" >"$m/app-changed.yaml"
run "diff changed" 1 k diff --server-side -f "$m/app-changed.yaml" && expect "diff shows the change" "$out" "+  mode: slow"

# --- A second field manager: conflict, then force.
cat >"$m/ops.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team}
data: {mode: turbo}
EOF
run "conflicting apply" 1 k apply --server-side --field-manager=ops -f "$m/ops.yaml"
expect "conflict names the owner and field" "$err" 'Apply failed with 1 conflict: conflict with "kubectl": .data.mode'
expect "conflict suggests force" "$err" "--force-conflicts"
run "forced apply" 0 k apply --server-side --field-manager=ops --force-conflicts -f "$m/ops.yaml"
run "forced value" 0 k get configmap settings -n team -o jsonpath='{.data.mode}' && expect "ops wins" "$out" "turbo"
run "kubectl now conflicts" 1 k apply --server-side -f "$m/app.yaml"
expect "the other way round" "$err" 'conflict with "ops": .data.mode'
run "kubectl scale" 0 k scale deployment/web -n team --replicas=4 && expect "scaled" "$out" "deployment.apps/web scaled"
run "scaled replicas" 0 k get deployment web -n team -o jsonpath='{.spec.replicas}/{.metadata.generation}' &&
  expect "replicas 4, generation 2" "$out" "4/2"

# --- A cluster that moves: nodes from a node group, a rollout that finishes, an Ingress's
# load balancer.
node_role=$(awscli iam create-role --role-name k8s-nodes --assume-role-policy-document "$trust" --query Role.Arn)
run "eks create-nodegroup" 0 awscli eks create-nodegroup --cluster-name k8s --nodegroup-name gpu \
  --node-role "$node_role" --subnets "$subnet_a" "$subnet_b" --instance-types g5.xlarge \
  --scaling-config minSize=1,maxSize=3,desiredSize=2 --labels role=ml \
  --taints key=nvidia.com/gpu,value=true,effect=NO_SCHEDULE --query nodegroup.status
run "get nodes" 0 k get nodes -l eks.amazonaws.com/nodegroup=gpu \
  -o jsonpath='{range .items[*]}{.status.capacity.nvidia\.com/gpu}/{.metadata.labels.role}/{.spec.taints[0].effect} {end}' &&
  expect "two GPU nodes, labelled and tainted" "$out" "1/ml/NoSchedule 1/ml/NoSchedule "
run "nodes Ready" 0 k wait --for=condition=Ready nodes -l eks.amazonaws.com/nodegroup=gpu --timeout=5s
run "wait Available" 0 k wait --for=condition=Available deploy/web -n team --timeout=10s &&
  expect "deployment available" "$out" "condition met"
run "rollout status" 0 k rollout status deploy/web -n team --timeout=10s &&
  expect "rolled out" "$out" "successfully rolled out"
run "ready replicas" 0 k get deploy web -n team -o jsonpath='{.status.readyReplicas}/{.status.observedGeneration}' &&
  expect "4 ready, generation 2 observed" "$out" "4/2"
cat >"$m/ingress.yaml" <<'EOF'
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: site, namespace: team}
spec:
  defaultBackend: {service: {name: web, port: {number: 80}}}
EOF
run "apply ingress" 0 k apply --server-side -f "$m/ingress.yaml"
run "ingress hostname" 0 k get ingress site -n team -o jsonpath='{.status.loadBalancer.ingress[0].hostname}' &&
  expect "an ALB host name" "$out" "k8s-team-site-" && expect "in the region" "$out" ".elb.us-west-2.amazonaws.com"

# --- Selectors and delete.
run "get -l app=x" 0 k get deployments,configmaps,widgets -n team -l app=x -o name
expect "selector: deployment" "$out" "deployment.apps/web"
expect "selector: widget" "$out" "widget.example.com/w1"
run "get -l app!=x" 0 k get configmaps -A -l 'app!=x' -o name
grep -q settings <<<"$out" && fail "app!=x selected settings" || pass "app!=x leaves settings out"
run "missing object" 1 k get configmap nope -n team && true
expect "missing object: NotFound" "$err" 'configmaps "nope" not found'
run "missing namespace refused" 1 k create configmap c -n nowhere
expect "missing namespace: NotFound" "$err" 'namespaces "nowhere" not found'
run "delete custom resource" 0 k delete -f "$m/widget.yaml" && expect "widget deleted" "$out" 'widget.example.com "w1" deleted'
run "delete apps" 0 k delete -f "$m/app.yaml" && expect "deployment deleted" "$out" 'deployment.apps "web" deleted'
run "nothing left" 0 k get deployments,configmaps -n team -o name && [ -z "$out" ] && pass "team is empty"

# --- kubectl 1.27 (OpenAPI v2 for field validation) through discovery and apply.
old="$(dirname "$(readlink -f "$(command -v gcloud 2>/dev/null)" 2>/dev/null)" 2>/dev/null)/kubectl.1.27"
if [ -x "$old" ]; then
  k127() { "$old" --cache-dir "$work/kube-cache-127" --request-timeout=20s "$@"; }
  run "1.27 api-resources" 0 k127 api-resources && expect "1.27 sees widgets" "$out" "widgets"
  run "1.27 apply" 0 k127 apply --server-side -f "$m/app.yaml" &&
    expect "1.27 applied" "$out" "deployment.apps/web serverside-applied"
  run "1.27 get" 0 k127 get configmap settings -n team -o jsonpath='{.data.mode}' && expect "1.27 reads back" "$out" "fast"
else
  echo "note: kubectl.1.27 not found beside gcloud; the old-client part is skipped"
fi

# --- Deleting the namespace takes what is in it; deleting the CRD its objects.
run "delete namespace" 0 k delete namespace team --timeout=10s
run "namespace gone" 1 k get namespace team
run "delete crd" 0 k delete crd widgets.example.com
run "widgets no longer served" 1 k get widgets -A

finish
