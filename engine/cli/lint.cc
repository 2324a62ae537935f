// `strata lint [STAGE|-all] [-json]`: evaluates every stage as `validate` does, each reading
// the outputs of the stages before it as configuration knows them (no state, no cloud), runs
// engine/lint's rules and prints the findings. Exit 1 when one is an error.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "engine/cli/stage_flags.h"
#include "engine/lint/evaluated_outputs.h"
#include "engine/lint/lint.h"

namespace strata::cli {
namespace {

struct LintArgs {
  std::string stage;  // empty: every stage
  bool all = false;
  VariableFlags variables;
};

// `file` relative to the project root ("02-addons/main.yaml", "../../modules/x/y.yaml").
std::string ProjectRelative(const std::string& file, const std::string& root) {
  if (file.empty()) return file;
  std::filesystem::path rel = std::filesystem::path(file).lexically_relative(root);
  return rel.empty() ? file : rel.string();
}

void RenderHuman(const std::vector<lint::Finding>& findings, const std::string& root, size_t stages, CommandContext& ctx) {
  size_t errors = 0;
  for (const auto& f : findings) {
    errors += f.severity == lint::Severity::Error;
    std::string where = f.range.IsKnown() ? fmt::format("{}:{}:{}", ProjectRelative(f.range.file, root), f.range.start.line,
                                                        f.range.start.column)
                                          : "?";
    std::string severity = lint::SeverityName(f.severity);
    if (ctx.Color()) severity = f.severity == lint::Severity::Error ? "\x1b[31m\x1b[1merror\x1b[0m" : "\x1b[33mwarning\x1b[0m";
    *ctx.out << fmt::format("{}: {}[{}]: {}\n  {} in stage {}\n  fix: {}\n", where, severity, f.rule, f.message, f.address,
                            f.stage, f.hint);
  }
  size_t warnings = findings.size() - errors;
  if (findings.empty()) {
    *ctx.out << fmt::format("No lint findings ({} stage{}).\n", stages, stages == 1 ? "" : "s");
  } else {
    *ctx.out << fmt::format("{} error{}, {} warning{}.\n", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  }
}

void RenderJson(const std::vector<lint::Finding>& findings, const std::string& root, CommandContext& ctx) {
  nlohmann::json list = nlohmann::json::array();
  size_t errors = 0;
  for (const auto& f : findings) {
    errors += f.severity == lint::Severity::Error;
    list.push_back({{"rule", f.rule},
                    {"severity", lint::SeverityName(f.severity)},
                    {"stage", f.stage},
                    {"address", f.address},
                    {"file", ProjectRelative(f.range.file, root)},
                    {"line", f.range.start.line},
                    {"column", f.range.start.column},
                    {"message", f.message},
                    {"fix", f.hint}});
  }
  nlohmann::json out = {{"findings", list}, {"error_count", errors}, {"warning_count", findings.size() - errors}};
  *ctx.out << out.dump(2) << "\n";
}

void RunLintCommand(const LintArgs& args, CommandContext& ctx) {
  ProjectSession session(ctx);
  if (!session.Open()) {
    session.Report();
    ctx.exit_code = 1;
    return;
  }
  Engine& engine = session.engine();
  const ProjectConfig& project = session.project();
  if (!args.stage.empty() && !project.FindStage(args.stage)) {
    session.diags().Error("Unknown stage", fmt::format("strata.yaml declares no stage named \"{}\".", args.stage));
  }
  std::vector<std::string> order = engine.StageOrder(project, session.diags());
  EngineOptions options;
  options.variables = args.variables.ToInputs(ctx.WorkingDir(), session.diags());
  options.environment = session.environment();
  lint::EvaluatedStageOutputs outputs;
  options.stage_outputs = &outputs;
  std::vector<std::unique_ptr<LoadedStage>> loaded;
  std::vector<std::unique_ptr<StageEvaluation>> evaluations;
  std::vector<lint::LintStage> stages;
  for (const auto& name : order) {
    if (session.diags().HasErrors()) break;
    auto stage = engine.LoadStage(project, name, session.diags());
    if (!stage || session.diags().HasErrors()) break;
    auto evaluation = engine.EvaluateStage(project, *stage, options, session.diags());
    if (!evaluation) break;
    outputs.Add(name, evaluation->RootOutputs());
    stages.push_back({name, stage.get(), evaluation.get()});
    loaded.push_back(std::move(stage));
    evaluations.push_back(std::move(evaluation));
  }
  std::vector<lint::Finding> findings;
  if (!session.diags().HasErrors()) findings = lint::RunLint(project, stages, session.diags());
  if (session.diags().HasErrors()) {
    session.Report();
    ctx.exit_code = 1;
    return;
  }
  if (!args.stage.empty()) {
    std::erase_if(findings, [&](const lint::Finding& f) { return f.stage != args.stage; });
  }
  if (ctx.global.json) {
    RenderJson(findings, project.root_dir, ctx);
  } else {
    if (!session.diags().empty()) session.Report();  // warnings of the evaluation
    RenderHuman(findings, project.root_dir, args.stage.empty() ? stages.size() : 1, ctx);
  }
  for (const auto& f : findings) {
    if (f.severity == lint::Severity::Error) ctx.exit_code = 1;
  }
}

}  // namespace

void AddLintCommand(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<LintArgs>();
  auto* cmd = app.add_subcommand("lint", "Check a project for mistakes that need no cloud (rules in the README)");
  cmd->add_option("stage", args->stage, "Report only this stage's findings (default: every stage)");
  cmd->add_flag("--all", args->all, "Every stage (the default)");
  args->variables.AddTo(cmd);
  cmd->add_flag("--json", ctx.global.json, "Print the findings as JSON");
  cmd->callback([args, &ctx] {
    if (args->all && !args->stage.empty()) {
      *ctx.err << "Error: give a stage or -all, not both.\n";
      ctx.exit_code = 1;
      return;
    }
    RunLintCommand(*args, ctx);
  });
}

}  // namespace strata::cli
