#pragma once
// What providers and the state store report about an instance carries its address and no
// position. This gives each such diagnostic the position of the declaration that made the
// instance, so that an error at apply points into the module files as an error at load
// does ("on 01-eks/network.yaml:12:3, in aws_vpc.vpc").

#include "engine/core/stage_graph.h"
#include "engine/diag/diagnostic.h"

namespace strata {

//! `diags` with the declaration's range set on every diagnostic that names an instance of
//! `graph` (its address, possibly followed by a note such as " (deposed)") and has no
//! position of its own.
Diagnostics WithDeclarationPositions(const Diagnostics& diags, const StageGraph& graph);

}  // namespace strata
