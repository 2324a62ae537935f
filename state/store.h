#pragma once
// StateStore: where a project's per-stage state lives. SQLite is the default implementation
// (state/sqlite/sqlite_store.h); PostgreSQL can follow behind the same interface.
//
// A store is opened for one environment (environments.h; `default` unless told): every
// method that names a stage reads, writes and locks that environment's stage, and nothing
// else, so two environments with the same stages keep separate resources, outputs,
// history, journals and locks. Only the environment methods, ForceUnlock (lock ids are
// unique) and the secrets methods (CountSecrets, Rekey: the whole store) see past it.
//
// Contracts every implementation keeps:
//  - No method throws. Expected failures come back as a StateStatus with a message meant for
//    the user (who holds the lock and how to force-unlock it; which key a value needs; ...).
//  - Every write needs the stage's lock, passed as the lock id returned by Lock(). The holder
//    is checked *inside* the write's transaction, so a process whose lock was force-unlocked
//    (and perhaps taken by another) can never write again: it gets LockNotHeld.
//  - Every method that writes commits durably before it returns (see the implementation for
//    the fsync reasoning). In particular BeginOperation is durable before the caller sends
//    the provider request, so a crash at any instant leaves the operation in the journal
//    as pending, with its idempotency token.
//  - The serial increments once per committed change set (Commit, Remove, Move, Replace,
//    Rollback); each new serial's snapshot is kept in the history (retention configurable).
//
// Typical apply:
//   auto lock = store.Lock({stage, "apply", 10s});            // waits with backoff
//   auto cs = store.BeginChangeSet(lock->id, stage, "apply"); // sees earlier pending ops
//   for each change:
//     auto op = store.BeginOperation(*cs, {addr, Create, provider, token});  // committed
//     ... provider call ...
//     store.CompleteOperation(*cs, *op, new_state)  or  store.FailOperation(*cs, *op, error)
//   store.RecordUpstreamReads(*cs, reads);                     // the ${stage.S.X} it read
//   store.CommitChangeSet(*cs, outputs);                       // serial + 1, snapshot
//   store.Unlock(stage, lock->id);                             // or let a ScopedStageLock do it

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "state/environment.h"
#include "state/environments.h"
#include "state/state.h"
#include "state/status.h"
#include "state/store_copy.h"

namespace strata::state {

//! How a command uses the state. The verbs that only read (state list/show/pull/history,
//! output) open it ReadOnly, so that a state they cannot write (a 0400 file, a read-only
//! directory or mount) still serves them; writes through such a store fail.
enum class StoreAccess { ReadWrite, ReadOnly };

//! A move across resource types (state mv): `from`'s state as it is held at `to`, or why it
//! cannot be. The engine gives it (it asks the target type's provider); stores only call it.
using ConvertMoved =
    std::function<StateResult<ResourceInstanceState>(const ResourceInstanceState& from, const ResourceInstanceAddr& to)>;

struct LockRequest {
  std::string stage;
  std::string operation;  // shown to whoever finds the lock held: "apply", "state mv", ...
  std::chrono::milliseconds timeout{0};  // how long Lock() keeps trying; 0: one attempt
};

//! An open change set: a group of writes that ends in one serial increment.
struct ChangeSet {
  int64_t id = 0;
  std::string stage;
  std::string lock_id;
  std::string operation;
  //! Change sets of this stage left open by a process that died; their durable writes are
  //! committed together with this one.
  std::vector<int64_t> interrupted;
  //! Operations still pending (from interrupted change sets): to reconcile before planning
  //! anew. Resolve each with CompleteOperation or FailOperation.
  std::vector<OperationRecord> pending;
};

struct OperationRequest {
  ResourceInstanceAddr addr;
  OperationAction action = OperationAction::Create;
  std::string provider;
  std::string idempotency_token;
  //! A deposed object's key: the operation (a Delete) is on that object, not the current one.
  std::string deposed = "";
};

//! One write of the operation journal, for WriteJournal: a BeginOperation, a
//! CompleteOperation or a FailOperation with the same arguments.
struct JournalEntry {
  enum class Kind { Begin, Complete, Fail };
  Kind kind = Kind::Begin;
  OperationRequest request;                    // Begin
  int64_t operation_id = 0;                    // Complete, Fail
  std::optional<ResourceInstanceState> state;  // Complete: the result; Fail: the partial state
  std::string error;                           // Fail
};

struct CommitResult {
  int64_t serial = 0;
  bool changed = false;  // false: nothing changed, the serial stayed
};

struct LoadOptions {
  //! false: sensitive values come back as null marked sensitive, and no key is needed
  //! (for listings and masked displays).
  bool decrypt_secrets = true;
};

struct ReplaceOptions {
  bool force = false;     // skip the lineage and serial checks (`state push -force`)
  std::string operation = "state push";
};

class StateStore {
 public:
  virtual ~StateStore() = default;

  // --- Reading (no lock needed; each read sees one committed snapshot) ---

  virtual StateResult<std::vector<StageSummary>> ListStages() = 0;
  //! The stage's current state: the last committed change set plus every durable checkpoint
  //! since. A stage never written gives exists == false (not an error).
  virtual StateResult<StageState> LoadStage(const std::string& stage, const LoadOptions& options = {}) = 0;
  //! A stage's outputs for ${stage.S.X}. NotFound with "apply stage S first" when the stage
  //! was never applied.
  virtual StateResult<std::map<std::string, OutputState>> LoadOutputs(const std::string& stage) = 0;
  //! Operations of `stage` still pending (in flight when their process stopped).
  virtual StateResult<std::vector<OperationRecord>> PendingOperations(const std::string& stage) = 0;
  //! What the last RecordUpstreamReads of `stage` recorded, by stage and output; empty when
  //! nothing was recorded (a stage never applied, or applied before Strata recorded reads).
  virtual StateResult<std::vector<UpstreamRead>> LoadUpstreamReads(const std::string& stage) = 0;
  //! Kept snapshots, newest first.
  virtual StateResult<std::vector<HistoryEntry>> History(const std::string& stage) = 0;
  //! The state as it was at `serial` (from the history).
  virtual StateResult<StageState> LoadSnapshot(const std::string& stage, int64_t serial,
                                               const LoadOptions& options = {}) = 0;

  // --- Locking ---

  //! One attempt to take the stage's lock. LockHeld names the holder, the operation, since
  //! when, and the force-unlock command. A stale lock (its process is gone from this host:
  //! killed, crashed) is taken over instead, and the new lock's `took_over` describes it;
  //! the dead holder's change sets can no longer write, as after force-unlock.
  virtual StateResult<LockInfo> TryLock(const LockRequest& request) = 0;
  //! TryLock, retried with exponential backoff (50 ms doubling to 1 s, with jitter) until
  //! request.timeout has passed.
  StateResult<LockInfo> Lock(const LockRequest& request);
  //! Releases a lock this process took. NotFound if it is not (or no longer) held by `lock_id`.
  virtual StateStatus Unlock(const std::string& stage, const std::string& lock_id) = 0;
  //! Removes the lock with this id, whoever holds it. NotFound names the locks that exist.
  virtual StateResult<LockInfo> ForceUnlock(const std::string& lock_id) = 0;
  virtual StateResult<std::optional<LockInfo>> CurrentLock(const std::string& stage) = 0;
  //! A callable that releases the lock through a fresh connection, safe to call from another
  //! thread (the signal handler) or from atexit, whatever this store object is doing.
  virtual std::function<void()> EmergencyUnlocker(const std::string& stage, const std::string& lock_id) = 0;

  // --- Checkpointed change sets (each call its own committed transaction) ---

  virtual StateResult<ChangeSet> BeginChangeSet(const std::string& lock_id, const std::string& stage,
                                                const std::string& operation) = 0;
  //! Journals the operation as pending and marks the instance pending-create/-update/-delete
  //! with the token (a create inserts a placeholder instance). Returns the operation id.
  virtual StateResult<int64_t> BeginOperation(const ChangeSet& cs, const OperationRequest& request) = 0;
  //! The provider answered: `result` is the instance's new state (nullopt: it is gone, e.g.
  //! after a delete). The operation may be one of cs.pending (reconciliation).
  virtual StateStatus CompleteOperation(const ChangeSet& cs, int64_t operation_id,
                                        const std::optional<ResourceInstanceState>& result) = 0;
  //! The provider failed: records `error`; the instance returns to its prior status, or takes
  //! `partial` when the provider reported one (e.g. created but tainted).
  virtual StateStatus FailOperation(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                                    const std::optional<ResourceInstanceState>& partial = std::nullopt) = 0;
  //! Several journal writes in one durable step (group commit: the parallel operations of an
  //! apply share one fsync). Each entry has exactly the effect and the result of its own
  //! call — an entry refused (NotFound, InvalidArgument) changes nothing and leaves the
  //! others — and every entry is durable when this returns, so a Begin is still recorded
  //! before its provider call is sent. Results are in the entries' order: the operation id
  //! for a Begin, 0 for a Complete or Fail that was written. A failure of the step itself
  //! (the disk, the database) fails every entry and writes none. The default makes one
  //! call per entry.
  virtual std::vector<StateResult<int64_t>> WriteJournal(const ChangeSet& cs, const std::vector<JournalEntry>& entries);
  //! Writes an instance outside any provider operation (refresh results, import).
  virtual StateStatus PutResource(const ChangeSet& cs, const ResourceInstanceState& resource) = 0;
  //! Removes the instance's current object (its deposed objects stay).
  virtual StateStatus DeleteResource(const ChangeSet& cs, const ResourceInstanceAddr& addr) = 0;
  //! create_before_destroy, before the replacement's create is sent: the current object
  //! becomes deposed under `key` in one step, so that the create has the instance to itself
  //! and no interruption can lose the old object. NotFound when there is no current object;
  //! InvalidArgument when `key` is taken.
  virtual StateStatus DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                     const std::string& key) = 0;
  //! The replacement's create failed and left nothing: the deposed object becomes current
  //! again. InvalidArgument (and nothing changes) when the instance has a current object
  //! (the failed create left one: tainted, or pending with its token); NotFound when no
  //! object is deposed under `key`.
  virtual StateStatus RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                     const std::string& key) = 0;
  //! Gives an instance (its current and deposed objects) a new address in one step (a moved
  //! entry applied), keeping everything else, so that no interruption can leave the object under neither address or both.
  //! NotFound when `from` is absent; InvalidArgument when `to` is taken. A move across
  //! resource types gives `converted` (its address `to`): the current object is written as
  //! it (attributes, provider and schema version as the target type's provider converted
  //! them) in the same step.
  virtual StateStatus RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& from,
                                     const ResourceInstanceAddr& to,
                                     const ResourceInstanceState* converted = nullptr) = 0;
  //! Records which outputs of earlier stages the stage read, replacing what was recorded
  //! for it before (the caller sorts them by stage and output). A write of the change set,
  //! durable when it returns like the others, but not part of the stage's state: it moves
  //! no serial, is kept in no history snapshot, and state edits (rm, mv, push, rollback)
  //! leave it; deleting the stage's environment deletes it. The digest of a sensitive read
  //! is a secret at rest like the others: sealed, counted by CountSecrets, re-sealed by Rekey.
  virtual StateStatus RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& reads) = 0;
  //! Ends the change set: replaces the outputs when given, increments the serial when
  //! anything changed, and keeps the snapshot in the history.
  virtual StateResult<CommitResult> CommitChangeSet(const ChangeSet& cs,
                                                    const std::optional<std::vector<OutputState>>& outputs) = 0;

  // --- Whole-stage edits (each one change set: one new serial) ---

  //! Removes instances from state (not from the world). NotFound, and nothing removed, if any
  //! address is absent. A resource address without a key removes all of its instances.
  virtual StateResult<int64_t> RemoveResources(const std::string& lock_id, const std::string& stage,
                                               const std::vector<std::string>& addresses) = 0;
  //! Renames an instance (or, for a resource address without key, all its instances), and
  //! rewrites dependencies that named it. NotFound / InvalidArgument when dst exists. When
  //! the resource types differ, `convert` gives each instance's state under its new address
  //! (the engine asks the target type's provider); without it, or when it refuses, nothing
  //! moves (InvalidArgument).
  virtual StateResult<int64_t> MoveResource(const std::string& lock_id, const std::string& stage,
                                            const std::string& source, const std::string& destination,
                                            const ConvertMoved& convert = nullptr) = 0;
  //! Replaces the stage's state (state push). Refuses another lineage or an older serial
  //! unless forced. Returns the new serial: max(current + 1, state.serial).
  virtual StateResult<int64_t> ReplaceStage(const std::string& lock_id, const StageState& state,
                                            const ReplaceOptions& options) = 0;
  //! Restores the snapshot of `serial` as a new serial.
  virtual StateResult<int64_t> Rollback(const std::string& lock_id, const std::string& stage, int64_t serial) = 0;

  // --- Secrets at rest ---

  //! Whether a key is configured for sealing new values.
  virtual bool EncryptsSecrets() const = 0;
  //! Counts of sealed values: in clear, and under keys other than the primary one.
  struct SecretCounts {
    int64_t in_clear = 0;
    int64_t other_key = 0;
    int64_t current_key = 0;
  };
  virtual StateResult<SecretCounts> CountSecrets() = 0;
  //! Re-seals every stored secret (current state and history, all stages) with the primary
  //! key, opening them with any key of the ring. Refused while any stage is locked. With no
  //! primary key, decrypts everything to clear. Returns how many values were rewritten.
  virtual StateResult<int64_t> Rekey() = 0;

  // --- The whole store, for `state migrate` (store_copy.h) ---

  //! Every row of the copied tables, all environments, read in one snapshot; secrets stay
  //! sealed. Rows come sorted (SortDump).
  virtual StateResult<StoreDump> DumpRows() = 0;
  //! Replaces every row of the copied tables with `dump` in one transaction (the schema's
  //! identities continue past the copied ids). Refused (LockHeld, nothing changed) while a
  //! stage is locked by a lock whose id is not in `own_locks` (the caller's, on this store).
  virtual StateStatus LoadRows(const StoreDump& dump, const std::vector<std::string>& own_locks) = 0;

  // --- Environments ---

  //! The environment this store was opened for.
  virtual const std::string& Environment() const = 0;
  //! Every environment, `default` first and the others by name, with what state each holds.
  virtual StateResult<std::vector<EnvironmentSummary>> ListEnvironments() = 0;
  //! InvalidArgument for a name InvalidEnvironmentReason refuses or one that exists.
  virtual StateStatus CreateEnvironment(const std::string& name) = 0;
  //! Deletes an environment and everything its stages hold (current state, outputs,
  //! history, journal). Refused: `default` and the store's own environment
  //! (InvalidArgument), one that does not exist (NotFound), one with a stage locked
  //! (LockHeld), and, unless `force`, one whose stages still hold resource instances
  //! (InvalidArgument naming how many, per stage).
  virtual StateStatus DeleteEnvironment(const std::string& name, bool force) = 0;

 protected:
  //! The clock and randomness Lock() waits with.
  virtual StateEnvironment& Env() = 0;
};

}  // namespace strata::state
