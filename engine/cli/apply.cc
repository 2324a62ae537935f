// strata apply [STAGE | PLANFILE] and strata destroy [STAGE]: plan (or read a saved plan),
// confirm, apply, report.
#include <ostream>

#include <fmt/format.h>

#include "engine/base/keep_until_exit.h"
#include "engine/cli/apply_view.h"
#include "engine/cli/approval.h"
#include "engine/cli/json_ui.h"
#include "engine/cli/run_session.h"
#include "engine/plan/render_human.h"
#include "engine/plan/upstream_notes.h"
#include "engine/cli/wiring.h"

namespace strata::cli {
namespace {

struct ApplyArgs {
  PlanFlags flags;
  bool auto_approve = false;
  bool destroy_verb = false;
};

// The human view, or under -json-events the plan's and the apply's messages.
void ApplyAndReport(CommandContext& ctx, RunSession& session, const Plan& plan, int parallelism, bool destroy) {
  std::unique_ptr<ApplyReporter> view;
  if (ctx.events) view = std::make_unique<JsonApplyView>(*ctx.events);
  else view = std::make_unique<ApplyView>(*ctx.out, ctx.Color());
  ApplyOutcome outcome = session.Apply(plan, parallelism, [&view](const ApplyEvent& e) { view->Event(e); });
  view->Summary(outcome, destroy, plan);
}

// Terraform's rule: the stream has no room for a prompt.
bool CheckApprovalForEvents(CommandContext& ctx, RunSession& session, bool auto_approve) {
  if (!ctx.events || auto_approve) return true;
  session.state().Error("No confirmation possible", "-json-events needs -auto-approve: a confirmation cannot be asked "
                                                    "for in a stream of JSON messages.");
  return false;
}

std::optional<Plan> ReadPlanArgument(CommandContext& ctx, RunSession& session, const std::string& file) {
  auto plan = ReadSavedPlan(ctx, session.project().project(), file);
  if (!plan.ok()) {
    session.state().Fail(plan.status());
    return std::nullopt;
  }
  return std::move(*plan);
}

void RunApply(const ApplyArgs& args, CommandContext& ctx) {
  std::optional<JsonEventsScope> events;
  if (ctx.global.json_events) events.emplace(ctx);
  RunSession session(ctx);
  if (!session.OpenProject()) return;
  bool destroy = args.destroy_verb || args.flags.destroy;
  if (!args.destroy_verb && IsPlanFile(ctx, args.flags.stage) && !session.state().IsStage(args.flags.stage)) {
    // A saved plan is applied as it is, without asking: it was reviewed when saved.
    std::optional<Plan> plan = ReadPlanArgument(ctx, session, args.flags.stage);
    if (!plan || !session.OpenStage(plan->stage, "apply", args.flags.lock, plan->mode == PlanMode::Destroy)) return;
    if (!session.CheckSavedPlan(*plan, args.flags.stage)) return;
    ApplyAndReport(ctx, session, *plan, args.flags.parallelism, plan->mode == PlanMode::Destroy);
    return;
  }
  PlanFlags flags = args.flags;
  flags.destroy = destroy;
  if (!CheckApprovalForEvents(ctx, session, args.auto_approve)) return;
  if (!session.OpenStage(flags.stage, destroy ? "destroy" : "apply", flags.lock, destroy)) return;
  std::optional<Plan> plan = session.MakePlan(flags);
  if (!plan) return;
  if (events) {
    events->ui().Plan(*plan);
  } else {
    HumanRenderOptions options{ctx.Color(), &session.project().engine().schemas()};
    *ctx.out << RenderDriftHuman(*plan, options) << RenderUpstreamNotesHuman(*plan, options)
             << RenderPlanHuman(*plan, options);
    if (plan->HasChanges() && !args.auto_approve && !Confirm(ctx, session.state(), session.StageLabel(), destroy)) return;
    if (!plan->HasChanges()) *ctx.out << "\n";
  }
  ApplyAndReport(ctx, session, *plan, flags.parallelism, destroy);
  base::KeepUntilExit(plan);
}

void AddApplyFlags(CLI::App* cmd, ApplyArgs& args, bool mode_flags, CommandContext& ctx) {
  args.flags.AddTo(cmd, mode_flags);
  cmd->add_flag("--auto-approve", args.auto_approve, "Apply without asking for confirmation");
  if (args.destroy_verb) {
    cmd->add_flag("--force", args.flags.force, "Destroy although applied stages read this stage's outputs");
  }
  AddJsonEventsFlag(cmd, ctx);
}

}  // namespace

void AddApplyCommand(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ApplyArgs>();
  auto* cmd = app.add_subcommand("apply", "Plan and apply the changes of a stage, or apply a saved plan file");
  AddApplyFlags(cmd, *args, true, ctx);
  cmd->callback([args, &ctx] { RunApply(*args, ctx); });

  auto destroy = std::make_shared<ApplyArgs>();
  destroy->destroy_verb = true;  // before AddApplyFlags: it adds -force for destroy
  auto* dcmd = app.add_subcommand("destroy", "Destroy every object of a stage (plan -destroy, then apply)");
  AddApplyFlags(dcmd, *destroy, false, ctx);
  dcmd->callback([destroy, &ctx] { RunApply(*destroy, ctx); });
}

}  // namespace strata::cli
