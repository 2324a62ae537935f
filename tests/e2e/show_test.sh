#!/usr/bin/env bash
# `strata show` of a stage's state (text and -json) and of a saved plan; data sources kept
# in state (listed, dropped when gone from config or on destroy, never destroyed through a
# provider); -json-events on plan/apply/destroy (Terraform's machine-readable UI). Where
# terraform is on PATH, the same resources as a Terraform configuration check the formats:
# `terraform show` text and `show -json` equal ours once ids and the provider's name are
# normalised, and each UI message type has the same keys.
source "$(dirname "$0")/lib.sh"
golden="$STRATA_SOURCE_DIR/tests/golden/show"
p="$work/p"
mkdir -p "$p/main" "$p/modules/m"
cat >"$p/strata.yaml" <<'YAML'
project: show
stages:
  - { name: main, path: main }
YAML
# The resources the Terraform oracle mirrors (main.tf below), then a data source.
resources_yaml='resources:
  a:
    type: terraform_data
    properties:
      input: hello
  b:
    type: terraform_data
    count: 2
    depends_on: [a]
    properties:
      input: { name: "x${count.index}", size: "${count.index}" }
  c:
    type: terraform_data
    properties:
      input: [p, q]
      triggers_replace: ${a.output}
modules:
  m:
    source: ../modules/m
outputs:
  o: { value: "${a.output}" }
  s: { value: secret, sensitive: true }
  m: { value: { a: 1, b: x, c-d: [true] } }
  l: { value: "${c.output}" }'
data_yaml='data:
  f:
    type: local_file
    properties: { filename: strata.yaml }'
printf '%s\n%s\n' "$resources_yaml" "$data_yaml" >"$p/main/main.yaml"
cat >"$p/modules/m/main.yaml" <<'YAML'
resources:
  c:
    type: terraform_data
    properties:
      input: 3
YAML
cd "$p" || exit 1
uuid='[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
normalise() { sed -E "s/$uuid/UUID/g; s/\"elapsed_seconds\":[0-9]+/\"elapsed_seconds\":N/g; s/after [0-9]+s/after Ns/g"; }
check_golden() {
  local name=$1 actual=$2
  if [ -n "${UPDATE_GOLDEN:-}" ]; then printf '%s\n' "$actual" >"$golden/$name"; fi
  if diff -u "$golden/$name" <(printf '%s\n' "$actual") >"$work/diff"; then pass "golden $name"; else
    fail "golden $name differs:"; cat "$work/diff"; fi
}
# jsonl NAME FILE: every line of FILE is one JSON object with Terraform's UI keys.
jsonl() {
  if python3 - "$2" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no messages"
for n, line in enumerate(lines, 1):
    m = json.loads(line)
    for k in ("@level", "@message", "@module", "@timestamp", "type"):
        assert k in m, f"line {n}: no {k}: {line}"
    assert m["@module"] == "strata.ui", line
    assert m["@timestamp"] == "2026-01-02T03:04:05.000000Z", f"line {n}: the fixed clock was not used: {line}"
assert json.loads(lines[0])["type"] == "version", "the first message is not the version"
PY
  then pass "$1: one JSON message per line"; else fail "$1: not a JSON message per line"; fi
}
export STRATA_UI_TIME=2026-01-02T03:04:05Z

run init 0 "$STRATA" init
run "show before apply" 0 "$STRATA" show && expect "no state yet" "$out" "No state."
run "show -json before apply" 0 "$STRATA" show -json
[ "$out" = '{"format_version":"1.0"}' ] && pass "an empty state is format_version alone" || fail "empty state JSON: $out"

# -json-events on plan and apply.
run "plan -json-events" 0 "$STRATA" plan -json-events
printf '%s\n' "$out" >"$work/plan.events" && jsonl "plan -json-events" "$work/plan.events"
check_golden plan_events.jsonl "$(normalise <"$work/plan.events")"
run "apply -json-events needs -auto-approve" 1 "$STRATA" apply -json-events
expect "says why" "$out" '"summary":"No confirmation possible"'
run "-json with -json-events" 1 "$STRATA" plan -json -json-events
expect "they conflict" "$err" "Conflicting flags"
run "apply -json-events" 0 "$STRATA" apply -json-events -auto-approve
printf '%s\n' "$out" >"$work/apply.events" && jsonl "apply -json-events" "$work/apply.events"
# The apply's messages come in the order the walk runs them: compared sorted.
check_golden apply_events.jsonl "$(normalise <"$work/apply.events" | LC_ALL=C sort)"

# show of the state: the text and the JSON.
run "show" 0 "$STRATA" show -no-color && check_golden state.txt "$(normalise <<<"$out")"
expect "a sensitive output is masked" "$out" "s = (sensitive value)"
expect "the data source is in state" "$out" '# data.local_file.f:'
run "show -json" 0 "$STRATA" show -json
printf '%s\n' "$out" >"$work/strata.json"
check() {  # check NAME PYTHON-EXPR over the document `d`
  if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$work/strata.json"; then
    pass "$1"
  else fail "$1"; fi
}
rm_="d['values']['root_module']"
check "format 1.0" "d['format_version'] == '1.0' and d['terraform_version'] == '1.11.0'"
check "data sources have mode data" "[r['mode'] for r in $rm_['resources'] if r['address'] == 'data.local_file.f'] == ['data']"
check "depends_on" "[r['depends_on'] for r in $rm_['resources'] if r['address'] == 'terraform_data.b[0]'] == [['terraform_data.a']]"
check "index" "[r['index'] for r in $rm_['resources'] if r['name'] == 'b'] == [0, 1]"
check "child modules" "$rm_['child_modules'][0]['address'] == 'module.m'"
check "outputs with sensitive and type" "d['values']['outputs']['s'] == {'sensitive': True, 'value': 'secret', 'type': 'string'}"

# show of a saved plan: what plan printed, and plan -json's document.
sed -i 's/input: hello/input: changed/' main/main.yaml
run "plan -out" 0 "$STRATA" plan -no-color -out=saved.plan
plan_text=$(sed -n '/^Strata used/,/^Plan:/p' <<<"$out")
run "show PLANFILE" 0 "$STRATA" show -no-color saved.plan
[ "$(sed -n '/^Strata used/,/^Plan:/p' <<<"$out")" = "$plan_text" ] && pass "show PLANFILE prints the plan" ||
  fail "show PLANFILE differs from plan: $out"
run "plan -json" 0 "$STRATA" plan -json
printf '%s\n' "$out" >"$work/plan.json"
run "show PLANFILE -json" 0 "$STRATA" show -json saved.plan
printf '%s\n' "$out" >"$work/show-plan.json"
if python3 - "$work/plan.json" "$work/show-plan.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b):
    d.pop("timestamp")
sys.exit(0 if a == b else 1)
PY
then pass "show PLANFILE -json is plan -json's document"; else fail "show PLANFILE -json differs from plan -json"; fi
run "show a missing plan file" 1 "$STRATA" show nothing.plan
expect "names what it is not" "$err" "\"nothing.plan\" is neither a stage of project show (its stages: main) nor a plan file"
sed -i 's/input: changed/input: hello/' main/main.yaml

# A data source gone from config leaves state at the next apply, without a destroy.
printf '%s\n' "$resources_yaml" >main/main.yaml
run "plan without the data source" 0 "$STRATA" plan -no-color
expect "nothing to do" "$out" "No changes."
run "apply without the data source" 0 "$STRATA" apply -auto-approve
run "state list" 0 "$STRATA" state list
if grep -q "data.local_file.f" <<<"$out"; then fail "the removed data source is still in state"; else
  pass "the removed data source left state"; fi
printf '%s\n%s\n' "$resources_yaml" "$data_yaml" >main/main.yaml
run "apply with it again" 0 "$STRATA" apply -auto-approve
run "apply again" 0 "$STRATA" apply -auto-approve
run "state history" 0 "$STRATA" state history
[ "$(grep -c apply <<<"$out")" = 3 ] && pass "an apply that changes nothing keeps the serial" ||
  fail "serials: $out"

# Destroy drops the data sources, and says so in its events.
run "destroy -json-events" 0 "$STRATA" destroy -json-events -auto-approve
printf '%s\n' "$out" >"$work/destroy.events" && jsonl "destroy -json-events" "$work/destroy.events"
expect "the destroy's summary" "$out" '"changes":{"add":0,"change":0,"import":0,"remove":5,"operation":"destroy"}'
run "show after destroy" 0 "$STRATA" show
expect "empty" "$out" "The state file is empty."

# A failed create: apply_errored, then the diagnostic naming the address, and (as
# Terraform) no change_summary.
mkdir -p "$work/bad/main"
printf 'project: bad\nstages:\n  - { name: main, path: main }\n' >"$work/bad/strata.yaml"
cat >"$work/bad/main/main.yaml" <<'YAML'
resources:
  bad:
    type: local_file
    properties: { filename: strata.yaml/inside, content: x }
YAML
run "a failing apply -json-events" 1 "$STRATA" -chdir="$work/bad" apply -json-events -auto-approve
printf '%s\n' "$out" >"$work/bad.events" && jsonl "a failing apply -json-events" "$work/bad.events"
if python3 - "$work/bad.events" <<'PY'
import json, sys
msgs = [json.loads(l) for l in open(sys.argv[1])]
types = [m["type"] for m in msgs]
errored = [m for m in msgs if m["type"] == "apply_errored"]
diag = [m for m in msgs if m["type"] == "diagnostic"]
assert len(errored) == 1 and errored[0]["hook"]["resource"]["addr"] == "local_file.bad", types
assert errored[0]["@message"] == "local_file.bad: Creation errored after 0s", errored
assert errored[0]["hook"]["action"] == "create" and "elapsed_seconds" in errored[0]["hook"], errored
assert types.index("diagnostic") > types.index("apply_errored"), types
assert diag[0]["@level"] == "error" and diag[0]["diagnostic"]["address"] == "local_file.bad", diag
assert types[-1] == "diagnostic" and types.count("change_summary") == 1, types  # the plan's only
PY
then pass "a failure is apply_errored and a diagnostic, as Terraform"; else fail "a failure's messages"; fi

# Secrets sealed with the state key: the text masks them and needs no key; the JSON holds
# them in clear, as Terraform's, so it needs the key and says so.
mkdir -p "$work/sealed/main"
printf 'project: sealed\nstages:\n  - { name: main, path: main }\n' >"$work/sealed/strata.yaml"
cat >"$work/sealed/main/main.yaml" <<'YAML'
resources:
  a:
    type: terraform_data
    properties: { input: "${sensitive(\"pw-0451\")}" }
YAML
key=$(openssl rand -base64 32)
STRATA_STATE_KEY=$key run "apply with a state key" 0 "$STRATA" -chdir="$work/sealed" apply -auto-approve
run "show without the key" 0 "$STRATA" -chdir="$work/sealed" show
expect "masks the secret" "$out" "input  = (sensitive value)"
if grep -q "pw-0451" <<<"$out"; then fail "show printed the secret"; else pass "show never prints the secret"; fi
run "show -json without the key" 1 "$STRATA" -chdir="$work/sealed" show -json
expect "names the missing key" "$out" "State encryption key missing"
STRATA_STATE_KEY=$key run "show -json with the key" 0 "$STRATA" -chdir="$work/sealed" show -json
expect "flags the secret" "$out" '"sensitive_values":{"input":true,"output":true}'

if command -v terraform >/dev/null 2>&1; then
  export TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
  mkdir -p "$work/tf/m"
  cat >"$work/tf/main.tf" <<'HCL'
resource "terraform_data" "a" {
  input = "hello"
}
resource "terraform_data" "b" {
  count      = 2
  input      = { name = "x${count.index}", size = count.index }
  depends_on = [terraform_data.a]
}
resource "terraform_data" "c" {
  input            = ["p", "q"]
  triggers_replace = terraform_data.a.output
}
module "m" {
  source = "./m"
}
output "o" {
  value = terraform_data.a.output
}
output "s" {
  value     = "secret"
  sensitive = true
}
output "m" {
  value = { a = 1, b = "x", "c-d" = [true] }
}
output "l" {
  value = terraform_data.c.output
}
HCL
  echo 'resource "terraform_data" "c" { input = 3 }' >"$work/tf/m/main.tf"
  (cd "$work/tf" && terraform init -input=false >/dev/null 2>&1 &&
    terraform apply -json -auto-approve >"$work/tf.events" 2>/dev/null &&
    terraform show -no-color >"$work/tf.txt" 2>/dev/null && terraform show -json >"$work/tf.json" 2>/dev/null) ||
    fail "terraform could not apply the oracle configuration"
  printf '%s\n' "$resources_yaml" >main/main.yaml
  run "apply for the oracle" 0 "$STRATA" apply -auto-approve
  run "show for the oracle" 0 "$STRATA" show -no-color
  if diff -u <(normalise <"$work/tf.txt") <(normalise <<<"$out") >"$work/diff"; then
    pass "show's text is terraform show's"; else fail "show's text differs from terraform show's:"; cat "$work/diff"; fi
  run "show -json for the oracle" 0 "$STRATA" show -json
  printf '%s\n' "$out" >"$work/strata.json"
  if python3 - "$work/tf.json" "$work/strata.json" <<'PY'
import json, re, sys
def norm(path):  # ids and the provider's name normalised, versions left out; key order kept
    text = re.sub(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'UUID', open(path).read())
    text = text.replace('terraform.io/builtin/terraform', 'PROVIDER').replace('strata/builtin', 'PROVIDER')
    d = json.loads(text)
    for k in ('terraform_version', 'strata_version'):
        d.pop(k, None)
    return json.dumps(d, indent=1)
a, b = norm(sys.argv[1]), norm(sys.argv[2])
if a != b:
    import difflib
    print('\n'.join(difflib.unified_diff(a.splitlines(), b.splitlines(), 'terraform', 'strata', lineterm='')))
sys.exit(0 if a == b else 1)
PY
  then pass "show -json is terraform show -json's (keys in its order)"; else fail "show -json differs from terraform's"; fi
  if python3 - "$work/tf.events" "$work/apply.events" <<'PY'
import json, sys
def shapes(path):  # message type -> every key path in its messages
    out = {}
    def keys(o, prefix):
        if not isinstance(o, dict):
            return []
        r = []
        for k, v in o.items():
            r.append(prefix + k)
            if k != 'outputs':  # keyed by output name
                r += keys(v, prefix + k + '.')
        return r
    for line in open(path):
        m = json.loads(line)
        out.setdefault(m['type'], set()).update(keys(m, ''))
    return out
theirs, ours = shapes(sys.argv[1]), shapes(sys.argv[2])
ours['version'].discard('strata')  # ours names Strata's version beside the format's
bad = [t for t in theirs if theirs[t] != ours.get(t)]
for t in bad:
    print(t, 'terraform:', sorted(theirs[t]), 'strata:', sorted(ours.get(t, [])))
sys.exit(1 if bad else 0)
PY
  then pass "each -json-events message type has terraform apply -json's keys"; else fail "UI messages differ from terraform's"; fi
else
  echo "terraform is not on PATH: the oracle comparisons are skipped"
fi
finish
