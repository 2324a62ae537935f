#pragma once
// The approval apply and destroy ask for before changing a stage (Terraform's prompt): only
// "yes" approves, and without a terminal on stdin nothing is asked and the command refuses.

#include <string>

#include "engine/cli/command.h"
#include "engine/cli/state_session.h"

namespace strata::cli {

//! Asks on ctx.out whether to apply (or destroy) the stage named `stage_label` and reads the
//! answer from ctx.in. Declined: prints "Apply cancelled." and sets exit code 1. No terminal:
//! an error through `state` saying to pass -auto-approve.
bool Confirm(CommandContext& ctx, StateSession& state, const std::string& stage_label, bool destroy);

}  // namespace strata::cli
