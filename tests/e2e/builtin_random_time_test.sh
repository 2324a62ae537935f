#!/usr/bin/env bash
# End-to-end: random_integer, random_uuid, random_shuffle, random_pet, time_static and
# time_rotating through the real binary — create, a clean re-plan, a keepers/triggers
# change replacing exactly that resource — and their schemas in `providers schema -json`.
# (Rotation past its time is tested with a fake clock in tests/unit/core.)
source "$(dirname "$0")/lib.sh"
p="$work/p"
mkdir -p "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: e2e
stages:
  - { name: app, path: app }
YAML
write_config() {  # write_config GENERATION
  cat >"$p/app/main.yaml" <<YAML
resources:
  port:
    type: random_integer
    properties: { min: 30000, max: 32767, keepers: { generation: "$1" } }
  seeded:
    type: random_integer
    properties: { min: 1, max: 1000000, seed: fixed }
  token:
    type: random_uuid
  zones:
    type: random_shuffle
    properties: { input: [a, b, c], result_count: 2 }
  name:
    type: random_pet
    properties: { prefix: gpu, length: 3 }
  created:
    type: time_static
  rotation:
    type: time_rotating
    properties: { rotation_days: 30, triggers: { generation: "$1" } }
outputs:
  port: { value: "\${port.result}" }
  seeded: { value: "\${seeded.result}" }
  token: { value: "\${token.result}" }
  zones: { value: "\${zones.result}" }
  name: { value: "\${name.id}" }
  year: { value: "\${created.year}" }
  rotates: { value: "\${rotation.rotation_rfc3339}" }
YAML
}
write_config 1
cd "$p" || exit 1
run init 0 "$STRATA" init
run plan 0 "$STRATA" plan -no-color && expect "seven to add" "$out" "Plan: 7 to add, 0 to change, 0 to destroy."
expect "a computed result is known after apply" "$out" "+ result = (known after apply)"
run apply 0 "$STRATA" apply -auto-approve -no-color && expect "applied" "$out" "Apply complete! Resources: 7 added"
run outputs 0 "$STRATA" output -json
if python3 - "$out" <<'PY'
import json, re, sys
o = {k: v["value"] for k, v in json.loads(sys.argv[1]).items()}
assert 30000 <= o["port"] <= 32767, o["port"]
assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", o["token"]), o["token"]
assert len(o["zones"]) == 2 and set(o["zones"]) <= {"a", "b", "c"}, o["zones"]
assert re.fullmatch(r"gpu-[a-z]+-[a-z]+-[a-z]+", o["name"]), o["name"]
assert o["year"] >= 2024, o["year"]
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", o["rotates"]), o["rotates"]
PY
then pass "outputs have the types' shapes"; else fail "outputs: $out"; fi
seeded=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["seeded"]["value"])' <<<"$out")
run replan 0 "$STRATA" plan -detailed-exitcode -no-color && expect "a re-plan is clean" "$out" "No changes."

write_config 2
run plan-keepers 0 "$STRATA" plan -no-color &&
  expect "keepers replace random_integer" "$out" "# random_integer.port must be replaced" &&
  expect "triggers replace time_rotating" "$out" "# time_rotating.rotation must be replaced" &&
  expect "nothing else changes" "$out" "Plan: 2 to add, 0 to change, 2 to destroy."
run apply-keepers 0 "$STRATA" apply -auto-approve
run destroy 0 "$STRATA" destroy -auto-approve && expect "destroyed" "$out" "Destroy complete! Resources: 7 destroyed."
run again 0 "$STRATA" apply -auto-approve
run seeded-again 0 "$STRATA" output -json
[ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["seeded"]["value"])' <<<"$out")" = "$seeded" ] &&
  pass "a seed gives the same number after destroy and create" || fail "the seeded number changed"

run schema 0 "$STRATA" providers schema -json
# Through a file: the document (every provider's schema, about 1 MB) is beyond what one
# command-line argument may hold.
printf '%s' "$out" >"$work/schema.json"
if python3 - "$work/schema.json" <<'PY'
import json, sys
types = json.load(open(sys.argv[1]))["provider_schemas"]["strata/builtin"]["resource_schemas"]
def attrs(t): return types[t]["block"]["attributes"]
assert attrs("random_integer")["min"]["required"] and attrs("random_integer")["result"]["computed"]
assert attrs("random_uuid")["result"]["computed"]
assert attrs("random_shuffle")["input"]["type"] == ["list", "string"]
assert attrs("random_pet")["length"]["optional"] and attrs("random_pet")["length"]["computed"]
for f in ["rfc3339", "unix", "year", "month", "day", "hour", "minute", "second"]:
    assert attrs("time_static")[f]["computed"], f
assert attrs("time_rotating")["rotation_rfc3339"]["computed"] and attrs("time_rotating")["rotation_rfc3339"]["optional"]
for f in ["rotation_minutes", "rotation_hours", "rotation_days", "rotation_months", "rotation_years"]:
    assert attrs("time_rotating")[f]["optional"], f
PY
then pass "providers schema -json lists the new types"; else fail "schemas of the new types"; fi
finish
