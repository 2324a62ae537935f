#!/usr/bin/env bash
# The scripts' build trees: a tree that scripts/quickstart.sh configured (tests off) and
# scripts/test.sh then reuses must list every test, and every ctest call of the test
# command must fail when it finds none (a run that skipped every test once passed CI).
source "$(dirname "$0")/lib.sh"
root=$STRATA_SOURCE_DIR
source "$root/scripts/configs.sh"
tree="$work/tree"

run "quickstart configures its tree" 0 env STRATA_CONFIGURE_ONLY=1 bash "$root/scripts/build.sh" "$tree" "${quickstart_config[@]}" &&
  pass "quickstart's configuration"
listed=$(cd "$tree" && ctest -N 2>/dev/null | sed -n 's/^Total Tests: //p')
[ "${listed:-0}" -eq 0 ] && pass "quickstart's tree has no tests" || fail "quickstart's tree lists $listed tests"

run "the test command reconfigures the same tree" 0 env STRATA_CONFIGURE_ONLY=1 bash "$root/scripts/build.sh" "$tree" "${test_config[@]}" &&
  pass "test configuration over quickstart's"
listed=$(cd "$tree" && ctest -N -L e2e 2>/dev/null | sed -n 's/^Total Tests: //p')
[ "${listed:-0}" -gt 5 ] && pass "end-to-end tests listed after quickstart ($listed)" || fail "after quickstart, the test configuration lists ${listed:-0} e2e tests"

# Every ctest call in the test command refuses an empty run.
calls=$(grep -c 'ctest ' "$root/scripts/test.sh")
guarded=$(grep -c 'ctest --no-tests=error' "$root/scripts/test.sh")
[ "$calls" -ge 2 ] && [ "$calls" = "$guarded" ] && pass "every ctest call fails on no tests ($guarded)" ||
  fail "scripts/test.sh: $guarded of $calls ctest calls pass --no-tests=error"
(cd "$tree" && ctest --no-tests=error -R 'no-such-test-anywhere' >/dev/null 2>&1) &&
  fail "ctest --no-tests=error passed with no test" || pass "ctest --no-tests=error fails on an empty selection"
finish
