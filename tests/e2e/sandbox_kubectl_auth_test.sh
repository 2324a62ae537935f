#!/usr/bin/env bash
# Who may talk to an EKS cluster's endpoint in the sandbox, checked with the real clients:
# `strata sandbox serve --kubeconfig F` writes a kubeconfig (0600) whose client certificate
# kubectl uses to reach every cluster (the endpoint answers 404 until the Kubernetes API is
# served: the 404 proves TLS and the certificate were accepted); a certificate from another
# CA gets 401; `aws eks get-token` tokens made against the sandbox's STS are accepted by curl
# and kubectl for their cluster and refused (401) for another; `strata sandbox kubeconfig`
# prints the same clusters.
source "$(dirname "$0")/lib.sh"

for tool in aws kubectl curl openssl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "*** SKIPPING the kubectl authentication test: no '$tool' on PATH."
    exit 77
  fi
done

kubeconfig="$work/kube/config"
mkdir -p "$work/kube"
serve_sandbox --state "$work/world.db" --cluster-delay-ms 300 --kubeconfig "$kubeconfig" || exit 1
expect "serve tells where the kubeconfig is" "$(cat "$work/serve.log")" "export KUBECONFIG=$kubeconfig"

export AWS_ACCESS_KEY_ID=AKIASTRATASANDBOX001 AWS_SECRET_ACCESS_KEY=strata-sandbox-secret-access-key
export AWS_DEFAULT_REGION=us-west-2 AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL KUBECONFIG
awscli() { aws --endpoint-url "$url" --output json "$@"; }
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval('d'+sys.argv[1]))" "$1"; }

# A cluster, made as the AWS CLI makes one: its creator is the sandbox user.
run "create-vpc" 0 awscli ec2 create-vpc --cidr-block 10.30.0.0/16 && vpc=$(field "['Vpc']['VpcId']" <<<"$out")
run "subnet a" 0 awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.30.1.0/24 --availability-zone us-west-2a &&
  subnet_a=$(field "['Subnet']['SubnetId']" <<<"$out")
run "subnet b" 0 awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.30.2.0/24 --availability-zone us-west-2b &&
  subnet_b=$(field "['Subnet']['SubnetId']" <<<"$out")
trust='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"eks.amazonaws.com"},"Action":"sts:AssumeRole"}]}'
run "create-role" 0 awscli iam create-role --role-name kube-cluster --assume-role-policy-document "$trust" &&
  role_arn=$(field "['Role']['Arn']" <<<"$out")
run "create-cluster" 0 awscli eks create-cluster --name kube --role-arn "$role_arn" \
  --resources-vpc-config "subnetIds=$subnet_a,$subnet_b" --access-config authenticationMode=API_AND_CONFIG_MAP

# The kubeconfig is rewritten once the cluster is ACTIVE (the server polls every second).
for _ in $(seq 1 50); do grep -q "name: kube$" "$kubeconfig" 2>/dev/null && break; sleep 0.2; done
expect "the kubeconfig names the cluster" "$(cat "$kubeconfig" 2>/dev/null)" "name: kube"
expect "the kubeconfig is private" "$(stat -c %a "$kubeconfig")" "600"

run "describe-cluster" 0 awscli eks describe-cluster --name kube
endpoint=$(field "['cluster']['endpoint']" <<<"$out")
field "['cluster']['certificateAuthority']['data']" <<<"$out" | base64 -d >"$work/ca.pem"

if run "kubectl config view" 0 kubectl --kubeconfig "$kubeconfig" config view; then
  expect "config view: the server is the cluster's endpoint" "$out" "server: $endpoint"
  expect "config view: current context" "$out" "current-context: kube"
fi
# TLS and the client certificate pass: the cluster's API answers. (`get --raw` drops the
# server URL's path: /version reaches the endpoint as /version, the world's only cluster's.)
run "kubectl get --raw /version with the client certificate" 0 kubectl --kubeconfig "$kubeconfig" get --raw /version
expect "the client certificate is admitted" "$out" '"gitVersion"'
run "kubectl get --raw under the cluster's path" 0 kubectl --kubeconfig "$kubeconfig" get --raw /clusters/kube/version
expect "the client certificate is admitted for the cluster" "$out" '"gitVersion"'
run "kubectl get --raw for a cluster that does not exist" 1 kubectl --kubeconfig "$kubeconfig" get --raw /clusters/nope/version
expect "a missing cluster is NotFound by name" "$err" 'the sandbox has no EKS cluster "nope"'

# Another CA's certificate: kube-apiserver's answer, 401.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/O=system:masters/CN=mallory" \
  -addext "extendedKeyUsage=clientAuth" -keyout "$work/bad.key" -out "$work/bad.crt" 2>/dev/null
python3 - "$kubeconfig" "$work/bad.crt" "$work/bad.key" >"$work/bad-config" <<'PY'
import base64, re, sys
text = open(sys.argv[1]).read()
cert = base64.b64encode(open(sys.argv[2], "rb").read()).decode()
key = base64.b64encode(open(sys.argv[3], "rb").read()).decode()
text = re.sub(r"client-certificate-data: \S+", "client-certificate-data: " + cert, text)
text = re.sub(r"client-key-data: \S+", "client-key-data: " + key, text)
print(text)
PY
run "kubectl with another CA's certificate" 1 kubectl --kubeconfig "$work/bad-config" get --raw /clusters/kube/version
expect "another CA's certificate is Unauthorized" "$err" "Unauthorized"
code=$(curl -sS --cacert "$work/ca.pem" --cert "$work/bad.crt" --key "$work/bad.key" -o /dev/null -w '%{http_code}' "$endpoint/version")
expect "curl with another CA's certificate is 401" "$code" "401"

# `aws eks get-token` against the sandbox's STS: the verifier must accept what the CLI makes.
token_for() {
  AWS_ENDPOINT_URL_STS="$url" aws eks get-token --cluster-name "$1" --output json |
    python3 -c "import json,sys; print(json.load(sys.stdin)['status']['token'])"
}
token=$(token_for kube)
expect "the CLI's token" "$token" "k8s-aws-v1."
code=$(curl -sS --cacert "$work/ca.pem" -H "Authorization: Bearer $token" -o "$work/body" -w '%{http_code}' "$endpoint/version")
expect "curl with the CLI's token is admitted" "$code" "200"
code=$(curl -sS --cacert "$work/ca.pem" -H "Authorization: Bearer $(token_for other)" -o "$work/body" -w '%{http_code}' "$endpoint/version")
expect "a token for another cluster is 401" "$code" "401"
expect "the 401 is a Status" "$(cat "$work/body")" '"reason":"Unauthorized"'
code=$(curl -sS --cacert "$work/ca.pem" -o /dev/null -w '%{http_code}' "$endpoint/version")
expect "no credentials is 401" "$code" "401"
# A token is valid for one cluster, the one the path names.
run "kubectl with the CLI's token" 0 kubectl --server "$endpoint" --certificate-authority "$work/ca.pem" \
  --token "$token" --kubeconfig /dev/null get --raw /clusters/kube/version
expect "kubectl with the CLI's token is admitted" "$out" '"gitVersion"'

# EKS access entries, driven by the AWS CLI: another role's sessions are authenticated but
# allowed nothing until an entry with AmazonEKSClusterAdminPolicy maps the role.
run "list-access-entries: the creator's own" 0 awscli eks list-access-entries --cluster-name kube
expect "the creator has an entry from the start" "$out" "arn:aws:iam::"
run "create-role ci-deployer" 0 awscli iam create-role --role-name ci-deployer --assume-role-policy-document \
  '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"sts:AssumeRole"}]}' &&
  ci_role=$(field "['Role']['Arn']" <<<"$out")
run "assume-role ci-deployer" 0 awscli sts assume-role --role-arn "$ci_role" --role-session-name pipeline-7
ci_env=$(field "['Credentials']" <<<"$out" | python3 -c "
import ast, sys; c = ast.literal_eval(sys.stdin.read())
print('AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s AWS_SESSION_TOKEN=%s' % (c['AccessKeyId'], c['SecretAccessKey'], c['SessionToken']))")
ci_token=$(env $ci_env AWS_ENDPOINT_URL_STS="$url" aws eks get-token --cluster-name kube --output json |
  python3 -c "import json,sys; print(json.load(sys.stdin)['status']['token'])")
ck() { kubectl --server "$endpoint" --certificate-authority "$work/ca.pem" --token "$ci_token" --kubeconfig /dev/null "$@"; }
run "the role without an entry" 1 ck get namespaces
expect "is forbidden" "$err" "Forbidden"
run "create-access-entry" 0 awscli eks create-access-entry --cluster-name kube --principal-arn "$ci_role" \
  --kubernetes-groups deployers
expect "the entry's user name is the role's sessions" "$out" "assumed-role/ci-deployer/{{SessionName}}"
run "create-access-entry again" 255 awscli eks create-access-entry --cluster-name kube --principal-arn "$ci_role"
expect "one entry per principal" "$err" "ResourceInUseException"
run "associate-access-policy" 0 awscli eks associate-access-policy --cluster-name kube --principal-arn "$ci_role" \
  --policy-arn arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy --access-scope type=cluster
run "list-associated-access-policies" 0 awscli eks list-associated-access-policies --cluster-name kube --principal-arn "$ci_role"
expect "the policy is associated" "$out" "AmazonEKSClusterAdminPolicy"
run "the mapped role is admin" 0 ck get namespaces -o name
expect "it lists namespaces" "$out" "namespace/default"
run "describe-access-entry" 0 awscli eks describe-access-entry --cluster-name kube --principal-arn "$ci_role"
expect "describe names the groups" "$out" "deployers"
run "delete-access-entry" 0 awscli eks delete-access-entry --cluster-name kube --principal-arn "$ci_role"
run "the role after its entry is gone" 1 ck get namespaces
expect "is forbidden again" "$err" "Forbidden"

# The same kubeconfig, printed.
if run "strata sandbox kubeconfig" 0 "$STRATA" sandbox kubeconfig --state "$work/world.db"; then
  expect "printed kubeconfig names the cluster" "$out" "server: $endpoint"
  printf '%s\n' "$out" >"$work/printed"
  run "kubectl with the printed kubeconfig" 0 kubectl --kubeconfig "$work/printed" get --raw /version
  expect "the printed kubeconfig's certificate is admitted" "$out" '"gitVersion"'
fi
run "strata sandbox kubeconfig without a world" 1 "$STRATA" sandbox kubeconfig --state "$work/none.db"
expect "no world: says so" "$err" "there is no sandbox world at"

finish
