#!/usr/bin/env bash
# End-to-end: a resource's `timeouts:` against the embedded sandbox cloud, whose EFS file
# systems stay "creating" for 4 s. With `timeouts: { create: 2s }` the apply (of a saved
# plan, which carries the timeouts) fails with the timeout's message naming the address,
# the operation and the limit, and the file system stays in state as an interrupted
# create. A later apply with a longer timeout adopts it and waits for it: one file system
# in the world, none created twice. A refresh slower than `timeouts.read` stops the plan
# with the same kind of message. Loading errors of `timeouts` are covered by
# tests/unit/config/loader_test.cc.
source "$(dirname "$0")/lib.sh"

proj="$work/timeouts"
mkdir -p "$proj/app"
cat >"$proj/strata.yaml" <<'YAML'
project: timeouts
state: { backend: sqlite, path: .strata/state.db }
sandbox: { enabled: true, path: .strata/sandbox.db, efs_delay_ms: 4000 }
stages:
  - { name: app, path: app }
YAML
write_module() {
  cat >"$proj/app/main.yaml" <<YAML
providers:
  aws: { region: us-west-2 }
resources:
  fs:
    type: aws_efs_file_system
    properties: { tags: { Name: timeouts-e2e } }
    timeouts: { create: "$1", read: "${2:-1m}", delete: 1m }
YAML
}
strata() { "$STRATA" -chdir="$proj" "$@"; }

# Through a saved plan: the timeouts the apply honours are the plan's.
write_module 2s
run "plan with a 2s create timeout" 2 strata plan -detailed-exitcode -out="$work/2s.plan" app
expect "plan: one file system" "$out" "Plan: 1 to add, 0 to change, 0 to destroy."
start=$(date +%s)
run "apply runs out of time" 1 strata apply "$work/2s.plan"
elapsed=$(($(date +%s) - start))
expect "the error names the address, the operation and the timeout" "$err" \
  "aws_efs_file_system.fs: create did not finish within the 2s timeout (timeouts.create)"
expect "the error says what happens next" "$err" "stays in state as an interrupted create"
# The error above already proves the create stopped before the sandbox's file system was
# available; this only catches a hang, with room for a busy 2-core machine's start-up.
[ "$elapsed" -lt 10 ] && pass "the apply gave up at the timeout (${elapsed}s)" || fail "the apply took ${elapsed}s"

run "state after the timeout" 0 strata state pull app
expect "state keeps the instance as an interrupted create" "$out" '"status": "pending-create"'

write_module 1m
run "plan after the timeout" 2 strata plan -detailed-exitcode app
expect "the plan resumes the interrupted create" "$out" "because an earlier create was interrupted"
run "apply with a longer timeout" 0 strata apply -auto-approve app
expect "the file system is adopted and waited for" "$out" "Apply complete! Resources: 1 added, 0 changed, 0 destroyed."
run "nothing left to do" 0 strata plan -detailed-exitcode app

if command -v aws >/dev/null 2>&1 && serve_sandbox --state "$proj/.strata/sandbox.db"; then
  aws_cli_on_sandbox
  run "aws efs describe-file-systems" 0 awscli efs describe-file-systems
  count=$(field "['FileSystems'].__len__()" <<<"$out")
  [ "$count" = 1 ] && pass "one file system in the world" || fail "$count file systems in the world"
  kill -INT "$server" 2>/dev/null
  wait "$server" 2>/dev/null
fi

# A refresh slower than timeouts.read: every sandbox call takes 1.5 s, the read may take 1 s.
write_module 1m 1s
sed -i 's/efs_delay_ms: 4000/efs_delay_ms: 4000, latency_ms: 1500/' "$proj/strata.yaml"
run "plan with a slow refresh" 1 strata plan app
expect "the refresh runs out of time" "$err" \
  "aws_efs_file_system.fs: read did not finish within the 1s timeout (timeouts.read)"
sed -i 's/, latency_ms: 1500//' "$proj/strata.yaml"

run destroy 0 strata destroy -auto-approve app
expect "destroy completes" "$out" "Destroy complete! Resources: 1 destroyed."
finish
