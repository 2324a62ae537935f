#pragma once
// A StateStore that hands every call to another store: the base of stores that change a few
// calls around one that does the work (RecoveringStore: change-set writes that go to a
// recovery file once the database is gone; tests' stores that lose their database). A
// method added to StateStore is forwarded here once, not in each of them.
//
// WriteJournal is deliberately not forwarded: StateStore's own loops through this store's
// BeginOperation / CompleteOperation / FailOperation, so a store that overrides those sees
// every journal entry; one that batches overrides WriteJournal itself. Env() is the
// process's environment (the inner store's is not reachable from here).

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "state/store.h"

namespace strata::state {

class ForwardingStore : public StateStore {
 public:
  explicit ForwardingStore(StateStore& inner) : inner_(inner) {}

  StateResult<std::vector<StageSummary>> ListStages() override { return inner_.ListStages(); }
  StateResult<StageState> LoadStage(const std::string& stage, const LoadOptions& options = {}) override {
    return inner_.LoadStage(stage, options);
  }
  StateResult<std::map<std::string, OutputState>> LoadOutputs(const std::string& stage) override {
    return inner_.LoadOutputs(stage);
  }
  StateResult<std::vector<OperationRecord>> PendingOperations(const std::string& stage) override {
    return inner_.PendingOperations(stage);
  }
  StateResult<std::vector<UpstreamRead>> LoadUpstreamReads(const std::string& stage) override {
    return inner_.LoadUpstreamReads(stage);
  }
  StateResult<std::vector<HistoryEntry>> History(const std::string& stage) override { return inner_.History(stage); }
  StateResult<StageState> LoadSnapshot(const std::string& stage, int64_t serial, const LoadOptions& options = {}) override {
    return inner_.LoadSnapshot(stage, serial, options);
  }

  StateResult<LockInfo> TryLock(const LockRequest& request) override { return inner_.TryLock(request); }
  StateStatus Unlock(const std::string& stage, const std::string& lock_id) override {
    return inner_.Unlock(stage, lock_id);
  }
  StateResult<LockInfo> ForceUnlock(const std::string& lock_id) override { return inner_.ForceUnlock(lock_id); }
  StateResult<std::optional<LockInfo>> CurrentLock(const std::string& stage) override {
    return inner_.CurrentLock(stage);
  }
  std::function<void()> EmergencyUnlocker(const std::string& stage, const std::string& lock_id) override {
    return inner_.EmergencyUnlocker(stage, lock_id);
  }

  StateResult<ChangeSet> BeginChangeSet(const std::string& lock_id, const std::string& stage,
                                        const std::string& operation) override {
    return inner_.BeginChangeSet(lock_id, stage, operation);
  }
  StateResult<int64_t> BeginOperation(const ChangeSet& cs, const OperationRequest& request) override {
    return inner_.BeginOperation(cs, request);
  }
  StateStatus CompleteOperation(const ChangeSet& cs, int64_t operation_id,
                                const std::optional<ResourceInstanceState>& result) override {
    return inner_.CompleteOperation(cs, operation_id, result);
  }
  StateStatus FailOperation(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                            const std::optional<ResourceInstanceState>& partial = std::nullopt) override {
    return inner_.FailOperation(cs, operation_id, error, partial);
  }
  StateStatus PutResource(const ChangeSet& cs, const ResourceInstanceState& resource) override {
    return inner_.PutResource(cs, resource);
  }
  StateStatus DeleteResource(const ChangeSet& cs, const ResourceInstanceAddr& addr) override {
    return inner_.DeleteResource(cs, addr);
  }
  StateStatus DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& addr, const std::string& key) override {
    return inner_.DeposeResource(cs, addr, key);
  }
  StateStatus RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& addr, const std::string& key) override {
    return inner_.RestoreDeposed(cs, addr, key);
  }
  StateStatus RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& from, const ResourceInstanceAddr& to,
                             const ResourceInstanceState* converted = nullptr) override {
    return inner_.RenameResource(cs, from, to, converted);
  }
  StateStatus RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& reads) override {
    return inner_.RecordUpstreamReads(cs, reads);
  }
  StateResult<CommitResult> CommitChangeSet(const ChangeSet& cs,
                                            const std::optional<std::vector<OutputState>>& outputs) override {
    return inner_.CommitChangeSet(cs, outputs);
  }

  StateResult<int64_t> RemoveResources(const std::string& lock_id, const std::string& stage,
                                       const std::vector<std::string>& addresses) override {
    return inner_.RemoveResources(lock_id, stage, addresses);
  }
  StateResult<int64_t> MoveResource(const std::string& lock_id, const std::string& stage, const std::string& source,
                                    const std::string& destination, const ConvertMoved& convert = nullptr) override {
    return inner_.MoveResource(lock_id, stage, source, destination, convert);
  }
  StateResult<int64_t> ReplaceStage(const std::string& lock_id, const StageState& state,
                                    const ReplaceOptions& options) override {
    return inner_.ReplaceStage(lock_id, state, options);
  }
  StateResult<int64_t> Rollback(const std::string& lock_id, const std::string& stage, int64_t serial) override {
    return inner_.Rollback(lock_id, stage, serial);
  }

  bool EncryptsSecrets() const override { return inner_.EncryptsSecrets(); }
  StateResult<SecretCounts> CountSecrets() override { return inner_.CountSecrets(); }
  StateResult<int64_t> Rekey() override { return inner_.Rekey(); }

  StateResult<StoreDump> DumpRows() override { return inner_.DumpRows(); }
  StateStatus LoadRows(const StoreDump& dump, const std::vector<std::string>& own_locks) override {
    return inner_.LoadRows(dump, own_locks);
  }

  const std::string& Environment() const override { return inner_.Environment(); }
  StateResult<std::vector<EnvironmentSummary>> ListEnvironments() override { return inner_.ListEnvironments(); }
  StateStatus CreateEnvironment(const std::string& name) override { return inner_.CreateEnvironment(name); }
  StateStatus DeleteEnvironment(const std::string& name, bool force) override {
    return inner_.DeleteEnvironment(name, force);
  }

 protected:
  StateEnvironment& Env() override { return StateEnvironment::System(); }

  StateStore& inner_;
};

}  // namespace strata::state
