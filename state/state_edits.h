#pragma once
// What `state rm` and `state mv` do to a stage's rows, decided once for every state store:
// which instances an address argument selects (exactly one instance, all instances of a
// resource, or everything in a module), and the rows a move leaves (renamed, and the
// dependencies that named them rewritten). The stores only delete and write the rows.

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "state/status.h"
#include "state/stored_rows.h"

namespace strata::state {

//! The addresses `state rm ADDRESSES...` removes from `rows` (stage `stage`). NotFound when
//! an argument selects nothing, InvalidArgument when one is not an address.
StateResult<std::set<std::string>> SelectRemovals(const std::vector<StoredResource>& rows,
                                                  const std::vector<std::string>& addresses, const std::string& stage);

struct MovePlan {
  std::set<std::string> deleted;     // addresses whose rows (current and deposed) are deleted first
  std::vector<StoredResource> rows;  // every row after the move: write those the deletions removed
};

//! A move across resource types: the row `row` becomes at `new_address` (decoded,
//! converted and sealed again by the store: SealedConversion in store_shared.h).
using ConvertRow = std::function<StateResult<StoredResource>(const StoredResource& row, const std::string& new_address)>;

//! `state mv SOURCE DESTINATION` on `rows`: NotFound when SOURCE selects nothing,
//! InvalidArgument when the kinds differ, a destination is taken, or the resource types
//! differ and `convert` is absent or refuses an instance (then nothing moves).
StateResult<MovePlan> PlanMove(std::vector<StoredResource> rows, const std::string& source,
                               const std::string& destination, const std::string& stage, int64_t now_millis,
                               const ConvertRow& convert = nullptr);

}  // namespace strata::state
