#pragma once
// Provider blocks (`providers:`): a provider's default block is named after it ("aws"); a
// further block of the same provider is an alias, named "aws.us_east_1", which resources
// choose with `provider: aws.us_east_1` (Terraform's provider aliases). The static check of
// a block: its provider exists, and every argument is one of that provider's settings.

#include <string>

#include "engine/config/module.h"
#include "engine/diag/diagnostic.h"
#include "engine/value/schema.h"

namespace strata {

//! The provider of a block name: "aws.us_east_1" → "aws", "aws" → "aws".
std::string ProviderNameOfKey(const std::string& key);

//! The alias part of a block name with its dot ("aws.us_east_1" → ".us_east_1"); "" for a
//! provider's default block.
std::string ProviderAliasSuffix(const std::string& key);

//! Reports a block of a provider `schemas` does not know ("Unknown provider", with the
//! names it knows), and arguments that are not the provider's settings ("Unsupported
//! argument", with a suggestion), at their file:line:col.
void CheckProviderBlock(const ProviderConfig& block, const SchemaSource& schemas, Diagnostics& diags);

}  // namespace strata
