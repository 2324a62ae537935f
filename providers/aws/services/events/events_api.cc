#include "providers/aws/services/events/events_api.h"

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallEvents(const AwsSession& session, const OperationContext& ctx,
                                  const std::string& operation, const nlohmann::json& body) {
  return CallEvents(session, ctx, operation, body, CallOptionsFor(ctx));
}

Result<nlohmann::json> CallEvents(const AwsSession& session, const OperationContext& ctx,
                                  const std::string& operation, const nlohmann::json& body,
                                  const CallOptions& options) {
  return CallJsonRpc(session, ctx, {"events", "AWSEvents"}, operation, body, options);
}

std::string EventRuleAddress::Id() const {
  return bus == kDefaultEventBus ? name : bus + "/" + name;
}

nlohmann::json EventRuleAddress::Request(const char* name_member) const {
  nlohmann::json body = {{name_member, name}};
  if (bus != kDefaultEventBus) body["EventBusName"] = bus;
  return body;
}

EventRuleAddress ParseEventRuleId(const std::string& id) {
  size_t slash = id.rfind('/');
  if (slash == std::string::npos) return {kDefaultEventBus, id};
  return {id.substr(0, slash), id.substr(slash + 1)};
}

Result<TagMap> ListEventsTags(const AwsSession& session, const OperationContext& ctx,
                              const std::string& arn, std::string* token) {
  Result<nlohmann::json> listed =
      CallEvents(session, ctx, "ListTagsForResource", {{"ResourceARN", arn}});
  if (!listed.ok()) return listed.error();
  TagMap tags;
  if (listed->contains("Tags") && (*listed)["Tags"].is_array()) {
    for (const auto& tag : (*listed)["Tags"])
      tags[JsonString(tag, "Key")] = JsonString(tag, "Value");
  }
  auto it = tags.find(kCreateTokenTag);
  if (token) *token = it == tags.end() ? "" : it->second;
  if (it != tags.end()) tags.erase(it);
  return tags;
}

nlohmann::json EventsTagList(const TagMap& tags) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [key, value] : tags) list.push_back({{"Key", key}, {"Value", value}});
  return list;
}

Diagnostics UpdateEventsTags(const AwsSession& session, const OperationContext& ctx,
                             const std::string& arn, const TagMap& from, const TagMap& to) {
  std::vector<std::string> removed = RemovedTagKeys(from, to);
  if (!removed.empty()) {
    Result<nlohmann::json> done =
        CallEvents(session, ctx, "UntagResource", {{"ResourceARN", arn}, {"TagKeys", removed}});
    if (!done.ok()) return AwsErrorDiag("UntagResource", done.error());
  }
  TagMap changed = ChangedTags(from, to);
  if (changed.empty()) return {};
  Result<nlohmann::json> done = CallEvents(
      session, ctx, "TagResource", {{"ResourceARN", arn}, {"Tags", EventsTagList(changed)}});
  if (!done.ok()) return AwsErrorDiag("TagResource", done.error());
  return {};
}

}  // namespace strata::aws
