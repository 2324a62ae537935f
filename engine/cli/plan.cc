// strata plan [STAGE]: what apply would do, as text or as Terraform's plan JSON, optionally
// saved for `strata apply FILE`.
#include <filesystem>
#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "engine/base/keep_until_exit.h"
#include "engine/cli/json_ui.h"
#include "engine/cli/run_session.h"
#include "engine/plan/render_human.h"
#include "engine/plan/upstream_notes.h"
#include "engine/plan/render_json.h"
#include "engine/value/json.h"
#include "engine/cli/wiring.h"
#include "engine/plan/file/plan_file.h"

namespace strata::cli {
namespace {

struct PlanArgs {
  PlanFlags flags;
  std::string out;
  bool detailed_exitcode = false;
};

// Terraform's horizontal rule: 77 box-drawing characters.
std::string Rule() {
  std::string rule;
  for (int i = 0; i < 77; ++i) rule += "\u2500";
  return rule;
}

bool SavePlan(RunSession& session, const Plan& plan, const std::string& path) {
  auto ring = LoadProjectKeyRing(session.project().project());
  if (!ring.ok()) {
    session.state().Fail(ring.status());
    return false;
  }
  state::StateStatus written = WritePlanFile(path, plan, *ring, state::StateEnvironment::System());
  if (!written.ok()) {
    session.state().Fail(written);
    return false;
  }
  return true;
}

// -generate-config-out: refused before planning when the file exists (it is never
// overwritten, as Terraform refuses), written after.
bool WriteGeneratedConfig(RunSession& session, CommandContext& ctx, const std::string& given, bool check_only) {
  std::string path = ResolvePath(ctx, given);
  std::error_code ec;
  if (check_only) {
    if (!std::filesystem::exists(path, ec)) return true;
    session.state().Error("Target generated file already exists",
                          fmt::format("-generate-config-out={} names a file that exists. Strata never overwrites it: "
                                      "name a new file, or move that one away.",
                                      given));
    return false;
  }
  if (session.generated_config().empty()) return true;
  std::ofstream out(path);
  out << session.generated_config();
  if (out.flush()) return true;
  session.state().Error("Cannot write the generated configuration", fmt::format("{} could not be written.", path));
  return false;
}

void RunPlan(const PlanArgs& args, CommandContext& ctx) {
  if (!CheckJsonEventsFlags(ctx)) return;
  std::optional<JsonEventsScope> events;
  if (ctx.global.json_events) events.emplace(ctx);
  RunSession session(ctx);
  if (!session.OpenProject()) return;
  if (!session.OpenStage(args.flags.stage, "plan", args.flags.lock, args.flags.destroy)) return;
  const std::string& generate = args.flags.generate_config_out;
  if (!generate.empty() && !WriteGeneratedConfig(session, ctx, generate, true)) return;
  std::optional<Plan> plan = session.MakePlan(args.flags, !args.out.empty());
  if (!plan) return;
  if (!generate.empty() && !WriteGeneratedConfig(session, ctx, generate, false)) return;
  if (!args.out.empty() && !SavePlan(session, *plan, ResolvePath(ctx, args.out))) return;
  if (events) {
    events->ui().Plan(*plan);
  } else if (ctx.global.json) {
    *ctx.out << DumpExactJson(RenderPlanJson(*plan)) << "\n";  // numbers exactly, as Terraform's
  } else {
    HumanRenderOptions options{ctx.Color(), &session.project().engine().schemas()};
    *ctx.out << RenderDriftHuman(*plan, options) << RenderUpstreamNotesHuman(*plan, options)
             << RenderPlanHuman(*plan, options);
    if (!args.out.empty()) {
      *ctx.out << fmt::format(
          "\n{}\n\nSaved the plan to: {}\n\nTo perform exactly these actions, run the following command to apply:\n"
          "    strata apply {}\n",
          Rule(), args.out, args.out);
    } else if (plan->HasChanges()) {
      *ctx.out << "\n" << Rule()
               << "\n\nNote: You didn't use the -out option to save this plan, so Strata can't\nguarantee to take exactly "
                  "these actions if you run \"strata apply\" now.\n";
    }
  }
  if (args.detailed_exitcode && plan->HasChanges()) ctx.exit_code = 2;
  base::KeepUntilExit(plan);
}

}  // namespace

void AddPlanCommand(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand("plan", "Show what apply would change in a stage");
  args->flags.AddTo(cmd, true);
  cmd->add_option("--out", args->out, "Save the plan to FILE for `strata apply FILE`")->option_text("FILE");
  cmd->add_option("--generate-config-out", args->flags.generate_config_out,
                  "Write the configuration of import entries that name undeclared resources to FILE (a module file)")
      ->option_text("FILE");
  cmd->add_flag("--detailed-exitcode", args->detailed_exitcode, "Exit 0 when nothing changes, 1 on errors, 2 when there are changes");
  cmd->add_flag("--json", ctx.global.json, "Print the plan as `terraform show -json` does");
  AddJsonEventsFlag(cmd, ctx);
  cmd->callback([args, &ctx] { RunPlan(*args, ctx); });
}

}  // namespace strata::cli
