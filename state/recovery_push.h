#pragma once
// `strata state recover`: writes a recovery file (recovery_file.h) into the store, as one
// change set whose history entry is "state recover <file id>".
//
// Idempotent: an operation the store no longer holds as pending (its result written before
// the database went away, or by an earlier push that stopped half way) is skipped, and a
// file whose change set is in the history already is reported as pushed and writes
// nothing. Refused (SerialConflict, nothing written) when the stage moved past the serial
// the interrupted apply began from — someone applied or edited it since — unless `force`,
// and (LineageMismatch) when the stage is another lineage.

#include <string>
#include <vector>

#include "state/crypto/state_key.h"
#include "state/recovery_file.h"
#include "state/store.h"

namespace strata::state {

struct RecoveryPushOptions {
  bool force = false;
  crypto::KeyRing keys;  // opens the sealed secrets (the store seals them again)
};

struct RecoveryPushResult {
  bool already_pushed = false;
  int64_t serial = 0;
  int written = 0;                   // writes that went in
  std::vector<std::string> skipped;  // "terraform_data.a (operation 5: already completed)"
  std::vector<std::string> warnings;
};

//! The change set's operation name that marks `file` as pushed.
std::string RecoveryOperationName(const RecoveryFile& file);

//! Pushes `file` into `store` under `lock_id` (the stage's lock, held by the caller).
StateResult<RecoveryPushResult> PushRecovery(StateStore& store, const std::string& lock_id, const RecoveryFile& file,
                                             const RecoveryPushOptions& options);

}  // namespace strata::state
