#include "providers/aws/services/efs/efs_api.h"

#include "providers/aws/common/wait.h"

namespace strata::aws {

std::string EfsPath(const std::string& collection, const std::string& id, const std::string& sub) {
  std::string path = "/2015-02-01/" + collection;
  if (!id.empty()) path += "/" + EncodePathLabel(id);
  if (!sub.empty()) path += "/" + sub;
  return path;
}

Result<nlohmann::json> CallEfs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const RestJsonRequest& call) {
  ctx.Log(LogLevel::Debug, "efs:" + operation);
  return session.client->RestJson("efs", call, CallOptionsFor(ctx));
}

Result<std::optional<nlohmann::json>> DescribeEfsObject(const AwsSession& session, const OperationContext& ctx,
                                                        const std::string& operation, const std::string& collection,
                                                        const std::string& id_member, const std::string& id,
                                                        const std::string& list_member, const std::string& not_found) {
  RestJsonRequest call;
  call.path = EfsPath(collection);
  call.query.push_back({id_member, id});
  Result<nlohmann::json> got = CallEfs(session, ctx, operation, call);
  if (!got.ok()) {
    if (got.error().code == not_found) return std::optional<nlohmann::json>();
    return got.error();
  }
  for (const nlohmann::json& object : got->value(list_member, nlohmann::json::array())) {
    if (JsonString(object, id_member) == id) return std::optional<nlohmann::json>(object);
  }
  return std::optional<nlohmann::json>();
}

Value EfsStringOrNull(const nlohmann::json& j, const std::string& key) {
  std::string s = JsonString(j, key);
  return s.empty() ? Value() : Value::String(s);
}

nlohmann::json EfsTagList(const TagMap& tags) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [k, v] : tags) out.push_back({{"Key", k}, {"Value", v}});
  return out;
}

TagMap EfsTags(const nlohmann::json& object) {
  TagMap out;
  if (!object.is_object() || !object.contains("Tags") || !object["Tags"].is_array()) return out;
  for (const auto& tag : object["Tags"]) out[JsonString(tag, "Key")] = JsonString(tag, "Value");
  out.erase(kCreateTokenTag);
  return out;
}

Diagnostics UpdateEfsTags(const AwsSession& session, const OperationContext& ctx, const std::string& id,
                          const TagMap& from, const TagMap& to) {
  RestJsonRequest untag;
  untag.method = "DELETE";
  untag.path = EfsPath("resource-tags", id);
  for (const std::string& k : RemovedTagKeys(from, to)) untag.query.push_back({"tagKeys", k});
  if (!untag.query.empty()) {
    Result<nlohmann::json> done = CallEfs(session, ctx, "UntagResource", untag);
    if (!done.ok()) return AwsErrorDiag("UntagResource", done.error());
  }
  TagMap changed = ChangedTags(from, to);
  if (changed.empty()) return {};
  RestJsonRequest tag;
  tag.method = "POST";
  tag.path = EfsPath("resource-tags", id);
  tag.body = nlohmann::json{{"Tags", EfsTagList(changed)}};
  Result<nlohmann::json> done = CallEfs(session, ctx, "TagResource", tag);
  return done.ok() ? Diagnostics{} : AwsErrorDiag("TagResource", done.error());
}

Diagnostics WaitForEfsState(const AwsSession& session, const OperationContext& ctx, const std::string& what,
                            const std::string& wanted,
                            const std::function<Result<std::optional<nlohmann::json>>()>& describe) {
  return WaitFor(session, ctx, what + " to become " + wanted, [&]() {
    WaitPoll poll;
    Result<std::optional<nlohmann::json>> seen = describe();
    if (!seen.ok()) {
      poll.diags = AwsErrorDiag("Describe", seen.error());
      return poll;
    }
    if (!seen->has_value()) {
      poll.done = wanted == "deleted";
      if (!poll.done) poll.diags.Error(what + " disappeared", what + " is gone while waiting for it to become " + wanted + ".");
      return poll;
    }
    poll.status = JsonString(**seen, "LifeCycleState");
    poll.done = poll.status == wanted;
    if (poll.status == "error") {
      poll.diags.Error(what + " failed", what + " is in the error state; delete it and create it again.");
    }
    return poll;
  });
}

}  // namespace strata::aws
