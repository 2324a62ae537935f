#!/usr/bin/env bash
# End-to-end: parallel apply, failure isolation, SIGINT, and kill -9 in the middle of an
# apply followed by a clean recovery, repeated at different moments.
source "$(dirname "$0")/lib.sh"

new_project() {
  local dir=$1
  mkdir -p "$dir/s"
  printf 'project: r\nstages:\n  - { name: s, path: s }\n' >"$dir/strata.yaml"
}
now_ms() { date +%s%3N; }

# --- Parallelism: 100 independent 200 ms creates at -parallelism 10 take ~10 units, not 100.
par="$work/par"
new_project "$par"
cat >"$par/s/main.yaml" <<'YAML'
resources:
  wait:
    type: time_sleep
    count: 100
    properties: { create_duration: 200ms }
YAML
start=$(now_ms)
run par-apply 0 "$STRATA" -chdir="$par" apply -auto-approve -parallelism=10
elapsed=$(($(now_ms) - start))
expect "100 creates applied" "$out" "Apply complete! Resources: 100 added, 0 changed, 0 destroyed."
units=$((elapsed / 200))
echo "     (100 x 200 ms at -parallelism=10: ${elapsed} ms = ${units} latency units)"
if [ "$units" -ge 10 ] && [ "$units" -le 30 ]; then pass "parallelism 10 takes about 10 units ($units)"; else fail "parallelism 10 took $units units"; fi

# --- Progress: a long operation reports its elapsed time (every 1s here; 10s by default).
prog="$work/prog"
new_project "$prog"
printf 'resources:\n  slow:\n    type: time_sleep\n    properties: { create_duration: 2500ms }\n' >"$prog/s/main.yaml"
run progress 0 env STRATA_PROGRESS_INTERVAL=1s "$STRATA" -chdir="$prog" apply -auto-approve
expect "progress line with elapsed time" "$out" "time_sleep.slow: Still creating... [2s elapsed]"
expect "completion line with duration" "$out" "time_sleep.slow: Creation complete after 2s"

# --- Failure isolation: a failed create skips its dependents; independent branches go on.
iso="$work/iso"
new_project "$iso"
cat >"$iso/s/main.yaml" <<'YAML'
resources:
  bad:
    type: exec
    properties:
      command: [sh, -c, "echo preparing; echo 'disk quota exceeded' >&2; exit 3"]
  after_bad:
    type: null_resource
    properties: { triggers: { id: "${bad.id}" } }
  good:
    type: null_resource
  after_good:
    type: null_resource
    properties: { triggers: { id: "${good.id}" } }
YAML
run iso-apply 1 "$STRATA" -chdir="$iso" apply -auto-approve
expect "the failure names the resource" "$err" "exec.bad"
expect "the failure shows the command's output" "$err" "disk quota exceeded"
expect "the report lists the failure" "$out" "failed:  exec.bad"
expect "the report lists the skipped dependent" "$out" "skipped: null_resource.after_bad"
expect "independent branch created" "$out" "null_resource.after_good: Creation complete"
run iso-state 0 "$STRATA" -chdir="$iso" state list
expect "state keeps what succeeded" "$out" "null_resource.after_good"
if grep -q "after_bad" <<<"$out"; then fail "skipped resource in state"; else pass "skipped resource not in state"; fi

# --- SIGINT: running operations finish and are recorded, no new one starts.
sig="$work/sig"
new_project "$sig"
cat >"$sig/s/main.yaml" <<'YAML'
resources:
  slow:
    type: time_sleep
    count: 6
    properties: { create_duration: 1s }
YAML
"$STRATA" -chdir="$sig" apply -auto-approve -parallelism=2 >"$work/sig.out" 2>&1 &
pid=$!
# Interrupt once the first operations are running (start-up may be slow on a loaded machine).
for _ in $(seq 200); do grep -q "Creating..." "$work/sig.out" 2>/dev/null && break; sleep 0.05; done
sleep 0.3
kill -INT "$pid"
wait "$pid"
code=$?
sigout=$(cat "$work/sig.out")
[ "$code" = 130 ] && pass "an apply stopped by SIGINT exits 130" || fail "interrupted apply exit $code"
expect "interrupt is announced" "$sigout" "Stopping gracefully"
expect "interrupted summary" "$sigout" "Apply interrupted"
expect "the changes never started are listed in one block" "$sigout" "Not started because of the interrupt ("
if grep -q "Not applied: interrupted" <<<"$sigout"; then fail "an error per not-started resource"; else pass "no error per not-started resource"; fi
run sig-list 0 "$STRATA" -chdir="$sig" state list
n=$(grep -c time_sleep <<<"$out")
if [ "$n" -ge 2 ] && [ "$n" -le 4 ]; then pass "in-flight creates finished and were recorded ($n of 6)"; else fail "recorded $n of 6 after SIGINT"; fi
run sig-resume 0 "$STRATA" -chdir="$sig" apply -auto-approve
expect "resume creates the rest" "$out" "Apply complete! Resources: $((6 - n)) added"

# SIGTERM (what CI runners and systemd send) stops the same way, with 143.
term="$work/term"
new_project "$term"
cp "$sig/s/main.yaml" "$term/s/main.yaml"
"$STRATA" -chdir="$term" apply -auto-approve -parallelism=1 >"$work/term.out" 2>&1 &
pid=$!
for _ in $(seq 200); do grep -q "Creating..." "$work/term.out" 2>/dev/null && break; sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
code=$?
[ "$code" = 143 ] && pass "an apply stopped by SIGTERM exits 143" || fail "SIGTERM apply exit $code: $(tail -5 "$work/term.out")"
run term-resume 0 "$STRATA" -chdir="$term" apply -auto-approve
expect "the stopped apply finishes" "$out" "Apply complete!"

# --- kill -9 at different moments, then recover: nothing lost, nothing duplicated.
k="$work/kill"
new_project "$k"
cat >"$k/s/main.yaml" <<'YAML'
resources:
  wait:
    type: time_sleep
    count: 12
    properties: { create_duration: 600ms }
  file:
    type: local_file
    count: 12
    properties:
      filename: out/file-${count.index}.txt
      content: "${wait[count.index].id}"
YAML
cd "$k" || exit 1
killed_mid_apply=0
reconciled=0
for delay in 0.1 0.5 0.9 1.4; do
  "$STRATA" apply -auto-approve -parallelism=4 >"$work/kill.out" 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # The lock of the killed process is stale: the next run takes it over and says so.
  run "kill-$delay-plan" 0 "$STRATA" plan -no-color
  grep -q "Took over a stale lock" <<<"$out$err" && killed_mid_apply=$((killed_mid_apply + 1))
  grep -q "an earlier create was interrupted" <<<"$out" && reconciled=$((reconciled + 1))
  if grep -qE "Error|panic" <<<"$err"; then fail "plan after kill -9 at ${delay}s: $err"; else pass "plan after kill -9 at ${delay}s reconciles"; fi
done
[ "$killed_mid_apply" -ge 2 ] && pass "kill -9 landed mid-apply $killed_mid_apply times of 4" || fail "kill -9 landed mid-apply only $killed_mid_apply times"
[ "$reconciled" -ge 1 ] && pass "plans after kill -9 show interrupted creates to resend with their tokens ($reconciled)" ||
  fail "no plan showed an interrupted create"
run kill-final 0 "$STRATA" apply -auto-approve
expect "recovery apply completes" "$out" "Apply complete!"
run kill-noop 0 "$STRATA" plan -detailed-exitcode
expect "after recovery nothing is left to do" "$out" "No changes."
run kill-list 0 "$STRATA" state list
[ "$(grep -c . <<<"$out")" = 24 ] && pass "state holds each of the 24 instances once" || fail "state has $(grep -c . <<<"$out") instances"
[ "$(ls out | wc -l)" = 12 ] && pass "12 files, none duplicated or lost" || fail "files: $(ls out | wc -l)"

# --- create_before_destroy killed mid-replacement: the old object was deposed before the
# replacement's create was sent, so the next plan shows it as Terraform does and the next
# apply deletes it; the replacement is created once.
cbd="$work/cbd"
new_project "$cbd"
cbd_config() {  # version, create duration
  cat >"$cbd/s/main.yaml" <<YAML
resources:
  slow:
    type: time_sleep
    properties: { create_duration: $2, triggers: { version: "$1" } }
    lifecycle: { create_before_destroy: true }
YAML
}
cbd_config v1 0s
run cbd-apply 0 "$STRATA" -chdir="$cbd" apply -auto-approve
cbd_config v2 3s
"$STRATA" -chdir="$cbd" apply -auto-approve >"$work/cbd.out" 2>&1 &
pid=$!
# Up to 30 s for start-up on a busy machine; the create then takes 3 s, ample time to kill.
for _ in $(seq 600); do grep -q "Creating..." "$work/cbd.out" 2>/dev/null && break; sleep 0.05; done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
run cbd-plan 0 "$STRATA" -chdir="$cbd" plan -no-color
expect "the deposed object is planned for deletion" "$out" "# time_sleep.slow (deposed object "
expect "with Terraform's note" "$out" "# (left over from a partially-failed replacement of this instance)"
expect "and the replacement is created" "$out" "# time_sleep.slow will be created"
run cbd-show 0 "$STRATA" -chdir="$cbd" show -no-color
expect "show lists the deposed object as Terraform does" "$out" "# time_sleep.slow: (deposed object "
run cbd-show-json 0 "$STRATA" -chdir="$cbd" show -json
expect "show -json marks it" "$out" '"deposed_key":'
run cbd-recover 0 "$STRATA" -chdir="$cbd" apply -auto-approve -no-color
expect "the deposed object is deleted, named as such" "$out" "time_sleep.slow (deposed object"
expect "recovery: one created, one destroyed" "$out" "Resources: 1 added, 0 changed, 1 destroyed."
run cbd-noop 0 "$STRATA" -chdir="$cbd" plan -detailed-exitcode
run cbd-list 0 "$STRATA" -chdir="$cbd" state list
[ "$out" = "time_sleep.slow" ] && pass "state holds the replacement once, nothing deposed" || fail "state list: $out"

finish
