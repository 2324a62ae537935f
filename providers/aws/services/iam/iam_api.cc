#include "providers/aws/services/iam/iam_api.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "providers/aws/common/policy_json.h"
#include "providers/aws/http/url.h"
#include "providers/aws/sts/sts_operations.h"
#include "providers/resource_type.h"

namespace strata::aws {

QueryRequest IamCall(const std::string& action) { return QueryRequest{action, kIamVersion, {}}; }

Result<XmlResponse> CallIam(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call) {
  return CallQuery(session, ctx, "iam", call, CallOptionsFor(ctx));
}

Result<XmlResponse> CallIam(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call, const CallOptions& options) {
  return CallQuery(session, ctx, "iam", call, options);
}

Diagnostics RunIam(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call) {
  return RunQuery(session, ctx, "iam", call);
}

Diagnostics RunIam(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                   const AlreadyDoneCodes& done) {
  return RunQuery(session, ctx, "iam", call, done);
}

Diagnostics RunIamDelete(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call) {
  Result<XmlResponse> response = CallIam(session, ctx, call);
  if (response.ok() || response.error().code == kIamNoSuchEntity) return {};
  return AwsErrorDiag(call.action, response.error());
}

ReadResult ReadIamObject(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                         const std::string& element, const std::function<ReadResult(pugi::xml_node)>& state_from) {
  Result<XmlResponse> got = CallIam(session, ctx, call);
  if (!got.ok()) {
    if (got.error().code == kIamNoSuchEntity) return {Value(), true, {}};
    return {Value(), false, AwsErrorDiag(call.action, got.error())};
  }
  pugi::xml_node node = element.empty() ? got->result : got->result.child(element.c_str());
  if (!node) return {Value(), true, {}};
  return state_from(node);
}

namespace {

bool ParseJson(const std::string& text, nlohmann::json* out) {
  *out = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return !out->is_discarded();
}

}  // namespace

std::string DecodePolicyDocument(const std::string& text) {
  nlohmann::json parsed;
  if (ParseJson(text, &parsed)) return text;
  return UriDecode(text);
}

Value PolicyForState(const std::string& remote, const Value& prior) {
  return JsonDocumentForState(DecodePolicyDocument(remote), prior);
}

void AddIamTags(QueryRequest& call, const TagMap& tags) {
  int n = 0;
  for (const auto& [k, v] : tags) {
    std::string prefix = "Tags.member." + std::to_string(++n);
    call.Add(prefix + ".Key", k).Add(prefix + ".Value", v);
  }
}

TagMap ReadIamTags(pugi::xml_node node, std::string* token) {
  return ReadTagList(node.child("Tags"), "member", "Key", "Value", token);
}

QueryRequest IamTagCall(const std::string& action, const std::string& id_param,
                        const std::string& id, const TagMap& from, const TagMap& to) {
  QueryRequest call = IamCall(action);
  call.Add(id_param, id);
  TagMap changed = ChangedTags(from, to);
  AddIamTags(call, changed);
  if (changed.empty()) call.action.clear();
  return call;
}

QueryRequest IamUntagCall(const std::string& action, const std::string& id_param,
                          const std::string& id, const TagMap& from, const TagMap& to) {
  QueryRequest call = IamCall(action);
  call.Add(id_param, id);
  int n = 0;
  for (const std::string& k : RemovedTagKeys(from, to)) call.Add("TagKeys.member." + std::to_string(++n), k);
  if (n == 0) call.action.clear();
  return call;
}

Result<std::string> IamArn(const AwsSession& session, const std::string& resource) {
  Result<CallerIdentity> who = GetCallerIdentity(*session.client);
  if (!who.ok()) return who.error();
  return "arn:" + PartitionOf(session.Region()) + ":iam::" + who->account + ":" + resource;
}

Value WithDefaultIamPath(const Value& v) {
  if (!attrs::Get(v, "path").IsNull()) return v;
  return attrs::With(v, "path", Value::String("/"));
}

}  // namespace strata::aws
