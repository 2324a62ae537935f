# Shared helpers for the end-to-end tests: they drive the real binary ($STRATA).
set -uo pipefail
: "${STRATA:?STRATA must point at the strata binary}"
: "${STRATA_SOURCE_DIR:?}"
passed=0
failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME EXPECTED_EXIT CMD...: runs CMD, captures stdout/stderr into $out/$err.
run() {
  local name=$1 expected=$2
  shift 2
  out=$("$@" 2>"$work/stderr") && code=0 || code=$?
  err=$(cat "$work/stderr")
  if [ "$code" != "$expected" ]; then
    fail "$name: exit $code, expected $expected${err:+ (stderr: $err)}"
    return 1
  fi
  return 0
}
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
# expect NAME HAYSTACK NEEDLE
expect() {
  if grep -qF -- "$3" <<<"$2"; then pass "$1"; else fail "$1: expected to find [$3] in:"; echo "$2" | head -40; fi
}
# converged NAME: passes when the plan in $out (one right after an apply) has nothing to do
# and no "Objects have changed outside of Strata" note.
converged() {
  if ! grep -qF "No changes." <<<"$out"; then
    fail "$1: the plan has changes:"; grep -E '^  # |^Plan:' <<<"$out" | head -20
  elif grep -qF "changed outside" <<<"$out"; then
    fail "$1: the plan notes changes outside Strata:"; grep -E '^  # ' <<<"$out" | head -20
  else pass "$1"; fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# serve_sandbox ARGS...: starts `strata sandbox serve ARGS...` in the background (its pid in
# $server, stopped at exit), waits for it to listen and sets $url to its AWS endpoint.
# Returns 1, with the server's log on stdout, when it did not start.
serve_sandbox() {
  "$STRATA" sandbox serve "$@" >"$work/serve.log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
  url=""
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^Strata sandbox serving AWS .* on \(http:[^ ]*\)$/\1/p' "$work/serve.log")
    [ -n "$url" ] && return 0
    sleep 0.1
  done
  echo "the sandbox did not start:"
  cat "$work/serve.log"
  return 1
}

# aws_cli_on_sandbox: the AWS CLI as the sandbox's client — the sandbox's key pair and
# region, no profile or config file; `awscli ARGS...` sends to $url (serve_sandbox's), JSON
# out; `field EXPR` reads a member of the JSON on stdin ("['Vpc']['VpcId']"); `refused
# NAME CMD...` passes when CMD fails as a service error (the AWS CLI exits 254; v1 255),
# with its stderr in $err.
aws_cli_on_sandbox() {
  export AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
  export AWS_DEFAULT_REGION=us-west-2 AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
  unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL
}
awscli() { aws --endpoint-url "$url" --output json "$@"; }
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d'+sys.argv[1]))" "$1"; }
refused() {
  local name=$1
  shift
  out=$("$@" 2>"$work/stderr") && code=0 || code=$?
  err=$(cat "$work/stderr")
  if [ "$code" = 254 ] || [ "$code" = 255 ]; then pass "$name"; else fail "$name: exit $code${err:+ ($err)}"; fi
}

# sandbox_eks_cluster NAME OCTET: an EKS cluster NAME made with the AWS CLI on $url (a VPC
# 10.OCTET.0.0/16, two subnets, a role), waited ACTIVE; sets $vpc, $subnet_a, $subnet_b,
# $role (and $trust, its EKS trust policy), $endpoint and $ca_data. Needs
# aws_cli_on_sandbox's environment. Returns 1 (with a failure counted) when the cluster is
# not made.
sandbox_eks_cluster() {
  local name=$1 octet=$2
  sandbox_aws() { aws --endpoint-url "$url" --output text "$@"; }
  vpc=$(sandbox_aws ec2 create-vpc --cidr-block "10.$octet.0.0/16" --query Vpc.VpcId) || { fail "create-vpc"; return 1; }
  subnet_a=$(sandbox_aws ec2 create-subnet --vpc-id "$vpc" --cidr-block "10.$octet.1.0/24" --availability-zone us-west-2a --query Subnet.SubnetId)
  subnet_b=$(sandbox_aws ec2 create-subnet --vpc-id "$vpc" --cidr-block "10.$octet.2.0/24" --availability-zone us-west-2b --query Subnet.SubnetId)
  trust='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"eks.amazonaws.com"},"Action":"sts:AssumeRole"}]}'
  role=$(sandbox_aws iam create-role --role-name "$name-cluster" --assume-role-policy-document "$trust" --query Role.Arn)
  run "eks create-cluster" 0 sandbox_aws eks create-cluster --name "$name" --role-arn "$role" \
    --resources-vpc-config "subnetIds=$subnet_a,$subnet_b" --query cluster.status || return 1
  for _ in $(seq 1 50); do
    [ "$(sandbox_aws eks describe-cluster --name "$name" --query cluster.status)" = ACTIVE ] && break
    sleep 0.1
  done
  endpoint=$(sandbox_aws eks describe-cluster --name "$name" --query cluster.endpoint)
  ca_data=$(sandbox_aws eks describe-cluster --name "$name" --query cluster.certificateAuthority.data)
}

# start_pg_server: a throw-away PostgreSQL server (pg_server.sh) in a new $pgdir, its libpq
# connection string in $conninfo; exits 77 (skipped, saying why) when none can be had. The
# caller's EXIT trap stops it: bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" stop "$pgdir".
start_pg_server() {
  pgdir=$(mktemp -d /tmp/strata-e2e-pg-XXXXXX)
  if ! conninfo=$(bash "$STRATA_SOURCE_DIR/tests/e2e/pg_server.sh" start "$pgdir" 2>"$work/pg.err"); then
    echo "SKIPPED: $(cat "$work/pg.err")"
    rm -rf "$pgdir"
    exit 77
  fi
}
