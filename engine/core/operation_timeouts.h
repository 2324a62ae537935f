#pragma once
// A resource's `timeouts:` (Terraform's timeouts block) on its provider calls: the deadline
// each create, update, delete and refresh read gets, and the error that says which limit a
// call ran into. An operation without a timeout keeps its type's own limits (no deadline).

#include <map>
#include <string>

#include "providers/provider.h"
#include "state/state.h"

namespace strata {

//! Sets ctx.deadline to now plus the timeout `timeouts` (ResourceInstanceChange::timeouts)
//! gives `op`, when it gives one. Call it right before the provider call.
void SetDeadline(OperationContext& ctx, const std::map<std::string, std::string>& timeouts, state::OperationAction op);

//! True when a call that returned `diags` ran into the deadline SetDeadline gave it: it
//! failed, and the deadline has passed or is less than 100 ms away (clients round down).
bool RanOutOfTime(const OperationContext& ctx, const Diagnostics& diags);

//! `diags` of a call that ran out of time, with its errors folded into one that names the
//! address, the operation and the timeout ("aws_eks_cluster.main: create did not finish
//! within the 30m timeout (timeouts.create)"); the provider's own errors become its detail,
//! followed by `next` (what happens to the object now). Warnings are kept.
Diagnostics TimeoutDiagnostics(const std::string& address, const std::map<std::string, std::string>& timeouts,
                               state::OperationAction op, const Diagnostics& diags, const std::string& next);

}  // namespace strata
