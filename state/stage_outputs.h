#pragma once
// Cross-stage references: what ${stage.S.X} reads.

#include <string>

#include "state/store.h"

namespace strata::state {

//! Output `name` of stage `stage`, from its last applied state. NotFound messages say what to
//! do: "stage \"eks\" has not been applied yet ... run `strata apply eks` first", or
//! "stage \"eks\" has no output \"x\" (it has: a, b): declare it in eks's outputs and run
//! `strata apply eks`". A sensitive output comes back marked sensitive.
StateResult<OutputState> LookupStageOutput(StateStore& store, const std::string& stage, const std::string& name);

}  // namespace strata::state
