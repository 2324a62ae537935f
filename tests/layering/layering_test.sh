#!/usr/bin/env bash
# The layering rule holds for the checkout, and the check catches what it must: a header
# included from a layer above (planted in a copy of the tree), and an include of a layer
# its file's layer does not name.
set -uo pipefail
root=${STRATA_SOURCE_DIR:?}
check="$root/tests/layering/check_layers.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

if out=$(python3 "$check" "$root"); then pass "the checkout keeps its layers"; else fail "the checkout breaks its layers:"; echo "$out"; fi

# A copy of the sources the rule covers, to plant violations in.
copy() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree/tests"
  cp -r "$root/engine" "$root/providers" "$root/state" "$root/sandbox" "$work/tree/"
  cp -r "$root/tests/layering" "$work/tree/tests/"
}
plant() {  # plant FILE INCLUDE: adds `#include "INCLUDE"` at the top of FILE in the copy
  sed -i "1i #include \"$2\"" "$work/tree/$1"
}

copy
plant engine/value/value.cc engine/core/engine.h
out=$(python3 "$check" "$work/tree") && fail "an upward include (value -> core) passed" ||
  { grep -q 'engine/value/value.cc:1: includes "engine/core/engine.h": layer value may not include layer core' <<<"$out" &&
      pass "an upward include is named with its file, line and both layers" || { fail "unexpected report:"; echo "$out"; }; }

copy
plant providers/provider.h state/store.h
out=$(python3 "$check" "$work/tree") && fail "provider-api -> state-api passed" ||
  { grep -q 'layer provider-api may not include layer state-api' <<<"$out" && pass "interfaces stay apart" || { fail "unexpected report:"; echo "$out"; }; }

copy
plant sandbox/world.cc providers/aws/aws_provider.h
out=$(python3 "$check" "$work/tree") && fail "sandbox -> aws provider passed" ||
  { grep -q 'layer sandbox may not include layer aws' <<<"$out" && pass "the sandbox shares the wire library only" || { fail "unexpected report:"; echo "$out"; }; }

copy
sed -i 's/^addr: *engine\/addr | diag$/addr: engine\/addr | diag value/' "$work/tree/tests/layering/layers.txt"
out=$(python3 "$check" "$work/tree") && fail "a cycle among layers passed" ||
  { grep -q 'the layers form a cycle' <<<"$out" && pass "a cycle in the rule itself is refused" || { fail "unexpected report:"; echo "$out"; }; }

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
