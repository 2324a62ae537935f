#!/usr/bin/env python3
"""Compares the resources two saved plans would make, object by object, ignoring addresses.

usage: compare_plan_objects.py A.json B.json   (each `strata show -json PLANFILE`)

Every resource of planned_values (child modules included) becomes its type and its planned
values (what is known before apply); the two multisets must be equal. Prints each object only
one side makes, with the nearest object of the same type on the other side, and exits 1 when
there is any; otherwise prints how many objects of each type matched.
"""
import collections
import json
import sys


def objects(path):
    with open(path) as f:
        plan = json.load(f)
    out = []

    def walk(module):
        for r in module.get("resources", []):
            if r.get("mode") == "managed":
                out.append((r["type"], json.dumps(r["values"], sort_keys=True), r["address"]))
        for child in module.get("child_modules", []):
            walk(child)

    walk(plan["planned_values"]["root_module"])
    return out


def main():
    a, b = objects(sys.argv[1]), objects(sys.argv[2])
    ca = collections.Counter((t, v) for t, v, _ in a)
    cb = collections.Counter((t, v) for t, v, _ in b)
    only_a, only_b = ca - cb, cb - ca
    for label, only, here, there in (("only in the first", only_a, a, b), ("only in the second", only_b, b, a)):
        for (t, v), n in only.items():
            addr = next(ad for tt, vv, ad in here if tt == t and vv == v)
            print(f"{label} ({n}x): {addr}\n  {v}")
            mine = json.loads(v)
            others = [json.loads(vv) for tt, vv, _ in there if tt == t]
            if others:
                best = min(others, key=lambda o: sum(o.get(k) != mine.get(k) for k in set(o) | set(mine)))
                diff = {k: (mine.get(k), best.get(k)) for k in set(best) | set(mine) if best.get(k) != mine.get(k)}
                print(f"  nearest differs in: {json.dumps(diff, sort_keys=True)}")
    if only_a or only_b:
        sys.exit(1)
    by_type = collections.Counter(t for t, _, _ in a)
    print(f"{len(a)} objects match: " + ", ".join(f"{n} {t}" for t, n in sorted(by_type.items())))


main()
