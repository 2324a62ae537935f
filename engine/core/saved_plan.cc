#include "engine/core/saved_plan.h"


#include <fmt/format.h>

#include "engine/base/file.h"
#include "engine/base/hash.h"
#include "engine/value/json.h"

namespace strata {

std::string ConfigDigest(const LoadedStage& stage) {
  std::string all;
  if (stage.graph) {
    for (const ModuleInstance& m : stage.graph->modules) {
      for (const std::string& file : m.config->files) {
        all += file + '\0' + base::Sha256Hex(base::ReadFile(file).value_or("")) + '\0';
      }
    }
  }
  return base::Sha256Hex(all);
}

std::string StateDigest(const state::StageState& state) {
  std::string all = state.lineage + '\0' + std::to_string(state.serial) + '\0';
  for (const auto& r : state.resources) {
    all += r.addr.ToString() + '\0' + state::ToString(r.status) + '\0' + r.idempotency_token + '\0' +
           ValueToJson(r.attributes.DeepUnmark()).dump() + '\0';
  }
  for (const auto& r : state.deposed) {
    all += r.addr.ToString() + " deposed " + r.deposed + '\0' + state::ToString(r.status) + '\0';
  }
  return base::Sha256Hex(all);
}

std::optional<std::string> SavedPlanStaleness(const Plan& plan, const std::string& stage,
                                              const state::StageState& prior, const LoadedStage& loaded) {
  if (plan.stage != stage) return fmt::format("it is a plan for stage \"{}\", not \"{}\"", plan.stage, stage);
  if (plan.errored) return "it was saved from a plan that had errors";
  if (plan.prior_lineage != prior.lineage && !plan.prior_lineage.empty()) {
    return "the stage's state has another lineage (it was replaced or pushed since)";
  }
  if (plan.prior_serial != prior.serial) {
    return fmt::format("the stage's state moved on since the plan was made (serial {} then, {} now)", plan.prior_serial,
                       prior.serial);
  }
  if (plan.prior_state_digest != StateDigest(prior)) {
    return "the stage's state changed since the plan was made (an apply ran or was interrupted)";
  }
  if (plan.config_digest != ConfigDigest(loaded)) return "the stage's configuration files changed since the plan was made";
  return std::nullopt;
}

}  // namespace strata
