#include "engine/cli/stage_flags.h"

#include <filesystem>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "providers/schema_registry.h"
#include "engine/cli/wiring.h"
#include "state/stage_outputs.h"

extern char** environ;

namespace strata::cli {

void VariableFlags::AddTo(CLI::App* cmd) {
  cmd->add_option("--var", vars, "Set a root variable: -var 'name=value' (repeatable)")->option_text("NAME=VALUE")->allow_extra_args(false);
  cmd->add_option("--var-file", var_files, "Read root variables from a YAML or JSON file (repeatable)")->option_text("FILE")->allow_extra_args(false);
}

VariableInputs VariableFlags::ToInputs(const std::string& working_dir, Diagnostics& diags) const {
  VariableInputs inputs;
  inputs.env = StrataVarsFromEnvironment(environ);
  for (const auto& v : vars) {
    std::string name, value;
    if (!SplitVarFlag(v, name, value)) {
      diags.Error("Invalid -var option", fmt::format("\"{}\" is not of the form NAME=VALUE.", v));
      continue;
    }
    inputs.cli_vars.emplace_back(name, value);
  }
  for (const auto& f : var_files) {
    std::filesystem::path p(f);
    inputs.var_files.push_back(p.is_absolute() ? f : (std::filesystem::path(working_dir) / p).string());
  }
  return inputs;
}

namespace {

// ${stage.S.X} from the state store (its own connection). With `unknown_when_missing`,
// values of stages not applied yet are unknown; without, they are errors saying which stage
// to apply first. The evaluator calls this from several walker threads at once, and a store
// connection is not for concurrent use: reads are serialised and each answer is kept.
class StoredStageOutputs : public StageOutputSource {
 public:
  StoredStageOutputs(std::unique_ptr<state::StateStore> store, bool unknown_when_missing)
      : store_(std::move(store)), unknown_when_missing_(unknown_when_missing) {}

  std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override {
    if (!store_ && unknown_when_missing_) return Value::Unknown();
    std::lock_guard lock(mutex_);
    auto key = std::make_pair(stage, output);
    if (auto it = answers_.find(key); it != answers_.end()) {
      error = it->second.second;
      return it->second.first;
    }
    std::optional<Value> value;
    if (!store_) {
      error = fmt::format("stage \"{}\" has not been applied yet (the project has no state): run `strata apply {}` first",
                          stage, stage);
      return value;
    }
    auto result = state::LookupStageOutput(*store_, stage, output);
    if (result.ok()) {
      value = result->value;
    } else if (result.status().code() == state::StateCode::NotFound && unknown_when_missing_) {
      value = Value::Unknown();
    } else {
      error = result.status().message();
    }
    answers_[key] = {value, error};
    return value;
  }

 private:
  std::unique_ptr<state::StateStore> store_;
  bool unknown_when_missing_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, std::pair<std::optional<Value>, std::string>> answers_;
};

const SchemaRegistry& CompiledSchemas() {
  static const SchemaRegistry registry = DefaultSchemas();
  return registry;
}

}  // namespace

ProjectSession::ProjectSession(CommandContext& ctx) : ctx_(ctx), engine_(std::make_unique<Engine>(CompiledSchemas(), sources_)) {}

bool ProjectSession::Open() {
  project_ = engine_->OpenProject(ctx_.WorkingDir(), diags_);
  return project_.has_value() && !diags_.HasErrors();
}

StageOutputSource* ProjectSession::StageOutputsOrUnknown() { return StageOutputs(true); }

StageOutputSource* ProjectSession::StageOutputs(bool unknown_when_missing) {
  if (stage_outputs_) return stage_outputs_.get();
  std::unique_ptr<state::StateStore> store;
  std::error_code ec;
  if (project_ && std::filesystem::exists(project_->StatePath(), ec)) {
    auto opened = OpenProjectStore(*project_);
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
