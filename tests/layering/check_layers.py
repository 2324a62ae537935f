#!/usr/bin/env python3
"""Checks that no source file includes a header from a layer above its own.

usage: check_layers.py [ROOT]

Reads the rule from ROOT/tests/layering/layers.txt (ROOT: the checkout, by default the
folder two levels up from this script), finds every .h and .cc file under the layers'
paths, and checks each `#include "..."` that names a file of the checkout. Prints one line
per violation (file:line, the include, both layers, what the file's layer may include) and
a summary; exits 1 when there is a violation or the rule itself is broken (an unknown
layer named, a cycle among layers, a layer path that does not exist).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def load_rule(path):
    """[(name, [paths], [may include])] in file order."""
    layers = []
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            name, sep, rest = line.partition(":")
            paths, bar, below = rest.partition("|")
            if not sep or not bar:
                sys.exit(f"{path}:{number}: expected 'NAME: PATH ... | LAYER ...'")
            layers.append((name.strip(), paths.split(), below.split()))
    return layers


def closure(layers, path):
    """name -> every layer it may include (itself and all it names, transitively)."""
    direct = {name: set(below) for name, _, below in layers}
    problems = []
    for name, below in direct.items():
        for b in below:
            if b not in direct:
                problems.append(f"{path}: layer {name} names an unknown layer {b}")
    reach = {}

    def visit(name, stack):
        if name in reach:
            return reach[name]
        if name in stack:
            problems.append(f"{path}: the layers form a cycle: {' -> '.join(stack + [name])}")
            return set()
        out = {name}
        for b in direct.get(name, ()):
            out |= visit(b, stack + [name])
        reach[name] = out
        return out

    for name in direct:
        visit(name, [])
    return reach, problems


def layer_of(relpath, prefixes):
    """The layer of the longest path prefix of `relpath` (whole path components)."""
    best = None
    for prefix, name in prefixes:
        if relpath == prefix or relpath.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, name)
    return best[1] if best else None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    rule_path = os.path.join(root, "tests", "layering", "layers.txt")
    layers = load_rule(rule_path)
    reach, problems = closure(layers, rule_path)
    prefixes = [(p.rstrip("/"), name) for name, paths, _ in layers for p in paths]
    for prefix, name in prefixes:
        if not os.path.exists(os.path.join(root, prefix)):
            problems.append(f"{rule_path}: layer {name}: {prefix} does not exist")

    files = 0
    tops = sorted({p.split("/")[0] for p, _ in prefixes})
    for top in tops:
        for directory, _, names in os.walk(os.path.join(root, top)):
            for file_name in sorted(names):
                if not file_name.endswith((".h", ".cc")):
                    continue
                full = os.path.join(directory, file_name)
                rel = os.path.relpath(full, root)
                mine = layer_of(rel, prefixes)
                if mine is None:
                    continue
                files += 1
                with open(full, errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or not os.path.exists(os.path.join(root, m.group(1))):
                            continue
                        theirs = layer_of(m.group(1), prefixes)
                        if theirs is None or theirs in reach[mine]:
                            continue
                        allowed = ", ".join(sorted(reach[mine] - {mine})) or "nothing"
                        problems.append(f"{rel}:{number}: includes \"{m.group(1)}\": layer {mine} may not include "
                                        f"layer {theirs} (it may include: {allowed})")
    for p in problems:
        print(p)
    print(f"layering: {files} files in {len(layers)} layers, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
