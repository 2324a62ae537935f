#!/usr/bin/env bash
# End-to-end: `strata lint` (engine/lint). Every rule has a bad and a good fixture under
# tests/e2e/fixtures/lint/<rule>/: the bad one reports exactly that rule at the position its
# `expected` file names (rule file:line:col), the good one nothing; the human output of one is
# a golden file; validate shows findings as warnings (errors with -strict); lint.disable and
# `# lint:ignore`; the shipped examples are clean; and each mistake of the reference
# deployments (../shared/reference), planted into a copy of examples/kubeflow-eks, is
# reported by its rule at the line that holds it.
source "$(dirname "$0")/lib.sh"
fixtures="$STRATA_SOURCE_DIR/tests/e2e/fixtures/lint"
golden="$STRATA_SOURCE_DIR/tests/golden/e2e"

# findings DIR [ARGS...]: "rule file:line:col" per finding of `strata lint -json` in DIR.
findings() {
  local dir=$1
  shift
  (cd "$dir" && "$STRATA" lint -json "$@") | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    print(f["rule"], "%s:%d:%d" % (f["file"], f["line"], f["column"]))'
}

# One bad and one good fixture per rule.
for dir in "$fixtures"/*/; do
  rule=$(basename "$dir")
  expected=$(cat "$dir/bad/expected")
  actual=$(findings "$dir/bad")
  if [ "$actual" = "$expected" ]; then pass "$rule: bad fixture reports $expected"; else
    fail "$rule: bad fixture reports [$actual], expected [$expected]"; fi
  severity=$(cd "$dir/bad" && "$STRATA" lint -json | python3 -c 'import json,sys; print(json.load(sys.stdin)["findings"][0]["severity"])')
  code=0; (cd "$dir/bad" && "$STRATA" lint >/dev/null 2>&1) || code=$?
  if { [ "$severity" = error ] && [ $code = 1 ]; } || { [ "$severity" = warning ] && [ $code = 0 ]; }; then
    pass "$rule: exit $code for a $severity"; else fail "$rule: exit $code for a $severity"; fi
  if run "$rule: good fixture" 0 bash -c "cd '$dir/good' && '$STRATA' lint"; then expect "$rule: good fixture is clean" "$out" "No lint findings"; fi
done

# The README's rules table lists every rule that has fixtures, and no other.
readme_rules=$(grep -o '^| `[a-z0-9-]*` | \(error\|warning\) |' "$STRATA_SOURCE_DIR/README.md" | cut -d'`' -f2 | sort)
fixture_rules=$(ls "$fixtures" | sort)
if [ "$readme_rules" = "$fixture_rules" ]; then pass "README's rules table = the fixtures' rules"; else
  fail "README's rules table differs from tests/e2e/fixtures/lint: $(diff <(echo "$readme_rules") <(echo "$fixture_rules") | tr '\n' ' ')"; fi

# Typed kubernetes_* resources in the pod-spec rules (Terraform's shape: host_port,
# service_account_name), reported at their lines.
actual=$(findings "$STRATA_SOURCE_DIR/tests/e2e/fixtures/lint-typed")
expected=$'k8s-undeclared-service-account s1/main.yaml:29:41\nk8s-hostport-conflict s1/main.yaml:33:65'
if [ "$actual" = "$expected" ]; then pass "typed resources: host port and service account"; else
  fail "typed resources: [$actual], expected [$expected]"; fi

# The human output, byte for byte.
out=$(cd "$fixtures/k8s-duplicate-object/bad" && "$STRATA" lint 2>&1)
if [ -n "${UPDATE_GOLDEN:-}" ]; then printf '%s\n' "$out" >"$golden/lint_human.txt"; fi
if diff -u "$golden/lint_human.txt" <(printf '%s\n' "$out") >"$work/diff"; then pass "golden lint_human.txt"; else
  fail "golden lint_human.txt differs:"; cat "$work/diff"; fi

# lint STAGE reports that stage's findings only; -all and a stage together are refused.
run "lint one (the finding is in stage two)" 0 bash -c "cd '$fixtures/k8s-duplicate-object/bad' && '$STRATA' lint one" &&
  expect "lint one: nothing" "$out" "No lint findings (1 stage)"
run "lint two" 1 bash -c "cd '$fixtures/k8s-duplicate-object/bad' && '$STRATA' lint two" &&
  expect "lint two: the duplicate" "$out" "k8s-duplicate-object"
run "lint -all" 1 bash -c "cd '$fixtures/k8s-duplicate-object/bad' && '$STRATA' lint -all"
run "lint -all two" 1 bash -c "cd '$fixtures/k8s-duplicate-object/bad' && '$STRATA' lint -all two" &&
  expect "lint -all two: refused" "$err" "not both"

# validate: warnings, errors with -strict.
run "validate: a lint error is a warning" 0 bash -c "cd '$fixtures/k8s-duplicate-object/bad' && '$STRATA' validate" &&
  expect "validate: the warning" "$err" "Warning: k8s-duplicate-object: ClusterRoleBinding/admins"
run "validate -strict: an error" 1 bash -c "cd '$fixtures/k8s-duplicate-object/bad' && '$STRATA' validate -strict" &&
  expect "validate -strict: the error" "$err" "Error: k8s-duplicate-object"
run "validate -strict: a warning stays one" 0 bash -c "cd '$fixtures/k8s-static-aws-keys/bad' && '$STRATA' validate -strict"

# lint: { disable: [...] } and # lint:ignore.
cp -r "$fixtures/k8s-duplicate-object/bad" "$work/disabled"
printf 'lint: { disable: [k8s-duplicate-object] }\n' >>"$work/disabled/strata.yaml"
run "lint.disable" 0 bash -c "cd '$work/disabled' && '$STRATA' lint" && expect "lint.disable: silent" "$out" "No lint findings"
cp -r "$fixtures/k8s-duplicate-object/bad" "$work/unknown"
printf 'lint:\n  disable: [k8s-duplicate-objects]\n' >>"$work/unknown/strata.yaml"
run "lint.disable: an unknown rule" 1 bash -c "cd '$work/unknown' && '$STRATA' lint" &&
  expect "lint.disable: the unknown rule's line" "$err" "strata.yaml:6:13" &&
  expect "lint.disable: what it says" "$err" 'lint.disable names "k8s-duplicate-objects", which is no rule'
cp -r "$fixtures/k8s-duplicate-object/bad" "$work/badsetting"
printf 'lint: [k8s-duplicate-object]\n' >>"$work/badsetting/strata.yaml"
run "lint: not a mapping" 1 bash -c "cd '$work/badsetting' && '$STRATA' lint" &&
  expect "lint: not a mapping, said" "$err" "lint must be a mapping such as { disable: [k8s-deprecated-api] }"
sed -i 's|^lint: .*|lint: { enable: [x] }|' "$work/badsetting/strata.yaml"
run "lint: an unknown key" 1 bash -c "cd '$work/badsetting' && '$STRATA' validate" &&
  expect "lint: an unknown key, said" "$err" '"enable" is not expected in the lint settings'
cp -r "$fixtures/k8s-duplicate-object/bad" "$work/ignored"
sed -i 's|^  name: admins$|  name: admins  # lint:ignore k8s-duplicate-object|' "$work/ignored/s2/manifests/rbac.yaml"
run "lint:ignore" 0 bash -c "cd '$work/ignored' && '$STRATA' lint" && expect "lint:ignore: silent" "$out" "No lint findings"

# The shipped examples are clean (modules/ runs every module's example call).
for project in "$STRATA_SOURCE_DIR"/examples/*/strata.yaml "$STRATA_SOURCE_DIR/modules/strata.yaml"; do
  dir=$(dirname "$project")
  name=${dir#"$STRATA_SOURCE_DIR"/}
  if run "lint $name" 0 bash -c "cd '$dir' && '$STRATA' lint"; then expect "$name is clean" "$out" "No lint findings"; fi
done

# The reference deployments' mistakes, planted one at a time into a copy of the flagship.
fresh() {
  rm -rf "$work/p" && mkdir -p "$work/p/examples"
  cp -r "$STRATA_SOURCE_DIR/examples/kubeflow-eks" "$work/p/examples/" && cp -r "$STRATA_SOURCE_DIR/modules" "$work/p/modules"
  rm -rf "$work/p/examples/kubeflow-eks/.strata"
  k="$work/p/examples/kubeflow-eks"
  m="$work/p/modules"
}
# planted NAME EXPECTED: every finding is EXPECTED's rule, the first at EXPECTED's position.
planted() {
  local actual
  actual=$(findings "$k")
  local rules
  rules=$(awk '{print $1}' <<<"$actual" | sort -u)
  if [ "$rules" = "${2%% *}" ] && [ "$(head -1 <<<"$actual")" = "$2" ]; then pass "planted: $1"; else
    fail "planted: $1: [$actual], expected [$2]"; fi
}
fresh
sed -i 's|priority = 40 })}|priority = 40, labels = { "aws.amazon.com/spot" = "true" } })}|' "$k/01-eks/main.yaml"
planted "spot label on an on-demand GPU group" "nodegroup-spot-on-ondemand ../../modules/node-groups/node-groups.yaml:99:17"
fresh
sed -i 's|^      version: ${var.kubernetes_version}$|      version: "1.29"|' "$m/node-groups/node-groups.yaml"
planted "node groups older than the cluster" "nodegroup-version-older ../../modules/node-groups/node-groups.yaml:90:16"
fresh
sed -i 's|^apiVersion: apps/v1$|apiVersion: apps/v1beta2|' "$m/nvidia-device-plugin/manifests/nvidia-device-plugin.yaml"
planted "apps/v1beta2 device plugin" "k8s-deprecated-api ../../modules/nvidia-device-plugin/manifests/nvidia-device-plugin.yaml:3:13"
fresh
sed -i 's|asg:tag=k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/${cluster_name}|asg:tag=k8s.io/cluster-autoscaler/enabled|' \
  "$m/cluster-autoscaler/manifests/cluster-autoscaler.yaml"
planted "discovery on the enabled tag alone" "autoscaler-discovery ../../modules/cluster-autoscaler/manifests/cluster-autoscaler.yaml:137:15"
fresh
python3 - "$k/03-auth/main.yaml" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("resources:\n", """resources:
  placeholder:
    type: aws_route53_record
    properties: { zone_id: "${module.auth.zone_id}", name: "${module.auth.host}", type: CNAME, ttl: 5, records: [placeholder.example.com] }
""", 1)
open(p, "w").write(s)
PY
planted "a DNS record managed by two stages" "route53-duplicate-record 05-dns/main.yaml:57:15"
fresh
cat >>"$k/06-dashboard/main.yaml" <<'YAML'

resources:
  admin_binding:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRoleBinding
        metadata: { name: kubernetes-dashboard }
        roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin }
        subjects: [{ kind: ServiceAccount, name: kubernetes-dashboard, namespace: kubernetes-dashboard }]
YAML
planted "two ClusterRoleBindings of one name" "k8s-duplicate-object ../../modules/dashboard/manifests/dashboard.yaml:95:9"
fresh
cat >>"$k/06-dashboard/main.yaml" <<'YAML'

resources:
  runner_keys:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: v1
        kind: Secret
        metadata: { name: studioml-runner-aws-sqs, namespace: kubernetes-dashboard }
        stringData: { AWS_ACCESS_KEY_ID: AKIAEXAMPLE }
YAML
planted "static AWS keys in a Secret" "k8s-static-aws-keys 06-dashboard/main.yaml:28:23"
fresh
for stage in 02-addons 06-dashboard; do
  cat >>"$k/$stage/main.yaml" <<'YAML'

resources:
  node_exporter:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: { name: node-exporter, namespace: kube-system }
        spec:
          selector: { matchLabels: { app: node-exporter } }
          template:
            metadata: { labels: { app: node-exporter } }
            spec:
              containers: [{ name: exporter, image: "example/node-exporter:1.8", ports: [{ containerPort: 9100, hostPort: 9100 }] }]
YAML
done
sed -i 's|name: node-exporter, namespace|name: node-metrics, namespace|' "$k/06-dashboard/main.yaml"
planted "two DaemonSets on one host port" "k8s-hostport-conflict 06-dashboard/main.yaml:33:123"
fresh
sed -i 's|^  cluster_version: { value: "${module.eks.cluster_version}" }$|  version: { value: "${module.eks.cluster_version}" }|' "$k/01-eks/main.yaml"
run "planted: a cross-stage reference to an undeclared output" 1 bash -c "cd '$k' && '$STRATA' lint" &&
  expect "planted: undeclared output named" "$err" 'declares no output named "cluster_version"'

finish
