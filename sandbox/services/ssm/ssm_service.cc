// The Systems Manager parameter store (awsJson 1.1, target prefix AmazonSSM): GetParameter,
// GetParameters, PutParameter and DeleteParameter over the account's parameters and the
// public ones AWS publishes (ssm_parameters.h). A SecureString read without decryption
// answers an opaque token derived from the value (not the value, and not reversible), as
// AWS answers ciphertext; the sandbox keeps the value itself, like any emulator.

#include <algorithm>
#include <cctype>

#include "engine/base/hash.h"
#include "sandbox/json_service.h"
#include "sandbox/services/ssm/ssm_parameters.h"

namespace strata::sandbox {
namespace ssm {
namespace {

ApiError ParameterNotFound(const std::string& name) {
  return ApiError(400, "ParameterNotFound", "Parameter " + name + " not found.");
}

ApiError SsmValidation(const std::string& message) { return ApiError(400, "ValidationException", message); }

std::string ParameterKey(const ServiceContext& ctx, const std::string& name) { return RegionOf(ctx) + "/" + name; }

void CheckParameterName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 2048;
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '/');
  if (!ok) {
    throw SsmValidation("Parameter name: can't be prefixed with \"aws\" or \"ssm\" (case-insensitive). It must use only "
                        "letters, numbers, and the following 4 symbols .-_/, and be 1 to 2048 characters: " + name);
  }
  if (name.find('/') != std::string::npos && name[0] != '/') {
    throw SsmValidation("Parameter name must be a fully qualified name: a hierarchy starts with \"/\" (" + name + ").");
  }
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  for (const char* reserved : {"aws", "ssm", "/aws", "/ssm"}) {
    if (lower.rfind(reserved, 0) == 0) {
      throw SsmValidation("No access to reserved parameter name: " + name + ".");
    }
  }
}

//! The parameter `name` (a version selector "name:N" allowed), public or the account's.
Json FindParameter(ServiceContext& ctx, const std::string& selector) {
  std::string name = selector;
  std::optional<int64_t> version;
  size_t colon = selector.rfind(':');
  if (colon != std::string::npos) {
    name = selector.substr(0, colon);
    version = std::strtoll(selector.c_str() + colon + 1, nullptr, 10);
  }
  std::optional<Json> found = PublicParameter(ctx, name);
  if (!found) found = ctx.world.Get(kParameterKind, ParameterKey(ctx, name));
  if (!found) throw ParameterNotFound(selector);
  if (version && *version != (*found)["version"].get<int64_t>()) {
    throw ApiError(400, "ParameterVersionNotFound",
                   "Systems Manager could not find version " + std::to_string(*version) + " of " + name + ".");
  }
  return *found;
}

Json Rendered(const ServiceContext& ctx, const Json& parameter, bool decrypt) {
  std::string name = parameter["name"].get<std::string>();
  std::string value = parameter["value"].get<std::string>();
  bool secure = parameter["type"] == "SecureString";
  if (secure && !decrypt) value = "AQICAH" + base::Sha256Hex("strata-sandbox-ssm:" + value);
  std::string arn = parameter.value("arn", "arn:aws:ssm:" + RegionOf(ctx) + ":" + ctx.settings.account_id +
                                               ":parameter" + (name[0] == '/' ? name : "/" + name));
  return Json{{"Name", name},
              {"Type", parameter["type"]},
              {"Value", value},
              {"Version", parameter["version"]},
              {"LastModifiedDate", parameter["modified"]},
              {"ARN", arn},
              {"DataType", parameter.value("data_type", "text")}};
}

bool WithDecryption(const Json& input) {
  auto it = input.find("WithDecryption");
  return it != input.end() && it->is_boolean() && it->get<bool>();
}

Json GetParameter(JsonCall& call) {
  Json parameter = FindParameter(call.ctx, RequiredJsonString(call.input, "Name"));
  return Json{{"Parameter", Rendered(call.ctx, parameter, WithDecryption(call.input))}};
}

Json GetParameters(JsonCall& call) {
  Json found = Json::array(), invalid = Json::array();
  if (!call.input.contains("Names") || !call.input["Names"].is_array() || call.input["Names"].empty()) {
    throw SsmValidation("Names must name 1 to 10 parameters.");
  }
  if (call.input["Names"].size() > 10) throw SsmValidation("Names must name 1 to 10 parameters.");
  for (const Json& name : call.input["Names"]) {
    if (!name.is_string()) continue;
    try {
      found.push_back(Rendered(call.ctx, FindParameter(call.ctx, name.get<std::string>()), WithDecryption(call.input)));
    } catch (const ApiError&) {
      invalid.push_back(name);
    }
  }
  return Json{{"Parameters", found}, {"InvalidParameters", invalid}};
}

Json PutParameter(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "Name");
  std::string value = RequiredJsonString(call.input, "Value");
  CheckParameterName(name);
  if (value.empty() || value.size() > 4096) throw SsmValidation("Parameter value must be 1 to 4096 characters.");
  std::string key = ParameterKey(call.ctx, name);
  std::optional<Json> existing = call.world().Get(kParameterKind, key);
  bool overwrite = call.input.value("Overwrite", false);
  if (existing && !overwrite) {
    throw ApiError(400, "ParameterAlreadyExists", "The parameter already exists. To overwrite this request value, set "
                                                  "the overwrite option in the request to true.");
  }
  std::string type = OptionalJsonString(call.input, "Type");
  if (type.empty()) type = existing ? (*existing)["type"].get<std::string>() : "";
  if (type != "String" && type != "StringList" && type != "SecureString") {
    throw SsmValidation("Type must be String, StringList or SecureString.");
  }
  if (existing && call.input.contains("Tags")) {
    throw SsmValidation("Invalid request: tags and overwrite can't be used together. To create a parameter with tags, "
                        "please remove overwrite flag. To update tags for an existing parameter, please use "
                        "AddTagsToResource or RemoveTagsFromResource.");
  }
  int64_t version = existing ? (*existing)["version"].get<int64_t>() + 1 : 1;
  Json parameter = {{"region", RegionOf(call.ctx)},
                    {"name", name},
                    {"type", type},
                    {"value", value},
                    {"description", OptionalJsonString(call.input, "Description")},
                    {"version", version},
                    {"modified", EpochSeconds(call.ctx.now)},
                    {"tags", existing ? (*existing)["tags"] : Json(call.input.value("Tags", Json::array()))}};
  call.world().Put(kParameterKind, key, parameter);
  return Json{{"Version", version}, {"Tier", "Standard"}};
}

Json DeleteParameter(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "Name");
  if (!call.world().Erase(kParameterKind, ParameterKey(call.ctx, name))) throw ParameterNotFound(name);
  return Json::object();
}

}  // namespace
}  // namespace ssm

std::unique_ptr<Service> NewSsmService() {
  JsonActionTable actions = {{"GetParameter", ssm::GetParameter},
                             {"GetParameters", ssm::GetParameters},
                             {"PutParameter", ssm::PutParameter},
                             {"DeleteParameter", ssm::DeleteParameter}};
  return NewJsonService("ssm", {"AmazonSSM", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
