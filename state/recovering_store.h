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
#include "state/forwarding_store.h"
#include "state/store.h"

namespace strata::state {

struct RecoveryOptions {
  std::string dir;  // where recovery files go (RecoveryDir of the project root)
  crypto::KeyRing keys;
  //! For messages: "strata state recover app" is what the user runs.
  std::string command = "strata state recover";
};

class RecoveringStore final : public ForwardingStore {
 public:
  RecoveringStore(StateStore& inner, RecoveryOptions options) : ForwardingStore(inner), options_(std::move(options)) {}

  //! The recovery file written, empty while the database answered.
  std::string file() const;

  // The change-set writes; every other call goes to the inner store (ForwardingStore).
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
