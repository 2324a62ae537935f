// aws_cognito_user_pool: a Cognito user pool, over CreateUserPool / DescribeUserPool /
// UpdateUserPool / TagResource / UntagResource / DeleteUserPool, with Terraform's attributes
// (a subset: name, auto_verified_attributes, username_attributes, alias_attributes, schema,
// password_policy, mfa_configuration, deletion_protection, tags). The id is the pool id
// ("us-west-2_AbCdEf123"), also the import id. UpdateUserPool replaces the whole
// configuration, so an update sends all of it; tags change through TagResource /
// UntagResource. A schema change replaces the pool (AddCustomAttributes, which only adds, is
// not offered). A nested attribute left out of the configuration is AWS's to default and
// never a diff.
//
// CreateUserPool takes no client token and names need not be unique: the create call tags
// the pool (UserPoolTags) with the engine's token and is never sent twice; recovery lists
// the pools of the planned name and claims the one carrying this create's token
// (CreateRecovery::CreateTag).

#include <cmath>

#include "engine/base/time_format.h"
#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/cognitoidp/cognitoidp_api.h"
#include "providers/aws/services/cognitoidp/cognitoidp_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

constexpr const char* kPoolPasswordPolicyType =
    "list(object({minimum_length=optional(number), require_lowercase=optional(bool), require_numbers=optional(bool), "
    "require_symbols=optional(bool), require_uppercase=optional(bool), temporary_password_validity_days=optional(number)}))";
constexpr const char* kPoolSchemaType =
    "set(object({attribute_data_type=string, name=string, developer_only_attribute=optional(bool), "
    "mutable=optional(bool), required=optional(bool), "
    "string_attribute_constraints=optional(list(object({min_length=optional(string), max_length=optional(string)}))), "
    "number_attribute_constraints=optional(list(object({min_value=optional(string), max_value=optional(string)})))}))";

//! The pool's password policy as CreateUserPool / UpdateUserPool take it.
json PoolPasswordPolicy(const Value& planned) {
  Value block = FirstBlock(planned, "password_policy");
  json policy = json::object();
  const std::pair<const char*, const char*> numbers[] = {{"minimum_length", "MinimumLength"},
                                                         {"temporary_password_validity_days", "TemporaryPasswordValidityDays"}};
  for (const auto& [attr, member] : numbers) {
    if (std::optional<double> n = GetNumber(block, attr)) policy[member] = static_cast<int>(*n);
  }
  const std::pair<const char*, const char*> flags[] = {{"require_lowercase", "RequireLowercase"},
                                                       {"require_numbers", "RequireNumbers"},
                                                       {"require_symbols", "RequireSymbols"},
                                                       {"require_uppercase", "RequireUppercase"}};
  for (const auto& [attr, member] : flags) {
    if (Get(block, attr).IsBool()) policy[member] = GetBool(block, attr, false);
  }
  return policy;
}

json PoolSchema(const Value& planned) {
  json out = json::array();
  for (const Value& attribute : Blocks(planned, "schema")) {
    json a = {{"Name", GetString(attribute, "name")}, {"AttributeDataType", GetString(attribute, "attribute_data_type")}};
    const std::pair<const char*, const char*> flags[] = {
        {"developer_only_attribute", "DeveloperOnlyAttribute"}, {"mutable", "Mutable"}, {"required", "Required"}};
    for (const auto& [attr, member] : flags) {
      if (Get(attribute, attr).IsBool()) a[member] = GetBool(attribute, attr, false);
    }
    Value strings = FirstBlock(attribute, "string_attribute_constraints");
    if (strings.IsMapping()) {
      a["StringAttributeConstraints"] = json::object();
      if (Get(strings, "min_length").IsString()) a["StringAttributeConstraints"]["MinLength"] = GetString(strings, "min_length");
      if (Get(strings, "max_length").IsString()) a["StringAttributeConstraints"]["MaxLength"] = GetString(strings, "max_length");
    }
    Value numbers = FirstBlock(attribute, "number_attribute_constraints");
    if (numbers.IsMapping()) {
      a["NumberAttributeConstraints"] = json::object();
      if (Get(numbers, "min_value").IsString()) a["NumberAttributeConstraints"]["MinValue"] = GetString(numbers, "min_value");
      if (Get(numbers, "max_value").IsString()) a["NumberAttributeConstraints"]["MaxValue"] = GetString(numbers, "max_value");
    }
    out.push_back(a);
  }
  return out;
}

//! One of the pool's SchemaAttributes as Terraform writes it ("custom:" taken off).
Value PoolSchemaAttribute(const json& a) {
  std::string name = a.value("Name", "");
  if (name.rfind("custom:", 0) == 0) name = name.substr(7);
  auto constraints = [&](const char* member, const char* low, const char* low_attr, const char* high, const char* high_attr) {
    if (!a.contains(member) || !a[member].is_object()) return Value();
    const json& c = a[member];
    return Value::List({Value::Object({{low_attr, c.contains(low) ? Value::String(c.value(low, "")) : Value()},
                                       {high_attr, c.contains(high) ? Value::String(c.value(high, "")) : Value()}})});
  };
  return Value::Object(
      {{"name", Value::String(name)},
       {"attribute_data_type", Value::String(a.value("AttributeDataType", ""))},
       {"developer_only_attribute", Value::Bool(a.value("DeveloperOnlyAttribute", false))},
       {"mutable", Value::Bool(a.value("Mutable", false))},
       {"required", Value::Bool(a.value("Required", false))},
       {"string_attribute_constraints", constraints("StringAttributeConstraints", "MinLength", "min_length", "MaxLength", "max_length")},
       {"number_attribute_constraints", constraints("NumberAttributeConstraints", "MinValue", "min_value", "MaxValue", "max_value")}});
}

//! The schema attribute: the pool's attributes the prior `schema` names, each shaped like
//! its prior (the standard attributes the configuration does not name are AWS's); without a
//! prior (an import), the custom attributes.
Value PoolSchemaValue(const json& pool, const Value& prior) {
  ValueList out;
  Value prior_schema = Get(prior, "schema");
  for (const json& a : pool.value("SchemaAttributes", json::array())) {
    Value read = PoolSchemaAttribute(a);
    if (!prior_schema.IsKnown() || prior_schema.IsNull()) {
      if (a.value("Name", "").rfind("custom:", 0) == 0) out.push_back(read);
      continue;
    }
    for (const Value& configured : prior_schema.AsList()) {
      if (GetString(configured, "name") == GetString(read, "name")) out.push_back(ShapedLike(read, configured));
    }
  }
  if (out.empty() && (prior_schema.IsNull() || !prior_schema.IsKnown())) return Value();
  return Value::Set(std::move(out));
}

class AwsCognitoUserPool final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cognito_user_pool", {{"name", Required("string", true)},
                                                   {"auto_verified_attributes", Optional("set(string)")},
                                                   {"username_attributes", Optional("set(string)", true)},
                                                   {"alias_attributes", Optional("set(string)", true)},
                                                   {"schema", Optional(kPoolSchemaType, true)},
                                                   {"password_policy", OptionalComputed(kPoolPasswordPolicyType)},
                                                   {"mfa_configuration", OptionalComputed("string")},
                                                   {"deletion_protection", OptionalComputed("string")},
                                                   {"tags", Optional("map(string)")},
                                                   {"tags_all", Computed("map(string)")},
                                                   {"arn", Computed("string")},
                                                   {"endpoint", Computed("string")},
                                                   {"domain", Computed("string")},
                                                   {"creation_date", Computed("string")},
                                                   {"last_modified_date", Computed("string")},
                                                   {"estimated_number_of_users", Computed("number")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::CreateTag; }
  std::vector<std::string> RecoveryKey() const override { return {"name"}; }

  Diagnostics Validate(const Value& config) const override {
    std::string mfa = GetString(config, "mfa_configuration", "OFF");
    if (Get(config, "mfa_configuration").IsKnown() && mfa != "OFF" && mfa != "ON" && mfa != "OPTIONAL") {
      return Error("Invalid mfa_configuration", "mfa_configuration is OFF, ON or OPTIONAL, not \"" + mfa + "\".");
    }
    if (Get(config, "username_attributes").IsSequence() && Get(config, "alias_attributes").IsSequence()) {
      return Error("Conflicting sign-in attributes", "Set either username_attributes or alias_attributes of a user pool, not both.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    json body = Settings(planned);
    body["PoolName"] = GetString(planned, "name");
    TagMap tags = TagsOnCreate(ctx, planned);
    body["UserPoolTags"] = json(tags);
    for (const auto& [attr, member] : {std::pair<const char*, const char*>{"username_attributes", "UsernameAttributes"},
                                       {"alias_attributes", "AliasAttributes"}}) {
      if (Get(planned, attr).IsSequence()) body[member] = GetStringList(planned, attr);
    }
    json schema = PoolSchema(planned);
    if (!schema.empty()) body["Schema"] = schema;
    // No client token: an attempt whose outcome is unknown is not sent again (recovery looks).
    Result<json> created = CallCognito(*session_, ctx, "CreateUserPool", body, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed("CreateUserPool", created.error());
    return ReadAfterWrite(ctx, planned, (*created)["UserPool"].value("Id", ""), {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadPool(ctx, GetString(prior, "id"), prior, nullptr);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    auto run = [&](const std::string& operation, const json& body) -> Diagnostics {
      Result<json> done = CallCognito(*session_, ctx, operation, body);
      return done.ok() ? Diagnostics{} : AwsErrorDiag(operation, done.error());
    };
    // UpdateUserPool resets what it is not sent: the whole configuration goes.
    json body = Settings(planned);
    body["UserPoolId"] = id;
    Diagnostics diags = run("UpdateUserPool", body);
    std::string arn = GetString(prior, "arn");
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    TagMap added = ChangedTags(from, to);
    std::vector<std::string> removed = RemovedTagKeys(from, to);
    if (!diags.HasErrors() && !removed.empty()) diags = run("UntagResource", {{"ResourceArn", arn}, {"TagKeys", removed}});
    if (!diags.HasErrors() && !added.empty()) diags = run("TagResource", {{"ResourceArn", arn}, {"Tags", json(added)}});
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    Result<json> done = CallCognito(*session_, ctx, "DeleteUserPool", {{"UserPoolId", GetString(prior, "id")}});
    if (done.ok() || done.error().code == kCognitoNotFound) return {};
    Diagnostics diags = AwsErrorDiag("DeleteUserPool", done.error());
    if (done.error().message.find("domain") != std::string::npos) {
      diags.Error("User pool still has a domain", ctx.address + ": delete its aws_cognito_user_pool_domain first (a "
                                                                "domain made outside this configuration: `aws cognito-idp delete-user-pool-domain`).");
    }
    return {diags};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  //! The pool of the planned name carrying this create's token tag (ListUserPools, then
  //! each pool of that name).
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    if (ctx.idempotency_token.empty()) return {Value(), true, {}};
    std::string name = GetString(planned, "name"), next;
    do {
      json body = {{"MaxResults", 60}};
      if (!next.empty()) body["NextToken"] = next;
      Result<json> listed = CallCognito(*session_, ctx, "ListUserPools", body);
      if (!listed.ok()) return {Value(), false, AwsErrorDiag("ListUserPools", listed.error())};
      for (const json& pool : (*listed).value("UserPools", json::array())) {
        if (pool.value("Name", "") != name) continue;
        std::string token;
        ReadResult read = ReadPool(ctx, pool.value("Id", ""), planned, &token);
        if (read.diags.HasErrors()) return read;
        if (!read.gone && token == ctx.idempotency_token) return read;
      }
      next = (*listed).value("NextToken", "");
    } while (!next.empty());
    return {Value(), true, {}};
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "mfa_configuration").IsNull()) out = With(out, "mfa_configuration", Value::String("OFF"));
    if (Get(out, "deletion_protection").IsNull()) out = With(out, "deletion_protection", Value::String("INACTIVE"));
    return out;
  }

 private:
  //! What CreateUserPool and UpdateUserPool both take.
  static json Settings(const Value& planned) {
    json body = {{"AutoVerifiedAttributes", GetStringList(planned, "auto_verified_attributes")},
                 {"MfaConfiguration", GetString(planned, "mfa_configuration", "OFF")},
                 {"DeletionProtection", GetString(planned, "deletion_protection", "INACTIVE")}};
    json policy = PoolPasswordPolicy(planned);
    if (!policy.empty()) body["Policies"] = {{"PasswordPolicy", policy}};
    return body;
  }

  ReadResult ReadPool(const OperationContext& ctx, const std::string& id, const Value& prior, std::string* token) {
    Result<json> described = CallCognito(*session_, ctx, "DescribeUserPool", {{"UserPoolId", id}});
    if (!described.ok()) {
      if (described.error().code == kCognitoNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeUserPool", described.error())};
    }
    const json& pool = (*described)["UserPool"];
    TagMap tags;
    const json pool_tags = pool.contains("UserPoolTags") && pool["UserPoolTags"].is_object() ? pool["UserPoolTags"] : json::object();
    for (const auto& [key, value] : pool_tags.items()) {
      if (key == kCreateTokenTag) {
        if (token) *token = value.get<std::string>();
        continue;
      }
      tags[key] = value.is_string() ? value.get<std::string>() : "";
    }
    const json policy = pool.contains("Policies") ? pool["Policies"].value("PasswordPolicy", json::object()) : json::object();
    auto number = [&](const char* member) {
      return policy.contains(member) && policy[member].is_number() ? Value::Number(policy[member].get<double>()) : Value();
    };
    auto flag = [&](const char* member) { return policy.contains(member) ? Value::Bool(policy.value(member, false)) : Value(); };
    Value password = Value::Object({{"minimum_length", number("MinimumLength")},
                                                 {"require_lowercase", flag("RequireLowercase")},
                                                 {"require_numbers", flag("RequireNumbers")},
                                                 {"require_symbols", flag("RequireSymbols")},
                                                 {"require_uppercase", flag("RequireUppercase")},
                                    {"temporary_password_validity_days", number("TemporaryPasswordValidityDays")}});
    Value prior_policy = FirstBlock(prior, "password_policy");
    if (prior_policy.IsWhollyKnown()) password = ShapedLike(password, prior_policy);
    auto strings = [&](const char* attr, const char* member) {
      return NullIfEmptyAndUnset(CognitoStringSet(pool, member), Get(prior, attr));
    };
    auto time = [&](const char* member) {
      if (!pool.contains(member) || !pool[member].is_number()) return Value();
      auto seconds = std::chrono::seconds(static_cast<int64_t>(std::floor(pool[member].get<double>())));
      return Value::String(FormatRfc3339(std::chrono::system_clock::time_point(seconds)));
    };
    std::string pool_id = pool.value("Id", id);
    return {Value::Object({{"id", Value::String(pool_id)},
                           {"name", Value::String(pool.value("Name", ""))},
                           {"arn", Value::String(pool.value("Arn", ""))},
                           {"endpoint", Value::String("cognito-idp." + session_->Region() + ".amazonaws.com/" + pool_id)},
                           {"domain", pool.contains("Domain") ? Value::String(pool.value("Domain", "")) : Value()},
                           {"creation_date", time("CreationDate")},
                           {"last_modified_date", time("LastModifiedDate")},
                           {"estimated_number_of_users", Value::Number(pool.value("EstimatedNumberOfUsers", 0))},
                           {"auto_verified_attributes", strings("auto_verified_attributes", "AutoVerifiedAttributes")},
                           {"username_attributes", strings("username_attributes", "UsernameAttributes")},
                           {"alias_attributes", strings("alias_attributes", "AliasAttributes")},
                           {"schema", PoolSchemaValue(pool, prior)},
                           {"password_policy", Value::List({password})},
                           {"mfa_configuration", Value::String(pool.value("MfaConfiguration", "OFF"))},
                           {"deletion_protection", Value::String(pool.value("DeletionProtection", "INACTIVE"))},
                           {"tags", TagsForState(tags, session_->default_tags, Get(prior, "tags"))},
                           {"tags_all", TagsValue(tags)}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCognitoUserPool(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCognitoUserPool>(std::move(session));
}

}  // namespace strata::aws
