#pragma once
// Splitting a marked Value into what may be stored in clear and what must be sealed, and
// joining them back.
//
// A path is a JSON array of steps: object keys (strings) and sequence indexes (numbers),
// as in Terraform's `sensitive_attributes`: ["master_password"], ["tags", "token"],
// ["users", 0, "password"]. The outermost marked node on each branch is one sensitive
// value: its whole subtree is sealed as one unit and replaced by null in the clear JSON.
// On load the subtree is restored and marked sensitive (marks nested inside a sensitive
// node are subsumed by it).

#include <vector>

#include <nlohmann/json.hpp>

#include "engine/value/value.h"

namespace strata::state {

struct SensitiveSplit {
  nlohmann::json clear;                 // the value with each sensitive subtree replaced by null
  std::vector<nlohmann::json> paths;    // one per sensitive subtree
  std::vector<nlohmann::json> values;   // the subtrees (unmarked JSON), parallel to `paths`
};

//! `exact_numbers`: numbers as ValueToExactJson writes them (for state rows, written with
//! DumpExactJson); otherwise as ValueToJson (what is shown).
SensitiveSplit SplitSensitive(const Value& value, bool exact_numbers = false);

//! Rebuilds the Value. `values[i]` is the subtree for `paths[i]`; a null optional (a secret
//! not decrypted) restores as null marked sensitive. Paths that do not fit are ignored.
Value JoinSensitive(const nlohmann::json& clear, const std::vector<nlohmann::json>& paths,
                    const std::vector<std::optional<nlohmann::json>>& values);

//! Replaces each sensitive path's subtree by null in `clear` (for masked output).
Value MaskedValue(const nlohmann::json& clear, const std::vector<nlohmann::json>& paths);

}  // namespace strata::state
