#pragma once
// SqliteStateStore: the StateStore in one SQLite database per project (default
// .strata/state.db).
//
// Durability: WAL mode with synchronous=FULL by default: each commit fsyncs the WAL before
// returning, so a committed BeginOperation survives even a power cut, and the journal can
// never lose an operation that the provider may have received. synchronous=NORMAL (the
// `durability` option) still survives kill -9 of the process (the WAL is written before
// COMMIT returns; only the fsync is deferred to checkpoints) but may lose the last
// transactions on power loss or an OS crash. The benchmark reports both.
//
// Concurrency: every write is a BEGIN IMMEDIATE transaction (the database write lock is
// taken first, so two writers never deadlock on an upgrade) and waits up to the busy timeout
// for another process's transaction. Stage locks are rows in `locks`, taken in such a
// transaction; every write re-checks in its own transaction that the caller's lock id still
// holds the stage.

#include <memory>
#include <optional>
#include <string>

#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "engine/base/sqlite.h"
#include "state/store.h"
#include "state/store_shared.h"
#include "state/stored_rows.h"

namespace strata::state {

enum class Durability { Full, Normal };

struct SqliteStoreOptions {
  std::string path;                 // the database file; its directory is created if missing
  //! The environment the store is opened for (environments.h); it must exist (NotFound).
  std::string environment = kDefaultEnvironment;
  crypto::KeyRing keys;             // see crypto/state_key.h: LoadKeyRing
  int history_retention = 100;      // snapshots kept per stage; 0 keeps all
  int busy_timeout_ms = 10000;      // waiting for another process's transaction
  Durability durability = Durability::Full;
  StateEnvironment* env = nullptr;  // null: StateEnvironment::System()
  //! ReadOnly: nothing is created, migrated or chmodded; a missing database reads as empty.
  StoreAccess access = StoreAccess::ReadWrite;
};

class SqliteStateStore final : public StateStore {
 public:
  //! Opens or creates the database (mode 0600) and migrates its schema. Corrupt for a file
  //! that is not a database or is damaged, SchemaTooNew for a newer schema, Io otherwise.
  //! With StoreAccess::ReadOnly, an older schema is Io (it needs a command that writes).
  static StateResult<std::unique_ptr<SqliteStateStore>> Open(const SqliteStoreOptions& options);

  //! Runs PRAGMA integrity_check: Ok, or Corrupt with SQLite's findings.
  StateStatus CheckIntegrity();

  StateResult<std::vector<StageSummary>> ListStages() override;
  StateResult<StageState> LoadStage(const std::string& stage, const LoadOptions& options = {}) override;
  StateResult<std::map<std::string, OutputState>> LoadOutputs(const std::string& stage) override;
  StateResult<std::vector<OperationRecord>> PendingOperations(const std::string& stage) override;
  StateResult<std::vector<UpstreamRead>> LoadUpstreamReads(const std::string& stage) override;
  StateResult<std::vector<HistoryEntry>> History(const std::string& stage) override;
  StateResult<StageState> LoadSnapshot(const std::string& stage, int64_t serial,
                                       const LoadOptions& options = {}) override;

  StateResult<LockInfo> TryLock(const LockRequest& request) override;
  StateStatus Unlock(const std::string& stage, const std::string& lock_id) override;
  StateResult<LockInfo> ForceUnlock(const std::string& lock_id) override;
  StateResult<std::optional<LockInfo>> CurrentLock(const std::string& stage) override;
  std::function<void()> EmergencyUnlocker(const std::string& stage, const std::string& lock_id) override;

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
  StateStatus RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& from, const ResourceInstanceAddr& to,
                             const ResourceInstanceState* converted = nullptr) override;
  StateStatus DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& addr, const std::string& key) override;
  StateStatus RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& addr, const std::string& key) override;
  StateStatus RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& reads) override;
  StateResult<CommitResult> CommitChangeSet(const ChangeSet& cs,
                                            const std::optional<std::vector<OutputState>>& outputs) override;

  StateResult<int64_t> RemoveResources(const std::string& lock_id, const std::string& stage,
                                       const std::vector<std::string>& addresses) override;
  StateResult<int64_t> MoveResource(const std::string& lock_id, const std::string& stage, const std::string& source,
                                    const std::string& destination, const ConvertMoved& convert = nullptr) override;
  StateResult<int64_t> ReplaceStage(const std::string& lock_id, const StageState& state,
                                    const ReplaceOptions& options) override;
  StateResult<int64_t> Rollback(const std::string& lock_id, const std::string& stage, int64_t serial) override;

  bool EncryptsSecrets() const override { return options_.keys.primary.has_value(); }
  StateResult<SecretCounts> CountSecrets() override;
  StateResult<int64_t> Rekey() override;

  StateResult<StoreDump> DumpRows() override;
  StateStatus LoadRows(const StoreDump& dump, const std::vector<std::string>& own_locks) override;

  const std::string& Environment() const override { return options_.environment; }
  StateResult<std::vector<EnvironmentSummary>> ListEnvironments() override;
  StateStatus CreateEnvironment(const std::string& name) override;
  StateStatus DeleteEnvironment(const std::string& name, bool force) override;

 protected:
  StateEnvironment& Env() override { return *env_; }

 private:
  SqliteStateStore(SqliteStoreOptions options, std::unique_ptr<sqlite::Database> db);

  // Runs `body`, turning SqliteError / malformed JSON into a status (Corrupt, Busy, Io).
  template <class F>
  auto Guard(F&& body) -> decltype(body());

  // The key of `stage` of this store's environment in every table (stage_key.h).
  std::string Key(const std::string& stage) const;
  // NotFound unless this store's environment exists (at Open).
  StateStatus RequireEnvironment();

  // In a write transaction: LockNotHeld unless `lock_id` holds `stage`.
  StateStatus RequireLock(const std::string& stage, const std::string& lock_id);
  // In a write transaction: RequireLock, and InvalidArgument unless `cs` is open.
  StateStatus RequireOpenChangeSet(const ChangeSet& cs);
  // Creates the stage row (new lineage) if missing.
  void EnsureStage(const std::string& stage, const std::string& lineage = "");
  std::optional<LockInfo> ReadLock(const std::string& stage);
  std::optional<LockInfo> ReadLockByKey(const std::string& key);
  std::string Holder();

  // Rows.
  //! One object: the current one, or the one deposed under `deposed`.
  std::optional<StoredResource> ReadResource(const std::string& stage, const std::string& address,
                                             const std::string& deposed = "");
  std::vector<StoredResource> ReadResources(const std::string& stage);
  std::vector<StoredOutput> ReadOutputs(const std::string& stage);
  void WriteResource(const std::string& stage, const StoredResource& row);
  void WriteOutputs(const std::string& stage, const std::vector<StoredOutput>& outputs);
  void MarkDirty(int64_t change_set_id);
  StoredResource Encode(const ResourceInstanceState& r, const std::optional<StoredResource>& prior) {
    return EncodeResourceRow(r, prior, options_.keys, *env_);
  }

  // Within a write transaction: serial + 1, snapshot into history, retention pruning.
  int64_t CommitSerial(const std::string& stage, const std::string& operation);
  //! The stage's lineage and serial, or nullopt when it has no row yet (inside a transaction).
  std::optional<std::pair<std::string, int64_t>> ReadLineageAndSerial(const std::string& stage);
  void TrimHistory(const std::string& stage, int64_t serial);

  // Within a write transaction: a pending operation of `stage`.
  struct PendingOp {
    std::string address;
    std::string deposed;
    std::string action;
    std::optional<std::string> prior_status;
    std::string token;
  };
  StateResult<PendingOp> ReadPendingOp(const std::string& stage, int64_t id);
  // The journal writes inside an open write transaction whose change set was checked: the
  // bodies of BeginOperation, CompleteOperation and FailOperation, and of one WriteJournal entry.
  StateResult<int64_t> BeginOperationInTx(const ChangeSet& cs, const OperationRequest& request);
  StateStatus CompleteOperationInTx(const ChangeSet& cs, int64_t operation_id,
                                    const std::optional<ResourceInstanceState>& result);
  StateStatus FailOperationInTx(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                                const std::optional<ResourceInstanceState>& partial);
  StateResult<int64_t> WriteJournalEntryInTx(const ChangeSet& cs, const JournalEntry& e);

  SqliteStoreOptions options_;
  StateEnvironment* env_;
  std::unique_ptr<sqlite::Database> db_;
};

}  // namespace strata::state
