#include "engine/core/planned_stage_outputs.h"

#include <fmt/format.h>

namespace strata {

void PlannedStageOutputs::Add(const Plan& plan) {
  std::map<std::string, Value> outputs;
  for (const OutputChange& o : plan.output_changes) {
    if (o.action != Action::Delete) outputs[o.name] = o.after;
  }
  std::lock_guard lock(mutex_);
  planned_[plan.stage] = std::move(outputs);
}

std::optional<Value> PlannedStageOutputs::ReadOutput(const std::string& stage, const std::string& output,
                                                     std::string& error) {
  {
    std::lock_guard lock(mutex_);
    auto it = planned_.find(stage);
    if (it != planned_.end()) {
      auto value = it->second.find(output);
      if (value != it->second.end()) return value->second;
      error = fmt::format("stage \"{}\" has no output \"{}\" in the plan made for it in this pipeline", stage, output);
      return std::nullopt;
    }
  }
  return base_.ReadOutput(stage, output, error);
}

std::optional<int64_t> PlannedStageOutputs::StageSerial(const std::string& stage) {
  {
    std::lock_guard lock(mutex_);
    if (planned_.count(stage)) return std::nullopt;
  }
  return base_.StageSerial(stage);
}

}  // namespace strata
