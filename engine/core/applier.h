#pragma once
// Apply: carries out a Plan (Terraform's apply walk). Deletes of instances config no longer
// declares (and everything, for a destroy plan) run first, in reverse dependency order;
// then the stage is evaluated again in dependency order, and each planned create, update
// or replace runs once the values it needs are known. At most `parallelism` provider calls
// run at once. Every operation is journaled in the state store before its provider call
// and recorded the moment it returns, so an interruption at any instant loses nothing: an
// unanswered create stays pending with its idempotency token for the next plan.
//
// A failed operation fails its resource; what depends on it is skipped, independent
// branches go on. The first SIGINT (`stop`) lets running calls finish and starts no more.

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/core/engine.h"
#include "engine/plan/change.h"
#include "providers/registry.h"
#include "state/store.h"

namespace strata {

//! What the applier reports as it goes (the CLI prints Terraform's lines from these).
struct ApplyEvent {
  enum class Kind {
    Started,   // "aws_vpc.main: Creating..."
    Progress,  // "aws_vpc.main: Still creating... [10s elapsed]" or a provider's message
    Finished,  // "aws_vpc.main: Creation complete after 2s [id=vpc-1]"
    Failed     // the operation failed (the error comes in the diagnostics)
  };
  Kind kind = Kind::Started;
  std::string address;
  state::OperationAction operation = state::OperationAction::Create;
  std::string id;                     // the object's id attribute, when it has one
  std::chrono::milliseconds elapsed{0};
  std::string message;                // Progress from the provider
};

struct ApplyRequest {
  Engine* engine = nullptr;
  const ProjectConfig* project = nullptr;
  const LoadedStage* stage = nullptr;
  const Plan* plan = nullptr;
  const ProviderRegistry* providers = nullptr;
  state::StateStore* store = nullptr;
  std::string lock_id;  // the stage lock the caller holds
  //! parallelism and stage outputs; variables come from the plan.
  EngineOptions options;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const ApplyEvent&)> on_event;
  //! How often "Still creating..." is reported for a running operation.
  std::chrono::milliseconds progress_interval{10000};
};

struct ApplyOutcome {
  int imported = 0;
  int added = 0;
  int changed = 0;
  int destroyed = 0;
  //! Addresses of failed operations, and of resources skipped because of them.
  std::vector<std::string> failed;
  std::vector<std::string> skipped;
  //! Stopped by `stop` before everything ran.
  bool interrupted = false;
  //! Changes that never started because of the stop.
  std::vector<std::string> not_started;
  //! A destroy: the managed instances still in state after it (failed, skipped or not
  //! reached); a destroy is complete only when this is empty.
  std::vector<std::string> remaining;
  int64_t serial = 0;
  std::map<std::string, Value> outputs;
  //! The store refused the commit (its error is in the diagnostics; when the database went
  //! away, it names the recovery file holding the results): the apply did not complete.
  bool commit_failed = false;
};

//! Applies `plan`. Errors (provider failures with their addresses, a stale state, the
//! store failing) go to `diags`.
ApplyOutcome ApplyPlan(const ApplyRequest& request, Diagnostics& diags);

}  // namespace strata
