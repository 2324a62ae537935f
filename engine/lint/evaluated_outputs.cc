#include "engine/lint/evaluated_outputs.h"

namespace strata::lint {

std::optional<Value> EvaluatedStageOutputs::ReadOutput(const std::string& stage, const std::string& output,
                                                       std::string& /*error*/) {
  auto s = stages_.find(stage);
  if (s == stages_.end()) return Value::Unknown();
  auto o = s->second.find(output);
  if (o == s->second.end()) return Value::Unknown();
  return o->second;
}

}  // namespace strata::lint
