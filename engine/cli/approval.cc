#include "engine/cli/approval.h"

#include <istream>
#include <ostream>

#include <fmt/format.h>

namespace strata::cli {

bool Confirm(CommandContext& ctx, StateSession& state, const std::string& stage_label, bool destroy) {
  if (!ctx.stdin_is_tty) {
    state.Error("No confirmation possible",
                fmt::format("{} needs a confirmation, and the input is not a terminal. Review the plan above and pass "
                            "-auto-approve to {} without asking.",
                            destroy ? "destroy" : "apply", destroy ? "destroy" : "apply"));
    return false;
  }
  if (destroy) {
    *ctx.out << "\nDo you really want to destroy all resources of stage " << stage_label
             << "?\n  Strata will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only 'yes' "
                "will be accepted to confirm.\n\n  Enter a value: ";
  } else {
    *ctx.out << "\nDo you want to perform these actions in stage " << stage_label
             << "?\n  Strata will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n"
                "  Enter a value: ";
  }
  ctx.out->flush();
  std::string answer;
  std::getline(*ctx.in, answer);
  if (answer == "yes") {
    *ctx.out << "\n";
    return true;
  }
  *ctx.out << "\n" << (destroy ? "Destroy" : "Apply") << " cancelled.\n";
  ctx.exit_code = 1;
  return false;
}

}  // namespace strata::cli
