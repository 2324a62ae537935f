#pragma once
// The engine's public API: load a project, load and check a stage (config + graph), and
// evaluate it. The CLI calls only this; it never reaches into config, graph or state.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/project.h"
#include "engine/core/evaluator.h"
#include "engine/core/module_cache.h"
#include "engine/core/stage_graph.h"
#include "engine/core/variables.h"
#include "engine/value/schema.h"

namespace strata {

//! A stage's loaded config and its checked graph.
struct LoadedStage {
  const StageConfig* stage = nullptr;
  std::string dir;  // absolute
  std::shared_ptr<const ModuleConfig> root;
  std::unique_ptr<StageGraph> graph;
};

//! Reads ${stage.S.X} for evaluation; the state store implements it (issue: state).
class StageOutputSource {
 public:
  virtual ~StageOutputSource() = default;
  //! The output's value, or nullopt with `error` set (stage never applied, no such output).
  virtual std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) = 0;
  //! The serial of `stage`'s state as taken before its outputs were first read, so that the
  //! values ReadOutput answered come from it or a later one; nullopt when the source has no
  //! serials (or the stage has no state).
  virtual std::optional<int64_t> StageSerial(const std::string& /*stage*/) { return std::nullopt; }
};

struct EngineOptions {
  int parallelism = 10;
  VariableInputs variables;
  StageOutputSource* stage_outputs = nullptr;  // null: cross-stage values are unknown
  //! The selected environment: env.name, and its variables file envs/NAME.yaml at the
  //! project root (environment_refs.h); stage_outputs must read the same environment.
  std::string environment = "default";
};

class Engine {
 public:
  Engine(const SchemaSource& schemas, SourceRegistry& sources) : schemas_(schemas), sources_(sources) {}

  std::optional<ProjectConfig> OpenProject(const std::string& dir, Diagnostics& diags);

  //! Loads a stage's modules and builds its graph, reporting every static problem.
  std::unique_ptr<LoadedStage> LoadStage(const ProjectConfig& project, const std::string& stage, Diagnostics& diags);

  //! The evaluation settings of a stage: root variables from options.variables (problems go
  //! to `diags`), its paths, and ${stage.S.X} read through options.stage_outputs.
  EvaluateOptions EvaluationOptions(const ProjectConfig& project, const LoadedStage& stage, const EngineOptions& options,
                                    Diagnostics& diags);

  //! Evaluates a loaded stage (variables, validation rules, count/for_each, outputs) as validate,
  //! lint and console do: a count/for_each not known yet makes one instance with unknown keys
  //! (EvaluateOptions::unknown_repetition_once).
  std::unique_ptr<StageEvaluation> EvaluateStage(const ProjectConfig& project, const LoadedStage& stage,
                                                 const EngineOptions& options, Diagnostics& diags);

  //! The stages in the order they must run: a stage after every stage it reads from,
  //! otherwise in the order of strata.yaml. A cycle between stages is an error. `reads`, when
  //! given, receives each stage's direct upstream stages (a stage that fails to load reads none).
  std::vector<std::string> StageOrder(const ProjectConfig& project, Diagnostics& diags,
                                      std::map<std::string, std::vector<std::string>>* reads = nullptr);

  //! DOT of the stage's graph, or of the project's stages when `stage` is empty.
  std::string GraphDot(const ProjectConfig& project, const std::string& stage, Diagnostics& diags);

  SourceRegistry& sources() { return sources_; }
  const SchemaSource& schemas() const { return schemas_; }

 private:
  std::map<std::string, StageCatalogEntry> Catalog(const ProjectConfig& project, const std::string& except, Diagnostics& diags);

  const SchemaSource& schemas_;
  SourceRegistry& sources_;
  ModuleCache modules_;  // each stage's files parsed once, however many stages read its outputs
};

}  // namespace strata
