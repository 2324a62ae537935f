# Shared by the end-to-end tests of the staged examples (examples/NAME, each a project of
# stages calling ../../../modules/*): sourced after lib.sh.
#   example_copy NAME           copies examples/NAME and modules/ side by side under $work;
#                               sets $proj and s() (strata in the project)
#   example_validate N          `strata validate` of the N stages
#   example_apply N             `pipeline apply` of the never-applied project: N applied
#   example_noop_plan N         a `pipeline plan` right after: every stage "No changes",
#                               nothing changed outside Strata, exit 0
#   has NAME ERE                passes when a line of $out (a `state show`) matches ERE
#   example_destroy STAGE...    `pipeline destroy`: every stage destroyed, its state empty
# Each prints its duration, for the README's figures.

example_copy() {
  local root="$work/repo"
  proj="$root/examples/$1"
  mkdir -p "$root/examples"
  cp -r "$STRATA_SOURCE_DIR/examples/$1" "$proj"
  cp -r "$STRATA_SOURCE_DIR/modules" "$root/modules"
  rm -rf "$proj/.strata"
}
s() { "$STRATA" -chdir="$proj" "$@"; }
has() { grep -qE -- "$2" <<<"$out" && pass "$1" || fail "$1: no line matches [$2]"; }

example_validate() {
  run "validate" 0 s validate -no-color
  expect "the $1 stages are valid" "$out" "Success! The configuration is valid ($1 stages)."
}

example_apply() {
  local t=$SECONDS
  run "pipeline apply" 0 s pipeline apply -auto-approve -no-color || { echo "$out" | tail -30; finish; exit 1; }
  echo "     (pipeline apply: $((SECONDS - t)) s)"
  expect "every stage applied" "$out" "Pipeline apply: $1 applied."
}

example_noop_plan() {
  local t=$SECONDS
  run "no-op pipeline plan" 0 s pipeline plan -detailed-exitcode -no-color || grep -E '^  # |^Plan:' <<<"$out" | head -20
  echo "     (no-op pipeline plan: $((SECONDS - t)) s)"
  expect "every stage: no changes" "$out" "Pipeline plan: $1 no changes."
  grep -qF "changed outside" <<<"$out" && fail "a stage notes changes outside Strata" || pass "nothing changed outside Strata"
}

example_destroy() {
  local t=$SECONDS st
  run "pipeline destroy" 0 s pipeline destroy -auto-approve -no-color || echo "$out" | tail -30
  echo "     (pipeline destroy: $((SECONDS - t)) s)"
  expect "every stage destroyed" "$out" "Pipeline destroy: $# destroyed."
  for st in "$@"; do
    run "state of $st" 0 s state list "$st"
    [ -z "$out" ] && pass "nothing left in stage $st" || fail "stage $st still holds: $out"
  done
}
