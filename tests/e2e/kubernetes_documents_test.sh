#!/usr/bin/env bash
# End-to-end: for_each = kubernetes_documents(...) makes one instance per Kubernetes object,
# keyed by <group>/<Kind>/<namespace>/<name> (terraform_data stands in for
# kubernetes_manifest until that provider exists): the plan's addresses (golden file),
# -target and state commands with those keys, a removed document planned as a destroy,
# the errors a user meets through the CLI, and a directory of 500 documents.
source "$(dirname "$0")/lib.sh"
golden="$STRATA_SOURCE_DIR/tests/golden/e2e"
check_golden() {
  local name=$1 actual=$2
  if [ -n "${UPDATE_GOLDEN:-}" ]; then printf '%s\n' "$actual" >"$golden/$name"; fi
  if diff -u "$golden/$name" <(printf '%s\n' "$actual") >"$work/diff"; then pass "golden $name"; else
    fail "golden $name differs:"; cat "$work/diff"; fi
}

p="$work/p"
mkdir -p "$p/addons/manifests"
cat >"$p/strata.yaml" <<'YAML'
project: k8s-documents
stages:
  - { name: addons, path: addons }
YAML
cat >"$p/addons/main.yaml" <<'YAML'
variables:
  cluster_name: { type: string, default: kubeflow }
resources:
  autoscaler:
    type: terraform_data
    for_each: ${kubernetes_documents("manifests/autoscaler.yaml", { cluster_name = var.cluster_name })}
    properties:
      input: ${each.value}
outputs:
  objects: { value: "${keys(autoscaler)}" }
YAML
cat >"$p/addons/manifests/autoscaler.yaml" <<'YAML'
---
# The cluster-autoscaler of the reference deployment, abridged.
apiVersion: v1
kind: ServiceAccount
metadata:
  name: cluster-autoscaler
  namespace: kube-system
---
# (a document of comments only is skipped)
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: cluster-autoscaler
rules:
  - apiGroups: [autoscaling]
    resources: [horizontalpodautoscalers]
    verbs: [watch, list, get]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cluster-autoscaler
  namespace: kube-system
spec:
  template:
    spec:
      containers:
        - name: cluster-autoscaler
          command:
            - ./cluster-autoscaler
            - --node-group-auto-discovery=asg:tag=k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/${cluster_name}
YAML
cd "$p" || exit 1
deployment='terraform_data.autoscaler["apps/Deployment/kube-system/cluster-autoscaler"]'
role='terraform_data.autoscaler["rbac.authorization.k8s.io/ClusterRole//cluster-autoscaler"]'

run init 0 "$STRATA" init
run plan 0 "$STRATA" plan -no-color && check_golden kubernetes_documents_plan.txt "$out"
run plan-target 0 "$STRATA" plan -no-color "-target=$deployment" &&
  expect "-target takes a document's key" "$out" "Plan: 1 to add, 0 to change, 0 to destroy." &&
  expect "-target plans that object" "$out" "# $deployment will be created"
run apply 0 "$STRATA" apply -auto-approve -no-color
run state-list 0 "$STRATA" state list && expect "state lists the keyed instances" "$out" "$role"
run state-show 0 "$STRATA" state show "$deployment" && expect "state show takes the key" "$out" 'kind       = "Deployment"'
run plan-clean 0 "$STRATA" plan -no-color && expect "a second plan has nothing to do" "$out" "No changes."

# Removing a document from the file plans the destroy of that object alone.
python3 - "$p/addons/manifests/autoscaler.yaml" <<'PY'
import sys
path = sys.argv[1]
docs = open(path).read().split("---\n")
open(path, "w").write("---\n".join(d for d in docs if "kind: ClusterRole" not in d))
PY
run plan-removed 0 "$STRATA" plan -no-color && expect "a removed document is one destroy" "$out" "Plan: 0 to add, 0 to change, 1 to destroy." &&
  expect "the removed object's address" "$out" "# $role will be destroyed"

# Two objects with one identity: the error names both places.
cat >"$p/addons/manifests/again.yaml" <<'YAML'
# the same ServiceAccount again
apiVersion: v1
kind: ServiceAccount
metadata: { name: cluster-autoscaler, namespace: kube-system }
YAML
sed -i 's|"manifests/autoscaler.yaml"|"manifests"|' "$p/addons/main.yaml"
run duplicate 1 "$STRATA" plan -no-color &&
  expect "duplicate names the second place" "$err" "autoscaler.yaml:3:1: core/ServiceAccount/kube-system/cluster-autoscaler appears a second time (first at" &&
  expect "duplicate names the first place" "$err" "again.yaml:2:1)"
rm "$p/addons/manifests/again.yaml"

# A manifest dropped into the stage directory, beside the module files.
cp "$p/addons/manifests/autoscaler.yaml" "$p/addons/autoscaler.yaml"
run manifest-in-stage 1 "$STRATA" validate -no-color &&
  expect "a manifest among module files is named as one" "$err" "on addons/autoscaler.yaml:1:1:" &&
  expect "and told where it belongs" "$err" "This looks like a Kubernetes manifest (apiVersion/kind), not a Strata module file; put manifests in a subdirectory such as manifests/ and read them with kubernetes_documents(...)."
if grep -q "is not expected" <<<"$err"; then fail "no 'is not expected' for a manifest's keys"; else pass "no 'is not expected' for a manifest's keys"; fi
rm "$p/addons/autoscaler.yaml"

# 500 documents in 50 files: one plan of 500 instances.
big="$work/big"
mkdir -p "$big/app/manifests"
printf 'project: big\nstages:\n  - { name: app, path: app }\n' >"$big/strata.yaml"
cat >"$big/app/main.yaml" <<'YAML'
resources:
  objects:
    type: terraform_data
    for_each: ${kubernetes_documents("manifests", { namespace = "apps" })}
    properties:
      input: ${each.value.metadata.name}
YAML
python3 - "$big/app/manifests" <<'PY'
import sys
for f in range(50):
    with open(f"{sys.argv[1]}/{f:02d}.yaml", "w") as out:
        for d in range(10):
            n = f * 10 + d
            out.write(f"""---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-{n}
  namespace: ${{namespace}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: app-{n}}}}}
  template:
    metadata: {{labels: {{app: app-{n}}}}}
    spec:
      containers:
        - {{name: main, image: "registry.k8s.io/app:1.0", args: [--a=1], ports: [{{containerPort: 8080}}]}}
      volumes: [{{name: config, configMap: {{name: cfg, defaultMode: 0644}}}}]
""")
PY
start=$(date +%s%N)
run big-plan 0 "$STRATA" -chdir="$big" plan -no-color && expect "500 documents, 500 instances" "$out" "Plan: 500 to add, 0 to change, 0 to destroy." &&
  expect "keyed by identity" "$out" 'terraform_data.objects["apps/Deployment/apps/app-499"] will be created'
echo "     (plan of 500 documents: $(( ($(date +%s%N) - start) / 1000000 )) ms)"

finish
