#!/usr/bin/env bash
# The sandbox's REST-XML services must satisfy a real AWS client: `strata sandbox serve` is
# driven with the AWS CLI (botocore builds the REST-XML requests, signs them and parses every
# answer and error) for Route 53 — hosted zones (one seeded with --hosted-zone), record set
# changes PENDING then INSYNC (the CLI's own waiter), listing, the refusals AWS makes — and
# for S3 path-style against the 127.0.0.1 endpoint, signed as S3 signs (payload hash in
# x-amz-content-sha256, no double encoding): buckets, objects, versioning, public access.
source "$(dirname "$0")/lib.sh"

if ! command -v aws >/dev/null 2>&1; then
  echo "**********************************************************************"
  echo "*** SKIPPING the AWS CLI REST-XML sandbox test: no 'aws' on PATH."
  echo "*** Install it (apt-get install awscli) to run it."
  echo "**********************************************************************"
  exit 77
fi

serve_sandbox --memory --route53-change-delay-ms 500 --hosted-zone seeded.example.com || exit 1

aws_cli_on_sandbox

run "route53 seeded zone" 0 awscli route53 list-hosted-zones-by-name --dns-name seeded.example.com &&
  expect "seeded zone listed" "$(field "['HostedZones'][0]['Name']" <<<"$out")" "seeded.example.com."

if run "route53 create-hosted-zone" 0 awscli route53 create-hosted-zone --name cli.example.com --caller-reference cli-1; then
  zone=$(field "['HostedZone']['Id']" <<<"$out")
  expect "zone id shape" "$zone" "/hostedzone/Z"
  expect "four name servers" "$(field "['DelegationSet']['NameServers'].__len__()" <<<"$out")" "4"
  refused "same caller reference is refused" awscli route53 create-hosted-zone --name cli.example.com --caller-reference cli-1
  expect "repeat: HostedZoneAlreadyExists" "$err" "HostedZoneAlreadyExists"
  batch='{"Changes":[{"Action":"CREATE","ResourceRecordSet":{"Name":"www.cli.example.com","Type":"A","TTL":60,"ResourceRecords":[{"Value":"192.0.2.10"}]}}]}'
  if run "route53 change-resource-record-sets" 0 awscli route53 change-resource-record-sets --hosted-zone-id "$zone" --change-batch "$batch"; then
    change=$(field "['ChangeInfo']['Id']" <<<"$out")
    expect "change is PENDING" "$(field "['ChangeInfo']['Status']" <<<"$out")" "PENDING"
    sleep 0.6
    run "route53 wait resource-record-sets-changed" 0 awscli route53 wait resource-record-sets-changed --id "$change" && pass "change is INSYNC"
  fi
  refused "creating an existing record set is refused" awscli route53 change-resource-record-sets --hosted-zone-id "$zone" --change-batch "$batch"
  expect "existing: InvalidChangeBatch" "$err" "InvalidChangeBatch"
  if run "route53 list-resource-record-sets" 0 awscli route53 list-resource-record-sets --hosted-zone-id "$zone"; then
    types=$(python3 -c "import json,sys; print([r['Type'] for r in json.load(sys.stdin)['ResourceRecordSets']])" <<<"$out")
    expect "NS, SOA and the A record" "$types" "['NS', 'SOA', 'A']"
  fi
  refused "a zone with records cannot be deleted" awscli route53 delete-hosted-zone --id "$zone"
  expect "delete-hosted-zone: HostedZoneNotEmpty" "$err" "HostedZoneNotEmpty"
  run "route53 delete the record" 0 awscli route53 change-resource-record-sets --hosted-zone-id "$zone" \
    --change-batch "${batch/CREATE/DELETE}"
  run "route53 delete-hosted-zone" 0 awscli route53 delete-hosted-zone --id "$zone"
  refused "route53 get-hosted-zone gone" awscli route53 get-hosted-zone --id "$zone"
  expect "gone zone: NoSuchHostedZone" "$err" "NoSuchHostedZone"
fi

bucket=strata-cli-bucket
if run "s3api create-bucket" 0 awscli s3api create-bucket --bucket "$bucket" \
  --create-bucket-configuration LocationConstraint=us-west-2; then
  refused "creating it again is refused" awscli s3api create-bucket --bucket "$bucket" \
    --create-bucket-configuration LocationConstraint=us-west-2
  expect "again: BucketAlreadyOwnedByYou" "$err" "BucketAlreadyOwnedByYou"
  printf 'hello' >"$work/object.txt"
  run "s3api put-object" 0 awscli s3api put-object --bucket "$bucket" --key "dir/a file.txt" --body "$work/object.txt" &&
    expect "put-object etag" "$(field "['ETag']" <<<"$out")" '"5d41402abc4b2a76b9719d911017c592"'
  run "s3api get-object" 0 awscli s3api get-object --bucket "$bucket" --key "dir/a file.txt" "$work/back.txt" &&
    expect "get-object body" "$(cat "$work/back.txt")" "hello"
  run "s3api list-objects-v2" 0 awscli s3api list-objects-v2 --bucket "$bucket" &&
    expect "one key" "$(field "['Contents'][0]['Key']" <<<"$out")" "dir/a file.txt"
  refused "a bucket with objects cannot be deleted" awscli s3api delete-bucket --bucket "$bucket"
  expect "delete-bucket: BucketNotEmpty" "$err" "BucketNotEmpty"
  run "s3api put-bucket-versioning" 0 awscli s3api put-bucket-versioning --bucket "$bucket" \
    --versioning-configuration Status=Enabled
  run "s3api get-bucket-versioning" 0 awscli s3api get-bucket-versioning --bucket "$bucket" &&
    expect "versioning Enabled" "$(field "['Status']" <<<"$out")" "Enabled"
  run "s3api put-public-access-block" 0 awscli s3api put-public-access-block --bucket "$bucket" \
    --public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=false
  run "s3api get-public-access-block" 0 awscli s3api get-public-access-block --bucket "$bucket" &&
    expect "RestrictPublicBuckets false" "$(field "['PublicAccessBlockConfiguration']['RestrictPublicBuckets']" <<<"$out")" "False"
  run "s3api delete-object" 0 awscli s3api delete-object --bucket "$bucket" --key "dir/a file.txt"
  run "s3api delete-bucket" 0 awscli s3api delete-bucket --bucket "$bucket"
  refused "s3api head-bucket gone" awscli s3api head-bucket --bucket "$bucket"
  expect "gone bucket: 404" "$err" "404"
fi

finish
