// aws_cognito_user_pool_client: an app client of a user pool, over CreateUserPoolClient /
// DescribeUserPoolClient / UpdateUserPoolClient / DeleteUserPoolClient, with Terraform's
// attributes (OAuth flows, scopes, callback and logout URLs, identity providers, auth flows,
// token validities). The id is the client id; the import id is "<pool id>/<client id>".
// client_secret (generated when generate_secret, which forces a new client) is sensitive.
// UpdateUserPoolClient resets what it is not sent, so an update sends the whole
// configuration.
//
// CreateUserPoolClient takes no client token and app clients carry no tags: recovery is by
// natural key, the pool and the client name. It lists the pool's clients and adopts the one
// of the planned name; with two or more of that name it cannot tell which is ours and
// refuses, naming `import`.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/cognitoidp/cognitoidp_api.h"
#include "providers/aws/services/cognitoidp/cognitoidp_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

//! Terraform attribute, wire member, and whether the attribute is a set.
struct ClientList {
  const char* attr;
  const char* member;
  bool is_set;
};
constexpr ClientList kClientLists[] = {{"allowed_oauth_flows", "AllowedOAuthFlows", true},
                                       {"allowed_oauth_scopes", "AllowedOAuthScopes", true},
                                       {"callback_urls", "CallbackURLs", true},
                                       {"logout_urls", "LogoutURLs", true},
                                       {"explicit_auth_flows", "ExplicitAuthFlows", true},
                                       {"supported_identity_providers", "SupportedIdentityProviders", false},
                                       {"read_attributes", "ReadAttributes", true},
                                       {"write_attributes", "WriteAttributes", true}};
constexpr std::pair<const char*, const char*> kClientNumbers[] = {{"refresh_token_validity", "RefreshTokenValidity"},
                                                                  {"access_token_validity", "AccessTokenValidity"},
                                                                  {"id_token_validity", "IdTokenValidity"},
                                                                  {"auth_session_validity", "AuthSessionValidity"}};

class AwsCognitoUserPoolClient final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cognito_user_pool_client", {{"name", Required("string")},
                                                          {"user_pool_id", Required("string", true)},
                                                          {"generate_secret", Optional("bool", true)},
                                                          {"client_secret", Computed("string", /*sensitive=*/true)},
                                                          {"allowed_oauth_flows", Optional("set(string)")},
                                                          {"allowed_oauth_flows_user_pool_client", OptionalComputed("bool")},
                                                          {"allowed_oauth_scopes", Optional("set(string)")},
                                                          {"callback_urls", Optional("set(string)")},
                                                          {"logout_urls", Optional("set(string)")},
                                                          {"default_redirect_uri", Optional("string")},
                                                          {"explicit_auth_flows", Optional("set(string)")},
                                                          {"supported_identity_providers", Optional("list(string)")},
                                                          {"read_attributes", Optional("set(string)")},
                                                          {"write_attributes", Optional("set(string)")},
                                                          {"refresh_token_validity", OptionalComputed("number")},
                                                          {"access_token_validity", OptionalComputed("number")},
                                                          {"id_token_validity", OptionalComputed("number")},
                                                          {"auth_session_validity", OptionalComputed("number")},
                                                          {"prevent_user_existence_errors", OptionalComputed("string")},
                                                          {"enable_token_revocation", OptionalComputed("bool")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"user_pool_id", "name"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    json body = Settings(planned);
    if (GetBool(planned, "generate_secret", false)) body["GenerateSecret"] = true;
    // No client token: an attempt whose outcome is unknown is not sent again (recovery looks).
    Result<json> created = CallCognito(*session_, ctx, "CreateUserPoolClient", body, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed("CreateUserPoolClient", created.error());
    return ReadAfterWrite(ctx, planned, (*created)["UserPoolClient"].value("ClientId", ""), {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadClient(ctx, GetString(prior, "user_pool_id"), GetString(prior, "id"), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    json body = Settings(planned);
    body["ClientId"] = id;
    Result<json> done = CallCognito(*session_, ctx, "UpdateUserPoolClient", body);
    return ReadAfterWrite(ctx, planned, id, done.ok() ? Diagnostics{} : AwsErrorDiag("UpdateUserPoolClient", done.error()));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    Result<json> done = CallCognito(*session_, ctx, "DeleteUserPoolClient",
                                    {{"UserPoolId", GetString(prior, "user_pool_id")}, {"ClientId", GetString(prior, "id")}});
    if (done.ok() || done.error().code == kCognitoNotFound) return {};
    return {AwsErrorDiag("DeleteUserPoolClient", done.error())};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    size_t slash = id.find('/');
    if (slash == std::string::npos) {
      return {Value(), Error("Invalid import id", ctx.address + ": import an app client as \"<user pool id>/<client id>\", not \"" + id + "\".")};
    }
    ReadResult read = ReadClient(ctx, id.substr(0, slash), id.substr(slash + 1), Value());
    if (read.gone && !read.diags.HasErrors()) {
      read.diags.Error("No such app client", ctx.address + ": user pool " + id.substr(0, slash) + " has no app client " + id.substr(slash + 1) + ".");
    }
    return {read.state, read.diags};
  }

 protected:
  //! The pool's one client of the planned name; two or more: cannot tell, refused.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string pool = GetString(planned, "user_pool_id"), name = GetString(planned, "name"), next;
    std::vector<std::string> ids;
    do {
      json body = {{"UserPoolId", pool}, {"MaxResults", 60}};
      if (!next.empty()) body["NextToken"] = next;
      Result<json> listed = CallCognito(*session_, ctx, "ListUserPoolClients", body);
      if (!listed.ok()) {
        if (listed.error().code == kCognitoNotFound) return {Value(), true, {}};
        return {Value(), false, AwsErrorDiag("ListUserPoolClients", listed.error())};
      }
      for (const json& client : (*listed).value("UserPoolClients", json::array())) {
        if (client.value("ClientName", "") == name) ids.push_back(client.value("ClientId", ""));
      }
      next = (*listed).value("NextToken", "");
    } while (!next.empty());
    if (ids.empty()) return {Value(), true, {}};
    if (ids.size() > 1) {
      return {Value(), false,
              Error("Cannot tell which app client the interrupted create made",
                    ctx.address + ": user pool " + pool + " has " + std::to_string(ids.size()) + " app clients named \"" + name +
                        "\" (" + ids[0] + ", " + ids[1] + (ids.size() > 2 ? ", ..." : "") +
                        "). Delete the extra ones, or adopt one with `strata import " + ctx.address + " " + pool + "/<client id>`.")};
    }
    return ReadClient(ctx, pool, ids[0], planned);
  }

 private:
  //! What CreateUserPoolClient and UpdateUserPoolClient both take: the whole configuration.
  static json Settings(const Value& planned) {
    json body = {{"UserPoolId", GetString(planned, "user_pool_id")},
                 {"ClientName", GetString(planned, "name")},
                 {"AllowedOAuthFlowsUserPoolClient", GetBool(planned, "allowed_oauth_flows_user_pool_client", false)}};
    for (const ClientList& list : kClientLists) {
      if (Get(planned, list.attr).IsSequence()) body[list.member] = GetStringList(planned, list.attr);
    }
    for (const auto& [attr, member] : kClientNumbers) {
      if (std::optional<double> n = GetNumber(planned, attr)) body[member] = static_cast<int>(*n);
    }
    if (Get(planned, "default_redirect_uri").IsString()) body["DefaultRedirectURI"] = GetString(planned, "default_redirect_uri");
    if (Get(planned, "prevent_user_existence_errors").IsString()) {
      body["PreventUserExistenceErrors"] = GetString(planned, "prevent_user_existence_errors");
    }
    if (Get(planned, "enable_token_revocation").IsBool()) body["EnableTokenRevocation"] = GetBool(planned, "enable_token_revocation", true);
    return body;
  }

  ReadResult ReadClient(const OperationContext& ctx, const std::string& pool, const std::string& id, const Value& prior) {
    Result<json> got = CallCognito(*session_, ctx, "DescribeUserPoolClient", {{"UserPoolId", pool}, {"ClientId", id}});
    if (!got.ok()) {
      if (got.error().code == kCognitoNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeUserPoolClient", got.error())};
    }
    const json& client = (*got)["UserPoolClient"];
    ValueMap out = {{"id", Value::String(client.value("ClientId", id))},
                    {"name", Value::String(client.value("ClientName", ""))},
                    {"user_pool_id", Value::String(client.value("UserPoolId", pool))},
                    {"generate_secret", Get(prior, "generate_secret").IsNull() && !client.contains("ClientSecret")
                                            ? Value() : Value::Bool(client.contains("ClientSecret"))},
                    {"client_secret", client.contains("ClientSecret")
                                          ? Value::String(client.value("ClientSecret", "")).MarkSensitive() : Value()},
                    {"allowed_oauth_flows_user_pool_client", Value::Bool(client.value("AllowedOAuthFlowsUserPoolClient", false))},
                    {"default_redirect_uri", client.contains("DefaultRedirectURI") ? Value::String(client.value("DefaultRedirectURI", "")) : Value()},
                    {"prevent_user_existence_errors", client.contains("PreventUserExistenceErrors")
                                                          ? Value::String(client.value("PreventUserExistenceErrors", "")) : Value()},
                    {"enable_token_revocation", Value::Bool(client.value("EnableTokenRevocation", true))}};
    for (const ClientList& list : kClientLists) {
      Value v = list.is_set ? CognitoStringSet(client, list.member) : CognitoStringList(client, list.member);
      // Left out and empty: as configured (null), no diff.
      out[list.attr] = NullIfEmptyAndUnset(v, Get(prior, list.attr));
    }
    for (const auto& [attr, member] : kClientNumbers) {
      out[attr] = client.contains(member) && client[member].is_number() ? Value::Number(client[member].get<double>()) : Value();
    }
    return {Value::Object(std::move(out)), false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCognitoUserPoolClient(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCognitoUserPoolClient>(std::move(session));
}

}  // namespace strata::aws
