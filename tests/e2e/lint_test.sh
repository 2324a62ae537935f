#!/usr/bin/env bash
# End-to-end: `strata lint` (engine/lint). Every rule has a bad and a good fixture under
# tests/e2e/fixtures/lint/<rule>/: the bad one reports exactly that rule at the position its
# `expected` file names (rule file:line:col), the good one nothing; the human output of one is
# a golden file; validate shows findings as warnings (errors with -strict); lint.disable and
# `# lint:ignore`; the shipped examples are clean; and each mistake of the reference
# deployments (../shared/reference), planted into a copy of examples/kubeflow-eks (or of the
# example it belongs to), is reported by its rule at the line that holds it.
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
# fresh [EXAMPLE]: a clean copy of examples/EXAMPLE (default kubeflow-eks) and of modules/.
fresh() {
  local example=${1:-kubeflow-eks}
  rm -rf "$work/p" && mkdir -p "$work/p/examples"
  cp -r "$STRATA_SOURCE_DIR/examples/$example" "$work/p/examples/" && cp -r "$STRATA_SOURCE_DIR/modules" "$work/p/modules"
  rm -rf "$work/p/examples/$example/.strata"
  k="$work/p/examples/$example"
  m="$work/p/modules"
}
# plugin_affinity TYPES: places the copy's device plugin by instance type (the reference's
# affinity on a list of types, TYPES as written in a YAML flow list).
plugin_affinity() {
  python3 - "$m/nvidia-device-plugin/manifests/nvidia-device-plugin.yaml" "$1" <<'PY'
import sys
p, types = sys.argv[1], sys.argv[2]
s = open(p).read()
s = s.replace("      nodeSelector: ${node_selector}\n", """      nodeSelector: ${node_selector}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - { key: beta.kubernetes.io/instance-type, operator: In, values: [%s] }
""" % types, 1)
open(p, "w").write(s)
PY
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
# other-platforms 1: p3.4xlarge (no such type) in the device plugin's instance-type affinity.
fresh
plugin_affinity "p3.2xlarge, p3.4xlarge, p3.8xlarge"
planted "p3.4xlarge in the device plugin's affinity" "aws-unknown-instance-type ../../modules/nvidia-device-plugin/manifests/nvidia-device-plugin.yaml:23:97"
# other-platforms 1: the certificate and the user pool pasted into the KfDef, from two accounts.
fresh
sed -i -e 's|^      certificate_arn: ${stage.auth.certificate_arn}$|      certificate_arn: arn:aws:acm:us-west-2:111122223333:certificate/0f0e0d0c-0b0a-0908-0706-050403020100|' \
  -e 's|^      user_pool_arn: ${stage.auth.user_pool_arn}$|      user_pool_arn: arn:aws:cognito-idp:us-west-2:444455556666:userpool/us-west-2_AbCdEfGhI|' \
  -e 's|^      user_pool_client_id: ${stage.auth.user_pool_client_id}$|      user_pool_client_id: 1example23456789abcdefghij|' \
  -e 's|^      user_pool_domain: ${stage.auth.user_pool_domain}$|      user_pool_domain: kubeflow-auth.auth.us-west-2.amazoncognito.com|' "$k/04-kubeflow/main.yaml"
planted "Cognito and ACM values pasted into the KfDef, differing" "aws-pasted-arn-mismatch ../../modules/kubeflow/manifests/30-ingress-gateway.yaml:53:48"
# other-platforms 1: the handler's image in another account's eu-west-1 registry.
fresh
python3 - "$k/02-addons/main.yaml" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("    source: ../../../modules/node-termination-handler\n    inputs:\n", """    source: ../../../modules/node-termination-handler
    inputs:
      image: 999988887777.dkr.ecr.eu-west-1.amazonaws.com/spot-sig-handler:1.0
""", 1)
open(p, "w").write(s)
PY
planted "an image in another account's eu-west-1 registry" "k8s-image-foreign-registry ../../modules/node-termination-handler/manifests/node-termination-handler.yaml:67:18"
# other-platforms 1: the spot logger writes to the interruption queue from nodes allowed no
# sqs:SendMessage (and has no IRSA role of its own).
fresh
cat >>"$k/02-addons/main.yaml" <<'YAML'

resources:
  spot_logger:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: { name: spot-interrupt-logger, namespace: kube-system }
        spec:
          selector: { matchLabels: { app: spot-interrupt-logger } }
          template:
            metadata: { labels: { app: spot-interrupt-logger } }
            spec:
              containers:
                - name: logger
                  image: example/spot-interrupt-logger:1.0
                  env: [{ name: QUEUE_URL, value: "${module.node_termination_handler.queue_url}" }]
YAML
planted "no sqs:SendMessage for the nodes a queue writer runs on" "iam-missing-sqs-access 02-addons/main.yaml:67:25"
# other-platforms 1: group m5spot's file names cluster ml-us-west-2.
fresh
cat >>"$k/01-eks/main.yaml" <<'YAML'

resources:
  m5spot:
    type: aws_eks_node_group
    properties:
      cluster_name: ml-us-west-2
      node_group_name: m5spot
      node_role_arn: ${module.node_groups.node_role_arn}
      subnet_ids: ${module.vpc.private_subnet_ids}
      capacity_type: SPOT
      instance_types: [m5.2xlarge, m5.4xlarge]
      scaling_config: [{ min_size: 1, max_size: 50, desired_size: 1 }]
YAML
planted "a node group naming another cluster" "nodegroup-unknown-cluster 01-eks/main.yaml:89:21"
# other-platforms 1: two device plugins (Kubeflow's own beside the module's).
fresh
cat >>"$k/02-addons/main.yaml" <<'YAML'

resources:
  kubeflow_device_plugin:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: { name: kubeflow-nvidia-device-plugin, namespace: kube-system }
        spec:
          selector: { matchLabels: { name: kubeflow-nvidia-device-plugin } }
          template:
            metadata: { labels: { name: kubeflow-nvidia-device-plugin } }
            spec:
              containers: [{ name: nvidia-device-plugin-ctr, image: "nvcr.io/nvidia/k8s-device-plugin:v0.16.2" }]
YAML
planted "two device plugins" "k8s-duplicate-device-plugin ../../modules/nvidia-device-plugin/manifests/nvidia-device-plugin.yaml:21:18"
# other-platforms 3: the device plugin's own type list, naming p3dn.24xlarge, which no group launches.
fresh
plugin_affinity "p3.2xlarge, p3.8xlarge, p3dn.24xlarge"
planted "a device plugin type list drifting from the groups'" "k8s-instance-type-not-offered ../../modules/nvidia-device-plugin/manifests/nvidia-device-plugin.yaml:23:109"
# other-platforms 4: latest tags.
fresh
sed -i 's|^    inputs: {}$|    inputs: { image: "nvcr.io/nvidia/k8s-device-plugin:latest" }|' "$k/02-addons/main.yaml"
planted "an image tagged latest" "k8s-image-latest-tag ../../modules/nvidia-device-plugin/manifests/nvidia-device-plugin.yaml:21:18"
# other-platforms 2: the ECR pull-secret CronJob's aws ecr get-login.
fresh
cat >>"$k/02-addons/main.yaml" <<'YAML'

resources:
  ecr_cred:
    type: kubernetes_manifest
    properties:
      manifest:
        apiVersion: batch/v1
        kind: CronJob
        metadata: { name: ecr-cred, namespace: kube-system }
        spec:
          schedule: "0 */6 * * *"
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: OnFailure
                  containers:
                    - name: ecr-cred
                      image: amazon/aws-cli:2.17.0
                      command: [/bin/sh, -c, "$(aws ecr get-login --no-include-email)"]
YAML
planted "aws ecr get-login" "k8s-removed-aws-cli-command 02-addons/main.yaml:69:46"
# other-platforms 3: the deprecated SSM policy on the node role.
fresh
cat >>"$k/01-eks/main.yaml" <<'YAML'

resources:
  node_ssm:
    type: aws_iam_role_policy_attachment
    properties: { role: "${module.node_groups.node_role_name}", policy_arn: "arn:aws:iam::aws:policy/service-role/AmazonEC2RoleforSSM" }
YAML
planted "the deprecated SSM policy" "iam-deprecated-managed-policy 01-eks/main.yaml:88:77"
# other-platforms 4: an efs-ap StorageClass with no IAM to create access points (in a copy of
# examples/torchelastic-efs).
fresh torchelastic-efs
sed -i 's|^        provisioner: efs.csi.aws.com$|&\n        parameters: { provisioningMode: efs-ap, fileSystemId: fs-0123456789abcdef0 }|' "$k/03-storage/main.yaml"
planted "efs-ap with no IAM for access points" "iam-missing-efs-access-point 03-storage/main.yaml:41:41"
# other-platforms 2: a queue named outside the runners' QUEUE_MATCH (in a copy of
# examples/gpu-runners-queues).
fresh gpu-runners-queues
sed -i 's|^modules:$|  kmutch:\n    type: aws_sqs_queue\n    properties: { name: sqs_kmutch }\n\n&|' "$k/03-runners/main.yaml"
planted "a queue outside the runners' pattern" "sqs-queue-outside-match 03-runners/main.yaml:48:25"
fresh
sed -i 's|^  cluster_version: { value: "${module.eks.cluster_version}" }$|  version: { value: "${module.eks.cluster_version}" }|' "$k/01-eks/main.yaml"
run "planted: a cross-stage reference to an undeclared output" 1 bash -c "cd '$k' && '$STRATA' lint" &&
  expect "planted: undeclared output named" "$err" 'declares no output named "cluster_version"'

finish
