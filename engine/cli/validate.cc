#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/cli/stage_flags.h"
#include "engine/diag/render.h"
#include "engine/lint/lint.h"

namespace strata::cli {
namespace {

struct ValidateArgs {
  std::string stage;  // empty: every stage
  VariableFlags variables;
  int parallelism = 10;
  bool strict = false;  // lint's error findings are errors, not warnings
};

void RunValidate(const ValidateArgs& args, CommandContext& ctx) {
  ProjectSession session(ctx);
  if (!session.Open()) {
    session.Report();
    ctx.exit_code = 1;
    return;
  }
  Engine& engine = session.engine();
  std::vector<std::string> stages;
  if (args.stage.empty()) {
    stages = engine.StageOrder(session.project(), session.diags());
  } else {
    stages.push_back(args.stage);
  }
  EngineOptions options;
  options.parallelism = args.parallelism;
  options.variables = args.variables.ToInputs(ctx.WorkingDir(), session.diags());
  options.environment = session.environment();
  options.stage_outputs = session.StageOutputsOrUnknown();
  std::vector<std::unique_ptr<LoadedStage>> loaded_stages;
  std::vector<std::unique_ptr<StageEvaluation>> evaluations;
  std::vector<lint::LintStage> lint_stages;
  for (const auto& stage : stages) {
    auto loaded = engine.LoadStage(session.project(), stage, session.diags());
    if (!loaded || session.diags().HasErrors()) continue;
    auto evaluation = engine.EvaluateStage(session.project(), *loaded, options, session.diags());
    if (!evaluation) continue;
    lint_stages.push_back({stage, loaded.get(), evaluation.get()});
    loaded_stages.push_back(std::move(loaded));
    evaluations.push_back(std::move(evaluation));
  }
  // `strata lint`'s rules over what was evaluated: warnings (errors with -strict).
  if (!session.diags().HasErrors()) {
    auto findings = lint::RunLint(session.project(), lint_stages, session.diags());
    lint::AppendAsDiagnostics(findings, args.strict, session.diags());
  }
  if (ctx.global.json) {
    *ctx.out << DiagnosticsToJson(session.diags(), &session.sources()).dump(2) << "\n";
    ctx.exit_code = session.diags().HasErrors() ? 1 : 0;
    return;
  }
  session.Report();
  if (session.diags().HasErrors()) return;
  std::string what = args.stage.empty() ? fmt::format("{} stage{}", stages.size(), stages.size() == 1 ? "" : "s")
                                        : "stage " + args.stage;
  *ctx.out << (ctx.Color() ? "\x1b[32m\x1b[1mSuccess!\x1b[0m" : "Success!") << " The configuration is valid (" << what << ").\n";
}

}  // namespace

void AddValidateCommand(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand("validate", "Check the configuration of one stage, or of every stage");
  cmd->add_option("stage", args->stage, "The stage to validate (default: all, in dependency order)");
  args->variables.AddTo(cmd);
  cmd->add_option("--parallelism", args->parallelism, "Evaluate at most N nodes at once")->default_val(10);
  cmd->add_flag("--strict", args->strict, "Report lint's error findings as errors (exit 1), not warnings");
  cmd->add_flag("--json", ctx.global.json, "Print the result as JSON");
  cmd->callback([args, &ctx] { RunValidate(*args, ctx); });
}

}  // namespace strata::cli
