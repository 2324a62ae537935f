#pragma once
// The reference pages of every provider's types, generated from their schemas (what
// `strata providers docs DIR` writes into docs/reference/, and a test keeps current): one
// Markdown page per resource and data source type — its arguments (required or optional,
// their types, which force a replacement, which are sensitive), nested blocks, read-only
// attributes and, for managed types, how an interrupted create is recovered — and an index.

#include <map>
#include <string>

#include "providers/registry.h"

namespace strata {

//! Relative path → page text: "README.md" (the index) and "<provider>/<resources|data-sources>/<type>.md".
std::map<std::string, std::string> ProviderReferencePages(const ProviderRegistry& registry);

}  // namespace strata
