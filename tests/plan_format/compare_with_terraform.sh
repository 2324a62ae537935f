#!/usr/bin/env bash
# Compares Strata's plan output with Terraform 1.11's on the same scenario, using only the
# built-in terraform_data resource (no provider download):
#
#   1. Terraform: apply a first main.tf, change it, `terraform plan -no-color` and
#      `terraform plan -out` + `terraform show -json`.
#   2. Strata CLI: the same resources as a Strata project (strata.yaml + main/main.yaml),
#      `strata init`, `strata apply -auto-approve`, change it, `strata plan -no-color` and
#      `strata plan -json`.
#   3. Strata fixture: the renderer goldens of the same plan (tests/golden/plan/
#      terraform_data.{txt,json}, made by tests/unit/plan from TerraformDataPlan()).
#
# Both Strata outputs go through the same checks: the human text after normalisation
# ("Terraform" -> "Strata", object ids -> <id>) and the JSON key by key (key paths with
# array indexes collapsed; actions, action_reason, replace_paths, after_unknown,
# before/after_sensitive, before/after, output_changes, planned_values, prior_state).
# Known, documented differences (tests/plan_format/README.md) are reported as ALLOWED with a
# one-line reason; anything else is a DIFF.
#
# Usage: tests/plan_format/compare_with_terraform.sh [OUTDIR]
#   OUTDIR (default: a temp dir, removed afterwards) receives terraform.plan.{txt,json},
#   strata.plan.{txt,json}, *.norm.txt, keys.*.txt and the logs.
#   STRATA=/path/to/strata overrides the binary (default: build/strata of this checkout).
# Exit: 0 when every check is OK (allowed differences included), 1 on any DIFF, 2 when the
# comparison could not run, 77 (the ctest "skip" code) with a loud message when terraform is
# not installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
golden="$root/tests/golden/plan"

# terraform and python3 present (else exit 77 / 2), work, out, strata, fail (setup.sh).
source "$here/setup.sh" "${1:-}"

# ---------------------------------------------------------------- Terraform
mkdir -p "$work/tf" && cd "$work/tf"
# Phase 1: the prior state.
cat > main.tf <<'TF'
resource "terraform_data" "upd" {
  input = { name = "a", tags = { env = "dev", team = "x" }, list = ["p", "q"] }
}
resource "terraform_data" "rep" {
  input            = "same"
  triggers_replace = "v1"
}
resource "terraform_data" "gone" {
  input = "bye"
}
resource "terraform_data" "same" {
  input = "unchanged"
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "s3cret"
}
output "kept" { value = "k" }
output "changed" { value = "old" }
output "dropped" { value = "d" }
TF
terraform init -input=false > "$out/terraform.log" 2>&1 || fail "terraform init" "$out/terraform.log"
terraform apply -input=false -auto-approve -no-color >> "$out/terraform.log" 2>&1 ||
  fail "terraform apply" "$out/terraform.log"

# Phase 2: the configuration to plan.
cat > main.tf <<'TF'
resource "terraform_data" "upd" {
  input = { name = "b", tags = { env = "prod", team = "x" }, list = ["p", "r"] }
}
resource "terraform_data" "rep" {
  input            = "same"
  triggers_replace = "v2"
}
resource "terraform_data" "same" {
  input = "unchanged"
}
resource "terraform_data" "new" {
  input = "hello"
}
resource "terraform_data" "many" {
  count = 1
  input = var.secret
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "s3cret"
}
output "kept" { value = "k" }
output "changed" { value = "new" }
output "secret" {
  value     = var.secret
  sensitive = true
}
output "unknown" { value = terraform_data.new.id }
TF
terraform plan -input=false -no-color > "$out/terraform.plan.txt" 2>> "$out/terraform.log" ||
  fail "terraform plan" "$out/terraform.log"
# The same plan as a person at a terminal gets it (TF_IN_AUTOMATION unset): only its footer
# differs, and it is compared on its own.
env -u TF_IN_AUTOMATION terraform plan -input=false -no-color > "$out/terraform.plan.interactive.txt" \
  2>> "$out/terraform.log" || fail "terraform plan (interactive)" "$out/terraform.log"
terraform plan -input=false -no-color -out=tfplan >> "$out/terraform.log" 2>&1 ||
  fail "terraform plan -out" "$out/terraform.log"
terraform show -json tfplan > "$out/terraform.plan.json" 2>> "$out/terraform.log" ||
  fail "terraform show -json" "$out/terraform.log"

# ---------------------------------------------------------------- Strata CLI
mkdir -p "$work/st/main" && cd "$work/st"
cat > strata.yaml <<'YAML'
project: cmp
stages:
  - { name: main, path: main }
YAML
# Phase 1: the prior state.
cat > main/main.yaml <<'YAML'
variables:
  secret: { type: string, default: s3cret, sensitive: true }
resources:
  upd:
    type: terraform_data
    properties:
      input: { name: a, tags: { env: dev, team: x }, list: [p, q] }
  rep:
    type: terraform_data
    properties: { input: same, triggers_replace: v1 }
  gone:
    type: terraform_data
    properties: { input: bye }
  same:
    type: terraform_data
    properties: { input: unchanged }
outputs:
  kept: { value: k }
  changed: { value: old }
  dropped: { value: d }
YAML
"$strata" init > "$out/strata.log" 2>&1 || fail "strata init" "$out/strata.log"
"$strata" apply -auto-approve -no-color >> "$out/strata.log" 2>&1 || fail "strata apply" "$out/strata.log"

# Phase 2: the configuration to plan.
cat > main/main.yaml <<'YAML'
variables:
  secret: { type: string, default: s3cret, sensitive: true }
resources:
  upd:
    type: terraform_data
    properties:
      input: { name: b, tags: { env: prod, team: x }, list: [p, r] }
  rep:
    type: terraform_data
    properties: { input: same, triggers_replace: v2 }
  same:
    type: terraform_data
    properties: { input: unchanged }
  new:
    type: terraform_data
    properties: { input: hello }
  many:
    type: terraform_data
    count: 1
    properties: { input: "${var.secret}" }
outputs:
  kept: { value: k }
  changed: { value: new }
  secret: { value: "${var.secret}", sensitive: true }
  unknown: { value: "${new.id}" }
YAML
"$strata" plan -no-color > "$out/strata.plan.txt" 2>> "$out/strata.log" || fail "strata plan" "$out/strata.log"
"$strata" plan -json > "$out/strata.plan.json" 2>> "$out/strata.log" || fail "strata plan -json" "$out/strata.log"

# ---------------------------------------------------------------- comparison
cd "$out"
set +e
KEEP_OUT=$([ $# -ge 1 ] && echo 1 || echo 0) python3 - "$out" "$golden" <<'PY'
import difflib, json, os, re, sys

out, golden = sys.argv[1], sys.argv[2]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

# ------------------------------------------------------------------ reporting
class Report:
    def __init__(self, title):
        self.title, self.diffs = title, 0
        print(f"\n==== {title}")
    def check(self, name, problems, allowed=()):
        """problems: lines of real differences; allowed: (reason, detail) pairs."""
        allowed = list(dict.fromkeys(allowed))
        if problems:
            self.diffs += 1
            print(f"DIFF     {name}")
            for p in problems: print(f"           {p}")
        else:
            print(f"{'OK' if not allowed else 'OK*':<8} {name}")
        for reason, detail in allowed:
            print(f"  allowed: {reason}" + (f" [{detail}]" if detail else ""))
    def info(self, name, notes):
        """Reported, never a failure (e.g. the order of keys, which JSON readers ignore)."""
        print(f"{'OK' if not notes else 'INFO':<8} {name}")
        for n in notes: print(f"           {n}")

# ------------------------------------------------------------------ human text
REFRESH = re.compile(r": Refreshing state\.\.\.")
def normalize_text(text):
    text = text.replace("Terraform", "Strata").replace("terraform apply", "strata apply")
    text = UUID.sub("<id>", text)
    text = re.sub(r'(\bid +=) "[^"]*"', r'\1 "<id>"', text)   # short fixture ids too
    return text.splitlines()

# Documented differences in the human text, as rewrites of Terraform's lines into Strata's.
TEXT_ALLOWED = [
    (re.compile(r'^(?!.*# forces replacement)(\s+~ triggers_replace\s+= .+ -> .+)$'), r'\1 # forces replacement',
     'Terraform omits "# forces replacement" on the dynamic-typed triggers_replace; '
     'Strata (every attribute typed) prints it, as Terraform does for typed attributes'),
    (re.compile(r'^(\s+)~ ("[^"]*") -> ("[^"]*"),$'), r'\1- \2,\n\1+ \3,',
     "changed primitive list element: Terraform's dynamic-value renderer prints "
     '~ "q" -> "r", its typed-list renderer (and Strata) - "q", / + "r",'),
]

def footer_start(ls):
    """Index of the interactive footer's rule (the last rule before the -out hint), or len(ls)."""
    for i in range(len(ls) - 1, -1, -1):
        if ls[i].startswith("─") and any(l.startswith("Note: You didn't use the -out option") for l in ls[i:]):
            return i
    return len(ls)

def footer(ls): return ls[footer_start(ls):]

def compare_text(rep, tf_path, st_path, cli):
    """cli: Strata's CLI output (has progress lines and a footer), else a renderer golden."""
    tf = normalize_text(open(tf_path).read())
    st = normalize_text(open(st_path).read())
    if cli:
        tf_r = sorted(l for l in tf if REFRESH.search(l))
        st_r = sorted(l for l in st if REFRESH.search(l))
        problems = []
        if tf_r != st_r:
            problems = [f"Terraform: {l}" for l in tf_r] or ["Terraform: (no refresh lines)"]
            problems += [f"Strata:    {l}" for l in st_r] or ["Strata:    (no refresh lines)"]
        rep.check("human: refresh progress lines", problems)
        # Outside automation Terraform ends the plan with a rule and a hint about -out.
        tf_f = footer(normalize_text(open(os.path.join(out, "terraform.plan.interactive.txt")).read()))
        st_f = footer(st)
        rep.check("human: footer of an interactive plan (TF_IN_AUTOMATION unset)",
                  [] if tf_f == st_f else [f"Terraform: {l}" for l in tf_f if l]
                  + ([f"Strata:    {l}" for l in st_f if l] or ["Strata:    (no footer)"]))
    body = lambda ls: "\n".join(l for l in ls[:footer_start(ls)] if not REFRESH.search(l)).strip("\n").split("\n")
    tf, st = body(tf), body(st)
    allowed, rewritten = [], []
    for line in tf:
        for pat, repl, reason in TEXT_ALLOWED:
            new = pat.sub(repl, line)
            if new != line:
                allowed.append((reason, line.strip()))
                line = new
                break
        rewritten.extend(line.split("\n"))
    base = os.path.splitext(os.path.basename(st_path))[0]
    with open(os.path.join(out, f"{base}.norm.txt"), "w") as f: f.write("\n".join(st) + "\n")
    with open(os.path.join(out, f"terraform.{base}.norm.txt"), "w") as f:
        f.write("\n".join(rewritten) + "\n")
    diff = list(difflib.unified_diff(rewritten, st, "terraform (normalised)", "strata", n=1, lineterm=""))
    rep.check("human: plan text (normalised)", diff, allowed)

# ------------------------------------------------------------------ JSON helpers
def load(p): return json.load(open(p))

def norm_ids(v, key=None):
    if isinstance(v, dict): return {k: norm_ids(x, k) for k, x in v.items()}
    if isinstance(v, list): return [norm_ids(x) for x in v]
    if isinstance(v, str) and (key == "id" or UUID.fullmatch(v)): return "<id>"
    return v

def key_paths(v, p="", acc=None):
    acc = set() if acc is None else acc
    if p: acc.add(p)
    if isinstance(v, dict):
        for k, x in v.items(): key_paths(x, f"{p}.{k}" if p else k, acc)
    elif isinstance(v, list):
        for x in v: key_paths(x, f"{p}.[*]", acc)
    return acc

def flat(v, p="", acc=None):
    """Leaf path -> value (empty containers are leaves)."""
    acc = {} if acc is None else acc
    if isinstance(v, dict) and v:
        for k, x in v.items(): flat(x, f"{p}.{k}" if p else k, acc)
    elif isinstance(v, list) and v:
        for i, x in enumerate(v): flat(x, f"{p}[{i}]", acc)
    else:
        acc[p] = v
    return acc

def value_diff(a, b, prefix=""):
    fa, fb, res = flat(a), flat(b), []
    for k in sorted(set(fa) | set(fb)):
        va, vb = fa.get(k, "<absent>"), fb.get(k, "<absent>")
        if va != vb:
            res.append(f"{prefix}{k + ': ' if k else ''}Terraform {json.dumps(va)} | Strata {json.dumps(vb)}")
    return res

def skeleton(v):
    if isinstance(v, dict): return {k: skeleton(x) for k, x in v.items()}
    if isinstance(v, list): return [skeleton(x) for x in v]
    return type(v).__name__

def by_address(lst): return {r["address"]: r for r in lst or []}

UNKNOWN_TYPED = ("an unknown value has no type in Strata: after_sensitive/sensitive_values omit "
                 "it where Terraform writes {} or [] for an unknown object/list")

def drop_unknown_typed(tf_sens, st_sens, is_unknown, where, allowed):
    """Top-level attributes Terraform flags {} / [] for an unknown value that Strata omits."""
    if not isinstance(tf_sens, dict) or not isinstance(st_sens, dict): return tf_sens
    res = dict(tf_sens)
    for k, v in tf_sens.items():
        if v in ({}, []) and k not in st_sens and is_unknown(k):
            del res[k]
            allowed.append((UNKNOWN_TYPED, f"{where}.{k}"))
    return res

# Key paths allowed to exist on one side only: (regex, side, reason).
KEYS_ALLOWED = [
    (r"^(prior_state\.)?strata_version$", "strata",
     "Strata adds strata_version (terraform_version is the format it mirrors)"),
    (r"^strata_environment$", "strata",
     "Strata's plan -json names the environment it was made in (README \"Environments\")"),
    (r"^relevant_attributes(\.|$)", "terraform",
     "relevant_attributes is not tracked (Terraform omits it when empty)"),
    (r"^configuration\.provider_config\.[^.]+(\.|$)", "both",
     "configuration.provider_config is keyed by the provider's local name (builtin vs terraform)"),
    (r"^configuration\.root_module\..*\.expressions?\..+|^configuration\..*\.count_expression(\.|$)"
     r"|^configuration\.root_module\.variables\.[^.]+\.default$", "terraform",
     "configuration is minimal: no expression contents, count_expression or variable default"),
    (r"^prior_state\.values\.outputs\.", "both",
     "prior_state outputs are the prior ones; Terraform's hold the planned ones"),
]

# ------------------------------------------------------------------ JSON checks
def compare_json(rep, tf_path, st_path):
    tf_raw, st_raw = load(tf_path), load(st_path)
    tf, st = norm_ids(tf_raw), norm_ids(st_raw)
    base = os.path.splitext(os.path.basename(st_path))[0]

    # after_sensitive / sensitive_values gaps explained by unknown values (needed by the key check).
    unknown_typed_paths = set()

    # -- resource_changes
    tf_rc, st_rc = by_address(tf.get("resource_changes")), by_address(st.get("resource_changes"))
    order_t = [r["address"] for r in tf.get("resource_changes", [])]
    order_s = [r["address"] for r in st.get("resource_changes", [])]
    rep.check("json: resource_changes addresses and order",
              [] if order_t == order_s else [f"Terraform {order_t}", f"Strata    {order_s}"])
    addrs = [a for a in order_t if a in st_rc]

    def per_resource(name, get, allowed_fn=None):
        problems, allowed = [], []
        for a in addrs:
            t, s = get(tf_rc[a]), get(st_rc[a])
            if allowed_fn: t = allowed_fn(a, t, s, allowed)
            problems += value_diff(t, s, f"{a}: ")
        rep.check(name, problems, allowed)

    ident = lambda r: {k: r.get(k, "<absent>") for k in ("mode", "type", "name", "index", "module_address")}
    per_resource("json: resource_changes identity (mode, type, name, index, module_address)", ident)
    per_resource("json: change.actions", lambda r: r["change"].get("actions"))
    per_resource("json: action_reason", lambda r: r.get("action_reason", "<absent>"))
    per_resource("json: change.replace_paths", lambda r: r["change"].get("replace_paths", "<absent>"))
    per_resource("json: change.after_unknown", lambda r: r["change"].get("after_unknown"))
    per_resource("json: change.before_sensitive", lambda r: r["change"].get("before_sensitive"))

    def after_sens_allowed(a, t, s, allowed):
        unk = tf_rc[a]["change"].get("after_unknown") or {}
        res = drop_unknown_typed(t, s, lambda k: isinstance(unk, dict) and unk.get(k) is True,
                                 f"{a}.after_sensitive", allowed)
        if res != t: unknown_typed_paths.update(
            f"resource_changes.[*].change.after_sensitive.{k}" for k in set(t) - set(res))
        return res
    per_resource("json: change.after_sensitive", lambda r: r["change"].get("after_sensitive"),
                 after_sens_allowed)
    per_resource("json: change.before / change.after (ids -> <id>)",
                 lambda r: {"before": r["change"].get("before"), "after": r["change"].get("after")})

    # -- provider_name: the provider's source address. Strata's provider lives in its own
    # namespace (strata/builtin), so the value may differ; it must still be a source address
    # (namespace/type), the same in every section and equal to provider_config's full_name.
    def provs(doc):
        res = []
        for sec, lst in (("resource_changes", doc.get("resource_changes")),
                         ("planned_values", doc.get("planned_values", {}).get("root_module", {}).get("resources")),
                         ("prior_state", doc.get("prior_state", {}).get("values", {}).get("root_module", {}).get("resources"))):
            res += [(f"{sec}[*].provider_name", r.get("provider_name")) for r in lst or []]
        res += [("configuration.provider_config.*.full_name", v.get("full_name"))
                for v in doc.get("configuration", {}).get("provider_config", {}).values()]
        return res
    problems, allowed = [], []
    tvals = {v for _, v in provs(tf)}
    groups = {}
    for where, v in provs(st): groups.setdefault(v, []).append(where)
    t = " / ".join(json.dumps(v) for v in sorted(tvals, key=str))
    for v, wheres in groups.items():
        places = ", ".join(dict.fromkeys(wheres))
        if not isinstance(v, str) or "/" not in v:
            problems.append(f"{places} ({len(wheres)}x): Terraform {t} | Strata {json.dumps(v)}"
                            " (not a provider source address)")
        elif {v} != tvals:
            allowed.append(("provider_name is Strata's own provider source address", f"{t} vs {json.dumps(v)}"))
    if len(groups) > 1:
        problems.append(f"Strata uses several provider names for one provider: {sorted(groups, key=str)}")
    rep.check("json: provider_name (a provider source address)", problems, allowed)

    # -- output_changes
    problems = []
    to, so = tf.get("output_changes", {}), st.get("output_changes", {})
    if list(to) != list(so): problems.append(f"names: Terraform {list(to)} | Strata {list(so)}")
    for n in to:
        if n in so: problems += value_diff(to[n], so[n], f"{n}: ")
    rep.check("json: output_changes (actions, before/after, after_unknown, sensitivity)", problems)

    # -- planned_values: structure (keys, types, lengths) and values, resources by address
    problems, allowed = [], []
    tpv, spv = tf.get("planned_values", {}), st.get("planned_values", {})
    if list(tpv) != list(spv): problems.append(f"keys: Terraform {list(tpv)} | Strata {list(spv)}")
    problems += value_diff(skeleton(tpv.get("outputs")), skeleton(spv.get("outputs")), "outputs (types) ")
    problems += value_diff(tpv.get("outputs"), spv.get("outputs"), "outputs ")
    tr = by_address(tpv.get("root_module", {}).get("resources"))
    sr = by_address(spv.get("root_module", {}).get("resources"))
    if list(tr) != list(sr): problems.append(f"resources: Terraform {list(tr)} | Strata {list(sr)}")
    for a in tr:
        if a not in sr: continue
        t, s = dict(tr[a]), dict(sr[a])
        t.pop("provider_name", None); s.pop("provider_name", None)   # checked above
        if list(t) != list(s): problems.append(f"{a} keys: Terraform {list(t)} | Strata {list(s)}")
        vals = t.get("values", {})
        t["sensitive_values"] = drop_unknown_typed(
            t.get("sensitive_values"), s.get("sensitive_values"), lambda k: k not in vals,
            f"{a}.sensitive_values", allowed)
        if t["sensitive_values"] != tr[a].get("sensitive_values"):
            unknown_typed_paths.update(f"planned_values.root_module.resources.[*].sensitive_values.{k}"
                                       for k in set(tr[a]["sensitive_values"]) - set(t["sensitive_values"]))
        problems += value_diff(skeleton(t), skeleton(s), f"{a} (types) ")
        problems += value_diff(t, s, f"{a} ")
    rep.check("json: planned_values (structure and values)", problems, allowed)

    # -- prior_state: resources equal; outputs are a documented difference
    problems, allowed = [], []
    tps, sps = tf.get("prior_state", {}), st.get("prior_state", {})
    for k in ("format_version",):
        if tps.get(k) != sps.get(k): problems.append(f"{k}: Terraform {tps.get(k)!r} | Strata {sps.get(k)!r}")
    tr = by_address(tps.get("values", {}).get("root_module", {}).get("resources"))
    sr = by_address(sps.get("values", {}).get("root_module", {}).get("resources"))
    if list(tr) != list(sr): problems.append(f"resources: Terraform {list(tr)} | Strata {list(sr)}")
    for a in tr:
        if a in sr:
            t, s = dict(tr[a]), dict(sr[a])
            t.pop("provider_name", None); s.pop("provider_name", None)
            problems += value_diff(t, s, f"{a} ")
    if tps.get("values", {}).get("outputs") != sps.get("values", {}).get("outputs"):
        allowed.append(("prior_state outputs are the prior ones; Terraform's hold the planned ones", ""))
    rep.check("json: prior_state (resources)", problems, allowed)

    # -- configuration: only the parts Strata fills
    problems = []
    tcfg, scfg = tf.get("configuration", {}).get("root_module", {}), st.get("configuration", {}).get("root_module", {})
    pick = lambda r: {k: r.get(k) for k in ("address", "mode", "type", "name", "schema_version")}
    problems += value_diff([pick(r) for r in tcfg.get("resources", [])],
                           [pick(r) for r in scfg.get("resources", [])], "resources")
    problems += value_diff({n: o.get("sensitive", False) for n, o in tcfg.get("outputs", {}).items()},
                           {n: o.get("sensitive", False) for n, o in scfg.get("outputs", {}).items()},
                           "outputs sensitive ")
    problems += value_diff({n: v.get("sensitive", False) for n, v in tcfg.get("variables", {}).items()},
                           {n: v.get("sensitive", False) for n, v in scfg.get("variables", {}).items()},
                           "variables sensitive ")
    rep.check("json: configuration (resources, output/variable sensitivity)", problems,
              [("configuration is minimal: no expression contents, count_expression or variable default", "")])

    # -- header values
    problems, allowed = [], []
    for k in ("format_version", "applyable", "complete", "errored", "variables"):
        problems += value_diff(tf.get(k, "<absent>"), st.get(k, "<absent>"), f"{k} ")
    if tf.get("terraform_version") != st.get("terraform_version"):
        allowed.append(("terraform_version is the Terraform release whose format Strata mirrors",
                        f"{tf.get('terraform_version')} vs {st.get('terraform_version')}"))
    rep.check("json: format_version, terraform_version, variables, applyable, complete, errored",
              problems, allowed)

    # -- top-level key order
    tk = [k for k in tf if k != "relevant_attributes"]
    sk = [k for k in st if k not in ("strata_version", "strata_environment")]
    rep.check("json: top-level key order", [] if tk == sk else [f"Terraform {tk}", f"Strata    {sk}"],
              [("strata_version and strata_environment added / relevant_attributes not produced", "")])

    # -- order of the shared keys inside every object (informational)
    def orders(v, p="", acc=None):
        acc = {} if acc is None else acc
        if isinstance(v, dict):
            acc.setdefault(p or "(top)", [])
            for k in v:
                if k not in acc[p or "(top)"]: acc[p or "(top)"].append(k)
            for k, x in v.items(): orders(x, f"{p}.{k}" if p else k, acc)
        elif isinstance(v, list):
            for x in v: orders(x, f"{p}.[*]", acc)
        return acc
    ot, os_ = orders(tf_raw), orders(st_raw)
    notes = []
    for p in sorted(set(ot) & set(os_)):
        a = [k for k in ot[p] if k in os_[p]]
        b = [k for k in os_[p] if k in ot[p]]
        if a != b: notes.append(f"{p}: Terraform {a} | Strata {b}")
    rep.info("json: order of the shared keys in each object (not a failure)", notes)

    # -- key paths, array indexes collapsed
    kt, ks = key_paths(tf_raw), key_paths(st_raw)
    with open(os.path.join(out, "keys.terraform.txt"), "w") as f: f.write("\n".join(sorted(kt)) + "\n")
    with open(os.path.join(out, f"keys.{base}.txt"), "w") as f: f.write("\n".join(sorted(ks)) + "\n")
    problems, allowed = [], []
    for side, only in (("terraform", kt - ks), ("strata", ks - kt)):
        for k in sorted(only):
            reason = next((r for pat, sd, r in KEYS_ALLOWED if sd in (side, "both") and re.search(pat, k)), None)
            if reason is None and side == "terraform" and k in unknown_typed_paths: reason = UNKNOWN_TYPED
            if reason: allowed.append((reason, None))
            else: problems.append(f"only in {'Terraform' if side == 'terraform' else 'Strata'}: {k}")
    n_allowed = len([1 for side, only in (("t", kt - ks), ("s", ks - kt)) for _ in only]) - len(problems)
    rep.check(f"json: key paths ({len(kt & ks)} shared, {n_allowed} explained one-sided)", problems,
              [(r, "") for r, _ in allowed])

total = 0
rep = Report("Strata CLI (strata plan -no-color / plan -json) vs Terraform (plan -no-color / show -json)")
compare_text(rep, os.path.join(out, "terraform.plan.txt"), os.path.join(out, "strata.plan.txt"), True)
compare_json(rep, os.path.join(out, "terraform.plan.json"), os.path.join(out, "strata.plan.json"))
total += rep.diffs
rep = Report("Strata renderer fixture (tests/golden/plan/terraform_data.{txt,json}) vs Terraform")
compare_text(rep, os.path.join(out, "terraform.plan.txt"), os.path.join(golden, "terraform_data.txt"), False)
compare_json(rep, os.path.join(out, "terraform.plan.json"), os.path.join(golden, "terraform_data.json"))
total += rep.diffs
keep = os.environ.get("KEEP_OUT") == "1"
print(f"\n==== {'FAILED: ' + str(total) + ' check(s) differ' if total else 'PASSED: every check agrees'}"
      + (f" (files in {out})" if keep else " (pass OUTDIR to keep the files)"))
sys.exit(1 if total else 0)
PY
rc=$?
exit $rc
