#pragma once
// The one way an apply calls a provider to change something: each create, update or
// delete is journaled in the state store before the call and completed or failed the
// moment it returns, with Started / Progress / Finished / Failed events and "Still
// creating..." ticks. This is what makes `kill -9` at any instant lose nothing: a create
// that never answered stays pending with its idempotency token, a create that made an
// unhealthy object keeps it (tainted), and a create whose answer was lost, or that ran past
// its `timeouts.create`, keeps the instance pending for the next run to look for.
//
// Thread-safe: the apply's walker threads share one runner. At most `parallelism` provider
// calls run at once, and the store's connection is used by one thread at a time (Store());
// journal writes of parallel operations share commits (JournalBatcher).

#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "engine/core/applier.h"
#include "engine/core/journal_batcher.h"
#include "engine/core/operation_slots.h"
#include "engine/core/progress_ticker.h"
#include "providers/provider.h"
#include "state/store.h"

namespace strata {

//! The "id" attribute of an object's state when it is a plain string ("" otherwise): what
//! events and progress lines show.
std::string ObjectIdOf(const Value& state);

//! True when `status` is ok; else its diagnostic, for `address`, goes to `out`.
bool CheckStored(const state::StateStatus& status, const std::string& address, Diagnostics& out);

//! The state a change's instance has after an operation: `attributes` with the change's
//! address, provider, dependencies, token and schema version.
state::ResourceInstanceState StateAfter(const ResourceInstanceChange& c, const Value& attributes,
                                        state::ResourceStatus status = state::ResourceStatus::Created);

class OperationRunner {
 public:
  struct Options {
    state::StateStore* store = nullptr;
    const state::ChangeSet* change_set = nullptr;  // open for the whole apply
    int parallelism = 10;
    std::chrono::milliseconds progress_interval{10000};
    std::function<void(const ApplyEvent&)> on_event;  // may be empty
    //! Called with the address of each operation that fails (the apply's report).
    std::function<void(const std::string&)> on_failed;
    //! The first interrupt: providers end their long waits (OperationContext::stop_requested).
    const std::atomic<bool>* stop = nullptr;
  };
  explicit OperationRunner(Options options);

  //! Runs `op` on `c`'s instance through `provider`: `prior` is the object's state (null
  //! for a create), `planned` the value to reach (null for a delete). Returns the new
  //! state (null after a delete); nullopt when the operation failed (its diagnostics, with
  //! the address, go to `out`) or could not be recorded.
  std::optional<Value> Run(const ResourceInstanceChange& c, Provider& provider, state::OperationAction op,
                           const Value& prior, const Value& planned, Diagnostics& out);

  //! An operation context for `address` whose progress messages become events.
  OperationContext Context(const std::string& address, state::OperationAction op, const std::string& id,
                           const std::string& token);
  void Emit(const ApplyEvent& e) const;

  //! A store call outside an operation, taking turns with the walker threads.
  template <typename F>
  auto Store(F&& call) -> decltype(call()) {
    std::lock_guard lock(store_mu_);
    return call();
  }
  state::StateStore& store() { return *options_.store; }
  JournalBatcher::Stats journal_stats() const { return journal_.stats(); }
  const state::ChangeSet& change_set() const { return *options_.change_set; }

 private:
  //! The partial state a failed operation leaves, and a warning when that is a create whose
  //! outcome is unknown.
  std::optional<state::ResourceInstanceState> LeftByFailure(const ResourceInstanceChange& c, state::OperationAction op,
                                                            const Value& result, bool outcome_unknown, bool timed_out,
                                                            Diagnostics& out) const;
  //! What happens to the object after `op` ran out of time (the timeout error's end).
  static std::string AfterTimeout(state::OperationAction op);

  Options options_;
  ProgressTicker ticker_;
  OperationSlots slots_;
  CancellationToken cancel_;
  std::mutex store_mu_;
  JournalBatcher journal_;
};

}  // namespace strata
