#include "state/recovery_push.h"

#include <set>

#include "state/store_shared.h"

namespace strata::state {

std::string RecoveryOperationName(const RecoveryFile& file) { return "state recover " + file.id; }

namespace {

// Where the stage is now: lineage and serial (nullopt: never written).
StateResult<std::optional<StageSummary>> RecoveryStageNow(StateStore& store, const std::string& stage) {
  auto stages = store.ListStages();
  if (!stages.ok()) return stages.status();
  for (const StageSummary& s : *stages) {
    if (s.name == stage) return std::optional<StageSummary>(s);
  }
  return std::optional<StageSummary>();
}

StateResult<std::optional<ResourceInstanceState>> RecoveryDecode(const RecoveryFile& file, const RecoveryWrite& w,
                                                                 const crypto::KeyRing& keys) {
  if (!w.resource) return std::optional<ResourceInstanceState>();
  auto r = DecodeResource(*w.resource, keys, !file.secrets_masked, file.stage);
  if (!r.ok()) return r.status();
  return std::optional<ResourceInstanceState>(std::move(*r));
}

}  // namespace

StateResult<RecoveryPushResult> PushRecovery(StateStore& store, const std::string& lock_id, const RecoveryFile& file,
                                             const RecoveryPushOptions& options) {
  RecoveryPushResult result;
  std::string label = StageLabel(file.environment, file.stage);
  auto history = store.History(file.stage);
  if (!history.ok()) return history.status();
  for (const HistoryEntry& h : *history) {
    if (h.operation == RecoveryOperationName(file)) {
      result.already_pushed = true;
      result.serial = h.serial;
      return result;
    }
  }
  auto now = RecoveryStageNow(store, file.stage);
  if (!now.ok()) return now.status();
  if (*now && !file.lineage.empty() && (*now)->lineage != file.lineage) {
    return StateStatus::Error(StateCode::LineageMismatch,
                              label + " is lineage " + (*now)->lineage + ", but the recovery file is of lineage " +
                                  file.lineage + ": it belongs to another state (was the stage removed and applied "
                                                 "anew?). Nothing was written.");
  }
  int64_t serial_now = *now ? (*now)->serial : 0;
  if (serial_now != file.base_serial && !options.force) {
    std::string by;
    if (!history->empty() && history->front().serial == serial_now) {
      by = " (serial " + std::to_string(serial_now) + ": \"" + history->front().operation + "\" by " +
           history->front().holder + " at " + FormatTimestamp(history->front().created_at) + ")";
    }
    return StateStatus::Error(
        StateCode::SerialConflict,
        label + " is at serial " + std::to_string(serial_now) + ", but the apply whose results the file holds began "
            "at serial " + std::to_string(file.base_serial) + ": the stage was changed since" + by +
            ", so its results may conflict with what is there now. Nothing was written. Look at the file and "
            "`strata state show`, then run `strata state recover " + file.stage +
            " -force` to write the results of the operations that are still pending (the others are skipped).");
  }

  auto cs = store.BeginChangeSet(lock_id, file.stage, RecoveryOperationName(file));
  if (!cs.ok()) return cs.status();
  std::set<int64_t> pending;
  for (const OperationRecord& op : cs->pending) pending.insert(op.id);
  for (const RecoveryWrite& w : file.writes) {
    StateStatus s = StateStatus::Ok();
    if (w.kind == RecoveryWrite::Kind::Complete || w.kind == RecoveryWrite::Kind::Fail) {
      if (!pending.count(w.operation_id)) {
        result.skipped.push_back(w.address + " (operation " + std::to_string(w.operation_id) +
                                 ": not pending any more, its result is recorded already)");
        continue;
      }
      auto state = RecoveryDecode(file, w, options.keys);
      if (!state.ok()) return state.status();
      s = w.kind == RecoveryWrite::Kind::Complete ? store.CompleteOperation(*cs, w.operation_id, *state)
                                                  : store.FailOperation(*cs, w.operation_id, w.error, *state);
      pending.erase(w.operation_id);
    } else if (w.kind == RecoveryWrite::Kind::Put) {
      auto state = RecoveryDecode(file, w, options.keys);
      if (!state.ok()) return state.status();
      if (*state) s = store.PutResource(*cs, **state);
    } else {
      auto addr = ParseResourceInstanceAddr(w.address).addr;
      if (!addr) return StateStatus::Error(StateCode::InvalidArgument, "the recovery file names a bad address " + w.address);
      s = w.kind == RecoveryWrite::Kind::Delete ? store.DeleteResource(*cs, *addr) : store.RestoreDeposed(*cs, *addr, w.key);
      if (s.code() == StateCode::NotFound || s.code() == StateCode::InvalidArgument) {
        result.skipped.push_back(w.address + " (" + s.message() + ")");
        continue;
      }
    }
    if (!s.ok()) return s;
    ++result.written;
  }
  std::optional<std::vector<OutputState>> outputs;
  if (file.outputs) {
    outputs.emplace();
    bool masked_sensitive = false;
    for (const StoredOutput& row : *file.outputs) {
      masked_sensitive = masked_sensitive || (file.secrets_masked && row.secrets != "[]");
      auto o = DecodeOutput(row, options.keys, !file.secrets_masked, file.stage);
      if (!o.ok()) return o.status();
      outputs->push_back(std::move(*o));
    }
    if (masked_sensitive) {
      // Their values were masked: the outputs the stage holds stay until the next apply.
      outputs.reset();
      result.warnings.push_back("the file's outputs hold masked secrets (no state key was configured), so the "
                                "stage keeps the outputs it had: the next apply writes them");
    }
  }
  if (file.secrets_masked) {
    result.warnings.push_back("secrets in the file were masked (no state key was configured): sensitive attributes "
                              "of the instances it wrote are null until the next refresh or apply reads them");
  }
  auto committed = store.CommitChangeSet(*cs, outputs);
  if (!committed.ok()) return committed.status();
  result.serial = committed->serial;
  return result;
}

}  // namespace strata::state
