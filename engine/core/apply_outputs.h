#pragma once
// Which outputs an apply records with its change set: the stage's outputs as evaluated
// after a normal apply, as planned after a refresh-only one, none left after a complete
// destroy.

#include <optional>
#include <vector>

#include "engine/core/evaluator.h"
#include "engine/core/stage_graph.h"
#include "engine/plan/change.h"
#include "state/state.h"

namespace strata {

//! After a normal apply: each root output whose value `evaluation` computed, wholly known;
//! the others keep their `stored` value; outputs no longer declared are dropped.
std::vector<state::OutputState> EvaluatedOutputs(const StageGraph& graph, const StageEvaluation& evaluation,
                                                 const std::vector<state::OutputState>& stored);

//! After a refresh-only apply: the plan's output values that are known and not deleted.
std::vector<state::OutputState> OutputsFromPlan(const Plan& plan);

//! What the commit replaces the stage's outputs with: nullopt keeps them as stored (a
//! destroy that failed or was interrupted, a normal apply that evaluated nothing).
//! `evaluation` is null when the main walk did not run.
std::optional<std::vector<state::OutputState>> OutputsToCommit(const Plan& plan, bool destroy_complete,
                                                               const StageGraph& graph,
                                                               const StageEvaluation* evaluation,
                                                               const std::vector<state::OutputState>& stored);

}  // namespace strata
