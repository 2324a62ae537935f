#!/usr/bin/env bash
# The CI examples (examples/ci/): both files parse as YAML (PyYAML when present, else Strata's
# own yamldecode through `strata console`), have the shape their CI system expects (plan on
# pull requests, apply of the saved plans on main behind an approval, OIDC, caches), and
# every `strata` command they run exists with the flags they pass, as `strata ... --help`
# lists them.
source "$(dirname "$0")/lib.sh"
ci="$STRATA_SOURCE_DIR/examples/ci"
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }

# to_json FILE: the YAML file as JSON on stdout.
to_json() {
  if python3 -c 'import yaml' 2>/dev/null; then
    python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), default=str))' "$1"
  else
    # The console prints the string in expression syntax: quotes, JSON escapes, $${ for ${.
    (cd "$work" && echo "jsonencode(yamldecode(file(\"$1\")))" | "$STRATA" console) |
      python3 -c 'import json,sys; s=json.loads(sys.stdin.read().strip()); print(s.replace("$${","${").replace("%%{","%{"))'
  fi
}

for f in github-actions.yml bitbucket-pipelines.yml; do
  if to_json "$ci/$f" >"$work/$f.json" 2>"$work/stderr" && [ -s "$work/$f.json" ]; then pass "$f parses"; else
    fail "$f does not parse: $(cat "$work/stderr")"; fi
done

# Structure: what each CI system needs for the plan/approve/apply split.
python3 - "$work/github-actions.yml.json" "$work/bitbucket-pipelines.yml.json" >"$work/structure" <<'PY'
import json, sys
gh = json.load(open(sys.argv[1]))
bb = json.load(open(sys.argv[2]))
def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name)
on = gh.get("on", gh.get("True", gh.get("true", {})))  # YAML 1.1 reads `on` as true
jobs = gh.get("jobs", {})
check("github: runs on pull requests and on pushes to main", "pull_request" in on and "main" in on.get("push", {}).get("branches", []))
check("github: the OIDC token permission", gh.get("permissions", {}).get("id-token") == "write")
check("github: plan and apply jobs", {"plan", "apply"} <= set(jobs))
check("github: apply waits for the plan job", "plan" in jobs.get("apply", {}).get("needs", []))
check("github: apply behind an environment (the approval)", bool(jobs.get("apply", {}).get("environment")))
check("github: apply only on main", "refs/heads/main" in jobs.get("apply", {}).get("if", ""))
check("github: the build is cached", any("actions/cache" in s.get("uses", "") for j in jobs.values() for s in j.get("steps", [])))
env = gh.get("env", {})
check("github: state in PostgreSQL from the STRATA_PG_URL secret", "secrets.STRATA_PG_URL" in env.get("STRATA_PG_URL", ""))
check("github: web identity credentials", {"AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE"} <= set(env))
uploads = [s for s in jobs.get("plan", {}).get("steps", []) if "upload-artifact" in s.get("uses", "")]
paths = " ".join(s.get("with", {}).get("path", "") for s in uploads)
check("github: plan text and JSON plans as artifacts", "plan.txt" in paths and ".json" in paths)
steps = {s["step"]["name"]: s["step"] for s in bb.get("definitions", {}).get("steps", [])}
plan = next((s for n, s in steps.items() if "plan" in n), {})
apply = next((s for n, s in steps.items() if "apply" in n), {})
check("bitbucket: plan on pull requests", bool(bb.get("pipelines", {}).get("pull-requests")))
main = bb.get("pipelines", {}).get("branches", {}).get("main", [])
check("bitbucket: plan then apply on main", len(main) == 2 and "apply" in main[1]["step"]["name"])
check("bitbucket: apply is a manual production deployment", apply.get("trigger") == "manual" and apply.get("deployment") == "production")
check("bitbucket: OIDC on both steps", plan.get("oidc") is True and apply.get("oidc") is True)
check("bitbucket: the build is cached", "strata-bin" in bb.get("definitions", {}).get("caches", {}))
check("bitbucket: plan artifacts", "plan.txt" in plan.get("artifacts", []))
check("bitbucket: web identity token", "AWS_WEB_IDENTITY_TOKEN_FILE" in " ".join(plan.get("script", [])))
PY
while read -r line; do
  case $line in "ok   "*) pass "${line#ok   }" ;; *) fail "${line#FAIL }" ;; esac
done <"$work/structure"

# Every strata command: its verb exists and it knows every flag given.
python3 - "$work/github-actions.yml.json" "$work/bitbucket-pipelines.yml.json" >"$work/commands" <<'PY'
import json, re, shlex, sys
# The shell the files run: GitHub's `run:` and Bitbucket's `script:` entries.
def scripts(v, key=None):
    if isinstance(v, str):
        if key in ("run", "script"): yield v
    elif isinstance(v, dict):
        for k, x in v.items(): yield from scripts(x, k)
    elif isinstance(v, list):
        for x in v: yield from scripts(x, key)
seen = set()
for path in sys.argv[1:]:
    for s in scripts(json.load(open(path))):
        s = s.replace("\\\n", " ")
        for m in re.finditer(r"(?:^|[\s;&('\"])strata\s+(-[^|;&>\n]*|[a-z][^|;&>\n]*)", s):
            line = json.dumps(shlex.split(m.group(1).replace("$", "")), ensure_ascii=False)
            if line not in seen:
                seen.add(line)
                print(line)
PY
n=$(wc -l <"$work/commands")
if [ "$n" -ge 3 ]; then pass "the examples run $n distinct strata commands"; else fail "only $n strata commands found"; fi
root_help=$("$STRATA" --help)
while read -r cmd; do
  mapfile -t args < <(python3 -c 'import json,sys; print("\n".join(json.loads(sys.argv[1])))' "$cmd")
  i=0
  while [ $i -lt ${#args[@]} ] && [[ ${args[$i]} == -* ]]; do  # global flags
    flag=${args[$i]#-}; flag=${flag#-}; flag=${flag%%=*}
    if grep -qF -- "--$flag" <<<"$root_help"; then pass "strata -$flag (global)"; else fail "strata has no global -$flag"; fi
    i=$((i + 1))
  done
  verb=(${args[$i]})
  [ "${args[$i]}" = pipeline ] && verb+=("${args[$((i + 1))]}") && i=$((i + 1))
  i=$((i + 1))
  if ! help=$("$STRATA" "${verb[@]}" --help 2>&1) || ! grep -qF "Usage: strata ${verb[*]}" <<<"$help"; then
    fail "strata ${verb[*]} is no command"; continue
  fi
  for ((; i < ${#args[@]}; i++)); do
    [[ ${args[$i]} == -* ]] || continue
    flag=${args[$i]#-}; flag=${flag#-}; flag=${flag%%=*}
    if grep -qE -- "--$flag( |,|$)" <<<"$help"; then pass "strata ${verb[*]} -$flag"; else fail "strata ${verb[*]} has no -$flag"; fi
  done
done <"$work/commands"
finish
