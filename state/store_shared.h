#pragma once
// What the state stores (state/sqlite, state/postgres) share beyond their databases: the
// messages of locks and refusals, the checks of pushes and rollbacks, and the conversions of
// whole stages and history snapshots to and from stored rows. One place, so that both
// backends say and decide the same things.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "state/state_edits.h"
#include "state/store.h"
#include "state/stored_rows.h"

namespace strata::state {

// --- Locks ---

//! `stage "eks" in environment "prod"`.
std::string StageLabel(const std::string& environment, const std::string& stage);
//! "alice@ws1 (pid 4242) for \"apply\" since <time> (3 min ago), lock ID <id>".
std::string LockDescription(const LockInfo& lock, int64_t now_millis);
//! The LockHeld message: who, since when, and how to wait or force-unlock.
std::string LockHeldMessage(const LockInfo& lock, int64_t now_millis);
//! ForceUnlock of an id no lock has: NotFound listing the locks held (`held`).
StateStatus NoSuchLock(const std::string& lock_id, const std::vector<LockInfo>& held);
//! A write whose `lock_id` does not hold the stage: LockNotHeld, naming the new holder when
//! there is one.
StateStatus LockNotHeld(const std::string& environment, const std::string& stage, const std::string& lock_id,
                        const std::optional<LockInfo>& holder);

// --- Change sets and operations ---

StateStatus ChangeSetNotOpen(int64_t id, const std::string& status);
//! The instance status an operation in flight gives (pending-create/-update/-delete).
ResourceStatus PendingStatusOf(OperationAction action);
//! An update, delete or deposed-object operation on an object the stage does not hold.
StateStatus NothingToOperateOn(const OperationRequest& request, const std::string& stage);
//! An answer (`given`) for operation `id` that is on another object.
StateStatus OperationOnAnotherObject(int64_t id, const std::string& address, const std::string& given);
StateStatus NoSuchOperation(const std::string& stage, int64_t id);
StateStatus OperationFinished(int64_t id, const std::string& address, const std::string& status);
//! Whether `outputs` are what `existing` holds (values compared, not sealed text: sealing
//! uses a fresh nonce each time).
bool SameOutputs(const std::vector<StoredOutput>& existing, const std::vector<OutputState>& outputs,
                 const crypto::KeyRing& keys, const std::string& stage);

// --- Rows, stages and snapshots ---

//! EncodeResource, with created_at kept from `prior` (or now) and updated_at now.
StoredResource EncodeResourceRow(const ResourceInstanceState& r, const std::optional<StoredResource>& prior,
                                 const crypto::KeyRing& keys, StateEnvironment& env);
//! state mv across types: each row decoded (its secrets opened with `keys`), given to
//! `convert` at its new address, and sealed again; a refusal or a missing key is
//! InvalidArgument / the sealer's error, and nothing moves.
ConvertRow SealedConversion(const ConvertMoved& convert, const crypto::KeyRing& keys, StateEnvironment& env,
                            const std::string& stage);
//! A stage's state from its rows (deposed objects apart).
StateResult<StageState> DecodeStage(const std::string& stage, const std::string& lineage, int64_t serial,
                                    const std::vector<StoredResource>& rows, const std::vector<StoredOutput>& outputs,
                                    const crypto::KeyRing& keys, bool decrypt);

struct StoredSnapshot {
  std::vector<StoredResource> resources;
  std::vector<StoredOutput> outputs;
};
//! The history's snapshot text (secrets stay sealed).
std::string SnapshotText(const std::vector<StoredResource>& resources, const std::vector<StoredOutput>& outputs);
//! Throws nlohmann::json::exception on a malformed snapshot (callers map it to Corrupt).
StoredSnapshot ParseSnapshot(const std::string& text);

// --- Whole-stage edits ---

//! `state push` of `state` onto a stage at `lineage` (nullopt: never written) and `serial`:
//! LineageMismatch or SerialConflict unless forced.
StateStatus CheckPush(const StageState& state, const std::optional<std::string>& lineage, int64_t serial, bool force);
StateStatus NoSnapshot(const std::string& stage, int64_t serial);
//! A rollback to `serial` (whose snapshot is of `lineage`) of a stage now at
//! `current_serial` of `current_lineage`.
StateStatus CheckRollback(const std::string& stage, int64_t serial, const std::string& lineage,
                          int64_t current_serial, const std::string& current_lineage);
//! LoadOutputs of a stage never applied (in `environment`).
StateStatus NotAppliedYet(const std::string& stage, const std::string& environment);

// --- Secrets and environments ---

//! Counts one sealed value under `primary` (a key id; empty: none).
void CountSealed(const std::string& sealed, const std::string& primary, StateStore::SecretCounts& counts);
//! DeleteEnvironment's refusals that need no database: `default`, the store's own.
StateStatus CheckEnvironmentDeletable(const std::string& name, const std::string& own);
//! DeleteEnvironment of one whose stages hold `total` instances ("stage eks: 2, ...").
StateStatus EnvironmentStillHolds(const std::string& name, int64_t total, const std::string& per_stage);

}  // namespace strata::state
