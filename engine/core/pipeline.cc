#include "engine/core/pipeline.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "engine/graph/walker.h"

namespace strata {
namespace {

std::string PipelineStageList(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// The stages `stage` reads from, directly or through others.
std::set<std::string> UpstreamClosure(const StagePipeline& pipeline, const std::string& stage) {
  std::set<std::string> seen;
  std::vector<std::string> todo{stage};
  while (!todo.empty()) {
    std::string s = todo.back();
    todo.pop_back();
    auto it = pipeline.reads.find(s);
    if (it == pipeline.reads.end()) continue;
    for (const std::string& up : it->second) {
      if (seen.insert(up).second) todo.push_back(up);
    }
  }
  return seen;
}

}  // namespace

std::optional<StagePipeline> LoadStagePipeline(Engine& engine, const ProjectConfig& project, Diagnostics& diags) {
  StagePipeline pipeline;
  pipeline.order = engine.StageOrder(project, diags, &pipeline.reads);
  if (diags.HasErrors()) return std::nullopt;
  return pipeline;
}

std::optional<std::vector<std::string>> SelectStages(const StagePipeline& pipeline, const StageSlice& slice, bool reverse,
                                                     Diagnostics& diags) {
  const std::vector<std::string>& order = pipeline.order;
  auto position = [&](const std::string& name, const char* flag) -> std::optional<size_t> {
    auto it = std::find(order.begin(), order.end(), name);
    if (it != order.end()) return static_cast<size_t>(it - order.begin());
    diags.Error("Unknown stage", fmt::format("{} {}: the project has no stage \"{}\". Its stages, in order: {}.", flag, name,
                                             name, PipelineStageList(order)));
    return std::nullopt;
  };
  size_t first = 0, last = order.empty() ? 0 : order.size() - 1;
  std::set<std::string> only;
  bool ok = true;
  for (const std::string& s : slice.stages) {
    if (position(s, "-target-stage")) only.insert(s);
    else ok = false;
  }
  if (!slice.from.empty()) {
    if (auto p = position(slice.from, "-from")) first = *p;
    else ok = false;
  }
  if (!slice.to.empty()) {
    if (auto p = position(slice.to, "-to")) last = *p;
    else ok = false;
  }
  if (!ok) return std::nullopt;
  if (!slice.from.empty() && !slice.to.empty() && first > last) {
    diags.Error("Empty slice of stages", fmt::format("-from {} comes after -to {} in the pipeline's order ({}): swap them.",
                                                     slice.from, slice.to, PipelineStageList(order)));
    return std::nullopt;
  }
  std::vector<std::string> selected;
  for (size_t i = first; i <= last && i < order.size(); ++i) {
    if (only.empty() || only.count(order[i])) selected.push_back(order[i]);
  }
  if (selected.empty()) {
    diags.Error("No stage selected",
                fmt::format("-target-stage, -from and -to together select no stage. The stages, in order: {}.",
                            PipelineStageList(order)));
    return std::nullopt;
  }
  if (reverse) std::reverse(selected.begin(), selected.end());
  return selected;
}

std::vector<StageStatus> WalkStages(const StagePipeline& pipeline, const std::vector<std::string>& stages, bool reverse,
                                    const PipelineWalkOptions& options, const std::function<bool(const std::string&)>& run) {
  std::vector<StageStatus> status(stages.size(), StageStatus::NotRun);
  std::atomic<bool> halt{false};
  auto visit = [&](size_t i) {
    if (halt || (options.stop && *options.stop)) {
      halt = true;
      return false;
    }
    bool ok = run(stages[i]);
    status[i] = ok ? StageStatus::Succeeded : StageStatus::Failed;
    if (!ok) halt = true;
    return ok;
  };
  if (options.stage_parallelism <= 1) {
    for (size_t i = 0; i < stages.size() && visit(i); ++i) {
    }
    return status;
  }
  // A stage waits for every selected stage it reads from, through stages outside the slice
  // too (a destroy: for every selected stage that reads it).
  Dag dag;
  for (size_t i = 0; i < stages.size(); ++i) dag.AddNode();
  for (size_t i = 0; i < stages.size(); ++i) {
    std::set<std::string> upstream = UpstreamClosure(pipeline, stages[i]);
    for (size_t j = 0; j < stages.size(); ++j) {
      if (i == j || !upstream.count(stages[j])) continue;
      if (reverse) dag.AddEdge(j, i);  // j is read by i: j goes after i
      else dag.AddEdge(i, j);
    }
  }
  WalkOptions walk;
  walk.parallelism = options.stage_parallelism;
  walk.stop = &halt;
  WalkDag(dag, walk, [&](NodeId n) { return visit(n); });
  return status;
}

}  // namespace strata
