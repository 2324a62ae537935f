#include "state/state.h"

#include <ctime>

#include "engine/base/time_format.h"

namespace strata::state {
namespace {

template <class E, size_t N>
std::optional<E> ParseByName(std::string_view s, const std::pair<E, const char*> (&table)[N]) {
  for (const auto& [e, name] : table) {
    if (s == name) return e;
  }
  return std::nullopt;
}

template <class E, size_t N>
const char* NameOf(E e, const std::pair<E, const char*> (&table)[N]) {
  for (const auto& [v, name] : table) {
    if (v == e) return name;
  }
  return "unknown";
}

const std::pair<ResourceStatus, const char*> kResourceStatus[] = {
    {ResourceStatus::Created, "created"},
    {ResourceStatus::Tainted, "tainted"},
    {ResourceStatus::PendingCreate, "pending-create"},
    {ResourceStatus::PendingUpdate, "pending-update"},
    {ResourceStatus::PendingDelete, "pending-delete"},
};
const std::pair<OperationAction, const char*> kOperationActions[] = {
    {OperationAction::Create, "create"},
    {OperationAction::Update, "update"},
    {OperationAction::Delete, "delete"},
    {OperationAction::Read, "read"},
};
const std::pair<OperationStatus, const char*> kOpStatus[] = {
    {OperationStatus::Pending, "pending"},
    {OperationStatus::Completed, "completed"},
    {OperationStatus::Failed, "failed"},
};

}  // namespace

const char* ToString(ResourceStatus s) { return NameOf(s, kResourceStatus); }
std::optional<ResourceStatus> ParseResourceStatus(std::string_view s) { return ParseByName(s, kResourceStatus); }
const char* ToString(OperationAction a) { return NameOf(a, kOperationActions); }
std::optional<OperationAction> ParseOperationAction(std::string_view s) { return ParseByName(s, kOperationActions); }
const char* ToString(OperationStatus s) { return NameOf(s, kOpStatus); }
std::optional<OperationStatus> ParseOperationStatus(std::string_view s) { return ParseByName(s, kOpStatus); }

const ResourceInstanceState* StageState::FindResource(const ResourceInstanceAddr& addr) const {
  for (const auto& r : resources) {
    if (r.addr == addr) return &r;
  }
  return nullptr;
}

const OutputState* StageState::FindOutput(const std::string& name) const {
  for (const auto& o : outputs) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

std::string FormatTimestamp(int64_t unix_millis) {
  return base::FormatRfc3339(std::chrono::system_clock::time_point(std::chrono::milliseconds(unix_millis)));
}

}  // namespace strata::state
