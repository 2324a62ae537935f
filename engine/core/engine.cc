#include "engine/core/engine.h"

#include <filesystem>

#include <fmt/format.h>

#include "engine/config/loader.h"
#include "engine/core/environment_refs.h"
#include "engine/core/module_sources.h"
#include "engine/expr/eval.h"

namespace fs = std::filesystem;

namespace strata {

std::optional<ProjectConfig> Engine::OpenProject(const std::string& dir, Diagnostics& diags) {
  return LoadProject(dir, sources_, diags);
}

// What each other stage declares, for checking ${stage.S.X}; their own errors are not
// reported here (validating that stage reports them).
std::map<std::string, StageCatalogEntry> Engine::Catalog(const ProjectConfig& project, const std::string& except, Diagnostics&) {
  std::map<std::string, StageCatalogEntry> catalog;
  for (size_t i = 0; i < project.stages.size(); ++i) {
    const StageConfig& s = project.stages[i];
    StageCatalogEntry entry{s.name, i, {}, false};
    if (s.name != except) {
      Diagnostics ignored;
      auto root = modules_.Load((fs::path(project.root_dir) / s.path).lexically_normal().string(), sources_, ignored);
      if (root && !ignored.HasErrors()) {
        for (const auto& [name, o] : root->outputs) entry.outputs.push_back(name);
        entry.loaded = true;
      }
    }
    catalog[s.name] = std::move(entry);
  }
  return catalog;
}

std::unique_ptr<LoadedStage> Engine::LoadStage(const ProjectConfig& project, const std::string& stage, Diagnostics& diags) {
  const StageConfig* config = project.FindStage(stage);
  if (!config) {
    std::vector<std::string> names;
    for (const auto& s : project.stages) names.push_back(s.name);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    diags.Error("No such stage", fmt::format("The project has no stage named \"{}\".{} Its stages are: {}.", stage,
                                             DidYouMean(stage, names), list));
    return nullptr;
  }
  auto loaded = std::make_unique<LoadedStage>();
  loaded->stage = config;
  loaded->dir = (fs::path(project.root_dir) / config->path).lexically_normal().string();
  loaded->root = modules_.Load(loaded->dir, sources_, diags);
  if (loaded->root) CheckModuleSources(project, *loaded->root, diags);
  GraphBuildInput input;
  input.stage = stage;
  input.root = loaded->root;
  input.schemas = &schemas_;
  input.stages = Catalog(project, stage, diags);
  loaded->graph = BuildStageGraph(input, diags);
  return loaded;
}

EvaluateOptions Engine::EvaluationOptions(const ProjectConfig& project, const LoadedStage& stage,
                                          const EngineOptions& options, Diagnostics& diags) {
  EvaluateOptions eval;
  eval.parallelism = options.parallelism;
  VariableInputs variables = options.variables;
  variables.environment_file = EnvironmentVariablesFile(project.root_dir, options.environment);
  eval.root_variables = CollectRootVariables(*stage.root, variables, sources_, diags);
  eval.environment = options.environment;
  eval.project_dir = project.root_dir;
  eval.stage_dir = stage.dir;
  eval.limits = project.limits;
  if (StageOutputSource* source = options.stage_outputs) {
    eval.stage_output = [source](const std::string& s, const std::string& output, const SourceRange& range) {
      std::string error;
      std::optional<Value> v = source->ReadOutput(s, output, error);
      if (!v) throw MakeEvalError(range, "Cross-stage value not available", error);
      return *v;
    };
  }
  return eval;
}

std::unique_ptr<StageEvaluation> Engine::EvaluateStage(const ProjectConfig& project, const LoadedStage& stage,
                                                       const EngineOptions& options, Diagnostics& diags) {
  if (!stage.graph || !stage.root) return nullptr;
  EvaluateOptions eval = EvaluationOptions(project, stage, options, diags);
  eval.unknown_repetition_once = true;
  auto evaluation = std::make_unique<StageEvaluation>(*stage.graph, &schemas_, std::move(eval));
  if (diags.HasErrors()) return evaluation;
  evaluation->Run(diags);
  return evaluation;
}

std::vector<std::string> Engine::StageOrder(const ProjectConfig& project, Diagnostics& diags,
                                           std::map<std::string, std::vector<std::string>>* reads) {
  Dag dag;
  std::map<std::string, NodeId> ids;
  for (const auto& s : project.stages) ids[s.name] = dag.AddNode();
  for (const auto& s : project.stages) {
    Diagnostics ignored;
    auto loaded = LoadStage(project, s.name, ignored);
    if (!loaded || !loaded->graph) continue;
    for (const auto& dep : loaded->graph->stage_dependencies) {
      if (!ids.count(dep)) continue;
      dag.AddEdge(ids[s.name], ids[dep]);
      if (reads) (*reads)[s.name].push_back(dep);
    }
  }
  for (const auto& cycle : dag.Cycles()) {
    std::string chain;
    for (NodeId n : cycle) chain += project.stages[n].name + " → ";
    chain += project.stages[cycle[0]].name;
    diags.Error("Stages depend on each other", fmt::format("The stages read each other's outputs in a loop: {}.", chain),
                project.stages[cycle[0]].range);
  }
  if (diags.HasErrors()) return {};
  // Kahn's algorithm, always taking the earliest stage in file order that is ready.
  std::vector<size_t> remaining(dag.size());
  for (NodeId n = 0; n < dag.size(); ++n) remaining[n] = dag.DependenciesOf(n).size();
  std::vector<std::string> order;
  std::vector<bool> done(dag.size(), false);
  while (order.size() < dag.size()) {
    for (NodeId n = 0; n < dag.size(); ++n) {
      if (done[n] || remaining[n] != 0) continue;
      done[n] = true;
      order.push_back(project.stages[n].name);
      for (NodeId d : dag.DependentsOf(n)) --remaining[d];
      break;
    }
  }
  return order;
}

std::string Engine::GraphDot(const ProjectConfig& project, const std::string& stage, Diagnostics& diags) {
  if (stage.empty()) {
    Dag dag;
    for (size_t i = 0; i < project.stages.size(); ++i) dag.AddNode();
    for (size_t i = 0; i < project.stages.size(); ++i) {
      Diagnostics ignored;
      auto loaded = LoadStage(project, project.stages[i].name, ignored);
      if (!loaded || !loaded->graph) continue;
      for (const auto& dep : loaded->graph->stage_dependencies) {
        for (size_t j = 0; j < project.stages.size(); ++j) {
          if (project.stages[j].name == dep) dag.AddEdge(i, j);
        }
      }
    }
    return dag.ToDot([&](NodeId n) { return "stage." + project.stages[n].name; }, project.name.empty() ? "project" : project.name);
  }
  auto loaded = LoadStage(project, stage, diags);
  if (!loaded || !loaded->graph) return "";
  const StageGraph& g = *loaded->graph;
  return g.dag.ToDot([&](NodeId n) { return g.Label(n); }, stage);
}

}  // namespace strata
