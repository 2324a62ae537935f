#include "providers/aws/services/cognitoidp/cognitoidp_api.h"

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallCognito(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                   const nlohmann::json& body, const CallOptions& options) {
  return CallJsonRpc(session, ctx, {"cognito-idp", "AWSCognitoIdentityProviderService"}, operation, body, options);
}

Result<nlohmann::json> CallCognito(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                                   const nlohmann::json& body) {
  return CallCognito(session, ctx, operation, body, CallOptionsFor(ctx));
}

namespace {

ValueList CognitoStrings(const nlohmann::json& j, const std::string& key) {
  ValueList items;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return items;
  for (const nlohmann::json& item : *it) {
    if (item.is_string()) items.push_back(Value::String(item.get<std::string>()));
  }
  return items;
}

}  // namespace

Value CognitoStringSet(const nlohmann::json& j, const std::string& key) { return Value::Set(CognitoStrings(j, key)); }
Value CognitoStringList(const nlohmann::json& j, const std::string& key) { return Value::List(CognitoStrings(j, key)); }

Value CognitoStringMap(const nlohmann::json& j, const std::string& key) {
  ValueMap out;
  auto it = j.find(key);
  if (it != j.end() && it->is_object()) {
    for (const auto& [k, v] : it->items()) {
      if (v.is_string()) out[k] = Value::String(v.get<std::string>());
    }
  }
  return Value::Map(std::move(out));
}

Value ShapedLike(const Value& read, const Value& prior) {
  if (!prior.IsMapping() || !read.IsMapping()) return read;
  ValueMap out;
  for (const auto& [name, was] : prior.AsMap()) {
    auto it = read.AsMap().find(name);
    if (it == read.AsMap().end()) continue;
    Value value = it->second;
    if (was.IsNull()) {
      value = Value();
    } else if (value.IsSequence() && was.IsSequence() && value.AsList().size() == 1 && was.AsList().size() == 1) {
      // A nested block (a list of one object): shaped likewise.
      value = Value::List({ShapedLike(value.AsList()[0], was.AsList()[0])});
    }
    out[name] = value;
  }
  return Value::Object(std::move(out));
}

}  // namespace strata::aws
