// Amazon Cognito user pools (awsJson 1.1, target prefix AWSCognitoIdentityProviderService,
// signing name "cognito-idp") as the sandbox serves them: user pools (Create / Describe /
// Update / Delete / ListUserPools), their hosted-UI domains (Create / Describe / Delete
// UserPoolDomain: CREATING for settings.cognito_domain_delay, then ACTIVE; DELETING as long,
// then gone), identity providers (Google, Facebook, OIDC, SAML...: Create / Describe /
// Update / Delete / ListIdentityProviders), app clients (Create / Describe / Update / Delete /
// ListUserPoolClients, a ClientSecret when GenerateSecret) and tags. AWS's rules where
// Terraform meets them: Google's provider details gain the endpoints Cognito fills in; a
// callback URL is https (http only for localhost) without a fragment; a domain prefix is
// taken once across the region; a pool with a domain refuses deletion; UpdateUserPool and
// UpdateUserPoolClient replace the whole configuration (what is left out is reset).
//
// Storage: World documents under "cognito.pool" keyed "<region>/<pool id>",
// "cognito.domain" keyed "<region>/<domain>", "cognito.idp" keyed "<pool id>/<provider
// name>" and "cognito.client" keyed "<pool id>/<client id>".

#include <algorithm>

#include "sandbox/json_service.h"

namespace strata::sandbox {
namespace cognitoidp {
namespace {

constexpr const char* kPoolKind = "cognito.pool";
constexpr const char* kDomainKind = "cognito.domain";
constexpr const char* kIdpKind = "cognito.idp";
constexpr const char* kClientKind = "cognito.client";
constexpr const char* kAlnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

ApiError CognitoNotFound(const std::string& message) { return ApiError(400, "ResourceNotFoundException", message); }
ApiError CognitoInvalid(const std::string& message) { return ApiError(400, "InvalidParameterException", message); }

int64_t CognitoNowMs(const ServiceContext& ctx) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(ctx.now.time_since_epoch()).count();
}

std::string PoolArn(const ServiceContext& ctx, const std::string& id) {
  return "arn:aws:cognito-idp:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":userpool/" + id;
}

std::optional<Json> LookUpDomain(ServiceContext& ctx, const std::string& domain);

//! The pool `id`; its Domain is dropped once that domain's deletion has run its course.
Json FindPool(ServiceContext& ctx, const std::string& id) {
  std::optional<Json> pool = ctx.world.Get(kPoolKind, RegionOf(ctx) + "/" + id);
  if (!pool) throw CognitoNotFound("User pool " + id + " does not exist.");
  if (pool->contains("Domain") && !LookUpDomain(ctx, (*pool)["Domain"].get<std::string>())) {
    pool->erase("Domain");
  }
  return *pool;
}

void SavePool(ServiceContext& ctx, const Json& pool) {
  ctx.world.Put(kPoolKind, RegionOf(ctx) + "/" + pool["Id"].get<std::string>(), pool);
}

//! The standard attributes every pool has, before the pool's own schema is applied.
Json StandardSchema() {
  Json out = Json::array();
  auto add = [&](const char* name, const char* type, bool is_mutable) {
    Json a = {{"Name", name}, {"AttributeDataType", type}, {"DeveloperOnlyAttribute", false},
              {"Mutable", is_mutable}, {"Required", false}};
    if (std::string(type) == "String") a["StringAttributeConstraints"] = {{"MinLength", "0"}, {"MaxLength", "2048"}};
    out.push_back(a);
  };
  add("sub", "String", false);
  for (const char* name : {"name", "given_name", "family_name", "email", "phone_number", "picture", "locale"}) {
    add(name, "String", true);
  }
  add("email_verified", "Boolean", true);
  add("phone_number_verified", "Boolean", true);
  add("updated_at", "Number", true);
  out[0]["Required"] = true;
  out[0]["StringAttributeConstraints"] = {{"MinLength", "1"}, {"MaxLength", "2048"}};
  return out;
}

//! The pool's SchemaAttributes: the standard ones with `schema` (CreateUserPool's Schema)
//! applied; custom attributes named "custom:<name>".
Json SchemaAttributes(const Json& schema) {
  Json out = StandardSchema();
  for (Json attribute : schema) {
    std::string name = attribute.value("Name", "");
    if (name.empty()) throw CognitoInvalid("A schema attribute needs a Name.");
    auto standard = std::find_if(out.begin(), out.end(), [&](const Json& a) { return a["Name"] == name; });
    if (standard == out.end()) {
      attribute["Name"] = "custom:" + name;
      if (attribute.value("Required", false)) throw CognitoInvalid("Required custom attributes are not supported currently.");
      attribute["Required"] = false;
    }
    attribute["DeveloperOnlyAttribute"] = attribute.value("DeveloperOnlyAttribute", false);
    attribute["Mutable"] = attribute.value("Mutable", true);
    attribute["Required"] = attribute.value("Required", false);
    if (standard != out.end()) {
      *standard = attribute;
    } else {
      out.push_back(attribute);
    }
  }
  return out;
}

Json PasswordPolicyOf(const Json& input) {
  Json policy = {{"MinimumLength", 8}, {"RequireUppercase", true}, {"RequireLowercase", true},
                 {"RequireNumbers", true}, {"RequireSymbols", true}, {"TemporaryPasswordValidityDays", 7}};
  if (input.contains("Policies") && input["Policies"].contains("PasswordPolicy")) {
    for (const auto& [key, value] : input["Policies"]["PasswordPolicy"].items()) policy[key] = value;
  }
  int64_t length = policy["MinimumLength"].get<int64_t>();
  if (length < 6 || length > 99) throw CognitoInvalid("Password policy MinimumLength must be from 6 to 99.");
  return policy;
}

//! The settings CreateUserPool and UpdateUserPool both take, applied to `pool`: what the
//! call leaves out returns to its default.
void ApplyPoolSettings(Json& pool, const Json& input) {
  pool["AutoVerifiedAttributes"] = input.value("AutoVerifiedAttributes", Json::array());
  for (const Json& a : pool["AutoVerifiedAttributes"]) {
    if (a != "email" && a != "phone_number") throw CognitoInvalid("AutoVerifiedAttributes may hold email and phone_number.");
  }
  pool["Policies"] = {{"PasswordPolicy", PasswordPolicyOf(input)}};
  std::string mfa = input.value("MfaConfiguration", "OFF");
  if (mfa != "OFF" && mfa != "ON" && mfa != "OPTIONAL") throw CognitoInvalid("MfaConfiguration must be OFF, ON or OPTIONAL.");
  pool["MfaConfiguration"] = mfa;
  pool["DeletionProtection"] = input.value("DeletionProtection", "INACTIVE");
  for (const char* member : {"EmailConfiguration", "AdminCreateUserConfig", "AccountRecoverySetting", "UserAttributeUpdateSettings",
                             "VerificationMessageTemplate", "LambdaConfig", "SmsConfiguration", "UserPoolAddOns"}) {
    if (input.contains(member)) {
      pool[member] = input[member];
    } else {
      pool.erase(member);
    }
  }
}

Json TagMapOf(const Json& input, const char* member) {
  Json tags = input.value(member, Json::object());
  if (!tags.is_object()) throw CognitoInvalid(std::string(member) + " must be a map of strings.");
  for (const auto& [key, value] : tags.items()) {
    if (key.empty() || key.size() > 128 || !value.is_string()) throw CognitoInvalid("Tag keys must be 1 to 128 characters.");
  }
  return tags;
}

Json CreateUserPool(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "PoolName");
  if (name.empty() || name.size() > 128) throw CognitoInvalid("PoolName must be 1 to 128 characters.");
  std::string id = RegionOf(call.ctx) + "_" + call.world().RandomString(9, kAlnum);
  double now = EpochSeconds(call.ctx.now);
  Json pool = {{"Id", id},
               {"Name", name},
               {"Arn", PoolArn(call.ctx, id)},
               {"CreationDate", now},
               {"LastModifiedDate", now},
               {"EstimatedNumberOfUsers", 0},
               {"SchemaAttributes", SchemaAttributes(call.input.value("Schema", Json::array()))},
               {"UserPoolTags", TagMapOf(call.input, "UserPoolTags")}};
  for (const char* member : {"UsernameAttributes", "AliasAttributes"}) {
    if (call.input.contains(member)) pool[member] = call.input[member];
  }
  if (pool.contains("UsernameAttributes") && pool.contains("AliasAttributes")) {
    throw CognitoInvalid("UsernameAttributes and AliasAttributes cannot be set together.");
  }
  ApplyPoolSettings(pool, call.input);
  SavePool(call.ctx, pool);
  return Json{{"UserPool", pool}};
}

Json DescribeUserPool(JsonCall& call) {
  return Json{{"UserPool", FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))}};
}

Json UpdateUserPool(JsonCall& call) {
  Json pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"));
  ApplyPoolSettings(pool, call.input);
  if (call.input.contains("UserPoolTags")) pool["UserPoolTags"] = TagMapOf(call.input, "UserPoolTags");
  pool["LastModifiedDate"] = EpochSeconds(call.ctx.now);
  SavePool(call.ctx, pool);
  return Json::object();
}

Json DeleteUserPool(JsonCall& call) {
  Json pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"));
  if (pool.contains("Domain")) {
    throw CognitoInvalid("User pool cannot be deleted. It has a domain configured that should be deleted first.");
  }
  if (pool.value("DeletionProtection", "") == "ACTIVE") {
    throw CognitoInvalid("The user pool cannot be deleted because deletion protection is activated.");
  }
  std::string id = pool["Id"].get<std::string>();
  for (const char* kind : {kIdpKind, kClientKind}) {
    for (const auto& [key, doc] : call.world().ListPrefix(kind, id + "/")) call.world().Erase(kind, key);
  }
  call.world().Erase(kPoolKind, RegionOf(call.ctx) + "/" + id);
  return Json::object();
}

Json ListUserPools(JsonCall& call) {
  int64_t max = call.input.value("MaxResults", 0);
  if (max < 1 || max > 60) throw CognitoInvalid("MaxResults must be from 1 to 60.");
  auto pools = call.world().ListPrefix(kPoolKind, RegionOf(call.ctx) + "/");
  size_t start = 0;
  std::string token = OptionalJsonString(call.input, "NextToken");
  if (!token.empty()) {
    if (token.find_first_not_of("0123456789") != std::string::npos || token.size() > 9) throw CognitoInvalid("Invalid NextToken.");
    start = static_cast<size_t>(std::stoul(token));
  }
  Json out = {{"UserPools", Json::array()}};
  for (size_t i = start; i < pools.size(); ++i) {
    if (out["UserPools"].size() == static_cast<size_t>(max)) {
      out["NextToken"] = std::to_string(i);
      break;
    }
    const Json& pool = pools[i].second;
    out["UserPools"].push_back({{"Id", pool["Id"]}, {"Name", pool["Name"]}, {"CreationDate", pool["CreationDate"]},
                                {"LastModifiedDate", pool["LastModifiedDate"]}, {"LambdaConfig", Json::object()}});
  }
  return out;
}

// ---- Domains

//! The domain's document with its Status brought up to date, or none when it is gone
//! (erased here, with the pool's Domain, once its deletion has run its course).
std::optional<Json> LookUpDomain(ServiceContext& ctx, const std::string& domain) {
  std::optional<Json> doc = ctx.world.Get(kDomainKind, RegionOf(ctx) + "/" + domain);
  if (!doc) return std::nullopt;
  int64_t now = CognitoNowMs(ctx), delay = ctx.settings.cognito_domain_delay.count();
  if (doc->contains("DeletingMs")) {
    if (now < (*doc)["DeletingMs"].get<int64_t>() + delay) return doc;
    ctx.world.Erase(kDomainKind, RegionOf(ctx) + "/" + domain);
    std::optional<Json> pool = ctx.world.Get(kPoolKind, RegionOf(ctx) + "/" + (*doc)["UserPoolId"].get<std::string>());
    if (pool && pool->value("Domain", "") == domain) {
      pool->erase("Domain");
      SavePool(ctx, *pool);
    }
    return std::nullopt;
  }
  (*doc)["Status"] = now < (*doc)["CreatedMs"].get<int64_t>() + delay ? "CREATING" : "ACTIVE";
  return doc;
}

void CheckDomainPrefix(const std::string& domain) {
  bool ok = !domain.empty() && domain.size() <= 63 && domain.front() != '-' && domain.back() != '-';
  for (char c : domain) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!ok) {
    throw CognitoInvalid("1 validation error detected: Value '" + domain +
                         "' at 'domain' failed to satisfy constraint: Member must satisfy regular expression pattern: "
                         "^[a-z0-9](?:[a-z0-9\\-]{0,61}[a-z0-9])?$");
  }
  for (const char* reserved : {"aws", "amazon", "cognito"}) {
    if (domain.find(reserved) != std::string::npos) {
      throw CognitoInvalid("Domain cannot contain reserved word: " + std::string(reserved));
    }
  }
}

Json CreateUserPoolDomain(JsonCall& call) {
  std::string domain = RequiredJsonString(call.input, "Domain");
  Json pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"));
  if (call.input.contains("CustomDomainConfig")) {
    throw CognitoInvalid("The sandbox serves prefix domains only (no CustomDomainConfig).");
  }
  CheckDomainPrefix(domain);
  if (LookUpDomain(call.ctx, domain)) throw CognitoInvalid("Domain already exists.");
  if (pool.contains("Domain")) throw CognitoInvalid("User pool already has a domain configured.");
  std::string distribution = call.world().RandomString(14, "abcdefghijklmnopqrstuvwxyz0123456789") + ".cloudfront.net";
  Json doc = {{"UserPoolId", pool["Id"]},
              {"AWSAccountId", call.account()},
              {"Domain", domain},
              {"S3Bucket", "aws-cognito-prod-" + RegionOf(call.ctx) + "-assets"},
              {"CloudFrontDistribution", distribution},
              {"Version", "20" + call.world().RandomString(10, "0123456789")},
              {"ManagedLoginVersion", call.input.value("ManagedLoginVersion", 1)},
              {"CreatedMs", CognitoNowMs(call.ctx)}};
  call.world().Put(kDomainKind, RegionOf(call.ctx) + "/" + domain, doc);
  pool["Domain"] = domain;
  SavePool(call.ctx, pool);
  return Json{{"ManagedLoginVersion", doc["ManagedLoginVersion"]}};
}

Json DescribeUserPoolDomain(JsonCall& call) {
  std::optional<Json> doc = LookUpDomain(call.ctx, RequiredJsonString(call.input, "Domain"));
  // AWS answers an unknown domain with an empty description, not an error.
  if (!doc) return Json{{"DomainDescription", Json::object()}};
  Json out = *doc;
  if (out.contains("DeletingMs")) out["Status"] = "DELETING";
  out.erase("CreatedMs");
  out.erase("DeletingMs");
  return Json{{"DomainDescription", out}};
}

Json DeleteUserPoolDomain(JsonCall& call) {
  std::string domain = RequiredJsonString(call.input, "Domain");
  std::string pool_id = RequiredJsonString(call.input, "UserPoolId");
  std::optional<Json> doc = LookUpDomain(call.ctx, domain);
  if (!doc || (*doc)["UserPoolId"] != pool_id || doc->contains("DeletingMs")) {
    throw CognitoInvalid("No such domain or user pool exists.");
  }
  (*doc)["DeletingMs"] = CognitoNowMs(call.ctx);
  doc->erase("Status");
  call.world().Put(kDomainKind, RegionOf(call.ctx) + "/" + domain, *doc);
  return Json::object();
}

// ---- Identity providers

//! The provider details as Cognito keeps them: for Google and Facebook, the endpoints it
//! fills in beside what was given.
Json ProviderDetailsOf(const std::string& type, Json details) {
  if (type == "Google") {
    for (const char* needed : {"client_id", "client_secret", "authorize_scopes"}) {
      if (!details.contains(needed)) throw CognitoInvalid(std::string(needed) + " is required for Google.");
    }
    const std::pair<const char*, const char*> defaults[] = {
        {"attributes_url", "https://people.googleapis.com/v1/people/me?personFields="},
        {"attributes_url_add_attributes", "true"},
        {"authorize_url", "https://accounts.google.com/o/oauth2/v2/auth"},
        {"oidc_issuer", "https://accounts.google.com"},
        {"token_request_method", "POST"},
        {"token_url", "https://www.googleapis.com/oauth2/v4/token"}};
    for (const auto& [key, value] : defaults) {
      if (!details.contains(key)) details[key] = value;
    }
  }
  return details;
}

Json FindIdp(ServiceContext& ctx, const std::string& pool, const std::string& name) {
  std::optional<Json> idp = ctx.world.Get(kIdpKind, pool + "/" + name);
  if (!idp) throw CognitoNotFound("Identity provider " + name + " does not exist.");
  return *idp;
}

Json CreateIdentityProvider(JsonCall& call) {
  std::string pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))["Id"].get<std::string>();
  std::string name = RequiredJsonString(call.input, "ProviderName");
  std::string type = RequiredJsonString(call.input, "ProviderType");
  static const std::vector<std::string> kTypes = {"SAML", "Facebook", "Google", "LoginWithAmazon", "SignInWithApple", "OIDC"};
  if (std::find(kTypes.begin(), kTypes.end(), type) == kTypes.end()) throw CognitoInvalid("Invalid ProviderType: " + type);
  if (name.empty() || name.size() > 32) throw CognitoInvalid("ProviderName must be 1 to 32 characters.");
  if (call.world().Get(kIdpKind, pool + "/" + name)) {
    throw ApiError(400, "DuplicateProviderException", "A provider with the name " + name + " already exists in this user pool.");
  }
  Json mapping = JsonStringMap(call.input, "AttributeMapping").empty() ? Json::object() : call.input["AttributeMapping"];
  if (type == "Google" && !mapping.contains("username")) mapping["username"] = "sub";
  double now = EpochSeconds(call.ctx.now);
  Json idp = {{"UserPoolId", pool},
              {"ProviderName", name},
              {"ProviderType", type},
              {"ProviderDetails", ProviderDetailsOf(type, call.input.value("ProviderDetails", Json::object()))},
              {"AttributeMapping", mapping},
              {"IdpIdentifiers", call.input.value("IdpIdentifiers", Json::array())},
              {"CreationDate", now},
              {"LastModifiedDate", now}};
  call.world().Put(kIdpKind, pool + "/" + name, idp);
  return Json{{"IdentityProvider", idp}};
}

Json DescribeIdentityProvider(JsonCall& call) {
  std::string pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))["Id"].get<std::string>();
  return Json{{"IdentityProvider", FindIdp(call.ctx, pool, RequiredJsonString(call.input, "ProviderName"))}};
}

Json UpdateIdentityProvider(JsonCall& call) {
  std::string pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))["Id"].get<std::string>();
  Json idp = FindIdp(call.ctx, pool, RequiredJsonString(call.input, "ProviderName"));
  if (call.input.contains("ProviderDetails")) {
    idp["ProviderDetails"] = ProviderDetailsOf(idp["ProviderType"].get<std::string>(), call.input["ProviderDetails"]);
  }
  if (call.input.contains("AttributeMapping")) {
    JsonStringMap(call.input, "AttributeMapping");
    idp["AttributeMapping"] = call.input["AttributeMapping"];
  }
  if (call.input.contains("IdpIdentifiers")) idp["IdpIdentifiers"] = call.input["IdpIdentifiers"];
  idp["LastModifiedDate"] = EpochSeconds(call.ctx.now);
  call.world().Put(kIdpKind, pool + "/" + idp["ProviderName"].get<std::string>(), idp);
  return Json{{"IdentityProvider", idp}};
}

Json DeleteIdentityProvider(JsonCall& call) {
  std::string pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))["Id"].get<std::string>();
  std::string name = RequiredJsonString(call.input, "ProviderName");
  if (!call.world().Erase(kIdpKind, pool + "/" + name)) throw CognitoNotFound("Identity provider " + name + " does not exist.");
  return Json::object();
}

Json ListIdentityProviders(JsonCall& call) {
  std::string pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))["Id"].get<std::string>();
  Json providers = Json::array();
  for (const auto& [key, idp] : call.world().ListPrefix(kIdpKind, pool + "/")) {
    providers.push_back({{"ProviderName", idp["ProviderName"]}, {"ProviderType", idp["ProviderType"]},
                         {"CreationDate", idp["CreationDate"]}, {"LastModifiedDate", idp["LastModifiedDate"]}});
  }
  return Json{{"Providers", providers}};
}

// ---- App clients

void CheckRedirectUrl(const std::string& url, const char* what) {
  bool https = url.rfind("https://", 0) == 0;
  bool local = url.rfind("http://localhost", 0) == 0 || url.rfind("http://127.0.0.1", 0) == 0;
  bool custom_scheme = url.find("://") != std::string::npos && url.rfind("http", 0) != 0;
  if ((!https && !local && !custom_scheme) || url.find('#') != std::string::npos || url.size() > 1024) {
    throw CognitoInvalid(std::string(what) + " " + url +
                         " is not valid: it must use https (http only for localhost) and have no fragment.");
  }
}

//! The client settings CreateUserPoolClient and UpdateUserPoolClient take, checked and
//! applied to `client`; what the call leaves out returns to its default.
void ApplyClientSettings(ServiceContext& ctx, Json& client, const Json& input) {
  std::string pool = client["UserPoolId"].get<std::string>();
  client["ClientName"] = RequiredJsonString(input, "ClientName");
  for (const char* list : {"CallbackURLs", "LogoutURLs", "AllowedOAuthFlows", "AllowedOAuthScopes", "ExplicitAuthFlows",
                           "SupportedIdentityProviders", "ReadAttributes", "WriteAttributes"}) {
    if (input.contains(list) && !input[list].is_array()) throw CognitoInvalid(std::string(list) + " must be a list.");
    if (input.contains(list) && !input[list].empty()) {
      client[list] = input[list];
    } else {
      client.erase(list);
    }
  }
  for (const Json& url : client.value("CallbackURLs", Json::array())) CheckRedirectUrl(url.get<std::string>(), "CallbackURL");
  for (const Json& url : client.value("LogoutURLs", Json::array())) CheckRedirectUrl(url.get<std::string>(), "LogoutURL");
  std::string default_uri = OptionalJsonString(input, "DefaultRedirectURI");
  if (!default_uri.empty()) {
    Json callbacks = client.value("CallbackURLs", Json::array());
    if (std::find(callbacks.begin(), callbacks.end(), default_uri) == callbacks.end()) {
      throw CognitoInvalid("DefaultRedirectURI must be one of the CallbackURLs.");
    }
    client["DefaultRedirectURI"] = default_uri;
  } else {
    client.erase("DefaultRedirectURI");
  }
  for (const Json& flow : client.value("AllowedOAuthFlows", Json::array())) {
    if (flow != "code" && flow != "implicit" && flow != "client_credentials") {
      throw CognitoInvalid("AllowedOAuthFlows may hold code, implicit and client_credentials.");
    }
  }
  bool oauth = input.value("AllowedOAuthFlowsUserPoolClient", false);
  if (oauth && (!client.contains("AllowedOAuthFlows") || !client.contains("AllowedOAuthScopes"))) {
    throw CognitoInvalid("AllowedOAuthFlows and AllowedOAuthScopes are required if user pool client is allowed to use OAuth flows.");
  }
  if (oauth && !client.contains("CallbackURLs")) {
    throw CognitoInvalid("CallbackURLs are required if user pool client is allowed to use OAuth flows.");
  }
  client["AllowedOAuthFlowsUserPoolClient"] = oauth;
  for (const Json& provider : client.value("SupportedIdentityProviders", Json::array())) {
    std::string name = provider.get<std::string>();
    if (name != "COGNITO" && !ctx.world.Get(kIdpKind, pool + "/" + name)) {
      throw CognitoInvalid("The provider " + name + " does not exist for User Pool " + pool);
    }
  }
  client["RefreshTokenValidity"] = input.value("RefreshTokenValidity", 30);
  client["AuthSessionValidity"] = input.value("AuthSessionValidity", 3);
  client["EnableTokenRevocation"] = input.value("EnableTokenRevocation", true);
  client["EnablePropagateAdditionalUserContextData"] = input.value("EnablePropagateAdditionalUserContextData", false);
  client["PreventUserExistenceErrors"] = input.value("PreventUserExistenceErrors", "ENABLED");
  for (const char* member : {"AccessTokenValidity", "IdTokenValidity", "TokenValidityUnits", "AnalyticsConfiguration"}) {
    if (input.contains(member)) {
      client[member] = input[member];
    } else {
      client.erase(member);
    }
  }
  client["LastModifiedDate"] = EpochSeconds(ctx.now);
}

Json FindClient(ServiceContext& ctx, const Json& input) {
  std::string pool = FindPool(ctx, RequiredJsonString(input, "UserPoolId"))["Id"].get<std::string>();
  std::string id = RequiredJsonString(input, "ClientId");
  std::optional<Json> client = ctx.world.Get(kClientKind, pool + "/" + id);
  if (!client) throw CognitoNotFound("User pool client " + id + " does not exist.");
  return *client;
}

Json CreateUserPoolClient(JsonCall& call) {
  std::string pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))["Id"].get<std::string>();
  std::string id = call.world().RandomString(26, "abcdefghijklmnopqrstuvwxyz0123456789");
  Json client = {{"UserPoolId", pool}, {"ClientId", id}, {"CreationDate", EpochSeconds(call.ctx.now)}};
  ApplyClientSettings(call.ctx, client, call.input);
  if (call.input.value("GenerateSecret", false)) client["ClientSecret"] = call.world().RandomString(51, kAlnum);
  call.world().Put(kClientKind, pool + "/" + id, client);
  return Json{{"UserPoolClient", client}};
}

Json DescribeUserPoolClient(JsonCall& call) { return Json{{"UserPoolClient", FindClient(call.ctx, call.input)}}; }

Json UpdateUserPoolClient(JsonCall& call) {
  Json client = FindClient(call.ctx, call.input);
  Json input = call.input;
  if (!input.contains("ClientName")) input["ClientName"] = client["ClientName"];
  ApplyClientSettings(call.ctx, client, input);
  call.world().Put(kClientKind, client["UserPoolId"].get<std::string>() + "/" + client["ClientId"].get<std::string>(), client);
  return Json{{"UserPoolClient", client}};
}

Json DeleteUserPoolClient(JsonCall& call) {
  Json client = FindClient(call.ctx, call.input);
  call.world().Erase(kClientKind, client["UserPoolId"].get<std::string>() + "/" + client["ClientId"].get<std::string>());
  return Json::object();
}

Json ListUserPoolClients(JsonCall& call) {
  std::string pool = FindPool(call.ctx, RequiredJsonString(call.input, "UserPoolId"))["Id"].get<std::string>();
  Json clients = Json::array();
  for (const auto& [key, client] : call.world().ListPrefix(kClientKind, pool + "/")) {
    clients.push_back({{"ClientId", client["ClientId"]}, {"UserPoolId", pool}, {"ClientName", client["ClientName"]}});
  }
  return Json{{"UserPoolClients", clients}};
}

// ---- Tags (user pools are the taggable resource)

Json PoolByArn(ServiceContext& ctx, const Json& input) {
  std::string arn = RequiredJsonString(input, "ResourceArn");
  size_t slash = arn.find(":userpool/");
  if (slash == std::string::npos) throw CognitoInvalid("Invalid ResourceArn: " + arn);
  return FindPool(ctx, arn.substr(slash + 10));
}

Json TagResource(JsonCall& call) {
  Json pool = PoolByArn(call.ctx, call.input);
  Json added = TagMapOf(call.input, "Tags");
  for (const auto& [key, value] : added.items()) pool["UserPoolTags"][key] = value;
  if (pool["UserPoolTags"].size() > 50) throw CognitoInvalid("A user pool holds at most 50 tags.");
  SavePool(call.ctx, pool);
  return Json::object();
}

Json UntagResource(JsonCall& call) {
  Json pool = PoolByArn(call.ctx, call.input);
  for (const Json& key : call.input.value("TagKeys", Json::array())) {
    if (key.is_string()) pool["UserPoolTags"].erase(key.get<std::string>());
  }
  SavePool(call.ctx, pool);
  return Json::object();
}

Json ListTagsForResource(JsonCall& call) { return Json{{"Tags", PoolByArn(call.ctx, call.input)["UserPoolTags"]}}; }

}  // namespace
}  // namespace cognitoidp

std::unique_ptr<Service> NewCognitoIdpService() {
  using namespace cognitoidp;
  JsonActionTable actions = {{"CreateUserPool", CreateUserPool},
                             {"DescribeUserPool", DescribeUserPool},
                             {"UpdateUserPool", UpdateUserPool},
                             {"DeleteUserPool", DeleteUserPool},
                             {"ListUserPools", ListUserPools},
                             {"CreateUserPoolDomain", CreateUserPoolDomain},
                             {"DescribeUserPoolDomain", DescribeUserPoolDomain},
                             {"DeleteUserPoolDomain", DeleteUserPoolDomain},
                             {"CreateIdentityProvider", CreateIdentityProvider},
                             {"DescribeIdentityProvider", DescribeIdentityProvider},
                             {"UpdateIdentityProvider", UpdateIdentityProvider},
                             {"DeleteIdentityProvider", DeleteIdentityProvider},
                             {"ListIdentityProviders", ListIdentityProviders},
                             {"CreateUserPoolClient", CreateUserPoolClient},
                             {"DescribeUserPoolClient", DescribeUserPoolClient},
                             {"UpdateUserPoolClient", UpdateUserPoolClient},
                             {"DeleteUserPoolClient", DeleteUserPoolClient},
                             {"ListUserPoolClients", ListUserPoolClients},
                             {"TagResource", TagResource},
                             {"UntagResource", UntagResource},
                             {"ListTagsForResource", ListTagsForResource}};
  return NewJsonService("cognito-idp", {"AWSCognitoIdentityProviderService", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
