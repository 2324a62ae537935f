#!/usr/bin/env python3
"""Writes the compiled-in shapes of the typed Kubernetes resources from the OpenAPI v2 spec.

Usage: scripts/k8s_typed_catalog.py [SWAGGER_JSON] [OUTPUT]
  defaults: ../shared/testdata/k8s-openapi/swagger.json (from the repo root) and
            providers/kubernetes/typed/typed_catalog.inc

The output is a C++ raw string (one line per record) that typed_catalog.cc parses:
  K <Kind> <apiVersion> <namespaced 0|1> <definition>   a kind the typed resources cover
  D <definition>                                         an object definition; its fields follow
  F <name> <shape> [<definition>]                        one field, in Kubernetes' spelling
Shapes: s string, i integer, n number, b boolean, q int-or-string, Q quantity, a any JSON,
        o object (definition given), ls/li/lb list of scalars, lo list of objects,
        ms map of strings, mq map of quantities, ma map of anything.
Only the definitions the kinds reach are written; `status` and read-only ObjectMeta fields
are left out (Terraform's metadata block is fixed by typed_shape.cc). The output is
deterministic, so a test could regenerate and compare it. Python 3 standard library only.
"""

import json
import os
import sys

# The kinds of Terraform's typed resources that Strata serves (issue 17), by definition.
KINDS = [
    "io.k8s.api.core.v1.Namespace",
    "io.k8s.api.core.v1.ServiceAccount",
    "io.k8s.api.core.v1.ConfigMap",
    "io.k8s.api.core.v1.Secret",
    "io.k8s.api.rbac.v1.ClusterRole",
    "io.k8s.api.rbac.v1.ClusterRoleBinding",
    "io.k8s.api.rbac.v1.Role",
    "io.k8s.api.rbac.v1.RoleBinding",
    "io.k8s.api.apps.v1.Deployment",
    "io.k8s.api.apps.v1.DaemonSet",
    "io.k8s.api.apps.v1.StatefulSet",
    "io.k8s.api.core.v1.Service",
    "io.k8s.api.networking.v1.Ingress",
    "io.k8s.api.storage.v1.StorageClass",
    "io.k8s.api.core.v1.PersistentVolume",
    "io.k8s.api.core.v1.PersistentVolumeClaim",
    "io.k8s.api.batch.v1.Job",
    "io.k8s.api.batch.v1.CronJob",
    "io.k8s.api.scheduling.v1.PriorityClass",
    "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
    "io.k8s.api.policy.v1.PodDisruptionBudget",
]
OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding", "StorageClass", "PersistentVolume", "PriorityClass"}
SCALARS = {"string": "s", "integer": "i", "number": "n", "boolean": "b"}


def ref_name(prop):
    ref = prop.get("$ref")
    if not ref and "allOf" in prop and len(prop["allOf"]) == 1:
        ref = prop["allOf"][0].get("$ref")
    return ref.split("/")[-1] if ref else None


def scalar_of(prop, defs):
    """The scalar code of a property or of the definition it names (Quantity: string)."""
    name = ref_name(prop)
    if name == QUANTITY:
        return "Q"
    if name:
        target = defs[name]
        if target.get("format") == "int-or-string":
            return "q"
        if "properties" in target:
            return None
        return SCALARS.get(target.get("type"), "a")
    if prop.get("format") == "int-or-string" or prop.get("x-kubernetes-int-or-string"):
        return "q"
    if prop.get("type") in SCALARS:
        return SCALARS[prop["type"]]
    return None


def shape_of(prop, defs):
    """(shape, definition or None) of one property."""
    scalar = scalar_of(prop, defs)
    if scalar:
        return scalar, None
    name = ref_name(prop)
    if name:
        return "o", name
    kind = prop.get("type")
    if kind == "array":
        items = prop.get("items", {})
        inner = scalar_of(items, defs)
        if inner:
            return "l" + ("s" if inner in "qQ" else inner), None
        if ref_name(items):
            return "lo", ref_name(items)
        return "a", None
    if kind == "object":
        extra = prop.get("additionalProperties")
        inner = scalar_of(extra, defs) if isinstance(extra, dict) else None
        if inner == "Q":
            return "mq", None
        if inner in ("s", "q"):
            return "ms", None
        return ("ma" if isinstance(extra, dict) else "a"), None
    return "a", None


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    swagger = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "testdata", "k8s-openapi", "swagger.json")
    output = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "providers", "kubernetes", "typed", "typed_catalog.inc")
    with open(swagger) as f:
        defs = json.load(f)["definitions"]

    lines = []
    for name in KINDS:
        gvk = defs[name]["x-kubernetes-group-version-kind"][0]
        api_version = (gvk["group"] + "/" if gvk["group"] else "") + gvk["version"]
        lines.append("K %s %s %d %s" % (gvk["kind"], api_version, 0 if gvk["kind"] in CLUSTER_SCOPED else 1, name))

    seen, order, queue = set(), [], list(KINDS)
    while queue:
        name = queue.pop(0)
        if name in seen or name == OBJECT_META:
            continue
        seen.add(name)
        order.append(name)
        for prop_name, prop in sorted(defs[name].get("properties", {}).items()):
            if prop_name in ("status", "apiVersion", "kind") and name in KINDS:
                continue
            shape, target = shape_of(prop, defs)
            if target:
                queue.append(target)
    for name in sorted(order):
        lines.append("D " + name)
        for prop_name, prop in sorted(defs[name].get("properties", {}).items()):
            if prop_name in ("status", "apiVersion", "kind") and name in KINDS:
                continue
            shape, target = shape_of(prop, defs)
            lines.append("F %s %s%s" % (prop_name, shape, " " + target if target else ""))

    text = "// Generated by scripts/k8s_typed_catalog.py from Kubernetes' OpenAPI document: do not edit.\n"
    text += "// clang-format off\n"
    text += 'R"K8S(\n' + "\n".join(lines) + '\n)K8S"\n'
    with open(output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
