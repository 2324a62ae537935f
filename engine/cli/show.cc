// strata show [STAGE | PLANFILE] [-json]: a stage's current state, or a saved plan, as
// `terraform show` prints them. A saved plan knows its stage; a state is the stage's (the
// only stage, or the one holding the working directory, when none is named).
//
//   text:  the state as "# addr:" resource blocks and its outputs, sensitive values
//          masked; a plan as `strata plan` prints it
//   -json: the state in `terraform show -json`'s state shape (format_version "1.0");
//          a plan as `strata plan -json` prints it
#include <ostream>

#include <fmt/format.h>

#include "engine/cli/run_session.h"
#include "engine/cli/state_session.h"
#include "engine/cli/wiring.h"
#include "engine/plan/render_human.h"
#include "engine/plan/upstream_notes.h"
#include "engine/plan/render_json.h"
#include "engine/value/json.h"

namespace strata::cli {
namespace {

struct ShowArgs {
  std::string target;  // a stage or a saved plan file
};

StateView ViewOf(const state::StageState& stage) {
  StateView view;
  for (const auto* objects : {&stage.resources, &stage.deposed}) {
    for (const state::ResourceInstanceState& r : *objects) {
      if (r.IsInterruptedCreate()) continue;  // no object: only a token to find one by
      view.resources.push_back({r.addr, r.provider, r.schema_version, r.attributes, r.dependencies,
                                r.status == state::ResourceStatus::Tainted, r.deposed});
    }
  }
  for (const state::OutputState& o : stage.outputs) view.outputs.push_back({o.name, o.value, o.sensitive});
  return view;
}

void ShowPlan(StateSession& session, CommandContext& ctx, const std::string& file, const SchemaSource& schemas) {
  auto plan = ReadSavedPlan(ctx, session.project(), file);
  if (!plan.ok()) return session.Fail(plan.status());
  if (ctx.global.json) {
    *ctx.out << DumpExactJson(RenderPlanJson(*plan)) << "\n";  // numbers exactly, as Terraform's
    return;
  }
  HumanRenderOptions options{ctx.Color(), &schemas};
  *ctx.out << RenderDriftHuman(*plan, options) << RenderUpstreamNotesHuman(*plan, options)
             << RenderPlanHuman(*plan, options);
}

void ShowState(StateSession& session, CommandContext& ctx, const std::string& given, const SchemaSource& schemas) {
  auto stage = session.ResolveStage(given);
  if (!stage) return;
  // The JSON holds values in clear, as Terraform's does (and needs the state key for
  // sealed ones); the text masks them and needs no key.
  auto loaded = session.store().LoadStage(*stage, {.decrypt_secrets = ctx.global.json});
  if (!loaded.ok()) return session.Fail(loaded.status());
  StateView view = ViewOf(*loaded);
  if (!loaded->exists && !ctx.global.json) {
    *ctx.out << "No state.\n";
    return;
  }
  if (ctx.global.json) {
    *ctx.out << DumpExactJson(RenderStateJson(view)) << "\n";
    return;
  }
  *ctx.out << RenderStateHuman(view, HumanRenderOptions{ctx.Color(), &schemas});
}

void RunShow(const ShowArgs& args, CommandContext& ctx) {
  StateSession session(ctx);
  if (!session.Open(state::StoreAccess::ReadOnly)) return;
  SchemaRegistry schemas = DefaultSchemas();
  if (args.target.empty() || session.IsStage(args.target)) return ShowState(session, ctx, args.target, schemas);
  if (IsPlanFile(ctx, args.target)) return ShowPlan(session, ctx, args.target, schemas);
  std::string stages;
  for (const auto& s : session.project().stages) stages += (stages.empty() ? "" : ", ") + s.name;
  session.Error("No such stage or plan file",
                fmt::format("\"{}\" is neither a stage of project {} (its stages: {}) nor a plan file saved by `strata "
                            "plan -out FILE`.",
                            args.target, session.project().name, stages));
}

}  // namespace

void AddShowCommand(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ShowArgs>();
  auto* cmd = app.add_subcommand("show", "Show a stage's current state, or a saved plan: show [STAGE | PLANFILE]");
  cmd->add_option("target", args->target, "A stage (default: the only stage, or the one holding the working "
                                           "directory), or a plan file saved by `strata plan -out`");
  cmd->add_flag("--json", ctx.global.json, "Print as `terraform show -json` does (values in clear, flagged sensitive)");
  cmd->callback([args, &ctx] { RunShow(*args, ctx); });
}

}  // namespace strata::cli
