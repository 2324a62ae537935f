#!/usr/bin/env python3
"""Writes providers/terraform_gaps.inc: what Terraform's providers accept that Strata lacks.

Usage: scripts/terraform_gaps.py --strata BIN --aws-plugins DIR --aws-version V \
           --docs NAME=GIT_DIR [--docs NAME=GIT_DIR ...] [--output FILE]

  --strata       a built strata binary: `strata providers schema -json` lists Strata's
                 types and their attributes (default: build/strata)
  --aws-plugins  a Terraform plugin directory holding hashicorp/aws (terraform init
                 -plugin-dir): the AWS provider's own schema comes from `terraform providers
                 schema -json`, with Terraform's built-in terraform_data beside it
  --docs         a git checkout of hashicorp/terraform-provider-NAME whose docs/ tree is
                 tfplugindocs's (kubernetes, random, time, null, local): its
                 docs/resources/*.md and docs/data-sources/*.md "## Schema" sections
  --output       default providers/terraform_gaps.inc

The table (C++, compiled into the provider-api library, read by providers/terraform_gaps.cc)
holds, per resource or data source mode:
  - every type name Terraform's providers have that Strata has not: a configuration naming
    one is told the type "is not supported by Strata yet" instead of "unknown";
  - for each type Strata has, every argument Terraform's provider accepts that Strata's
    schema lacks, as a dotted path through nested blocks ("upgrade_policy",
    "vpc_config.bogus"); a path under one already listed is left out.
Only arguments (required or optional) count, never read-only attributes. Running it again
with the same inputs writes the same file. Python 3 standard library only; it runs
terraform (no network: the plugin directory is local) and git, never the build.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# Strata's provider → the Terraform providers whose types its types mirror.
DOC_PROVIDERS = ("kubernetes", "random", "time", "null", "local")


# A path (name, ANY) says the attribute `name` takes any value (Strata's "dynamic"): every
# path under it is accepted.
ANY = "*"


# ---- argument paths from a Terraform schema (terraform providers schema -json) ----------

def type_object_paths(prefix, cty_type, out):
    """Arguments inside an attribute of object type (or a collection of objects)."""
    if isinstance(cty_type, list):
        if cty_type[0] == "object":
            for name, inner in cty_type[1].items():
                out.add(prefix + (name,))
                type_object_paths(prefix + (name,), inner, out)
        elif cty_type[0] in ("list", "set"):
            type_object_paths(prefix, cty_type[1], out)


def block_paths(prefix, block, out, arguments_only):
    for name, attr in block.get("attributes", {}).items():
        if arguments_only and not (attr.get("required") or attr.get("optional")):
            continue
        out.add(prefix + (name,))
        if attr.get("type") == "dynamic":
            out.add(prefix + (name, ANY))
        type_object_paths(prefix + (name,), attr.get("type"), out)
    for name, nested in block.get("block_types", {}).items():
        out.add(prefix + (name,))
        block_paths(prefix + (name,), nested["block"], out, arguments_only)


def schema_types(provider_schema, arguments_only):
    """{(mode, type): set of paths} of one provider's schemas."""
    types = {}
    for mode, key in (("managed", "resource_schemas"), ("data", "data_source_schemas")):
        for name, schema in provider_schema.get(key, {}).items():
            paths = set()
            block_paths((), schema["block"], paths, arguments_only)
            types[(mode, name)] = paths
    return types


# ---- argument paths from tfplugindocs pages ---------------------------------------------

ITEM = re.compile(r"^- `([A-Za-z0-9_]+)` \(")
NESTED = re.compile(r"^### Nested Schema for `([A-Za-z0-9_.]+)`")


def doc_paths(text):
    """The arguments a tfplugindocs page lists: "### Required"/"### Optional" at the top,
    "Required:"/"Optional:" under each "### Nested Schema for `a.b`"."""
    paths = set()
    if "## Schema" not in text:
        return paths
    prefix, arguments = (), False
    for line in text.split("## Schema", 1)[1].splitlines():
        line = line.strip()
        nested = NESTED.match(line)
        if nested:
            prefix, arguments = tuple(nested.group(1).split(".")), False
        elif line.startswith("## "):
            break
        elif line in ("### Required", "### Optional", "Required:", "Optional:"):
            arguments = True
        elif line in ("### Read-Only", "Read-Only:"):
            arguments = False
        else:
            item = ITEM.match(line)
            if item and arguments and (not prefix or prefix in paths):
                paths.add(prefix + (item.group(1),))
    return paths


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True, text=True).stdout


def docs_types(name, repo):
    types = {}
    files = git(repo, "ls-tree", "-r", "--name-only", "HEAD", "docs").split()
    for mode, folder in (("managed", "docs/resources/"), ("data", "docs/data-sources/")):
        for path in files:
            if path.startswith(folder) and path.endswith(".md") and "/" not in path[len(folder):]:
                type_name = f"{name}_{path[len(folder):-3]}"
                types[(mode, type_name)] = doc_paths(git(repo, "show", f"HEAD:{path}"))
    return types


def docs_source(name, repo):
    commit = git(repo, "rev-parse", "HEAD").strip()
    version = git(repo, "describe", "--tags", "HEAD").strip()
    return f"hashicorp/terraform-provider-{name} {version} (commit {commit}), docs/"


# ---- the two schemas ---------------------------------------------------------------------

def terraform_schema(plugins, version):
    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "main.tf"), "w") as f:
            f.write('terraform {\n  required_providers {\n'
                    f'    aws = {{ source = "hashicorp/aws", version = "{version}" }}\n  }}\n}}\n'
                    'resource "terraform_data" "schema" {}\n')
        env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", CHECKPOINT_DISABLE="1")
        subprocess.run(["terraform", "init", "-input=false", "-backend=false", f"-plugin-dir={plugins}"],
                       cwd=work, env=env, check=True, capture_output=True)
        out = subprocess.run(["terraform", "providers", "schema", "-json"], cwd=work, env=env, check=True,
                             capture_output=True, text=True).stdout
        terraform_version = json.loads(subprocess.run(["terraform", "version", "-json"], env=env, check=True,
                                                      capture_output=True, text=True).stdout)["terraform_version"]
    schemas = json.loads(out)["provider_schemas"]
    return schemas, terraform_version


def strata_types(binary):
    out = subprocess.run([binary, "providers", "schema", "-json"], check=True, capture_output=True, text=True).stdout
    types = {}
    for provider in json.loads(out)["provider_schemas"].values():
        types.update(schema_types(provider, arguments_only=False))
    return types


# ---- the table ---------------------------------------------------------------------------

def gaps(terraform, strata):
    """(missing type rows, missing argument rows), each sorted."""
    type_rows, argument_rows = [], []
    for (mode, name), paths in sorted(terraform.items()):
        if (mode, name) not in strata:
            type_rows.append((mode, name))
            continue
        have = strata[(mode, name)]
        missing = sorted(p for p in paths if p not in have)
        listed = set()
        for path in missing:
            if any(path[:i] in listed or path[:i] + (ANY,) in have for i in range(1, len(path))):
                continue
            listed.add(path)
            argument_rows.append((mode, name, ".".join(path)))
    return type_rows, argument_rows


def render(sources, type_rows, argument_rows):
    mode_name = {"managed": "ResourceMode::Managed", "data": "ResourceMode::Data"}
    lines = [
        "// Generated by scripts/terraform_gaps.py: do not edit. What Terraform's providers accept",
        "// that Strata lacks, from:",
    ]
    lines += [f"//   {s}" for s in sources]
    lines += [
        "// Regenerate (offline: a local plugin directory and git checkouts of the providers):",
        "//   python3 scripts/terraform_gaps.py --strata build/strata --aws-plugins /opt/tf-plugins",
        "//     --aws-version 5.100.0 --docs kubernetes=DIR --docs random=DIR --docs time=DIR",
        "//     --docs null=DIR --docs local=DIR",
        "// (DIR: a git checkout of github.com/hashicorp/terraform-provider-NAME at the commit above).",
        "// Rows: {mode, type, \"\"} for a type Strata has not; {mode, type, \"a.b\"} for an argument",
        "// (a dotted path through nested blocks) of a type Strata has.",
    ]
    for mode, name in type_rows:
        lines.append(f'{{{mode_name[mode]}, "{name}", ""}},')
    for mode, name, path in argument_rows:
        lines.append(f'{{{mode_name[mode]}, "{name}", "{path}"}},')
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--strata", default="build/strata")
    parser.add_argument("--aws-plugins", required=True)
    parser.add_argument("--aws-version", required=True)
    parser.add_argument("--docs", action="append", default=[], metavar="NAME=GIT_DIR")
    parser.add_argument("--output", default="providers/terraform_gaps.inc")
    args = parser.parse_args()

    schemas, terraform_version = terraform_schema(args.aws_plugins, args.aws_version)
    terraform = {}
    sources = []
    for address, provider in sorted(schemas.items()):
        terraform.update(schema_types(provider, arguments_only=True))
        if address.endswith("/aws"):
            sources.append(f"hashicorp/aws {args.aws_version}: terraform providers schema -json")
    sources.append(f"terraform_data: Terraform {terraform_version}'s built-in provider schema")
    docs = dict(d.split("=", 1) for d in args.docs)
    for name in DOC_PROVIDERS:
        if name not in docs:
            sys.exit(f"terraform_gaps.py: --docs {name}=GIT_DIR is required")
        terraform.update(docs_types(name, docs[name]))
        sources.append(docs_source(name, docs[name]))

    type_rows, argument_rows = gaps(terraform, strata_types(args.strata))
    with open(args.output, "w") as f:
        f.write(render(sources, type_rows, argument_rows))
    print(f"{args.output}: {len(type_rows)} types, {len(argument_rows)} arguments Strata lacks")


if __name__ == "__main__":
    main()
