#include "state/state_edits.h"

#include <map>

#include <nlohmann/json.hpp>

#include "state/state.h"

namespace strata::state {
namespace {

bool EditStartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// How an address argument selects instances.
struct EditSelector {
  std::string text;
  enum { Instance, Resource, Module } kind = Instance;

  bool Matches(const std::string& address) const {
    switch (kind) {
      case Instance: return address == text;
      case Resource: return address == text || EditStartsWith(address, text + "[");
      case Module: return EditStartsWith(address, text + ".") || EditStartsWith(address, text + "[");
    }
    return false;
  }
  // The suffix of `address` after the selected prefix (the key, or the rest of the path).
  std::string Suffix(const std::string& address) const { return address.substr(text.size()); }
};

StateResult<EditSelector> ParseEditSelector(const std::string& text, bool exists_exactly) {
  AddrParseResult parsed = ParseResourceInstanceAddr(text);
  if (parsed.addr) {
    std::string canonical = parsed.addr->ToString();
    if (exists_exactly || parsed.has_key) return EditSelector{canonical, EditSelector::Instance};
    return EditSelector{canonical, EditSelector::Resource};
  }
  if (ParseModulePath(text)) return EditSelector{text, EditSelector::Module};
  return StateStatus::Error(StateCode::InvalidArgument, "\"" + text + "\" is not a resource address: " + parsed.error);
}

// Whether an instance has exactly the address `text` (then a key-less resource address
// selects that instance only).
bool EditExistsExactly(const std::vector<StoredResource>& rows, const std::string& text) {
  auto a = ParseResourceInstanceAddr(text).addr;
  if (!a) return false;
  for (const auto& r : rows) {
    if (r.address == a->ToString()) return true;
  }
  return false;
}

std::string EditNotInStage(const std::string& text, const std::string& stage) {
  return text + " is not in the state of stage \"" + stage + "\" (see `strata state list " + stage + "`)";
}

}  // namespace

StateResult<std::set<std::string>> SelectRemovals(const std::vector<StoredResource>& rows,
                                                  const std::vector<std::string>& addresses, const std::string& stage) {
  std::set<std::string> doomed;
  for (const auto& text : addresses) {
    auto selector = ParseEditSelector(text, EditExistsExactly(rows, text));
    if (!selector.ok()) return selector.status();
    size_t before = doomed.size();
    bool any = false;
    for (const auto& r : rows) {
      if (selector->Matches(r.address)) {
        doomed.insert(r.address);
        any = true;
      }
    }
    if (!any && doomed.size() == before) return StateStatus::Error(StateCode::NotFound, EditNotInStage(text, stage));
  }
  return doomed;
}

StateResult<MovePlan> PlanMove(std::vector<StoredResource> rows, const std::string& source,
                               const std::string& destination, const std::string& stage, int64_t now_millis,
                               const ConvertRow& convert) {
  auto from = ParseEditSelector(source, EditExistsExactly(rows, source));
  if (!from.ok()) return from.status();
  auto to = ParseEditSelector(destination, from->kind == EditSelector::Instance);
  if (!to.ok()) return to.status();
  if (to->kind != from->kind && !(from->kind == EditSelector::Resource && to->kind == EditSelector::Instance &&
                                  !ParseResourceInstanceAddr(destination).has_key)) {
    return StateStatus::Error(StateCode::InvalidArgument, "cannot move " + source + " to " + destination +
                                                              ": both must be instances, resources or modules alike");
  }
  // Instance and resource moves keep the resource type unless the target type's provider
  // converts the state (Terraform's MoveResourceState).
  auto src_addr = ParseResourceInstanceAddr(source).addr;
  auto dst_addr = ParseResourceInstanceAddr(destination).addr;
  bool across_types = src_addr && dst_addr && from->kind != EditSelector::Module &&
                      src_addr->resource.type != dst_addr->resource.type;
  if (src_addr && dst_addr && from->kind != EditSelector::Module &&
      (src_addr->resource.mode != dst_addr->resource.mode || (across_types && !convert) ||
       (across_types && src_addr->resource.mode != ResourceMode::Managed))) {
    return StateStatus::Error(StateCode::InvalidArgument, "cannot move " + source + " to " + destination +
                                                              ": the resource types differ");
  }
  std::map<std::string, std::string> renames;
  std::set<std::string> existing;
  for (const auto& r : rows) {
    existing.insert(r.address);
    if (from->Matches(r.address)) renames[r.address] = to->text + from->Suffix(r.address);
  }
  if (renames.empty()) return StateStatus::Error(StateCode::NotFound, EditNotInStage(source, stage));
  for (const auto& [old_address, new_address] : renames) {
    if (existing.count(new_address) && !renames.count(new_address)) {
      return StateStatus::Error(StateCode::InvalidArgument, "cannot move " + old_address + " to " + new_address +
                                                                ": that address is already in the state");
    }
  }
  MovePlan plan;
  for (auto& r : rows) {
    bool changed = false;
    auto deps = nlohmann::json::parse(r.dependencies);
    for (auto& d : deps) {
      if (!d.is_string()) continue;
      std::string dep = d.get<std::string>();
      if (auto it = renames.find(dep); it != renames.end()) {
        d = it->second;
        changed = true;
      } else if (from->kind != EditSelector::Instance && (dep == from->text || from->Matches(dep))) {
        d = to->text + from->Suffix(dep);
        changed = true;
      }
    }
    auto rename = renames.find(r.address);
    if (!changed && rename == renames.end()) continue;
    plan.deleted.insert(r.address);
    r.dependencies = deps.dump();
    if (rename != renames.end() && across_types) {
      StateResult<StoredResource> converted = convert(r, rename->second);
      if (!converted.ok()) return converted.status();
      r = *converted;
    }
    if (rename != renames.end()) r.address = rename->second;
    r.updated_at = now_millis;
  }
  plan.rows = std::move(rows);
  return plan;
}

}  // namespace strata::state
