#pragma once
// What Terraform's providers accept that Strata does not yet: the resource and data source
// types they have and Strata lacks, and for each type Strata has, the arguments (nested
// block members too, as dotted paths: "vpc_config.bogus") its schema lacks. Generated from
// the providers' own schemas and documentation by scripts/terraform_gaps.py into
// terraform_gaps.inc (which names the provider versions). The configuration check uses it
// to tell "not supported by Strata yet" from a typo; the reference pages list the gaps. A
// managed type's `timeouts` is never a gap: Strata takes it beside `properties:`.

#include <string>
#include <string_view>
#include <vector>

#include "engine/addr/addr.h"

namespace strata::terraform_gaps {

//! Whether a Terraform provider has a `mode` type named `type` that Strata lacks.
bool IsMissingType(ResourceMode mode, std::string_view type);

//! Whether Terraform's provider accepts the argument at `path` (names joined by ".") of a
//! type Strata has, and Strata lacks it. A path under a missing block is missing too.
bool IsMissingArgument(ResourceMode mode, std::string_view type, std::string_view path);

//! The arguments of `type` Strata lacks, sorted (a missing block once, not its members).
std::vector<std::string> MissingArguments(ResourceMode mode, std::string_view type);

}  // namespace strata::terraform_gaps
