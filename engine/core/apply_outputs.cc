#include "engine/core/apply_outputs.h"

#include <map>
#include <string>

namespace strata {

std::vector<state::OutputState> EvaluatedOutputs(const StageGraph& graph, const StageEvaluation& evaluation,
                                                 const std::vector<state::OutputState>& stored) {
  const auto& declared = graph.modules[0].outputs;
  const auto& status = evaluation.NodeStatus();
  std::map<std::string, state::OutputState> out;
  for (const auto& o : stored) {
    if (declared.count(o.name)) out[o.name] = o;
  }
  for (const auto& [name, id] : declared) {
    const Value& v = evaluation.ResultOf(id);
    if (status[id] != WalkStatus::Succeeded || !v.IsWhollyKnown()) continue;
    out[name] = state::OutputState{name, v, graph.nodes[id].output->sensitive};
  }
  std::vector<state::OutputState> list;
  for (auto& [name, o] : out) list.push_back(std::move(o));
  return list;
}

std::vector<state::OutputState> OutputsFromPlan(const Plan& plan) {
  std::vector<state::OutputState> list;
  for (const OutputChange& oc : plan.output_changes) {
    if (oc.action == Action::Delete || !oc.after.IsWhollyKnown()) continue;
    list.push_back({oc.name, oc.after, oc.sensitive});
  }
  return list;
}

std::optional<std::vector<state::OutputState>> OutputsToCommit(const Plan& plan, bool destroy_complete,
                                                               const StageGraph& graph,
                                                               const StageEvaluation* evaluation,
                                                               const std::vector<state::OutputState>& stored) {
  switch (plan.mode) {
    case PlanMode::Destroy:
      if (destroy_complete) return std::vector<state::OutputState>{};
      return std::nullopt;
    case PlanMode::RefreshOnly:
      return OutputsFromPlan(plan);
    case PlanMode::Normal:
      if (evaluation) return EvaluatedOutputs(graph, *evaluation, stored);
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace strata
