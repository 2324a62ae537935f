# Shared helpers for the end-to-end tests: they drive the real binary ($STRATA).
set -uo pipefail
: "${STRATA:?STRATA must point at the strata binary}"
: "${STRATA_SOURCE_DIR:?}"
passed=0
failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME EXPECTED_EXIT CMD...: runs CMD, captures stdout/stderr into $out/$err.
run() {
  local name=$1 expected=$2
  shift 2
  out=$("$@" 2>"$work/stderr") && code=0 || code=$?
  err=$(cat "$work/stderr")
  if [ "$code" != "$expected" ]; then
    fail "$name: exit $code, expected $expected${err:+ (stderr: $err)}"
    return 1
  fi
  return 0
}
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
# expect NAME HAYSTACK NEEDLE
expect() {
  if grep -qF -- "$3" <<<"$2"; then pass "$1"; else fail "$1: expected to find [$3] in:"; echo "$2" | head -40; fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
