// strata refresh [STAGE]: records in state what the providers report now (an apply of a
// refresh-only plan, without asking, as Terraform's `refresh` does).
#include <ostream>

#include "engine/cli/apply_view.h"
#include "engine/cli/run_session.h"
#include "engine/plan/render_human.h"

namespace strata::cli {
namespace {

void RunRefresh(const PlanFlags& given, CommandContext& ctx) {
  RunSession session(ctx);
  PlanFlags flags = given;
  flags.refresh_only = true;
  if (!session.OpenProject() || !session.OpenStage(flags.stage, "refresh", flags.lock)) return;
  std::optional<Plan> plan = session.MakePlan(flags);
  if (!plan) return;
  *ctx.out << RenderDriftHuman(*plan, HumanRenderOptions{ctx.Color(), &session.project().engine().schemas()});
  ApplyView view(*ctx.out, ctx.Color());
  ApplyOutcome outcome = session.Apply(*plan, flags.parallelism, [&view](const ApplyEvent& e) { view.Event(e); });
  if (!outcome.failed.empty()) return;
  *ctx.out << (plan->drift.empty() ? "No changes: the state matches what the providers report.\n"
                                   : "Refresh complete: the changes above are recorded in state.\n")
           << RenderOutputs(outcome.outputs, *plan);
}

}  // namespace

void AddRefreshCommand(CLI::App& app, CommandContext& ctx) {
  auto flags = std::make_shared<PlanFlags>();
  auto* cmd = app.add_subcommand("refresh", "Update a stage's state from what its providers report (apply -refresh-only)");
  flags->AddTo(cmd, false);
  cmd->callback([flags, &ctx] { RunRefresh(*flags, ctx); });
}

}  // namespace strata::cli
