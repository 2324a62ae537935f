#include <filesystem>
#include <istream>
#include <ostream>

#include "engine/cli/stage_flags.h"
#include "engine/expr/eval.h"
#include "engine/expr/parser.h"
#include "engine/expr/template_file.h"
#include "engine/value/format.h"

namespace strata::cli {
namespace {

struct ConsoleArgs {
  std::string stage;
  VariableFlags variables;
};

// Evaluates each line of input like `terraform console`: in a stage's root module when a
// stage is named, otherwise with functions only.
void RunConsole(const ConsoleArgs& args, CommandContext& ctx) {
  ProjectSession session(ctx);
  std::unique_ptr<LoadedStage> loaded;
  std::unique_ptr<StageEvaluation> evaluation;
  if (!args.stage.empty()) {
    if (!session.Open()) {
      session.Report();
      ctx.exit_code = 1;
      return;
    }
    EngineOptions options;
    options.variables = args.variables.ToInputs(ctx.WorkingDir(), session.diags());
    options.environment = session.environment();
    options.stage_outputs = session.StageOutputsOrUnknown();
    loaded = session.engine().LoadStage(session.project(), args.stage, session.diags());
    if (loaded && !session.diags().HasErrors()) {
      evaluation = session.engine().EvaluateStage(session.project(), *loaded, options, session.diags());
    }
    if (session.Report()) return;
  }
  MapScope empty_scope;
  std::string all_input;
  std::string line;
  int line_number = 0;
  bool failed = false;
  if (ctx.stdin_is_tty) *ctx.out << "> " << std::flush;
  while (std::getline(*ctx.in, line)) {
    ++line_number;
    all_input += line + "\n";
    session.sources().Add("<console>", all_input);
    std::string trimmed = line;
    trimmed.erase(0, trimmed.find_first_not_of(" \t\r"));
    if (trimmed == "exit") break;
    if (!trimmed.empty()) {
      Diagnostics diags;
      ExprPtr expr = ParseExpression(line, SourceMapping{"<console>", line_number, 1, 1}, diags);
      Value v;
      if (expr && evaluation) {
        v = evaluation->EvaluateInModule(*expr, 0, diags);
      } else if (expr) {
        FunctionContext fctx;
        fctx.base_dir = ctx.WorkingDir();
        fctx.render_template = RenderTemplateFile;
        EvalContext ectx(empty_scope, FunctionTable::Standard(), fctx);
        v = Evaluate(*expr, ectx, diags);
      }
      if (diags.HasErrors()) {
        failed = true;
        int saved = ctx.exit_code;
        ctx.Report(diags, &session.sources());
        ctx.exit_code = saved;
      } else {
        *ctx.out << FormatValue(v) << "\n";
      }
    }
    if (ctx.stdin_is_tty) *ctx.out << "> " << std::flush;
  }
  if (failed) ctx.exit_code = 1;
}

}  // namespace

void AddConsoleCommand(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ConsoleArgs>();
  auto* cmd = app.add_subcommand("console", "Evaluate expressions read from standard input, one per line");
  cmd->add_option("stage", args->stage, "Evaluate in this stage's root module (default: functions only)");
  args->variables.AddTo(cmd);
  cmd->callback([args, &ctx] { RunConsole(*args, ctx); });
}

}  // namespace strata::cli
