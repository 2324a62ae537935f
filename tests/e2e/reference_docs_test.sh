#!/usr/bin/env bash
# The reference pages in docs/reference/ are generated from the providers' schemas
# (`strata providers docs docs/reference`): this fails when a type's schema changed and its
# page was not regenerated, and checks a page's content against its schema.
source "$(dirname "$0")/lib.sh"
cd "$STRATA_SOURCE_DIR" || exit 1
run check 0 "$STRATA" providers docs -check docs/reference
expect "every reference page is current" "$out" "are current"
expect "the index lists a resource" "$(cat docs/reference/README.md)" "resource [\`aws_vpc\`](aws/resources/aws_vpc.md)"
page=$(cat docs/reference/aws/resources/aws_vpc.md)
expect "a page lists a required argument" "$page" '| `cidr_block` | `string` | required | forces replacement |'
expect "a page names the create recovery" "$page" "Interrupted create:"
mkdir -p "$work/ref" && cp -r docs/reference/. "$work/ref/"
echo "edited" >>"$work/ref/aws/resources/aws_vpc.md"
cd "$work" || exit 1
run stale 1 "$STRATA" providers docs -check ref
expect "an edited page is reported" "$err" "aws/resources/aws_vpc.md"
finish
