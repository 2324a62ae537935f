#!/usr/bin/env bash
# End-to-end: environments (README "Environments") on a builtin-only project of two stages:
# env new/select/list/show/delete, -env and STRATA_ENV, ${env.name}, envs/NAME.yaml, two
# environments applied side by side with separate state, ${stage.S.X} read in the same
# environment, and a lock message naming the environment.
source "$STRATA_SOURCE_DIR/tests/e2e/lib.sh"
unset STRATA_ENV

proj="$work/p"
mkdir -p "$proj/net" "$proj/app" "$proj/envs"
cat >"$proj/strata.yaml" <<'YAML'
project: e2e-envs
stages:
  - { name: net, path: net }
  - { name: app, path: app }
YAML
cat >"$proj/net/main.yaml" <<'YAML'
variables:
  size: { type: number, default: 1 }
resources:
  vpc:
    type: terraform_data
    properties:
      input: "vpc-${env.name}-${var.size}"
outputs:
  vpc_name: { value: "${vpc.output}" }
YAML
cat >"$proj/app/main.yaml" <<'YAML'
resources:
  svc:
    type: terraform_data
    properties:
      input: "svc on ${stage.net.vpc_name}"
outputs:
  where: { value: "${svc.output}" }
YAML
cat >"$proj/envs/prod.yaml" <<'YAML'
size: 3
replicas: 5   # another stage's variable: not this stage's business, no warning
YAML
cd "$proj"

run "env show (default)" 0 "$STRATA" env show && expect "default is selected at first" "$out" "default"
run "apply net in default" 0 "$STRATA" apply -auto-approve net &&
  expect "\${env.name} is default" "$out" 'vpc_name = "vpc-default-1"'
if grep -q "environment default" <<<"$out"; then fail "the default environment's plan has no header"; else pass "no header in default"; fi

run "env new prod" 0 "$STRATA" env new prod && expect "new selects" "$out" 'Created and switched to environment "prod"'
run "env new prod again" 1 "$STRATA" env new prod && expect "an existing name is refused" "$err" "already exists"
run "env new bad name" 1 "$STRATA" env new "a/b" && expect "a bad name is refused" "$err" "letters, digits"
run "env show (prod)" 0 "$STRATA" env show && expect "show prints the selection" "$out" "prod"
[ "$(cat .strata/environment)" = prod ] && pass "selection recorded in .strata/environment" || fail "selection file"

run "plan app in prod before net" 1 "$STRATA" plan app &&
  expect "stage outputs are prod's" "$err" 'has not been applied in environment "prod" yet'
run "apply net in prod" 0 "$STRATA" apply -auto-approve net
expect "plan header names the environment" "$out" "Stage net, environment prod"
expect "envs/prod.yaml sets the variable" "$out" 'vpc_name = "vpc-prod-3"'
if grep -q "replicas" <<<"$out$err"; then fail "envs file's other names warned"; else pass "envs file names of other stages are quiet"; fi
run "apply app in prod" 0 "$STRATA" apply -auto-approve app && expect "\${stage.net.X} read in prod" "$out" 'where = "svc on vpc-prod-3"'
run "-var over envs file" 0 "$STRATA" plan -var size=4 net && expect "-var wins over envs/prod.yaml" "$out" '"vpc-prod-3" -> "vpc-prod-4"'

run "state list in prod" 0 "$STRATA" state list app && expect "prod has app" "$out" "terraform_data.svc"
run "output in default via -env" 0 "$STRATA" -env default output net && expect "default keeps its own outputs" "$out" 'vpc_name = "vpc-default-1"'
run "default has no app" 0 "$STRATA" -env default state list app
[ -z "$out" ] && pass "default's app stage is empty" || fail "default's app stage: $out"
run "STRATA_ENV over the selection" 0 env STRATA_ENV=default "$STRATA" output -raw net vpc_name &&
  expect "STRATA_ENV picks default" "$out" "vpc-default-1"
run "-env over STRATA_ENV" 0 env STRATA_ENV=default "$STRATA" -env prod output -raw net vpc_name &&
  expect "-env wins" "$out" "vpc-prod-3"
run "unknown -env" 1 "$STRATA" -env nope plan net && expect "a missing environment is named" "$err" "strata env new nope"

run "env list" 0 "$STRATA" env list
expect "list marks the selection" "$out" "* prod  (2 stages, 2 resources)"
expect "list shows default" "$out" "  default  (1 stage, 1 resource)"

run "plan -json carries the environment" 0 "$STRATA" plan -json net &&
  python3 -c 'import json,sys; assert json.loads(sys.argv[1])["strata_environment"] == "prod"' "$out" &&
  pass "plan -json environment" || fail "plan -json environment"

run "saved plan in prod" 0 "$STRATA" plan -var size=5 -out prod.plan net
run "applied in another environment" 1 "$STRATA" -env default apply prod.plan &&
  expect "a saved plan stays in its environment" "$err" 'made in environment "prod"'

if command -v sqlite3 >/dev/null; then
  sqlite3 .strata/state.db "INSERT INTO locks VALUES('prod/net', 'prod-lock-id', 'ghost', '$(uname -n)', $$, 0, 'apply', 1700000000000)"
  run "locked in prod" 1 "$STRATA" plan net &&
    expect "the lock message names the environment" "$err" 'stage "net" in environment "prod" is locked by ghost'
  run "default not locked" 0 "$STRATA" -env default plan net
  run "force-unlock" 0 "$STRATA" force-unlock -force prod-lock-id &&
    expect "force-unlock names the environment" "$out" "stage net in environment prod has been released"
fi

run "delete selected" 1 "$STRATA" env delete prod && expect "the selected one is refused" "$err" "select another"
run "select default" 0 "$STRATA" env select default && expect "select says so" "$out" 'Switched to environment "default"'
[ ! -e .strata/environment ] && pass "selecting default removes the record" || fail "selection file left"
run "select missing" 1 "$STRATA" env select nope && expect "selecting a missing one is refused" "$err" "does not exist"
run "delete default" 1 "$STRATA" env delete default && expect "default stays" "$err" "cannot be deleted"
run "delete non-empty" 1 "$STRATA" env delete prod && expect "non-empty needs -force" "$err" "2 resource instances (stage app: 1, stage net: 1)"
run "delete -force" 0 "$STRATA" env delete -force prod && expect "deleted" "$out" 'Deleted environment "prod"'
run "env list after" 0 "$STRATA" env list
[ "$out" = "* default  (1 stage, 1 resource)" ] && pass "only default is left" || fail "list after delete: $out"

sed -i 's/\${env.name}/${env.region}/' net/main.yaml
run "validate env.region" 1 "$STRATA" validate net &&
  expect "env.X other than name is an error with its place" "$err" "net/main.yaml:7:" &&
  expect "and says what to write" "$err" "use env.name"

finish
