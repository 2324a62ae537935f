#!/usr/bin/env python3
"""Writes the sandbox's Kubernetes API catalog from the real OpenAPI v2 spec.

Usage: scripts/k8s_api_catalog.py [SWAGGER_JSON] [OUTPUT]
  defaults: ../shared/testdata/k8s-openapi/swagger.json (from the repo root) and
            sandbox/kubernetes/api_catalog.json

The catalog (JSON, committed, compiled into the sandbox) holds:
  "groups":      every group served by default (alpha versions and the betas Kubernetes
                 1.31 leaves off are skipped, as a default kube-apiserver does), each with
                 its versions, preferred version first, and each version's resources:
                 plural name, singular name, kind, namespaced, verbs, short names and
                 categories (kube's own, from the table below: the spec does not carry
                 them), the status/scale subresources, and the definition of its kind.
  "definitions": swagger's `definitions`, pruned to what structured merge reads (type,
                 format, properties, items, additionalProperties, $ref, x-kubernetes-*).
The output is deterministic (sorted keys, fixed order), so a test can regenerate it and
compare with the committed file. Python 3 standard library only.
"""

import json
import os
import re
import sys

# Versions a default kube-apiserver 1.31 does not serve although the spec describes them:
# every alpha, and the betas introduced off-by-default (KEP-3136: new betas since 1.24).
OFF_BY_DEFAULT = {
    ("admissionregistration.k8s.io", "v1beta1"),
    ("networking.k8s.io", "v1beta1"),
    ("storage.k8s.io", "v1beta1"),
}

# kube-apiserver's short names and categories (pkg/registry/*/rest storage); not in the spec.
SHORT_NAMES = {
    ("", "componentstatuses"): ["cs"],
    ("", "configmaps"): ["cm"],
    ("", "endpoints"): ["ep"],
    ("", "events"): ["ev"],
    ("", "limitranges"): ["limits"],
    ("", "namespaces"): ["ns"],
    ("", "nodes"): ["no"],
    ("", "persistentvolumeclaims"): ["pvc"],
    ("", "persistentvolumes"): ["pv"],
    ("", "pods"): ["po"],
    ("", "replicationcontrollers"): ["rc"],
    ("", "resourcequotas"): ["quota"],
    ("", "serviceaccounts"): ["sa"],
    ("", "services"): ["svc"],
    ("apiextensions.k8s.io", "customresourcedefinitions"): ["crd", "crds"],
    ("apps", "daemonsets"): ["ds"],
    ("apps", "deployments"): ["deploy"],
    ("apps", "replicasets"): ["rs"],
    ("apps", "statefulsets"): ["sts"],
    ("autoscaling", "horizontalpodautoscalers"): ["hpa"],
    ("batch", "cronjobs"): ["cj"],
    ("certificates.k8s.io", "certificatesigningrequests"): ["csr"],
    ("events.k8s.io", "events"): ["ev"],
    ("networking.k8s.io", "ingresses"): ["ing"],
    ("networking.k8s.io", "networkpolicies"): ["netpol"],
    ("policy", "poddisruptionbudgets"): ["pdb"],
    ("scheduling.k8s.io", "priorityclasses"): ["pc"],
    ("storage.k8s.io", "storageclasses"): ["sc"],
}
CATEGORY_ALL = {
    ("", "pods"), ("", "replicationcontrollers"), ("", "services"), ("apps", "daemonsets"),
    ("apps", "deployments"), ("apps", "replicasets"), ("apps", "statefulsets"),
    ("autoscaling", "horizontalpodautoscalers"), ("batch", "cronjobs"), ("batch", "jobs"),
}
CATEGORY_API_EXTENSIONS = {
    ("admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
    ("admissionregistration.k8s.io", "validatingwebhookconfigurations"),
    ("admissionregistration.k8s.io", "validatingadmissionpolicies"),
    ("admissionregistration.k8s.io", "validatingadmissionpolicybindings"),
    ("apiextensions.k8s.io", "customresourcedefinitions"),
    ("apiregistration.k8s.io", "apiservices"),
}

VERB_OF_ACTION = {
    "get": "get", "list": "list", "post": "create", "put": "update", "patch": "patch",
    "delete": "delete", "deletecollection": "deletecollection", "watch": "watch",
    "watchlist": "watch",
}
SUBRESOURCES = ("status", "scale")
KEPT_SCHEMA_KEYS = {"type", "format", "properties", "items", "additionalProperties", "$ref"}

PATH = re.compile(r"^/(?:api/(?P<core>v1)|apis/(?P<group>[^/]+)/(?P<version>[^/]+))/(?P<rest>.+)$")


def version_priority(version):
    """Sort key: GA before beta before alpha, higher numbers first (kube's ordering)."""
    m = re.match(r"^v(\d+)(?:(alpha|beta)(\d+))?$", version)
    if not m:
        return (3, 0, 0, version)
    level = {None: 0, "beta": 1, "alpha": 2}[m.group(2)]
    return (level, -int(m.group(1)), -int(m.group(3) or 0), version)


def parse_path(path):
    """(group, version, plural, namespaced, item, subresource) or None for non-resource paths."""
    m = PATH.match(path)
    if not m:
        return None
    group = "" if m.group("core") else m.group("group")
    version = m.group("core") or m.group("version")
    parts = m.group("rest").split("/")
    if parts[0] == "watch":
        parts = parts[1:]
    namespaced = False
    if len(parts) >= 3 and parts[0] == "namespaces" and parts[1] == "{namespace}":
        namespaced = True
        parts = parts[2:]
    if not parts or parts[0].startswith("{"):
        return None
    plural = parts[0]
    item = len(parts) >= 2 and parts[1] == "{name}"
    sub = parts[2] if item and len(parts) == 3 else None
    if len(parts) > 3 or (len(parts) == 2 and not item):
        return None
    return group, version, plural, namespaced, item, sub


def prune(schema):
    if isinstance(schema, list):
        return [prune(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "properties":
            out[key] = {name: prune(s) for name, s in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = prune(value)
        elif key in KEPT_SCHEMA_KEYS or key.startswith("x-kubernetes-"):
            out[key] = value
    return out


def definition_of(definitions, gvk):
    for name, schema in definitions.items():
        for candidate in schema.get("x-kubernetes-group-version-kind", []):
            if candidate == gvk:
                return name
    return None


def build(swagger):
    definitions = swagger["definitions"]
    resources = {}  # (group, version, plural) -> resource
    for path, item in sorted(swagger["paths"].items()):
        parsed = parse_path(path)
        if not parsed:
            continue
        group, version, plural, namespaced, is_item, sub = parsed
        if version_priority(version)[0] == 2 or (group, version) in OFF_BY_DEFAULT:
            continue
        for method, op in item.items():
            if not isinstance(op, dict) or "x-kubernetes-action" not in op:
                continue
            gvk = op.get("x-kubernetes-group-version-kind")
            verb = VERB_OF_ACTION.get(op["x-kubernetes-action"])
            if not gvk or not verb:
                continue
            r = resources.setdefault((group, version, plural), {
                "name": plural, "namespaced": namespaced, "verbs": set(), "subresources": {}})
            r["namespaced"] = r["namespaced"] or namespaced
            if sub is None:
                r["kind"] = gvk["kind"]
                r["verbs"].add(verb)
            elif sub in SUBRESOURCES:
                s = r["subresources"].setdefault(sub, {"verbs": set()})
                s["verbs"].add(verb)
                if (gvk["group"], gvk["version"]) != (group, version):
                    s["group"], s["version"] = gvk["group"], gvk["version"]
                s["kind"] = gvk["kind"]

    groups = {}
    for (group, version, plural), r in resources.items():
        if "kind" not in r:
            continue  # only subresources seen (none in 1.31)
        kind_gvk = {"group": group, "version": version, "kind": r["kind"]}
        out = {
            "name": plural,
            "singularName": r["kind"].lower(),
            "kind": r["kind"],
            "namespaced": r["namespaced"],
            "verbs": sorted(r["verbs"]),
            "definition": definition_of(definitions, kind_gvk),
        }
        if (group, plural) in SHORT_NAMES:
            out["shortNames"] = SHORT_NAMES[(group, plural)]
        categories = []
        if (group, plural) in CATEGORY_ALL:
            categories.append("all")
        if (group, plural) in CATEGORY_API_EXTENSIONS:
            categories.append("api-extensions")
        if categories:
            out["categories"] = categories
        if r["subresources"]:
            out["subresources"] = {
                name: dict(s, verbs=sorted(s["verbs"])) for name, s in sorted(r["subresources"].items())}
        groups.setdefault(group, {}).setdefault(version, []).append(out)

    group_list = []
    for group in sorted(groups):
        versions = []
        for version in sorted(groups[group], key=version_priority):
            versions.append({"version": version,
                             "resources": sorted(groups[group][version], key=lambda r: r["name"])})
        group_list.append({"name": group, "versions": versions})
    return {
        "source": "Kubernetes v1.31.0 api/openapi-spec/swagger.json (scripts/k8s_api_catalog.py)",
        "groups": group_list,
        "definitions": {name: prune(schema) for name, schema in sorted(definitions.items())},
    }


def render(catalog):
    # One definition or group per line: small diffs, and lines a compiler takes as literals.
    lines = ["{"]
    lines.append('"source": ' + json.dumps(catalog["source"]) + ",")
    lines.append('"groups": [')
    for i, group in enumerate(catalog["groups"]):
        comma = "," if i + 1 < len(catalog["groups"]) else ""
        lines.append(json.dumps(group, sort_keys=True, separators=(",", ":")) + comma)
    lines.append("],")
    lines.append('"definitions": {')
    names = list(catalog["definitions"])
    for i, name in enumerate(names):
        comma = "," if i + 1 < len(names) else ""
        body = json.dumps(catalog["definitions"][name], sort_keys=True, separators=(",", ":"))
        lines.append(json.dumps(name) + ":" + body + comma)
    lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    source = argv[1] if len(argv) > 1 else os.path.join(root, "..", "shared", "testdata", "k8s-openapi",
                                                         "swagger.json")
    target = argv[2] if len(argv) > 2 else os.path.join(root, "sandbox", "kubernetes", "api_catalog.json")
    with open(source, encoding="utf-8") as f:
        swagger = json.load(f)
    text = render(build(swagger))
    if target == "-":
        sys.stdout.write(text)
    else:
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
