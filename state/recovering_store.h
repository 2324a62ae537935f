#pragma once
// RecoveringStore: the store an apply writes through, so that nothing it did is forgotten
// when the database goes away for good mid-apply.
//
// It forwards every call to the real store until a change-set write fails with
// StateCode::Unreachable (the PostgreSQL store retried past state.retry_timeout). From then
// on it is offline, for the rest of the apply:
//  - nothing new starts: BeginOperation, a Begin journal entry, DeposeResource and
//    RenameResource (which precede a provider call) are refused, and the addresses are
//    listed in the file as not started;
//  - what operations in flight report, and every other change-set write (Complete, Fail,
//    PutResource, DeleteResource, RestoreDeposed, the outputs at commit) goes, in order, to
//    a recovery file (recovery_file.h) that is rewritten durably (fsync) at each write, so
//    that even a crash after this point loses nothing;
//  - CommitChangeSet fails with Unreachable and the message the user needs: what was lost,
//    the file, and `strata state recover STAGE` to run when the database is back.
// Upstream reads are not kept (they are not state: the stage's previous record stays).
//
// Secrets in the file are sealed with the store's key ring exactly as the store would seal
// them, or masked when no key is configured. Thread-safe like the store it wraps.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "state/crypto/state_key.h"
#include "state/recovery_file.h"
#include "state/store.h"

namespace strata::state {

struct RecoveryOptions {
  std::string dir;  // where recovery files go (RecoveryDir of the project root)
  crypto::KeyRing keys;
  //! For messages: "strata state recover app" is what the user runs.
  std::string command = "strata state recover";
};

class RecoveringStore final : public StateStore {
 public:
  RecoveringStore(StateStore& inner, RecoveryOptions options) : inner_(inner), options_(std::move(options)) {}

  //! The recovery file written, empty while the database answered.
  std::string file() const;

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
                                        const std::string& operation) override;
  StateResult<int64_t> BeginOperation(const ChangeSet& cs, const OperationRequest& request) override;
  StateStatus CompleteOperation(const ChangeSet& cs, int64_t operation_id,
                                const std::optional<ResourceInstanceState>& result) override;
  StateStatus FailOperation(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                            const std::optional<ResourceInstanceState>& partial = std::nullopt) override;
  std::vector<StateResult<int64_t>> WriteJournal(const ChangeSet& cs, const std::vector<JournalEntry>& entries) override;
  StateStatus PutResource(const ChangeSet& cs, const ResourceInstanceState& resource) override;
  StateStatus DeleteResource(const ChangeSet& cs, const ResourceInstanceAddr& addr) override;
  StateStatus DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& addr, const std::string& key) override;
  StateStatus RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& addr, const std::string& key) override;
  StateStatus RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& from, const ResourceInstanceAddr& to,
                             const ResourceInstanceState* converted = nullptr) override;
  StateStatus RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& reads) override;
  StateResult<CommitResult> CommitChangeSet(const ChangeSet& cs,
                                            const std::optional<std::vector<OutputState>>& outputs) override;

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
  StateResult<StoreDump> DumpRows() override { return inner_.DumpRows(); }
  StateStatus LoadRows(const StoreDump& dump, const std::vector<std::string>& own_locks) override {
    return inner_.LoadRows(dump, own_locks);
  }

  bool EncryptsSecrets() const override { return inner_.EncryptsSecrets(); }
  StateResult<SecretCounts> CountSecrets() override { return inner_.CountSecrets(); }
  StateResult<int64_t> Rekey() override { return inner_.Rekey(); }

  const std::string& Environment() const override { return inner_.Environment(); }
  StateResult<std::vector<EnvironmentSummary>> ListEnvironments() override { return inner_.ListEnvironments(); }
  StateStatus CreateEnvironment(const std::string& name) override { return inner_.CreateEnvironment(name); }
  StateStatus DeleteEnvironment(const std::string& name, bool force) override {
    return inner_.DeleteEnvironment(name, force);
  }

 protected:
  StateEnvironment& Env() override { return StateEnvironment::System(); }

 private:
  bool Offline() const { return offline_.has_value(); }
  //! Goes offline after `lost` (the first Unreachable): starts the file.
  void GoOffline(const ChangeSet& cs, const StateStatus& lost);
  //! Appends a write and rewrites the file; its status says whether the file was written.
  StateStatus Record(RecoveryWrite write);
  StateStatus NotStarted(const std::string& address);
  std::optional<StoredResource> Encode(const std::optional<ResourceInstanceState>& r);
  //! The message of the commit's failure: what was saved, where, and what to run.
  std::string SavedMessage() const;
  //! The instance an operation is on: from its Begin (seen here), else from `state`.
  std::string AddressOf(int64_t operation_id, const std::optional<ResourceInstanceState>& state) const;

  StateStore& inner_;
  RecoveryOptions options_;
  std::recursive_mutex mu_;
  std::string lineage_;       // the stage as BeginChangeSet found it
  int64_t base_serial_ = 0;
  std::optional<RecoveryFile> offline_;  // set once the database is gone
  std::map<int64_t, std::string> addresses_;  // operation id -> instance address
  std::string path_;
  StateStatus file_status_;  // the last write of the file
};

}  // namespace strata::state
