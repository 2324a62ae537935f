#pragma once
// One operation on one stage — the role Terraform's local backend plays: take the stage's
// lock, load its configuration and prior state, plan, check a saved plan against both, and
// apply through the journal. The caller (the CLI) picks the implementations (state store,
// providers, where ${stage.S.X} comes from) and renders what comes back; it never takes a
// lock, loads state or builds a request itself.

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/applier.h"
#include "engine/core/planner.h"
#include "state/crypto/state_key.h"
#include "state/lock_guard.h"

namespace strata {

//! What a stage run works with; each pointer must outlive the run.
struct StageRunContext {
  Engine* engine = nullptr;
  const ProjectConfig* project = nullptr;
  state::StateStore* store = nullptr;
  const ProviderRegistry* providers = nullptr;
  StageOutputSource* stage_outputs = nullptr;  // ${stage.S.X}
  const std::atomic<bool>* stop = nullptr;     // set on SIGINT: nothing new starts
  //! Seals the secrets of a recovery file (state/recovering_store.h) as the store would;
  //! null: they are masked.
  const state::crypto::KeyRing* keys = nullptr;
};

struct StagePlanOptions {
  PlanMode mode = PlanMode::Normal;
  bool refresh = true;
  std::vector<std::string> targets;
  std::vector<std::string> replace;
  VariableInputs variables;
  int parallelism = 10;
  //! Objects to import besides the configuration's import entries: address → id.
  std::map<std::string, std::string> imports;
  //! Import entries naming no configuration get it generated (PlanOutcome::generated_config).
  bool generate_config = false;
  //! A destroy goes ahead although applied stages read this stage's outputs.
  bool force = false;
  //! Progress of provider calls ("Refreshing state..."); may be empty.
  std::function<void(const std::string& address, const std::string& message)> progress;
  //! The plan may be saved to a file: it records a digest of the state it was made from,
  //! which applying the file later compares (Plan::prior_state_digest). A plan applied in
  //! the same run needs none, and hashing every object costs 5% of a no-op plan.
  bool for_saving = true;
};

struct StageApplyOptions {
  int parallelism = 10;
  std::function<void(const ApplyEvent&)> on_event;
  std::chrono::milliseconds progress_interval{10000};
};

class StageRun {
 public:
  //! Loads `stage`'s configuration and graph, takes its lock for `operation` (waiting up to
  //! `lock_timeout`; the lock is released when the run ends, or by the interrupt handler),
  //! and loads its state. Every problem goes to `diags`; nullptr when the run cannot go on —
  //! among them a recovery file of the stage waiting for `strata state recover`.
  static std::unique_ptr<StageRun> Open(const StageRunContext& context, const std::string& stage,
                                        const std::string& operation, std::chrono::milliseconds lock_timeout,
                                        Diagnostics& diags);

  //! Plans the stage against the state loaded by Open. Errors go to `diags` and mark the
  //! plan errored.
  PlanOutcome MakePlan(const StagePlanOptions& options, Diagnostics& diags);

  //! Whether `plan`, read from `file`, may still be applied: made for this stage, from the
  //! state held now, with the configuration on disk now. An error naming the file and what
  //! to run goes to `diags` when not.
  bool CheckSavedPlan(const Plan& plan, const std::string& file, Diagnostics& diags) const;

  //! Applies `plan` under the lock, recording every step in the store — or, once the store
  //! is unreachable past its retry deadline, in a recovery file beside the project
  //! (state/recovering_store.h), whose path and command the error names.
  ApplyOutcome Apply(const Plan& plan, const StageApplyOptions& options, Diagnostics& diags);

  //! `strata import`: takes the object `id` into state at `address`, which config must
  //! declare, as its provider reads it — nothing is created or changed, and what config
  //! would change shows in the next plan. Refused when state already holds `address`.
  //! Returns the imported change (nullopt after an error) and the apply's outcome.
  std::optional<ResourceInstanceChange> Import(const std::string& address, const std::string& id,
                                               StagePlanOptions plan_options, const StageApplyOptions& apply_options,
                                               Diagnostics& diags);

  //! Releases the stage's lock now instead of when the run is destroyed; nothing may plan,
  //! apply or import through the run afterwards (reading loaded() and prior() still works).
  void ReleaseLock() { lock_.reset(); }

  const std::string& stage() const { return stage_; }
  const LoadedStage& loaded() const { return *loaded_; }
  const state::StageState& prior() const { return prior_; }

 private:
  StageRun(const StageRunContext& context, std::string stage) : context_(context), stage_(std::move(stage)) {}
  //! A plan or apply request with what both take from the run filled in.
  template <typename Request>
  Request RequestFor(int parallelism) const;

  StageRunContext context_;
  std::string stage_;
  std::unique_ptr<LoadedStage> loaded_;
  std::optional<state::ScopedStageLock> lock_;
  state::StageState prior_;
};

}  // namespace strata
