#pragma once
// The root module's `moved:` and `removed:` entries, applied to a stage's prior state
// before it is planned (Terraform's refactoring statements): a moved object keeps its
// remote object under its new address instead of being destroyed and created again; a
// removed one with `destroy: false` is forgotten instead of destroyed. Pure: the caller's
// copy of the state is renamed in memory; the apply writes what the plan says.

#include <map>
#include <set>

#include "engine/addr/addr.h"
#include "engine/config/module.h"
#include "engine/core/stage_graph.h"
#include "engine/diag/diagnostic.h"
#include "state/state.h"

namespace strata {

struct StateMoves {
  //! Each moved instance's new address → the address it had in state.
  std::map<ResourceInstanceAddr, ResourceInstanceAddr> previous;
  //! Instances `removed:` entries with destroy: false take out of state (new addresses).
  std::set<ResourceInstanceAddr> forget;
};

//! Renames the instances of `prior` as the root module's moved entries say, following
//! chains (a → b, b → c moves an object at a to c), and lists the instances removed entries
//! forget. Errors, each at the entry's position: an address that is neither a resource,
//! an instance nor a module; from and to of different kinds or resource types; a move or
//! removal of something config still declares; a move onto an address that holds another
//! object; moves that go round in a circle. Entries whose `from` is not in state do nothing.
StateMoves ApplyMoveStatements(const ModuleConfig& root, const StageGraph& graph, state::StageState& prior,
                               Diagnostics& diags);

}  // namespace strata
