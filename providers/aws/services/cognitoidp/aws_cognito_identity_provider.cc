// aws_cognito_identity_provider: a federated identity provider of a user pool ("Google"),
// over CreateIdentityProvider / DescribeIdentityProvider / UpdateIdentityProvider /
// DeleteIdentityProvider, with Terraform's attributes. The id is "<pool id>:<provider
// name>", also the import id. provider_details' client_secret is sensitive. Cognito adds
// its own endpoints to Google's (and Facebook's, Apple's) details — authorize_url,
// token_url, attributes_url, oidc_issuer, token_request_method,
// attributes_url_add_attributes — which are ignored unless configured, as Terraform does, so
// they are no diff; attribute_mapping takes what Cognito adds ("username": "sub").
//
// Recovery is by natural key: a provider name is unique in its pool; the provider found is
// ours when it has the planned type and client_id.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/cognitoidp/cognitoidp_api.h"
#include "providers/aws/services/cognitoidp/cognitoidp_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

//! The provider details Cognito fills in itself.
bool IdpDetailAddedByCognito(const std::string& key) {
  static const char* kAdded[] = {"authorize_url", "token_url", "attributes_url", "oidc_issuer", "token_request_method",
                                 "attributes_url_add_attributes"};
  for (const char* added : kAdded) {
    if (key == added) return true;
  }
  return false;
}

class AwsCognitoIdentityProvider final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cognito_identity_provider", {{"user_pool_id", Required("string", true)},
                                                           {"provider_name", Required("string", true)},
                                                           {"provider_type", Required("string", true)},
                                                           {"provider_details", Required("map(string)")},
                                                           {"attribute_mapping", OptionalComputed("map(string)")},
                                                           {"idp_identifiers", Optional("list(string)")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"user_pool_id", "provider_name", "provider_type"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string pool = GetString(planned, "user_pool_id"), name = GetString(planned, "provider_name");
    json body = Settings(planned);
    body["ProviderType"] = GetString(planned, "provider_type");
    Result<json> created = CallCognito(*session_, ctx, "CreateIdentityProvider", body, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed("CreateIdentityProvider", created.error());
    return ReadAfterWrite(ctx, planned, pool + ":" + name, {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    size_t colon = id.find(':');
    if (colon == std::string::npos) {
      return {Value(), false, Error("Invalid identity provider id", ctx.address + ": \"" + id + "\" is not \"<user pool id>:<provider name>\".")};
    }
    return ReadProvider(ctx, id.substr(0, colon), id.substr(colon + 1), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    Result<json> done = CallCognito(*session_, ctx, "UpdateIdentityProvider", Settings(planned));
    return ReadAfterWrite(ctx, planned, GetString(prior, "id"),
                          done.ok() ? Diagnostics{} : AwsErrorDiag("UpdateIdentityProvider", done.error()));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    Result<json> done = CallCognito(*session_, ctx, "DeleteIdentityProvider",
                                    {{"UserPoolId", GetString(prior, "user_pool_id")}, {"ProviderName", GetString(prior, "provider_name")}});
    if (done.ok() || done.error().code == kCognitoNotFound) return {};
    return {AwsErrorDiag("DeleteIdentityProvider", done.error())};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  //! The provider of the planned name: ours when its type and client_id are the planned ones.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string pool = GetString(planned, "user_pool_id"), name = GetString(planned, "provider_name");
    ReadResult found = ReadProvider(ctx, pool, name, planned);
    if (found.gone || found.diags.HasErrors()) return found;
    std::string client = GetStringMap(planned, "provider_details")["client_id"];
    if (GetString(found.state, "provider_type") == GetString(planned, "provider_type") &&
        GetStringMap(found.state, "provider_details")["client_id"] == client) {
      return found;
    }
    return NotCreatedByThisApply(ctx, "Cognito identity provider \"" + name + "\" of pool " + pool,
                                 "it has another type or client_id", pool + ":" + name);
  }

 private:
  //! What CreateIdentityProvider and UpdateIdentityProvider both take.
  static json Settings(const Value& planned) {
    json body = {{"UserPoolId", GetString(planned, "user_pool_id")},
                 {"ProviderName", GetString(planned, "provider_name")},
                 {"ProviderDetails", json(GetStringMap(planned, "provider_details"))}};
    if (Get(planned, "attribute_mapping").IsMapping()) body["AttributeMapping"] = json(GetStringMap(planned, "attribute_mapping"));
    if (Get(planned, "idp_identifiers").IsSequence()) body["IdpIdentifiers"] = GetStringList(planned, "idp_identifiers");
    return body;
  }

  ReadResult ReadProvider(const OperationContext& ctx, const std::string& pool, const std::string& name, const Value& prior) {
    Result<json> got = CallCognito(*session_, ctx, "DescribeIdentityProvider", {{"UserPoolId", pool}, {"ProviderName", name}});
    if (!got.ok()) {
      if (got.error().code == kCognitoNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeIdentityProvider", got.error())};
    }
    const json& idp = (*got)["IdentityProvider"];
    std::map<std::string, std::string> configured = GetStringMap(prior, "provider_details");
    ValueMap details;
    const json remote = idp.contains("ProviderDetails") && idp["ProviderDetails"].is_object() ? idp["ProviderDetails"] : json::object();
    for (const auto& [key, value] : remote.items()) {
      if (IdpDetailAddedByCognito(key) && !configured.count(key)) continue;
      Value v = Value::String(value.is_string() ? value.get<std::string>() : value.dump());
      details[key] = key == "client_secret" ? v.MarkSensitive() : v;
    }
    Value identifiers = CognitoStringList(idp, "IdpIdentifiers");
    return {Value::Object({{"id", Value::String(pool + ":" + name)},
                           {"user_pool_id", Value::String(pool)},
                           {"provider_name", Value::String(idp.value("ProviderName", name))},
                           {"provider_type", Value::String(idp.value("ProviderType", ""))},
                           {"provider_details", Value::Map(std::move(details))},
                           {"attribute_mapping", CognitoStringMap(idp, "AttributeMapping")},
                           {"idp_identifiers", NullIfEmptyAndUnset(identifiers, Get(prior, "idp_identifiers"))}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCognitoIdentityProvider(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCognitoIdentityProvider>(std::move(session));
}

}  // namespace strata::aws
