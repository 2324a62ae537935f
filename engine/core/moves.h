#pragma once
// The root module's `moved:` and `removed:` entries, applied to a stage's prior state
// before it is planned (Terraform's refactoring statements): a moved object keeps its
// remote object under its new address instead of being destroyed and created again; a
// removed one with `destroy: false` is forgotten instead of destroyed. Pure: the caller's
// copy of the state is renamed in memory; the apply writes what the plan says. A move
// across resource types renames here too: the planner then asks the target type's
// provider to convert the object's attributes (Provider::MoveResourceState).

#include <map>
#include <set>

#include "engine/addr/addr.h"
#include "engine/config/module.h"
#include "engine/core/stage_graph.h"
#include "engine/diag/diagnostic.h"
#include "providers/registry.h"
#include "state/state.h"

namespace strata {

struct StateMoves {
  //! Each moved instance's new address → the address it had in state.
  std::map<ResourceInstanceAddr, ResourceInstanceAddr> previous;
  //! Each moved instance's new address → the position of the entry that moved it last.
  std::map<ResourceInstanceAddr, SourceRange> entry;
  //! Instances `removed:` entries with destroy: false take out of state (new addresses).
  std::set<ResourceInstanceAddr> forget;
};

//! Renames the instances of `prior` as the root module's moved entries say, following
//! chains (a → b, b → c moves an object at a to c), and lists the instances removed entries
//! forget. Errors, each at the entry's position: an address that is neither a resource,
//! an instance nor a module; from and to of different kinds, or not both managed; a move or
//! removal of something config still declares; a move onto an address that holds another
//! object; moves that go round in a circle. Entries whose `from` is not in state do nothing.
StateMoves ApplyMoveStatements(const ModuleConfig& root, const StageGraph& graph, state::StageState& prior,
                               Diagnostics& diags);

//! `instance` (recorded at `from`) as it is held at `to`: as it is when the resource types
//! are the same; across types, its attributes converted by the provider of `to`'s type
//! (Provider::MoveResourceState, asked of an instance never configured: no API is called)
//! with that type's schema version, and the provider recorded anew when another provider
//! serves the new type. Deposed objects cannot move across types. nullopt with the
//! provider's error (naming both addresses) in `diags`.
std::optional<state::ResourceInstanceState> ConvertMovedInstance(const ProviderRegistry& providers,
                                                                 const state::ResourceInstanceState& instance,
                                                                 const ResourceInstanceAddr& to, Diagnostics& diags);

}  // namespace strata
