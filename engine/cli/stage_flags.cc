#include "engine/cli/stage_flags.h"

#include <filesystem>

#include <fmt/format.h>

#include "providers/schema_registry.h"
#include "engine/base/keep_until_exit.h"
#include "engine/cli/environment_selection.h"
#include "engine/cli/wiring.h"
#include "engine/core/stored_stage_outputs.h"

extern char** environ;

namespace strata::cli {

void VariableFlags::AddTo(CLI::App* cmd) {
  // Each occurrence is recorded as it is parsed (trigger_on_parse), so -var and -var-file
  // keep their interleaved command-line order.
  auto record = [this](bool file) {
    return [this, file](const std::string& text) { given.push_back({file, text}); };
  };
  cmd->add_option_function<std::string>("--var", record(false), "Set a root variable: -var 'name=value' (repeatable)")
      ->option_text("NAME=VALUE")
      ->allow_extra_args(false)
      ->trigger_on_parse();
  cmd->add_option_function<std::string>("--var-file", record(true),
                                        "Read root variables from a YAML or JSON file (repeatable)")
      ->option_text("FILE")
      ->allow_extra_args(false)
      ->trigger_on_parse();
}

VariableInputs VariableFlags::ToInputs(const std::string& working_dir, Diagnostics& diags) const {
  VariableInputs inputs;
  inputs.env = StrataVarsFromEnvironment(environ);
  for (const Given& g : given) {
    if (g.file) {
      std::filesystem::path p(g.text);
      inputs.arguments.push_back(
          VariableArgument::File(p.is_absolute() ? g.text : (std::filesystem::path(working_dir) / p).string()));
      continue;
    }
    std::string name, value;
    if (!SplitVarFlag(g.text, name, value)) {
      diags.Error("Invalid -var option", fmt::format("\"{}\" is not of the form NAME=VALUE.", g.text));
      continue;
    }
    inputs.arguments.push_back(VariableArgument::Var(name, value));
  }
  return inputs;
}

namespace {

const SchemaRegistry& CompiledSchemas() {
  static const SchemaRegistry registry = DefaultSchemas();
  return registry;
}

}  // namespace

ProjectSession::ProjectSession(CommandContext& ctx) : ctx_(ctx), engine_(std::make_unique<Engine>(CompiledSchemas(), sources_)) {}

// The engine's module cache holds every parsed module file: only memory.
ProjectSession::~ProjectSession() { base::KeepUntilExit(engine_); }

bool ProjectSession::Open() {
  project_ = engine_->OpenProject(ctx_.WorkingDir(), diags_);
  if (!project_.has_value() || diags_.HasErrors()) return false;
  std::optional<EnvironmentChoice> chosen = ChooseEnvironment(ctx_, project_->root_dir, diags_);
  if (!chosen) return false;
  environment_ = chosen->name;
  return true;
}

const state::crypto::KeyRing* ProjectSession::Keys() {
  if (!keys_ && project_) {
    auto loaded = LoadProjectKeyRing(*project_);
    if (loaded.ok()) keys_ = std::move(*loaded);
  }
  return keys_ ? &*keys_ : nullptr;
}

StageOutputSource* ProjectSession::StageOutputsOrUnknown() { return StageOutputs(true); }

StageOutputSource* ProjectSession::StageOutputs(bool unknown_when_missing) {
  if (stage_outputs_) return stage_outputs_.get();
  std::unique_ptr<state::StateStore> store;
  std::error_code ec;
  // A SQLite state not created yet has no outputs; a PostgreSQL one is always asked.
  if (project_ && (ProjectStateBackend(*project_) == "postgres" || std::filesystem::exists(project_->StatePath(), ec))) {
    auto opened = OpenProjectStore(*project_, environment_);
    if (opened.ok()) {
      store = std::move(opened.value());
    } else {
      diags_.Add(opened.status().ToDiagnostic());
    }
  }
  stage_outputs_ = std::make_unique<StoredStageOutputs>(std::move(store), unknown_when_missing);
  return stage_outputs_.get();
}

}  // namespace strata::cli
