#!/usr/bin/env bash
# The sandbox's Secrets Manager and Cognito user pools must satisfy a real AWS client:
# `strata sandbox serve` driven with the AWS CLI (botocore signs, parses and checks every
# answer) — a secret's values and versions, deletion with a recovery window, and a user
# pool with its domain (CREATING, then ACTIVE), a Google identity provider and an app client
# with a generated secret.
source "$(dirname "$0")/lib.sh"

if ! command -v aws >/dev/null 2>&1; then
  echo "**********************************************************************"
  echo "*** SKIPPING the AWS CLI Secrets Manager / Cognito test: no 'aws' on PATH."
  echo "*** Install it (apt-get install awscli) to run it."
  echo "**********************************************************************"
  exit 77
fi

serve_sandbox --memory --cognito-domain-delay-ms 2000 || exit 1

aws_cli_on_sandbox

if run "secretsmanager create-secret" 0 awscli secretsmanager create-secret --name cli/google \
  --secret-string first --tags Key=team,Value=identity; then
  expect "secret arn" "$(field "['ARN']" <<<"$out")" "arn:aws:secretsmanager:us-west-2:111122223333:secret:cli/google-"
  refused "secretsmanager a second secret of the name" awscli secretsmanager create-secret --name cli/google
  expect "create-secret twice: ResourceExistsException" "$err" "ResourceExistsException"
  run "secretsmanager put-secret-value" 0 awscli secretsmanager put-secret-value --secret-id cli/google \
    --secret-string second --client-request-token 0123456789abcdef0123456789abcdef
  run "secretsmanager get-secret-value" 0 awscli secretsmanager get-secret-value --secret-id cli/google &&
    expect "the current value is the new one" "$(field "['SecretString']" <<<"$out")" "second"
  run "secretsmanager get-secret-value AWSPREVIOUS" 0 awscli secretsmanager get-secret-value --secret-id cli/google \
    --version-stage AWSPREVIOUS && expect "the previous value" "$(field "['SecretString']" <<<"$out")" "first"
  refused "secretsmanager recovery window too short" awscli secretsmanager delete-secret --secret-id cli/google \
    --recovery-window-in-days 3
  run "secretsmanager delete-secret" 0 awscli secretsmanager delete-secret --secret-id cli/google \
    --recovery-window-in-days 7
  refused "secretsmanager a secret scheduled for deletion refuses its value" \
    awscli secretsmanager get-secret-value --secret-id cli/google
  expect "get-secret-value: InvalidRequestException" "$err" "InvalidRequestException"
  run "secretsmanager delete-secret --force-delete-without-recovery" 0 awscli secretsmanager delete-secret \
    --secret-id cli/google --force-delete-without-recovery
  refused "secretsmanager a deleted secret is gone" awscli secretsmanager describe-secret --secret-id cli/google
  expect "describe-secret: ResourceNotFoundException" "$err" "ResourceNotFoundException"
fi

if run "cognito-idp create-user-pool" 0 awscli cognito-idp create-user-pool --pool-name cli-pool \
  --auto-verified-attributes email --username-attributes email --user-pool-tags team=identity; then
  pool=$(field "['UserPool']['Id']" <<<"$out")
  expect "pool id shape" "$pool" "us-west-2_"
  domain="cli-$RANDOM"
  run "cognito-idp create-user-pool-domain" 0 awscli cognito-idp create-user-pool-domain --domain "$domain" \
    --user-pool-id "$pool"
  run "cognito-idp describe-user-pool-domain (new)" 0 awscli cognito-idp describe-user-pool-domain --domain "$domain" &&
    expect "a new domain is CREATING" "$(field "['DomainDescription']['Status']" <<<"$out")" "CREATING"
  status=""
  for _ in $(seq 1 30); do
    out=$(awscli cognito-idp describe-user-pool-domain --domain "$domain") || break
    status=$(field "['DomainDescription']['Status']" <<<"$out")
    [ "$status" = ACTIVE ] && break
    sleep 0.3
  done
  expect "the domain becomes ACTIVE" "$status" "ACTIVE"
  run "cognito-idp describe-user-pool-domain (unknown)" 0 awscli cognito-idp describe-user-pool-domain \
    --domain "no-such-$domain" && expect "an unknown domain: empty description" "$out" '"DomainDescription": {}'
  refused "cognito-idp a domain prefix taken" awscli cognito-idp create-user-pool-domain --domain "$domain" \
    --user-pool-id "$pool"
  expect "domain taken: InvalidParameterException" "$err" "InvalidParameterException"
  run "cognito-idp create-identity-provider" 0 awscli cognito-idp create-identity-provider --user-pool-id "$pool" \
    --provider-name Google --provider-type Google \
    --provider-details client_id=cid.apps.googleusercontent.com,client_secret=shh,authorize_scopes="openid email" \
    --attribute-mapping email=email &&
    expect "Cognito fills in Google's endpoints" "$(field "['IdentityProvider']['ProviderDetails']['token_url']" <<<"$out")" \
      "https://www.googleapis.com/oauth2/v4/token"
  # URLs go in JSON: the AWS CLI v1 fetches a parameter that looks like a URL.
  refused "cognito-idp an invalid callback URL" awscli cognito-idp create-user-pool-client --cli-input-json \
    '{"UserPoolId":"'"$pool"'","ClientName":"web","CallbackURLs":["http://example.com/callback"]}'
  expect "callback URL: InvalidParameterException" "$err" "InvalidParameterException"
  if run "cognito-idp create-user-pool-client --generate-secret" 0 awscli cognito-idp create-user-pool-client \
    --generate-secret --cli-input-json '{"UserPoolId":"'"$pool"'","ClientName":"web","AllowedOAuthFlows":["code"],
      "AllowedOAuthFlowsUserPoolClient":true,"AllowedOAuthScopes":["openid","email"],
      "CallbackURLs":["https://app.example.com/callback"],"SupportedIdentityProviders":["Google","COGNITO"]}'; then
    client=$(field "['UserPoolClient']['ClientId']" <<<"$out")
    run "cognito-idp describe-user-pool-client" 0 awscli cognito-idp describe-user-pool-client \
      --user-pool-id "$pool" --client-id "$client" &&
      expect "the client has a secret" "$(field "['UserPoolClient']['ClientSecret'].__len__() > 40" <<<"$out")" "True"
  fi
  refused "cognito-idp a pool with a domain cannot be deleted" awscli cognito-idp delete-user-pool --user-pool-id "$pool"
  expect "delete-user-pool: InvalidParameterException" "$err" "InvalidParameterException"
  run "cognito-idp delete-user-pool-domain" 0 awscli cognito-idp delete-user-pool-domain --domain "$domain" \
    --user-pool-id "$pool"
  for _ in $(seq 1 30); do
    out=$(awscli cognito-idp describe-user-pool-domain --domain "$domain") || break
    [ "$(field "['DomainDescription'].get('Status', 'gone')" <<<"$out")" = gone ] && break
    sleep 0.3
  done
  expect "the deleted domain is gone" "$out" '"DomainDescription": {}'
  run "cognito-idp delete-user-pool" 0 awscli cognito-idp delete-user-pool --user-pool-id "$pool"
fi

# Strata itself: the Google client secret, read from Secrets Manager, feeds the identity
# provider without ever being printed, and a second plan after apply is empty (the
# endpoints Cognito adds to Google's details are no diff).
run "secretsmanager create-secret (google)" 0 awscli secretsmanager create-secret --name idp/google \
  --secret-string google-top-secret-value
proj="$work/idp"
mkdir -p "$proj/auth"
cat >"$proj/strata.yaml" <<'YAML'
project: idp
state: { backend: sqlite, path: .strata/state.db }
stages:
  - { name: auth, path: auth }
YAML
cat >"$proj/auth/main.yaml" <<'YAML'
providers:
  aws:
    region: us-west-2
data:
  google_secret:
    type: aws_secretsmanager_secret_version
    properties: { secret_id: idp/google }
resources:
  pool:
    type: aws_cognito_user_pool
    properties: { name: idp-e2e, auto_verified_attributes: [email], username_attributes: [email] }
  google:
    type: aws_cognito_identity_provider
    properties:
      user_pool_id: ${pool.id}
      provider_name: Google
      provider_type: Google
      provider_details:
        client_id: cid.apps.googleusercontent.com
        client_secret: ${data.google_secret.secret_string}
        authorize_scopes: openid email
      attribute_mapping: { email: email, username: sub }
  web:
    type: aws_cognito_user_pool_client
    depends_on: [google]
    properties:
      name: web
      user_pool_id: ${pool.id}
      generate_secret: true
      allowed_oauth_flows: [code]
      allowed_oauth_flows_user_pool_client: true
      allowed_oauth_scopes: [openid, email]
      callback_urls: ["https://app.example.com/callback"]
      supported_identity_providers: [Google]
YAML
export AWS_ENDPOINT_URL="$url"
run "strata init" 0 "$STRATA" -chdir="$proj" init
if run "strata plan" 2 "$STRATA" -chdir="$proj" plan -detailed-exitcode auth; then
  expect "plan: pool, provider and client" "$out" "Plan: 3 to add, 0 to change, 0 to destroy."
  if grep -qF google-top-secret-value <<<"$out$err"; then fail "the plan prints the client secret"; else pass "the plan never prints the client secret"; fi
fi
if run "strata apply" 0 "$STRATA" -chdir="$proj" apply -auto-approve auth; then
  if grep -qF google-top-secret-value <<<"$out$err"; then fail "apply prints the client secret"; else pass "apply never prints the client secret"; fi
fi
run "strata plan after apply: no diff" 0 "$STRATA" -chdir="$proj" plan -detailed-exitcode auth
run "strata destroy" 0 "$STRATA" -chdir="$proj" destroy -auto-approve auth
unset AWS_ENDPOINT_URL

finish
