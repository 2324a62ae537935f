#pragma once
// Which changes made outside Strata a normal plan reports: those that may have affected it,
// as Terraform (1.2 and later) limits its "Objects have changed outside of Terraform" note.
// A drifted instance is reported when it has a change planned itself, or when a resource
// with a planned change, or an output that changes, reads it — directly or through other
// resources. Drift that nothing planned depends on (an EIP's association filled in by the
// NAT gateway made in the same apply, routes added by aws_route) is recorded by the next
// apply without a word, as in Terraform. Refresh-only plans report every drift; so do
// destroy plans, where everything changes. Granularity: resources, not attributes.

#include "engine/core/stage_graph.h"
#include "engine/plan/change.h"

namespace strata {

//! Removes from plan.drift what nothing planned in `plan` depends on (see above).
//! `resource_deps` is ResourceDependencies(graph).
void KeepRelevantDrift(Plan& plan, const StageGraph& graph, const std::vector<std::vector<std::string>>& resource_deps);

}  // namespace strata
