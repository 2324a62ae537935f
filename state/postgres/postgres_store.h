#pragma once
// PostgresStateStore: the StateStore in a PostgreSQL database, for teams (several machines,
// CI runners) sharing one state. Same semantics as SqliteStateStore (the same test suites run
// against both); what differs is below.
//
// Tables live in the PostgreSQL schema `schema` (default "strata"), so several projects can
// share a database. Every statement is prepared and takes its values as parameters.
//
// Durability: each method that writes is one transaction, committed before it returns; with
// the server's default synchronous_commit=on, COMMIT returns once the WAL is flushed, so a
// BeginOperation survives a crash of this process or of the server.
//
// Locks: a stage's lock is a session-level advisory lock (pg_try_advisory_lock on a 64-bit
// hash of schema + stage key) held on a connection of its own, plus a row in `locks`
// (holder, host, pid, operation, since) for the messages. The advisory lock dies with its
// connection, so a holder killed with kill -9 (or its machine gone) leaves no lock behind:
// the next TryLock takes the stage and reports the left-over row in `took_over`. Every write
// re-checks inside its transaction that the caller's lock id is the stage's row (row-locked
// FOR UPDATE), so after force-unlock (which deletes the row and terminates nothing) the old
// holder cannot write again; the advisory lock stays with the old holder's session until it
// ends, so nobody else gets in while it is alive.
//
// Threads: the methods may be called from several threads; they take turns (a libpq
// connection serves one caller at a time), except EmergencyUnlocker's callable, which uses
// a connection of its own.
//
// Lost connections: a call whose connection is lost (the server stopped or restarted, the
// session terminated) reconnects and runs again, with exponential backoff (100 ms doubling
// to 5 s), until options.retry_timeout has passed; then it fails with Unreachable (the
// engine's RecoveringStore takes over from there: state/recovering_store.h). Each call is
// one transaction, so a retried one was not committed — except when the connection died
// during the COMMIT itself, the one window where a retried write may be recorded twice
// (a Begin then leaves a second pending operation, reconciled by the next plan). On
// reconnecting, the advisory locks this store held are taken again and each stage's lock
// row must still be ours: when another session took the stage meanwhile, the call fails
// with LockNotHeld naming it, and nothing more is written.
//
// Secrets are sealed in this process (state/crypto) before they are sent: the database never
// sees a sensitive value in clear. The connection string's password never appears in a
// message (conninfo.h).

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "state/postgres/pg_connection.h"
#include "state/store.h"
#include "state/store_shared.h"
#include "state/stored_rows.h"

namespace strata::state {

struct PostgresStoreOptions {
  //! libpq connection string: postgres://user@host:5432/db?sslmode=verify-full or
  //! "host=... dbname=..."; empty: libpq's PG* variables and defaults.
  std::string url;
  //! The PostgreSQL schema holding the tables (created if missing): conninfo.h's
  //! InvalidSchemaReason says which names are accepted.
  std::string schema = "strata";
  std::string environment = kDefaultEnvironment;
  crypto::KeyRing keys;
  int history_retention = 100;      // snapshots kept per stage; 0 keeps all
  StateEnvironment* env = nullptr;  // null: StateEnvironment::System()
  //! ReadOnly: the session is read-only (default_transaction_read_only), so writes fail; the
  //! schema is still created or migrated when missing or older.
  StoreAccess access = StoreAccess::ReadWrite;
  //! How long a call keeps retrying (reconnecting with exponential backoff) when the
  //! connection is lost mid-session; then it fails with StateCode::Unreachable. 0: no retry.
  std::chrono::milliseconds retry_timeout{60000};
};

// The stage's lock row, row-locked: a write checks under it that it still holds the stage
// (FOR UPDATE: a force-unlock waits for this write's transaction, and this write sees one
// that committed before it).
inline constexpr char kPgLockRowForUpdate[] = "SELECT id FROM locks WHERE stage = $1 FOR UPDATE";

class PostgresStateStore final : public StateStore {
 public:
  //! Connects and creates or migrates the schema. InvalidArgument for a bad schema name, Io
  //! when the server cannot be reached (the message names the masked URL), SchemaTooNew for
  //! a newer schema.
  static StateResult<std::unique_ptr<PostgresStateStore>> Open(const PostgresStoreOptions& options);
  ~PostgresStateStore() override;

  //! "postgres://alice:***@db/state (schema strata)": where the state is, for messages.
  std::string Where() const;

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
  //! Group commit: the entries in one pipelined transaction (store.h; postgres_changes.cc).
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
  PostgresStateStore(PostgresStoreOptions options, std::unique_ptr<pg::Connection> db);

  // Runs `body`, turning PgError / malformed JSON into a status (Io, Busy, Corrupt); a lost
  // connection is retried (above) by the outermost Guard of a call.
  template <class F>
  auto Guard(F&& body) -> decltype(body());

  std::string Key(const std::string& stage) const;
  // The advisory lock key of a stage key (schema-qualified, so schemas never collide).
  int64_t LockKey(const std::string& key) const;
  StateStatus RequireEnvironment();

  // Locks.
  StateStatus RequireLock(const std::string& stage, const std::string& lock_id);
  // Ok when `held` (the stage's lock row id, none without a row) is lock_id; else LockNotHeld.
  StateStatus LockHeldBy(const std::string& stage, const std::string& lock_id, const std::optional<std::string>& held);
  StateStatus RequireOpenChangeSet(const ChangeSet& cs);
  pg::Connection& LockConnection();
  // After a lost connection: a new connection, and the advisory locks of held_ taken again
  // (LockNotHeld / LockHeld when another session took a stage meanwhile). Throws PgError
  // while the server is still away.
  StateStatus Reconnect();
  // Whether a connection of this store no longer answers (a trivial query fails): some
  // failures of a connection the server dropped carry the SQLSTATE of its last notice.
  bool ConnectionBroken();
  // The Unreachable status once retry_timeout has passed.
  StateStatus LostStatus(const pg::PgError& e) const;
  std::optional<LockInfo> ReadLockByKey(const std::string& key);
  std::string Holder();

  // Rows (within a transaction where it matters).
  void EnsureStage(const std::string& stage, const std::string& lineage = "");
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
  int64_t CommitSerial(const std::string& stage, const std::string& operation);
  std::optional<std::pair<std::string, int64_t>> ReadLineageAndSerial(const std::string& stage);

  struct PendingOp {
    std::string address;
    std::string deposed;
    std::string action;
    std::optional<std::string> prior_status;
    std::string token;
    // The object the operation is on, as far as Encode needs it (its created_at); none
    // when it is not in the state.
    std::optional<StoredResource> object;
  };
  // What a journal entry checks before it writes, read before it (postgres_changes.cc).
  struct JournalRead {
    std::optional<std::string> prior_status;   // Begin: the object's status; none: not in the state
    std::optional<StateResult<PendingOp>> op;  // Complete, Fail: the pending operation, or the refusal
  };
  // The lock row and the change set's status, for the check that a write may go on.
  struct OpenCheckRows {
    std::optional<std::string> held;
    std::string status;
  };
  // Queue the reads (Connection::Send) that OpenCheck / an entry's write decide from; they
  // are filled in once they have run (db_->Flush(), or at once outside a pipeline).
  void QueueOpenCheck(const ChangeSet& cs, OpenCheckRows* rows);
  StateStatus OpenCheck(const ChangeSet& cs, const OpenCheckRows& rows);
  void QueueJournalRead(const ChangeSet& cs, const JournalEntry& e, JournalRead* read);
  static StateResult<PendingOp> PendingOpFromRows(const pg::Rows& rows, const std::string& stage, int64_t id);
  // Whether no entry of a batch can see another's writes: none shares an object (address
  // and deposed key) or an operation with another.
  static bool EntriesIndependent(const std::vector<JournalEntry>& entries, const std::vector<JournalRead>& reads);
  // The journal writes inside WriteJournal's transaction, deciding from the entry's read. A
  // refusal returns before any write (so a refused entry needs no savepoint); the writes
  // are sent with Connection::Send (pipelined), and the caller marks the change set dirty.
  // BeginOperationInTx sets *op_id once its INSERT has run (with the COMMIT at the latest).
  StateStatus BeginOperationInTx(const ChangeSet& cs, const OperationRequest& request, const JournalRead& read,
                                 int64_t* op_id);
  StateStatus CompleteOperationInTx(const ChangeSet& cs, const StateResult<PendingOp>& op, int64_t operation_id,
                                    const std::optional<ResourceInstanceState>& result);
  StateStatus FailOperationInTx(const ChangeSet& cs, const StateResult<PendingOp>& op, int64_t operation_id,
                                const std::string& error, const std::optional<ResourceInstanceState>& partial);
  StateStatus WriteJournalEntryInTx(const ChangeSet& cs, const JournalEntry& e, const JournalRead& read,
                                    int64_t* op_id);

  PostgresStoreOptions options_;
  StateEnvironment* env_;
  std::unique_ptr<pg::Connection> db_;
  //! The connection holding this store's advisory locks (opened at the first TryLock).
  std::unique_ptr<pg::Connection> lock_db_;
  //! Stage key -> lock id of the advisory locks lock_db_ holds.
  std::map<std::string, std::string> held_;
  //! Taken by every method (Guard): the connections serve one call at a time.
  std::recursive_mutex mu_;
  //! Guards entered and not left (calls nest): only the outermost one retries.
  int guard_depth_ = 0;
  //! A call gave up on the lost connection (retry_timeout passed) and none has reconnected.
  bool lost_ = false;
};

}  // namespace strata::state
