#!/usr/bin/env bash
# End-to-end: a plan right after an apply has nothing to do and says nothing changed outside
# Strata, for every type in the repository. Every project under examples/ (found by listing
# the folder, so a new example is covered without editing this test) and the fixture
# tests/e2e/fixtures/every-type (the types and lookups no example uses) are applied stage by
# stage, in the projects' stage order, on the embedded sandbox with its delays off; then
# each stage is planned again:
# - `plan -detailed-exitcode` exits 0 and prints no "Objects have changed outside" note;
# - `plan -refresh-only` may find only the changes one resource makes to another in the same
#   apply (an EIP associated by its NAT gateway, routes and rules added to a route table or
#   a security group by their own resources, ...: expected_drift below), which the first
#   plan rightly keeps quiet about; anything else is a read that disagrees with what create
#   stored.
# Every managed type the providers register must have been applied by some stage. Then the
# stages are destroyed in reverse order.
source "$(dirname "$0")/lib.sh"
export STRATA_STATE_KEY=cmVwbGFuLWFmdGVyLWFwcGx5LXRlc3Qta2V5LTMyYnk=

# TYPE ATTRIBUTE: filled in by another resource of the same apply, so a refresh-only plan
# right after it sees them (as Terraform's does); a normal plan says nothing. (A
# PersistentVolume's resource_version: the volume controller writes its status right after
# the create, which nothing waits for.)
expected_drift="aws_eip association_id
aws_eip network_interface
aws_eip private_dns
aws_eip private_ip
aws_route_table route
aws_security_group ingress
aws_security_group egress
aws_sqs_queue policy
aws_cognito_user_pool domain
aws_efs_file_system number_of_mount_targets
kubernetes_persistent_volume metadata
kubernetes_persistent_volume_v1 metadata"

# unexpected_drift: the "TYPE ATTRIBUTE" lines of a refresh-only plan's drift ($out) that
# expected_drift does not list; a deleted object is always unexpected.
unexpected_drift() {
  awk -v allowed="$expected_drift" '
    BEGIN { n = split(allowed, lines, "\n"); for (i = 1; i <= n; i++) ok[lines[i]] = 1 }
    /^  # .* has (changed|been deleted)/ {
      addr = $2
      while (addr ~ /^module\./) sub(/^module\.[^.[]+(\[[^]]*\])?\./, "", addr)  # module.a["k"].aws_x.y -> aws_x.y
      type = addr; sub(/\..*/, "", type)
      if ($0 ~ /has been deleted/) print $2, "deleted"
      next
    }
    /^This is a refresh-only plan/ { type = "" }
    type != "" && /^      [-+~] [a-z_0-9]+/ { if (!((type " " $2) in ok)) print type, $2 }
  '
}

# Projects sit in $work/examples beside a copy of modules/, as in the repository (the
# flagship's stages call ../../../modules/*).
mkdir -p "$work/examples"
cp -r "$STRATA_SOURCE_DIR/modules" "$work/modules"
projects=()
for dir in "$STRATA_SOURCE_DIR"/examples/*/ "$STRATA_SOURCE_DIR"/tests/e2e/fixtures/every-type/; do
  [ -f "$dir/strata.yaml" ] || continue
  name=$(basename "$dir")
  cp -r "$dir" "$work/examples/$name"
  rm -rf "$work/examples/$name/.strata" "$work/examples/$name/generated"
  # The sandbox's artificial delays off (a one-line `sandbox: { enabled: true, ... }`).
  sed -i -E '/^sandbox: *\{ *enabled: true/{s/ [a-z0-9_]+_delay_ms: [0-9]+,?//g; s/enabled: true/enabled: true, cluster_delay_ms: 0, nodegroup_delay_ms: 0, workload_delay_ms: 0, load_balancer_delay_ms: 0, route53_change_delay_ms: 0, cognito_domain_delay_ms: 0, efs_delay_ms: 0, fsx_delay_ms: 0/}' "$work/examples/$name/strata.yaml"
  projects+=("$name")
done
[ "${#projects[@]}" -ge 4 ] && pass "projects: ${projects[*]}" || fail "too few projects found: ${projects[*]}"

# The stages of each project in dependency order, as init lists them.
declare -A stages
for p in "${projects[@]}"; do
  stages[$p]=$("$STRATA" -chdir="$work/examples/$p" init 2>/dev/null | sed -n 's/^Stage \([^ ]*\) (.*/\1/p')
done

applied_types=""
for p in "${projects[@]}"; do
  for st in ${stages[$p]}; do
    run "$p/$st: apply" 0 "$STRATA" -chdir="$work/examples/$p" apply -auto-approve "$st" || { echo "$out" | tail -20; continue; }
    run "$p/$st: state list" 0 "$STRATA" -chdir="$work/examples/$p" state list "$st"
    applied_types+=$(sed -E 's/^(module\.[^.[]+(\[[^]]*\])?\.)+//; /^data\./d; s/\..*//' <<<"$out")$'\n'
  done
done

for p in "${projects[@]}"; do
  for st in ${stages[$p]}; do
    if run "$p/$st: plan after apply" 0 "$STRATA" -chdir="$work/examples/$p" plan -detailed-exitcode -no-color "$st"; then
      converged "$p/$st: no changes, nothing changed outside"
    else
      grep -E '^  # |^Plan:' <<<"$out" | head -20
    fi
    run "$p/$st: refresh-only plan" 0 "$STRATA" -chdir="$work/examples/$p" plan -refresh-only -no-color "$st"
    unexpected=$(unexpected_drift <<<"$out")
    [ -z "$unexpected" ] && pass "$p/$st: refresh finds only what other resources filled in" ||
      fail "$p/$st: refresh after apply finds drift: $(tr '\n' ';' <<<"$unexpected")"
  done
done

# Every managed type any provider registers was applied above.
registered=$("$STRATA" providers schema -json | python3 -c '
import json, sys
for p in json.load(sys.stdin)["provider_schemas"].values():
    print("\n".join(p.get("resource_schemas", {})))')
missing=$(comm -23 <(sort -u <<<"$registered") <(sort -u <<<"$applied_types"))
[ -z "$missing" ] && pass "every registered type ($(wc -l <<<"$registered")) was applied and re-planned" ||
  fail "types no stage applied (add them to tests/e2e/fixtures/every-type): $(tr '\n' ' ' <<<"$missing")"

for p in "${projects[@]}"; do
  for st in $(tac <<<"${stages[$p]}"); do
    run "$p/$st: destroy" 0 "$STRATA" -chdir="$work/examples/$p" destroy -auto-approve "$st"
  done
done
finish
