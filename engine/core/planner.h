#pragma once
// Plan: evaluates a stage with its prior state and its providers and decides what to do to
// every resource instance (Terraform's plan walk). Refreshes each object through its
// provider first (an object deleted outside is planned for re-creation), asks the provider
// to plan each change, and adds deletes for what state has and config no longer declares.
// Nothing is written anywhere: the result is a Plan, plus the refreshed state for
// `refresh`/`-refresh-only`.

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/engine.h"
#include "engine/plan/change.h"
#include "engine/core/provider_set.h"
#include "state/state.h"

namespace strata {

struct PlanRequest {
  Engine* engine = nullptr;
  const ProjectConfig* project = nullptr;
  const LoadedStage* stage = nullptr;
  //! The stage's state as loaded from the store (exists == false for a new stage).
  const state::StageState* prior = nullptr;
  const ProviderRegistry* providers = nullptr;
  EngineOptions options;  // parallelism, variables, stage outputs
  PlanMode mode = PlanMode::Normal;
  bool refresh = true;
  std::vector<std::string> targets;  // -target: resource or instance addresses
  std::vector<std::string> replace;  // -replace: instance addresses
  //! Objects to import besides the configuration's import entries (strata import): address → id.
  std::map<std::string, std::string> imports;
  //! plan -generate-config-out: an import entry naming a root resource config does not
  //! declare is imported, and its configuration written (PlanOutcome::generated_config).
  bool generate_config = false;
  //! Set on SIGINT: no new refresh or plan call starts.
  const std::atomic<bool>* stop = nullptr;
  //! Logs and progress of provider calls (refresh can be slow); may be empty.
  std::function<void(const std::string& address, const std::string& message)> progress;
  //! Fill in Plan::prior_state_digest (only a plan saved to a file needs it).
  bool state_digest = true;
};

struct PlanOutcome {
  Plan plan;
  //! The evaluation the plan was made with (outputs, for the console and the renderers).
  std::unique_ptr<StageEvaluation> evaluation;
  //! With generate_config: a module file declaring the imported resources that had no
  //! configuration, their arguments as read (empty when there were none).
  std::string generated_config;
};

//! Plans one stage. Errors (bad config, provider errors, prevent_destroy) go to `diags`,
//! and mark the plan errored.
PlanOutcome PlanStage(const PlanRequest& request, Diagnostics& diags);

}  // namespace strata
