#!/usr/bin/env bash
# End-to-end: examples/spot-interruptions (the node termination handler's queue mode — an
# SQS queue, its policy, four EventBridge rules with the queue as their target) against the
# sandbox cloud: planned, applied, re-planned with nothing to do, one attribute changed in
# place, destroyed. The AWS CLI, where installed, checks what the sandbox holds.
source "$(dirname "$0")/lib.sh"

proj="$work/spot"
cp -r "$STRATA_SOURCE_DIR/examples/spot-interruptions" "$proj"
rm -rf "$proj/.strata"

run init 0 "$STRATA" -chdir="$proj" init
run validate 0 "$STRATA" -chdir="$proj" validate
run plan 2 "$STRATA" -chdir="$proj" plan -detailed-exitcode queue
expect "plan: the queue, its policy, four rules and four targets" "$out" "Plan: 10 to add, 0 to change, 0 to destroy."
expect "plan creates the Spot interruption rule" "$out" '# aws_cloudwatch_event_rule.rule["spot-interruption"] will be created'

run apply 0 "$STRATA" -chdir="$proj" apply -auto-approve queue
expect "apply completes" "$out" "Apply complete! Resources: 10 added, 0 changed, 0 destroyed."
expect "the queue url is an output" "$out" 'queue_url = "https://sqs.us-west-2.amazonaws.com/111122223333/ml-platform-interruptions"'
run "plan after apply" 0 "$STRATA" -chdir="$proj" plan -detailed-exitcode queue
converged "nothing to do, nothing changed outside"

# The queue's retention changes in place, although the policy resource has since set the
# queue's (computed) policy attribute.
run "plan retention" 2 "$STRATA" -chdir="$proj" plan -detailed-exitcode -var message_retention_seconds=600 queue
expect "one in-place update" "$out" "Plan: 0 to add, 1 to change, 0 to destroy."
run "apply retention" 0 "$STRATA" -chdir="$proj" apply -auto-approve -var message_retention_seconds=600 queue
expect "retention applied" "$out" "Apply complete! Resources: 0 added, 1 changed, 0 destroyed."
run "plan after retention" 0 "$STRATA" -chdir="$proj" plan -detailed-exitcode -var message_retention_seconds=600 queue

# The AWS CLI sees what Strata made, in the project's world.
if command -v aws >/dev/null 2>&1 && serve_sandbox --state "$proj/.strata/sandbox.db"; then
  cli() {
    AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key \
      AWS_DEFAULT_REGION=us-west-2 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
      aws --endpoint-url "$url" --output text "$@"
  }
  run "aws events list-targets-by-rule" 0 cli events list-targets-by-rule --rule ml-platform-spot-interruption \
    --query 'Targets[0].Arn'
  expect "the rule delivers to the queue" "$out" "arn:aws:sqs:us-west-2:111122223333:ml-platform-interruptions"
  run "aws sqs get-queue-attributes" 0 cli sqs get-queue-attributes \
    --queue-url https://sqs.us-west-2.amazonaws.com/111122223333/ml-platform-interruptions \
    --attribute-names MessageRetentionPeriod --query Attributes.MessageRetentionPeriod
  expect "the retention as applied" "$out" "600"
  kill -INT "$server" 2>/dev/null
  wait "$server" 2>/dev/null
fi

run destroy 0 "$STRATA" -chdir="$proj" destroy -auto-approve -var message_retention_seconds=600 queue
expect "destroy completes" "$out" "Destroy complete! Resources: 10 destroyed."
run "state empty" 0 "$STRATA" -chdir="$proj" state list queue
[ -z "$out" ] && pass "nothing left in state" || fail "state not empty: $out"

finish
