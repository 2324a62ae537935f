// SqliteStateStore: whole-stage edits (state rm / mv / push / rollback). Each is one write
// transaction that ends in a new serial.

#include <set>

#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"

#include <tuple>

namespace strata::state {

using sqlite::Statement;
using sqlite::Transaction;

namespace {

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// How an address argument selects instances: exactly, all instances of a resource, or
// everything in a module.
struct Selector {
  std::string text;
  enum { Instance, Resource, Module } kind = Instance;

  bool Matches(const std::string& address) const {
    switch (kind) {
      case Instance: return address == text;
      case Resource: return address == text || StartsWith(address, text + "[");
      case Module: return StartsWith(address, text + ".") || StartsWith(address, text + "[");
    }
    return false;
  }
  // The suffix of `address` after the selected prefix (the key, or the rest of the path).
  std::string Suffix(const std::string& address) const { return address.substr(text.size()); }
};

StateResult<Selector> ParseSelector(const std::string& text, bool exists_exactly) {
  AddrParseResult parsed = ParseResourceInstanceAddr(text);
  if (parsed.addr) {
    std::string canonical = parsed.addr->ToString();
    if (exists_exactly || parsed.has_key) return Selector{canonical, Selector::Instance};
    return Selector{canonical, Selector::Resource};
  }
  if (ParseModulePath(text)) return Selector{text, Selector::Module};
  return StateStatus::Error(StateCode::InvalidArgument, "\"" + text + "\" is not a resource address: " + parsed.error);
}

std::string NotInStage(const std::string& text, const std::string& stage) {
  return text + " is not in the state of stage \"" + stage + "\" (see `strata state list " + stage + "`)";
}

}  // namespace

StateResult<int64_t> SqliteStateStore::RemoveResources(const std::string& lock_id, const std::string& stage,
                                                       const std::vector<std::string>& addresses) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    auto rows = ReadResources(stage);
    std::set<std::string> doomed;
    for (const auto& text : addresses) {
      bool exact = false;
      if (auto a = ParseResourceInstanceAddr(text).addr) {
        for (const auto& r : rows) exact = exact || r.address == a->ToString();
      }
      auto selector = ParseSelector(text, exact);
      if (!selector.ok()) return selector.status();
      size_t before = doomed.size();
      bool any = false;
      for (const auto& r : rows) {
        if (selector->Matches(r.address)) {
          doomed.insert(r.address);
          any = true;
        }
      }
      if (!any && doomed.size() == before) return StateStatus::Error(StateCode::NotFound, NotInStage(text, stage));
    }
    for (const auto& address : doomed) {
      db_->Prepare("DELETE FROM resources WHERE stage = ? AND address = ?").Bind(1, Key(stage)).Bind(2, address).Run();
    }
    int64_t serial = CommitSerial(stage, "state rm");
    tx.Commit();
    return serial;
  });
}

StateResult<int64_t> SqliteStateStore::MoveResource(const std::string& lock_id, const std::string& stage,
                                                    const std::string& source, const std::string& destination) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    auto rows = ReadResources(stage);
    bool exact = false;
    if (auto a = ParseResourceInstanceAddr(source).addr) {
      for (const auto& r : rows) exact = exact || r.address == a->ToString();
    }
    auto from = ParseSelector(source, exact);
    if (!from.ok()) return from.status();
    auto to = ParseSelector(destination, from->kind == Selector::Instance);
    if (!to.ok()) return to.status();
    if (to->kind != from->kind && !(from->kind == Selector::Resource && to->kind == Selector::Instance &&
                                    !ParseResourceInstanceAddr(destination).has_key)) {
      return StateStatus::Error(StateCode::InvalidArgument,
                                "cannot move " + source + " to " + destination +
                                    ": both must be instances, resources or modules alike");
    }
    // Instance and resource moves keep the resource type, as Terraform requires.
    auto src_addr = ParseResourceInstanceAddr(source).addr;
    auto dst_addr = ParseResourceInstanceAddr(destination).addr;
    if (src_addr && dst_addr && from->kind != Selector::Module &&
        (src_addr->resource.type != dst_addr->resource.type || src_addr->resource.mode != dst_addr->resource.mode)) {
      return StateStatus::Error(StateCode::InvalidArgument, "cannot move " + source + " to " + destination +
                                                                ": the resource types differ");
    }
    std::map<std::string, std::string> renames;
    std::set<std::string> existing;
    for (const auto& r : rows) {
      existing.insert(r.address);
      if (from->Matches(r.address)) renames[r.address] = to->text + from->Suffix(r.address);
    }
    if (renames.empty()) return StateStatus::Error(StateCode::NotFound, NotInStage(source, stage));
    for (const auto& [old_address, new_address] : renames) {
      if (existing.count(new_address) && !renames.count(new_address)) {
        return StateStatus::Error(StateCode::InvalidArgument, "cannot move " + old_address + " to " + new_address +
                                                                  ": that address is already in the state");
      }
    }
    for (auto& r : rows) {
      bool changed = false;
      auto deps = nlohmann::json::parse(r.dependencies);
      for (auto& d : deps) {
        if (!d.is_string()) continue;
        std::string dep = d.get<std::string>();
        if (auto it = renames.find(dep); it != renames.end()) {
          d = it->second;
          changed = true;
        } else if (from->kind != Selector::Instance && (dep == from->text || from->Matches(dep))) {
          d = to->text + from->Suffix(dep);
          changed = true;
        }
      }
      auto rename = renames.find(r.address);
      if (!changed && rename == renames.end()) continue;
      db_->Prepare("DELETE FROM resources WHERE stage = ? AND address = ?").Bind(1, Key(stage)).Bind(2, r.address).Run();
      r.dependencies = deps.dump();
      if (rename != renames.end()) r.address = rename->second;
      r.updated_at = env_->NowMillis();
    }
    for (const auto& r : rows) {
      if (!ReadResource(stage, r.address, r.deposed)) WriteResource(stage, r);
    }
    int64_t serial = CommitSerial(stage, "state mv " + source + " " + destination);
    tx.Commit();
    return serial;
  });
}

StateResult<int64_t> SqliteStateStore::ReplaceStage(const std::string& lock_id, const StageState& state,
                                                    const ReplaceOptions& options) {
  return Guard([&]() -> StateResult<int64_t> {
    const std::string& stage = state.stage;
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    std::optional<std::string> lineage;
    int64_t serial = 0;
    if (auto header = ReadLineageAndSerial(stage)) {
      lineage = header->first;
      serial = header->second;
    }
    if (lineage && !options.force) {
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
    }
    std::string new_lineage = state.lineage.empty() ? lineage.value_or("") : state.lineage;
    EnsureStage(stage, new_lineage);
    if (!new_lineage.empty()) {
      db_->Prepare("UPDATE stages SET lineage = ? WHERE name = ?").Bind(1, new_lineage).Bind(2, Key(stage)).Run();
    }
    // A pushed state with a higher serial keeps it: the new serial is max(current + 1, pushed).
    if (state.serial - 1 > serial) {
      db_->Prepare("UPDATE stages SET serial = ? WHERE name = ?").Bind(1, state.serial - 1).Bind(2, Key(stage)).Run();
    }
    db_->Prepare("DELETE FROM resources WHERE stage = ?").Bind(1, Key(stage)).Run();
    for (const auto& r : state.resources) WriteResource(stage, Encode(r, std::nullopt));
    for (const auto& r : state.deposed) WriteResource(stage, Encode(r, std::nullopt));
    std::vector<StoredOutput> outputs;
    for (const auto& o : state.outputs) outputs.push_back(EncodeOutput(o, options_.keys, *env_));
    WriteOutputs(stage, outputs);
    int64_t new_serial = CommitSerial(stage, options.operation);
    tx.Commit();
    return new_serial;
  });
}

StateResult<int64_t> SqliteStateStore::Rollback(const std::string& lock_id, const std::string& stage, int64_t serial) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    std::string current_lineage;
    int64_t current_serial = 0;
    if (auto header = ReadLineageAndSerial(stage)) std::tie(current_lineage, current_serial) = *header;
    Statement& st = db_->Prepare("SELECT lineage, snapshot FROM history WHERE stage = ? AND serial = ?");
    st.Bind(1, Key(stage)).Bind(2, serial);
    if (!st.Step()) {
      st.Reset();
      return StateStatus::Error(StateCode::NotFound, "stage \"" + stage + "\" has no snapshot of serial " +
                                                         std::to_string(serial) + " (see `strata state history " +
                                                         stage + "`)");
    }
    std::string lineage = st.Text(0);
    auto snapshot = nlohmann::json::parse(st.Text(1));
    st.Reset();
    if (serial == current_serial) {
      return StateStatus::Error(StateCode::InvalidArgument,
                                "serial " + std::to_string(serial) + " is already the current state of stage \"" +
                                    stage + "\"");
    }
    if (lineage != current_lineage) {
      return StateStatus::Error(StateCode::LineageMismatch,
                                "the snapshot of serial " + std::to_string(serial) + " belongs to lineage " + lineage +
                                    ", but stage \"" + stage + "\" now has lineage " + current_lineage +
                                    " (its state was replaced by a forced push)");
    }
    // Stored rows are copied as they are: sealed secrets stay sealed, no key needed.
    db_->Prepare("DELETE FROM resources WHERE stage = ?").Bind(1, Key(stage)).Run();
    for (const auto& r : snapshot.at("resources")) WriteResource(stage, StoredResourceFromJson(r));
    std::vector<StoredOutput> outputs;
    for (const auto& o : snapshot.at("outputs")) outputs.push_back(StoredOutputFromJson(o));
    WriteOutputs(stage, outputs);
    int64_t new_serial = CommitSerial(stage, "rollback to " + std::to_string(serial));
    tx.Commit();
    return new_serial;
  });
}

}  // namespace strata::state
