#!/usr/bin/env python3
"""The string-rendering scenario of compare_strings_with_terraform.sh: terraform_data
resources whose `input` is a JSON string, a multi-line string or an object with odd keys,
planned from a first configuration (phase 1) to a second (phase 2).

Usage: strings_scenario.py terraform|strata 1|2  -> prints main.tf.json / main.yaml (JSON is
YAML) for that tool and phase.
"""
import json, sys

# name: (phase-1 input, phase-2 input); None: the resource is absent in that phase.
# {"ref": "x.id"} is a reference to another resource's id (unknown until applied);
# {"var": "secret"} / {"var": "m"} a variable (below), whose default changes between the phases.
RESOURCES = {
    "obj":          ('{"a":1,"b":"x","c":true,"d":null}', '{"a":2,"b":"x","c":true,"d":null}'),
    "arr_same_len": ('["a","b","c"]', '["a","x","c"]'),
    "arr_grow":     ('["a","b","c","d","e","f"]', '["a","b","c","X","d","e","f"]'),
    "policy": (
        '{"Version":"2012-10-17","Statement":[{"Sid":"One","Effect":"Allow","Action":["s3:GetObject"],'
        '"Resource":"*"},{"Sid":"Two","Effect":"Deny","Action":"s3:*","Resource":"arn:aws:s3:::b"}]}',
        '{"Version":"2012-10-17","Statement":[{"Sid":"One","Effect":"Allow","Action":["s3:GetObject",'
        '"s3:PutObject"],"Resource":"*"},{"Sid":"Two","Effect":"Deny","Action":"s3:*","Resource":"arn:aws:s3:::b"}]}'),
    "keys":         ('{"a":1,"b":2,"name":"n","my key":1,"x-y":2}', '{"a":1,"c":3,"name":"n","my key":5,"x-y":2}'),
    "nested_json":  ('{"a":{"b":{"c":[1,2]},"s":"{\\"in\\":1}"},"t":"x\\ny"}',
                     '{"a":{"b":{"c":[1,3]},"s":"{\\"in\\":2}"},"t":"x\\nz"}'),
    "retyped":      ('{"a":1,"b":[1],"c":null}', '{"a":"1","b":{"k":1},"c":"now"}'),
    "to_plain":     ('{"a":1}', "plain"),
    "from_plain":   ("plain", "[1, 2]"),
    "gone":         ('{"a":[1,2],"b":{}}', None),
    "ws":           ('{"a":1}', '{ "a": 1 }'),
    "doc":          ("line1\nline2\nline3\n", "line1\nline2 changed\nline3\n"),
    "doc_grow":     ("one\ntwo\nthree\nfour\n", "one\nthree\nfour\nfive\n"),
    "doc_shrink":   ("a\nb\nc\nd\ne\n", "a\nc\ne\n"),
    "single":       ("single", "now\nmulti\n"),
    "doc_gone":     ("bye\nnow\n", None),
    "secret":       ({"var": "secret"}, {"var": "secret"}),
    "unk":          ('{"a":1}', {"ref": "new_json.id"}),
    "new_json":     (None, '{"k":[1,{"x":"y"}],"e":{},"l":[]}'),
    "new_doc":      (None, "  first\nsecond\n"),
    "nested":       ({"policy": '{"a":1,"b":2}', "doc": "x\ny\n", "plain": "p"},
                     {"policy": '{"a":1,"b":3}', "doc": "x\nz\n", "plain": "p"}),
    "mapkeys":      ({"a b": 1, "x-y": 2, "ok": 3, "1st": 4, "_u": 5},
                     {"a b": 1, "x-y": 3, "ok": 3, "1st": 5, "_u": 6}),
    "mapvar":       ({"var": "m"}, {"var": "m"}),
}
OUTPUTS = {
    "pol":       ('{"a":1,"b":[1,2]}', '{"a":1,"b":[1,3]}'),
    "doc":       ("a\nb\n", "a\nc\n"),
    "m":         ({"a b": 1, "ok": 2}, {"a b": 2, "ok": 2}),
    "newmap":    (None, {"a b": 1, "x-y": 2, "ok": 3}),
    "gone_json": ('{"z":1}', None),
    "tm":        ({"var": "m"}, {"var": "m"}),
    "tm_new":    (None, {"var": "m"}),
}
# The variables' defaults in each phase: `secret` is sensitive, `m` a map(string).
SECRET = ('{"a":1}', '{"a":2}')
MAP = ({"a": "1", "b c": "2", "d": "3", "name": "n"}, {"a": "1", "b c": "2", "d": "4", "name": "n"})


def value(v, tool):
    if isinstance(v, dict) and "ref" in v:
        return "${terraform_data." + v["ref"] + "}" if tool == "terraform" else "${" + v["ref"] + "}"
    if isinstance(v, dict) and "var" in v:
        return "${var." + v["var"] + "}"
    return v


def config(tool, phase):
    i = phase - 1
    res = {n: value(p[i], tool) for n, p in RESOURCES.items() if p[i] is not None}
    outs = {n: value(p[i], tool) for n, p in OUTPUTS.items() if p[i] is not None}
    variables = {"secret": {"type": "string", "sensitive": True, "default": SECRET[i]},
                 "m": {"type": "map(string)", "default": MAP[i]}}
    if tool == "terraform":
        return {"variable": variables,
                "resource": {"terraform_data": {n: {"input": v} for n, v in res.items()}},
                "output": {n: {"value": v} for n, v in outs.items()}}
    return {"variables": variables,
            "resources": {n: {"type": "terraform_data", "properties": {"input": v}} for n, v in res.items()},
            "outputs": {n: {"value": v} for n, v in outs.items()}}


if __name__ == "__main__":
    print(json.dumps(config(sys.argv[1], int(sys.argv[2])), indent=2))
