#pragma once
// The notes at the head of a plan about earlier stages' outputs that changed since this
// stage was last applied (Plan::upstream_changes, engine/core/upstream_reads.h), one line
// each and a blank line after them:
//
//   Note: stage "eks" output "cluster_endpoint" has changed since stage "addons" was last applied (eks serial 12 → 14).
//   Note: stage "eks" output "token" (sensitive value) has changed since stage "addons" was last applied (eks serial 12 → 14).
//   Note: stage "eks" output "old" can no longer be read since stage "addons" was last applied (eks serial 12 → 14): WHY
//
// No value is ever printed, sensitive or not.

#include <string>

#include "engine/plan/change.h"
#include "engine/plan/render_human.h"

namespace strata {

//! The notes, or "" when plan.upstream_changes is empty.
std::string RenderUpstreamNotesHuman(const Plan& plan, const HumanRenderOptions& options = {});

}  // namespace strata
