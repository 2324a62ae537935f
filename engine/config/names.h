#pragma once
// The one rule for names written in configuration — stages, and every declaration of a
// module (variables, locals, providers, resources, data sources, module calls, outputs).
// Names are used in references (`var.zone`, `stage.eks.cluster_name`), so they are
// identifiers: ASCII letters, digits, underscores and dashes, starting with a letter or an
// underscore. Anything else ("ステージ", "éks", "1st") is refused with the same error.

#include <string>

namespace strata {

bool IsValidName(const std::string& name);

//! A provider block's name: a provider's ("aws"), or a provider's and an alias joined by a
//! dot ("aws.us_east_1"), each a valid name.
bool IsProviderKey(const std::string& key);

//! The summary and detail of the error for a name that breaks the rule.
constexpr const char* kInvalidNameSummary = "Invalid name";
std::string InvalidNameDetail(const std::string& name);

}  // namespace strata
