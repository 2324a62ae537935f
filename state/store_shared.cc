#include "state/store_shared.h"

#include "state/crypto/sealer.h"

namespace strata::state {
namespace {

std::string LockAgo(int64_t millis) {
  int64_t s = millis / 1000;
  if (s < 120) return std::to_string(s) + " s ago";
  if (s < 7200) return std::to_string(s / 60) + " min ago";
  if (s < 172800) return std::to_string(s / 3600) + " h ago";
  return std::to_string(s / 86400) + " days ago";
}

}  // namespace

// --- Locks ---

std::string StageLabel(const std::string& environment, const std::string& stage) {
  return "stage \"" + stage + "\" in environment \"" + environment + "\"";
}

std::string LockDescription(const LockInfo& lock, int64_t now_millis) {
  return lock.Holder() + " (pid " + std::to_string(lock.pid) + ") for \"" + lock.operation + "\" since " +
         FormatTimestamp(lock.since) + " (" + LockAgo(now_millis - lock.since) + "), lock ID " + lock.id;
}

std::string LockHeldMessage(const LockInfo& lock, int64_t now_millis) {
  return StageLabel(lock.environment, lock.stage) + " is locked by " + LockDescription(lock, now_millis) +
         ". Wait for it to finish (-lock-timeout=DURATION waits), or, if you are sure no strata process is "
         "working on this stage, run `strata force-unlock " + lock.id + "`.";
}

StateStatus NoSuchLock(const std::string& lock_id, const std::vector<LockInfo>& held) {
  std::string listing;
  for (const LockInfo& l : held) {
    listing += "\n  " + l.id + "  " + StageLabel(l.environment, l.stage) + ", " + l.Holder() + ", \"" + l.operation +
               "\" since " + FormatTimestamp(l.since);
  }
  return StateStatus::Error(StateCode::NotFound, "no lock has the ID " + lock_id +
                                                     (listing.empty() ? ": no stage is locked"
                                                                      : ". The locks held now are:" + listing));
}

StateStatus LockNotHeld(const std::string& environment, const std::string& stage, const std::string& lock_id,
                        const std::optional<LockInfo>& holder) {
  std::string msg = "refusing to write " + StageLabel(environment, stage) + ": this process does not hold its lock" +
                    (lock_id.empty() ? "" : " (its lock " + lock_id + " was force-unlocked");
  if (holder) {
    msg += lock_id.empty() ? "; " : " and ";
    msg += "the stage is now locked by " + holder->Holder() + " for \"" + holder->operation + "\"";
  }
  if (!lock_id.empty()) msg += ")";
  return StateStatus::Error(StateCode::LockNotHeld, msg);
}

// --- Change sets and operations ---

StateStatus ChangeSetNotOpen(int64_t id, const std::string& status) {
  return StateStatus::Error(StateCode::InvalidArgument,
                            "change set " + std::to_string(id) + " is " + (status.empty() ? "unknown" : status) +
                                ", not open: begin a new one");
}

ResourceStatus PendingStatusOf(OperationAction action) {
  return action == OperationAction::Create   ? ResourceStatus::PendingCreate
         : action == OperationAction::Update ? ResourceStatus::PendingUpdate
                                             : ResourceStatus::PendingDelete;
}

StateStatus NothingToOperateOn(const OperationRequest& request, const std::string& stage) {
  std::string address = request.addr.ToString();
  std::string object = request.deposed.empty() ? address : address + " (deposed object " + request.deposed + ")";
  return StateStatus::Error(StateCode::NotFound, "cannot " + std::string(ToString(request.action)) + " " + object +
                                                     ": it is not in the state of stage \"" + stage + "\"");
}

StateStatus OperationOnAnotherObject(int64_t id, const std::string& address, const std::string& given) {
  return StateStatus::Error(StateCode::InvalidArgument,
                            "operation " + std::to_string(id) + " is on " + address + ", not on " + given);
}

StateStatus NoSuchOperation(const std::string& stage, int64_t id) {
  return StateStatus::Error(StateCode::NotFound,
                            "stage \"" + stage + "\" has no operation " + std::to_string(id) + " in its journal");
}

StateStatus OperationFinished(int64_t id, const std::string& address, const std::string& status) {
  return StateStatus::Error(StateCode::InvalidArgument,
                            "operation " + std::to_string(id) + " on " + address + " is already " + status);
}

bool SameOutputs(const std::vector<StoredOutput>& existing, const std::vector<OutputState>& outputs,
                 const crypto::KeyRing& keys, const std::string& stage) {
  bool same = existing.size() == outputs.size();
  for (size_t i = 0; same && i < existing.size(); ++i) {
    auto old = DecodeOutput(existing[i], keys, true, stage);
    const OutputState* now = nullptr;
    for (const auto& o : outputs) {
      if (o.name == existing[i].name) now = &o;
    }
    same = old.ok() && now && now->sensitive == old->sensitive && now->value.Equals(old->value) &&
           now->value.IsNull() == old->value.IsNull();
  }
  return same;
}

// --- Rows, stages and snapshots ---

StoredResource EncodeResourceRow(const ResourceInstanceState& r, const std::optional<StoredResource>& prior,
                                 const crypto::KeyRing& keys, StateEnvironment& env) {
  StoredResource row = EncodeResource(r, keys, env);
  int64_t now = env.NowMillis();
  if (row.created_at == 0) row.created_at = prior ? prior->created_at : now;
  row.updated_at = now;
  return row;
}

ConvertRow SealedConversion(const ConvertMoved& convert, const crypto::KeyRing& keys, StateEnvironment& env,
                            const std::string& stage) {
  if (!convert) return nullptr;
  return [&convert, &keys, &env, stage](const StoredResource& row,
                                        const std::string& new_address) -> StateResult<StoredResource> {
    if (!row.deposed.empty()) {
      return StateStatus::Error(StateCode::InvalidArgument,
                                "cannot move " + row.address + " to " + new_address +
                                    " across resource types: it has a deposed object. Run strata apply first.");
    }
    StateResult<ResourceInstanceState> decoded = DecodeResource(row, keys, /*decrypt=*/true, stage);
    if (!decoded.ok()) return decoded.status();
    AddrParseResult to = ParseResourceInstanceAddr(new_address);
    if (!to.addr) return StateStatus::Error(StateCode::InvalidArgument, "\"" + new_address + "\": " + to.error);
    StateResult<ResourceInstanceState> converted = convert(*decoded, *to.addr);
    if (!converted.ok()) return converted.status();
    converted->addr = *to.addr;
    StoredResource out = EncodeResource(*converted, keys, env);
    out.created_at = row.created_at;
    return out;
  };
}

StateResult<StageState> DecodeStage(const std::string& stage, const std::string& lineage, int64_t serial,
                                    const std::vector<StoredResource>& rows, const std::vector<StoredOutput>& outputs,
                                    const crypto::KeyRing& keys, bool decrypt) {
  StageState state;
  state.stage = stage;
  state.exists = true;
  state.lineage = lineage;
  state.serial = serial;
  state.resources.reserve(rows.size());
  for (const auto& row : rows) {
    auto r = DecodeResource(row, keys, decrypt, stage);
    if (!r.ok()) return r.status();
    (r->deposed.empty() ? state.resources : state.deposed).push_back(std::move(*r));
  }
  for (const auto& row : outputs) {
    auto o = DecodeOutput(row, keys, decrypt, stage);
    if (!o.ok()) return o.status();
    state.outputs.push_back(std::move(*o));
  }
  return state;
}

std::string SnapshotText(const std::vector<StoredResource>& resources, const std::vector<StoredOutput>& outputs) {
  nlohmann::json snapshot{{"resources", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
  for (const auto& r : resources) snapshot["resources"].push_back(ToJson(r));
  for (const auto& o : outputs) snapshot["outputs"].push_back(ToJson(o));
  return snapshot.dump();
}

StoredSnapshot ParseSnapshot(const std::string& text) {
  auto snapshot = nlohmann::json::parse(text);
  StoredSnapshot out;
  for (const auto& r : snapshot.at("resources")) out.resources.push_back(StoredResourceFromJson(r));
  for (const auto& o : snapshot.at("outputs")) out.outputs.push_back(StoredOutputFromJson(o));
  return out;
}

// --- Whole-stage edits ---

StateStatus CheckPush(const StageState& state, const std::optional<std::string>& lineage, int64_t serial, bool force) {
  if (!lineage || force) return StateStatus::Ok();
  const std::string& stage = state.stage;
  if (!state.lineage.empty() && state.lineage != *lineage) {
    return StateStatus::Error(StateCode::LineageMismatch,
                              "the state to push has lineage " + state.lineage + ", but stage \"" + stage +
                                  "\" has lineage " + *lineage +
                                  ": it is a different state, not a version of this one. Use -force to replace "
                                  "the stage's state anyway");
  }
  if (state.serial < serial) {
    return StateStatus::Error(StateCode::SerialConflict,
                              "the state to push has serial " + std::to_string(state.serial) + ", but stage \"" +
                                  stage + "\" is at serial " + std::to_string(serial) +
                                  ": it changed since that state was pulled. Pull again and redo the edit, or "
                                  "use -force to overwrite the newer state");
  }
  return StateStatus::Ok();
}

StateStatus NoSnapshot(const std::string& stage, int64_t serial) {
  return StateStatus::Error(StateCode::NotFound, "stage \"" + stage + "\" has no snapshot of serial " +
                                                     std::to_string(serial) + " (see `strata state history " + stage +
                                                     "`)");
}

StateStatus CheckRollback(const std::string& stage, int64_t serial, const std::string& lineage,
                          int64_t current_serial, const std::string& current_lineage) {
  if (serial == current_serial) {
    return StateStatus::Error(StateCode::InvalidArgument, "serial " + std::to_string(serial) +
                                                              " is already the current state of stage \"" + stage +
                                                              "\"");
  }
  if (lineage != current_lineage) {
    return StateStatus::Error(StateCode::LineageMismatch,
                              "the snapshot of serial " + std::to_string(serial) + " belongs to lineage " + lineage +
                                  ", but stage \"" + stage + "\" now has lineage " + current_lineage +
                                  " (its state was replaced by a forced push)");
  }
  return StateStatus::Ok();
}

StateStatus NotAppliedYet(const std::string& stage, const std::string& environment) {
  bool other = environment != kDefaultEnvironment;
  return StateStatus::Error(StateCode::NotFound,
                            "stage \"" + stage + "\"" +
                                (other ? " has not been applied in environment \"" + environment + "\" yet"
                                       : " has not been applied yet") +
                                ", so its outputs are unknown: run `strata apply " +
                                (other ? "-env " + environment + " " : "") + stage + "` first");
}

// --- Secrets and environments ---

void CountSealed(const std::string& sealed, const std::string& primary, StateStore::SecretCounts& counts) {
  if (crypto::IsSealedInClear(sealed)) {
    ++counts.in_clear;
  } else if (!primary.empty() && crypto::SealedKeyId(sealed) == primary) {
    ++counts.current_key;
  } else {
    ++counts.other_key;
  }
}

StateStatus CheckEnvironmentDeletable(const std::string& name, const std::string& own) {
  if (name == kDefaultEnvironment) {
    return StateStatus::Error(StateCode::InvalidArgument,
                              "the environment \"default\" always exists and cannot be deleted");
  }
  if (name == own) {
    return StateStatus::Error(StateCode::InvalidArgument, "the environment \"" + name +
                                                              "\" is the one in use: select another first (`strata "
                                                              "env select default`)");
  }
  return StateStatus::Ok();
}

StateStatus EnvironmentStillHolds(const std::string& name, int64_t total, const std::string& per_stage) {
  return StateStatus::Error(StateCode::InvalidArgument,
                            "the environment \"" + name + "\" still holds " + std::to_string(total) +
                                " resource instance" + (total == 1 ? "" : "s") + " (" + per_stage +
                                "): destroy them first (`strata destroy -env " + name +
                                " STAGE`), or pass -force to forget them (the objects stay in the world)");
}

}  // namespace strata::state
