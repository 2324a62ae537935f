#include "state/recovering_store.h"

#include <filesystem>

#include "state/store_shared.h"

namespace strata::state {

namespace {

bool IsLost(const StateStatus& s) { return s.code() == StateCode::Unreachable; }

// No key: the file must not hold the values in clear, so each sealed slot becomes null.
std::string MaskedSecrets(const std::string& secrets) {
  nlohmann::json list = nlohmann::json::parse(secrets, nullptr, false);
  if (!list.is_array()) return "[]";
  for (auto& s : list) s = nullptr;
  return list.dump();
}

}  // namespace

std::string RecoveringStore::file() const { return path_; }

StateResult<ChangeSet> RecoveringStore::BeginChangeSet(const std::string& lock_id, const std::string& stage,
                                                       const std::string& operation) {
  auto cs = inner_.BeginChangeSet(lock_id, stage, operation);
  if (!cs.ok()) return cs;
  std::lock_guard lock(mu_);
  if (auto stages = inner_.ListStages(); stages.ok()) {
    for (const StageSummary& s : *stages) {
      if (s.name == stage) {
        lineage_ = s.lineage;
        base_serial_ = s.serial;
      }
    }
  }
  return cs;
}

void RecoveringStore::GoOffline(const ChangeSet& cs, const StateStatus& lost) {
  if (offline_) return;
  RecoveryFile f;
  StateEnvironment& env = StateEnvironment::System();
  f.id = NewUuid(env);
  f.environment = inner_.Environment();
  f.stage = cs.stage;
  f.lineage = lineage_;
  f.base_serial = base_serial_;
  f.change_set = cs.id;
  f.operation = cs.operation;
  f.created_at = env.NowMillis();
  f.reason = lost.message();
  f.secrets_masked = !options_.keys.primary.has_value();
  if (options_.keys.primary) f.key_id = options_.keys.primary->id;
  path_ = (std::filesystem::path(options_.dir) / RecoveryFileName(f)).string();
  offline_ = std::move(f);
  file_status_ = WriteRecoveryFile(path_, *offline_);
}

StateStatus RecoveringStore::Record(RecoveryWrite write) {
  offline_->writes.push_back(std::move(write));
  file_status_ = WriteRecoveryFile(path_, *offline_);
  if (file_status_.ok()) return StateStatus::Ok();
  return StateStatus::Error(StateCode::Io, "the state database is unreachable and this result could not be saved "
                                           "locally either: " + file_status_.message());
}

StateStatus RecoveringStore::NotStarted(const std::string& address) {
  offline_->not_started.push_back(address);
  file_status_ = WriteRecoveryFile(path_, *offline_);
  return StateStatus::Error(StateCode::Unreachable,
                            "not started: the state database is unreachable, so nothing new starts (the last error "
                            "says where the results of this apply were saved)");
}

std::optional<StoredResource> RecoveringStore::Encode(const std::optional<ResourceInstanceState>& r) {
  if (!r) return std::nullopt;
  StoredResource row = EncodeResourceRow(*r, std::nullopt, options_.keys, StateEnvironment::System());
  if (!options_.keys.primary) row.secrets = MaskedSecrets(row.secrets);
  return row;
}

StateResult<int64_t> RecoveringStore::BeginOperation(const ChangeSet& cs, const OperationRequest& request) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    auto id = inner_.BeginOperation(cs, request);
    if (id.ok()) addresses_[*id] = request.addr.ToString();
    if (!IsLost(id.status())) return id;
    GoOffline(cs, id.status());
  }
  return NotStarted(request.addr.ToString());
}

StateStatus RecoveringStore::CompleteOperation(const ChangeSet& cs, int64_t operation_id,
                                               const std::optional<ResourceInstanceState>& result) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    StateStatus s = inner_.CompleteOperation(cs, operation_id, result);
    if (!IsLost(s)) return s;
    GoOffline(cs, s);
  }
  return Record({RecoveryWrite::Kind::Complete, operation_id, AddressOf(operation_id, result), "", "", Encode(result)});
}

StateStatus RecoveringStore::FailOperation(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                                           const std::optional<ResourceInstanceState>& partial) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    StateStatus s = inner_.FailOperation(cs, operation_id, error, partial);
    if (!IsLost(s)) return s;
    GoOffline(cs, s);
  }
  return Record({RecoveryWrite::Kind::Fail, operation_id, AddressOf(operation_id, partial), "", error, Encode(partial)});
}

std::vector<StateResult<int64_t>> RecoveringStore::WriteJournal(const ChangeSet& cs,
                                                                const std::vector<JournalEntry>& entries) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    auto results = inner_.WriteJournal(cs, entries);
    bool lost = false;
    for (size_t i = 0; i < results.size(); ++i) {
      lost = lost || IsLost(results[i].status());
      if (results[i].ok() && entries[i].kind == JournalEntry::Kind::Begin) {
        addresses_[*results[i]] = entries[i].request.addr.ToString();
      }
    }
    if (!lost) return results;
    GoOffline(cs, results.front().status());
  }
  std::vector<StateResult<int64_t>> out;
  for (const JournalEntry& e : entries) {
    switch (e.kind) {
      case JournalEntry::Kind::Begin: out.emplace_back(NotStarted(e.request.addr.ToString())); break;
      case JournalEntry::Kind::Complete: {
        StateStatus s = Record({RecoveryWrite::Kind::Complete, e.operation_id, AddressOf(e.operation_id, e.state), "",
                                "", Encode(e.state)});
        out.emplace_back(s.ok() ? StateResult<int64_t>(int64_t{0}) : StateResult<int64_t>(s));
        break;
      }
      case JournalEntry::Kind::Fail: {
        StateStatus s = Record({RecoveryWrite::Kind::Fail, e.operation_id, AddressOf(e.operation_id, e.state), "",
                                e.error, Encode(e.state)});
        out.emplace_back(s.ok() ? StateResult<int64_t>(int64_t{0}) : StateResult<int64_t>(s));
        break;
      }
    }
  }
  return out;
}

StateStatus RecoveringStore::PutResource(const ChangeSet& cs, const ResourceInstanceState& resource) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    StateStatus s = inner_.PutResource(cs, resource);
    if (!IsLost(s)) return s;
    GoOffline(cs, s);
  }
  return Record({RecoveryWrite::Kind::Put, 0, resource.addr.ToString(), "", "", Encode(resource)});
}

StateStatus RecoveringStore::DeleteResource(const ChangeSet& cs, const ResourceInstanceAddr& addr) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    StateStatus s = inner_.DeleteResource(cs, addr);
    if (!IsLost(s)) return s;
    GoOffline(cs, s);
  }
  return Record({RecoveryWrite::Kind::Delete, 0, addr.ToString(), "", "", std::nullopt});
}

StateStatus RecoveringStore::DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                            const std::string& key) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    StateStatus s = inner_.DeposeResource(cs, addr, key);
    if (!IsLost(s)) return s;
    GoOffline(cs, s);
  }
  return NotStarted(addr.ToString());
}

StateStatus RecoveringStore::RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                            const std::string& key) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    StateStatus s = inner_.RestoreDeposed(cs, addr, key);
    if (!IsLost(s)) return s;
    GoOffline(cs, s);
  }
  return Record({RecoveryWrite::Kind::RestoreDeposed, 0, addr.ToString(), key, "", std::nullopt});
}

StateStatus RecoveringStore::RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& from,
                                            const ResourceInstanceAddr& to, const ResourceInstanceState* converted) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    StateStatus s = inner_.RenameResource(cs, from, to, converted);
    if (!IsLost(s)) return s;
    GoOffline(cs, s);
  }
  return NotStarted(from.ToString());
}

StateStatus RecoveringStore::RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& reads) {
  std::lock_guard lock(mu_);
  if (Offline()) return StateStatus::Ok();  // not state: the previous record stays (header)
  StateStatus s = inner_.RecordUpstreamReads(cs, reads);
  if (IsLost(s)) {
    GoOffline(cs, s);
    return StateStatus::Ok();
  }
  return s;
}

StateResult<CommitResult> RecoveringStore::CommitChangeSet(const ChangeSet& cs,
                                                           const std::optional<std::vector<OutputState>>& outputs) {
  std::lock_guard lock(mu_);
  if (!Offline()) {
    auto committed = inner_.CommitChangeSet(cs, outputs);
    if (!IsLost(committed.status())) return committed;
    GoOffline(cs, committed.status());
  }
  if (outputs) {
    offline_->outputs.emplace();
    for (const OutputState& o : *outputs) {
      StoredOutput row = EncodeOutput(o, options_.keys, StateEnvironment::System());
      if (!options_.keys.primary) row.secrets = MaskedSecrets(row.secrets);
      offline_->outputs->push_back(std::move(row));
    }
  }
  offline_->committed = true;
  file_status_ = WriteRecoveryFile(path_, *offline_);
  return StateStatus::Error(StateCode::Unreachable, SavedMessage());
}

std::string RecoveringStore::AddressOf(int64_t operation_id, const std::optional<ResourceInstanceState>& state) const {
  if (auto it = addresses_.find(operation_id); it != addresses_.end()) return it->second;
  return state ? state->addr.ToString() : "";
}

std::string RecoveringStore::SavedMessage() const {
  const RecoveryFile& f = *offline_;
  std::string label = StageLabel(f.environment, f.stage);
  if (!file_status_.ok()) {
    return offline_->reason + ". The results of this apply of " + label +
           " could not be saved locally either (" + file_status_.message() +
           "): what the operations below created may be missing from state; the next plan looks for interrupted "
           "creates by their tokens.";
  }
  std::string command = options_.command + " " + f.stage;
  if (f.environment != kDefaultEnvironment) command = "STRATA_ENV=" + f.environment + " " + command;
  std::string message = offline_->reason + ". Nothing new was started once it was gone; the results of the " +
                        std::to_string(f.writes.size()) + " write(s) it could not take (operations in flight, and " +
                        "the outputs) were saved in " + path_ + " (" +
                        (f.secrets_masked ? "secrets masked: no state key is configured"
                                          : "secrets sealed with the state key") +
                        "). When the database is back, run `" + command +
                        "` to write them to the state; until then, plan and apply of " + label + " are refused.";
  if (!f.not_started.empty()) {
    message += " Not started: " + std::to_string(f.not_started.size()) + " operation(s); the next apply does them.";
  }
  return message;
}

}  // namespace strata::state
